"""The Pirateer board data against the counts and facts of boards.md section 1."""

import numpy as np

from simulator.games.pirateer import board as B


def test_counts_of_the_reference():
    water = B._water()
    assert len(water) == 234  # strait half-cells counted separately
    assert B.N_CELLS == 232  # once the four half-cells merge into two spaces
    assert int(B.IS_WIND.sum()) == 20
    assert int(B.IS_STRAIT.sum()) == 2
    assert int(B.IS_ANCHORAGE.sum()) == 8
    assert len(set(B.ANCHOR.tolist())) == 4
    assert all((x, y) not in B.INDEX for x, y in B.ISLAND)


def test_trade_winds_are_the_two_diagonals():
    sums = sorted(x + y for x, y in (B.CELLS[c] for c in np.flatnonzero(B.IS_WIND)))
    assert sums == [15] * 10 + [23] * 10


def test_anchorages_surround_skull_island():
    for c in np.flatnonzero(B.IS_ANCHORAGE):
        x, y = B.CELLS[c]
        assert any(abs(x - ix) + abs(y - iy) == 1 for ix, iy in B.ISLAND)


def test_strait_pairing_is_a_cylinder():
    s1, s2 = B.INDEX[(3, 4)], B.INDEX[(4, 3)]
    assert B.INDEX[(15, 16)] == s1 and B.INDEX[(16, 15)] == s2
    nb = {c: {B.CELLS[t] for t in B.STEP[c, :4] if t >= 0} for c in (s1, s2)}
    assert nb[s1] == {(4, 4), (3, 5), (14, 16), (15, 15)}
    assert nb[s2] == {(4, 4), (5, 3), (15, 15), (16, 14)}
    # the straight line of boards.md: (5,4) -x: (4,4), S1, (14,16), (13,16)
    c, line = B.INDEX[(5, 4)], []
    for _ in range(4):
        c = B.STEP[c, B.MX]
        line.append(B.CELLS[c])
    assert line == [(4, 4), (3, 4), (14, 16), (13, 16)]


def test_one_connected_sea_and_d2_symmetry():
    assert (B.DIST >= 0).all()
    water = set(B._water())
    assert {(y, x) for x, y in water} == water
    assert {(19 - x, 19 - y) for x, y in water} == water


def test_harbours_anchor_and_start_squares():
    assert [B.CELLS[c] for c in B.ANCHOR] == [(0, 9), (9, 0), (19, 10), (10, 19)]
    assert [B.CELLS[c] for c in B.START[0, 0]] == [(0, 10), (0, 11), (0, 12)]
    assert [B.CELLS[c] for c in B.START[1, 2]] == [(19, 10), (19, 9), (19, 8)]
    for a in B.ANCHOR:  # the anchor is the dead end of its harbour
        assert int((B.STEP[a, :4] >= 0).sum()) == 1


def test_treasure_ship_directions():
    # top-left may not go +x; a wind diagonal is allowed only toward the port
    assert not B.ALLOWED[0, B.PX] and B.ALLOWED[0, B.MX] and B.ALLOWED[0, B.PY]
    assert B.ALLOWED[0, B.DIAG_MX] and not B.ALLOWED[0, B.DIAG_PX]
    assert not B.ALLOWED[1, B.PY] and B.ALLOWED[1, B.DIAG_PX]
    assert not B.ALLOWED[2, B.MX] and B.ALLOWED[2, B.DIAG_PX]
    assert not B.ALLOWED[3, B.MY] and B.ALLOWED[3, B.DIAG_MX]
    # every anchor is reachable by its treasure ship from the anchorages
    for k in range(4):
        assert (B.HOME[1, k, B.ANCHORAGE_CELLS] < 999).all()


def test_diagonals_only_inside_the_winds():
    for c in range(B.N_CELLS):
        for d in (B.DIAG_PX, B.DIAG_MX):
            t = B.STEP[c, d]
            if t >= 0:
                assert B.IS_WIND[c] and B.IS_WIND[t]
