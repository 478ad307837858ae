"""The Trivio 1000 board of Pedruscos del Espacio as a graph, and the tables the engine moves on.

The board is a reconstruction (docs/rules/pedruscos.md, "The board"): ``data/board.json`` fixes the
stations' places and which routes join what; the route lengths and the colour order are rule
options. Cell ids: 0 the planet, 1-6 the stations (cell ``k`` is station ``k``), 7-9 the moons,
then the asteroids route by route.

Everything the compiled engine needs is precomputed here once per board as int64 arrays
(:class:`BoardArrays`):

- ``reach``: for every cell and die face 1-6, the squares a ship may end its move on (exact pips,
  no square twice, the planet skipped unless the ship stops there, voluntary stops at the planet
  and the moons). Only the end square matters in this game (nothing happens on squares passed),
  so a move is a choice among these ends.
- ``routes``: for every station, the routes a harvest may follow: the squares met in order from
  the station up to the next station (moons skipped or counted), with the colour each one
  yields. A route passes beside the planet, never through it, unless the rules say otherwise
  (``planet_routes``: through it, skipped like a square that is not one).
"""

from __future__ import annotations

import json
import math
from collections import namedtuple
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import DataFile, DataSource

DATA = Path(__file__).parent / "data" / "board.json"

PLANET, ASTEROID, STATION, MOON = 0, 1, 2, 3
KIND_NAMES = ("planet", "asteroid", "station", "moon")
RED, YELLOW, BLUE = 0, 1, 2
COLOUR_NAMES = ("red", "yellow", "blue")
N_COLOURS = 3
N_STATIONS = 6
N_MOONS = 3
MAX_DIE = 6
COLOUR_ORDERS = tuple(
    "-".join(COLOUR_NAMES[i] for i in perm)
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)

BoardArrays = namedtuple(
    "BoardArrays",
    [
        "kind",  # int64[n]: PLANET, ASTEROID, STATION, MOON
        "colour",  # int64[n]: colour of an asteroid, -1 elsewhere
        "station",  # int64[n]: station number 1-6, 0 elsewhere
        "reach_ptr",  # int64[n * 7 + 1]: ends of (cell, die) are reach[ptr[c*7+d]:ptr[c*7+d+1]]
        "reach",  # int64[...]: end cells
        "route_ptr",  # int64[8]: routes of station s are rows route_ptr[s]:route_ptr[s+1]
        "route_end",  # int64[R]: station number the route leads to
        "route_len",  # int64[R]: squares that count along the route
        "route_colour",  # int64[R, L]: colour of each square in order (-1: a counted moon)
        "route_cell",  # int64[R, L]: the cell of each square in order
        "route_via_planet",  # int64[R]: 1 when the route runs through the planet
    ],
)


@dataclass(frozen=True)
class BoardData:
    """One board: cells, their kinds and drawing positions, neighbours, and the engine tables."""

    kind: np.ndarray
    colour: np.ndarray
    station: np.ndarray
    x: np.ndarray
    y: np.ndarray
    neighbours: tuple[tuple[int, ...], ...]
    arrays: BoardArrays
    route_kind: tuple[str, ...]  # per route row: spoke+spoke (via the planet), ring or arc

    @property
    def n_cells(self) -> int:
        return int(self.kind.shape[0])

    def kind_name(self, cell: int) -> str:
        k = int(self.kind[cell])
        if k == ASTEROID:
            return "asteroid_" + COLOUR_NAMES[int(self.colour[cell])]
        return KIND_NAMES[k]

    def label(self, cell: int) -> str:
        k = int(self.kind[cell])
        if k == STATION:
            return f"station {int(self.station[cell])}"
        if k == MOON:
            return f"moon {cell - N_STATIONS}"
        if k == PLANET:
            return "planet"
        return ""

    def ends(self, cell: int, die: int) -> list[int]:
        a = self.arrays
        k = cell * 7 + die
        return [int(c) for c in a.reach[a.reach_ptr[k] : a.reach_ptr[k + 1]]]

    def routes_of(self, station: int) -> list[tuple[int, list[int], list[int]]]:
        """(end station, colours, cells) of every harvest route of ``station``, in table order."""
        a = self.arrays
        out = []
        for i in range(a.route_ptr[station], a.route_ptr[station + 1]):
            n = int(a.route_len[i])
            out.append(
                (
                    int(a.route_end[i]),
                    [int(c) for c in a.route_colour[i, :n]],
                    [int(c) for c in a.route_cell[i, :n]],
                )
            )
        return out


