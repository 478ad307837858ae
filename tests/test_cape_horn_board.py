"""Cape Horn data files: the counts the sources confirm and the reconstruction's own promises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.contract.errors import BalanceError
from simulator.games.cape_horn import board as BD
from simulator.games.cape_horn.rules import Rules

DATA = BD.load()
ARR = BD.arrays()


def test_ninety_wind_cards_of_eight_designs() -> None:
    counts = dict(zip(DATA.card_names, DATA.card_counts, strict=True))
    in_deck = [n for n, k in counts.items() if k > 0]
    assert sum(DATA.card_counts) == 90
    assert len(in_deck) == 8
    assert all(1 <= len(m) <= BD.MAX_MOVES for m in DATA.card_moves)
    # distances 1 to 3 spaces (a diagonal step of 2 counts as 2)
    for moves in DATA.card_moves:
        assert all(1 <= max(abs(a), abs(b)) <= 3 for a, b in moves)
    assert Rules().card_counts == DATA.card_counts


def test_nine_stations_three_per_zone_one_of_each_colour() -> None:
    assert len(DATA.stations) == 9
    for z in range(3):
        colours = sorted(s[1] for s in DATA.stations if s[0] == z)
        assert colours == [0, 1, 2]


def test_station_areas_follow_the_seed() -> None:
    # "la estación náutica amarilla para la zona I se encuentra en la segunda área (azul) al igual
    # que todas las estaciones náuticas para la zona II. Todas ... de la zona III ... tercera área"
    area = {(z, colour): BD.char_at(DATA, c, r) for z, colour, c, r in DATA.stations}
    assert area[(0, BD.COLOURS.index("yellow"))] == "2"
    assert area[(0, 1)] == "1" and area[(0, 2)] == "1"
    assert all(area[(1, k)] == "2" for k in range(3))
    assert all(area[(2, k)] == "3" for k in range(3))


def test_area_sizes_and_start_spaces() -> None:
    # the board map draws areas (card orientation), sized as the reference gives its zones (an
    # assumption: "aunque las zonas y áreas son similares, no son exactamente iguales"); a zone
    # exists in the data only as the zone of each station (stations.csv)
    chars = "".join(DATA.chars)
    assert chars.count("1") == 35 and chars.count("2") == 36 and chars.count("3") == 35
    assert chars.count("S") == 5 and chars.count("F") == 5
    assert len(DATA.starts) == 5
    # start space 1 is the top-right one, then 2, 3 ... westward
    cols = [s[1] for s in DATA.starts]
    assert cols == sorted(cols, reverse=True)


def test_a_design_with_five_options_holds_the_worked_example() -> None:
    # "mueve su nave dos espacios en diagonal a esta carta de viento recién colocada, eligiendo la
    # dirección diagonalmente correcta entre las cinco opciones de la carta"
    five = [n for n, m in zip(DATA.card_names, DATA.card_moves, strict=True) if len(m) == 5]
    assert five and all(DATA.card_counts[DATA.card_names.index(n)] > 0 for n in five)
    d = DATA.design(five[0])
    ship = DATA.cell(10, 0)
    landings = {int(ARR.target[ship, d, k]) for k in range(5)}
    # two spaces diagonally forward (area 1: south), to the left and to the right
    assert {DATA.cell(8, 2), DATA.cell(12, 2)} <= landings


def test_orientation_by_area() -> None:
    f1 = DATA.design("start_F1")  # one space forward
    east, south, west = DATA.cell(10, 2), DATA.cell(6, 7), DATA.cell(2, 2)
    assert ARR.target[east, f1, 0] == DATA.cell(10, 3)  # area 1: forward is south
    assert ARR.target[south, f1, 0] == DATA.cell(5, 7)  # area 2: forward is west
    assert ARR.target[west, f1, 0] == DATA.cell(2, 1)  # area 3: forward is north
    # off the board or onto land: no target
    assert ARR.target[DATA.cell(14, 4), DATA.design("S2"), :2].tolist().count(-1) == 1
    assert ARR.target[DATA.cell(8, 2), DATA.design("S2"), :2].tolist().count(-1) == 1


def test_remaining_steps_decrease_to_zero_at_a_win() -> None:
    # with two tokens the finish row is 0 steps away; with none, a station must come first
    two = BD.token_state([0, 1, -1])
    fin = DATA.cell(2, -3)
    assert ARR.rem[two, fin] == 0.0
    assert ARR.rem[0, fin] > 0.0
    three = BD.token_state([0, 1, 2])
    assert np.all(ARR.rem[three] == 0.0)


def test_bad_card_counts_is_one_line_error() -> None:
    with pytest.raises(BalanceError):
        Rules().with_values({"card_counts": "1,2,3"})


def test_the_legend_has_a_swatch_for_each_entry_and_one_entry_per_station_colour() -> None:
    from simulator.contract.boards import _PALETTE
    from simulator.games.cape_horn.spec import board

    cells = board(Rules())
    kinds = cells.kinds()
    colour = {k: cells.colours.get(k, _PALETTE[i]) for i, k in enumerate(kinds)}
    entries = dict(cells.legend_entries(colour))
    assert "none" not in entries  # blank spaces are no entry (white on white)
    assert [e for e in entries if "station" in e] == [
        f"{c} station (I, II, III: its zone)" for c in ("yellow", "red", "green")
    ]
    assert sorted(c.tag for c in cells.cells if c.tag) == ["I"] * 3 + ["II"] * 3 + ["III"] * 3


def test_neighbours_are_mutual() -> None:
    """The planner's chain field finds its first spaces from the laid cards' neighbours, which
    holds only if every sea space lists the spaces that list it (with the same orthogonality).
    A land space lists the sea around it; no space lists land."""
    for c in range(ARR.neigh.shape[0]):
        if ARR.kind[c] in (BD.K_NONE, BD.K_LAND):
            continue
        for i in range(8):
            m = ARR.neigh[c, i]
            if m >= 0:
                back = [j for j in range(8) if ARR.neigh[m, j] == c]
                assert len(back) == 1 and ARR.orth[m, back[0]] == ARR.orth[c, i], (c, m)


FAR_TEST = 1 << 20  # the planner's FAR, checked below


def _chain_field_reference(kind, neigh, orth, ortho_only, card):
    """Breadth-first from every empty sea space touching a card, in index order, to the end."""
    n = card.shape[0]
    dist = np.full(n, FAR_TEST, np.int64)
    parent = np.full(n, -1, np.int64)
    open_ = [card[c] < 0 and kind[c] not in (BD.K_NONE, BD.K_LAND) for c in range(n)]
    queue = []
    for c in range(n):
        if open_[c] and any(
            neigh[c, i] >= 0 and card[neigh[c, i]] >= 0 and (not ortho_only or orth[c, i])
            for i in range(8)
        ):
            dist[c] = 1
            queue.append(c)
    for u in queue:  # grows while it is read
        for i in range(8):
            v = neigh[u, i]
            if v >= 0 and open_[v] and dist[v] == FAR_TEST and (not ortho_only or orth[u, i]):
                dist[v] = dist[u] + 1
                parent[v] = u
                queue.append(v)
    return dist, parent


def _cards_laid_at_sea(seed: int, laid: int):
    """(the generator, the sea spaces, ``card``): up to ``laid`` random designs on random sea
    spaces (-1 elsewhere), drawn from ``seed``; the generator goes on for the caller's draws."""
    rng = np.random.default_rng(seed)
    sea = np.flatnonzero((ARR.kind != BD.K_NONE) & (ARR.kind != BD.K_LAND))
    card = np.full(ARR.kind.shape[0], -1, np.int64)
    laid = min(laid, len(sea))
    card[rng.choice(sea, size=laid, replace=False)] = rng.integers(0, 8, laid)
    return rng, sea, card


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    laid=st.integers(1, 40),
    depth=st.integers(1, 6),
    ortho=st.booleans(),
)
def test_the_chain_field_is_a_breadth_first_search_cut_at_its_depth(seed, laid, depth, ortho):
    """Every space within ``depth`` cards gets the distance and bridge parent of a full search
    from every space; every other space is out of reach (FAR)."""
    from policies import cape_horn as PC

    assert PC.FAR == FAR_TEST
    rules = Rules().with_values({"adjacency": "orthogonal" if ortho else "diagonal"})
    _, _, card = _cards_laid_at_sea(seed, laid)
    dist = np.empty_like(card)
    parent = np.empty_like(card)
    PC.chain_field(ARR, rules.to_engine(), card, dist, parent, depth)
    want_dist, want_parent = _chain_field_reference(ARR.kind, ARR.neigh, ARR.orth, ortho, card)
    near = want_dist <= depth
    assert (dist[near] == want_dist[near]).all() and (parent[near] == want_parent[near]).all()
    assert (dist[~near] == FAR_TEST).all()


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    laid=st.integers(1, 40),
    depth=st.integers(1, 6),
    ortho=st.booleans(),
    n_wanted=st.integers(0, 5),
)
def test_a_chain_field_stopped_at_its_wanted_spaces_agrees_where_the_search_reads_it(
    seed, laid, depth, ortho, n_wanted
):
    """The field the planner's search makes, stopped once its wanted (empty) spaces are found,
    has the full field's distance at every wanted space and its parents along each wanted
    space's chain."""
    from policies import cape_horn as PC

    rules = Rules().with_values({"adjacency": "orthogonal" if ortho else "diagonal"})
    r = rules.to_engine()
    rng, sea, card = _cards_laid_at_sea(seed, laid)
    full_dist = np.empty_like(card)
    full_parent = np.empty_like(card)
    PC.chain_field(ARR, r, card, full_dist, full_parent, depth)
    empty = sea[card[sea] < 0]
    wanted = rng.choice(empty, size=n_wanted, replace=True).astype(np.int64)
    dist = np.empty_like(card)
    parent = np.empty_like(card)
    queue = np.empty_like(card)
    PC.chain_field_within(ARR, r, card, dist, parent, depth, queue, wanted, n_wanted)
    for t in wanted:
        assert dist[t] == full_dist[t]
        u, steps = t, 0
        while full_dist[t] <= depth and steps < full_dist[t] - 1:
            assert parent[u] == full_parent[u]
            u, steps = parent[u], steps + 1


def test_a_cards_promise_from_the_board_table_is_the_one_its_moves_give():
    """``next_low`` holds the fewest steps left among a card's landing spaces, so the planner's
    ``potential_of`` equals ``potential``, which walks the moves, at every token state, space
    and design (a card whose moves all leave the board included)."""
    from policies import cape_horn as PC

    assert (ARR.next_low == -1.0).any()  # cards whose every move leaves the board
    for s in range(0, BD.N_TOKEN_STATES, 3):
        for c in range(ARR.kind.shape[0]):
            for d in range(ARR.n_moves.shape[0]):
                want = PC.potential(ARR.rem, ARR.target, ARR.n_moves, s, c, d)
                assert PC.potential_of(ARR.rem, ARR.next_low, s, c, d) == want, (s, c, d)
