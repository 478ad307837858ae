"""Pedruscos del Espacio's search player (`mcts`): legal, reproducible games; a search that reads
only what the table shows; and a clear answer found on a hand-made position."""

import dataclasses
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from policies.pedruscos import MCTS, POLICIES
from simulator.pedruscos import forward as F
from simulator.pedruscos import state as S
from simulator.pedruscos.board import MOON, build_board
from simulator.pedruscos.engine import play_chunk, play_one
from simulator.pedruscos.rules import Rules, engine_rules
from simulator.policy import engine_arrays, seat_policies
from simulator.search import tally_for

ROOT = Path(__file__).resolve().parents[1]
CHEAP = "mcts:playouts=8"
BOARD = build_board(*Rules().board_key())


def seats(names):
    return engine_arrays(seat_policies(list(names), POLICIES, "pedruscos", len(names)))


def mcts_row(text=CHEAP):
    return seats([text])[1][0]


@pytest.mark.parametrize(
    "names",
    [
        (CHEAP, "lookahead"),
        ("lookahead", CHEAP),
        ("hauler", CHEAP, "builder"),
        (CHEAP, CHEAP),
    ],
)
def test_search_player_plays_legal_whole_games(names):
    """Every invariant holds after every turn, whichever seat searches."""
    ids, prm = seats(names)
    rules = dataclasses.replace(Rules(), target_points=30)
    for seed in (1, 2):
        out = play_one(rules, len(names), ids, prm, seed)
        assert out["problems"] == 0
        assert out["end_reason"] == S.END_TARGET
        assert 0 <= out["winner"] < len(names)


def test_search_player_is_deterministic_from_the_seed():
    ids, prm = seats((CHEAP, "lookahead"))
    rules = dataclasses.replace(Rules(), target_points=25)
    seeds = np.arange(40, 44)
    tally = np.zeros(2, dtype=np.int64)
    a = play_chunk(rules, 2, ids, prm, seeds, tally=tally)
    b = play_chunk(rules, 2, ids, prm, seeds)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    alone = play_chunk(rules, 2, ids, prm, seeds[2:3])
    assert alone["winner"][0] == a["winner"][2] and alone["length"][0] == a["length"][2]
    assert tally[0] > 0 and tally[1] >= tally[0] // 8  # simulations, and the rounds they played


def test_runs_without_the_search_pass_no_tally():
    assert tally_for(seats(("lookahead", "hauler"))[0], MCTS) is None
    assert tally_for(seats((CHEAP, "hauler"))[0], MCTS).shape == (2,)


@pytest.mark.slow
def test_compiled_equals_interpreted(tmp_path):
    """A short game with a searching seat under NUMBA_DISABLE_JIT=1 gives the same columns."""
    code = (
        "import dataclasses, pickle, numpy as np\n"
        "from tests.test_pedruscos_mcts import seats\n"
        "from simulator.pedruscos.engine import play_chunk\n"
        "from simulator.pedruscos.rules import Rules\n"
        "ids, prm = seats(('mcts:playouts=3', 'hauler'))\n"
        "rules = dataclasses.replace(Rules(), target_points=8)\n"
        "cols = play_chunk(rules, 2, ids, prm, np.array([5, 6]))\n"
        "pickle.dump(cols, open(__import__('sys').argv[1], 'wb'))\n"
    )
    out = tmp_path / "cols.pkl"
    runs = {}
    for jit in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": jit, "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env, cwd=ROOT,
                       timeout=900)  # fmt: skip
        runs[jit] = pickle.loads(out.read_bytes())
    for name, values in runs["1"].items():
        assert np.array_equal(runs["0"][name], values), name


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