# -- the generator of the reconstruction (its free numbers are rule options) --------------------
# Where the stations stand and which routes join what; rule options give the routes' lengths and
# the colour order. At the default options it yields the shipped data/board.json exactly
# (tests/test_game_data.py), which is what runs play unless a board option is changed.
STATION_RADIUS = 1.0
STATION_ANGLES = {1: 120, 2: 60, 3: 0, 4: 300, 5: 240, 6: 180}
# (kind, from, to, peak radius of the drawn curve, moon at its middle or 0)
ROUTES = (
    *(("spoke", 0, s, 0.0, 0) for s in range(1, 7)),
    *(("ring", a, b, 0.7, 0) for a, b in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (1, 6))),
    ("arc", 1, 2, 1.65, 1),
    ("arc", 3, 4, 1.65, 2),
    ("arc", 5, 6, 1.65, 3),
    ("chord", 2, 6, 0.5, 0),
    ("chord", 2, 4, 0.5, 0),
    ("chord", 4, 6, 0.5, 0),
)
# The rule options that shape the generated board (not a board from a file).
SHAPE_OPTIONS = ("spoke_length", "ring_length", "arc_length", "chord_length", "colour_order")


@dataclass(frozen=True)
class Cells:
    """A board as cells: kind, asteroid colour (-1 elsewhere), drawing position, links (in the
    order the harvest routes are tabulated)."""

    kind: tuple[int, ...]
    colour: tuple[int, ...]
    pos: tuple[tuple[float, float], ...]
    links: tuple[tuple[int, ...], ...]


def generate(
    spoke_length: int = 4,
    ring_length: int = 6,
    arc_length: int = 9,
    colour_order: str = "red-yellow-blue",
    chord_length: int = 8,
) -> Cells:
    """The reconstruction's board for these free numbers."""
    order = [COLOUR_NAMES.index(c) for c in colour_order.split("-")]
    kind = [PLANET] + [STATION] * N_STATIONS + [MOON] * N_MOONS
    colour = [-1] * (1 + N_STATIONS + N_MOONS)
    pos: list[tuple[float, float]] = [(0.0, 0.0)] * (1 + N_STATIONS + N_MOONS)
    for number, angle in STATION_ANGLES.items():
        a = math.radians(angle)
        pos[number] = (STATION_RADIUS * math.cos(a), STATION_RADIUS * math.sin(a))
    edges: list[tuple[int, int]] = []
    for route, a, b, peak_radius, moon in ROUTES:
        if route == "chord" and chord_length == 0:
            continue  # no chords: the board before its rebuild
        pa, pb = pos[a], pos[b]
        if route == "spoke":
            n = spoke_length
            pts = [(pb[0] * i / (n + 1), pb[1] * i / (n + 1)) for i in range(1, n + 1)]
            moon_at = -1
        else:
            n = {"ring": ring_length, "arc": arc_length, "chord": chord_length}[route]
            mx, my = pa[0] + pb[0], pa[1] + pb[1]
            norm = math.hypot(mx, my)
            peak = (peak_radius * mx / norm, peak_radius * my / norm)
            pts = _bezier(pa, pb, peak, n)
            moon_at = n // 2 if moon else -1
        chain = [a]
        k = 0  # colours cycle over the asteroids only, from the route's "from" end
        for i, p in enumerate(pts):
            if i == moon_at:
                cell = N_STATIONS + moon
                pos[cell] = p
            else:
                cell = len(kind)
                kind.append(ASTEROID)
                colour.append(order[k % N_COLOURS])
                pos.append(p)
                k += 1
            chain.append(cell)
        chain.append(b)
        edges.extend(zip(chain[:-1], chain[1:], strict=True))
    nb: list[list[int]] = [[] for _ in range(len(kind))]
    for u, v in edges:
        nb[u].append(v)
        nb[v].append(u)
    return Cells(tuple(kind), tuple(colour), tuple(pos), tuple(tuple(n) for n in nb))


def _bezier(p0, p1, peak, n: int) -> list[tuple[float, float]]:
    """``n`` points strictly between ``p0`` and ``p1``, evenly spaced along a quadratic curve
    through ``peak``."""
    cx = 2 * peak[0] - (p0[0] + p1[0]) / 2
    cy = 2 * peak[1] - (p0[1] + p1[1]) / 2
    ts = np.linspace(0.0, 1.0, 401)
    u = 1 - ts
    xs = u * u * p0[0] + 2 * u * ts * cx + ts * ts * p1[0]
    ys = u * u * p0[1] + 2 * u * ts * cy + ts * ts * p1[1]
    arc = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(xs), np.diff(ys)))])
    want = arc[-1] * np.arange(1, n + 1) / (n + 1)
    return [(float(np.interp(w, arc, xs)), float(np.interp(w, arc, ys))) for w in want]


