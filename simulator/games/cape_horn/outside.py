"""Cape Horn decisions for a designer's own policies (``--policy-file``; docs/policies.md).

The three decisions of ``policies.cape_horn`` without the policy id. An outside policy gets the
hands as its seat may know them: its own row of ``hand``, the other rows zero (their sizes are
public, ``pl[q, S.P_HAND]``). The engine calls the routers below where it called the built-in
``decide_*``: with no outside tuple (``ext`` None) numba prunes the outside branch and the router
is the built-in call, in the turn's scratch (:func:`new_turn_scratch`). The engine checks every
answer again.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
from numba import njit, types

from policies.cape_horn import (
    decide_buy,
    decide_move_within,
    decide_place_within,
    decide_token,
    new_plan_scratch,
)
from simulator.contract.policy import OUTSIDE, Decision, OutsideDecisions

from . import board as BD
from .rules import Rules, engine_rules

X_PLACE, X_MOVE, X_BUY, X_TOKEN = 0, 1, 2, 3

TurnScratch = namedtuple("TurnScratch", "plan seen")
"""What the routers work in: the built-in decisions' scratch (``policies.cape_horn``) and the
hands as an outside policy's seat sees them."""


@njit(cache=True)
def new_turn_scratch(n_players: int, n_cells: int, n_designs: int) -> TurnScratch:
    """Scratch for the routers below, made once and handed down: they allocate nothing, so
    they run without the runtime."""
    return TurnScratch(
        new_plan_scratch(n_cells, n_designs), np.zeros((n_players, n_designs), np.int64)
    )


@njit(cache=True, _nrt=False)
def own_hand(hand, p, seen):
    """``hand`` as seat ``p`` knows it, into ``seen``: its own cards; the other rows zero."""
    for q in range(hand.shape[0]):
        for d in range(hand.shape[1]):
            seen[q, d] = hand[q, d] if q == p else 0
    return seen


# The place and move routers and the built-in decisions under them are inlined into the turn
# (numba's inline="always"): a call copies every array of the board, the state and the scratch
# onto the stack, which cost a tenth of a game (same results, measured).
@njit(cache=True, _nrt=False, inline="always")
def place(ext, pid, prm, p, B, r, st, buf, scratch):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        f = ext[X_PLACE][pid - OUTSIDE]
        return f(prm, p, B, r, card, ship, pl, own_hand(hand, p, scratch.seen), g, buf)
    return decide_place_within(pid, prm, p, B, r, card, ship, pl, hand, g, buf, scratch.plan)


@njit(cache=True, _nrt=False, inline="always")
def move(ext, pid, prm, p, B, r, st, scratch):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        seen = own_hand(hand, p, scratch.seen)
        return ext[X_MOVE][pid - OUTSIDE](prm, p, B, r, card, ship, pl, seen, g)
    return decide_move_within(pid, prm, p, B, r, card, ship, pl, hand, g, scratch.plan)


@njit(cache=True, _nrt=False)
def buy(ext, pid, prm, p, B, r, st, scratch):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        seen = own_hand(hand, p, scratch.seen)
        return ext[X_BUY][pid - OUTSIDE](prm, p, B, r, card, ship, pl, seen, g)
    return decide_buy(pid, prm, p, B, r, card, ship, pl, hand, g)


@njit(cache=True, _nrt=False)
def token(ext, pid, prm, p, B, r, st, c, scratch):
    card, ship, pl, hand, g, _ = st  # the piles are not the seat's to see
    if ext is not None and pid >= OUTSIDE:
        f = ext[X_TOKEN][pid - OUTSIDE]
        return f(prm, p, B, r, card, ship, pl, own_hand(hand, p, scratch.seen), g, c)
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
            "the move p makes: (kind, a, b) as in simulator/games/cape_horn/state.py (MV_*)",
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
