"""Cape Horn's forward model: the turn the engine plays, and what the shared search
(``simulator.search``) needs to look ahead.

A turn (:func:`play_turn`) is its steps: the sail point (:func:`sail`), the cards laid
(:func:`lay_cards`), the move (:func:`move_step`), the free draw (:func:`draw_step`) and the
purchases (:func:`buy_step`). The engine plays every turn with them, and so does every simulation
of the search, so a simulation cannot drift from the rules.

The position travels as one value, :class:`Position` (the arrays of :mod:`.state`). The search
player decides, at each turn in its tree, first the move together with the cards laid for it (one
option per plan of the planner's one-turn search: the landing card, bridge cards, 'ignorar',
'mover dos veces', no move), then one more card or none (the planner's block, a single block on a
rival's forward landing space, a cover, for itself or against a rival). Buying is left to the
``rollout`` policy. Each simulation deals what the deciding seat cannot see again (the other
hands and the order of the piles; :func:`redeal`), walks the tree over every seat's turns, then
plays out to the end of the game with ``rollout`` in every seat.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from policies.cape_horn import (
    BLOCKER,
    BLOCKER_P,
    MCTS_P,
    PLAN_A,
    PLAN_B,
    PLAN_CARDS,
    PLAN_KIND,
    PLAN_N,
    PLAN_SIZE,
    PLANNER,
    PLANNER_P,
    RACER,
    ROLLOUT_PRM,
    ROLLOUTS,
    block_leader,
    decide_buy,
    plan_weights,
    potential,
    search,
    ts_token,
)
from simulator import search as T
from simulator.recording import record

from . import board as BD
from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import state as S
from .rules import PILES_END, STUCK_NO_MOVE

Position = namedtuple("Position", "card ship pl hand g deck")

# Recorded events (simulator.recording): rows of (event, round, player, a, ..., j); round 0 is
# the set-up. Fields a.. per event:
EV_PRINTED = 0  # cell, design: a wind printed on a start space
EV_START = 1  # cell: the player's clipper on its start space
EV_DRAW = 2  # design, how (0 dealt, 1 drawn, 2 bought), cards in hand after, sail points after
EV_SAIL = 3  # sail points after the turn's sail point
EV_LAY = 4  # design, cell, design covered (-1 none), cards in hand after
EV_REFUSED = 5  # design, cell: a card the policy asked to lay that may not lie there
EV_BLOCKED = 6  # cell: the card under the ship has no move that may be made
EV_MOVE = 7  # move kind (S.MV_*), from, to, first landing (twice) or -1, option 1, option 2,
#              sail points after, sail points paid, 1 when the policy's answer was illegal
EV_TOKEN = 8  # zone, colour, station cell
EV_END = 9  # end reason (the player is the winner, -1 for none)
EVENT_KINDS = ("printed", "start", "draw", "sail", "lay", "refused", "blocked", "move", "token",
               "end")  # fmt: skip
EVENT_WIDTH = 12
DRAW_DEALT, DRAW_DRAWN, DRAW_BOUGHT = 0, 1, 2

MAX_PLACE = 16  # rows of the placement buffer (a hand holds at most 12 cards by the rules' bounds)
MAX_OPTIONS = 512  # plans of one turn the search tells apart (the planner's search offers fewer)
MAX_EXTRA = 48  # extra-card options of one turn
EXTRA_ROW = 1 + 2 * MAX_PLACE  # an extra-card option: how many, then (design, cell) pairs
EXTRA_KEY = 1 << 40  # extra-card keys start here, so they never equal a plan's key
KEY_BASE = 64  # designs fit below this in a key


# stops of a move at which a station token is taken (make_move's ``take``)
TAKE_FIRST, TAKE_END = 1, 2
TAKE_ALL = TAKE_FIRST | TAKE_END


# -- the position ---------------------------------------------------------------------------------
@njit(cache=True)
def new_position(n_players: int, n_cells: int, n_designs: int, deck_size: int) -> Position:
    return Position(
        np.full(n_cells, -1, np.int64),
        np.full(n_players, -1, np.int64),
        np.zeros((n_players, S.N_PLAYER_FIELDS), np.int64),
        np.zeros((n_players, n_designs), np.int64),
        np.zeros(S.N_GAME_FIELDS, np.int64),
        np.zeros(max(deck_size, 1), np.int64),
    )


@njit(cache=True)
def copy_into(dst: Position, src: Position) -> None:
    dst.card[:] = src.card
    dst.ship[:] = src.ship
    dst.pl[:] = src.pl
    dst.hand[:] = src.hand
    dst.g[:] = src.g
    dst.deck[:] = src.deck


@njit(cache=True)
def redeal(pos: Position, p: int, pool, counts) -> None:
    """Deal again what seat ``p`` cannot see: the cards of the other hands and of the piles are
    shuffled among them, each hand keeping its size. The pool is rebuilt in design order before
    the shuffle, so the deal depends only on what ``p`` knows (its hand, the board, the sizes)."""
    hand, pl, g, deck = pos.hand, pos.pl, pos.g, pos.deck
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


# -- the steps of a turn --------------------------------------------------------------------------
@njit(cache=True)
def draw(pl, hand, g, deck, p):
    """Top card of the piles into p's hand; False when both piles are empty."""
    if g[S.G_DECK_POS] >= g[S.G_DECK_N]:
        return False
    d = deck[g[S.G_DECK_POS]]
    g[S.G_DECK_POS] += 1
    hand[p, d] += 1
    pl[p, S.P_HAND] += 1
    return True


