"""Cape Horn board and wind cards, read from the game's named data files (``balance data
cape-horn``): the shipped ones in ``data/`` or a designer's replacements (``--data NAME=FILE``).

Files (the reconstruction of ../shared/reference/boards.md section 2, see
docs/rules/cape-horn.md, "Data files"):

- ``board_map.txt``: one character per grid space (``.`` none, ``L`` land, ``1``/``2``/``3`` sea
  of an area, ``S`` start, ``F`` finish row);
- ``stations.csv``: ``zone,colour,col,row`` of the nine nautical stations;
- ``starts.csv``: ``number,col,row,card`` of the start spaces and their pre-printed winds;
- ``cards.csv``: ``card,count,moves``: each design, its copies in the deck and its moves as
  ``side:forward`` steps relative to the card's forward direction.

Cells are grid spaces numbered row by row (``id = (row - row_origin) * width + col``); every grid
space is a cell, so heatmap columns line up with the board drawing.
"""

from __future__ import annotations

from collections import deque, namedtuple
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import DataFile, DataSource, csv_rows, integer

DATA_DIR = Path(__file__).parent / "data"
COLOURS = ("yellow", "red", "green")
N_ZONES = 3
MAX_MOVES = 5  # options on one card (the sources: "bis zu fünf Bewegungsmöglichkeiten")
MAX_STARTS = 5  # start spaces: one per ship ("5 barcos clipper")
MAX_COPIES = 200  # copies of one design (the bound of the card_counts rule)
N_TOKEN_STATES = 4**N_ZONES  # per zone: no token or one of three colours
UNREACHABLE = 1.0e6

# cell kinds (``kind`` array)
K_NONE, K_LAND, K_SEA, K_START, K_FINISH = range(5)
# forward direction (dcol, drow) of a card laid in area 1, 2, 3 (seed: bottom edge N, E, S)
AREA_FORWARD = {1: (0, 1), 2: (-1, 0), 3: (0, -1)}

BoardArrays = namedtuple(
    "BoardArrays",
    [
        "kind",  # int64[NC]: K_*
        "area",  # int64[NC]: 1..3 for spaces, 0 otherwise
        "st_zone",  # int64[NC]: station zone 0..2, -1 for none
        "st_colour",  # int64[NC]: station colour 0..2, -1 for none
        "target",  # int64[NC, ND, MAX_MOVES]: cell a move lands on, -1 off the board / no option
        "n_moves",  # int64[ND]
        "neigh",  # int64[NC, 8]: the 8 surrounding spaces, -1 where there is none
        "orth",  # int64[NC, 8]: 1 where neigh[c, i] is horizontal or vertical
        "start_cell",  # int64[5]
        "start_card",  # int64[5]
        "backward",  # int64[ND]: 1 when every move of the design goes backward
        "dist_fin",  # float64[NC]: king steps to the finish row
        "rem",  # float64[N_TOKEN_STATES, NC]: king steps still needed to win (see remaining)
        "route",  # float64[NC]: progress along the route (0 at the start, grows to the finish)
        "next_low",  # float64[N_TOKEN_STATES, NC, ND]: the fewest steps left (rem) among the
        #              spaces a card of design d on c moves to; -1 when every move leaves the board
    ],
)


