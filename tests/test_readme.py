"""The README's examples print what their commands print (``tests/readme_examples.py``)."""

from __future__ import annotations

import pytest

from simulator.contract import registry as games
from tests.readme_examples import README, agrees, examples, output, write_files

EXAMPLES = examples(README.read_text(encoding="utf-8"))


def _drift(example, printed: list[str]) -> str:
    return (
        f"README block of `{example.command}` drifted from its output; run "
        "`python -m tests.readme_examples` (or edit the excerpt). It printed:\n"
        + "\n".join(printed)
    )


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.fast], ids=lambda e: e.command[8:40])
def test_examples_that_play_no_game(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(games, "_EXTRA", {})  # the shipped games only, as a designer sees them
    printed = output(example.command)
    assert agrees(example.shown, printed), _drift(example, printed)


@pytest.mark.slow
def test_examples_that_play_games(tmp_path, monkeypatch):
    """Every example in order, in one folder (a replay reads the run an earlier one wrote)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(games, "_EXTRA", {})
    write_files(README.read_text(encoding="utf-8"))
    for example in EXAMPLES:
        printed = output(example.command)
        assert agrees(example.shown, printed), _drift(example, printed)


def test_the_excerpt_rules():
    shown = ("a", "...", "c")
    assert agrees(shown, ["a", "b", "c"]) and not agrees(shown, ["c", "a"])
    assert agrees(("a", "b"), ["a", "b"]) and not agrees(("a", "b"), ["a", "b", "c"])
    assert agrees((), ["anything"])  # a command shown without its output
