"""The Pirateer board as data: the 20 x 20 grid mask of the real board and its features.

Source: ``boards.md`` section 1 (the mask agrees with two digital codings and a scan of the real
board). Grid cell ``(x, y)``, x and y in 0..19; on the physical board right is x - y and down is
x + y. The board is a vertical cylinder: the four strait half-cells on the top and bottom edges
merge into two spaces, and a step that leaves through the top edge (x + y < 7) continues at
``+(12, 12)``, through the bottom edge (x + y > 31) at ``-(12, 12)``.

Spaces (ids 0..231) are the water cells with each strait pair merged; the arrays below are
indexed by space id and are module constants, so compiled code reads them as constants.
"""

from __future__ import annotations

from collections import deque

import numpy as np

# Water cells as y-ranges per x (boards.md 1.2), 234 cells including the 4 strait half-cells.
WATER_RANGES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((9, 14),),
    ((13, 14),),
    ((8, 8), (12, 14)),
    ((4, 15),),
    ((3, 14), (16, 16)),
    ((3, 19),),
    ((3, 19),),
    ((3, 17), (19, 19)),
    ((2, 16), (19, 19)),
    ((0, 0), (3, 8), (11, 16), (19, 19)),
    ((0, 0), (3, 8), (11, 16), (19, 19)),
    ((0, 0), (3, 17)),
    ((0, 0), (2, 16)),
    ((0, 16),),
    ((0, 16),),
    ((3, 3), (5, 16)),
    ((4, 15),),
    ((5, 7), (11, 11)),
    ((5, 6),),
    ((5, 10),),
)
ISLAND = ((9, 9), (9, 10), (10, 9), (10, 10))
ANCHORAGES = ((8, 9), (8, 10), (9, 8), (10, 8), (11, 9), (11, 10), (9, 11), (10, 11))
TRADE_WINDS = tuple((x, 15 - x) for x in range(3, 13)) + tuple((x, 23 - x) for x in range(7, 17))
# The two strait spaces: the top half-cell (the one the picture shows) and its bottom partner.
STRAITS = (((3, 4), (15, 16)), ((4, 3), (16, 15)))

# Harbours in clockwise order from the top-left: flag, strip (anchor first), forbidden direction
# of a treasure ship (the one grid direction pointing from the harbour's corner into the board).
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
FLAGS = ("Spanish cross", "fleur-de-lis", "skull and crossbones", "crescent and star")
HARBOUR_STRIPS = (
    tuple((0, y) for y in range(9, 15)),
    tuple((x, 0) for x in range(9, 15)),
    tuple((19, y) for y in range(10, 4, -1)),
    tuple((x, 19) for x in range(10, 4, -1)),
)

# Directions: four grid steps and the two diagonals along a trade wind (x + y constant).
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
PX, MX, PY, MY, DIAG_PX, DIAG_MX = range(6)
N_DIRS = 6
# The direction a treasure ship of each corner may not take: top-left +x, top-right +y,
# bottom-right -x, bottom-left -y (boards.md 1.5; "directly away from its port").
AWAY = (PX, PY, MX, MY)

# Cell kinds for the board picture (ids of KIND_NAMES)
KIND_NAMES = (
    "sea", "trade_wind", "strait", "anchorage", "harbour", "anchor", "start", "island",
)  # fmt: skip
K_SEA, K_WIND, K_STRAIT, K_ANCHORAGE, K_HARBOUR, K_ANCHOR, K_START, K_ISLAND = range(8)


def _water() -> list[tuple[int, int]]:
    return [
        (x, y)
        for x, ranges in enumerate(WATER_RANGES)
        for lo, hi in ranges
        for y in range(lo, hi + 1)
    ]


def _wrap(x: int, y: int) -> tuple[int, int]:
    if x + y < 7:
        return x + 12, y + 12
    if x + y > 31:
        return x - 12, y - 12
    return x, y


def _build() -> dict:
    water = _water()
    bottom_half = {b: a for a, b in STRAITS}
    cells = [c for c in water if c not in bottom_half]  # each strait once, by its top half
    index = {c: i for i, c in enumerate(cells)}
    for b, a in bottom_half.items():
        index[b] = index[a]
    n = len(cells)
    wind = {c for c in TRADE_WINDS}
    step = np.full((n, N_DIRS), -1, dtype=np.int64)
    for (x, y), i in index.items():
        for d, (dx, dy) in enumerate(DIRS):
            if d >= DIAG_PX and (x, y) not in wind:
                continue
            t = _wrap(x + dx, y + dy)
            if t not in index:
                continue
            if d >= DIAG_PX and t not in wind:
                continue  # a diagonal step stays inside the trade wind
            step[i, d] = index[t]
    return {"cells": cells, "index": index, "step": step}


