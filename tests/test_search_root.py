"""The shared search's root (sequential halving), its evaluation and its own random stream."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.contract.policy import EVAL_AT, ROW
from simulator.search import tree as T


@njit(cache=True)
def _halving_run(means, order, n, budget, seed, counts_out):
    np.random.seed(seed)
    h = T.new_halving(means.shape[0])
    T.start_halving(h, order, n, budget)
    used = 0
    while True:
        k = T.next_arm(h)
        if k < 0:
            break
        used += 1
        T.record_arm(h, k, 1.0 if np.random.random() < means[k] else 0.0)
    for k in range(means.shape[0]):
        counts_out[k] = h.counts[k]
    return T.best_arm(h), used


def test_halving_spends_the_budget_and_no_more():
    means = np.linspace(0.2, 0.6, 16)
    order = np.arange(16, dtype=np.int64)
    counts = np.zeros(16)
    for budget in (16, 40, 100, 400, 1000):
        _, used = _halving_run(means, order, 16, budget, 1, counts)
        assert used <= budget
        assert used >= budget - 16 * 4  # rounding down each round's share loses little
        assert counts.sum() == used


def test_halving_gives_the_survivors_equal_simulations():
    """Every option still in play got the same simulations in each round, so the final choice
    compares means of equal samples (by value, not visits)."""
    means = np.full(8, 0.5)
    counts = np.zeros(8)
    _halving_run(means, np.arange(8, dtype=np.int64), 8, 240, 3, counts)
    # 3 rounds of 80: 8 x 10, then 4 x 20, then 2 x 40
    assert sorted(counts.tolist()) == [10, 10, 10, 10, 30, 30, 70, 70]


def test_halving_finds_a_clear_best_arm_at_least_as_often_as_an_even_split():
    """Known answer: one option wins 0.7, fifteen win 0.5. At 800 simulations, over 400
    searches, sequential halving names the best one in about 87% of searches, at least as often
    as spending the budget evenly (50 each, the best mean wins: about 83%)."""
    means = np.full(16, 0.5)
    means[11] = 0.7
    counts = np.zeros(16)
    order = np.arange(16, dtype=np.int64)
    hits = sum(_halving_run(means, order, 16, 800, s, counts)[0] == 11 for s in range(400))
    rng = np.random.default_rng(5)
    wins = rng.binomial(50, means, size=(400, 16)) + rng.random((400, 16)) * 0.5  # random ties
    even = (wins.argmax(axis=1) == 11).sum()
    assert hits >= 330 and hits >= even - 10


def test_halving_with_one_option_or_a_tie_keeps_the_guide_first():
    counts = np.zeros(4)
    order = np.array([2, 0, 1, 3], dtype=np.int64)
    best, used = _halving_run(np.zeros(4), order, 1, 100, 1, counts)
    assert (best, used) == (2, 0)
    best, _ = _halving_run(np.zeros(4), order, 4, 100, 1, counts)  # every mean 0: a tie
    assert best == 2


def test_rank_by_score_puts_the_guide_first_then_scores():
    order = np.zeros(5, dtype=np.int64)
    T.rank_by_score(np.array([0.1, 0.9, 0.5, 0.9, 0.0]), 5, 4, order)
    assert order.tolist() == [4, 1, 3, 2, 0]
    T.rank_by_score(np.array([0.1, 0.9, 0.5, 0.9, 0.0]), 5, -1, order)
    assert order.tolist() == [1, 3, 2, 0, 4]


@pytest.mark.parametrize("playouts,n,width", [(400, 30, 21), (400, 5, 5), (4, 30, 2), (1, 9, 1)])
def test_root_width(playouts, n, width):
    assert T.root_width(n, playouts, 1.0) == width


def test_evaluate_is_a_share_and_follows_the_weights():
    row = np.zeros(ROW)
    feats = np.array([[3.0, 1.0], [1.0, 1.0], [2.0, 5.0]])
    out = np.zeros(3)
    T.evaluate(row, feats, 3, out)
    assert np.allclose(out, 1 / 3)  # unfitted: even shares
    row[EVAL_AT + 1] = 2.0  # feature 0 helps
    T.evaluate(row, feats, 3, out)
    v = out.copy()
    assert v.sum() == pytest.approx(1.0) and v[0] > v[2] > v[1]
    # the 2-player share is the logistic of the weighted difference (no intercept)
    two = np.zeros(2)
    T.evaluate(row, feats[:2], 2, two)
    p = 1 / (1 + np.exp(-2.0 * 2.0))
    q = 1 / (1 + np.exp(2.0 * 2.0))
    assert two[0] == pytest.approx(p / (p + q))


@njit(cache=True)
def _game_draws_around_a_search(seed, search_draws):
    np.random.seed(seed)
    before = np.random.randint(0, 1000)
    resume = T.own_stream()
    for _ in range(search_draws):
        np.random.random()
    T.back_to_game(resume)
    return before, np.random.randint(0, 1_000_000), np.random.randint(0, 1_000_000)


def test_the_game_stream_does_not_depend_on_the_search_budget():
    first = _game_draws_around_a_search(7, 0)
    for draws in (1, 10, 12345):
        assert _game_draws_around_a_search(7, draws) == first
    assert _game_draws_around_a_search(8, 10) != first
