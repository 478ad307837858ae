"""Cape Horn board and wind cards, read from the data files of ``data/`` (or a designer's folder).

Files (the reconstruction of ../shared/reference/boards.md section 2, see
docs/rules/cape-horn.md):

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

import csv
from collections import deque, namedtuple
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from simulator.errors import BalanceError

DATA_DIR = Path(__file__).parent / "data"
COLOURS = ("yellow", "red", "green")
N_ZONES = 3
MAX_MOVES = 5  # options on one card (the sources: "bis zu fünf Bewegungsmöglichkeiten")
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


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise BalanceError(f"Cape Horn data file {str(path)!r} is missing")
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@cache
def load(data_dir: str = "") -> BoardData:
    """Read the board and card files of ``data_dir`` ('' = the package's reconstruction)."""
    d = Path(data_dir) if data_dir else DATA_DIR
    try:
        lines = (d / "board_map.txt").read_text(encoding="utf-8").splitlines()
        origin = 0
        rows = []
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith("row_origin="):
                origin = int(line.split("=", 1)[1])
                continue
            rows.append(line.rstrip("\n"))
        width = max(len(x) for x in rows)
        rows = [x.ljust(width, ".") for x in rows]
        if any(ch not in ".LS123F" for x in rows for ch in x):
            raise ValueError("board_map.txt uses a character other than . L S 1 2 3 F")
        cards = _read_csv(d / "cards.csv")
        names = tuple(c["card"].strip() for c in cards)
        counts = tuple(int(c["count"]) for c in cards)
        moves = []
        for c in cards:
            steps = tuple((int(a), int(b)) for a, b in (m.split(":") for m in c["moves"].split()))
            if not 1 <= len(steps) <= MAX_MOVES:
                raise ValueError(f"card {c['card']} has {len(steps)} moves (1..{MAX_MOVES})")
            moves.append(steps)
        stations = tuple(
            (int(s["zone"]) - 1, COLOURS.index(s["colour"].strip()), int(s["col"]), int(s["row"]))
            for s in _read_csv(d / "stations.csv")
        )
        starts = tuple(
            (int(s["number"]), int(s["col"]), int(s["row"]), names.index(s["card"].strip()))
            for s in _read_csv(d / "starts.csv")
        )
    except (OSError, ValueError, KeyError) as exc:
        raise BalanceError(f"Cape Horn data in {str(d)!r} is not valid: {exc}") from None
    data = BoardData(
        width, len(rows), origin, tuple(rows), stations, tuple(sorted(starts)), names, counts,
        tuple(moves),
    )  # fmt: skip
    for z, col, cl, rw in [(s[0], s[1], s[2], s[3]) for s in stations]:
        if not (0 <= z < N_ZONES) or char_at(data, cl, rw) not in "123":
            raise BalanceError(f"Cape Horn station of zone {z + 1} at ({cl},{rw}) is not on sea")
        del col
    if len(starts) != 5 or any(char_at(data, s[1], s[2]) != "S" for s in starts):
        raise BalanceError("Cape Horn needs 5 start spaces on S squares of the board map")
    return data


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


@cache
def arrays(data_dir: str = "", finish_tokens: int = 2, three_wins: bool = True) -> BoardArrays:
    """The board as numpy arrays for compiled code (cached per data folder and win rules)."""
    data = load(data_dir)
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
        fc, fr = AREA_FORWARD[int(area[c])]
        sc, sr = -fr, fc  # the card's side axis (designs are symmetric left/right)
        col, row = data.col_row(c)
        for d, steps in enumerate(data.card_moves):
            for k, (side, fwd) in enumerate(steps):
                tc, tr = col + side * sc + fwd * fc, row + side * sr + fwd * fr
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
        backward, dist_fin, rem, route,
    )  # fmt: skip


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