_B = _build()
CELLS: tuple[tuple[int, int], ...] = tuple(_B["cells"])  # space id -> (x, y) grid cell
INDEX: dict[tuple[int, int], int] = _B["index"]  # grid cell (both strait halves) -> space id
N_CELLS = len(CELLS)
# Cells of the board picture: the spaces, then Skull Island's 4 land cells (heatmap columns are
# this long so cell i lines up with the picture's cell i; the island's entries stay 0).
N_PICTURE = N_CELLS + len(ISLAND)
STEP = _B["step"]  # STEP[space, dir]: the next space, -1 off the water

IS_WIND = np.zeros(N_CELLS, dtype=np.bool_)
IS_STRAIT = np.zeros(N_CELLS, dtype=np.bool_)
IS_ANCHORAGE = np.zeros(N_CELLS, dtype=np.bool_)
for _c in TRADE_WINDS:
    IS_WIND[INDEX[_c]] = True
for _a, _b in STRAITS:
    IS_STRAIT[INDEX[_a]] = True
for _c in ANCHORAGES:
    IS_ANCHORAGE[INDEX[_c]] = True
ANCHORAGE_CELLS = np.array([INDEX[c] for c in ANCHORAGES], dtype=np.int64)
# HARBOUR[corner, k]: the strip from the anchor (k = 0) outwards
HARBOUR = np.array([[INDEX[c] for c in strip] for strip in HARBOUR_STRIPS], dtype=np.int64)
ANCHOR = HARBOUR[:, 0].copy()
# START[option, corner, k]: option 0 = the 3 spaces next to the anchor (boards.md 1.4 option A),
# option 1 = the 3 end spaces of the harbour, the anchor included (option B).
START = np.stack([HARBOUR[:, 1:4], HARBOUR[:, 0:3]]).astype(np.int64)
AWAY_DIR = np.array(AWAY, dtype=np.int64)

# ALLOWED[corner, dir]: may a treasure ship of that corner move in that direction? Grid steps
# other than the away direction; a trade-wind diagonal only when it heads toward the port.
ALLOWED = np.ones((4, N_DIRS), dtype=np.bool_)
for _k, _away in enumerate(AWAY):
    ALLOWED[_k, _away] = False
    ax, ay = DIRS[_away]
    for _d in (DIAG_PX, DIAG_MX):
        dx, dy = DIRS[_d]
        ALLOWED[_k, _d] = dx * ax + dy * ay < 0


def kind_of(space: int) -> int:
    """The picture kind of a space (start squares as in option A)."""
    if IS_WIND[space]:
        return K_WIND
    if IS_STRAIT[space]:
        return K_STRAIT
    if IS_ANCHORAGE[space]:
        return K_ANCHORAGE
    if space in ANCHOR:
        return K_ANCHOR
    if space in START[0]:
        return K_START
    if space in HARBOUR:
        return K_HARBOUR
    return K_SEA


def _bfs(sources: list[int], allowed: np.ndarray | None = None) -> np.ndarray:
    """Steps from every space to the nearest source (ignoring ships and dice), -1 unreachable.

    With ``allowed`` (one bool per direction) only those steps count; the search runs backwards
    from the sources, so ``dist[c]`` is the length of a path from ``c`` to a source.
    """
    dist = np.full(N_CELLS, -1, dtype=np.int64)
    q = deque()
    for s in sources:
        dist[s] = 0
        q.append(s)
    back = [[] for _ in range(N_CELLS)]  # back[t] = spaces with a permitted step into t
    for c in range(N_CELLS):
        for d in range(N_DIRS):
            t = STEP[c, d]
            if t >= 0 and (allowed is None or allowed[d]):
                back[t].append(c)
    while q:
        t = q.popleft()
        for c in back[t]:
            if dist[c] < 0:
                dist[c] = dist[t] + 1
                q.append(c)
    return dist


# DIST[a, b]: steps from a to b; TO_ANCHORAGE[c]: steps to the nearest anchorage;
# HOME[limited, corner, c]: steps a treasure ship at c needs to its anchor (limited: obeying the
# treasure ship's directions), a large number where it cannot get home. DIST is stored in bytes
# (no distance exceeds 127): a 54 KB table stays in the core's cache, where 430 KB of int64 did
# not, and the policies read it for every move they score.
DIST = np.stack([_bfs([b]) for b in range(N_CELLS)], axis=1).astype(np.int8)
TO_ANCHORAGE = _bfs(list(ANCHORAGE_CELLS))
HOME = np.zeros((2, 4, N_CELLS), dtype=np.int64)
for _k in range(4):
    HOME[0, _k] = _bfs([int(ANCHOR[_k])])
    HOME[1, _k] = _bfs([int(ANCHOR[_k])], ALLOWED[_k])
HOME[HOME < 0] = 999
