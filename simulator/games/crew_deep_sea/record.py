"""The Crew's recording points (``balance replay``; events listed in docs/rules/crew-deep-sea.md).

The engine calls these compiled helpers at a few places of its own loop; each returns at once on
a zero-row buffer (a run). Decisions made deep inside allocation and the sonar phase are read
off the state they changed (who holds each task, which cards were shown and how), so the
engine's decision code stays as it is. Rows: ``(kind, step, player, a, b, c, d, e, f)``; the
step is the trick the event belongs to (0: before trick 1), the player -1 for the 2-player dummy
(its seat is a field where it matters) or for nobody.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.recording import record

from .state import (
    DONE,
    MAX_TASKS,
    NC,
    O_COMMBY,
    O_COMMK,
    O_DOWN,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TSTATE,
    O_TWCARD,
    O_TWINNER,
    O_TX,
    PENDING,
    S_CAPTAIN,
    S_COMM_MODE,
    S_DISTRESS,
    S_DONE,
    S_DUMMY,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    S_POOL,
    neighbour,
)

# Fields a, b, c, d, e, f per kind:
EV_ATTEMPT = 0  # (captain) comm mode, tricks, redraws, dummy seat (-1), tasks, rapture tokens
EV_HAND = 1  # (seat; -1 dummy) hand mask (dummy: face-up), dummy's face-down mask, seat
EV_TASK = 2  # (holder) task card id (1-96), slot, seat of the holder
EV_PREDICT = 3  # (holder) task card id, tricks predicted
EV_DISTRESS = 4  # (-1) direction (+1 left, -1 right)
EV_PASS = 5  # (giver) card, receiving seat, giver's seat
EV_SONAR = 6  # (shower) card, claim (0 highest, 1 only, 2 lowest, 3 hidden), seat
EV_TURN_UP = 7  # (-1) dummy card turned face up, seat of the dummy
EV_PLAY = 8  # (player) card, position in the trick (0 lead), legal cards, seat
EV_TRICK = 9  # (winner) winning card, winner's seat
EV_TASK_DONE = 10  # (holder) task card id, slot, seat of the holder
EV_TASK_FAILED = 11  # (holder) task card id, slot, seat of the holder
EV_RULE_FAILED = 12  # (-1) mission objective code (board.OBJECTIVES)
EV_END = 13  # (-1) end reason, tricks played, tasks done, tasks
EVENT_KINDS = (
    "attempt", "hand", "task", "predict", "distress", "pass", "sonar", "turn_up", "play",
    "trick", "task_done", "task_failed", "rule_failed", "end",
)  # fmt: skip
EVENT_WIDTH = 9

# the tracker (what the log already shows): card shown by whom, task states, tricks logged
_T_SHOWN = 0
_T_TASKS = NC
_T_TRICKS = NC + MAX_TASKS
_T_SIZE = NC + MAX_TASKS + 1


@njit(cache=True)
def who(s, q):
    """The event's player: the seat, or -1 for the 2-player dummy (it is no player)."""
    return -1 if q == s[S_DUMMY] else q


@njit(cache=True)
def hand_mask(s, q, down):
    m = 0
    for c in range(NC):
        if s[O_OWNER + c] == q and s[O_DOWN + c] == down:
            m |= 1 << c
    return m


@njit(cache=True)
def record_deal(rec, rec_n, s, redraws):
    """The attempt's set-up and every hand as dealt; returns the holders of the cards (to find
    the distress pass later), or an empty array when not recording."""
    if rec.shape[0] == 0:
        return np.empty(0, np.int64)
    record(rec, rec_n, EV_ATTEMPT, 0, s[S_CAPTAIN], s[S_COMM_MODE], s[S_NTRICKS], redraws,
           s[S_DUMMY], s[S_NTASKS], s[S_POOL])  # fmt: skip
    for q in range(s[S_NP]):
        record(rec, rec_n, EV_HAND, 0, who(s, q), hand_mask(s, q, 0), hand_mask(s, q, 1), q)
    return s[O_OWNER : O_OWNER + NC].copy()


