"""A Pedruscos del Espacio policy of my own: copy this file, edit it, and play it with

    balance simulate pedruscos --policy-file my_policies.py -p branch_builder -p hauler \
        --players 2 -n 20000 --out runs/branch-builder

The decisions, their arguments and what they return: docs/policies.md, section Pedruscos del
Espacio. The functions are compiled by numba (numbers and numpy arrays only). The state layout is
in simulator/games/pedruscos/state.py (``pl[p, S.P_POINTS]`` is miner p's points).
"""

from policies import pedruscos as P  # the built-in decisions, usable from yours
from simulator.contract.policy import PolicyParam
from simulator.games.pedruscos import state as S
from simulator.runs.policy_file import Policy

# The built-in hauler's parameter first (its decisions read prm[0] as ship_at), then mine.
SHIP_AT, KEEP = 0, 1
H = P.HAULER


def branch(prm, p, r, b, pl, br, g, s):
    """Opens every branch it can while keeping ``keep`` points."""
    return pl[p, S.P_POINTS] - r.branch_cost >= prm[KEEP]


def move(prm, p, r, b, pl, br, g, die):
    return P.decide_move(H, prm, p, r, b, pl, br, g, die)


def ship(prm, p, r, b, pl, br, g, cost):
    return P.decide_ship(H, prm, p, r, b, pl, br, g, cost)


def dice(prm, p, r, b, pl, br, g, s):
    return P.decide_dice(H, prm, p, r, b, pl, br, g, s)


def route(prm, p, r, b, pl, br, g, s, roll, coord_only):
    return P.decide_route(H, prm, p, r, b, pl, br, g, s, roll, coord_only)


def purity(prm, p, r, b, pl, br, g):
    return P.decide_purity(H, prm, p, r, b, pl, br, g)


def swap(prm, p, r, b, pl, br, g, c):
    return P.decide_swap(H, prm, p, r, b, pl, br, g, c)


POLICIES = [
    Policy(
        "branch_builder",
        "the hauler, but it opens a branch at every station it can afford",
        params=(
            *P.POLICIES["hauler"].params,
            PolicyParam("keep", 0.0, 0.0, 60.0, "points it keeps when opening a branch"),
        ),
        move=move,
        ship=ship,
        branch=branch,
        dice=dice,
        route=route,
        purity=purity,
        swap=swap,
    )
]
