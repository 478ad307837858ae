"""The reconstructed Trivio 1000 board against the seed's worked examples; movement rules."""

import math
from collections import Counter

import pytest

from simulator.games.pedruscos.board import (
    ASTEROID,
    MOON,
    PLANET,
    STATION,
    build_board,
    move_ends,
)
from simulator.games.pedruscos.rules import Rules

B = build_board(*Rules().board_key())
RED, YELLOW, BLUE = 0, 1, 2


def colours(seq):
    return Counter(seq)


def routes(s, end=None):
    return [rt for rt in B.routes_of(s) if end is None or rt[0] == end]


def test_cells_and_kinds():
    kinds = Counter(B.kind_name(c) for c in range(B.n_cells))
    assert kinds["planet"] == 1 and kinds["station"] == 6 and kinds["moon"] == 3
    assert {"asteroid_red", "asteroid_yellow", "asteroid_blue"} <= set(kinds)
    assert [int(B.station[c]) for c in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    for c in range(B.n_cells):  # an undirected graph
        for n in B.neighbours[c]:
            assert c in B.neighbours[n]


def test_stations_1_and_2_have_an_upper_route_and_a_shortest_of_six_two_of_each_colour():
    # "obtener un ocho y optar por la ruta más corta de la estación nº2 a la nº1, solo
    # recolectaría dos cartas de cada color"
    rts = routes(2, 1)
    direct = [rt for rt in rts if PLANET not in rt[2] and all(B.kind[c] == ASTEROID for c in rt[2])]
    shortest = min(direct, key=lambda rt: len(rt[2]))
    assert len(shortest[2]) == 6
    assert colours(shortest[1][:8]) == {RED: 2, YELLOW: 2, BLUE: 2}
    # "la ruta superior": another direct route between them, drawn above the shortest one
    others = [rt for rt in rts if rt is not shortest and not _via_planet(rt)]
    assert others
    upper = max(others, key=lambda rt: max(B.y[c] for c in rt[2]))
    mean_y = [sum(B.y[c] for c in rt[2]) / len(rt[2]) for rt in (upper, shortest)]
    assert mean_y[0] > mean_y[1] + 0.3
    # "suele ser mejor optar por el camino más largo": the upper route gives more cards
    assert len(upper[1]) > len(shortest[1]) and all(c >= 0 for c in upper[1])


def _via_planet(rt):
    # a route whose squares include both ends of the planet's spokes
    return any(PLANET in B.neighbours[c] for c in rt[2])


def test_a_route_from_station_2_passes_beside_the_planet_to_station_6():
    # "la que pasa junto al Planeta del Espacio y le lleva hacia la estación nº6": beside it
    # (within half the stations' distance of it), not through it
    beside = [rt for rt in routes(2, 6) if not _via_planet(rt)]
    assert beside
    assert min(math.hypot(B.x[c], B.y[c]) for c in beside[0][2]) < 0.6
    assert not any(_via_planet(rt) for s in range(1, 7) for rt in routes(s))  # none through it


def test_branches_at_1_and_2_coordinate_by_the_upper_and_the_shortest_route_only():
    # "tendrá que recolectar las cartas de la ruta superior ... o por el camino más corto también
    # hacia la estación nº1": from 2 the routes to 1 are those two
    assert len(routes(2, 1)) == 2
    # through the planet (the other reading) a third route joins them, spoke to spoke, 8 cards
    t = build_board(*Rules().with_values({"planet_routes": "through"}).board_key())
    via = [rt for rt in t.routes_of(2) if rt[0] == 1 and any(0 in t.neighbours[c] for c in rt[2])]
    assert len(via) == 1 and len(via[0][2]) == 8


def test_another_station_joined_by_a_route_is_not_every_station():
    # "otra estación que se conecte con la primera por una de las rutas": opposite stations are
    # not joined (through the planet, every pair would be)
    joined = {(s, e) for s in range(1, 7) for e, _, _ in routes(s)}
    assert (1, 4) not in joined and (2, 5) not in joined and (3, 6) not in joined
    assert (2, 6) in joined and (5, 6) in joined and (1, 2) in joined
    t = build_board(*Rules().with_values({"planet_routes": "through"}).board_key())
    every = {(s, e) for s in range(1, 7) for e, _, _ in t.routes_of(s)}
    assert len(every) == 30


def test_stations_5_and_6_are_joined():
    assert routes(5, 6) and routes(6, 5)


def test_from_station_1_a_route_starts_two_red_one_yellow_one_blue():
    # "las cuatro casillas más cercanas... dos rojas, una amarilla y una azul"
    assert any(colours(rt[1][:4]) == {RED: 2, YELLOW: 1, BLUE: 1} for rt in routes(1))


def test_every_station_has_several_routes_and_moons_lie_toward_the_edge():
    for s in range(1, 7):
        assert len({tuple(rt[2]) for rt in routes(s)}) >= 3
    r_station = max(math.hypot(B.x[s], B.y[s]) for s in range(1, 7))
    for m in range(B.n_cells):
        if B.kind[m] == MOON:
            assert math.hypot(B.x[m], B.y[m]) > r_station


def test_a_harvest_never_goes_past_the_next_station():
    for s in range(1, 7):
        for _end, _cols, cells in routes(s):
            assert all(B.kind[c] not in (STATION, PLANET) for c in cells)


def test_the_free_numbers_change_the_board():
    b = build_board(5, 3, 9, "blue-red-yellow", "counts")
    shortest = min(
        len(rt[2]) for rt in b.routes_of(1) if not any(0 in b.neighbours[c] for c in rt[2])
    )
    assert shortest == 3
    spoke = [c for c in b.neighbours[0]]
    assert len(spoke) == 6 and all(b.colour[c] == BLUE for c in spoke)
    # a counted moon is a square of the route that gives no card
    assert any(-1 in cols for _e, cols, _c in b.routes_of(1))


# -- movement -------------------------------------------------------------------------------------
def walk_ok(path, die):
    """A legal move given as the squares entered: no square twice, exact pips, planet free."""
    cells = [c for c in path]
    assert len(set(cells)) == len(cells)
    pips = sum(1 for c in cells[1:-1] if B.kind[c] != PLANET) + 1
    end = cells[-1]
    if B.kind[end] in (PLANET, MOON):
        return pips <= die
    return pips == die


def spoke_of(s):
    """Cells from the planet's neighbour out to station s."""
    path = []
    prev, cur = 0, next(c for c in B.neighbours[0] if _leads_to(c, 0, s))
    while cur != s:
        path.append(cur)
        prev, cur = cur, next(n for n in B.neighbours[cur] if n != prev)
    return path


def _leads_to(c, prev, s):
    while B.kind[c] == ASTEROID:
        prev, c = c, next(n for n in B.neighbours[c] if n != prev)
    return c == s


def test_exact_pips_from_the_planet():
    first = set(B.neighbours[0])
    assert set(B.ends(0, 1)) == first
    assert set(B.ends(0, 5)) == set(range(1, 7))  # 4 asteroids, then the station


def test_the_planet_is_skipped_when_passed_and_a_voluntary_stop():
    sp1 = spoke_of(1)  # planet-side first
    # from station 1 with 5: 4 spoke squares, then the planet (a stop with one pip to spare)
    # or across it to the first square of any other spoke: the planet is not a square
    ends = set(B.ends(1, 5))
    assert 0 in ends
    for s in range(2, 7):
        assert spoke_of(s)[0] in ends
    assert sp1[0] not in ends
    # with 6 the planet is still a stop (pips left over), and the second square of other spokes
    ends6 = set(B.ends(1, 6))
    assert 0 in ends6 and all(spoke_of(s)[1] in ends6 for s in range(2, 7))
    # with 4 the ship reaches the square next to the planet but cannot stop on the planet
    assert 0 not in set(B.ends(1, 4)) and sp1[0] in set(B.ends(1, 4))


def test_moons_are_voluntary_stops_and_other_squares_are_not():
    moon = next(c for c in range(B.n_cells) if B.kind[c] == MOON)
    # the moon is 5 squares from stations 1 and 2 along its arc: reachable with 5 or 6
    for d in (5, 6):
        assert moon in B.ends(1, d)
    assert moon not in B.ends(1, 4)
    # an asteroid 3 squares away is never an end with 4
    assert spoke_of(1)[1] not in B.ends(1, 4)


@pytest.mark.parametrize("start", [0, 1, 7, 20, 40, 60, 85])
@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_every_end_has_a_legal_path_and_no_revisit(start, die):
    # brute force every walk of at most die+1 entered squares and compare with the table
    found = set()

    def rec(path):
        if len(path) > 1 and walk_ok(path, die):
            found.add(path[-1])
        used = sum(1 for c in path[1:] if B.kind[c] != PLANET)
        if used >= die:
            return
        for n in B.neighbours[path[-1]]:
            if n not in path:
                rec(path + [n])

    rec([start])
    # a path that ends on the planet must stop with a pip to spare or exactly
    assert (
        found
        == set(B.ends(start, die))
        == move_ends(B.kind, [list(n) for n in B.neighbours], start, die)
    )
    assert start not in found


def test_the_drawing_numbers_the_stations_and_no_circles_overlap():
    import numpy as np

    from simulator.contract.boards import _spacing, node_radii
    from simulator.games.pedruscos.spec import board

    cells = board(Rules())
    assert [c.tag for c in cells.cells if c.kind == "station"] == ["1", "2", "3", "4", "5", "6"]
    radii = node_radii(cells, _spacing(cells))
    xy = np.array([(c.x, c.y) for c in cells.cells])
    for i in range(len(xy)):
        for j in range(i + 1, len(xy)):
            assert np.hypot(*(xy[i] - xy[j])) > radii[i] + radii[j]
