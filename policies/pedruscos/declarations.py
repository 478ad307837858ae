"""Pedruscos del Espacio's policies: their ids, parameters and the search's rollouts."""

from __future__ import annotations

import dataclasses

import numpy as np

from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.search.tree import mcts_policy

RANDOM, HAULER, BUILDER, LOOKAHEAD, MCTS, RACER = 0, 1, 2, 3, 4, 5

_SHIP_AT = PolicyParam(
    "ship_at", 8.0, 0.0, 60.0, "cargo value at which it ships (or a full hold)", integer=True
)

POLICIES: dict[str, PolicyDef] = {
    "random": PolicyDef("random", RANDOM, "a uniformly random legal choice at every decision"),
    "hauler": PolicyDef(
        "hauler",
        HAULER,
        "collects the most valuable ore it can reach, heads for a moon and ships once the load "
        "pays; never opens a branch",
        (_SHIP_AT,),
    ),
    "builder": PolicyDef(
        "builder",
        BUILDER,
        "opens branches as soon as it can pay for them, goes back to its stations to harvest "
        "along the best route, ships like the hauler",
        (
            _SHIP_AT,
            PolicyParam(
                "reserve", 0.0, 0.0, 50.0, "points it keeps after paying for a branch", integer=True
            ),
            PolicyParam("max_branches", 6.0, 0.0, 6.0, "branches it wants", integer=True),
        ),
    ),
    "lookahead": PolicyDef(
        "lookahead",
        LOOKAHEAD,
        "values every square the rolled die reaches by expected points (cards, shipments, "
        "harvests, the station table's expectation) plus the best square of the next roll",
        (
            PolicyParam(
                "card_weight", 0.7, 0.0, 1.0, "points a card aboard is worth per ore value"
            ),
            PolicyParam(
                "branch_worth",
                10.0,
                0.0,
                100.0,
                "points a branch brings at the start when all its harvests roll two dice (a "
                "station is worth its share of that: its routes, its partner branches)",
            ),
            PolicyParam("turn_worth", 2.0, 0.0, 20.0, "points a turn is worth (result 6)"),
            PolicyParam("repair_cost", 4.0, 0.0, 50.0, "points result 8 costs in lost turns"),
            PolicyParam("next_weight", 0.5, 0.0, 1.0, "weight of the next roll's best square"),
        ),
    ),
}


# The lookahead at 2 players builds branches that do not pay back in a race to 50 (findings in
# docs/rules/pedruscos.md); the search's guide and rollouts are better off without them.
POLICIES["racer"] = PolicyDef(
    "racer",
    RACER,
    "the lookahead that never opens a branch (branch_worth 0): a pure race of collecting and "
    "shipping; the search player's default guide",
    tuple(
        dataclasses.replace(q, default=0.0) if q.name == "branch_worth" else q
        for q in POLICIES["lookahead"].params
    ),
)
ROLLOUT_NAMES = ("random", "hauler", "builder", "lookahead", "racer")
_SEARCH = mcts_policy(
    MCTS, ROLLOUT_NAMES, "racer", "racer", 800, unit="rounds", horizon=2, opponents="racer",
    searches="it searches the end square of every move together with what landing there does "
    "(ship at a moon, open a branch at a station); the hauler's offer, a harvest's dice and "
    "route, the purity colour and swaps are its guide policy's",
)  # fmt: skip
# Measured against lookahead at 2 and 4 players (docs/rules/pedruscos.md): two rounds of racer
# play then the fitted evaluation win; the root's halving takes the guide's best
# 1 + 0.3 * sqrt(playouts) options (9 at 800), and the answer leaves the guide's first option
# only for one clearly better (settle 2): two searches then agree; bias 5 weighs the guide's
# choice below the root with opponents=tree. A game that ends within the horizon scores the win
# alone (margin 0), on the evaluation's scale (a chance of winning): with the margin a win now
# scored below a likely win later.
_DEFAULTS = {"widen": 0.3, "bias": 5.0}
POLICIES["mcts"] = dataclasses.replace(
    _SEARCH,
    params=(
        *(dataclasses.replace(q, default=_DEFAULTS.get(q.name, q.default)) for q in _SEARCH.params),
        PolicyParam(
            "margin",
            0.0,
            0.0,
            1.0,
            "share of a simulation's result that is the final points margin over the best other "
            "seat (0.5 + margin / (2 * target), clipped to 0-1) rather than the win alone",
        ),  # fmt: skip
        PolicyParam(
            "settle",
            2.0,
            0.0,
            10.0,
            "the answer stays the guide's first option unless the best one beats it by more than "
            "this many standard errors of their paired results (0: the best mean alone)",
        ),
    ),
)
HAULER_P = POLICIES["hauler"].slots
BUILDER_P = POLICIES["builder"].slots
LOOK_P = POLICIES["lookahead"].slots
MCTS_P = POLICIES["mcts"].slots
ROLLOUTS = np.array([POLICIES[name].id for name in ROLLOUT_NAMES], dtype=np.int64)
# each rollout policy's default parameters, by rollout index
ROLLOUT_PRM = np.stack([POLICIES[name].defaults() for name in ROLLOUT_NAMES])
WIN = 1000.0  # value of reaching the target: above anything else
