"""Cape Horn whole games: invariants under every policy, determinism, one game replayed alone."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policies.cape_horn import POLICIES
from simulator.contract.policy import engine_arrays, parse_policy
from simulator.games.cape_horn import engine as E
from simulator.games.cape_horn import state as S
from simulator.games.cape_horn.rules import Rules

NAMES = list(POLICIES)


def arrays(names):
    return engine_arrays([parse_policy(n, POLICIES, "cape-horn") for n in names])


def chunk(names, seeds, rules=None):
    ids, prm = arrays(names)
    return E.play_chunk(rules or Rules(), len(names), ids, prm, np.asarray(seeds, np.uint32))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    seats=st.lists(
        st.sampled_from(["racer", "blocker", "planner", "random"]), min_size=2, max_size=5
    ),
)
def test_invariants_hold_after_every_turn(seed: int, seats: list[str]) -> None:
    # sail points 0..8, hand <= 6 and equal to the cards held, one token per zone of distinct
    # colours, every ship on a card, no two ships on a non-station card, token supply >= 0
    rules = Rules().with_values({"max_rounds": 60})
    ids, prm = arrays(seats)
    out = E.play_one(rules, len(seats), ids, prm, seed)
    assert out["problems"] == 0
    assert out["end_reason"] in range(len(S.END_REASONS))
    if out["end_reason"] in (S.END_FINISH, S.END_THREE):
        w = out["winner"]
        toks = out["pl"][w, S.P_TOK : S.P_TOK + 3]
        held = toks[toks >= 0]
        assert len(set(held.tolist())) == len(held)
        assert len(held) == 3 or len(held) >= rules.finish_tokens
    laid = out["pl"][:, S.P_LAID].sum()
    assert out["laid_by_cell"].sum() == laid
    assert (out["pl"][:, S.P_COVERED] <= out["pl"][:, S.P_LAID]).all()


def test_sail_point_accounts_balance() -> None:
    # start + the turns' points + no-move gains - spending = sail points held, exactly; a turn's
    # point is gained at most once a turn, and not at all at 8
    names = ["planner", "racer", "blocker", "random"]
    out = chunk(names, range(40))
    spent = out["cape_horn_sp_ignore"] + out["cape_horn_sp_twice"] + out["cape_horn_sp_buy"]
    gained = out["cape_horn_sp_sailed"] + out["cape_horn_sp_no_move"]
    assert (3 + gained - spent == out["cape_horn_sail_points"]).all()
    turns = out["cape_horn_turns"]
    for p in range(len(names)):  # seat p played turns // n turns, one more before the end
        played = turns // len(names) + (p < turns % len(names))
        assert (out["cape_horn_sp_sailed"][:, p] <= played).all()
    assert (out["cape_horn_sp_sailed"] > 0).all()
    assert (out["cape_horn_sail_points"] <= 8).all() and (out["cape_horn_sail_points"] >= 0).all()
    assert (out["cape_horn_ignores"] * 3 == out["cape_horn_sp_ignore"]).all()
    assert (out["cape_horn_twices"] * 5 == out["cape_horn_sp_twice"]).all()
    assert (spent >= 0).all()
    assert (out["cape_horn_tokens"] <= 3).all()


def test_same_seeds_same_games_and_one_game_replays_alone() -> None:
    names = ["planner", "blocker", "racer"]
    a = chunk(names, range(100, 130))
    b = chunk(names, range(100, 130))
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    alone = chunk(names, [117])
    for k in a:
        assert np.array_equal(a[k][17], alone[k][0]), k
    ids, prm = arrays(names)
    one = E.play_one(Rules(), 3, ids, prm, 117)
    assert one["winner"] == a["winner"][17] and one["length"] == a["length"][17]


def test_columns_have_the_contract_shapes() -> None:
    out = chunk(["racer", "planner"], range(5))
    common = {"winner", "length", "end_reason", "scores", "lead_changes", "half_leader"}
    assert set(out) - common == set(E.COLUMNS)
    assert all(k.startswith("cape_horn_") for k in E.COLUMNS)
    for k, v in out.items():
        assert v.shape[0] == 5, k
        if k != "scores":
            assert v.dtype == np.int64, k
    assert out["cape_horn_laid_by_cell"].shape == (5, 180)


def test_winner_made_the_winning_condition() -> None:
    out = chunk(["planner", "racer", "blocker", "racer"], range(60))
    won = out["winner"] >= 0
    assert won.mean() > 0.9
    reason = out["end_reason"][won]
    assert set(reason.tolist()) <= {S.END_FINISH, S.END_THREE}
    tokens = out["cape_horn_tokens"][np.flatnonzero(won), out["winner"][won]]
    assert (tokens[reason == S.END_THREE] == 3).all()
    assert (tokens[reason == S.END_FINISH] >= 2).all()


def test_planner_beats_random_by_far() -> None:
    out = chunk(["planner", "random"], range(30))
    assert (out["winner"] == 0).sum() >= 28
