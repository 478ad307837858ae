"""Pig's skill by budget (``benchmarks/own_game_search.py``) is read as the chance of winning a
player's choices give up against the best response to its rival, summed over a game: by the
performance difference lemma, the best response's win rate less the player's. Drawn many times
from players whose win rates are known exactly (policy evaluation by value iteration, and 1/2 by
symmetry): its bias, and how often its 95% interval holds the truth."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import own_game_search as bench  # noqa: E402

from simulator.games.own_game.loader import load  # noqa: E402

GOAL, FACES, RIVAL = 20, 6, 10  # Pig to 20 against `hold` at 10
REPEATS, GAMES = 100, 100


def exact_rate(at: int) -> float:
    """`hold` at ``at`` against `hold` at RIVAL, over both seats, by policy evaluation."""
    mine = bench._hold_mask(GOAL, FACES, at)
    me, them = bench._against_hold(GOAL, FACES, RIVAL, mine)
    return (me[0, 0] + 1.0 - them[0, 0]) / 2


def estimates(at: int) -> list[tuple[float, float, float]]:
    """REPEATS estimates of `hold` at ``at``'s win rate, each from GAMES games: (estimate, low,
    high) of the 95% interval."""
    game = load(ROOT / "examples" / "pig.py")
    hold = game.policies["hold"].function
    best, lost = bench.pig_given_up(GOAL, FACES, RIVAL)
    rng = np.random.default_rng(5)
    out = []
    for _ in range(REPEATS):
        sums = []
        for g in range(GAMES):
            seat = g % 2
            state = game.start(2, {"goal": GOAL, "faces": FACES})
            given_up = 0.0
            while (mover := game.to_move(state)) is not None:
                if mover == "chance":
                    action = game.draw_chance(state, rng)
                elif mover == seat:
                    action = hold(state, mover, ["roll", "hold"], rng, at=at)
                    given_up += lost(state, action)
                else:
                    action = hold(state, mover, ["roll", "hold"], rng, at=RIVAL)
                state = game.apply(state, action)
            sums.append(given_up)
        m = float(np.mean(sums))
        half = 1.96 * float(np.std(sums, ddof=1)) / math.sqrt(GAMES)
        out.append((best - m, best - m - half, best - m + half))
    return out


def test_the_exact_rates_agree():
    """Policy evaluation gives `hold` against itself exactly a half."""
    assert abs(exact_rate(RIVAL) - 0.5) < 1e-9


@pytest.mark.parametrize("at", [RIVAL, 5, 15])
def test_the_win_chance_given_up_is_unbiased_and_its_interval_holds(at):
    truth = exact_rate(at)
    drawn = estimates(at)
    bias = sum(e for e, _, _ in drawn) / REPEATS - truth
    held = sum(lo <= truth <= hi for _, lo, hi in drawn)
    assert abs(bias) < 0.01, (bias, truth)
    assert 0.85 * REPEATS <= held, (held, truth)
