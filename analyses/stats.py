"""Statistical building blocks shared by the analyses, all delegating to scipy.

Every interval is two-sided at ``CONFIDENCE`` (95%). Proportions use Wilson intervals, written
out (scipy's are the same to 1e-15, ``tests/test_startup.py``): importing scipy's
statistics takes half a second a run's headline need not pay, so scipy is imported where used;
paired comparisons (common random numbers: the same game index under two rule sets) use an exact
McNemar test on discordant pairs for yes/no outcomes and a paired t interval for numbers.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval."""

    value: float
    lo: float
    hi: float

    @property
    def width(self) -> float:
        return self.hi - self.lo

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class Difference:
    """Variant minus baseline, with its 95% interval and the test's p-value."""

    base: float
    other: float
    diff: float
    lo: float
    hi: float
    p_value: float
    test: str

    @property
    def change(self) -> dict[str, float]:
        """The difference as the JSON estimate ``{"value", "lo", "hi"}``."""
        return {"value": self.diff, "lo": self.lo, "hi": self.hi}

    def as_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "other": self.other,
            "change": self.change,
            "p_value": self.p_value,
            "test": self.test,
        }


def proportion(k: int, n: int) -> Estimate:
    """Share ``k / n`` with its Wilson interval (NaN when ``n`` is 0)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    return _wilson(k / n, n)


def share_proportion(total: float, n: int, squares: float | None = None) -> Estimate:
    """Mean share ``total / n`` over ``n`` games in which each game gives a share in [0, 1] (a
    seat's share of the win: 1, 1/k for a k-way shared win, 0), with its 95% interval.
    ``squares`` is the sum of the squared shares; None, or equal to ``total``, means every share
    was 0 or 1, and the interval is then exactly :func:`proportion`'s (runs without a shared
    win read as before).

    The interval is Wilson's at an effective number of games (Korn and Graubard's design
    effect): Wilson's score interval assumes the per-game variance p(1 - p) of a yes/no
    outcome, the largest any [0, 1] variable of mean p can have; shares vary less, so Wilson on
    ``n`` games over-covers (every seat's true share held in 99.9 to 100% of simulated runs with
    many shared wins), and Wilson on ``n * p(1 - p) / variance`` games has the width the shares
    call for while keeping Wilson's good behaviour near 0 and 1. The variance is estimated with
    two pseudo-games added, one share 0 and one share 1, so a small run whose games all happened
    to share alike (a variance of 0) does not get a point for an interval: a t interval on the
    shares held the truth in only 80 to 87% of simulated 20-game runs of mostly three-way ties,
    this one in 99.9%. Measured in ``tests/test_outcome_shares.py``: 94 to 97.5% over 200 or
    more games, more in smaller runs."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    p = total / n
    effective = float(n)
    if squares is None or squares >= total:  # every share 0 or 1: a count of wins
        if float(total).is_integer():
            return proportion(int(total), n)
    elif 0 < p < 1:
        mean = (total + 1) / (n + 2)
        variance = (squares + 1) / (n + 2) - mean * mean
        effective = max(float(n), n * p * (1 - p) / variance)
    return _wilson(p, effective)


def outcome_mean(total: float, n: int, squares: float, unbounded: bool) -> Estimate:
    """The mean of a per-game outcome from its sum and sum of squares: a share of the win
    (:func:`share_proportion`), or an unbounded amount such as a return (a t interval)."""
    if not unbounded:
        return share_proportion(total, n, squares)
    if n < 2:
        return Estimate(total / n if n else math.nan, math.nan, math.nan)
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return mean_from_moments(mean, math.sqrt(variance), n)