@njit(cache=True)
def sail(r, pl, g, p, rec, rec_n) -> None:
    """Step 1: the turn's sail point."""
    before = pl[p, S.P_SP]
    S.gain_sail_points(r, pl, p, r.sail_points_per_turn)
    pl[p, S.P_SP_SAILED] += pl[p, S.P_SP] - before
    record(rec, rec_n, EV_SAIL, g[S.G_ROUND], p, pl[p, S.P_SP])


@njit(cache=True)
def lay_cards(B, r, card, ship, pl, hand, p, buf, n, laid_heat, rec, rec_n, rnd):
    """Lay the policy's cards in order; each must be legal when laid (a cover only if n == 1)."""
    for i in range(n):
        d = buf[i, 0]
        c = buf[i, 1]
        if S.can_place(B, r, card, ship, hand, p, d, c, n):
            under = card[c]
            if card[c] >= 0:
                pl[p, S.P_COVERED] += 1
            card[c] = d
            hand[p, d] -= 1
            pl[p, S.P_HAND] -= 1
            pl[p, S.P_LAID] += 1
            laid_heat[c] += 1
            if rec.shape[0] > 0:
                record(rec, rec_n, EV_LAY, rnd, p, d, c, under, pl[p, S.P_HAND])
        elif rec.shape[0] > 0:
            record(rec, rec_n, EV_REFUSED, rnd, p, d, c)


@njit(cache=True)
def can_move_at_all(B, r, card, ship, pl, p):
    """Some move other than 'no move' is legal (by the card, 'ignorar' or twice)."""
    if S.has_normal_move(B, r, card, ship, p):
        return True
    s = ship[p]
    if pl[p, S.P_SP] >= S.ignore_cost(B, r, card, ship, p):
        for i in range(8):
            if S.can_land(B, r, card, ship, p, B.neigh[s, i]):
                return True
    return False


@njit(cache=True)
def token_choice(ext, pid, prm, p, B, r, card, ship, pl, hand, g, kind, a, b) -> int:
    """The seat's answer to "puede tomar una ficha" for each station the move (kind, a, b) stops
    on (asked before the move, which nothing random separates from its stops): TAKE_FIRST
    and TAKE_END bits as :func:`make_move` reads them."""
    take = TAKE_ALL
    s = ship[p]
    end = -1
    if kind == S.MV_TWICE:
        t1 = S.move_target(B, card, s, a)
        if t1 >= 0 and S.is_station(B, t1):
            if not X.token(ext, pid, prm, p, B, r, card, ship, pl, hand, g, t1):
                take &= ~TAKE_FIRST
        end = S.twice_target(B, r, card, ship, p, a, b)
    elif kind == S.MV_NORMAL:
        end = S.move_target(B, card, s, a)
    elif kind == S.MV_IGNORE:
        end = a
    if end >= 0 and S.is_station(B, end):
        if not X.token(ext, pid, prm, p, B, r, card, ship, pl, hand, g, end):
            take &= ~TAKE_END
    return take


