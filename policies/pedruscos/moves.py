"""The move: which reachable square each policy ends on, for the rolled die (the moves'
scratch, the hauler's and builder's square scores, the lookahead's and racer's end scores)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import ASTEROID, MOON, PLANET

from .declarations import (
    BUILDER,
    BUILDER_P,
    HAULER,
    HAULER_P,
    LOOK_P,
    LOOKAHEAD,
    RACER,
    RANDOM,
    WIN,
)
from .values import (
    N_VALUES,
    card_gain,
    harvest_value_within,
    landing_values_within,
    new_work,
    value_class,
)


# -- moves ----------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def wants_to_ship(r, pl, g, p, ship_at, cost) -> bool:
    if not S.can_ship(r, pl, g, p, cost):
        return False
    v = S.cargo_value(pl, g, p)
    return (
        v >= ship_at
        or S.cargo(pl, p) >= r.hold_limit
        or pl[p, S.P_POINTS] + v - cost >= r.target_points
    )


@njit(cache=True, _nrt=False)
def heuristic_scores(pid, prm, p, r, b, pl, br, g, out, lo, hi, work):
    """``out[c]``: the hauler's and builder's score of ending on cell ``c``, for the cells
    ``b.reach[lo:hi]`` the die reaches (a square's score depends only on its kind, colour or
    station); ``work``: :func:`new_work`'s scratch."""
    repair = pl[p, S.P_REPAIR] == 1
    moon = -0.5
    if not repair and wants_to_ship(r, pl, g, p, prm[HAULER_P.ship_at], r.shipping_cost):
        moon = 100.0 + S.cargo_value(pl, g, p)
    builds = pid == BUILDER and builder_builds(prm, p, r, pl, br)
    for j in range(lo, hi):
        cell = b.reach[j]
        k = b.kind[cell]
        if k == PLANET:
            out[cell] = 60.0 if repair else -1.0
        elif k == ASTEROID:
            out[cell] = 0.0 if repair else card_gain(r, pl, g, p, b.colour[cell], 1.0)
        elif k == MOON:
            out[cell] = moon
        else:
            s = b.station[cell]
            out[cell] = -1.0
            if pid == BUILDER and not repair and S.station_open(g, s):
                if br[p, s] > 0:
                    out[cell] = 40.0 + harvest_value_within(r, b, pl, br, g, p, s, 1.0, work)
                elif builds:
                    out[cell] = 30.0


@njit(cache=True, _nrt=False)
def builder_builds(prm, p, r, pl, br) -> bool:
    return (
        pl[p, S.P_POINTS] >= r.branch_cost + prm[BUILDER_P.reserve]
        and pl[p, S.P_BRANCHES] < prm[BUILDER_P.max_branches]
    )


@njit(cache=True)
def decide_move(pid, prm, p, r, b, pl, br, g, die) -> int:
    if pid == RANDOM or pid == HAULER:  # they score no square: no scratch to allocate
        return unscored_move(pid, prm, p, r, b, pl, g, die)
    score, values, work, next_ptr, classes = new_move_scratch(b, False)
    return decide_move_within(pid, prm, p, r, b, pl, br, g, die, score, values, work, next_ptr,
                              classes)  # fmt: skip


@njit(cache=True)
def new_move_scratch(b, tables: bool = True, memo_slots: int = 1024):
    """Scratch for :func:`decide_move_within`: a score per cell, a value per class, ``work``
    (with ``memo_slots`` of station values), and the board's :func:`next_classes`, worth
    computing for many moves (a game's, a search's); without ``tables`` two empty arrays and a
    memo of one slot (a single decision reads every square)."""
    if tables:
        next_ptr, classes = next_classes(b)
        work = new_work(b, memo_slots)
    else:
        next_ptr, classes = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        work = new_work(b)
    return np.empty(b.kind.shape[0]), np.empty(N_VALUES), work, next_ptr, classes


@njit(cache=True)
def next_classes(b):
    """For each square and die, the value classes (:func:`value_class`) of the squares that die
    reaches, each class once: those of ``(cell, die)`` are ``classes[ptr[cell * 7 + die] :
    ptr[cell * 7 + die + 1]]``. The next move's best value is the best of its classes, so the
    lookahead reads each once instead of every square."""
    n = b.reach_ptr.shape[0] - 1
    ptr = np.zeros(n + 1, dtype=np.int64)
    classes = np.empty(b.reach.shape[0], dtype=np.int64)
    seen = np.zeros(N_VALUES, dtype=np.int64)  # the last (cell, die) + 1 that listed a class
    m = 0
    for k in range(n):
        for j in range(b.reach_ptr[k], b.reach_ptr[k + 1]):
            v = value_class(b, b.reach[j])
            if seen[v] != k + 1:
                seen[v] = k + 1
                classes[m] = v
                m += 1
        ptr[k + 1] = m
    return ptr, classes


