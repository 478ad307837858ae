"""Caza-Tesoros policies: the four decisions of the game, dispatched on the seat's policy id.

Decisions (each a compiled function branching on ``pid``; ``prm`` is the seat's parameter row):

- :func:`decide_ship`: what one ship does today: sail towards a cell, search here, or pass;
- :func:`decide_buy`: buy the object card just drawn, at its price;
- :func:`decide_bid`: the most this player bids for a card at auction (below the start: no bid);
- :func:`decide_purchase`: buy an Archive card, a ship, or nothing (asked until nothing).

Every function sees the whole state (``pl``, ``sh``, ``cr``, ``g``, layout in
:mod:`simulator.caza_tesoros.state`), the rule array ``r``, the exact search odds ``odds``
(``odds[level, dice, divers]``) and the mean treasure value. The engine checks legality again, so
a policy can only waste its own turn, never break a rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies import PolicyDef, PolicyParam
from simulator.caza_tesoros import state as S
from simulator.caza_tesoros.board import CELLS, hex_distance

RANDOM, GREEDY, CAUTIOUS, PLANNER = 0, 1, 2, 3
PASS, SEARCH = -1, -2  # decide_ship answers besides a target cell
BUY_NOTHING, BUY_CARD, BUY_SHIP = 0, 1, 2

POLICIES: dict[str, PolicyDef] = {
    "random": PolicyDef(
        "random",
        RANDOM,
        "a uniformly random legal choice at every decision",
    ),
    "greedy": PolicyDef(
        "greedy",
        GREEDY,
        "sails to its nearest cross, searches at once, buys whatever it can afford",
        (
            PolicyParam("reserve", 4.0, 0.0, 100.0, "VP it keeps back from every purchase"),
            PolicyParam("ships", 1.0, 1.0, 6.0, "ships it wants to own"),
            PolicyParam("cards", 1.0, 1.0, 6.0, "Archive cards it wants to hold"),
            PolicyParam("bid_margin", 0.0, 0.0, 50.0, "VP it bids above an auction's start"),
        ),
    ),
    "cautious": PolicyDef(
        "cautious",
        CAUTIOUS,
        "never spends on searches, items, ships or cards: sails to its cross and waits",
    ),
    "planner": PolicyDef(
        "planner",
        PLANNER,
        "expected value with the exact search odds: equips before searching, avoids risky "
        "searches in bad weather, bids what a card is worth to it",
        (
            PolicyParam("reserve", 3.0, 0.0, 100.0, "VP it keeps back from every purchase"),
            PolicyParam("horizon", 3.0, 0.0, 10.0, "searches a search card is expected to serve"),
            PolicyParam("move_value", 2.0, 0.0, 20.0, "VP it pays per extra movement point"),
            PolicyParam("min_ev", 0.0, -20.0, 50.0, "expected VP a search must beat"),
            PolicyParam("patience", 1.0, 0.0, 50.0, "VP of value it gives up rather than wait"),
            PolicyParam("ships", 1.0, 1.0, 6.0, "ships it wants to own"),
            PolicyParam("cards", 1.0, 1.0, 6.0, "Archive cards it wants to hold"),
        ),
    ),
}


# -- shared helpers -------------------------------------------------------------------------------
@njit(cache=True)
def nearest_cross(cr: np.ndarray, p: int, cell: int, own_only: bool) -> int:
    """Cell of the nearest cross player ``p`` may search (own, or Archive unless ``own_only``)."""
    best = -1
    best_d = 1 << 30
    for c in range(cr.shape[0]):
        owner = cr[c, S.C_OWNER]
        if owner == p or (owner == S.ARCHIVE and not own_only):
            d = hex_distance(cell, cr[c, S.C_CELL])
            if d < best_d:
                best_d = d
                best = cr[c, S.C_CELL]
    return best


@njit(cache=True)
def search_here(r, cr, g, pl, p: int, cell: int) -> tuple[int, int, int]:
    """(cross, level, cost) of the search player ``p`` could make on ``cell``; cross -1 if none
    or if it cannot pay."""
    c = S.cross_here(cr, p, cell)
    if c < 0:
        return -1, 0, 0
    level = S.search_level(r, cr, g, p, c)
    cost = S.search_cost(r, level, g[S.G_WEATHER])
    if pl[p, S.P_VP] < cost:
        return -1, level, cost
    return c, level, cost


@njit(cache=True)
def _odds(r, odds, robot: int, scanner: int, divers: int, level: int) -> float:
    n = level + S.extra_dice(r, robot, scanner)
    return odds[level, n, 1 if divers == 1 and r[S.R_DIVERS_REROLLS] > 0 else 0]


@njit(cache=True)
def search_value(
    r,
    odds,
    tmean: float,
    robot: int,
    scanner: int,
    divers: int,
    level: int,
    weather: int,
    own: bool,
    loss_on_fail: float,
) -> float:
    """Expected VP of searching now at ``level`` with this equipment (planner's model).

    Level 2: treasure times success, minus its cost, minus what a failure loses (the card for an
    own cross, and ``loss_on_fail`` for a card the weather takes). Level 1 adds the option of a
    later level 2 in fair weather when it fails.
    """
    p2 = _odds(r, odds, robot, scanner, divers, 2)
    card = float(r[S.R_PRICE_ARCHIVE_CARD]) if own else 0.0
    ev2_fair = p2 * tmean - S.search_cost(r, 2, S.CLOUDY) - (1.0 - p2) * card
    if level == 2:
        lost = loss_on_fail if S.bad_weather(weather) else 0.0
        return p2 * tmean - S.search_cost(r, 2, weather) - (1.0 - p2) * (card + lost)
    p1 = _odds(r, odds, robot, scanner, divers, 1)
    return p1 * tmean - S.search_cost(r, 1, weather) + (1.0 - p1) * max(ev2_fair, 0.0)


@njit(cache=True)
def weather_loss(r, sh, p: int, s: int) -> float:
    """Price of the card a failed level 2 in bad weather would take from this ship."""
    if r[S.R_BAD_WEATHER_ITEM_LOSS] == 0:
        return 0.0
    best = 0
    for k in (S.DIVERS, S.ROBOT, S.SCANNER):
        if sh[p, s, S.S_ITEMS + k] == 1:
            best = max(best, S.item_price(r, k))
    if best == 0:
        for k in (S.COMPASS, S.GPS, S.SATELLITE):
            if sh[p, s, S.S_ITEMS + k] == 1:
                best = max(best, S.item_price(r, k))
    return float(best)


@njit(cache=True)
def ship_search_value(
    r, odds, tmean: float, sh, p: int, s: int, level: int, weather: int, own: bool
) -> float:
    return search_value(
        r,
        odds,
        tmean,
        sh[p, s, S.S_ITEMS + S.ROBOT],
        sh[p, s, S.S_ITEMS + S.SCANNER],
        sh[p, s, S.S_ITEMS + S.DIVERS],
        level,
        weather,
        own,
        weather_loss(r, sh, p, s),
    )


@njit(cache=True)
def item_value(r, odds, tmean: float, prm, sh, p: int, kind: int) -> float:
    """The most the planner would pay for a card, on the ship that would take it.

    Navigation: ``move_value`` VP per extra movement point. Search: the card opens equipment
    plans (this card and perhaps the next ones of its chain); a plan is worth ``horizon``
    fair-weather searches at its odds minus the cards still to buy. The card is worth the best
    plan with it, plus its own price, minus the best plan without it.
    """
    s = S.ship_for_item(sh, p, kind)
    if s < 0:
        return 0.0
    if kind <= S.SATELLITE:
        held = sh[p, s, S.S_ITEMS : S.S_ITEMS + 3].copy()
        before = S.navigation_bonus_of(r, held[0], held[1], held[2])
        held[kind] = 1
        after = S.navigation_bonus_of(r, held[0], held[1], held[2])
        return (after - before) * prm[2]
    step = kind - S.DIVERS  # 0 divers, 1 robot, 2 scanner
    with_card = -1e9
    without = -1e9
    for plan in range(4):  # plan L holds the first L cards of the search chain
        cost = 0.0
        held = np.zeros(3, dtype=np.int64)
        for i in range(3):
            held[i] = sh[p, s, S.S_ITEMS + S.DIVERS + i]
            if i < plan and held[i] == 0:
                held[i] = 1
                cost += S.item_price(r, S.DIVERS + i)
        ev = search_value(r, odds, tmean, held[1], held[2], held[0], 1, S.CLOUDY, True, 0.0)
        value = prm[1] * max(ev, 0.0) - cost
        if plan > step:
            with_card = max(with_card, value)
        elif held[step] == 0:
            without = max(without, value)
    return with_card + S.item_price(r, kind) - without


# -- the four decisions ---------------------------------------------------------------------------
@njit(cache=True)
def decide_ship(pid, prm, p, s, r, odds, tmean, pl, sh, cr, g) -> int:
    """A target cell to sail towards, ``SEARCH`` (search the cross here) or ``PASS``."""
    cell = sh[p, s, S.S_CELL]
    c, level, cost = search_here(r, cr, g, pl, p, cell)
    if pid == RANDOM:
        if c >= 0 and np.random.random() < 0.5:
            return SEARCH
        return np.random.randint(0, CELLS)
    if pid == GREEDY:
        if c >= 0:
            return SEARCH
        target = nearest_cross(cr, p, cell, False)
        return target if target >= 0 else PASS
    if pid == CAUTIOUS:
        target = nearest_cross(cr, p, cell, True)
        return target if target >= 0 else PASS
    # planner
    if c >= 0:
        own = cr[c, S.C_OWNER] == p
        weather = g[S.G_WEATHER]
        ev = ship_search_value(r, odds, tmean, sh, p, s, level, weather, own)
        if ev > prm[3]:
            if not S.bad_weather(weather):
                return SEARCH
            fair = ship_search_value(r, odds, tmean, sh, p, s, level, S.CLOUDY, own)
            if ev >= fair - prm[4]:
                return SEARCH
        if own:
            return PASS  # wait here for fair weather or better equipment
    target = nearest_cross(cr, p, cell, False)
    if target == cell:
        target = nearest_cross(cr, p, cell, True)
    return target if target >= 0 else PASS


@njit(cache=True)
def decide_buy(pid, prm, p, kind, price, r, odds, tmean, pl, sh, cr, g) -> bool:
    """Whether to buy the object card ``kind`` just drawn (the engine checks it can)."""
    vp = pl[p, S.P_VP]
    if pid == RANDOM:
        return np.random.random() < 0.5
    if pid == GREEDY:
        return vp - price >= prm[0]
    if pid == CAUTIOUS:
        return False
    return vp - price >= prm[0] and item_value(r, odds, tmean, prm, sh, p, kind) >= price


@njit(cache=True)
def decide_bid(pid, prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g) -> int:
    """Highest bid for card ``kind`` offered from ``start`` (less than ``start``: no bid)."""
    vp = pl[p, S.P_VP]
    if pid == RANDOM:
        if vp < start or np.random.random() < 0.5:
            return -1
        return np.random.randint(start, vp + 1)
    if pid == GREEDY:
        if vp - start < prm[0]:
            return -1
        return int(min(start + prm[3], vp - prm[0]))
    if pid == CAUTIOUS:
        return -1
    worth = item_value(r, odds, tmean, prm, sh, p, kind)
    return int(min(np.floor(worth), vp - prm[0]))


@njit(cache=True)
def decide_purchase(pid, prm, p, r, odds, tmean, pl, sh, cr, g) -> int:
    """``BUY_CARD``, ``BUY_SHIP`` or ``BUY_NOTHING`` (asked again after every purchase)."""
    vp = pl[p, S.P_VP]
    card_ok = (
        pl[p, S.P_CARDS] < r[S.R_MAX_CARDS]
        and g[S.G_ARCHIVE_DECK] > 0
        and vp >= r[S.R_PRICE_ARCHIVE_CARD]
    )
    ship_ok = pl[p, S.P_SHIPS] < r[S.R_MAX_SHIPS] and vp >= r[S.R_PRICE_SHIP]
    if pid == RANDOM:
        n = 1 + (1 if card_ok else 0) + (1 if ship_ok else 0)
        pick = np.random.randint(0, n)
        if pick == 0:
            return BUY_NOTHING
        if card_ok and pick == 1:
            return BUY_CARD
        return BUY_SHIP
    if pid == CAUTIOUS:
        return BUY_NOTHING
    if pid == GREEDY:
        if card_ok and pl[p, S.P_CARDS] < prm[2] and vp - r[S.R_PRICE_ARCHIVE_CARD] >= prm[0]:
            return BUY_CARD
        if ship_ok and pl[p, S.P_SHIPS] < prm[1] and vp - r[S.R_PRICE_SHIP] >= prm[0]:
            return BUY_SHIP
        return BUY_NOTHING
    # planner: a card when the best ship's search chain is worth its price
    if card_ok and pl[p, S.P_CARDS] < prm[6] and vp - r[S.R_PRICE_ARCHIVE_CARD] >= prm[0]:
        best = -1e9
        for s in range(sh.shape[1]):
            if sh[p, s, S.S_CELL] >= 0:
                best = max(best, ship_search_value(r, odds, tmean, sh, p, s, 1, S.CLOUDY, True))
        if best >= r[S.R_PRICE_ARCHIVE_CARD]:
            return BUY_CARD
    if ship_ok and pl[p, S.P_SHIPS] < prm[5] and vp - r[S.R_PRICE_SHIP] >= prm[0]:
        return BUY_SHIP
    return BUY_NOTHING
