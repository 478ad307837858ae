"""The value of a position, in king steps left (``B.rem``): the token state after a landing,
the steps the card under a ship promises for its next move, and what ending a turn on a space
with a card under the ship is worth."""

from __future__ import annotations

from numba import njit

from simulator.games.cape_horn import state as S
from simulator.games.cape_horn.board import K_FINISH, N_ZONES

from .declarations import WIN


# -- the value of a position ----------------------------------------------------------------------
# Helpers compiled with ``_nrt=False`` allocate nothing and return scalars: without the runtime a
# call does not increment and decrement (atomically) every array it is passed, which cost more
# than the helpers' own work (same results, measured in docs/performance.md).
@njit(cache=True, _nrt=False)
def ts_token(B, g, ts, c):
    """Token state after ending a move on ``c`` from token state ``ts`` (unchanged if none)."""
    z = B.st_zone[c]
    if z < 0:
        return ts
    colour = B.st_colour[c]
    if g[S.G_TOK_LEFT + colour] <= 0:
        return ts
    m = 1
    for y in range(N_ZONES):
        t = (ts // m) % 4 - 1
        if (y == z and t >= 0) or t == colour:
            return ts
        m *= 4
    return ts + (colour + 1) * 4**z


@njit(cache=True, _nrt=False)
def ts_count(ts):
    n = 0
    for _ in range(N_ZONES):
        if ts % 4 > 0:
            n += 1
        ts //= 4
    return n


@njit(cache=True, _nrt=False)
def potential(rem, target, n_moves, ts, c, d):
    """Steps the card ``d`` on ``c`` promises for the next move (negative for backward cards)."""
    if d < 0:
        return 0.0
    base = rem[ts, c]
    best = -1.0e18
    for k in range(n_moves[d]):
        t = target[c, d, k]
        if t >= 0:
            v = base - rem[ts, t]
            if v > best:
                best = v
    if best < -1.0e17:
        return -2.0  # every move leaves the board: only a paid 'ignorar' moves it
    return best


@njit(cache=True, _nrt=False)
def potential_of(rem, next_low, ts, c, d):
    """:func:`potential` from the board's ``next_low`` (the same value: the largest of
    ``base - rem`` is ``base`` less the smallest ``rem``, rounding included)."""
    if d < 0:
        return 0.0
    low = next_low[ts, c, d]
    if low < 0.0:
        return -2.0  # every move leaves the board: only a paid 'ignorar' moves it
    return rem[ts, c] - low


@njit(cache=True, _nrt=False)
def landing_value(rem, next_low, kind, r, ts, c, d, sp, handn, weights):
    """Value of ending the turn on ``c`` with card ``d`` under the ship (ts after the token);
    ``weights``: (next move, sail point, card in hand)."""
    w_next, w_sp, w_card = weights
    n = ts_count(ts)
    if r.three_token_victory and n == N_ZONES:
        return WIN
    if kind[c] == K_FINISH and n >= r.finish_tokens:
        return WIN
    return -rem[ts, c] + w_next * potential_of(rem, next_low, ts, c, d) + w_sp * sp + w_card * handn
