"""Missions per second of the Crew Deep Sea engine: compiled versus interpreted.

Run: `.venv/bin/python benchmarks/crew_deep_sea.py [--games N] [--mission M] [--players P]`.
The interpreted figure comes from the same script in a subprocess with NUMBA_DISABLE_JIT=1.

`--compare 1,2,5 --policies heuristic,expert,omniscient` instead plays the same seeds (same deals
and task draws) under each policy and prints success with its Wilson interval and missions/s;
`--sonar` adds `expert` with `communication=none` beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

# Policy tables for `make bench` (benchmarks/throughput.py): seat policies, compiled and
# interpreted games at scale 1, played with the default rules (benchmarks/policy_tables.py).
TABLES = {
    "4 heuristic": (["heuristic"] * 4, 5_000, 40),
    "4 expert": (["expert"] * 4, 500, 4),
}


def measure(games: int, mission: int, players: int, policy: str) -> float:
    from simulator.contract.policy import engine_arrays, seat_policies
    from simulator.games.crew_deep_sea.rules import Rules
    from simulator.games.crew_deep_sea.spec import SPEC

    rules = Rules().with_values({"mission": mission})
    ids, params = engine_arrays(seat_policies([policy], SPEC.policies, SPEC.id, players))
    SPEC.play_chunk(rules, players, ids, params, np.arange(2, dtype=np.uint32))  # compile/load
    seeds = np.arange(1000, 1000 + games, dtype=np.uint32)
    start = time.perf_counter()
    SPEC.play_chunk(rules, players, ids, params, seeds)
    return games / (time.perf_counter() - start)


def compare(
    missions: list[int], players: int, games: int, policies: list[str], sonar: bool, seed: int
) -> None:
    from analyses.crew import wilson
    from simulator.contract.policy import engine_arrays, seat_policies
    from simulator.games.crew_deep_sea.rules import Rules
    from simulator.games.crew_deep_sea.spec import SPEC

    seeds = np.arange(seed, seed + games, dtype=np.uint32)
    configs = [(p, "mission") for p in policies]
    if sonar:
        configs += [(p, "none") for p in policies if p.startswith("expert")]
    print(f"{players} players, {games} attempts per mission, seeds {seed}..{seed + games - 1}")
    for m in missions:
        for policy, comm in configs:
            rules = Rules().with_values({"mission": m, "communication": comm})
            ids, params = engine_arrays(seat_policies([policy], SPEC.policies, SPEC.id, players))
            SPEC.play_chunk(rules, players, ids, params, np.arange(2, dtype=np.uint32))
            start = time.perf_counter()
            out = SPEC.play_chunk(rules, players, ids, params, seeds)
            rate = games / (time.perf_counter() - start)
            k = int(out["success"].sum())
            lo, hi = wilson(k, games)
            print(
                f"mission {m:2d}  {policy:28s} comm={comm:8s} {k / games:6.1%} "
                f"[{lo:.1%}, {hi:.1%}]  distress {out['crew_distress'].mean():5.1%}  "
                f"{rate:9.2f} missions/s",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--interpreted-games", type=int, default=200)
    ap.add_argument("--mission", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--compare", default="", help="missions to compare policies on, e.g. 1,2,5")
    ap.add_argument("--policies", default="heuristic,expert,omniscient")
    ap.add_argument("--sonar", action="store_true", help="also expert with communication=none")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if a.compare:
        missions = [int(x) for x in a.compare.split(",")]
        policies = a.policies.split(",")
        compare(missions, a.players, a.games, policies, a.sonar, a.seed)
        return
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
