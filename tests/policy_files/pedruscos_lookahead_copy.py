"""Pedruscos del Espacio's built-in lookahead, every decision handed back to the built-in
(tests/test_policy_file_games.py: it plays game for game as the built-in)."""

from policies import pedruscos as P
from simulator.runs.policy_file import Policy

L = P.LOOKAHEAD


def move(prm, p, r, b, pl, br, g, die):
    return P.decide_move(L, prm, p, r, b, pl, br, g, die)


def ship(prm, p, r, b, pl, br, g, cost):
    return P.decide_ship(L, prm, p, r, b, pl, br, g, cost)


def branch(prm, p, r, b, pl, br, g, s):
    return P.decide_branch(L, prm, p, r, b, pl, br, g, s)


def dice(prm, p, r, b, pl, br, g, s):
    return P.decide_dice(L, prm, p, r, b, pl, br, g, s)


def route(prm, p, r, b, pl, br, g, s, roll, coord_only):
    return P.decide_route(L, prm, p, r, b, pl, br, g, s, roll, coord_only)


def purity(prm, p, r, b, pl, br, g):
    return P.decide_purity(L, prm, p, r, b, pl, br, g)


def swap(prm, p, r, b, pl, br, g, c):
    return P.decide_swap(L, prm, p, r, b, pl, br, g, c)


POLICIES = [
    Policy(
        "lookahead_copy",
        "the built-in lookahead, from a file",
        params=P.POLICIES["lookahead"].params,
        move=move,
        ship=ship,
        branch=branch,
        dice=dice,
        route=route,
        purity=purity,
        swap=swap,
    )
]
