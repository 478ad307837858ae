"""Pedruscos del Espacio's replay (``balance replay``): the events of :mod:`.record` as dicts, text
lines, board pictures and a round-by-round table of ore values and points (events:
docs/rules/pedruscos.md, "Replay events")."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.contract.recording import ReplayDef, replay_by_chunk

from . import engine as E
from . import record as R
from .board import ASTEROID, COLOUR_NAMES, N_STATIONS, board_of
from .rules import EVENT_NAMES
from .state import END_REASONS

INITIALS = "RYB"


def _place(b: Any, cell: int) -> dict[str, Any]:
    """A cell of the board graph (ids of ``balance board pedruscos``) and what it is."""
    if cell < 0:
        return {"cell": -1, "name": "nowhere"}
    if int(b.kind[cell]) == ASTEROID:
        name = f"{COLOUR_NAMES[int(b.colour[cell])]} asteroid {cell}"
    else:
        name = b.label(cell)
    return {"cell": int(cell), "name": name}


def _hold(red: int, yellow: int, blue: int) -> dict[str, int]:
    return {"red": red, "yellow": yellow, "blue": blue}


def decode(rules: Any, n_players: int, rows: np.ndarray) -> list[dict[str, Any]]:
    b = board_of(rules)
    out = []
    for row in rows.tolist():
        kind, step, player, a, bb, c, d, e, f, h, i = row[:11]
        ev: dict[str, Any] = {"step": step, "player": player, "kind": R.EVENT_KINDS[kind]}
        if kind == R.EV_SETUP:
            ev.update(values=_hold(a, bb, c), deck=d, target=e)
        elif kind == R.EV_PLACE:
            ev["at"] = _place(b, a)
        elif kind == R.EV_TABLE:
            ev.update(result=EVENT_NAMES[a], station=bb)
        elif kind == R.EV_ROLL:
            ev.update(die=a, options=bb)
            ev["from"] = _place(b, c)
        elif kind == R.EV_MOVE:
            ev.update(die=c, to=_place(b, bb))
            ev["from"] = _place(b, a)
        elif kind == R.EV_CARDS:
            ev.update(change=_hold(a, bb, c), aboard=_hold(d, e, f))
        elif kind == R.EV_HARVEST:
            cells = b.routes_of(a)[f][2][:e]  # route f of the station's routes, in table order
            ev.update(station=a, dice=bb, route_to=c, coordinated=bool(d), squares=e)
            ev["cells"] = [_place(b, x) for x in cells]
        elif kind == R.EV_SHIP:
            ev.update(points=a, total=bb, cards=c, value=d, by="hauler" if e else "moon")
        elif kind == R.EV_BRANCH:
            ev.update(station=a, paid=bb, total=c)
        elif kind == R.EV_PIRATES:
            ev["lost"] = a
        elif kind == R.EV_MARKET:
            ev["values"] = _hold(a, bb, c)
        elif kind == R.EV_CLOSED:
            ev["station"] = a
        elif kind == R.EV_REPAIRS:
            ev["repaired"] = bool(bb)
            if not bb:
                ev["sent_to"] = _place(b, a) if a >= 0 else None
        elif kind == R.EV_END:
            ev.update(reason=END_REASONS[a], rounds=bb, winner=player if player >= 0 else None,
                      scores=[c, d, e, f, h, i][:n_players])  # fmt: skip
        out.append(ev)
    return out


def _signed(change: dict[str, int]) -> str:
    return ", ".join(f"{v:+d} {k}" for k, v in change.items() if v)


def _aboard(hold: dict[str, int]) -> str:
    return " ".join(f"{INITIALS[i]}{v}" for i, v in enumerate(hold.values()))


def text(ev: dict[str, Any]) -> str:
    who = f"seat {ev['player'] + 1}"
    kind = ev["kind"]
    if kind == "setup":
        v = ev["values"]
        return (
            f"ore values red {v['red']}, yellow {v['yellow']}, blue {v['blue']}; "
            f"{ev['deck']} cards per colour; {ev['target']} points win"
        )
    if kind == "place":
        return f"{who} starts on the {ev['at']['name']}"
    if kind == "table":
        return f"{who} rolls on the station {ev['station']} table: {ev['result'].replace('_', ' ')}"
    if kind == "roll":
        n = ev["options"]
        return f"{who} rolls {ev['die']} ({n} possible end{'s' if n != 1 else ''})"
    if kind == "move":
        return f"{who} moves {ev['die']}: {ev['from']['name']} -> {ev['to']['name']}"
    if kind == "cards":
        return f"{who} cards {_signed(ev['change'])}; aboard {_aboard(ev['aboard'])}"
    if kind == "harvest":
        how = "coordinated, " if ev["coordinated"] else ""
        return (
            f"{who} harvests at station {ev['station']} towards station {ev['route_to']}: "
            f"{how}dice {ev['dice']}, {ev['squares']} squares"
        )
    if kind == "ship":
        return (
            f"{who} ships {ev['cards']} cards worth {ev['value']} by {ev['by']}: "
            f"{ev['points']:+d} points, {ev['total']} in all"
        )
    if kind == "branch":
        return f"{who} opens a branch at station {ev['station']} for {ev['paid']} points"
    if kind == "pirates":
        return f"pirates take {ev['lost']} cards from {who}"
    if kind == "market":
        v = ev["values"]
        return f"stock market: red {v['red']}, yellow {v['yellow']}, blue {v['blue']}"
    if kind == "closed":
        return f"station {ev['station']} closes for holidays"
    if kind == "repairs":
        if ev["repaired"]:
            return f"{who} takes off repaired"
        where = f", sent to the {ev['sent_to']['name']}" if ev.get("sent_to") else ""
        return f"{who} needs repairs{where}"
    scores = ", ".join(str(s) for s in ev["scores"])
    if ev["winner"] is None:
        return f"no winner ({ev['reason'].replace('_', ' ')}); points {scores}"
    return f"seat {ev['winner'] + 1} wins ({ev['reason'].replace('_', ' ')}); points {scores}"


def frames(rules: Any, n_players: int, rows: np.ndarray, events: list) -> list[dict[str, Any]]:
    """Ships (with their cards aboard), branches and the closed station after each event."""
    pos = [0] * n_players
    points = [0] * n_players
    aboard = [[0, 0, 0] for _ in range(n_players)]
    branches: list[tuple[int, int]] = []  # (station, seat)
    closed = 0

    def picture(marks: list[int]) -> dict[str, Any]:
        pieces: list[dict[str, Any]] = []
        if closed:
            pieces.append({"cell": closed, "seat": -1, "label": "x", "name": "closed (holidays)"})
        for s, q in branches:
            pieces.append({"cell": s, "seat": q, "label": "b", "name": f"branch of seat {q + 1}"})
        for q in range(n_players):
            cards = sum(aboard[q])
            piece = {"cell": pos[q], "seat": q, "label": str(q + 1),
                     "name": f"seat {q + 1}: {points[q]} points, aboard "
                             f"{_aboard(_hold(*aboard[q]))}"}  # fmt: skip
            if cards:
                piece["carry"] = str(cards)
            pieces.append(piece)
        return {"pieces": pieces, "marks": marks}

    out = [picture([])]
    for ev in events:
        kind, q = ev["kind"], ev["player"]
        marks: list[int] = []
        if kind == "place":
            pos[q] = ev["at"]["cell"]
        elif kind == "move":
            pos[q] = ev["to"]["cell"]
            marks = [ev["from"]["cell"], ev["to"]["cell"]]
        elif kind == "repairs" and ev.get("sent_to"):
            pos[q] = ev["sent_to"]["cell"]
            marks = [pos[q]]
        elif kind == "cards":
            aboard[q] = list(ev["aboard"].values())
        elif kind == "ship":
            aboard[q] = [0, 0, 0]
            points[q] = ev["total"]
            marks = [pos[q]]
        elif kind == "branch":
            branches.append((ev["station"], q))
            points[q] = ev["total"]
            marks = [ev["station"]]
        elif kind == "harvest":
            marks = [ev["station"], *(x["cell"] for x in ev["cells"])]
        elif kind == "table":
            marks = [ev["station"]]
        elif kind == "closed":
            closed = ev["station"]
            marks = [closed]
        out.append(picture(marks))
    return out


def table(rules: Any, n_players: int, rows: np.ndarray, events: list) -> dict[str, Any]:
    """One row per round: the ore values and every seat's points at its end."""
    values = {"red": 0, "yellow": 0, "blue": 0}
    points = [0] * n_players
    out: list[list[Any]] = []
    at: list[int] = []
    for i, ev in enumerate(events):
        if ev["kind"] in ("setup", "market"):
            values = dict(ev["values"])
        elif ev["kind"] in ("ship", "branch"):
            points[ev["player"]] = ev["total"]
        last = i + 1 == len(events) or events[i + 1]["step"] != ev["step"]
        if last and ev["step"] > 0:
            out.append([ev["step"], *values.values(), *points])
            at.append(i)
    return {
        "title": "Rounds: ore values and points at the end of each round",
        "columns": ["round", "red", "yellow", "blue", *[f"seat {q + 1}" for q in range(n_players)]],
        "rows": out,
        "event_of_row": at,
    }


REPLAY = ReplayDef(
    play=replay_by_chunk(E.play_chunk, R.EVENT_WIDTH),
    decode=decode,
    text=text,
    frames=frames,
    table=table,
    pieces={
        "1, 2, ...": "a seat's ship; beside it, the cards aboard",
        "b": "a branch, in its owner's colour",
        "x": "a station closed for the holidays",
    },
    compiled_apart=True,  # a run passes no recording buffer (engine.py)
)
assert N_STATIONS == 6  # station k is cell k (board.py), which frames rely on
