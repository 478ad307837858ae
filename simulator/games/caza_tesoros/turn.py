"""The turn rules of Caza-Tesoros (docs/rules/caza-tesoros.md): every compiled step of a day.

:mod:`.engine` plays whole games with these steps and :mod:`.forward` plays the search's
simulations with the very same ones, so a simulation plays the engine's own rules. Each rule is a
small compiled function on the game's :class:`~.state.State` (the larger ones take it whole and
read its arrays into locals once; the small ones take the arrays they touch), so tests can drive
a single rule on a hand-made position (:func:`deviate`, :func:`pay_maintenance`,
:func:`resolve_auction`, :func:`search`, :func:`check_end`, :func:`decide_winner` ...). ``t`` is
the rules' :class:`~.state.Tables`. The dice of a treasure search are :mod:`.treasure_search`'s.

:func:`next_turn` walks the day (weather, the trading day, purchases) to the next ship's turn;
:func:`before_action`, the decision, :func:`act` and :func:`end_turn` play that turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.caza_tesoros import (
    BUY_CARD,
    BUY_SHIP,
    SEARCH,
    decide_bid,
    decide_buy,
    decide_purchase,
    decide_ship,
)
from simulator.contract.policy import OUTSIDE
from simulator.contract.recording import record
from simulator.contract.rng import STATE_WORDS

from . import state as S
from .board import CELLS, end_of_path, roll_cell, roll_cross_cell, sail_toward, step_in_line
from .outside import X_BID, X_BUY, X_PURCHASE, X_SHIP
from .treasure_search import MAX_DICE, search_kernel

# -- recorded events (simulator.contract.recording) ---------------------------------------------
# Rows of (event, day, seat, colour, ship, a, ..., h).
# The day is 0 for the set-up; the seat is the colour's player (colours_per_player), -1: nobody.
EV_WEATHER = 0  # a: weather state, b: the weather die (1-6), c: day of the week
EV_MOVE = 1  # a: from, b: to, c: movement points, d: the hex aimed at, e: sides sailed (digits)
EV_DEVIATE = 2  # a: from, b: to, c: side (the higher die), d: distance (the lower die)
EV_SEARCH = 3  # a: level, b: cell, c: cost, d: dice a throw, e: re-throws, f: own cross, h: marking
EV_TREASURE = 4  # a: VP gained, b: 1 own cross / 0 Archive cross, c: cell
EV_LEVEL2_FAIL = 5  # a: cross cell, b: ship's new cell, c: 1 if the cross became an Archive cross
EV_ITEM_LOST = 6  # a: kind
EV_MAINTENANCE = 7  # a: VP paid, b: VP left
EV_FORCED_SALE = 8  # a: kind, b: buyer colour (-1 unsold), c: price, d: starting price
EV_RETIRE = 9  # a: cell the ship left, b: payout
EV_ELIMINATED = 10
EV_BUY = 11  # a: kind, b: price, c: VP left
EV_AUCTION = 12  # a: kind, b: buyer colour (-1 unsold), c: price, d: starting price
EV_CARD = 13  # a: cross cell
EV_SHIP = 14  # a: cell
EV_END = 15  # a: end reason, b: winner (also the event's seat)
EV_THROW = 16  # a: throw, b: dice (digits), c: new values shown, d: marked before, e: rethrows
EV_BID = 17  # a: kind, b: the most the colour will pay, c: starting price, d: seller colour
EV_DRAW = 18  # a: kind of the object card drawn, b: its price
EV_SEARCHED = 19  # a: 1 found, b: throws made, c: level, d: cell
EV_PURCHASE = 20  # a: 0 Archive card / 1 ship, b: price, c: VP left
EVENT_NAMES = (
    "weather", "move", "deviate", "search", "treasure", "level2_fail", "item_lost", "maintenance",
    "forced_sale", "retire", "eliminated", "buy", "auction", "card", "ship", "end", "throw", "bid",
    "draw", "searched", "purchase",
)  # fmt: skip
EVENT_WIDTH = 12


@njit(cache=True, _nrt=False)
def log_event(log, g, event, p, s, a, b, c, d=0, e=0):
    """Record an event of colour ``p`` (ship ``s``) on today's date; ``g[G_LOG_N]`` counts them.
    A zero-row ``log`` (a run) records nothing. (The one event with more fields, ``EV_SEARCH``,
    is written by :func:`search_with`.)"""
    if log.shape[0] == 0:
        return
    record(log, g[S.G_LOG_N : S.G_LOG_N + 1], event, g[S.G_DAY], p, p, s, a, b, c, d, e)


@njit(cache=True, _nrt=False)
def digits(values, n, plus) -> int:
    """``values[:n] + plus`` (each 1..9) as the digits of one number; -1 when too long."""
    if n > 18:
        return -1
    out = 0
    for i in range(n):
        out = out * 10 + values[i] + plus
    return out


# -- setup ----------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def add_ship(r, pl, sh, g, log, p) -> int:
    """Place a new ship of ``p`` by 3D6 x 3D6; its slot, or -1 when the player has no room."""
    if pl[p, S.P_SHIPS] >= r[S.R.max_ships]:
        return -1
    for s in range(sh.shape[1]):
        if sh[p, s, S.S_CELL] < 0:
            sh[p, s, S.S_CELL] = roll_cell(g)
            for k in range(S.N_KINDS):
                sh[p, s, S.S_ITEMS + k] = 0
            sh[p, s, S.S_AIM] = -1
            pl[p, S.P_SHIPS] += 1
            log_event(log, g, EV_SHIP, p, s, sh[p, s, S.S_CELL], 0, 0)
            return s
    return -1


@njit(cache=True, _nrt=False)
def draw_archive_card(r, pl, cr, g, log, p) -> int:
    """``p`` takes the top Archive card and places its cross by 3D6; the cross, or -1."""
    if g[S.G_ARCHIVE_DECK] <= 0 or pl[p, S.P_CARDS] >= r[S.R.max_archive_cards]:
        return -1
    for c in range(cr.shape[0]):
        if cr[c, S.C_OWNER] == S.FREE:
            cr[c, S.C_CELL] = roll_cross_cell(g, r[S.R.cross_reference] == 0)
            cr[c, S.C_OWNER] = p
            S.clear_duties(cr, c)
            g[S.G_ARCHIVE_DECK] -= 1
            pl[p, S.P_CARDS] += 1
            log_event(log, g, EV_CARD, p, -1, cr[c, S.C_CELL], 0, 0)
            return c
    return -1


@njit(cache=True)
def setup_game(r, t: S.Tables, st: S.State, log):
    """A new game (one row of ``pl`` per colour), its cursor at the start of the first day."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    n_players = pl.shape[0]
    deck0 = t.deck0
    st.order[:] = np.arange(n_players)
    st.at[:] = 0
    st.at[0] = -1
    st.hits[:] = 0
    pl[:] = 0
    sh[:] = 0
    sh[:, :, S.S_CELL] = -1
    sh[:, :, S.S_AIM] = -1
    cr[:] = 0
    cr[:, S.C_OWNER] = S.FREE
    g[: S.G_RNG] = 0  # day 0 while setting up (recorded events), day 1 once the game starts
    g[S.G_WEEKDAY] = 1
    g[S.G_ARCHIVE_DECK] = r[S.R.archive_deck_size]
    g[S.G_LIVE] = n_players
    for k in range(S.N_KINDS):
        g[S.G_DECK + k] = deck0[k]
    for p in range(n_players):
        pl[p, S.P_VP] = r[S.R.starting_vp]
        pl[p, S.P_ALIVE] = 1
        for _ in range(r[S.R.starting_ships]):
            add_ship(r, pl, sh, g, log, p)
    for p in range(n_players):
        for _ in range(r[S.R.starting_archive_cards]):
            draw_archive_card(r, pl, cr, g, log, p)
    g[S.G_LIVE] = S.live_players(r, pl)
    g[S.G_DAY] = 1


