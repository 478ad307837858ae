"""Crew Deep Sea engine: columns, determinism, allocation rules, properties, hidden information."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.crew_deep_sea import decide_comm, decide_pick, decide_play
from simulator.contract.errors import BalanceError
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import task_table
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from simulator.runs.plan import plan_run
from tests.crew_helpers import add_task, deal_hands, make_state, seed_rng


def run(mission, n=40, players=4, policy="heuristic", seed0=0, **rules):
    r = Rules().with_values({"mission": mission, **rules})
    ids, prm = engine_arrays(seat_policies([policy], SPEC.policies, SPEC.id, players))
    return SPEC.play_chunk(r, players, ids, prm, np.arange(seed0, seed0 + n, dtype=np.uint32))


def test_columns_and_determinism():
    a = run(7, n=30)
    b = run(7, n=30)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert set(SPEC.columns) <= set(a)
    assert (a["winner"] == -1).all()
    assert a["success"].dtype == bool and (a["success"] == (a["end_reason"] == 0)).all()
    assert (a["length"] <= 10).all() and (a["length"] >= 0).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_task_draw_matches_difficulty(players):
    out = run(9, n=25, players=players, policy="random")
    values = task_table().difficulty[:, players - 3]
    for row in out["crew_tasks"]:
        ids = row[row > 0] - 1
        assert values[ids].sum() == 7


def test_captain_never_holds_captain_comparison_tasks():
    out = run(31, n=40)
    barred = task_table().captain_barred
    for g in range(40):
        for t, h in zip(out["crew_tasks"][g], out["crew_task_holders"][g], strict=True):
            if t > 0 and barred[t - 1]:
                assert h != out["crew_captain"][g]


def holders(out, g):
    return set(out["crew_task_holders"][g][out["crew_tasks"][g] > 0].tolist())


def test_allocation_rules():
    one = run(6, n=20)  # one member takes every task
    assert all(len(holders(one, g)) == 1 for g in range(20))
    none = run(25, n=20)  # the captain takes none
    assert all(one_cap not in holders(none, g) for g, one_cap in enumerate(none["crew_captain"]))
    two = run(26, n=20)  # two volunteers
    assert all(len(holders(two, g)) <= 2 for g in range(20))
    hard = run(19, n=20)  # hardest to the captain
    values = task_table().difficulty[:, 1]
    barred = task_table().captain_barred
    for g in range(20):
        pairs = zip(hard["crew_tasks"][g], hard["crew_task_holders"][g], strict=True)
        drawn = [(t - 1, h) for t, h in pairs if t > 0 and not barred[t - 1]]
        top = max(values[t] for t, _ in drawn)
        assert top in [values[t] for t, h in drawn if h == hard["crew_captain"][g]]


def test_taskless_and_fixed_missions():
    for m in (8, 12, 21, 23, 27):
        out = run(m, n=10)
        assert (out["crew_tasks"] == -1).all()
    out = run(32, n=10)
    t = task_table()
    want = sorted(
        t.row(k) + 1
        for k in ("win_0_tricks", "win_exactly_3_in_a_row", "win_2_in_a_row", "win_first_and_last")
    )
    assert all(sorted(row.tolist()) == want for row in out["crew_tasks"])


def test_communication_modes_of_missions():
    assert (run(9, n=5)["crew_comm_mode"] == S.COMM_CURRENTS).all()
    assert (run(11, n=5)["crew_comm_mode"] == S.COMM_RAPTURE).all()
    assert (run(16, n=5)["crew_comm_mode"] == S.COMM_NONE).all()
    terrain = run(22, n=200, policy="random")["crew_comm_mode"]
    counts = np.bincount(terrain, minlength=3)[:3] / 200
    assert np.all(np.abs(counts - 1 / 3) < 0.12)  # colour ranks 1-3 / 4-6 / 7-9


def test_distress_always_is_recorded_and_never_is_not():
    assert run(5, n=10, distress="always")["crew_distress"].all()
    assert not run(5, n=10, distress="never")["crew_distress"].any()


def test_omniscient_is_crew_wide_and_an_upper_bound():
    with pytest.raises(BalanceError, match="every seat"):  # refused before anything is written
        plan_run(SPEC.id, 3, players=3, policies=["omniscient", "heuristic", "heuristic"])
    omni = run(3, n=40, players=3, policy="omniscient:nodes=20000")
    heur = run(3, n=40, players=3)
    assert omni["success"].sum() >= heur["success"].sum()
    assert omni["crew_search_nodes"].sum() > 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5]), st.sampled_from([1, 5, 8, 12, 27]))
def test_every_card_played_once_and_states_only_leave_pending(seed, players, mission):
    """Play a whole attempt by hand through the engine's pieces and check the invariants."""
    r = Rules().with_values({"mission": mission})
    inp = E.engine_inputs(r, players)
    t = task_table()
    ids, prm = engine_arrays(seat_policies(["random"], SPEC.policies, SPEC.id, players))
    seed_rng(seed)
    rows = np.empty(S.MAX_TASKS, np.int64)
    s, _ = E.setup_attempt(players, inp, rows)
    E.allocate(S.State(s, t.ctype, t.params), inp, ids, prm)
    E.predict(s, ids, prm, t.ctype, t.params)
    legal = np.empty(40, np.int64)
    seen = []
    previous = [S.PENDING] * s[S.S_NTASKS]
    while s[S.S_DONE] < s[S.S_NTRICKS]:
        for _ in range(players):
            q = S.current_player(s)
            n = turn.legal_cards(s, q, legal)
            c = decide_play(s, q, legal, n, ids[q], prm[q], t.ctype, t.params)
            seen.append(int(c))
            turn.play_card(s, q, c)
        turn.finish_trick(s)
        verdicts.evaluate(s, t.ctype, t.params, False)
        now = [int(s[S.O_TSTATE + k]) for k in range(s[S.S_NTASKS])]
        assert all(p == S.PENDING or p == q for p, q in zip(previous, now, strict=True))
        previous = now
    assert len(seen) == len(set(seen)) == (40 // players) * players
    assert sum(s[S.O_TRICKS + p] for p in range(players)) == s[S.S_NTRICKS]
    assert all(x != S.PENDING for x in previous)  # everything decided at the end


def _permute_hidden(s, viewer, rng):
    """Swap the unplayed cards of everyone but ``viewer`` (hand sizes kept)."""
    s2 = s.copy()
    hidden = [c for c in range(40) if s[S.O_OWNER + c] >= 0 and s[S.O_OWNER + c] != viewer]
    owners = [int(s[S.O_OWNER + c]) for c in hidden]
    rng.shuffle(owners)
    for c, o in zip(hidden, owners, strict=True):
        s2[S.O_OWNER + c] = o
    return s2


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 6))
def test_heuristic_choices_ignore_hidden_hands(seed, tricks):
    hands = deal_hands(4, seed)
    s = make_state(hands)
    t = task_table()
    rng = np.random.default_rng(seed)
    for i, row in enumerate(rng.choice(96, size=4, replace=False)):
        add_task(s, t.keys[row], i % 4, 2)
    ids, prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))
    legal = np.empty(40, np.int64)
    for _ in range(tricks * 4 + int(rng.integers(0, 3))):
        q = S.current_player(s)
        n = turn.legal_cards(s, q, legal)
        c = decide_play(s, q, legal, n, ids[q], prm[q], t.ctype, t.params)
        turn.play_card(s, q, c)
        if s[S.S_NIN] == 4:
            turn.finish_trick(s)
            verdicts.evaluate(s, t.ctype, t.params, False)
    p = S.current_player(s)
    n = turn.legal_cards(s, p, legal)
    choice = decide_play(s, p, legal, n, ids[p], prm[p], t.ctype, t.params)
    comm = decide_comm(s, p, ids[p], prm[p], t.ctype, t.params) if s[S.S_NIN] == 0 else None
    avail = np.arange(4, dtype=np.int64)
    pick = decide_pick(s, p, avail, 4, False, ids[p], prm[p], t.ctype, t.params)
    for _ in range(3):
        s2 = _permute_hidden(s, p, rng)
        assert decide_play(s2, p, legal, n, ids[p], prm[p], t.ctype, t.params) == choice
        assert decide_pick(s2, p, avail, 4, False, ids[p], prm[p], t.ctype, t.params) == pick
        if comm is not None:
            assert decide_comm(s2, p, ids[p], prm[p], t.ctype, t.params) == comm


