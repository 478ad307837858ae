"""State of a Pedruscos del Espacio game: its layout, :class:`State`, and read-only helpers.

A game is one :class:`State` of int64 arrays: ``pl`` (players x ``P_*``), ``br`` (players x 7:
the turn number at which the player's branch at station ``s`` was built, plus one; 0 means no
branch), ``g`` (game fields ``G_*``) and the two heatmap rows. ``r`` is ``Rules.to_engine()``
(read by name) and ``b`` the board's :class:`~simulator.games.pedruscos.board.BoardArrays`. The
rules that change a state are in :mod:`.turn`; the helpers here only read it (policies read the
state through them).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import config, njit

from .board import ASTEROID, MOON, N_COLOURS, N_STATIONS, PLANET, STATION  # noqa: F401
from .rules import EMPTY_ENDLESS, N_EVENTS, PIRATES_HALF_UP

# -- player fields --------------------------------------------------------------------------------
P_POS = 0  # cell
P_POINTS = 1
P_CARDS = 2  # .. +3: ore cards aboard by colour
P_HCARDS = 5  # .. +3: of those, cards that came from harvests (for branch payback)
P_REPAIR = 8  # 1 after result 8 until the ship takes off from the planet
P_SHIPMENTS = 9  # shipments made (moons and hauler)
P_BRANCHES = 10  # branches built
P_PIRATE_LOST = 11  # cards lost to pirates
P_HARVEST_POINTS = 12  # value of harvested cards when shipped (before the shipment's cost)
P_HARVEST_CARDS = 13  # cards taken by harvests
P_SHIPPED_VALUE = 14  # value of every card shipped (before costs)
P_LOST_TURNS = 15  # turns lost to result 6
P_HARVESTS = 16  # harvests made
P_HARVESTS_PLANET = 17  # of those, along a route through the planet (planet_routes=through)
N_PLAYER_FIELDS = 18

# -- game fields ----------------------------------------------------------------------------------
G_VALUE = 0  # .. +3: ore values
G_DECK = 3  # .. +3: cards left in each colour's deck
G_CLOSED = 6  # station closed for holidays (0: none)
G_TURN = 7  # turns played so far, all players (branches remember it)
G_ROUND = 8  # current round, from 1
G_EVENTS = 9  # .. +8: station table results, table order
G_ENDED = 17
G_END_REASON = 18
G_WINNER = 19
G_PROBLEMS = 20
G_HARVEST_ROLL = 21  # the last harvest's dice total, its route row, 1 if coordinated: notes for
G_HARVEST_ROUTE = 22  # a replay (record.py), never read by the rules
G_HARVEST_COORD = 23
N_GAME_FIELDS = 24

END_TARGET, END_ROUND_CAP = 0, 1
END_REASONS = ("target", "round_cap")

# Problem bits of :func:`state_problems` (0: every invariant holds).
PROBLEM_NEGATIVE = 1
PROBLEM_HOLD = 2
PROBLEM_DECK = 4
PROBLEM_HARVEST_CARDS = 8
PROBLEM_POSITION = 16
PROBLEM_CLOSED = 32
PROBLEM_VALUE = 64

TWO_DICE = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.int64)  # ways of 2..12 /36


# A game in progress: players, branches, game fields, and where the ships ended their turns and
# collected cards, by cell (the heatmaps).
State = namedtuple("State", "pl br g turn_ends collects")


@njit(cache=True)
def new_state(n_players: int, n_cells: int) -> State:
    """Empty arrays for one game."""
    return State(
        np.zeros((n_players, N_PLAYER_FIELDS), dtype=np.int64),
        np.zeros((n_players, N_STATIONS + 1), dtype=np.int64),
        np.zeros(N_GAME_FIELDS, dtype=np.int64),
        np.zeros(n_cells, dtype=np.int64),
        np.zeros(n_cells, dtype=np.int64),
    )


@njit(cache=True, _nrt=False)
def copy_state(dst: State, src: State) -> None:
    """``src``'s arrays into ``dst``'s, element by element: a slice assignment may copy its
    source first, which takes the runtime, and a search's simulation runs without it."""
    for p in range(src.pl.shape[0]):
        for i in range(src.pl.shape[1]):
            dst.pl[p, i] = src.pl[p, i]
        for i in range(src.br.shape[1]):
            dst.br[p, i] = src.br[p, i]
    for i in range(src.g.shape[0]):
        dst.g[i] = src.g[i]
    for i in range(src.turn_ends.shape[0]):
        dst.turn_ends[i] = src.turn_ends[i]
        dst.collects[i] = src.collects[i]


if config.DISABLE_JIT:  # interpreted: numpy's slice copies, the same values without the loops

    def copy_state(dst: State, src: State) -> None:  # noqa: F811
        for d, s in zip(dst, src, strict=True):
            d[:] = s


@njit(cache=True)
def seed_rng(seed):
    """Seed the compiled generator (tests drive single rules from a known seed)."""
    np.random.seed(seed)


# -- cards ----------------------------------------------------------------------------------------
# Helpers compiled with ``_nrt=False`` allocate nothing and return scalars: without the runtime a
# call does not increment and decrement (atomically) every array it is passed, which cost more
# than the helpers' own work (same results, measured in docs/performance.md).
@njit(cache=True, _nrt=False)
def cargo(pl, p) -> int:
    return pl[p, P_CARDS] + pl[p, P_CARDS + 1] + pl[p, P_CARDS + 2]


