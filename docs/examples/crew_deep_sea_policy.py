"""A crew of my own for The Crew: copy this file, edit it, and play it with

    balance compare crew-deep-sea --policy-file my_policies.py -p silent \
        --set mission=10 -n 20000 --out runs/silent

The decisions, their arguments and what they return: docs/policies.md, section The Crew. Each
function receives ``s``, the member's own view of the game (a copy: other hands are hidden),
and is compiled by numba (numbers and numpy arrays only). The layout of ``s`` is in
simulator/games/crew_deep_sea/state.py (``s[O_OWNER + c] == p``: card ``c`` is in my hand).
"""

from numba import njit

from policies import crew_deep_sea as C  # the built-in decisions, usable from yours
from simulator.games.crew_deep_sea import state as S
from simulator.runs.policy_file import Policy

H = C.HEURISTIC  # every decision below that is not mine is the built-in heuristic's


@njit
def lowest_legal(legal, n):
    """The lowest card of legal[:n], submarines last."""
    best = legal[0]
    for i in range(1, n):
        c = legal[i]
        if (S.suit_of(c) == S.SUB) < (S.suit_of(best) == S.SUB) or (
            (S.suit_of(c) == S.SUB) == (S.suit_of(best) == S.SUB) and S.rank_of(c) < S.rank_of(best)
        ):
            best = c
    return best


def comm_never(s, p, prm, ttype, tparams):
    return -1, -1  # keeps its sonar token for the whole mission


def play_dump_without_tasks(s, p, legal, n, prm, ttype, tparams):
    """A member who holds no task throws its lowest card; the others play as the heuristic."""
    for k in range(s[S.S_NTASKS]):
        if s[S.O_HOLDER + k] == p:
            return C.decide_play(s, p, legal, n, H, prm, ttype, tparams)
    return lowest_legal(legal, n)


def pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    return C.decide_pick(s, p, avail, n_avail, may_pass, H, prm, ttype, tparams)


def task_bid(s, p, row, prm, ttype, tparams):
    return C.decide_task_bid(s, p, row, H, prm, ttype, tparams)


def volunteer(s, p, prm, ttype, tparams):
    return C.decide_volunteer(s, p, H, prm, ttype, tparams)


def predict(s, p, k, prm, ttype, tparams):
    return C.decide_predict(s, p, k, H, prm, ttype, tparams)


def distress(s, p, prm, ttype, tparams):
    return C.decide_distress(s, p, H, prm, ttype, tparams)


def direction(s, p, prm, ttype, tparams):
    return C.decide_direction(s, p, H, prm, ttype, tparams)


def pass_card(s, p, to, prm, ttype, tparams):
    return C.decide_pass(s, p, to, H, prm, ttype, tparams)


def comm(s, p, prm, ttype, tparams):
    return C.decide_comm(s, p, H, prm, ttype, tparams)


def play(s, p, legal, n, prm, ttype, tparams):
    return C.decide_play(s, p, legal, n, H, prm, ttype, tparams)


HEURISTIC = dict(
    pick=pick,
    task_bid=task_bid,
    volunteer=volunteer,
    predict=predict,
    distress=distress,
    direction=direction,
    pass_card=pass_card,
)
POLICIES = [
    Policy(
        "silent",
        "the heuristic crew that never uses its sonar token",
        params=C.POLICIES["heuristic"].params,  # so the built-in decisions read its row
        comm=comm_never,
        play=play,
        **HEURISTIC,
    ),
    Policy(
        "dumper",
        "the heuristic, except that members without a task throw their lowest card",
        params=C.POLICIES["heuristic"].params,
        comm=comm,
        play=play_dump_without_tasks,
        **HEURISTIC,
    ),
]
