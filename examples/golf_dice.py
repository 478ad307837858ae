"""Dice golf: the fewest strokes win. Each hole, roll a die and take it as strokes, or roll again.

A lowest-score-wins game in one plain-Python file (see docs/own-game.md): `scores` are the
strokes taken and `lowest_score_wins = True` says they count against a seat, so places, leads,
greedy play and replays read them that way; nothing is negated. On every hole each seat in turn
rolls a die and keeps it, or rolls once more and must keep the second. After the last hole the
fewest strokes win; seats tied on the fewest share the win. Small enough that every seat's
places can be computed exactly.
"""

title = "Dice golf"
players = (2, 4)
length_unit = "holes"
lowest_score_wins = True
options = {
    "holes": {"default": 3, "min": 1, "max": 18, "meaning": "holes played"},
    "faces": {"default": 6, "min": 2, "max": 12, "meaning": "faces of the die"},
}
measure_notes = {"rerolls": "dice rolled again in the game"}
score_note = "strokes taken (fewest wins)"


def start(players, rules):
    return {
        "holes": rules["holes"],
        "faces": rules["faces"],
        "strokes": [0] * players,
        "hole": 1,
        "seat": 0,
        "die": None,  # the die the seat to act rolled and may keep
        "second": False,  # the seat to act rolls again: it keeps this die
        "rerolls": 0,
    }


def to_move(state):
    if state["hole"] > state["holes"]:
        return None
    return "chance" if state["die"] is None else state["seat"]


def legal_actions(state):
    return ["keep", "reroll"]


def chance_outcomes(state):
    n = state["faces"]
    return [(face, 1 / n) for face in range(1, n + 1)]


def _take(state, strokes):
    state["strokes"][state["seat"]] += strokes
    state["die"], state["second"] = None, False
    state["seat"] += 1
    if state["seat"] == len(state["strokes"]):
        state["seat"] = 0
        state["hole"] += 1


def apply(state, action):
    if action == "keep":
        _take(state, state["die"])
    elif action == "reroll":
        state["die"], state["second"] = None, True
        state["rerolls"] += 1
    elif state["second"]:
        _take(state, action)
    else:
        state["die"] = action
    return state


def winners(state):
    fewest = min(state["strokes"])
    return [s for s, strokes in enumerate(state["strokes"]) if strokes == fewest]


def scores(state):
    return list(state["strokes"])


def turn(state):
    return min(state["hole"], state["holes"])


def measures(state):
    return {"rerolls": state["rerolls"]}


def describe(state, action):
    seat = state["seat"] + 1
    if action == "keep":
        return f"seat {seat} keeps {state['die']}"
    if action == "reroll":
        return f"seat {seat} rolls again"
    return f"seat {seat} rolls {action}" + (" and must keep it" if state["second"] else "")


def clone(state):
    return {**state, "strokes": list(state["strokes"])}


def careful(state, seat, actions, rng, above=3):
    """Roll again when the die shows more than ``above`` strokes."""
    return "reroll" if state["die"] > above else "keep"


policies = {"careful": careful}
