"""Compile several games' engines at once, one worker process per game.

numba compiles an engine on its first call and writes it to the JIT cache (``simulator/jit.py``);
compiling is single-threaded, so a command that plays several games (``balance demo``) compiles
them side by side on every core first, and each run then loads its engine from the cache. The
parent process says which engines compile, ticks the elapsed time and says each one ready as it
is, so the wait is never silent.
"""

from __future__ import annotations

import time
from contextlib import nullcontext

from joblib import Parallel, delayed

from .first_compile import (
    compile_notice,
    compiled_what,
    duration,
    estimate,
    needs_compile,
    tell,
    ticking,
    together,
)
from .plan import plan_run, play_chunk


def _first_game(game: str, say: bool = True) -> tuple[str, float]:
    config = plan_run(game, 1)
    start = time.perf_counter()
    with compile_notice(config, say=say):
        play_chunk(config, 0, 0, 1)
    return game, time.perf_counter() - start


def compile_engines(games: list[str], jobs: int, say: bool = True) -> dict[str, float]:
    """Seconds each game's first call took (compiling, or loading the cache), played in
    ``jobs`` worker processes at once; with ``say``, every engine to compile is announced with
    its usual time, the elapsed time ticks, and each engine is said ready as it finishes."""
    if jobs <= 1 or len(games) <= 1:
        return dict(_first_game(g, say) for g in games)
    pending = [g for g in games if needs_compile(plan_run(g, 1))]
    if say:
        for game in pending:
            config = plan_run(game, 1)
            tell(f"compiling {compiled_what(config)[1]} ({estimate(config)})")
        if pending:
            cores = min(jobs, len(pending))
            low, high = together([plan_run(g, 1) for g in pending], cores)
            tell(
                f"{len(pending)} engines compile side by side on {cores} cores: about "
                f"{duration(low)} to {duration(high)} in all"
            )
    start = time.perf_counter()
    waiting = set(pending)
    out: dict[str, float] = {}
    parallel = Parallel(
        n_jobs=min(jobs, len(games)), backend="loky", return_as="generator_unordered"
    )
    # The workers stay quiet: interleaved lines from several processes would garble the screen.
    work = (delayed(_first_game)(g, False) for g in games)
    clock = ticking(start, lambda: f"compiling {', '.join(sorted(waiting.copy()))}")
    with clock if say and pending else nullcontext():
        for game, seconds in parallel(work):
            out[game] = seconds
            if game in waiting:
                waiting.discard(game)
                if say:  # the time on the ticker, which counts from the start
                    tell(f"{game} engine ready at {time.perf_counter() - start:.0f} s")
    return {g: out[g] for g in games}
