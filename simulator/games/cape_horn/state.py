"""Cape Horn's state: its layout, :class:`State`, and read-only helpers over it.

A game in progress is one :class:`State` (all int64 arrays):

- ``card[cell]``: the design of the top wind card on a space, -1 for none (pre-printed start
  winds are cards too);
- ``ship[player]``: the cell of each clipper;
- ``pl[player, P_*]``: sail points, tokens by zone (colour or -1) and the counters reported;
- ``hand[player, design]``: wind cards in hand by design;
- ``g[G_*]``: the game's scalars; ``deck``: the shuffled draw pile (both piles as one: they are
  face down and drawn from at the player's choice, so which pile is drawn cannot matter).

``B`` is :class:`simulator.games.cape_horn.board.BoardArrays`, ``r`` the rules' ``to_engine()``
tuple. The rules that change a state are in :mod:`.turn`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .board import K_FINISH, K_LAND, K_NONE, N_ZONES
from .rules import FINISH_REACH

END_REASONS = ("finish_line", "three_stations", "round_cap", "piles_empty")
END_NOTES = {
    "finish_line": "the first ship to cross the finish line with its station tokens wins; the "
    "score only measures progress (tokens plus the share of the route sailed)",
    "three_stations": "the first ship holding a station token of a different colour in each of "
    "the three zones wins at once; the score only measures progress",
}
END_FINISH, END_THREE, END_CAP, END_PILES = 0, 1, 2, 3

# -- players --------------------------------------------------------------------------------------
P_SP = 0  # sail points
P_HAND = 1  # cards in hand
P_TOK = 2  # P_TOK + zone: colour of the token taken in that zone, -1 for none
P_LAID = 5  # wind cards laid
P_COVERED = 6  # of which laid on top of another card
P_SP_IGNORE = 7  # sail points spent on 'ignorar'
P_SP_TWICE = 8  # sail points spent on 'mover dos veces'
P_SP_BUY = 9  # sail points spent buying cards
P_NO_MOVES = 10  # turns the special move 'no move' was taken
P_BLOCKED = 11  # turns the ship had no legal move by its card
P_IGNORES = 12  # 'ignorar' moves made
P_TWICES = 13  # 'mover dos veces' moves made
P_SP_GAINED = 14  # sail points gained by 'no move'
P_SP_SAILED = 15  # sail points gained by the turn's point (step 1; none at the maximum)
N_PLAYER_FIELDS = 16

# -- game scalars ---------------------------------------------------------------------------------
G_DECK_POS = 0  # next card of the deck
G_DECK_N = 1  # cards in the deck
G_TOK_LEFT = 2  # G_TOK_LEFT + colour: station tokens left in the supply
G_ROUND = 5  # current round (1-based)
G_WINNER = 6
G_END = 7  # end reason, -1 while playing
G_TURNS = 8  # turns played
N_GAME_FIELDS = 9

# -- moves (what decide_move answers: kind, a, b) -------------------------------------------------
MV_NORMAL = 0  # a: option of the card under the ship
MV_IGNORE = 1  # a: target cell (one of the 8 neighbours)
MV_TWICE = 2  # a: option of the first card, b: option of the card landed on
MV_NONE = 3  # no move: gain a sail point

State = namedtuple("State", "card ship pl hand g deck")


@njit(cache=True)
def new_state(n_players: int, n_cells: int, n_designs: int, deck_size: int) -> State:
    """Empty arrays of one game."""
    return State(
        np.full(n_cells, -1, np.int64),
        np.full(n_players, -1, np.int64),
        np.zeros((n_players, N_PLAYER_FIELDS), np.int64),
        np.zeros((n_players, n_designs), np.int64),
        np.zeros(N_GAME_FIELDS, np.int64),
        np.zeros(max(deck_size, 1), np.int64),
    )


@njit(cache=True)
def copy_state(dst: State, src: State) -> None:
    dst.card[:] = src.card
    dst.ship[:] = src.ship
    dst.pl[:] = src.pl
    dst.hand[:] = src.hand
    dst.g[:] = src.g
    dst.deck[:] = src.deck


# Helpers compiled with ``_nrt=False`` allocate nothing and return scalars: without the runtime a
# call does not increment and decrement (atomically) every array it is passed, which cost more
# than the helpers' own work (same results, measured in docs/performance.md).
@njit(cache=True, _nrt=False)
def ship_at(ship, c, skip):
    """Index of a ship other than ``skip`` on cell ``c``, -1 for none."""
    for q in range(ship.shape[0]):
        if q != skip and ship[q] == c:
            return q
    return -1


@njit(cache=True, _nrt=False)
def is_station(B, c):
    return B.st_zone[c] >= 0


@njit(cache=True, _nrt=False)
def holds_cards(B, c):
    """A space a wind card can lie on (sea, start, finish row; not land or off the board)."""
    k = B.kind[c]
    return k != K_NONE and k != K_LAND


@njit(cache=True, _nrt=False)
def move_target(B, card, c, k):
    """Cell option ``k`` of the card on ``c`` leads to (-1 off the board or no such option)."""
    d = card[c]
    if d < 0 or k >= B.n_moves[d]:
        return -1
    return B.target[c, d, k]


@njit(cache=True, _nrt=False)
def tokens_held(pl, p):
    n = 0
    for z in range(N_ZONES):
        if pl[p, P_TOK + z] >= 0:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def token_index(pl, p):
    """Index of p's tokens in ``B.rem``."""
    s = 0
    m = 1
    for z in range(N_ZONES):
        s += (pl[p, P_TOK + z] + 1) * m
        m *= 4
    return s


@njit(cache=True, _nrt=False)
def score(B, pl, ship, p):
    """Progress for the drama analysis: tokens held plus the share of the route sailed (0..1)."""
    return tokens_held(pl, p) + B.route[ship[p]]


@njit(cache=True)
def state_problems(B, r, st: State) -> int:
    """Broken invariants as a bit mask (0 when the state is sound)."""
    card, ship, pl, hand, g, _ = st
    bad = 0
    n_players = ship.shape[0]
    for p in range(n_players):
        if pl[p, P_SP] < 0 or pl[p, P_SP] > r.max_sail_points:
            bad |= 1
        if pl[p, P_HAND] != hand[p].sum() or pl[p, P_HAND] > r.hand_max:
            bad |= 2
        for z in range(N_ZONES):
            c = pl[p, P_TOK + z]
            for y in range(z + 1, N_ZONES):
                if c >= 0 and pl[p, P_TOK + y] == c:
                    bad |= 4
        s = ship[p]
        if card[s] < 0 and not (r.finish_mode == FINISH_REACH and B.kind[s] == K_FINISH):
            bad |= 8
        if not is_station(B, s) and ship_at(ship, s, p) >= 0:
            bad |= 16
    for colour in range(3):
        if g[G_TOK_LEFT + colour] < 0:
            bad |= 32
    for c in range(card.shape[0]):
        if card[c] >= 0 and not holds_cards(B, c):
            bad |= 64
    return bad
