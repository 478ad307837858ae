"""Cape Horn decisions for a designer's own policies (``--policy-file``; docs/policies.md).

The three decisions of ``policies.cape_horn`` without the policy id. An outside policy gets the
hands as its seat may know them: its own row of ``hand``, the other rows zero (their sizes are
public, ``pl[q, S.P_HAND]``). The engine calls the routers below where it called the built-in
``decide_*``: with no outside tuple (``ext`` None) numba prunes the outside branch and the router
is the built-in call. The engine checks every answer again.
"""

from __future__ import annotations

import numba
from numba import njit, types

from policies.cape_horn import decide_buy, decide_move, decide_place, decide_token
from simulator.policy import OUTSIDE, Decision, OutsideDecisions

from . import board as BD
from .rules import Rules, engine_rules

X_PLACE, X_MOVE, X_BUY, X_TOKEN = 0, 1, 2, 3


@njit(cache=True)
def own_hand(hand, p):
    """``hand`` as seat ``p`` knows it: its own cards; the other rows zero."""
    v = hand.copy()
    for q in range(hand.shape[0]):
        if q != p:
            v[q, :] = 0
    return v


@njit(cache=True)
def place(ext, pid, prm, p, B, r, st, buf):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        f = ext[X_PLACE][pid - OUTSIDE]
        return f(prm, p, B, r, card, ship, pl, own_hand(hand, p), g, buf)
    return decide_place(pid, prm, p, B, r, card, ship, pl, hand, g, buf)


@njit(cache=True)
def move(ext, pid, prm, p, B, r, st):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        return ext[X_MOVE][pid - OUTSIDE](prm, p, B, r, card, ship, pl, own_hand(hand, p), g)
    return decide_move(pid, prm, p, B, r, card, ship, pl, hand, g)


@njit(cache=True)
def buy(ext, pid, prm, p, B, r, st):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        return ext[X_BUY][pid - OUTSIDE](prm, p, B, r, card, ship, pl, own_hand(hand, p), g)
    return decide_buy(pid, prm, p, B, r, card, ship, pl, hand, g)


@njit(cache=True)
def token(ext, pid, prm, p, B, r, st, c):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        f = ext[X_TOKEN][pid - OUTSIDE]
        return f(prm, p, B, r, card, ship, pl, own_hand(hand, p), g, c)
    return decide_token(pid, prm, p, B, r, card, ship, pl, hand, g, c)


# -- the declaration ------------------------------------------------------------------------------
_I = types.int64
_A = types.int64[::1]
_M = types.int64[:, ::1]
_DEFAULT = Rules()
_ARGS = ("prm", "p", "B", "r", "card", "ship", "pl", "hand", "g")
_TYPES = (
    types.float64[:, ::1],  # prm: every seat's parameter row; the seat's is prm[p]
    _I,  # p
    numba.typeof(BD.arrays(_DEFAULT)),  # B: the board (its type only: the arrays are arguments)
    numba.typeof(engine_rules(_DEFAULT)),  # r: rule values by name
    _A,  # card: wind card design on each cell (-1: none)
    _A,  # ship: cell of each seat's ship
    _M,  # pl: players
    _M,  # hand: cards in hand by design, own row only
    _A,  # g: game scalars
)


def _place(prm, p, B, r, card, ship, pl, hand, g, buf):
    return 0


def _move(prm, p, B, r, card, ship, pl, hand, g):
    return 3, 0, 0  # MV_NONE


def _buy(prm, p, B, r, card, ship, pl, hand, g):
    return 0


def _token(prm, p, B, r, card, ship, pl, hand, g, c):
    return True


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "place",
            (*_ARGS, "buf"),
            _I(*_TYPES, _M),
            _place,
            "the cards p lays this turn, written in order as rows (design, cell) of buf; "
            "returns how many",
        ),
        Decision(
            "move",
            _ARGS,
            types.UniTuple(_I, 3)(*_TYPES),
            _move,
            "the move p makes: (kind, a, b) as in simulator/cape_horn/state.py (MV_*)",
        ),
        Decision(
            "buy",
            _ARGS,
            _I(*_TYPES),
            _buy,
            "how many cards p buys after the free draw",
        ),
        Decision(
            "token",
            (*_ARGS, "c"),
            types.boolean(*_TYPES, _I),
            _token,
            "whether p takes the station token when its ship stops on station c (asked before "
            "the move for each station it will stop on; optional: a policy without it takes "
            "every token)",
            optional=True,
        ),
    ),
    "docs/policies.md#cape-horn",
)
