"""Cape Horn's turn rules: every compiled function that applies a rule to a :class:`State`.

Where a card may lie and a ship may land (:func:`can_place`, :func:`can_land`, :func:`reaches`),
what a move costs and whether it is legal (:func:`ignore_cost`, :func:`legal_move`), the station
tokens (:func:`token_allowed`, :func:`end_move`), and the steps of a turn: the sail point
(:func:`sail`), the cards laid (:func:`lay_cards`), the move (:func:`move_step`), the free draw
(:func:`draw_step`) and the purchases (:func:`buy_step`). The engine, the policies and every
simulation of the search call these (docs/rules/cape-horn.md).
"""

from __future__ import annotations

from numba import njit

from simulator.contract.recording import record

from .board import K_FINISH, N_ZONES
from .rules import (
    ADJ_ORTHOGONAL,
    FINISH_REACH,
    FORCED_FREE,
    PILES_END,
    REACH_ALL,
    REACH_MOVES_ONLY,
    STUCK_NO_MOVE,
)
from .state import (
    END_FINISH,
    END_PILES,
    END_THREE,
    G_DECK_N,
    G_DECK_POS,
    G_ROUND,
    G_TOK_LEFT,
    G_TURNS,
    MV_IGNORE,
    MV_NONE,
    MV_NORMAL,
    MV_TWICE,
    P_BLOCKED,
    P_COVERED,
    P_HAND,
    P_IGNORES,
    P_LAID,
    P_NO_MOVES,
    P_SP,
    P_SP_BUY,
    P_SP_GAINED,
    P_SP_IGNORE,
    P_SP_SAILED,
    P_SP_TWICE,
    P_TOK,
    P_TWICES,
    State,
    holds_cards,
    is_station,
    move_target,
    ship_at,
    token_index,
    tokens_held,
)

# Recorded events (simulator.contract.recording): rows of (event, round, player, a, ..., j); round 0
# is the set-up. Fields a.. per event:
EV_PRINTED = 0  # cell, design: a wind printed on a start space
EV_START = 1  # cell: the player's clipper on its start space
EV_DRAW = 2  # design, how (0 dealt, 1 drawn, 2 bought), cards in hand after, sail points after
EV_SAIL = 3  # sail points after the turn's sail point
EV_LAY = 4  # design, cell, design covered (-1 none), cards in hand after
EV_REFUSED = 5  # design, cell: a card the policy asked to lay that may not lie there
EV_BLOCKED = 6  # cell: the card under the ship has no move that may be made
EV_MOVE = 7  # move kind (MV_*), from, to, first landing (twice) or -1, option 1, option 2,
#              sail points after, sail points paid, 1 when the policy's answer was illegal
EV_TOKEN = 8  # zone, colour, station cell
EV_END = 9  # end reason (the player is the winner, -1 for none)
EVENT_KINDS = ("printed", "start", "draw", "sail", "lay", "refused", "blocked", "move", "token",
               "end")  # fmt: skip
EVENT_WIDTH = 12
DRAW_DEALT, DRAW_DRAWN, DRAW_BOUGHT = 0, 1, 2

MAX_PLACE = 16  # rows of the placement buffer (a hand holds at most 12 cards by the rules' bounds)


# stops of a move at which a station token is taken (make_move's ``take``)
TAKE_FIRST, TAKE_END = 1, 2
TAKE_ALL = TAKE_FIRST | TAKE_END


# Helpers compiled with ``_nrt=False`` allocate nothing and return scalars: without the runtime a
# call does not increment and decrement (atomically) every array it is passed, which cost more
# than the helpers' own work (same results, measured in docs/performance.md).
@njit(cache=True, _nrt=False)
def touches_card(B, r, card, c):
    """Some other card touches ``c`` (diagonally too unless the rules say orthogonally)."""
    for i in range(8):
        n = B.neigh[c, i]
        if n >= 0 and card[n] >= 0 and (r.adjacency != ADJ_ORTHOGONAL or B.orth[c, i] == 1):
            return True
    return False


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


@njit(cache=True, _nrt=False)
def gain_sail_points(r, pl, p, n):
    pl[p, P_SP] = min(pl[p, P_SP] + n, r.max_sail_points)


