"""Several games' engines compiled side by side, each game handed on as soon as its engine is.

numba compiles an engine on its first call and writes it to the JIT cache
(``simulator/compiling/jit.py``); compiling is single-threaded, so a command that plays several
games (``balance demo``) compiles them in background processes
(:mod:`simulator.compiling.background_compile`), as many at once as it has cores, longest first, and
plays each game while the others still compile: the cores never wait for the slowest engine before
the first game. The caller's process says which engines compile, ticks the elapsed time while it
waits and says each one ready as it is, so the wait is never silent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext

from simulator.runs.plan import plan_run

from .background_compile import BackgroundCompile, enabled
from .first_compile import compiled_what, duration, seconds_before, tell, ticking, together

POLL_S = 0.2


def engines_as_ready(games: list[str], jobs: int, say: bool = True) -> Iterator[str]:
    """``games``, each yielded once its engine is compiled: those compiled already first, then
    the others as their background compiles finish (``jobs`` at a time, the longest last time
    first). A compile that fails hands its game on anyway: the run compiles for itself and says
    so. With background compiles off, every game is yielded at once, in order."""
    configs = {game: plan_run(game, 1) for game in games}
    pending = [g for g in games if enabled(configs[g])]
    if not pending:
        yield from games
        return
    # Longest first: the last engine to start should be a short one (unknown times go first).
    pending.sort(key=lambda g: -(seconds_before(compiled_what(configs[g])[0]) or float("inf")))
    cores = max(1, min(jobs, len(pending)))
    if say:
        low, high = together([configs[g] for g in pending], cores)
        tell(
            f"compiling {len(pending)} engines for this version of balance, once (then "
            f"cached), {cores} at a time: about {duration(low)} to {duration(high)} in all; "
            "each game plays as soon as its engine is ready"
        )
    start = time.perf_counter()
    compiles: dict[str, BackgroundCompile] = {}
    waiting = list(pending)
    lock = threading.Lock()
    stop = threading.Event()

    def running() -> int:
        return sum(c.state() == "compiling" for c in compiles.values())

    def start_compiles() -> bool:
        """Start compiles while a core is free; whether any is still to start."""
        with lock:
            while waiting and running() < cores:
                game = waiting.pop(0)
                try:
                    compiles[game] = BackgroundCompile(configs[game])
                except OSError:
                    pass  # no writable cache folder: the run compiles for itself
            return bool(waiting)

    def keep_cores_busy() -> None:
        # A thread of its own, so a core freed while the caller plays a game starts the next
        # compile at once.
        while start_compiles() and not stop.wait(POLL_S):
            pass

    start_compiles()  # before the games compiled already play, so that no core waits for them
    starter = threading.Thread(target=keep_cores_busy, daemon=True)
    starter.start()
    left = list(pending)

    def compiling() -> str:
        with lock:
            return "compiling " + ", ".join(g for g in left if compiles.get(g) is not None)

    try:
        yield from (g for g in games if g not in pending)
        while left:
            with ticking(start, compiling) if say else nullcontext():
                game = _next_ready(left, compiles, waiting, lock)
            left.remove(game)
            if say:
                state = compiles[game].state() if game in compiles else "failed"
                words = "engine ready" if state == "compiled" else "engine did not compile"
                tell(f"{game} {words} at {time.perf_counter() - start:.0f} s")
            yield game
    finally:
        stop.set()
        starter.join()


def _next_ready(
    left: list[str],
    compiles: dict[str, BackgroundCompile],
    waiting: list[str],
    lock: threading.Lock,
) -> str:
    """The first game of ``left`` whose compile has ended (compiled or failed)."""
    while True:
        with lock:
            for game in left:
                if game in compiles and compiles[game].state() != "compiling":
                    return game
                if game not in compiles and game not in waiting:
                    return game  # its compile could not start
        time.sleep(POLL_S)