@dataclass(frozen=True)
class BoardData:
    width: int
    height: int
    row_origin: int
    chars: tuple[str, ...]
    stations: tuple[tuple[int, int, int, int], ...]  # zone, colour, col, row
    starts: tuple[tuple[int, int, int, int], ...]  # number, col, row, design
    card_names: tuple[str, ...]
    card_counts: tuple[int, ...]
    card_moves: tuple[tuple[tuple[int, int], ...], ...]

    def cell(self, col: int, row: int) -> int:
        return (row - self.row_origin) * self.width + col

    def col_row(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width + self.row_origin

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    def design(self, name: str) -> int:
        return self.card_names.index(name)


# -- the data files ------------------------------------------------------------------------------
DATA_NAMES = ("board", "stations", "starts", "cards")
CHARS = {
    ".": "not a space",
    "L": "land",
    "S": "start space",
    "1": "sea of area 1",
    "2": "sea of area 2",
    "3": "sea of area 3",
    "F": "finish row",
}
_DOCS = "docs/rules/cape-horn.md, section 'Data files'"


@dataclass(frozen=True)
class _Map:
    width: int
    row_origin: int
    rows: tuple[str, ...]
    lines: tuple[int, ...]  # the file line of each row


def parse_board_map(src: DataSource) -> _Map:
    """``board_map.txt``: ``row_origin=N`` and one character per grid space (see CHARS)."""
    origin, rows, lines = 0, [], []
    for number, line in enumerate(src.text.splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("row_origin="):
            origin = integer(src, number, "row_origin", line.split("=", 1)[1].strip())
            continue
        line = line.rstrip()
        for col, ch in enumerate(line):
            if ch not in CHARS:
                allowed = ", ".join(f"{k} ({v})" for k, v in CHARS.items())
                raise BalanceError(
                    f"{src.where(number)}: column {col}: unknown space {ch!r}; allowed: {allowed}"
                )
        rows.append(line)
        lines.append(number)
    if not rows:
        raise BalanceError(f"{src.where()}: no map rows (one character per grid space)")
    width = max(len(x) for x in rows)
    grid = _Map(width, origin, tuple(x.ljust(width, ".") for x in rows), tuple(lines))
    for ch, what in (("F", "finish row"), ("S", "start space")):
        if not any(ch in x for x in grid.rows):
            raise BalanceError(f"{src.where()}: the map has no {ch} ({what}) space")
    # Every space must reach the finish row by steps to its 8 neighbours (land is no space).
    spaces = {
        (c, r + origin) for r, x in enumerate(grid.rows) for c, ch in enumerate(x) if ch not in ".L"
    }
    seen = {p for p in spaces if _char(grid, *p) == "F"}
    queue = deque(seen)
    while queue:
        c, r = queue.popleft()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                n = (c + dc, r + dr)
                if n in spaces and n not in seen:
                    seen.add(n)
                    queue.append(n)
    cut = sorted(spaces - seen, key=lambda p: (p[1], p[0]))
    if cut:
        c, r = cut[0]
        raise BalanceError(
            f"{src.where(grid.lines[r - origin])}: the board is not connected: space ({c},{r}) "
            f"cannot reach the finish row (F) by steps to its 8 neighbours over sea; "
            f"{len(cut)} space(s) are cut off"
        )
    return grid


def _char(grid: _Map, col: int, row: int) -> str:
    r = row - grid.row_origin
    if 0 <= col < grid.width and 0 <= r < len(grid.rows):
        return grid.rows[r][col]
    return "."


def parse_stations(src: DataSource) -> tuple[tuple[int, int, int, int, int], ...]:
    """``stations.csv``: (zone 0-2, colour, col, row, line) of each nautical station."""
    out = []
    for line, r in csv_rows(src, ("zone", "colour", "col", "row")):
        zone = integer(src, line, "zone", r["zone"], 1, N_ZONES)
        if r["colour"] not in COLOURS:
            raise BalanceError(
                f"{src.where(line)}: colour {r['colour']!r} is not one of {', '.join(COLOURS)}"
            )
        col = integer(src, line, "col", r["col"])
        row = integer(src, line, "row", r["row"])
        out.append((zone - 1, COLOURS.index(r["colour"]), col, row, line))
    return tuple(out)


def parse_starts(src: DataSource) -> tuple[tuple[int, int, int, str, int], ...]:
    """``starts.csv``: (number, col, row, card design, line) of each start space, by number."""
    out = []
    for line, r in csv_rows(src, ("number", "col", "row", "card")):
        number = integer(src, line, "number", r["number"], 1, MAX_STARTS)
        col = integer(src, line, "col", r["col"])
        row = integer(src, line, "row", r["row"])
        if not r["card"]:
            raise BalanceError(f"{src.where(line)}: card is empty; name a design of cards.csv")
        out.append((number, col, row, r["card"], line))
    numbers = sorted(s[0] for s in out)
    if numbers != list(range(1, len(out) + 1)):
        raise BalanceError(
            f"{src.where()}: start numbers are {', '.join(map(str, numbers))}; they must be "
            f"1, 2, ... once each (at most {MAX_STARTS}: one per ship)"
        )
    return tuple(sorted(out))


def parse_cards(src: DataSource) -> tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...]:
    """``cards.csv``: (design, copies, moves as (side, forward) steps) of each card design."""
    out, names = [], set()
    for line, r in csv_rows(src, ("card", "count", "moves")):
        name = r["card"]
        if not name or name in names:
            what = "empty" if not name else f"{name!r} is named twice"
            raise BalanceError(f"{src.where(line)}: card {what}; each design has its own name")
        names.add(name)
        count = integer(src, line, "count", r["count"], 0, MAX_COPIES)
        steps = []
        for m in r["moves"].split():
            side, sep, fwd = m.partition(":")
            try:
                steps.append((int(side), int(fwd)))
            except ValueError:
                sep = ""
            if not sep:
                raise BalanceError(
                    f"{src.where(line)}: moves: {m!r} is not side:forward (two integers, e.g. "
                    "0:2 forward 2, -1:0 one to the side, 2:2 diagonal 2)"
                )
            if steps[-1] == (0, 0):
                raise BalanceError(
                    f"{src.where(line)}: moves: 0:0 leaves the ship where it is; a card's move "
                    "goes at least one space (stay put is the 'no move' special move)"
                )
        if not 1 <= len(steps) <= MAX_MOVES:
            raise BalanceError(
                f"{src.where(line)}: moves: card {name} has {len(steps)} moves; a card has 1 to "
                f"{MAX_MOVES}, separated by spaces"
            )
        out.append((name, count, tuple(steps)))
    if sum(c for _, c, _ in out) == 0:
        raise BalanceError(f"{src.where()}: every count is 0; the deck needs at least one card")
    return tuple(out)


DATA_FILES = tuple(
    DataFile(name, file, str(DATA_DIR), holds, fmt, False, _DOCS, check)
    for name, file, holds, fmt, check in (
        (
            "board",
            "board_map.txt",
            "the board grid: sea of the three areas, land, start spaces and the finish row",
            "text: 'row_origin=N', then one character per grid space (. L S 1 2 3 F), # comments",
            parse_board_map,
        ),
        (
            "stations",
            "stations.csv",
            "the nine nautical stations: zone, colour and grid space",
            "CSV zone,colour,col,row: zone 1-3, colour yellow/red/green, a sea space (1 2 3)",
            parse_stations,
        ),
        (
            "starts",
            "starts.csv",
            "the start spaces in order and the wind card printed on each",
            "CSV number,col,row,card: numbers 1..5, an S space, a design of cards.csv",
            parse_starts,
        ),
        (
            "cards",
            "cards.csv",
            "the wind card designs, their copies in the deck and their moves",
            "CSV card,count,moves: a row per design, count >= 0, moves 'side:forward' x 1-5",
            parse_cards,
        ),
    )
)


def shipped_sources() -> tuple[DataSource, ...]:
    return tuple(f.shipped for f in DATA_FILES)


def sources(rules: Any = None) -> tuple[DataSource, ...]:
    """The four data files the rules play (the shipped ones when ``rules`` is None)."""
    return shipped_sources() if rules is None else tuple(rules.source(n) for n in DATA_NAMES)


def load(rules: Any = None) -> BoardData:
    """The board and cards the rules play (their replaced data files, else the shipped ones)."""
    return load_sources(sources(rules))


@cache
def load_sources(srcs: tuple[DataSource, ...]) -> BoardData:
    """Read and check the board, stations, starts and cards together (cached per content)."""
    board_src, station_src, start_src, card_src = srcs
    grid = parse_board_map(board_src)
    stations = parse_stations(station_src)
    starts = parse_starts(start_src)
    cards = parse_cards(card_src)
    names = tuple(c[0] for c in cards)
    _check_moves_land(grid, cards, board_src, card_src)
    seen: dict[tuple[int, int], int] = {}
    for z, _, col, row, line in stations:
        ch = _char(grid, col, row)
        if ch not in "123":
            raise BalanceError(
                f"{station_src.where(line)}: the station of zone {z + 1} at ({col},{row}) is on "
                f"{CHARS[ch]} in {board_src.where()}; a station stands on sea (1, 2 or 3)"
            )
        if (col, row) in seen:
            raise BalanceError(
                f"{station_src.where(line)}: two stations on space ({col},{row}) (line "
                f"{seen[col, row]} too)"
            )
        seen[col, row] = line
    for number, col, row, card, line in starts:
        if _char(grid, col, row) != "S":
            raise BalanceError(
                f"{start_src.where(line)}: start {number} at ({col},{row}) is on "
                f"{CHARS[_char(grid, col, row)]} in {board_src.where()}; it must be an S space"
            )
        if card not in names:
            raise BalanceError(
                f"{start_src.where(line)}: card {card!r} is not a design of "
                f"{card_src.where()} ({', '.join(names)})"
            )
    return BoardData(
        grid.width,
        len(grid.rows),
        grid.row_origin,
        grid.rows,
        tuple(s[:4] for s in stations),
        tuple((n, c, r, names.index(card)) for n, c, r, card, _ in starts),
        names,
        tuple(c[1] for c in cards),
        tuple(c[2] for c in cards),
    )


def _check_moves_land(
    grid: _Map,
    cards: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...],
    board_src: DataSource,
    card_src: DataSource,
) -> None:
    """Refuse a card move that lands on no space from any space of the board (``0:99``): the
    deck would hold an option no ship can ever take."""
    spaces = [
        (c, r + grid.row_origin, _area_of(ch))
        for r, x in enumerate(grid.rows)
        for c, ch in enumerate(x)
        if _area_of(ch)
    ]
    for name, _, steps in cards:
        for side, fwd in steps:
            if not any(
                _char(grid, *_landing(col, row, area, side, fwd)) not in ".L"
                for col, row, area in spaces
            ):
                raise BalanceError(
                    f"{card_src.where()}: card {name}: the move {side}:{fwd} lands off the board "
                    f"from every space of {board_src.where()} ({grid.width} columns x "
                    f"{len(grid.rows)} rows); no ship could ever take it"
                )


