"""The one-turn plan search of the racer, the blocker and the planner (:func:`search`): a
plan's layout (PLAN_*), the scratch the decisions work in, the weights a seat's parameters give
it, and the search player's option rows."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn
from simulator.games.cape_horn.board import K_FINISH, MAX_MOVES, N_ZONES
from simulator.games.cape_horn.rules import ADJ_ORTHOGONAL, FINISH_REACH

from .bridges import _chain, chain_field_within
from .declarations import PLANNER, PLANNER_P, RACER_P
from .values import landing_value, ts_count, ts_token

PLAN_N, PLAN_KIND, PLAN_A, PLAN_B, PLAN_CARDS = 0, 1, 2, 3, 4
MAX_CHAIN = 6  # cards one plan may lay (bridge cards to an unconnected landing space, then it)
PLAN_SIZE = PLAN_CARDS + 2 * MAX_CHAIN
# the search player's option rows: a plan, then its value in thousandths of a step (its ranking)
PLAN_VALUE = PLAN_SIZE
OPTION_SIZE = PLAN_SIZE + 1
VALUE_SCALE = 1000.0
MAX_RANDOM_MOVES = 64  # moves the random policy chooses among (the last slot: no move)


@njit(cache=True, _nrt=False)
def _offer(best, plan, v, kind, a, b, chain, n, every=None):
    if every is not None:  # the search player's options: every plan, the best one's row in [0, 1]
        i = every[0, 0] + 1
        if i < every.shape[0]:
            every[0, 0] = i
            every[i, PLAN_N] = n
            every[i, PLAN_KIND] = kind
            every[i, PLAN_A] = a
            every[i, PLAN_B] = b
            if every.shape[1] > PLAN_VALUE:
                every[i, PLAN_VALUE] = int(min(max(v, -1.0e12), 1.0e12) * VALUE_SCALE)
            for j in range(n):
                every[i, PLAN_CARDS + 2 * j] = chain[j, 0]
                every[i, PLAN_CARDS + 2 * j + 1] = chain[j, 1]
            if v > best[0]:
                every[0, 1] = i
    if v > best[0]:
        best[0] = v
        plan[PLAN_N] = n
        plan[PLAN_KIND] = kind
        plan[PLAN_A] = a
        plan[PLAN_B] = b
        for i in range(n):
            plan[PLAN_CARDS + 2 * i] = chain[i, 0]
            plan[PLAN_CARDS + 2 * i + 1] = chain[i, 1]


@njit(cache=True, _nrt=False)
def _touches_with(B, r, card, c, extra):
    if turn.touches_card(B, r, card, c):
        return True
    if extra < 0:
        return False
    for i in range(8):
        if B.neigh[c, i] == extra and (r.adjacency != ADJ_ORTHOGONAL or B.orth[c, i] == 1):
            return True
    return False


PlanScratch = namedtuple(
    "PlanScratch", "plan best weights chain dist parent queue wanted left work moves"
)
"""What the decisions work in, made once (:func:`new_plan_scratch`) and handed down, so that a
decision allocates nothing and runs without the runtime."""


@njit(cache=True)
def new_plan_scratch(n_cells: int, n_designs: int) -> PlanScratch:
    """Scratch for a board of ``n_cells`` spaces and ``n_designs`` card designs: a plan
    (PLAN_*), its value, the weights, a chain of cards, the chain field (:func:`chain_field`),
    its queue and the spaces the search wants from it, cards left in hand, a board to try cards
    on, and the random policy's moves."""
    return PlanScratch(
        np.zeros(PLAN_SIZE, np.int64),
        np.zeros(1),
        np.zeros(3),
        np.zeros((MAX_CHAIN, 2), np.int64),
        np.zeros(n_cells, np.int64),
        np.zeros(n_cells, np.int64),
        np.zeros(n_cells, np.int64),
        np.zeros(MAX_MOVES, np.int64),
        np.zeros(n_designs, np.int64),
        np.zeros(n_cells, np.int64),
        np.zeros((MAX_RANDOM_MOVES, 3), np.int64),
    )


