"""Resolving one Caza-Tesoros treasure search (seed: "Buscar tesoros", "Objetos").

A rule of the game, called by the turn rules (:func:`.turn.search_with`) and the exact odds
(:mod:`.odds`); named for the rulebook's treasure search so that it is not taken for the search
player (``simulator.search.tree``, driven through :mod:`.forward`).

A search has a level. Level 1 has boxes 1-6 and a throw shows each die's value. Level 2 has
boxes 1-12 and a throw shows each die, plus the sum and the absolute difference of two dice, kept
when in 1..12 (a difference of 0 shows nothing). With ``PAIRS_ANY`` every two of the thrown dice
combine; with ``PAIRS_BASE`` only the first two (the base 2D6), extra dice count singly.

``MARK_ALL`` marks every new value a throw shows. ``MARK_ONE`` marks one new value: the best
choice, the one leaving the highest chance to finish (``worth``, the value of every marked set
from the exact dynamic programme of :mod:`.odds`), or, without ``worth``, the greedy rule: the new
value least likely to appear in a single throw of this level and number of dice (ties: the
larger value), so the values still open are the easy ones. A throw that shows no
new value is a failed throw; a failed throw may be thrown again while ``rerolls`` remain (divers
give one per turn, and a search takes one turn), otherwise the search fails. All boxes marked is
success.

Values travel as bit masks: bit ``v - 1`` set means value ``v`` is shown (or marked). The exact
analysis (:mod:`analyses.caza_tesoros_search_odds`) counts throws with the same
:func:`throw_mask`, so the simulation and the exact figures cannot disagree about what a throw
shows.
"""

from __future__ import annotations

import math
from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from simulator.contract.recording import record
from simulator.contract.rng import STATE_WORDS, below_at

MARK_ALL, MARK_ONE = 0, 1  # rule options level1_marking, level2_marking: "all" / "one"
PAIRS_ANY, PAIRS_BASE = 0, 1  # rule option level2_combinations "any_pair" / "base_pair"

MARKING_NAMES = ("all", "one")
PAIRS_NAMES = ("any_pair", "base_pair")

FACES = 6
MAX_DICE = 8  # dice per throw the greedy table covers; more is refused
LEVEL_BOXES = (0, 6, 12)  # index by level
LEVEL_BASE_DICE = (0, 1, 2)  # dice a search throws before equipment adds any


@njit(cache=True, inline="always")
def throw_mask(level: int, dice: np.ndarray, n_dice: int, pairs: int) -> int:
    """Bit mask of the values a throw of ``dice[:n_dice]`` shows at ``level``."""
    boxes = 6 if level == 1 else 12
    shown = 0
    for i in range(n_dice):
        shown |= 1 << (dice[i] - 1)
    if level == 2:
        n_paired = n_dice if pairs == PAIRS_ANY else min(n_dice, 2)
        for i in range(n_paired):
            for j in range(i + 1, n_paired):
                total = dice[i] + dice[j]
                if total <= boxes:
                    shown |= 1 << (total - 1)
                gap = abs(dice[i] - dice[j])
                if gap >= 1:
                    shown |= 1 << (gap - 1)
    return shown


def _python(fn):
    # The interpreted source of a compiled function (itself when NUMBA_DISABLE_JIT=1): used at
    # import so building the tables below costs no compilation.
    return getattr(fn, "py_func", fn)


def _multisets(level: int, n_dice: int, pairs: int):
    """Yield (dice, weight): every throw up to order, with the number of ordered throws it stands
    for. With PAIRS_BASE the two base dice and the extra dice are separate multisets."""
    faces = range(1, FACES + 1)
    if level == 2 and pairs == PAIRS_BASE and n_dice > 2:
        for base in combinations_with_replacement(faces, 2):
            for extra in combinations_with_replacement(faces, n_dice - 2):
                yield base + extra, _arrangements(base) * _arrangements(extra)
    else:
        for throw in combinations_with_replacement(faces, n_dice):
            yield throw, _arrangements(throw)


def _arrangements(values: tuple[int, ...]) -> int:
    count = math.factorial(len(values))
    for v in set(values):
        count //= math.factorial(values.count(v))
    return count


def throw_distribution(level: int, n_dice: int, pairs: int) -> dict[int, int]:
    """Shown-value mask -> number of the ``6 ** n_dice`` ordered throws that show exactly it."""
    check_search(level, n_dice, 0, MARK_ALL, pairs)
    mask_of = _python(throw_mask)
    out: dict[int, int] = {}
    for throw, weight in _multisets(level, n_dice, pairs):
        mask = mask_of(level, np.array(throw, dtype=np.int64), n_dice, pairs)
        out[mask] = out.get(mask, 0) + weight
    return out


