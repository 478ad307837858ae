"""Noughts and crosses on a 3 x 3 grid: three in a row wins, a full grid is a draw.

A perfect-information game in one plain-Python file (see docs/own-game.md). Seat 0 plays X and
moves first. Option `first_centre` forbids the first move in the centre, a variant to compare.
"""

title = "Noughts and crosses"
players = (2, 2)
length_unit = "moves"
options = {
    "first_centre": {"default": True, "meaning": "the first move may take the centre"},
}
end_reasons = ("line", "full")
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def start(players, rules):
    return {"cells": [-1] * 9, "mover": 0, "moves": 0, "centre": rules["first_centre"]}


def _line_owner(cells):
    for a, b, c in LINES:
        if cells[a] >= 0 and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return -1


def to_move(state):
    if _line_owner(state["cells"]) >= 0 or state["moves"] == 9:
        return None
    return state["mover"]


def legal_actions(state):
    free = [i for i, c in enumerate(state["cells"]) if c < 0]
    if state["moves"] == 0 and not state["centre"]:
        free.remove(4)
    return free


def chance_outcomes(state):
    return []


def apply(state, action):
    state["cells"][action] = state["mover"]
    state["mover"] = 1 - state["mover"]
    state["moves"] += 1
    return state


def winners(state):
    owner = _line_owner(state["cells"])
    return [owner] if owner >= 0 else []


def turn(state):
    return state["moves"]


def end_reason(state):
    return "line" if _line_owner(state["cells"]) >= 0 else "full"


def board(rules):
    """The grid as cells, so `balance board` draws it and replays show the marks."""
    cells = []
    for i in range(9):
        x, y = i % 3, i // 3
        near = [j for j in range(9) if j != i and abs(j % 3 - x) <= 1 and abs(j // 3 - y) <= 1]
        cells.append({"id": i, "kind": "square", "x": x, "y": y, "neighbours": near})
    return cells


def pieces(state):
    return [
        {"cell": i, "seat": c, "label": "XO"[c]} for i, c in enumerate(state["cells"]) if c >= 0
    ]


def describe(state, action):
    return f"{'XO'[state['mover']]} in row {action // 3 + 1}, column {action % 3 + 1}"


def clone(state):
    return {**state, "cells": list(state["cells"])}


def tactics(state, seat, actions, rng, block=True):
    """Win at once if a move wins; else block the other's line (when `block`); else centre,
    a corner, anything."""
    for who in (seat, 1 - seat) if block else (seat,):
        for a in actions:
            cells = list(state["cells"])
            cells[a] = who
            if _line_owner(cells) == who:
                return a
    for a in (4, 0, 2, 6, 8):
        if a in actions:
            return a
    return actions[int(rng.integers(len(actions)))]


policies = {"tactics": tactics}
