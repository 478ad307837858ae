"""Games per second for every game: compiled and interpreted, one job and all cores.

    .venv/bin/python benchmarks/throughput.py            # every available game
    .venv/bin/python benchmarks/throughput.py --game caza-tesoros --seconds 10

Each figure is a whole run through the runner (engine, Parquet table, writing parts), measured in a
fresh process so that nothing compiled or loaded by one measurement helps the next. Interpreted
means ``NUMBA_DISABLE_JIT=1`` (the debugging mode), measured on fewer games. Compile time is the
first call of the engine in a fresh process with an empty JIT cache, against a warm cache.
Throughput runs use the project's own cache (``simulator/jit.py``: a folder named after the
engines' sources, under ``~/.cache/balance``), so it is kept: a second benchmark, or any run,
loads it instead of compiling again.
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


# -- measurements, each in its own process ------------------------------------------------------
def _load(game: str, with_fake: bool):  # noqa: ANN202 (RunConfig imported lazily)
    if with_fake:
        sys.path.insert(0, str(ROOT))
        from simulator.games import register
        from tests.fake_game import SPEC

        register(SPEC)
    from simulator.plan import plan_run

    return lambda games, chunk_size=None: plan_run(game, games, seed=1, chunk_size=chunk_size)


def measure_first_call(game: str, with_fake: bool) -> dict:
    """Seconds of the first one-game chunk after imports: compiling, or loading the JIT cache."""
    plan = _load(game, with_fake)
    from simulator.plan import play_chunk

    config = plan(1)
    start = time.perf_counter()
    play_chunk(config, 0, 0, 1)
    first = time.perf_counter() - start
    start = time.perf_counter()
    play_chunk(config, 0, 0, 1)
    return {"first_call_s": first, "second_call_s": time.perf_counter() - start}


def measure_throughput(game: str, with_fake: bool, seconds: float, jobs: int) -> dict:
    """Games per second of whole runs with 1 job and with ``jobs`` loky workers."""
    plan = _load(game, with_fake)
    from simulator.plan import default_chunk_size, play_chunk
    from simulator.runner import run

    play_chunk(plan(1), 0, 0, 1)  # compile or load the cache: timed separately
    rate = _calibrate(plan)
    games = max(4 * jobs, round(rate * seconds))
    # The runner's chunk size, but at least 4 chunks per worker on short (interpreted) runs.
    chunk = min(default_chunk_size(games), games // (4 * jobs))
    with tempfile.TemporaryDirectory(prefix="balance-bench-") as tmp:
        out = Path(tmp)
        # Start the loky workers (and load the engine in them) before timing.
        run(plan(2 * jobs, 1), out / "warm", jobs=jobs)
        start = time.perf_counter()
        run(plan(games, chunk), out / "one", jobs=1)
        one = time.perf_counter() - start
        start = time.perf_counter()
        run(plan(games * jobs, chunk), out / "all", jobs=jobs)
        many = time.perf_counter() - start
    return {
        "games_1": games,
        "rate_1": games / one,
        "chunk_size": chunk,
        "games_n": games * jobs,
        "rate_n": games * jobs / many,
        "jobs": jobs,
        **_worker_jit(plan(1), jobs),
    }


def _calibrate(plan) -> float:  # noqa: ANN001
    """Rough games per second of one process, on a growing chunk, to size the timed runs."""
    from simulator.plan import play_chunk

    n = 16
    while True:
        start = time.perf_counter()
        play_chunk(plan(n), 0, 0, n)
        elapsed = time.perf_counter() - start
        if elapsed > 0.5 or n >= 1_000_000:
            return n / elapsed
        n *= 4


def _worker_jit(config, jobs: int) -> dict:  # noqa: ANN001
    """How loky workers got the engine: loaded from the JIT cache, or compiled again."""
    from joblib import Parallel, delayed

    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return {"worker_cache_loads": None, "worker_compiles": None}
    stats = Parallel(n_jobs=jobs, backend="loky")(
        delayed(jit_stats)(config) for _ in range(4 * jobs)
    )
    per_worker = {pid: (hits, misses) for pid, hits, misses in stats}
    return {
        "worker_cache_loads": sum(h for h, _ in per_worker.values()),
        "worker_compiles": sum(m for _, m in per_worker.values()),
    }


def jit_stats(config) -> tuple[int, int, int]:  # noqa: ANN001
    """(pid, cache hits, cache misses) of the compiled functions, after playing one game here."""
    from numba.core.dispatcher import Dispatcher

    from simulator.plan import play_chunk

    play_chunk(config, 0, 0, 1)
    hits = misses = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(("simulator.", "policies.", "tests.")):
            continue
        for obj in list(vars(module).values()):
            if isinstance(obj, Dispatcher) and obj.stats.cache_path:
                hits += sum(obj.stats.cache_hits.values())
                misses += sum(obj.stats.cache_misses.values())
    return os.getpid(), hits, misses


# -- the driver -----------------------------------------------------------------------------------
def _child(args: list[str], env: dict[str, str] | None = None, timeout: float = 900) -> dict:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run(
        [sys.executable, __file__, *args],
        env=environ,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise SystemExit(f"measurement {args} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_game(game: str, args: argparse.Namespace) -> dict:
    fake = ["--with-fake"] if args.with_fake else []
    with tempfile.TemporaryDirectory(prefix="balance-jit-") as cache:
        empty = {"BALANCE_CACHE_DIR": cache}  # simulator/jit.py points numba's cache there
        cold = _child(["--first-call", game, *fake], empty)
        warm = _child(["--first-call", game, *fake], empty)
    jobs = ["--jobs", str(args.jobs)]
    compiled = _child(["--measure", game, "--seconds", str(args.seconds), *jobs, *fake])
    interpreted = _child(
        ["--measure", game, "--seconds", str(args.interpreted_seconds), *jobs, *fake],
        {"NUMBA_DISABLE_JIT": "1"},
    )
    return {
        "game": game,
        "compile_s": cold["first_call_s"],
        "cache_load_s": warm["first_call_s"],
        "compiled": compiled,
        "interpreted": interpreted,
    }


def table(results: list[dict], jobs: int) -> str:
    head = (
        f"| game | compiled 1 job | compiled {jobs} jobs | x{jobs} jobs | interpreted 1 job "
        f"| interpreted {jobs} jobs | compiled / interpreted | compile s | cache load s "
        f"| worker compiles |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in results:
        c, i = r["compiled"], r["interpreted"]
        lines.append(
            f"| {r['game']} | {c['rate_1']:,.0f} | {c['rate_n']:,.0f} | "
            f"{c['rate_n'] / c['rate_1']:.2f} | {i['rate_1']:,.0f} | {i['rate_n']:,.0f} | "
            f"{c['rate_1'] / i['rate_1']:,.0f} | {r['compile_s']:.1f} | {r['cache_load_s']:.2f} | "
            f"{c['worker_compiles']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="game id (repeat; default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="all cores")
    parser.add_argument("--seconds", type=float, default=5.0, help="per compiled 1-job run")
    parser.add_argument("--interpreted-seconds", type=float, default=3.0)
    parser.add_argument("--with-fake", action="store_true", help="include the tests' fake game")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--first-call", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--measure", metavar="GAME", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.first_call:
        print(json.dumps(measure_first_call(args.first_call, args.with_fake)))
        return
    if args.measure:
        figures = measure_throughput(args.measure, args.with_fake, args.seconds, args.jobs)
        print(json.dumps(figures))
        return

    sys.path.insert(0, str(ROOT))
    from simulator.games import available

    games = args.game or available() + (["fake"] if args.with_fake else [])
    if not games:
        raise SystemExit("no game to measure (none installed; --with-fake measures the test one)")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load} at start", flush=True)
    results = []
    for game in games:
        started = time.perf_counter()
        results.append(bench_game(game, args))
        print(f"  {game}: measured in {time.perf_counter() - started:.0f} s", flush=True)
    print(table(results, args.jobs))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} at end")
    print(
        "games/s of whole runs (engine + table + Parquet); 'worker compiles' counts engine "
        "functions a loky worker compiled instead of loading the JIT cache (should be 0)"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
