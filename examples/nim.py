"""Nim: take any number of counters from one pile; whoever takes the last counter wins.

A perfect-information game in one plain-Python file (see docs/own-game.md), solved long ago: the
player to move wins exactly when the piles' sizes, written in binary and added without carrying
(their "nim-sum"), are not all zero, and the winning moves are those that make it zero. A test
and the search's benchmark hold the search to that answer.
"""

title = "Nim"
players = (2, 2)
length_unit = "moves"
options = {
    "piles": {"default": 3, "min": 1, "max": 6, "meaning": "piles on the table"},
    "smallest": {"default": 3, "min": 1, "max": 20, "meaning": "counters in the first pile"},
}
end_reasons = ("last counter",)


def start(players, rules):
    # the piles grow by one: 3, 4, 5 by default
    sizes = [rules["smallest"] + i for i in range(rules["piles"])]
    return {"piles": sizes, "mover": 0, "moves": 0}


def to_move(state):
    return None if not any(state["piles"]) else state["mover"]


def legal_actions(state):
    """(pile, counters taken) pairs, pile by pile."""
    return [(i, k) for i, size in enumerate(state["piles"]) for k in range(1, size + 1)]


def chance_outcomes(state):
    return []


def apply(state, action):
    pile, taken = action
    state["piles"][pile] -= taken
    state["mover"] = 1 - state["mover"]
    state["moves"] += 1
    return state


def winners(state):
    return [1 - state["mover"]]  # the seat that took the last counter


def end_reason(state):
    return "last counter"


def turn(state):
    return state["moves"]


def describe(state, action):
    pile, taken = action
    return f"seat {state['mover'] + 1} takes {taken} from pile {pile + 1}"


def clone(state):
    return {**state, "piles": list(state["piles"])}


def one_at_a_time(state, seat, actions, rng):
    """Take one counter from the largest pile."""
    largest = max(range(len(state["piles"])), key=lambda i: state["piles"][i])
    return (largest, 1)


policies = {"one_at_a_time": one_at_a_time}
