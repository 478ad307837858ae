"""Caza-Tesoros search kernel against a plain C loop of it: trials per second and ratios.

Run: ``.venv/bin/python benchmarks/search_kernel.py [--seconds 0.5] [--repeats 3]``

Four searches (the cases of issue 18), under the default rules (level 1 marks every new value,
level 2 marks the best one by the exact values, any two dice pair). For each, in one process and
interleaved so load hits all alike, the best of ``--repeats`` timings of:

- ``C``: ``benchmarks/search_kernel.c``, built here with the system ``cc -O2`` (skipped, with a
  note, when there is no compiler);
- ``kernel``: ``search_trials``, the compiled ``search_kernel`` on an xoshiro256** state array
  with no allocation per search (what the search-odds simulation runs);
- ``engine``: the same kernel called as the engine's search calls it: a dice array allocated per
  search, the state in a game's ``int64`` array, a (zero-row) recording buffer.

C and the kernel start from the same state and must count the same successes (same generator,
same rules): the script checks it.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.contract.rng import new_state  # noqa: E402
from simulator.games.caza_tesoros.odds import search_values  # noqa: E402
from simulator.games.caza_tesoros.treasure_search import (  # noqa: E402
    GREEDY_ORDER,
    MARK_ALL,
    MARK_ONE,
    MAX_DICE,
    PAIRS_ANY,
    search_kernel,
    search_trials,
)

# (label, level, dice, rerolls, marking)
CASES = [
    ("level 1, 1 die", 1, 1, 0, MARK_ALL),
    ("level 2, 2 dice", 2, 2, 0, MARK_ONE),
    ("level 1, 3 dice, 1 reroll", 1, 3, 1, MARK_ALL),
    ("level 2, 3 dice, 1 reroll", 2, 3, 1, MARK_ONE),
]


@njit(cache=True)
def engine_trials(words, trials, level, n_dice, rerolls, marking, pairs, worth):
    log = np.zeros((0, 12), dtype=np.int64)  # a run records nothing
    log_n = np.zeros(1, dtype=np.int64)
    successes = 0
    for _ in range(trials):
        dice = np.empty(MAX_DICE, dtype=np.int64)  # engine.search: one array per search
        found, _throws = search_kernel(
            words, dice, level, n_dice, rerolls, marking, pairs, worth, log, log_n, (0, 0, 0, 0)
        )
        successes += found
    return successes


def build_c() -> tuple[ctypes.CDLL | None, str]:
    """The C kernel as a shared library, or None and why not."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None, "no C compiler (cc) on this machine: the C column is skipped"
    out = Path(tempfile.mkdtemp(prefix="balance-kernel-")) / "search_kernel.so"
    source = Path(__file__).with_suffix(".c")
    cmd = [cc, "-O2", "-shared", "-fPIC", "-o", str(out), str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"{' '.join(cmd)} failed, C column skipped:\n{done.stderr}"
    lib = ctypes.CDLL(str(out))
    lib.simulate.restype = ctypes.c_int64
    ptr = np.ctypeslib.ndpointer
    lib.simulate.argtypes = [
        ptr(np.uint64, flags="C"),
        ctypes.c_int64,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ptr(np.float64, flags="C"),
        ctypes.c_int64,
        ptr(np.int64, flags="C"),
    ]
    return lib, f"C: {cc} -O2 ({_version(cc)})"


def _version(cc: str) -> str:
    done = subprocess.run([cc, "--version"], capture_output=True, text=True)
    return (done.stdout.splitlines() or ["unknown version"])[0]


def _rate(fn, trials: int, repeats: int) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(trials)
        best = min(best, time.perf_counter() - start)
    return trials / best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=0.2, help="about, per timing")
    parser.add_argument("--repeats", type=int, default=7, help="timings per figure (best kept)")
    args = parser.parse_args(argv)
    lib, note = build_c()
    order = np.ascontiguousarray(GREEDY_ORDER, dtype=np.int64)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; {note}")
    head = (
        f"{'search':<27} {'C /s':>12} {'kernel /s':>12} {'engine /s':>13} "
        f"{'kernel/C':>9} {'engine/C':>12}"
    )
    print(head)
    for label, level, n_dice, rerolls, marking in CASES:
        if marking == MARK_ONE:
            worth = np.ascontiguousarray(
                search_values(level, n_dice, rerolls, marking, PAIRS_ANY, "optimal")
            )
        else:
            worth = np.zeros((rerolls + 1, 0))
        case = (level, n_dice, rerolls, marking, PAIRS_ANY, worth)
        search_trials(new_state(1), 10, *case)  # compile or load, outside the timings
        engine_trials(new_state(1).view(np.int64), 10, *case)
        start = time.perf_counter()
        search_trials(new_state(1), 100_000, *case)
        trials = max(10_000, int(100_000 * args.seconds / (time.perf_counter() - start)))

        def run_kernel(n: int, case=case) -> int:
            return search_trials(new_state(7), n, *case)

        def run_engine(n: int, case=case) -> int:
            return engine_trials(new_state(7).view(np.int64), n, *case)

        def run_c(n: int, case=case) -> int:
            level, n_dice, rerolls, marking, pairs, worth = case
            flat = worth.ravel() if worth.size else np.zeros(1)
            return lib.simulate(
                new_state(7), n, level, n_dice, rerolls, marking, pairs, flat, worth.shape[1], order
            )

        if lib is not None and run_c(trials) != run_kernel(trials):
            raise SystemExit(f"{label}: C and the compiled kernel disagree from the same state")
        rates = {}
        for _ in range(args.repeats):  # interleaved: each round times all three once
            for name, fn in (("c", run_c), ("kernel", run_kernel), ("engine", run_engine)):
                if name == "c" and lib is None:
                    continue
                rates[name] = max(rates.get(name, 0.0), _rate(fn, trials, 1))
        c = rates.get("c")
        ratio = f"{c / rates['kernel']:>8.2f}x" if c else f"{'-':>9}"
        ratio_np = f"{c / rates['engine']:>11.2f}x" if c else f"{'-':>12}"
        c_text = f"{c:>12,.0f}" if c else f"{'-':>12}"
        print(
            f"{label:<27} {c_text} {rates['kernel']:>12,.0f} {rates['engine']:>13,.0f} "
            f"{ratio} {ratio_np}",
            flush=True,
        )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} at end; ratios are C's rate over the compiled one (1.00x = equal)")


if __name__ == "__main__":
    main()
