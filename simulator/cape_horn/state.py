"""Cape Horn state layout and the compiled rule helpers shared by the engine and the policies.

State of one game (all int64):

- ``card[cell]``: the design of the top wind card on a space, -1 for none (pre-printed start
  winds are cards too);
- ``ship[player]``: the cell of each clipper;
- ``pl[player, P_*]``: sail points, tokens by zone (colour or -1) and the counters reported;
- ``hand[player, design]``: wind cards in hand by design;
- ``g[G_*]``: the game's scalars; ``deck``: the shuffled draw pile (both piles as one: they are
  face down and drawn from at the player's choice, so which pile is drawn cannot matter).

``B`` is :class:`simulator.cape_horn.board.BoardArrays`, ``r`` the rules' ``to_engine()`` tuple.
Every helper is a small compiled function so tests can drive one rule on a hand-made position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import K_FINISH, K_LAND, K_NONE, N_ZONES
from .rules import (
    ADJ_ORTHOGONAL,
    FINISH_REACH,
    FORCED_FREE,
    REACH_ALL,
    REACH_MOVES_ONLY,
)

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


def new_state(n_players: int, n_cells: int, n_designs: int, deck_size: int):
    """Empty state arrays of one game."""
    card = np.full(n_cells, -1, np.int64)
    ship = np.full(n_players, -1, np.int64)
    pl = np.zeros((n_players, N_PLAYER_FIELDS), np.int64)
    hand = np.zeros((n_players, n_designs), np.int64)
    g = np.zeros(N_GAME_FIELDS, np.int64)
    deck = np.zeros(max(deck_size, 1), np.int64)
    return card, ship, pl, hand, g, deck


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
def touches_card(B, r, card, c):
    """Some other card touches ``c`` (diagonally too unless the rules say orthogonally)."""
    for i in range(8):
        n = B.neigh[c, i]
        if n >= 0 and card[n] >= 0 and (r.adjacency != ADJ_ORTHOGONAL or B.orth[c, i] == 1):
            return True
    return False


@njit(cache=True, _nrt=False)
def move_target(B, card, c, k):
    """Cell option ``k`` of the card on ``c`` leads to (-1 off the board or no such option)."""
    d = card[c]
    if d < 0 or k >= B.n_moves[d]:
        return -1
    return B.target[c, d, k]


@njit(cache=True, _nrt=False)
def all_off_board(B, card, c):
    """Every option of the card under a ship leads off the board (forced 'ignorar')."""
    d = card[c]
    if d < 0:
        return True
    for k in range(B.n_moves[d]):
        if B.target[c, d, k] >= 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def can_land(B, r, card, ship, p, t):
    """Ship ``p`` may end a move on ``t``: a space with a card, no other ship unless a station."""
    if t < 0:
        return False
    if card[t] < 0 and not (r.finish_mode == FINISH_REACH and B.kind[t] == K_FINISH):
        return False
    return is_station(B, t) or ship_at(ship, t, p) < 0


@njit(cache=True, _nrt=False)
def reaches(B, r, card, ship, p, c):
    """Ship ``p`` could reach ``c`` this turn: by the moves of its card, and by the rules'
    choice also by 'ignorar' and by either landing of 'mover dos veces'."""
    s = ship[p]
    d = card[s]
    if d >= 0:
        for k in range(B.n_moves[d]):
            t1 = B.target[s, d, k]
            if t1 == c:
                return True
            # 'mover dos veces': the second move goes by the card of a first landing
            if r.cover_reach == REACH_ALL and t1 >= 0 and card[t1] >= 0:
                if can_land(B, r, card, ship, p, t1):
                    d1 = card[t1]
                    for k2 in range(B.n_moves[d1]):
                        if B.target[t1, d1, k2] == c:
                            return True
    if r.cover_reach != REACH_MOVES_ONLY:
        for i in range(8):
            if B.neigh[s, i] == c:
                return True
    return False


@njit(cache=True, _nrt=False)
def can_place(B, r, card, ship, hand, p, d, c, n_this_turn):
    """Player ``p`` may lay a card of design ``d`` on ``c`` as one of ``n_this_turn`` cards."""
    if d < 0 or d >= hand.shape[1] or hand[p, d] <= 0 or c < 0 or not holds_cards(B, c):
        return False
    if not touches_card(B, r, card, c):
        return False
    if card[c] < 0:
        return True
    # covering a card (printed start winds included)
    if r.cover_sole_card and n_this_turn != 1:
        return False
    if ship_at(ship, c, -1) >= 0:
        return False
    return not reaches(B, r, card, ship, p, c)


@njit(cache=True, _nrt=False)
def can_place_empty(B, r, card, c):
    """An empty space a card may be laid on (the common case of the policies' search)."""
    return c >= 0 and card[c] < 0 and holds_cards(B, c) and touches_card(B, r, card, c)


@njit(cache=True, _nrt=False)
def ignore_cost(B, r, card, ship, p):
    """Sail points 'ignorar' costs now (free when forced, if the rules say so)."""
    if r.forced_ignore == FORCED_FREE and all_off_board(B, card, ship[p]):
        return 0
    return r.ignore_cost


@njit(cache=True, _nrt=False)
def has_normal_move(B, r, card, ship, p):
    s = ship[p]
    d = card[s]
    if d < 0:
        return False
    for k in range(B.n_moves[d]):
        if can_land(B, r, card, ship, p, B.target[s, d, k]):
            return True
    return False


@njit(cache=True, _nrt=False)
def twice_target(B, r, card, ship, p, k1, k2):
    """Where 'mover dos veces' with options ``k1`` then ``k2`` ends, -1 when illegal."""
    t1 = move_target(B, card, ship[p], k1)
    if not can_land(B, r, card, ship, p, t1) or card[t1] < 0:
        return -1
    t2 = move_target(B, card, t1, k2)
    if not can_land(B, r, card, ship, p, t2):
        return -1
    return t2


@njit(cache=True, _nrt=False)
def legal_move(B, r, card, ship, pl, p, kind, a, b):
    """The move (kind, a, b) is legal for ``p`` now (sail points included)."""
    s = ship[p]
    if kind == MV_NONE:
        return True
    if kind == MV_NORMAL:
        return can_land(B, r, card, ship, p, move_target(B, card, s, a))
    if kind == MV_IGNORE:
        if pl[p, P_SP] < ignore_cost(B, r, card, ship, p):
            return False
        for i in range(8):
            if B.neigh[s, i] == a and a >= 0:
                return can_land(B, r, card, ship, p, a)
        return False
    if kind == MV_TWICE:
        return pl[p, P_SP] >= r.twice_cost and twice_target(B, r, card, ship, p, a, b) >= 0
    return False


@njit(cache=True, _nrt=False)
def token_allowed(B, pl, g, p, c):
    """Ending a move on ``c`` earns ``p`` a token: a station whose zone slot is free and whose
    colour ``p`` does not hold yet, with a token of that colour left."""
    z = B.st_zone[c]
    if z < 0 or pl[p, P_TOK + z] >= 0:
        return False
    colour = B.st_colour[c]
    for y in range(N_ZONES):
        if pl[p, P_TOK + y] == colour:
            return False
    return g[G_TOK_LEFT + colour] > 0


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


@njit(cache=True)
def end_move(B, r, ship, pl, g, p, t, take_token):
    """Ship ``p`` ends a move on ``t``: it takes a token there and may win. Returns the end
    reason (-1 when the game goes on)."""
    ship[p] = t
    if take_token and token_allowed(B, pl, g, p, t):
        colour = B.st_colour[t]
        pl[p, P_TOK + B.st_zone[t]] = colour
        g[G_TOK_LEFT + colour] -= 1
    n = tokens_held(pl, p)
    if r.three_token_victory and n == N_ZONES:
        return END_THREE
    if B.kind[t] == K_FINISH and n >= r.finish_tokens:
        return END_FINISH
    return -1


@njit(cache=True)
def gain_sail_points(r, pl, p, n):
    pl[p, P_SP] = min(pl[p, P_SP] + n, r.max_sail_points)


@njit(cache=True, _nrt=False)
def score(B, pl, ship, p):
    """Progress for the drama analysis: tokens held plus the share of the route sailed (0..1)."""
    return tokens_held(pl, p) + B.route[ship[p]]


@njit(cache=True)
def state_problems(B, r, card, ship, pl, hand, g):
    """Broken invariants as a bit mask (0 when the state is sound)."""
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
