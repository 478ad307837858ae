"""Exact answers for the outcome model: each example's value computed here by enumeration with
exact fractions, and `balance simulate` on the example's file giving it inside the interval.

- High roll (examples/dice_ties.py): three seats, ties share the win; every seat's share of the
  win and the share of games shared, with every seat chasing the best total before it.
- Dice golf (examples/golf_dice.py): the fewest strokes win; every seat's places, mean place and
  share of the win, seat 1 random against two careful seats.
- Kuhn poker (examples/kuhn.py): uniform random play's mean return, +1/8 chip a hand for the
  first seat, and the paired change when the ante doubles.

Each test checks several values of one run at once, so each interval is taken at the family
confidence 1 - 0.05/m (Bonferroni over its m values): all of a test's intervals hold together at
95%. The seeds are fixed, so a test always gives the same answer.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

import cli
from analyses.outcomes import outcome_summary
from analyses.runs import Run
from analyses.stats import family_confidence
from analyses.variants import compare_runs

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DICE_TIES = EXAMPLES / "dice_ties.py"
GOLF = EXAMPLES / "golf_dice.py"
KUHN = EXAMPLES / "kuhn.py"


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def simulate(capsys, path: Path, out: Path, *options) -> Run:
    code, _, err = call(capsys, "simulate", path, *options, "-j", 1, "--out", out, "--quiet")
    assert code == 0, err
    return Run.open(out)


# -- the exact values --------------------------------------------------------------------------
Distribution = dict[int, Fraction]


def two_dice(faces: int = 6) -> Distribution:
    out: Distribution = defaultdict(Fraction)
    for a, b in product(range(1, faces + 1), repeat=2):
        out[a + b] += Fraction(1, faces * faces)
    return dict(out)


def shares_and_places(totals: tuple[int, ...], lowest_wins: bool) -> tuple[list, list]:
    """Each seat's share of the win (ties share) and place (competition ranking: 1, 1, 3)."""
    key = [-t if lowest_wins else t for t in totals]
    best = max(key)
    winners = [s for s, k in enumerate(key) if k == best]
    shares = [Fraction(1, len(winners)) if s in winners else Fraction(0) for s in range(len(key))]
    places = [1 + sum(1 for k in key if k > mine) for mine in key]
    return shares, places


@cache
def chase_exact(players: int = 3) -> dict[str, object]:
    """High roll with every seat rolling again when behind the best total before it: the
    joint distribution of the kept totals, seat by seat, then shares and shared games."""
    dice = two_dice()
    joint: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _seat in range(players):
        step: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
        for before, p in joint.items():
            for first, q in dice.items():
                if before and first < max(before):  # behind: the second roll is kept
                    for second, r in dice.items():
                        step[before + (second,)] += p * q * r
                else:
                    step[before + (first,)] += p * q
        joint = dict(step)
    share = [Fraction(0)] * players
    shared = Fraction(0)
    for totals, p in joint.items():
        shares, _ = shares_and_places(totals, lowest_wins=False)
        share = [a + p * b for a, b in zip(share, shares, strict=True)]
        shared += p if sum(1 for x in shares if x > 0) > 1 else 0
    assert sum(joint.values()) == 1
    return {"share": share, "shared": shared}


def hole(policy: str, faces: int = 6, above: int = 3) -> Distribution:
    """Strokes on one hole: ``random`` keeps or rolls again with even odds, ``careful`` rolls
    again above ``above``; a second die is kept."""
    out: Distribution = defaultdict(Fraction)
    die = Fraction(1, faces)
    for first in range(1, faces + 1):
        again = Fraction(1, 2) if policy == "random" else Fraction(int(first > above))
        out[first] += die * (1 - again)
        for second in range(1, faces + 1):
            out[second] += die * again * die
    return dict(out)


def strokes(policy: str, holes: int) -> Distribution:
    total: Distribution = {0: Fraction(1)}
    for _ in range(holes):
        step: Distribution = defaultdict(Fraction)
        for a, p in total.items():
            for b, q in hole(policy).items():
                step[a + b] += p * q
        total = dict(step)
    return total


