"""A game file's replay numbers its chance events apart from its decisions: "chance 2", then the
decision by the game's turn or, without one, by its number, which the result line's length
counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_chance_events_are_numbered_apart_from_decisions(capsys):
    code, out, err = call(capsys, "replay", EXAMPLES / "next_card.py", "--seed", 3)
    assert code == 0, err
    lines = out.splitlines()[1:-1]
    chances = [line for line in lines if line.startswith("chance ")]
    guesses = [line for line in lines if line.startswith("guess ")]
    assert len(chances) + len(guesses) == len(lines)
    assert [int(line.split()[1]) for line in chances] == list(range(1, len(chances) + 1))
    assert [int(line.split()[1]) for line in guesses] == list(range(1, len(guesses) + 1))
    assert re.search(rf"after {len(guesses)} guesses;", out.splitlines()[-1])


def test_a_game_with_turns_keeps_its_clock_for_decisions(capsys):
    code, out, err = call(capsys, "replay", EXAMPLES / "kuhn.py", "--seed", 3)
    assert code == 0, err
    assert out.splitlines()[1:4] == [
        "chance 1  dealt J to seat 1 and Q to seat 2",
        "action 0  seat 1 checks",
        "action 1  seat 2 checks",
    ]
    code, out, _ = call(capsys, "replay", EXAMPLES / "kuhn.py", "--seed", 3, "--json")
    assert code == 0 and '"chance_number": 1' in out
