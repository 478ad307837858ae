"""Cape Horn's forward model: what the shared search (``simulator.search.tree``) needs to look
ahead, and the turn a seat's policies decide (:func:`play_turn`, the engine's and the playout's).

Every step of a turn is a rule of :mod:`.turn`: the engine plays every turn with them, and so
does every simulation of the search, so a simulation cannot drift from the rules.

The position travels as one value, :class:`.state.State`. The search player
(:func:`choose_turn`) decides the move together with the cards laid for it (one option per plan
of the planner's one-turn search: the landing card, bridge cards, 'ignorar', 'mover dos veces',
no move), then one more card or none (the planner's block, a single block on a rival's forward
landing space, a cover, for itself or against a rival). Buying is left to the ``rollout``
policy. Each simulation deals what the deciding seat cannot see again (the other hands and the
order of the piles; :func:`redeal`), plays a root plan the halving picked, then the other seats'
turns with ``opponents`` (or in the tree) for the horizon's rounds (more with a larger
budget), and scores the position with the fitted evaluation of :mod:`.features` (or the
result, when the game ended). A pass that gains the seat nothing is answered in kind by a rival
stuck as well (:func:`answered_in_kind`), so two searches do not wait each other out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.cape_horn import (
    BLOCKER,
    BLOCKER_P,
    MCTS_P,
    MCTS_PLAYOUTS,
    OPTION_SIZE,
    PLAN_A,
    PLAN_B,
    PLAN_CARDS,
    PLAN_KIND,
    PLAN_N,
    PLAN_SIZE,
    PLAN_VALUE,
    PLANNER,
    PLANNER_P,
    RACER,
    ROLLOUT_PRM,
    ROLLOUTS,
    VALUE_SCALE,
    WIN,
    block_leader,
    decide_buy,
    plan_weights,
    potential,
    search,
    ts_token,
)
from simulator.contract.seed_bank import new_seed_bank, seed_paired
from simulator.search import tree as T

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import state as S
from .features import FEATURES, features
from .state import State, copy_state, new_state
from .turn import (
    EVENT_WIDTH,
    MAX_PLACE,
    TAKE_ALL,
    TAKE_END,
    TAKE_FIRST,
    buy_step,
    can_place,
    can_place_empty,
    draw_step,
    has_normal_move,
    lay_cards,
    move_and_draw,
    move_step,
    next_seat,
    sail,
    twice_target,
)

N_FEATURES = len(FEATURES)
MAX_OPTIONS = 512  # plans of one turn the search tells apart (the planner's search offers fewer)
MAX_EXTRA = 48  # extra-card options of one turn
EXTRA_ROW = 1 + 2 * MAX_PLACE  # an extra-card option: how many, then (design, cell) pairs
EXTRA_KEY = 1 << 40  # extra-card keys start here, so they never equal a plan's key
KEY_BASE = 64  # designs fit below this in a key


@njit(cache=True)
def redeal(st: State, p: int, pool, counts) -> None:
    """Deal again what seat ``p`` cannot see: the cards of the other hands and of the piles are
    shuffled among them, each hand keeping its size. The pool is rebuilt in design order before
    the shuffle, so the deal depends only on what ``p`` knows (its hand, the board, the sizes)."""
    hand, pl, g, deck = st.hand, st.pl, st.g, st.deck
    nd = hand.shape[1]
    counts[:] = 0
    for q in range(hand.shape[0]):
        if q != p:
            for d in range(nd):
                counts[d] += hand[q, d]
    for i in range(g[S.G_DECK_POS], g[S.G_DECK_N]):
        counts[deck[i]] += 1
    m = 0
    for d in range(nd):
        for _ in range(counts[d]):
            pool[m] = d
            m += 1
    np.random.shuffle(pool[:m])
    i = 0
    for q in range(hand.shape[0]):
        if q != p:
            hand[q, :] = 0
            for _ in range(pl[q, S.P_HAND]):
                hand[q, pool[i]] += 1
                i += 1
    for j in range(g[S.G_DECK_POS], g[S.G_DECK_N]):
        deck[j] = pool[i]
        i += 1


@njit(cache=True, _nrt=False)
def token_choice(ext, pid, prm, p, B, r, st: State, move, scratch) -> int:
    """The seat's answer to "puede tomar una ficha" for each station the ``move`` (kind, a, b)
    stops on (asked before the move, which nothing random separates from its stops): TAKE_FIRST
    and TAKE_END bits as :func:`.turn.make_move` reads them."""
    card, ship = st.card, st.ship
    kind, a, b = move
    take = TAKE_ALL
    s = ship[p]
    end = -1
    if kind == S.MV_TWICE:
        t1 = S.move_target(B, card, s, a)
        if t1 >= 0 and S.is_station(B, t1):
            if not X.token(ext, pid, prm, p, B, r, st, t1, scratch):
                take &= ~TAKE_FIRST
        end = twice_target(B, r, card, ship, p, a, b)
    elif kind == S.MV_NORMAL:
        end = S.move_target(B, card, s, a)
    elif kind == S.MV_IGNORE:
        end = a
    if end >= 0 and S.is_station(B, end):
        if not X.token(ext, pid, prm, p, B, r, st, end, scratch):
            take &= ~TAKE_END
    return take


@njit(cache=True, _nrt=False)
def play_turn(B, r, seats, p: int, st: State, buf, scratch, heat, rec, rec_n, ext=None) -> int:
    """One player's turn, steps 1 to 4, decided by the seat's policy (``seats``: policy ids and
    parameter rows; ``buf``: the placement buffer; ``scratch``: the decisions' scratch,
    ``outside.new_turn_scratch``; ``heat``: the per-cell counts of cards laid and ships
    blocked); returns the end reason (-1 while the game goes on)."""
    pids, prm = seats
    laid_heat, blocked_heat = heat
    pid = pids[p]
    sail(r, st, p, rec, rec_n)
    n = X.place(ext, pid, prm, p, B, r, st, buf, scratch)
    lay_cards(B, r, st, p, buf, min(n, buf.shape[0]), laid_heat, rec, rec_n)
    move = X.move(ext, pid, prm, p, B, r, st, scratch)
    take = token_choice(ext, pid, prm, p, B, r, st, move, scratch)
    reason = move_and_draw(B, r, st, p, move, blocked_heat, rec, rec_n, take)
    if reason >= 0:
        return reason
    nb = X.buy(ext, pid, prm, p, B, r, st, scratch)
    buy_step(r, st, p, nb, rec, rec_n)
    return -1


# -- the search player's options ------------------------------------------------------------------
@njit(cache=True)
def _laid_at(row, c: int) -> int:
    for i in range(row[PLAN_N]):
        if row[PLAN_CARDS + 2 * i + 1] == c:
            return row[PLAN_CARDS + 2 * i]
    return -1


@njit(cache=True)
def plan_cells(B, card, ship, p: int, row) -> tuple[int, int]:
    """Where a plan's move ends and, for 'mover dos veces', where it lands first (else -1)."""
    kind = row[PLAN_KIND]
    s = ship[p]
    if kind == S.MV_NONE:
        return s, -1
    if kind == S.MV_IGNORE:
        return row[PLAN_A], -1
    t1 = B.target[s, card[s], row[PLAN_A]]
    if kind == S.MV_NORMAL:
        return t1, -1
    d1 = card[t1] if card[t1] >= 0 else _laid_at(row, t1)
    if d1 < 0:
        return -1, t1
    return B.target[t1, d1, row[PLAN_B]], t1


