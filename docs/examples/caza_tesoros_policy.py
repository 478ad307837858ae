"""Two Caza-Tesoros policies of my own: copy this file, edit it, and play it with

    balance simulate caza-tesoros --policy-file my_policies.py -p robot_first -p greedy \
        --players 2 -n 20000 --out runs/robot-first

The decisions, their arguments and what they return: docs/policies.md, section Caza-Tesoros.
The functions are compiled by numba (no Python objects, lists or dicts inside them: numbers and
the numpy arrays you are given). The state layout is in simulator/games/caza_tesoros/state.py
(``pl[p, S.P_VP]`` is colour p's victory points, ``sh[p, s, S.S_CELL]`` the cell of its ship s).
"""

from numba import njit

from policies import caza_tesoros as C  # built-in helpers and decisions, usable from yours
from simulator.contract.policy import PolicyParam
from simulator.games.caza_tesoros import state as S
from simulator.runs.policy_file import Policy

# -- robot_first: the robot card before anything else -------------------------------------------
# Parameter rows hold the values in the order declared below: prm[RESERVE], prm[MARGIN].
RESERVE, MARGIN = 0, 1


@njit  # a helper of your own needs @njit; the decisions themselves are compiled for you
def has_robot(sh, p):
    """Does any ship of colour p carry the robot card?"""
    for s in range(sh.shape[1]):
        if sh[p, s, S.S_CELL] >= 0 and sh[p, s, S.S_ITEMS + S.ROBOT] == 1:
            return True
    return False


def robot_ship(prm, p, s, r, odds, tmean, pl, sh, cr, g):
    """Searches the cross it stands on when it can pay; otherwise sails to the nearest cross."""
    cell = sh[p, s, S.S_CELL]
    cross, level, cost = C.search_here(r, cr, g, pl, p, cell)
    if cross >= 0:
        return C.SEARCH
    target = C.nearest_cross(cr, p, cell, False)
    return target if target >= 0 else C.PASS


def robot_buy(prm, p, kind, price, r, odds, tmean, pl, sh, cr, g):
    """The robot whenever drawn; other cards only once it has the robot, above the reserve."""
    if kind == S.ROBOT:
        return True
    return has_robot(sh, p) and pl[p, S.P_VP] - price >= prm[RESERVE]


def robot_bid(prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g):
    """Up to ``margin`` above the start for the robot; nothing for the other cards."""
    if kind != S.ROBOT or has_robot(sh, p):
        return -1
    return int(min(start + prm[MARGIN], pl[p, S.P_VP]))


def robot_purchase(prm, p, r, odds, tmean, pl, sh, cr, g):
    """One Archive card when it has none (something to search), nothing else."""
    if (
        pl[p, S.P_CARDS] == 0
        and g[S.G_ARCHIVE_DECK] > 0
        and pl[p, S.P_VP] - r[S.R.price_archive_card] >= prm[RESERVE]
    ):
        return C.BUY_CARD
    return C.BUY_NOTHING


# -- fair_weather: the built-in greedy, but it never searches in rain or storm ------------------
# It declares greedy's parameters in greedy's order, so the built-in decisions read its row.
def fair_ship(prm, p, s, r, odds, tmean, pl, sh, cr, g):
    action = C.decide_ship(C.GREEDY, prm, p, s, r, odds, tmean, pl, sh, cr, g)
    if action == C.SEARCH and S.bad_weather(g[S.G_WEATHER]):
        return C.PASS  # wait on the cross for a fair day
    return action


def greedy_buy(prm, p, kind, price, r, odds, tmean, pl, sh, cr, g):
    return C.decide_buy(C.GREEDY, prm, p, kind, price, r, odds, tmean, pl, sh, cr, g)


def greedy_bid(prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g):
    return C.decide_bid(C.GREEDY, prm, p, kind, start, seller, r, odds, tmean, pl, sh, cr, g)


def greedy_purchase(prm, p, r, odds, tmean, pl, sh, cr, g):
    return C.decide_purchase(C.GREEDY, prm, p, r, odds, tmean, pl, sh, cr, g)


POLICIES = [
    Policy(
        "robot_first",
        "buys the robot card whenever it can and nothing else until it has it",
        params=(
            PolicyParam("reserve", 12.0, 0.0, 100.0, "VP kept back from other purchases"),
            PolicyParam("margin", 5.0, 0.0, 50.0, "VP it bids above an auction's start"),
        ),
        ship=robot_ship,
        buy=robot_buy,
        bid=robot_bid,
        purchase=robot_purchase,
    ),
    Policy(
        "fair_weather",
        "greedy that waits for fair weather to search",
        params=C.POLICIES["greedy"].params,
        ship=fair_ship,
        buy=greedy_buy,
        bid=greedy_bid,
        purchase=greedy_purchase,
    ),
]
