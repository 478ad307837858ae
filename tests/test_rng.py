"""The explicit generator of compiled code (simulator/contract/rng.py) and the search kernel on
it."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from simulator.contract.rng import below, new_state, next_u64
from simulator.games.caza_tesoros.odds import search_values
from simulator.games.caza_tesoros.treasure_search import (
    MARK_ALL,
    MARK_ONE,
    PAIRS_ANY,
    PAIRS_BASE,
    _mark_one,
    best_pick,
    greedy_pick,
    search_trials,
)


@njit(cache=True)
def _words(state, n):
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = next_u64(state)
    return out


@njit(cache=True)
def _below_many(state, bound, n):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = below(state, bound)
    return out


def _xoshiro_reference(s: list[int], n: int) -> list[int]:
    # The published algorithm (prng.di.unimi.it/xoshiro256starstar.c) in Python integers.
    mask = (1 << 64) - 1

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & mask

    out = []
    for _ in range(n):
        out.append(rotl(s[1] * 5 & mask, 7) * 9 & mask)
        t = s[1] << 17 & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    return out


def test_xoshiro256starstar_matches_the_published_algorithm():
    start = [1, 2, 3, 4]
    state = np.array(start, dtype=np.uint64)
    assert [int(x) for x in _words(state, 50)] == _xoshiro_reference(list(start), 50)
    assert _xoshiro_reference([1, 2, 3, 4], 1) == [11520]  # rotl(2 * 5, 7) * 9


def test_seeds_give_distinct_reproducible_states():
    assert np.array_equal(new_state(5), new_state(5))
    assert not np.array_equal(new_state(5), new_state(6))
    seq = np.random.SeedSequence(3, spawn_key=(2, 3))
    assert np.array_equal(new_state(seq), new_state(np.random.SeedSequence(3, spawn_key=(2, 3))))
    assert new_state(0).any()


@pytest.mark.parametrize("bound", [1, 2, 6, 7, 1000])
def test_bounded_draws_are_uniform(bound):
    draws = _below_many(new_state(11), bound, 60_000)
    assert draws.min() >= 0 and draws.max() == bound - 1
    if bound > 1:
        counts = np.bincount(draws, minlength=bound)
        assert chisquare(counts).pvalue > 1e-4


def test_marking_one_in_the_kernel_is_greedy_pick_and_best_pick():
    rng = np.random.default_rng(8)
    values = np.ascontiguousarray(search_values(2, 3, 1, MARK_ONE, PAIRS_ANY, "optimal"))
    greedy = np.zeros((2, 0))
    for _ in range(300):
        marked = int(rng.integers(0, 1 << 12)) & ~1
        new = int(rng.integers(1, 1 << 12)) & ~marked
        if not new:
            continue
        for pairs in (PAIRS_ANY, PAIRS_BASE):
            g = greedy_pick(2, 3, pairs, new)
            assert _mark_one(2, 3, pairs, new, marked, greedy, 1) == marked | 1 << (g - 1)
        b = best_pick(2, 3, PAIRS_ANY, new, marked, values[1])
        assert _mark_one(2, 3, PAIRS_ANY, new, marked, values, 1) == marked | 1 << (b - 1)


def test_search_trials_is_reproducible_and_refuses_bad_arguments():
    worth = np.zeros((2, 0))
    a = search_trials(new_state(2), 20_000, 1, 3, 1, MARK_ALL, PAIRS_ANY, worth)
    assert a == search_trials(new_state(2), 20_000, 1, 3, 1, MARK_ALL, PAIRS_ANY, worth)
    with pytest.raises(ValueError, match="level"):
        search_trials(new_state(2), 10, 3, 3, 1, MARK_ALL, PAIRS_ANY, worth)
    with pytest.raises(ValueError, match="state"):
        search_trials(np.zeros(3, np.uint64), 10, 1, 3, 1, MARK_ALL, PAIRS_ANY, worth)
    with pytest.raises(ValueError, match="worth"):
        search_trials(new_state(2), 10, 2, 3, 1, MARK_ONE, PAIRS_ANY, np.zeros((2, 7)))
