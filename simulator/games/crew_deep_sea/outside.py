"""The Crew's decisions for a designer's own policies (``--policy-file``; docs/policies.md).

The nine decisions of ``policies.crew_deep_sea`` without the policy id. An outside policy never
receives the engine's state: it gets :func:`seat_view`, a copy holding only what the deciding
member may know (its own hand, every card played and who won it, the tasks and their holders,
shown voids, communicated cards and the dummy's face-up cards), so it cannot cheat by accident.

The engine calls the routers below (``pick``, ``play``...) where it called the built-in
``decide_*``: with no outside tuple (``ext`` None) numba prunes the outside branch and the router
is the built-in call; with ``searching`` None it prunes the built-in searches too.
"""

from __future__ import annotations

from numba import njit, types

from policies.crew_deep_sea import (
    decide_comm,
    decide_direction,
    decide_distress,
    decide_pass,
    decide_pick,
    decide_play,
    decide_predict,
    decide_task_bid,
    decide_volunteer,
)
from simulator.contract.policy import OUTSIDE, Decision, OutsideDecisions

from .state import (
    DONE,
    MAXP,
    NC,
    O_BELOW,
    O_COMMBY,
    O_DOWN,
    O_OWNER,
    O_TSTATE,
    O_TX,
    S_NTASKS,
)
from .verdicts import prediction_hidden

HIDDEN_OWNER = MAXP  # in a seat's view: an unplayed card in some other member's hand
HIDDEN_PREDICTION = -3  # in a seat's view: another member's secret prediction (task 85)


@njit(cache=True)
def seat_view(s, p, ttype, tparams):
    """``s`` as member ``p`` may know it (a copy).

    Another member's unplayed card that was not communicated (nor lies face up on the dummy)
    has owner ``HIDDEN_OWNER``; the dummy's face-down cards are not named (``O_DOWN`` 0,
    ``O_BELOW`` -1, owner hidden); another member's secret prediction is ``HIDDEN_PREDICTION``
    and its task is marked done, as the built-in policies' own view does.
    """
    v = s.copy()
    for c in range(NC):
        owner = s[O_OWNER + c]
        if s[O_DOWN + c] == 1 or (owner >= 0 and owner != p and s[O_COMMBY + c] < 0):
            v[O_OWNER + c] = HIDDEN_OWNER
        v[O_DOWN + c] = 0
        v[O_BELOW + c] = -1
    for k in range(s[S_NTASKS]):
        if prediction_hidden(s, k, p, ttype, tparams):
            v[O_TSTATE + k] = DONE  # left out of the member's reckoning, as built-ins do
            v[O_TX + k] = HIDDEN_PREDICTION
    return v


# -- the routers the engine calls ---------------------------------------------------------------
X_PICK, X_TASK_BID, X_VOLUNTEER, X_PREDICT, X_DISTRESS, X_DIRECTION, X_PASS, X_COMM, X_PLAY = range(
    9
)


@njit(cache=True)
def pick(ext, s, p, avail, n_avail, may_pass, pid, prm, ttype, tparams, searching=None):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_PICK][pid - OUTSIDE](v, p, avail, n_avail, may_pass, prm, ttype, tparams)
    return decide_pick(s, p, avail, n_avail, may_pass, pid, prm, ttype, tparams, searching)


@njit(cache=True)
def task_bid(ext, s, p, row, pid, prm, ttype, tparams, searching=None):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_TASK_BID][pid - OUTSIDE](v, p, row, prm, ttype, tparams)
    return decide_task_bid(s, p, row, pid, prm, ttype, tparams, searching)


@njit(cache=True)
def volunteer(ext, s, p, pid, prm, ttype, tparams, searching=None):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_VOLUNTEER][pid - OUTSIDE](v, p, prm, ttype, tparams)
    return decide_volunteer(s, p, pid, prm, ttype, tparams, searching)


@njit(cache=True)
def predict(ext, s, p, k, pid, prm, ttype, tparams):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_PREDICT][pid - OUTSIDE](v, p, k, prm, ttype, tparams)
    return decide_predict(s, p, k, pid, prm, ttype, tparams)


@njit(cache=True)
def distress(ext, s, p, pid, prm, ttype, tparams):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_DISTRESS][pid - OUTSIDE](v, p, prm, ttype, tparams)
    return decide_distress(s, p, pid, prm, ttype, tparams)


