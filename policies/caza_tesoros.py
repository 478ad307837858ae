"""Caza-Tesoros policies: the four decisions of the game, dispatched on the seat's policy id.

Decisions (each a compiled function branching on ``pid``; ``prm`` is the seat's parameter row):

- :func:`decide_ship`: what one ship does today: sail towards a cell, search here, or pass;
- :func:`decide_buy`: buy the object card just drawn, at its price;
- :func:`decide_bid`: the most this player bids for a card at auction (below the start: no bid);
- :func:`decide_purchase`: buy an Archive card, a ship, or nothing (asked until nothing).

Every function sees the whole state (``pl``, ``sh``, ``cr``, ``g``, layout in
:mod:`simulator.games.caza_tesoros.state`), the rule array ``r``, the exact search odds ``odds``
(``odds[level, dice, divers]``) and the mean treasure value. The engine checks legality again, so
a policy can only waste its own turn, never break a rule.

``catchup`` is the search's rollout: cheap, it waits while level or ahead and searches while
behind. ``mcts`` is the shared search (``simulator.search.tree``) over the game's forward model
(``simulator.games.caza_tesoros.forward``): the engine calls it for a ship's action, never
:func:`decide_ship`, and hands its other decisions to its ``guide`` policy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import CELLS, hex_distance
from simulator.search.tree import mcts_policy

RANDOM, GREEDY, CAUTIOUS, PLANNER, CATCHUP, MCTS = 0, 1, 2, 3, 4, 5
PASS, SEARCH = -1, -2  # decide_ship answers besides a target cell
BUY_NOTHING, BUY_CARD, BUY_SHIP = 0, 1, 2

POLICIES: dict[str, PolicyDef] = {
    "random": PolicyDef(
        "random",
        RANDOM,
        "random choices, but it sails to a random hex for several days before picking another",
        (
            PolicyParam(
                "commit_days",
                5.0,
                1.0,
                60.0,
                "days it keeps sailing to one random hex",
                integer=True,
            ),
        ),
    ),
    "greedy": PolicyDef(
        "greedy",
        GREEDY,
        "sails to its nearest cross, searches at once, buys what it can afford above a reserve",
        (
            PolicyParam(
                "reserve",
                12.0,
                0.0,
                100.0,
                "VP it keeps back from every purchase (12: a few weeks of upkeep and two "
                "attempts, so day one's draw is not a compass for half its purse)",
                integer=True,
            ),
            PolicyParam("ships", 1.0, 1.0, 6.0, "ships it wants to own", integer=True),
            PolicyParam("cards", 1.0, 1.0, 6.0, "Archive cards it wants to hold", integer=True),
            PolicyParam(
                "bid_margin", 0.0, 0.0, 50.0, "VP it bids above an auction's start", integer=True
            ),
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
        "plays for the win: weighs each search, card and bid by its chance of ending ahead of "
        "the richest opponent (exact search odds, treasure values, upkeep clock), sits still "
        "when nothing pays, gambles when waiting cannot win",
        (
            PolicyParam(
                "reserve",
                1.0,
                0.0,
                100.0,
                "VP kept above outlasting the richest rival",
                integer=True,
            ),
            PolicyParam(
                "horizon",
                3.0,
                0.0,
                10.0,
                "searches a search card is expected to serve",
                integer=True,
            ),
            PolicyParam("move_value", 2.0, 0.0, 20.0, "VP it pays per extra movement point"),
            PolicyParam("spread", 3.0, 0.1, 50.0, "VP lead that makes a win about 3 to 1"),
            PolicyParam("patience", 1.0, 0.0, 50.0, "VP a day of waiting for fair weather costs"),
            PolicyParam("ships", 1.0, 1.0, 6.0, "ships it wants to own", integer=True),
            PolicyParam("cards", 1.0, 1.0, 6.0, "Archive cards it wants to hold", integer=True),
            PolicyParam(
                "gamble",
                1.0,
                0.0,
                1.0,
                "1: when waiting cannot win (not ahead, rivals that never search or buy), it "
                "searches even at a loss; 0: it never does",
                integer=True,
            ),
        ),
    ),
    "catchup": PolicyDef(
        "catchup",
        CATCHUP,
        "waits on its own cross while level with or ahead of the richest rival, searches (in "
        "fair weather) while behind or when the ship's search pays; never buys items (the "
        "search player's cheap rollout)",
    ),
}
ROLLOUT_NAMES = ("random", "greedy", "cautious", "planner", "catchup")
POLICIES["mcts"] = mcts_policy(
    MCTS, ROLLOUT_NAMES, "catchup", "catchup", 100,
    "each ship's action (sail to its own or an Archive cross, search, or wait) is searched; "
    "bids, buys and purchases are the guide's; with opponents=tree the other players play "
    "rollout and only the player's own other ships of the day choose in the tree",
    unit="days", opponents="catchup",
)  # fmt: skip
# Parameter positions by name, generated from the declarations above.
RANDOM_P = POLICIES["random"].slots
GREEDY_P = POLICIES["greedy"].slots
PLANNER_P = POLICIES["planner"].slots
MCTS_P = POLICIES["mcts"].slots
ROLLOUTS = np.array([POLICIES[name].id for name in ROLLOUT_NAMES], dtype=np.int64)
# each rollout policy's default parameters, by rollout index
ROLLOUT_PRM = np.stack([POLICIES[name].defaults() for name in ROLLOUT_NAMES])


# -- shared helpers -------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _odds(r, odds, robot: int, scanner: int, divers: int, level: int) -> float:
    n = level + S.extra_dice(r, robot, scanner)
    return odds[level, n, 1 if divers == 1 and r[S.R.divers_rerolls] > 0 else 0]


@njit(cache=True, _nrt=False)
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
    card = float(r[S.R.price_archive_card]) if own else 0.0
    ev2_fair = p2 * tmean - S.search_cost(r, 2, S.CLOUDY) - (1.0 - p2) * card
    if level == 2:
        lost = loss_on_fail if S.bad_weather(weather) else 0.0
        return p2 * tmean - S.search_cost(r, 2, weather) - (1.0 - p2) * (card + lost)
    p1 = _odds(r, odds, robot, scanner, divers, 1)
    return p1 * tmean - S.search_cost(r, 1, weather) + (1.0 - p1) * max(ev2_fair, 0.0)


@njit(cache=True, _nrt=False)
def weather_loss(r, sh, p: int, s: int) -> float:
    """Price of the card a failed level 2 in bad weather would take from this ship."""
    if r[S.R.bad_weather_item_loss] == 0:
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


@njit(cache=True, _nrt=False)
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
def item_value(r, odds, tmean: float, prm, sh, p: int, kind: int, budget: float = 1e9) -> float:
    """The most the planner would pay for a card, on the ship that would take it.

    Navigation: ``move_value`` VP per extra movement point. Search: the card opens equipment
    plans (this card and perhaps the next ones of its chain); a plan is worth ``horizon``
    fair-weather searches at its odds minus the cards still to buy, and only plans whose cards
    fit in ``budget`` count (a road to a robot it can never pay for is worth nothing). The card
    is worth the best plan with it, plus its own price, minus the best plan without it.
    """
    s = S.ship_for_item(sh, p, kind)
    if s < 0:
        return 0.0
    if kind <= S.SATELLITE:
        held = sh[p, s, S.S_ITEMS : S.S_ITEMS + 3].copy()
        before = S.navigation_bonus_of(r, held[0], held[1], held[2])
        held[kind] = 1
        after = S.navigation_bonus_of(r, held[0], held[1], held[2])
        return (after - before) * prm[PLANNER_P.move_value]
    step = kind - S.DIVERS  # 0 divers, 1 robot, 2 scanner
    attempt = max(
        1,
        S.search_cost(r, 1, S.CLOUDY) + S.search_cost(r, 2, S.CLOUDY) + r[S.R.price_archive_card],
    )
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
        if cost > budget:
            continue
        ev = search_value(r, odds, tmean, held[1], held[2], held[0], 1, S.CLOUDY, True, 0.0)
        miss = (1.0 - _odds(r, odds, held[1], held[2], held[0], 1)) * (
            1.0 - _odds(r, odds, held[1], held[2], held[0], 2)
        )
        attempts = min(prm[PLANNER_P.horizon], max(1.0, np.floor((budget - cost) / attempt)))
        if 1.0 - miss**attempts <= 0.5:
            ev = 0.0  # rarely finds within what it can pay: sitting still does better
        value = prm[PLANNER_P.horizon] * max(ev, 0.0) - cost
        if plan > step:
            with_card = max(with_card, value)
        elif held[step] == 0:
            without = max(without, value)
    return with_card + S.item_price(r, kind) - without


@njit(cache=True, _nrt=False)
def richest_rival(r, pl, p: int) -> int:
    """VP of the richest other player still in the game, over its colours (0: none left)."""
    best = 0
    me = S.player_of(r, pl, p)
    for q in range(S.players_of(r, pl)):
        if q != me and S.player_in(r, pl, q):
            best = max(best, S.player_sum(r, pl, q, S.P_VP))
    return best


@njit(cache=True, _nrt=False)
def keep_back(r, prm, pl, g, p: int) -> float:
    """VP the planner keeps out of purchases and bids: its upkeep for the weeks the game is
    expected to last (until the richest rival colour can no longer pay its own upkeep, or the
    day cap), plus ``reserve``. VP buy time, and the player who outlasts the others wins."""
    upkeep = r[S.R.maintenance_per_ship] * pl[p, S.P_SHIPS]
    weeks_to_cap = (r[S.R.max_days] - g[S.G_DAY]) // r[S.R.days_per_week] + 1
    weeks = 0.0
    me = S.player_of(r, pl, p)
    for q in range(pl.shape[0]):
        if S.player_of(r, pl, q) == me or pl[q, S.P_ALIVE] == 0:
            continue
        rival_upkeep = r[S.R.maintenance_per_ship] * pl[q, S.P_SHIPS]
        lasts = pl[q, S.P_VP] // rival_upkeep + 1 if rival_upkeep > 0 else weeks_to_cap
        weeks = max(weeks, float(min(lasts, weeks_to_cap)))
    return upkeep * weeks + prm[PLANNER_P.reserve]


@njit(cache=True, _nrt=False)
def spending_budget(r, prm, pl, g, p: int) -> float:
    """VP the planner may put into cards and Archive cards: all above ``keep_back`` (it still
    outlasts its richest rival), or, for a plan that pays, all above a floor of four weeks of
    upkeep and one fair attempt (level 1, then level 2) so it never spends itself out."""
    floor = (
        4.0 * r[S.R.maintenance_per_ship] * pl[p, S.P_SHIPS]
        + S.search_cost(r, 1, S.CLOUDY)
        + S.search_cost(r, 2, S.CLOUDY)
        + prm[PLANNER_P.reserve]
    )
    return pl[p, S.P_VP] - min(keep_back(r, prm, pl, g, p), floor)


@njit(cache=True, _nrt=False)
def likely_find(r, odds, prm, sh, p: int, s: int, budget: float) -> bool:
    """More likely than not to find a treasure within the fair attempts (level 1, then level
    2, then a new Archive card) that ``budget`` pays for, at most ``horizon``: a search that is
    worth its price on average but rarely finds leaves the planner behind a rival who sat."""
    robot = sh[p, s, S.S_ITEMS + S.ROBOT]
    scanner = sh[p, s, S.S_ITEMS + S.SCANNER]
    divers = sh[p, s, S.S_ITEMS + S.DIVERS]
    q1 = _odds(r, odds, robot, scanner, divers, 1)
    q2 = _odds(r, odds, robot, scanner, divers, 2)
    attempt = S.search_cost(r, 1, S.CLOUDY) + S.search_cost(r, 2, S.CLOUDY)
    attempt += r[S.R.price_archive_card]
    attempts = min(prm[PLANNER_P.horizon], max(1.0, np.floor(budget / max(attempt, 1))))
    miss = (1.0 - q1) * (1.0 - q2)
    return 1.0 - miss**attempts > 0.5


@njit(cache=True, _nrt=False)
def waiting_cannot_win(r, prm, pl, p: int) -> bool:
    """The upkeep clock against passive rivals: when every rival still in has never searched
    nor bought a card, the game ends by upkeep, and a player not strictly ahead of the richest
    rival then loses or drops out with it (no winner). Only a search can change that."""
    if prm[PLANNER_P.gamble] < 0.5:
        return False
    me = S.player_of(r, pl, p)
    for q in range(pl.shape[0]):
        if S.player_of(r, pl, q) == me or pl[q, S.P_ALIVE] == 0:
            continue
        if pl[q, S.P_SEARCHES] > 0 or pl[q, S.P_ITEMS] > 0:
            return False
    return S.player_sum(r, pl, me, S.P_VP) <= richest_rival(r, pl, p)


@njit(cache=True, _nrt=False)
def win_chance(lead: float, spread: float) -> float:
    """The planner's chance of winning with ``lead`` VP over the richest rival (a logistic)."""
    return 1.0 / (1.0 + np.exp(-lead / spread))


