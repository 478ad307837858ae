"""What an interrupted command kept: the run folders it was filling, and the line that says so.

Every run a command plays registers its folder here (:func:`expect`); on Ctrl-C the command line
counts the whole parts on disk in those folders and prints one line with that count and the
command that resumes them. An interrupt that lands inside compiled code can surface as another
exception (numba: ``SystemError ... returned a result with an exception set``) whose chain holds
the ``KeyboardInterrupt``; :func:`is_interrupt` recognises it.
"""

from __future__ import annotations

import os
import shlex
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_FOLDERS: dict[Path, int] = {}


def expect(folder: str | Path, games: int) -> None:
    """Note that this command plays (or resumes) ``games`` games into ``folder``."""
    _FOLDERS[Path(folder)] = games


def forget() -> None:
    """Start a new command's tally (tests run several commands in one process)."""
    _FOLDERS.clear()


def is_interrupt(error: BaseException | None) -> bool:
    """Whether ``error`` is, or was caused by, a KeyboardInterrupt (Ctrl-C)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


@contextmanager
def noticed() -> Iterator[None]:
    """Inside, Ctrl-C is a KeyboardInterrupt whatever it interrupted.

    Compiled code and numba's compiler turn an interrupt into other errors (a ``SystemError``, a
    ``RuntimeError`` from a half-saved cache entry); a Ctrl-C seen while the block ran makes any
    exception leaving it a KeyboardInterrupt.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN or previous is None:
        yield
        return
    seen: list[int] = []

    def handler(signum: int, frame: object) -> None:
        seen.append(signum)
        if callable(previous):
            previous(signum, frame)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    except Exception as exc:
        if seen or is_interrupt(exc):
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)


def games_kept(folder: Path) -> int:
    """Games in the whole parts on disk of a run folder (0 for one never written)."""
    from simulator.folders.run_folder import (
        RunFolder,  # polars: imported by the commands that write runs anyway
    )

    run = RunFolder(folder)
    done = run.done_parts()
    if not done:
        return 0
    try:
        config = run.read_manifest()["config"]
        games, size = int(config["games"]), int(config["chunk_size"])
    except Exception:  # noqa: BLE001 (a folder unreadable here keeps no countable games)
        return 0
    return sum(min(size, games - i * size) for i in done if 0 <= i * size < games)


def interrupted_line(argv: list[str]) -> str:
    """One line: how many games the interrupted command kept, and the command that resumes."""
    again = shlex.join(["balance", *argv])
    folders = list(_FOLDERS)
    if not folders:
        return "interrupted; nothing was kept"
    kept = sum(games_kept(f) for f in folders)
    if len(folders) == 1:
        where = f"{kept:,} of {_FOLDERS[folders[0]]:,} games are kept in {folders[0]}"
    else:
        common = Path(os.path.commonpath([str(f.absolute()) for f in folders]))
        try:
            common = common.relative_to(Path.cwd())
        except ValueError:
            pass
        where = f"{kept:,} games are kept in {common} ({len(folders)} runs)"
    return f"interrupted; {where}; run `{again}` to resume"
