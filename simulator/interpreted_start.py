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

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path
from typing import TYPE_CHECKING

from .first_compile import compiled_what, estimate, needs_compile, tell
from .jit import cache_folder
from .search import SEARCH_POLICY

if TYPE_CHECKING:
    from .dataset import EncodedPart
    from .plan import RunConfig

SWITCH = "BALANCE_PLAY_WHILE_COMPILING"  # "0" turns this off: every game waits for the compile
# Chunks above this many games take minutes interpreted: a compile finishes first, so a run of
# such chunks only waits for it, as before.
MAX_CHUNK_GAMES = 1000
POLL_S = 0.2

Chunk = tuple[int, int, int]


def wanted(config: RunConfig, todo: list[Chunk], jobs: int) -> bool:
    """Whether this run plays its first chunks interpreted while its engine compiles: a local run
    on two or more cores of a compiled engine this version has not compiled yet, without a
    search seat (interpreted, a searching game takes minutes) or a policy file."""
    from numba.core import config as numba_config

    return (
        os.environ.get(SWITCH, "1") != "0"
        and jobs >= 2
        and len(todo) >= 2
        and config.chunk_size <= MAX_CHUNK_GAMES
        and config.policy_file is None
        and not any(seat.policy.name == SEARCH_POLICY for seat in config.seats)
        and not numba_config.DISABLE_JIT
        and needs_compile(config)
    )


class BackgroundCompile:
    """The compile of what ``config`` needs, in a process of its own session (Ctrl-C at the
    terminal does not stop it, and it outlives the command). A compile already running for the
    same sources (another command's) is joined instead of started twice."""

    def __init__(self, config: RunConfig):
        self.key, self.words = compiled_what(config)
        folder = cache_folder() / "compiling"
        self.pid_file = folder / f"{self.key}.pid"
        self.marker = cache_folder() / "compiled" / self.key
        self.process: subprocess.Popen | None = None
        self.pid = running_pid(self.pid_file)
        if self.pid is None:
            folder.mkdir(parents=True, exist_ok=True)
            job = folder / f"{self.key}-{os.getpid()}.pickle"
            import cloudpickle  # the run's rules class may be made at run time

            job.write_bytes(cloudpickle.dumps(config))
            with (folder / f"{self.key}.log").open("wb") as log:  # why a compile failed
                self.process = subprocess.Popen(
                    compile_command(job),
                    env=_job_environment(),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    start_new_session=True,
                )
            self.pid = self.process.pid
            self.pid_file.write_text(str(self.pid))

    def state(self) -> str:
        """``compiled``, ``compiling`` or ``failed`` (the process ended without compiling)."""
        if self.marker.is_file():
            return "compiled"
        if self.process is not None:
            return "compiling" if self.process.poll() is None else "failed"
        return "compiling" if running_pid(self.pid_file) is not None else "failed"


def compile_command(job: Path) -> list[str]:
    """The command that compiles the pickled run configuration ``job`` (replaced in tests)."""
    return [sys.executable, "-m", "simulator.compile_job", str(job)]


def play_while_compiling(
    config: RunConfig, todo: list[Chunk], jobs: int, run_id: str, notice: bool
) -> Iterator[tuple[int, EncodedPart]]:
    """Yield ``(index, part)`` for the chunks played interpreted until the engine is compiled;
    returns the chunks left for the compiled engine (none if the run finished first)."""
    from joblib.externals.loky.process_executor import ProcessPoolExecutor

    from .plan import encoded_chunk

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


def running_pid(pid_file: Path) -> int | None:
    """The pid in ``pid_file`` if that process still runs."""
    try:
        pid = int(pid_file.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def _job_environment() -> dict[str, str]:
    """This process's environment, with its import path (a checkout run without installing)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env
