"""Paired seeds for a search's simulations, without seeding the same generator twice.

A search compares its root options on common random numbers: the j-th simulation of every
option seeds numba's generator (a Mersenne Twister) from the same seed, ``base + j``. Seeding
costs a 624-step recurrence, and the first draw after it a twist of the 624 words; in a search
with k options in play the same seed is set up to k times, and in one game's search seeding was
an eighth of the time (docs/performance.md). A bank keeps, for each j, the generator's words as
seeding leaves them once twisted (nothing drawn yet) and copies them in for every option's j-th
simulation: the same draws from a copy.

The bank computes those words itself, :data:`LANES` seeds at a time (``base + j`` to
``base + j + LANES - 1``, the simulations a search plays next): the seeding recurrence is one
long chain of dependent multiplications for one seed, and four chains side by side take about
the time of one. The arithmetic is numba's own (``numba_rnd_init`` and ``numba_rnd_shuffle``
in numba's ``_random.c``); ``tests/test_seed_bank.py`` checks the draws from the bank against
seeding afresh, in runs long enough to read every word and twist them again.

The words are numba's own thread-local generator state (``rnd_state_t``: ``index``,
``mt[624]``, ``has_gauss``, ``gauss``). With numba's compiler off the functions below seed
NumPy's generator as before, which gives the same draws.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# index, mt[624], has_gauss and gauss (a double: two words), the state a seeding sets
STATE_WORDS = 628
MT_N, MT_M = 624, 397  # the Mersenne Twister's words and its shift
LANES = 4  # seeds set up together (fill is written out for four)
_LOW32 = 0xFFFFFFFF


@intrinsic
def _set_generator(typingcontext, row):
    """Numba's generator for this thread takes the words of ``row`` (int32, STATE_WORDS)."""
    from numba.cpython.randomimpl import get_state_ptr

    def codegen(context, builder, sig, args):
        ptr = get_state_ptr(context, builder, "np")
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        count = context.get_constant(types.intp, STATE_WORDS)
        cgutils.raw_memcpy(builder, ptr, data, count, 4)
        return context.get_dummy_value()

    return types.void(row), codegen


@njit(cache=True)
def new_seed_bank(slots: int):
    """A bank for seeds of the simulations numbered 0 to ``slots - 1`` (a later one is seeded
    afresh): the words kept for each (and ``LANES - 1`` rows more, which a fill of the last
    slots writes), and the seed they were kept for (-1: none yet)."""
    words = np.zeros((slots + LANES - 1, STATE_WORDS), dtype=np.int32)
    return words, np.full(slots, -1, dtype=np.int64)


@njit(cache=True, _nrt=False)
def seed_paired(bank, j: int, seed: int) -> None:
    """``np.random.seed(seed)`` for simulation ``j``, copied from ``bank`` when it holds it."""
    words, seeds = bank
    if j >= seeds.shape[0]:
        np.random.seed(seed)
        return
    if seeds[j] != seed:
        fill(words, j, seed)
        for lane in range(min(LANES, seeds.shape[0] - j)):
            seeds[j + lane] = seed + lane
    _set_generator(words[j])


@njit(cache=True, _nrt=False)
def fill(words, j: int, seed: int) -> None:
    """Rows ``j`` to ``j + LANES - 1`` of ``words``: the generator's words after
    ``np.random.seed(seed + lane)`` and its first twist, the index at 0 (nothing drawn)."""
    # numba_rnd_init: mt[0] = seed, mt[i] = 1812433253 * (mt[i-1] ^ (mt[i-1] >> 30)) + i, on 32
    # bits (the products stay below 2**63); four chains at once, one per lane
    x0 = seed & _LOW32
    x1 = (seed + 1) & _LOW32
    x2 = (seed + 2) & _LOW32
    x3 = (seed + 3) & _LOW32
    for i in range(MT_N):
        words[j, 1 + i] = x0
        words[j + 1, 1 + i] = x1
        words[j + 2, 1 + i] = x2
        words[j + 3, 1 + i] = x3
        x0 = (1812433253 * (x0 ^ (x0 >> 30)) + i + 1) & _LOW32
        x1 = (1812433253 * (x1 ^ (x1 >> 30)) + i + 1) & _LOW32
        x2 = (1812433253 * (x2 ^ (x2 >> 30)) + i + 1) & _LOW32
        x3 = (1812433253 * (x3 ^ (x3 >> 30)) + i + 1) & _LOW32
    for lane in range(LANES):
        row = words[j + lane]
        twist(row)
        row[0] = 0  # index: nothing drawn yet
        row[MT_N + 1] = 0  # has_gauss
        row[MT_N + 2] = 0  # gauss, a double over two words
        row[MT_N + 3] = 0


@njit(cache=True, _nrt=False)
def twist(row) -> None:
    """numba_rnd_shuffle on the words ``row[1:625]`` (int32, read as unsigned): each word from
    itself, the next and the one ``MT_M`` on, wrapping round to those already twisted."""
    mt = row[1 : MT_N + 1]
    for i in range(MT_N - MT_M):
        y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
        mt[i] = mt[i + MT_M] ^ (y >> 1) ^ (-(y & 1) & 0x9908B0DF)
    for i in range(MT_N - MT_M, MT_N - 1):
        y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
        mt[i] = mt[i + MT_M - MT_N] ^ (y >> 1) ^ (-(y & 1) & 0x9908B0DF)
    y = (mt[MT_N - 1] & 0x80000000) | (mt[0] & 0x7FFFFFFF)
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (-(y & 1) & 0x9908B0DF)


if config.DISABLE_JIT:  # interpreted: NumPy's generator, seeded as before (the same draws)

    def seed_paired(bank, j: int, seed: int) -> None:  # noqa: F811
        np.random.seed(seed)
