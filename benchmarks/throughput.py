"""Games per second for every game: compiled and interpreted, one job and all cores.

    .venv/bin/python benchmarks/throughput.py            # every available game (`make bench`)
    .venv/bin/python benchmarks/throughput.py --game caza-tesoros --seconds 10

One table: for each registered game a row of whole runs with its default policies (1 job and
``--jobs`` jobs, compile and cache-load seconds), then a row for each policy table the game
declares in ``benchmarks/<game id with _ for ->.py`` (``TABLES``, see ``policy_tables.py``):
games per second of the engine alone, compiled and interpreted, and their ratio.

Each figure is a whole run through the runner (engine, Parquet table, writing parts), measured in a
fresh process so that nothing compiled or loaded by one measurement helps the next. Interpreted
means ``NUMBA_DISABLE_JIT=1`` (the debugging mode), measured on fewer games. Compile time is the
first call of the engine in a fresh process with an empty JIT cache, against a warm cache.
Throughput runs use the project's own cache (``simulator/compiling/jit.py``: a folder named after
the engines' sources, under ``~/.cache/balance``), so it is kept: a second benchmark, or any run,
loads it instead of compiling again.
"""

from __future__ import annotations

import argparse
import importlib.util
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
        from simulator.contract.registry import register
        from tests.fake_game import SPEC

        register(SPEC)
    from simulator.runs.plan import plan_run

    return lambda games, chunk_size=None: plan_run(game, games, seed=1, chunk_size=chunk_size)


def measure_first_call(game: str, with_fake: bool) -> dict:
    """Seconds of the first one-game chunk after imports: compiling, or loading the JIT cache."""
    plan = _load(game, with_fake)
    from simulator.runs.plan import play_chunk

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
    from simulator.runs.plan import default_chunk_size, play_chunk
    from simulator.runs.runner import run

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
    from simulator.runs.plan import play_chunk

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

    from simulator.runs.plan import play_chunk

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


def declared_tables(game: str) -> dict[str, tuple[list[str], int, int]]:
    """The policy tables ``benchmarks/<game>.py`` declares (none when there is no such file)."""
    path = ROOT / "benchmarks" / (game.replace("-", "_") + ".py")
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(getattr(module, "TABLES", {}))


def measure_tables(game: str, with_fake: bool, scale: float, interpreted: bool) -> dict:
    """Games per second of the engine alone for each declared table (compiled or interpreted
    counts of games, times ``scale``), in this process. Both play the interpreted count's seeds:
    the compiled run repeats them until it has played its own count."""
    _load(game, with_fake)
    from benchmarks.policy_tables import games_per_second

    out = {}
    for name, (policies, fast_n, slow_n) in declared_tables(game).items():
        distinct = max(1, round(slow_n * scale))
        n = distinct if interpreted else max(1, round(fast_n * scale))
        out[name] = games_per_second(game, policies, n, distinct)
    return out


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
    if args.skip_cold:  # cache load from the cache in use, no cold compile
        cold = {"first_call_s": float("nan")}
        warm = _child(["--first-call", game, *fake])
    else:
        with tempfile.TemporaryDirectory(prefix="balance-jit-") as cache:
            empty = {
                "BALANCE_CACHE_DIR": cache
            }  # simulator/compiling/jit.py points numba's cache there
            cold = _child(["--first-call", game, *fake], empty)
            warm = _child(["--first-call", game, *fake], empty)
    jobs = ["--jobs", str(args.jobs)]
    compiled = _child(["--measure", game, "--seconds", str(args.seconds), *jobs, *fake])
    interpreted = _child(
        ["--measure", game, "--seconds", str(args.interpreted_seconds), *jobs, *fake],
        {"NUMBA_DISABLE_JIT": "1"},
    )
    tables = {}
    if declared_tables(game) and args.scale > 0:
        scale = ["--scale", str(args.scale)]
        fast = _child(["--tables", game, *scale, *fake])
        interpreted_env = {"NUMBA_DISABLE_JIT": "1"}
        slow = _child(["--tables", game, "--interpreted", *scale, *fake], interpreted_env)
        tables = {name: {"compiled": fast[name], "interpreted": slow[name]} for name in fast}
    return {
        "game": game,
        "load": os.getloadavg()[0],
        "compile_s": cold["first_call_s"],
        "cache_load_s": warm["first_call_s"],
        "compiled": compiled,
        "interpreted": interpreted,
        "tables": tables,
    }


def table(results: list[dict], jobs: int) -> str:
    head = (
        f"| game | policies | compiled g/s | interpreted g/s | compiled / interpreted "
        f"| compiled {jobs} jobs | x{jobs} jobs | compile s | cache load s | load |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in results:
        c, i = r["compiled"], r["interpreted"]
        lines.append(
            f"| {r['game']} | default, whole run | {c['rate_1']:,.0f} | {i['rate_1']:,.1f} | "
            f"{c['rate_1'] / i['rate_1']:,.0f} | {c['rate_n']:,.0f} | "
            f"{c['rate_n'] / c['rate_1']:.2f} | {r['compile_s']:.1f} | "
            f"{r['cache_load_s']:.2f} | {r['load']:.1f} |"
        )
        for name, t in r["tables"].items():
            lines.append(
                f"| | {name}, engine | {t['compiled']:,.0f} | {t['interpreted']:,.1f} | "
                f"{t['compiled'] / t['interpreted']:,.0f} | | | | | |"
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
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply declared tables' game counts (0: skip)"
    )
    parser.add_argument(
        "--skip-cold",
        action="store_true",
        help="no cold compile (compile s: nan); cache load from the cache in use",
    )
    parser.add_argument("--measure", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--tables", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--interpreted", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.first_call:
        print(json.dumps(measure_first_call(args.first_call, args.with_fake)))
        return
    if args.tables:
        rates = measure_tables(args.tables, args.with_fake, args.scale, args.interpreted)
        print(json.dumps(rates))
        return
    if args.measure:
        figures = measure_throughput(args.measure, args.with_fake, args.seconds, args.jobs)
        print(json.dumps(figures))
        return

    sys.path.insert(0, str(ROOT))
    from simulator.contract.registry import available

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
        "whole run: games/s of runs through the runner (engine + table + Parquet), default "
        "policies; engine: the engine alone on a declared policy table; load: the 1-minute load "
        "average after the game's measurements (2 cores shared: compare within a row)"
    )
    compiles = {r["game"]: r["compiled"]["worker_compiles"] for r in results}
    if any(compiles.values()):
        print(f"loky workers compiled instead of loading the JIT cache: {compiles}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
