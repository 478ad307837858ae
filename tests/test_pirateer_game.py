"""Whole Pirateer games: invariants under random play and random rules, end reasons,
determinism, a game replayed alone from its seed, compiled equal to interpreted."""

import json
import os
import subprocess
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator  # noqa: F401  (configures the JIT cache)
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pirateer import state as S
from simulator.games.pirateer.engine import play_chunk, play_one
from simulator.games.pirateer.rules import Rules
from simulator.games.pirateer.spec import SPEC

POLICY_NAMES = ("random", "runner", "hunter", "lookahead")


def seats(names):
    return engine_arrays(seat_policies(list(names), SPEC.policies, SPEC.id, len(names)))


rule_values = st.fixed_dictionaries(
    {},
    optional={
        "ships_per_fleet": st.integers(1, 3),
        "start_squares": st.sampled_from(("next_to_anchor", "harbour_end")),
        "two_player_corners": st.sampled_from(("opposite", "adjacent")),
        "must_use_larger": st.booleans(),
        "wind_diagonal": st.booleans(),
        "wind_pass": st.booleans(),
        "wind_entry_stops": st.booleans(),
        "strait_pass": st.booleans(),
        "treasure_limit": st.sampled_from(("toward_or_parallel", "none")),
        "anchorages_after_taking": st.sampled_from(("water", "closed")),
        "max_turns": st.integers(1, 400),
    },
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    values=rule_values,
    n_players=st.integers(2, 4),
    two_fleets=st.booleans(),
    names=st.lists(st.sampled_from(POLICY_NAMES[:3]), min_size=4, max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_invariants_under_play(values, n_players, two_fleets, names, seed):
    if two_fleets and n_players == 2:
        values = {**values, "two_player_fleets": 2}
    rules = Rules().with_values(values)
    ids, prm = seats(names[:n_players])
    out = play_one(rules, n_players, ids, prm, seed)
    # ships only on water, never two on a space, the treasure on a ship still afloat
    assert out["problems"] == 0
    ships, owner, g = out["ships"], out["owner"], out["g"]
    start = rules.ships_per_fleet * (4 if n_players == 4 or two_fleets and n_players == 2 else
                                     n_players)  # fmt: skip
    alive = int((ships >= 0).sum())
    assert alive == start - int(g[S.G_CAPTURES])  # fleets never grow; only captures shrink them
    assert 0 < out["length"] <= rules.max_turns
    trace = out["trace"]
    gone = set()
    for row in trace:  # a captured ship never moves again; never a capture of one's own
        assert row[4] not in gone
        if row[7] >= 0:
            assert owner[row[7] // 3] != owner[row[4] // 3]
            gone.add(row[7])
    reason, winner = out["end_reason"], out["winner"]
    if reason == S.END_TREASURE_HOME:
        assert g[S.G_TREASURE] == S.DELIVERED and winner >= 0
        last = trace[-1]
        assert last[6] == [0, 103, 231, 130][last[4] // 3]  # the carrier's own anchor
    elif reason == S.END_LAST_OPPONENT:
        assert all(owner[s // 3] == winner for s in range(12) if ships[s] >= 0)
    else:
        assert reason == S.END_TURN_CAP and winner == -1 and out["length"] == rules.max_turns


def test_every_policy_plays_every_player_count():
    for n in (2, 3, 4):
        ids, prm = seats([POLICY_NAMES[i % 4] for i in range(n)])
        out = play_chunk(Rules(), n, ids, prm, np.arange(6, dtype=np.uint32))
        assert out["scores"].shape == (6, n) and out["pirateer_captures_by_cell"].shape == (6, 236)
        assert (out["end_reason"] != S.END_TURN_CAP).all()
        assert (out["pirateer_captures_by_cell"].sum(axis=1) == out["pirateer_captures"]).all()
        lost = out["pirateer_treasure_lost_by_cell"].sum(axis=1)
        assert (lost == out["pirateer_treasure_changes"]).all()
        taken = out["pirateer_treasure_taken_by_cell"].sum(axis=1)
        assert (taken == lost + (out["pirateer_treasure_taken_turn"] >= 0)).all()


def test_deterministic_and_replayed_alone():
    ids, prm = seats(["runner", "hunter", "lookahead", "random"])
    seeds = np.array([11, 12, 13, 14, 15], dtype=np.uint32)
    a = play_chunk(Rules(), 4, ids, prm, seeds)
    b = play_chunk(Rules(), 4, ids, prm, seeds)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    for i, seed in enumerate(seeds):
        one = play_one(Rules(), 4, ids, prm, int(seed))
        assert one["winner"] == a["winner"][i] and one["length"] == a["length"][i]
        assert np.array_equal(one["captures_by_cell"], a["pirateer_captures_by_cell"][i])


def _columns(seeds):
    ids, prm = seats(["runner", "lookahead"])
    out = play_chunk(Rules(), 2, ids, prm, np.asarray(seeds, dtype=np.uint32))
    return {k: v.tolist() for k, v in out.items()}


def test_compiled_equals_interpreted():
    seeds = [3, 4]
    code = (
        "import json, simulator; from tests.test_pirateer_game import _columns; "
        f"print(json.dumps(_columns({seeds})))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": os.getcwd()}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=os.getcwd())  # fmt: skip
    assert json.loads(res.stdout.strip().splitlines()[-1]) == _columns(seeds)


def test_two_players_with_two_flags_each():
    rules = Rules().with_values({"two_player_fleets": 2})
    ids, prm = seats(["runner", "hunter"])
    out = play_chunk(rules, 2, ids, prm, np.arange(20, dtype=np.uint32))
    assert (out["pirateer_ships_left"].sum(axis=1) == 12 - out["pirateer_captures"]).all()
    assert SPEC.check(rules, 3, []) is not None and SPEC.check(rules, 2, []) is None