@njit(cache=True, _nrt=False)
def draw(st: State, p: int) -> bool:
    """Top card of the piles into p's hand; False when both piles are empty."""
    pl, hand, g, deck = st.pl, st.hand, st.g, st.deck
    if g[G_DECK_POS] >= g[G_DECK_N]:
        return False
    d = deck[g[G_DECK_POS]]
    g[G_DECK_POS] += 1
    hand[p, d] += 1
    pl[p, P_HAND] += 1
    return True


@njit(cache=True, _nrt=False)
def sail(r, st: State, p: int, rec, rec_n) -> None:
    """Step 1: the turn's sail point."""
    pl = st.pl
    before = pl[p, P_SP]
    gain_sail_points(r, pl, p, r.sail_points_per_turn)
    pl[p, P_SP_SAILED] += pl[p, P_SP] - before
    record(rec, rec_n, EV_SAIL, st.g[G_ROUND], p, pl[p, P_SP])


@njit(cache=True, _nrt=False)
def lay_cards(B, r, st: State, p: int, buf, n: int, laid_heat, rec, rec_n) -> None:
    """Lay the policy's cards in order; each must be legal when laid (a cover only if n == 1)."""
    card, ship, pl, hand, g, _ = st
    rnd = g[G_ROUND]
    for i in range(n):
        d = buf[i, 0]
        c = buf[i, 1]
        if can_place(B, r, card, ship, hand, p, d, c, n):
            under = card[c]
            if card[c] >= 0:
                pl[p, P_COVERED] += 1
            card[c] = d
            hand[p, d] -= 1
            pl[p, P_HAND] -= 1
            pl[p, P_LAID] += 1
            laid_heat[c] += 1
            if rec.shape[0] > 0:
                record(rec, rec_n, EV_LAY, rnd, p, d, c, under, pl[p, P_HAND])
        elif rec.shape[0] > 0:
            record(rec, rec_n, EV_REFUSED, rnd, p, d, c)


@njit(cache=True, _nrt=False)
def can_move_at_all(B, r, card, ship, pl, p):
    """Some move other than 'no move' is legal (by the card, 'ignorar' or twice)."""
    if has_normal_move(B, r, card, ship, p):
        return True
    s = ship[p]
    if pl[p, P_SP] >= ignore_cost(B, r, card, ship, p):
        for i in range(8):
            if can_land(B, r, card, ship, p, B.neigh[s, i]):
                return True
    return False


@njit(cache=True, _nrt=False)
def make_move(B, r, st: State, p: int, move, take=TAKE_ALL) -> int:
    """Carry out the legal ``move`` (kind, a, b); returns the end reason (-1 while the game goes
    on). ``take``: the stops at which the player takes a station token it may take (TAKE_FIRST:
    the first landing of 'mover dos veces', TAKE_END: where the move ends)."""
    card, ship, pl, _, g, _ = st
    kind, a, b = move
    s = ship[p]
    last = (take & TAKE_END) != 0
    if kind == MV_NORMAL:
        return end_move(B, r, ship, pl, g, p, move_target(B, card, s, a), last)
    if kind == MV_IGNORE:
        cost = ignore_cost(B, r, card, ship, p)
        pl[p, P_SP] -= cost
        pl[p, P_SP_IGNORE] += cost
        pl[p, P_IGNORES] += 1
        return end_move(B, r, ship, pl, g, p, a, last)
    if kind == MV_TWICE:
        t1 = move_target(B, card, s, a)
        t2 = twice_target(B, r, card, ship, p, a, b)
        pl[p, P_SP] -= r.twice_cost
        pl[p, P_SP_TWICE] += r.twice_cost
        pl[p, P_TWICES] += 1
        first = r.token_on_first_of_twice and (take & TAKE_FIRST) != 0
        reason = end_move(B, r, ship, pl, g, p, t1, first)
        if reason >= 0:
            return reason
        return end_move(B, r, ship, pl, g, p, t2, last)
    # no move
    if r.stuck == STUCK_NO_MOVE or can_move_at_all(B, r, card, ship, pl, p):
        before = pl[p, P_SP]
        gain_sail_points(r, pl, p, r.no_move_gain)
        pl[p, P_SP_GAINED] += pl[p, P_SP] - before
    pl[p, P_NO_MOVES] += 1
    return -1


