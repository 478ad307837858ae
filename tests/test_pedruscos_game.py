"""Whole Pedruscos games: invariants under random play and rules, determinism, event statistics."""

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from policies.pedruscos import POLICIES
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import build_board
from simulator.games.pedruscos.engine import play_chunk, play_one
from simulator.games.pedruscos.rules import Rules

NAMES = ("random", "hauler", "builder", "lookahead")


def seats(names):
    return engine_arrays(seat_policies(list(names), POLICIES, "pedruscos", len(names)))


rule_values = st.fixed_dictionaries(
    {},
    optional={
        "target_points": st.integers(1, 80),
        "max_rounds": st.integers(1, 200),
        "spoke_length": st.integers(1, 6),
        "ring_length": st.integers(1, 8),
        "arc_length": st.integers(1, 9),
        "hold_limit": st.integers(1, 12),
        "deck_size": st.integers(1, 30),
        "empty_deck": st.sampled_from(("no_card", "endless")),
        "shipping_cost": st.integers(0, 5),
        "must_exceed_cost": st.booleans(),
        "branch_cost": st.integers(0, 8),
        "harvest_dice": st.integers(1, 3),
        "coordinated_dice": st.integers(1, 4),
        "route_choice": st.sampled_from(("after_roll", "before_roll")),
        "moon_in_harvest": st.sampled_from(("skip", "counts")),
        "repairs": st.sampled_from(("travel", "teleport")),
        "pirates_odd": st.sampled_from(("half_down", "half_up")),
        "discards_to_deck": st.booleans(),
        "purity_cards": st.integers(0, 4),
        "event_table": st.lists(st.integers(0, 7), min_size=11, max_size=11).map(tuple),
    },
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    values=rule_values,
    names=st.lists(st.sampled_from(NAMES), min_size=2, max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_invariants_hold_after_every_turn(values, names, seed):
    rules = dataclasses.replace(Rules(), **values)
    n = len(names)
    ids, prm = seats(names)
    out = play_one(rules, n, ids, prm, seed)
    assert out["problems"] == 0
    pl, g = out["pl"], out["g"]
    turns = int(g[S.G_TURN])
    assert out["turn_ends"].sum() == turns
    assert (n * (out["length"] - 1) < turns <= n * out["length"]) or turns == 0
    if out["end_reason"] == S.END_TARGET:
        w = out["winner"]
        assert pl[w, S.P_POINTS] >= rules.target_points
        assert all(pl[q, S.P_POINTS] < rules.target_points for q in range(n) if q != w)
    else:
        assert out["length"] == rules.max_rounds and out["winner"] == -1
    # points only come from shipments: shipped value minus costs, minus branches paid
    for q in range(n):
        paid = pl[q, S.P_BRANCHES] * rules.branch_cost
        ships = pl[q, S.P_SHIPMENTS]
        gross = pl[q, S.P_SHIPPED_VALUE]
        most = gross - ships * min(rules.shipping_cost, rules.hauler_cost) - paid
        least = gross - ships * max(rules.shipping_cost, rules.hauler_cost) - paid
        if rules.must_exceed_cost:
            assert least <= pl[q, S.P_POINTS] <= most
        assert pl[q, S.P_HARVEST_POINTS] <= gross
        assert pl[q, S.P_BRANCHES] <= 6
    # collected cards only where cards can be collected
    board = build_board(*rules.board_key())
    assert (out["collects"][board.kind != 1] == 0).all()


def test_chunks_are_deterministic_and_one_game_replays_alone():
    ids, prm = seats(["random", "hauler", "builder", "lookahead"])
    seeds = np.arange(100, 140, dtype=np.uint32)
    a = play_chunk(Rules(), 4, ids, prm, seeds)
    b = play_chunk(Rules(), 4, ids, prm, seeds)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    alone = play_chunk(Rules(), 4, ids, prm, seeds[17:18])
    for k in a:
        assert np.array_equal(a[k][17], alone[k][0]), k
    one = play_one(Rules(), 4, ids, prm, int(seeds[17]), checking=False)
    assert one["winner"] == a["winner"][17] and one["length"] == a["length"][17]
    assert np.array_equal(one["turn_ends"], a["pedruscos_turn_ends_by_cell"][17])


def test_columns_have_the_contract_shapes():
    ids, prm = seats(["hauler", "lookahead", "builder"])
    out = play_chunk(Rules(), 3, ids, prm, np.arange(20, dtype=np.uint32))
    n_cells = build_board(*Rules().board_key()).n_cells
    for k, v in out.items():
        assert v.dtype == np.int64, k
    assert out["scores"].shape == (20, 3) and out["pedruscos_events"].shape == (20, 8)
    assert out["pedruscos_collects_by_cell"].shape == (20, n_cells)
    won = out["end_reason"] == 0
    assert (out["scores"][won, out["winner"][won]] >= 50).all()


def test_compiled_equals_interpreted():
    code = (
        "import json, numpy as np, simulator\n"
        "from tests.test_pedruscos_game import seats\n"
        "from simulator.games.pedruscos.engine import play_chunk\n"
        "from simulator.games.pedruscos.rules import Rules\n"
        "ids, prm = seats(['random', 'hauler', 'builder', 'lookahead'])\n"
        "out = play_chunk(Rules(), 4, ids, prm, np.arange(3, dtype=np.uint32))\n"
        "print(json.dumps({k: v.tolist() for k, v in out.items()}))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    res = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    slow = json.loads(res.stdout.strip().splitlines()[-1])
    ids, prm = seats(["random", "hauler", "builder", "lookahead"])
    fast = play_chunk(Rules(), 4, ids, prm, np.arange(3, dtype=np.uint32))
    for k, v in fast.items():
        assert v.tolist() == slow[k], k


def test_a_run_compiles_no_recording():
    """Played from a fresh process, the compiled Pedruscos functions with a recording buffer
    (``rec``) have it typed None: numba prunes the recording away (and the state check, which
    ``play_games`` switches off with None too)."""
    from tests.test_game_contract import _switch_signatures

    found = _switch_signatures([("pedruscos", ["lookahead"])], "rec")
    engine = {k: v for k, v in found.items() if k.startswith("simulator.games.pedruscos.") and v}
    assert "simulator.games.pedruscos.engine.play_games" in engine
    for name, types_seen in engine.items():
        assert types_seen == ["none"], (name, types_seen)


def test_station_table_counts_fit_2d6():
    # every roll on the table is a fresh 2d6, so the pooled counts of a large run follow
    # 6, 4, 5, 6, 5, 4, 3, 3 in 36 (results 2-4, 5, 6, 7, 8, 9, 10, 11-12)
    ids, prm = seats(["builder", "lookahead", "hauler", "random"])
    out = play_chunk(Rules(), 4, ids, prm, np.arange(1500, dtype=np.uint32))
    counts = out["pedruscos_events"].sum(axis=0)
    expected = np.array([6, 4, 5, 6, 5, 4, 3, 3]) / 36 * counts.sum()
    assert counts.sum() > 15_000
    assert chisquare(counts, expected).pvalue > 1e-3
    # and the drama columns are sane
    assert (out["lead_changes"] >= 0).all() and (out["half_leader"] >= -1).all()


def test_heuristics_beat_random_and_lookahead_beats_the_heuristics():
    ids, prm = seats(["random", "hauler", "builder", "lookahead"])
    out = play_chunk(Rules(), 4, ids, prm, np.arange(600, dtype=np.uint32))
    wins = np.bincount(out["winner"], minlength=4)
    assert wins[0] < 0.05 * 600
    assert wins[3] > max(wins[1], wins[2])