@cache
def golf_exact(policies: tuple[str, ...], holes: int = 3) -> dict[str, object]:
    """Dice golf: every seat's chance of each place, its mean place and its share of the win."""
    n = len(policies)
    seats = [strokes(p, holes) for p in policies]
    place = [[Fraction(0)] * n for _ in range(n)]
    share = [Fraction(0)] * n
    for totals in product(*[sorted(d) for d in seats]):
        p = math.prod((seats[s][t] for s, t in enumerate(totals)), start=Fraction(1))
        shares, places = shares_and_places(totals, lowest_wins=True)
        for s in range(n):
            place[s][places[s] - 1] += p
            share[s] += p * shares[s]
    mean = [sum((k + 1) * q for k, q in enumerate(row)) for row in place]
    return {"place": place, "mean_place": mean, "share": share}


KUHN_DEALS = [(a, b) for a in range(3) for b in range(3) if a != b]


@cache
def kuhn_random_return(ante: int = 1, bet: int = 1) -> Fraction:
    """Seat 1's mean chips a hand when both seats act uniformly at random, by enumerating every
    deal and betting line: the pot goes to the higher card at a showdown, else to the seat that
    did not fold."""

    def walk(history: str, cards: tuple[int, int], paid: list[int]) -> Fraction:
        if history in ("cc", "bc", "cbc"):
            winner = 0 if cards[0] > cards[1] else 1
            return Fraction(paid[1] if winner == 0 else -paid[0])
        if history.endswith("f"):
            folder = (len(history) - 1) % 2
            return Fraction(-paid[0] if folder == 0 else paid[1])
        mover = len(history) % 2
        options = ["c", "f"] if history.endswith("b") else ["c", "b"]
        value = Fraction(0)
        for action in options:
            more = list(paid)
            if action == "b" or (action == "c" and history.endswith("b")):
                more[mover] += bet
            value += Fraction(1, len(options)) * walk(history + action, cards, more)
        return value

    return sum(
        (Fraction(1, len(KUHN_DEALS)) * walk("", deal, [ante, ante]) for deal in KUHN_DEALS),
        start=Fraction(0),
    )


# -- the intervals the tests hold the runs to --------------------------------------------------
def share_interval(hits: int, games: int, confidence: float) -> tuple[float, float]:
    ci = stats.binomtest(hits, games).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def mean_interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    lo, hi = stats.t.interval(
        confidence, len(values) - 1, loc=values.mean(), scale=stats.sem(values)
    )
    return float(lo), float(hi)


def inside(exact: Fraction, interval: tuple[float, float]) -> bool:
    return interval[0] <= float(exact) <= interval[1]


# -- the tests ---------------------------------------------------------------------------------
def test_chase_enumeration_is_a_distribution_and_favours_late_seats():
    exact = chase_exact()
    assert sum(exact["share"]) == 1  # every game has a winner, shared or not
    assert exact["share"][0] < exact["share"][1] < exact["share"][2]


def test_high_roll_shares_of_the_win_and_shared_games_are_the_enumerations(capsys, tmp_path):
    exact = chase_exact()
    run = simulate(capsys, DICE_TIES, tmp_path / "ties", "--players", 3, "-p", "chase",
                   "-n", 4000, "--seed", 11)  # fmt: skip
    games = run.scan().collect()
    confidence = family_confidence(4)
    shares = np.array(games["win_share"].to_list())
    for s in range(3):
        interval = mean_interval(shares[:, s], confidence)
        assert inside(exact["share"][s], interval), (s, float(exact["share"][s]), interval)
    shared = int((np.count_nonzero(shares, axis=1) > 1).sum())
    interval = share_interval(shared, games.height, confidence)
    assert inside(exact["shared"], interval), (float(exact["shared"]), interval)
    summary = outcome_summary(run)  # the report's figure is the same count
    assert summary["shared_win_rate"]["value"] == shared / games.height


