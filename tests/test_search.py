"""The shared search (simulator/search/tree.py) on games small enough to know the right answer.

A tiny forward model written here drives the tree the way a game's ``forward.py`` does: Nim
(take 1 to 3 from a pile, taking the last wins), whose winning moves are known exactly, and a
bandit whose options win with known chances.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.search import tree as T

LEFT = 0  # Nim position: [stones left, seat to move]
TO_MOVE = 1


@njit(cache=True)
def _nim_playout(state, n_players):
    """Both seats take at random until the pile is empty; the seat taking the last stone wins."""
    while state[LEFT] > 0:
        take = np.random.randint(1, min(3, state[LEFT]) + 1)
        state[LEFT] -= take
        if state[LEFT] == 0:
            return state[TO_MOVE]
        state[TO_MOVE] = (state[TO_MOVE] + 1) % n_players
    return -1


@njit(cache=True)
def nim_search(stones, playouts, explore, widen, bias, guide_take, seed, stats):
    """Seat 0 to move with ``stones`` left: the number it takes (1..3) after the search."""
    np.random.seed(seed)
    tree = T.new_tree(playouts + 1)
    state = np.zeros(2, dtype=np.int64)
    keys = np.array([1, 2, 3], dtype=np.int64)
    rewards = np.zeros(2)
    n_root = min(3, stones)
    for _ in range(playouts):
        state[LEFT] = stones
        state[TO_MOVE] = 0
        T.begin(tree)
        winner = -1
        n = n_root
        while n > 0:
            g = -1
            if T.widening(tree, widen) and guide_take <= n:
                g = guide_take - 1
            k = T.choose(tree, keys, n, state[TO_MOVE], explore, g, widen, bias)
            state[LEFT] -= k + 1
            if state[LEFT] == 0:
                winner = state[TO_MOVE]
                break
            state[TO_MOVE] = 1 - state[TO_MOVE]
            if T.left_tree(tree):
                break
            n = min(3, state[LEFT])
        if winner < 0:
            winner = _nim_playout(state, 2)
        T.backup(tree, T.win_rewards(winner, 2, rewards))
    T.root_stats(tree, keys, n_root, 0, stats)
    return T.most_visited(tree, keys, n_root, 0) + 1


@njit(cache=True)
def bandit_search(chances, playouts, seed, stats):
    """One decision whose options win with ``chances``; returns the option chosen."""
    np.random.seed(seed)
    n = chances.shape[0]
    tree = T.new_tree(playouts + 1)
    keys = np.arange(n) * 7 + 3  # any distinct keys
    rewards = np.zeros(2)
    for _ in range(playouts):
        T.begin(tree)
        k = T.choose(tree, keys, n, 0, T.EXPLORE, -1, 1e9, 0.0)
        winner = 0 if np.random.random() < chances[k] else 1
        T.backup(tree, T.win_rewards(winner, 2, rewards))
    T.root_stats(tree, keys, n, 0, stats)
    return T.most_visited(tree, keys, n, 0)


@pytest.mark.parametrize(("stones", "winning_take"), [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)])
def test_nim_finds_the_winning_move(stones, winning_take):
    """Leaving a multiple of 4 wins Nim (take 1-3): the only winning move from each pile."""
    stats = np.zeros((3, 2))
    for seed in range(3):
        assert nim_search(stones, 3000, T.EXPLORE, 1e9, 0.0, -1, seed, stats) == winning_take


def test_nim_values_are_the_movers_results():
    """From 5 stones, taking 1 (leave 4) wins against any reply once the tree sees both plies:
    its mean approaches 1 and beats the others; the root statistics count every simulation."""
    stats = np.zeros((3, 2))
    nim_search(5, 4000, T.EXPLORE, 1e9, 0.0, -1, 1, stats)
    assert stats[:, 0].sum() == 4000
    assert stats[0, 1] > 0.9
    assert stats[0, 1] > stats[1, 1] and stats[0, 1] > stats[2, 1]


def test_a_bad_guide_is_overruled_and_a_good_one_kept():
    """Progressive bias favours the guide's choice, but simulations overrule a losing one."""
    stats = np.zeros((3, 2))
    assert nim_search(5, 3000, T.EXPLORE, T.WIDEN, T.BIAS, 3, 4, stats) == 1
    assert nim_search(5, 3000, T.EXPLORE, T.WIDEN, T.BIAS, 1, 4, stats) == 1


def test_widening_holds_back_new_options():
    """widen 0: a decision holds one option (the guide's), so the search plays the guide."""
    stats = np.zeros((3, 2))
    assert nim_search(5, 200, T.EXPLORE, 0.0, T.BIAS, 3, 2, stats) == 3
    assert (stats[:, 0] > 0).sum() == 1


def test_bandit_picks_the_best_arm_and_spends_on_it():
    chances = np.array([0.3, 0.45, 0.7, 0.5])
    stats = np.zeros((4, 2))
    assert bandit_search(chances, 4000, 5, stats) == 2
    assert stats[2, 0] == stats[:, 0].max()
    assert abs(stats[2, 1] - 0.7) < 0.05


def test_same_seed_same_choice_and_statistics():
    a, b = np.zeros((3, 2)), np.zeros((3, 2))
    assert nim_search(9, 500, T.EXPLORE, T.WIDEN, T.BIAS, -1, 8, a) == nim_search(
        9, 500, T.EXPLORE, T.WIDEN, T.BIAS, -1, 8, b
    )
    assert np.array_equal(a, b)


def test_a_full_tree_keeps_searching_by_playouts():
    """Capacity below the budget: simulations past it play out from the frontier, every one
    still counted at the root."""
    tree = T.new_tree(3)
    keys = np.array([10, 20], dtype=np.int64)
    rewards = np.zeros(2)
    for i in range(50):
        T.begin(tree)
        T.choose(tree, keys, 2, 0, T.EXPLORE, -1, 1e9, 0.0)
        T.backup(tree, T.win_rewards(i % 2, 2, rewards))
    stats = np.zeros((2, 2))
    T.root_stats(tree, keys, 2, 0, stats)
    assert stats[:, 0].sum() == 50
    assert tree.cursor[T.C_SIZE] == 3


def test_win_rewards():
    out = np.zeros(3)
    assert list(T.win_rewards(1, 3, out)) == [0.0, 1.0, 0.0]
    assert list(T.win_rewards(-1, 3, out)) == [0.0, 0.0, 0.0]


def test_named_parameter_values_are_written_and_shown_by_name():
    """`mcts:rollout=hunter` sets the rollout by name (or by its index); the label names it; a
    name the game does not have is one line listing the names."""
    from policies.pirateer import POLICIES
    from simulator.contract.errors import BalanceError
    from simulator.contract.policy import parse_policy

    by_name = parse_policy("mcts:rollout=hunter,playouts=50", POLICIES, "pirateer")
    by_index = parse_policy("mcts:rollout=2,playouts=50", POLICIES, "pirateer")
    assert by_name.values == by_index.values
    assert by_name.label == "mcts:playouts=50,rollout=hunter"
    with pytest.raises(BalanceError, match="allowed: random, runner, hunter, lookahead"):
        parse_policy("mcts:rollout=greedy", POLICIES, "pirateer")
    with pytest.raises(BalanceError, match="whole number"):
        parse_policy("mcts:playouts=2.5", POLICIES, "pirateer")
