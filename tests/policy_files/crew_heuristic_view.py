"""The Crew's built-in heuristic, every decision made on the seat's view an outside policy gets
(tests/test_policy_file_games.py: it plays game for game as the built-in; and the view keeps
other hands hidden)."""

from policies import crew_deep_sea as C
from simulator.games.crew_deep_sea.outside import HIDDEN_OWNER
from simulator.games.crew_deep_sea.state import NC, O_COMMBY, O_OWNER, S_CAPTAIN, S_DUMMY
from simulator.runs.policy_file import Policy

H = C.HEURISTIC


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


def peeking_play(s, p, legal, n, prm, ttype, tparams):
    """Plays the heuristic's card, unless it can see a card of another hand that was never
    shown: then the last legal card (the games would differ from the heuristic's). The dummy's
    card is chosen by the captain, on the captain's view."""
    me = s[S_CAPTAIN] if p == s[S_DUMMY] else p
    for c in range(NC):
        owner = s[O_OWNER + c]
        if owner >= 0 and owner != me and owner != HIDDEN_OWNER and s[O_COMMBY + c] < 0:
            return legal[n - 1]
    return C.decide_play(s, p, legal, n, H, prm, ttype, tparams)


DECISIONS = dict(
    pick=pick,
    task_bid=task_bid,
    volunteer=volunteer,
    predict=predict,
    distress=distress,
    direction=direction,
    pass_card=pass_card,
    comm=comm,
)
POLICIES = [
    Policy(
        "heuristic_view",
        "the built-in heuristic on the seat's view",
        params=C.POLICIES["heuristic"].params,
        play=play,
        **DECISIONS,
    ),
    Policy(
        "peeker",
        "the heuristic, but it plays differently when it sees a hidden card",
        params=C.POLICIES["heuristic"].params,
        play=peeking_play,
        **DECISIONS,
    ),
]
