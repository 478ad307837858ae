"""Crew Deep Sea campaign play: the logbook as one game (rule `campaign`)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.errors import BalanceError
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea.board import task_table
from simulator.games.crew_deep_sea.campaign import _inputs
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from simulator.runs.plan import plan_run
from tests.crew_helpers import seed_rng

T = task_table()


def campaign(n=6, players=4, seeds=None, **rules):
    r = Rules().with_values({"campaign": True, "campaign_last": 5, **rules})
    ids, prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, players))
    seeds = np.arange(n, dtype=np.uint32) if seeds is None else np.asarray(seeds, np.uint32)
    return SPEC.play_chunk(r, players, ids, prm, seeds)


def test_missions_in_order_each_until_it_succeeds():
    out = campaign()
    per = out["crew_campaign_attempts"]
    assert per.shape == (6, 32)
    assert out["success"].all()  # missions 1-5 under the heuristic, cap 500
    assert (per[:, :5] >= 1).all() and (per[:, 5:] == -1).all()
    np.testing.assert_array_equal(out["length"], per[:, :5].sum(axis=1))
    assert (out["end_reason"] == SPEC.end_reasons.index("success")).all()
    # mission 5 (heuristic ~37%) takes more attempts than mission 1 (~93%) overall
    assert per[:, 4].sum() > per[:, 0].sum()


def test_a_campaign_replays_alone_from_its_seed():
    both = campaign(n=4, seeds=[11, 12, 13, 14])
    alone = campaign(n=1, seeds=[13])
    for key in ("length", "success", "crew_campaign_attempts", "crew_redraws"):
        np.testing.assert_array_equal(both[key][2], alone[key][0])


def test_the_attempt_cap_ends_the_campaign():
    out = campaign(n=8, mission=4, campaign_last=10, campaign_attempt_cap=1, distress="never")
    cap = SPEC.end_reasons.index("attempt_cap")
    stopped = out["end_reason"] == cap
    assert stopped.any() and not out["success"][stopped].any()
    for row, per in zip(out["end_reason"], out["crew_campaign_attempts"], strict=True):
        played = per[per >= 0]
        assert (played == 1).all()  # one attempt each, the last one lost when capped
        assert (per[:3] == -1).all()  # the campaign starts at rule 'mission'
        if row == cap:
            assert len(played) < 7


def test_an_active_distress_signal_is_one_more_attempt_once_per_mission():
    out = campaign(n=5, distress="always")
    per = out["crew_campaign_attempts"][:, :5]
    assert out["crew_distress"].all()
    assert (per >= 2).all()  # turned over on the first attempt of every mission
    # "the pass may be repeated": once active, the crew decides again each attempt (its policy)
    plain = _inputs(Rules().with_values({"campaign": True, "campaign_last": 2}), 4)
    assert plain[1, False].rcfg[E.RC.distress] == E.DISTRESS_POLICY
    assert plain[1, True].rcfg[E.RC.distress] == E.DISTRESS_POLICY
    must = Rules().with_values({"campaign": True, "campaign_last": 2,
                                "campaign_distress_again": "must"})  # fmt: skip
    assert _inputs(must, 4)[1, True].rcfg[E.RC.distress] == E.DISTRESS_ALWAYS
    never = Rules().with_values({"campaign": True, "campaign_last": 2, "distress": "never"})
    assert _inputs(never, 4)[1, True].rcfg[E.RC.distress] == E.DISTRESS_NEVER


def test_a_full_reshuffle_of_the_task_deck_is_an_option():
    # with used cards out of the deck, no two attempts of one campaign repeat a task card until
    # the deck runs low; with a full reshuffle, the same campaigns draw cards again sooner
    a = campaign(n=4, campaign_last=8)
    b = campaign(n=4, campaign_last=8, campaign_used_tasks="reshuffle")
    assert a["success"].all() and b["success"].all()
    assert not np.array_equal(a["crew_campaign_attempts"], b["crew_campaign_attempts"])


def test_used_task_cards_stay_out_until_the_deck_runs_low():
    inp = E.engine_inputs(Rules().with_values({"mission": 5}), 4)
    rows = np.empty(20, np.int64)
    used = np.zeros(96, np.int64)
    used[:90] = 1  # six cards left
    left = set(range(90, 96))
    for k in range(10):
        seed_rng(k)
        u = used.copy()
        n = E.draw_mission_tasks(inp.mcfg, inp.fixed, inp.values, T.forced, False, 4, rows, u)
        assert n > 0 and inp.values[rows[:n]].sum() == 5
        if u.any():  # drawn from the cards left
            assert set(rows[:n].tolist()) <= left
        else:  # they could not make 5: the used pile went back in
            assert inp.values[list(left)].sum() < 5 or not set(rows[:n].tolist()) <= left
    used[:] = 1
    seed_rng(0)
    n = E.draw_mission_tasks(inp.mcfg, inp.fixed, inp.values, T.forced, False, 4, rows, used)
    assert n > 0 and not used.any()  # nothing left: everything shuffled back


def test_the_campaign_counts_in_attempts_and_reports_them(tmp_path):
    from analyses.crew import campaign_attempts
    from analyses.runs import Run
    from reports.crew_deep_sea import sections
    from simulator.runs.runner import simulate

    sets = {"campaign": "true", "campaign_last": "3"}
    assert SPEC.unit(plan_run(SPEC.id, 6, sets=sets).rules) == "attempts"
    assert SPEC.unit(Rules()) == "tricks"
    run = Run.open(simulate(SPEC.id, 6, tmp_path / "run", sets=sets, jobs=1))
    assert run.length_unit == "attempts"
    c = campaign_attempts(run)
    assert c["campaigns"] == 6 and [r["mission"] for r in c["missions"]] == [1, 2, 3]
    lo, hi = c["logbook_attempts"]["lo"], c["logbook_attempts"]["hi"]
    assert lo <= c["logbook_attempts"]["value"] <= hi
    assert abs(sum(r["share"] for r in c["missions"]) - 1.0) < 1e-9
    (sec,) = sections([run])
    assert sec.title.startswith("Campaign: where the attempts go")


def test_bad_campaign_ranges_are_one_line_errors():
    with pytest.raises(BalanceError, match="campaign_last"):
        plan_run(SPEC.id, 2, sets={"campaign": "true", "mission": "9", "campaign_last": "5"})
    with pytest.raises(BalanceError, match="campaign"):
        plan_run(SPEC.id, 2, sets={"campaign": "true", "mission": "33"})
