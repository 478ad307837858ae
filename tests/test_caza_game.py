"""Whole Caza-Tesoros games: invariants over random seeds and rules, traces, determinism, runs."""

import json
import os
import subprocess
import sys

import numpy as np
import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.contract.registry import get_game
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import hex_distance
from simulator.games.caza_tesoros.engine import (
    EV_AUCTION,
    EV_BUY,
    EV_DEVIATE,
    EV_FORCED_SALE,
    EV_MAINTENANCE,
    EV_MOVE,
    EV_SEARCH,
    EV_WEATHER,
    play_chunk,
    play_one,
)
from simulator.games.caza_tesoros.rules import Rules
from simulator.games.caza_tesoros.spec import SPEC
from simulator.runs.plan import plan_run
from simulator.runs.runner import run

POLICY_NAMES = ("random", "greedy", "cautious", "planner")


def seats(names, n):
    ids, prm = engine_arrays(seat_policies(list(names), SPEC.policies, SPEC.id, n))
    return ids, prm


rule_values = st.fixed_dictionaries(
    {},
    optional={
        "starting_vp": st.integers(0, 60),
        "treasure_values": st.lists(st.integers(0, 80), min_size=1, max_size=4).map(tuple),
        "max_days": st.integers(1, 120),
        "days_per_week": st.integers(1, 10),
        "maintenance_per_ship": st.integers(0, 5),
        "level1_cost": st.integers(0, 4),
        "level2_cost": st.integers(0, 6),
        "price_ship": st.integers(0, 15),
        "price_archive_card": st.integers(0, 5),
        "price_divers": st.integers(0, 10),
        "max_straight": st.integers(1, 4),
        "archive_crosses_to_end": st.integers(1, 6),
        "treasures_to_win": st.integers(1, 4),
        "max_ships": st.integers(1, 6),
        "level1_marking": st.sampled_from(("all", "one")),
        "level2_marking": st.sampled_from(("all", "one")),
        "level2_combinations": st.sampled_from(("any_pair", "base_pair")),
        "upgrade_bonus": st.sampled_from(("replace", "add")),
        "deviation_edge": st.sampled_from(("stop", "stay")),
        "deviation_timing": st.sampled_from(("before_action", "after_action")),
        "turn_order": st.sampled_from(("fixed", "rotate_weekly")),
        "level2_window": st.sampled_from(("any_later_turn", "next_turn_only", "must_next_turn")),
        "items_per_ship": st.sampled_from(("one_per_kind", "one_per_type")),
        "cross_reference": st.sampled_from(("card_edges", "top_left")),
        "colours_per_player": st.integers(1, 3),
        "archive_loot": st.sampled_from(("treasure", "card")),
        "object_draw": st.sampled_from(("deck", "die")),
        "purchase_days": st.sampled_from(("week_start", "any_day")),
        "maintenance_order": st.sampled_from(("simultaneous", "seat")),
        "weather_faces": st.lists(st.integers(0, 5), min_size=6, max_size=6).map(tuple),
    },
)


