"""Screening rule options (``balance explore``) on the known-answer game.

In the fake game ``bias`` adds to seat 1's weight (so it raises the first seat's win rate and
lowers balance), ``draw`` is the chance nobody wins, ``extra_length`` lengthens games, and ``cap``
is read by nothing: under common seeds its elementary effects are exactly 0.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from analyses.explore import elementary_effects
from simulator.contract.errors import BalanceError
from simulator.contract.registry import get_game
from simulator.folders.run_folder import RunFolder
from simulator.runs.requests import PlayRequest
from simulator.studies.explore import Factor, default_range, plan_explore
from tests.test_cli import call

ROOT = Path(__file__).resolve().parent.parent


def _explore(capsys, out, *args):
    code, stdout, err = call(
        capsys, "explore", "fake", "--players", "2", "--out", out, "--json", "--jobs", "1", *args
    )
    assert code == 0, err
    return json.loads(stdout)


def _row(data, option, figure):
    return next(r for r in data["options"] if r["option"] == option and r["figure"] == figure)


def test_known_effects_rank_first_and_a_dead_option_is_exactly_zero(capsys, tmp_path):
    data = _explore(capsys, tmp_path / "x", "-n", "300", "-r", "6", "--range", "bias=0:2")
    assert data["method"] == "morris" and data["game"] == "fake"
    assert data["points"] == 6 * (4 + 1)  # r(k + 1): bias, draw, extra_length, cap
    assert data["games"] == data["runs"] * 300
    assert data["wall_seconds"] > 0  # this invocation's, from explore-time.json
    assert {"first-seat", "balance", "no-winner", "length", "end:drawn"} <= set(data["figures"])
    for row in data["options"]:  # the contract `balance design --explore` reads
        assert {"option", "figure", "effect", "interaction", "direction", "mu", "sigma",
                "range"} <= set(row)  # fmt: skip
        assert set(row["effect"]) == set(row["mu"]) == {"value", "lo", "hi"}
    first = [r for r in data["options"] if r["figure"] == "first-seat"]
    assert first[0]["option"] in ("bias", "draw")
    bias = _row(data, "bias", "first-seat")
    assert bias["moves"] and bias["effect"]["lo"] > 0 and bias["direction"] == "raises"
    assert _row(data, "bias", "balance")["direction"] == "lowers"
    assert [r["option"] for r in data["options"] if r["figure"] == "length"][0] == "extra_length"
    assert [r["option"] for r in data["options"] if r["figure"] == "no-winner"][0] == "draw"
    for figure in data["figures"]:
        cap = _row(data, "cap", figure)
        assert cap["effect"] == {"value": 0, "lo": 0, "hi": 0} and cap["sigma"] == 0
        assert cap["unchanged"] and not cap["moves"]
    assert _row(data, "extra_length", "first-seat")["unchanged"]
    # the same, written for `balance design`
    saved = json.loads((tmp_path / "x" / "explore.json").read_text())
    assert saved["options"] == data["options"] and saved["out"] == str(tmp_path / "x")
    ranges = {f["option"]: f for f in data["ranges"]}
    assert ranges["bias"]["range"] == [0, 2] and ranges["bias"]["source"] == "--range"
    assert ranges["extra_length"]["range"] == [2.5, 10.0]  # half to double the default 5
    assert (tmp_path / "x" / "report.html").is_file()


def test_report_of_an_explore_rebuilds_and_says_what_moves(capsys, tmp_path):
    _explore(capsys, tmp_path / "x", "-n", "100", "-r", "3", "--options", "bias,cap,mode")
    code, out, err = call(capsys, "report", tmp_path / "x", "--out", tmp_path / "r.md",
                          "--format", "md", "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["kind"] == "explore"
    text = (tmp_path / "r.md").read_text()
    assert "What moves first-seat" in text and "changed no game" in text
    assert "mode" in text  # a choice named in --options is screened in its listed order
    assert any("What moves the first seat's win rate" in h for h in data["headline"])
    code, out, err = call(capsys, "verify", tmp_path / "x")
    assert code == 0, err


def test_default_ranges():
    info = {o.name: o for o in get_game("fake").rules_class.options()}
    assert default_range(info["extra_length"], 5.0) == (2.5, 10.0)
    assert default_range(info["cap"], 50) == (25, 100)
    assert default_range(info["bias"], 0.0) == (0.0, 1.0)  # 0: a tenth of the bounds 0..10
    assert default_range(info["cap"], 1) == (1, 3)  # at least two whole steps
    assert default_range(info["draw"], 0.8) == (0.4, 1.0)  # clipped to the bounds
    with pytest.raises(BalanceError, match="allows only"):
        default_range(dataclasses.replace(info["draw"], lo=1.0), 1.0)


def test_run_limits_are_left_out_of_a_default_screen():
    caza = plan_explore(PlayRequest("caza-tesoros", 1, players=2), trajectories=2)
    names = [f.name for f in caza.factors]
    assert "max_days" not in names and "starting_vp" in names
    skipped = {s["option"]: s["reason"] for s in caza.skipped}
    assert "run limit" in skipped["max_days"]
    assert "list of numbers" in skipped["treasure_values"]
    assert "choice" in skipped["cross_reference"]


def test_integer_levels_are_rounded_and_effects_use_the_step_taken():
    f = Factor("cap", "int", 1, 3, 2, "default range")
    assert [f.value(u) for u in (0, 1 / 3, 2 / 3, 1)] == [1, 2, 2, 3]
    b = Factor("flag", "bool", 0, 1, False, "no and yes")
    assert [b.value(u) for u in (0, 1 / 3, 2 / 3, 1)] == [False, False, True, True]
    # one trajectory of two factors: y = 10 * value of factor 0 (rounded), nothing else
    unit = np.array([[0, 0], [2 / 3, 0], [2 / 3, 2 / 3]])
    pos = np.array([[0.0, 0.0], [0.5, 0.0], [0.5, 2 / 3]])  # 1 -> 2 is half of 1..3
    y = np.array([10.0, 20.0, 20.0])
    (e0, _), (e1, _) = elementary_effects(unit, pos, y, np.tile(y[:, None], (1, 4)), 2)
    assert e0.tolist() == [20.0] and e1.tolist() == [0.0]  # 10 per step = 20 over the range


def test_morris_matches_salib_without_rounding():
    """With float options (no rounding), mu*, mu and sigma are SALib's own."""
    from SALib.analyze.morris import analyze
    from SALib.sample.morris import sample

    problem = {"num_vars": 3, "names": ["a", "b", "c"], "bounds": [[0, 1]] * 3}
    x = sample(problem, 8, num_levels=4, seed=3)
    y = 3 * x[:, 0] - x[:, 1] ** 2 + x[:, 0] * x[:, 2]
    si = analyze(problem, x, y, num_levels=4, seed=3)
    effects = elementary_effects(x, x, y, np.tile(y[:, None], (1, 4)), 3)
    for j, (e, _) in enumerate(effects):
        assert np.abs(e).mean() == pytest.approx(si["mu_star"][j])
        assert e.mean() == pytest.approx(si["mu"][j])
        assert e.std(ddof=1) == pytest.approx(si["sigma"][j])


