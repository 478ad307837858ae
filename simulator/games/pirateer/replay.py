"""Pirateer's replay (``balance replay``): the recorded events of :mod:`.engine` as dicts, text
lines and board pictures (events: docs/rules/pirateer.md, "Replay events")."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.contract.recording import ReplayDef, replay_by_chunk

from . import board as B
from . import engine as E
from .state import END_REASONS, FLEET, N_SHIPS, ON_ISLAND

SHORT_FLAGS = ("cross", "lis", "skull", "crescent")
# Grid directions as they look on the physical board (right is x - y, down is x + y).
DIRECTIONS = ("down-right", "up-left", "down-left", "up-right", "right", "left")
ISLAND_CELL = B.N_CELLS  # the first Skull Island cell of the board picture: the treasure's place


def ship_name(s: int) -> str:
    """``cross-1``: the flag of the ship's fleet and its number in the fleet."""
    return f"{SHORT_FLAGS[s // FLEET]}-{s % FLEET + 1}"


def grid(space: int) -> list[int]:
    """The grid cell ``[x, y]`` of a space (boards.md 1.3; a strait: its top half-cell)."""
    x, y = B.CELLS[space]
    return [int(x), int(y)]


def decode(rules: Any, n_players: int, rows: np.ndarray) -> list[dict[str, Any]]:
    out = []
    for row in rows.tolist():
        kind, step, player, a, b, c, d, e, f, h = row
        ev: dict[str, Any] = {"step": step, "player": player, "kind": E.EVENT_KINDS[kind]}
        if kind == E.EV_PLACE:
            ev.update(ship=ship_name(a), at=grid(b))
        elif kind in (E.EV_ROLL, E.EV_PASS):
            ev["dice"] = [a, b]
            if kind == E.EV_ROLL:
                ev["moves"] = c
        elif kind == E.EV_MOVE:
            ev.update(ship=ship_name(a), die=b, direction=DIRECTIONS[c], to=grid(e))
            ev["from"] = grid(d)
            ev["captured"] = ship_name(f) if f >= 0 else None
            ev["treasure"] = h == a  # carrying the treasure after the step
        elif kind == E.EV_CAPTURE:
            ev.update(ship=ship_name(a), captured=ship_name(b), captured_player=c, at=grid(d))
            ev["treasure"] = bool(e)
        elif kind == E.EV_TREASURE:
            ev.update(ship=ship_name(a), at=grid(b))
            ev["taken_from"] = "Skull Island" if c < 0 else ship_name(c)
        elif kind == E.EV_END:
            ev.update(reason=END_REASONS[a], winner=player if player >= 0 else None)
        out.append(ev)
    return out


def _xy(cell: list[int]) -> str:
    return f"({cell[0]}, {cell[1]})"


def text(ev: dict[str, Any]) -> str:
    who = f"seat {ev['player'] + 1}"
    kind = ev["kind"]
    if kind == "place":
        return f"{who} sets up {ev['ship']} at {_xy(ev['at'])}"
    if kind == "roll":
        a, b = ev["dice"]
        n = ev["moves"]
        return f"{who} rolls {a} and {b} ({n} possible move{'s' if n != 1 else ''})"
    if kind == "pass":
        a, b = ev["dice"]
        return f"{who} rolls {a} and {b}: no legal move, the turn passes"
    if kind == "move":
        line = (
            f"{who} moves {ev['ship']} {ev['die']} {'space' if ev['die'] == 1 else 'spaces'} "
            f"{ev['direction']}: "
            f"{_xy(ev['from'])} -> {_xy(ev['to'])}"
        )
        return line + (" (with the treasure)" if ev["treasure"] else "")
    if kind == "capture":
        line = (
            f"{ev['ship']} captures {ev['captured']} of seat {ev['captured_player'] + 1} "
            f"at {_xy(ev['at'])}"
        )
        return line + (", which carried the treasure" if ev["treasure"] else "")
    if kind == "treasure":
        return f"{ev['ship']} takes the treasure at {_xy(ev['at'])} from {ev['taken_from']}"
    if ev["winner"] is None:
        return f"no winner ({ev['reason'].replace('_', ' ')})"
    return f"seat {ev['winner'] + 1} wins ({ev['reason'].replace('_', ' ')})"


def frames(rules: Any, n_players: int, rows: np.ndarray, events: list) -> list[dict[str, Any]]:
    """Ships (and the treasure) before the first event and after each one."""
    ships = np.full(N_SHIPS, -1, dtype=np.int64)
    seat = np.full(N_SHIPS, -1, dtype=np.int64)
    treasure = ON_ISLAND

    def picture(marks: list[int]) -> dict[str, Any]:
        pieces = []
        if treasure == ON_ISLAND:
            pieces.append({"cell": ISLAND_CELL, "seat": -1, "label": "T", "name": "treasure"})
        for s in range(N_SHIPS):
            if ships[s] >= 0:
                piece = {"cell": int(ships[s]), "seat": int(seat[s]), "label": str(s % FLEET + 1),
                         "name": ship_name(s)}  # fmt: skip
                if s == treasure:
                    piece["carry"] = "T"
                pieces.append(piece)
        return {"pieces": pieces, "marks": marks}

    out = [picture([])]
    for row in rows.tolist():
        kind, _, player, a, b, _, d, e, f, h = row
        marks: list[int] = []
        if kind == E.EV_PLACE:
            ships[a] = b
            seat[a] = player
            marks = [b]
        elif kind == E.EV_MOVE:
            ships[a] = e
            if f >= 0:
                ships[f] = -1
            treasure = h
            marks = [d, e]
        elif kind in (E.EV_CAPTURE, E.EV_TREASURE):
            marks = [d if kind == E.EV_CAPTURE else b]
        out.append(picture(marks))
    return out


REPLAY = ReplayDef(
    play=replay_by_chunk(E.play_chunk, E.EVENT_WIDTH),
    decode=decode,
    text=text,
    frames=frames,
    pieces={
        "1, 2, ...": "a ship of a seat's fleet, by number",
        "T": "the treasure: on the island, or beside the ship carrying it",
    },
)
