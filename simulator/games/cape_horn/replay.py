"""Cape Horn's replay (``balance replay``): the recorded events of :mod:`.engine` as dicts, text
lines and board pictures (events: docs/rules/cape-horn.md, "Replay events").

Spaces leave as ``[col, row]`` of the data files (``stations.csv``, ``starts.csv``), wind cards
by their design name (``cards.csv``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.contract.recording import ReplayDef, replay_by_chunk

from . import board as BD
from . import engine as E
from . import turn
from .state import END_REASONS, MV_IGNORE, MV_NONE, MV_NORMAL, MV_TWICE

MOVE_NAMES = {MV_NORMAL: "wind", MV_IGNORE: "ignore", MV_TWICE: "twice", MV_NONE: "no_move"}
HOW = ("dealt", "drawn", "bought")
ZONES = ("I", "II", "III")


def _place(data: BD.BoardData, cell: int) -> list[int]:
    col, row = data.col_row(int(cell))
    return [int(col), int(row)]


def decode(rules: Any, n_players: int, rows: np.ndarray) -> list[dict[str, Any]]:
    data = BD.load(rules)
    names = data.card_names
    card: dict[int, int] = {}  # cell -> design on top, followed to name the winds a ship sails by
    out = []
    for row in rows.tolist():
        kind, step, player, a, b, c, d, e, f, h, i, j = row
        ev: dict[str, Any] = {"step": step, "player": player, "kind": turn.EVENT_KINDS[kind]}
        if kind == turn.EV_PRINTED:
            card[a] = b
            ev.update(wind=names[b], at=_place(data, a))
        elif kind == turn.EV_START:
            ev["at"] = _place(data, a)
        elif kind == turn.EV_DRAW:
            ev.update(wind=names[a], how=HOW[b], hand=c, sail_points=d)
        elif kind == turn.EV_SAIL:
            ev["sail_points"] = a
        elif kind == turn.EV_LAY:
            ev.update(wind=names[a], at=_place(data, b))
            ev["covers"] = names[c] if c >= 0 else None
            ev["hand"] = d
            card[b] = a
        elif kind == turn.EV_REFUSED:
            ev.update(wind=names[a], at=_place(data, b))
        elif kind == turn.EV_BLOCKED:
            ev["at"] = _place(data, a)
        elif kind == turn.EV_MOVE:
            ev["move"] = MOVE_NAMES[a]
            ev.update({"from": _place(data, b), "to": _place(data, c)})
            if a in (MV_NORMAL, MV_TWICE):
                ev.update(wind=names[card[b]], option=e + 1)
            if a == MV_TWICE:
                ev.update(via=_place(data, d), wind2=names[card[d]], option2=f + 1)
            ev.update(sail_points=h, paid=i, answer_illegal=bool(j))
        elif kind == turn.EV_TOKEN:
            ev.update(zone=ZONES[a], colour=BD.COLOURS[b], at=_place(data, c))
        elif kind == turn.EV_END:
            ev.update(reason=END_REASONS[a], winner=player if player >= 0 else None)
        out.append(ev)
    return out


def _xy(cell: list[int]) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def _points(n: int) -> str:
    return f"{n} sail point{'' if n == 1 else 's'}"


def _steps(ev: dict[str, Any]) -> str:
    if ev["from"] == ev["to"]:
        return f"stays at {_xy(ev['from'])}"
    return f"{_xy(ev['from'])} -> {_xy(ev['to'])}"


def text(ev: dict[str, Any]) -> str:
    who = f"seat {ev['player'] + 1}"
    kind = ev["kind"]
    if kind == "printed":
        return f"printed wind {ev['wind']} on the start space {_xy(ev['at'])}"
    if kind == "start":
        return f"{who}'s clipper on its start space {_xy(ev['at'])}"
    if kind == "draw":
        line = {"dealt": "is dealt", "drawn": "draws", "bought": "buys"}[ev["how"]]
        line = f"{who} {line} {ev['wind']} ({ev['hand']} in hand"
        if ev["how"] == "bought":
            line += f", {_points(ev['sail_points'])} left"
        return line + ")"
    if kind == "sail":
        return f"{who} gains a sail point ({ev['sail_points']})"
    if kind == "lay":
        over = f" over {ev['covers']}" if ev["covers"] else ""
        return f"{who} lays {ev['wind']} at {_xy(ev['at'])}{over} ({ev['hand']} in hand)"
    if kind == "refused":
        return f"{who} may not lay {ev['wind']} at {_xy(ev['at'])}: the card stays in hand"
    if kind == "blocked":
        return f"{who}'s card at {_xy(ev['at'])} gives no move the ship may make"
    if kind == "move":
        move = ev["move"]
        if move == "wind":
            line = f"{who} sails by {ev['wind']} (option {ev['option']}): {_steps(ev)}"
        elif move == "twice":
            line = (
                f"{who} moves twice, {ev['wind']} (option {ev['option']}) then {ev['wind2']} "
                f"(option {ev['option2']}): {_xy(ev['from'])} -> {_xy(ev['via'])} -> "
                f"{_xy(ev['to'])}, {_points(ev['paid'])}"
            )
        elif move == "ignore":
            line = f"{who} ignores the wind for {_points(ev['paid'])}: {_steps(ev)}"
        else:
            line = f"{who} makes no move ({_points(ev['sail_points'])})"
        return line + (" (the policy's move was illegal)" if ev["answer_illegal"] else "")
    if kind == "token":
        return f"{who} takes the {ev['colour']} token of zone {ev['zone']} at {_xy(ev['at'])}"
    if ev["winner"] is None:
        return f"no winner ({ev['reason'].replace('_', ' ')})"
    return f"seat {ev['winner'] + 1} wins ({ev['reason'].replace('_', ' ')})"


def label(name: str) -> str:
    """A wind card's name in two characters or three (``F1S1`` -> ``F1+``)."""
    short = name.removeprefix("start_")
    return short if len(short) <= 2 else short[:2] + "+"