@njit(cache=True)
def plan_key(B, card, ship, p: int, row) -> int:
    """A plan's key for the tree, the same in every simulation: the kind of move, where it ends
    (and lands first), the designs laid there; bridge cards do not count."""
    t, via = plan_cells(B, card, ship, p, row)
    dt = _laid_at(row, t) if t >= 0 else -1
    dv = _laid_at(row, via) if via >= 0 else -1
    nc = card.shape[0] + 1
    return (
        1 + (((row[PLAN_KIND] * nc + t + 1) * nc + via + 1) * KEY_BASE + dt + 1) * KEY_BASE + dv + 1
    )


@njit(cache=True)
def turn_options(B, r, st: State, q: int, w, opts, keys) -> int:
    """Seat ``q``'s plans (rows 1.. of ``opts``, the planner's best row in ``opts[0, 1]``) and
    their keys (``keys[i]`` for row i + 1); returns how many."""
    plan = np.zeros(PLAN_SIZE, np.int64)
    search(B, r, st.card, st.ship, st.pl, st.hand, st.g, q, True, True, True, w, plan, opts)
    n = opts[0, 0]
    for i in range(n):
        keys[i] = plan_key(B, st.card, st.ship, q, opts[i + 1])
    return n


@njit(cache=True)
def plan_to_buf(row, buf) -> int:
    n = row[PLAN_N]
    for i in range(n):
        buf[i, 0] = row[PLAN_CARDS + 2 * i]
        buf[i, 1] = row[PLAN_CARDS + 2 * i + 1]
    return n


