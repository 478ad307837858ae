"""Games per second of a built-in policy against the same policy copied into a policy file.

A copy of Caza-Tesoros's ``greedy`` and of Pirateer's ``runner`` (``tests/policy_files/``) play
the same seeds as the built-ins, straight through the engine (no run folder), after compiling:
the ratio is the cost of calling a designer's compiled function through the engine's tuple of
first-class functions instead of the built-ins' static dispatch. Every game is checked equal.

    python benchmarks/policy_file.py [--scale 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# game -> (built-in policy, its copy, file, players, games at --scale 1)
CASES = {
    "caza-tesoros": ("greedy", "greedy_copy", "caza_greedy_copy.py", 4, 20_000),
    "pirateer": ("runner", "runner_copy", "pirateer_runner_copy.py", 2, 20_000),
}


def _player(game: str, policy: str, players: int, policy_file: Path | None):
    from simulator.contract.policy import engine_arrays
    from simulator.runs.plan import plan_run
    from simulator.runs.policy_file import engine_tuples, load_policies, seat_slots

    config = plan_run(game, 1, players=players, policies=[policy], policy_file=policy_file)
    ids, params = engine_arrays(list(config.seats))
    extra = {}
    if config.policy_file is not None:
        ids, slots = seat_slots(ids, load_policies(config.spec, config.policy_file))
        extra["outside"] = engine_tuples(config.spec.id, config.spec.outside, slots)

    def play(seeds: np.ndarray) -> dict:
        return config.spec.play_chunk(config.rules, players, ids, params, seeds, **extra)

    play(np.arange(2, dtype=np.uint32))  # compile, or load the JIT cache
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--repeat", type=int, default=3, help="timings per side (best counts)")
    args = parser.parse_args()
    print("| game | policy | games | built-in games/s | from a file games/s | file/built-in |")
    print("|---|---|---|---|---|---|")
    for game, (builtin, copy, name, players, games) in CASES.items():
        games = max(10, int(games * args.scale))
        seeds = np.arange(games, dtype=np.uint32)
        sides = [
            _player(game, builtin, players, None),
            _player(game, copy, players, ROOT / "tests" / "policy_files" / name),
        ]
        best = [0.0, 0.0]
        outs = [None, None]
        for _ in range(args.repeat):
            for i, play in enumerate(sides):  # alternate, so load on the machine hits both
                start = time.perf_counter()
                outs[i] = play(seeds)
                best[i] = max(best[i], games / (time.perf_counter() - start))
        assert all(np.array_equal(outs[0][k], outs[1][k]) for k in ("winner", "length", "scores"))
        print(
            f"| {game} | {builtin} | {games:,} | {best[0]:,.0f} | {best[1]:,.0f} | "
            f"{best[1] / best[0]:.2f} |"
        )


if __name__ == "__main__":
    main()
