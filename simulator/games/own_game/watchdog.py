"""A watchdog on a designer's code: no call into a game file, and no game, runs past a limit.

While a file's code may run (loading it, a chunk of games, the checks), a periodic ``SIGALRM``
ticks. The handler looks at the interrupted stack and costs the game loop nothing between ticks:

- the outermost frame of the designer's file is the call into it (``apply``, a policy, the
  module's own code while it loads); the same frame seen for longer than the limit is a call
  that does not return;
- the game loop's frame (``play_game``, the checks' loop) is the game; its time, the search's
  thinking apart (toolkit code, bounded by its budget), longer than the limit is a game that
  does not end.

Either raises :class:`Overrun` where the code runs; the loops turn it into one line naming the
function (or the game), the game and the step. The limit is a module setting: the command line
sets it (``--call-limit``) and it travels to worker processes with the game's spec
(``spec.FileGameSpec.__reduce__``), never through the environment. Signals reach the main thread
only: elsewhere (a Dask worker's thread) and where ``setitimer`` is missing, nothing is watched.
While the file's code may run its prints go to stderr, so the toolkit's stdout (``--json``)
holds only the toolkit's output.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DEFAULT_LIMIT = 30.0  # seconds: a call into the file, or a game's own moves
MAX_TICK = 1.0  # seconds between looks at the stack (a limit is found late by at most this)
SEARCH = "mcts"  # the game loop's ``where`` while the toolkit's search thinks

_limit = DEFAULT_LIMIT


def set_limit(seconds: float) -> None:
    """The limit for this process (0: nothing is watched)."""
    global _limit
    _limit = float(seconds)


def limit() -> float:
    return _limit


def limit_words() -> str:
    return f"{_limit:g} s"


class Overrun(BaseException):  # noqa: N818  (a BaseException: the file's `except Exception` lets it by)
    """Raised where the designer's code runs when a call or a game passed the limit."""

    def __init__(self, function: str, line: int | None, game: bool, where: str = ""):
        super().__init__(function, line, game, where)
        self.function = function  # the file's function that was running ("<module>" at load)
        self.line = line  # the line of the file running when the limit passed
        self.game = game  # the game as a whole ran too long (else: one call)
        self.where = where  # the game loop's step ("apply", "policy hold", ...), if known

    def describe(self) -> str:
        """``hold() (line 104) ran longer than --call-limit 30 s`` or ``the game went on
        longer than --call-limit 30 s without ending``."""
        at = f" (line {self.line})" if self.line is not None else ""
        if self.game:
            inside = f" ({self.function}(){at} was running)" if self.function else ""
            return (
                f"the game went on longer than --call-limit {limit_words()} without ending{inside}"
            )
        return f"{self.function}(){at} ran longer than --call-limit {limit_words()}"


@dataclass
class _Watch:
    files: dict[str, int] = field(default_factory=dict)  # watched file paths (nesting count)
    call_frame: types.FrameType | None = None  # the call into the file seen at the last tick
    call_since: float = 0.0
    game_frame: types.FrameType | None = None
    game_time: float = 0.0  # the game's own time so far (the search's thinking apart)
    last_tick: float = 0.0
    previous: Any = None  # the SIGALRM handler before ours
    redirect: Any = None


_watch = _Watch()
_GAME_LOOPS: set[types.CodeType] = set()


def game_loop(function: Any) -> Any:
    """Mark ``function`` as a game loop (locals ``seed``, ``step``, optionally ``where``): its
    frame's time is the game's time. A decorator."""
    _GAME_LOOPS.add(function.__code__)
    return function


def active() -> bool:
    """Is a watch on (in this thread)?"""
    return bool(_watch.files)


def _usable() -> bool:
    return (
        _limit > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


@contextlib.contextmanager
def watching(path: str) -> Iterator[None]:
    """Watch the code of the file at ``path`` (as its frames name it) while the block runs;
    nested blocks share one timer. An :class:`Overrun` the block leaves unsaid (the game loops
    say it with the game and step) leaves it as one line naming the function."""
    if not _usable():
        yield
        return
    first = not _watch.files
    _watch.files[path] = _watch.files.get(path, 0) + 1
    if first:
        _start()
    try:
        yield
    except Overrun as overrun:
        from simulator.contract.errors import BalanceError

        raise BalanceError(f"{path}: {overrun.describe()}") from None
    finally:
        _watch.files[path] -= 1
        if not _watch.files[path]:
            del _watch.files[path]
        if first:
            _stop()


def _start() -> None:
    tick = min(MAX_TICK, max(_limit / 4, 0.01))
    _watch.call_frame = _watch.game_frame = None
    _watch.game_time = 0.0
    _watch.last_tick = time.monotonic()
    _watch.previous = signal.signal(signal.SIGALRM, _tick)
    signal.setitimer(signal.ITIMER_REAL, tick, tick)
    _watch.redirect = contextlib.redirect_stdout(sys.stderr)
    _watch.redirect.__enter__()


def _stop() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    signal.signal(signal.SIGALRM, _watch.previous or signal.SIG_DFL)
    _watch.redirect.__exit__(None, None, None)
    _watch.files.clear()
    _watch.call_frame = _watch.game_frame = None  # frames hold states: let them go


def _tick(signum: int, frame: types.FrameType | None) -> None:
    now = time.monotonic()
    elapsed, _watch.last_tick = now - _watch.last_tick, now
    outermost = innermost = game = None
    f = frame
    while f is not None:
        if f.f_code.co_filename in _watch.files:
            outermost = f
            innermost = innermost or f
        if game is None and f.f_code in _GAME_LOOPS:
            game = f
        f = f.f_back
    line = innermost.f_lineno if innermost is not None else None
    name = outermost.f_code.co_name if outermost is not None else ""
    if outermost is not _watch.call_frame:
        _watch.call_frame, _watch.call_since = outermost, now
    elif outermost is not None and now - _watch.call_since > _limit:
        _watch.call_frame = None
        where = str(game.f_locals.get("where", "")) if game is not None else ""
        raise Overrun(name, line, game=False, where=where)
    if game is not _watch.game_frame:
        _watch.game_frame, _watch.game_time = game, 0.0
    elif game is not None:
        where = str(game.f_locals.get("where", ""))
        if where != SEARCH:
            _watch.game_time += elapsed
        if _watch.game_time > _limit:
            _watch.game_frame = None
            raise Overrun(name, line, game=True, where=where)