# -- weather and sailing --------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def roll_weather(wface, g, log):
    face = S.rand_int(g, 6)
    g[S.G_WEATHER] = wface[face]
    log_event(log, g, EV_WEATHER, -1, -1, g[S.G_WEATHER], face + 1, g[S.G_WEEKDAY])


@njit(cache=True, _nrt=False)
def deviation_roll(g) -> tuple[int, int]:
    """2D6: the higher die is the side (1..6) the storm pushes towards, the other the distance."""
    a = S.d6(g)
    b = S.d6(g)
    return max(a, b), min(a, b)


@njit(cache=True, _nrt=False)
def deviate(r, sh, g, log, p, s):
    """Storm deviation of one ship without a satellite (a satellite ship is not moved)."""
    if sh[p, s, S.S_ITEMS + S.SATELLITE] == 1:
        return
    side, distance = deviation_roll(g)
    start = sh[p, s, S.S_CELL]
    sh[p, s, S.S_CELL] = step_in_line(start, side - 1, distance, r[S.R.deviation_edge] == 0)
    log_event(log, g, EV_DEVIATE, p, s, start, sh[p, s, S.S_CELL], side, distance)


@njit(cache=True, _nrt=False)
def sail(r, wmove, sh, g, log, p, s, target, dirs) -> int:
    """Move a ship towards ``target`` with today's movement points; returns steps sailed."""
    mp = S.movement_points(r, wmove, g[S.G_WEATHER], sh, p, s)
    start = sh[p, s, S.S_CELL]
    n = sail_toward(start, target, mp, r[S.R.max_straight], dirs)
    sh[p, s, S.S_CELL] = end_of_path(start, dirs, n)
    if log.shape[0] > 0:  # the sides sailed (1..6) as digits
        log_event(log, g, EV_MOVE, p, s, start, sh[p, s, S.S_CELL], mp, target, digits(dirs, n, 1))
    return n


# -- items ----------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def return_to_deck(r, g, kind):
    if r[S.R.object_draw] == 0:
        g[S.G_DECK + kind] += 1


