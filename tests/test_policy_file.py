"""Policies from a designer's file (``--policy-file``): loading, bad input, runs, resume, repair.

The machinery is tested on ``tests/outside_game.py`` (a known-answer game that compiles in
seconds); the games' own decisions in ``tests/test_policy_file_games.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

import cli
from simulator.contract.errors import BalanceError
from simulator.contract.policy import OUTSIDE
from simulator.contract.registry import register
from simulator.folders.run_folder import load_run
from simulator.runs.plan import plan_run, play_chunk
from simulator.runs.policy_file import read_policy_file
from simulator.runs.requests import Execution, PlayRequest
from tests.outside_game import SPEC

register(SPEC)
ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
from simulator.contract.policy import PolicyParam
from simulator.runs.policy_file import Policy


def heavy(prm, seat):
    return 1.0 + prm[0]


def fixed(prm, seat):
    return 3.0


POLICIES = [
    Policy(
        "heavy",
        "strong, from a file",
        params=(PolicyParam("skill", 1.0, 0.0, 10.0, "extra weight"),),
        weight=heavy,
    ),
    Policy("fixed", "weight 3", weight=fixed),
]
"""


def _write(tmp_path: Path, text: str, name: str = "mine.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _cli(*args: object) -> tuple[int, str]:
    """Exit code and everything printed, as at a terminal."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        with pytest.raises(SystemExit) as exc:
            cli.app(list(map(str, args)))
    return exc.value.code, out.getvalue()


def _table(config) -> pl.DataFrame:
    return play_chunk(config, 0, 0, config.games)


def test_outside_policy_plays_like_its_builtin_twin(tmp_path):
    path = _write(tmp_path, GOOD)
    mine = plan_run("outside-fake", 3000, policies=["heavy:skill=4", "random"], policy_file=path)
    builtin = plan_run("outside-fake", 3000, policies=["strong:skill=4", "random"])
    assert mine.seats[0].policy.id == OUTSIDE and mine.seats[0].policy.source == str(path)
    a, b = _table(mine), _table(builtin)
    assert a["winner"].to_list() == b["winner"].to_list()
    assert a["policies"].to_list()[0] == ["heavy:skill=4", "random"]
    # the parameter reaches the compiled function: weight 5 against 1
    assert (a["winner"] == 0).mean() == pytest.approx(5 / 6, abs=0.03)


def test_two_outside_policies_and_a_builtin_each_in_its_own_seat(tmp_path):
    path = _write(tmp_path, GOOD)
    config = plan_run(
        "outside-fake",
        4000,
        players=3,
        policies=["fixed", "strong:skill=1", "heavy:skill=0"],
        policy_file=path,
    )
    wins = _table(config)["winner"].value_counts().sort("winner")["count"].to_list()
    shares = [w / 4000 for w in wins]
    assert shares == pytest.approx([3 / 6, 2 / 6, 1 / 6], abs=0.03)


def test_manifest_records_the_file_and_resume_refuses_an_edited_one(tmp_path):
    path = _write(tmp_path, GOOD)
    out = tmp_path / "run"
    args = ["simulate", "outside-fake", "-n", "500", "-p", "heavy", "-p", "random"]
    args += ["--policy-file", str(path), "--out", str(out), "-j", "1", "-q"]
    assert _cli(*args)[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["policy_file"] == read_policy_file(path).sha256
    assert manifest["policy_file"] == {"path": str(path), "source": path.read_text()}
    assert _cli(*args)[0] == 0  # the same file: resumes, nothing new
    manifest = json.loads((out / "manifest.json").read_text())  # its "finished" time is new
    before = sorted(p.name for p in (out / "games").iterdir())

    path.write_text(GOOD.replace("return 3.0", "return 4.0"))
    code, output = _cli(*args)
    assert code == 2
    assert "another version of the policy file" in output
    assert json.loads((out / "manifest.json").read_text()) == manifest
    assert sorted(p.name for p in (out / "games").iterdir()) == before


def test_verify_repair_replays_from_the_manifest_without_the_file(tmp_path):
    path = _write(tmp_path, GOOD)
    out = tmp_path / "run"
    args = ["simulate", "outside-fake", "-n", "1000", "--chunk-size", "250", "-p", "heavy"]
    args += ["--policy-file", str(path), "--out", str(out), "-j", "1", "-q"]
    assert _cli(*args)[0] == 0
    whole = load_run(out).sort("game_index").collect()
    (out / "games" / "part-00002.parquet").unlink()
    path.unlink()  # the designer moved the file: the manifest still holds it
    code, output = _cli("verify", "--repair", out, "-j", "1")
    assert code == 0, output
    assert load_run(out).sort("game_index").collect().equals(whole)


def test_studies_and_tune_take_the_file(tmp_path):
    path = _write(tmp_path, GOOD)
    out = tmp_path / "t"
    code, output = _cli(
        "tournament", "outside-fake", "-p", "fixed", "-p", "strong", "-n", "300",
        "--policy-file", path, "--out", out, "-j", "1", "-q",
    )  # fmt: skip
    assert code == 0, output
    labels = {
        tuple(json.loads((d / "manifest.json").read_text())["config"]["policies"])
        for d in out.iterdir()
        if (d / "manifest.json").exists()
    }
    assert labels == {("fixed", "strong"), ("strong", "fixed")}

    for command in (
        ["sweep", "outside-fake", "--param", "draw=0,0.5"],
        ["compare", "outside-fake", "--set", "draw=0.5"],
    ):
        study = tmp_path / command[0]
        code, output = _cli(
            *command, "-p", "heavy:skill=3", "-p", "fixed", "-n", "300", "--policy-file", path,
            "--out", study, "-j", "1", "-q",
        )  # fmt: skip
        assert code == 0, output
        configs = [json.loads(m.read_text())["config"] for m in study.glob("*/manifest.json")]
        assert len(configs) == 2
        assert all(c["policies"] == ["heavy:skill=3", "fixed"] for c in configs)
        assert all(c["policy_file"] == read_policy_file(path).sha256 for c in configs)

    from simulator.studies.tuning import plan_tune

    plan = plan_tune(
        PlayRequest("outside-fake", 400, policy_file=path), "heavy", against=["random"]
    )
    assert plan.policy.name == "heavy" and plan.describe()["policy_file"]
    assert plan.config({"skill": 7.0}, plan.seatings[0]).policy_file.sha256 == (
        read_policy_file(path).sha256
    )


BAD = [
    ("missing", None, "no such file"),
    ("syntax", "def heavy(prm, seat)\n    return 1.0\n", ":1: syntax error"),
    ("raises", "import math\nx = 1\nmath.nope()\n", ":3: AttributeError"),
    ("no POLICIES", "x = 1\n", "defines no POLICIES"),
    (
        "wrong arguments",
        GOOD.replace("def fixed(prm, seat):", "def fixed(prm):"),
        ":9: fixed() takes (prm) but a outside-fake 'weight' decision takes 2 arguments",
    ),
    (
        "numba cannot compile",
        GOOD.replace("    return 3.0", "    return seat + 'x'"),
        ":10: fixed() does not compile",
    ),
    (
        "name of a built-in",
        GOOD.replace('"fixed", "weight 3"', '"strong", "weight 3"'),
        ":20: policy 'strong' has the name of a built-in outside-fake policy",
    ),
    (
        "declared twice",
        GOOD.replace('"fixed", "weight 3"', '"heavy", "weight 3"'),
        "policy 'heavy' is declared twice",
    ),
    (
        "default out of bounds",
        GOOD.replace('"skill", 1.0, 0.0, 10.0', '"skill", 11.0, 0.0, 10.0'),
        "default 11 is outside its bounds 0 to 10",
    ),
    (
        "unknown decision",
        GOOD.replace("weight=fixed", "weight=fixed, bid=fixed"),
        "gives unknown decision 'bid'; a outside-fake policy decides: weight",
    ),
    (
        "missing decision",
        GOOD.replace("weight=fixed", ""),
        "policy 'fixed' lacks decision 'weight'",
    ),
    (
        "helper without @njit",
        GOOD.replace(
            "def fixed(prm, seat):\n    return 3.0",
            "def three():\n    return 3.0\n\n\ndef fixed(prm, seat):\n    return three()",
        ),
        ":14: fixed() does not compile",
    ),
    ("bad name", GOOD.replace('"fixed"', '"Fixed:1"'), "policy name 'Fixed:1' must be"),
    ("not a file", "", "is a folder"),
]


@pytest.mark.parametrize(("case", "text", "expected"), BAD, ids=[c[0] for c in BAD])
def test_bad_policy_files_are_one_line_and_write_nothing(tmp_path, case, text, expected):
    path = tmp_path / "mine.py"
    if case == "not a file":
        path.mkdir()
    elif text is not None:
        path.write_text(text)
    out = tmp_path / "run"
    code, output = _cli(
        "simulate", "outside-fake", "-n", "100", "-p", "heavy", "--policy-file", path,
        "--out", out, "-q",
    )  # fmt: skip
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("balance: error: ")
    assert str(path) in lines[0] and expected in lines[0], lines[0]
    assert not out.exists()


def test_a_parameter_out_of_bounds_names_the_file(tmp_path):
    path = _write(tmp_path, GOOD)
    with pytest.raises(BalanceError, match=r"mine\.py: policy 'heavy' parameter 'skill' got '12'"):
        plan_run("outside-fake", 10, policies=["heavy:skill=12"], policy_file=path)
    with pytest.raises(BalanceError, match=r"mine\.py: unknown parameter 'speed'"):
        plan_run("outside-fake", 10, policies=["heavy:speed=1"], policy_file=path)


def test_an_answer_the_engine_refuses_is_one_line_naming_the_file(tmp_path):
    path = _write(tmp_path, GOOD.replace("return 3.0", "return -1.0"))
    out = tmp_path / "run"
    code, output = _cli(
        "simulate", "outside-fake", "-n", "100", "-p", "fixed", "--policy-file", path,
        "--out", out, "-q", "-j", "1",
    )  # fmt: skip
    assert code == 2
    assert output.strip().splitlines() == [
        f"balance: error: {path}: a game stopped on an answer the engine refuses (a seat's "
        "weight is negative); check the decisions of the policies from this file"
    ]
    assert not out.exists()


def test_a_game_without_outside_decisions_refuses_the_file(tmp_path):
    path = _write(tmp_path, GOOD)
    with pytest.raises(BalanceError, match="fake does not take policies from a --policy-file"):
        plan_run("fake", 10, policy_file=path)


def test_an_unknown_policy_hints_at_policy_files():
    with pytest.raises(BalanceError, match=r"choose from: random, strong \(or --policy-file"):
        plan_run("outside-fake", 10, policies=["heavy"])


def test_compiled_functions_come_from_the_cache_in_a_new_process(tmp_path):
    """The file is written under the JIT cache folder by its hash, so numba's cache finds the
    functions compiled by an earlier process (cache hits, no new compilation)."""
    path = _write(tmp_path, GOOD)
    script = textwrap.dedent(
        f"""
        from simulator.contract.registry import register, get_game
        from simulator.runs.policy_file import load_policies, read_policy_file
        from tests.outside_game import SPEC
        register(SPEC)
        loaded = load_policies(SPEC, read_policy_file({str(path)!r}))
        fns = [f for d in loaded.functions for f in d.values()]
        print(sum(sum(f.stats.cache_hits.values()) for f in fns), len(fns))
        """
    )

    def hits() -> tuple[int, int]:
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=True,
        )
        a, b = done.stdout.split()
        return int(a), int(b)

    hits()
    found, functions = hits()
    assert functions == 2 and found == functions


@pytest.mark.slow
def test_the_file_travels_to_dask_workers_that_share_no_files(tmp_path, monkeypatch):
    """Workers with their own cache folder and no access to the file play the run exactly as
    local processes do: the file's text travels inside the task."""
    pytest.importorskip("distributed")
    from tests import test_cluster
    from tests.test_cluster import LoopbackCluster

    dask = Path(sys.executable).parent / "dask"  # the interpreter's own environment
    if not dask.exists():
        pytest.skip("needs the dask command beside the Python running the tests")
    monkeypatch.setattr(test_cluster, "DASK", dask)
    from simulator.runs.runner import run

    path = _write(tmp_path, GOOD)
    config = plan_run(
        "outside-fake", 2000, players=3, policies=["fixed", "heavy:skill=2", "strong"],
        chunk_size=250, policy_file=path,
    )  # fmt: skip
    local = run(config, tmp_path / "local", jobs=1).path
    path.unlink()
    worker_cache = tmp_path / "worker-cache"
    loopback = LoopbackCluster(tmp_path)
    try:
        loopback.env = {
            k: v for k, v in loopback.env.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")
        }
        loopback.env["BALANCE_CACHE_DIR"] = str(worker_cache)
        loopback.add_worker("w1")
        loopback.add_worker("w2")
        remote = run(config, tmp_path / "remote", cluster=loopback.address).path
    finally:
        loopback.close()
    assert (
        load_run(remote)
        .sort("game_index")
        .collect()
        .equals(load_run(local).sort("game_index").collect())
    )
    copies = list(worker_cache.glob("numba-*/policy-files/balance_policy_*.py"))
    assert [c.read_text() for c in copies] == [GOOD]


def test_policies_lists_builtins_and_a_files_policies_with_their_parameters(tmp_path):
    path = _write(tmp_path, GOOD)
    code, output = _cli("policies", "outside-fake", "--policy-file", path, "--json")
    assert code == 0, output
    rows = {r["policy"]: r for r in json.loads(output)}
    assert list(rows) == ["random", "strong", "heavy", "fixed"]
    assert rows["strong"]["source"] == "built-in" and rows["heavy"]["source"] == str(path)
    assert rows["heavy"]["params"] == [
        {"name": "skill", "default": 1.0, "lo": 0.0, "hi": 10.0, "doc": "extra weight",
         "bounded": True}
    ]  # fmt: skip
    assert rows["fixed"]["params"] == [] and rows["fixed"]["doc"] == "weight 3"
    code, output = _cli("policies", "outside-fake", "--policy-file", path)
    assert code == 0 and "skill" in output and "extra weight" in output and "(from" in output


def test_policies_refuses_a_bad_file_in_one_line(tmp_path):
    path = _write(tmp_path, GOOD.replace('"fixed"', '"heavy"'))
    code, output = _cli("policies", "outside-fake", "--policy-file", path)
    assert code == 2
    assert output.strip().splitlines() == [
        f"balance: error: {path}:20: policy 'heavy' is declared twice"
    ]


def test_a_policy_from_a_file_is_a_rung_of_a_skill_ladder(tmp_path):
    from analyses.skill import skill_summary
    from reports.grouping import open_runs
    from simulator.studies.skill import skill

    path = _write(tmp_path, GOOD)
    out = tmp_path / "ladder"
    skill(
        PlayRequest("outside-fake", 600, policy_file=path),
        out,
        Execution(jobs=1),
        rungs=["random", "fixed"],
    )
    s = skill_summary(open_runs([out])[1])
    # fixed has weight 3 against random's 1: it wins three games in four, 191 Elo points.
    assert [r["name"] for r in s["rungs"]] == ["random", "fixed"]
    share, rating = s["pairs"][0]["stronger_win_rate"], s["rungs"][1]["rating"]
    assert share["lo"] < 0.75 < share["hi"] and rating["lo"] < 191 < rating["hi"]