def _landing(col: int, row: int, area: int, side: int, fwd: int) -> tuple[int, int]:
    """Where a move (side, forward) of a card laid in ``area`` takes a ship from (col, row)."""
    fc, fr = AREA_FORWARD[area]
    sc, sr = -fr, fc  # the card's side axis (designs are symmetric left/right)
    return col + side * sc + fwd * fc, row + side * sr + fwd * fr


def char_at(data: BoardData, col: int, row: int) -> str:
    r = row - data.row_origin
    if 0 <= col < data.width and 0 <= r < data.height:
        return data.chars[r][col]
    return "."


def _area_of(ch: str) -> int:
    return {"1": 1, "2": 2, "3": 3, "S": 1, "F": 3}.get(ch, 0)


def _kind_of(ch: str) -> int:
    return {".": K_NONE, "L": K_LAND, "S": K_START, "F": K_FINISH}.get(ch, K_SEA)


def _bfs(data: BoardData, kind: np.ndarray, sources: list[int]) -> np.ndarray:
    """King-step distance from the nearest source over spaces (land and off-board excluded)."""
    dist = np.full(data.n_cells, UNREACHABLE)
    q = deque()
    for s in sources:
        dist[s] = 0.0
        q.append(s)
    while q:
        c = q.popleft()
        col, row = data.col_row(c)
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                ch = char_at(data, col + dc, row + dr)
                if (dc or dr) and ch not in ".L":
                    n = data.cell(col + dc, row + dr)
                    if dist[n] > dist[c] + 1:
                        dist[n] = dist[c] + 1
                        q.append(n)
    return dist