def appearance_counts(level: int, n_dice: int, pairs: int) -> list[int]:
    """For each value 1..boxes, how many of the ``6 ** n_dice`` throws show it."""
    boxes = LEVEL_BOXES[level]
    counts = [0] * boxes
    for mask, weight in throw_distribution(level, n_dice, pairs).items():
        for v in range(boxes):
            if mask >> v & 1:
                counts[v] += weight
    return counts


def greedy_order(level: int, n_dice: int, pairs: int) -> list[int]:
    """Values (1-based) in the order MARK_ONE prefers them: least likely to appear first, ties
    broken towards the larger value."""
    counts = appearance_counts(level, n_dice, pairs)
    return sorted(range(1, len(counts) + 1), key=lambda v: (counts[v - 1], -v))


def _greedy_table() -> np.ndarray:
    # GREEDY_ORDER[level, n_dice, pairs] lists values 1..boxes by preference (0 pads level 1).
    table = np.zeros((3, MAX_DICE + 1, 2, 12), dtype=np.int64)
    for level in (1, 2):
        for n_dice in range(LEVEL_BASE_DICE[level], MAX_DICE + 1):
            for pairs in (PAIRS_ANY, PAIRS_BASE):
                order = greedy_order(level, n_dice, pairs)
                table[level, n_dice, pairs, : len(order)] = order
    return table


def check_search(level: int, n_dice: int, rerolls: int, marking: int, pairs: int) -> None:
    """Raise ValueError naming the first argument a search cannot take."""
    if level not in (1, 2):
        raise ValueError(f"search level must be 1 or 2, not {level}")
    if not LEVEL_BASE_DICE[level] <= n_dice <= MAX_DICE:
        raise ValueError(
            f"a level {level} search throws {LEVEL_BASE_DICE[level]} to {MAX_DICE} dice, "
            f"not {n_dice}"
        )
    if rerolls < 0:
        raise ValueError(f"rerolls must be 0 or more, not {rerolls}")
    if marking not in (MARK_ALL, MARK_ONE):
        raise ValueError(f"marking must be MARK_ALL (0) or MARK_ONE (1), not {marking}")
    if pairs not in (PAIRS_ANY, PAIRS_BASE):
        raise ValueError(f"pairs must be PAIRS_ANY (0) or PAIRS_BASE (1), not {pairs}")


GREEDY_ORDER = _greedy_table()


@njit(cache=True)
def greedy_pick(level: int, n_dice: int, pairs: int, new: int) -> int:
    """The value (1-based) MARK_ONE marks among the new values in mask ``new`` (non-zero)."""
    order = GREEDY_ORDER[level, n_dice, pairs]
    for k in range(order.shape[0]):
        v = order[k]
        if v > 0 and (new >> (v - 1)) & 1:
            return v
    return 0


NO_WORTH = np.zeros((1, 0))  # resolve_search: no value table, mark by the greedy rule
NO_TAG = (0, 0, -1, -1)  # search_kernel's recording tag when nothing is recorded


@njit(cache=True)
def resolve_search(
    state: np.ndarray, level: int, n_dice: int, rerolls: int, marking: int, pairs: int
) -> tuple[bool, int]:
    """One whole search drawing from the xoshiro256** ``state``
    (``simulator.contract.rng.new_state``, advanced), marking one value by the greedy rule;
    (success, throws made)."""
    _check_kernel(level, n_dice, rerolls)
    dice = np.empty(MAX_DICE, dtype=np.int64)
    no_rec = np.zeros((0, 1), dtype=np.int64)  # records nothing
    return search_kernel(
        state.view(np.int64), dice, level, n_dice, rerolls, marking, pairs, NO_WORTH,
        no_rec, np.zeros(1, dtype=np.int64), NO_TAG,
    )  # fmt: skip


@njit(cache=True)
def best_pick(level: int, n_dice: int, pairs: int, new: int, marked: int, worth_row) -> int:
    """The value (1-based) among the new values in ``new`` whose marking leaves the highest
    chance to finish (``worth_row[mask]``); ties go to the greedy rule's preference."""
    order = GREEDY_ORDER[level, n_dice, pairs]
    best = 0
    best_worth = -1.0
    for k in range(order.shape[0]):
        v = order[k]
        if v > 0 and (new >> (v - 1)) & 1:
            w = worth_row[marked | (1 << (v - 1))]
            if w > best_worth + 1e-12:
                best = v
                best_worth = w
    return best


@njit(cache=True, inline="always")
def _mark_one(level, n_dice, pairs, new, marked, worth, rerolls_left) -> int:
    # The marked set after marking one of the new values ``new`` (non-zero): the greedy rule's,
    # or the best by ``worth[rerolls_left]`` (greedy_pick / best_pick, read in place so the loop
    # makes no array view).
    order = GREEDY_ORDER[level, n_dice, pairs]
    best = 0
    best_worth = -1.0
    for k in range(order.shape[0]):
        v = order[k]
        if v > 0 and (new >> (v - 1)) & 1:
            if worth.shape[1] == 0:
                return marked | (1 << (v - 1))
            w = worth[rerolls_left, marked | (1 << (v - 1))]
            if w > best_worth + 1e-12:
                best = v
                best_worth = w
    return marked | (1 << (best - 1))