@njit(cache=True, _nrt=False)
def draw_object(r, g) -> int:
    """The kind of the object card drawn (deck: returned cards are shuffled in), -1 if none."""
    if r[S.R.object_draw] == 1:
        return S.rand_int(g, S.N_KINDS)
    total = 0
    for k in range(S.N_KINDS):
        total += g[S.G_DECK + k]
    if total == 0:
        return -1
    u = S.rand_int(g, total)
    for k in range(S.N_KINDS):
        u -= g[S.G_DECK + k]
        if u < 0:
            g[S.G_DECK + k] -= 1
            return k
    return -1


@njit(cache=True, _nrt=False)
def lose_best_item(r, sh, g, log, p, s) -> int:
    """A failed level 2 in bad weather: the ship returns its most valuable search card, or, with
    none, its most valuable navigation card. Returns the kind lost, -1 if it had none."""
    for first, last in ((S.DIVERS, S.SCANNER), (S.COMPASS, S.SATELLITE)):
        best = -1
        for k in range(first, last + 1):
            if sh[p, s, S.S_ITEMS + k] == 1 and (
                best < 0 or S.item_price(r, k) >= S.item_price(r, best)
            ):
                best = k
        if best >= 0:
            sh[p, s, S.S_ITEMS + best] = 0
            return_to_deck(r, g, best)
            log_event(log, g, EV_ITEM_LOST, p, s, best, 0, 0)
            return best
    return -1


@njit(cache=True, _nrt=False)
def resolve_auction(bids, start, seller) -> tuple[int, int]:
    """Open ascending auction from ``start``: (winner, price), winner -1 when nobody bids.

    ``bids[q]`` is the most player ``q`` will pay. The highest wins and pays one VP above the
    second highest, at least ``start``, at most its own bid; players bid in turn from the seller's
    left, so on equal bids the first in turn wins at that price.
    """
    n = bids.shape[0]
    best = -1
    best_bid = -1
    second = -1
    for i in range(1, n):
        q = (seller + i) % n
        b = bids[q]
        if b < start:
            continue
        if b > best_bid:
            second = best_bid
            best_bid = b
            best = q
        elif b > second:
            second = b
    if best < 0:
        return -1, 0
    price = start if second < start else min(best_bid, second + 1)
    return best, price


@njit(cache=True)
def run_auction(r, t: S.Tables, pids, prm, st: S.State, log, kind, start, seller, ext=None):
    """Collect every other live player's bid for ``kind`` and resolve the auction."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    odds, tmean = t.odds, t.tmean
    n = pl.shape[0]
    bids = np.full(n, -1, dtype=np.int64)
    for q in range(n):
        if q == seller or pl[q, S.P_ALIVE] == 0 or S.ship_for_item(sh, q, kind) < 0:
            continue
        if S.player_of(r, pl, q) == S.player_of(r, pl, seller):  # no bidding against oneself
            continue
        if ext is not None and pids[q] >= OUTSIDE:  # a policy from --policy-file
            b = ext[X_BID][pids[q] - OUTSIDE](prm[q], q, kind, start, seller, r, odds, tmean, pl,
                                              sh, cr, g)  # fmt: skip
        else:
            b = decide_bid(pids[q], prm[q], q, kind, start, seller, r, odds, tmean, pl, sh, cr, g)
        bids[q] = min(b, pl[q, S.P_VP])
        log_event(log, g, EV_BID, q, -1, kind, bids[q], start, seller)
    g[S.G_AUCTIONS] += 1
    return resolve_auction(bids, start, seller)


@njit(cache=True, _nrt=False)
def give_item(r, sh, g, p, kind) -> int:
    """The card goes to the player's first ship that may take it. With ``one_per_type`` it
    replaces the ship's card of the same type (navigation or search), which goes back."""
    s = S.ship_for_item(sh, p, kind)
    if s < 0:
        return s
    if r[S.R.items_per_ship] == 1:
        first = S.COMPASS if kind <= S.SATELLITE else S.DIVERS
        for k in range(first, first + 3):
            if sh[p, s, S.S_ITEMS + k] == 1:
                sh[p, s, S.S_ITEMS + k] = 0
                return_to_deck(r, g, k)
    sh[p, s, S.S_ITEMS + kind] = 1
    return s