@njit(cache=True)
def make_move(B, r, card, ship, pl, g, p, kind, a, b, take=TAKE_ALL):
    """Carry out a legal move; returns the end reason (-1 while the game goes on). ``take``:
    the stops at which the player takes a station token it may take (TAKE_FIRST: the first
    landing of 'mover dos veces', TAKE_END: where the move ends)."""
    s = ship[p]
    last = (take & TAKE_END) != 0
    if kind == S.MV_NORMAL:
        return S.end_move(B, r, ship, pl, g, p, S.move_target(B, card, s, a), last)
    if kind == S.MV_IGNORE:
        cost = S.ignore_cost(B, r, card, ship, p)
        pl[p, S.P_SP] -= cost
        pl[p, S.P_SP_IGNORE] += cost
        pl[p, S.P_IGNORES] += 1
        return S.end_move(B, r, ship, pl, g, p, a, last)
    if kind == S.MV_TWICE:
        t1 = S.move_target(B, card, s, a)
        t2 = S.twice_target(B, r, card, ship, p, a, b)
        pl[p, S.P_SP] -= r.twice_cost
        pl[p, S.P_SP_TWICE] += r.twice_cost
        pl[p, S.P_TWICES] += 1
        first = r.token_on_first_of_twice and (take & TAKE_FIRST) != 0
        reason = S.end_move(B, r, ship, pl, g, p, t1, first)
        if reason >= 0:
            return reason
        return S.end_move(B, r, ship, pl, g, p, t2, last)
    # no move
    if r.stuck == STUCK_NO_MOVE or can_move_at_all(B, r, card, ship, pl, p):
        before = pl[p, S.P_SP]
        S.gain_sail_points(r, pl, p, r.no_move_gain)
        pl[p, S.P_SP_GAINED] += pl[p, S.P_SP] - before
    pl[p, S.P_NO_MOVES] += 1
    return -1


