"""Shared dice: each seat rolls a die a few rounds; the highest total wins, tied seats share.

A game file (docs/own-game.md) whose `winners` lists every seat on the highest total, so a
tie at the top is a shared win (1/k to each of the k seats), never "nobody won". The exact
shares follow by enumerating the dice (tests/test_outcome_shares.py).
"""

title = "Shared dice"
players = (2, 4)
length_unit = "rounds"
options = {
    "rounds": {"default": 2, "min": 1, "max": 6, "meaning": "dice each seat rolls"},
    "faces": {"default": 6, "min": 2, "max": 20, "meaning": "faces of the die"},
}


def start(players, rules):
    return {
        "rounds": rules["rounds"],
        "faces": rules["faces"],
        "scores": [0] * players,
        "seat": 0,
        "round": 1,
        "rolling": False,
    }


def to_move(state):
    if state["round"] > state["rounds"]:
        return None
    return "chance" if state["rolling"] else state["seat"]


def legal_actions(state):
    return ["roll"]


def chance_outcomes(state):
    n = state["faces"]
    return [(face, 1 / n) for face in range(1, n + 1)]


def apply(state, action):
    if action == "roll":
        state["rolling"] = True
        return state
    state["rolling"] = False
    state["scores"][state["seat"]] += action
    state["seat"] = (state["seat"] + 1) % len(state["scores"])
    if state["seat"] == 0:
        state["round"] += 1
    return state


def winners(state):
    best = max(state["scores"])
    return [s for s, points in enumerate(state["scores"]) if points == best]


def turn(state):
    return min(state["round"], state["rounds"])


def scores(state):
    return list(state["scores"])
