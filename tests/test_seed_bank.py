"""The seed bank gives the draws of seeding afresh, whichever way a seed is set."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulator.contract.seed_bank import LANES, STATE_WORDS, new_seed_bank, seed_paired


@njit
def _draws(n: int) -> np.ndarray:
    """Draws of every kind the games take: integers, uniforms and normals (which keep a
    second normal in the generator's state)."""
    out = np.empty(3 * n)
    for i in range(n):
        out[3 * i] = np.random.randint(0, 1 << 30)
        out[3 * i + 1] = np.random.random()
        out[3 * i + 2] = np.random.normal()
    return out


@njit
def _fresh(seed: int, n: int) -> np.ndarray:
    np.random.seed(seed)
    return _draws(n)


@njit
def _banked(bank, j: int, seed: int, n: int) -> np.ndarray:
    seed_paired(bank, j, seed)
    return _draws(n)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 2**31 - 2), st.sampled_from([1, 7, 400])),
        min_size=1,
        max_size=12,
    )
)
def test_banked_seeds_draw_as_fresh_ones(uses):
    """Any order of slots and seeds: a slot's first seeding, a copy from the bank, a slot
    seeded again with another seed, a slot past the bank's end; short runs of draws and runs
    long enough (400 x 4 words and more) to twist the words again."""
    bank = new_seed_bank(4)
    for j, seed, n in uses:
        assert np.array_equal(_banked(bank, j, seed, n), _fresh(seed, n))


def test_a_copy_from_the_bank_forgets_what_was_drawn_since():
    bank = new_seed_bank(2)
    first = _banked(bank, 1, 12345, 5)  # leaves a normal kept in the generator's state
    _draws(1000)
    assert np.array_equal(_banked(bank, 1, 12345, 5), first)
    assert bank[1][1] == 12345
    assert bank[0].shape[1] == STATE_WORDS


def test_the_bank_keeps_the_words_of_the_first_seeding_only_for_its_seed():
    bank = new_seed_bank(1)
    _banked(bank, 0, 1, 1)
    kept = bank[0][0].copy()
    assert np.array_equal(_banked(bank, 0, 2, 3), _fresh(2, 3))  # another seed: seeded afresh
    assert bank[1][0] == 2 and not np.array_equal(bank[0][0], kept)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_a_fill_sets_up_the_next_seeds_of_the_same_base(slots, base):
    """The first seeding of slot j sets up slots j to j + LANES - 1 (those the bank has) for
    seeds base + j onwards, as a search asks for them; each draws as seeded afresh, up to the
    top of the 32-bit seeds numba reads."""
    bank = new_seed_bank(slots)
    first = _banked(bank, 0, base, 3)
    assert np.array_equal(first, _fresh(base, 3))
    kept = min(LANES, slots)
    assert list(bank[1][:kept]) == [base + lane for lane in range(kept)]
    assert (bank[1][kept:] == -1).all()
    for j in range(slots):
        assert np.array_equal(_banked(bank, j, base + j, 250), _fresh((base + j) % 2**32, 250))
