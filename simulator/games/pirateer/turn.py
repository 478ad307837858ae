"""Pirateer's turn rules: every compiled function that applies a rule to a :class:`State`.

The set-up (:func:`new_game`), a die's walk (:func:`walk`), the legal moves of a roll
(:func:`legal_moves`), playing one (:func:`make_move` / :func:`unmake_move` to try it and take it
back, :func:`play_move` to play it for good, counting captures and ending the game), the turn cap
(:func:`end_turn`), and what an opponent can capture next turn (:func:`capture_odds`). The engine,
the policies and the search all call these (docs/rules/pirateer.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.recording import record

from .board import ALLOWED, DIST, IS_ANCHORAGE, IS_STRAIT, IS_WIND, N_CELLS, N_DIRS, START, STEP
from .state import (
    ANCHORAGES_CLOSED,
    CORNERS_ADJACENT,
    DELIVERED,
    END_LAST_OPPONENT,
    END_TREASURE_HOME,
    END_TURN_CAP,
    FLEET,
    G_CAPTURES,
    G_END_REASON,
    G_ENDED,
    G_PLAYERS,
    G_TAKEN_TURN,
    G_TREASURE,
    G_TREASURE_CAPTURES,
    G_TURN,
    G_WINNER,
    LIMIT_DIRECTIONS,
    M_KEY,
    M_PIPS1,
    M_SHIP1,
    M_SHIP2,
    M_STEPS,
    M_TAKE1,
    MAX_MOVES,
    MOVE_FIELDS,
    N_FLEETS,
    N_SHIPS,
    NULL_FORBIDDEN,
    ON_ISLAND,
    TAKE_ANY_TIME,
    TAKEN_BEFORE,
    State,
    alive_mask,
    can_take,
    fleet_mask,
    is_terminal,
    list_ships,
    opponents_left,
    pack_position,
    treasure_home,
)

# Recorded events of a move (rows of simulator.contract.recording; kinds as in .engine's EV_*)
EV_MOVE = 2
EV_CAPTURE = 3
EV_TREASURE = 4


def _rays() -> np.ndarray:
    # RAY[c, d, k]: the space k steps from c in direction d by the step table alone (no ship, wind
    # or strait considered), -1 off the water: where a walk of k pips lands if it lands at all.
    ray = np.full((N_CELLS, N_DIRS, 7), -1, dtype=np.int64)
    for c in range(N_CELLS):
        for d in range(N_DIRS):
            ray[c, d, 0] = c
            for k in range(1, 7):
                if ray[c, d, k - 1] >= 0:
                    ray[c, d, k] = STEP[ray[c, d, k - 1], d]
    return ray


RAY = _rays()

# RAY_FLAGS[c, d, k]: what the ray RAY[c, d, 1..k] meets, as bits: a trade wind or a strait it
# passes (spaces 1 to k - 1, grid directions only: the diagonal runs along a wind) and an
# anchorage on it (spaces 1 to k). OPENINGS packs them by direction.
PASSES_WIND, PASSES_STRAIT, MEETS_ANCHORAGE = 1, 2, 4


def _ray_flags() -> np.ndarray:
    flags = np.zeros((N_CELLS, N_DIRS, 7), dtype=np.int64)
    for c in range(N_CELLS):
        for d in range(N_DIRS):
            for k in range(1, 7):
                x = RAY[c, d, k]
                if x < 0:
                    break
                f = flags[c, d, k - 1]
                if k > 1 and d < 4:
                    passed = RAY[c, d, k - 1]
                    f |= PASSES_WIND if IS_WIND[passed] else 0
                    f |= PASSES_STRAIT if IS_STRAIT[passed] else 0
                flags[c, d, k] = f | (MEETS_ANCHORAGE if IS_ANCHORAGE[x] else 0)
    return flags


RAY_FLAGS = _ray_flags()


LEG2 = 6  # LEGS's first two-step bit


def _legs() -> np.ndarray:
    # LEGS[a, b]: the die-steps that can carry a ship from space a onto space b by the step table
    # alone (RAY's landings; ships, winds and straits may forbid them): bit x - 1 for one step of
    # x pips, bit LEG2 + 6 (x - 1) + (y - 1) for a step of x then one of y. A roll can capture
    # only along such legs, so the capture odds skip the rolls no leg of theirs allows.
    legs = np.zeros((N_CELLS, N_CELLS), dtype=np.int64)
    cells = np.arange(N_CELLS)
    for d in range(N_DIRS):
        for x in range(1, 7):
            t1 = RAY[:, d, x]
            ok = t1 >= 0
            np.bitwise_or.at(legs, (cells[ok], t1[ok]), 1 << (x - 1))
            for e in range(N_DIRS):
                for y in range(1, 7):
                    t2 = np.where(ok, RAY[np.maximum(t1, 0), e, y], -1)
                    ok2 = t2 >= 0
                    bit = 1 << (LEG2 + 6 * (x - 1) + (y - 1))
                    np.bitwise_or.at(legs, (cells[ok2], t2[ok2]), bit)
    return legs


LEGS = _legs()


@njit(cache=True)
def fleets_of(r, n_players: int) -> np.ndarray:
    """``owner[f]`` for a new game: which player sails each of the four flags."""
    owner = np.full(N_FLEETS, -1, dtype=np.int64)
    if n_players == 2:
        if r.two_player_fleets == 2:
            # each player sails two flags at opposite corners; the players alternate round the table
            owner[0] = 0
            owner[1] = 1
            owner[2] = 0
            owner[3] = 1
        elif r.two_player_corners == CORNERS_ADJACENT:
            owner[0] = 0
            owner[1] = 1
        else:
            owner[0] = 0
            owner[2] = 1
    else:
        for p in range(n_players):
            owner[p] = p
    return owner


@njit(cache=True)
def new_game(r, n_players: int, st: State) -> None:
    """Set up: every flag's ships next to its anchor, the treasure on Skull Island."""
    ships, owner, occ, g = st
    owner[:] = fleets_of(r, n_players)
    ships[:] = -1
    occ[:] = -1
    g[:] = 0
    g[G_TREASURE] = ON_ISLAND
    g[G_WINNER] = -1
    g[G_TAKEN_TURN] = -1
    g[G_PLAYERS] = n_players
    for f in range(N_FLEETS):
        if owner[f] < 0:
            continue
        for k in range(r.ships_per_fleet):
            c = START[r.start_squares, f, k]
            ships[f * FLEET + k] = c
            occ[c] = f * FLEET + k