@njit(cache=True)
def search(B, r, card, ship, pl, hand, g, p, allow_place, allow_ignore, allow_twice, prm_w, plan,
           every=None):  # fmt: skip
    """Best turn for ``p`` by one-turn lookahead: the cards to lay (a landing card, with bridge
    cards when its space touches no card yet), the move, 'ignorar' or 'mover dos veces'. Writes
    ``plan`` (PLAN_*) and returns its value. ``prm_w`` = (next, sail point, card) weights.
    ``every`` (the search player's options), when given: every plan considered as rows 1.. in the
    PLAN_* layout (with the plan's value in thousandths at PLAN_VALUE when the rows have room),
    their number in ``every[0, 0]`` and the best one's row in ``every[0, 1]``."""
    scratch = new_plan_scratch(card.shape[0], hand.shape[1])
    v = search_within(B, r, card, ship, pl, hand, g, p, allow_place, allow_ignore, allow_twice,
                      prm_w, scratch, every)  # fmt: skip
    plan[:] = scratch.plan
    return v


@njit(cache=True, _nrt=False)
def search_within(B, r, card, ship, pl, hand, g, p, allow_place, allow_ignore, allow_twice, prm_w,
                  scratch, every=None):  # fmt: skip
    """:func:`search` in ``scratch`` (:func:`new_plan_scratch`), its plan in ``scratch.plan``."""
    if every is not None:
        every[0, 0] = 0
        every[0, 1] = 0
    weights = (prm_w[0], prm_w[1], prm_w[2])  # next move, sail point, card in hand
    # board arrays as locals: compiled code then keeps them in registers (reading them through
    # B in the inner loops made the search several times slower)
    rem, target, n_moves, kind, next_low = B.rem, B.target, B.n_moves, B.kind, B.next_low
    plan, best, chain, dist, parent, left = (
        scratch.plan, scratch.best, scratch.chain, scratch.dist, scratch.parent, scratch.left
    )  # fmt: skip
    for i in range(plan.shape[0]):
        plan[i] = 0
    best[0] = -1.0e18
    s = ship[p]
    sp = pl[p, S.P_SP]
    hn = pl[p, S.P_HAND]
    ts = S.token_index(pl, p)
    nd = hand.shape[1]
    d0 = card[s]
    if allow_place:
        # the field is read only at the empty spaces the card under the ship leads to: it
        # stops once it has those
        wanted = scratch.wanted
        n_wanted = 0
        if d0 >= 0:
            for k in range(n_moves[d0]):
                t = target[s, d0, k]
                if t >= 0 and card[t] < 0 and n_wanted < wanted.shape[0]:
                    wanted[n_wanted] = t
                    n_wanted += 1
        depth = max(1, min(hn, MAX_CHAIN))
        chain_field_within(B, r, card, dist, parent, depth, scratch.queue, wanted, n_wanted)
    sp_none = min(sp + r.no_move_gain, r.max_sail_points)
    v = landing_value(rem, next_low, kind, r, ts, s, card[s], sp_none, hn, weights)
    _offer(best, plan, v, S.MV_NONE, 0, 0, chain, 0, every)
    can_twice = allow_twice and sp >= r.twice_cost
    if d0 >= 0:
        for k in range(n_moves[d0]):
            t = target[s, d0, k]
            if t < 0 or (not S.is_station(B, t) and S.ship_at(ship, t, p) >= 0):
                continue
            reach_fin = r.finish_mode == FINISH_REACH and kind[t] == K_FINISH
            ts1 = ts_token(B, g, ts, t)
            if card[t] >= 0 or reach_fin:
                v = landing_value(rem, next_low, kind, r, ts1, t, card[t], sp, hn, weights)
                _offer(best, plan, v, S.MV_NORMAL, k, 0, chain, 0, every)
                if can_twice and card[t] >= 0:
                    _twice(B, r, card, ship, hand, g, p, ts, ts1, t, card[t], -1, k, sp, hn,
                           allow_place, prm_w, best, plan, chain, every)  # fmt: skip
            elif allow_place and dist[t] <= min(hn, MAX_CHAIN):
                need = dist[t]
                for d in range(nd):
                    if hand[p, d] > 0 and _chain(hand, p, t, d, need, parent, chain, left):
                        v = landing_value(rem, next_low, kind, r, ts1, t, d, sp, hn - need, weights)
                        _offer(best, plan, v, S.MV_NORMAL, k, 0, chain, need, every)
                        if can_twice and need == 1:
                            _twice(B, r, card, ship, hand, g, p, ts, ts1, t, d, d, k, sp, hn - 1,
                                   allow_place, prm_w, best, plan, chain, every)  # fmt: skip
    cost = turn.ignore_cost(B, r, card, ship, p)
    if (allow_ignore or turn.all_off_board(B, card, s)) and sp >= cost:
        for i in range(8):
            t = B.neigh[s, i]
            if t < 0 or (not S.is_station(B, t) and S.ship_at(ship, t, p) >= 0):
                continue
            ts1 = ts_token(B, g, ts, t)
            if card[t] >= 0 or (r.finish_mode == FINISH_REACH and kind[t] == K_FINISH):
                v = landing_value(rem, next_low, kind, r, ts1, t, card[t], sp - cost, hn, weights)
                _offer(best, plan, v, S.MV_IGNORE, t, 0, chain, 0, every)
            elif allow_place and turn.touches_card(B, r, card, t):  # an empty space
                for d in range(nd):
                    if hand[p, d] > 0:
                        chain[0, 0] = d
                        chain[0, 1] = t
                        v = landing_value(
                            rem, next_low, kind, r, ts1, t, d, sp - cost, hn - 1, weights
                        )
                        _offer(best, plan, v, S.MV_IGNORE, t, 0, chain, 1, every)
    return best[0]


