"""The background compile of :mod:`simulator.compiling.interpreted_start`, run as
``python -m simulator.compiling.compile_job JOB``: JOB is a pickled run configuration, read and
deleted.

Compiles (or loads) what the run needs through
:func:`simulator.compiling.first_compile.compile_notice`, so the compile is timed for the next
estimate and marked done, then removes the pid file that told other commands a compile was under
way.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

from simulator.runs.plan import play_chunk

from .first_compile import compile_notice, compiled_what, pid_file, running_pid


def compile_run(job: Path) -> None:
    """Compile what the pickled run configuration ``job`` needs, marking it compiled."""
    config = pickle.loads(job.read_bytes())
    job.unlink(missing_ok=True)
    own = pid_file(compiled_what(config)[0])
    try:
        with compile_notice(config, say=False, background=True):
            play_chunk(config, 0, 0, 1)
    finally:
        if running_pid(own) == os.getpid():
            own.unlink(missing_ok=True)


if __name__ == "__main__":
    compile_run(Path(sys.argv[1]))