@njit(cache=True, _nrt=False)
def outcome(lead: float, spread: float, ends: bool) -> float:
    """Win chance after an outcome; one that ends the game is a win exactly when ahead."""
    if ends:
        return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)
    return win_chance(lead, spread)


@njit(cache=True, _nrt=False)
def search_choice(r, odds, tmean: float, prm, pl, sh, cr, g, p: int, s: int, c: int) -> float:
    """Win chance of searching cross ``c`` now minus that of waiting (positive: search).

    Level 1 fails into the option of a fair-weather level 2 later. A find that rescues the
    deciding treasure, or a failed level 2 that lays the deciding Archive cross, ends the game:
    then only being ahead counts. In rain or storm, waiting keeps the option of searching on a
    fair day for ``patience`` VP. A card the weather would take counts at its price."""
    spread = prm[PLANNER_P.spread]
    lead = float(S.player_sum(r, pl, S.player_of(r, pl, p), S.P_VP) - richest_rival(r, pl, p))
    own = cr[c, S.C_OWNER] == p
    level = S.search_level(r, cr, g, p, c)
    weather = g[S.G_WEATHER]
    treasure = own or r[S.R.archive_loot] == 0
    ends_find = treasure and pl[p, S.P_TREASURES] + 1 >= r[S.R.treasures_to_win]
    ends_fail = own and g[S.G_ARCHIVE_CROSSES] + 1 >= r[S.R.archive_crosses_to_end]
    found = tmean if treasure else 0.0
    robot = sh[p, s, S.S_ITEMS + S.ROBOT]
    scanner = sh[p, s, S.S_ITEMS + S.SCANNER]
    divers = sh[p, s, S.S_ITEMS + S.DIVERS]
    q1 = _odds(r, odds, robot, scanner, divers, 1)
    q2 = _odds(r, odds, robot, scanner, divers, 2)
    loss = weather_loss(r, sh, p, s)
    now = _chance(r, q1, q2, found, loss, lead, level, weather, spread, ends_find, ends_fail)
    wait = win_chance(lead, spread)
    if S.bad_weather(weather):
        fair = _chance(
            r,
            q1,
            q2,
            found,
            loss,
            lead - prm[PLANNER_P.patience],
            level,
            S.CLOUDY,
            spread,
            ends_find,
            ends_fail,
        )
        wait = max(wait, fair)
    return now - wait