@njit(cache=True)
def record_preparation(rec, rec_n, s, dealt):
    """After allocation, predictions and the distress signal: each task's holder, the
    predictions, the pass (read off the hands as dealt). Returns the tracker of what the log
    shows (cards shown, task states, tricks), empty when not recording."""
    if rec.shape[0] == 0:
        return np.empty(0, np.int64)
    for k in range(s[S_NTASKS]):
        h = s[O_HOLDER + k]
        record(rec, rec_n, EV_TASK, 0, who(s, h), s[O_TASK + k] + 1, k, h)
    for k in range(s[S_NTASKS]):
        if s[O_TX + k] >= 0:
            record(rec, rec_n, EV_PREDICT, 0, who(s, s[O_HOLDER + k]), s[O_TASK + k] + 1,
                   s[O_TX + k])  # fmt: skip
    if s[S_DISTRESS] == 1:
        d = 0
        for c in range(NC):
            if dealt[c] >= 0 and s[O_OWNER + c] != dealt[c]:
                d = 1 if neighbour(s, dealt[c], 1) == s[O_OWNER + c] else -1
        record(rec, rec_n, EV_DISTRESS, 0, -1, d)
        for q in range(s[S_NP]):
            for c in range(NC):
                if dealt[c] == q and s[O_OWNER + c] != q:
                    record(rec, rec_n, EV_PASS, 0, who(s, q), c, s[O_OWNER + c], q)
    t = np.empty(_T_SIZE, np.int64)
    for c in range(NC):
        t[_T_SHOWN + c] = s[O_COMMBY + c]
    for k in range(MAX_TASKS):
        t[_T_TASKS + k] = PENDING
    t[_T_TRICKS] = 0
    return t


@njit(cache=True)
def record_shown(rec, rec_n, s, t):
    """Cards shown since the last call: sonar (from the trick's leader clockwise) and dummy
    cards turned face up."""
    if rec.shape[0] == 0:
        return
    n = s[S_NP]
    for i in range(n):
        q = (s[S_LEADER] + i) % n
        for c in range(NC):
            by = s[O_COMMBY + c]
            if by == q and t[_T_SHOWN + c] != q:
                if q == s[S_DUMMY]:
                    record(rec, rec_n, EV_TURN_UP, s[S_DONE] + 1, -1, c, q)
                else:
                    record(rec, rec_n, EV_SONAR, s[S_DONE] + 1, q, c, s[O_COMMK + c], q)
    for c in range(NC):
        t[_T_SHOWN + c] = s[O_COMMBY + c]


@njit(cache=True)
def record_play(rec, rec_n, s, q, c, n_legal, t):
    """A card played (after ``play_card``), then the dummy card it turned up, if any."""
    if rec.shape[0] == 0:
        return
    record(rec, rec_n, EV_PLAY, s[S_DONE] + 1, who(s, q), c, s[S_NIN] - 1, n_legal, q)
    record_shown(rec, rec_n, s, t)


@njit(cache=True)
def record_progress(rec, rec_n, s, t, rule_failed):
    """After each evaluation: the trick just won, then tasks newly done or failed, and a
    mission rule broken."""
    if rec.shape[0] == 0:
        return
    for tr in range(t[_T_TRICKS], s[S_DONE]):
        w = s[O_TWINNER + tr]
        record(rec, rec_n, EV_TRICK, tr + 1, who(s, w), s[O_TWCARD + tr], w)
    t[_T_TRICKS] = s[S_DONE]
    for k in range(s[S_NTASKS]):
        st = s[O_TSTATE + k]
        if st != t[_T_TASKS + k]:
            h = s[O_HOLDER + k]
            kind = EV_TASK_DONE if st == DONE else EV_TASK_FAILED
            record(rec, rec_n, kind, s[S_DONE], who(s, h), s[O_TASK + k] + 1, k, h)
            t[_T_TASKS + k] = st
    if rule_failed:
        record(rec, rec_n, EV_RULE_FAILED, s[S_DONE], -1, s[S_OBJECTIVE])


@njit(cache=True)
def record_end(rec, rec_n, s, reason, tricks):
    if rec.shape[0] == 0:
        return
    done = 0
    for k in range(s[S_NTASKS]):
        done += s[O_TSTATE + k] == DONE
    record(rec, rec_n, EV_END, tricks, -1, reason, tricks, done, s[S_NTASKS])