@njit(cache=True)
def weekly_draw(r, t: S.Tables, pids, prm, st: S.State, log, p, ext=None):
    """``p`` draws an object card and buys it at its price, or puts it up for auction."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    odds, tmean = t.odds, t.tmean
    kind = draw_object(r, g)
    if kind < 0:
        return
    price = S.item_price(r, kind)
    log_event(log, g, EV_DRAW, p, -1, kind, price, 0)
    if S.ship_for_item(sh, p, kind) >= 0 and pl[p, S.P_VP] >= price:
        if ext is not None and pids[p] >= OUTSIDE:
            buy = ext[X_BUY][pids[p] - OUTSIDE](prm[p], p, kind, price, r, odds, tmean, pl, sh,
                                                cr, g)  # fmt: skip
        else:
            buy = decide_buy(pids[p], prm[p], p, kind, price, r, odds, tmean, pl, sh, cr, g)
        if buy:
            pl[p, S.P_VP] -= price
            pl[p, S.P_ITEMS] += 1
            s = give_item(r, sh, g, p, kind)
            log_event(log, g, EV_BUY, p, s, kind, price, pl[p, S.P_VP])
            return
    buyer, paid = run_auction(r, t, pids, prm, st, log, kind, price, p, ext)
    log_event(log, g, EV_AUCTION, p, -1, kind, buyer, paid, price)
    if buyer < 0:
        return_to_deck(r, g, kind)
        return
    pl[buyer, S.P_VP] -= paid
    pl[buyer, S.P_ITEMS] += 1
    give_item(r, sh, g, buyer, kind)
    pl[p, S.P_VP] += r[S.R.auction_commission]


# -- maintenance, forced sales, retirement --------------------------------------------------------
@njit(cache=True, _nrt=False)
def eliminate(r, pl, cr, g, log, p):
    """A colour without ships leaves the game; its Archive cards go back to the deck. A player
    is out when all its colours are."""
    pl[p, S.P_ALIVE] = 0
    pl[p, S.P_OUT_DAY] = g[S.G_DAY]
    g[S.G_LIVE] = S.live_players(r, pl)
    for c in range(cr.shape[0]):
        if cr[c, S.C_OWNER] == p:
            cr[c, S.C_OWNER] = S.FREE
            g[S.G_ARCHIVE_DECK] += 1
        cr[c, S.C_DUTY + p] = 0
    pl[p, S.P_CARDS] = 0
    log_event(log, g, EV_ELIMINATED, p, -1, 0, 0, 0)


@njit(cache=True, _nrt=False)
def retire_ship(r, pl, sh, g, log, p) -> int:
    """Retire the player's least equipped ship for the Archive's payout; the slot, or -1."""
    worst = -1
    worst_value = 1 << 40
    for s in range(sh.shape[1]):
        if sh[p, s, S.S_CELL] < 0:
            continue
        value = 0
        for k in range(S.N_KINDS):
            value += sh[p, s, S.S_ITEMS + k] * S.item_price(r, k)
        if value < worst_value:
            worst_value = value
            worst = s
    if worst < 0:
        return -1
    log_event(log, g, EV_RETIRE, p, worst, sh[p, worst, S.S_CELL], r[S.R.retire_ship_payout], 0)
    for k in range(S.N_KINDS):
        if sh[p, worst, S.S_ITEMS + k] == 1:
            sh[p, worst, S.S_ITEMS + k] = 0
            return_to_deck(r, g, k)
    sh[p, worst, S.S_CELL] = -1
    pl[p, S.P_SHIPS] -= 1
    pl[p, S.P_RETIRED] += 1
    pl[p, S.P_VP] += r[S.R.retire_ship_payout]
    return worst


@njit(cache=True, _nrt=False)
def most_valuable_offer(r, sh, offered, p) -> tuple[int, int]:
    """(ship, kind) of the dearest card ``p`` can sell that was not yet offered this week.

    Only the last card of each chain is sold (a GPS before the compass it needs)."""
    best_s = -1
    best_k = -1
    for s in range(sh.shape[1]):
        if sh[p, s, S.S_CELL] < 0:
            continue
        for first in (S.COMPASS, S.DIVERS):
            top = -1
            for k in range(first, first + 3):
                if sh[p, s, S.S_ITEMS + k] == 1:
                    top = k
            if top < 0 or offered[s, top]:
                continue
            if best_k < 0 or S.item_price(r, top) > S.item_price(r, best_k):
                best_s = s
                best_k = top
    return best_s, best_k


@njit(cache=True)
def pay_maintenance(r, t: S.Tables, pids, prm, st: S.State, log, p, ext=None):
    """Start of the week: ``p`` pays maintenance per ship. A player short of VP first auctions its
    cards at the forced-sale price (it receives the price), then retires ships (the Archive pays
    for each) until it can pay; with no ship left it is out of the game."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    owed = r[S.R.maintenance_per_ship] * pl[p, S.P_SHIPS]
    if pl[p, S.P_VP] < owed:
        offered = np.zeros((sh.shape[1], S.N_KINDS), dtype=np.bool_)
        while pl[p, S.P_VP] < owed:
            s, kind = most_valuable_offer(r, sh, offered, p)
            if s < 0:
                break
            offered[s, kind] = True
            start = S.item_price(r, kind) // r[S.R.forced_sale_divisor]
            buyer, paid = run_auction(r, t, pids, prm, st, log, kind, start, p, ext)
            log_event(log, g, EV_FORCED_SALE, p, s, kind, buyer, paid, start)
            if buyer >= 0:
                sh[p, s, S.S_ITEMS + kind] = 0
                pl[buyer, S.P_VP] -= paid
                pl[buyer, S.P_ITEMS] += 1
                give_item(r, sh, g, buyer, kind)
                pl[p, S.P_VP] += paid
                g[S.G_FORCED_SALES] += 1
        while pl[p, S.P_VP] < owed and pl[p, S.P_SHIPS] > 0:
            retire_ship(r, pl, sh, g, log, p)
            owed = r[S.R.maintenance_per_ship] * pl[p, S.P_SHIPS]
    pl[p, S.P_VP] -= owed
    log_event(log, g, EV_MAINTENANCE, p, -1, owed, pl[p, S.P_VP], 0)
    if pl[p, S.P_SHIPS] == 0:
        eliminate(r, pl, cr, g, log, p)


