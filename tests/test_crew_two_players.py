"""Crew Deep Sea with 2 players: the dummy crew member (notes §1, "Two players")."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.crew_deep_sea import HEURISTIC, RANDOM, decide_play
from simulator.contract.errors import BalanceError
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import card, task_table
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC
from simulator.runs.plan import plan_run
from tests.crew_helpers import add_task, seed_rng

DUMMY = E.DUMMY_SEAT


def dealt(seed: int) -> np.ndarray:
    seed_rng(seed)
    return E.deal_state(2)


def dummy_state(humans, up, down, captain=0):
    """Hand-made 2-player state: ``up[i]`` lies face up on ``down[i]``."""
    owner = np.full(40, -1, np.int64)
    for p, hand in enumerate(humans):
        for code in hand:
            owner[card(code)] = p
    for code in up + down:
        owner[card(code)] = DUMMY
    s = S.new_state(3, owner, captain)
    S.add_dummy(
        s,
        DUMMY,
        np.array([card(c) for c in up], np.int64),
        np.array([card(c) for c in down], np.int64),
    )
    return s


def run(mission, n=40, policy="heuristic", **rules):
    r = Rules().with_values({"mission": mission, **rules})
    ids, prm = engine_arrays(seat_policies([policy], SPEC.policies, SPEC.id, 2))
    return SPEC.play_chunk(r, 2, ids, prm, np.arange(n, dtype=np.uint32))


@pytest.mark.parametrize("seed", range(20))
def test_the_deal(seed):
    s = dealt(seed)
    owner = s[S.O_OWNER : S.O_OWNER + 40]
    assert s[S.S_NP] == 3 and s[S.S_DUMMY] == DUMMY and s[S.S_NTRICKS] == 13
    assert [int((owner == p).sum()) for p in range(3)] == [13, 13, 14]
    assert owner[39] in (0, 1) and s[S.S_CAPTAIN] == owner[39]
    down = [c for c in range(40) if s[S.O_DOWN + c] == 1]
    up = [c for c in range(40) if owner[c] == DUMMY and s[S.O_DOWN + c] == 0]
    assert len(down) == len(up) == 7
    assert all(owner[c] == DUMMY for c in down)
    assert sorted(int(s[S.O_BELOW + c]) for c in up) == down  # 7 stacks of two
    assert all(s[S.O_COMMBY + c] == DUMMY for c in up)  # public
    assert all(s[S.O_COMMBY + c] == -1 for c in down)  # hidden
    assert s[S.O_SONAR + DUMMY] == 0


def test_dummy_plays_only_face_up_cards_and_turns_up_the_card_below():
    humans = [["P5", "Y5", "S4"], ["P6", "Y6", "G6"]]
    s = dummy_state(humans, ["Y9", "G2", "B3"], ["P9", "G8", "B1"])
    legal = np.empty(40, np.int64)
    turn.play_card(s, 0, card("P5"))
    turn.play_card(s, 1, card("P6"))
    # its only pink card is face down: any face-up card
    n = turn.legal_cards(s, DUMMY, legal)
    assert sorted(legal[:n].tolist()) == sorted(card(c) for c in ("Y9", "G2", "B3"))
    turn.play_card(s, DUMMY, card("G2"))
    assert s[S.O_VOID + DUMMY * 5 + 0] == 0  # not shown void: pink may lie face down
    # the card under G2 stays face down until the trick is over (rulebook: after the trick)
    assert s[S.O_DOWN + card("G8")] == 1 and s[S.O_COMMBY + card("G8")] == -1
    assert turn.finish_trick(s) == 1
    assert s[S.O_DOWN + card("G8")] == 0 and s[S.O_COMMBY + card("G8")] == DUMMY
    turn.play_card(s, 1, card("G6"))
    n = turn.legal_cards(s, DUMMY, legal)
    assert legal[:n].tolist() == [card("G8")]  # follows suit with the card turned up
    turn.play_card(s, DUMMY, card("G8"))
    turn.play_card(s, 0, card("Y5"))
    assert turn.finish_trick(s) == DUMMY
    n = turn.legal_cards(s, DUMMY, legal)
    assert sorted(legal[:n].tolist()) == sorted(card(c) for c in ("Y9", "B3"))


def test_the_dummy_passes_and_receives_in_a_distress_signal():
    s = dealt(1)  # the dummy is a crew member with its own seat: 0 -> 1 -> dummy -> 0
    assert [turn.pass_target(s, p, 1) for p in range(3)] == [1, DUMMY, 0]
    assert [turn.pass_target(s, p, -1) for p in range(3)] == [DUMMY, 0, 1]
    humans = [["P5", "Y5", "S4"], ["P6", "Y6", "G6"]]
    s = dummy_state(humans, ["Y9", "G2"], ["P9", "G8"])
    turn.distress_pass(s, np.array([card("P5"), card("Y6"), card("G2")], np.int64), 1)
    assert s[S.O_OWNER + card("G2")] == 0 and s[S.O_COMMBY + card("G2")] == -1
    # Y6 lies face up where G2 was, on G8, and is public; G8 stays face down
    assert s[S.O_OWNER + card("Y6")] == DUMMY and s[S.O_COMMBY + card("Y6")] == DUMMY
    assert s[S.O_BELOW + card("Y6")] == card("G8") and s[S.O_DOWN + card("G8")] == 1
    assert [int(s[S.O_HANDN + p]) for p in range(3)] == [3, 3, 4]
    # the dummy passes but receives nothing: the card below turns up
    s = dummy_state([["S4", "S3"], ["P6", "Y6"]], ["Y9", "G2"], ["P9", "G8"])
    turn.distress_pass(s, np.array([-1, card("Y6"), card("G2")], np.int64), -1)
    assert s[S.O_OWNER + card("G2")] == 1 and s[S.O_DOWN + card("G8")] == 0
    assert s[S.O_OWNER + card("Y6")] == 0
    # its face-down cards cannot be passed
    s = dummy_state(humans, ["Y9", "G2"], ["P9", "G8"])
    with pytest.raises(ValueError):
        turn.distress_pass(s, np.array([-1, -1, card("G8")], np.int64), 1)


@pytest.mark.parametrize(("seat", "order"), [("after_captain", 1), ("before_captain", 0)])
def test_the_dummys_seat(seat, order):
    """Our reading (the notes give no seat): the players decide where the dummy sits. 'agreed'
    fixes the seat before the deal; the other readings put it right after (or before) the
    captain in every deal."""
    rules = Rules().with_values({"dummy_seat": seat})
    code = E.RC.dummy_seat
    captains = set()
    for k in range(30):
        seed_rng(k)
        s = E.deal_state(2, E.engine_inputs(rules, 2).rcfg[code])
        captains.add(int(s[S.S_CAPTAIN]))
        assert s[S.O_OWNER + 39] == s[S.S_CAPTAIN] == order  # order 1: captain, dummy, other
    assert captains == {order}
    agreed = {int(dealt(k)[S.S_CAPTAIN]) for k in range(30)}
    assert agreed == {0, 1}


def test_the_captain_decides_for_the_dummy_without_its_face_down_cards():
    t = task_table()
    seed = next(x for x in range(100) if dealt(x)[S.S_CAPTAIN] == 1)
    s = dealt(seed)  # captain 1 leads, the dummy plays second
    add_task(s, "win_pink3", 0)
    legal = np.empty(40, np.int64)
    n = turn.legal_cards(s, 1, legal)
    turn.play_card(s, 1, int(legal[0]))
    n = turn.legal_cards(s, DUMMY, legal)
    prm = engine_arrays(seat_policies(["heuristic"], SPEC.policies, SPEC.id, 3))[1]
    ids_cap = np.array([RANDOM, HEURISTIC, RANDOM], np.int64)  # captain heuristic
    ids_other = np.array([HEURISTIC, RANDOM, HEURISTIC], np.int64)  # captain random
    for k in range(5):  # the same generator state for both: the heuristic may break ties at random
        seed_rng(k)
        want = decide_play(S.dummy_view(s), DUMMY, legal, n, HEURISTIC, prm[1], t.ctype, t.params)
        seed_rng(k)
        assert E.seat_card(s, DUMMY, legal, n, ids_cap, prm, t.ctype, t.params) == want
    picks = set()
    for k in range(40):
        seed_rng(k)
        picks.add(int(E.seat_card(s, DUMMY, legal, n, ids_other, prm, t.ctype, t.params)))
    assert len(picks) == n > 1 or n == 1  # random play when the captain is random
    # face-down cards swapped with the other human's: the choice stays the same
    rng = np.random.default_rng(seed)
    hidden = [c for c in range(40) if s[S.O_DOWN + c] == 1 or s[S.O_OWNER + c] == 0]
    for _ in range(3):
        s2 = s.copy()
        perm = rng.permutation(len(hidden))
        for i, j in enumerate(perm):
            a, b = hidden[i], hidden[j]
            s2[S.O_OWNER + b] = s[S.O_OWNER + a]
            s2[S.O_DOWN + b] = s[S.O_DOWN + a]
        for c in range(40):
            below = s[S.O_BELOW + c]
            if below >= 0:
                s2[S.O_BELOW + c] = hidden[perm[hidden.index(below)]]
        seed_rng(0)
        assert E.seat_card(s2, DUMMY, legal, n, ids_cap, prm, t.ctype, t.params) == want


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_random_play_every_card_once_and_13_tricks(seed):
    s = dealt(seed)
    t = task_table()
    rng = np.random.default_rng(seed)
    for i, row in enumerate(rng.choice(96, size=4, replace=False)):
        add_task(s, t.keys[row], i % 2, 2)
    legal = np.empty(40, np.int64)
    seen = []
    previous = [S.PENDING] * 4
    while s[S.S_DONE] < s[S.S_NTRICKS]:
        for _ in range(3):
            q = S.current_player(s)
            n = turn.legal_cards(s, q, legal)
            assert n > 0
            assert all(s[S.O_DOWN + c] == 0 and s[S.O_OWNER + c] == q for c in legal[:n])
            c = int(legal[rng.integers(n)])
            seen.append(c)
            turn.play_card(s, q, c)
        turn.finish_trick(s)
        verdicts.evaluate(s, t.ctype, t.params, False)
        now = [int(s[S.O_TSTATE + k]) for k in range(4)]
        assert all(p == S.PENDING or p == q for p, q in zip(previous, now, strict=True))
        previous = now
    assert len(seen) == len(set(seen)) == 39
    assert sum(s[S.O_TRICKS + p] for p in range(3)) == 13
    left = [c for c in range(40) if s[S.O_OWNER + c] >= 0]
    assert len(left) == 1 and s[S.O_OWNER + left[0]] == DUMMY  # one dummy card unplayed
    assert [s[S.O_HANDN + p] for p in range(3)] == [0, 0, 1]


def test_three_player_task_values_and_thresholds():
    inp = E.engine_inputs(Rules(), 2)
    np.testing.assert_array_equal(inp.values, task_table().difficulty[:, 0])
    assert inp.rcfg[E.RC.sum_above] == 23 and inp.rcfg[E.RC.sum_below] == 8
    out = run(9, n=25, policy="random")
    values = task_table().difficulty[:, 0]
    for row, holders in zip(out["crew_tasks"], out["crew_task_holders"], strict=True):
        assert values[row[row > 0] - 1].sum() == 7
        assert set(holders[row > 0].tolist()) <= {0, 1, DUMMY}


@pytest.mark.parametrize("mission", [6, 10, 14, 15, 19, 25, 26, 28, 32])
def test_every_allocation_mode_runs_with_the_dummy_as_a_crew_member(mission):
    out = run(mission, n=12, distress="always")
    held = out["crew_task_holders"][out["crew_tasks"] > 0]
    assert set(held.tolist()) <= {0, 1, DUMMY}
    assert out["scores"].shape == (12, 2)
    assert (out["length"] <= 13).all()


def test_the_dummy_takes_tasks_the_captain_chooses_for_it():
    """The dummy is a crew member: in turn selection (captain, then clockwise) it takes its
    share, chosen by the captain's policy."""
    out = run(7, n=60)
    held = out["crew_task_holders"][out["crew_tasks"] > 0]
    assert (held == DUMMY).sum() > 0.2 * held.size
    # the dummy's tasks count for the mission like anyone's
    assert out["success"].any()


