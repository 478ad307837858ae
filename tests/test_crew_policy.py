"""Crew Deep Sea policies on hand-made states: the card play of a cooperative crew, task fit and
the omniscient search's move ordering."""

from __future__ import annotations

import numpy as np

from policies.crew_deep_sea import decide_play, search_line, take_probs, task_fit, trick_aims
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn
from simulator.games.crew_deep_sea.board import card, task_table
from simulator.games.crew_deep_sea.spec import SPEC
from tests.crew_helpers import add_task, make_state, play_trick

T = task_table()
IDS, PRM = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))


def choice(s: np.ndarray) -> str:
    """The card the heuristic plays for the player to move, as a code."""
    from simulator.games.crew_deep_sea.board import card_name

    p = S.current_player(s)
    legal = np.empty(40, np.int64)
    n = turn.legal_cards(s, p, legal)
    return card_name(int(decide_play(s, p, legal, n, IDS[p], PRM[p], T.ctype, T.params)))


def play(s: np.ndarray, *codes: str) -> None:
    for code in codes:
        turn.play_card(s, S.current_player(s), card(code))


def test_holder_ducks_a_trick_the_owner_cannot_win():
    # player 1 must win pink 3, held by player 2; the pink 9 leads and player 1 follows low
    s = make_state(
        [["P9", "Y1", "G1"], ["P1", "Y2", "G2"], ["P3", "P4", "Y3"], ["P5", "Y4", "G3"]], 0
    )
    add_task(s, "win_pink3", 1)
    play(s, "P9", "P1")
    assert choice(s) == "P4"


def test_holder_sluffs_its_card_into_the_owners_trick():
    # the owner leads the top pink: the holder of pink 3 plays it now
    s = make_state(
        [["P9", "Y1", "G1"], ["P3", "P5", "Y2"], ["P1", "Y3", "G2"], ["P2", "Y4", "G3"]], 0
    )
    add_task(s, "win_pink3", 0)
    play(s, "P9")
    assert choice(s) == "P3"


def test_never_takes_a_trick_holding_another_players_task_card_when_it_can_play_under():
    # pink 3 (player 3's task) is led; player 3 has shown pink 6 as its highest pink, so it
    # can beat a 2 but not an 8: player 1 plays under
    s = make_state(
        [["P3", "Y1", "G1"], ["P2", "P8", "Y2"], ["P1", "Y3", "G2"], ["P4", "P6", "Y4"]], 0
    )
    add_task(s, "win_pink3", 3)
    turn.communicate(s, 3, card("P6"), S.HIGHEST)
    play(s, "P3")
    assert choice(s) == "P2"


def test_owner_leads_the_top_remaining_card_of_its_tasks_suit():
    # pink 9 fell in trick 1, so pink 8 is the top pink: the owner of pink 3 leads it
    s = make_state(
        [
            ["B9", "P8", "P2", "Y5"],
            ["B1", "P3", "Y1", "G1"],
            ["B2", "P4", "Y2", "G2"],
            ["P9", "P5", "Y3", "G3"],
        ],
        0,
    )
    add_task(s, "win_pink3", 0)
    assert play_trick(s, ["B9", "B1", "B2", "P9"]) == 0
    assert choice(s) == "P8"


def test_player_avoiding_nines_discards_its_nine_when_void():
    s = make_state(
        [["G5", "Y1", "B1"], ["Y9", "B2", "B3"], ["G6", "Y2", "B4"], ["G7", "Y3", "B5"]], 0
    )
    add_task(s, "win_no_9s", 1)
    play(s, "G5")
    assert choice(s) == "Y9"