# -- purchases ------------------------------------------------------------------------------------
@njit(cache=True)
def purchases(r, t: S.Tables, pids, prm, st: S.State, log, p, ext=None):
    """Archive cards and ships, as long as the policy asks for something it can have."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    odds, tmean = t.odds, t.tmean
    for _ in range(2 * (S.MAX_SHIPS + S.MAX_CARDS)):
        if ext is not None and pids[p] >= OUTSIDE:
            choice = ext[X_PURCHASE][pids[p] - OUTSIDE](prm[p], p, r, odds, tmean, pl, sh, cr, g)
        else:
            choice = decide_purchase(pids[p], prm[p], p, r, odds, tmean, pl, sh, cr, g)
        if choice == BUY_CARD and pl[p, S.P_VP] >= r[S.R.price_archive_card]:
            if draw_archive_card(r, pl, cr, g, log, p) < 0:
                return
            pl[p, S.P_VP] -= r[S.R.price_archive_card]
            log_event(log, g, EV_PURCHASE, p, -1, 0, r[S.R.price_archive_card], pl[p, S.P_VP])
        elif choice == BUY_SHIP and pl[p, S.P_VP] >= r[S.R.price_ship]:
            s = add_ship(r, pl, sh, g, log, p)
            if s < 0:
                return
            pl[p, S.P_VP] -= r[S.R.price_ship]
            log_event(log, g, EV_PURCHASE, p, s, 1, r[S.R.price_ship], pl[p, S.P_VP])
        else:
            return


# -- searching ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def treasure_value(tv, g) -> int:
    return tv[S.rand_int(g, tv.shape[0])]


@njit(cache=True, _nrt=False)
def free_cross(cr, c):
    cr[c, S.C_OWNER] = S.FREE
    S.clear_duties(cr, c)


@njit(cache=True)
def search(r, t: S.Tables, st: S.State, log, p, s, c) -> bool:
    """Ship ``s`` of ``p`` searches cross ``c`` (it stands on it and can pay). Returns success.
    ``st.hits[0, cell]`` counts the game's searches by cell, ``st.hits[1, cell]`` its finds.

    Success on an own cross pays the card's treasure and returns the card; on an Archive cross it
    takes the top Archive card as loot. A failed level 1 makes the next search level 2. A failed
    level 2 returns an own card and leaves an Archive cross, re-places the ship by 3D6 and, in
    bad weather, costs the ship its best card.
    """
    return search_with(r, t, st, log, p, s, c, np.empty(MAX_DICE, np.int64))


@njit(cache=True, _nrt=False)
def search_with(r, t: S.Tables, st: S.State, log, p, s, c, dice) -> bool:
    """:func:`search` throwing its dice into ``dice`` (``MAX_DICE`` long at least): allocates
    nothing."""
    pl, sh, cr, g, hits = st.pl, st.sh, st.cr, st.g, st.hits
    tv, worth = t.tv, t.worth
    level = S.search_level(r, cr, g, p, c)
    weather = g[S.G_WEATHER]
    cost = S.search_cost(r, level, weather)
    pl[p, S.P_VP] -= cost
    pl[p, S.P_SEARCHES] += 1
    g[S.G_SEARCHES] += 1
    if level == 2:
        g[S.G_LEVEL2_SEARCHES] += 1
    n_dice = S.search_dice(r, sh, p, s, level)
    rerolls = S.search_rerolls(r, sh, p, s)
    marking = r[S.R.level1_marking] if level == 1 else r[S.R.level2_marking]
    # marking one: the best value by the exact values of the rule in force (greedy: none)
    values = worth[level, n_dice] if r[S.R.marking_choice] == 0 else worth[0, 0, :, :0]
    own = cr[c, S.C_OWNER] == p
    if log.shape[0] > 0:  # log_event's row with two more fields
        record(log, g[S.G_LOG_N : S.G_LOG_N + 1], EV_SEARCH, g[S.G_DAY], p, p, s, level,
               cr[c, S.C_CELL], cost, n_dice, rerolls, 1 if own else 0, marking)  # fmt: skip
    # the rules' bounds keep n_dice within MAX_DICE and rerolls >= 0: the kernel checks nothing
    found, throws = search_kernel(
        g[S.G_RNG : S.G_RNG + STATE_WORDS], dice, level, n_dice, rerolls, marking,
        r[S.R.level2_combinations], values, log, g[S.G_LOG_N : S.G_LOG_N + 1],
        (EV_THROW, g[S.G_DAY], p, s),
    )  # fmt: skip
    log_event(log, g, EV_SEARCHED, p, s, 1 if found else 0, throws, level, cr[c, S.C_CELL])
    hits[0, cr[c, S.C_CELL]] += 1
    if found:
        hits[1, cr[c, S.C_CELL]] += 1
        if own:
            value = treasure_value(tv, g)
            pl[p, S.P_VP] += value
            pl[p, S.P_TREASURES] += 1
            pl[p, S.P_CARDS] -= 1
            g[S.G_ARCHIVE_DECK] += 1
            log_event(log, g, EV_TREASURE, p, s, value, 1, cr[c, S.C_CELL])
        else:
            g[S.G_ARCHIVE_CROSSES] -= 1
            if r[S.R.archive_loot] == 0:
                value = treasure_value(tv, g)
                pl[p, S.P_VP] += value
                pl[p, S.P_TREASURES] += 1
                log_event(log, g, EV_TREASURE, p, s, value, 0, cr[c, S.C_CELL])
        free_cross(cr, c)
        if not own and r[S.R.archive_loot] == 1:
            draw_archive_card(r, pl, cr, g, log, p)
        return True
    if level == 1:
        cr[c, S.C_DUTY + p] = g[S.G_DAY]
        return False
    cr[c, S.C_DUTY + p] = 0
    relocate = True
    if own:
        pl[p, S.P_CARDS] -= 1
        g[S.G_ARCHIVE_DECK] += 1
        cr[c, S.C_OWNER] = S.ARCHIVE
        S.clear_duties(cr, c)
        g[S.G_ARCHIVE_CROSSES] += 1
    else:
        relocate = r[S.R.archive_fail_relocates] == 1
    if relocate:
        sh[p, s, S.S_CELL] = roll_cell(g)
    log_event(log, g, EV_LEVEL2_FAIL, p, s, cr[c, S.C_CELL], sh[p, s, S.S_CELL], 1 if own else 0)
    if S.bad_weather(weather) and r[S.R.bad_weather_item_loss] == 1:
        lose_best_item(r, sh, g, log, p, s)
    return False


# -- the end --------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def check_end(r, pl, g) -> int:
    """The end reason if the game is over now, else -1 (day cap is checked by the day loop)."""
    if g[S.G_LIVE] == 0:
        return S.END_ALL_OUT
    if g[S.G_LIVE] == 1:
        return S.END_LAST_PLAYER
    for q in range(S.players_of(r, pl)):
        if S.player_sum(r, pl, q, S.P_TREASURES) >= r[S.R.treasures_to_win]:
            return S.END_TREASURES
    if g[S.G_ARCHIVE_CROSSES] >= r[S.R.archive_crosses_to_end]:
        return S.END_ARCHIVE
    return -1


@njit(cache=True, _nrt=False)
def decide_winner(r, pl, sh, day) -> int:
    """Most VP among players still in the game (a player's VP: the sum over its colours); ties:
    more ships, then better equipped ships; still tied: -1 (the seed's replay is reported as a
    draw). Nobody left in: -1 (no winner; the 5 VP a retired ship pays do not make a winner of
    a player who is out)."""
    best = -1
    tied = False
    by_count = r[S.R.tie_equipment] == 1
    for q in range(S.players_of(r, pl)):
        if not S.player_in(r, pl, q):
            continue
        if best < 0:
            best = q
            continue
        cmp = _compare(r, pl, sh, q, best, by_count)
        if cmp > 0:
            best = q
            tied = False
        elif cmp == 0:
            tied = True
    return -1 if tied else best


@njit(cache=True, _nrt=False)
def _equipment(r, pl, sh, q, by_count) -> int:
    total = 0
    for c in range(q, pl.shape[0], S.players_of(r, pl)):
        total += S.equipment_value(r, sh, c, by_count)
    return total


@njit(cache=True, _nrt=False)
def _compare(r, pl, sh, a, b, by_count) -> int:
    va = S.player_sum(r, pl, a, S.P_VP)
    vb = S.player_sum(r, pl, b, S.P_VP)
    if va != vb:
        return 1 if va > vb else -1
    sa = S.player_sum(r, pl, a, S.P_SHIPS)
    sb = S.player_sum(r, pl, b, S.P_SHIPS)
    if sa != sb:
        return 1 if sa > sb else -1
    ea = _equipment(r, pl, sh, a, by_count)
    eb = _equipment(r, pl, sh, b, by_count)
    if ea != eb:
        return 1 if ea > eb else -1
    return 0


@njit(cache=True, _nrt=False)
def vp_leader(r, pl) -> int:
    """The player with the most VP (over its colours) among those still in, -1 when tied."""
    best = -1
    best_vp = 0
    tied = False
    for q in range(S.players_of(r, pl)):
        if not S.player_in(r, pl, q):
            continue
        vp = S.player_sum(r, pl, q, S.P_VP)
        if best < 0 or vp > best_vp:
            best = q
            best_vp = vp
            tied = False
        elif vp == best_vp:
            tied = True
    return -1 if tied else best


@njit(cache=True, _nrt=False)
def state_problems(r, pl, sh, cr, g) -> int:
    """Bits of ``state.PROBLEM_*`` for every invariant the state breaks (0: all hold)."""
    bits = 0
    archive = 0
    for c in range(cr.shape[0]):
        if cr[c, S.C_OWNER] == S.ARCHIVE:
            archive += 1
    if archive > r[S.R.archive_crosses_to_end] or archive != g[S.G_ARCHIVE_CROSSES]:
        bits |= S.PROBLEM_TOO_MANY_ARCHIVE_CROSSES
    for p in range(pl.shape[0]):
        if pl[p, S.P_VP] < 0:
            bits |= S.PROBLEM_NEGATIVE_VP
        if pl[p, S.P_CARDS] > r[S.R.max_archive_cards]:
            bits |= S.PROBLEM_TOO_MANY_CARDS
        own = 0
        for c in range(cr.shape[0]):
            if cr[c, S.C_OWNER] == p:
                own += 1
        if own != pl[p, S.P_CARDS]:
            bits |= S.PROBLEM_CARD_COUNT
        ships = 0
        for s in range(sh.shape[1]):
            cell = sh[p, s, S.S_CELL]
            if cell >= 0:
                ships += 1
                if cell >= CELLS:
                    bits |= S.PROBLEM_SHIP_OFF_BOARD
            elif cell != -1:
                bits |= S.PROBLEM_SHIP_OFF_BOARD
            for k in range(S.N_KINDS):
                held = sh[p, s, S.S_ITEMS + k]
                if held < 0 or held > 1 or (held == 1 and cell < 0):
                    bits |= S.PROBLEM_ITEM_COUNT
        if ships != pl[p, S.P_SHIPS] or ships > r[S.R.max_ships]:
            bits |= S.PROBLEM_SHIP_COUNT
        if pl[p, S.P_ALIVE] == 1 and ships == 0:
            bits |= S.PROBLEM_SHIP_COUNT
    return bits


seed_rng = S.seed_rng  # tests drive single rules from a known seed: seed_rng(g, seed)


# -- one game -------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def finish(g, log, reason):
    g[S.G_ENDED] = 1
    g[S.G_END_REASON] = reason


@njit(cache=True)
def week_start(r, t: S.Tables, pids, prm, st: S.State, log, ext=None):
    """Day 1 of a week: maintenance, then object draws, then Archive cards and ships."""
    pl, g, order = st.pl, st.g, st.order
    n = pl.shape[0]
    if g[S.G_DAY] > 1 or r[S.R.maintenance_first_week] == 1:
        for i in range(n):
            p = order[i]
            if pl[p, S.P_ALIVE] == 1:
                pay_maintenance(r, t, pids, prm, st, log, p, ext)
                if g[S.G_LIVE] <= 1 and r[S.R.maintenance_order] == 1:
                    finish(g, log, S.END_LAST_PLAYER)
                    return
        if g[S.G_LIVE] == 0:
            finish(g, log, S.END_ALL_OUT)
            return
        if g[S.G_LIVE] == 1:
            finish(g, log, S.END_LAST_PLAYER)
            return
    for i in range(n):
        p = order[i]
        if pl[p, S.P_ALIVE] == 1:
            weekly_draw(r, t, pids, prm, st, log, p, ext)
    for i in range(n):
        p = order[i]
        if pl[p, S.P_ALIVE] == 1:
            purchases(r, t, pids, prm, st, log, p, ext)


# Without reference counting: these allocate nothing (the search throws its dice into ``dirs``,
# free while the ship does not sail).
@njit(cache=True, _nrt=False)
def before_action(r, sh, g, log, p, s):
    """The start of a ship's turn: with ``deviation_timing = before_action`` a storm pushes it
    before it decides."""
    if g[S.G_WEATHER] == S.STORM and r[S.R.deviation_timing] == 1:
        deviate(r, sh, g, log, p, s)


@njit(cache=True, _nrt=False)
def act(r, t: S.Tables, st: S.State, log, p, s, action, dirs):
    """The ship does ``action`` (a target cell to sail towards, ``SEARCH`` or ``PASS``; a ship
    bound to search here searches), then a storm pushes it (``after_action``)."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    here = S.cross_here(cr, p, sh[p, s, S.S_CELL])
    if here >= 0 and S.bound_to_search(r, cr, g, p, here):
        action = SEARCH
    if action == SEARCH:
        c = S.cross_here(cr, p, sh[p, s, S.S_CELL])
        if c >= 0:
            cost = S.search_cost(r, S.search_level(r, cr, g, p, c), g[S.G_WEATHER])
            if pl[p, S.P_VP] >= cost:
                search_with(r, t, st, log, p, s, c, dirs)
    elif action >= 0:
        sail(r, t.wmove, sh, g, log, p, s, action, dirs)
    if g[S.G_WEATHER] == S.STORM and r[S.R.deviation_timing] == 0:  # after_action
        deviate(r, sh, g, log, p, s)


@njit(cache=True, _nrt=False)
def ship_turn(r, t: S.Tables, pids, prm, st: S.State, log, p, s, dirs, ext=None):
    """One ship's turn: storm deviation, then sail OR search (never both), or pass."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    before_action(r, sh, g, log, p, s)
    if ext is not None and pids[p] >= OUTSIDE:
        action = ext[X_SHIP][pids[p] - OUTSIDE](prm[p], p, s, r, t.odds, t.tmean, pl, sh, cr, g)
    else:
        action = decide_ship(pids[p], prm[p], p, s, r, t.odds, t.tmean, pl, sh, cr, g)
    act(r, t, st, log, p, s, action, dirs)


# -- walking the days: the cursor ``st.at`` = (seat index in ``st.order``, next ship slot, colour
# started); at[0] = -1: a new day begins; at[0] = n: the day's turns are over ------------------
DAY_OVER = -2  # next_turn's answer at the end of a day's turns (when asked to stop there)
GAME_OVER = -1
WEEK_STARTS = -3  # walk_days's answers: the trading day is due (week_start) ...
PURCHASES_DUE = -4  # ... or the purchases of colour st.order[st.at[0]] (purchases)


@njit(cache=True)
def next_turn(r, t: S.Tables, pids, prm, st: S.State, log, checking, stop_at_day_end, ext=None):
    """Play on from the cursor ``st.at`` to the next ship's turn: the day's weather and trading day,
    a colour's purchases, skipping colours out of the game and empty ship slots. Returns the
    colour whose ship ``at[1]`` acts next (its turn begun: :func:`before_action`), ``GAME_OVER``,
    or, with ``stop_at_day_end``, ``DAY_OVER`` once after the day's last turn (the engine takes
    the day's leader then; the next call ends the day)."""
    while True:
        q = walk_days(r, t, st, log, stop_at_day_end)
        if q != WEEK_STARTS and q != PURCHASES_DUE:
            return q
        trading(r, t, pids, prm, st, log, checking, q, ext)


@njit(cache=True)
def trading(r, t: S.Tables, pids, prm, st: S.State, log, checking, q, ext=None) -> None:
    """Play the trading :func:`walk_days` asked for with ``q`` (``WEEK_STARTS`` or
    ``PURCHASES_DUE``)."""
    if q == WEEK_STARTS:
        week_start(r, t, pids, prm, st, log, ext)
        if checking:
            st.g[S.G_PROBLEMS] |= state_problems(r, st.pl, st.sh, st.cr, st.g)
    else:
        purchases(r, t, pids, prm, st, log, st.order[st.at[0]], ext)


# Called once a ship's turn: compiled without reference counting (it allocates nothing; counting
# every array of the state and the tables at each call took a fifth of a game's time). The
# trading it stops for (:func:`trading`) allocates, so its callers play it.
@njit(cache=True, _nrt=False)
def walk_days(r, t: S.Tables, st: S.State, log, stop_at_day_end) -> int:
    """:func:`next_turn` without the trading: walks the days from the cursor and returns the
    next ship's colour, ``GAME_OVER``, ``DAY_OVER``, or ``WEEK_STARTS`` / ``PURCHASES_DUE`` when
    the trading of a week's first day or a colour's purchases is due (played by
    :func:`trading`; the next call goes on from there)."""
    pl, sh, g, order, at = st.pl, st.sh, st.g, st.order, st.at
    n = pl.shape[0]
    while g[S.G_ENDED] == 0:
        i = at[0]
        if i < 0:  # a new day
            for k in range(n):
                order[k] = (g[S.G_FIRST_SEAT] + k) % n
            roll_weather(t.wface, g, log)
            at[0] = 0
            at[1] = 0
            at[2] = 0
            if g[S.G_WEEKDAY] == 1:
                return WEEK_STARTS
            continue
        if i >= n:  # the day's turns are over
            if stop_at_day_end and at[2] == 0:
                at[2] = 1
                return DAY_OVER
            if day_end(r, g, log, n):
                return GAME_OVER
            at[0] = -1
            continue
        p = order[i]
        if pl[p, S.P_ALIVE] == 0:
            at[0] = i + 1
            at[1] = 0
            at[2] = 0
            continue
        if at[2] == 0:
            at[2] = 1
            if g[S.G_WEEKDAY] != 1 and r[S.R.purchase_days] == 1:
                return PURCHASES_DUE
        s = at[1]
        while s < sh.shape[1] and sh[p, s, S.S_CELL] < 0:
            s += 1
        if s >= sh.shape[1]:
            at[0] = i + 1
            at[1] = 0
            at[2] = 0
            continue
        at[1] = s
        before_action(r, sh, g, log, p, s)
        return p
    return GAME_OVER


@njit(cache=True, _nrt=False)
def end_turn(r, st: S.State, log, checking) -> None:
    """After a ship's turn: the game may be over (treasures, Archive crosses); the cursor moves
    to the colour's next ship."""
    pl, g = st.pl, st.g
    if checking:
        g[S.G_PROBLEMS] |= state_problems(r, pl, st.sh, st.cr, g)
    reason = check_end(r, pl, g)
    if reason >= 0:
        finish(g, log, reason)
    st.at[1] += 1


@njit(cache=True, _nrt=False)
def day_end(r, g, log, n) -> bool:
    """The day is over: stop at the day cap, else the next day (and week). True: game over."""
    if g[S.G_ENDED] == 0 and g[S.G_DAY] >= r[S.R.max_days]:
        finish(g, log, S.END_DAY_CAP)
    if g[S.G_ENDED] == 1:
        return True
    g[S.G_DAY] += 1
    g[S.G_WEEKDAY] = g[S.G_WEEKDAY] % r[S.R.days_per_week] + 1
    if g[S.G_WEEKDAY] == 1 and r[S.R.turn_order] == 1:
        g[S.G_FIRST_SEAT] = (g[S.G_FIRST_SEAT] + 1) % n
    return False