@njit(cache=True)
def _add_extra(ex, keys, m: int, key: int, d: int, c: int) -> int:
    if m >= ex.shape[0]:
        return m
    for i in range(m):
        if keys[i] == key:
            return m
    ex[m, 0] = 1
    ex[m, 1] = d
    ex[m, 2] = c
    keys[m] = key
    return m + 1


@njit(cache=True)
def extra_options(B, r, st: State, q: int, buf, na: int, land: int, via: int, margin: float,
                  ex, keys) -> tuple[int, int]:  # fmt: skip
    """The extra card seat ``q`` may lay after the ``na`` cards of its plan (in ``buf``), whose
    move ends on ``land``: none (option 0), the planner's block (every forward landing space of
    the close leader), one card on a rival's forward landing space (the design that helps it
    least; covering its card when the plan lays nothing), or a cover for itself near ``land``
    (the design that promises most, when the plan lays nothing). Returns (options, the
    planner's choice)."""
    card, ship, pl, hand, g = st.card, st.ship, st.pl, st.hand, st.g
    rem, target, n_moves = B.rem, B.target, B.n_moves
    nd = hand.shape[1]
    work = card.copy()
    left = hand[q].copy()
    for i in range(na):
        work[buf[i, 1]] = buf[i, 0]
        left[buf[i, 0]] -= 1
    ex[0, 0] = 0
    keys[0] = EXTRA_KEY
    m = 1
    planner = 0
    tmp = buf.copy()
    nb = block_leader(B, r, card, ship, pl, hand, q, margin, tmp, na)
    if nb > na:  # its cards follow the plan's in tmp
        ex[m, 0] = min(nb - na, MAX_PLACE)
        for i in range(ex[m, 0]):
            ex[m, 1 + 2 * i] = tmp[na + i, 0]
            ex[m, 2 + 2 * i] = tmp[na + i, 1]
        keys[m] = EXTRA_KEY + 1
        planner = m
        m += 1
    sole = na == 0
    for o in range(ship.shape[0]):
        if o == q:
            continue
        so = ship[o]
        do = card[so]
        if do < 0:
            continue
        to = S.token_index(pl, o)
        for k in range(n_moves[do]):
            t = target[so, do, k]
            if t < 0 or t == land or t == via or rem[to, t] >= rem[to, so]:
                continue
            cover = work[t] >= 0
            if cover and not sole:
                continue
            if not cover and not can_place_empty(B, r, work, t):
                continue
            best = -1
            low = 1.0e18
            for d in range(nd):
                if left[d] > 0:
                    v = potential(rem, target, n_moves, to, t, d)
                    if v < low:
                        low = v
                        best = d
            if best < 0:
                continue
            if cover and (
                low >= potential(rem, target, n_moves, to, t, work[t])
                or not can_place(B, r, work, ship, hand, q, best, t, 1)
            ):
                continue
            m = _add_extra(ex, keys, m, EXTRA_KEY + 2 + t * KEY_BASE + best, best, t)
    if sole and land >= 0:
        ts = ts_token(B, g, S.token_index(pl, q), land)
        for i in range(8):
            c1 = B.neigh[land, i]
            if c1 < 0:
                continue
            for j in range(9):
                c = c1 if j == 8 else B.neigh[c1, j]
                if c < 0 or c == land or work[c] < 0 or S.ship_at(ship, c, -1) >= 0:
                    continue
                best = -1
                high = potential(rem, target, n_moves, ts, c, work[c]) + 0.5
                for d in range(nd):
                    if left[d] > 0:
                        v = potential(rem, target, n_moves, ts, c, d)
                        if v > high:
                            high = v
                            best = d
                if best >= 0 and can_place(B, r, work, ship, hand, q, best, c, 1):
                    m = _add_extra(ex, keys, m, EXTRA_KEY + 2 + c * KEY_BASE + best, best, c)
    return m, planner


