"""Caza-Tesoros's replay (``balance replay``): the recorded events of :mod:`.engine` as dicts,
text lines and board pictures (events: docs/rules/caza-tesoros.md, "Replay events").

Raw rows are ``(event, day, seat, colour, ship, a, b, c, d, e, f, h)`` (``engine.EV_*``);
hexes leave as ``[column, row]`` of the printed 18 x 18 board, search values as lists.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.contract.recording import ReplayDef, replay_by_chunk

from . import engine as E
from .board import NEIGHBOUR, coords_of
from .rules import WEATHER_NAMES
from .state import END_REASONS, KIND_NAMES
from .treasure_search import LEVEL_BOXES, MARKING_NAMES

ITEM_NAMES = ("compass", "GPS", "satellite", "divers", "robot", "scanner")  # as the cards read


def hex_of(cell: int) -> list[int]:
    """``[column, row]`` of a cell (printed coordinates, 1..18)."""
    x, y = coords_of(int(cell))
    return [int(x), int(y)]


def values(mask: int) -> list[int]:
    """The values (1-based) of a bit mask of search boxes."""
    return [v + 1 for v in range(12) if mask >> v & 1]


def dice_of(packed: int) -> list[int]:
    """Dice recorded as the digits of one number (each 1..6)."""
    return [int(ch) for ch in str(packed)] if packed > 0 else []


def path_cells(start: int, sides: int) -> list[int]:
    """Cells visited sailing ``sides`` (digits 1..6) from ``start``."""
    out = [int(start)]
    for ch in str(sides) if sides > 0 else "":
        out.append(int(NEIGHBOUR[out[-1], int(ch) - 1]))
    return out


def _item(kind: int) -> str:
    return ITEM_NAMES[kind] if 0 <= kind < len(ITEM_NAMES) else KIND_NAMES[kind]


def _who(n_players: int, colour: int) -> dict[str, int | None]:
    """Seat (0-based) and, with several colours a player, which of its colours (1-based)."""
    if colour < 0:
        return {"seat": None}
    return {"seat": colour % n_players, "colour": colour // n_players + 1}


def decode(rules: Any, n_players: int, rows: np.ndarray) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    rows_l = rows.tolist()
    level = 1
    for i, row in enumerate(rows_l):
        kind, day, seat, colour, ship, a, b, c, d, e, f, h = row
        ev: dict[str, Any] = {"step": day, "player": seat, "kind": E.EVENT_NAMES[kind]}
        if rules.colours_per_player > 1 and colour >= 0 and kind != E.EV_END:
            ev["colour"] = colour // n_players + 1
        if ship >= 0:
            ev["ship"] = ship + 1
        if kind == E.EV_WEATHER:
            ev.update(die=b, weather=WEATHER_NAMES[a], weekday=c)
        elif kind == E.EV_MOVE:
            ev.update({"from": hex_of(a), "to": hex_of(b), "points": c, "aim": hex_of(d)})
            ev["sides"] = [int(ch) for ch in str(e)] if e > 0 else []
        elif kind == E.EV_DEVIATE:
            ev.update(dice=[c, d], side=c, distance=d)
            ev.update({"from": hex_of(a), "to": hex_of(b)})
        elif kind == E.EV_SEARCH:
            level = a
            ev.update(level=a, at=hex_of(b), cost=c, dice=d, rethrows=e)
            ev.update(cross="own" if f else "Archive", marking=MARKING_NAMES[h])
        elif kind == E.EV_THROW:
            marked_after = _marked_after(rows_l, i, level)
            ev.update(throw=a, dice=dice_of(b), new=values(c), marked=values(marked_after & ~d))
            ev["marked_so_far"] = values(marked_after)
            ev["outcome"] = "marks" if c else ("throws again" if e > 0 else "fails")
        elif kind == E.EV_SEARCHED:
            ev.update(found=bool(a), throws=b, level=c, at=hex_of(d))
        elif kind == E.EV_TREASURE:
            ev.update(vp=a, cross="own" if b else "Archive", at=hex_of(c))
        elif kind == E.EV_LEVEL2_FAIL:
            ev.update(at=hex_of(a), ship_to=hex_of(b), archive_cross=bool(c))
        elif kind == E.EV_ITEM_LOST:
            ev["item"] = _item(a)
        elif kind == E.EV_MAINTENANCE:
            ev.update(paid=a, vp=b)
        elif kind in (E.EV_FORCED_SALE, E.EV_AUCTION):
            buyer = _who(n_players, b)
            ev.update(item=_item(a), buyer=buyer["seat"], price=c if b >= 0 else None, start=d)
            if rules.colours_per_player > 1 and b >= 0:
                ev["buyer_colour"] = buyer["colour"]
        elif kind == E.EV_RETIRE:
            ev.update(at=hex_of(a), payout=b)
        elif kind == E.EV_BUY:
            ev.update(item=_item(a), price=b, vp=c)
        elif kind == E.EV_BID:
            ev.update(item=_item(a), bid=b if b >= 0 else None, start=c)
            ev["seller"] = _who(n_players, d)["seat"]
        elif kind == E.EV_DRAW:
            ev.update(item=_item(a), price=b)
        elif kind in (E.EV_CARD, E.EV_SHIP):
            ev.update(at=hex_of(a), how=_how(rows_l, i, day))
        elif kind == E.EV_PURCHASE:
            ev.update(bought="Archive card" if a == 0 else "ship", price=b, vp=c)
        elif kind == E.EV_END:
            ev.update(reason=END_REASONS[a], winner=b if b >= 0 else None)
        out.append(ev)
    return out


def _marked_after(rows: list, i: int, level: int) -> int:
    """Values marked once throw ``i`` is resolved: the next throw's "marked before", or every
    box when this throw finished a successful search, or unchanged when it showed nothing new."""
    nxt = rows[i + 1] if i + 1 < len(rows) else None
    if nxt is not None and nxt[0] == E.EV_THROW:
        return nxt[8]
    if nxt is not None and nxt[0] == E.EV_SEARCHED and nxt[5] == 1:
        return (1 << LEVEL_BOXES[level]) - 1
    return rows[i][8]


def _how(rows: list, i: int, day: int) -> str:
    """How a ship or an Archive card came: the set-up, a purchase (the next event), or loot."""
    if day == 0:
        return "set-up"
    nxt = rows[i + 1] if i + 1 < len(rows) else None
    if nxt is not None and nxt[0] == E.EV_PURCHASE and nxt[3] == rows[i][3]:
        return "bought"
    return "loot"


def _xy(cell: list[int]) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def _name(ev: dict[str, Any]) -> str:
    who = f"seat {ev['player'] + 1}"
    if "colour" in ev:
        who += f" colour {ev['colour']}"
    return who


def _list(vals: list[int]) -> str:
    return ", ".join(str(v) for v in vals) if vals else "none"


def text(ev: dict[str, Any]) -> str:
    kind = ev["kind"]
    who = _name(ev) if ev["player"] >= 0 else ""
    ship = f"{who} ship {ev['ship']}" if "ship" in ev else who
    if kind == "weather":
        return f"weather die {ev['die']}: {ev['weather']} (day {ev['weekday']} of the week)"
    if kind == "move":
        steps = len(ev["sides"])
        sides = "-".join(str(s) for s in ev["sides"])
        if steps == 0:
            return f"{ship} stays at {_xy(ev['from'])} ({ev['points']} movement points)"
        return (
            f"{ship} sails {_xy(ev['from'])} -> {_xy(ev['to'])}, {steps} of {ev['points']} "
            f"points (sides {sides or 'none'}), heading for {_xy(ev['aim'])}"
        )
    if kind == "deviate":
        return (
            f"storm: {ship} is pushed, dice {ev['dice'][0]} and {ev['dice'][1]}: side "
            f"{ev['side']}, {ev['distance']} hexes, {_xy(ev['from'])} -> {_xy(ev['to'])}"
        )
    if kind == "search":
        return (
            f"{ship} searches its {ev['cross']} cross at {_xy(ev['at'])}: level {ev['level']}, "
            f"{ev['dice']} {'die' if ev['dice'] == 1 else 'dice'} a throw, {ev['rethrows']} "
            f"re-throw{'' if ev['rethrows'] == 1 else 's'}, marking {ev['marking']}, "
            f"costs {ev['cost']} VP"
        )
    if kind == "throw":
        dice = " ".join(str(d) for d in ev["dice"])
        line = f"{ship} throw {ev['throw']}: dice {dice}, new values {_list(ev['new'])}"
        if ev["outcome"] == "marks":
            return line + f"; marks {_list(ev['marked'])} (marked {_list(ev['marked_so_far'])})"
        if ev["outcome"] == "throws again":
            return line + "; nothing new, uses a re-throw"
        return line + "; nothing new, the search ends"
    if kind == "searched":
        found = "finds the treasure" if ev["found"] else "finds nothing"
        return f"{ship} {found} at {_xy(ev['at'])} (level {ev['level']}, {ev['throws']} throws)"
    if kind == "treasure":
        return f"{ship} rescues a treasure worth {ev['vp']} VP from the {ev['cross']} cross"
    if kind == "level2_fail":
        line = f"{ship} fails level 2 at {_xy(ev['at'])}"
        if ev["archive_cross"]:
            line += ", which becomes an Archive cross"
        if ev["ship_to"] != ev["at"]:
            line += f"; the ship is re-placed by 3D6 x 3D6 at {_xy(ev['ship_to'])}"
        return line
    if kind == "item_lost":
        return f"{ship} loses its {ev['item']} in the bad weather"
    if kind == "maintenance":
        return f"{who} pays {ev['paid']} VP maintenance ({ev['vp']} VP left)"
    if kind in ("forced_sale", "auction"):
        what = "forced sale of" if kind == "forced_sale" else "auction of"
        line = f"{ship} {what} {ev['item']} from {ev['start']} VP: "
        if ev["buyer"] is None:
            return line + "no buyer"
        buyer = f"seat {ev['buyer'] + 1}"
        if "buyer_colour" in ev:
            buyer += f" colour {ev['buyer_colour']}"
        return line + f"{buyer} buys it for {ev['price']} VP"
    if kind == "retire":
        return f"{ship} is retired at {_xy(ev['at'])} (the Archive pays {ev['payout']} VP)"
    if kind == "eliminated":
        return f"{who} has no ship left and is out of the game"
    if kind == "buy":
        return f"{ship} gets the {ev['item']} for {ev['price']} VP ({ev['vp']} VP left)"
    if kind == "bid":
        if ev["bid"] is None:
            return f"{who} does not bid for the {ev['item']}"
        return f"{who} would pay up to {ev['bid']} VP for the {ev['item']}"
    if kind == "draw":
        return f"{who} draws an object card: {ev['item']} (price {ev['price']} VP)"
    if kind == "card":
        how = {"set-up": "starts with", "bought": "takes", "loot": "takes as loot"}[ev["how"]]
        return f"{who} {how} an Archive card: its cross lies at {_xy(ev['at'])}"
    if kind == "ship":
        how = "sets up" if ev["how"] == "set-up" else "launches"
        return f"{who} {how} ship {ev['ship']} at {_xy(ev['at'])} (3D6 x 3D6)"
    if kind == "purchase":
        return f"{who} pays {ev['price']} VP for the {ev['bought']} ({ev['vp']} VP left)"
    if ev["winner"] is None:
        return f"no winner ({ev['reason'].replace('_', ' ')})"
    return f"seat {ev['winner'] + 1} wins ({ev['reason'].replace('_', ' ')})"


def frames(rules: Any, n_players: int, rows: np.ndarray, events: list) -> list[dict[str, Any]]:
    """Ships and crosses before the first event and after each one; marks: the hexes the event
    touched (a ship's whole course when it sails)."""
    ships: dict[tuple[int, int], int] = {}
    crosses: list[list[int]] = []  # [cell, owning colour or -1 for the Archive]
    several = rules.colours_per_player > 1
    own_search = True

    def picture(marks: list[int]) -> dict[str, Any]:
        pieces: list[dict[str, Any]] = []
        for cell, owner in crosses:
            if owner < 0:
                pieces.append({"cell": cell, "seat": -1, "label": "A", "name": "Archive cross"})
            else:
                pieces.append({"cell": cell, "seat": owner % n_players, "label": "X",
                               "name": f"cross of seat {owner % n_players + 1}"})  # fmt: skip
        for (colour, ship), cell in sorted(ships.items()):
            seat = colour % n_players
            name = f"seat {seat + 1} ship {ship + 1}"
            label = str(ship + 1)
            if several:
                name += f" (colour {colour // n_players + 1})"
                label = f"{colour // n_players + 1}{ship + 1}"
            pieces.append({"cell": cell, "seat": seat, "label": label, "name": name})
        return {"pieces": pieces, "marks": marks}

    def drop_cross(cell: int, owner: int) -> None:
        for k, (c, o) in enumerate(crosses):
            if c == cell and o == owner:
                del crosses[k]
                return

    out = [picture([])]
    for row in rows.tolist():
        kind, _, _, colour, ship, a, b, c, d, e, f, _ = row
        marks: list[int] = []
        if kind == E.EV_SHIP:
            ships[(colour, ship)] = a
            marks = [a]
        elif kind == E.EV_CARD:
            crosses.append([a, colour])
            marks = [a]
        elif kind == E.EV_MOVE:
            ships[(colour, ship)] = b
            marks = path_cells(a, e)
        elif kind == E.EV_DEVIATE:
            ships[(colour, ship)] = b
            marks = [a, b]
        elif kind == E.EV_SEARCH:
            own_search = f == 1
            marks = [b]
        elif kind == E.EV_SEARCHED:
            if a == 1:
                drop_cross(d, colour if own_search else -1)
                marks = [d]
        elif kind == E.EV_LEVEL2_FAIL:
            if c == 1:
                drop_cross(a, colour)
                crosses.append([a, -1])
            ships[(colour, ship)] = b
            marks = [a, b]
        elif kind == E.EV_RETIRE:
            ships.pop((colour, ship), None)
            marks = [a]
        elif kind == E.EV_ELIMINATED:
            crosses[:] = [x for x in crosses if x[1] != colour]
        elif kind == E.EV_TREASURE:
            marks = [c]
        out.append(picture(marks))
    return out


REPLAY = ReplayDef(
    play=replay_by_chunk(E.play_chunk, E.EVENT_WIDTH),
    decode=decode,
    text=text,
    frames=frames,
    pieces={
        "1, 2, ...": "a ship, by number, in its seat's colour (two digits: colour, then ship)",
        "X": "a treasure cross, in the colour of the seat it belongs to",
        "A": "an Archive cross (anyone's to search)",
    },
)
