"""A word before an engine compiles for the first time in this version of the sources.

numba compiles a game's engine on its first call after any change to ``simulator/`` or
``policies/`` (``simulator/jit.py`` names the cache after their hash): half a minute to a few
minutes in which nothing else shows, easily taken for a hang. A marker per compiled combination
(game, search player, policy file) in that cache folder tells a first call from a cache load;
the seconds each compile took are kept across versions in the cache root, so the next version
can say about how long it will take.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

from .jit import cache_folder, cache_root
from .search import SEARCH_POLICY

if TYPE_CHECKING:
    from .plan import RunConfig

TIMES_FILE = "compile-seconds.json"
USUAL = "usually 30 s to 2.5 min"
REAL_COMPILE_S = 5.0  # a first call shorter than this loaded code compiled before the marker


def compiled_what(config: RunConfig) -> tuple[str, str]:
    """The compiled combination a run needs: a file-safe key and its description in words."""
    key, words = [config.spec.id], f"the {config.spec.id} engine"
    if any(seat.policy.name == SEARCH_POLICY for seat in config.seats):
        key.append("search")
        words += " with the search player"
    if config.policy_file is not None:
        key.append(f"policy-file-{config.policy_file.sha256[:16]}")
        words += f" and the policies of {config.policy_file.path}"
    return "-".join(key), words


def _say(message: str) -> None:
    print(f"balance: {message}", file=sys.stderr, flush=True)


def _seconds_before(key: str) -> float | None:
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
def _ticking(start: float) -> Iterator[None]:
    """Elapsed seconds on one terminal line while the body runs (nothing when not a terminal)."""
    if not sys.stderr.isatty():
        yield
        return
    done = threading.Event()

    def tick() -> None:
        while not done.wait(1.0):
            print(f"\rbalance: compiling... {time.perf_counter() - start:.0f} s", end="",
                  file=sys.stderr, flush=True)  # fmt: skip

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        print("\r", end="", file=sys.stderr, flush=True)


@contextmanager
def compile_notice(config: RunConfig, say: bool = True) -> Iterator[None]:
    """Around a run's first engine call: when this version has not compiled what the run needs,
    say so first (once, about how long), show the elapsed time, then mark it compiled. With
    ``say`` off (a quiet command) it only times and marks the compile."""
    from numba.core import config as numba_config

    key, words = compiled_what(config)
    marker = cache_folder() / "compiled" / key
    if numba_config.DISABLE_JIT or marker.is_file():
        yield
        return
    before = _seconds_before(key)
    estimate = f"about {before:.0f} s last time" if before is not None else USUAL
    if say:
        _say(f"compiling {words} for this version of balance, once (then cached): {estimate}")
    start = time.perf_counter()
    with _ticking(start) if say else nullcontext():
        yield
    seconds = time.perf_counter() - start
    if say:
        _say(f"compiled in {seconds:.0f} s")
    if seconds >= REAL_COMPILE_S:
        _remember(key, seconds)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # the next run says it again
