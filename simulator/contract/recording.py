"""Recording a game while it is played, so any game of a run can be replayed move by move.

A game that can be replayed declares :class:`ReplayDef` as ``GameSpec.replay``. Its engine
takes a recording buffer through the same compiled function that plays a chunk:

- ``rec``: int64[R, W], one event per row: ``(kind, step, player, field 3, ..., field W-1)``.
  ``kind`` is the game's event code, ``step`` its own clock (the turn, round or trick, in the
  game's ``length_unit``; 0 for the set-up), ``player`` the seat concerned (-1: nobody).
- ``rec_n``: int64[1], the number of events the game produced (counted past ``R`` too, so a
  buffer too small is seen and the game played again with a larger one: a game is
  deterministic from its seed).

A zero-row buffer means "not recording": ``play_chunk`` passes :func:`no_recording`, and
:func:`record` returns at once, so a run pays one comparison per event and writes nothing.
When recording, the engine plays exactly one game (the replayed seed), so events need no game
number. The buffer is the only difference between a run and a replay: the replay is the very
game of the run, played by the same compiled code, not a re-implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from .replay_def import ReplayDef as ReplayDef  # declared apart: the registry needs no numba
from .rules import RuleSet

COMMON_FIELDS = ("kind", "step", "player")  # the first three columns of every event row
MAX_WIDTH = 12  # kind, step, player and up to 9 fields (:func:`record`)
FIRST_ROWS = 4096


def no_recording(width: int) -> tuple[np.ndarray, np.ndarray]:
    """The buffer a run passes: zero rows (nothing is written) and its counter."""
    return np.zeros((0, width), dtype=np.int64), np.zeros(1, dtype=np.int64)


@njit(cache=True)
def recording(rec) -> bool:
    """Is this game being recorded? (Guard any work done only to build an event.)"""
    return rec.shape[0] > 0


@njit(cache=True)
def record(rec, rec_n, kind, step, player, a=0, b=0, c=0, d=0, e=0, f=0, h=0, i=0, j=0):
    """Append one event ``(kind, step, player, a, b, ...)``; fields past the buffer's width are
    dropped. Does nothing when not recording (a zero-row buffer)."""
    if rec.shape[0] == 0:
        return
    n = rec_n[0]
    rec_n[0] = n + 1
    if n >= rec.shape[0]:
        return
    row = rec[n]
    w = row.shape[0]
    row[0] = kind
    row[1] = step
    row[2] = player
    if w > 3:
        row[3] = a
    if w > 4:
        row[4] = b
    if w > 5:
        row[5] = c
    if w > 6:
        row[6] = d
    if w > 7:
        row[7] = e
    if w > 8:
        row[8] = f
    if w > 9:
        row[9] = h
    if w > 10:
        row[10] = i
    if w > 11:
        row[11] = j


def play_recorded(
    play: Callable[[np.ndarray, np.ndarray], Any], width: int, rows: int = FIRST_ROWS
) -> tuple[np.ndarray, Any]:
    """Call ``play(rec, rec_n)`` (one game, recorded) with a buffer large enough for every event:
    returns the event rows and what ``play`` returned."""
    if not 3 <= width <= MAX_WIDTH:
        raise ValueError(f"event rows are 3 to {MAX_WIDTH} wide, not {width}")
    while True:
        rec = np.zeros((rows, width), dtype=np.int64)
        rec_n = np.zeros(1, dtype=np.int64)
        out = play(rec, rec_n)
        n = int(rec_n[0])
        if n <= rows:
            return rec[:n].copy(), out
        rows = n  # the same seed plays the same game: the second time everything fits


def replay_by_chunk(play_chunk: Callable[..., dict], width: int) -> Callable[..., tuple]:
    """``ReplayDef.play`` for an engine whose ``play_chunk`` takes ``rec`` and ``rec_n`` keyword
    arguments (absent: not recording): the one game of ``seed``, played as a run plays it
    (``engine_args``: what a run passes too, e.g. the ``outside`` policies of a policy file)."""

    def play(
        rules: RuleSet, n_players: int, policy_ids, policy_params, seed: int, **engine_args: Any
    ) -> tuple:
        seeds = np.array([seed], dtype=np.uint32)  # as simulator.runs.plan.chunk_seeds gives them

        def one(rec: np.ndarray, rec_n: np.ndarray) -> dict:
            return play_chunk(rules, n_players, policy_ids, policy_params, seeds, rec=rec,
                              rec_n=rec_n, **engine_args)  # fmt: skip

        return play_recorded(one, width)

    return play
