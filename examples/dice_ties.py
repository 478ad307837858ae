"""High roll: each seat rolls two dice once and may roll again; the highest total wins, ties share.

A game whose ties share the win, in one plain-Python file (see docs/own-game.md). In seat
order, each seat rolls two dice, then keeps the total or rolls both again and must keep the
second total. When the game is over, every seat holding the highest total shares the win
(`winners` lists them all: 1/k of the win each), and the others take their places by total.
Small enough that every seat's share of the win can be computed exactly.
"""

title = "High roll"
players = (2, 4)
length_unit = "rolls"
options = {
    "faces": {"default": 6, "min": 2, "max": 12, "meaning": "faces of each die"},
}
end_reasons = ("alone", "tied")  # one seat holds the highest total, or several share it
measure_notes = {"rerolls": "totals rolled again in the game"}
score_note = "the total of the seat's two dice"


def start(players, rules):
    return {
        "faces": rules["faces"],
        "totals": [None] * players,
        "seat": 0,
        "rolled": False,  # the seat to act has rolled once and may roll again
        "second": False,  # the seat to act is rolling again: it keeps this total
        "rolls": 0,
        "rerolls": 0,
    }


def to_move(state):
    if state["seat"] >= len(state["totals"]):
        return None
    return state["seat"] if state["rolled"] else "chance"


def legal_actions(state):
    return ["keep", "reroll"]


def total_odds(faces):
    """[(total, probability)] of two dice with ``faces`` faces each."""
    ways = {}
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            ways[a + b] = ways.get(a + b, 0) + 1
    return [(total, count / faces**2) for total, count in sorted(ways.items())]


def chance_outcomes(state):
    return total_odds(state["faces"])


def apply(state, action):
    if action == "keep":
        state["rolled"] = False
        state["seat"] += 1
    elif action == "reroll":
        state["rolled"] = False
        state["second"] = True
        state["rerolls"] += 1
    else:  # a total rolled: the second one is kept at once
        state["rolls"] += 1
        state["totals"][state["seat"]] = action
        if state["second"]:
            state["second"] = False
            state["seat"] += 1
        else:
            state["rolled"] = True
    return state


def winners(state):
    best = max(state["totals"])
    return [s for s, total in enumerate(state["totals"]) if total == best]


def end_reason(state):
    return "tied" if len(winners(state)) > 1 else "alone"


def scores(state):
    return [0 if t is None else t for t in state["totals"]]


def turn(state):
    return state["rolls"]


def measures(state):
    return {"rerolls": state["rerolls"]}


def describe(state, action):
    seat = state["seat"] + 1
    if action in ("keep", "reroll"):
        return f"seat {seat} {'keeps' if action == 'keep' else 'rolls again'}"
    return f"seat {seat} rolls {action}"


def clone(state):
    return {**state, "totals": list(state["totals"])}


def chase(state, seat, actions, rng):
    """Roll again when behind the best total rolled before this seat's turn."""
    before = [t for t in state["totals"][:seat] if t is not None]
    return "reroll" if before and state["totals"][seat] < max(before) else "keep"


def at_least(state, seat, actions, rng, total=7):
    """Roll again below ``total``, whatever the others rolled."""
    return "reroll" if state["totals"][seat] < total else "keep"


policies = {"chase": chase, "at_least": at_least}
