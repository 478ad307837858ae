"""A run's first games played interpreted while its engine compiles in the background.

A fresh installation compiles each engine once (half a minute to a few minutes, one core) before
its first compiled game. Meanwhile the run's other cores would stand idle, so when the engine is
not compiled yet the run starts its compile in a separate process and plays its first chunks in
worker processes with numba's compiler off (``NUMBA_DISABLE_JIT=1``: the same Python code run by
the interpreter, one to two hundred times slower). As soon as the compile is done the rest of the
run plays compiled; a chunk still playing interpreted then is dropped and played compiled. A
small run can end before the compile does: the compile then goes on in the background, so the
next command finds it in the cache.

Compiled and interpreted engines give the same rows for the same seeds
(``tests/test_game_contract.py``), so a run's rows never depend on which played a chunk.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TYPE_CHECKING

from simulator.contract.policy import SEARCH_POLICY

from .background_compile import BackgroundCompile, enabled
from .first_compile import estimate, tell

if TYPE_CHECKING:
    from simulator.folders.run_folder import EncodedPart
    from simulator.runs.run_config import RunConfig

# Chunks above this many games take minutes interpreted: a compile finishes first, so a run of
# such chunks only waits for it, as before.
MAX_CHUNK_GAMES = 1000
POLL_S = 0.2

Chunk = tuple[int, int, int]


def wanted(config: RunConfig, todo: list[Chunk], jobs: int) -> bool:
    """Whether this run plays its first chunks interpreted while its engine compiles: a local run
    on two or more cores of a compiled engine this version has not compiled yet, without a
    search seat (interpreted, a searching game takes minutes) or a policy file."""
    return (
        jobs >= 2
        and len(todo) >= 2
        and config.chunk_size <= MAX_CHUNK_GAMES
        and config.policy_file is None
        and not any(seat.policy.name == SEARCH_POLICY for seat in config.seats)
        and enabled(config)
    )


def few_left(todo: list[Chunk]) -> bool:
    """Whether the chunks left when the compile ends are better played in this process: at most
    ``MAX_CHUNK_GAMES`` games take a second at most compiled, less than starting worker
    processes (each imports the toolkit and loads the engine: 2 to 3 seconds on two cores)."""
    return sum(n for _, _, n in todo) <= MAX_CHUNK_GAMES


def play_while_compiling(
    config: RunConfig, todo: list[Chunk], jobs: int, run_id: str, notice: bool
) -> Iterator[tuple[int, EncodedPart]]:
    """Yield ``(index, part)`` for the chunks played interpreted until the engine is compiled;
    returns the chunks left for the compiled engine (none if the run finished first)."""
    from joblib.externals.loky.process_executor import ProcessPoolExecutor

    from simulator.runs.plan import encoded_chunk

    try:
        compiler = BackgroundCompile(config)
    except OSError:  # no writable cache folder: the run compiles first, as before
        return todo
    if notice:
        tell(
            f"compiling {compiler.words} for this version of balance, once (then cached): "
            f"{estimate(config)}; the first games play meanwhile, interpreted"
        )
    start = time.perf_counter()
    queue = list(todo)
    running: dict[Future, Chunk] = {}
    # The compile takes one core; the others play (numba's compiler off in these processes).
    # Interpreted, the engines' unsigned arithmetic warns where compiled code wraps silently.
    quiet = {"NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore::RuntimeWarning"}
    pool = ProcessPoolExecutor(max_workers=jobs - 1, env=quiet)
    try:
        while queue or running:
            while queue and len(running) < jobs - 1:
                chunk = queue.pop(0)
                running[pool.submit(encoded_chunk, config, chunk, run_id)] = chunk
            finished, _ = wait(running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in finished:
                running.pop(future)
                yield future.result()
            state = compiler.state()
            if state != "compiling":
                if notice and state == "compiled":
                    tell(
                        f"compiled in {time.perf_counter() - start:.0f} s; the other games play "
                        "compiled"
                    )
                return sorted([*running.values(), *queue])
    finally:
        pool.shutdown(wait=False, kill_workers=True)
    if notice:
        tell(
            f"every game played; {compiler.words} keeps compiling in the background "
            f"(process {compiler.pid}) for the next command"
        )
    return []
