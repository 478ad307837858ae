"""Run folders that survive damage and contention: each damaged folder gives its documented line
and exit code, and each repaired run equals an undamaged one game for game."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import cli
from simulator.folders.run_folder import RunFolder, load_run

GAMES = 2000  # 8 parts of 250 games
RUN = ["fake", "-n", GAMES, "--chunk-size", 250, "--seed", 11, "-j", 1, "-q"]
ROOT = Path(__file__).resolve().parent.parent
# A `balance` whose fake game waits 0.3 s per chunk, so a test can act while it writes.
SLOW_BALANCE = [
    sys.executable,
    "-c",
    "import sys; from simulator.contract.registry import register; "
    "from tests.slow_game import SPEC; register(SPEC); import cli; cli.app()",
]


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def games(path) -> pl.DataFrame:
    return load_run(path).collect().sort("game_index")


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The undamaged run every repaired one must equal."""
    path = tmp_path_factory.mktemp("whole") / "run"
    with pytest.raises(SystemExit):
        cli.app(list(map(str, ["simulate", *RUN, "--out", path])))
    return games(path)


def simulate(capsys, out, *extra):
    return call(capsys, "simulate", *RUN, "--out", out, *extra)


def damaged_run(capsys, tmp_path) -> RunFolder:
    code, _, err = simulate(capsys, tmp_path / "run")
    assert code == 0, err
    return RunFolder(tmp_path / "run")


def expect_verify(capsys, path, code, *lines):
    got, out, err = call(capsys, "verify", path)
    assert got == code, out + err
    printed = out.splitlines()
    assert len(printed) == max(1, len(lines))
    for line, words in zip(printed, lines, strict=False):
        assert words in line and f"repair: balance verify --repair {path}" in line
    return printed


def expect_report_refused(capsys, path, words):
    code, out, err = call(capsys, "report", path, "--out", path.parent / "r.html")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err and f"repair it with: balance verify --repair {path}" in err
    assert not (path.parent / "r.html").exists()


def test_sound_run_verifies(capsys, tmp_path):
    folder = damaged_run(capsys, tmp_path)
    code, out, _ = call(capsys, "verify", folder.path)
    assert code == 0 and out == f"{folder.path}: sound (8 parts, 2,000 games)\n"
    record = json.loads(folder.record_path(3).read_text())
    assert record["rows"] == 250 and record["bytes"] == folder.part_path(3).stat().st_size


def test_garbage_over_a_part_is_replayed_by_the_same_command(capsys, tmp_path, whole):
    folder = damaged_run(capsys, tmp_path)
    with open(folder.part_path(1), "r+b") as f:  # a few bytes over the data, footer intact
        f.seek(200)
        f.write(b"\x00garbage\xff")
    expect_verify(
        capsys, folder.path, 1, "part-00001.parquet: damaged: its bytes differ from the checksum"
    )
    expect_report_refused(capsys, folder.path, "part-00001.parquet damaged")
    kept = {i: folder.part_path(i).stat().st_mtime_ns for i in (0, 2, 3, 4, 5, 6, 7)}
    code, _, err = simulate(capsys, folder.path)
    assert code == 0
    assert "replaying 1 damaged or missing part(s)" in err and "part-00001.parquet" in err
    assert {i: folder.part_path(i).stat().st_mtime_ns for i in kept} == kept  # only 1 replayed
    assert len(list((folder.path / "damaged").glob("part-00001-*.parquet"))) == 1  # kept aside
    assert games(folder.path).equals(whole)
    assert call(capsys, "verify", folder.path)[0] == 0


