"""Every figure reads the win shares: a k-way shared win counts 1/k to each seat, never
"nobody won". Known answers: the share interval's coverage by simulation, and a dice game whose
exact shares come from enumerating its dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from analyses.seats import outcome_blocks, seat_counts
from analyses.stats import proportion, share_proportion

# Three seats, a known truth: each row an outcome (every seat's share) and its probability.
OUTCOMES = np.array(
    [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [1 / 2, 1 / 2, 0],
        [1 / 2, 0, 1 / 2],
        [1 / 3, 1 / 3, 1 / 3],
        [0, 0, 0],
    ]
)


def draw_shares(rng: np.random.Generator, probabilities: list[float], games: int) -> np.ndarray:
    """``games`` games' shares (games x seats) drawn from the outcomes' probabilities."""
    return OUTCOMES[rng.choice(len(OUTCOMES), size=games, p=probabilities)]


@pytest.mark.parametrize(
    ("probabilities", "games", "widest"),
    [
        ((0.30, 0.25, 0.20, 0.10, 0.05, 0.05, 0.05), 300, 0.975),  # a few shared wins
        ((0.10, 0.05, 0.05, 0.35, 0.15, 0.30, 0.00), 300, 0.975),  # mostly shared
        ((0.02, 0.01, 0.01, 0.02, 0.01, 0.90, 0.03), 200, 0.985),  # near-certain three-way ties
        ((0.45, 0.30, 0.20, 0.02, 0.01, 0.01, 0.01), 60, 0.975),  # a small run
        ((0.02, 0.01, 0.01, 0.02, 0.01, 0.90, 0.03), 20, 1.0),  # tiny and mostly ties
    ],
)
def test_share_intervals_cover_the_true_share_about_95_percent_of_the_time(
    probabilities, games, widest
):
    """Drawn from a known truth 2,000 times: the mean share is unbiased and its 95% interval
    holds every seat's true share in about 95% of runs (never far below; above in tiny runs of
    mostly ties, where the pseudo-games keep it honest)."""
    rng = np.random.default_rng(61)
    truth = np.asarray(probabilities) @ OUTCOMES
    repeats = 2000
    estimates = np.zeros((repeats, 3))
    held = np.zeros((repeats, 3), bool)
    for r in range(repeats):
        shares = draw_shares(rng, list(probabilities), games)
        totals, squares = shares.sum(axis=0), (shares**2).sum(axis=0)
        for seat in range(3):
            est = share_proportion(float(totals[seat]), games, float(squares[seat]))
            estimates[r, seat] = est.value
            held[r, seat] = est.contains(truth[seat])
    bias = estimates.mean(axis=0) - truth
    standard_error = estimates.std(axis=0) / np.sqrt(repeats)
    assert np.all(np.abs(bias) < 4 * standard_error + 1e-12)
    coverage = held.mean(axis=0)
    print(f"{games} games, truth {np.round(truth, 4)}: bias {bias}, coverage {coverage}")
    assert np.all(coverage > 0.93), coverage  # as the whole-win Wilson test asks
    assert np.all(coverage <= widest), coverage


def test_whole_share_sums_give_exactly_the_wilson_interval_of_the_count():
    for k, n in ((0, 10), (30, 100), (555, 2000), (7, 7)):
        assert share_proportion(float(k), n) == proportion(k, n)
        assert share_proportion(float(k), n, float(k)) == proportion(k, n)
    half_shares = share_proportion(30.5, 100, 29.25)  # 29 wins and three two-way shares
    assert half_shares.lo < 0.305 < half_shares.hi
    assert proportion(30, 100).lo < half_shares.lo < proportion(31, 100).lo
    ties = share_proportion(100 / 3, 100, 100 / 9)  # every game a three-way tie
    assert ties.value == pytest.approx(1 / 3) and ties.width < half_shares.width / 2


def games_frame(shares: np.ndarray) -> pl.LazyFrame:
    return pl.LazyFrame(
        {"game_index": np.arange(len(shares)), "win_share": [list(map(float, s)) for s in shares]}
    )


def test_seat_counts_sum_the_shares_and_tell_shared_from_no_winner():
    shares = OUTCOMES[[0, 3, 5, 6, 1, 3]]
    counts = seat_counts(games_frame(shares), 3)
    assert counts["games"] == 6 and counts["shared"] == 3 and counts["no_winner"] == 1
    assert counts["wins"] == pytest.approx(
        [1 + 1 / 2 + 1 / 3 + 1 / 2, 1 / 2 + 1 / 3 + 1 + 1 / 2, 1 / 3]
    )
    assert counts["squares"][0, 1] == pytest.approx(1 + 0 + 0 + 0 + 1 + 0)
    blocks = outcome_blocks(games_frame(shares), 3)
    assert blocks.sum(axis=0) == pytest.approx([*counts["wins"], 1])
    assert blocks.sum() == pytest.approx(6)  # each game's shares and no-winner sum to one


def test_without_shared_wins_the_counts_stay_whole_numbers():
    counts = seat_counts(games_frame(OUTCOMES[[0, 1, 2, 6, 0]]), 3)
    assert counts["wins"] == [2, 1, 1] and all(isinstance(w, int) for w in counts["wins"])
    assert counts["squares"] is None and counts["shared"] == 0


def exact_dice_shares(players: int, rounds: int, faces: int) -> tuple[list[Fraction], Fraction]:
    """tests/shared_dice.py by enumeration: every seat's share of the win and the shared-win
    rate, exactly."""
    totals: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, faces + 1), repeat=rounds):
        totals[sum(dice)] = totals.get(sum(dice), Fraction(0)) + Fraction(1, faces**rounds)
    shares, shared = [Fraction(0)] * players, Fraction(0)
    for seat_totals in itertools.product(totals, repeat=players):
        chance = Fraction(1)
        for t in seat_totals:
            chance *= totals[t]
        best = [s for s, t in enumerate(seat_totals) if t == max(seat_totals)]
        for s in best:
            shares[s] += chance / len(best)
        if len(best) > 1:
            shared += chance
    return shares, shared