@njit(cache=True, _nrt=False)
def _chance(r, q1, q2, found, loss, lead, level, weather, spread, ends_find, ends_fail) -> float:
    c2 = S.search_cost(r, 2, weather)
    lost = loss if S.bad_weather(weather) else 0.0
    if level == 2:
        fail = win_chance(lead - c2 - lost, spread)
        if ends_fail:
            fail = outcome(lead - c2, spread, True)
        return q2 * outcome(lead - c2 + found, spread, ends_find) + (1.0 - q2) * fail
    c1 = S.search_cost(r, 1, weather)
    after = lead - c1
    fair2 = S.search_cost(r, 2, S.CLOUDY)
    fail2 = outcome(after - fair2, spread, True) if ends_fail else win_chance(after - fair2, spread)
    later = q2 * outcome(after - fair2 + found, spread, ends_find) + (1.0 - q2) * fail2
    keep = max(win_chance(after, spread), later)
    return q1 * outcome(after + found, spread, ends_find) + (1.0 - q1) * keep


# -- the four decisions ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def decide_ship(pid, prm, p, s, r, odds, tmean, pl, sh, cr, g) -> int:
    """A target cell to sail towards, ``SEARCH`` (search the cross here) or ``PASS``."""
    cell = sh[p, s, S.S_CELL]
    c, level, cost = search_here(r, cr, g, pl, p, cell)
    if pid == RANDOM:
        if c >= 0 and S.policy_int(g, 2) == 1:
            return SEARCH
        # keep sailing to one random hex for commit_days, then pick another
        if (
            sh[p, s, S.S_AIM] < 0
            or g[S.G_DAY] >= sh[p, s, S.S_AIM_UNTIL]
            or sh[p, s, S.S_AIM] == cell
        ):
            sh[p, s, S.S_AIM] = S.policy_int(g, CELLS)
            sh[p, s, S.S_AIM_UNTIL] = g[S.G_DAY] + int(prm[RANDOM_P.commit_days])
        return sh[p, s, S.S_AIM]
    if pid == GREEDY:
        if c >= 0:
            return SEARCH
        target = nearest_cross(cr, p, cell, False)
        return target if target >= 0 else PASS
    if pid == CAUTIOUS:
        target = nearest_cross(cr, p, cell, True)
        return target if target >= 0 else PASS
    if pid == CATCHUP:
        behind = S.player_sum(r, pl, S.player_of(r, pl, p), S.P_VP) < richest_rival(r, pl, p)
        if c >= 0 and not S.bad_weather(g[S.G_WEATHER]):
            own = cr[c, S.C_OWNER] == p
            if behind or ship_search_value(r, odds, tmean, sh, p, s, level, S.CLOUDY, own) > 0.0:
                return SEARCH
        if c >= 0 and cr[c, S.C_OWNER] == p:
            return PASS
        target = nearest_cross(cr, p, cell, True)
        if target < 0 and behind:
            target = nearest_cross(cr, p, cell, False)
        return target if target >= 0 and target != cell else PASS
    # planner: search when that raises its chance of ending ahead, else wait on its own cross
    if c >= 0:
        if search_choice(r, odds, tmean, prm, pl, sh, cr, g, p, s, c) > 0.0:
            return SEARCH
        # a search worth more than it costs, that it can afford, pays over repeated attempts
        own = cr[c, S.C_OWNER] == p
        ev = ship_search_value(r, odds, tmean, sh, p, s, level, g[S.G_WEATHER], own)
        budget = spending_budget(r, prm, pl, g, p)
        if ev > 0.0 and cost <= budget and likely_find(r, odds, prm, sh, p, s, budget):
            if not S.bad_weather(g[S.G_WEATHER]):
                return SEARCH
            fair = ship_search_value(r, odds, tmean, sh, p, s, level, S.CLOUDY, own)
            if ev >= fair - prm[PLANNER_P.patience]:
                return SEARCH
        # waiting ends in a loss or with nobody winning: a search is the only chance
        if waiting_cannot_win(r, prm, pl, p):
            return SEARCH
        if cr[c, S.C_OWNER] == p:
            return PASS
    target = nearest_cross(cr, p, cell, False)
    if target == cell:
        target = nearest_cross(cr, p, cell, True)
    return target if target >= 0 else PASS


