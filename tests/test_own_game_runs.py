"""A game file through the toolkit: its runs answer what exact methods compute, keep the file
in the manifest (replayed, verified and resumed from it alone), refuse an edited file on
resume, give the same rows for any number of jobs, and end a designer's exception in one line
with the finished parts kept."""

from __future__ import annotations

import json
import math
import shutil
from functools import cache
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import cli
from simulator.folders.run_folder import load_run
from simulator.runs.plan import plan_run
from simulator.runs.replay import replay_run
from simulator.runs.runner import run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PIG = str(EXAMPLES / "pig.py")
NOUGHTS = str(EXAMPLES / "noughts.py")
Z = 3.29  # a two-sided 99.9% band: a fixed-seed test that a correct game passes


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# -- exact answers -----------------------------------------------------------------------------
def pig_first_seat_wins(goal: int, faces: int, holds: tuple[int, int]) -> float:
    """P(seat 0 wins) when seat s holds at a turn total of ``holds[s]`` (or when holding wins),
    by value iteration over (seat to move, score 0, score 1, turn total)."""
    # w[p, a, b, t]: seat 0's chance to win with seat p to move, scores a and b, turn total t
    w = np.zeros((2, goal, goal, goal))
    for _ in range(10_000):
        old = w.copy()
        for p in (0, 1):
            for a in range(goal):
                for b in range(goal):
                    mine = a if p == 0 else b
                    for t in range(goal - mine):
                        w[p, a, b, t] = _pig_value(w, p, a, b, t, goal, faces, holds[p])
        if np.abs(w - old).max() < 1e-13:
            return float(w[0, 0, 0, 0])
    raise AssertionError("value iteration did not converge")


def _pig_value(w, p, a, b, t, goal, faces, hold_at) -> float:
    mine = a if p == 0 else b
    if t >= hold_at or mine + t >= goal:  # hold
        if mine + t >= goal:
            return 1.0 if p == 0 else 0.0
        a2, b2 = (a + t, b) if p == 0 else (a, b + t)
        return w[1 - p, a2, b2, 0]
    value = w[1 - p, a, b, 0] / faces  # a 1: the turn is lost
    for face in range(2, faces + 1):
        if mine + t + face >= goal:  # the policy holds at once: a win
            value += (1.0 if p == 0 else 0.0) / faces
        else:
            value += w[p, a, b, t + face] / faces
    return value


