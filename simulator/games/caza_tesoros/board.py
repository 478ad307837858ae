"""Caza-Tesoros board: 18 x 18 hexes addressed by the 3D6 coordinates of the seed ("Tablero").

Printed coordinates run 1..18 along the top (column ``x``) and down the left side (row ``y``);
a 3D6 roll gives 3..18, so placement never uses the first two columns or rows, while sailing does.
Cell index ``(y - 1) * 18 + (x - 1)``. The hexes are pointy-topped and every second row (printed
rows 2, 4, ...) is pushed half a hex to the right ("odd-r" offset layout).

Sides are numbered as the seed numbers them ("Las numeraciones para los hexágonos siempre
comienzan por la cara superior derecha y en sentido horario"): 1 upper right, 2 right,
3 lower right, 4 lower left, 5 left, 6 upper left. Direction index ``d`` (0..5) is side ``d + 1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.boards import Board, Cell

from .state import d6, rand_int

SIZE = 18
CELLS = SIZE * SIZE
SIDES = 6
# Axial (q, r) step of each side, side 1 (upper right) first, clockwise.
AXIAL_STEPS = np.array([(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)], dtype=np.int64)


def cell_of(x: int, y: int) -> int:
    """Cell index of printed coordinates (column ``x``, row ``y``), both 1..18."""
    if not (1 <= x <= SIZE and 1 <= y <= SIZE):
        raise ValueError(f"coordinates ({x}, {y}) are off the 18 x 18 board")
    return (y - 1) * SIZE + (x - 1)


def coords_of(cell: int) -> tuple[int, int]:
    """Printed coordinates (x, y) of a cell index."""
    return cell % SIZE + 1, cell // SIZE + 1


def _axial_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q = np.empty(CELLS, dtype=np.int64)
    r = np.empty(CELLS, dtype=np.int64)
    where = {}
    for cell in range(CELLS):
        col, row = cell % SIZE, cell // SIZE
        q[cell] = col - (row - (row & 1)) // 2
        r[cell] = row
        where[(int(q[cell]), int(r[cell]))] = cell
    neighbour = np.full((CELLS, SIDES), -1, dtype=np.int64)
    for cell in range(CELLS):
        for d in range(SIDES):
            key = (int(q[cell] + AXIAL_STEPS[d, 0]), int(r[cell] + AXIAL_STEPS[d, 1]))
            neighbour[cell, d] = where.get(key, -1)
    return q, r, neighbour


AXIAL_Q, AXIAL_R, NEIGHBOUR = _axial_tables()


@njit(cache=True, _nrt=False)
def hex_distance(a: int, b: int) -> int:
    """Steps between two cells on an open sea (no limit on straight runs)."""
    dq = AXIAL_Q[a] - AXIAL_Q[b]
    dr = AXIAL_R[a] - AXIAL_R[b]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, _nrt=False)
def roll_cell(g) -> int:
    """A cell placed by two 3D6 rolls, column first ("Lugar de partida barcos"); the dice are
    the game's (``g``: the game state array carrying its generator)."""
    x = d6(g) + d6(g) + d6(g)
    y = d6(g) + d6(g) + d6(g)
    return (y - 1) * SIZE + (x - 1)


@njit(cache=True, _nrt=False)
def cross_cell(x_roll: int, y_roll: int, from_south: bool, from_east: bool) -> int:
    """The cell a card's coordinates name, counted from the edges it names ("Norte 11 y Oeste
    12": row 11 from the north, column 12 from the west; from the south row 11 is row 8)."""
    x = SIZE + 1 - x_roll if from_east else x_roll
    y = SIZE + 1 - y_roll if from_south else y_roll
    return (y - 1) * SIZE + (x - 1)


@njit(cache=True, _nrt=False)
def roll_cross_cell(g, card_edges: bool) -> int:
    """A treasure cross placed by 3D6 per coordinate, from the edges its card names (each card
    names north or south and west or east with equal chance), or from the top-left corner."""
    x = d6(g) + d6(g) + d6(g)
    y = d6(g) + d6(g) + d6(g)
    if not card_edges:
        return cross_cell(x, y, False, False)
    return cross_cell(x, y, rand_int(g, 2) == 1, rand_int(g, 2) == 1)


@njit(cache=True, _nrt=False)
def step_in_line(cell: int, direction: int, distance: int, stop_at_edge: bool) -> int:
    """Cell reached by ``distance`` steps towards side ``direction + 1``.

    At the board edge the ship either stops on the last hex of the board (``stop_at_edge``) or
    does not move at all.
    """
    here = cell
    for _ in range(distance):
        nxt = NEIGHBOUR[here, direction]
        if nxt < 0:
            return here if stop_at_edge else cell
        here = nxt
    return here


