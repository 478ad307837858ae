"""Hostile game files, written as a designer breaks a file by mistake: each ends in one line and
exit code 2, or (prints) keeps the designer's output apart from the toolkit's; a hang is
stopped by the watchdog (``--call-limit``) naming the function, the game and the step."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

from simulator.games.own_game import search, watchdog
from simulator.games.own_game.checks import check_games, policy_game
from simulator.games.own_game.loader import load
from simulator.games.own_game.play import DesignerError, play_games
from tests.test_own_game_checks import EXAMPLES, PIG, _broken, call

NOUGHTS = (EXAMPLES / "noughts.py").read_text()
HOLD = '    total = state["turn_total"]\n    if total >= at'
LIMIT = "1"  # --call-limit in seconds: a hang is found within about this


@pytest.fixture(autouse=True)
def _default_limit():
    """--call-limit is a process setting: the tests after these keep the default."""
    yield
    watchdog.set_limit(watchdog.DEFAULT_LIMIT)


def one_line(code: int, err: str) -> str:
    line = err.strip().splitlines()[-1] if err.strip() else ""
    assert code == 2, err
    assert "Traceback" not in err and line.startswith("balance: error: "), err
    return line


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"hostile_{name}.py"
    path.write_text(text)
    return path


def test_more_seats_than_a_run_holds_is_refused_and_leaves_nothing(capsys, tmp_path):
    path = _broken(tmp_path, "wide", PIG, "players = (2, 6)", "players = (2, 200)")
    out = tmp_path / "run"
    code, _, err = call(capsys, "simulate", path, "--players", 200, "-n", 10, "--out", out)
    assert "at most 127 seats" in one_line(code, err)
    assert not out.exists()


def test_sys_exit_at_import_is_one_line(capsys, tmp_path):
    path = _file(tmp_path, "exits", "import sys\nsys.exit(3)\n" + PIG)
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "sys.exit(3)" in line and "while the file was loading" in line and "line 2" in line


def test_sys_exit_in_a_game_function_is_one_line(capsys, tmp_path):
    path = _broken(tmp_path, "exit_apply", PIG, "def apply(state, action):\n",
                   "def apply(state, action):\n    raise SystemExit(4)\n")  # fmt: skip
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "apply()" in line and "sys.exit(4)" in line and "step 0" in line


def test_scores_giving_one_number_mid_game_is_found(capsys, tmp_path):
    old = 'def scores(state):\n    return list(state["scores"])'
    new = (
        'def scores(state):\n    return [sum(state["scores"])] if to_move(state) is not None '
        'else list(state["scores"])'
    )
    path = _broken(tmp_path, "one_score", PIG, old, new)
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "scores()" in line and "at a decision" in line and "one number per seat" in line


def test_a_sample_chance_ignoring_its_rng_is_found(capsys, tmp_path):
    fixed = "    import random\n    return random.Random(1).randint(1, state['faces'])\n"
    path = _file(tmp_path, "fixed_dice", PIG + "\n\ndef sample_chance(state, rng):\n" + fixed)
    line = one_line(*call(capsys, "check-game", path, "--games", 5)[::2])
    assert "sample_chance()" in line and "whatever generator" in line


def test_max_moves_true_is_not_taken_as_one(capsys, tmp_path):
    path = _file(tmp_path, "true_moves", PIG + "\nmax_moves = True\n")
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "max_moves must be a positive whole number, not True" in line


def test_winners_as_a_generator_is_read_and_a_number_refused(capsys, tmp_path):
    won = 's for s, points in enumerate(state["scores"]) if points >= state["goal"]'
    path = _broken(tmp_path, "gen_winners", PIG, f"return [{won}]", f"return ({won})")
    game = load(path)
    rules = {"goal": 10, "faces": 6}
    assert check_games(game, rules, 2, 10) == 10
    state = game.start(2, rules)
    state["scores"] = [8, 8]
    rng = np.random.default_rng(0)
    assert search.choose(game, state, 0, ["roll", "hold"], rng, playouts=16) in ("roll", "hold")
    path = _broken(tmp_path, "int_winners", PIG, f"return [{won}]", "return 0")
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "winners() gave 0: a list of seats" in line


def test_a_file_that_prints_keeps_json_parseable(capsys, tmp_path):
    path = _broken(tmp_path, "chatty", PIG, "def to_move(state):\n",
                   "def to_move(state):\n    print('to_move', state['seat'])\n")  # fmt: skip
    code, out, err = call(capsys, "simulate", path, "-n", 50, "--out", tmp_path / "run", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 50
    assert "to_move 0" in err  # the designer's prints: on stderr


def test_a_game_without_chance_needs_no_chance_outcomes(capsys, tmp_path):
    start = NOUGHTS.index("def chance_outcomes(")
    end = NOUGHTS.index("\ndef ", start + 1)
    path = _file(tmp_path, "no_chance", NOUGHTS[:start] + NOUGHTS[end + 1 :])
    code, out, err = call(capsys, "check-game", path, "--games", 5)
    assert code == 0 and "every promise kept" in out, err


def test_a_game_saying_chance_without_a_way_to_draw_it_is_one_line(capsys, tmp_path):
    start = PIG.index("def chance_outcomes(")
    end = PIG.index("\ndef ", start + 1)
    path = _file(tmp_path, "no_draw", PIG[:start] + PIG[end + 1 :])
    line = one_line(*call(capsys, "check-game", path)[::2])
    assert "said 'chance'" in line and "chance_outcomes(state)" in line
    code, _, err = call(capsys, "replay", path, "--seed", 0)
    assert "said 'chance'" in one_line(code, err)


# -- hangs: the watchdog ------------------------------------------------------------------------
def _timed(capsys, *args):
    start = time.perf_counter()
    code, out, err = call(capsys, *args, "--call-limit", LIMIT)
    assert time.perf_counter() - start < 10 * float(LIMIT), "the watchdog was late"
    return one_line(code, err)


def test_a_module_that_loops_at_import_is_stopped(capsys, tmp_path):
    path = _file(tmp_path, "loops", "while True:\n    pass\n" + PIG)
    line = _timed(capsys, "check-game", path)
    assert "while the file was loading" in line and "line 1" in line and "--call-limit" in line


def test_a_policy_that_sleeps_is_stopped_naming_it(capsys, tmp_path):
    path = _broken(tmp_path, "sleepy", PIG, HOLD, "    import time\n    time.sleep(600)\n" + HOLD)
    line = _timed(capsys, "check-game", path, "--games", 10)
    assert re.search(r"hold\(\) \(line \d+\) ran longer than --call-limit 1 s", line), line
    assert re.search(r"game seed \d+, step \d+", line), line


def test_a_game_that_never_ends_is_stopped(capsys, tmp_path):
    # every move slow enough that max_moves is far away: only the game's clock stops it
    path = _broken(tmp_path, "endless", PIG, 'if max(state["scores"]) >= state["goal"]:',
                   "import time\n    time.sleep(0.001)\n    if False:")  # fmt: skip
    line = _timed(capsys, "check-game", path)
    assert "went on longer than --call-limit 1 s without ending" in line and re.search(
        r"step \d+", line
    ), line


def test_a_run_names_the_game_index_and_replay_shows_the_moves_up_to_the_failure(capsys, tmp_path):
    # a policy that fails only in long games: the first checks pass, a later chunk fails
    path = _broken(tmp_path, "late", PIG, HOLD, '    if state["turn"] > 44:\n'
                   '        return {}["boom"]\n' + HOLD)  # fmt: skip
    out = tmp_path / "run"
    code, _, err = call(capsys, "simulate", path, "-n", 400, "--chunk-size", 20, "-j", 1,
                        "--out", out)  # fmt: skip
    line = one_line(code, err)
    found = re.search(r"policy hold\(\) raised KeyError: 'boom' \(line \d+\) in game (\d+) "
                      r"\(seed (\d+)\), step (\d+); the ([\d,]+) games finished before it are kept",
                      line)  # fmt: skip
    assert found, line
    index, seed, step = (int(x) for x in found.groups()[:3])
    code, shown, err = call(capsys, "replay", out, "--game-index", index)
    assert f"in game {index} (seed {seed}), step {step}" in one_line(code, err)
    moves = shown.strip().splitlines()
    assert moves[0].startswith("Pig: game") and "the moves up to the failure" in moves[0]
    assert len(moves) == step + 2 and "on the error below" in moves[-1]


def test_a_worker_process_stops_a_hang_too(capsys, tmp_path):
    path = _broken(tmp_path, "late_sleep", PIG, HOLD, '    if state["turn"] > 44:\n'
                   "        import time\n        time.sleep(600)\n" + HOLD)  # fmt: skip
    out = tmp_path / "run"
    line = _timed(capsys, "simulate", path, "-n", 400, "--chunk-size", 20, "-j", 2, "--out", out)
    found = r"hold\(\) \(line \d+\) ran longer than --call-limit 1 s in game \d+ \(seed \d+\)"
    assert re.search(found, line), line


def test_no_legal_action_mid_run_names_legal_actions_and_the_seat_from_1(tmp_path):
    # the run's loop (not only the checks) names the function, as the search would not
    old = 'return ["roll", "hold"]'
    new = 'return [] if state["turn"] > 3 else ["roll", "hold"]'
    game = load(_broken(tmp_path, "late_empty", PIG, old, new))
    hold = game.policies["hold"].function
    with pytest.raises(DesignerError) as failed:
        play_games(game, {"goal": 100, "faces": 6}, [hold, hold], [5, 6])
    assert re.search(r"legal_actions\(\) gave no action to seat [12] in the game of seed 5, "
                     r"step \d+$", str(failed.value)), str(failed.value)  # fmt: skip
    assert str(failed.value.at_chunk(40)).count("in game 40 (seed 5)") == 1


def test_check_games_policy_game_stops_a_slow_policy_and_says_so(tmp_path):
    game = load(
        _broken(tmp_path, "slow", PIG, HOLD, "    import time\n    time.sleep(0.02)\n" + HOLD)
    )
    played = policy_game(game, {"goal": 100, "faces": 6}, 2, "hold",
                         game.policies["hold"].function, 0, seconds=0.1)  # fmt: skip
    assert not played.finished and 3 <= played.decisions <= 10
    assert played.seconds_per_decision >= 0.02
