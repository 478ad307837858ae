"""Pedruscos del Espacio policies: every decision of the game, dispatched on the seat's policy id.

Decisions (compiled functions branching on ``pid``; ``prm`` is the seat's parameter row):

- :func:`decide_move`: which reachable square to end the move on, for the rolled die;
- :func:`decide_ship`: ship the whole cargo now (at a moon, or with the autonomous hauler);
- :func:`decide_branch`: open a branch at the station landed on;
- :func:`decide_dice`: roll the coordinated dice (committing to a route that ends at another
  branch) or one die, for a harvest;
- :func:`decide_route`: the route a harvest follows (``roll`` 0: before the dice);
- :func:`decide_purity`: the colour of the extra cards of result 7;
- :func:`decide_swap`: with a full hold, which colour to discard for a new card (-1: refuse it).

The decisions that need scratch (move, branch, dice, route) have a ``_within`` form that takes
it (:func:`new_move_scratch`) and allocates nothing: the engine's turns and the search's
simulations hand one down, and a simulation then runs without the runtime.

``mcts`` is the shared search (``simulator.search.tree``) over the game's forward model
(``simulator.games.pedruscos.forward``): the engine calls it for the end square and what landing
there does (ship, open a branch), never :func:`decide_move`; the seat's other decisions are its
``guide`` policy's.

One module per job: ``declarations`` (the policies, their parameters, the search's rollouts),
``values`` (what a card, a shipment, a harvest, an event, a square or a branch is worth, with the
scratch and the station values' memo they share), ``moves`` (the move decision) and this one (the
other decisions).

The engine checks legality again, so a policy can only waste its own chances, never break a
rule. Values are in points: a card aboard is worth its ore value times ``card_weight`` (it still
has to reach a moon), a shipment its value minus its cost.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import ASTEROID

from .declarations import (
    BUILDER,
    HAULER,
    HAULER_P,
    LOOK_P,
    LOOKAHEAD,
    MCTS,
    MCTS_P,
    POLICIES,
    RACER,
    RANDOM,
    ROLLOUT_PRM,
    ROLLOUTS,
)
from .moves import (
    builder_builds,
    decide_move,
    decide_move_within,
    end_scores,
    end_scores_within,
    new_move_scratch,
    next_classes,
    wants_to_ship,
)
from .values import (
    M_STATION,
    MEMO_SLOTS,
    N_VALUES,
    V_MOON,
    V_PLANET,
    V_STATION,
    best_route_of,
    branch_value,
    branch_value_within,
    event_value,
    harvest_value,
    landing_values,
    landing_values_within,
    memo_row,
    new_work,
    route_expectation_within,
    route_prefix,
    shipment_gain,
    station_prefixes,
    value_class,
)

# What the engine, the forward model, designers' policy files and the tests use.
__all__ = [
    "_weight",
    "ASTEROID",
    "branch_value",
    "decide_branch",
    "decide_branch_within",
    "decide_dice",
    "decide_dice_within",
    "decide_move",
    "decide_move_within",
    "decide_purity",
    "decide_route",
    "decide_route_within",
    "decide_ship",
    "decide_swap",
    "end_scores",
    "end_scores_within",
    "event_value",
    "harvest_value",
    "HAULER",
    "landing_values",
    "landing_values_within",
    "LOOK_P",
    "LOOKAHEAD",
    "M_STATION",
    "MCTS",
    "MCTS_P",
    "memo_row",
    "MEMO_SLOTS",
    "N_VALUES",
    "new_move_scratch",
    "new_work",
    "next_classes",
    "POLICIES",
    "RANDOM",
    "ROLLOUT_PRM",
    "ROLLOUTS",
    "V_MOON",
    "V_PLANET",
    "V_STATION",
    "value_class",
]


# -- the other decisions --------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def decide_ship(pid, prm, p, r, b, pl, br, g, cost) -> bool:
    if pid == RANDOM:
        return np.random.randint(0, 2) == 1
    if pid == LOOKAHEAD or pid == RACER:
        return shipment_gain(r, pl, g, p, cost, prm[LOOK_P.card_weight]) > 0
    return wants_to_ship(r, pl, g, p, prm[HAULER_P.ship_at], cost)


@njit(cache=True)
def decide_branch(pid, prm, p, r, b, pl, br, g, s) -> bool:
    return decide_branch_within(pid, prm, p, r, b, pl, br, g, s, new_work(b))


@njit(cache=True, _nrt=False)
def decide_branch_within(pid, prm, p, r, b, pl, br, g, s, work) -> bool:
    """:func:`decide_branch` in ``work`` (:func:`new_work`): allocating nothing, it runs in a
    simulation compiled without the runtime (as do the ``_within`` forms below)."""
    if pid == RANDOM:
        return np.random.randint(0, 2) == 1
    if pid == BUILDER:
        return builder_builds(prm, p, r, pl, br)
    if pid == LOOKAHEAD or pid == RACER:
        return branch_value_within(r, b, pl, br, g, p, s, prm, work) > r.branch_cost
    return False


@njit(cache=True, _nrt=False)
def _weight(pid, prm) -> float:
    return prm[LOOK_P.card_weight] if pid == LOOKAHEAD or pid == RACER else 1.0


@njit(cache=True)
def decide_dice(pid, prm, p, r, b, pl, br, g, s) -> bool:
    return decide_dice_within(pid, prm, p, r, b, pl, br, g, s, new_work(b))


@njit(cache=True, _nrt=False)
def decide_dice_within(pid, prm, p, r, b, pl, br, g, s, work) -> bool:
    if pid == RANDOM:
        return np.random.randint(0, 2) == 1
    station_prefixes(r, b, pl, g, p, s, _weight(pid, prm), work)
    one = best_route_of(b, br, g, p, s, r.harvest_dice, False, work)
    two = best_route_of(b, br, g, p, s, r.coordinated_dice, True, work)
    return two > one


@njit(cache=True)
def decide_route(pid, prm, p, r, b, pl, br, g, s, roll, coord_only) -> int:
    return decide_route_within(pid, prm, p, r, b, pl, br, g, s, roll, coord_only, new_work(b))


@njit(cache=True, _nrt=False)
def decide_route_within(pid, prm, p, r, b, pl, br, g, s, roll, coord_only, work) -> int:
    lo = b.route_ptr[s]
    hi = b.route_ptr[s + 1]
    if pid == RANDOM:
        for _ in range(100):
            i = np.random.randint(lo, hi)
            if not coord_only or S.coordinates(br, g, p, b.route_end[i]):
                return i
        return lo
    w = _weight(pid, prm)
    best = -1
    best_v = -1.0
    for i in range(lo, hi):
        if coord_only and not S.coordinates(br, g, p, b.route_end[i]):
            continue
        if roll == 0:
            v = route_expectation_within(r, b, pl, br, g, p, i, w, work)
        else:  # the cards the roll takes along the route, valued (room first, then swaps)
            route_prefix(r, b, pl, g, p, i, w, work, i)
            v = work[i, min(roll, b.route_len[i])]
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, _nrt=False)
def decide_purity(pid, prm, p, r, b, pl, br, g) -> int:
    if pid == RANDOM:
        return S.random_held_colour(pl, p)
    return S.dearest_held(pl, g, p)


@njit(cache=True, _nrt=False)
def decide_swap(pid, prm, p, r, b, pl, br, g, c) -> int:
    if pid == RANDOM:
        if np.random.randint(0, 2) == 0:
            return -1
        return S.random_held_colour(pl, p)
    cheap = S.cheapest_held(pl, g, p)
    if cheap >= 0 and g[S.G_VALUE + c] > g[S.G_VALUE + cheap]:
        return cheap
    return -1
