"""Crew Deep Sea rules on hand-made states: tricks, draw, communication, every condition type."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.crew_deep_sea import decide_direction
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import CONDITION_TYPES, card, missions, task_table
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from tests.crew_helpers import add_task, make_state, play_trick, seed_rng, task_state

P, D, F = S.PENDING, S.DONE, S.FAILED

# 4 players, 10 cards each; player 0 holds submarine 4 and is captain.
HANDS = [
    ["P9", "P8", "P7", "Y1", "Y2", "G1", "G2", "B1", "B2", "S4"],
    ["P1", "P2", "P3", "Y9", "Y8", "Y7", "G3", "B3", "B4", "S1"],
    ["P4", "P5", "Y3", "Y4", "G9", "G8", "G7", "B5", "B6", "S2"],
    ["P6", "Y5", "Y6", "G4", "G5", "G6", "B7", "B8", "B9", "S3"],
]
# Six tricks of sequence A, each from the current leader; winners 0, 1, 2, 3, 1, 3.
SEQ_A = [
    ["P9", "P1", "P4", "P6"],
    ["Y1", "Y9", "Y3", "Y5"],
    ["G3", "G9", "G4", "G1"],
    ["B5", "B9", "B1", "B3"],
    ["Y6", "Y2", "Y8", "Y4"],
    ["P2", "P5", "S3", "P7"],
]


def cards(*codes):
    return np.array([card(c) for c in codes], np.int64)


def test_trick_winner_follows_suit_and_trumps():
    assert turn.trick_winner_card(cards("P5", "P9", "P2", "P7"), 4) == 1
    assert turn.trick_winner_card(cards("P5", "Y9", "P2"), 3) == 0  # off-suit never wins
    assert turn.trick_winner_card(cards("P5", "P9", "S1", "P7"), 4) == 2  # any submarine trumps
    assert turn.trick_winner_card(cards("S2", "S4", "S1"), 3) == 1
    assert turn.trick_winner_card(cards("G1", "S1", "S3", "G9"), 4) == 2


def test_captain_leads_and_must_follow_suit():
    s = make_state(HANDS)
    assert s[S.S_CAPTAIN] == 0 and S.current_player(s) == 0
    legal = np.empty(40, np.int64)
    assert turn.legal_cards(s, 0, legal) == 10  # the leader may play anything
    turn.play_card(s, 0, card("P9"))
    n = turn.legal_cards(s, 1, legal)
    assert sorted(legal[:n]) == sorted(cards("P1", "P2", "P3"))
    for code in ("P1", "P4", "P6"):
        turn.play_card(s, S.current_player(s), card(code))
    assert turn.finish_trick(s) == 0 and S.current_player(s) == 0  # winner leads
    play_trick(s, ["Y1", "Y9", "Y3", "Y5"])
    assert S.current_player(s) == 1
    # player 3 has no pink after trick 1: any card, and may trump
    play_trick(s, ["G3", "G9", "G4", "G1"])
    play_trick(s, ["B5", "B9", "B1", "B3"])
    play_trick(s, ["Y6", "Y2", "Y8", "Y4"])
    turn.play_card(s, 1, card("P2"))
    turn.play_card(s, 2, card("P5"))
    assert turn.legal_cards(s, 3, legal) == 5
    assert s[S.O_VOID + 3 * 5 + 0] == 0
    turn.play_card(s, 3, card("S3"))
    assert s[S.O_VOID + 3 * 5 + 0] == 1  # shown void in pink


def test_submarine_lead_must_be_followed_with_submarine():
    s = make_state(HANDS)
    turn.play_card(s, 0, card("S4"))
    legal = np.empty(40, np.int64)
    assert list(legal[: turn.legal_cards(s, 1, legal)]) == [card("S1")]


def test_mission12_illegal_lead_option():
    s = make_state(HANDS)
    s[S.S_OBJECTIVE] = S.OBJ_NO_LEAD
    legal = np.empty(40, np.int64)
    assert turn.legal_cards(s, 0, legal) == 10  # default reading: allowed, but fails the mission
    s[S.S_LEAD_ILLEGAL] = 1
    n = turn.legal_cards(s, 0, legal)
    assert n == 6 and not any(turn.forbidden_lead(c) for c in legal[:n])
    s2 = make_state([["P1", "S1"], ["P2", "Y1"], ["G1", "G2"], ["B1", "B2"]], captain=0)
    s2[S.S_OBJECTIVE] = S.OBJ_NO_LEAD
    s2[S.S_LEAD_ILLEGAL] = 1
    assert turn.legal_cards(s2, 0, legal) == 2  # only forbidden cards: the lead is forced


@pytest.mark.parametrize("n_players,tricks,sizes", [(3, 13, [14, 13, 13]), (4, 10, [10] * 4)])
def test_deal_sizes_and_captain(n_players, tricks, sizes):
    seed_rng(7)
    owner, captain = E.deal(n_players)
    assert sorted(np.bincount(owner, minlength=n_players), reverse=True) == sizes
    assert captain == owner[card("S4")]
    s = S.new_state(n_players, owner, captain)
    assert s[S.S_NTRICKS] == tricks


def test_task_draw_skips_overshooting_cards():
    values = np.array([3, 2, 4, 1, 1], np.int64)
    out = np.empty(8, np.int64)
    n = turn.draw_tasks(np.arange(5), values, 4, out)
    assert n == 2 and list(out[:2]) == [0, 3]  # 3, skip 2 and 4, then 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 40), st.sampled_from([3, 4, 5]))
def test_task_draw_sums_exactly(seed, target, n_players):
    values = task_table().difficulty[:, n_players - 3]
    order = np.random.default_rng(seed).permutation(96)
    out = np.empty(64, np.int64)
    n = turn.draw_tasks(order, values, target, out)
    assert n > 0 and values[out[:n]].sum() == target and len(set(out[:n])) == n


def test_communication_claims_must_be_true():
    s = make_state(HANDS)
    hi, only, lo = 1 << S.HIGHEST, 1 << S.ONLY, 1 << S.LOWEST
    assert turn.comm_claims(s, 0, card("P9")) == hi  # P7 P8 P9: 9 is highest
    assert turn.comm_claims(s, 0, card("P7")) == lo
    assert turn.comm_claims(s, 0, card("P8")) == 0  # middle card: nothing true to say
    assert turn.comm_claims(s, 0, card("S4")) == 0  # submarines are never shown
    assert turn.comm_claims(s, 0, card("Y9")) == 0  # not in hand
    s1 = make_state([["P1", "Y5"], ["P2", "Y1"], ["G1", "G2"], ["B1", "S4"]])
    assert turn.comm_claims(s1, 0, card("Y5")) == only
    s1[S.S_SINGLE_ANY] = 1
    assert turn.comm_claims(s1, 0, card("Y5")) == hi | only | lo


def test_sonar_between_tricks_and_modes():
    s = make_state(HANDS)
    assert turn.may_communicate(s, 2)
    turn.communicate(s, 2, card("G9"), S.HIGHEST)
    assert not turn.may_communicate(s, 2) and turn.may_communicate(s, 1)  # one token each
    turn.play_card(s, 0, card("P9"))
    assert not turn.may_communicate(s, 1)  # only between tricks
    r = make_state(HANDS)
    r[S.S_COMM_MODE] = S.COMM_RAPTURE
    r[S.S_POOL] = 2  # players - 2, shared
    turn.communicate(r, 1, card("Y9"), S.HIGHEST)
    turn.communicate(r, 1, card("P1"), S.LOWEST)  # the same member may use several tokens
    assert not turn.may_communicate(r, 3)
    c = make_state(HANDS)
    c[S.S_COMM_MODE] = S.COMM_CURRENTS
    turn.communicate(c, 1, card("Y9"), S.HIGHEST)
    assert c[S.O_COMMK + card("Y9")] == S.HIDDEN  # currents: no position shown
    n = make_state(HANDS)
    n[S.S_COMM_FROM] = 1  # mission 23: nothing before trick 2
    assert not turn.may_communicate(n, 0)
    play_trick(n, SEQ_A[0])
    assert turn.may_communicate(n, 0)


def test_terrain_card_picks_the_mode():
    modes = [E.terrain_mode(r) for r in range(1, 10)]
    assert modes == [S.COMM_NORMAL] * 3 + [S.COMM_CURRENTS] * 3 + [S.COMM_RAPTURE] * 3


def after(tricks: int, key: str, holder: int, x: int = -1) -> int:
    s = make_state(HANDS)
    add_task(s, key, holder, x)
    for t in SEQ_A[:tricks]:
        play_trick(s, t)
    return task_state(s)


# (task, holder, tricks of SEQ_A played, expected state)
SEQ_CASES = [
    ("win_first_trick", 0, 1, D),
    ("win_first_trick", 1, 1, F),
    ("win_first_two_tricks", 0, 1, P),
    ("win_first_two_tricks", 0, 2, F),
    ("win_yellow1", 1, 2, D),
    ("win_yellow1", 0, 2, F),
    ("win_pink3", 1, 6, P),
    ("win_no_9s", 0, 1, F),
    ("win_no_9s", 2, 2, P),
    ("win_no_pink", 0, 1, F),
    ("win_no_subs", 3, 5, P),
    ("win_no_subs", 3, 6, F),
    ("win_at_least_5_pink", 0, 1, P),
    ("win_exactly_1_sub", 3, 6, P),
    ("win_pink7_with_sub", 3, 6, D),
    ("win_pink7_with_sub", 0, 6, F),
    ("win_sub3", 3, 6, D),
    ("win_none_first_3", 3, 3, D),
    ("win_none_first_3", 2, 3, F),
    ("win_0_tricks", 2, 3, F),
    ("win_exactly_1_trick", 0, 6, P),
    ("no_lead_pink_green", 1, 6, F),
    ("no_lead_pink_green", 2, 6, P),
    ("more_tricks_than_captain", 1, 6, P),
    ("win_one_of_each_colour", 3, 6, P),
    ("more_pink_than_green", 3, 6, P),
    ("win_2_in_a_row", 1, 6, P),
    ("never_2_in_a_row", 1, 6, P),
    ("win_exactly_2_in_a_row", 1, 5, F),  # tricks 2 and 5 are not consecutive
    ("win_exactly_2_nines", 1, 2, P),
    ("win_at_least_3_nines", 2, 3, F),  # only B9 is left to win
]


@pytest.mark.parametrize("key,holder,tricks,expected", SEQ_CASES)
def test_task_states_along_a_game(key, holder, tricks, expected):
    assert after(tricks, key, holder) == expected


def test_trick_using_rank_checks_the_winning_card():
    # trick 5 of SEQ_A: Y6 Y2 Y8 Y4, won by player 1 with Y8 -> "using a 6" not done
    assert after(5, "win_trick_using_6", 1) == P
    s = make_state(HANDS)
    add_task(s, "win_trick_using_6", 3)
    play_trick(s, SEQ_A[0])
    play_trick(s, SEQ_A[1])
    play_trick(s, SEQ_A[2])
    play_trick(s, SEQ_A[3])  # player 3 leads next
    assert play_trick(s, ["G6", "G2", "B4", "G8"]) == 2  # G8 beats G6: not done
    assert task_state(s) == P


def short_game(hands, key, holder, tricks, x=-1, captain=None):
    """A game with only the given cards in it (tricks = smallest hand)."""
    s = make_state(hands, captain=captain if captain is not None else 0)
    add_task(s, key, holder, x)
    states = []
    for t in tricks:
        play_trick(s, t)
        states.append(task_state(s))
    return states


H2 = [["P9", "Y1"], ["P1", "Y9"], ["P5", "Y5"], ["P6", "G6"]]


@pytest.mark.parametrize(
    "key,holder,x,expected",
    [
        ("win_last_trick", 1, -1, [P, D]),
        ("win_only_last_trick", 1, -1, [P, D]),
        ("win_only_first_trick", 0, -1, [P, D]),
        ("win_first_and_last", 0, -1, [P, F]),
        ("win_exactly_1_trick", 0, -1, [P, D]),
        ("win_exactly_2_tricks", 0, -1, [P, F]),
        ("win_0_tricks", 2, -1, [P, D]),
        ("predict_x_public", 3, 0, [P, D]),
        ("predict_x_secret", 1, 2, [F, F]),  # 2 tricks needed, 1 left
        ("more_tricks_than_each_other", 0, -1, [P, F]),
        ("fewer_tricks_than_each_other", 2, -1, [F, F]),  # two players still on 0
        ("as_many_tricks_as_captain", 1, -1, [P, D]),
        ("fewer_tricks_than_captain", 2, -1, [P, D]),
        ("more_tricks_than_captain", 1, -1, [F, F]),
        ("more_tricks_than_all_others_combined", 0, -1, [P, F]),
        ("never_2_in_a_row", 0, -1, [P, D]),
        ("win_2_in_a_row", 0, -1, [P, F]),
        ("win_yellow1", 1, -1, [P, D]),
        ("win_no_yellow", 1, -1, [P, F]),
        ("win_no_1s", 3, -1, [P, D]),
        ("more_yellow_than_blue", 1, -1, [P, D]),
        ("win_one_of_each_colour", 0, -1, [F, F]),  # blue is out of this game
    ],
)
def test_end_of_game_decisions(key, holder, x, expected):
    # trick 1: P9 P1 P5 P6 -> player 0; trick 2 (player 0 leads Y1): Y1 Y9 Y5 G6 -> player 1
    tricks = [["P9", "P1", "P5", "P6"], ["Y1", "Y9", "Y5", "G6"]]
    assert short_game(H2, key, holder, tricks, x) == expected


@pytest.mark.parametrize(
    "key,hands,tricks,holder,expected",
    [
        # G2 won in the last trick
        (
            "win_green2_in_last_trick",
            [["P9", "G9"], ["P1", "G2"], ["P5", "G5"]],
            [["P9", "P1", "P5"], ["G9", "G2", "G5"]],
            0,
            [P, D],
        ),
        # G2 played early: failed at once
        (
            "win_green2_in_last_trick",
            [["G9", "P9"], ["G2", "P1"], ["G5", "P5"]],
            [["G9", "G2", "G5"], ["P9", "P1", "P5"]],
            0,
            [F, F],
        ),
        # sub 1 and no other
        (
            "win_sub1_no_other_sub",
            [["S1", "P1"], ["P2", "S2"], ["P3", "Y3"]],
            [["P1", "P2", "P3"], ["Y3", "S1", "S2"]],
            0,
            [P, F],
        ),
        (
            "win_sub1_no_other_sub",
            [["S1", "P9"], ["P2", "Y2"], ["P3", "Y3"]],
            [["S1", "P2", "P3"], ["P9", "Y2", "Y3"]],
            0,
            [D, D],
        ),
        # exactly two submarines and exactly three sixes
        (
            "win_exactly_2_subs",
            [["S3", "P9"], ["S1", "P6"], ["P1", "Y6"]],
            [["S3", "S1", "P1"], ["P9", "P6", "Y6"]],
            0,
            [D, D],
        ),
        (
            "win_exactly_3_sixes",
            [["G6", "S4"], ["P6", "P1"], ["Y6", "Y1"]],
            [["G6", "P6", "Y6"], ["S4", "P1", "Y1"]],
            0,
            [D, D],
        ),
        (
            "win_exactly_1_pink_1_green",
            [["P9", "G9"], ["P1", "G1"], ["Y1", "B1"]],
            [["P9", "P1", "Y1"], ["G9", "G1", "B1"]],
            0,
            [F, F],
        ),
        (
            "as_many_pink_as_yellow",
            [["P9", "Y9"], ["Y1", "G1"], ["B1", "B2"]],
            [["P9", "Y1", "B1"], ["Y9", "G1", "B2"]],
            0,
            [P, F],
        ),
        (
            "equal_pink_blue_in_trick",
            [["P9", "G9"], ["B1", "G1"], ["Y1", "Y2"]],
            [["P9", "B1", "Y1"], ["G9", "G1", "Y2"]],
            0,
            [D, D],
        ),
        (
            "win_5_with_7",
            [["P7", "G9"], ["P5", "G1"], ["Y1", "Y2"]],
            [["P7", "P5", "Y1"], ["G9", "G1", "Y2"]],
            0,
            [D, D],
        ),
        (
            "win_6_with_6",
            [["P6", "G9"], ["Y6", "G1"], ["Y1", "Y2"]],
            [["P6", "Y6", "Y1"], ["G9", "G1", "Y2"]],
            0,
            [D, D],
        ),
        (
            "trick_all_below_7",
            [["P6", "S1"], ["P5", "S2"], ["P1", "S3"]],
            [["P6", "P5", "P1"], ["S1", "S2", "S3"]],
            0,
            [D, D],
        ),
        (
            "trick_all_above_5",
            [["P6", "S1"], ["P5", "S2"], ["P9", "S3"]],
            [["P6", "P5", "P9"], ["S3", "S1", "S2"]],
            2,
            [F, F],  # P5 spoils it and nobody holds a colour card any more
        ),
        (
            "trick_sum_below",  # 3 players: total below 8
            [["P3", "Y9"], ["P2", "Y8"], ["P1", "Y7"]],
            [["P3", "P2", "P1"], ["Y9", "Y8", "Y7"]],
            0,
            [D, D],
        ),
        (
            "trick_sum_above",  # 3 players: total above 23 (24)
            [["P9", "Y1"], ["P8", "Y2"], ["P7", "Y3"]],
            [["P9", "P8", "P7"], ["Y1", "Y2", "Y3"]],
            0,
            [D, D],
        ),
        (
            "trick_sum_22_or_23",
            [["P9", "Y1"], ["P8", "Y2"], ["P6", "Y3"]],
            [["P9", "P8", "P6"], ["Y1", "Y2", "Y3"]],
            0,
            [D, D],
        ),
        (
            "trick_only_even",
            [["P8", "Y1"], ["P2", "Y3"], ["P4", "Y5"]],
            [["P8", "P2", "P4"], ["Y1", "Y3", "Y5"]],
            0,
            [D, D],
        ),
        (
            "trick_only_odd",
            [["P8", "Y1"], ["P2", "Y3"], ["P4", "Y5"]],
            [["P8", "P2", "P4"], ["Y1", "Y3", "Y5"]],
            2,
            [P, D],
        ),
        (
            "win_all_of_one_colour",
            [["P9", "Y9"], ["P1", "Y1"], ["P2", "Y2"]],
            [["P9", "P1", "P2"], ["Y9", "Y1", "Y2"]],
            0,
            [F, F],  # only 3 pink cards are in this game: 9 can never be won
        ),
        (
            "win_3_in_a_row",
            [["P9", "Y9"], ["P1", "Y1"], ["P2", "Y2"]],
            [["P9", "P1", "P2"], ["Y9", "Y1", "Y2"]],
            0,
            [F, F],  # 2 tricks in the game
        ),
        (
            "win_exactly_3_in_a_row",
            [["P9", "Y9"], ["P1", "Y1"], ["P2", "Y2"]],
            [["P9", "P1", "P2"], ["Y9", "Y1", "Y2"]],
            1,
            [F, F],
        ),
        (
            "no_lead_pink_yellow_blue",
            [["G9", "P9"], ["G1", "Y1"], ["G2", "Y2"]],
            [["G9", "G1", "G2"], ["P9", "Y1", "Y2"]],
            0,
            [P, F],
        ),
        (
            "win_green9_with_sub",
            [["G9", "P9"], ["S1", "Y1"], ["G2", "Y2"]],
            [["G9", "S1", "G2"], ["Y1", "Y2", "P9"]],
            1,
            [D, D],
        ),
        (
            "win_no_8s_9s",
            [["G9", "P1"], ["S1", "Y1"], ["G2", "Y2"]],
            [["G9", "S1", "G2"], ["Y1", "Y2", "P1"]],
            0,
            [D, D],  # the only 8/9 went elsewhere: can no longer fail
        ),
        (
            "win_trick_using_6",
            [["P6", "Y1"], ["P2", "Y2"], ["P1", "Y3"]],
            [["P6", "P2", "P1"], ["Y1", "Y2", "Y3"]],
            0,
            [D, D],
        ),
        (
            "win_none_first_5",
            [["G9", "P1"], ["S1", "Y1"], ["G2", "Y2"]],
            [["G9", "S1", "G2"], ["Y1", "Y2", "P1"]],
            0,
            [P, D],
        ),
    ],
)
def test_condition_cases_three_players(key, hands, tricks, holder, expected):
    assert short_game(hands, key, holder, tricks, captain=0) == expected


def test_every_condition_type_is_exercised():
    keys = {c[0] for c in SEQ_CASES} | {
        "win_last_trick",
        "win_only_last_trick",
        "win_only_first_trick",
        "predict_x_public",
        "win_no_yellow",
        "win_green2_in_last_trick",
        "win_sub1_no_other_sub",
        "win_exactly_2_subs",
        "win_exactly_3_sixes",
        "as_many_pink_as_yellow",
        "equal_pink_blue_in_trick",
        "win_5_with_7",
        "trick_all_below_7",
        "trick_sum_below",
        "trick_only_even",
        "win_all_of_one_colour",
        "win_3_in_a_row",
        "win_exactly_3_in_a_row",
        "no_lead_pink_yellow_blue",
        "win_green9_with_sub",
        "fewer_tricks_than_each_other",
        "more_tricks_than_all_others_combined",
        "win_trick_using_6",
    }
    t = task_table()
    covered = {CONDITION_TYPES[t.ctype[t.row(k)]] for k in keys}
    assert covered == set(CONDITION_TYPES)


def test_referee_fails_impossible_single_trick_tasks_from_the_hands():
    # player 2 holds no card below 7 in colour: no trick of all cards < 7 can happen
    hands = [["P1", "S1"], ["P2", "S2"], ["P9", "S3"]]
    s = make_state(hands, captain=0)
    add_task(s, "trick_all_below_7", 0)
    assert task_state(s, public=False) == F
    assert task_state(s, public=True) == P  # policies cannot see that


def test_mission_rules():
    # mission 8: one player 2 nines ahead fails at once
    s = make_state([["P9", "Y9", "G1"], ["P1", "Y1", "G9"], ["P2", "Y2", "G2"]], captain=0)
    s[S.S_OBJECTIVE] = S.OBJ_BALANCE9
    play_trick(s, ["P9", "P1", "P2"])
    assert verdicts.eval_objective(s, S.OBJ_BALANCE9) == P
    play_trick(s, ["Y9", "Y1", "Y2"])
    assert verdicts.eval_objective(s, S.OBJ_BALANCE9) == F
    # mission 23: the first-trick winner must stay strictly ahead
    s = make_state([["P9", "Y1", "G9"], ["P1", "Y9", "G1"], ["P2", "Y2", "G2"]], captain=0)
    play_trick(s, ["P9", "P1", "P2"])
    assert verdicts.eval_objective(s, S.OBJ_FIRST_WINNER) == P
    play_trick(s, ["Y1", "Y9", "Y2"])
    assert verdicts.eval_objective(s, S.OBJ_FIRST_WINNER) == F
    # mission 27: yellow 5 must be the very last card
    s = make_state([["P9", "Y1"], ["P1", "Y9"], ["P2", "Y5"]], captain=0)
    play_trick(s, ["P9", "P1", "P2"])
    play_trick(s, ["Y1", "Y9", "Y5"])
    assert verdicts.eval_objective(s, S.OBJ_Y5_LAST) == D
    s = make_state([["P9", "Y1"], ["P1", "Y5"], ["P2", "Y9"]], captain=0)
    play_trick(s, ["P9", "P1", "P2"])
    play_trick(s, ["Y1", "Y5", "Y9"])
    assert verdicts.eval_objective(s, S.OBJ_Y5_LAST) == F
    # mission 12: a pink lead fails (default reading)
    s = make_state([["P9", "Y1"], ["P1", "Y9"], ["P2", "Y5"]], captain=0)
    play_trick(s, ["P9", "P1", "P2"])
    assert verdicts.eval_objective(s, S.OBJ_NO_LEAD) == F


def test_distress_pass_moves_one_colour_card_left():
    s = make_state(HANDS)
    turn.distress_pass(s, cards("P9", "P1", "P4", "P6"), 1)
    assert s[S.O_OWNER + card("P9")] == 1 and s[S.O_OWNER + card("P6")] == 0
    assert [s[S.O_HANDN + p] for p in range(4)] == [10, 10, 10, 10]
    with pytest.raises(ValueError):
        turn.distress_pass(make_state(HANDS), cards("S4", "P1", "P4", "P6"), 1)


def test_distress_direction_is_agreed():
    # Seed: "Todas las cartas deben pasarse en la misma dirección; los jugadores pueden acordar
    # la dirección de paso." Player 0 holds yellow 1, the task card of its right neighbour
    # (player 3): the crew passes right, and everyone's card goes right.
    s = make_state(HANDS)
    t = task_table()
    add_task(s, "win_yellow1", 3)
    ids, prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))
    assert decide_direction(s, 0, ids[0], prm[0], t.ctype, t.params) == -1
    assert E.pass_direction(s, 0, ids, prm, t.ctype, t.params) == -1  # agreed
    assert E.pass_direction(s, 1, ids, prm, t.ctype, t.params) == 1  # rule: always left
    assert E.pass_direction(s, 2, ids, prm, t.ctype, t.params) == -1  # rule: always right
    turn.distress_pass(s, cards("Y1", "P1", "P4", "P6"), -1)
    assert s[S.O_OWNER + card("Y1")] == 3 and s[S.O_OWNER + card("P1")] == 0
    assert Rules().with_values({"distress_direction": "right"}).distress_direction == "right"


def test_deals_ruling_out_a_single_trick_task_are_redealt():
    # Seed: "Si alguna de las tareas hace que la misión sea imposible, éstas se barajan de
    # nuevo ... y se vuelven a dibujar." Player 2 holds no colour card below 7: no trick of
    # cards all below 7 can form.
    t = task_table()
    rcfg = E.engine_inputs(Rules(), 3).rcfg
    rows = np.array([t.row("trick_all_below_7")], np.int64)
    blocked = make_state([["P1", "S1"], ["P2", "S2"], ["P9", "S3"]], captain=0)
    assert E.impossible_set(blocked, rows, 1, t.redeal, t.ctype, t.params, rcfg)
    assert not E.impossible_set(make_state(HANDS), rows, 1, t.redeal, t.ctype, t.params, rcfg)
    # whole attempts: no drawn single-trick task is already lost before the first trick
    r = Rules().with_values({"mission": 20})
    inp = E.engine_inputs(r, 4)
    buf = np.empty(S.MAX_TASKS, np.int64)
    single = range(S.C_WIN_TRICK_EQUAL_SUITS, S.C_WIN_TRICK_PARITY + 1)
    for seed in range(60):
        seed_rng(seed)
        s, _ = E.setup_attempt(4, inp, buf)
        for k in range(s[S.S_NTASKS]):
            s[S.O_HOLDER + k] = 0
        for k in range(s[S.S_NTASKS]):
            if t.ctype[s[S.O_TASK + k]] in single:
                assert verdicts.eval_task(s, k, t.ctype, t.params, False) != F


def test_redeal_conditions_from_the_notes():
    t = task_table()
    rows = np.array([t.row("win_exactly_1_sub")], np.int64)
    all_subs = [["S1", "S2", "S3", "S4", "P1"], ["P2"], ["P3"]]
    assert E.deal_impossible(make_state(all_subs), rows, 1, t.redeal)
    assert not E.deal_impossible(make_state(HANDS), rows, 1, t.redeal)
    rows = np.array([t.row("win_sub1_no_other_sub")], np.int64)
    assert E.deal_impossible(make_state([["S1", "S4"], ["S2"], ["S3"]]), rows, 1, t.redeal)


def test_forced_conflict_replaced_by_equal_value():
    t = task_table()
    values = t.difficulty[:, 1]
    rows = np.array([t.row("win_first_trick"), t.row("win_first_two_tricks")], np.int64)
    E._replace_conflicts(rows, 2, values, t.forced, np.arange(96))
    assert rows[0] == t.row("win_first_trick") and rows[1] != t.row("win_first_two_tricks")
    assert values[rows[1]] == values[t.row("win_first_two_tricks")] and t.forced[rows[1]] == 0


def test_logbook_table():
    m = missions()
    assert len(m) == 33 and m[6].allocation == "one_player_takes_all"
    assert [n for n, x in m.items() if x.allocation == "none"] == [8, 12, 21, 23, 27]
    assert m[32].fixed_tasks and m[17].allocation == "free" and m[33].target == 18
    t = task_table()
    assert t.difficulty.sum(axis=0).tolist() == [229, 264, 297]  # totals in notes.md


def test_more_pink_than_green_ignores_the_card_never_played():
    # The task is about cards won ("Un jugador completa una tarea cumpliendo la condición que
    # se indica en la carta"). 3 players deal 14/13/13, so one card is never played; here it is
    # green (then blue), and it must not count against the holder at the end.
    s = make_state([["P9", "Y1", "G1"], ["G9", "Y9"], ["P2", "Y2"]], captain=0)
    add_task(s, "more_pink_than_green", 0)
    play_trick(s, ["P9", "G9", "P2"])  # player 0 wins 2 pink, 1 green; G1 still in hand
    assert task_state(s) == P
    play_trick(s, ["Y1", "Y9", "Y2"])
    assert s[S.S_DONE] == s[S.S_NTRICKS] and s[S.O_OWNER + card("G1")] == 0
    assert task_state(s) == D
    s = make_state([["P1", "G1", "B1"], ["P9", "Y9"], ["B2", "Y2"]], captain=0)
    add_task(s, "more_yellow_than_blue", 1)
    play_trick(s, ["P1", "P9", "B2"])  # player 1 wins 1 blue
    play_trick(s, ["Y9", "Y2", "G1"])  # and 2 yellow; B1 is never played
    assert task_state(s) == D


@pytest.mark.parametrize(
    "key,unplayed",
    [("win_exactly_2_subs", "S2"), ("win_exactly_2_nines", "Y9"), ("win_exactly_1_pink", "P5")],
)
def test_exactly_n_fails_when_the_card_short_is_never_played(key, unplayed):
    # "Un jugador completa una tarea cumpliendo la condición que se indica en la carta": with
    # 14/13/13 one card is never played, so a holder one card short at the end of the hand has
    # not won exactly N: the task fails (it used to stay pending and the attempt ended
    # all_tricks_played).
    first = {"win_exactly_2_subs": "S1", "win_exactly_2_nines": "G9", "win_exactly_1_pink": "B9"}
    hands = [[first[key], "G8", unplayed], ["G1", "Y1"], ["G2", "Y2"]]
    if key == "win_exactly_1_pink":  # holder needs one pink, wins none
        hands = [["B9", "G8", unplayed], ["B1", "Y1"], ["B2", "Y2"]]
    s = make_state(hands, captain=0)
    add_task(s, key, 0)
    play_trick(s, [hands[0][0], hands[1][0], hands[2][0]])
    assert task_state(s) == P
    play_trick(s, ["G8", hands[1][1], hands[2][1]])
    assert s[S.S_DONE] == s[S.S_NTRICKS] and s[S.O_OWNER + card(unplayed)] == 0
    assert task_state(s) == F
    # the same deal with the missing card played and won by the holder: done
    s = make_state([[first[key], unplayed], hands[1][:1] + ["G3"], hands[2][:1] + ["G4"]], 0)
    add_task(s, key, 0)
    play_trick(s, [first[key], hands[1][0], hands[2][0]])
    play_trick(s, [unplayed, "G3", "G4"])
    assert task_state(s) == D


# A done case and the nearest miss (the tie, where a count is compared) for every kind of task,
# each judged at the end of a short 3-player hand. Captain (and first leader): seat 0.
BOTH = [["P9", "Y9"], ["P1", "Y1"], ["P2", "Y2"]]  # seat 0 wins both tricks
BOTH_T = [["P9", "P1", "P2"], ["Y9", "Y1", "Y2"]]
SPLIT = [["P9", "Y1"], ["P1", "Y9"], ["P2", "Y2"]]  # seats 0 and 1 win one trick each
SPLIT_T = [["P9", "P1", "P2"], ["Y1", "Y9", "Y2"]]
ALL_PINK = [["P9", "P8", "P7"], ["P1", "P3", "P5"], ["P2", "P4", "P6"]]
ALL_PINK_T = [["P9", "P1", "P2"], ["P8", "P3", "P4"], ["P7", "P5", "P6"]]
# fmt: off
EDGE_CASES = [
    # (task, hands, tricks, holder, x, state at the end of the hand)
    ("win_yellow1", BOTH, BOTH_T, 0, -1, D),
    ("win_yellow1", BOTH, BOTH_T, 2, -1, F),
    ("win_green2_in_last_trick", [["P9", "G9"], ["P1", "G2"], ["P5", "G5"]],
     [["P9", "P1", "P5"], ["G9", "G2", "G5"]], 0, -1, D),
    ("win_green2_in_last_trick", [["G9", "P9"], ["G2", "P1"], ["G5", "P5"]],
     [["G9", "G2", "G5"], ["P9", "P1", "P5"]], 0, -1, F),
    ("win_sub1_no_other_sub", [["S1", "P9"], ["P2", "Y2"], ["P3", "Y3"]],
     [["S1", "P2", "P3"], ["P9", "Y2", "Y3"]], 0, -1, D),
    ("win_sub1_no_other_sub", [["S1", "S2"], ["P2", "Y2"], ["P3", "Y3"]],
     [["S1", "P2", "P3"], ["S2", "Y2", "Y3"]], 0, -1, F),  # a second submarine
    ("win_pink7_with_sub", [["S1", "Y9"], ["P7", "Y1"], ["P2", "Y2"]],
     [["S1", "P7", "P2"], ["Y9", "Y1", "Y2"]], 0, -1, D),
    ("win_pink7_with_sub", [["P9", "Y9"], ["P7", "Y1"], ["P2", "Y2"]],
     [["P9", "P7", "P2"], ["Y9", "Y1", "Y2"]], 0, -1, F),  # won, but not with a submarine
    ("win_at_least_2_sevens", [["P7", "Y7"], ["P1", "Y1"], ["P2", "Y2"]],
     [["P7", "P1", "P2"], ["Y7", "Y1", "Y2"]], 0, -1, D),  # exactly two: at least two
    ("win_at_least_2_sevens", [["P7", "Y9"], ["P1", "Y1"], ["P2", "Y2"]],
     [["P7", "P1", "P2"], ["Y9", "Y1", "Y2"]], 0, -1, F),
    ("win_exactly_2_nines", BOTH, BOTH_T, 0, -1, D),
    ("win_exactly_2_nines", [["P9", "Y9", "G9"], ["P1", "Y1", "G1"], ["P2", "Y2", "G2"]],
     [["P9", "P1", "P2"], ["Y9", "Y1", "Y2"], ["G9", "G1", "G2"]], 0, -1, F),  # three
    ("win_at_least_5_pink", [["P9", "P8"], ["P1", "P3"], ["P2", "Y4"]],
     [["P9", "P1", "P2"], ["P8", "P3", "Y4"]], 0, -1, D),  # exactly five
    ("win_at_least_5_pink", [["P9", "P8"], ["P1", "Y3"], ["P2", "Y4"]],
     [["P9", "P1", "P2"], ["P8", "Y3", "Y4"]], 0, -1, F),  # four
    ("win_exactly_2_blue", [["B9", "Y9"], ["B1", "Y1"], ["P2", "Y2"]],
     [["B9", "B1", "P2"], ["Y9", "Y1", "Y2"]], 0, -1, D),
    ("win_exactly_2_blue", [["B9", "Y9"], ["B1", "Y1"], ["B2", "Y2"]],
     [["B9", "B1", "B2"], ["Y9", "Y1", "Y2"]], 0, -1, F),  # three
    ("win_no_pink", BOTH, BOTH_T, 1, -1, D),
    ("win_no_pink", BOTH, BOTH_T, 0, -1, F),
    ("more_pink_than_green", [["P9", "G9"], ["P1", "Y1"], ["Y2", "Y3"]],
     [["P9", "P1", "Y2"], ["G9", "Y1", "Y3"]], 0, -1, D),  # 2 pink, 1 green
    ("more_pink_than_green", [["P9", "G9"], ["P1", "G1"], ["Y2", "Y3"]],
     [["P9", "P1", "Y2"], ["G9", "G1", "Y3"]], 0, -1, F),  # 2 and 2: a tie is not more
    ("as_many_pink_as_yellow", BOTH, BOTH_T, 0, -1, D),
    ("as_many_pink_as_yellow", BOTH, BOTH_T, 1, -1, F),  # none of either: fewer than one
    ("win_one_of_each_colour", [["P9", "G9"], ["Y1", "B1"], ["P2", "G2"]],
     [["P9", "Y1", "P2"], ["G9", "B1", "G2"]], 0, -1, D),
    ("win_one_of_each_colour", [["P9", "G9"], ["Y1", "G1"], ["P2", "G2"]],
     [["P9", "Y1", "P2"], ["G9", "G1", "G2"]], 0, -1, F),  # no blue
    ("win_all_of_one_colour", ALL_PINK, ALL_PINK_T, 0, -1, D),
    ("win_all_of_one_colour", [["P9", "P8", "P6"], ["P1", "P3", "P7"], ["P2", "P4", "P5"]],
     [["P9", "P1", "P2"], ["P8", "P3", "P4"], ["P6", "P7", "P5"]], 0, -1, F),  # eight of nine
    ("equal_pink_blue_in_trick", [["P9", "G9"], ["B1", "G1"], ["Y1", "Y2"]],
     [["P9", "B1", "Y1"], ["G9", "G1", "Y2"]], 0, -1, D),
    ("equal_pink_blue_in_trick", [["P9", "G9"], ["P1", "G1"], ["B1", "Y2"]],
     [["P9", "P1", "B1"], ["G9", "G1", "Y2"]], 0, -1, F),  # 2 pink and 1 blue
    ("win_5_with_7", [["P7", "G9"], ["P5", "G1"], ["Y1", "Y2"]],
     [["P7", "P5", "Y1"], ["G9", "G1", "Y2"]], 0, -1, D),
    ("win_5_with_7", [["P8", "G9"], ["P5", "G1"], ["P7", "Y2"]],
     [["P8", "P5", "P7"], ["G9", "G1", "Y2"]], 0, -1, F),  # the 5 won with an 8
    ("win_trick_using_6", [["P6", "Y1"], ["P2", "Y2"], ["P1", "Y3"]],
     [["P6", "P2", "P1"], ["Y1", "Y2", "Y3"]], 0, -1, D),
    ("win_trick_using_6", [["P7", "Y1"], ["P6", "Y2"], ["P1", "Y3"]],
     [["P7", "P6", "P1"], ["Y1", "Y2", "Y3"]], 0, -1, F),  # a 6 in it, won with the 7
    ("trick_all_below_7", [["P6", "S1"], ["P5", "S2"], ["P1", "S3"]],
     [["P6", "P5", "P1"], ["S1", "S2", "S3"]], 0, -1, D),
    ("trick_all_below_7", [["P6", "S1"], ["P7", "S2"], ["P1", "S3"]],
     [["P6", "P7", "P1"], ["S2", "S3", "S1"]], 1, -1, F),  # a 7: not below 7
    ("trick_sum_below", [["P4", "Y9"], ["P2", "Y8"], ["P1", "Y7"]],
     [["P4", "P2", "P1"], ["Y9", "Y8", "Y7"]], 0, -1, D),  # 7 < 8
    ("trick_sum_below", [["P4", "Y9"], ["P3", "Y8"], ["P1", "Y7"]],
     [["P4", "P3", "P1"], ["Y9", "Y8", "Y7"]], 0, -1, F),  # 8: not below 8
    ("trick_sum_above", [["P9", "Y1"], ["P8", "Y2"], ["P7", "Y3"]],
     [["P9", "P8", "P7"], ["Y1", "Y2", "Y3"]], 0, -1, D),  # 24 > 23
    ("trick_sum_above", [["P9", "Y1"], ["P8", "Y2"], ["P6", "Y3"]],
     [["P9", "P8", "P6"], ["Y1", "Y2", "Y3"]], 0, -1, F),  # 23: not above 23
    ("trick_only_even", [["P8", "Y1"], ["P2", "Y3"], ["P4", "Y5"]],
     [["P8", "P2", "P4"], ["Y1", "Y3", "Y5"]], 0, -1, D),
    ("trick_only_even", [["P8", "Y1"], ["P3", "Y3"], ["P4", "Y5"]],
     [["P8", "P3", "P4"], ["Y1", "Y3", "Y5"]], 0, -1, F),
    ("no_lead_pink_green", BOTH, BOTH_T, 1, -1, D),
    ("no_lead_pink_green", BOTH, BOTH_T, 0, -1, F),
    ("win_first_trick", BOTH, BOTH_T, 0, -1, D),
    ("win_first_trick", SPLIT, SPLIT_T, 1, -1, F),
    ("win_only_first_trick", SPLIT, SPLIT_T, 0, -1, D),
    ("win_only_first_trick", BOTH, BOTH_T, 0, -1, F),  # the second one too
    ("win_none_first_3", BOTH, BOTH_T, 1, -1, D),
    ("win_none_first_3", SPLIT, SPLIT_T, 1, -1, F),
    ("win_exactly_1_trick", SPLIT, SPLIT_T, 0, -1, D),
    ("win_exactly_1_trick", BOTH, BOTH_T, 0, -1, F),
    ("predict_x_public", BOTH, BOTH_T, 0, 2, D),
    ("predict_x_public", BOTH, BOTH_T, 0, 1, F),
    ("win_2_in_a_row", BOTH, BOTH_T, 0, -1, D),
    ("win_2_in_a_row", SPLIT, SPLIT_T, 0, -1, F),
    ("win_exactly_2_in_a_row", BOTH, BOTH_T, 0, -1, D),
    ("win_exactly_2_in_a_row", ALL_PINK, ALL_PINK_T, 0, -1, F),  # three in a row
    ("never_2_in_a_row", SPLIT, SPLIT_T, 0, -1, D),
    ("never_2_in_a_row", BOTH, BOTH_T, 0, -1, F),
    ("more_tricks_than_each_other", BOTH, BOTH_T, 0, -1, D),
    ("more_tricks_than_each_other", SPLIT, SPLIT_T, 0, -1, F),  # 1 and 1: a tie
    ("fewer_tricks_than_each_other", BOTH, BOTH_T, 1, -1, F),  # 0 and 0: a tie
    ("fewer_tricks_than_each_other", SPLIT, SPLIT_T, 2, -1, D),
    ("more_tricks_than_all_others_combined", BOTH, BOTH_T, 0, -1, D),
    ("more_tricks_than_all_others_combined", SPLIT, SPLIT_T, 0, -1, F),  # 1 against 1
    ("more_tricks_than_captain", SPLIT, SPLIT_T, 1, -1, F),  # 1 against the captain's 1
    ("more_tricks_than_captain", [["P1", "Y1"], ["P9", "Y9"], ["P2", "Y2"]],
     [["P1", "P9", "P2"], ["Y9", "Y2", "Y1"]], 1, -1, D),
    ("as_many_tricks_as_captain", SPLIT, SPLIT_T, 1, -1, D),
    ("as_many_tricks_as_captain", BOTH, BOTH_T, 1, -1, F),
    ("fewer_tricks_than_captain", BOTH, BOTH_T, 1, -1, D),
    ("fewer_tricks_than_captain", SPLIT, SPLIT_T, 1, -1, F),  # 1 against 1
]
# fmt: on


@pytest.mark.parametrize("key,hands,tricks,holder,x,expected", EDGE_CASES)
def test_a_done_case_and_a_tie_for_every_kind_of_task(key, hands, tricks, holder, x, expected):
    assert short_game(hands, key, holder, tricks, x, captain=0)[-1] == expected


def test_the_edge_cases_cover_every_kind_with_both_verdicts():
    t = task_table()
    seen: dict[str, set[int]] = {}
    for key, *_, expected in EDGE_CASES:
        seen.setdefault(CONDITION_TYPES[t.ctype[t.row(key)]], set()).add(expected)
    assert set(seen) == set(CONDITION_TYPES)
    assert all(v == {D, F} for v in seen.values())
