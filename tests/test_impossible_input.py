"""Impossible values are refused before anything is played: one line naming the problem, exit 2,
no run folder written."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

import cli
from simulator.games.cape_horn import board as CH

SHIPPED_CARDS = CH.DATA_FILES[3].shipped.text


def _refused(*args: object) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        with pytest.raises(SystemExit) as exc:
            cli.app(list(map(str, args)))
    output = out.getvalue()
    assert exc.value.code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in output, output
    return lines[0]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("first-seat=120%+-2%", "120% cannot be reached; a share lies in 0%..100%"),
        ("first-seat=120%", "120% cannot be reached; a share lies in 0%..100%"),
        ("draw<=150%", "150% cannot be reached; a share lies in 0%..100%"),
        ("seat-2>=-0.1", "-10% cannot be reached"),
        ("end:treasures=0.5..1.5", "150% cannot be reached"),
        ("length=-5..-1", "-5 cannot be reached; length is never negative"),
        ("lead-changes<=-1", "lead-changes is never negative"),
        ("balance=1.2+-0.1", "balance runs from 0 to 1"),
        ("first-seat=20%", "give a tolerance or a range, e.g. first-seat=20%+-2%"),
        ("seat-7=0.2+-0.1", "at most 6 players"),
        ("mean:caza_searches<=-1", "caza_searches is a count, never negative"),
    ],
)
def test_impossible_targets_are_refused_before_play(tmp_path: Path, target, message) -> None:
    out = tmp_path / "run"
    line = _refused("simulate", "caza-tesoros", "-n", 10, "--out", out, "--target", target)
    assert message in line and target in line
    assert not out.exists()


def test_a_rule_set_twice_with_different_values_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    sets = ("--set", "level2_cost=2", "--set", "level2_cost=5")
    line = _refused("simulate", "caza-tesoros", "-n", 10, "--out", out, *sets)
    assert "level2_cost is given twice (level2_cost=2 and level2_cost=5)" in line
    assert not out.exists()


def test_a_policy_parameter_given_twice_with_different_values_is_refused(tmp_path: Path) -> None:
    line = _refused(
        "simulate", "caza-tesoros", "-n", 10, "--out", tmp_path / "r", "--policy",
        "greedy:reserve=1,reserve=3",
    )  # fmt: skip
    assert "parameter 'reserve' is given twice" in line


def test_the_same_value_twice_is_one_value() -> None:
    from simulator.contract.rules import parse_sets

    assert parse_sets(["level2_cost=2", " level2_cost = 2"]) == {"level2_cost": " 2"}


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("0:99", "card F3: the move 0:99 lands off the board from every space"),
        ("-40:0", "card F3: the move -40:0 lands off the board"),
        ("0:0", "0:0 leaves the ship where it is"),
    ],
)
def test_a_card_move_the_board_cannot_hold_is_refused(tmp_path: Path, move, message) -> None:
    cards = tmp_path / "cards.csv"
    cards.write_text(SHIPPED_CARDS.replace("F3,14,0:3", f"F3,14,{move}"))
    out = tmp_path / "run"
    line = _refused("simulate", "cape-horn", "-n", 10, "--out", out, "--data", f"cards={cards}")
    assert message in line
    assert not out.exists()


def test_the_longest_move_the_board_holds_is_accepted() -> None:
    """A 14-step side move lands on the board from one edge of the 15-column east area."""
    from simulator.contract.game_data import DataSource

    shipped = CH.shipped_sources()
    cards = DataSource("cards", SHIPPED_CARDS.replace("F3,14,0:3", "F3,14,0:3 -6:0"), "c.csv")
    data = CH.load_sources((*shipped[:3], cards))
    assert (-6, 0) in data.card_moves[data.design("F3")]
