"""Ctrl-C ends a command with one line and exit 130: the games kept and the command that resumes."""

import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.folders.run_folder import RunFolder
from simulator.runs import interrupt

BALANCE = str(Path(sys.executable).with_name("balance"))
GAMES = 2_000_000


def command(out: Path, jobs: int) -> list[str]:
    return [
        BALANCE, "simulate", "caza-tesoros", "-n", str(GAMES), "--players", "4", "--policy",
        "greedy", "--seed", "5", "--jobs", str(jobs), "--out", str(out),
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_says_what_is_kept_and_how_to_resume(tmp_path, jobs):
    # Warm the JIT cache, so the interrupt lands while games are played (inside compiled code).
    warm = [BALANCE, "simulate", "caza-tesoros", "-n", "10", "-q", "--out", str(tmp_path / "w")]
    subprocess.run(warm, check=True)
    out = tmp_path / "run"
    proc = subprocess.Popen(command(out, jobs), stderr=subprocess.PIPE, text=True)
    folder = RunFolder(out)
    deadline = time.monotonic() + 120
    while not folder.done_parts() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    kept = interrupt.games_kept(out)
    assert 0 < kept < GAMES
    again = shlex.join(["balance", *command(out, jobs)[1:]])
    assert lines[0] == (
        f"balance: interrupted; {kept:,} of {GAMES:,} games are kept in {out}; "
        f"run `{again}` to resume"
    )


def test_an_error_caused_by_ctrl_c_is_read_as_the_interrupt():
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher returned a result with an exception set") from exc
    except SystemError as exc:
        assert interrupt.is_interrupt(exc)
    assert not interrupt.is_interrupt(ValueError("no"))


def test_the_line_counts_whole_parts_of_every_run_of_the_command(tmp_path, fake_game):
    from simulator.runs.runner import plan_run, run

    interrupt.forget()
    config = plan_run("fake", 1_000, chunk_size=250)
    folder = run(config, tmp_path / "study" / "a", jobs=1)
    (folder.path / "games" / "part-00001.parquet").unlink()
    interrupt.expect(tmp_path / "study" / "b", 1_000)
    line = interrupt.interrupted_line(["compare", "fake", "--out", str(tmp_path / "study")])
    interrupt.forget()
    assert line.startswith(f"interrupted; 750 games are kept in {tmp_path / 'study'} (2 runs); ")
    assert line.endswith(f"run `balance compare fake --out {tmp_path / 'study'}` to resume")


def test_a_parallel_run_closed_early_adds_no_warning(recwarn):
    """Ctrl-C closes the run's chunk stream with chunks still playing: one line is printed, not
    joblib's warning of the cancelled chunks beside it."""
    from simulator.runs import runner
    from simulator.runs.plan import plan_run

    config = plan_run("caza-tesoros", 400, players=2, seed=1, chunk_size=50)
    parts = runner._execute(config, config.chunks(), 2, None, "run", notice=False)
    next(parts)
    parts.close()
    assert not [str(w.message) for w in recwarn if "joblib" in w.filename]
