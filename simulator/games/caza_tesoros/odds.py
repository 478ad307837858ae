"""Exact success odds of one search, for the engine's marking and the ``planner`` policy.

A dynamic programme over the set of marked boxes: ``V[r][mask]`` is the chance of marking every box
from ``mask`` with ``r`` repeat throws left. Throws come from
:func:`simulator.games.caza_tesoros.treasure_search.throw_distribution`. With one-value marking the
value marked is the best choice (``optimal``: the one with the highest ``V`` after it, which is what
the engine plays by default, rule ``marking_choice``) or the greedy pick (``greedy``), so the odds
describe exactly the search the engine plays. Masks are handled a popcount layer at a time with
numpy, which keeps this fast with or without the JIT.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .treasure_search import GREEDY_ORDER, MARK_ALL, MAX_DICE, throw_distribution

CHOICES = ("optimal", "greedy")  # rule option marking_choice, by index


def _lowest_preferred_bit(level: int, n_dice: int, pairs: int, boxes: int) -> np.ndarray:
    # pick[new] = the bit MARK_ONE's greedy rule marks among the new values in ``new``.
    order = [int(v) for v in GREEDY_ORDER[level, n_dice, pairs] if v > 0]
    pick = np.zeros(1 << boxes, dtype=np.int64)
    for new in range(1, 1 << boxes):
        for v in order:
            if new >> (v - 1) & 1:
                pick[new] = 1 << (v - 1)
                break
    return pick


@lru_cache(maxsize=64)
def search_values(
    level: int, n_dice: int, rerolls: int, marking: int, pairs: int, choice: str = "greedy"
) -> np.ndarray:
    """``V[r, mask]`` for r = 0..rerolls: the chance to finish from the marked set ``mask``."""
    if choice not in CHOICES:
        raise ValueError(f"choice must be one of {CHOICES}, not {choice!r}")
    boxes = 6 if level == 1 else 12
    full = (1 << boxes) - 1
    dist = throw_distribution(level, n_dice, pairs)
    shown = np.array(list(dist), dtype=np.int64)
    prob = np.array(list(dist.values()), dtype=np.float64) / 6.0**n_dice
    greedy = marking != MARK_ALL and choice == "greedy"
    pick = _lowest_preferred_bit(level, n_dice, pairs, boxes) if greedy else None
    bits = np.int64(1) << np.arange(boxes, dtype=np.int64)
    masks = np.arange(1 << boxes, dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << boxes)])
    values = np.zeros((rerolls + 1, 1 << boxes))
    values[:, full] = 1.0
    for k in range(boxes - 1, -1, -1):
        for start in range(0, int((popcount == k).sum()), 128):
            layer = masks[popcount == k][start : start + 128]
            new = shown[None, :] & ~layer[:, None]
            failed = new == 0
            p_fail = (prob[None, :] * failed).sum(axis=1)
            for r in range(rerolls + 1):
                v = values[r]
                if marking == MARK_ALL:
                    reached = v[layer[:, None] | new]
                elif greedy:
                    reached = v[layer[:, None] | pick[new]]
                else:  # the best new value: the highest chance after marking it
                    new_bits = (new[:, :, None] & bits[None, None, :]) != 0
                    worth = v[layer[:, None] | bits[None, :]]
                    reached = np.where(new_bits, worth[:, None, :], -1.0).max(axis=2)
                gain = (prob[None, :] * np.where(failed, 0.0, reached)).sum(axis=1)
                values[r, layer] = gain + (p_fail * values[r - 1, layer] if r > 0 else 0.0)
    values.setflags(write=False)
    return values


def success_probability(
    level: int, n_dice: int, rerolls: int, marking: int, pairs: int, choice: str = "greedy"
) -> float:
    """Chance that one whole search at ``level`` marks every box."""
    return float(search_values(level, n_dice, rerolls, marking, pairs, choice)[rerolls, 0])


def odds_table(
    extra_dice_options: tuple[int, ...],
    rerolls: int,
    markings: tuple[int, int],
    pairs: int,
    choice: str = "greedy",
) -> np.ndarray:
    """``table[level, n_dice, used_rerolls]``: success odds for the dice a ship can throw, with
    ``markings[level - 1]`` the marking of that level.

    Only the dice counts the rules make possible are filled (others stay 0); ``used_rerolls`` is
    0 (no divers) or 1 (divers, ``rerolls`` repeat throws).
    """
    table = np.zeros((3, MAX_DICE + 1, 2))
    for level in (1, 2):
        for extra in set(extra_dice_options):
            n = level + extra
            if n > MAX_DICE:
                continue
            marking = markings[level - 1]
            table[level, n, 0] = success_probability(level, n, 0, marking, pairs, choice)
            table[level, n, 1] = success_probability(level, n, rerolls, marking, pairs, choice)
    return table


def worth_table(
    extra_dice_options: tuple[int, ...], rerolls: int, markings: tuple[int, int], pairs: int
) -> np.ndarray:
    """``table[level, n_dice, r, mask]``: the best-choice values the engine marks by, for the
    dice a ship can throw at a level marked ``one`` (others stay 0)."""
    table = np.zeros((3, MAX_DICE + 1, rerolls + 1, 1 << 12))
    for level in (1, 2):
        if markings[level - 1] == MARK_ALL:
            continue
        for extra in set(extra_dice_options):
            n = level + extra
            if n <= MAX_DICE:
                values = search_values(level, n, rerolls, markings[level - 1], pairs, "optimal")
                table[level, n, :, : values.shape[1]] = values
    return table