def frames(rules: Any, n_players: int, rows: np.ndarray, events: list) -> list[dict[str, Any]]:
    """Wind cards (neutral) and clippers (their seat's colour, the tokens they hold beside them)
    before the first event and after each one; marks: the spaces of the event."""
    names = BD.load(rules).card_names
    card: dict[int, int] = {}
    ship: dict[int, int] = {}
    tokens = [0] * n_players

    def picture(marks: list[int]) -> dict[str, Any]:
        pieces: list[dict[str, Any]] = [
            {"cell": c, "seat": -1, "label": label(names[d]), "name": names[d]}
            for c, d in sorted(card.items())
        ]
        for p, c in sorted(ship.items()):
            piece = {"cell": c, "seat": p, "label": str(p + 1), "name": f"seat {p + 1}"}
            if tokens[p]:
                piece["carry"] = str(tokens[p])
            pieces.append(piece)
        return {"pieces": pieces, "marks": marks}

    out = [picture([])]
    for row in rows.tolist():
        kind, _, player, a, b, c, d = row[:7]
        marks: list[int] = []
        if kind == turn.EV_PRINTED:
            card[a] = b
            marks = [a]
        elif kind == turn.EV_START:
            ship[player] = a
            marks = [a]
        elif kind == turn.EV_LAY:
            card[b] = a
            marks = [b]
        elif kind in (turn.EV_REFUSED, turn.EV_BLOCKED):
            marks = [b if kind == turn.EV_REFUSED else a]
        elif kind == turn.EV_MOVE:
            ship[player] = c
            marks = [b, d, c] if d >= 0 else [b, c]
        elif kind == turn.EV_TOKEN:
            tokens[player] += 1
            marks = [c]
        out.append(picture(marks))
    return out


REPLAY = ReplayDef(
    play=replay_by_chunk(E.play_chunk, E.EVENT_WIDTH),
    decode=decode,
    text=text,
    frames=frames,
    pieces={
        "1, 2, ...": "a seat's ship; beside it, its station tokens",
        "letters": "a wind card laid on the space, on a yellow disc (its name on hover)",
    },
)
