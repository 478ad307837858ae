"""Pedruscos del Espacio's search player (`mcts`): a search that reads only what the table shows,
and a clear answer found on a hand-made position (legal and reproducible games, compiled equal to
interpreted: the contract test, tests/test_game_contract.py)."""

import dataclasses

import numpy as np

from policies.pedruscos import MCTS, POLICIES
from simulator.pedruscos import forward as F
from simulator.pedruscos import state as S
from simulator.pedruscos.board import MOON, build_board
from simulator.pedruscos.engine import play_chunk
from simulator.pedruscos.rules import Rules, engine_rules
from simulator.policy import engine_arrays, seat_policies
from simulator.search import tally_for

CHEAP = "mcts:playouts=8"
BOARD = build_board(*Rules().board_key())


def seats(names):
    return engine_arrays(seat_policies(list(names), POLICIES, "pedruscos", len(names)))


def mcts_row(text=CHEAP):
    return seats([text])[1][0]


def test_the_tally_counts_simulations_and_the_rounds_they_play():
    ids, prm = seats((CHEAP, "lookahead"))
    rules = dataclasses.replace(Rules(), target_points=25)
    tally = np.zeros(2, dtype=np.int64)
    play_chunk(rules, 2, ids, prm, np.arange(40, 42), tally=tally)
    assert tally[0] > 0 and tally[1] >= tally[0] // 8  # simulations, and the rounds they played


def test_runs_without_the_search_pass_no_tally():
    assert tally_for(seats(("lookahead", "hauler"))[0], MCTS) is None
    assert tally_for(seats((CHEAP, "hauler"))[0], MCTS).shape == (2,)


# -- hand-made positions --------------------------------------------------------------------------
def position(n_players=2, points=(0, 0), values=(1, 1, 1)):
    r = engine_rules(Rules())
    pos = S.new_state(n_players, BOARD.n_cells)
    for c in range(3):
        pos.g[S.G_DECK + c] = Rules().deck_size
        pos.g[S.G_VALUE + c] = values[c]
    pos.g[S.G_ROUND] = 5
    pos.g[S.G_TURN] = 5 * n_players
    for p, pts in enumerate(points):
        pos.pl[p, S.P_POINTS] = pts
    return r, BOARD.arrays, pos


def cards(pos, p, red=0, yellow=0, blue=0):
    for c, n in enumerate((red, yellow, blue)):
        pos.pl[p, S.P_CARDS + c] = n
        pos.g[S.G_DECK + c] -= n


def moon_roll():
    """A square and a die that reach a moon among a few other squares."""
    b = BOARD.arrays
    found = []
    for cell in range(BOARD.n_cells):
        if b.kind[cell] == MOON:
            continue
        for die in range(1, 7):
            ends = b.reach[b.reach_ptr[cell * 7 + die] : b.reach_ptr[cell * 7 + die + 1]]
            moons = [e for e in ends if b.kind[e] == MOON]
            if moons and len(ends) >= 4:
                found.append((len(ends), cell, die, int(moons[0])))
    assert found, "no square reaches a moon"
    return min(found)[1:]


def search(prm, pos, p, die, seed):
    r, b = engine_rules(Rules()), BOARD.arrays
    keys = np.zeros(2 * BOARD.n_cells, dtype=np.int64)
    n = F.landing_options(r, b, pos, p, die, keys)
    stats = np.zeros((n, 2))
    S.seed_rng(seed)
    key = F.search_landing(r, b, prm, pos, p, die, stats)
    return key, stats, keys[:n]


def test_search_ships_the_winning_cargo():
    """45 points, a cargo worth 10 and a moon in reach: shipping wins at once, and anything else
    loses, since the opponent sits beside a moon with a winning cargo (a moon is a voluntary
    stop, so any die takes it there). With a random guide the search has to find the shipment
    among the other squares and the moon without shipping (no bias toward the guide, every
    option in reach of the tree)."""
    start, die, moon = moon_roll()
    r, b, pos = position(points=(45, 45), values=(2, 2, 2))
    cards(pos, 0, red=3, yellow=2)
    cards(pos, 1, red=5)
    pos.pl[0, S.P_POS] = start
    pos.pl[1, S.P_POS] = BOARD.neighbours[moon][0]
    before = [a.copy() for a in pos]
    prm = mcts_row("mcts:playouts=200,guide=random,bias=0,widen=1")
    key, stats, keys = search(prm, pos, 0, die, seed=3)
    assert key == 2 * moon + 1
    assert 2 * moon in keys  # landing there without shipping was an option too
    assert all(np.array_equal(x, y) for x, y in zip(before, pos, strict=True))  # root untouched
    won = list(keys).index(key)
    assert stats[won, 1] > np.delete(stats[:, 1], won).max()


def test_search_reads_only_what_the_table_shows():
    """Nothing in Pedruscos is hidden but the dice: every hold shows its colours, and a deck is
    only a count of alike cards. What no rule reads (which cards aboard came from harvests, the
    statistics columns, the replay's notes) is scrambled: the search, from the same seed, gives
    the same answer and the same statistics for every option."""
    start, die, _ = moon_roll()
    rng = np.random.default_rng(7)
    for trial in range(3):
        r, b, pos = position(points=(12, 20), values=(1, 2, 3))
        cards(pos, 0, red=2, yellow=1, blue=2)
        cards(pos, 1, red=1, blue=3)
        pos.pl[0, S.P_POS] = start
        pos.pl[1, S.P_POS] = 3
        pos.br[1, 2] = 1
        prm = mcts_row("mcts:playouts=60")
        key, stats, keys = search(prm, pos, 0, die, seed=trial)
        for p in range(2):
            for c in range(3):
                pos.pl[p, S.P_HCARDS + c] = rng.integers(0, pos.pl[p, S.P_CARDS + c] + 1)
            for f in (S.P_SHIPMENTS, S.P_PIRATE_LOST, S.P_HARVEST_POINTS, S.P_HARVEST_CARDS,
                      S.P_SHIPPED_VALUE, S.P_LOST_TURNS):  # fmt: skip
                pos.pl[p, f] = rng.integers(0, 50)
        pos.g[S.G_EVENTS : S.G_EVENTS + 8] = rng.integers(0, 9, 8)
        pos.g[S.G_HARVEST_ROLL : S.G_HARVEST_COORD + 1] = rng.integers(0, 5, 3)
        key2, stats2, keys2 = search(prm, pos, 0, die, seed=trial)
        assert key2 == key
        assert np.array_equal(keys2, keys)
        assert np.array_equal(stats2, stats)


def test_search_simulations_draw_their_own_dice():
    """The answer's statistics come from the dice the simulations draw (another seed, other
    simulations), not from anything stored in the position."""
    start, die, _ = moon_roll()
    r, b, pos = position(points=(12, 20))
    cards(pos, 0, red=2, yellow=1)
    pos.pl[0, S.P_POS] = start
    prm = mcts_row("mcts:playouts=40")
    _, a, _ = search(prm, pos, 0, die, seed=1)
    _, c, _ = search(prm, pos, 0, die, seed=2)
    assert a[:, 0].sum() == c[:, 0].sum() == 40
    assert not np.array_equal(a, c)


def test_mcts_id_is_the_registered_one():
    assert POLICIES["mcts"].id == MCTS