@njit(cache=True, _nrt=False)
def path_is_legal(
    start: int, dirs: np.ndarray, n_steps: int, points: int, max_straight: int
) -> bool:
    """Whether sailing ``dirs[:n_steps]`` from ``start`` is a legal day's movement.

    Legal: no more steps than movement points, every hex on the board, and never more than
    ``max_straight`` steps in a row in one direction ("Ningún barco podrá avanzar más de 3
    hexágonos en linea recta").
    """
    if n_steps > points:
        return False
    here = start
    run = 0
    last = -1
    for i in range(n_steps):
        d = dirs[i]
        if d < 0 or d >= SIDES:
            return False
        run = run + 1 if d == last else 1
        if run > max_straight:
            return False
        last = d
        here = NEIGHBOUR[here, d]
        if here < 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def sail_toward(start: int, target: int, points: int, max_straight: int, dirs: np.ndarray) -> int:
    """Sail up to ``points`` legal steps towards ``target``; fill ``dirs``, return steps taken.

    Greedy and optimal on this board (checked against :func:`closest_reachable` in the tests):
    each step shortens the distance when it can, spending the larger of the two useful directions
    first so the other one is left to break straight runs; when the run limit blocks the only
    shortening direction, it turns to a side that keeps the distance.
    """
    here = start
    last = -1
    run = 0
    n = 0
    while n < points and here != target:
        best_d = -1
        best_key = 1 << 30
        dist_now = hex_distance(here, target)
        for d in range(SIDES):
            nxt = NEIGHBOUR[here, d]
            if nxt < 0 or (d == last and run >= max_straight):
                continue
            nd = hex_distance(nxt, target)
            if nd > dist_now:
                continue
            # Prefer shortening; then the direction with more distance still to go along it.
            along = _component(nxt, target, d)
            key = (nd - dist_now + 1) * 1000 - along * 10 + (1 if d == last else 0)
            if key < best_key:
                best_key = key
                best_d = d
        if best_d < 0:
            break
        run = run + 1 if best_d == last else 1
        last = best_d
        here = NEIGHBOUR[here, best_d]
        dirs[n] = best_d
        n += 1
    return n


@njit(cache=True, _nrt=False)
def _component(cell: int, target: int, d: int) -> int:
    # How many more steps along direction d a shortest path from cell to target still takes.
    dq = AXIAL_Q[target] - AXIAL_Q[cell]
    dr = AXIAL_R[target] - AXIAL_R[cell]
    ds = -dq - dr
    sq, sr = AXIAL_STEPS[d, 0], AXIAL_STEPS[d, 1]
    ss = -sq - sr
    # A side step moves +1 on one cube axis and -1 on another; its share of the path is the
    # smaller of the two matching displacements.
    a = _match(dq, sq)
    b = _match(dr, sr)
    c = _match(ds, ss)
    lo = a
    if sq == 0:
        lo = min(b, c)
    elif sr == 0:
        lo = min(a, c)
    else:
        lo = min(a, b)
    return lo


@njit(cache=True, _nrt=False)
def _match(delta: int, step: int) -> int:
    if step == 0:
        return 0
    v = delta * step
    return v if v > 0 else 0


@njit(cache=True, _nrt=False)
def end_of_path(start: int, dirs: np.ndarray, n_steps: int) -> int:
    here = start
    for i in range(n_steps):
        here = NEIGHBOUR[here, dirs[i]]
    return here


def closest_reachable(start: int, target: int, points: int, max_straight: int) -> int:
    """Exact reference for tests: the least distance to ``target`` after at most ``points`` legal
    steps (breadth-first over hex, last direction and run length)."""
    frontier = {(start, -1, 0)}
    seen = set(frontier)
    best = int(hex_distance(start, target))
    for _ in range(points):
        nxt_frontier = set()
        for cell, last, run in frontier:
            for d in range(SIDES):
                nxt = int(NEIGHBOUR[cell, d])
                if nxt < 0:
                    continue
                new_run = run + 1 if d == last else 1
                if new_run > max_straight:
                    continue
                state = (nxt, d, new_run)
                if state not in seen:
                    seen.add(state)
                    nxt_frontier.add(state)
                    best = min(best, int(hex_distance(nxt, target)))
        frontier = nxt_frontier
    return best


def board_cells(rules: object = None) -> Board:
    """The sea as cells for pictures: pointy-topped hexes, odd rows half a hex to the right.
    Labels are the printed coordinates "x,y" (column, row)."""
    height = np.sqrt(3.0) / 2.0
    cells = []
    for cell in range(CELLS):
        col, row = cell % SIZE, cell // SIZE
        x, y = coords_of(cell)
        cells.append(
            Cell(
                id=cell,
                kind="sea",
                x=col + 0.5 * (row & 1),
                y=row * height,
                neighbours=tuple(int(n) for n in NEIGHBOUR[cell] if n >= 0),
                label=f"{x},{y}",
            )
        )
    return Board(tuple(cells), "hex", {"sea": "#8ecae6"})
