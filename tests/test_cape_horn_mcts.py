"""Cape Horn's search player (``mcts``): blind to what its seat cannot see, and right where the
answer is clear (legal and reproducible games, compiled equal to interpreted: the contract test,
tests/test_game_contract.py). Budgets are tiny: these check the machinery, docs/rules/cape-horn.md
measures the strength."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.cape_horn import engine as E
from simulator.cape_horn import forward as F
from simulator.cape_horn import state as S
from simulator.cape_horn import turn
from simulator.cape_horn.board import load
from simulator.cape_horn.rules import Rules
from simulator.games import get_game
from simulator.policy import engine_arrays, parse_policy

SPEC = get_game("cape-horn")
DATA = load()
NO_REC = (np.zeros((0, turn.EVENT_WIDTH), np.int64), np.zeros(1, np.int64))


@njit
def _seed(s: int) -> None:
    np.random.seed(s)


def _arrays(*names: str) -> tuple[np.ndarray, np.ndarray]:
    return engine_arrays([parse_policy(n, SPEC.policies, SPEC.id) for n in names])


def test_other_rollout_and_guide_policies_play_legal_games():
    """Legal play in every seat is the contract test's; here the search with another rollout and
    guide policy, beside a default one, at three players."""
    names = ["racer", "mcts:playouts=8", "mcts:playouts=4,rollout=racer,guide=blocker"]
    ids, prm = _arrays(*names)
    tally = np.zeros(2, np.int64)
    out = E.play_chunk(Rules(), len(names), ids, prm, np.array([1]), tally=tally)
    assert tally[0] > 0 and tally[1] > 0  # the search ran, and its simulations played rounds
    one = E.play_one(Rules(), len(names), ids, prm, 1)
    assert one["problems"] == 0 and one["winner"] == out["winner"][0]
    assert one["end_reason"] in (S.END_FINISH, S.END_THREE)


def _midgame(seed: int, turns: int, n_players: int = 2):
    """A position reached by planners playing ``turns`` turns, at the start of the next seat's
    turn (its sail point taken): (board, rules, position, seat)."""
    B, r, deck0 = E.engine_inputs(Rules())
    pos = S.new_state(n_players, B.kind.shape[0], len(Rules().card_counts), len(deck0))
    _seed(seed)
    E.setup(B, r, deck0, n_players, pos)
    ids, prm = _arrays(*["planner"] * n_players)
    buf = np.zeros((turn.MAX_PLACE, 2), np.int64)
    heat = np.zeros(B.kind.shape[0], np.int64)
    pos.g[S.G_ROUND] = 1
    pos.g[S.G_TURNS] = 1
    q = 0
    for _ in range(turns):
        assert F.play_turn(B, r, (ids, prm), q, pos, buf, (heat, heat), *NO_REC) < 0
        q = turn.next_seat(r, pos.g, q, n_players)
    turn.sail(r, pos, q, *NO_REC)
    return B, r, pos, q


def _permute_hidden(pos: S.State, p: int, rng: np.random.Generator) -> S.State:
    """The same position with the cards ``p`` cannot see (other hands, the piles' order) dealt
    again at random, every hand keeping its size."""
    out = S.State(*(a.copy() for a in pos))
    lo, hi = pos.g[S.G_DECK_POS], pos.g[S.G_DECK_N]
    pool = list(pos.deck[lo:hi])
    for q in range(pos.hand.shape[0]):
        if q != p:
            for d in range(pos.hand.shape[1]):
                pool += [d] * int(pos.hand[q, d])
    rng.shuffle(pool)
    i = 0
    for q in range(pos.hand.shape[0]):
        if q != p:
            out.hand[q] = 0
            for _ in range(pos.pl[q, S.P_HAND]):
                out.hand[q, pool[i]] += 1
                i += 1
    out.deck[lo:hi] = pool[i:]
    return out


def _search(B, r, prm, pos, p, seed):
    buf = np.zeros((turn.MAX_PLACE, 2), np.int64)
    stats = np.zeros((F.MAX_OPTIONS, 2))
    _seed(seed)
    n, kind, a, b = F.search_move(B, r, prm, pos, p, buf, stats)
    return (n, kind, a, b, buf[:n].tolist()), stats


@pytest.mark.parametrize("seed,turns", [(1, 3), (7, 6), (11, 9)])
def test_search_ignores_what_its_seat_cannot_see(seed, turns):
    """Other hands and the order of the piles, permuted, change no choice nor any statistic."""
    B, r, pos, p = _midgame(seed, turns, n_players=3)
    _, prm = _arrays("mcts:playouts=40", "planner", "planner")
    choice, stats = _search(B, r, prm[0], pos, p, seed)
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(3):
        other = _permute_hidden(pos, p, rng)
        changed += not np.array_equal(other.hand, pos.hand) or not np.array_equal(
            other.deck, pos.deck
        )
        again, stats2 = _search(B, r, prm[0], other, p, seed)
        assert again == choice
        assert np.array_equal(stats, stats2)
    assert changed  # the permutation did hide something


def _cell(col: int, row: int) -> int:
    return DATA.cell(col, row)


def test_search_takes_a_win_in_one_move():
    """Two tokens held and the card under the ship reaching the third zone's station of the
    missing colour: the guide's plan wins at once, and the search plays it without spending a
    simulation."""
    B, r, pos, _ = _midgame(3, 0)
    pos.card[:] = -1
    pos.card[_cell(2, 0)] = DATA.design("F2")  # forward is north in area 3
    pos.card[_cell(2, -1)] = DATA.design("F3")
    pos.card[_cell(1, 0)] = DATA.design("F3")
    pos.card[_cell(3, 0)] = DATA.design("B1")
    pos.card[_cell(2, -2)] = DATA.design("F1S1")  # zone III yellow, two steps ahead
    pos.card[_cell(10, 7)] = DATA.design("F2")
    pos.ship[0] = _cell(2, 0)
    pos.ship[1] = _cell(10, 7)
    pos.pl[0, S.P_TOK + 0] = 1  # red in zone I
    pos.pl[0, S.P_TOK + 1] = 2  # green in zone II
    pos.pl[0, S.P_SP] = 8  # 'ignorar' to three neighbours, 'mover dos veces', as options
    _, prm = _arrays("mcts:playouts=60", "planner")
    (n, kind, a, b, cards), stats = _search(B, r, prm[0], pos, 0, 1)
    ship = pos.ship.copy()
    pl = pos.pl.copy()
    g = pos.g.copy()
    assert turn.legal_move(B, r, pos.card, ship, pl, 0, kind, a, b)
    moved = S.State(pos.card, ship, pl, pos.hand, g, pos.deck)
    assert turn.make_move(B, r, moved, 0, (kind, a, b)) == S.END_THREE
    assert not stats.any()
