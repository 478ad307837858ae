"""Caza-Tesoros decisions for a designer's own policies (``--policy-file``; docs/policies.md).

The four decisions of ``policies.caza_tesoros`` without the policy id: each outside function gets
the seat's parameter row first. The engine checks legality again, so an outside policy can only
waste its own turn, never break a rule.
"""

from __future__ import annotations

from numba import types

from simulator.contract.policy import Decision, OutsideDecisions

_I = types.int64
_PRM = types.float64[::1]
_STATE = (
    types.int64[::1],  # r: rule values, r[S.R.name]
    types.float64[:, :, ::1],  # odds[level, dice, divers]: exact search odds
    types.float64,  # tmean: mean treasure value
    types.int64[:, ::1],  # pl: players (one row per colour)
    types.int64[:, :, ::1],  # sh: ships
    types.int64[:, ::1],  # cr: crosses
    types.int64[::1],  # g: game scalars
)
_STATE_ARGS = ("r", "odds", "tmean", "pl", "sh", "cr", "g")

# Index of each decision in the engine's ``outside`` tuple.
X_SHIP, X_BUY, X_BID, X_PURCHASE = 0, 1, 2, 3


def _ship(prm, p, s, r, odds, tmean, pl, sh, cr, g):
    return -1  # PASS


def _buy(prm, p, kind, price, r, odds, tmean, pl, sh, cr, g):
    return False


def _bid(prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g):
    return -1  # no bid


def _purchase(prm, p, r, odds, tmean, pl, sh, cr, g):
    return 0  # BUY_NOTHING


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "ship",
            ("prm", "p", "s", *_STATE_ARGS),
            _I(_PRM, _I, _I, *_STATE),
            _ship,
            "what ship s of colour p does today: a target cell to sail towards, SEARCH (-2) or "
            "PASS (-1)",
        ),
        Decision(
            "buy",
            ("prm", "p", "kind", "price", *_STATE_ARGS),
            types.boolean(_PRM, _I, _I, _I, *_STATE),
            _buy,
            "whether colour p buys the object card `kind` it just drew, at `price`",
        ),
        Decision(
            "bid",
            ("prm", "p", "kind", "start", "seller", *_STATE_ARGS),
            _I(_PRM, _I, _I, _I, _I, *_STATE),
            _bid,
            "the most colour p bids for card `kind` auctioned from `start` by `seller` "
            "(below `start`: no bid)",
        ),
        Decision(
            "purchase",
            ("prm", "p", *_STATE_ARGS),
            _I(_PRM, _I, *_STATE),
            _purchase,
            "BUY_CARD (1), BUY_SHIP (2) or BUY_NOTHING (0); asked again after every purchase",
        ),
    ),
    "docs/policies.md#caza-tesoros",
)
