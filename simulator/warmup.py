"""Compile several games' engines at once, one worker process per game.

numba compiles an engine on its first call and writes it to the JIT cache (``simulator/jit.py``);
compiling is single-threaded, so a command that plays several games (``balance demo``) compiles
them side by side on every core first, and each run then loads its engine from the cache.
"""

from __future__ import annotations

import time

from joblib import Parallel, delayed

from .first_compile import compile_notice
from .plan import plan_run, play_chunk


def _first_game(game: str) -> tuple[str, float]:
    config = plan_run(game, 1)
    start = time.perf_counter()
    with compile_notice(config):
        play_chunk(config, 0, 0, 1)
    return game, time.perf_counter() - start


def compile_engines(games: list[str], jobs: int) -> dict[str, float]:
    """Seconds each game's first call took (compiling, or loading the cache), played in
    ``jobs`` worker processes at once."""
    if jobs <= 1 or len(games) <= 1:
        return dict(_first_game(g) for g in games)
    parallel = Parallel(n_jobs=min(jobs, len(games)), backend="loky")
    return dict(parallel(delayed(_first_game)(g) for g in games))
