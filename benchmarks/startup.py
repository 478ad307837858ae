"""Seconds a command takes from a fresh process: `balance --help` and a 10-game run of a game
file, the first thing a designer iterating on a file pays on every try.

    .venv/bin/python benchmarks/startup.py                    # `make bench`
    .venv/bin/python benchmarks/startup.py --runs 15
    .venv/bin/python benchmarks/startup.py --checkout /tmp/old  # another checkout's sources

Each command runs ``--runs`` times, each in a new Python process (`python -m cli ...`, as the
`balance` script runs it), after one untimed run that writes the bytecode of every module it
imports, as a designer's first command does (``PYTHONDONTWRITEBYTECODE`` is cleared for the
children: with it set, every import compiles its source and each command takes about a second
more). Reported: the median, the fastest and the slowest, the targets (0.5 s and 1 s on an idle
machine: the load average is printed beside them), and the heavy packages the command imported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "polars", "pyarrow", "scipy", "numba", "matplotlib", "joblib", "dask",
         "optuna", "SALib", "pydantic", "rich")  # fmt: skip
# Runs the command line as `balance` does, then names the heavy packages it imported.
RUN_CLI = (
    "import runpy, sys\n"
    "sys.argv = ['balance', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('cli', run_name='__main__')\n"
    "except SystemExit:\n"
    "    pass\n"
    f"print('imported:', ' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
)


def timed(args: list[str], checkout: Path, env: dict[str, str]) -> tuple[float, str]:
    """Seconds of one fresh process running ``balance ARGS``, and the heavy packages it
    imported."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN_CLI, *args],
        cwd=checkout, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"balance {' '.join(args)} failed:\n{done.stderr}")
    imported = done.stderr.rpartition("imported:")[2].strip()
    return seconds, imported


def measure(name: str, make_args, runs: int, target: float, checkout: Path, env: dict) -> None:  # noqa: ANN001
    timed(make_args(-1), checkout, env)  # writes the bytecode, as a first command does
    times, imported = [], ""
    for i in range(runs):
        seconds, imported = timed(make_args(i), checkout, env)
        times.append(seconds)
    median = statistics.median(times)
    verdict = "within" if median <= target else "OVER"
    print(
        f"{name:<34} median {median:5.2f} s  (fastest {min(times):.2f}, slowest {max(times):.2f}, "
        f"{runs} runs)  {verdict} the {target:g} s target\n"
        f"{'':<34} imported: {imported or 'none of the heavy packages'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the sources to time")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(checkout)  # this checkout's modules before an installed one's
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"start-up of {checkout}, fresh processes; load average {load} (targets: idle machine)")
    measure("balance --help", lambda i: ["--help"], args.runs, 0.5, checkout, env)
    with tempfile.TemporaryDirectory() as tmp:
        game = str(checkout / "examples" / "pig.py")
        measure(
            "balance simulate pig.py -n 10",
            lambda i: ["simulate", game, "-n", "10", "--out", f"{tmp}/run{i + 1}"],
            args.runs,
            1.0,
            checkout,
            env,
        )


if __name__ == "__main__":
    main()
