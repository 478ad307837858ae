"""Games per second of one game's engine for a few policy tables, compiled and interpreted.

Each game's benchmark (``benchmarks/<game>.py``) names its tables and calls :func:`main`. The
interpreted figure is the same engine source in a subprocess with ``NUMBA_DISABLE_JIT=1``; both
play with the same policies and default rules, straight through the engine (no run folder).

Both play the same seeds: the interpreted run plays seeds ``0 .. n - 1`` (its own game count,
``n``), and the compiled run plays those same seeds again and again until it has played its
larger count. A game's cost varies many times over with its seed (a Pirateer lookahead game
costs 3 ms to 118 ms compiled), so timing the compiled engine on other seeds would measure which
seeds were cheap as much as the compiler; on the same seeds the ratio measures the compiler
alone.
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
# table name -> (seat policies, compiled games, interpreted games) at --scale 1
Tables = dict[str, tuple[list[str], int, int]]


def games_per_second(
    game: str, policies: list[str], games: int, distinct: int | None = None
) -> float:
    """Games per second of ``games`` games on seeds ``0 .. distinct - 1`` repeated in turn
    (``distinct`` defaults to ``games``: every seed once)."""
    from simulator.contract.policy import engine_arrays
    from simulator.runs.plan import plan_run

    config = plan_run(game, 1, players=len(policies), policies=policies)
    ids, params = engine_arrays(list(config.seats))
    play = config.spec.play_chunk
    play(config.rules, len(policies), ids, params, np.arange(2, dtype=np.uint32))  # compile/warm
    seeds = (np.arange(games) % (distinct or games)).astype(np.uint32)
    start = time.perf_counter()
    play(config.rules, len(policies), ids, params, seeds)
    return games / (time.perf_counter() - start)


def interpreted(game: str, policies: list[str], games: int) -> float:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    code = (
        "import json; from benchmarks.policy_tables import games_per_second; "
        f"print(json.dumps(games_per_second({game!r}, {policies!r}, {games})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main(game: str, tables: Tables) -> None:
    parser = argparse.ArgumentParser(
        description=f"{game}: games per second compiled and interpreted, and their ratio."
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    args = parser.parse_args()
    first = next(iter(tables.values()))[0]
    start = time.perf_counter()
    games_per_second(game, first, 1)
    print(f"first call (compile, or load from the JIT cache): {time.perf_counter() - start:.1f} s")
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(
        f"{'table':<12} {'seeds':>6} {'compiled g/s':>13} {'interpreted g/s':>16} {'speed-up':>9}"
    )
    for name, (policies, fast_n, slow_n) in tables.items():
        slow_games = max(1, round(slow_n * args.scale))
        fast = games_per_second(game, policies, max(1, round(fast_n * args.scale)), slow_games)
        slow = interpreted(game, policies, slow_games)
        print(
            f"{name:<12} {slow_games:>6} {fast:>13,.1f} {slow:>16,.2f} {fast / slow:>8,.0f}x",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f}")