def test_truncated_part_is_replayed_by_verify_repair(capsys, tmp_path, whole):
    folder = damaged_run(capsys, tmp_path)
    size = folder.part_path(6).stat().st_size
    os.truncate(folder.part_path(6), size // 2)
    expect_verify(
        capsys, folder.path, 1, f"part-00006.parquet: damaged: cut short ({size // 2:,} of"
    )
    expect_report_refused(capsys, folder.path, "part-00006.parquet damaged: cut short")
    code, out, err = call(capsys, "verify", "--repair", folder.path)
    assert code == 0, out + err
    assert out == f"{folder.path}: repaired, sound (8 parts, 2,000 games)\n"
    assert "replaying 1 damaged or missing part(s)" in err
    assert games(folder.path).equals(whole)


def test_part_from_another_run_is_named_and_replayed(capsys, tmp_path, whole):
    folder = damaged_run(capsys, tmp_path)
    other = tmp_path / "other"
    assert call(capsys, "simulate", *RUN, "--seed", 12, "--out", other)[0] == 0
    os.replace(other / "games" / "part-00002.parquet", folder.part_path(2))
    (folder.parts_dir / "part-00005.parquet").write_bytes(folder.part_path(4).read_bytes())
    lines = expect_verify(
        capsys,
        folder.path,
        1,
        "part-00002.parquet: comes from another run",
        "part-00005.parquet: holds part 4 of this run, copied over it",
    )
    assert len(lines) == 2
    expect_report_refused(capsys, folder.path, "part-00002.parquet comes from another run")
    code, _, err = simulate(capsys, folder.path)
    assert code == 0 and "replaying 2 damaged or missing part(s)" in err
    assert games(folder.path).equals(whole)


def test_deleted_part_is_missing_and_replayed(capsys, tmp_path, whole):
    folder = damaged_run(capsys, tmp_path)
    folder.part_path(7).unlink()
    expect_verify(capsys, folder.path, 1, "part-00007.parquet: missing")
    expect_report_refused(capsys, folder.path, "part-00007.parquet missing")
    code, _, err = simulate(capsys, folder.path)
    assert code == 0 and "replaying 1 damaged or missing part(s)" in err
    assert games(folder.path).equals(whole)


def test_torn_manifest_is_one_line_and_the_same_command_rebuilds_it(capsys, tmp_path, whole):
    folder = damaged_run(capsys, tmp_path)
    text = folder.manifest_path.read_text()
    folder.manifest_path.write_text(text[: len(text) // 3])
    code, out, _ = call(capsys, "verify", folder.path)
    assert code == 1 and out.count("\n") == 1
    assert "manifest.json' is torn or damaged" in out and "repeat the command" in out
    code, _, err = call(capsys, "report", folder.path)
    assert code == 2 and err.count("\n") == 1 and "is torn or damaged" in err
    # another command may not adopt the parts; the same one rebuilds the manifest, keeps the parts
    before = {i: folder.part_path(i).stat().st_mtime_ns for i in range(8)}
    code, _, err = call(capsys, "simulate", *RUN, "--seed", 5, "--out", folder.path)
    assert code == 2 and "written by another configuration" in err
    code, _, err = simulate(capsys, folder.path)
    assert code == 0 and "manifest.json was unreadable; rebuilt" in err
    assert {i: folder.part_path(i).stat().st_mtime_ns for i in range(8)} == before
    assert json.loads(folder.manifest_path.read_text())["finished"] is not None
    assert games(folder.path).equals(whole)


@pytest.mark.slow  # subprocesses (or a study's reports)
def test_killed_manifest_writer_never_leaves_a_torn_manifest(tmp_path):
    """A process killed (-9) at random moments while rewriting a large manifest leaves the old or
    the new manifest whole, every time."""
    folder = RunFolder(tmp_path)
    folder.write_manifest({"config": {"n": -1}, "pad": "x" * 2_000_000})
    script = (
        "import sys; from pathlib import Path; from simulator.folders.run_folder import RunFolder\n"
        "f = RunFolder(Path(sys.argv[1]))\n"
        "for n in range(100000):\n"
        "    f.write_manifest({'config': {'n': n}, 'pad': 'x' * 2_000_000})\n"
        "    n == 0 and print('writing', flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seen = set()
    for delay in (0.05, 0.12, 0.2):
        proc = subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)], env=env, stdout=subprocess.PIPE
        )
        assert proc.stdout.readline() == b"writing\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        seen.add(folder.read_manifest()["config"]["n"])  # raises if torn
    assert len(seen) > 1  # the kills landed while manifests were being rewritten


def start_slow_writer(out: Path, *extra) -> subprocess.Popen:
    args = ["simulate", *RUN, "--out", out, *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [*SLOW_BALANCE, *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_parts(folder: RunFolder, proc: subprocess.Popen, n: int) -> None:
    deadline = time.monotonic() + 60
    while len(folder.done_parts()) < n and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(folder.done_parts()) >= n, proc.communicate()


@pytest.mark.slow  # subprocesses (or a study's reports)
def test_stale_lock_after_kill_9_does_not_block(capsys, tmp_path, whole):
    folder = RunFolder(tmp_path / "run")
    proc = start_slow_writer(folder.path)
    wait_for_parts(folder, proc, 2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (folder.path / ".balance.lock").exists()  # the file stays; the OS lock died with it
    assert len(folder.done_parts()) < 8
    half_written = [folder.parts_dir / "part-00007.parquet.999.tmp", folder.path / "x.json.9.tmp"]
    for f in half_written:
        f.write_bytes(b"torn")
    code, out, _ = call(capsys, "verify", folder.path)
    assert code == 1 and "unfinished:" in out
    code, _, err = simulate(capsys, folder.path)
    assert code == 0, err
    assert not any(f.exists() for f in half_written)
    assert games(folder.path).equals(whole)


def test_run_killed_before_its_first_manifest_starts_again(capsys, tmp_path, whole):
    out = tmp_path / "run"
    (out / "games").mkdir(parents=True)
    (out / "manifest.json.4242.tmp").write_text('{"format": 2, "con')
    code, _, err = simulate(capsys, out)
    assert code == 0, err
    assert not (out / "manifest.json.4242.tmp").exists()
    assert games(out).equals(whole)


@pytest.mark.slow  # subprocesses (or a study's reports)
def test_two_writers_at_once(capsys, tmp_path, whole):
    folder = RunFolder(tmp_path / "run")
    first = start_slow_writer(folder.path)
    wait_for_parts(folder, first, 1)
    code, _, err = simulate(capsys, folder.path)
    assert code == 2 and err.count("\n") == 1
    assert "is being written by another balance command" in err and "--wait" in err
    code, out, _ = call(capsys, "verify", folder.path)
    assert code == 1 and "being written by another balance command now" in out
    waiting = start_slow_writer(folder.path, "--wait")
    assert first.wait(timeout=60) == 0
    mtimes = {i: folder.part_path(i).stat().st_mtime_ns for i in range(8)}
    _, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert "replaying" not in err
    assert {i: folder.part_path(i).stat().st_mtime_ns for i in range(8)} == mtimes  # no rework
    assert games(folder.path).equals(whole)


@pytest.mark.slow  # subprocesses (or a study's reports)
def test_resumed_compare_replays_a_damaged_run(capsys, tmp_path):
    args = ["compare", "fake", "-n", 1000, "--set", "bias=1", "-j", 1, "-q", "--out"]
    assert call(capsys, *args, tmp_path / "a")[0] == 0
    assert call(capsys, *args, tmp_path / "b")[0] == 0
    part = RunFolder(tmp_path / "b" / "02-bias=1").part_path(0)
    os.truncate(part, 100)
    code, out, _ = call(capsys, "verify", tmp_path / "b")
    assert code == 1 and out.count("\n") == 2 and "02-bias=1/games/part-00000.parquet" in out
    code, _, err = call(capsys, *args, tmp_path / "b")
    assert code == 0 and "replaying 1 damaged or missing part(s)" in err
    for run in ("01-default", "02-bias=1"):
        assert games(tmp_path / "b" / run).equals(games(tmp_path / "a" / run))


def test_stopped_early_run_is_repaired_to_the_same_stopping_point(capsys, tmp_path):
    args = ["simulate", "fake", "-n", 20000, "--until-ci", 0.2, "-j", 1, "-q"]
    assert call(capsys, *args, "--out", tmp_path / "a")[0] == 0
    assert call(capsys, *args, "--out", tmp_path / "b")[0] == 0
    manifest = RunFolder(tmp_path / "a").read_manifest()
    assert manifest["stopped_early"]
    RunFolder(tmp_path / "b").part_path(0).unlink()
    assert call(capsys, "verify", "--repair", tmp_path / "b")[0] == 0
    assert RunFolder(tmp_path / "b").read_manifest()["games_played"] == manifest["games_played"]
    assert games(tmp_path / "b").equals(games(tmp_path / "a"))


@pytest.mark.parametrize("jobs", [0, -((os.cpu_count() or 1) + 1)])
def test_jobs_below_one_refused(capsys, tmp_path, jobs):
    code, _, err = call(capsys, "simulate", "fake", "-j", jobs, "--out", tmp_path / "r")
    assert code == 2 and err.count("\n") == 1 and "--jobs must be at least 1" in err
    assert not (tmp_path / "r").exists()
    code, _, err = call(capsys, "compare", "fake", "--set", "bias=1", "-j", jobs, "-o", tmp_path)
    assert code == 2 and "--jobs must be at least 1" in err and not list(tmp_path.iterdir())


def test_negative_jobs_count_back_from_all_cores():
    from simulator.runs.runner import resolve_jobs

    cores = os.cpu_count() or 1
    assert resolve_jobs(-1) == cores and resolve_jobs(-cores) == 1 and resolve_jobs(None) == cores
    assert resolve_jobs(3) == 3


def test_verify_bad_input_exits_2(capsys, tmp_path):
    code, _, err = call(capsys, "verify", tmp_path / "nothing")
    assert code == 2 and "does not exist" in err
    code, _, err = call(capsys, "verify", tmp_path)
    assert code == 2 and "is not a balance run folder" in err


def test_unfinished_run_is_readable_but_not_sound(capsys, tmp_path):
    from analyses.runs import Run

    folder = damaged_run(capsys, tmp_path)
    folder.part_path(7).unlink()
    folder.update_manifest(finished=None)  # as a run killed before its last part
    assert Run.open(folder.path).games_played() == 1750
    code, out, _ = call(capsys, "verify", folder.path)
    assert code == 1
    assert out == (
        f"{folder.path}: unfinished: 1,750 of 2,000 games played; "
        f"repair: balance verify --repair {folder.path}\n"
    )
