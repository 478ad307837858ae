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

The search player ``mcts`` is the shared search (``simulator.search.tree``) over Cape Horn's forward
model (``simulator.games.cape_horn.forward``); the engine calls it, never the ``decide_*`` here.

One module per job: ``declarations`` (the policies, their parameters, the search player's
rollouts), ``values`` (the value of a position: the token state, what the card under a ship
promises, a landing), ``bridges`` (the chain field: the cards it takes to reach an empty space,
and the bridge cards laid on the way), ``plans`` (the one-turn plan search of the racer, blocker
and planner, with its plan layout, scratch and weights) and this one (the decisions: laying, with
the random policy's cards and the blocker's, the move, the token and buying).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn

from .bridges import FAR, chain_field, chain_field_within
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
from .plans import (
    MAX_CHAIN,
    MAX_RANDOM_MOVES,
    OPTION_SIZE,
    PLAN_A,
    PLAN_B,
    PLAN_CARDS,
    PLAN_KIND,
    PLAN_N,
    PLAN_SIZE,
    PLAN_VALUE,
    VALUE_SCALE,
    PlanScratch,
    new_plan_scratch,
    plan_weights,
    plan_weights_into,
    search,
    search_within,
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


# inlined into the engine's turn (simulator/games/cape_horn/outside.py says why)
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
    """The move ``p`` makes: (kind, a, b) as in :mod:`simulator.games.cape_horn.state` (MV_*)."""
    scratch = new_plan_scratch(card.shape[0], hand.shape[1])
    return decide_move_within(pid, prm, p, B, r, card, ship, pl, hand, g, scratch)


# inlined into the engine's turn (simulator/games/cape_horn/outside.py says why)
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
