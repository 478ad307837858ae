"""Places and returns by seat: the figures of the outcome model beyond the win.

Per seat, the share of games it finished in each place (1 = first; tied seats share a place)
with Wilson intervals, its mean place, the share of games it came last, and, in a game that pays
a return (chips, money, points), its mean return with a t interval. Which seat comes last most
often, and which has the best mean place, are claimed only when paired differences in the same
games separate it from every other seat, corrected for the P - 1 comparisons (as the win rates'
leader is, :func:`analyses.stats.lead`). ``compare`` gets each seat's change in mean return
(:func:`return_changes`) and targets their estimates (:func:`outcome_estimates`).

The mean place's interval. Places are bounded (1 to P), so the mean place is a bounded mean:
with u = (place - 1) / (P - 1) in [0, 1], the interval is Wilson's score interval for the mean
of u at an effective number of games n / d, where d = s^2 / (u(1 - u)) is the observed variance
over the largest a [0, 1] variable of that mean can have (Kish's design effect, d <= 1). For
middling means it is the t interval; near 1st or last place, where a t interval's normal
shape under-covers (a seat almost always first), it keeps Wilson's skew and never leaves 1..P.
A run whose games all put the seat in one place gets the bound of the Wilson interval of 0
games elsewhere, never a point. Its coverage is measured in ``tests/test_outcome_places.py``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simulator.contract.outcomes import PLACE, RETURNS, is_shared

from .runs import Run
from .stats import (
    CONFIDENCE,
    Difference,
    Estimate,
    family_confidence,
    lead,
    mean_from_moments,
    paired_mean,
    proportion,
    unpaired_mean,
)

RETURN_PREFIX, PLACE_PREFIX, SHARED = "return:", "place:", "shared"


# -- intervals ---------------------------------------------------------------------------------
def bounded_mean(
    mean: float, std: float, n: int, low: float, high: float, confidence: float = CONFIDENCE
) -> Estimate:
    """Mean of a variable bounded in ``low..high`` with its interval: Wilson's score interval
    at Kish's effective sample size (see the module's docstring)."""
    if n < 1 or not math.isfinite(mean):
        return Estimate(math.nan, math.nan, math.nan)
    span = high - low
    if span <= 0:
        return Estimate(mean, mean, mean)
    u = min(max((mean - low) / span, 0.0), 1.0)
    z = float(stats.norm.ppf(1 - (1 - confidence) / 2))
    if n < 2 or std <= 0 or u in (0.0, 1.0):
        # Every game gave the same value: bound the share of games that could lie elsewhere.
        elsewhere = proportion(0, n).hi
        lo = mean - (mean - low) * elsewhere
        hi = mean + (high - mean) * elsewhere
        return Estimate(mean, lo, hi)
    design_effect = min((std / span) ** 2 / (u * (1 - u)), 1.0)
    effective = n / design_effect
    denominator = 1 + z * z / effective
    centre = (u + z * z / (2 * effective)) / denominator
    half = (
        z * math.sqrt(u * (1 - u) / effective + z * z / (4 * effective * effective)) / denominator
    )
    lo_u, hi_u = max(0.0, centre - half), min(1.0, centre + half)
    return Estimate(mean, low + span * lo_u, low + span * hi_u)


# -- places ------------------------------------------------------------------------------------
def _last() -> pl.Expr:
    """Per game, the worst place any seat holds (the seats holding it came last, unless every
    seat holds it)."""
    return pl.col(PLACE).list.max()


def place_summary(run: Run) -> dict[str, Any] | None:
    """Per seat, the share of games in each place and its mean place, with intervals; the seat
    coming last most often and the seat with the best mean place, each against every other in
    the same games. None for a cooperative game (no places); ``recorded`` False for a run
    written before places were recorded."""
    if run.cooperative:
        return None
    n_players = run.n_players
    lf = run.scan()
    if PLACE not in lf.collect_schema().names():
        return {"recorded": False, "n_players": n_players, "seats": []}
    seats = range(n_players)
    pairs = [(a, b) for a in seats for b in seats if a != b]
    place = [pl.col(PLACE).list.get(s).cast(pl.Float64) for s in seats]
    # A game where every seat shares one place has no last seat.
    spread = pl.col(PLACE).list.max() > pl.col(PLACE).list.min()
    last = [(pl.col(PLACE).list.get(s) == _last()) & spread for s in seats]
    row = (
        lf.select(
            pl.len().alias("games"),
            *[
                (pl.col(PLACE).list.get(s) == k).sum().alias(f"p{s}_{k}")
                for s in seats
                for k in range(1, n_players + 1)
            ],
            *[place[s].mean().alias(f"mean{s}") for s in seats],
            *[place[s].std().alias(f"std{s}") for s in seats],
            *[last[s].sum().alias(f"last{s}") for s in seats],
            *[(last[a] & ~last[b]).sum().alias(f"only{a}_{b}") for a, b in pairs],
            *[((place[a] - place[b]) ** 2).sum().alias(f"sq{a}_{b}") for a, b in pairs],
        )  # fmt: skip
        .collect()
        .row(0, named=True)
    )
    games = int(row["games"])
    out_seats = []
    for s in seats:
        counts = [int(row[f"p{s}_{k}"] or 0) for k in range(1, n_players + 1)]
        mean, std = float(row[f"mean{s}"] or math.nan), float(row[f"std{s}"] or 0.0)
        out_seats.append(
            {
                "seat": s + 1,
                "policy": run.policies[s],
                "places": [
                    {"place": k + 1, "games": c, **proportion(c, games).as_dict()}
                    for k, c in enumerate(counts)
                ],
                "mean_place": bounded_mean(mean, std, games, 1.0, n_players).as_dict(),
                "last": {
                    "games": int(row[f"last{s}"] or 0),
                    **proportion(int(row[f"last{s}"] or 0), games).as_dict(),
                },
            }
        )
    lasts = [int(row[f"last{s}"] or 0) for s in seats]
    means = [float(row[f"mean{s}"] or math.nan) for s in seats]
    only = {(a, b): int(row[f"only{a}_{b}"] or 0) for a, b in pairs}
    squares = {(a, b): float(row[f"sq{a}_{b}"] or 0.0) for a, b in pairs}
    return {
        "recorded": True,
        "n_players": n_players,
        "games": games,
        "policies_differ": len(set(run.policies)) > 1,
        "seats": out_seats,
        "most_last": _most_last(lasts, only, games) if games and n_players > 1 else None,
        "best_mean_place": (
            _best_mean_place(means, squares, games) if games and n_players > 1 else None
        ),
    }


def _paired(mean: float, squares: float, games: int, confidence: float) -> Estimate:
    """A paired t interval from the mean and the sum of squares of per-game differences."""
    if games < 2:
        return Estimate(math.nan, math.nan, math.nan)
    variance = max(0.0, (squares - games * mean**2) / (games - 1))
    return mean_from_moments(mean, math.sqrt(variance), games, confidence)


def _most_last(lasts: list[int], only: dict[tuple[int, int], int], games: int) -> dict[str, Any]:
    """The seat last most often against each other seat: its share of last places minus the
    rival's, in the same games (per game +1, -1 or 0: the squares are the discordant games)."""
    seat = max(range(len(lasts)), key=lambda s: lasts[s])
    confidence = family_confidence(len(lasts) - 1)
    rivals = [
        (
            f"seat {r + 1}",
            _paired(
                (lasts[seat] - lasts[r]) / games,
                only[(seat, r)] + only[(r, seat)],
                games,
                confidence,
            ),
        )
        for r in range(len(lasts))
        if r != seat
    ]
    return lead(f"seat {seat + 1}", rivals, games, confidence)


