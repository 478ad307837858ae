"""Targets of the outcome model: ``return:seat-N``, ``place:seat-N`` and ``shared``, parsed,
refused where a game cannot measure them, and judged by ``simulate``, ``report`` and
``design`` (every command that takes --target reads them through analyses/targets.py)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

import cli
from analyses.runs import Run
from analyses.summary import estimates, run_summary
from analyses.targets import (
    MEETS,
    MISSES,
    UNKNOWN,
    check_measurable,
    check_targets,
    parse_target,
)
from simulator.contract.errors import BalanceError
from simulator.contract.registry import get_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
KUHN = EXAMPLES / "kuhn.py"
DICE_TIES = EXAMPLES / "dice_ties.py"


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.mark.parametrize(
    ("text", "name", "low", "high", "share"),
    [
        ("return:seat-1>=0", "return:seat-1", 0, math.inf, False),
        ("return:seat-2=-0.5..0.5", "return:seat-2", -0.5, 0.5, False),
        ("place:seat-4<=3.2", "place:seat-4", -math.inf, 3.2, False),
        ("Place:Seat-2=2+-0.25", "place:seat-2", 1.75, 2.25, False),
        ("shared<=5%", "shared", -math.inf, 0.05, True),
    ],
)
def test_outcome_targets_parse(text, name, low, high, share):
    t = parse_target(text)
    assert (t.name, t.low, t.high) == (name, pytest.approx(low), pytest.approx(high))
    assert t.is_share is share


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("return:first>=0", "names a seat, e.g. return:seat-1"),
        ("place:seat-0<=2", "names a seat"),
        ("place:seat-2<=0.5", "a place is 1 (first) or more"),
        ("shared<=120%", "a share lies in 0%..100%"),
        ("returns:seat-1>=0", "unknown measure"),
    ],
)
def test_bad_outcome_targets_name_the_problem(text, message):
    with pytest.raises(BalanceError, match=re.escape(message)):
        parse_target(text)


def test_targets_a_game_cannot_measure_are_refused_before_play(capsys, tmp_path):
    with pytest.raises(BalanceError, match="pays no return"):
        check_measurable([parse_target("return:seat-1>=0")], get_game(str(DICE_TIES)))
    with pytest.raises(BalanceError, match="at most 2 players"):
        check_measurable([parse_target("place:seat-3<=2")], get_game(str(KUHN)))
    check_measurable([parse_target("return:seat-2<=0")], get_game(str(KUHN)))  # measurable
    code, _, err = call(capsys, "simulate", DICE_TIES, "-n", 10, "--out", tmp_path / "x",
                        "--target", "return:seat-1>=0")  # fmt: skip
    assert code == 2 and "pays no return" in err and not (tmp_path / "x").exists()


def test_a_seat_beyond_the_run_is_refused_when_judged():
    with pytest.raises(BalanceError, match="played by 2 players"):
        check_targets([parse_target("place:seat-3<=2")], {}, 2)


def test_simulate_judges_return_place_and_shared_targets(capsys, tmp_path):
    code, out, err = call(capsys, "simulate", KUHN, "-p", "random", "-n", 3000, "--seed", 5,
                          "-j", 1, "--out", tmp_path / "kuhn", "--json",
                          "--target", "return:seat-1>=-1", "--target", "return:seat-1<=-0.5",
                          "--target", "place:seat-2<=3", "--target", "shared<=5%")  # fmt: skip
    assert code == 0, err
    rows = {r["target"]: r for r in json.loads(out)["targets"]}
    assert rows["return:seat-1>=-1"]["verdict"] == MEETS  # +1/8 a hand, by enumeration
    assert rows["return:seat-1<=-0.5"]["verdict"] == MISSES
    assert rows["place:seat-2<=3"]["verdict"] == MEETS
    assert rows["shared<=5%"]["verdict"] == MEETS  # a hand of poker is never shared here
    assert rows["shared<=5%"]["value"] == 0.0
    est = estimates(run_summary(Run.open(tmp_path / "kuhn")))
    assert est["return:seat-1"].value == pytest.approx(-est["return:seat-2"].value)


def test_report_prints_return_and_place_targets_as_amounts(capsys, tmp_path):
    code, _, err = call(capsys, "simulate", DICE_TIES, "--players", 3, "-p", "chase", "-n", 600,
                        "-j", 1, "--out", tmp_path / "ties", "--quiet")  # fmt: skip
    assert code == 0, err
    code, out, err = call(capsys, "report", tmp_path / "ties", "--format", "md",
                          "--out", tmp_path / "r.md", "--target", "place:seat-1<=2.5",
                          "--target", "shared=20%+-10%")  # fmt: skip
    assert code == 0, err
    line = next(x for x in out.splitlines() if "Target place:seat-1<=2.5" in x)
    given = line.partition("the run gives")[2].replace("95% interval", "")
    assert "%" not in given  # a mean place, not a share
    assert "Target shared=20%+-10%" in out
    text = (tmp_path / "r.md").read_text()
    assert "## Places: who finishes where" in text


def test_design_searches_rules_against_a_return_target(capsys, tmp_path):
    out = tmp_path / "design"
    code, _, err = call(capsys, "design", KUHN, "-p", "random", "--param", "ante=1:4",
                             "--target", "return:seat-1<=0.2", "--trials", 3, "-n", 200,
                             "--check-games", 400, "--check-settings", 1, "-j", 1,
                             "--out", out, "--quiet")  # fmt: skip
    assert code == 0, err
    data = json.loads((out / "design.json").read_text())
    figure = data["default"]["figures"]["return:seat-1<=0.2"]  # the start on fresh games
    assert figure["lo"] <= figure["value"] <= figure["hi"]
    assert data["default"]["verdicts"]["return:seat-1<=0.2"] in (MEETS, MISSES, UNKNOWN)
    assert all(t["figures"]["return:seat-1<=0.2"] is not None for t in data["trials"])
