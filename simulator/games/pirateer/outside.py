"""Pirateer's decision for a designer's own policies (``--policy-file``; docs/policies.md).

One decision per turn, as for the built-in policies: the index of the move to play among the
``n`` legal moves of the roll. An answer out of range is clamped to the nearest legal index.
"""

from __future__ import annotations

import numba
from numba import types

from simulator.contract.policy import Decision, OutsideDecisions

from .rules import Rules

_I = types.int64
_A = types.int64[::1]

X_MOVE = 0  # index of the decision in the engine's ``outside`` tuple


def _move(prm, r, ships, owner, occ, g, p, moves, n):
    return 0


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "move",
            ("prm", "r", "ships", "owner", "occ", "g", "p", "moves", "n"),
            _I(
                types.float64[::1],  # prm: the seat's parameter row
                numba.typeof(Rules().to_engine()),  # r: rule values, r.name
                _A,  # ships: cell of each ship (state.py)
                _A,  # owner: seat of each fleet
                _A,  # occ: ship on each cell
                _A,  # g: game scalars
                _I,  # p: the seat to move
                types.int64[:, ::1],  # moves: the legal moves of the roll, rows 0..n-1
                _I,  # n: how many
            ),
            _move,
            "the index (0..n-1) of the legal move seat p plays",
        ),
    ),
    "docs/policies.md#pirateer",
)