def test_heuristic_wins_its_task_card_when_last_to_play():
    # player 3 must win pink 3; P3 P5 P2 are down, P4 would lose: the card is P9
    s = make_state([["P3", "Y1"], ["P5", "Y2"], ["P2", "Y3"], ["P9", "P4", "S4"]], captain=0)
    add_task(s, "win_pink3", 3)
    t = task_table()
    ids, prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))
    legal = np.empty(40, np.int64)
    for q, c in ((0, 2), (1, 4), (2, 1)):  # P3, P5, P2
        turn.play_card(s, q, c)
    n = turn.legal_cards(s, 3, legal)
    assert decide_play(s, 3, legal, n, ids[3], prm[3], t.ctype, t.params) == 8  # P9


def test_bad_rule_values_are_one_line_errors():
    with pytest.raises(BalanceError, match="mission"):
        Rules().with_values({"mission": "40"})
    with pytest.raises(BalanceError, match="three values"):
        Rules().with_values({"trick_sum_above": "1,2"})


def test_the_searching_switch_is_on_only_for_searching_seats():
    """``searches``: None (the searches pruned from the compiled engine) unless a seat plays the
    expert, the sampler or the omniscient crew."""

    def ids(*names):
        return engine_arrays(seat_policies(list(names), SPEC.policies, SPEC.id, 4))[0]

    assert E.searches(ids("heuristic")) is None
    assert E.searches(ids("random", "heuristic", "random", "heuristic")) is None
    for name in ("expert", "sampler"):
        assert E.searches(ids("heuristic", name, "heuristic", "heuristic")) is not None, name
    assert E.searches(ids("omniscient")) is not None  # a crew-level search: every seat


def test_a_run_without_a_searching_seat_never_compiles_the_searches():
    """Played from a fresh process, every compiled Crew function with the ``searching`` switch
    has it typed None (numba pruned the expert, the sampler and the solver away)."""
    from tests.test_game_contract import _switch_signatures, _switched_off

    found = _switch_signatures([("crew-deep-sea", ["heuristic", "random"])])
    crew = {
        k: v
        for k, v in found.items()
        if k.startswith(("simulator.games.crew_deep_sea.", "policies.crew_deep_sea")) and v
    }
    assert "simulator.games.crew_deep_sea.engine.play_attempts" in crew
    for name, types_seen in crew.items():
        assert all(_switched_off(t) for t in types_seen), (name, types_seen)
