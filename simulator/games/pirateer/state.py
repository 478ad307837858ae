"""Pirateer's state: its layout, :class:`State`, and read-only helpers over it.

A game in progress is one :class:`State` (all int64 arrays):

- ``ships[i]``: the space of ship ``i`` (``-1`` once captured or not in the game). Ship ``i``
  belongs to fleet ``i // FLEET`` (fleet = flag = harbour corner, clockwise from the top-left);
- ``owner[f]``: the player sailing fleet ``f`` (``-1``: the flag is not in the game);
- ``occ[c]``: the ship on space ``c`` or ``-1``;
- ``g[G_*]``: the game's scalars (where the treasure is, whose turn, counters).

A move is one row of ``MOVE_FIELDS``: one or two die-steps, each ``(ship, direction, pips,
take)``. The rules that change a state (legal moves, playing them, the end) are in :mod:`.turn`;
rules arrive as the namedtuple of ``Rules.to_engine()`` and are read by field name.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .board import ANCHOR, IS_ANCHORAGE, N_CELLS
from .rules import Rules

FLEET = 3  # ship slots per fleet (the rulebook's 3 ships)
N_FLEETS = 4
N_SHIPS = FLEET * N_FLEETS

LIMIT_DIRECTIONS = Rules.choice_index("treasure_limit", "toward_or_parallel")
ANCHORAGES_CLOSED = Rules.choice_index("anchorages_after_taking", "closed")
CORNERS_ADJACENT = Rules.choice_index("two_player_corners", "adjacent")
NULL_FORBIDDEN = Rules.choice_index("null_move", "forbidden")
TAKE_ANY_TIME = Rules.choice_index("take_on_anchorage", "any_time")

# -- treasure (g[G_TREASURE]) ---------------------------------------------------------------------
ON_ISLAND = -1
DELIVERED = -2

# -- game scalars ---------------------------------------------------------------------------------
G_TREASURE = 0  # ON_ISLAND, the ship carrying it, or DELIVERED
G_PLAYER = 1  # player whose turn it is
G_TURN = 2  # player turns played
G_ENDED = 3
G_END_REASON = 4
G_WINNER = 5
G_CAPTURES = 6  # ships captured in the game
G_TREASURE_CAPTURES = 7  # captures of the treasure ship (the treasure changing hands)
G_TAKEN_TURN = 8  # turn the treasure left Skull Island (-1: never)
G_PLAYERS = 9
N_G = 10

END_TREASURE_HOME, END_LAST_OPPONENT, END_TURN_CAP = 0, 1, 2
END_REASONS = ("treasure_home", "last_opponent_captured", "turn_cap")
END_NOTES = {
    "treasure_home": "the seat that brings the treasure home wins; the score only counts its "
    "ships on the board (+3 while carrying the treasure)",
    "last_opponent_captured": "the last seat with ships on the board wins; the score only counts "
    "ships (+3 while carrying the treasure)",
}

# -- moves ----------------------------------------------------------------------------------------
M_STEPS = 0  # 1 or 2 die-steps
M_SHIP1, M_DIR1, M_PIPS1, M_TAKE1 = 1, 2, 3, 4  # M_TAKE1 >= TAKEN_BEFORE: see legal_moves
M_SHIP2, M_DIR2, M_PIPS2, M_TAKE2 = 5, 6, 7, 8
M_KEY = 9  # the position the move leads to, packed (duplicates share it)
MOVE_FIELDS = 10
TAKEN_BEFORE = 2  # M_TAKE1 = TAKEN_BEFORE + ship: that ship took the treasure where it stood
MAX_MOVES = 4096

State = namedtuple("State", "ships owner occ g")


@njit(cache=True)
def new_state() -> State:
    """Empty arrays of one game (:func:`.turn.new_game` sets them up)."""
    return State(
        np.zeros(N_SHIPS, dtype=np.int64),
        np.zeros(N_FLEETS, dtype=np.int64),
        np.zeros(N_CELLS, dtype=np.int64),
        np.zeros(N_G, dtype=np.int64),
    )


@njit(cache=True)
def copy_state(dst: State, src: State) -> None:
    dst.ships[:] = src.ships
    dst.owner[:] = src.owner
    dst.occ[:] = src.occ
    dst.g[:] = src.g


@njit(cache=True, _nrt=False)
def ship_owner(owner, s: int) -> int:
    return owner[s // FLEET]


# No reference counting (``_nrt=False``: it allocates nothing): the atomic increments and
# decrements of its four arrays per call cost more than the walk itself.


@njit(cache=True, _nrt=False)
def can_take(g, to: int) -> bool:
    return g[G_TREASURE] == ON_ISLAND and IS_ANCHORAGE[to]


@njit(cache=True, _nrt=False)
def treasure_home(ships, g) -> bool:
    """Is the treasure on its carrier's own anchor square?"""
    t = g[G_TREASURE]
    return t >= 0 and ships[t] == ANCHOR[t // FLEET]


# The loops over the ships below go fleet by fleet: a loop over every ship reading its fleet's
# owner is vectorised by LLVM into AVX-512 gathers, several times slower on twelve ships.
@njit(cache=True, _nrt=False)
def opponents_left(ships, owner, p: int) -> int:
    """Players other than ``p`` with a ship on the board."""
    seen = 0
    n = 0
    for f in range(N_FLEETS):
        q = owner[f]
        if q < 0 or q == p or (seen >> q) & 1:
            continue
        for s in range(f * FLEET, (f + 1) * FLEET):
            if ships[s] >= 0:
                seen |= 1 << q
                n += 1
                break
    return n


@njit(cache=True, _nrt=False)
def is_terminal(ships, owner, g, p: int) -> bool:
    """Does the position end the game in ``p``'s favour (treasure home or no opponent left)?"""
    return treasure_home(ships, g) or opponents_left(ships, owner, p) == 0


@njit(cache=True, _nrt=False)
def fleet_mask(ships, owner, p: int) -> int:
    """``p``'s ships on the board as bits (bit ``s``: ship ``s``); iterating the bits in order
    visits them as :func:`list_ships` lists them."""
    mask = 0
    for f in range(N_FLEETS):
        if owner[f] == p:
            for s in range(f * FLEET, (f + 1) * FLEET):
                if ships[s] >= 0:
                    mask |= 1 << s
    return mask


@njit(cache=True, _nrt=False)
def list_ships(ships, owner, p: int, out) -> int:
    """Write the ids of ``p``'s ships on the board into ``out``, in id order; returns how many."""
    n = 0
    for f in range(N_FLEETS):  # fleet by fleet: no per-ship owner read (see fleet_mask)
        if owner[f] == p:
            for s in range(f * FLEET, (f + 1) * FLEET):
                if ships[s] >= 0:
                    out[n] = s
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def alive_mask(ships) -> int:
    """The ships on the board as bits (bit ``s``: ship ``s``)."""
    alive = 0
    for s in range(N_SHIPS):
        if ships[s] >= 0:
            alive |= 1 << s
    return alive


@njit(cache=True, _nrt=False)
def pack_position(ships, g, mine, n_mine: int, alive: int) -> int:
    """Pack what a move of a player can change: where its ships ``mine[:n_mine]`` are (8 bits
    each), who holds the treasure (3 bits) and which ships are still on the board (``alive``, as
    :func:`alive_mask`: a move's generator knows them from its captures) into one int64."""
    key = 0
    t = g[G_TREASURE]
    tcode = 0
    for i in range(n_mine):
        key = key * 256 + ships[mine[i]] + 1
        if t == mine[i]:
            tcode = i + 1
    if t == ON_ISLAND:
        tcode = 7
    return (key * 8 + tcode) * 4096 + alive


@njit(cache=True, _nrt=False)
def count_alive(ships, owner, p: int) -> int:
    n = 0
    for f in range(N_FLEETS):
        if owner[f] == p:
            for s in range(f * FLEET, (f + 1) * FLEET):
                if ships[s] >= 0:
                    n += 1
    return n


@njit(cache=True)
def check_state(r, st: State) -> int:
    """Broken invariants as bits (0: all hold): 1 a ship off the water, 2 occupancy disagrees
    with the ships, 4 the treasure on a captured ship, 8 a fleet larger than it started."""
    ships, owner, occ, g = st
    bad = 0
    count = 0
    for c in range(N_CELLS):
        if occ[c] >= 0:
            count += 1
            if ships[occ[c]] != c:
                bad |= 2
    alive = 0
    for s in range(N_SHIPS):
        if ships[s] >= 0:
            alive += 1
            if ships[s] >= N_CELLS or owner[s // FLEET] < 0:
                bad |= 1
            elif occ[ships[s]] != s:
                bad |= 2
            if s % FLEET >= r.ships_per_fleet:
                bad |= 8
    if alive != count:
        bad |= 2
    t = g[G_TREASURE]
    if t >= 0 and ships[t] < 0:
        bad |= 4
    return bad


# -- what an opponent can do next turn (exact, over the 36 rolls) ----------------------------------
# These allocate nothing: compiled without reference counting (``_nrt=False``, as ``walk``).
