"""Pirateer's search at a horizon: the features its evaluation is fitted on, the root's halving,
the search's own random stream and the self-play hooks (tiny budgets: behaviour, not strength)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from policies.pirateer import POLICIES, seed_numba
from simulator.contract.policy import parse_policy
from simulator.games.pirateer import forward as F
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.board import DIST, HARBOUR
from simulator.games.pirateer.features import FEATURES, features
from simulator.games.pirateer.rules import Rules

R = Rules().to_engine()
RULES = Rules()
LOOKAHEAD = POLICIES["lookahead"]


def _prm(text: str) -> np.ndarray:
    return parse_policy(text, POLICIES, "pirateer").row()


def _place(st, placed: dict[int, int]) -> None:
    """Only the ships of ``placed`` (ship -> space) on the board."""
    st.ships[:] = -1
    st.occ[:] = -1
    for s, c in placed.items():
        st.ships[s] = c
        st.occ[c] = s


def _feature(out, seat: int, name: str) -> float:
    return out[seat, FEATURES.index(name)]


def test_features_of_a_hand_built_position():
    """Seat 0 carries the treasure one space from its anchor; seat 1's two ships are 20 and 25
    spaces from it, out of any roll's reach (12): nothing is at risk."""
    st = S.new_state()
    turn.new_game(R, 2, st)
    f0 = int(np.flatnonzero(st.owner == 0)[0])
    f1 = int(np.flatnonzero(st.owner == 1)[0])
    carrier = f0 * S.FLEET
    at = HARBOUR[f0, 1]
    far = [int(c) for c in np.flatnonzero(DIST[at] == 20)[:1]]
    further = [int(c) for c in np.flatnonzero(DIST[at] == 25)[:1]]
    _place(st, {carrier: at, f1 * S.FLEET: far[0], f1 * S.FLEET + 1: further[0]})
    st.g[S.G_TREASURE] = carrier
    out = np.full((2, len(FEATURES)), 7.0)
    features(R, st, 1, out)
    expected = {
        0: {"ships": 1, "carrying": 1, "home_steps": 1, "home_close": 1, "seats_before": 1},
        1: {"ships": 2, "chase_steps": 20},
    }
    for seat, known in expected.items():
        for i, name in enumerate(FEATURES):
            assert out[seat, i] == known.get(name, 0.0), (seat, name)


def test_the_risk_features_are_the_exact_capture_chances():
    """An opponent ship within reach: the treasure ship's risk is that opponent's exact chance
    (36 rolls) of capturing it, and the opponent's threat is the same number."""
    st = S.new_state()
    turn.new_game(R, 2, st)
    f0 = int(np.flatnonzero(st.owner == 0)[0])
    f1 = int(np.flatnonzero(st.owner == 1)[0])
    carrier = f0 * S.FLEET
    at = HARBOUR[f0, 1]
    found = 0.0
    for d in range(2, 8):
        for c in np.flatnonzero(DIST[at] == d):
            _place(st, {carrier: at, f1 * S.FLEET: int(c)})
            st.g[S.G_TREASURE] = carrier
            odds = np.zeros(S.N_SHIPS)
            turn.capture_odds(R, st.ships, st.owner, st.occ, st.g, 1, 0, odds)
            out = np.zeros((2, len(FEATURES)))
            features(R, st, 0, out)
            assert _feature(out, 0, "treasure_at_risk") == pytest.approx(odds[carrier])
            assert _feature(out, 0, "ships_at_risk") == pytest.approx(odds[carrier])
            assert _feature(out, 1, "treasure_threat") == pytest.approx(odds[carrier])
            found = max(found, odds[carrier])
    assert found > 0.0  # some of those spaces threaten it


def _bank(players: int, positions: int, seed: int = 5):
    ids = np.full(players, LOOKAHEAD.id, dtype=np.int64)
    params = np.stack([LOOKAHEAD.defaults()] * players)
    return F.bank(RULES, players, ids, params, positions, seed)


@njit(cache=True)
def _search_then_draw(r, prm, st, p, moves, n, seed):
    np.random.seed(seed)
    k = F.search_move(r, prm, st, p, moves, n)
    return k, np.random.randint(0, 1_000_000_000)