@njit(cache=True, _nrt=False)
def decide_move_within(
    pid, prm, p, r, b, pl, br, g, die, score, values, work, next_ptr, classes
) -> int:
    """:func:`decide_move` in scratch (:func:`new_move_scratch`), without the runtime: a
    simulation's turns hand the same scratch down instead of allocating it at every move."""
    if pid == RANDOM or pid == HAULER:
        return unscored_move(pid, prm, p, r, b, pl, g, die)
    pos = pl[p, S.P_POS]
    lo = b.reach_ptr[pos * 7 + die]
    hi = b.reach_ptr[pos * 7 + die + 1]
    if hi == lo:
        return -1
    end_scores_within(pid, prm, p, r, b, pl, br, g, score, lo, hi, values, work, next_ptr, classes)
    return best_end(b, lo, hi, score)


@njit(cache=True, _nrt=False)
def unscored_move(pid, prm, p, r, b, pl, g, die) -> int:
    """``random``'s and ``hauler``'s end square (-1: the die reaches none)."""
    pos = pl[p, S.P_POS]
    lo = b.reach_ptr[pos * 7 + die]
    hi = b.reach_ptr[pos * 7 + die + 1]
    if hi == lo:
        return -1
    if pid == RANDOM:
        return b.reach[np.random.randint(lo, hi)]
    return hauler_end(prm, p, r, b, pl, g, lo, hi)


@njit(cache=True)
def end_scores(pid, prm, p, r, b, pl, br, g, score, lo, hi):
    """``score[c]``: how policy ``pid`` (not ``random``) values ending the move on cell ``c``,
    for the cells ``b.reach[lo:hi]`` the die reaches; draws no random number (the search ranks
    its root options with it)."""
    _, values, work, next_ptr, classes = new_move_scratch(b, False)
    end_scores_within(pid, prm, p, r, b, pl, br, g, score, lo, hi, values, work, next_ptr, classes)


@njit(cache=True, _nrt=False, inline="always")
def end_scores_within(pid, prm, p, r, b, pl, br, g, score, lo, hi, values, work, next_ptr,
                      classes):  # fmt: skip
    """:func:`end_scores` in scratch: ``values`` (``N_VALUES``), ``work`` (:func:`new_work`) and
    the board's :func:`next_classes` (empty: every square the next die reaches is read)."""
    if pid == LOOKAHEAD or pid == RACER:
        landing_values_within(r, b, pl, br, g, p, prm, values, work)
        for j in range(lo, hi):
            e = b.reach[j]
            now = values[value_class(b, e)]
            nxt = 0.0
            if now < WIN:
                for d in range(1, 7):
                    m = 0.0
                    if classes.shape[0] > 0:
                        for jj in range(next_ptr[e * 7 + d], next_ptr[e * 7 + d + 1]):
                            m = max(m, values[classes[jj]])
                    else:
                        for jj in range(b.reach_ptr[e * 7 + d], b.reach_ptr[e * 7 + d + 1]):
                            m = max(m, values[value_class(b, b.reach[jj])])
                    nxt += m / 6.0
            score[e] = now + prm[LOOK_P.next_weight] * nxt
    else:
        heuristic_scores(pid, prm, p, r, b, pl, br, g, score, lo, hi, work)


@njit(cache=True, _nrt=False)
def hauler_end(prm, p, r, b, pl, g, lo, hi) -> int:
    """The hauler's end square: :func:`best_end` of the hauler's :func:`heuristic_scores`, each
    square scored as it is compared (no score array, no call per square; the same ties drawn
    in the same order)."""
    repair = pl[p, S.P_REPAIR] == 1
    moon = -0.5
    if not repair and wants_to_ship(r, pl, g, p, prm[HAULER_P.ship_at], r.shipping_cost):
        moon = 100.0 + S.cargo_value(pl, g, p)
    best = -1
    best_v = 0.0
    ties = 1
    for j in range(lo, hi):
        e = b.reach[j]
        k = b.kind[e]
        if k == PLANET:
            v = 60.0 if repair else -1.0
        elif k == ASTEROID:
            v = 0.0 if repair else card_gain(r, pl, g, p, b.colour[e], 1.0)
        elif k == MOON:
            v = moon
        else:
            v = -1.0
        if best < 0:
            best = e
            best_v = v
        elif v > best_v + 1e-9:
            best_v = v
            best = e
            ties = 1
        elif v > best_v - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best = e
    return best


@njit(cache=True, _nrt=False)
def best_end(b, lo, hi, score) -> int:
    """The end square of highest score; ties broken at random, so that a symmetric board is not
    walked in the order of its cell numbers."""
    best = b.reach[lo]
    best_v = score[best]
    ties = 1
    for j in range(lo + 1, hi):
        e = b.reach[j]
        v = score[e]
        if v > best_v + 1e-9:
            best_v = v
            best = e
            ties = 1
        elif v > best_v - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best = e
    return best
