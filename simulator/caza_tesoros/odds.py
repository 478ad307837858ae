"""Exact success odds of one search, for the ``planner`` policy.

A dynamic programme over the set of marked boxes: ``V[r][mask]`` is the chance of marking every
box from ``mask`` with ``r`` repeat throws left. Throws come from
:func:`simulator.caza_tesoros.search.throw_distribution` and one-value marking from its greedy
pick, so the odds describe exactly the search the engine plays. Masks are handled a popcount layer
at a time with numpy, which keeps this fast with or without the JIT.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .search import GREEDY_ORDER, MARK_ALL, MAX_DICE, throw_distribution


def _lowest_preferred_bit(level: int, n_dice: int, pairs: int, boxes: int) -> np.ndarray:
    # pick[new] = the bit MARK_ONE marks among the new values in ``new``.
    order = [int(v) for v in GREEDY_ORDER[level, n_dice, pairs] if v > 0]
    pick = np.zeros(1 << boxes, dtype=np.int64)
    for new in range(1, 1 << boxes):
        for v in order:
            if new >> (v - 1) & 1:
                pick[new] = 1 << (v - 1)
                break
    return pick


@lru_cache(maxsize=64)
def success_probability(level: int, n_dice: int, rerolls: int, marking: int, pairs: int) -> float:
    """Chance that one whole search at ``level`` marks every box."""
    boxes = 6 if level == 1 else 12
    full = (1 << boxes) - 1
    dist = throw_distribution(level, n_dice, pairs)
    shown = np.array(list(dist), dtype=np.int64)
    prob = np.array(list(dist.values()), dtype=np.float64) / 6.0**n_dice
    pick = None if marking == MARK_ALL else _lowest_preferred_bit(level, n_dice, pairs, boxes)
    masks = np.arange(1 << boxes, dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << boxes)])
    values = np.zeros((rerolls + 1, 1 << boxes))
    values[:, full] = 1.0
    for k in range(boxes - 1, -1, -1):
        layer = masks[popcount == k]
        new = shown[None, :] & ~layer[:, None]
        failed = new == 0
        nxt = layer[:, None] | (new if pick is None else pick[new])
        p_fail = (prob[None, :] * failed).sum(axis=1)
        for r in range(rerolls + 1):
            gain = (prob[None, :] * np.where(failed, 0.0, values[r][nxt])).sum(axis=1)
            values[r, layer] = gain + (p_fail * values[r - 1, layer] if r > 0 else 0.0)
    return float(values[rerolls, 0])


def odds_table(
    extra_dice_options: tuple[int, ...], rerolls: int, markings: tuple[int, int], pairs: int
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
            table[level, n, 0] = success_probability(level, n, 0, marking, pairs)
            table[level, n, 1] = success_probability(level, n, rerolls, marking, pairs)
    return table
