"""The turn rules of Pedruscos del Espacio (docs/rules/pedruscos.md): every compiled step that
changes a game in progress.

The engine (:mod:`.engine`), the search's simulations (:mod:`.forward`) and the tests play a
turn with these steps and nothing else: :func:`start_turn` (the station table, the take-off, the
die), :func:`land` (collect, ship, harvest, open a branch), :func:`end_turn` and
:func:`next_seat` (the target, the round cap). Each takes the game as one
:class:`~.state.State` and reads its arrays into locals once; the seat's decisions go through
the routers of :mod:`.outside` (built-in or a --policy-file's).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import state as S
from .board import ASTEROID, MOON, N_COLOURS, PLANET, STATION
from .rules import EMPTY_ENDLESS, REPAIRS_TELEPORT, ROUTE_BEFORE_ROLL

# Station table results, in table order (rules.EVENT_NAMES)
EV_NOTHING, EV_HAULER, EV_LOST_TURN, EV_PURITY, EV_REPAIRS, EV_PIRATES, EV_MARKET, EV_HOLIDAYS = (
    range(8)
)


# -- set-up and dice ------------------------------------------------------------------------------
@njit(cache=True)
def setup(r, st: S.State) -> None:
    """A new game: every deck full, the ore values rolled before anyone takes off."""
    st.pl[:] = 0
    st.br[:] = 0
    st.g[:] = 0
    st.turn_ends[:] = 0
    st.collects[:] = 0
    for c in range(3):
        st.g[S.G_DECK + c] = r.deck_size
    roll_values(r, st.g)


@njit(cache=True, _nrt=False)
def roll_values(r, g):
    """One die per colour, read through the value table (start, and result 10)."""
    for c in range(N_COLOURS):
        g[S.G_VALUE + c] = r.value_faces[np.random.randint(0, 6)]


@njit(cache=True, _nrt=False)
def roll_event(r) -> int:
    total = np.random.randint(1, 7) + np.random.randint(1, 7)
    return r.event_table[total - 2]


@njit(cache=True, _nrt=False)
def roll_dice(n) -> int:
    t = 0
    for _ in range(n):
        t += np.random.randint(1, 7)
    return t


# -- cards ----------------------------------------------------------------------------------------
# Steps compiled with ``_nrt=False`` allocate nothing: without the runtime a call does not
# increment and decrement (atomically) every array it is passed (docs/performance.md).
@njit(cache=True, _nrt=False)
def draw_card(r, pl, g, p, c, harvest) -> bool:
    """``p`` takes a card of colour ``c`` from its deck (room is the caller's concern)."""
    if not S.deck_has(r, g, c):
        return False
    if r.empty_deck != EMPTY_ENDLESS:
        g[S.G_DECK + c] -= 1
    pl[p, S.P_CARDS + c] += 1
    if harvest:
        pl[p, S.P_HCARDS + c] += 1
        pl[p, S.P_HARVEST_CARDS] += 1
    return True


@njit(cache=True, _nrt=False)
def discard_card(r, pl, g, p, c):
    """``p`` loses one card of colour ``c``; which one it was (harvested or not) is random in
    proportion, so the harvest bookkeeping stays exact in expectation."""
    n = pl[p, S.P_CARDS + c]
    if n <= 0:
        return
    h = pl[p, S.P_HCARDS + c]
    if h > 0 and np.random.randint(0, n) < h:
        pl[p, S.P_HCARDS + c] -= 1
    pl[p, S.P_CARDS + c] -= 1
    if r.discards_to_deck and r.empty_deck != EMPTY_ENDLESS:
        g[S.G_DECK + c] += 1


@njit(cache=True, _nrt=False)
def take_card(r, b, pids, prm, st: S.State, p, c, harvest, cell, ext=None) -> bool:
    """``p`` takes a card of colour ``c``; a full hold takes it only by discarding one (the
    policy chooses which, or refuses). ``cell`` (-1: none) is where it was collected."""
    pl, g = st.pl, st.g
    if not S.deck_has(r, g, c):
        return False
    if S.cargo(pl, p) >= r.hold_limit:
        d = X.swap(ext, pids[p], prm[p], p, r, b, st, c)
        if d < 0 or d >= 3 or pl[p, S.P_CARDS + d] == 0:
            return False
        discard_card(r, pl, g, p, d)
    draw_card(r, pl, g, p, c, harvest)
    if cell >= 0:
        st.collects[cell] += 1
    return True


# -- shipping -------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def ship(r, pl, g, p, cost) -> int:
    """Ship every card aboard: the player scores value minus ``cost``; cards return to decks."""
    v = S.cargo_value(pl, g, p)
    harvested = 0
    for c in range(N_COLOURS):
        harvested += pl[p, S.P_HCARDS + c] * g[S.G_VALUE + c]
        if r.empty_deck != EMPTY_ENDLESS:
            g[S.G_DECK + c] += pl[p, S.P_CARDS + c]
        pl[p, S.P_CARDS + c] = 0
        pl[p, S.P_HCARDS + c] = 0
    gain = v - cost
    pl[p, S.P_POINTS] += gain
    if pl[p, S.P_POINTS] < 0:  # only with must_exceed_cost off: a shipment never takes points away
        pl[p, S.P_POINTS] = 0
    pl[p, S.P_SHIPMENTS] += 1
    pl[p, S.P_SHIPPED_VALUE] += v
    pl[p, S.P_HARVEST_POINTS] += harvested
    return gain


# -- branches and harvests ------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def harvest(r, b, pids, prm, st: S.State, p, s, scratch, ext=None) -> int:
    """A harvest at station ``s``: dice, then one card per square along the chosen route, in
    order, never past the next station. Returns the route's row. ``scratch``: the decisions'
    (``policies.pedruscos.new_move_scratch``)."""
    pl, br, g = st.pl, st.br, st.g
    lo = b.route_ptr[s]
    hi = b.route_ptr[s + 1]
    if hi == lo:
        return -1
    pid = pids[p]
    if r.route_choice == ROUTE_BEFORE_ROLL:
        i = X.route(ext, pid, prm[p], p, r, b, st, s, 0, False, scratch)
        if i < lo or i >= hi:
            i = lo
        coord = S.coordinates(br, g, p, b.route_end[i])
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
    else:
        coord = False
        for j in range(lo, hi):
            if S.coordinates(br, g, p, b.route_end[j]):
                coord = True
        coord = coord and X.dice(ext, pid, prm[p], p, r, b, st, s, scratch)
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
        i = X.route(ext, pid, prm[p], p, r, b, st, s, roll, coord, scratch)
        if i < lo or i >= hi or (coord and not S.coordinates(br, g, p, b.route_end[i])):
            i = -1
            for j in range(lo, hi):
                if i < 0 and (not coord or S.coordinates(br, g, p, b.route_end[j])):
                    i = j
    pl[p, S.P_HARVESTS] += 1
    pl[p, S.P_HARVESTS_PLANET] += b.route_via_planet[i]
    g[S.G_HARVEST_ROLL] = roll  # for a replay (record.py)
    g[S.G_HARVEST_ROUTE] = i
    g[S.G_HARVEST_COORD] = coord
    n = min(roll, b.route_len[i])
    for j in range(n):
        col = b.route_colour[i, j]
        if col >= 0:  # a counted moon gives nothing
            take_card(r, b, pids, prm, st, p, col, True, b.route_cell[i, j], ext)
    return i


@njit(cache=True, _nrt=False)
def build_branch(r, st: S.State, p, s):
    pl = st.pl
    pl[p, S.P_POINTS] -= r.branch_cost
    st.br[p, s] = st.g[S.G_TURN] + 1
    pl[p, S.P_BRANCHES] += 1


# -- the station table ----------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def pirates(r, pl, g, p) -> int:
    """Shuffle the cards and discard half, blindly. Returns the cards lost."""
    k = S.pirates_discards(r, S.cargo(pl, p))
    for _ in range(k):
        discard_card(r, pl, g, p, S.random_held_colour(pl, p))
    pl[p, S.P_PIRATE_LOST] += k
    return k


@njit(cache=True, _nrt=False)
def close_station(g, s):
    """Only one station is closed at a time: the last one reopens when another closes."""
    g[S.G_CLOSED] = s


@njit(cache=True, _nrt=False)
def station_event(r, b, pids, prm, st: S.State, p, ev, ext=None) -> bool:
    """Resolve table result ``ev`` for ``p`` on its station; False when the turn ends here."""
    pl, g = st.pl, st.g
    g[S.G_EVENTS + ev] += 1
    pid = pids[p]
    s = b.station[pl[p, S.P_POS]]
    if ev == EV_HAULER:
        if (
            (pl[p, S.P_REPAIR] == 0 or not r.repairs_block_hauler)
            and S.can_ship(r, pl, g, p, r.hauler_cost)
            and X.ship(ext, pid, prm[p], p, r, b, st, r.hauler_cost)
        ):
            ship(r, pl, g, p, r.hauler_cost)
            if reach_target(r, st, p):
                return False  # the game is over before the move
    elif ev == EV_LOST_TURN:
        pl[p, S.P_LOST_TURNS] += 1
        return False
    elif ev == EV_PURITY:
        if S.cargo(pl, p) > 0:
            c = X.purity(ext, pid, prm[p], p, r, b, st)
            if c < 0 or c >= 3 or pl[p, S.P_CARDS + c] == 0:
                c = S.dearest_held(pl, g, p)
            for _ in range(r.purity_cards):
                take_card(r, b, pids, prm, st, p, c, False, -1, ext)
    elif ev == EV_REPAIRS:
        pl[p, S.P_REPAIR] = 1
        if r.repairs == REPAIRS_TELEPORT:
            pl[p, S.P_POS] = 0
            return False
    elif ev == EV_PIRATES:
        pirates(r, pl, g, p)
    elif ev == EV_MARKET:
        roll_values(r, g)
    elif ev == EV_HOLIDAYS:
        close_station(g, s)
    return True


# -- a turn ---------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def start_turn(r, b, pids, prm, st: S.State, p, ext=None) -> int:
    """A turn up to the move: the station table when the ship starts on a station, the take-off
    from the planet (repaired), the die. Returns the die, 0 when the turn ends without a move."""
    if at_station_table(r, b, st.pl, p):
        if not station_event(r, b, pids, prm, st, p, roll_event(r), ext):
            return 0
    return take_off_and_roll(b, st.pl, p)


@njit(cache=True, _nrt=False)
def at_station_table(r, b, pl, p) -> bool:
    """Does ``p``'s turn begin with the station table (it starts on a station)?"""
    return b.kind[pl[p, S.P_POS]] == STATION and r.station_events


@njit(cache=True, _nrt=False)
def take_off_and_roll(b, pl, p) -> int:
    """The rest of :func:`start_turn` (a simulation calls it alone when there is no table: a
    call without the runtime counts no references): the take-off, then the die."""
    if b.kind[pl[p, S.P_POS]] == PLANET and pl[p, S.P_REPAIR] == 1:
        pl[p, S.P_REPAIR] = 0  # it takes off from the planet, repaired
    return np.random.randint(1, 7)


@njit(cache=True, _nrt=False)
def landing_choice(r, b, st: S.State, p, cell) -> bool:
    """Does ending the move on ``cell`` offer ``p`` a yes or no (ship at a moon, open a branch at
    a station)? The same conditions as :func:`land`'s."""
    pl = st.pl
    k = b.kind[cell]
    if k == MOON:
        return pl[p, S.P_REPAIR] == 0 and S.can_ship(r, pl, st.g, p, r.shipping_cost)
    if k == STATION:
        s = b.station[cell]
        return S.station_open(st.g, s) and st.br[p, s] == 0 and pl[p, S.P_POINTS] >= r.branch_cost
    return False


@njit(cache=True, _nrt=False)
def land(r, b, pids, prm, st: S.State, p, cell, scratch, ext=None, act=-1):
    """What ending the move on ``cell`` does: collect, ship, harvest or open a branch. ``act``:
    the answer to the landing's yes-or-no (ship, build) when the search made it; -1 asks the
    seat's policy. ``scratch``: the decisions' (``policies.pedruscos.new_move_scratch``)."""
    if land_unasked(r, b, st, p, cell):
        return
    pl, br, g = st.pl, st.br, st.g
    pl[p, S.P_POS] = cell
    k = b.kind[cell]
    repair = pl[p, S.P_REPAIR] == 1
    pid = pids[p]
    if k == ASTEROID:
        if not repair:
            take_card(r, b, pids, prm, st, p, b.colour[cell], False, cell, ext)
    elif k == MOON:
        if not repair and S.can_ship(r, pl, g, p, r.shipping_cost):
            if act == 1 or (act < 0 and X.ship(ext, pid, prm[p], p, r, b, st, r.shipping_cost)):
                ship(r, pl, g, p, r.shipping_cost)
                reach_target(r, st, p)
    elif k == STATION:
        s = b.station[cell]
        if S.station_open(g, s):
            if S.old_branch(br, g, p, s):
                if not repair:
                    harvest(r, b, pids, prm, st, p, s, scratch, ext)
            elif br[p, s] == 0 and pl[p, S.P_POINTS] >= r.branch_cost:
                if act == 1 or (act < 0 and X.branch(ext, pid, prm[p], p, r, b, st, s, scratch)):
                    build_branch(r, st, p, s)


@njit(cache=True, _nrt=False)
def land_unasked(r, b, st: S.State, p, cell) -> bool:
    """:func:`land` where it asks no policy anything: a planet, an asteroid under repairs, or
    an asteroid whose card goes into a hold with room (or whose deck is empty). False, with
    nothing changed, elsewhere. Without the runtime, so a simulation's usual landing counts
    no references."""
    pl = st.pl
    k = b.kind[cell]
    if k != ASTEROID and k != PLANET:
        return False
    c = b.colour[cell]
    takes = k == ASTEROID and pl[p, S.P_REPAIR] == 0 and S.deck_has(r, st.g, c)
    if takes and S.cargo(pl, p) >= r.hold_limit:
        return False  # a full hold: the policy chooses what to discard
    pl[p, S.P_POS] = cell
    if takes:
        draw_card(r, pl, st.g, p, c, False)
        st.collects[cell] += 1
    return True


# -- the end --------------------------------------------------------------------------------------
# Once or more a turn, allocating nothing: compiled without reference counting (counting every
# array of the state at each call is most of what these small steps cost).
@njit(cache=True, _nrt=False)
def reach_target(r, st: S.State, p) -> bool:
    """The goal, checked whenever ``p`` scores: the first miner to reach the target wins at once
    (nothing later in the turn, a branch paid for, can take it back). True once the game is
    over."""
    g = st.g
    if g[S.G_ENDED] == 0 and st.pl[p, S.P_POINTS] >= r.target_points:
        g[S.G_ENDED] = 1
        g[S.G_END_REASON] = S.END_TARGET
        g[S.G_WINNER] = p
    return g[S.G_ENDED] == 1


@njit(cache=True, _nrt=False)
def end_turn(r, st: S.State, p) -> None:
    """``p`` has played its turn: count it (the target was checked when it scored)."""
    st.g[S.G_TURN] += 1
    reach_target(r, st, p)


@njit(cache=True, _nrt=False)
def end_round(r, st: S.State) -> None:
    """Every seat has played the round: stop at the round cap."""
    g = st.g
    if g[S.G_ENDED] == 0 and g[S.G_ROUND] >= r.max_rounds:
        g[S.G_ENDED] = 1
        g[S.G_END_REASON] = S.END_ROUND_CAP
        g[S.G_WINNER] = -1


@njit(cache=True, _nrt=False)
def next_seat(r, st: S.State, p) -> int:
    """The seat to play after ``p``'s ended turn (a new round after the last seat), -1 once the
    game is over."""
    g = st.g
    if g[S.G_ENDED] == 1:
        return -1
    if p + 1 < st.pl.shape[0]:
        return p + 1
    end_round(r, st)
    if g[S.G_ENDED] == 1:
        return -1
    g[S.G_ROUND] += 1
    return 0
