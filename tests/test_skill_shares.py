"""The skill ladder's first-seat change between two rungs when seat 1 shares wins (a share of
1/k): Welch's interval from each rung's sums, checked against a known truth by simulation."""

from __future__ import annotations

import numpy as np

from analyses.skill import first_seat_change

# Seat 1's share in a decided game: 0, a half (a two-way tie) or 1, with these chances.
VALUES = np.array([0.0, 0.5, 1.0])
WEAK = np.array([0.55, 0.10, 0.35])
STRONG = np.array([0.45, 0.15, 0.40])


def _rung(rng: np.random.Generator, chances: np.ndarray, decided: int) -> dict:
    shares = rng.choice(VALUES, size=decided, p=chances)
    total = float(shares.sum())
    return {
        "decided": decided,
        "first_seat_wins": int(total) if total.is_integer() else total,
        "first_seat_squares": float((shares * shares).sum()),
    }


def test_the_change_interval_holds_the_true_change_about_95_percent_of_the_time():
    truth = float(VALUES @ STRONG - VALUES @ WEAK)
    rng = np.random.default_rng(20261206)
    held, estimates = 0, []
    draws = 2000
    for _ in range(draws):
        change = first_seat_change(_rung(rng, WEAK, 300), _rung(rng, STRONG, 300))["change"]
        held += change["lo"] <= truth <= change["hi"]
        estimates.append(change["value"])
    assert abs(np.mean(estimates) - truth) < 0.003  # unbiased
    assert 0.93 <= held / draws <= 0.97


def test_whole_wins_read_as_two_samples_of_yes_and_no_as_before():
    weak = {"decided": 200, "first_seat_wins": 80}
    strong = {"decided": 200, "first_seat_wins": 110, "first_seat_squares": 110.0}
    change = first_seat_change(weak, strong)
    assert change["change"]["value"] == 110 / 200 - 80 / 200
    assert change["change"]["lo"] > 0 and change["p_value"] < 0.01