@njit(cache=True)
def record_move(B, card, ship, pl, rec, rec_n, rnd, p, kind, asked, a, b, frm, sp, held):
    """Record the move just made from ``frm`` (sail points ``sp`` and tokens ``held``, as
    ``S.token_index``, before it) and every station token it took."""
    via = S.move_target(B, card, frm, a) if kind == S.MV_TWICE else -1
    record(rec, rec_n, EV_MOVE, rnd, p, kind, frm, ship[p], via, a, b, pl[p, S.P_SP],
           max(sp - pl[p, S.P_SP], 0), 1 if kind != asked else 0)  # fmt: skip
    m = 1
    for z in range(BD.N_ZONES):
        colour = pl[p, S.P_TOK + z]
        if colour != (held // m) % 4 - 1:
            for c in range(B.st_zone.shape[0]):
                if B.st_zone[c] == z and B.st_colour[c] == colour:
                    record(rec, rec_n, EV_TOKEN, rnd, p, z, colour, c)
        m *= 4


@njit(cache=True)
def move_step(B, r, card, ship, pl, g, p, kind, a, b, blocked_heat, rec, rec_n, take=TAKE_ALL):
    """Step 3: the policy's move (kind, a, b), 'no move' when illegal; returns the end reason
    (-1 while the game goes on)."""
    rnd = g[S.G_ROUND]
    recording = rec.shape[0] > 0  # (a run skips every event: no call made)
    if not S.has_normal_move(B, r, card, ship, p):
        pl[p, S.P_BLOCKED] += 1
        blocked_heat[ship[p]] += 1
        if recording:
            record(rec, rec_n, EV_BLOCKED, rnd, p, ship[p])
    asked = kind
    if not S.legal_move(B, r, card, ship, pl, p, kind, a, b):
        kind = S.MV_NONE
    frm = ship[p]
    sp = pl[p, S.P_SP]
    held = S.token_index(pl, p) if recording else 0
    reason = make_move(B, r, card, ship, pl, g, p, kind, a, b, take)
    if recording:
        record_move(B, card, ship, pl, rec, rec_n, rnd, p, kind, asked, a, b, frm, sp, held)
    return reason


@njit(cache=True)
def draw_step(r, pl, hand, g, deck, p, rec, rec_n):
    """Step 4, the free draw (skipped with a full hand); returns the end reason (-1: go on)."""
    for _ in range(r.draw_per_turn):
        if pl[p, S.P_HAND] < r.hand_max:
            if not draw(pl, hand, g, deck, p):
                if r.empty_piles == PILES_END:
                    return S.END_PILES
                break
            if rec.shape[0] > 0:
                record(rec, rec_n, EV_DRAW, g[S.G_ROUND], p, deck[g[S.G_DECK_POS] - 1],
                       DRAW_DRAWN, pl[p, S.P_HAND], pl[p, S.P_SP])  # fmt: skip
    return -1


@njit(cache=True)
def buy_step(r, pl, hand, g, deck, p, nb, rec, rec_n) -> None:
    """Step 4, the purchases: up to ``nb`` cards while the hand, the points and the piles allow."""
    for _ in range(nb):
        if pl[p, S.P_HAND] >= r.hand_max or pl[p, S.P_SP] < r.buy_cost:
            break
        if not draw(pl, hand, g, deck, p):
            break
        pl[p, S.P_SP] -= r.buy_cost
        pl[p, S.P_SP_BUY] += r.buy_cost
        if rec.shape[0] > 0:
            record(rec, rec_n, EV_DRAW, g[S.G_ROUND], p, deck[g[S.G_DECK_POS] - 1], DRAW_BOUGHT,
                   pl[p, S.P_HAND], pl[p, S.P_SP])  # fmt: skip


@njit(cache=True)
def move_and_draw(B, r, card, ship, pl, hand, g, deck, p, kind, a, b, blocked_heat, rec,
                  rec_n, take=TAKE_ALL) -> int:  # fmt: skip
    """Step 3 and the free draw of step 4, whoever chose the move; returns the end reason (-1
    while the game goes on)."""
    reason = move_step(B, r, card, ship, pl, g, p, kind, a, b, blocked_heat, rec, rec_n, take)
    if reason >= 0:
        return reason
    return draw_step(r, pl, hand, g, deck, p, rec, rec_n)


@njit(cache=True)
def play_turn(B, r, pids, prm, p, card, ship, pl, hand, g, deck, buf, laid_heat, blocked_heat,
              rec, rec_n, ext=None):  # fmt: skip
    """One player's turn, steps 1 to 4, decided by the seat's policy; returns the end reason
    (-1 while the game goes on)."""
    pid = pids[p]
    sail(r, pl, g, p, rec, rec_n)
    n = X.place(ext, pid, prm, p, B, r, card, ship, pl, hand, g, buf)
    lay_cards(B, r, card, ship, pl, hand, p, buf, min(n, buf.shape[0]), laid_heat, rec, rec_n,
              g[S.G_ROUND])  # fmt: skip
    kind, a, b = X.move(ext, pid, prm, p, B, r, card, ship, pl, hand, g)
    take = token_choice(ext, pid, prm, p, B, r, card, ship, pl, hand, g, kind, a, b)
    reason = move_and_draw(B, r, card, ship, pl, hand, g, deck, p, kind, a, b, blocked_heat, rec,
                           rec_n, take)  # fmt: skip
    if reason >= 0:
        return reason
    nb = X.buy(ext, pid, prm, p, B, r, card, ship, pl, hand, g)
    buy_step(r, pl, hand, g, deck, p, nb, rec, rec_n)
    return -1


@njit(cache=True)
def next_seat(r, g, q: int, n_players: int) -> int:
    """The seat after ``q`` starts its turn (a new round after the last); -1 at the round cap."""
    q += 1
    if q == n_players:
        if g[S.G_ROUND] >= r.max_rounds:
            return -1
        g[S.G_ROUND] += 1
        q = 0
    g[S.G_TURNS] += 1
    return q


@njit(cache=True)
def playout(B, r, pids, prm, pos: Position, q: int, buf, laid, blocked, rec, rec_n) -> int:
    """Play the game to its end from the start of seat ``q``'s turn, each seat with its policy
    in ``pids``; returns the winner (-1: the round cap or empty piles ended it)."""
    n_players = pos.ship.shape[0]
    while True:
        reason = play_turn(B, r, pids, prm, q, pos.card, pos.ship, pos.pl, pos.hand, pos.g,
                           pos.deck, buf, laid, blocked, rec, rec_n)  # fmt: skip
        if reason >= 0:
            return q if reason != S.END_PILES else -1
        q = next_seat(r, pos.g, q, n_players)
        if q < 0:
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
def turn_options(B, r, pos: Position, q: int, w, opts, keys) -> int:
    """Seat ``q``'s plans (rows 1.. of ``opts``, the planner's best row in ``opts[0, 1]``) and
    their keys (``keys[i]`` for row i + 1); returns how many."""
    plan = np.zeros(PLAN_SIZE, np.int64)
    search(B, r, pos.card, pos.ship, pos.pl, pos.hand, pos.g, q, True, True, True, w, plan, opts)
    n = opts[0, 0]
    for i in range(n):
        keys[i] = plan_key(B, pos.card, pos.ship, q, opts[i + 1])
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
def extra_options(B, r, pos: Position, q: int, buf, na: int, land: int, via: int, margin: float,
                  ex, keys) -> tuple[int, int]:  # fmt: skip
    """The extra card seat ``q`` may lay after the ``na`` cards of its plan (in ``buf``), whose
    move ends on ``land``: none (option 0), the planner's block (every forward landing space of
    the close leader), one card on a rival's forward landing space (the design that helps it
    least; covering its card when the plan lays nothing), or a cover for itself near ``land``
    (the design that promises most, when the plan lays nothing). Returns (options, the
    planner's choice)."""
    card, ship, pl, hand, g = pos.card, pos.ship, pos.pl, pos.hand, pos.g
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
    nb = block_leader(B, r, card, ship, pl, hand, g, q, margin, tmp[0], tmp, na)
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
            if not cover and not S.can_place_empty(B, r, work, t):
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
                or not S.can_place(B, r, work, ship, hand, q, best, t, 1)
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
                if best >= 0 and S.can_place(B, r, work, ship, hand, q, best, c, 1):
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
def search_move(B, r, prm, root: Position, p: int, buf, stats=None,
                tally=None) -> tuple[int, int, int, int]:  # fmt: skip
    """Seat ``p``'s move and the cards it lays, with policy ``mcts`` (its parameter row
    ``prm``): ``prm[MCTS_P.playouts]`` simulations of the shared search from the real position
    (the turn's sail point taken). Writes the cards into ``buf`` and returns (cards, move kind,
    a, b). ``stats``, when given: each plan's simulations and mean reward (``search.root_stats``,
    rows as the planner's search lists them); ``tally``, when given: [0] += simulations, [1] +=
    rounds they played."""
    n_players = root.ship.shape[0]
    playouts = int(prm[MCTS_P.playouts])
    ri = int(prm[MCTS_P.rollout])
    rid = ROLLOUTS[ri]
    rpids = np.full(n_players, rid, np.int64)
    rprm = seat_rows(ROLLOUT_PRM[ri], n_players)
    gid = ROLLOUTS[int(prm[MCTS_P.guide])]
    gprm = seat_rows(ROLLOUT_PRM[int(prm[MCTS_P.guide])], n_players)
    guided = gid == PLANNER or gid == BLOCKER or gid == RACER
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    w = plan_weights(gid, gprm, 0)
    g_margin = _margin(gid, gprm)
    r_margin = _margin(rid, rprm)
    nc = root.card.shape[0]
    tree = T.new_tree(playouts + 1)
    sim = new_position(n_players, nc, root.hand.shape[1], root.deck.shape[0])
    root_opts = np.zeros((MAX_OPTIONS + 1, PLAN_SIZE), np.int64)
    root_keys = np.zeros(MAX_OPTIONS, np.int64)
    n_root = turn_options(B, r, root, p, w, root_opts, root_keys)
    opts = np.zeros((MAX_OPTIONS + 1, PLAN_SIZE), np.int64)
    keys = np.zeros(MAX_OPTIONS, np.int64)
    ex = np.zeros((MAX_EXTRA, EXTRA_ROW), np.int64)
    ex_keys = np.zeros(MAX_EXTRA, np.int64)
    pool = np.zeros(root.deck.shape[0] + root.hand.sum(), np.int64)
    counts = np.zeros(root.hand.shape[1], np.int64)
    laid = np.zeros(nc, np.int64)
    blocked = np.zeros(nc, np.int64)
    rec = np.zeros((0, EVENT_WIDTH), np.int64)
    rec_n = np.zeros(1, np.int64)
    rewards = np.zeros(n_players, np.float64)
    for _ in range(playouts):
        copy_into(sim, root)
        redeal(sim, p, pool, counts)
        T.begin(tree)
        q = p
        winner = -1
        over = False
        first = True
        while True:
            if first:  # the root: its options are known
                first = False
                n = n_root
                opts[: n + 1] = root_opts[: n + 1]
                keys[:n] = root_keys[:n]
            else:
                sail(r, sim.pl, sim.g, q, rec, rec_n)
                n = turn_options(B, r, sim, q, w, opts, keys)
            guide = -1
            if guided and T.widening(tree, widen) and opts[0, 1] > 0:
                guide = opts[0, 1] - 1
            k = T.choose(tree, keys, n, q, explore, guide, widen, bias)
            row = opts[k + 1]
            na = plan_to_buf(row, buf)
            if not T.left_tree(tree):
                land, via = plan_cells(B, sim.card, sim.ship, q, row)
                m, planner = extra_options(B, r, sim, q, buf, na, land, via, g_margin, ex,
                                           ex_keys)  # fmt: skip
                gb = planner if guided else 0
                kb = T.choose(tree, ex_keys, m, q, explore, gb, widen, bias)
                na = _append(buf, na, ex[kb])
            else:  # out of the tree: the rest of the turn as the rollout policy plays it
                na = block_leader(B, r, sim.card, sim.ship, sim.pl, sim.hand, sim.g, q, r_margin,
                                  row, buf, na)  # fmt: skip
            lay_cards(B, r, sim.card, sim.ship, sim.pl, sim.hand, q, buf, na, laid, rec, rec_n,
                      sim.g[S.G_ROUND])  # fmt: skip
            reason = move_step(B, r, sim.card, sim.ship, sim.pl, sim.g, q, row[PLAN_KIND],
                               row[PLAN_A], row[PLAN_B], blocked, rec, rec_n)  # fmt: skip
            if reason < 0:
                reason = draw_step(r, sim.pl, sim.hand, sim.g, sim.deck, q, rec, rec_n)
            if reason < 0:
                nb = decide_buy(rid, rprm, q, B, r, sim.card, sim.ship, sim.pl, sim.hand, sim.g)
                buy_step(r, sim.pl, sim.hand, sim.g, sim.deck, q, nb, rec, rec_n)
            else:
                winner = q if reason != S.END_PILES else -1
                over = True
                break
            q = next_seat(r, sim.g, q, n_players)
            if q < 0:
                over = True
                break
            if T.left_tree(tree):
                break
        if not over:
            winner = playout(B, r, rpids, rprm, sim, q, buf, laid, blocked, rec, rec_n)
        T.backup(tree, T.win_rewards(winner, n_players, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_ROUND] - root.g[S.G_ROUND]
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    # the answer: the plan simulated most often, then its extra card simulated most often
    k = T.most_visited(tree, root_keys, n_root, p) if n_root > 1 else 0
    row = root_opts[k + 1]
    na = plan_to_buf(row, buf)
    land, via = plan_cells(B, root.card, root.ship, p, row)
    m, planner = extra_options(B, r, root, p, buf, na, land, via, g_margin, ex, ex_keys)
    node = T.child(tree, 0, root_keys[k], p) if n_root > 1 else 0
    kb = T.most_visited_at(tree, node, ex_keys, m, p) if node != T.NO_NODE else -1
    if kb < 0:
        kb = planner if guided else 0
    na = _append(buf, na, ex[kb])
    return na, row[PLAN_KIND], row[PLAN_A], row[PLAN_B]


@njit(cache=True)
def searched_turn(B, r, prm, p, pos: Position, buf, laid_heat, blocked_heat, rec, rec_n,
                  tally) -> int:  # fmt: skip
    """A turn of a seat playing ``mcts`` (steps 1 to 4): the search lays the cards and moves,
    the rollout policy buys. Returns the end reason (-1 while the game goes on)."""
    card, ship, pl, hand, g, deck = pos
    sail(r, pl, g, p, rec, rec_n)
    n, kind, a, b = search_move(B, r, prm[p], pos, p, buf, None, tally)
    lay_cards(B, r, card, ship, pl, hand, p, buf, n, laid_heat, rec, rec_n, g[S.G_ROUND])
    reason = move_and_draw(B, r, card, ship, pl, hand, g, deck, p, kind, a, b, blocked_heat, rec,
                           rec_n)  # fmt: skip
    if reason >= 0:
        return reason
    ri = int(prm[p, MCTS_P.rollout])
    nb = decide_buy(ROLLOUTS[ri], seat_rows(ROLLOUT_PRM[ri], ship.shape[0]), p, B, r, card, ship,
                    pl, hand, g)  # fmt: skip
    buy_step(r, pl, hand, g, deck, p, nb, rec, rec_n)
    return -1