def _decision(d):
    ships, owner, occ, g, seat, d1, d2 = d
    st = S.State(ships.copy(), owner.copy(), occ.copy(), g.copy())
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    n = turn.legal_moves(R, st, seat, d1, d2, moves, turn.new_move_scratch())
    return st, seat, moves, n


def test_the_game_stream_does_not_depend_on_the_search_budget():
    """The real game's next draw after a search is the same at a budget and at four times it."""
    for d in _bank(2, 4):
        st, seat, moves, n = _decision(d)
        draws = set()
        for playouts in (12, 48):
            prm = _prm(f"mcts:playouts={playouts},horizon=1,widen=5")
            draws.add(_search_then_draw(R, prm, st, seat, moves, n, 3)[1])
        assert len(draws) == 1


@pytest.mark.parametrize("opponents", ["lookahead", "runner", "tree"])
def test_the_halving_answers_a_legal_move_and_spreads_the_budget(opponents):
    prm = _prm(f"mcts:playouts=40,horizon=2,widen=5,opponents={opponents}")
    for d in _bank(3, 3):
        st, seat, moves, n = _decision(d)
        before = [a.copy() for a in st]
        stats = np.zeros((n, 2))
        seed_numba(4)
        k = F.search_move(R, prm, st, seat, moves, n, stats)
        assert 0 <= k < n and stats[k, 0] == stats[:, 0].max()
        assert 0 < stats[:, 0].sum() <= 40
        assert all(np.array_equal(a, b) for a, b in zip(before, st, strict=True))


@pytest.mark.parametrize("players", [2, 4])
def test_a_horizon_of_one_round_plays_every_seat_once_more(players):
    """From an opening decision (no game ends, no fleet is lost within a round), each simulation
    plays the searched move and then one turn of every seat, its own next move last."""
    seed_numba(6)
    st = S.new_state()
    turn.new_game(R, players, st)
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    p, n = players - 1, 0
    while n < 2:
        p, n = F.next_decision(R, st, p, moves, turn.new_move_scratch())
    tally = np.zeros(2, dtype=np.int64)
    F.search_move(R, _prm("mcts:playouts=24,horizon=1,widen=5"), st, p, moves, n, None, tally)
    assert tally[0] > 0 and tally[1] == tally[0] * (1 + players)


def test_the_guide_alone_at_width_one():
    """widen 0: the halving holds one move, the guide's best-ranked (lookahead's own choice)."""
    for d in _bank(2, 6, seed=8):
        st, seat, moves, n = _decision(d)
        scores = np.zeros(n)
        from policies.pirateer import move_scores

        move_scores(LOOKAHEAD.id, LOOKAHEAD.defaults(), R, *st, seat, moves, n, scores)
        k = F.search_move(R, _prm("mcts:playouts=40,widen=0"), st, seat, moves, n)
        assert scores[k] == scores.max()


def test_the_hooks_record_bank_and_decide():
    ids = np.full(2, LOOKAHEAD.id, dtype=np.int64)
    params = np.stack([LOOKAHEAD.defaults()] * 2)
    feats, winner, game = F.record(RULES, 2, ids, params, 3, 11)
    assert feats.shape[1:] == (2, len(FEATURES)) and feats.shape[0] == winner.shape[0]
    assert set(game.tolist()) == {0, 1, 2} and ((winner >= -1) & (winner < 2)).all()
    assert (feats[:, :, FEATURES.index("ships")] <= 3).all()
    bank = _bank(4, 7)
    assert len(bank) == 7
    turns = [d[3][S.G_TURN] for d in bank]
    assert max(turns) > min(turns)  # not all from one moment of the game
    for d in bank:
        st, seat, moves, n = _decision(d)
        assert n >= 2
        row = _prm("mcts:playouts=20,horizon=1")
        k = F.decide(RULES, d, POLICIES["mcts"].id, row, 1)
        assert 0 <= k < n and k == F.decide(RULES, d, POLICIES["mcts"].id, row, 1)
        assert 0 <= F.decide(RULES, d, LOOKAHEAD.id, LOOKAHEAD.defaults(), 2) < n
