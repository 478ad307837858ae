"""Pirateer's search player (`mcts`): the forward model plays the engine's rules, and the search
finds what a simulation can see. Budgets are tiny: these check behaviour, not strength (the
head-to-head figures are in docs/rules/pirateer.md)."""

from __future__ import annotations

import numpy as np
import pytest

from policies.pirateer import POLICIES, RUNNER, decide_move, seed_numba
from simulator.contract.policy import EVAL_AT, parse_policy
from simulator.games.pirateer import forward as F
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.board import N_CELLS, N_PICTURE
from simulator.games.pirateer.odds_memo import memo_capture_odds, new_odds_memo
from simulator.games.pirateer.rules import Rules

R = Rules().to_engine()


def _buffers():
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    return moves, turn.new_move_scratch()


def _play(pos, p, move):
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    rec, rec_n = np.zeros((0, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
    turn.play_move(R, pos, p, move, (cells[0], cells[1], cells[2]), rec, rec_n)
    turn.end_turn(R, pos.g)


def _positions_with_a_winning_move(n_players: int, wanted: int):
    """(position, seat, moves, n, winning indices) from `runner` games, at turns where some legal
    move wins at once and some does not."""
    found = []
    moves, scratch = _buffers()
    runner = POLICIES["runner"].defaults()
    for seed in range(200):
        seed_numba(seed)
        pos = S.new_state()
        turn.new_game(R, n_players, pos)
        p, n = n_players - 1, 0
        while pos.g[S.G_ENDED] == 0:
            p, n = F.next_decision(R, pos, p, moves, scratch)
            if n == 0:
                break
            wins = []
            undo = np.zeros((2, 3), dtype=np.int64)
            for i in range(n):
                k = turn.make_move(R, pos.ships, pos.owner, pos.occ, pos.g, moves[i], undo)
                if S.is_terminal(pos.ships, pos.owner, pos.g, p):
                    wins.append(i)
                turn.unmake_move(pos.ships, pos.occ, pos.g, moves[i], undo, k)
            if wins and len(wins) < n:
                snap = S.new_state()
                S.copy_state(snap, pos)
                found.append((snap, p, moves[:n].copy(), n, wins))
                break
            k = decide_move(RUNNER, runner, R, pos.ships, pos.owner, pos.occ, pos.g, p, moves, n)
            _play(pos, p, moves[k])
        if len(found) >= wanted:
            return found
    return found


def _opening(n_players: int, seed: int = 0):
    """The first decision of a game with more than one legal move: (position, seat, moves, n)."""
    moves, scratch = _buffers()
    seed_numba(seed)
    pos = S.new_state()
    turn.new_game(R, n_players, pos)
    p, n = n_players - 1, 0
    while n < 2:
        if n == 1:
            _play(pos, p, moves[0])
        p, n = F.next_decision(R, pos, p, moves, scratch)
    return pos, p, moves[:n].copy(), n


def _prm(text: str) -> np.ndarray:
    return parse_policy(text, POLICIES, "pirateer").row()


def test_a_winning_move_is_played_and_wins_every_simulation():
    """A move that ends the game in the seat's favour is played at once (a decisive move), even
    with a random guide; searched, every simulation through it is a win."""
    cases = _positions_with_a_winning_move(2, 5)
    assert len(cases) == 5
    prm = _prm("mcts:playouts=150,guide=random,widen=20")
    for pos, p, moves, n, wins in cases:
        seed_numba(3)
        assert F.search_move(R, prm, pos, p, moves, n) in wins
        stats = np.zeros((n, 2))
        F.search_move(R, prm, pos, p, moves, n, stats)
        # every move enters the halving (widen 20); its rounds spend the budget, less rounding
        assert (stats[:, 0] > 0).all() and n * 2 <= stats[:, 0].sum() <= 150
        for i in wins:
            assert stats[i, 1] == 1.0


def test_the_search_leaves_the_position_untouched():
    pos, p, moves, n = _opening(3)
    before = [a.copy() for a in pos]
    seed_numba(1)
    F.search_move(R, _prm("mcts:playouts=20"), pos, p, moves, n)
    for a, b in zip(before, pos, strict=True):
        assert np.array_equal(a, b)


def test_the_tally_counts_simulations_and_the_turns_they_play():
    pos, p, moves, n = _opening(2)
    tally = np.zeros(2, dtype=np.int64)
    seed_numba(2)
    F.search_move(R, _prm("mcts:playouts=30,widen=1"), pos, p, moves, n, None, tally)
    assert tally[0] == 30
    assert tally[1] >= 30  # every simulation plays at least the searched turn


def _bufs():
    moves, scratch = _buffers()
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    rec, rec_n = np.zeros((0, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
    return moves, scratch, (cells[0], cells[1], cells[2]), rec, rec_n


def test_a_playout_ends_the_game_by_the_rules():
    """From the set-up, a simulation with no horizon and every rollout policy (the searching seat
    `runner`) ends with a winner or at the cap."""
    runner = POLICIES["runner"].defaults()
    for policy in ("random", "runner", "hunter", "lookahead"):
        seed_numba(5)
        pos = S.new_state()
        turn.new_game(R, 4, pos)
        pols = (RUNNER, runner, POLICIES[policy].id, POLICIES[policy].defaults())
        assert F.simulate(R, pols, pos, 0, 3, 0, _bufs(), -1) == -1
        assert pos.g[S.G_ENDED] == 1
        assert S.check_state(R, pos) == 0
        winner = pos.g[S.G_WINNER]
        if pos.g[S.G_END_REASON] == S.END_TURN_CAP:
            assert winner == -1
        else:
            assert 0 <= winner < 4 and pos.g[S.G_TURN] <= R.max_turns


def test_a_horizon_stops_the_simulation_after_that_many_turns():
    """With ``until``, a simulation stops before the roll of turn ``until`` (passes count as
    turns) and names the seat about to roll; the same dice without it play on to the end."""
    lookahead = POLICIES["lookahead"]
    pols = (lookahead.id, lookahead.defaults(), lookahead.id, lookahead.defaults())
    for horizon in (1, 2, 5):
        seed_numba(9)
        pos = S.new_state()
        turn.new_game(R, 3, pos)
        nxt = F.simulate(R, pols, pos, 0, 2, 0, _bufs(), horizon)
        assert pos.g[S.G_ENDED] == 0 and pos.g[S.G_TURN] == horizon
        assert nxt == horizon % 3  # every seat still has ships: they roll in turn
        rewards = np.zeros(3)
        F.score(R, _prm("mcts"), pos, nxt, np.zeros((3, 10)), rewards)
        assert rewards.sum() == pytest.approx(1.0)  # unfitted weights: an even share each
        assert rewards == pytest.approx(np.full(3, 1 / 3))


# -- the search's memo of capture odds ------------------------------------------------------------
def _positions_from_play(n_players: int, seed: int, every: int = 3) -> list:
    """Positions of a `lookahead` self-play game, one every ``every`` turns."""
    lookahead = POLICIES["lookahead"]
    pols = (lookahead.id, lookahead.defaults(), lookahead.id, lookahead.defaults())
    seed_numba(seed)
    pos = S.new_state()
    turn.new_game(R, n_players, pos)
    out = []
    p = n_players - 1
    while pos.g[S.G_ENDED] == 0:
        p = F.simulate(R, pols, pos, 0, p, 0, _bufs(), pos.g[S.G_TURN] + every)
        if p < 0:
            break
        out.append(S.State(*(a.copy() for a in pos)))
        p = (p - 1) % n_players  # simulate's `p` has just played: the seat before the next
    return out


@pytest.mark.parametrize("slots", [4, 1 << 14])
def test_the_memo_answers_what_capture_odds_computes(slots):
    """Asked again and again about positions of real play, in a shuffled order (a 4-slot memo
    keeps taking slots over), the memo gives exactly the capture odds computed afresh."""
    rng = np.random.default_rng(slots)
    asked = [
        (pos, q, p)
        for players in (2, 3, 4)
        for pos in _positions_from_play(players, players)[:25]
        for q in range(players)
        for p in range(players)
        if q != p
    ]
    assert N_CELLS < 255  # the key packs a space + 1 (0 for a captured ship) in a byte
    memo = new_odds_memo(slots)
    got, want = np.zeros(S.N_SHIPS), np.zeros(S.N_SHIPS)
    distinct = set()
    for i in rng.integers(0, len(asked), 3 * len(asked)):
        pos, q, p = asked[i]
        memo_capture_odds(memo, R, pos.ships, pos.owner, pos.occ, pos.g, q, p, got)
        turn.capture_odds(R, pos.ships, pos.owner, pos.occ, pos.g, q, p, want)
        assert (got == want).all()
        distinct.add((pos.ships.tobytes(), int(pos.g[S.G_TREASURE]), q, p))
    assert memo.used.sum() == min(slots, len(distinct)) and len(distinct) > 100


def test_simulations_with_the_memo_play_and_score_as_without():
    """From the same seed a simulation plays the same moves and scores the same rewards with a
    memo shared by many simulations as with none (the fitted evaluation's weights drawn at
    random, so every feature counts)."""
    lookahead = POLICIES["lookahead"]
    pols = (lookahead.id, lookahead.defaults(), lookahead.id, lookahead.defaults())
    prm = _prm("mcts")
    prm[EVAL_AT : EVAL_AT + 11] = np.random.default_rng(1).normal(size=11)
    for players in (2, 4):
        memo = new_odds_memo()
        for pos in _positions_from_play(players, 10 + players, 7)[:6]:
            for seed in range(8):
                runs = []
                for m in (memo, None):
                    sim = S.State(*(a.copy() for a in pos))
                    seed_numba(seed)
                    nxt = F.simulate(R, pols, sim, 0, players - 1, 0, _bufs(),
                                     sim.g[S.G_TURN] + players, m)  # fmt: skip
                    rewards = np.zeros(players)
                    F.score(R, prm, sim, nxt, np.zeros((players, 10)), rewards, m)
                    runs.append((nxt, *(a.copy() for a in sim), rewards))
                assert runs[0][0] == runs[1][0]
                for a, b in zip(runs[0][1:], runs[1][1:], strict=True):
                    assert (a == b).all()
        assert memo.used.any()