@njit(cache=True)
def _check_kernel(level, n_dice, rerolls) -> None:
    if level != 1 and level != 2:
        raise ValueError("search level must be 1 or 2")
    if n_dice < level or n_dice > MAX_DICE:
        raise ValueError("dice per throw out of range (level 1: 1-8, level 2: 2-8)")
    if rerolls < 0:
        raise ValueError("rerolls must be 0 or more")


@njit(cache=True, inline="always")
def search_kernel(
    words: np.ndarray, dice: np.ndarray, level: int, n_dice: int, rerolls: int, marking: int,
    pairs: int, worth: np.ndarray, rec: np.ndarray, rec_n: np.ndarray, tag: tuple,
) -> tuple[bool, int]:  # fmt: skip
    """One whole search at one level; (success, throws made). The engine's search and the
    search-odds simulation both play this loop.

    The dice are drawn from the xoshiro256** state in ``words[:4]`` (``int64`` words,
    :mod:`simulator.contract.rng`: a game passes the slice of its state array that carries it) into
    the caller's ``dice`` (``n_dice`` long at least), so a loop of searches allocates nothing.
    ``worth[r, mask]``: chance to finish from the marked set ``mask`` with ``r`` repeat throws left
    (``odds.optimal_values``); with marking one the best value by it is marked, and an empty
    ``worth`` (``NO_WORTH``) marks by the greedy rule. A recording buffer ``rec``/``rec_n``
    (:mod:`simulator.contract.recording`; a zero-row buffer: none) receives each throw as ``(event,
    day, colour, colour, ship, throw, dice as digits, new values shown, values marked before, repeat
    throws left)``, value masks as above, the first four from ``tag = (event, day, colour, ship)``.
    The arguments are unchecked: callers check them once, outside their loops (a check that can
    raise in the loop makes it slower)."""
    full = (1 << (6 if level == 1 else 12)) - 1
    marked = 0
    throws = 0
    rerolls_left = rerolls
    while True:
        for i in range(n_dice):
            dice[i] = below_at(words, 0, FACES) + 1
        throws += 1
        new = throw_mask(level, dice, n_dice, pairs) & ~marked
        if rec.shape[0] > 0:
            packed = 0
            for i in range(n_dice):
                packed = packed * 10 + dice[i]
            event, day, colour, ship = tag
            record(rec, rec_n, event, day, colour, colour, ship, throws, packed, new, marked,
                   rerolls_left)  # fmt: skip
        if new == 0:
            if rerolls_left > 0:
                rerolls_left -= 1
                continue
            return False, throws
        if marking == MARK_ALL:
            marked |= new
        else:
            marked = _mark_one(level, n_dice, pairs, new, marked, worth, rerolls_left)
        if marked == full:
            return True, throws


def search_trials(
    state: np.ndarray,
    trials: int,
    level: int,
    n_dice: int,
    rerolls: int,
    marking: int,
    pairs: int,
    worth: np.ndarray,
) -> int:
    """Successes in ``trials`` searches drawn from the xoshiro256** ``state`` (advanced; see
    :func:`simulator.contract.rng.new_state`), one dice array for them all. The arguments are
    checked here, once, in Python: a check that can raise inside the compiled loop makes it
    slower."""
    check_search(level, n_dice, rerolls, marking, pairs)
    if state.dtype != np.uint64 or state.shape != (STATE_WORDS,):
        raise ValueError("state must be simulator.contract.rng.new_state's 4 uint64 words")
    values = (rerolls + 1, 1 << LEVEL_BOXES[level])
    if worth.ndim != 2 or (worth.shape[1] and worth.shape != values):
        raise ValueError("worth must be (rerolls + 1, 2 ** boxes) values, or (n, 0) for greedy")
    words = state.view(np.int64)  # the same 64 bits: the caller's state advances
    return _search_trials(words, trials, level, n_dice, rerolls, marking, pairs, worth)


@njit(cache=True)
def _search_trials(words, trials, level, n_dice, rerolls, marking, pairs, worth) -> int:
    dice = np.empty(MAX_DICE, dtype=np.int64)
    no_rec = np.zeros((0, 1), dtype=np.int64)  # records nothing
    rec_n = np.zeros(1, dtype=np.int64)
    successes = 0
    for _ in range(trials):
        found, _throws = search_kernel(
            words, dice, level, n_dice, rerolls, marking, pairs, worth, no_rec, rec_n, NO_TAG
        )
        if found:
            successes += 1
    return successes