@cache
def noughts_random_shares() -> dict[str, float]:
    """X wins, O wins and a draw under uniform random play, by enumerating every game."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def walk(cells: tuple, mover: int) -> np.ndarray:
        for i, j, k in lines:
            if cells[i] >= 0 and cells[i] == cells[j] == cells[k]:
                return np.eye(3)[cells[i]]
        free = [i for i, c in enumerate(cells) if c < 0]
        if not free:
            return np.eye(3)[2]
        return sum(walk(cells[:i] + (mover,) + cells[i + 1 :], 1 - mover) for i in free) / len(free)

    x, o, draw = walk((-1,) * 9, 0)
    return {"x": x, "o": o, "draw": draw}


def _within(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= Z * math.sqrt(p * (1 - p) / n)


def test_pig_first_seat_share_is_the_value_iterations(tmp_path):
    goal, holds = 25, (5, 10)
    exact = pig_first_seat_wins(goal, 6, holds)
    config = plan_run(PIG, 6000, seed=1, sets=[f"goal={goal}"],
                      policies=[f"hold:at={holds[0]}", f"hold:at={holds[1]}"])  # fmt: skip
    games = load_run(run(config, tmp_path / "run", jobs=1).path).collect()
    wins = int((games["winner"] == 0).sum())
    assert _within(wins, games.height, exact), (wins / games.height, exact)


def test_noughts_random_play_shares_are_the_enumerations(tmp_path):
    exact = noughts_random_shares()
    config = plan_run(NOUGHTS, 20_000, seed=2, policies=["random"])
    games = load_run(run(config, tmp_path / "run", jobs=1).path).collect()
    n = games.height
    assert _within(int((games["winner"] == 0).sum()), n, exact["x"])
    assert _within(int((games["winner"] == 1).sum()), n, exact["o"])
    assert _within(int(games["winner"].is_null().sum()), n, exact["draw"])
    assert set(games["end_reason"].unique()) == {"line", "full"}


# -- the file and its runs ---------------------------------------------------------------------
def _copy(tmp_path: Path, name: str = "pig", stem: str = "my_pig") -> Path:
    # a stem of its own: the registry keeps one game per name, and the examples keep theirs
    path = tmp_path / f"{stem}.py"
    shutil.copy(EXAMPLES / f"{name}.py", path)
    return path


def test_the_manifest_keeps_the_file_and_the_run_reads_back_without_it(capsys, tmp_path):
    path = _copy(tmp_path)
    out = tmp_path / "run"
    code, _, err = call(capsys, "simulate", path, "-n", 300, "--out", out, "--jobs", 1)
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    kept = manifest["game_file"]
    assert kept["source"] == path.read_text() and manifest["config"]["game_file"] == kept["sha256"]
    assert manifest["config"]["game"] == "my_pig"
    path.unlink()  # the run needs nothing but its folder from here on
    code, _, err = call(capsys, "verify", out)
    assert code == 0, err
    code, out_text, err = call(capsys, "replay", out, "--game-index", 2)
    assert code == 0 and "result:" in out_text, err
    code, _, err = call(capsys, "report", out, "--out", tmp_path / "r.html")
    assert code == 0, err


def test_a_missing_part_is_played_again_the_same(capsys, tmp_path):
    path = _copy(tmp_path)
    out = tmp_path / "run"
    args = ["simulate", path, "-n", 1000, "--out", out, "--chunk-size", 250, "--jobs", 1]
    assert call(capsys, *args)[0] == 0
    before = load_run(out).sort("game_index").collect()
    (out / "games" / "part-00002.parquet").unlink()
    code, _, err = call(capsys, *args)
    assert code == 0, err
    assert load_run(out).sort("game_index").collect().equals(before)


def test_an_edited_file_cannot_resume_an_old_run(capsys, tmp_path):
    path = _copy(tmp_path)
    out = tmp_path / "run"
    args = ["simulate", path, "-n", 500, "--out", out, "--jobs", 1]
    assert call(capsys, *args)[0] == 0
    manifest = (out / "manifest.json").read_text()
    path.write_text(path.read_text().replace('return ["roll", "hold"]', "return ['hold', 'roll']"))
    code, _, err = call(capsys, *args)
    assert code == 2 and "\n" not in err.strip()
    assert (out / "manifest.json").read_text() == manifest


def test_any_number_of_jobs_plays_the_same_games(tmp_path):
    config = plan_run(PIG, 2000, seed=5, chunk_size=250, policies=["hold", "catch_up"])
    one = load_run(run(config, tmp_path / "one", jobs=1).path).sort("game_index").collect()
    two = load_run(run(config, tmp_path / "two", jobs=2).path).sort("game_index").collect()
    assert one.equals(two)
    assert set(one.columns) >= {"pig_rolls", "pig_busts", "lead_changes", "half_leader"}


def test_a_designers_exception_mid_run_is_one_line_and_keeps_the_finished_parts(capsys, tmp_path):
    path = _copy(tmp_path)
    text = path.read_text()
    text = text.replace(
        "def start(players, rules):\n",
        "_started = [0]\n\n\ndef start(players, rules):\n    _started[0] += 1\n",
    )
    text = text.replace(
        "def apply(state, action):\n",
        "def apply(state, action):\n"
        "    if _started[0] > 700:\n        raise ValueError('off the table')\n",
    )
    path.write_text(text)  # fmt: skip
    out = tmp_path / "run"
    code, _, err = call(capsys, "simulate", path, "-n", 5000, "--out", out, "--chunk-size", 250,
                        "--jobs", 1)  # fmt: skip
    line = err.strip()
    assert code == 2 and "\n" not in line
    assert "apply() raised ValueError: off the table" in line and "seed" in line and "step" in line
    kept = len(list((out / "games").glob("part-*.parquet")))
    assert kept >= 2 and f"the {kept * 250:,} games finished before it are kept in" in line


def test_replay_of_a_board_game_draws_its_pieces(capsys, tmp_path):
    out = tmp_path / "run"
    assert call(capsys, "simulate", NOUGHTS, "-n", 20, "--out", out, "--jobs", 1)[0] == 0
    replay = replay_run(out, 0)
    frames = replay.config.spec.replay.frames(replay.rules, 2, replay.rows, replay.events)
    assert len(frames) == len(replay.events) + 1
    assert frames[0]["pieces"] == [] and len(frames[-1]["pieces"]) == len(replay.events)


def test_greedy_without_scores_is_refused_in_one_line(capsys, tmp_path):
    code, _, err = call(capsys, "simulate", NOUGHTS, "-n", 10, "-p", "greedy",
                        "--out", tmp_path / "run")  # fmt: skip
    assert code == 2 and "no scores(state)" in err and not (tmp_path / "run").exists()


def test_compare_plays_a_file_games_variant_on_the_same_seeds(capsys, tmp_path):
    code, out, err = call(capsys, "compare", PIG, "--set", "goal=50", "-n", 400,
                          "--out", tmp_path / "study", "--jobs", 1)  # fmt: skip
    assert code == 0, err
    runs = sorted((tmp_path / "study").glob("*/manifest.json"))
    seeds = [pl.read_parquet(p.parent / "games" / "*.parquet")["seed"].sort() for p in runs]
    assert len(runs) == 2 and seeds[0].equals(seeds[1])


def test_a_package_registers_a_game_under_the_entry_point_group(capsys, tmp_path, monkeypatch):
    package = tmp_path / "dicegames"
    package.mkdir()
    (package / "__init__.py").write_text("")
    shutil.copy(EXAMPLES / "pig.py", package / "pig_rules.py")
    info = tmp_path / "dicegames-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dicegames\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[balance.games]\ndice = dicegames.pig_rules\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = call(capsys, "games", "--json")
    assert code == 0, err
    dice = next(g for g in json.loads(out) if g["id"] == "dice")
    assert dice["title"] == "Pig" and "hold" in dice["policies"]
    code, _, err = call(
        capsys, "simulate", "dice", "-n", 50, "--out", tmp_path / "run", "--jobs", 1
    )
    assert code == 0, err
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["config"]["game"] == "dice"


@pytest.mark.slow
def test_a_dask_cluster_plays_a_file_it_never_saw(tmp_path):
    """The file travels as text: planned, then deleted, then played by Dask workers, the run
    equals the same run played by one local process."""
    path = _copy(tmp_path)
    config = plan_run(str(path), 1500, seed=8, chunk_size=250)
    path.unlink()
    there = load_run(run(config, tmp_path / "dask", cluster="local").path)
    here = load_run(run(config, tmp_path / "here", jobs=1).path)
    assert there.sort("game_index").collect().equals(here.sort("game_index").collect())