@njit(cache=True, _nrt=False)
def record_move(B, st: State, p: int, move, asked: int, before, rec, rec_n) -> None:
    """Record the ``move`` (kind, a, b) just made (``asked``: the kind the policy asked for) from
    ``before`` = (cell, sail points, tokens as ``token_index``) and every station token it took."""
    card, ship, pl, _, g, _ = st
    kind, a, b = move
    frm, sp, held = before
    rnd = g[G_ROUND]
    via = move_target(B, card, frm, a) if kind == MV_TWICE else -1
    record(rec, rec_n, EV_MOVE, rnd, p, kind, frm, ship[p], via, a, b, pl[p, P_SP],
           max(sp - pl[p, P_SP], 0), 1 if kind != asked else 0)  # fmt: skip
    m = 1
    for z in range(N_ZONES):
        colour = pl[p, P_TOK + z]
        if colour != (held // m) % 4 - 1:
            for c in range(B.st_zone.shape[0]):
                if B.st_zone[c] == z and B.st_colour[c] == colour:
                    record(rec, rec_n, EV_TOKEN, rnd, p, z, colour, c)
        m *= 4


@njit(cache=True, _nrt=False)
def move_step(B, r, st: State, p: int, move, blocked_heat, rec, rec_n, take=TAKE_ALL) -> int:
    """Step 3: the policy's ``move`` (kind, a, b), 'no move' when illegal; returns the end reason
    (-1 while the game goes on)."""
    card, ship, pl, _, g, _ = st
    kind, a, b = move
    rnd = g[G_ROUND]
    recording = rec.shape[0] > 0  # (a run skips every event: no call made)
    if not has_normal_move(B, r, card, ship, p):
        pl[p, P_BLOCKED] += 1
        blocked_heat[ship[p]] += 1
        if recording:
            record(rec, rec_n, EV_BLOCKED, rnd, p, ship[p])
    asked = kind
    if not legal_move(B, r, card, ship, pl, p, kind, a, b):
        kind = MV_NONE
    before = (ship[p], pl[p, P_SP], token_index(pl, p) if recording else 0)
    reason = make_move(B, r, st, p, (kind, a, b), take)
    if recording:
        record_move(B, st, p, (kind, a, b), asked, before, rec, rec_n)
    return reason


@njit(cache=True, _nrt=False)
def draw_step(r, st: State, p: int, rec, rec_n) -> int:
    """Step 4, the free draw (skipped with a full hand); returns the end reason (-1: go on)."""
    pl, g, deck = st.pl, st.g, st.deck
    for _ in range(r.draw_per_turn):
        if pl[p, P_HAND] < r.hand_max:
            if not draw(st, p):
                if r.empty_piles == PILES_END:
                    return END_PILES
                break
            if rec.shape[0] > 0:
                record(rec, rec_n, EV_DRAW, g[G_ROUND], p, deck[g[G_DECK_POS] - 1], DRAW_DRAWN,
                       pl[p, P_HAND], pl[p, P_SP])  # fmt: skip
    return -1


@njit(cache=True, _nrt=False)
def buy_step(r, st: State, p: int, nb: int, rec, rec_n) -> None:
    """Step 4, the purchases: up to ``nb`` cards while the hand, the points and the piles allow."""
    pl, g, deck = st.pl, st.g, st.deck
    for _ in range(nb):
        if pl[p, P_HAND] >= r.hand_max or pl[p, P_SP] < r.buy_cost:
            break
        if not draw(st, p):
            break
        pl[p, P_SP] -= r.buy_cost
        pl[p, P_SP_BUY] += r.buy_cost
        if rec.shape[0] > 0:
            record(rec, rec_n, EV_DRAW, g[G_ROUND], p, deck[g[G_DECK_POS] - 1], DRAW_BOUGHT,
                   pl[p, P_HAND], pl[p, P_SP])  # fmt: skip


@njit(cache=True, _nrt=False)
def move_and_draw(B, r, st: State, p: int, move, blocked_heat, rec, rec_n, take=TAKE_ALL) -> int:
    """Step 3 and the free draw of step 4, whoever chose the move; returns the end reason (-1
    while the game goes on)."""
    reason = move_step(B, r, st, p, move, blocked_heat, rec, rec_n, take)
    if reason >= 0:
        return reason
    return draw_step(r, st, p, rec, rec_n)


@njit(cache=True, _nrt=False)
def next_seat(r, g, q: int, n_players: int) -> int:
    """The seat after ``q`` starts its turn (a new round after the last); -1 at the round cap."""
    q += 1
    if q == n_players:
        if g[G_ROUND] >= r.max_rounds:
            return -1
        g[G_ROUND] += 1
        q = 0
    g[G_TURNS] += 1
    return q
