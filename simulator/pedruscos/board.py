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

import numpy as np

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


def load_layout() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


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
    """The board for these free numbers (cached: rules with the same numbers share one board)."""
    layout = load_layout()
    order = [COLOUR_NAMES.index(c) for c in colour_order.split("-")]
    radius = float(layout["station_radius"])
    kind = [PLANET] + [STATION] * N_STATIONS + [MOON] * N_MOONS
    colour = [-1] * (1 + N_STATIONS + N_MOONS)
    station = [0] + list(range(1, N_STATIONS + 1)) + [0] * N_MOONS
    pos: list[tuple[float, float]] = [(0.0, 0.0)] * (1 + N_STATIONS + N_MOONS)
    for s in layout["stations"]:
        a = math.radians(s["angle"])
        pos[s["number"]] = (radius * math.cos(a), radius * math.sin(a))
    edges: list[tuple[int, int]] = []
    for rt in layout["routes"]:
        a, b = rt["from"], rt["to"]
        if rt["kind"] == "chord" and chord_length == 0:
            continue  # no chords: the board before its rebuild
        pa, pb = pos[a], pos[b]
        if rt["kind"] == "spoke":
            n = spoke_length
            pts = [(pb[0] * i / (n + 1), pb[1] * i / (n + 1)) for i in range(1, n + 1)]
            moon_at = -1
        else:
            n = {"ring": ring_length, "arc": arc_length, "chord": chord_length}[rt["kind"]]
            mx, my = pa[0] + pb[0], pa[1] + pb[1]
            norm = math.hypot(mx, my)
            peak = (rt["peak_radius"] * mx / norm, rt["peak_radius"] * my / norm)
            pts = _bezier(pa, pb, peak, n)
            moon_at = n // 2 if rt.get("moon") else -1
        chain = [a]
        k = 0  # colours cycle over the asteroids only, from the route's "from" end
        for i, p in enumerate(pts):
            if i == moon_at:
                cell = N_STATIONS + rt["moon"]
                pos[cell] = p
            else:
                cell = len(kind)
                kind.append(ASTEROID)
                colour.append(order[k % N_COLOURS])
                station.append(0)
                pos.append(p)
                k += 1
            chain.append(cell)
        chain.append(b)
        edges.extend(zip(chain[:-1], chain[1:], strict=True))
    n_cells = len(kind)
    nb: list[list[int]] = [[] for _ in range(n_cells)]
    for u, v in edges:
        nb[u].append(v)
        nb[v].append(u)
    kind_a = np.asarray(kind, dtype=np.int64)
    reach_ptr, reach = _reach_tables(kind_a, nb)
    rows, kinds = _routes(
        kind_a, np.asarray(station), nb, moon_in_harvest == "counts", planet_routes == "through"
    )
    colour_a = np.asarray(colour, dtype=np.int64)
    width = max(len(cells) for _, _, cells in rows)
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
