"""Cape Horn policies: the three decisions of a turn, dispatched on the seat's policy id.

- :func:`decide_place` (step 2): the wind cards to lay, in order, as (design, cell) rows;
- :func:`decide_move` (step 3): a move by the card, 'ignorar', 'mover dos veces' or no move;
- :func:`decide_buy` (step 4): how many cards to buy after the free draw.

Progress is measured with ``B.rem[tokens, cell]``: the king steps a ship still needs to win
(through the stations it may still use, then the finish line), so a policy compares positions by
one number. The engine checks every answer again, so a policy can only waste its own turn.

The engine decides in scratch made once (``decide_place_within``, ``decide_move_within``:
:func:`new_plan_scratch`), so a turn allocates nothing and runs without the runtime; the plain
``decide_*`` make their own scratch (a policy file may call them).

The search player ``mcts`` is the shared search (``simulator.search``) over Cape Horn's forward
model (``simulator.cape_horn.forward``); the engine calls it, never the ``decide_*`` here.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.cape_horn import state as S
from simulator.cape_horn import turn
from simulator.cape_horn.board import K_FINISH, MAX_MOVES, N_ZONES
from simulator.cape_horn.rules import ADJ_ORTHOGONAL, FINISH_REACH

from .bridges import FAR, _chain, chain_field, chain_field_within
from .declarations import (
    BLOCKER,
    BLOCKER_P,
    MCTS,
    MCTS_P,
    MCTS_PLAYOUTS,
    PLANNER,
    PLANNER_P,
    POLICIES,
    RACER,
    RACER_P,
    RANDOM,
    ROLLOUT_NAMES,
    ROLLOUT_PRM,
    ROLLOUTS,
    WIN,
)
from .values import landing_value, potential, potential_of, ts_count, ts_token

# What the engine, the forward model, designers' policy files and the tests use.
__all__ = [
    "block_leader",
    "block_leader_within",
    "BLOCKER",
    "BLOCKER_P",
    "chain_field",
    "chain_field_within",
    "decide_buy",
    "decide_move",
    "decide_move_within",
    "decide_place",
    "decide_place_within",
    "decide_token",
    "FAR",
    "landing_value",
    "MAX_CHAIN",
    "MAX_RANDOM_MOVES",
    "MCTS",
    "MCTS_P",
    "MCTS_PLAYOUTS",
    "new_plan_scratch",
    "OPTION_SIZE",
    "PLAN_A",
    "PLAN_B",
    "PLAN_CARDS",
    "PLAN_KIND",
    "PLAN_N",
    "PLAN_SIZE",
    "PLAN_VALUE",
    "plan_weights",
    "plan_weights_into",
    "PLANNER",
    "PLANNER_P",
    "PlanScratch",
    "POLICIES",
    "potential",
    "potential_of",
    "RACER",
    "RACER_P",
    "RANDOM",
    "ROLLOUT_NAMES",
    "ROLLOUT_PRM",
    "ROLLOUTS",
    "search",
    "search_within",
    "ts_count",
    "ts_token",
    "VALUE_SCALE",
    "WIN",
]


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


# -- step 2: laying cards -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _random_place(B, r, card, ship, hand, p, buf, work, left):
    """``work``, ``left``: scratch for the board and the hand as the cards are laid."""
    for c in range(card.shape[0]):
        work[c] = card[c]
    for d in range(left.shape[0]):
        left[d] = hand[p, d]
    n = 0
    nc = card.shape[0]
    nd = hand.shape[1]
    while np.random.random() < 0.5 and left.sum() > 0:
        # candidates: every (design, empty space) now legal, plus covers as the sole card
        count = 0
        for c in range(nc):
            if turn.can_place_empty(B, r, work, c):
                count += 1
            elif n == 0 and work[c] >= 0 and S.holds_cards(B, c):
                if turn.can_place(B, r, work, ship, hand, p, _first(left), c, 1):
                    count += 1
        if count == 0:
            break
        pick = np.random.randint(count)
        cell = -1
        cover = False
        for c in range(nc):
            if turn.can_place_empty(B, r, work, c):
                if pick == 0:
                    cell = c
                    break
                pick -= 1
            elif n == 0 and work[c] >= 0 and S.holds_cards(B, c):
                if turn.can_place(B, r, work, ship, hand, p, _first(left), c, 1):
                    if pick == 0:
                        cell = c
                        cover = True
                        break
                    pick -= 1
        k = np.random.randint(left.sum())
        d = 0
        for d in range(nd):
            if k < left[d]:
                break
            k -= left[d]
        buf[n, 0] = d
        buf[n, 1] = cell
        work[cell] = d
        left[d] -= 1
        n += 1
        if cover:
            break
    return n


@njit(cache=True, _nrt=False)
def _first(left):
    for d in range(left.shape[0]):
        if left[d] > 0:
            return d
    return -1


@njit(cache=True, _nrt=False)
def _leader(B, ship, pl, p):
    """The perceived leader: the rival with the fewest steps left (and those steps)."""
    q_best = -1
    v_best = 1.0e18
    for q in range(ship.shape[0]):
        if q != p:
            v = B.rem[S.token_index(pl, q), ship[q]]
            if v < v_best:
                v_best = v
                q_best = q
    return q_best, v_best


@njit(cache=True)
def block_leader(B, r, card, ship, pl, hand, p, margin, buf, n):
    """Blocker: backward cards on the empty spaces the leader's card would move it forward to."""
    left = np.empty(hand.shape[1], np.int64)
    work = np.empty(card.shape[0], np.int64)
    return block_leader_within(B, r, card, ship, pl, hand, p, margin, buf, n, left, work)


