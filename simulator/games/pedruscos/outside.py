"""Pedruscos del Espacio decisions for a designer's own policies (``--policy-file``;
docs/policies.md).

The seven decisions of ``policies.pedruscos`` without the policy id. The turn rules call the
routers below (with the game's :class:`~simulator.games.pedruscos.state.State`) where they would
call the built-in ``decide_*``: with no outside tuple (``ext`` None) numba prunes the outside branch
and the router is the built-in call, in the moves' scratch (``scratch``: ``new_move_scratch``) where
the decision needs some. The engine checks every answer again.
"""

from __future__ import annotations

import numba
from numba import njit, types

from policies.pedruscos import (
    decide_branch_within,
    decide_dice_within,
    decide_move_within,
    decide_purity,
    decide_route_within,
    decide_ship,
    decide_swap,
)
from simulator.contract.policy import OUTSIDE, Decision, OutsideDecisions

from .board import build_board
from .rules import Rules, engine_rules

X_MOVE, X_SHIP, X_BRANCH, X_DICE, X_ROUTE, X_PURITY, X_SWAP = range(7)


@njit(cache=True, _nrt=False)
def move(ext, pid, prm, p, r, b, st, die, scratch):
    """The move; a built-in policy decides it in ``scratch`` (``new_move_scratch``)."""
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_MOVE][pid - OUTSIDE](prm, p, r, b, pl, br, g, die)
    score, values, work, next_ptr, classes = scratch
    return decide_move_within(pid, prm, p, r, b, pl, br, g, die, score, values, work, next_ptr,
                              classes)  # fmt: skip


@njit(cache=True, _nrt=False)
def ship(ext, pid, prm, p, r, b, st, cost):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_SHIP][pid - OUTSIDE](prm, p, r, b, pl, br, g, cost)
    return decide_ship(pid, prm, p, r, b, pl, br, g, cost)


@njit(cache=True, _nrt=False)
def branch(ext, pid, prm, p, r, b, st, s, scratch):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_BRANCH][pid - OUTSIDE](prm, p, r, b, pl, br, g, s)
    return decide_branch_within(pid, prm, p, r, b, pl, br, g, s, scratch[2])


@njit(cache=True, _nrt=False)
def dice(ext, pid, prm, p, r, b, st, s, scratch):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_DICE][pid - OUTSIDE](prm, p, r, b, pl, br, g, s)
    return decide_dice_within(pid, prm, p, r, b, pl, br, g, s, scratch[2])


@njit(cache=True, _nrt=False)
def route(ext, pid, prm, p, r, b, st, s, roll, coord_only, scratch):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_ROUTE][pid - OUTSIDE](prm, p, r, b, pl, br, g, s, roll, coord_only)
    return decide_route_within(pid, prm, p, r, b, pl, br, g, s, roll, coord_only, scratch[2])


@njit(cache=True, _nrt=False)
def purity(ext, pid, prm, p, r, b, st):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_PURITY][pid - OUTSIDE](prm, p, r, b, pl, br, g)
    return decide_purity(pid, prm, p, r, b, pl, br, g)


@njit(cache=True, _nrt=False)
def swap(ext, pid, prm, p, r, b, st, c):
    pl, br, g = st.pl, st.br, st.g
    if ext is not None and pid >= OUTSIDE:
        return ext[X_SWAP][pid - OUTSIDE](prm, p, r, b, pl, br, g, c)
    return decide_swap(pid, prm, p, r, b, pl, br, g, c)


# -- the declaration ------------------------------------------------------------------------------
_I = types.int64
_B = types.boolean
_ARGS = ("prm", "p", "r", "b", "pl", "br", "g")
_TYPES = (
    types.float64[::1],  # prm
    _I,  # p
    numba.typeof(engine_rules(Rules())),  # r: rule values by name, r.hold_limit
    numba.typeof(build_board(*Rules().board_key()).arrays),  # b: the board, b.kind[cell]
    types.int64[:, ::1],  # pl: players
    types.int64[:, ::1],  # br: branches, br[p, station]
    types.int64[::1],  # g: game scalars
)


def _move(prm, p, r, b, pl, br, g, die):
    return -1


def _no(prm, p, r, b, pl, br, g, x):
    return False


def _route(prm, p, r, b, pl, br, g, s, roll, coord_only):
    return -1


def _purity(prm, p, r, b, pl, br, g):
    return -1


def _swap(prm, p, r, b, pl, br, g, c):
    return -1


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "move",
            (*_ARGS, "die"),
            _I(*_TYPES, _I),
            _move,
            "the square to end the move on, among those the die reaches",
        ),
        Decision(
            "ship",
            (*_ARGS, "cost"),
            _B(*_TYPES, _I),
            _no,
            "ship the whole cargo now for `cost` points (at a moon, or the autonomous hauler)",
        ),
        Decision(
            "branch",
            (*_ARGS, "s"),
            _B(*_TYPES, _I),
            _no,
            "open a branch at station s",
        ),
        Decision(
            "dice",
            (*_ARGS, "s"),
            _B(*_TYPES, _I),
            _no,
            "roll the coordinated dice (a route ending at another branch) rather than one die",
        ),
        Decision(
            "route",
            (*_ARGS, "s", "roll", "coord_only"),
            _I(*_TYPES, _I, _I, _B),
            _route,
            "the route row (b.route_ptr[s] up to b.route_ptr[s + 1]) a harvest at s follows",
        ),
        Decision(
            "purity",
            _ARGS,
            _I(*_TYPES),
            _purity,
            "the colour (0-2, one it holds) of the extra cards of station result 7",
        ),
        Decision(
            "swap",
            (*_ARGS, "c"),
            _I(*_TYPES, _I),
            _swap,
            "with a full hold, the colour to discard for a card of colour c (-1: refuse it)",
        ),
    ),
    "docs/policies.md#pedruscos-del-espacio",
)
