"""The exact solver behind the crew's ceiling: known answers on hand-made deals, an exhaustive
check on tiny deals, and agreement with the omniscient crew's successes."""

from __future__ import annotations

import numpy as np
import pytest

from policies.crew_deep_sea import IMPOSSIBLE, UNKNOWN, WINNABLE, solve
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import card_name, task_table
from simulator.games.crew_deep_sea.ceiling import allocation_ceiling, ceiling
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from tests.crew_helpers import add_task, make_state

TABLE = task_table()


def verdict(s: np.ndarray, budget: int = 1_000_000) -> int:
    return int(solve(s, TABLE.ctype, TABLE.params, budget)[0])


def test_a_deal_one_line_wins_is_winnable():
    # player 2 (S4, captain) leads P2; player 0 wins with P3 over P1
    s = make_state([["P3", "P5"], ["P1", "Y2"], ["P2", "S4"]])
    add_task(s, "win_pink3", 0)
    assert verdict(s) == WINNABLE


def test_a_task_card_no_trick_of_its_holder_can_take_is_impossible():
    # player 1 holds P1 and P2 only: any trick holding P3 goes to a higher card
    s = make_state([["P3", "P5"], ["P1", "P2"], ["P4", "S4"]])
    add_task(s, "win_pink3", 1)
    assert verdict(s) == IMPOSSIBLE


def test_a_budget_too_small_to_decide_says_unknown():
    s = make_state([["P3", "P5"], ["P1", "P2"], ["P4", "S4"]])
    add_task(s, "win_pink3", 1)
    assert verdict(s, budget=2) == UNKNOWN


def brute_force(s: np.ndarray) -> bool:
    """Every legal line, no pruning, no ordering: does one end in success?"""
    legal = np.empty(S.NC, np.int64)
    n = turn.legal_cards(s, S.current_player(s), legal)
    for c in legal[:n].copy():
        t = s.copy()
        if turn.play_and_close(t, S.current_player(t), c):
            end = verdicts.mission_end(t, TABLE.ctype, TABLE.params)
            if end == verdicts.END_SUCCESS:
                return True
            if end != verdicts.ONGOING:
                continue
        if brute_force(t):
            return True
    return False


SMALL_TASKS = [
    "win_pink3",
    "win_yellow1",
    "win_blue4",
    "win_sub3",
    "win_no_pink",
    "win_at_least_2_sevens",
    "win_exactly_1_pink",
    "win_no_subs",
    "win_trick_using_2",
    "trick_only_odd",
    "no_lead_pink_green",
    "win_last_trick",
    "win_exactly_1_trick",
    "win_2_in_a_row",
    "never_2_in_a_row",
    "more_tricks_than_captain",
]


def test_exhaustive_on_tiny_deals():
    """3 players with 3 cards each, two random tasks (card, trick and streak tasks): the solver,
    transposition table included, agrees with trying every line."""
    rng = np.random.default_rng(5)
    answers = set()
    for _ in range(120):
        cards = rng.choice(S.NC, 9, replace=False)
        hands = [[card_name(int(c)) for c in cards[p::3]] for p in range(3)]
        s = make_state(hands, captain=int(rng.integers(3)))
        s[S.S_LEADER] = s[S.S_CAPTAIN]
        for key in rng.choice(SMALL_TASKS, 2, replace=False):
            add_task(s, str(key), int(rng.integers(3)))
        expected = WINNABLE if brute_force(s.copy()) else IMPOSSIBLE
        assert verdict(s) == expected, hands
        answers.add(expected)
    assert answers == {WINNABLE, IMPOSSIBLE}  # both answers were exercised


def omniscient_success(mission: int, seeds: np.ndarray) -> np.ndarray:
    r = Rules().with_values({"mission": mission})
    ids, prm = engine_arrays(seat_policies(["omniscient"], SPEC.policies, SPEC.id, 4))
    return SPEC.play_chunk(r, 4, ids, prm, seeds)["success"]


@pytest.mark.parametrize("mission", [1, 4])
def test_never_impossible_where_the_omniscient_crew_succeeds(mission):
    seeds = np.arange(40, dtype=np.uint32)
    won = omniscient_success(mission, seeds)
    out = ceiling(Rules().with_values({"mission": mission}), 4, seeds, budget=20_000)
    assert not (won & (out["verdict"] == IMPOSSIBLE)).any()
    assert (out["verdict"] == WINNABLE).sum() >= 1


def test_the_allocation_a_crew_chose_is_solved_on_its_own_deal():
    # a crew's success proves its own allocation winnable: the omniscient crew wins only along
    # a line found for the tasks where it put them, the heuristic crew by playing one (hands as
    # dealt: deals with a distress pass are left out)
    r = Rules().with_values({"mission": 4})
    seeds = np.arange(30, dtype=np.uint32)
    for crew in ("omniscient", "heuristic"):
        ids, prm = engine_arrays(seat_policies([crew], SPEC.policies, SPEC.id, 4))
        run = SPEC.play_chunk(r, 4, ids, prm, seeds)
        out = allocation_ceiling(r, 4, seeds, run["crew_tasks"], run["crew_task_holders"])
        won = run["success"] & ~run["crew_distress"]
        assert won.sum() >= 5
        assert (out["verdict"][won] == WINNABLE).all()
        assert not (won & (out["verdict"] == IMPOSSIBLE)).any()
    other = run["crew_tasks"].copy()
    other[0, 0] = other[0, 0] % 96 + 1  # not the task this seed draws
    with pytest.raises(ValueError, match="not the task draw"):
        allocation_ceiling(r, 4, seeds, other, run["crew_task_holders"])


@pytest.mark.slow
@pytest.mark.parametrize("mission", [5, 8, 12])
def test_never_impossible_where_the_omniscient_crew_succeeds_many(mission):
    seeds = np.arange(60, dtype=np.uint32)
    won = omniscient_success(mission, seeds)
    out = ceiling(Rules().with_values({"mission": mission}), 4, seeds, budget=50_000)
    assert not (won & (out["verdict"] == IMPOSSIBLE)).any()