def token_state(tokens) -> int:
    """Index of a player's tokens (colour per zone, -1 for none) in ``rem``."""
    s = 0
    for z in range(N_ZONES):
        s += (int(tokens[z]) + 1) * 4**z
    return s


def remaining(
    data: BoardData, kind: np.ndarray, finish_tokens: int, three_wins: bool
) -> tuple[np.ndarray, np.ndarray]:
    """King steps a ship still needs to win from each cell, for each token state.

    ``rem[s, c]`` = min over the stations the player may still use of (distance to it + rem after
    taking its token there), or the distance to the finish row once ``finish_tokens`` are held;
    0 once three tokens win. Policies use it as their measure of progress."""
    n = data.n_cells
    fin = [c for c in range(n) if kind[c] == K_FINISH]
    dist_fin = _bfs(data, kind, fin) if fin else np.full(n, UNREACHABLE)
    st_dist = [_bfs(data, kind, [data.cell(s[2], s[3])]) for s in data.stations]
    rem = np.full((N_TOKEN_STATES, n), UNREACHABLE)
    states = []
    for s in range(N_TOKEN_STATES):
        tok = [(s // 4**z) % 4 - 1 for z in range(N_ZONES)]
        held = [t for t in tok if t >= 0]
        if len(set(held)) != len(held):
            continue  # two tokens of one colour: impossible
        states.append((len(held), s, tok))
    for ntok, s, tok in sorted(states, reverse=True):
        if three_wins and ntok == N_ZONES:
            rem[s] = 0.0
            continue
        best = dist_fin.copy() if ntok >= finish_tokens else np.full(n, UNREACHABLE)
        for i, (z, colour, col, row) in enumerate(data.stations):
            if tok[z] >= 0 or colour in tok:
                continue
            nxt = s + (colour + 1) * 4**z
            best = np.minimum(best, st_dist[i] + rem[nxt, data.cell(col, row)])
        rem[s] = np.minimum(best, UNREACHABLE)
    return dist_fin, rem


def arrays(rules: Any = None) -> BoardArrays:
    """The board as numpy arrays for compiled code, for the rules in force (the shipped data and
    the default win rules when None). Compiled code gets them as arguments, never as globals, so
    a replaced data file is never hidden by cached machine code."""
    if rules is None:
        return board_arrays(shipped_sources(), 2, True)
    return board_arrays(sources(rules), int(rules.finish_tokens), bool(rules.three_token_victory))


@cache
def board_arrays(srcs: tuple[DataSource, ...], finish_tokens: int, three_wins: bool) -> BoardArrays:
    """The board arrays of these data files and win rules (cached per content)."""
    data = load_sources(srcs)
    n = data.n_cells
    nd = len(data.card_names)
    kind = np.zeros(n, np.int64)
    area = np.zeros(n, np.int64)
    for c in range(n):
        ch = char_at(data, *data.col_row(c))
        kind[c] = _kind_of(ch)
        area[c] = _area_of(ch)
    st_zone = np.full(n, -1, np.int64)
    st_colour = np.full(n, -1, np.int64)
    for z, colour, col, row in data.stations:
        st_zone[data.cell(col, row)] = z
        st_colour[data.cell(col, row)] = colour
    target = np.full((n, nd, MAX_MOVES), -1, np.int64)
    n_moves = np.array([len(m) for m in data.card_moves], np.int64)
    for c in range(n):
        if area[c] == 0:
            continue
        col, row = data.col_row(c)
        for d, steps in enumerate(data.card_moves):
            for k, (side, fwd) in enumerate(steps):
                tc, tr = _landing(col, row, int(area[c]), side, fwd)
                if char_at(data, tc, tr) not in ".L":
                    target[c, d, k] = data.cell(tc, tr)
    neigh = np.full((n, 8), -1, np.int64)
    orth = np.zeros((n, 8), np.int64)
    for c in range(n):
        col, row = data.col_row(c)
        i = 0
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc or dr:
                    if kind[c] != K_NONE and char_at(data, col + dc, row + dr) not in ".L":
                        neigh[c, i] = data.cell(col + dc, row + dr)
                    orth[c, i] = 1 if dc == 0 or dr == 0 else 0
                    i += 1
    start_cell = np.array([data.cell(s[1], s[2]) for s in data.starts], np.int64)
    start_card = np.array([s[3] for s in data.starts], np.int64)
    backward = np.array([int(all(f < 0 for _, f in m)) for m in data.card_moves], np.int64)
    dist_fin, rem = remaining(data, kind, finish_tokens, three_wins)
    start_dist = _bfs(data, kind, [int(x) for x in start_cell])
    route = np.where(
        (dist_fin < UNREACHABLE) & (start_dist < UNREACHABLE),
        start_dist / (start_dist + dist_fin + 1e-9),
        0.0,
    )
    return BoardArrays(
        kind, area, st_zone, st_colour, target, n_moves, neigh, orth, start_cell, start_card,
        backward, dist_fin, rem, route, lowest_next(rem, target),
    )  # fmt: skip


def lowest_next(rem: np.ndarray, target: np.ndarray) -> np.ndarray:
    """``next_low`` of :class:`BoardArrays`: for each token state, space and design, the
    fewest steps left among the spaces the card's moves lead to (-1 where none stays on the
    board). The policies read a card's promise from it in one look instead of a loop."""
    states, n = rem.shape
    steps = np.where(target >= 0, rem[:, np.maximum(target, 0)], np.inf)  # [s, c, d, k]
    low = steps.min(axis=3)
    return np.where(np.isinf(low), -1.0, low).reshape(states, n, target.shape[1])


def cell_kinds(data: BoardData) -> list[str]:
    """A kind name per cell for the board drawing (sea by area, start, station, finish, land)."""
    names = []
    st = {data.cell(c, r): (z, colour) for z, colour, c, r in data.stations}
    for c in range(data.n_cells):
        ch = char_at(data, *data.col_row(c))
        if c in st:
            z, colour = st[c]
            names.append(f"station_zone{z + 1}_{COLOURS[colour]}")
        else:
            names.append(
                {".": "none", "L": "land", "S": "start", "F": "finish"}.get(ch, f"sea_area{ch}")
            )
    return names
