"""`balance check-game` and the loader: every broken promise of a game file found in one line
naming the function, the game's seed and the step; a file that keeps them passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PIG = (EXAMPLES / "pig.py").read_text()
KUHN = (EXAMPLES / "kuhn.py").read_text()


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def _broken(tmp_path: Path, name: str, text: str, old: str, new: str) -> Path:
    # a stem of its own: the registry keeps one game per name, and the examples keep theirs
    assert old in text, old
    path = tmp_path / f"broken_{name}.py"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize("example", ["pig", "noughts", "kuhn", "swap"])
def test_every_example_keeps_every_promise(capsys, example):
    code, out, err = call(capsys, "check-game", EXAMPLES / f"{example}.py", "--games", 30)
    assert code == 0, err
    assert "every promise kept" in out and "games/s" in out


LEGAL = 'def legal_actions(state):\n    return ["roll", "hold"]'
CHANCE = "return [(face, 1 / n) for face in range(1, n + 1)]"
TO_MOVE = 'return "chance" if state["rolling"] else state["seat"]'
WINNERS = 'return [s for s, points in enumerate(state["scores"]) if points >= state["goal"]]'
# (case, old text of pig.py, new text, function named, words of the line)
PIG_CASES = [
    ("no legal action", LEGAL,
     'def legal_actions(state):\n    return [] if state["turn"] > 3 else ["roll", "hold"]',
     "legal_actions", "gave no action"),
    ("order changes", LEGAL,
     "_calls = [0]\n\n\ndef legal_actions(state):\n    _calls[0] += 1\n"
     '    return ["roll", "hold"] if _calls[0] % 2 else ["hold", "roll"]',
     "legal_actions", "another order"),
    ("probabilities short of 1", CHANCE, "return [(face, 1 / n) for face in range(1, n)]",
     "chance_outcomes", "summing to"),
    ("a negative probability", CHANCE, "return [(1, -0.5), (2, 1.5)]",
     "chance_outcomes", "negative probability"),
    ("a seat outside the game", TO_MOVE,
     'return "chance" if state["rolling"] else state["seat"] + 5', "to_move", "outside"),
    ("winners twice", WINNERS, "return [0, 0]", "winners", "a seat twice"),
    ("winners outside", WINNERS, "return [7]", "winners", "not a seat"),
    ("never over", 'if max(state["scores"]) >= state["goal"]:', "if False:", "to_move",
     "never gave None (game over)"),
    ("shared list", 'return {**state, "scores": list(state["scores"])}', "return dict(state)",
     "apply", "clone() must copy"),
    ("measures not numbers", 'return {"rolls": state["rolls"], "busts": state["busts"]}',
     'return {"rolls": "many", "busts": state["busts"]}', "measures", "not a number"),
    ("a policy answering an illegal action", 'return "roll"\n\n\ndef catch_up',
     'return "jump"\n\n\ndef catch_up', "policy hold", "not one of the legal actions"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "old", "new", "function", "words"), PIG_CASES,
                         ids=[c[0] for c in PIG_CASES])  # fmt: skip
def test_a_broken_promise_is_one_line_naming_function_seed_and_step(
    capsys, tmp_path, case, old, new, function, words
):
    if case == "never over":
        new += "  # max_moves below"
        path = _broken(tmp_path, "pig", PIG, old, new)
        path.write_text(path.read_text() + "\nmax_moves = 300\n")
    else:
        path = _broken(tmp_path, "pig", PIG, old, new)
    code, out, err = call(capsys, "check-game", path, "--games", 20)
    assert code == 2, (out, err)
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"{function}()" in line and words in line, line
    assert re.search(r"game seed \d+, step \d+", line), line


def test_the_same_seed_giving_another_game_is_found(capsys, tmp_path):
    path = tmp_path / "unseeded_pig.py"
    path.write_text(
        "import random\n" + PIG + "\n\ndef sample_chance(state, rng):\n"
        '    return random.randint(1, state["faces"])\n'
    )
    code, _, err = call(capsys, "check-game", path, "--games", 20)
    assert code == 2 and "the same seed gave another game" in err and "game seed" in err


def test_determinize_changing_what_the_seat_observes_is_found(capsys, tmp_path):
    old = 'new["cards"] = (own, other) if seat == 0 else (other, own)'
    path = _broken(tmp_path, "kuhn", KUHN, old, 'new["cards"] = (other, own)')
    code, _, err = call(capsys, "check-game", path, "--games", 20)
    assert code == 2
    assert "determinize()" in err and "observes another thing" in err and "game seed" in err


LOADER_CASES = [
    ("an option default outside its bounds", '"default": 100, "min": 10, "max": 1000',
     '"default": 100, "min": 10, "max": 50', "outside its bounds"),
    ("a missing function", "def winners(state):", "def winner(state):", "no winners()"),
    ("bad players", "players = (2, 6)", "players = (3, 2)", "players must be"),
    ("a syntax error", "def turn(state):", "def turn(state)", "line"),
    ("an exception while loading", 'title = "Pig"', 'title = "Pig" + 1', "while the file"),
    ("a policy's default not a number", "at=20):", 'at="twenty"):', "must be a number"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "old", "new", "words"), LOADER_CASES,
                         ids=[c[0] for c in LOADER_CASES])  # fmt: skip
def test_a_malformed_file_is_refused_in_one_line_by_every_command(
    capsys, tmp_path, case, old, new, words
):
    path = _broken(tmp_path, "pig", PIG, old, new)
    for command in (["check-game", path], ["rules", path], ["simulate", path, "-n", 10,
                    "--out", tmp_path / "run"]):  # fmt: skip
        code, _, err = call(capsys, *command)
        assert code == 2 and words in err and "\n" not in err.strip(), (command, err)
        assert path.name in err
    assert not (tmp_path / "run").exists()


def test_an_option_set_outside_its_bounds_is_refused(capsys):
    code, _, err = call(capsys, "check-game", EXAMPLES / "pig.py", "--set", "goal=5")
    assert code == 2 and "goal" in err and "out of bounds" in err


def test_a_run_refuses_a_broken_file_before_anything_is_written(capsys, tmp_path):
    path = _broken(tmp_path, "pig", PIG, WINNERS, "return [0, 0]")
    out = tmp_path / "run"
    code, _, err = call(capsys, "simulate", path, "-n", 100, "--out", out)
    assert code == 2 and "winners()" in err and "game seed" in err
    assert not out.exists()
