"""Pirateer throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/pirateer.py [--scale X]`` (X multiplies every game count).
The interpreted figure comes from the same engine source run in a subprocess with
``NUMBA_DISABLE_JIT=1``; both play the same seeds with the same policies.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# table -> (seats, compiled games, interpreted games) at --scale 1 (a few seconds each)
TABLES = {
    "4 runner": (["runner"] * 4, 4000, 8),
    "4 random": (["random"] * 4, 1000, 2),
    "2 lookahead": (["lookahead"] * 2, 400, 2),
    "mixed 4": (["lookahead", "runner", "hunter", "random"], 300, 2),
    "4 lookahead": (["lookahead"] * 4, 100, 1),
}


def games_per_second(policies: list[str], games: int) -> float:
    import simulator  # noqa: F401  (simulator must be imported before policies)
    from simulator.pirateer.engine import play_chunk
    from simulator.pirateer.rules import Rules
    from simulator.pirateer.spec import SPEC
    from simulator.policy import engine_arrays, seat_policies

    ids, params = engine_arrays(seat_policies(policies, SPEC.policies, SPEC.id, len(policies)))
    rules = Rules()
    play_chunk(rules, len(policies), ids, params, np.arange(2, dtype=np.uint32))  # compile/warm
    seeds = np.arange(games, dtype=np.uint32)
    start = time.perf_counter()
    play_chunk(rules, len(policies), ids, params, seeds)
    return games / (time.perf_counter() - start)


def interpreted(policies: list[str], games: int) -> float:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    code = (
        f"import json, sys; sys.path.insert(0, {str(ROOT)!r}); "
        "from benchmarks.pirateer import games_per_second; "
        f"print(json.dumps(games_per_second({policies!r}, {games})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    args = parser.parse_args()
    print(f"{'table':<12} {'compiled g/s':>13} {'interpreted g/s':>16} {'speed-up':>9}")
    for name, (policies, fast_n, slow_n) in TABLES.items():
        fast = games_per_second(policies, max(1, round(fast_n * args.scale)))
        slow = interpreted(policies, max(1, round(slow_n * args.scale)))
        print(f"{name:<12} {fast:>13,.1f} {slow:>16,.2f} {fast / slow:>8,.0f}x", flush=True)


if __name__ == "__main__":
    main()
