"""Games per second of a designer's game file: the toolkit against a bare loop.

    .venv/bin/python benchmarks/own_game.py                  # every example (`make bench`)
    .venv/bin/python benchmarks/own_game.py --file examples/pig.py --seconds 10

For each file, with its default policy in every seat and its default rules:
- **bare loop**: the file's functions called by the simplest loop that plays a game and reads
  what a row holds (a generator seeded per game, `to_move`, `legal_actions`, the policy,
  `chance_outcomes` drawn, `apply`; then `winners`, `turn`, `end_reason`, `scores` and
  `measures` where the file has them), no dataset, one core;
- **toolkit, 1 job** and **2 jobs**: whole runs through the runner (the generic loop, its
  columns, the Parquet parts and their records), each in a fresh process, so that worker start-up
  counts, as it does for a designer's first run;
- **2 jobs, workers started**: the second of two such runs in one process, as a study's later
  runs play (loky keeps its workers).
The ratios are the toolkit's 1 job against the bare loop, and 2 jobs against 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("pig", "noughts", "kuhn", "swap")


def bare_loop(path: str, seconds: float) -> float:
    """Games/s of the bare loop (the default policy in every seat)."""
    import numpy as np

    from simulator.games.own_game.loader import load

    game = load(path)
    n = game.players[0]
    rules = {k: o["default"] for k, o in game.options.items()}
    own = list(game.policies.values())
    policy = own[0].function if own else None
    start_, to_move, legal, chance, apply, winners = (
        game.start, game.to_move, game.legal_actions, game.chance_outcomes, game.apply,
        game.winners,
    )  # fmt: skip
    at_end = [f for f in (game.turn, game.end_reason, game.scores, game.measures) if f]
    played = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for seed in range(played, played + 200):
            rng = np.random.default_rng(seed)
            state = start_(n, dict(rules))
            while (mover := to_move(state)) is not None:
                if mover == "chance":
                    outcomes = chance(state)
                    u, acc, action = rng.random(), 0.0, outcomes[-1][0]
                    for outcome, p in outcomes:
                        acc += p
                        if u < acc:
                            action = outcome
                            break
                else:
                    actions = legal(state)
                    if policy is None:
                        action = actions[int(rng.integers(len(actions)))]
                    else:
                        action = policy(state, mover, actions, rng)
                state = apply(state, action)
            winners(state)
            for f in at_end:
                f(state)
        played += 200
    return played / (time.perf_counter() - t0)


def toolkit(path: str, games: int, jobs: int, runs: int = 1) -> float:
    """Games/s of a whole run (fresh process, default chunk size); with ``runs`` > 1 the last
    of that many runs, the workers already started by the first."""
    from simulator.runs.plan import plan_run
    from simulator.runs.runner import run

    config = plan_run(path, games, seed=1)
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            run(config, Path(tmp) / "run", jobs=jobs)
            rate = games / (time.perf_counter() - t0)
    return rate


def _in_process(call: str) -> float:
    code = f"import json\nfrom benchmarks.own_game import *\nprint(json.dumps({call}))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=ROOT, env=env)  # fmt: skip
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", action="append", help="a game file (default: the examples)")
    parser.add_argument("--seconds", type=float, default=5.0, help="about how long each run")
    args = parser.parse_args()
    files = args.file or [str(ROOT / "examples" / f"{e}.py") for e in EXAMPLES]
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(
        "| file | bare loop g/s | toolkit 1 job g/s | toolkit / bare | 2 jobs g/s | 2 jobs / 1 "
        "| 2 jobs, workers started, g/s | that / 1 job |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for path in files:
        bare = _in_process(f"bare_loop({path!r}, {args.seconds})")
        games = int(bare * args.seconds)
        one = _in_process(f"toolkit({path!r}, {games}, 1)")
        two = _in_process(f"toolkit({path!r}, {games}, 2)")
        warm = _in_process(f"toolkit({path!r}, {games}, 2, runs=2)")
        name = Path(path).name
        print(f"| {name} | {bare:,.0f} | {one:,.0f} | {one / bare:.2f} | {two:,.0f} | "
              f"{two / one:.2f} | {warm:,.0f} | {warm / one:.2f} |", flush=True)  # fmt: skip
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