@njit(cache=True)
def direction(ext, s, p, pid, prm, ttype, tparams):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_DIRECTION][pid - OUTSIDE](v, p, prm, ttype, tparams)
    return decide_direction(s, p, pid, prm, ttype, tparams)


@njit(cache=True)
def pass_card(ext, s, p, to, pid, prm, ttype, tparams):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_PASS][pid - OUTSIDE](v, p, to, prm, ttype, tparams)
    return decide_pass(s, p, to, pid, prm, ttype, tparams)


@njit(cache=True)
def comm(ext, s, p, pid, prm, ttype, tparams, searching=None):
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, p, ttype, tparams)
        return ext[X_COMM][pid - OUTSIDE](v, p, prm, ttype, tparams)
    return decide_comm(s, p, pid, prm, ttype, tparams, searching)


@njit(cache=True)
def play(ext, s, viewer, p, legal, n, pid, prm, ttype, tparams, searching=None):
    """The card ``p`` plays; ``viewer`` decides (the captain for the 2-player dummy)."""
    if ext is not None and pid >= OUTSIDE:
        v = seat_view(s, viewer, ttype, tparams)
        return ext[X_PLAY][pid - OUTSIDE](v, p, legal, n, prm, ttype, tparams)
    return decide_play(s, p, legal, n, pid, prm, ttype, tparams, searching)


# -- the declaration ------------------------------------------------------------------------------
_I = types.int64
_V = types.int64[::1]  # the seat's view of the state, and the list arguments
_PRM = types.float64[::1]
_T = (types.int64[::1], types.int64[:, ::1])  # ttype, tparams: the task table
_TA = ("ttype", "tparams")


def _pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    return 0


def _task_bid(s, p, row, prm, ttype, tparams):
    return 0.0


def _no(s, p, prm, ttype, tparams):
    return False


def _predict(s, p, k, prm, ttype, tparams):
    return 0


def _direction(s, p, prm, ttype, tparams):
    return 0


def _pass(s, p, to, prm, ttype, tparams):
    return -1


def _comm(s, p, prm, ttype, tparams):
    return -1, -1


def _play(s, p, legal, n, prm, ttype, tparams):
    return legal[0]


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "pick",
            ("s", "p", "avail", "n_avail", "may_pass", "prm", *_TA),
            _I(_V, _I, _V, _I, types.boolean, _PRM, *_T),
            _pick,
            "index into avail[:n_avail] (task slots) of the task p takes; -1 passes (only when "
            "may_pass)",
        ),
        Decision(
            "task_bid",
            ("s", "p", "row", "prm", *_TA),
            types.float64(_V, _I, _I, _PRM, *_T),
            _task_bid,
            "how much p wants the task of row `row` (free selection, one takes all)",
        ),
        Decision(
            "volunteer",
            ("s", "p", "prm", *_TA),
            types.boolean(_V, _I, _PRM, *_T),
            _no,
            "whether p volunteers to take every task of the mission",
        ),
        Decision(
            "predict",
            ("s", "p", "k", "prm", *_TA),
            _I(_V, _I, _I, _PRM, *_T),
            _predict,
            "the X of task slot k ('exactly X tricks'), before play",
        ),
        Decision(
            "distress",
            ("s", "p", "prm", *_TA),
            types.boolean(_V, _I, _PRM, *_T),
            _no,
            "whether p asks for the distress signal",
        ),
        Decision(
            "direction",
            ("s", "p", "prm", *_TA),
            _I(_V, _I, _PRM, *_T),
            _direction,
            "p's preferred distress pass direction: +1 left, -1 right, 0 none",
        ),
        Decision(
            "pass_card",
            ("s", "p", "to", "prm", *_TA),
            _I(_V, _I, _I, _PRM, *_T),
            _pass,
            "the colour card of p's hand passed to `to` under the distress signal (-1: none)",
        ),
        Decision(
            "comm",
            ("s", "p", "prm", *_TA),
            types.UniTuple(_I, 2)(_V, _I, _PRM, *_T),
            _comm,
            "(card, claim) p communicates now, or (-1, -1) to keep its sonar token",
        ),
        Decision(
            "play",
            ("s", "p", "legal", "n", "prm", *_TA),
            _I(_V, _I, _V, _I, _PRM, *_T),
            _play,
            "the card p plays: one of legal[:n]",
        ),
    ),
    "docs/policies.md#the-crew-mission-deep-sea",
)