def test_sobol_path(capsys, tmp_path):
    data = _explore(capsys, tmp_path / "s", "--method", "sobol", "-r", "8", "-n", "100",
                    "--options", "bias,extra_length,cap")  # fmt: skip
    assert data["method"] == "sobol" and data["points"] == 8 * (3 + 2)
    length = [r for r in data["options"] if r["figure"] == "length"]
    assert length[0]["option"] == "extra_length" and length[0]["moves"]
    assert length[0]["effect"]["value"] > 0.9  # ST: nearly all of the variance
    assert _row(data, "cap", "length")["effect"]["value"] == 0
    for row in data["options"]:  # shares are shares, and the verdict reads the share shown
        e = row["effect"]
        assert 0 <= e["lo"] <= e["value"] <= e["hi"] <= 1
        assert 0 <= row["s1"]["value"] <= 1 and row["moves"] == (row["raw"]["lo"] > 0)
    budget = data["sobol_budget"]  # N = 8 is rough: the note names the N that would do
    assert budget["trajectories"] == 8 and budget["needed"] > 8
    assert budget["needed"] & (budget["needed"] - 1) == 0
    assert any(f"-r {budget['needed']} would narrow" in h for h in data["headline"])


def test_every_morris_verdict_reads_the_interval_it_shows(capsys, tmp_path):
    data = _explore(capsys, tmp_path / "m", "-n", "100", "-r", "4", "--range", "bias=0:2")
    for row in data["options"]:
        t = row["tested"]
        if t["reads"] == "mean change":
            assert row["moves"] == (t["lo"] > 0 or t["hi"] < 0)
            assert {k: t[k] for k in ("value", "lo", "hi")} == row["mu"]
        else:  # an effect whose sign changes: its size beyond luck, starting above 0
            assert row["moves"] and t["lo"] > 0
    moving = [r for r in data["options"] if r["moves"] and r["figure"] == "first-seat"]
    head = next(h for h in data["headline"] if "first seat's win rate" in h)
    t = moving[0]["tested"]
    assert f"[{t['lo'] * 100:+.1f}, {t['hi'] * 100:+.1f}]" in head
    assert not re.search(r"-0\.0+(?![0-9])", (tmp_path / "m" / "report.html").read_text())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--options", "bais,cap"], "did you mean 'bias'"),
        (["--options", "bias"], "at least 2 options"),
        (["--range", "bias=0:20"], "outside the bounds"),
        (["--range", "bias=2:1"], "LO must be below HI"),
        (["--range", "cap=1.5:4"], "whole"),
        (["--range", "mode=0:1"], "takes a number option"),
        (["--range", "bias"], "NAME=LO:HI"),
        (["--options", "bias,cap", "--range", "draw=0:0.5"], "not among --options"),
        (["--options", "bias,cap", "--set", "cap=3"], "both fixed"),
        (["-n", "0"], "at least 1 game"),
        (["--trajectories", "1"], "at least 2"),
        (["--method", "sobol", "-r", "10"], "power of 2"),
        (["--method", "sobol", "-r", "4"], "use --trajectories 8 or more"),
        (["--method", "fast"], "morris or sobol"),
        (["--trajectories", "500"], "at most"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(capsys, tmp_path, args, message):
    out = tmp_path / "x"
    code, _, err = call(capsys, "explore", "fake", "--out", out, *args)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not out.exists()


def test_an_unscreenable_option_is_refused_with_the_reason(capsys, tmp_path):
    out = tmp_path / "x"
    code, _, err = call(capsys, "explore", "caza-tesoros", "--out", out,
                        "--options", "treasure_values,starting_vp")  # fmt: skip
    assert code == 2 and "list of numbers" in err and not out.exists()
    code, _, err = call(capsys, "explore", "caza-tesoros", "--out", out, "--players", "2",
                        "--options", "starting_ships,max_ships")  # fmt: skip
    assert code == 2 and "clash" in err and not out.exists()


def test_a_folder_holding_another_study_is_refused(capsys, tmp_path):
    out = tmp_path / "x"
    _explore(capsys, out, "-n", "20", "-r", "2", "--options", "bias,cap")
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in out.iterdir())
    code, _, err = call(capsys, "explore", "fake", "--players", "2", "--out", out,
                        "-n", "20", "-r", "3", "--options", "bias,cap")  # fmt: skip
    assert code == 2 and "another" in err
    assert sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in out.iterdir()) == before
    code, _, err = call(capsys, "sweep", "fake", "--out", out, "--param", "bias=0,1", "-n", "20")
    assert code == 2 and "another study" in err