def test_trick_aims_follow_the_pending_trick_counts():
    s = make_state(
        [["P9", "Y9", "G1"], ["P1", "Y1", "G2"], ["P2", "Y2", "G3"], ["P3", "Y3", "G4"]], 0
    )
    add_task(s, "win_exactly_2_tricks", 0)
    add_task(s, "win_2_in_a_row", 1)
    add_task(s, "fewer_tricks_than_each_other", 2)
    assert play_trick(s, ["P9", "P1", "P2", "P3"]) == 0
    assert play_trick(s, ["Y9", "Y1", "Y2", "Y3"]) == 0
    aim = np.zeros(S.MAXP)
    trick_aims(s, 3, T.ctype, T.params, aim)
    assert aim[0] < 0  # has its two tricks: one more fails the task
    assert aim[1] > 0  # wants a streak
    assert aim[2] < 0  # must stay below everyone...
    assert aim[3] > 0  # ...so players level with it should take tricks


def test_shown_only_card_above_the_lead_must_overtake():
    s = make_state([["P5", "Y1"], ["P8", "Y2"], ["P1", "Y3"], ["P2", "Y4"]], 0)
    turn.communicate(s, 1, card("P8"), S.ONLY)
    turn.play_card(s, 0, card("P5"))
    can, must = take_probs(s, 0, 1, card("P5"), 0)
    assert can == must == 1.0
    can, must = take_probs(s, 0, 2, card("P5"), 0)
    assert must < 1.0


def test_fit_of_win_no_nines_falls_with_each_nine_held():
    row = T.row("win_no_9s")
    clean = make_state([["P1", "Y2", "G3"], ["P9", "Y9", "G4"], ["B9", "Y3", "G5"]], 0)
    fits = [task_fit(clean, p, row, T.ctype, T.params) for p in range(3)]
    assert fits[0] > fits[2] > fits[1]


def test_search_tries_the_heuristic_card_first():
    # two tricks; the owner of blue 4 leads it at once in the heuristic's line, which the
    # search finds within four cards (ascending card order would lead blue 1 first and need 8)
    s = make_state([["B1", "B4"], ["B2", "Y1"], ["B3", "Y2"], ["Y3", "G1"]], 0)
    add_task(s, "win_blue4", 0)
    line = np.empty(40, np.int64)
    found, nodes = search_line(s, T.ctype, T.params, 4, line)
    assert found == 4 and nodes == 4
    assert line[0] == card("B4")


def test_mission8_a_player_with_more_9s_than_its_share_discards_one():
    # 4 players, the four 9s in play: player 1 holds two (its share is one) and is void in
    # green: it gives a 9 to the green trick's winner, who has none yet
    hands = [["G5", "G9", "Y1"], ["Y9", "B9", "B2"], ["G6", "P9", "Y2"], ["G7", "Y3", "B5"]]
    s = make_state(hands, 0)
    play(s, "G5")
    assert choice(s) == "B2"  # without the rule nothing asks for it
    s = make_state(hands, 0)
    s[S.S_OBJECTIVE] = S.OBJ_BALANCE9
    play(s, "G5")
    assert choice(s) in ("Y9", "B9")


def test_a_void_player_may_discard_the_rank_a_rank_with_rank_task_needs():
    from policies.crew_deep_sea import later_discard

    # player 0 leads pink 6 for "a 6 with another 6"; player 2 is shown void in pink and may
    # hold yellow 6: a discard under the 6 becomes likely
    s = make_state(
        [["P6", "Y1", "G1"], ["P1", "Y2", "G2"], ["Y6", "B3", "G3"], ["P2", "Y4", "G4"]], 0
    )
    later = np.array([1, 2, 3, 0, 0], np.int64)
    play(s, "P6")
    base = later_discard(s, 0, card("Y6"), 0, later, 3)
    s[S.O_VOID + 2 * 5 + 0] = 1
    void = later_discard(s, 0, card("Y6"), 0, later, 3)
    assert 0.0 <= base < void <= 1.0
    s[S.O_VOID + 1 * 5 + 0] = 1
    s[S.O_VOID + 3 * 5 + 0] = 1
    assert later_discard(s, 0, card("Y6"), 0, later, 3) > void
