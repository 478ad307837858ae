"""Capture odds remembered within one search.

A search plays each root move many times from the same position, so the positions its
simulations score repeat: the opponent weighing its replies to a roll it has drawn before, the
horizon's evaluation reading a position another simulation reached. Their capture odds
(:func:`.turn.capture_odds`, most of a simulation's time) depend only on where the ships stand,
who carries the treasure and the two seats; the rules and the fleets' owners are the search's
own. The memo keeps them by that key, in full (a slot's key is compared whole, never trusted to
its hash), so every answer is the function's own: the same decisions, the same rows.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .state import G_TREASURE, N_SHIPS
from .turn import capture_odds

SLOTS = 1 << 14  # a 400-simulation search scores a few thousand positions
PROBES = 8  # slots tried from a key's own before the first is taken over
HALF = N_SHIPS // 2

OddsMemo = namedtuple("OddsMemo", "keys odds used")


@njit(cache=True)
def new_odds_memo(slots: int = SLOTS) -> OddsMemo:
    """An empty memo of ``slots`` positions (a power of two)."""
    return OddsMemo(
        np.empty((slots, 2), dtype=np.int64),
        np.empty((slots, N_SHIPS), dtype=np.float64),
        np.zeros(slots, dtype=np.bool_),
    )


@njit(cache=True, _nrt=False)
def memo_capture_odds(memo, r, ships, owner, occ, g, q: int, p: int, out) -> None:
    """:func:`.turn.capture_odds`, read from ``memo`` when it holds the position, else computed
    and kept there; with ``memo`` None, computed."""
    if memo is None:
        capture_odds(r, ships, owner, occ, g, q, p, out)
        return
    # the key: spaces + 1 (under 256) a byte each, six ships to a word; then the treasure's
    # holder + 2 and the two seats
    k0 = 0
    k1 = 0
    for s in range(HALF):
        k0 = k0 * 256 + int(ships[s]) + 1
        k1 = k1 * 256 + int(ships[HALF + s]) + 1
    k1 = (k1 * 16 + int(g[G_TREASURE]) + 2) * 16 + q * 4 + p
    h = (k0 * 0x5851F42D4C957F2D) ^ (k1 * 0x14057B7EF767814F)
    keys, odds, used = memo
    mask = used.shape[0] - 1
    home = (h ^ (h >> 29)) & mask
    slot = home  # every probe held by other positions: this one takes the first
    for i in range(PROBES):
        at = (home + i) & mask
        if not used[at]:
            slot = at
            break
        if keys[at, 0] == k0 and keys[at, 1] == k1:
            for s in range(N_SHIPS):
                out[s] = odds[at, s]
            return
    capture_odds(r, ships, owner, occ, g, q, p, out)
    used[slot] = True
    keys[slot, 0] = k0
    keys[slot, 1] = k1
    for s in range(N_SHIPS):
        odds[slot, s] = out[s]