def _command(out: Path) -> list[str]:
    return [
        sys.executable, "-c", "import tests.conftest, cli; cli.app()", "explore", "fake",
        "--players", "2", "-n", "6000", "-r", "3", "--options", "bias,draw,cap", "--jobs", "1",
        "--quiet", "--out", str(out),
    ]  # fmt: skip


def test_a_killed_explore_resumes_without_replaying(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    warm = subprocess.run(_command(tmp_path / "warm"), env=env, cwd=ROOT, capture_output=True)
    assert warm.returncode == 0, warm.stderr
    killed = tmp_path / "killed"
    proc = subprocess.Popen(_command(killed), env=env, cwd=ROOT, start_new_session=True)
    deadline = time.monotonic() + 120

    def finished() -> list[Path]:
        return [
            p
            for p in sorted(killed.glob("point-*"))
            if (p / "manifest.json").is_file()
            and RunFolder(p).read_manifest().get("finished") is not None
        ]

    while len(finished()) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = finished()
    assert 3 <= len(done) < 12, "the explore must be killed part-way"
    stamps = {p.name: sorted(f.stat().st_mtime_ns for f in p.glob("games/*")) for p in done}
    again = subprocess.run(_command(killed), env=env, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    for p in done:  # finished points were not played again
        assert sorted(f.stat().st_mtime_ns for f in p.glob("games/*")) == stamps[p.name]
    a = json.loads((killed / "explore.json").read_text())
    b = json.loads((tmp_path / "warm" / "explore.json").read_text())
    assert a["options"] == b["options"] and a["games"] == b["games"]


@pytest.mark.slow
def test_cluster_local_gives_the_same_screen(capsys, tmp_path):
    here = _explore(capsys, tmp_path / "a", "-n", "200", "-r", "4", "--range", "bias=0:2")
    there = _explore(
        capsys, tmp_path / "b", "-n", "200", "-r", "4", "--range", "bias=0:2", "--cluster", "local"
    )
    assert there["options"] == here["options"] and there["points"] == here["points"]


def test_the_terminal_says_what_the_report_says_of_mixed_seats_and_balance(capsys, tmp_path):
    data = _explore(capsys, tmp_path / "p", "-n", "100", "-r", "3", "--range", "bias=0:2",
                    "--policy", "strong", "--policy", "random")  # fmt: skip
    head = "\n".join(data["headline"])
    assert "The seats play different policies (seat 1 strong, seat 2 random)" in head
    assert "the first seat's win rate (seat 1 plays strong: its seat and policy)" in head
    balance = [h for h in data["headline"] if h.startswith("What moves balance")]
    assert "points" not in balance[0] and re.search(r"[+-]0\.\d{3} \[", balance[0])