# -- the data file: the board as cells and links -------------------------------------------------
ORDER = (
    "cells are numbered 0..n-1 in file order: 0 the planet, 1-6 the stations (cell k is station "
    "k), then the moons, then the asteroids"
)
_CELL_KEYS = {"id", "kind", "colour", "x", "y", "links"}


def parse_board(src: DataSource) -> Cells:
    """``board.json``: every cell with its kind (and colour) and its links (see ORDER)."""
    try:
        data = json.loads(src.text)
    except json.JSONDecodeError as exc:
        raise BalanceError(
            f"{src.where(exc.lineno)}: not JSON: {exc.msg} (column {exc.colno})"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise BalanceError(f'{src.where()}: expected an object with a "cells" list')
    unknown = sorted(set(data) - {"about", "cells"})
    if unknown:
        raise BalanceError(f"{src.where()}: unknown key {unknown[0]!r}; allowed: about, cells")
    cells = data["cells"]
    n = len(cells)
    kind, colour, pos, links = [], [], [], []
    for i, cell in enumerate(cells):
        at = f"{src.where(_line_of(src.text, i))}: cell {i}"
        if not isinstance(cell, dict):
            raise BalanceError(f"{at}: expected an object with id, kind, x, y, links")
        extra = sorted(set(cell) - _CELL_KEYS)
        if extra:
            raise BalanceError(
                f"{at}: unknown field {extra[0]!r}; allowed: {', '.join(sorted(_CELL_KEYS))}"
            )
        missing = [k for k in ("id", "kind", "x", "y", "links") if k not in cell]
        if missing:
            raise BalanceError(f"{at}: lacks field {missing[0]!r}")
        if cell["id"] != i or isinstance(cell["id"], bool):
            raise BalanceError(f"{at}: id {cell['id']!r} where {i} is expected; {ORDER}")
        k = cell["kind"]
        if k not in KIND_NAMES:
            raise BalanceError(f"{at}: unknown cell kind {k!r}; allowed: {', '.join(KIND_NAMES)}")
        want = "planet" if i == 0 else "station" if i <= N_STATIONS else None
        if want is not None and k != want:
            raise BalanceError(f"{at}: kind {k!r} where a {want} is expected; {ORDER}")
        if want is None and k in ("planet", "station"):
            raise BalanceError(f"{at}: a second {k}; {ORDER}")
        if k == "moon" and kind and kind[-1] == ASTEROID:
            raise BalanceError(f"{at}: a moon after an asteroid; {ORDER}")
        if k == "asteroid":
            if cell.get("colour") not in COLOUR_NAMES:
                raise BalanceError(
                    f"{at}: colour {cell.get('colour')!r}; an asteroid is one of "
                    f"{', '.join(COLOUR_NAMES)}"
                )
            colour.append(COLOUR_NAMES.index(cell["colour"]))
        else:
            if "colour" in cell:
                raise BalanceError(f"{at}: a {k} has no colour (only asteroids do)")
            colour.append(-1)
        kind.append(KIND_NAMES.index(k))
        xy = []
        for key in ("x", "y"):
            v = cell[key]
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise BalanceError(f"{at}: {key} {v!r} is not a number (drawing position)")
            xy.append(float(v))
        pos.append((xy[0], xy[1]))
        if not isinstance(cell["links"], list):
            raise BalanceError(f"{at}: links must be a list of cell ids")
        row = []
        for j in cell["links"]:
            if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n:
                raise BalanceError(
                    f"{at}: link to {j!r}, a cell that does not exist (ids are 0 to {n - 1})"
                )
            if j == i or j in row:
                why = "itself" if j == i else f"cell {j} twice"
                raise BalanceError(f"{at}: links to {why}")
            row.append(j)
        links.append(row)
    if n < 1 + N_STATIONS:
        raise BalanceError(f"{src.where()}: {n} cells; the board needs the planet and 6 stations")
    for i, row in enumerate(links):  # a link is both ways; one end listing it is enough
        for j in row:
            if i not in links[j]:
                links[j].append(i)
    seen, queue = {0}, [0]
    while queue:
        for j in links[queue.pop()]:
            if j not in seen:
                seen.add(j)
                queue.append(j)
    if len(seen) < n:
        cut = min(set(range(n)) - seen)
        raise BalanceError(
            f"{src.where(_line_of(src.text, cut))}: the board is not connected: cell {cut} "
            f"({KIND_NAMES[kind[cut]]}) cannot be reached from the planet by links; "
            f"{n - len(seen)} cell(s) are cut off"
        )
    return Cells(tuple(kind), tuple(colour), tuple(pos), tuple(tuple(r) for r in links))


def _line_of(text: str, cell: int) -> int | None:
    """The line of ``"id": cell`` in the file (for messages), if it can be found."""
    import re

    m = re.search(rf'"id"\s*:\s*{cell}(?![0-9.])', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def board_json(cells: Cells, about: str) -> str:
    """The board as ``board.json`` text: one cell per line (the shipped file is this)."""
    lines = []
    for i in range(len(cells.kind)):
        k = KIND_NAMES[cells.kind[i]]
        entry = {"id": i, "kind": k}
        if cells.kind[i] == ASTEROID:
            entry["colour"] = COLOUR_NAMES[cells.colour[i]]
        x, y = cells.pos[i]
        entry.update(x=round(x, 4) + 0.0, y=round(y, 4) + 0.0, links=list(cells.links[i]))
        lines.append("    " + json.dumps(entry))
    return f'{{\n  "about": {json.dumps(about)},\n  "cells": [\n' + ",\n".join(lines) + "\n  ]\n}\n"


ABOUT = (
    "Trivio 1000 board as used by Pedruscos del Espacio: a RECONSTRUCTION (boards.md section "
    "3.2; docs/rules/pedruscos.md, 'The board file'). One object per cell: id (0..n-1 in order: "
    "0 the planet, 1-6 the stations, then the moons, then the asteroids), kind (planet, station, "
    "moon, asteroid), colour (asteroids: red, yellow, blue), x and y (where it is drawn) and "
    "links (the cells a ship steps to; a link listed at one end is enough)."
)
DATA_FILES = (
    DataFile(
        "board",
        "board.json",
        str(DATA.parent),
        "the board: planet, six stations, moons and asteroids (with their colours), and the "
        "links a ship moves along",
        'JSON {"cells": [{"id", "kind", "colour" (asteroids), "x", "y", "links"}, ...]}, cells '
        "in order: planet 0, stations 1-6, moons, asteroids",
        False,
        "docs/rules/pedruscos.md, section 'The board file (board.json)'",
        parse_board,
    ),
)


def board_of(rules: Any) -> BoardData:
    """The board the rules play: a replaced board file, else the shipped file, or the generated
    board when a board option (SHAPE_OPTIONS) differs from its default."""
    src = rules.source("board")
    shaped = any(getattr(rules, o) != getattr(type(rules)(), o) for o in SHAPE_OPTIONS)
    reading = (rules.moon_in_harvest, rules.planet_routes)
    if src.shipped and shaped:
        return build_board(*rules.board_key())
    return board_from_file(src, *reading)


@cache
def board_from_file(src: DataSource, moon_in_harvest: str, planet_routes: str) -> BoardData:
    """The board of a board file (cached per content and route reading)."""
    return tables(parse_board(src), moon_in_harvest, planet_routes)


@cache
def build_board(
    spoke_length: int = 4,
    ring_length: int = 6,
    arc_length: int = 9,
    colour_order: str = "red-yellow-blue",
    moon_in_harvest: str = "skip",
    chord_length: int = 8,
    planet_routes: str = "beside",
) -> BoardData:
    """The generated board for these free numbers (cached: rules with the same numbers share
    one board)."""
    cells = generate(spoke_length, ring_length, arc_length, colour_order, chord_length)
    return tables(cells, moon_in_harvest, planet_routes)


def tables(cells: Cells, moon_in_harvest: str, planet_routes: str) -> BoardData:
    """Every table the engine moves on, for a board as cells."""
    kind = list(cells.kind)
    station = [i if k == STATION else 0 for i, k in enumerate(kind)]
    pos = cells.pos
    nb = [list(r) for r in cells.links]
    kind_a = np.asarray(kind, dtype=np.int64)
    reach_ptr, reach = _reach_tables(kind_a, nb)
    rows, kinds = _routes(
        kind_a, np.asarray(station), nb, moon_in_harvest == "counts", planet_routes == "through"
    )
    colour_a = np.asarray(cells.colour, dtype=np.int64)
    width = max([len(cells) for _, _, cells in rows] + [1])
    route_ptr = np.zeros(N_STATIONS + 2, dtype=np.int64)
    route_end = np.zeros(len(rows), dtype=np.int64)
    route_len = np.zeros(len(rows), dtype=np.int64)
    route_colour = np.full((len(rows), width), -1, dtype=np.int64)
    route_cell = np.full((len(rows), width), -1, dtype=np.int64)
    for i, (s, end, cells) in enumerate(rows):
        route_ptr[s + 1] = i + 1
        route_end[i] = end
        route_len[i] = len(cells)
        for j, c in enumerate(cells):
            route_cell[i, j] = c
            route_colour[i, j] = colour_a[c]
    for s in range(1, N_STATIONS + 2):  # stations without routes keep an empty range
        route_ptr[s] = max(route_ptr[s], route_ptr[s - 1])
    arrays = BoardArrays(
        kind_a,
        colour_a,
        np.asarray(station, dtype=np.int64),
        reach_ptr,
        reach,
        route_ptr,
        route_end,
        route_len,
        route_colour,
        route_cell,
        np.asarray([k == "spoke+spoke" for k in kinds], dtype=np.int64),
    )
    return BoardData(
        kind=kind_a,
        colour=colour_a,
        station=np.asarray(station, dtype=np.int64),
        x=np.asarray([p[0] for p in pos]),
        y=np.asarray([p[1] for p in pos]),
        neighbours=tuple(tuple(sorted(n)) for n in nb),
        arrays=arrays,
        route_kind=tuple(kinds),
    )


def move_ends(kind: np.ndarray, nb: list[list[int]], start: int, die: int) -> set[int]:
    """Squares a ship on ``start`` may end on with ``die`` pips (the movement rules, by search).

    Every pip takes the ship to a neighbouring square not yet visited this turn; the planet costs
    no pip when passed (it is skipped), and the ship may stop on the planet or on a moon with pips
    left over. Stopping on the planet takes one pip, as any square does.
    """
    ends: set[int] = set()

    def walk(cell: int, left: int, seen: frozenset[int]) -> None:
        for n in nb[cell]:
            if n in seen:
                continue
            if kind[n] == PLANET:
                ends.add(n)  # stop there, with or without pips left (left >= 1 here)
                walk(n, left, seen | {n})  # or pass it by: it is not a square
                continue
            if left == 1:
                ends.add(n)
                continue
            if kind[n] == MOON:
                ends.add(n)
            walk(n, left - 1, seen | {n})

    walk(start, die, frozenset({start}))
    return ends


def _reach_tables(kind: np.ndarray, nb: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    n = kind.shape[0]
    ptr = np.zeros(n * 7 + 1, dtype=np.int64)
    flat: list[int] = []
    for c in range(n):
        for d in range(7):
            ptr[c * 7 + d] = len(flat)
            if d >= 1:
                flat.extend(sorted(move_ends(kind, nb, c, d)))
    ptr[n * 7] = len(flat)
    return ptr, np.asarray(flat, dtype=np.int64)


def _routes(
    kind: np.ndarray,
    station: np.ndarray,
    nb: list[list[int]],
    moons_count: bool,
    through_planet: bool,
) -> tuple[list[tuple[int, int, list[int]]], list[str]]:
    """Every route from every station: the squares met up to the next station, in order (through
    the planet, from one spoke into another, only when ``through_planet``)."""
    rows: list[tuple[int, int, list[int]]] = []
    kinds: list[str] = []

    def walk(s: int, cell: int, seen: set[int], path: list[int], via_planet: bool, moon: bool):
        for n in nb[cell]:
            if n in seen:
                continue
            if kind[n] == STATION:
                if n != s:
                    rows.append((s, int(station[n]), list(path)))
                    kinds.append("spoke+spoke" if via_planet else ("arc" if moon else "ring"))
                continue
            if kind[n] == PLANET and not through_planet:
                continue
            step = []
            if kind[n] == ASTEROID or (kind[n] == MOON and moons_count):
                step = [n]
            walk(
                s,
                n,
                seen | {n},
                path + step,
                via_planet or kind[n] == PLANET,
                moon or kind[n] == MOON,
            )

    for s in range(1, N_STATIONS + 1):
        walk(s, s, {s}, [], False, False)
    return rows, kinds