@njit(cache=True)
def decide_buy(pid, prm, p, kind, price, r, odds, tmean, pl, sh, cr, g) -> bool:
    """Whether to buy the object card ``kind`` just drawn (the engine checks it can)."""
    vp = pl[p, S.P_VP]
    if pid == RANDOM:
        return S.policy_int(g, 2) == 1
    if pid == GREEDY:
        return vp - price >= prm[GREEDY_P.reserve]
    if pid == CAUTIOUS or pid == CATCHUP:
        return False
    budget = spending_budget(r, prm, pl, g, p)
    return price <= budget and item_value(r, odds, tmean, prm, sh, p, kind, budget) >= price


@njit(cache=True)
def decide_bid(pid, prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g) -> int:
    """Highest bid for card ``kind`` offered from ``start`` (less than ``start``: no bid)."""
    vp = pl[p, S.P_VP]
    if pid == RANDOM:
        if vp < start or S.policy_int(g, 2) == 1:
            return -1
        return start + S.policy_int(g, vp + 1 - start)
    if pid == GREEDY:
        if vp - start < prm[GREEDY_P.reserve]:
            return -1
        return int(min(start + prm[GREEDY_P.bid_margin], vp - prm[GREEDY_P.reserve]))
    if pid == CAUTIOUS or pid == CATCHUP:
        return -1
    # the seller's commission goes to a rival: a card bought at auction costs that much more
    budget = spending_budget(r, prm, pl, g, p)
    worth = item_value(r, odds, tmean, prm, sh, p, kind, budget) - r[S.R.auction_commission]
    return int(min(np.floor(worth), np.floor(budget)))


