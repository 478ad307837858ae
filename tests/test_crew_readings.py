"""Crew Deep Sea: the smaller readings settled as rule options (issue 14, defect 5)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.crew_deep_sea import HEURISTIC, HEURISTIC_P, heuristic_params
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn
from simulator.games.crew_deep_sea.board import task_table
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from tests.crew_helpers import add_task, deal_hands, make_state, seed_rng

T = task_table()


def crew(n: int, volunteer: list[float], comm: float = 2.5):
    prm = np.array([heuristic_params(len(HEURISTIC_P)) for _ in range(n)])
    prm[:, HEURISTIC_P.volunteer] = volunteer
    prm[:, HEURISTIC_P.comm_threshold] = comm
    return np.full(n, HEURISTIC, np.int64), prm


def allocated(alloc, volunteer, order, recipient, seed=0):
    s = make_state(deal_hands(4, seed))
    add_task(s, "win_pink3", -1)
    add_task(s, "win_green6", -1)
    ids, prm = crew(4, volunteer)
    m = E.engine_inputs(Rules(), 4)  # 4 players: the task values of column 1
    m.mcfg[E.M.allocation] = alloc
    m.rcfg[E.RC.hardest_tie] = 0
    m.rcfg[E.RC.volunteer_order] = order
    m.rcfg[E.RC.recipient] = recipient
    seed_rng(seed)
    E.allocate(S.State(s, T.ctype, T.params), m, ids, prm)
    holders = {int(s[S.O_HOLDER + k]) for k in range(2)}
    assert len(holders) == 1
    return int(s[S.S_CAPTAIN]), holders.pop()


@pytest.mark.parametrize("seed", range(3))
def test_volunteers_are_asked_from_the_captains_left_ending_with_the_captain(seed):
    """Rulebook p20: the captain asks each member in turn, ending with itself; the first yes
    takes every task. Everyone willing: the captain's left neighbour takes them."""
    yes = [-1.0] * 4
    cap, holder = allocated(E.A_ONE_VOLUNTEER, yes, E.VOLUNTEER_ENDING_CAPTAIN, 0, seed)
    assert holder == (cap + 1) % 4
    cap, holder = allocated(E.A_ONE_VOLUNTEER, yes, E.VOLUNTEER_FROM_CAPTAIN, 0, seed)
    assert holder == cap
    # only the captain willing: asked last, it takes them
    only_cap = [9.0] * 4
    only_cap[cap] = -1.0
    assert allocated(E.A_ONE_VOLUNTEER, only_cap, E.VOLUNTEER_ENDING_CAPTAIN, 0, seed)[1] == cap


@pytest.mark.parametrize("seed", range(3))
def test_mission10_the_tasks_go_to_a_member_who_agrees(seed):
    """Mission 10: the captain takes every task or gives them all to one crew member, who
    must agree: the first from the captain's left who does (nobody: the left neighbour)."""
    cap = allocated(E.A_CAPTAIN_ALL_OR_ONE, [-1.0] * 4, 0, E.RECIPIENT_WILLING, seed)[0]
    will = [9.0] * 4
    will[(cap + 2) % 4] = -1.0  # the captain declines; only the member opposite agrees
    assert allocated(E.A_CAPTAIN_ALL_OR_ONE, will, 0, E.RECIPIENT_WILLING, seed)[1] == (cap + 2) % 4
    nobody = [9.0] * 4
    assert (
        allocated(E.A_CAPTAIN_ALL_OR_ONE, nobody, 0, E.RECIPIENT_WILLING, seed)[1] == (cap + 1) % 4
    )
    picked = {
        allocated(E.A_CAPTAIN_ALL_OR_ONE, will, 0, E.RECIPIENT_RANDOM, k)[1] for k in range(12)
    }
    assert len(picked) > 1  # at random, the willing one is not always chosen


def test_mission23_first_sonar_phase():
    """Mission 23: 'no communication before trick 2'. Default: the phase before trick 2 is the
    first; the other reading opens communication only after trick 2."""
    for reading, first in (("before_trick_2", 1), ("after_trick_2", 2)):
        inp = E.engine_inputs(
            Rules().with_values({"mission": 23, "mission23_communication": reading}), 4
        )
        assert inp.mcfg[E.M.comm_from] == first
        s = make_state(deal_hands(4, 0))
        s[S.S_COMM_FROM] = first
        for t in range(3):
            s[S.S_DONE] = t
            assert turn.may_communicate(s, 0) == (t >= first)
    assert E.engine_inputs(Rules().with_values({"mission": 22}), 4).mcfg[E.M.comm_from] == 0


@pytest.mark.parametrize(("several", "shown"), [(True, 2), (False, 1)])
def test_rapture_several_tokens_in_one_phase(several, shown):
    """Seed, Captura de las profundidades: with two or more tokens in the middle a member may
    communicate several times (or at once)."""
    s = make_state(deal_hands(4, 1))
    add_task(s, "win_pink3", 1)
    s[S.S_COMM_MODE] = S.COMM_RAPTURE
    s[S.S_POOL] = 2
    ids, prm = crew(4, [0.4] * 4, comm=99.0)
    leader = int(s[S.S_LEADER])
    prm[leader, HEURISTIC_P.comm_threshold] = 0.0  # only the leader wants to talk
    s[S.S_RAPTURE_SEVERAL] = several
    E.communication_phase(s, ids, prm, T.ctype, T.params)
    by = [c for c in range(36) if s[S.O_COMMBY + c] == leader]
    assert len(by) == shown and s[S.S_POOL] == 2 - shown


def test_prediction_before_or_after_the_distress_pass():
    """Seed, Señal de socorro: the signal comes after cards and tasks are dealt out. X fixed
    with the task (default) or after the pass: only attempts holding a prediction task differ."""
    ids, prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 4))
    seeds = np.arange(300, dtype=np.uint32)
    out = {}
    for when in ("before_distress", "after_distress"):
        r = Rules().with_values({"mission": 7, "distress": "always", "prediction_time": when})
        out[when] = SPEC.play_chunk(r, 4, ids, prm, seeds)
    a, b = out["before_distress"], out["after_distress"]
    predicted = np.isin(a["crew_tasks"], [84, 85]).any(axis=1)
    assert predicted.sum() > 5
    same = ~predicted
    np.testing.assert_array_equal(a["success"][same], b["success"][same])
    np.testing.assert_array_equal(a["length"][same], b["length"][same])
    assert (a["length"][predicted] != b["length"][predicted]).any()