@njit(cache=True, _nrt=False)
def _twice(B, r, card, ship, hand, g, p, ts0, ts1, t1, d1, placed, k1, sp, hn, allow_place, prm_w,
           best, plan, chain, every=None):  # fmt: skip
    """Second moves of 'mover dos veces' after landing on ``t1`` with card ``d1`` under it
    (``placed`` = d1 when the plan lays it, else -1)."""
    weights = (prm_w[0], prm_w[1], prm_w[2])  # next move, sail point, card in hand
    rem, target, n_moves, kind, next_low = B.rem, B.target, B.n_moves, B.kind, B.next_low
    if r.token_on_first_of_twice:
        ts = ts1
        n = ts_count(ts)
        if (r.three_token_victory and n == N_ZONES) or (
            kind[t1] == K_FINISH and n >= r.finish_tokens
        ):
            return  # the first move already wins: the plain move was offered
    else:
        ts = ts0
    sp2 = sp - r.twice_cost
    nplace = 1 if placed >= 0 else 0
    chain[0, 0] = placed
    chain[0, 1] = t1
    for k2 in range(n_moves[d1]):
        t2 = target[t1, d1, k2]
        if t2 < 0 or t2 == t1 or (not S.is_station(B, t2) and S.ship_at(ship, t2, p) >= 0):
            continue
        ts2 = ts_token(B, g, ts, t2)
        if card[t2] >= 0 or (r.finish_mode == FINISH_REACH and kind[t2] == K_FINISH):
            v = landing_value(rem, next_low, kind, r, ts2, t2, card[t2], sp2, hn, weights)
            _offer(best, plan, v, S.MV_TWICE, k1, k2, chain, nplace, every)
        elif (
            allow_place
            and S.holds_cards(B, t2)
            and _touches_with(B, r, card, t2, t1 if placed >= 0 else -1)
        ):
            for d2 in range(hand.shape[1]):
                left = hand[p, d2] - (1 if d2 == placed else 0)
                if left > 0:
                    chain[nplace, 0] = d2
                    chain[nplace, 1] = t2
                    v = landing_value(rem, next_low, kind, r, ts2, t2, d2, sp2, hn - 1, weights)
                    _offer(best, plan, v, S.MV_TWICE, k1, k2, chain, nplace + 1, every)


@njit(cache=True)
def plan_weights(pid, prm, p):
    """The seat's (next move, sail point, card in hand) weights of :func:`search`."""
    w = np.zeros(3)
    plan_weights_into(pid, prm, p, w)
    return w


@njit(cache=True, _nrt=False)
def plan_weights_into(pid, prm, p, w) -> None:
    if pid == PLANNER:
        w[0] = prm[p, PLANNER_P.next_weight]
        w[1] = prm[p, PLANNER_P.sp_value]
        w[2] = prm[p, PLANNER_P.card_value]
    else:
        w[0] = prm[p, RACER_P.next_weight]
        w[1] = prm[p, RACER_P.sp_value]
        w[2] = prm[p, RACER_P.card_value]
