"""21 sticks: take one, two or three sticks in turn; whoever takes the last stick loses.

A perfect-information game in one plain-Python file (see docs/own-game.md) with a known answer:
the player to move loses exactly when the sticks left are one more than a multiple of four, so
the right move leaves the other player such a number. A test and the search's benchmark hold the
search to that answer.
"""

title = "21 sticks"
players = (2, 2)
length_unit = "moves"
options = {
    "sticks": {"default": 21, "min": 1, "max": 100, "meaning": "sticks on the table"},
    "most": {"default": 3, "min": 1, "max": 10, "meaning": "most sticks one move takes"},
}
end_reasons = ("last stick",)


def start(players, rules):
    return {"left": rules["sticks"], "most": rules["most"], "mover": 0, "moves": 0}


def to_move(state):
    return None if state["left"] == 0 else state["mover"]


def legal_actions(state):
    return list(range(1, min(state["most"], state["left"]) + 1))


def chance_outcomes(state):
    return []


def apply(state, action):
    state["left"] -= action
    state["mover"] = 1 - state["mover"]
    state["moves"] += 1
    return state


def winners(state):
    return [state["mover"]]  # the other seat took the last stick


def end_reason(state):
    return "last stick"


def turn(state):
    return state["moves"]


def describe(state, action):
    return f"seat {state['mover'] + 1} takes {action}, leaving {state['left'] - action}"


def clone(state):
    return dict(state)


def greedy_taker(state, seat, actions, rng):
    """Take as many as allowed, unless that takes the last stick."""
    safe = [a for a in actions if a < state["left"]]
    return max(safe) if safe else actions[0]


policies = {"greedy_taker": greedy_taker}
