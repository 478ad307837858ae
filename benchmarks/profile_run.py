"""Where a run's time goes, for one game: compile, engine, table, Parquet writing, the rest.

    .venv/bin/python benchmarks/profile_run.py caza-tesoros --games 200000

The run is played with one job so that the parts add up to the wall time: each stage of the
runner is wrapped with a timer, and "between chunks" is what is left (seeding, manifest, the loop).
Compile time is measured in a fresh process with an empty JIT cache, as in ``throughput.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SPENT: dict[str, float] = defaultdict(float)


def timed(stage: str, func: Callable) -> Callable:
    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            SPENT[stage] += time.perf_counter() - start

    return wrapper


def compile_seconds(game: str, with_fake: bool) -> tuple[float, float]:
    """(first call with an empty JIT cache, first call with that cache warm), fresh processes."""
    import json
    import os

    args = [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), "--first-call", game]
    args += ["--with-fake"] if with_fake else []
    figures = []
    with tempfile.TemporaryDirectory(prefix="balance-jit-") as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "BALANCE_CACHE_DIR": cache}
        for _ in range(2):
            out = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
            figures.append(json.loads(out.stdout.strip().splitlines()[-1])["first_call_s"])
    return figures[0], figures[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int)
    parser.add_argument("--with-fake", action="store_true", help="allow the tests' fake game")
    args = parser.parse_args()

    if args.with_fake:
        from simulator.contract.registry import register
        from tests.fake_game import SPEC

        register(SPEC)
    import simulator.runs.plan as plan
    import simulator.runs.runner as runner
    from simulator.folders.run_folder import RunFolder

    cold, warm = compile_seconds(args.game, args.with_fake)
    config = plan.plan_run(args.game, args.games, players=args.players, seed=1)
    plan.play_chunk(config, 0, 0, 1)  # load the JIT cache outside the timed run
    spec = dataclasses.replace(config.spec, play_chunk=timed("engine", config.spec.play_chunk))
    config = dataclasses.replace(config, spec=spec)
    plan.chunk_table = timed("table", plan.chunk_table)
    plan.chunk_seeds = timed("seeds", plan.chunk_seeds)
    RunFolder.write_part = timed("write", RunFolder.write_part)

    with tempfile.TemporaryDirectory(prefix="balance-profile-") as tmp:
        start = time.perf_counter()
        folder = runner.run(config, Path(tmp) / "run", jobs=1)
        wall = time.perf_counter() - start
        on_disk = sum(p.stat().st_size for p in folder.parts_dir.iterdir())
    between = wall - sum(SPENT.values())

    print(
        f"{args.game}: {args.games:,} games, {config.n_players} players, chunks of "
        f"{config.chunk_size:,}, one job: {wall:.2f} s, {args.games / wall:,.0f} games/s"
    )
    print(f"compile (empty cache) {cold:.2f} s, load from JIT cache {warm:.2f} s")
    print(f"{'stage':<16}{'seconds':>9}{'share':>8}")
    for stage in ("engine", "table", "write", "seeds"):
        print(f"{stage:<16}{SPENT[stage]:>9.3f}{SPENT[stage] / wall:>8.1%}")
    print(f"{'between chunks':<16}{between:>9.3f}{between / wall:>8.1%}")
    print(f"Parquet on disk: {on_disk / args.games:.1f} bytes per game")


if __name__ == "__main__":
    main()