def test_dice_golf_places_and_shares_are_the_enumerations(capsys, tmp_path):
    policies = ("random", "careful", "careful")
    exact = golf_exact(policies)
    run = simulate(capsys, GOLF, tmp_path / "golf", "--players", 3,
                   *[x for p in policies for x in ("-p", p)], "-n", 4000, "--seed", 12)  # fmt: skip
    games = run.scan().collect()
    places = np.array(games["place"].to_list())
    shares = np.array(games["win_share"].to_list())
    n = games.height
    confidence = family_confidence(3 * 3 + 3 + 3)
    summary = outcome_summary(run)["places"]
    for s in range(3):
        for k in range(3):
            hits = int((places[:, s] == k + 1).sum())
            assert summary["seats"][s]["places"][k]["games"] == hits
            interval = share_interval(hits, n, confidence)
            assert inside(exact["place"][s][k], interval), (s, k + 1, interval)
        interval = mean_interval(places[:, s].astype(float), confidence)
        assert inside(exact["mean_place"][s], interval), (s, interval)
        interval = mean_interval(shares[:, s], confidence)
        assert inside(exact["share"][s], interval), (s, interval)


def test_lowest_score_wins_is_not_highest_score_wins():
    """The exact places under the fewest-strokes rule differ from the most-strokes rule's, so
    the runs' agreement with them tells the two apart."""
    fewest = golf_exact(("random", "careful", "careful"))["mean_place"]
    assert fewest[0] > 2 > fewest[1]  # the careful seats finish better


def test_kuhn_uniform_random_play_returns_an_eighth_of_a_chip_to_the_first_seat(capsys, tmp_path):
    assert kuhn_random_return() == Fraction(1, 8)
    run = simulate(capsys, KUHN, tmp_path / "kuhn", "-p", "random", "-n", 6000, "--seed", 13)
    paid = np.array(run.scan().collect()["returns"].to_list())
    assert (paid.sum(axis=1) == 0).all()  # chips change hands: zero-sum
    confidence = family_confidence(1)
    interval = mean_interval(paid[:, 0], confidence)
    assert inside(kuhn_random_return(), interval), interval
    figures = outcome_summary(run)["returns"]["seats"][0]
    assert figures["lo"] == pytest.approx(interval[0]) and figures["hi"] == pytest.approx(
        interval[1]
    )


def test_compare_gives_the_exact_change_in_return_when_the_ante_doubles(capsys, tmp_path):
    change = kuhn_random_return(ante=2) - kuhn_random_return(ante=1)
    assert change == Fraction(1, 8)
    out = tmp_path / "ante"
    code, _, err = call(capsys, "compare", KUHN, "-p", "random", "--set", "ante=2", "-n", 3000,
                        "--seed", 14, "-j", 1, "--out", out, "--quiet")  # fmt: skip
    assert code == 0, err
    runs = sorted((Run.open(p.parent) for p in out.glob("*/manifest.json")),
                  key=lambda r: bool(r.rules_changed))  # fmt: skip
    rows = [r for r in compare_runs(runs[0], runs[1:]) if r["kind"] == "return"]
    assert [r["seat"] for r in rows] == [1, 2] and all(r["paired"] for r in rows)
    first = rows[0]
    assert first["corrected"]["lo"] <= float(change) <= first["corrected"]["hi"], first
    assert first["corrected"]["comparisons"] > 2  # corrected with the win rates' rows


def test_every_new_example_keeps_every_promise(capsys):
    for path in (DICE_TIES, GOLF):
        code, out, err = call(capsys, "check-game", path, "--games", 30, "--players", 3)
        assert code == 0, err
        assert "every promise kept" in out


def test_a_run_without_returns_has_no_returns_figures(capsys, tmp_path):
    run = simulate(capsys, DICE_TIES, tmp_path / "ties", "--players", 3, "-n", 200)
    assert outcome_summary(run)["returns"] is None
    assert "returns" not in pl.read_parquet(next((tmp_path / "ties").rglob("*.parquet"))).columns