@njit(cache=True)
def _append(buf, n: int, ex_row) -> int:
    for i in range(ex_row[0]):
        if n < buf.shape[0]:
            buf[n, 0] = ex_row[1 + 2 * i]
            buf[n, 1] = ex_row[2 + 2 * i]
            n += 1
    return n


@njit(cache=True)
def seat_rows(row, n_players: int):
    """One policy's parameter row for every seat (the engine's ``prm`` layout)."""
    out = np.empty((n_players, row.shape[0]), np.float64)
    for q in range(n_players):
        out[q] = row
    return out


@njit(cache=True)
def _margin(pid: int, prm) -> float:
    if pid == PLANNER:
        return prm[0, PLANNER_P.margin]
    if pid == BLOCKER:
        return prm[0, BLOCKER_P.margin]
    return -1.0e9  # racer and random never block


@njit(cache=True)
def play_on(B, r, seats, st: State, q: int, turns: int, buf, scratch, heat, rec, rec_n):
    """Play on from the start of seat ``q``'s turn, each seat with its policy in ``seats``, for at
    most ``turns`` turns (negative: to the end). Returns (winner, the seat to move next, whether
    the game ended); the winner is -1 when the round cap or empty piles ended it."""
    n_players = st.ship.shape[0]
    played = 0
    while turns < 0 or played < turns:
        reason = play_turn(B, r, seats, q, st, buf, scratch, heat, rec, rec_n)
        played += 1
        if reason >= 0:
            return (q if reason != S.END_PILES else -1), q, True
        q = next_seat(r, st.g, q, n_players)
        if q < 0:
            return -1, q, True
    return -1, q, False


@njit(cache=True)
def playout(B, r, seats, st: State, q: int, buf, scratch, heat, rec, rec_n) -> int:
    """Play the game to its end from the start of seat ``q``'s turn, each seat with its policy
    in ``seats``; returns the winner (-1: the round cap or empty piles ended it)."""
    return play_on(B, r, seats, st, q, -1, buf, scratch, heat, rec, rec_n)[0]


@njit(cache=True)
def _rest_of_turn(B, r, sim: State, q: int, row, buf, na: int, heat, rec, rec_n, buyer) -> int:
    """Lay ``buf[:na]``, make the plan's move, draw and buy (``buyer``: policy id and rows);
    returns the end reason (-1 while the game goes on)."""
    lay_cards(B, r, sim, q, buf, na, heat[0], rec, rec_n)
    move = (row[PLAN_KIND], row[PLAN_A], row[PLAN_B])
    reason = move_step(B, r, sim, q, move, heat[1], rec, rec_n)
    if reason < 0:
        reason = draw_step(r, sim, q, rec, rec_n)
    if reason < 0:
        bid, bprm = buyer
        nb = decide_buy(bid, bprm, q, B, r, sim.card, sim.ship, sim.pl, sim.hand, sim.g)
        buy_step(r, sim, q, nb, rec, rec_n)
    return reason


