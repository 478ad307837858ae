"""Cape Horn's policies: their ids, parameters and the search player's rollouts."""

from __future__ import annotations

import numpy as np

from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.search.tree import mcts_policy

RANDOM, RACER, BLOCKER, PLANNER, MCTS = 0, 1, 2, 3, 4
WIN = 1.0e9

_COMMON = (
    PolicyParam("next_weight", 0.5, 0.0, 5.0, "weight of the steps the landing card promises next"),
    PolicyParam("sp_value", 0.1, 0.0, 5.0, "steps one sail point is worth (spending threshold)"),
    PolicyParam("card_value", 0.1, 0.0, 5.0, "steps one card in hand is worth"),
    PolicyParam(
        "keep_cards", 2.0, 0.0, 6.0, "cards it buys up to at the end of a turn", integer=True
    ),
    PolicyParam(
        "reserve", 0.0, 0.0, 8.0, "sail points it never spends on buying cards", integer=True
    ),
)

POLICIES: dict[str, PolicyDef] = {
    "random": PolicyDef(
        "random",
        RANDOM,
        "uniform at every decision: each time a random legal card (or stop, even odds), a "
        "uniformly random legal move among all moves and special moves, a random purchase",
    ),
    "racer": PolicyDef(
        "racer",
        RACER,
        "lays the card it lands on and makes the move (or 'ignorar') that brings its ship "
        "closest to winning; never moves twice",
        _COMMON,
    ),
    "blocker": PolicyDef(
        "blocker",
        BLOCKER,
        "as racer, and lays its backward winds on the empty spaces the perceived leader's card "
        "would move it forward to (covering one when it lays nothing else)",
        _COMMON
        + (
            PolicyParam(
                "margin",
                1.0,
                -20.0,
                20.0,
                "blocks a rival whose steps left are below own + this",
                integer=True,
            ),
        ),
    ),
    "planner": PolicyDef(
        "planner",
        PLANNER,
        "one-turn lookahead over the cards it can lay (up to two), every move, 'ignorar' and "
        "'mover dos veces', sail points valued as steps (its budget)",
        (
            PolicyParam("next_weight", 0.3, 0.0, 5.0, "weight of the steps the landing promises"),
            PolicyParam("sp_value", 0.1, 0.0, 5.0, "steps one sail point is worth"),
            PolicyParam("card_value", 0.1, 0.0, 5.0, "steps one card in hand is worth"),
            PolicyParam(
                "keep_cards",
                5.0,
                0.0,
                6.0,
                "cards it buys up to at the end of a turn",
                integer=True,
            ),
            PolicyParam(
                "reserve",
                0.0,
                0.0,
                8.0,
                "sail points it never spends on buying cards",
                integer=True,
            ),
            PolicyParam(
                "margin",
                1.0,
                -20.0,
                20.0,
                "blocks like blocker when a rival's steps left are below own + this (-20: never)",
                integer=True,
            ),
        ),
    ),
}


ROLLOUT_NAMES = ("random", "racer", "blocker", "planner")
MCTS_PLAYOUTS = 200  # the default budget, at which a simulation plays ``horizon`` rounds
POLICIES["mcts"] = mcts_policy(
    MCTS, ROLLOUT_NAMES, "planner", "planner", MCTS_PLAYOUTS,
    "searched: the move with the cards laid for it (landing and bridge cards), then one extra "
    "card (the guide's block; with opponents=tree a block or a cover, every seat's turn in the "
    "tree); buying is left to rollout",
    widen=0.5, horizon=3, opponents="planner",
    unit=f"rounds at {MCTS_PLAYOUTS} playouts (times the square root of playouts / "
    f"{MCTS_PLAYOUTS} at another budget, rounded, at least 1)",
)  # fmt: skip
MCTS_P = POLICIES["mcts"].slots
ROLLOUTS = np.array([POLICIES[name].id for name in ROLLOUT_NAMES], dtype=np.int64)
# each rollout policy's default parameters, by rollout index
ROLLOUT_PRM = np.stack([POLICIES[name].defaults() for name in ROLLOUT_NAMES])
RACER_P = POLICIES["racer"].slots
BLOCKER_P = POLICIES["blocker"].slots
PLANNER_P = POLICIES["planner"].slots
