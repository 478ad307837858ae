"""The --target grammar and the meets / misses / cannot tell verdicts."""

from __future__ import annotations

import math

import pytest

from analyses.stats import Estimate
from analyses.targets import (
    MEETS,
    MISSES,
    UNKNOWN,
    check_measurable,
    check_targets,
    parse_target,
    parse_targets,
)
from simulator.contract.errors import BalanceError


@pytest.mark.parametrize(
    ("text", "name", "low", "high"),
    [
        ("first-seat=0.25+-0.02", "first-seat", 0.23, 0.27),
        ("first-seat=25%+-2%", "first-seat", 0.23, 0.27),
        ("seat-3 = 0.3 ± 0.05", "seat-3", 0.25, 0.35),
        ("length=40..60", "length", 40, 60),
        ("Balance=.9..1", "balance", 0.9, 1.0),
        ("success=40%..55%", "success", 0.4, 0.55),
        ("first-seat<=55%", "first-seat", -math.inf, 0.55),
        ("no-winner<=5%", "no-winner", -math.inf, 0.05),
        ("draw >= 0.05", "no-winner", 0.05, math.inf),  # the old name, accepted for a version
        ("draw_rate>=5%", "no-winner", 0.05, math.inf),
        ("end:treasures>=30%", "end:treasures", 0.3, math.inf),
        ("mean:caza_searches>=8", "mean:caza_searches", 8, math.inf),
        ("mean:fake_total=0.4..0.6", "mean:fake_total", 0.4, 0.6),
    ],
)
def test_parse_target(text, name, low, high):
    t = parse_target(text)
    assert (t.name, t.low, t.high) == (name, pytest.approx(low), pytest.approx(high))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first-seat", "NAME=VALUE"),
        ("speed=1..2", "unknown measure"),
        ("seat-0=0.2+-0.1", "unknown measure"),
        ("length=60..40", "LOW must not exceed HIGH"),
        ("length=abc", "NAME=VALUE"),
        ("length=40+-", "NAME=VALUE"),
        ("draw=0.1+--0.1", "must not be negative"),
        ("draw<=0.1..0.2", "NAME<=X"),
        ("draw=>0.1", "NAME<=X"),
        ("end:=0.1..0.2", "unknown measure"),
        ("median:length>=3", "unknown measure"),
    ],
)
def test_bad_targets_name_the_problem(text, message):
    with pytest.raises(BalanceError, match=message):
        parse_target(text)


def test_verdicts_compare_the_whole_interval_with_the_range():
    t = parse_target("first-seat=0.25+-0.02")
    assert t.verdict(Estimate(0.25, 0.24, 0.26)) == MEETS
    assert t.verdict(Estimate(0.35, 0.33, 0.37)) == MISSES
    assert t.verdict(Estimate(0.20, 0.15, 0.22)) == MISSES
    assert t.verdict(Estimate(0.25, 0.20, 0.30)) == UNKNOWN  # too wide to tell yet
    assert t.verdict(Estimate(0.27, 0.26, 0.28)) == UNKNOWN  # straddles the edge
    assert t.verdict(None) == UNKNOWN


def test_check_targets_rows_and_unmeasured_names():
    est = {"first-seat": Estimate(0.3, 0.28, 0.32), "length": Estimate(50, 48, 52)}
    targets = [parse_target("first-seat=0.25+-0.02"), parse_target("length=40..60")]
    rows = check_targets(targets + [parse_target("success=0.5..0.6")], est, 3)
    assert [r["verdict"] for r in rows] == [MISSES, MEETS, UNKNOWN]
    assert rows[2]["value"] is None
    with pytest.raises(BalanceError, match="3 players"):
        check_targets([parse_target("seat-4=0.25+-0.1")], est, 3)


def test_one_sided_targets_judge_one_edge_only():
    at_most = parse_target("first-seat<=0.55")
    assert at_most.verdict(Estimate(0.10, 0.0, 0.54)) == MEETS
    assert at_most.verdict(Estimate(0.60, 0.56, 0.64)) == MISSES
    assert at_most.verdict(Estimate(0.55, 0.50, 0.60)) == UNKNOWN
    at_least = parse_target("end:treasures>=30%")
    assert at_least.verdict(Estimate(0.9, 0.85, 0.95)) == MEETS
    assert at_least.verdict(Estimate(0.1, 0.05, 0.2)) == MISSES
    assert (at_least.distance(0.2), at_least.distance(0.5)) == (pytest.approx(0.1), 0.0)
    row = check_targets([at_least], {"end:treasures": Estimate(0.5, 0.4, 0.6)}, 2)[0]
    assert (row["low"], row["high"], row["verdict"]) == (0.3, None, MEETS)  # JSON has no inf


def test_targets_a_game_cannot_measure_are_refused_before_play(fake_game):
    from tests.coop_game import SPEC as COOP

    check_measurable(parse_targets(["end:drawn<=10%", "mean:fake_total>=0.5"]), fake_game)
    for text, message in [
        ("end:lost>=10%", "no end condition 'lost'; its end conditions: won, drawn"),
        (
            "mean:fake_win_cells>=1",
            r"no count or measure 'fake_win_cells' \(it holds board cells, not amounts\); "
            "its columns: fake_total",
        ),
        ("success>=0.5", "competitive"),
        ("seat-7=0.1..0.2", "at most 6 players"),
    ]:
        with pytest.raises(BalanceError, match=message):
            check_measurable([parse_target(text)], fake_game)
    with pytest.raises(BalanceError, match="cooperative"):
        check_measurable([parse_target("first-seat<=0.5")], COOP)