@njit(cache=True, _nrt=False)
def decide_purchase(pid, prm, p, r, odds, tmean, pl, sh, cr, g) -> int:
    """``BUY_CARD``, ``BUY_SHIP`` or ``BUY_NOTHING`` (asked again after every purchase)."""
    vp = pl[p, S.P_VP]
    card_ok = (
        pl[p, S.P_CARDS] < r[S.R.max_archive_cards]
        and g[S.G_ARCHIVE_DECK] > 0
        and vp >= r[S.R.price_archive_card]
    )
    ship_ok = pl[p, S.P_SHIPS] < r[S.R.max_ships] and vp >= r[S.R.price_ship]
    if pid == RANDOM:
        n = 1 + (1 if card_ok else 0) + (1 if ship_ok else 0)
        pick = S.policy_int(g, n)
        if pick == 0:
            return BUY_NOTHING
        if card_ok and pick == 1:
            return BUY_CARD
        return BUY_SHIP
    if pid == CAUTIOUS:
        return BUY_NOTHING
    if pid == CATCHUP:  # behind with nothing to search: a new cross
        if card_ok and pl[p, S.P_CARDS] == 0 and g[S.G_ARCHIVE_CROSSES] == 0:
            if S.player_sum(r, pl, S.player_of(r, pl, p), S.P_VP) < richest_rival(r, pl, p):
                return BUY_CARD
        return BUY_NOTHING
    if pid == GREEDY:
        if (
            card_ok
            and pl[p, S.P_CARDS] < prm[GREEDY_P.cards]
            and vp - r[S.R.price_archive_card] >= prm[GREEDY_P.reserve]
        ):
            return BUY_CARD
        if (
            ship_ok
            and pl[p, S.P_SHIPS] < prm[GREEDY_P.ships]
            and vp - r[S.R.price_ship] >= prm[GREEDY_P.reserve]
        ):
            return BUY_SHIP
        return BUY_NOTHING
    # planner: a card when the best ship's search chain is worth its price, within its budget
    if card_ok and pl[p, S.P_CARDS] == 0 and waiting_cannot_win(r, prm, pl, p):
        if g[S.G_ARCHIVE_CROSSES] == 0:
            return BUY_CARD  # nothing to search otherwise
    budget = spending_budget(r, prm, pl, g, p)
    if card_ok and pl[p, S.P_CARDS] < prm[PLANNER_P.cards] and r[S.R.price_archive_card] <= budget:
        best = -1e9
        for s in range(sh.shape[1]):
            if sh[p, s, S.S_CELL] >= 0:
                best = max(best, ship_search_value(r, odds, tmean, sh, p, s, 1, S.CLOUDY, True))
        if best >= r[S.R.price_archive_card]:
            return BUY_CARD
    if ship_ok and pl[p, S.P_SHIPS] < prm[PLANNER_P.ships] and r[S.R.price_ship] <= budget:
        return BUY_SHIP
    return BUY_NOTHING
