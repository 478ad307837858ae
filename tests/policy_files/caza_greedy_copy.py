"""The built-in greedy policy of Caza-Tesoros copied into a policy file: plays game for game as
the built-in one (tests/test_policy_file_games.py) and measures the cost of the first-class
function path (benchmarks/policy_file.py)."""

from policies import caza_tesoros as C
from simulator.games.caza_tesoros import state as S
from simulator.runs.policy_file import Policy

RESERVE, SHIPS, CARDS, BID_MARGIN = 0, 1, 2, 3


def ship(prm, p, s, r, odds, tmean, pl, sh, cr, g):
    cell = sh[p, s, S.S_CELL]
    c, level, cost = C.search_here(r, cr, g, pl, p, cell)
    if c >= 0:
        return C.SEARCH
    target = C.nearest_cross(cr, p, cell, False)
    return target if target >= 0 else C.PASS


def buy(prm, p, kind, price, r, odds, tmean, pl, sh, cr, g):
    return pl[p, S.P_VP] - price >= prm[RESERVE]


def bid(prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g):
    vp = pl[p, S.P_VP]
    if vp - start < prm[RESERVE]:
        return -1
    return int(min(start + prm[BID_MARGIN], vp - prm[RESERVE]))


def purchase(prm, p, r, odds, tmean, pl, sh, cr, g):
    vp = pl[p, S.P_VP]
    card_ok = (
        pl[p, S.P_CARDS] < r[S.R.max_archive_cards]
        and g[S.G_ARCHIVE_DECK] > 0
        and vp >= r[S.R.price_archive_card]
    )
    ship_ok = pl[p, S.P_SHIPS] < r[S.R.max_ships] and vp >= r[S.R.price_ship]
    if card_ok and pl[p, S.P_CARDS] < prm[CARDS] and vp - r[S.R.price_archive_card] >= prm[RESERVE]:
        return C.BUY_CARD
    if ship_ok and pl[p, S.P_SHIPS] < prm[SHIPS] and vp - r[S.R.price_ship] >= prm[RESERVE]:
        return C.BUY_SHIP
    return C.BUY_NOTHING


POLICIES = [
    Policy(
        "greedy_copy",
        "the built-in greedy, from a file",
        params=C.POLICIES["greedy"].params,
        ship=ship,
        buy=buy,
        bid=bid,
        purchase=purchase,
    )
]
