"""Cape Horn throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/cape_horn.py [--games N] [--interpreted-games M]``.
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
TABLES = {
    "4 planner": ["planner"] * 4,
    "mixed": ["planner", "racer", "blocker", "random"],
}


def games_per_second(policies: list[str], games: int) -> float:
    import simulator  # noqa: F401  (simulator must be imported before policies)
    from simulator.cape_horn.engine import play_chunk
    from simulator.cape_horn.rules import Rules
    from simulator.cape_horn.spec import SPEC
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
        "from benchmarks.cape_horn import games_per_second; "
        f"print(json.dumps(games_per_second({policies!r}, {games})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000, help="compiled games per table")
    parser.add_argument("--interpreted-games", type=int, default=10, help="interpreted games")
    args = parser.parse_args()
    start = time.perf_counter()
    games_per_second(["planner"] * 4, 1)
    print(f"first call (compile, or load from the JIT cache): {time.perf_counter() - start:.1f} s")
    print(f"{'table':<10} {'compiled g/s':>13} {'interpreted g/s':>16} {'speed-up':>9}")
    for name, policies in TABLES.items():
        fast = games_per_second(policies, args.games)
        slow = interpreted(policies, args.interpreted_games)
        print(f"{name:<10} {fast:>13,.0f} {slow:>16,.1f} {fast / slow:>8,.0f}x")


if __name__ == "__main__":
    main()
