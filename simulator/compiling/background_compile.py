"""An engine's compile in a background process, which the command that started it, or any
other, can play beside, wait for or leave running.

numba compiles on one core, for half a minute to a few minutes on a fresh installation. Run in a
process of its own session (Ctrl-C at the terminal does not stop it, and it outlives the command)
it frees the command's process for other work meanwhile: playing the first games interpreted
(:mod:`simulator.compiling.interpreted_start`) or fitting the search's evaluation
(:func:`compile_while_fitting`). Its pid file (``compiling/<key>.pid`` in the cache folder) lets a
second command wait for it (:func:`simulator.compiling.first_compile.compile_notice`) instead of
compiling the same code twice.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .first_compile import compiled_what, needs_compile, pid_file, running_pid
from .jit import cache_folder

if TYPE_CHECKING:
    from simulator.runs.run_config import RunConfig

SWITCH = "BALANCE_BACKGROUND_COMPILE"  # "0": every command compiles in its own process, and waits


def enabled(config: RunConfig) -> bool:
    """Whether a background compile may serve ``config``: switched on, numba's compiler on, and
    what the run needs not compiled yet."""
    from numba.core import config as numba_config

    switched_on = os.environ.get(SWITCH, "1") != "0"
    return switched_on and not numba_config.DISABLE_JIT and needs_compile(config)


class BackgroundCompile:
    """The compile of what ``config`` needs, in a process of its own session (Ctrl-C at the
    terminal does not stop it, and it outlives the command). A compile already running for the
    same sources (another command's) is joined instead of started twice."""

    def __init__(self, config: RunConfig):
        self.key, self.words = compiled_what(config)
        self.pid_file = pid_file(self.key)
        folder = self.pid_file.parent
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
    return [sys.executable, "-m", "simulator.compiling.compile_job", str(job)]


def compile_while_fitting(configs: list[RunConfig]) -> None:
    """Start compiling the engines of runs that wait for their search's evaluation fit, so the
    compile and the fit (which compiles its self-play recorder) run side by side. The compile
    needs only the types of the seats' rows, so it plays its one game with a stand-in
    evaluation; the run, when it comes, waits for the compile or loads it."""
    from simulator.search.evaluation import stand_in_evaluation

    started: set[str] = set()
    for config in configs:
        key = compiled_what(config)[0]
        if key in started or not config.unfitted or not enabled(config):
            continue
        started.add(key)
        try:
            BackgroundCompile(replace(config, evaluation=stand_in_evaluation(config)))
        except OSError:
            return  # no writable cache folder: each run compiles for itself, as before


def _job_environment() -> dict[str, str]:
    """This process's environment, with its import path (a checkout run without installing)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env
