"""Cape Horn's built-in planner, every decision handed back to the built-in on the hands the seat
may know (tests/test_policy_file_games.py: it plays game for game as the built-in; it leaves out
the optional token decision, so it takes every token as the built-ins do), and the same planner
declining every zone III token."""

from policies import cape_horn as C
from simulator.runs.policy_file import Policy

PL = C.PLANNER


def place(prm, p, B, r, card, ship, pl, hand, g, buf):
    return C.decide_place(PL, prm, p, B, r, card, ship, pl, hand, g, buf)


def move(prm, p, B, r, card, ship, pl, hand, g):
    return C.decide_move(PL, prm, p, B, r, card, ship, pl, hand, g)


def buy(prm, p, B, r, card, ship, pl, hand, g):
    return C.decide_buy(PL, prm, p, B, r, card, ship, pl, hand, g)


def no_zone3(prm, p, B, r, card, ship, pl, hand, g, c):
    return B.st_zone[c] != 2


POLICIES = [
    Policy(
        "planner_copy",
        "the built-in planner, from a file",
        params=C.POLICIES["planner"].params,
        place=place,
        move=move,
        buy=buy,
    ),
    Policy(
        "planner_no_zone3",
        "the built-in planner declining every zone III station token",
        params=C.POLICIES["planner"].params,
        place=place,
        move=move,
        buy=buy,
        token=no_zone3,
    ),
]
