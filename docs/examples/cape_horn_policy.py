"""A Cape Horn policy of my own: copy this file, edit it, and play it with

    balance tournament cape-horn --policy-file my_policies.py -p hoarder -p planner \
        -n 20000 --out runs/hoarder

The decisions, their arguments and what they return: docs/policies.md, section Cape Horn. The
functions are compiled by numba (numbers and numpy arrays only). The state layout is in
simulator/games/cape_horn/state.py (``pl[p, S.P_SP]`` is seat p's sail points).
"""

from policies import cape_horn as C  # the built-in decisions, usable from yours
from simulator.contract.policy import PolicyParam
from simulator.games.cape_horn import state as S
from simulator.runs.policy_file import Policy

PL = C.PLANNER
# The planner's parameters first (its decisions read them), then mine: prm[p, RESERVE_SP].
RESERVE_SP = len(C.POLICIES["planner"].params)


def place(prm, p, B, r, card, ship, pl, hand, g, buf):
    return C.decide_place(PL, prm, p, B, r, card, ship, pl, hand, g, buf)


def move(prm, p, B, r, card, ship, pl, hand, g):
    return C.decide_move(PL, prm, p, B, r, card, ship, pl, hand, g)


def buy_all(prm, p, B, r, card, ship, pl, hand, g):
    """Every card the hand and its sail points allow, keeping ``reserve_sp`` points."""
    room = r.hand_max - pl[p, S.P_HAND]
    spare = pl[p, S.P_SP] - int(prm[p, RESERVE_SP])
    if r.buy_cost > 0:
        room = min(room, spare // r.buy_cost)
    return max(room, 0)


POLICIES = [
    Policy(
        "hoarder",
        "the planner, but it buys every card it can after the free draw",
        params=(
            *C.POLICIES["planner"].params,
            PolicyParam("reserve_sp", 0.0, 0.0, 20.0, "sail points it keeps", integer=True),
        ),
        place=place,
        move=move,
        buy=buy_all,
    )
]
