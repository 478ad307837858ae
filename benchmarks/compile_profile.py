"""Where a game's cold compile goes: numba compile events and specialisations per function.

Run: ``.venv/bin/python benchmarks/compile_profile.py GAME [GAME ...] [--top 15]``

Each game is compiled in a fresh process with an empty JIT cache (a temporary
``BALANCE_CACHE_DIR``) by playing one game of its default set-up, as a run's first chunk does.
Prints the first call's seconds (wall, and CPU: on a shared machine the CPU seconds are the
figure to compare), the number of compiled functions and signatures, the functions
compiled more than once (several signatures: each is a whole compile) and the slowest compiles
(exclusive seconds: a function's own compile, without the callees it compiled on the way).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def profile(game: str) -> dict:
    """In this process (cache assumed empty): first call seconds and compile events."""
    from numba.core import event

    sys.path.insert(0, os.getcwd())  # the checkout being compiled (--root)
    start = time.perf_counter()
    from simulator.runs.plan import plan_run, play_chunk

    config = plan_run(game, 1)
    imported = time.perf_counter() - start
    spans: list[tuple[str, float, float]] = []
    opened: dict[int, list[tuple[str, float]]] = defaultdict(list)

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            opened[id(d)].append((name, time.perf_counter()))

        def on_end(self, ev: event.Event) -> None:
            name, began = opened[id(ev.data["dispatcher"])].pop()
            spans.append((name, began, time.perf_counter()))

    listener = Listener()
    event.register("numba:compile", listener)
    start, cpu = time.perf_counter(), time.process_time()
    play_chunk(config, 0, 0, 1)
    first = time.perf_counter() - start
    first_cpu = time.process_time() - cpu
    event.unregister("numba:compile", listener)
    own = _exclusive(spans)
    count: dict[str, int] = defaultdict(int)
    for name, _, _ in spans:
        count[name] += 1
    return {
        "game": game,
        "import_s": imported,
        "first_call_s": first,
        "first_call_cpu_s": first_cpu,
        "compile_s": sum(own.values()),
        "functions": len(count),
        "signatures": sum(count.values()),
        "multi": {n: c for n, c in count.items() if c > 1},
        "own": own,
    }


def _exclusive(spans: list[tuple[str, float, float]]) -> dict[str, float]:
    spans = sorted(spans, key=lambda s: (s[1], -s[2]))
    own: dict[str, float] = defaultdict(float)
    stack: list[tuple[str, float, float]] = []
    for name, began, ended in spans:
        while stack and stack[-1][2] <= began:
            stack.pop()
        if stack:
            own[stack[-1][0]] -= ended - began
        own[name] += ended - began
        stack.append((name, began, ended))
    return dict(own)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument(
        "--root",
        type=Path,
        action="append",
        help="a checkout to compile from (repeat to compare checkouts game by game, in turn)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(profile(args.child)))
        return
    sys.path.insert(0, str(ROOT))
    from simulator.contract.registry import available

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}")
    roots = args.root or [ROOT]
    for game in args.games or available():
        for root in roots:
            r = _cold(game, root.resolve())
            label = f" [{root}]" if len(roots) > 1 else ""
            _show(game + label, r, args.top)


def _cold(game: str, root: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="balance-jit-") as cache:
        env = {**os.environ, "BALANCE_CACHE_DIR": cache, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", game],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _show(game: str, r: dict, top: int) -> None:
    print(
        f"\n{game}: first call {r['first_call_s']:.1f} s wall, {r['first_call_cpu_s']:.1f} s CPU "
        f"(compile events {r['compile_s']:.1f} s wall), "
        f"{r['functions']} functions, {r['signatures']} signatures; imports "
        f"{r['import_s']:.1f} s; load {os.getloadavg()[0]:.2f}"
    )
    if r["multi"]:
        multi = sorted(r["multi"].items(), key=lambda x: -x[1])
        print("  several signatures: " + ", ".join(f"{n} x{c}" for n, c in multi))
    for name, s in sorted(r["own"].items(), key=lambda x: -x[1])[:top]:
        print(f"  {s:6.2f} s  {name}")


if __name__ == "__main__":
    main()