def _wilson(p: float, n: float) -> Estimate:
    """Wilson's score interval of a share ``p`` of ``n`` (possibly effective) games."""
    z = NormalDist().inv_cdf(1 - ALPHA / 2)
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 or 1 an end equals p in exact arithmetic; rounding must not put p outside.
    return Estimate(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def mean_from_moments(mean: float, std: float, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """Mean with its t interval from summary moments (the run is never loaded whole)."""
    from scipy import stats

    if n < 2 or not math.isfinite(std):
        return Estimate(mean, math.nan, math.nan)
    if std == 0:
        return Estimate(mean, mean, mean)
    lo, hi = stats.t.interval(confidence, n - 1, loc=mean, scale=std / math.sqrt(n))
    return Estimate(mean, float(lo), float(hi))


def family_confidence(comparisons: int) -> float:
    """Confidence of each of ``comparisons`` intervals so that all of them hold together at
    ``CONFIDENCE`` (Bonferroni): a claim resting on several intervals is then a 95% claim."""
    return 1 - ALPHA / max(comparisons, 1)


def paired_share_difference(
    wins_a: float,
    wins_b: float,
    games: int,
    confidence: float = CONFIDENCE,
    squares: float | None = None,
) -> Estimate:
    """Share of games won by ``a`` minus share won by ``b`` in the same games, with its paired
    t interval. ``wins_a`` and ``wins_b`` are the sums of the two seats' shares of the win;
    ``squares`` the sum over games of the squared per-game difference. With one winner per game
    the difference is +1, -1 or 0, so ``squares`` is ``wins_a + wins_b`` (the default); a
    shared win gives fractional differences, whose squares the caller sums."""
    if games < 2:
        return Estimate(math.nan, math.nan, math.nan)
    mean = (wins_a - wins_b) / games
    squared = wins_a + wins_b if squares is None else squares
    variance = max(0.0, (squared - games * mean**2) / (games - 1))
    return mean_from_moments(mean, math.sqrt(variance), games, confidence)


POWER = 0.8  # the chance a test should have of telling a difference apart, for "games to tell"


RIVAL_CORRELATION = 0.5  # between two differences from one leader (leader minus each rival)


def games_to_tell(
    diffs: Estimate | list[Estimate], games: int, confidence: float = CONFIDENCE
) -> int | None:
    """Roughly how many games would tell every one of these differences from none at once: an
    interval's half-width shrinks as 1/sqrt(games), so find the count at which, were each true
    difference the one seen, all of the intervals exclude zero together with probability
    ``POWER``. Differences from one leader share its games, so they are taken as normal with
    correlation ``RIVAL_CORRELATION`` (that of rivals of equal spread; the seats of a game
    correlate a little more, which errs toward more games). None when nothing was seen."""
    from scipy import optimize, special, stats

    diffs = [diffs] if isinstance(diffs, Estimate) else list(diffs)
    if not diffs or games < 1:
        return None
    z = float(stats.norm.ppf(1 - (1 - confidence) / 2))
    ratios = []  # each difference over its standard error, at ``games``
    for d in diffs:
        half = (d.hi - d.lo) / 2
        if not (math.isfinite(half) and math.isfinite(d.value)) or d.value == 0:
            return None
        if half > 0:
            ratios.append(abs(d.value) / (half / z))
    if not ratios:
        return games
    rho = RIVAL_CORRELATION if len(ratios) > 1 else 0.0

    # Every standardised difference above z: one normal term shared, one of each's own.
    nodes, weights = np.polynomial.hermite_e.hermegauss(48)  # integrates over the shared term
    weights = weights / weights.sum()

    def shortfall(count: float) -> float:
        bars = np.array(ratios) * math.sqrt(count / games) - z
        shared = math.sqrt(rho) * nodes[:, None]
        told = weights @ np.prod(special.ndtr((bars + shared) / math.sqrt(1 - rho)), axis=1)
        return POWER - float(told)

    if shortfall(games) <= 0:
        return games
    upper = 2.0 * games
    while shortfall(upper) > 0:
        upper *= 2
    return math.ceil(optimize.brentq(shortfall, games, upper, xtol=0.5))


def lead(
    leader: str, rivals: list[tuple[str, Estimate]], games: int, confidence: float
) -> dict[str, Any]:
    """Whether ``leader`` is separated from every rival. Each estimate is leader minus rival,
    paired on common games, its interval at ``confidence`` (corrected for the number of rivals
    with :func:`family_confidence`). ``tied`` lists the rivals it cannot be told apart from,
    ``games_to_tell`` roughly how many games would tell it from all of them."""
    tied = [(name, d) for name, d in rivals if not d.lo > 0]
    closest = min(rivals, key=lambda r: r[1].value) if rivals else None
    return {
        "leader": leader,
        "comparisons": len(rivals),
        "confidence": confidence,
        "separated": bool(rivals) and not tied,
        "tied": [{"name": name, **d.as_dict()} for name, d in tied],
        "closest": {"name": closest[0], **closest[1].as_dict()} if closest else None,
        "games": games,
        "games_to_tell": games_to_tell([d for _, d in tied], games, confidence),
    }


def uniform_seat_test(wins: list[float]) -> float:
    """p-value of a chi-square test that decided games are shared equally among seats.

    ``wins`` are the seats' sums of shares of the win. A k-way shared win spreads one game over
    k seats, which makes the seats' totals vary less than the multinomial counts the test
    assumes: with shared wins the test is conservative (a p-value too large, never too small)."""
    from scipy import stats

    observed = np.asarray(wins, dtype=float)
    if observed.sum() == 0 or len(observed) < 2:
        return math.nan
    return float(stats.chisquare(observed).pvalue)


def paired_proportion(
    base: np.ndarray, other: np.ndarray, confidence: float = CONFIDENCE
) -> Difference:
    """Change in a yes/no outcome over games paired by index.

    The p-value is McNemar's exact test (a binomial test on the discordant pairs); the interval
    is the paired t interval of the per-game differences, at ``confidence``.
    """
    from scipy import stats

    base = np.asarray(base, dtype=bool)
    other = np.asarray(other, dtype=bool)
    lost = int(np.sum(base & ~other))
    gained = int(np.sum(~base & other))
    discordant = lost + gained
    p = 1.0 if discordant == 0 else float(stats.binomtest(gained, discordant).pvalue)
    d = other.astype(np.int8) - base.astype(np.int8)
    lo, hi = paired_interval(d, confidence)
    return Difference(
        float(base.mean()),
        float(other.mean()),
        float(d.mean()),
        lo,
        hi,
        p,
        "McNemar exact (paired games)",
    )


def paired_mean(base: np.ndarray, other: np.ndarray) -> Difference:
    """Change in a per-game number over games paired by index (paired t test and interval)."""
    from scipy import stats

    base = np.asarray(base, dtype=float)
    other = np.asarray(other, dtype=float)
    d = other - base
    lo, hi = paired_interval(d)
    if len(d) < 2 or np.all(d == d[0]):
        p = 1.0 if len(d) == 0 or d[0] == 0 else 0.0
    else:
        p = float(stats.ttest_1samp(d, 0.0).pvalue)
    return Difference(
        float(base.mean()), float(other.mean()), float(d.mean()), lo, hi, p, "paired t"
    )


def paired_interval(d: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """t interval of the mean of per-game differences ``d`` (a point when they are all equal)."""
    from scipy import stats

    if len(d) < 2:
        return math.nan, math.nan
    if np.all(d == d[0]):
        return float(d[0]), float(d[0])
    ci = stats.ttest_1samp(d, 0.0).confidence_interval(confidence_level=confidence)
    return float(ci.low), float(ci.high)


def share_change(
    base: np.ndarray, other: np.ndarray, is_paired: bool, confidence: float = CONFIDENCE
) -> Difference:
    """Change in a seat's share of the win (per game 0, 1/k or 1). Shares that are all 0 or 1
    are yes/no outcomes and take exactly :func:`paired_proportion` or
    :func:`unpaired_proportion`; fractional shares (a shared win) take the t test and interval
    of their mean: paired over the same games (at ``confidence``), or Welch's between
    independent runs."""
    from scipy import stats

    base = np.asarray(base, dtype=float)
    other = np.asarray(other, dtype=float)
    whole = np.isin(base, (0.0, 1.0)).all() and np.isin(other, (0.0, 1.0)).all()
    if whole:
        if is_paired:
            return paired_proportion(base.astype(bool), other.astype(bool), confidence)
        return unpaired_proportion(base, other)
    if is_paired:
        d = paired_mean(base, other)
        lo, hi = paired_interval(other - base, confidence)
        return Difference(d.base, d.other, d.diff, lo, hi, d.p_value, "paired t (shares)")
    lo, hi = _welch_interval(base, other)
    if base.var() == 0 and other.var() == 0:
        p = 1.0 if base.mean() == other.mean() else 0.0
    else:
        p = float(stats.ttest_ind(other, base, equal_var=False).pvalue)
    return Difference(
        float(base.mean()),
        float(other.mean()),
        float(other.mean() - base.mean()),
        lo,
        hi,
        p,
        "Welch t (shares, independent runs)",
    )


def unpaired_proportion(base: np.ndarray, other: np.ndarray) -> Difference:
    """Change in a yes/no outcome between independent runs (chi-square test, Welch interval)."""
    from scipy import stats

    base = np.asarray(base, dtype=float)
    other = np.asarray(other, dtype=float)
    table = np.array(
        [[base.sum(), len(base) - base.sum()], [other.sum(), len(other) - other.sum()]]
    )
    if (table.sum(axis=0) == 0).any():
        p = 1.0
    else:
        p = float(stats.chi2_contingency(table).pvalue)
    lo, hi = _welch_interval(base, other)
    return Difference(
        float(base.mean()),
        float(other.mean()),
        float(other.mean() - base.mean()),
        lo,
        hi,
        p,
        "chi-square (independent runs)",
    )


def unpaired_mean(base: np.ndarray, other: np.ndarray) -> Difference:
    """Change in a per-game number between independent runs (Mann-Whitney test, Welch interval)."""
    from scipy import stats

    base = np.asarray(base, dtype=float)
    other = np.asarray(other, dtype=float)
    p = float(stats.mannwhitneyu(other, base).pvalue)
    lo, hi = _welch_interval(base, other)
    return Difference(
        float(base.mean()),
        float(other.mean()),
        float(other.mean() - base.mean()),
        lo,
        hi,
        p,
        "Mann-Whitney (independent runs)",
    )


def _welch_interval(base: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    from scipy import stats

    if len(base) < 2 or len(other) < 2 or (base.var() == 0 and other.var() == 0):
        d = float(other.mean() - base.mean())
        return d, d
    res = stats.ttest_ind(other, base, equal_var=False)
    ci = res.confidence_interval(confidence_level=CONFIDENCE)
    return float(ci.low), float(ci.high)


def adjust_p_values(p_values: list[float]) -> list[float]:
    """Benjamini-Hochberg adjustment for many comparisons (NaN entries are left as NaN)."""
    from scipy import stats

    p = np.asarray(p_values, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = stats.false_discovery_control(p[ok], method="bh")
    return out.tolist()


RESAMPLES = 2000
BOOTSTRAP_SEED = 20240101  # fixed: a report says the same thing every time it is built
BLOCKS = 1000  # games are resampled in this many blocks (one game per block in smaller runs)


def balance_of(counts: np.ndarray) -> np.ndarray:
    """Balance, 1 minus the largest gap between two seats' win rates, from outcome counts
    (last axis: wins of each seat (sums of shares of the win), then games nobody won)."""
    rates = counts[..., :-1] / counts.sum(axis=-1, keepdims=True)
    return 1.0 - (rates.max(axis=-1) - rates.min(axis=-1))


def _bootstrap(statistic, blocks: int, confidence: float) -> tuple[float, float]:
    """A basic (reverse percentile) bootstrap interval over ``blocks`` blocks of games.

    Basic, not percentile nor BCa: balance is a largest gap, biased low, and at perfect balance
    every resample lies below the estimate. Measured on 150 simulated runs each, the share of
    95% intervals covering the true balance was 0% (percentile), 1% (BCa) and 87% (basic) for
    three even seats over 3,000 games, 55%, 73% and 96% for two even seats over 500 games,
    91%, 93% and 95% at a true balance of 0.75.
    """
    from scipy import stats

    res = stats.bootstrap(
        (np.arange(blocks),),
        lambda idx, axis=-1: statistic(idx),
        vectorized=True,
        n_resamples=RESAMPLES,
        batch=100,  # resamples at a time: memory stays at 100 x blocks x outcomes
        method="basic",
        confidence_level=confidence,
        random_state=np.random.default_rng(BOOTSTRAP_SEED),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def balance_estimate(blocks: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """Balance with its interval: 1 minus the largest gap between two seats' win rates.

    The interval comes from every pair of seats at once: each pair's gap gets a normal interval
    for a difference of two shares of the same games, at Bonferroni-corrected confidence over
    the pairs, folded at zero (a gap whose interval holds zero may be zero); the largest gap lies
    between the largest lower and the largest upper end. A bootstrap of the largest gap under-
    covers near perfect balance: its basic interval held a true balance of 0.97 in 77% of 150
    simulated 400-game runs (this interval: in 95% or more, see the tests).

    ``blocks`` holds outcome counts (wins of each seat, then no winner) of blocks of games; a
    seat's wins are its sums of shares of the win. A pair's per-game difference has mean square
    at most ``rate_a + rate_b`` (equal without shared wins, below it with them, since the
    difference of two shares in [0, 1] squares to at most their sum), so shared wins leave the
    interval sound, at worst a little wide."""
    from scipy import stats

    counts = np.atleast_2d(np.asarray(blocks, dtype=float)).sum(axis=0)
    games = counts.sum()
    if games == 0:
        return Estimate(math.nan, math.nan, math.nan)
    rates = counts[:-1] / games
    seats = len(rates)
    value = float(1.0 - (rates.max() - rates.min()))
    if seats < 2:
        return Estimate(value, value, value)
    pairs = seats * (seats - 1) // 2
    z = float(stats.norm.ppf(1 - (1 - confidence) / (2 * pairs)))
    low_gap = high_gap = 0.0
    for a in range(seats):
        for b in range(a + 1, seats):
            d = rates[a] - rates[b]
            half = z * math.sqrt(max(rates[a] + rates[b] - d * d, 0.0) / games)
            lo, hi = d - half, d + half
            low_gap = max(low_gap, 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)))
            high_gap = max(high_gap, max(abs(lo), abs(hi)))
    return Estimate(value, max(0.0, 1.0 - high_gap), min(1.0, 1.0 - low_gap))


def balance_difference(
    blocks_a: np.ndarray, blocks_b: np.ndarray, confidence: float = CONFIDENCE
) -> Estimate:
    """Balance of ``a`` minus balance of ``b`` on the same games, paired: the blocks hold the
    same game indices in both runs, and each resample draws the same blocks from both."""
    a, b = np.asarray(blocks_a, dtype=float), np.asarray(blocks_b, dtype=float)
    value = float(balance_of(a.sum(axis=0)) - balance_of(b.sum(axis=0)))
    if len(a) < 2:
        return Estimate(value, math.nan, math.nan)
    lo, hi = _bootstrap(
        lambda idx: balance_of(a[idx].sum(axis=-2)) - balance_of(b[idx].sum(axis=-2)),
        len(a),
        confidence,
    )
    return Estimate(value, max(-1.0, lo), min(1.0, hi))
