"""Paired seeds for a search's simulations, without seeding the same generator twice.

A search compares its root options on common random numbers: the j-th simulation of every
option seeds numba's generator (a Mersenne Twister) from the same seed. Seeding costs a
624-step recurrence, and the first draw after it a twist of the 624 words; in a search with k
options in play the same seed is set up to k times, and in one game's search seeding was an
eighth of the time (docs/performance.md). A bank keeps, for each j, the generator's words as
the first seeding of that seed left them (twisted, nothing drawn yet) and copies them back for
the later ones: the same draws from a copy.

The words are numba's own thread-local generator state (``rnd_state_t`` in numba's
``_random.c``: ``index``, ``mt[624]``, ``has_gauss``, ``gauss``). With numba's compiler off the
functions below seed NumPy's generator as before, which gives the same draws.
"""

from __future__ import annotations

import numpy as np
from numba import carray, config, njit, types
from numba.extending import intrinsic

# index, mt[624], has_gauss and gauss (a double: two words), the state a seeding sets
STATE_WORDS = 628


@intrinsic
def _state_words(typingcontext):
    """A pointer to the words of numba's generator for this thread."""
    from numba.cpython.randomimpl import get_state_ptr

    def codegen(context, builder, sig, args):
        ptr = get_state_ptr(context, builder, "np")
        return builder.bitcast(ptr, context.get_value_type(sig.return_type))

    return types.CPointer(types.int32)(), codegen


@njit(cache=True)
def new_seed_bank(slots: int):
    """A bank for seeds of the simulations numbered 0 to ``slots - 1`` (a later one is seeded
    afresh): the words kept for each, and the seed they were kept for (-1: none yet)."""
    return np.empty((slots, STATE_WORDS), dtype=np.int32), np.full(slots, -1, dtype=np.int64)


@njit(cache=True)
def seed_paired(bank, j: int, seed: int) -> None:
    """``np.random.seed(seed)`` for simulation ``j``, copied from ``bank`` when it holds it."""
    words, seeds = bank
    if j >= seeds.shape[0]:
        np.random.seed(seed)
        return
    live = carray(_state_words(), STATE_WORDS)
    if seeds[j] == seed:
        live[:] = words[j]
        return
    np.random.seed(seed)
    np.random.random()  # the first draw twists the words: keep them twisted, nothing drawn
    live[0] = 0
    words[j] = live
    seeds[j] = seed


if config.DISABLE_JIT:  # interpreted: NumPy's generator, seeded as before (the same draws)

    def seed_paired(bank, j: int, seed: int) -> None:  # noqa: F811
        np.random.seed(seed)
