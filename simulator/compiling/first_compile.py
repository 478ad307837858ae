"""A word before an engine compiles for the first time in this version of the sources.

numba compiles a game's engine on its first call after any change to ``simulator/`` or
``policies/`` (``simulator/compiling/jit.py`` names the cache after their hash): half a minute to a
few minutes in which nothing else shows, easily taken for a hang. A marker per compiled combination
(game, search player, policy file) in that cache folder tells a first call from a cache load; the
seconds each compile took are kept across versions in the cache root, so the next version can say
about how long it will take.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.contract.policy import SEARCH_POLICY

from .jit import cache_folder, cache_root

if TYPE_CHECKING:
    from simulator.runs.run_config import RunConfig

TIMES_FILE = "compile-seconds.json"
USUAL_S = (10, 60)  # one engine's first compile, when no earlier version's time is known
USUAL = "usually 10 s to 1 min"
REAL_COMPILE_S = 5.0  # a first call shorter than this loaded code compiled before the marker
QUIET_LINE_S = 20.0  # off a terminal (a log, CI), a progress line this often instead of ticking


def compiled_what(config: RunConfig, replay: bool = False) -> tuple[str, str]:
    """The compiled combination a run needs: a file-safe key and its description in words.
    ``replay``: a recorded game's (``balance replay``), a combination of its own when the game
    compiles its recording apart from its runs (``ReplayDef.compiled_apart``)."""
    key, words = [config.spec.id], f"the {config.spec.id} engine"
    played = {seat.policy.name for seat in config.seats}
    if SEARCH_POLICY in played:
        key.append("search")
        words += " with the search player"
    else:  # the search compiles every policy in
        for name in config.spec.compiled_when_played:
            if name in played:
                key.append(name)
                words += f" with {name}"
    if config.policy_file is not None:
        key.append(f"policy-file-{config.policy_file.sha256[:16]}")
        words += f" and the policies of {config.policy_file.path}"
    if replay and config.spec.replay is not None and config.spec.replay.compiled_apart:
        key.append("replay")
        words += " with its recording"
    return "-".join(key), words


def pid_file(key: str) -> Path:
    """Where a background compile of ``key`` (:mod:`simulator.compiling.background_compile`) keeps
    its process id while it runs."""
    return cache_folder() / "compiling" / f"{key}.pid"


def running_pid(path: Path) -> int | None:
    """The process id in ``path`` if that process still runs."""
    try:
        pid = int(path.read_text())
    except (OSError, ValueError):
        return None
    try:  # a child of this process that has ended lingers until reaped: reap it, it ran
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return None
    except ChildProcessError:
        pass  # another process's (or reaped already)
    except OSError:
        return None
    try:
        os.kill(pid, 0)
    except OSError:
        return None
    return pid


def tell(message: str) -> None:
    """One line on stderr (over a ticking line, which it clears first on a terminal)."""
    clear = "\r\033[K" if sys.stderr.isatty() else ""
    print(f"{clear}balance: {message}", file=sys.stderr, flush=True)


def needs_compile(config: RunConfig) -> bool:
    """Whether this version of the sources has not compiled what the run needs yet."""
    from numba.core import config as numba_config

    key, _ = compiled_what(config)
    if not config.spec.compiled:
        return False
    return not numba_config.DISABLE_JIT and not (cache_folder() / "compiled" / key).is_file()


def estimate(config: RunConfig, replay: bool = False) -> str:
    """About how long compiling what the run needs takes (the last version's time if known)."""
    before = seconds_before(compiled_what(config, replay)[0])
    return f"about {before:.0f} s last time" if before is not None else USUAL


def together(configs: list[RunConfig], cores: int) -> tuple[float, float]:
    """About how long compiling all of ``configs`` takes on ``cores`` processes side by side:
    each engine's last time (or the usual range), shared out over the cores. The low end is
    the work spread perfectly, or the longest engine; the high end adds the longest engine to
    the spread work (a list schedule never runs longer)."""
    spans = []
    for config in configs:
        before = seconds_before(compiled_what(config)[0])
        spans.append((before, before) if before is not None else USUAL_S)
    cores = max(1, min(cores, len(spans)))
    low = max(sum(lo for lo, _ in spans) / cores, max(lo for lo, _ in spans))
    high = sum(hi for _, hi in spans) / cores + max(hi for _, hi in spans) * (cores > 1)
    return low, max(high, low)


def duration(seconds: float) -> str:
    """``45 s``, ``3.5 min``: a wait as a person reads it."""
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def seconds_before(key: str) -> float | None:
    try:
        return float(json.loads((cache_root() / TIMES_FILE).read_text())[key])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _remember(key: str, seconds: float) -> None:
    path = cache_root() / TIMES_FILE
    try:
        times = json.loads(path.read_text()) if path.is_file() else {}
        times[key] = round(seconds, 1)
        path.write_text(json.dumps(times, indent=1, sort_keys=True) + "\n")
    except (OSError, ValueError):
        pass  # only the next estimate is lost


@contextmanager
def ticking(start: float, what: Callable[[], str] = lambda: "compiling") -> Iterator[None]:
    """Elapsed seconds while the body runs: ticking on one terminal line every second, or off
    a terminal one line every ``QUIET_LINE_S`` seconds, so a log shows the wait too. ``what``
    says what is being waited for at each tick."""
    tty = sys.stderr.isatty()
    done = threading.Event()

    def tick() -> None:
        while not done.wait(1.0 if tty else QUIET_LINE_S):
            line = f"balance: {what()}... {time.perf_counter() - start:.0f} s"
            print(f"\r{line}\033[K" if tty else line, end="" if tty else "\n",
                  file=sys.stderr, flush=True)  # fmt: skip

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if tty:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


@contextmanager
def compile_notice(
    config: RunConfig, say: bool = True, background: bool = False, replay: bool = False
) -> Iterator[None]:
    """Around a run's first engine call: when this version has not compiled what the run needs,
    say so first (once, about how long), show the elapsed time, then mark it compiled. With
    ``say`` off (a quiet command) it only times and marks the compile. A compile of the same
    code under way in another process is waited for instead (unless this is that process:
    ``background``). ``replay``: around a recorded game's (:func:`compiled_what`)."""
    if not config.spec.compiled:  # a game file: nothing compiles (nor imports numba)
        yield
        return
    from numba.core import config as numba_config

    key, words = compiled_what(config, replay)
    marker = cache_folder() / "compiled" / key
    if numba_config.DISABLE_JIT or marker.is_file():
        yield
        return
    if not background and _waited_for_background(key, words, marker, say):
        yield  # compiled there: this loads it
        return
    if say:
        tell(
            f"compiling {words} for this version of balance, once (then cached): "
            f"{estimate(config, replay)}"
        )
    start = time.perf_counter()
    with ticking(start, lambda: f"compiling {words}") if say else nullcontext():
        yield
    seconds = time.perf_counter() - start
    if say:
        tell(f"compiled in {seconds:.0f} s")
    if seconds >= REAL_COMPILE_S:
        _remember(key, seconds)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # the next run says it again


def _waited_for_background(key: str, words: str, marker: Path, say: bool) -> bool:
    """If another process is compiling ``key`` (a background compile), wait for it rather than
    compile the same code twice; True when it finished compiling."""
    pid = running_pid(pid_file(key))
    if pid is None:
        return False
    if say:
        tell(f"waiting for {words}, compiling in the background (process {pid})")
    start = time.perf_counter()
    with ticking(start, lambda: f"compiling {words}") if say else nullcontext():
        while not marker.is_file() and running_pid(pid_file(key)) == pid:
            time.sleep(0.2)
    if say and marker.is_file():
        tell(f"compiled ({time.perf_counter() - start:.0f} s of waiting)")
    return marker.is_file()