@njit(cache=True)
def pass_gains_nothing(r, pl, q: int, sailed: bool) -> bool:
    """Seat ``q``'s 'no move' would gain it nothing: its sail points are at the maximum (after
    the turn's point, when it is still to come), or the rules give none for it."""
    sp = pl[q, S.P_SP]
    if not sailed:
        sp = min(sp + r.sail_points_per_turn, r.max_sail_points)
    return r.no_move_gain <= 0 or sp >= r.max_sail_points


@njit(cache=True)
def answered_in_kind(B, r, seats, sim: State, p: int, q: int, buf, heat, rec, rec_n):
    """After seat ``p`` passed for nothing (:func:`pass_gains_nothing`, no card laid), from the
    start of seat ``q``'s turn: every other seat whose ship has no move by its card and whose
    pass gains it nothing passes as well (what ``p`` did in its place). If they all do, the
    ships and the board are as they were and ``p`` faces its choice again: a seat that passed
    there passes again, so the passes run to the round cap, scored as the cap is (no winner).
    Returns (the seat to move next, turns played, whether the simulation is over)."""
    n_players = sim.ship.shape[0]
    row = np.zeros(OPTION_SIZE, np.int64)
    row[PLAN_KIND] = S.MV_NONE
    played = 0
    while q != p:
        if has_normal_move(B, r, sim.card, sim.ship, q) or not pass_gains_nothing(
            r, sim.pl, q, False
        ):
            return q, played, False
        sail(r, sim, q, rec, rec_n)
        reason = _rest_of_turn(B, r, sim, q, row, buf, 0, heat, rec, rec_n, (seats[0][q], seats[1]))
        played += 1
        q = next_seat(r, sim.g, q, n_players)
        if reason >= 0 or q < 0:
            return q, played, True
    return q, played, True


@njit(cache=True)
def horizon_rounds(horizon: int, playouts: int) -> int:
    """Rounds a simulation plays before the evaluation scores it: ``horizon`` at the default
    budget, times the square root of ``playouts`` over it (rounded, at least 1; four times the
    simulations look twice as far); 0 stays 0 (to the end). A search with more budget looks
    further ahead, not only at the same rounds more often."""
    if horizon <= 0:
        return 0
    return max(1, int(np.floor(horizon * np.sqrt(max(playouts, 1) / MCTS_PLAYOUTS) + 0.5)))


@njit(cache=True)
def _score(B, prm, sim: State, q: int, winner: int, over: bool, feats, rewards):
    """The simulation's result for every seat: the win when the game ended, else the fitted
    evaluation of the position at the start of seat ``q``'s turn."""
    n_players = sim.ship.shape[0]
    if over:
        return T.win_rewards(winner, n_players, rewards)
    features(B, sim, q, feats)
    T.evaluate(prm, feats, n_players, rewards)
    return rewards


