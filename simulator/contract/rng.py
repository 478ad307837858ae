"""A small explicit random generator for compiled code: xoshiro256** on a 4-word state array.

numba's ``np.random`` is one hidden generator per thread: every draw goes through it, and a
compiled function's randomness cannot be handed to it, saved or split. Here the state is an
ordinary array the caller carries, so a kernel's randomness is an argument, and each draw is a
handful of integer instructions inlined into the caller's loop. The state is four 64-bit words:
a ``uint64[4]`` array (:func:`new_state`), or four words at any offset of an ``int64`` array
(``*_at``), so a game can carry its generator in its own state array.

The generator is xoshiro256** (Blackman and Vigna, https://prng.di.unimi.it/), the same algorithm
as the plain C loop of ``benchmarks/search_kernel.c``; bounded integers use Lemire's
multiply-and-shift with rejection, so they are exactly uniform. Streams are this generator's own:
a seed gives other draws than it gives numba's ``np.random``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATE_WORDS = 4

# The draws are ordinary compiled functions without reference counting, which LLVM inlines into
# the caller (they are a few instructions). numba's own inlining (``inline="always"``) typed them
# again at every call site: a function of eight draws took two seconds to compile.


@njit(cache=True, _nrt=False)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False)
def next_at(words: np.ndarray, at: int) -> np.uint64:
    """The next 64 random bits of the state held in ``words[at : at + 4]``; advances it.

    ``words`` is an ``int64`` array (a game's own state array can carry its generator): each
    word is the same 64 bits as the ``uint64`` it stands for."""
    s0 = np.uint64(words[at])
    s1 = np.uint64(words[at + 1])
    s2 = np.uint64(words[at + 2]) ^ s0
    s3 = np.uint64(words[at + 3]) ^ s1
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    words[at] = np.int64(s0 ^ s3)
    words[at + 1] = np.int64(s1 ^ s2)
    words[at + 2] = np.int64(s2 ^ (s1 << np.uint64(17)))
    words[at + 3] = np.int64(_rotl(s3, 45))
    return result


@njit(cache=True, _nrt=False)
def below_at(words: np.ndarray, at: int, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` (``1 <= n < 2**32``) from the state in
    ``words[at : at + 4]``, exactly uniform (Lemire's multiply-and-shift with rejection)."""
    bound = np.uint64(n)
    m = (next_at(words, at) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        floor = (np.uint64(0x100000000) - bound) % bound
        while low < floor:
            m = (next_at(words, at) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True, _nrt=False)
def uniform_at(words: np.ndarray, at: int) -> float:
    """A uniform float in ``[0, 1)`` (53 random bits) from the state in ``words[at : at + 4]``."""
    return np.float64(next_at(words, at) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def seed_words(words: np.ndarray, at: int, seed: int, count: int) -> None:
    """Fill ``words[at : at + count]`` from one integer seed with splitmix64: ``count = 8`` seeds
    two independent states in a row (never all zero)."""
    x = np.uint64(seed)
    for i in range(count):
        x += np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        words[at + i] = np.int64(z ^ (z >> np.uint64(31)))


# The same generator on a ``uint64[4]`` state array (:func:`new_state`).
@njit(cache=True, _nrt=False)
def next_u64(state: np.ndarray) -> np.uint64:
    """The next 64 random bits; advances ``state``."""
    return next_at(state.view(np.int64), 0)


@njit(cache=True, _nrt=False)
def below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` (``1 <= n < 2**32``), exactly uniform (Lemire)."""
    return below_at(state.view(np.int64), 0, n)


@njit(cache=True)
def seed_state(state: np.ndarray, seed: int) -> None:
    """Fill ``state`` from one integer seed with splitmix64 (never all zero)."""
    seed_words(state.view(np.int64), 0, seed, STATE_WORDS)


def new_state(seed: int | np.random.SeedSequence) -> np.ndarray:
    """A fresh state array: from an integer via splitmix64, or 256 bits of a ``SeedSequence``."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    if isinstance(seed, np.random.SeedSequence):
        state[:] = seed.generate_state(STATE_WORDS, np.uint64)
        if not state.any():  # the one state xoshiro cannot leave
            state[0] = 1
    else:
        with np.errstate(over="ignore"):  # uint64 wraps on purpose (interpreted: numpy warns)
            seed_state(state, np.uint64(seed % 2**64))
    return state
