"""The heuristic's what-if plays and trick closes are undone field by field, not by copying the
whole state: after each undo the state must be exactly what it was, in positions from random
play (tasks, sonar claims, the 2-player dummy's face-down cards included)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.crew_deep_sea import knowledge
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import task_table
from tests.crew_helpers import seed_rng

T = task_table()


def random_position(seed: int, players: int) -> np.ndarray:
    """A deal with four random tasks, played at random (with random sonar claims) to a trick
    that has at least one card in it."""
    rng = np.random.default_rng(seed)
    seed_rng(seed)
    s = E.deal_state(players)
    seats = int(s[S.S_NP])
    for k, row in enumerate(rng.choice(len(T.keys), 4, replace=False)):
        s[S.O_TASK + k] = row
        s[S.O_HOLDER + k] = rng.integers(seats)
        s[S.O_TSTATE + k] = S.PENDING
        s[S.O_TX + k] = rng.integers(0, 4)
    s[S.S_NTASKS] = 4
    legal = np.empty(40, np.int64)
    plays = rng.integers(1, 4 * seats)
    for i in range(plays):
        p = S.current_player(s)
        if s[S.S_NIN] == 0 and i > 0 and rng.random() < 0.5:
            own = [c for c in range(36) if s[S.O_OWNER + c] == p and s[S.O_COMMBY + c] < 0]
            if own and s[S.O_SONAR + p] > 0:
                c = int(rng.choice(own))
                claims = turn.comm_claims(s, p, c)
                if claims:
                    claim = int(rng.choice([b for b in range(3) if (claims >> b) & 1]))
                    turn.communicate(s, p, c, claim)
        n = turn.legal_cards(s, p, legal)
        if n == 0:
            break
        turn.play_card(s, p, int(legal[rng.integers(n)]))
        if s[S.S_NIN] == seats and i < plays - 1:
            turn.finish_trick(s)
    return s


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from([2, 3, 4, 5]))
def test_a_closed_trick_is_reopened_exactly(seed, players):
    s = random_position(seed, players)
    before = s.copy()
    saved = np.full_like(s, -7)  # scratch: only the copied fields matter
    t, n = int(s[S.S_DONE]), int(s[S.S_NIN])
    for w in range(int(s[S.S_NP])):
        turn.copy_closing_fields(saved, s, s, t, n, w)
        turn.finish_trick_as(s, w)
        verdicts.evaluate(s, T.ctype, T.params, True)
        assert not np.array_equal(s, before)
        turn.copy_closing_fields(s, saved, s, t, n, w)
        assert np.array_equal(s, before), f"winner {w}: {np.flatnonzero(s != before)}"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from([2, 3, 4, 5]))
def test_what_if_plays_are_taken_back_exactly(seed, players):
    s = random_position(seed, players)
    s2 = s.copy()
    start = int(s[S.S_NIN])
    legal = np.empty(40, np.int64)
    while s2[S.S_NIN] < s2[S.S_NP]:  # the rest of the trick, left open
        p = S.current_player(s2)
        turn.play_card(s2, p, int(legal[turn.legal_cards(s2, p, legal) - 1]))
    if start < s2[S.S_NIN]:
        assert not np.array_equal(s2, s)
    turn.copy_play_fields(s2, s, s2, start, int(s2[S.S_NIN]))
    assert np.array_equal(s2, s), np.flatnonzero(s2 != s)


def may_hold(s: np.ndarray, q: int, c: int) -> bool:
    """Whether ``q`` may hold the unplayed ``c`` by public information, read card by card."""
    if s[S.O_COMMBY + c] >= 0:
        return bool(s[S.O_COMMBY + c] == q)
    su = S.suit_of(c)
    if s[S.O_VOID + q * 5 + su] == 1:
        return False
    if su == S.SUB:
        return True
    for x in range(su * 9, su * 9 + 9):  # q's declaration about x rules out c
        if x != c and s[S.O_COMMBY + x] == q and turn.claim_excludes(s[S.O_COMMK + x], x, c):
            return False
    return True


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from([2, 3, 4, 5]))
def test_the_claims_mask_rules_out_what_each_claim_does(seed, players):
    s = random_position(seed, players)
    for q in range(int(s[S.S_NP])):
        excluded = knowledge.claims_exclude(s, q)
        for c in range(40):
            if s[S.O_CTRICK + c] < 0:
                expected = may_hold(s, q, c)
                assert knowledge.could_hold(s, q, c) == expected, (q, c)
                assert knowledge._could_hold_given(s, q, c, excluded) == expected, (q, c)
