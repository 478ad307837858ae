"""The perfect-information search: depth first, every hand visible, the heuristic's card tried
first at every node, pruned as soon as a task or mission rule fails (the omniscient crew, the
expert on each sampled deal, and :func:`solve`, the exact verdict the crew's ceiling counts).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import (
    NC,
    S_DONE,
    S_NIN,
    S_NP,
    S_NTRICKS,
    STATE_SIZE,
    current_player,
)
from simulator.games.crew_deep_sea.turn import legal_cards, play_and_close
from simulator.games.crew_deep_sea.verdicts import (
    END_RULE_FAILED,
    END_SUCCESS,
    END_TASK_FAILED,
    ONGOING,
    mission_end,
)

from .declarations import HEURISTIC_DEFAULTS, heuristic_params
from .heuristic import heuristic_play
from .tasks import horizon_value


@njit(cache=True)
def _order_moves(s, cand, n, hprm, ttype, tparams):
    """Put the card the heuristic would play first: the search's first line is then the
    heuristic's own game, and it branches from there."""
    q = current_player(s)
    c = heuristic_play(s, q, cand, n, hprm, ttype, tparams)
    for i in range(n):
        if cand[i] == c:
            cand[i] = cand[0]
            cand[0] = c
            break


@njit(cache=True)
def search_line(s, ttype, tparams, budget, line):
    """Depth-first search with every hand visible for a sequence of cards that completes the
    mission, the heuristic's card tried first at every node, pruning as soon as a task or
    mission rule fails. Returns (cards in the line, or -1 if none was found; nodes used). The
    line is written to ``line``."""
    found, nodes, _ = depth_first(s, ttype, tparams, budget, line, False)
    return found, nodes


# verdicts of :func:`solve`
WINNABLE, IMPOSSIBLE, UNKNOWN = 1, 0, -1


@njit(cache=True)
def solve(s, ttype, tparams, budget):
    """Can the crew, choosing every seat's card with every hand visible, complete the mission
    from ``s``? WINNABLE (a line was found), IMPOSSIBLE (every legal line was tried: each ends
    in a failed task or rule, or with tasks left when the cards run out) or UNKNOWN (more than
    ``budget`` cards tried first). Returns (verdict, cards tried). Exact because the search
    only cuts a line where the referee ends the mission; the move order changes only how soon
    a line is found."""
    line = np.empty(NC, np.int64)
    found, nodes, _ = depth_first(s, ttype, tparams, budget, line, False)
    if found >= 0:
        return WINNABLE, nodes
    if nodes > budget:
        return UNKNOWN, nodes
    return IMPOSSIBLE, nodes


@njit(cache=True)
def depth_first(s, ttype, tparams, budget, line, horizon):
    """``search_line``, also returning, with ``horizon``, the best ``horizon_value`` of the
    trick ends it reached with nothing failed (-1.0 if none, or without ``horizon``)."""
    best_h = -1.0
    n_players = s[S_NP]
    depth_max = (s[S_NTRICKS] - s[S_DONE]) * n_players - s[S_NIN]
    snap = np.empty((depth_max + 1, STATE_SIZE), np.int64)
    cand = np.empty((depth_max + 1, NC), np.int64)
    ncand = np.zeros(depth_max + 1, np.int64)
    idx = np.zeros(depth_max + 1, np.int64)
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    snap[0] = s
    if s[S_NIN] == 0:  # tasks are judged at trick ends: mid-trick a judgement can be early
        end = mission_end(snap[0], ttype, tparams)
        if end == END_SUCCESS:
            return 0, 0, best_h
        if end == END_TASK_FAILED or end == END_RULE_FAILED:
            return -1, 0, best_h
    if horizon and s[S_NIN] == 0 and s[S_DONE] > 0:
        best_h = horizon_value(s, ttype, tparams)
    ncand[0] = legal_cards(snap[0], current_player(snap[0]), cand[0])
    _order_moves(snap[0], cand[0], ncand[0], hprm, ttype, tparams)
    d = 0
    nodes = 0
    while d >= 0:
        if idx[d] >= ncand[d]:
            d -= 1
            continue
        c = cand[d, idx[d]]
        idx[d] += 1
        nodes += 1
        if nodes > budget:
            return -1, nodes, best_h
        st = snap[d + 1]
        st[:] = snap[d]
        line[d] = c
        if play_and_close(st, current_player(st), c):
            end = mission_end(st, ttype, tparams)
            if end == END_SUCCESS:
                return d + 1, nodes, best_h
            if end != ONGOING:
                continue
            if horizon:
                best_h = max(best_h, horizon_value(st, ttype, tparams))
        d += 1
        ncand[d] = legal_cards(st, current_player(st), cand[d])
        idx[d] = 0
        if ncand[d] > 1:
            _order_moves(st, cand[d], ncand[d], hprm, ttype, tparams)
    return -1, nodes, best_h