@njit(cache=True)
def choose_turn(B, r, prm, root: State, p: int, root_opts, root_keys, n_root: int, stats=None,
                tally=None) -> tuple[int, int]:  # fmt: skip
    """Seat ``p``'s plan (an index of ``root_opts``' rows 1.., keys ``root_keys``, as
    :func:`turn_options` lists them) and extra card (an index of :func:`extra_options`), with
    policy ``mcts`` (its parameter row ``prm``).

    A winning plan, or the only one, is taken at once. Otherwise the guide's best-ranked
    ``widen`` plans (by the planner's value of each) share ``prm[MCTS_P.playouts]`` simulations
    by sequential halving (``simulator.search.tree``); each deals what ``p`` cannot see again
    (:func:`redeal`; every plan's i-th simulation deals and rolls from the same seed), plays
    the plan, then :func:`horizon_rounds` rounds (0: to the end) with ``opponents`` in the
    other seats and ``rollout`` in ``p``'s (or, opponents=tree, in the tree
    kept below the root, whose extra cards are searched too), and scores the end or the
    position (:func:`_score`); after a 'no move' that gains ``p`` nothing, a rival stuck as well
    answers in kind (:func:`answered_in_kind`). The extra card: the guide's block, or with
    opponents=tree the one simulated most under the chosen plan. ``stats``: each plan's
    simulations and mean reward; ``tally``: [0] += simulations, [1] += rounds they played."""
    n_players = root.ship.shape[0]
    playouts = int(prm[MCTS_P.playouts])
    ri = int(prm[MCTS_P.rollout])
    rid = ROLLOUTS[ri]
    rprm = seat_rows(ROLLOUT_PRM[ri], n_players)
    gi = int(prm[MCTS_P.guide])
    gid = ROLLOUTS[gi]
    gprm = seat_rows(ROLLOUT_PRM[gi], n_players)
    guided = gid == PLANNER or gid == BLOCKER or gid == RACER
    oi = int(prm[MCTS_P.opponents])
    in_tree = oi >= ROLLOUTS.shape[0]
    seat_ids = np.full(n_players, rid, np.int64)
    seat_prm = seat_rows(ROLLOUT_PRM[ri], n_players)
    if not in_tree:
        for q in range(n_players):
            if q != p:
                seat_ids[q] = ROLLOUTS[oi]
                seat_prm[q] = ROLLOUT_PRM[oi]
    seats = (seat_ids, seat_prm)
    limit = horizon_rounds(int(prm[MCTS_P.horizon]), playouts) * n_players  # 0: no limit
    explore, widen, bias = prm[MCTS_P.explore], prm[MCTS_P.widen], prm[MCTS_P.bias]
    w = plan_weights(gid, gprm, 0)
    g_margin = _margin(gid, gprm)
    r_margin = _margin(rid, rprm)
    g_first = root_opts[0, 1] - 1 if guided and root_opts[0, 1] > 0 else -1
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    nc = root.card.shape[0]
    ex = np.zeros((MAX_EXTRA, EXTRA_ROW), np.int64)
    ex_keys = np.zeros(MAX_EXTRA, np.int64)
    if stats is not None:
        stats[:, :] = 0.0
    # the early answers, which spend no simulation
    k = -1
    if n_root <= 1:
        k = 0
    elif g_first >= 0 and root_opts[g_first + 1, PLAN_VALUE] >= WIN * VALUE_SCALE:
        k = g_first
    if k >= 0:
        na = plan_to_buf(root_opts[k + 1], buf)
        land, via = plan_cells(B, root.card, root.ship, p, root_opts[k + 1])
        _, planner = extra_options(B, r, root, p, buf, na, land, via, g_margin, ex, ex_keys)
        return k, planner if guided else 0
    resume = T.own_stream()
    scores = np.zeros(n_root, np.float64)
    for i in range(n_root):
        scores[i] = root_opts[i + 1, PLAN_VALUE]
    order = np.zeros(n_root, np.int64)
    T.rank_by_score(scores, n_root, g_first, order)
    h = T.new_halving(n_root)
    T.start_halving(h, order, T.root_width(n_root, playouts, widen), playouts)
    tree = T.new_tree(playouts + 1 if in_tree else 2)
    sim = new_state(n_players, nc, root.hand.shape[1], root.deck.shape[0])
    opts = np.zeros((MAX_OPTIONS + 1, OPTION_SIZE), np.int64)
    keys = np.zeros(MAX_OPTIONS, np.int64)
    pool = np.zeros(root.deck.shape[0] + root.hand.sum(), np.int64)
    counts = np.zeros(root.hand.shape[1], np.int64)
    heat = (np.zeros(nc, np.int64), np.zeros(nc, np.int64))  # cards laid, ships blocked
    scratch = X.new_turn_scratch(n_players, nc, root.hand.shape[1])
    rec = np.zeros((0, EVENT_WIDTH), np.int64)
    rec_n = np.zeros(1, np.int64)
    rewards = np.zeros(n_players, np.float64)
    feats = np.zeros((n_players, N_FEATURES), np.float64)
    buyer = (rid, rprm)
    paired = np.random.randint(0, 2**31 - 1 - playouts)
    bank = new_seed_bank(playouts + 1)
    arm = T.next_arm(h)
    while arm >= 0:
        # common random numbers: each plan's i-th simulation deals and rolls from the same seed,
        # so the plans are compared on the same deals as far as their games run alike
        seed_paired(bank, int(h.counts[arm]), paired + int(h.counts[arm]))
        copy_state(sim, root)
        redeal(sim, p, pool, counts)
        q = p
        turns = 0
        winner = -1
        over = False
        opts[: n_root + 1] = root_opts[: n_root + 1]
        keys[:n_root] = root_keys[:n_root]
        if in_tree:  # the tree below the root: every seat's plan and extra card (max-n)
            T.begin(tree)
            T.enter_root(tree, root_keys[arm], p)
            k = arm
            while True:
                row = opts[k + 1]
                na = plan_to_buf(row, buf)
                if not T.left_tree(tree):
                    land, via = plan_cells(B, sim.card, sim.ship, q, row)
                    m, planner = extra_options(B, r, sim, q, buf, na, land, via, g_margin, ex,
                                               ex_keys)  # fmt: skip
                    kb = T.choose(tree, ex_keys, m, q, explore, planner if guided else 0,
                                  widen, bias)  # fmt: skip
                    na = _append(buf, na, ex[kb])
                else:  # out of the tree: the rest of the turn as the rollout policy plays it
                    na = block_leader(B, r, sim.card, sim.ship, sim.pl, sim.hand, q, r_margin,
                                      buf, na)  # fmt: skip
                reason = _rest_of_turn(B, r, sim, q, row, buf, na, heat, rec, rec_n, buyer)
                turns += 1
                if reason >= 0:
                    winner = q if reason != S.END_PILES else -1
                    over = True
                    break
                q = next_seat(r, sim.g, q, n_players)
                if q < 0:
                    over = True
                    break
                if T.left_tree(tree) or (limit > 0 and turns >= limit):
                    break
                sail(r, sim, q, rec, rec_n)
                n = turn_options(B, r, sim, q, w, opts, keys)
                guide = -1
                if guided and T.widening(tree, widen) and opts[0, 1] > 0:
                    guide = opts[0, 1] - 1
                k = T.choose(tree, keys, n, q, explore, guide, widen, bias)
        else:  # the root plan with the guide's block, then the named policies
            row = opts[arm + 1]
            na = plan_to_buf(row, buf)
            if guided:
                na = block_leader(B, r, sim.card, sim.ship, sim.pl, sim.hand, p, g_margin, buf,
                                  na)  # fmt: skip
            passing = row[PLAN_KIND] == S.MV_NONE and na == 0
            passing = passing and pass_gains_nothing(r, sim.pl, p, True)
            reason = _rest_of_turn(B, r, sim, p, row, buf, na, heat, rec, rec_n, buyer)
            turns = 1
            if reason >= 0:
                winner = p if reason != S.END_PILES else -1
                over = True
            else:
                q = next_seat(r, sim.g, p, n_players)
                over = q < 0
                if not over and passing:
                    q, passes, over = answered_in_kind(B, r, seats, sim, p, q, buf, heat, rec,
                                                       rec_n)  # fmt: skip
                    turns += passes
        if not over and (limit <= 0 or turns < limit):
            left = limit - turns if limit > 0 else -1
            winner, q, over = play_on(B, r, seats, sim, q, left, buf, scratch, heat, rec,
                                      rec_n)  # fmt: skip
        _score(B, prm, sim, q, winner, over, feats, rewards)
        if in_tree:
            T.backup(tree, rewards)
        T.record_arm(h, arm, rewards[p])
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_ROUND] - root.g[S.G_ROUND]
        arm = T.next_arm(h)
    T.back_to_game(resume)
    if stats is not None:
        T.arm_stats(h, n_root, stats)
    k = T.best_arm(h)
    na = plan_to_buf(root_opts[k + 1], buf)
    land, via = plan_cells(B, root.card, root.ship, p, root_opts[k + 1])
    m, planner = extra_options(B, r, root, p, buf, na, land, via, g_margin, ex, ex_keys)
    kb = -1
    if in_tree:
        node = T.child(tree, 0, root_keys[k], p)
        if node != T.NO_NODE:
            kb = T.most_visited_at(tree, node, ex_keys, m, p)
    if kb < 0:
        kb = planner if guided else 0
    return k, kb


