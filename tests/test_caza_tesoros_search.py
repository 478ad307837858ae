"""One Caza-Tesoros search: what a throw shows, and the compiled search the engine calls."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from simulator.contract.rng import new_state
from simulator.games.caza_tesoros.treasure_search import (
    GREEDY_ORDER,
    MARK_ALL,
    MARK_ONE,
    MAX_DICE,
    PAIRS_ANY,
    PAIRS_BASE,
    appearance_counts,
    greedy_order,
    greedy_pick,
    resolve_search,
    throw_distribution,
    throw_mask,
)


def values(mask: int) -> set[int]:
    return {v + 1 for v in range(12) if mask >> v & 1}


def shown(level: int, dice: list[int], pairs: int = PAIRS_ANY) -> set[int]:
    return values(throw_mask(level, np.array(dice, dtype=np.int64), len(dice), pairs))


def test_level1_shows_each_die_only():
    assert shown(1, [4]) == {4}
    assert shown(1, [3, 3]) == {3}
    assert shown(1, [1, 6, 2]) == {1, 2, 6}


def test_level2_shows_dice_sum_and_difference():
    # Seed: "el resultado de los dados puede ser sumado, restado o tomado como valor independiente".
    assert shown(2, [3, 5]) == {3, 5, 8, 2}
    assert shown(2, [6, 6]) == {6, 12}  # a difference of 0 marks nothing
    assert shown(2, [1, 1]) == {1, 2}


def test_level2_pair_rules_for_extra_dice():
    assert shown(2, [1, 2, 6], PAIRS_BASE) == {1, 2, 3, 6}
    assert shown(2, [1, 2, 6], PAIRS_ANY) == {1, 2, 3, 4, 5, 6, 7, 8}
    # Sums above 12 are impossible with D6 pairs, but 6+6 is kept.
    assert 12 in shown(2, [6, 6, 1], PAIRS_ANY)


def brute_distribution(level: int, n_dice: int, pairs: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for throw in itertools.product(range(1, 7), repeat=n_dice):
        mask = throw_mask(level, np.array(throw, dtype=np.int64), n_dice, pairs)
        out[mask] = out.get(mask, 0) + 1
    return out


@pytest.mark.parametrize(
    "level,n_dice,pairs",
    [(1, 1, 0), (1, 3, 0), (2, 2, 0), (2, 3, 0), (2, 3, 1), (2, 4, 0), (2, 4, 1)],
)
def test_throw_distribution_matches_every_ordered_throw(level, n_dice, pairs):
    assert throw_distribution(level, n_dice, pairs) == brute_distribution(level, n_dice, pairs)


def test_appearance_counts_by_hand():
    # Two dice at level 2: 12 only from 6+6, 11 only from 5+6 in either order.
    counts = appearance_counts(2, 2, PAIRS_ANY)
    assert counts[11] == 1
    assert counts[10] == 2  # 5+6, 6+5
    # value 1: a die shows 1 (11 throws) or |a-b| = 1 without a 1 (2-3, 3-4, 4-5, 5-6 both ways)
    assert counts[0] == 11 + 8
    assert greedy_order(2, 2, PAIRS_ANY)[:2] == [12, 11]


def test_greedy_pick_prefers_least_likely_new_value():
    new = (1 << 0) | (1 << 6) | (1 << 11)  # values 1, 7 and 12 are new
    assert greedy_pick(2, 2, PAIRS_ANY, new) == 12
    assert greedy_pick(2, 2, PAIRS_ANY, (1 << 0) | (1 << 6)) == 7
    # Level 1 values are alike; the tie goes to the larger value.
    assert greedy_pick(1, 1, PAIRS_ANY, 0b000101) == 3
    assert list(GREEDY_ORDER[1, 1, 0, :6]) == [6, 5, 4, 3, 2, 1]


def _many(seed, n, level, n_dice, rerolls, marking, pairs):
    state = new_state(seed)
    wins = np.zeros(n, dtype=np.bool_)
    throws = np.zeros(n, dtype=np.int64)
    for k in range(n):
        wins[k], throws[k] = resolve_search(state, level, n_dice, rerolls, marking, pairs)
    return wins, throws


def test_same_seed_same_searches():
    a = _many(7, 2000, 2, 3, 1, MARK_ONE, PAIRS_ANY)
    b = _many(7, 2000, 2, 3, 1, MARK_ONE, PAIRS_ANY)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_level1_one_die_success_rate_is_six_factorial_over_six_to_the_six():
    # One die, no reroll: the six throws must show six different faces.
    p = Fraction(720, 6**6)
    wins, throws = _many(11, 200_000, 1, 1, 0, MARK_ALL, PAIRS_ANY)
    ci = binomtest(int(wins.sum()), wins.size).proportion_ci(method="wilson")
    assert ci.low <= float(p) <= ci.high
    assert np.all(throws[wins] == 6)  # a success marks one box per throw
    assert np.all(throws[~wins] <= 6)


@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_throw_counts_respect_marking_and_rerolls(rerolls):
    wins, throws = _many(3, 5000, 2, 2, rerolls, MARK_ONE, PAIRS_ANY)
    # Marking one per throw: 12 good throws plus at most `rerolls` failed ones.
    assert np.all((throws[wins] >= 12) & (throws[wins] <= 12 + rerolls))
    assert np.all(throws[~wins] <= 12 + rerolls)
    assert np.all(throws >= 1 + rerolls)  # a failure needs rerolls + 1 failed throws


def test_more_dice_and_rerolls_help():
    rate = {}
    for n_dice, rerolls in [(2, 0), (3, 0), (2, 1)]:
        wins, _ = _many(5, 20_000, 2, n_dice, rerolls, MARK_ALL, PAIRS_ANY)
        rate[n_dice, rerolls] = wins.mean()
    assert rate[3, 0] > rate[2, 0] and rate[2, 1] > rate[2, 0]


@given(
    level=st.sampled_from([1, 2]),
    dice=st.lists(st.integers(1, 6), min_size=2, max_size=MAX_DICE),
    pairs=st.sampled_from([PAIRS_ANY, PAIRS_BASE]),
)
@settings(max_examples=200, deadline=None)
def test_throw_mask_properties(level, dice, pairs):
    got = shown(level, dice, pairs)
    boxes = 6 if level == 1 else 12
    assert set(dice) <= got <= set(range(1, boxes + 1))
    if level == 1:
        assert got == set(dice)
    else:
        base = {dice[0] + dice[1], abs(dice[0] - dice[1])} - {0}
        assert base <= got
        # any_pair shows at least what base_pair shows
        assert shown(2, dice, PAIRS_BASE) <= shown(2, dice, PAIRS_ANY)


@pytest.mark.parametrize(
    "args",
    [(3, 1, 0, MARK_ALL, PAIRS_ANY), (2, 1, 0, MARK_ALL, PAIRS_ANY), (1, MAX_DICE + 1, 0, 0, 0)],
)
def test_bad_search_arguments_are_refused(args):
    with pytest.raises(ValueError):
        resolve_search(new_state(0), *args)
    with pytest.raises(ValueError):
        throw_distribution(args[0], args[1], args[4])


def test_same_source_runs_interpreted():
    code = (
        "import numpy as np\n"
        "from simulator.games.caza_tesoros.treasure_search import resolve_search\n"
        "from simulator.contract.rng import new_state\n"
        "state = new_state(1)\n"
        "r = [resolve_search(state, 2, 3, 1, 1, 0) for _ in range(300)]\n"
        "assert all(isinstance(t, int) and t >= 1 for _, t in r)\n"
        "print(sum(w for w, _ in r))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
