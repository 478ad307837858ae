"""Pig: roll a die as often as you dare; a 1 loses the turn's points.

A designer's game in one plain-Python file (see docs/own-game.md): nothing here imports balance.
On your turn you roll; every face but a 1 adds to the turn's total, a 1 ends the turn with
nothing; hold to bank the turn's total. The first to reach the goal wins.
"""

title = "Pig"
players = (2, 6)
length_unit = "turns"
options = {
    "goal": {"default": 100, "min": 10, "max": 1000, "meaning": "points that win"},
    "faces": {"default": 6, "min": 2, "max": 20, "meaning": "faces of the die"},
}
end_reasons = ("goal",)
measure_notes = {"rolls": "dice rolled in the game", "busts": "turns lost to a 1"}


def start(players, rules):
    return {
        "goal": rules["goal"],
        "faces": rules["faces"],
        "scores": [0] * players,
        "seat": 0,
        "turn_total": 0,
        "rolling": False,  # a roll was asked for: the die is in the air
        "turn": 1,
        "rolls": 0,
        "busts": 0,
    }


def to_move(state):
    if max(state["scores"]) >= state["goal"]:
        return None
    return "chance" if state["rolling"] else state["seat"]


def legal_actions(state):
    return ["roll", "hold"]


def chance_outcomes(state):
    n = state["faces"]
    return [(face, 1 / n) for face in range(1, n + 1)]


def _next_seat(state):
    state["seat"] = (state["seat"] + 1) % len(state["scores"])
    state["turn_total"] = 0
    state["turn"] += 1


def apply(state, action):
    if state["rolling"]:
        state["rolling"] = False
        state["rolls"] += 1
        if action == 1:
            state["busts"] += 1
            _next_seat(state)
        else:
            state["turn_total"] += action
    elif action == "roll":
        state["rolling"] = True
    else:
        state["scores"][state["seat"]] += state["turn_total"]
        if state["scores"][state["seat"]] < state["goal"]:
            _next_seat(state)
    return state


def winners(state):
    return [s for s, points in enumerate(state["scores"]) if points >= state["goal"]]


def turn(state):
    return state["turn"]


def scores(state):
    return list(state["scores"])


def measures(state):
    return {"rolls": state["rolls"], "busts": state["busts"]}


def end_reason(state):
    return "goal"


def describe(state, action):
    if state["rolling"]:
        return f"the die shows {action}" + (", the turn's points are lost" if action == 1 else "")
    total = state["turn_total"]
    return f"seat {state['seat'] + 1} {action}s" + (f" with {total} this turn" if total else "")


def clone(state):
    return {**state, "scores": list(state["scores"])}


def hold(state, seat, actions, rng, at=20):
    """Roll until the turn's total reaches `at` (or would win), then hold."""
    total = state["turn_total"]
    if total >= at or state["scores"][seat] + total >= state["goal"]:
        return "hold"
    return "roll"


def catch_up(state, seat, actions, rng, at=20, behind=10):
    """Hold at `at`, or at `at + behind` while trailing the leader by more than `behind`."""
    lead = max(p for s, p in enumerate(state["scores"]) if s != seat) - state["scores"][seat]
    return hold(state, seat, actions, rng, at=at + (behind if lead > behind else 0))


policies = {"hold": hold, "catch_up": catch_up}
search_rollout = "hold"  # the search's simulations hold at 20: far closer to good play than random
search_value = "scores"  # simulations stop when the turn passes: a value from scores judges them