@njit(cache=True)
def search_move(B, r, prm, root: State, p: int, buf, stats=None,
                tally=None) -> tuple[int, int, int, int]:  # fmt: skip
    """Seat ``p``'s move and the cards it lays, with policy ``mcts`` (its parameter row
    ``prm``), from the real position (the turn's sail point taken): :func:`choose_turn` over
    the plans of :func:`turn_options`. Writes the cards into ``buf`` and returns (cards, move
    kind, a, b); ``stats`` and ``tally`` as :func:`choose_turn` fills them."""
    n_players = root.ship.shape[0]
    gi = int(prm[MCTS_P.guide])
    gprm = seat_rows(ROLLOUT_PRM[gi], n_players)
    w = plan_weights(ROLLOUTS[gi], gprm, 0)
    root_opts = np.zeros((MAX_OPTIONS + 1, OPTION_SIZE), np.int64)
    root_keys = np.zeros(MAX_OPTIONS, np.int64)
    n_root = turn_options(B, r, root, p, w, root_opts, root_keys)
    k, kb = choose_turn(B, r, prm, root, p, root_opts, root_keys, n_root, stats, tally)
    row = root_opts[k + 1]
    na = plan_to_buf(row, buf)
    land, via = plan_cells(B, root.card, root.ship, p, row)
    ex = np.zeros((MAX_EXTRA, EXTRA_ROW), np.int64)
    ex_keys = np.zeros(MAX_EXTRA, np.int64)
    extra_options(B, r, root, p, buf, na, land, via, _margin(ROLLOUTS[gi], gprm), ex, ex_keys)
    na = _append(buf, na, ex[kb])
    return na, row[PLAN_KIND], row[PLAN_A], row[PLAN_B]


@njit(cache=True)
def searched_turn(B, r, prm, p: int, st: State, buf, heat, rec, rec_n, tally) -> int:
    """A turn of a seat playing ``mcts`` (steps 1 to 4): the search lays the cards and moves,
    the rollout policy buys. Returns the end reason (-1 while the game goes on)."""
    card, ship, pl, hand, g, _ = st
    sail(r, st, p, rec, rec_n)
    n, kind, a, b = search_move(B, r, prm[p], st, p, buf, None, tally)
    lay_cards(B, r, st, p, buf, n, heat[0], rec, rec_n)
    reason = move_and_draw(B, r, st, p, (kind, a, b), heat[1], rec, rec_n)
    if reason >= 0:
        return reason
    ri = int(prm[p, MCTS_P.rollout])
    nb = decide_buy(ROLLOUTS[ri], seat_rows(ROLLOUT_PRM[ri], ship.shape[0]), p, B, r, card, ship,
                    pl, hand, g)  # fmt: skip
    buy_step(r, st, p, nb, rec, rec_n)
    return -1