@njit(cache=True, _nrt=False)
def block_leader_within(B, r, card, ship, pl, hand, p, margin, buf, n, left, work):
    """:func:`block_leader` with scratch for the hand (``left``) and the board (``work``)."""
    q, vq = _leader(B, ship, pl, p)
    if q < 0 or vq > B.rem[S.token_index(pl, p), ship[p]] + margin:
        return n
    for d in range(left.shape[0]):
        left[d] = hand[p, d]
    for c in range(card.shape[0]):
        work[c] = card[c]
    for i in range(n):
        left[buf[i, 0]] -= 1
        work[buf[i, 1]] = buf[i, 0]
    sq = ship[q]
    dq = card[sq]
    if dq < 0:
        return n
    tq = S.token_index(pl, q)
    # forward targets of the leader, best first is not needed: every one is blocked if possible
    for k in range(B.n_moves[dq]):
        t = B.target[sq, dq, k]
        if t < 0 or B.rem[tq, t] >= B.rem[tq, sq]:
            continue
        back = -1
        for d in range(hand.shape[1]):
            if left[d] > 0 and B.backward[d] == 1:
                back = d
                break
        if back < 0:
            return n
        if turn.can_place_empty(B, r, work, t):
            buf[n, 0] = back
            buf[n, 1] = t
            work[t] = back
            left[back] -= 1
            n += 1
        elif n == 0 and work[t] >= 0 and turn.can_place(B, r, work, ship, hand, p, back, t, 1):
            buf[0, 0] = back
            buf[0, 1] = t
            return 1  # a cover must be the only card of the turn
    return n


@njit(cache=True)
def decide_place(pid, prm, p, B, r, card, ship, pl, hand, g, buf):
    """Cards ``p`` lays this turn, in order, as rows (design, cell) of ``buf``; returns how many."""
    scratch = new_plan_scratch(card.shape[0], hand.shape[1])
    return decide_place_within(pid, prm, p, B, r, card, ship, pl, hand, g, buf, scratch)


# inlined into the engine's turn (simulator/cape_horn/outside.py says why)
@njit(cache=True, _nrt=False, inline="always")
def decide_place_within(pid, prm, p, B, r, card, ship, pl, hand, g, buf, scratch):
    """:func:`decide_place` in ``scratch`` (:func:`new_plan_scratch`)."""
    if pid == RANDOM:
        return _random_place(B, r, card, ship, hand, p, buf, scratch.work, scratch.left)
    w = scratch.weights
    plan_weights_into(pid, prm, p, w)
    search_within(B, r, card, ship, pl, hand, g, p, True, True, pid == PLANNER, w, scratch)
    plan = scratch.plan
    n = plan[PLAN_N]
    for i in range(n):
        buf[i, 0] = plan[PLAN_CARDS + 2 * i]
        buf[i, 1] = plan[PLAN_CARDS + 2 * i + 1]
    left, work = scratch.left, scratch.work
    if pid == BLOCKER:
        margin = prm[p, BLOCKER_P.margin]
        n = block_leader_within(B, r, card, ship, pl, hand, p, margin, buf, n, left, work)
    elif pid == PLANNER:
        margin = prm[p, PLANNER_P.margin]
        n = block_leader_within(B, r, card, ship, pl, hand, p, margin, buf, n, left, work)
    return n