def test_the_captain_sees_its_own_hand_when_deciding_for_the_dummy():
    s = dealt(3)
    cap = int(s[S.S_CAPTAIN])
    v = S.dummy_view(s)
    mine = [c for c in range(40) if s[S.O_OWNER + c] == cap]
    assert all(v[S.O_COMMBY + c] == cap for c in mine)  # known to the one deciding
    assert all(v[S.O_OWNER + c] == S.MAXP for c in range(40) if s[S.O_DOWN + c] == 1)
    other = 1 - cap
    assert all(v[S.O_COMMBY + c] == -1 for c in range(40) if s[S.O_OWNER + c] == other)


def test_the_dummy_cannot_be_switched_off_at_two_players():
    with pytest.raises(BalanceError, match="two_player_dummy"):
        plan_run(SPEC.id, 2, players=2, sets={"two_player_dummy": "false"})


def test_omniscient_crew_runs_with_the_dummy():
    r = Rules().with_values({"mission": 2})
    ids, prm = engine_arrays(seat_policies(["omniscient:nodes=2000"], SPEC.policies, SPEC.id, 2))
    out = SPEC.play_chunk(r, 2, ids, prm, np.arange(5, dtype=np.uint32))
    assert out["success"].shape == (5,)


def _cli(*args):
    cmd = [sys.executable, "-c", "from cli import app; app()", *args]
    return subprocess.run(cmd, capture_output=True, text=True)


def test_two_player_mission_end_to_end(tmp_path):
    done = _cli(
        "simulate", "crew-deep-sea", "--players", "2", "--set", "mission=1", "-n", "200",
        "-o", str(tmp_path / "run"), "-j", "1", "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["config"]["n_players"] == 2
    games = pl.read_parquet(tmp_path / "run" / "games")
    assert games.height == 200
    assert set(games["crew_captain"].to_list()) <= {0, 1}


def test_crew_audit_accepts_two_players(tmp_path):
    done = _cli(
        "crew-audit", "--players", "2", "-n", "8", "--out", str(tmp_path), "-j", "1", "--json",
        "--ceiling-deals", "2", "--ceiling-budget", "5000",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["players"] == 2
    assert len(result["runs"]) == 32
    report = (tmp_path / "report.html").read_text()
    assert result["report"] == str(tmp_path / "report.html")
    assert "mission=32" in report and "The crew succeeds in" in report
    assert [c["crew_mission"] for c in result["ceiling"]] == list(range(1, 33))
    assert all(c["deals"] == 2 and c["budget"] == 5000 for c in result["ceiling"])
    assert all(c["own_allocation"]["deals"] == 2 for c in result["ceiling"])
    assert "Ceiling: what a crew seeing every hand could win" in report