def _best_mean_place(
    means: list[float], squares: dict[tuple[int, int], float], games: int
) -> dict[str, Any]:
    """The seat with the best (lowest) mean place against each other seat: the rival's mean
    place minus its own, paired in the same games."""
    seat = min(range(len(means)), key=lambda s: means[s])
    confidence = family_confidence(len(means) - 1)
    rivals = [
        (f"seat {r + 1}", _paired(means[r] - means[seat], squares[(r, seat)], games, confidence))
        for r in range(len(means))
        if r != seat
    ]
    return lead(f"seat {seat + 1}", rivals, games, confidence)


# -- returns -----------------------------------------------------------------------------------
def has_returns(run: Run) -> bool:
    return RETURNS in run.scan().collect_schema().names()


def return_summary(run: Run) -> dict[str, Any] | None:
    """Per seat the mean return per game with its t interval (returns are unbounded amounts:
    chips, money, points), the mean total over the seats (0 in a zero-sum game), and the seat
    with the highest mean return against every other in the same games. None for a game
    without returns."""
    if not has_returns(run):
        return None
    seats = range(run.n_players)
    paid = [pl.col(RETURNS).list.get(s) for s in seats]
    pairs = [(a, b) for a in seats for b in seats if a != b]
    row = (
        run.scan()
        .select(
            pl.len().alias("games"),
            *[paid[s].mean().alias(f"mean{s}") for s in seats],
            *[paid[s].std().alias(f"std{s}") for s in seats],
            pl.col(RETURNS).list.sum().mean().alias("total"),
            pl.col(RETURNS).list.sum().std().alias("total_std"),
            *[((paid[a] - paid[b]) ** 2).sum().alias(f"sq{a}_{b}") for a, b in pairs],
        )
        .collect()
        .row(0, named=True)
    )
    games = int(row["games"])
    means = [float(row[f"mean{s}"] or 0.0) for s in seats]
    out_seats = [
        {
            "seat": s + 1,
            "policy": run.policies[s],
            **mean_from_moments(means[s], float(row[f"std{s}"] or 0.0), games).as_dict(),
        }
        for s in seats
    ]
    squares = {(a, b): float(row[f"sq{a}_{b}"] or 0.0) for a, b in pairs}
    best = None
    if games and run.n_players > 1:
        top = max(seats, key=lambda s: means[s])
        confidence = family_confidence(run.n_players - 1)
        rivals = [
            (f"seat {r + 1}", _paired(means[top] - means[r], squares[(top, r)], games, confidence))
            for r in seats
            if r != top
        ]
        best = lead(f"seat {top + 1}", rivals, games, confidence)
    total = mean_from_moments(float(row["total"] or 0.0), float(row["total_std"] or 0.0), games)
    return {
        "games": games,
        "n_players": run.n_players,
        "policies_differ": len(set(run.policies)) > 1,
        "seats": out_seats,
        "total": total.as_dict(),
        "highest": best,
    }