# -- step 3: the move -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _random_move(B, r, card, ship, pl, p, moves):
    """A uniform choice among the legal moves, listed in ``moves`` (MAX_RANDOM_MOVES rows of
    kind, a, b)."""
    s = ship[p]
    room = moves.shape[0] - 1  # the last row: no move
    n = 0
    d = card[s]
    if d >= 0:
        for k in range(B.n_moves[d]):
            if turn.legal_move(B, r, card, ship, pl, p, S.MV_NORMAL, k, 0):
                moves[n, 0] = S.MV_NORMAL
                moves[n, 1] = k
                moves[n, 2] = 0
                n += 1
            t1 = B.target[s, d, k]
            if t1 >= 0 and card[t1] >= 0:
                for k2 in range(B.n_moves[card[t1]]):
                    if n < room and turn.legal_move(B, r, card, ship, pl, p, S.MV_TWICE, k, k2):
                        moves[n, 0] = S.MV_TWICE
                        moves[n, 1] = k
                        moves[n, 2] = k2
                        n += 1
    for i in range(8):
        t = B.neigh[s, i]
        if n < room and t >= 0 and turn.legal_move(B, r, card, ship, pl, p, S.MV_IGNORE, t, 0):
            moves[n, 0] = S.MV_IGNORE
            moves[n, 1] = t
            moves[n, 2] = 0
            n += 1
    moves[n, 0] = S.MV_NONE
    moves[n, 1] = 0
    moves[n, 2] = 0
    n += 1
    i = np.random.randint(n)
    return moves[i, 0], moves[i, 1], moves[i, 2]


@njit(cache=True)
def decide_move(pid, prm, p, B, r, card, ship, pl, hand, g):
    """The move ``p`` makes: (kind, a, b) as in :mod:`simulator.cape_horn.state` (MV_*)."""
    scratch = new_plan_scratch(card.shape[0], hand.shape[1])
    return decide_move_within(pid, prm, p, B, r, card, ship, pl, hand, g, scratch)


# inlined into the engine's turn (simulator/cape_horn/outside.py says why)
@njit(cache=True, _nrt=False, inline="always")
def decide_move_within(pid, prm, p, B, r, card, ship, pl, hand, g, scratch):
    """:func:`decide_move` in ``scratch`` (:func:`new_plan_scratch`)."""
    if pid == RANDOM:
        return _random_move(B, r, card, ship, pl, p, scratch.moves)
    w = scratch.weights
    plan_weights_into(pid, prm, p, w)
    search_within(B, r, card, ship, pl, hand, g, p, False, True, pid == PLANNER, w, scratch)
    plan = scratch.plan
    return plan[PLAN_KIND], plan[PLAN_A], plan[PLAN_B]


@njit(cache=True, _nrt=False)
def decide_token(pid, prm, p, B, r, card, ship, pl, hand, g, c):
    """Does ``p`` take the station token when its ship stops on station ``c`` ("puede tomar")?
    Every built-in does: a token never stops a finish-line victory and the other victory needs
    one in each zone."""
    return True


# -- step 4: buying cards -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def decide_buy(pid, prm, p, B, r, card, ship, pl, hand, g):
    """Cards ``p`` buys after the free draw (the engine stops at the hand limit and the piles)."""
    sp = pl[p, S.P_SP]
    room = r.hand_max - pl[p, S.P_HAND]
    if r.buy_cost > 0:
        room = min(room, sp // r.buy_cost)
    if room <= 0:
        return 0
    if pid == RANDOM:
        return np.random.randint(room + 1)
    if pid == PLANNER:
        keep = int(prm[p, PLANNER_P.keep_cards])
        reserve = int(prm[p, PLANNER_P.reserve])
    else:
        keep = int(prm[p, RACER_P.keep_cards])
        reserve = int(prm[p, RACER_P.reserve])
    n = 0
    while n < room and pl[p, S.P_HAND] + n < keep and sp - (n + 1) * r.buy_cost >= reserve:
        n += 1
    return n
