"""Caza-Tesoros board: coordinates, side numbering, sailing limits and storm deviation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.caza_tesoros.board import (
    CELLS,
    NEIGHBOUR,
    cell_of,
    closest_reachable,
    coords_of,
    end_of_path,
    hex_distance,
    path_is_legal,
    roll_cell,
    sail_toward,
    step_in_line,
)
from simulator.games.caza_tesoros.engine import deviation_roll, seed_rng
from simulator.games.caza_tesoros.state import new_state


def test_board_is_18_by_18_and_coordinates_round_trip():
    assert CELLS == 18 * 18
    assert cell_of(1, 1) == 0 and cell_of(18, 18) == CELLS - 1
    assert coords_of(cell_of(11, 7)) == (11, 7)  # the seed's example start "posición 11, 7"
    with pytest.raises(ValueError):
        cell_of(19, 1)


def test_sides_are_numbered_from_upper_right_clockwise():
    # Pointy-topped hexes, even printed rows pushed right. From (10, 5) (odd printed row):
    here = cell_of(10, 5)
    expected = [(10, 4), (11, 5), (10, 6), (9, 6), (9, 5), (9, 4)]  # sides 1..6
    assert [coords_of(int(NEIGHBOUR[here, d])) for d in range(6)] == expected
    # From a pushed row the upper neighbours lie one column further right.
    here = cell_of(10, 6)
    assert coords_of(int(NEIGHBOUR[here, 0])) == (11, 5)
    assert coords_of(int(NEIGHBOUR[here, 5])) == (10, 5)


def test_neighbours_are_at_distance_one_and_mutual():
    for cell in range(CELLS):
        for d in range(6):
            nb = NEIGHBOUR[cell, d]
            if nb >= 0:
                assert hex_distance(cell, nb) == 1
                assert NEIGHBOUR[nb, (d + 3) % 6] == cell
    # corners have fewer neighbours; an inner hex has six
    assert (NEIGHBOUR[cell_of(1, 1)] >= 0).sum() == 2
    assert (NEIGHBOUR[cell_of(9, 9)] >= 0).sum() == 6


def test_three_d6_placement_stays_within_3_to_18():
    g = new_state(1, 1, 1).g
    seed_rng(g, 5)
    xs, ys = [], []
    for _ in range(3000):
        x, y = coords_of(int(roll_cell(g)))
        xs.append(x)
        ys.append(y)
    assert min(xs) >= 3 and max(xs) <= 18 and min(ys) >= 3 and max(ys) <= 18
    # 3D6 peaks at 10.5: the middle columns are far more common than the edge ones
    assert xs.count(10) + xs.count(11) > 10 * (xs.count(3) + xs.count(18))


def _dirs(*sides):
    return np.array([s - 1 for s in sides] + [0] * 8, dtype=np.int64)


def test_fourth_step_in_a_line_must_turn():
    # "El barco azul dispone de 4 puntos de movimiento y deberá mover 3 en linea recta pero el
    # cuarto ... deberá girar"
    start = cell_of(5, 9)
    assert path_is_legal(start, _dirs(2, 2, 2), 3, 4, 3)
    assert not path_is_legal(start, _dirs(2, 2, 2, 2), 4, 4, 3)
    assert path_is_legal(start, _dirs(2, 2, 2, 1), 4, 4, 3)
    assert path_is_legal(start, _dirs(2, 2, 2, 3), 4, 4, 3)
    # the run starts again after a turn
    assert path_is_legal(start, _dirs(2, 2, 2, 3, 2, 2, 2), 7, 7, 3)


def test_path_limits_points_and_board():
    start = cell_of(2, 9)
    assert not path_is_legal(start, _dirs(2, 2), 2, 1, 3)  # more steps than points
    assert not path_is_legal(start, _dirs(5, 5), 2, 2, 3)  # off the left edge


def test_four_hexes_straight_ahead_need_five_points():
    start, target = cell_of(5, 9), cell_of(9, 9)
    assert hex_distance(start, target) == 4
    dirs = np.zeros(64, dtype=np.int64)
    n = sail_toward(start, target, 4, 3, dirs)
    assert path_is_legal(start, dirs, n, 4, 3)
    assert hex_distance(end_of_path(start, dirs, n), target) == 1
    n = sail_toward(start, target, 5, 3, dirs)
    assert end_of_path(start, dirs, n) == target and n == 5


@settings(max_examples=300, deadline=None)
@given(
    start=st.integers(0, CELLS - 1),
    target=st.integers(0, CELLS - 1),
    points=st.integers(0, 10),
    max_straight=st.integers(1, 4),
)
def test_sailing_is_legal_and_gets_as_close_as_any_legal_path(start, target, points, max_straight):
    dirs = np.zeros(64, dtype=np.int64)
    n = sail_toward(start, target, points, max_straight, dirs)
    assert path_is_legal(start, dirs, n, points, max_straight)
    reached = end_of_path(start, dirs, n)
    assert hex_distance(reached, target) == closest_reachable(start, target, points, max_straight)


def test_storm_deviation_example_and_board_edge():
    # "con el resultado más alto obtuvo un 4, indica hacia donde se va a desviar y con el segundo
    # un 3": three hexes towards side 4 (lower left).
    start = cell_of(10, 5)
    assert coords_of(int(step_in_line(start, 3, 3, True))) == (8, 8)
    # At the edge: 'stop' ends on the last hex of the board, 'stay' cancels the deviation.
    edge = cell_of(2, 9)
    assert coords_of(int(step_in_line(edge, 4, 5, True))) == (1, 9)
    assert step_in_line(edge, 4, 5, False) == edge


def test_deviation_roll_higher_die_is_the_side():
    g = new_state(1, 1, 1).g
    seed_rng(g, 11)
    counts = np.zeros((7, 7))
    n = 36_000
    for _ in range(n):
        side, distance = deviation_roll(g)
        counts[side, distance] += 1
    # exact: P(side d, distance k) = 2/36 for k < d, 1/36 for k == d, 0 for k > d
    for d in range(1, 7):
        for k in range(1, 7):
            expected = 2 / 36 if k < d else (1 / 36 if k == d else 0.0)
            assert abs(counts[d, k] / n - expected) < 0.006