def trace_checks(game, rules):
    trace = game["trace"]
    days = trace[:, 0]
    events = trace[:, 1]
    # one weather roll a day, every day
    assert (events == EV_WEATHER).sum() == game["length"]
    # purchases, auctions and maintenance only on the first day of a week
    weekly = np.isin(events, (EV_MAINTENANCE, EV_BUY, EV_AUCTION, EV_FORCED_SALE))
    if rules.purchase_days == "week_start":
        assert np.all((days[weekly] - 1) % rules.days_per_week == 0)
    # each ship either sails or searches on a day, never both
    acts = trace[np.isin(events, (EV_MOVE, EV_SEARCH))]
    keys = acts[:, 0] * 100 + acts[:, 2] * 10 + acts[:, 3]
    assert len(np.unique(keys)) == len(keys)
    # a ship never sails further than its movement points
    moves = trace[events == EV_MOVE]
    for _, _, _, _, start, end, points in moves:
        assert hex_distance(start, end) <= points
    # storm deviation only on storm days
    weather = {int(d): int(w) for d, e, *_, w, _, _ in trace[events == EV_WEATHER]}
    for row in trace[events == EV_DEVIATE]:
        assert weather[int(row[0])] == S.STORM


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    seed=st.integers(0, 2**32 - 1),
    policy=st.lists(st.sampled_from(POLICY_NAMES), min_size=2, max_size=6),
    values=rule_values,
)
def test_invariants_hold_after_every_turn(seed, policy, values):
    n = len(policy)
    if n * values.get("colours_per_player", 1) > 6:
        values = {**values, "colours_per_player": 6 // n}
    rules = Rules().with_values(values)
    ids, prm = seats(policy, n)
    game = play_one(rules, n, ids, prm, seed)
    # VP never below zero, <= max Archive cards held, <= the ending number of Archive crosses,
    # one card of each kind per ship, ships on the board and counted right (state_problems)
    assert game["problems"] == 0
    assert 1 <= game["length"] <= rules.max_days
    assert game["end_reason"] in range(len(S.END_REASONS))
    assert -1 <= game["winner"] < n
    if game["end_reason"] == S.END_DAY_CAP:
        assert game["length"] == rules.max_days
    if game["end_reason"] == S.END_TREASURES:
        by_player = game["pl"][:, S.P_TREASURES].reshape(rules.colours_per_player, n).sum(axis=0)
        assert by_player.max() >= rules.treasures_to_win
    if game["end_reason"] == S.END_ARCHIVE:
        assert game["g"][S.G_ARCHIVE_CROSSES] == rules.archive_crosses_to_end
    trace_checks(game, rules)


def test_every_game_ends_and_end_reasons_match_the_state():
    n = 3000
    out = play_chunk(Rules(), 4, *seats(["greedy"], 4), np.arange(n, dtype=np.uint32))
    reason = out["end_reason"]
    assert set(np.unique(reason)) <= set(range(len(S.END_REASONS)))
    assert np.all(out["winner"][reason == S.END_ALL_OUT] == -1)
    assert np.all(out["caza_treasures"][reason == S.END_TREASURES].max(axis=1) >= 3)
    assert np.all(out["caza_archive_crosses"][reason == S.END_ARCHIVE] == 5)
    assert np.all(out["caza_archive_crosses"] <= 5)
    assert np.all(out["scores"] >= 0)
    # greedy tables reach all three rule endings
    assert {0, 1, 2} <= set(np.unique(reason))


def test_passive_table_stops_at_the_day_cap():
    rules = Rules().with_values({"max_days": 50})
    out = play_chunk(rules, 3, *seats(["cautious"], 3), np.arange(20, dtype=np.uint32))
    assert np.all(out["end_reason"] == S.END_DAY_CAP) and np.all(out["length"] == 50)
    assert np.all(out["caza_searches"] == 0)
    # nobody spends: maintenance only, 1 VP a week for 8 weeks (days 1, 8, ..., 50)
    assert np.all(out["scores"] == 20 - 8)


def test_passive_table_runs_out_of_money_together():
    # 20 VP, 1 VP a week: all are short in week 21 and drop out at the same maintenance
    out = play_chunk(Rules(), 4, *seats(["cautious"], 4), np.arange(10, dtype=np.uint32))
    # nobody is left to win: its own end reason, not a tie settled by the retirement payment
    assert np.all(out["end_reason"] == S.END_ALL_OUT) and np.all(out["length"] == 141)
    assert np.all(out["winner"] == -1)
    seat = Rules().with_values({"maintenance_order": "seat"})
    out = play_chunk(seat, 4, *seats(["cautious"], 4), np.arange(10, dtype=np.uint32))
    assert np.all(out["winner"] == 3)  # the last seat is the last one left


def _values(column) -> list:
    """A column as plain lists (numpy arrays and list Series alike)."""
    return column.to_list() if hasattr(column, "to_list") else column.tolist()


def test_same_seeds_same_columns_and_a_game_replays_alone():
    ids, prm = seats(["greedy", "planner", "random", "cautious"], 4)
    seeds = np.array([7, 99, 123456, 2**31 + 5], dtype=np.uint32)
    a = play_chunk(Rules(), 4, ids, prm, seeds)
    b = play_chunk(Rules(), 4, ids, prm, seeds)
    for name in a:
        assert _values(a[name]) == _values(b[name]), name
    alone = play_chunk(Rules(), 4, ids, prm, seeds[2:3])
    for name in a:
        assert _values(a[name])[2] == _values(alone[name])[0], name
    one = play_one(Rules(), 4, ids, prm, int(seeds[2]))
    assert one["winner"] == a["winner"][2] and one["length"] == a["length"][2]
    assert np.array_equal(one["pl"][:, S.P_VP], a["scores"][2])


def test_drama_columns_follow_the_daily_leader():
    ids, prm = seats(["greedy"], 4)
    for seed in range(30):
        game = play_one(Rules(), 4, ids, prm, seed)
        leaders = game["leaders"]
        changes, last = 0, -1
        for who in leaders:
            if who >= 0:
                changes += last >= 0 and who != last
                last = who
        assert game["lead_changes"] == changes
        assert game["half_leader"] == leaders[game["length"] // 2]


def test_registered_and_runs_through_the_runner(tmp_path):
    spec = get_game("caza-tesoros")
    assert spec is SPEC
    config = plan_run(
        "caza-tesoros",
        300,
        players=3,
        policies=["greedy", "planner:reserve=5", "random"],
        seed=4,
        sets=["treasure_values=20,40"],
        chunk_size=100,
    )
    folder = run(config, tmp_path / "run", jobs=1)
    games = folder.scan().collect()
    assert games.height == 300
    for name in SPEC.columns:
        assert name in games.columns
    assert games.schema["caza_treasures"] == pl.List(pl.Int64)
    assert set(games["end_reason"].unique()) <= set(SPEC.end_reasons)
    assert folder.read_manifest()["config"]["rules"]["treasure_values"] == [20, 40]


def test_interpreted_engine_plays_the_same_games(tmp_path):
    # NUMBA_DISABLE_JIT=1 runs the same source in Python: the debugging mode must not drift
    script = tmp_path / "play.py"
    script.write_text(
        "import json\n"
        "import numpy as np\n"
        "import simulator\n"
        "from simulator.contract.policy import engine_arrays, seat_policies\n"
        "from simulator.games.caza_tesoros.rules import Rules\n"
        "from simulator.games.caza_tesoros.spec import SPEC\n"
        "from simulator.games.caza_tesoros.engine import play_chunk\n"
        "names = ['greedy', 'planner', 'random', 'cautious']\n"
        "ids, prm = engine_arrays(seat_policies(names, SPEC.policies, SPEC.id, 4))\n"
        "out = play_chunk(Rules(), 4, ids, prm, np.arange(4, dtype=np.uint32))\n"
        "print(json.dumps({k: v.to_list() if hasattr(v, 'to_list') else v.tolist()\n"
        "                  for k, v in out.items()}))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, check=True
    )
    slow = json.loads(done.stdout)
    ids, prm = seats(["greedy", "planner", "random", "cautious"], 4)
    fast = play_chunk(Rules(), 4, ids, prm, np.arange(4, dtype=np.uint32))
    assert slow == {
        k: v.to_list() if hasattr(v, "to_list") else v.tolist() for k, v in fast.items()
    }