@njit(cache=True, _nrt=False)
def cargo_value(pl, g, p) -> int:
    v = 0
    for c in range(N_COLOURS):
        v += pl[p, P_CARDS + c] * g[G_VALUE + c]
    return v


@njit(cache=True, _nrt=False)
def deck_has(r, g, c) -> bool:
    return r.empty_deck == EMPTY_ENDLESS or g[G_DECK + c] > 0


@njit(cache=True, _nrt=False)
def random_held_colour(pl, p) -> int:
    """A colour drawn in proportion to the cards held (a card picked blindly), -1 if none."""
    n = cargo(pl, p)
    if n == 0:
        return -1
    u = np.random.randint(0, n)
    for c in range(N_COLOURS):
        u -= pl[p, P_CARDS + c]
        if u < 0:
            return c
    return -1


@njit(cache=True, _nrt=False)
def cheapest_held(pl, g, p) -> int:
    """Held colour of least value, -1 with no cards."""
    best = -1
    for c in range(N_COLOURS):
        if pl[p, P_CARDS + c] > 0 and (best < 0 or g[G_VALUE + c] < g[G_VALUE + best]):
            best = c
    return best


@njit(cache=True, _nrt=False)
def dearest_held(pl, g, p) -> int:
    best = -1
    for c in range(N_COLOURS):
        if pl[p, P_CARDS + c] > 0 and (best < 0 or g[G_VALUE + c] > g[G_VALUE + best]):
            best = c
    return best


# -- shipping -------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def can_ship(r, pl, g, p, cost) -> bool:
    v = cargo_value(pl, g, p)
    if cargo(pl, p) == 0:
        return False
    return v > cost if r.must_exceed_cost else True


# -- station events -------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def pirates_discards(r, n) -> int:
    """Cards pirates take from a hold of ``n``: half, rounded down (or up) when odd."""
    if n % 2 == 1 and r.pirates_odd == PIRATES_HALF_UP:
        return (n + 1) // 2
    return n // 2


@njit(cache=True, _nrt=False)
def station_open(g, s) -> bool:
    return g[G_CLOSED] != s


@njit(cache=True, _nrt=False)
def old_branch(br, g, p, s) -> bool:
    """``p`` has had a branch at station ``s`` since before this turn."""
    return br[p, s] > 0 and br[p, s] - 1 < g[G_TURN]


@njit(cache=True, _nrt=False)
def coordinates(br, g, p, end) -> bool:
    """A route ending at station ``end`` doubles the dice: ``p`` has an open branch there."""
    return br[p, end] > 0 and station_open(g, end)


@njit(cache=True, _nrt=False)
def event_probability(r, k) -> float:
    """Probability of table result ``k`` on 2d6 under the rules' table."""
    ways = 0
    for total in range(2, 13):
        if r.event_table[total - 2] == k:
            ways += TWO_DICE[total]
    return ways / 36.0


# -- checks ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=True)  # allocates; its caller (engine.play_rounds) runs without
def state_problems(r, b, pl, br, g) -> int:
    bits = 0
    held = np.zeros(N_COLOURS, dtype=np.int64)
    for p in range(pl.shape[0]):
        if pl[p, P_POINTS] < 0:
            bits |= PROBLEM_NEGATIVE
        if cargo(pl, p) > r.hold_limit:
            bits |= PROBLEM_HOLD
        for c in range(N_COLOURS):
            if pl[p, P_CARDS + c] < 0:
                bits |= PROBLEM_NEGATIVE
            if pl[p, P_HCARDS + c] < 0 or pl[p, P_HCARDS + c] > pl[p, P_CARDS + c]:
                bits |= PROBLEM_HARVEST_CARDS
            held[c] += pl[p, P_CARDS + c]
        if pl[p, P_POS] < 0 or pl[p, P_POS] >= b.kind.shape[0]:
            bits |= PROBLEM_POSITION
    if r.empty_deck != EMPTY_ENDLESS:
        for c in range(N_COLOURS):
            if g[G_DECK + c] < 0 or (r.discards_to_deck and g[G_DECK + c] + held[c] != r.deck_size):
                bits |= PROBLEM_DECK
            if not r.discards_to_deck and g[G_DECK + c] + held[c] > r.deck_size:
                bits |= PROBLEM_DECK
    if g[G_CLOSED] < 0 or g[G_CLOSED] > N_STATIONS:
        bits |= PROBLEM_CLOSED
    for c in range(N_COLOURS):
        ok = False
        for f in range(6):
            if r.value_faces[f] == g[G_VALUE + c]:
                ok = True
        if not ok:
            bits |= PROBLEM_VALUE
    return bits


@njit(cache=True)
def n_events() -> int:
    return N_EVENTS


@njit(cache=True, _nrt=False)
def points_leader(pl) -> int:
    """The seat with the most points, -1 when tied."""
    best = -1
    tied = False
    for p in range(pl.shape[0]):
        if best < 0 or pl[p, P_POINTS] > pl[best, P_POINTS]:
            best = p
            tied = False
        elif pl[p, P_POINTS] == pl[best, P_POINTS]:
            tied = True
    return -1 if tied else best
