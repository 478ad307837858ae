"""Missions per second of the Crew Deep Sea engine: compiled versus interpreted.

Run: `.venv/bin/python benchmarks/crew_deep_sea.py [--games N] [--mission M] [--players P]`.
The interpreted figure comes from the same script in a subprocess with NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def measure(games: int, mission: int, players: int, policy: str) -> float:
    from simulator.crew_deep_sea.rules import Rules
    from simulator.crew_deep_sea.spec import SPEC
    from simulator.policy import engine_arrays, seat_policies

    rules = Rules().with_values({"mission": mission})
    ids, params = engine_arrays(seat_policies([policy], SPEC.policies, SPEC.id, players))
    SPEC.play_chunk(rules, players, ids, params, np.arange(2, dtype=np.uint32))  # compile/load
    seeds = np.arange(1000, 1000 + games, dtype=np.uint32)
    start = time.perf_counter()
    SPEC.play_chunk(rules, players, ids, params, seeds)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--interpreted-games", type=int, default=200)
    ap.add_argument("--mission", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(a.games, a.mission, a.players, a.policy)))
        return
    compiled = measure(a.games, a.mission, a.players, a.policy)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    cmd = [sys.executable, __file__, "--child", "--games", str(a.interpreted_games)]
    cmd += ["--mission", str(a.mission), "--players", str(a.players), "--policy", a.policy]
    interpreted = float(
        subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    )
    print(f"mission {a.mission}, {a.players} players, policy {a.policy}")
    print(f"compiled     {compiled:10,.0f} missions/s  ({a.games:,} attempts)")
    print(f"interpreted  {interpreted:10,.1f} missions/s  ({a.interpreted_games:,} attempts)")
    print(f"speed-up     {compiled / interpreted:10,.0f}x")


if __name__ == "__main__":
    main()