# -- together ----------------------------------------------------------------------------------
def outcome_summary(run: Run) -> dict[str, Any]:
    """The places, the returns and the share of games two or more seats shared."""
    out: dict[str, Any] = {"places": place_summary(run), "returns": return_summary(run)}
    if not run.cooperative:
        row = run.scan().select(pl.len().alias("games"), is_shared().sum().alias("shared"))
        games, shared = row.collect().row(0)
        out["shared_win_rate"] = proportion(int(shared or 0), int(games)).as_dict()
    return out


def outcome_estimates(summary: dict[str, Any]) -> dict[str, Estimate]:
    """The outcome model's target measures of a run summary: ``return:seat-N``,
    ``place:seat-N`` (mean place) and ``shared`` (see :mod:`analyses.targets`)."""
    outcomes = summary.get("outcomes") or {}
    out: dict[str, Estimate] = {}

    def est(d: dict[str, Any]) -> Estimate:
        return Estimate(d["value"], d["lo"], d["hi"])

    places = outcomes.get("places")
    if places and places["recorded"]:
        for s in places["seats"]:
            out[f"{PLACE_PREFIX}seat-{s['seat']}"] = est(s["mean_place"])
    for s in (outcomes.get("returns") or {}).get("seats", []):
        out[f"{RETURN_PREFIX}seat-{s['seat']}"] = est(s)
    if "shared_win_rate" in outcomes:
        out[SHARED] = est(outcomes["shared_win_rate"])
    return out


def per_game_outcome(measure: str) -> pl.Expr | None:
    """A measure of the outcome model as one value per game (a seat's return or place, or
    whether the win was shared), for pooled and paired figures; None for another measure."""
    if measure == SHARED:
        return is_shared()
    for prefix, column in ((RETURN_PREFIX, RETURNS), (PLACE_PREFIX, PLACE)):
        if measure.startswith(prefix + "seat-"):
            seat = int(measure[len(prefix) + 5 :]) - 1
            return pl.col(column).list.get(seat).cast(pl.Float64)
    return None


# -- comparing two runs ------------------------------------------------------------------------
def return_changes(base: Run, other: Run, is_paired: bool) -> list[tuple[int, Difference]]:
    """Each seat's change in mean return from ``base`` to ``other`` (seats from 1): paired on
    the game index (common random numbers) when the runs share seeds, else as independent
    samples. Empty unless both runs have returns."""
    if not (has_returns(base) and has_returns(other)):
        return []
    seats = range(base.n_players)
    columns = [pl.col(RETURNS).list.get(s).alias(f"r{s}") for s in seats]
    b = base.scan().select("game_index", *columns).collect()
    o = other.scan().select("game_index", *columns).collect()
    if is_paired:
        joined = b.join(o, on="game_index", suffix="_v")
        b = joined.select(f"r{s}" for s in seats)
        o = joined.select(pl.col(f"r{s}_v").alias(f"r{s}") for s in seats)
    compare = paired_mean if is_paired else unpaired_mean
    return [
        (s + 1, compare(b[f"r{s}"].to_numpy().astype(float), o[f"r{s}"].to_numpy().astype(float)))
        for s in seats
    ]


def place_shares(summary: dict[str, Any]) -> np.ndarray:
    """Seats x places: the share of games each seat finished in each place (for a figure)."""
    return np.array([[p["value"] for p in s["places"]] for s in summary["seats"]])