# OPENINGS[c, k]: the directions of the rays of k pips from c, as four 6-bit masks in one int32:
# those landing on the water (bits 0-5), those passing a trade wind (8-13) or a strait (16-21),
# those meeting an anchorage (24-29). One read tells a ship which directions the board and the
# rules leave open; only other ships can still stop it.
WATER, WIND_SHIFT, STRAIT_SHIFT, ANCHORAGE_SHIFT = 0x3F, 8, 16, 24
GRID_DIRECTIONS = 0b1111  # the four grid directions; 4 and 5 are the trade-wind diagonals


def _openings() -> np.ndarray:
    openings = np.zeros((N_CELLS, 7), dtype=np.int32)
    for c in range(N_CELLS):
        for d in range(N_DIRS):
            for k in range(1, 7):
                if RAY[c, d, k] < 0:
                    continue
                f = int(RAY_FLAGS[c, d, k])
                bits = 1 << d
                for flag, shift in (
                    (PASSES_WIND, WIND_SHIFT),
                    (PASSES_STRAIT, STRAIT_SHIFT),
                    (MEETS_ANCHORAGE, ANCHORAGE_SHIFT),
                ):
                    if f & flag:
                        bits |= 1 << (shift + d)
                openings[c, k] |= bits
    return openings


OPENINGS = _openings()
# ALLOWED_BITS[corner]: ALLOWED's directions as a mask
ALLOWED_BITS = np.array([sum(1 << d for d in range(N_DIRS) if ALLOWED[k, d]) for k in range(4)])
# LOWEST[m]: the lowest set bit of a 6-bit mask (a loop over a mask's bits in direction order)
LOWEST = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 64)])


