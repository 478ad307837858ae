"""A real `balance simulate` killed mid-run resumes to exactly the uninterrupted result."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from simulator.folders.run_folder import RunFolder, load_run

BALANCE = str(Path(sys.executable).with_name("balance"))
GAMES, CHUNK = 20_000, 250


def command(out: Path) -> list[str]:
    return [
        BALANCE, "simulate", "caza-tesoros", "-n", str(GAMES), "--chunk-size", str(CHUNK),
        "--players", "4", "--policy", "greedy", "--seed", "77", "--jobs", "1", "--quiet",
        "--out", str(out),
    ]  # fmt: skip


def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path):
    # Warm the JIT cache so the kill lands while games are being played, not while compiling.
    warm = [BALANCE, "simulate", "caza-tesoros", "-n", "10", "-q", "--out", str(tmp_path / "w")]
    subprocess.run(warm, check=True)
    killed = tmp_path / "killed"
    proc = subprocess.Popen(command(killed), start_new_session=True)
    folder = RunFolder(killed)
    deadline = time.monotonic() + 120
    while len(folder.done_parts()) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    parts_at_kill = folder.done_parts()
    total = GAMES // CHUNK
    assert 0 < len(parts_at_kill) < total, "the run must be killed part-way"
    assert folder.read_manifest()["finished"] is None

    again = subprocess.run(command(killed), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert folder.done_parts() == set(range(total))
    assert not list(folder.parts_dir.glob("*.tmp"))

    whole = tmp_path / "whole"
    subprocess.run(command(whole), check=True)
    a = load_run(killed).collect().sort("game_index")
    b = load_run(whole).collect().sort("game_index")
    assert a.height == GAMES
    assert a.equals(b)
