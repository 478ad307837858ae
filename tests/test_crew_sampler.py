"""Crew Deep Sea `sampler`: sampled deals consistent with what a player knows, each solved by the
perfect-information search; the horizon estimate; and the heuristic's fixed blunders."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.crew_deep_sea import (
    decide_pick,
    decide_play,
    decide_task_bid,
    decide_volunteer,
    depth_first,
    horizon_value,
    sample_deal,
    search_line,
    task_fit,
    task_keep,
)
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import task_table
from simulator.games.crew_deep_sea.spec import SPEC
from tests.crew_helpers import (
    SEARCH,
    add_task,
    deal_hands,
    dealt_with_tasks,
    make_state,
    permute_hidden,
    play_trick,
    seed_rng,
)

T = task_table()
SAMPLER = engine_arrays(
    seat_policies(["sampler:samples=4,nodes=600,pick_nodes=600"], SPEC.policies, SPEC.id, 4)
)
HEUR = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 4))
def test_sampler_choices_ignore_hidden_hands(seed, tricks):
    s, rng, _ = dealt_with_tasks(seed, [0, 1, 2], 2)
    ids, prm = HEUR
    legal = np.empty(40, np.int64)
    for _ in range(tricks * 4 + int(rng.integers(0, 3))):  # reach a position by heuristic play
        q = S.current_player(s)
        n = turn.legal_cards(s, q, legal)
        turn.play_card(s, q, decide_play(s, q, legal, n, ids[q], prm[q], T.ctype, T.params, SEARCH))
        if s[S.S_NIN] == 4:
            turn.finish_trick(s)
            verdicts.evaluate(s, T.ctype, T.params, False)
    eids, eprm = SAMPLER
    p = S.current_player(s)
    n = turn.legal_cards(s, p, legal)
    seed_rng(seed)
    choice = decide_play(s, p, legal, n, eids[p], eprm[p], T.ctype, T.params, SEARCH)
    for _ in range(2):
        s2 = permute_hidden(s, p, rng)
        seed_rng(seed)
        assert decide_play(s2, p, legal, n, eids[p], eprm[p], T.ctype, T.params, SEARCH) == choice


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3), st.booleans())
def test_sampler_task_choice_ignores_hidden_hands(seed, chooser, may_pass):
    # task choice and volunteering sample the others' hands: permuting them changes nothing
    s, rng, rows = dealt_with_tasks(seed, [chooser, -1, -1])  # one taken by the chooser
    avail = np.array([1, 2] + [0] * 30, np.int64)
    eids, eprm = SAMPLER
    seed_rng(seed)
    pick = decide_pick(s, chooser, avail, 2, may_pass, eids[0], eprm[0], T.ctype, T.params, SEARCH)
    assert pick in ((-1, 0, 1) if may_pass else (0, 1))
    seed_rng(seed)
    agree = decide_volunteer(s, chooser, eids[0], eprm[0], T.ctype, T.params, SEARCH)
    seed_rng(seed)
    bid = decide_task_bid(s, chooser, rows[1], eids[0], eprm[0], T.ctype, T.params, SEARCH)
    assert 0.0 <= bid <= 1.0
    for _ in range(2):
        s2 = permute_hidden(s, chooser, rng)
        seed_rng(seed)
        again = decide_pick(
            s2, chooser, avail, 2, may_pass, eids[0], eprm[0], T.ctype, T.params, SEARCH
        )
        assert again == pick
        seed_rng(seed)
        assert decide_volunteer(s2, chooser, eids[0], eprm[0], T.ctype, T.params, SEARCH) == agree
        seed_rng(seed)
        rebid = decide_task_bid(s2, chooser, rows[1], eids[0], eprm[0], T.ctype, T.params, SEARCH)
        assert rebid == bid


def test_sampled_deals_keep_what_the_player_knows():
    s = make_state(deal_hands(4, 3))
    # player 1 shows a void in pink; player 2 shows its only yellow card
    y = next(c for c in range(9, 18) if s[S.O_OWNER + c] == 2)
    for c in range(9, 18):
        if s[S.O_OWNER + c] == 2 and c != y:
            s[S.O_OWNER + c] = 3  # give its other yellows away (swap with player 3's greens)
    for q in range(4):
        s[S.O_HANDN + q] = sum(s[S.O_OWNER + c] == q for c in range(40))
    s[S.O_VOID + 1 * 5 + 0] = 1
    turn.communicate(s, 2, y, S.ONLY)
    out = np.empty_like(s)
    for seed in range(30):
        seed_rng(seed)
        assert sample_deal(s, 0, out)
        own = [c for c in range(40) if s[S.O_OWNER + c] == 0]
        assert [c for c in range(40) if out[S.O_OWNER + c] == 0] == own
        for q in range(4):
            assert sum(out[S.O_OWNER + c] == q for c in range(40)) == s[S.O_HANDN + q]
        assert not any(out[S.O_OWNER + c] == 1 for c in range(9))  # the void holds
        assert out[S.O_OWNER + y] == 2
        assert not any(out[S.O_OWNER + c] == 2 for c in range(9, 18) if c != y)  # 'only'


def test_holder_of_submarine_4_never_wants_win_no_tricks():
    # submarine 4 wins any trick it is played into: "win no tricks" is a certain failure
    s = make_state(deal_hands(4, 5))
    cap = int(s[S.S_CAPTAIN])
    row = T.row("win_0_tricks")
    assert task_fit(s, cap, row, T.ctype, T.params) == 0.0
    assert task_fit(s, (cap + 1) % 4, row, T.ctype, T.params) > 0.0


def test_a_secret_prediction_is_not_read_by_others():
    # task 85: X is kept secret; another player's choice must not depend on it
    s, _, _ = dealt_with_tasks(11, [0, 1], 2)
    k = add_task(s, "predict_x_secret", 1, 0)
    ids, prm = HEUR
    legal = np.empty(40, np.int64)
    p = S.current_player(s)
    if p == 1:
        p = 0
        s[S.S_LEADER] = 0
    n = turn.legal_cards(s, p, legal)
    choices = set()
    for x in range(0, 11):
        s[S.O_TX + k] = x
        choices.add(int(decide_play(s, p, legal, n, ids[p], prm[p], T.ctype, T.params, SEARCH)))
    assert len(choices) == 1


def test_sampler_runs_every_table_size_and_repeats_itself():
    from simulator.games.crew_deep_sea.rules import Rules

    r = Rules().with_values({"mission": 4})
    for players in (2, 5):
        ids, prm = engine_arrays(
            seat_policies(
                ["sampler:samples=3,nodes=300,pick_nodes=300"], SPEC.policies, SPEC.id, players
            )
        )
        seeds = np.arange(6, dtype=np.uint32)
        a = SPEC.play_chunk(r, players, ids, prm, seeds)
        b = SPEC.play_chunk(r, players, ids, prm, seeds)
        assert (a["success"] == b["success"]).all() and (a["length"] == b["length"]).all()
        assert ((a["length"] <= (13 if players == 2 else 8)) & (a["length"] >= 1)).all()


# -- the horizon evaluation: a pending task scored from the state so far ----------------------
def _keep(s, k=0):
    return task_keep(s, k, T.ctype, T.params)


def test_horizon_scores_win_no_9s_by_where_the_9s_are():
    nines_away = [
        ["P1", "Y1", "G1", "B1", "S1"],
        ["P2", "Y2", "G2", "B2", "S2"],
        ["P3", "Y3", "G3", "B3", "S3"],
        ["P9", "Y9", "G9", "B9", "S4"],
    ]
    s = make_state(nines_away)
    add_task(s, "win_no_9s", 0)
    two_held = make_state(
        [["P9", "Y9", "G1", "B1", "S1"], *nines_away[1:3], ["P1", "Y1"] + nines_away[3][2:]]
    )
    add_task(two_held, "win_no_9s", 0)
    assert _keep(two_held) < _keep(s) < 1.0  # a 9 in the holder's hand is the larger risk
    # the captain (seat 3) wins its own 9s: each one gone raises the chance, the last settles it
    before = _keep(s)
    for lead, rest in (("P9", ["P1", "P2", "P3"]), ("Y9", ["Y1", "Y2", "Y3"])):
        assert play_trick(s, [lead, *rest]) == 3
        verdicts.evaluate(s, T.ctype, T.params, False)
        assert _keep(s) > before
        before = _keep(s)
    for lead, rest in (("G9", ["G1", "G2", "G3"]), ("B9", ["B1", "B2", "B3"])):
        play_trick(s, [lead, *rest])
    verdicts.evaluate(s, T.ctype, T.params, False)
    assert s[S.O_TSTATE] == S.DONE
    assert horizon_value(s, T.ctype, T.params) == 1.0  # already certain, a trick before the end


def test_horizon_scores_more_pink_than_green_from_counts_and_hands():
    others = [["P2", "G2", "G5"], ["P3", "G3", "G6"]]
    pinks = [["P9", "P8", "Y1"], *others, ["P4", "G4", "S4"]]
    greens = [["G9", "G8", "Y1"], *others, ["P4", "P8", "S4"]]
    a, b = make_state(pinks), make_state(greens)
    for s in (a, b):
        add_task(s, "more_pink_than_green", 0)
    assert _keep(a) > 0.5 > _keep(b)  # holding pink helps, holding green hurts
    lead = _keep(a)
    assert play_trick(a, ["P4", "P9", "P2", "P3"]) == 0  # the holder wins four pink cards
    verdicts.evaluate(a, T.ctype, T.params, False)
    assert a[S.O_TSTATE] == S.PENDING and _keep(a) > lead


def test_horizon_scores_a_card_to_win_by_who_holds_it():
    def keep(hands):
        s = make_state(hands, captain=0)
        add_task(s, "win_pink3", 0)
        return _keep(s)

    held = keep([["P3", "Y1"], ["P5", "Y2"], ["P2", "Y3"], ["P4", "S4"]])
    beats_it = keep([["P9", "Y1"], ["P3", "Y2"], ["P2", "Y3"], ["P4", "S4"]])
    long_shot = keep([["P1", "Y1"], ["P3", "Y2"], ["P2", "Y3"], ["P4", "S4"]])
    assert held > beats_it > long_shot > 0.0


def test_search_reports_its_horizon_estimate_only_when_out_of_budget():
    line = np.empty(40, np.int64)
    for seed in range(4):
        s = make_state(deal_hands(4, seed))
        add_task(s, "more_pink_than_green", int(seed % 4))
        add_task(s, "win_no_9s", int((seed + 1) % 4))
        found, nodes = search_line(s, T.ctype, T.params, 60, line)
        f2, n2, est = depth_first(s, T.ctype, T.params, 60, line, True)
        assert (found, nodes) == (f2, n2)  # the estimate never changes the search itself
        assert depth_first(s, T.ctype, T.params, 60, line, False)[2] == -1.0
        if found < 0 and nodes > 60:
            assert 0.0 < est <= 1.0