# No reference counting (``_nrt=False``: they allocate nothing): the atomic increments and
# decrements of the arrays per call cost more than the walk itself.
@njit(cache=True, _nrt=False)
def open_directions(r, ships, g, s: int, pips: int) -> int:
    """The directions (bits) in which ship ``s`` may move ``pips`` spaces as far as the board and
    the rules go; :func:`walk_clear` then checks the ships in the way.

    A die moves in one straight line: grid steps anywhere, the trade-wind diagonal only from a
    trade wind and only along it (the step table has no diagonal leaving a wind). By default a
    trade wind or a strait may not be passed, only landed on. A treasure ship never heads away
    from its port; closed anchorages (an option) are land once the treasure has left the island.
    """
    m = OPENINGS[ships[s], pips]
    dirs = m & WATER
    if not r.wind_diagonal:
        dirs &= GRID_DIRECTIONS
    if not r.wind_pass:
        dirs &= ~(m >> WIND_SHIFT)
    if not r.strait_pass:
        dirs &= ~(m >> STRAIT_SHIFT)
    if r.anchorages_after_taking == ANCHORAGES_CLOSED and g[G_TREASURE] != ON_ISLAND:
        dirs &= ~(m >> ANCHORAGE_SHIFT)
    if g[G_TREASURE] == s and r.treasure_limit == LIMIT_DIRECTIONS:
        dirs &= ALLOWED_BITS[s // FLEET]
    return dirs & WATER


@njit(cache=True, _nrt=False)
def walk_clear(ships, owner, occ, s: int, d: int, pips: int) -> int:
    """Where ship ``s`` lands moving ``pips`` spaces in an open direction ``d``
    (:func:`open_directions`), or -1: no ship may be passed, and the landing space is empty or
    holds an opponent's ship (a capture)."""
    c = ships[s]
    for k in range(1, pips):
        if occ[RAY[c, d, k]] >= 0:
            return -1
    t = RAY[c, d, pips]
    o = occ[t]
    if o >= 0 and owner[o // FLEET] == owner[s // FLEET]:
        return -1
    return t


@njit(cache=True, _nrt=False)
def walk(r, ships, owner, occ, g, s: int, d: int, pips: int) -> int:
    """Where ship ``s`` lands moving ``pips`` spaces in direction ``d`` with one die, or -1
    (:func:`open_directions`, then :func:`walk_clear`)."""
    if (open_directions(r, ships, g, s, pips) >> d) & 1 == 0:
        return -1
    return walk_clear(ships, owner, occ, s, d, pips)


# Helpers of the capture odds' inner loops allocate nothing: no reference counting (as ``walk``).
@njit(cache=True, _nrt=False)
def make_step(ships, occ, g, s: int, to: int, take: int) -> tuple[int, int, int]:
    """Move ship ``s`` to ``to`` (capturing what is there, taking the treasure when ``take`` and
    the ship lands on an anchorage with the treasure still on the island). Returns the undo record
    ``(from, captured ship or -1, treasure before)``."""
    frm = ships[s]
    cap = occ[to]
    old = g[G_TREASURE]
    if cap >= 0:
        ships[cap] = -1
        if old == cap:
            g[G_TREASURE] = s
    occ[frm] = -1
    occ[to] = s
    ships[s] = to
    if take == 1 and old == ON_ISLAND and IS_ANCHORAGE[to]:
        g[G_TREASURE] = s
    return frm, cap, old


@njit(cache=True, _nrt=False)
def unmake_step(ships, occ, g, s: int, frm: int, cap: int, old: int):
    to = ships[s]
    occ[to] = cap
    if cap >= 0:
        ships[cap] = to
    occ[frm] = s
    ships[s] = frm
    g[G_TREASURE] = old


@njit(cache=True, _nrt=False)
def _record(out, n: int, first, second, key: int) -> int:
    """Row ``n`` of ``out``: the die-steps ``first`` and ``second`` (each ``(ship, direction,
    pips, take)``; a second ship of -1: a one-step move) leading to the position ``key``."""
    if n < out.shape[0]:
        out[n, M_STEPS] = 1 if second[0] < 0 else 2
        for k in range(4):  # the fields of a step, M_SHIP1.. and M_SHIP2..
            out[n, M_SHIP1 + k] = first[k]
            out[n, M_SHIP2 + k] = second[k]
        out[n, M_KEY] = key
    return n + 1


SEEN_SLOTS = 2 * MAX_MOVES  # hash slots of the positions already listed: at most half full


@njit(cache=True)
def new_move_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scratch :func:`legal_moves` works in: the single steps' rows, the hash slots of the
    positions listed so far (each slot -1 or a row of the list; then, per listed row, the slot it
    took, so that a call leaves every slot empty again), and the ids of the player's ships."""
    singles = np.zeros((MAX_MOVES, MOVE_FIELDS), dtype=np.int64)
    seen = np.full(SEEN_SLOTS + MAX_MOVES, -1, dtype=np.int64)
    return singles, seen, np.zeros(N_SHIPS, dtype=np.int64)


@njit(cache=True, _nrt=False)
def _record_new(out, n: int, first, second, key: int, seen) -> int:
    """:func:`_record` a move unless ``out[:n]`` already leads to the position ``key`` (the
    first move of each position is kept)."""
    h = _slot(key, SEEN_SLOTS)
    while seen[h] >= 0:
        if out[seen[h], M_KEY] == key:
            return n
        h = (h + 1) & (SEEN_SLOTS - 1)
    if n >= min(out.shape[0], MAX_MOVES):  # full (the slots keep one row per move)
        return n
    seen[h] = n
    seen[SEEN_SLOTS + n] = h
    return _record(out, n, first, second, key)


@njit(cache=True, _nrt=False)
def _slot(key: int, size: int) -> int:
    return (key ^ (key >> 13) ^ (key >> 29) ^ (key >> 47)) & (size - 1)


@njit(cache=True, _nrt=False)
def _moves_from(r, st: State, p, d1, d2, out, singles, seen, mine, n_mine, still, pre, counts):
    """The moves of :func:`legal_moves` from the position as it is (``pre`` >= 0: the treasure
    was just taken where a ship stood, recorded in the first step's take field), each resulting
    position once (``seen``: :func:`new_move_scratch`). ``counts``: (distinct positions of
    two-step moves and game-ending first steps, two-step moves, single steps) so far; returns
    them updated."""
    ships, owner, occ, g = st
    n2, n_real2, n1 = counts
    n_orders = 1 if d1 == d2 else 2
    null_ok = r.null_move != NULL_FORBIDDEN
    none = (-1, -1, 0, 0)  # no second step
    alive = alive_mask(ships)  # a step changes it only by its capture
    alone = opponents_left(ships, owner, p) == 0  # so does this
    for order in range(n_orders):
        a = d1 if order == 0 else d2
        b = d2 if order == 0 else d1
        for i in range(n_mine):
            s = mine[i]
            dirs = open_directions(r, ships, g, s, a)
            while dirs:
                d = LOWEST[dirs]
                dirs &= dirs - 1
                t = walk_clear(ships, owner, occ, s, d, a)
                if t < 0:
                    continue
                n_take = 2 if can_take(g, t) else 1
                for tk in range(n_take):
                    frm, cap, old = make_step(ships, occ, g, s, t, tk)
                    alive1 = alive if cap < 0 else alive & ~(1 << cap)
                    key1 = pack_position(ships, g, mine, n_mine, alive1)
                    f1 = tk if pre < 0 else pre
                    first = (s, d, a, f1)
                    n1 = _record(singles, n1, first, none, key1)
                    ended = alone or treasure_home(ships, g)
                    if cap >= 0 and not ended:
                        ended = opponents_left(ships, owner, p) == 0
                    if ended:
                        n2 = _record_new(out, n2, first, none, key1, seen)
                    else:
                        stopped = r.wind_entry_stops and IS_WIND[t] and not IS_WIND[frm]
                        for j in range(n_mine):
                            s2 = mine[j]
                            if s2 == s and stopped:
                                continue
                            dirs2 = open_directions(r, ships, g, s2, b)
                            while dirs2:
                                e = LOWEST[dirs2]
                                dirs2 &= dirs2 - 1
                                t2 = walk_clear(ships, owner, occ, s2, e, b)
                                if t2 < 0:
                                    continue
                                n_take2 = 2 if can_take(g, t2) else 1
                                for tk2 in range(n_take2):
                                    f2, c2, o2 = make_step(ships, occ, g, s2, t2, tk2)
                                    alive2 = alive1 if c2 < 0 else alive1 & ~(1 << c2)
                                    key = pack_position(ships, g, mine, n_mine, alive2)
                                    unmake_step(ships, occ, g, s2, f2, c2, o2)
                                    if key == still and not null_ok:
                                        continue  # out and back: not a move of both dice
                                    n2 = _record_new(out, n2, first, (s2, e, b, tk2), key, seen)
                                    n_real2 += 1
                    unmake_step(ships, occ, g, s, frm, cap, old)
    return n2, n_real2, n1


# Allocates nothing (its scratch is handed in): compiled without reference counting, which
# would count the state's and the scratch's arrays in and out at every turn.
@njit(cache=True, _nrt=False)
def legal_moves(r, st: State, p: int, d1: int, d2: int, out, scratch) -> int:
    """Every legal move of player ``p`` for the roll ``(d1, d2)``, duplicates removed, into
    ``out``; returns how many. ``scratch``: :func:`new_move_scratch`.

    Both dice must be used when any sequence allows it (either die first, one ship twice or two
    ships once); otherwise any single die-step is legal (with ``must_use_larger``: the larger
    die's when it has one). A first step that ends the game (treasure home, last opponent
    captured) is complete on its own. Landing on an anchorage with the treasure on the island
    gives two moves, with and without taking it. With ``take_on_anchorage`` 'any_time' a ship
    standing on an anchorage may also take it before the dice (``M_TAKE1`` = TAKEN_BEFORE +
    that ship); with ``null_move`` 'forbidden' a double that ends where the turn started is not
    a move.
    """
    ships, owner, g = st.ships, st.owner, st.g
    singles, seen, mine = scratch
    n_mine = list_ships(ships, owner, p, mine)
    counts = (0, 0, 0)  # two-step moves and game-ending first steps, two-step moves, singles
    still = pack_position(ships, g, mine, n_mine, alive_mask(ships))  # if nothing moved
    # 'any_time': a ship standing on an anchorage may take the treasure before the dice
    n_pre = 1
    if r.take_on_anchorage == TAKE_ANY_TIME and g[G_TREASURE] == ON_ISLAND:
        n_pre += n_mine
    for pre in range(n_pre):
        if pre > 0:
            if not IS_ANCHORAGE[ships[mine[pre - 1]]]:
                continue
            g[G_TREASURE] = mine[pre - 1]
        taken = TAKEN_BEFORE + mine[pre - 1] if pre > 0 else -1
        counts = _moves_from(r, st, p, d1, d2, out, singles, seen, mine, n_mine, still, taken,
                             counts)  # fmt: skip
        if pre > 0:
            g[G_TREASURE] = ON_ISLAND
    n2, n_real2, n1 = counts
    if n_real2 == 0:
        # no sequence uses both dice: one die, any single step (the larger die's if required),
        # each resulting position once
        _forget(seen, n2)
        big = max(d1, d2)
        keep_big = False
        if r.must_use_larger:
            for i in range(min(n1, singles.shape[0])):
                if singles[i, M_PIPS1] == big:
                    keep_big = True
        none = (-1, -1, 0, 0)
        n2 = 0
        for i in range(min(n1, singles.shape[0])):
            if keep_big and singles[i, M_PIPS1] != big:
                continue
            first = (singles[i, M_SHIP1], singles[i, M_SHIP1 + 1], singles[i, M_SHIP1 + 2],
                     singles[i, M_SHIP1 + 3])  # fmt: skip
            n2 = _record_new(out, n2, first, none, singles[i, M_KEY], seen)
    _forget(seen, n2)
    return n2


@njit(cache=True, _nrt=False)
def _forget(seen, n: int) -> None:
    """Empty the hash slots the first ``n`` rows of a list took."""
    for i in range(n):
        seen[seen[SEEN_SLOTS + i]] = -1


@njit(cache=True, _nrt=False)
def step_target(r, ships, owner, occ, g, move, k: int) -> int:
    """The landing space of die-step ``k`` (0 or 1) of ``move`` in the current position."""
    base = 1 + 4 * k
    return walk(r, ships, owner, occ, g, move[base], move[base + 1], move[base + 2])


@njit(cache=True, _nrt=False)
def make_move(r, ships, owner, occ, g, move, undo) -> int:
    """Apply ``move`` (legal in this position), writing undo records into ``undo[2, 3]``;
    returns the number of steps applied (a game-ending first step stops the move)."""
    n = move[M_STEPS]
    if move[M_TAKE1] >= TAKEN_BEFORE:  # taken where the ship stood, before the dice
        g[G_TREASURE] = move[M_TAKE1] - TAKEN_BEFORE
    for k in range(n):
        base = 1 + 4 * k
        s = move[base]
        t = RAY[ships[s], move[base + 1], move[base + 2]]  # a legal step lands where its ray does
        frm, cap, old = make_step(ships, occ, g, s, t, move[base + 3])
        undo[k, 0] = frm
        undo[k, 1] = cap
        undo[k, 2] = old
    return n


@njit(cache=True, _nrt=False)
def unmake_move(ships, occ, g, move, undo, n: int):
    for k in range(n - 1, -1, -1):
        unmake_step(ships, occ, g, move[1 + 4 * k], undo[k, 0], undo[k, 1], undo[k, 2])
    if move[M_TAKE1] >= TAKEN_BEFORE:
        g[G_TREASURE] = ON_ISLAND


@njit(cache=True, _nrt=False)
def play_move(r, st: State, p: int, move, heat, rec, rec_n) -> None:
    """Play a legal move step by step, counting captures and the treasure's changes of hand
    (``heat``: the per-space counts of captures, treasure taken and treasure lost); ends the game
    when a step brings the treasure home or captures the last opponent."""
    ships, owner, occ, g = st
    cap_cell, taken_cell, lost_cell = heat
    if move[M_TAKE1] >= TAKEN_BEFORE:  # taken where the ship stood ('any_time')
        s = move[M_TAKE1] - TAKEN_BEFORE
        g[G_TREASURE] = s
        taken_cell[ships[s]] += 1
        g[G_TAKEN_TURN] = g[G_TURN]
        record(rec, rec_n, EV_TREASURE, g[G_TURN] + 1, p, s, ships[s], -1)
    for k in range(move[M_STEPS]):
        base = 1 + 4 * k
        s = move[base]
        frm = ships[s]
        t = RAY[frm, move[base + 1], move[base + 2]]  # a legal step lands where its ray does
        victim = occ[t]
        before = g[G_TREASURE]
        make_step(ships, occ, g, s, t, move[base + 3])
        turn = g[G_TURN] + 1
        record(rec, rec_n, EV_MOVE, turn, p, s, move[base + 2], move[base + 1], frm, t, victim,
               g[G_TREASURE])  # fmt: skip
        if victim >= 0:
            g[G_CAPTURES] += 1
            cap_cell[t] += 1
            carried = 1 if before == victim else 0
            record(rec, rec_n, EV_CAPTURE, turn, p, s, victim, owner[victim // FLEET], t, carried)
            if before == victim:
                g[G_TREASURE_CAPTURES] += 1
                lost_cell[t] += 1
                taken_cell[t] += 1
                record(rec, rec_n, EV_TREASURE, turn, p, s, t, victim)
        elif before == ON_ISLAND and g[G_TREASURE] == s:
            taken_cell[t] += 1
            g[G_TAKEN_TURN] = g[G_TURN]
            record(rec, rec_n, EV_TREASURE, turn, p, s, t, -1)
        if treasure_home(ships, g):
            g[G_ENDED] = 1
            g[G_END_REASON] = END_TREASURE_HOME
            g[G_WINNER] = p
            g[G_TREASURE] = DELIVERED
            return
        if victim >= 0 and opponents_left(ships, owner, p) == 0:
            g[G_ENDED] = 1
            g[G_END_REASON] = END_LAST_OPPONENT
            g[G_WINNER] = p
            return


@njit(cache=True, _nrt=False)
def end_turn(r, g) -> None:
    """A seat with ships has played its turn: count it, and stop the game at the turn cap."""
    g[G_TURN] += 1
    if g[G_ENDED] == 0 and g[G_TURN] >= r.max_turns:
        g[G_ENDED] = 1
        g[G_END_REASON] = END_TURN_CAP


# -- what an opponent can do next turn (exact, over the 36 rolls) ----------------------------------
# These allocate nothing: compiled without reference counting (``_nrt=False``, as ``walk``).
REACH = 12  # no two-dice move covers more spaces


@njit(cache=True, _nrt=False)
def _has_two_step(r, ships, owner, occ, g, q: int, a: int, b: int) -> bool:
    """Can ``q`` use both dice of the roll ``(a, b)`` (either order) in this position?"""
    theirs = fleet_mask(ships, owner, q)
    for order in range(2):
        x = a if order == 0 else b
        y = b if order == 0 else a
        for s in range(N_SHIPS):
            if (theirs >> s) & 1 == 0:
                continue
            dirs = open_directions(r, ships, g, s, x)
            while dirs:
                d = LOWEST[dirs]
                dirs &= dirs - 1
                t = walk_clear(ships, owner, occ, s, d, x)
                if t < 0:
                    continue
                frm, cap, old = make_step(ships, occ, g, s, t, 0)
                found = is_terminal(ships, owner, g, q)
                stopped = r.wind_entry_stops and IS_WIND[t] and not IS_WIND[frm]
                for s2 in range(N_SHIPS):
                    if found:
                        break
                    if (theirs >> s2) & 1 == 0 or (s2 == s and stopped):
                        continue
                    dirs2 = open_directions(r, ships, g, s2, y)
                    while dirs2:
                        e = LOWEST[dirs2]
                        dirs2 &= dirs2 - 1
                        if walk_clear(ships, owner, occ, s2, e, y) >= 0:
                            found = True
                            break
                unmake_step(ships, occ, g, s, frm, cap, old)
                if found:
                    return True
    return False


@njit(cache=True, _nrt=False)
def _has_single(r, ships, owner, occ, g, q: int, pips: int) -> bool:
    theirs = fleet_mask(ships, owner, q)
    for s in range(N_SHIPS):
        if (theirs >> s) & 1 == 0:
            continue
        dirs = open_directions(r, ships, g, s, pips)
        while dirs:
            d = LOWEST[dirs]
            dirs &= dirs - 1
            if walk_clear(ships, owner, occ, s, d, pips) >= 0:
                return True
    return False


@njit(cache=True, _nrt=False)
def roll_captures(r, ships, owner, occ, g, q: int, p: int, a: int, b: int, relevant,
                  within=-1) -> int:  # fmt: skip
    """Bit mask of ``p``'s ships that some legal move of ``q`` captures with the roll ``(a, b)``.

    Exact under the rules of :func:`legal_moves`: a capture by the second die-step, or by a first
    step that some second step can follow, or that ends the game, is legal; a first-step capture
    nothing can follow is legal only when no move uses both dice (and, with ``must_use_larger``,
    only with the larger die). Only ``q``'s ships in ``relevant`` (a bit per ship) can be on a
    capture's path at all; the others matter only for whether a second step exists. Taking the
    treasure only restricts a ship, so the treasure is never taken here. ``within``: bits of
    ``p``'s ships some leg fitting the roll reaches (no other can be captured), so the answer is
    whole once they are all in.
    """
    theirs = fleet_mask(ships, owner, q)
    got = 0
    pend0 = 0  # first-step captures with die a that nothing can follow
    pend1 = 0  # the same with die b
    n_orders = 1 if a == b else 2
    for order in range(n_orders):
        x = a if order == 0 else b
        y = b if order == 0 else a
        for s in range(N_SHIPS):
            if (theirs >> s) & 1 == 0 or (relevant >> s) & 1 == 0:
                continue
            dirs = open_directions(r, ships, g, s, x)
            while dirs:
                d = LOWEST[dirs]
                dirs &= dirs - 1
                if got & within == within:
                    return got
                t = walk_clear(ships, owner, occ, s, d, x)
                if t < 0:
                    continue
                o = occ[t]
                capbit = (1 << o) if o >= 0 and owner[o // FLEET] == p else 0
                frm, cap, old = make_step(ships, occ, g, s, t, 0)
                if is_terminal(ships, owner, g, q):
                    got |= capbit
                    unmake_step(ships, occ, g, s, frm, cap, old)
                    continue
                cont = False
                stopped = r.wind_entry_stops and IS_WIND[t] and not IS_WIND[frm]
                for s2 in range(N_SHIPS):
                    if (theirs >> s2) & 1 == 0 or (s2 == s and stopped):
                        continue
                    if (relevant >> s2) & 1 == 0 and cont:
                        continue
                    c2 = ships[s2]
                    dirs2 = open_directions(r, ships, g, s2, y)
                    while dirs2:
                        e = LOWEST[dirs2]
                        dirs2 &= dirs2 - 1
                        if cont:
                            # a second step is known to exist: walk only to a capture not yet
                            # counted (a walk lands on RAY's space or nowhere)
                            t2 = RAY[c2, e, y]
                            if t2 < 0:
                                continue
                            o2 = occ[t2]
                            if o2 < 0 or owner[o2 // FLEET] != p or (got >> o2) & 1:
                                continue
                        t2 = walk_clear(ships, owner, occ, s2, e, y)
                        if t2 < 0:
                            continue
                        cont = True
                        o2 = occ[t2]
                        if o2 >= 0 and owner[o2 // FLEET] == p:
                            got |= 1 << o2
                unmake_step(ships, occ, g, s, frm, cap, old)
                if cont:
                    got |= capbit
                elif order == 0:
                    pend0 |= capbit
                else:
                    pend1 |= capbit
    if a == b:
        pend1 = pend0
    if (pend0 | pend1) & ~got != 0 and not _has_two_step(r, ships, owner, occ, g, q, a, b):
        if r.must_use_larger and a != b:
            big_first = a > b
            big = a if big_first else b
            if _has_single(r, ships, owner, occ, g, q, big):
                got |= pend0 if big_first else pend1
            else:
                got |= pend1 if big_first else pend0
        else:
            got |= pend0 | pend1
    return got


@njit(cache=True, _nrt=False)
def roll_can_capture(legs: int, a: int, b: int) -> bool:
    """Does some leg of ``legs`` (:data:`LEGS` bits) fit the roll ``(a, b)``: one die's step, or
    both dice's in either order?"""
    if (legs >> (a - 1)) & 1 or (legs >> (b - 1)) & 1:
        return True
    ab = LEG2 + 6 * (a - 1) + (b - 1)
    ba = LEG2 + 6 * (b - 1) + (a - 1)
    return bool((legs >> ab) & 1 or (legs >> ba) & 1)


@njit(cache=True, _nrt=False)
def capture_odds(r, ships, owner, occ, g, q: int, p: int, out):
    """Set ``out[s]`` to the chance (over the 36 rolls) that ``q`` can
    capture ``p``'s ship ``s`` on ``q``'s next turn, this position unchanged until then.

    Only the rolls some leg of ``q``'s ships onto ``p``'s allows (:data:`LEGS`) are examined:
    no other roll can capture anything."""
    for s in range(N_SHIPS):
        out[s] = 0.0
    relevant = 0
    legs = 0
    for s in range(N_SHIPS):
        if ships[s] < 0 or owner[s // FLEET] != q:
            continue
        for m in range(N_SHIPS):
            if ships[m] >= 0 and owner[m // FLEET] == p:
                if DIST[ships[s], ships[m]] <= REACH:
                    relevant |= 1 << s
                legs |= LEGS[ships[s], ships[m]]
    if relevant == 0 or legs == 0:
        return
    for a in range(1, 7):
        for b in range(a, 7):
            if not roll_can_capture(legs, a, b):
                continue
            within = 0
            for m in range(N_SHIPS):
                if ships[m] >= 0 and owner[m // FLEET] == p:
                    for s in range(N_SHIPS):
                        if (
                            ships[s] >= 0
                            and owner[s // FLEET] == q
                            and roll_can_capture(LEGS[ships[s], ships[m]], a, b)
                        ):
                            within |= 1 << m
                            break
            mask = roll_captures(r, ships, owner, occ, g, q, p, a, b, relevant, within)
            if mask == 0:
                continue
            w = (1.0 if a == b else 2.0) / 36.0
            for s in range(N_SHIPS):
                if (mask >> s) & 1:
                    out[s] += w
