"""The sampler: deals sampled from the member's view, each solved by the perfect-information
search (plus the heuristic crew's own playout), for its card play, task choice, bids and
volunteering (perfect-information Monte Carlo). The task choice here also serves the expert,
which scores each sample by the playout alone (``w_solve`` 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import (
    DONE,
    MAX_TASKS,
    NC,
    O_HOLDER,
    O_TASK,
    O_TSTATE,
    S_CAPTAIN,
    S_NIN,
    S_NP,
    S_NTASKS,
    STATE_SIZE,
    current_player,
)
from simulator.games.crew_deep_sea.turn import legal_cards, play_and_close
from simulator.games.crew_deep_sea.verdicts import END_SUCCESS, ONGOING, mission_end

from .declarations import HEURISTIC_DEFAULTS, SAMPLER_P, heuristic_params
from .heuristic import heuristic_pick, heuristic_play
from .knowledge import sample_deal
from .solver import depth_first

# -- sampled deals, each solved with every hand visible ------------------------------------------
UNKNOWN_CREDIT = 0.25  # out of budget before any trick end: neither won nor lost


MIN_NODES = 40


@njit(cache=True)
def sampler_play(s, p, legal, n_legal, prm, ttype, tparams):
    """The card that completes the mission in most sampled deals, each solved by the
    perfect-information search, plus ``playout`` times the samples the heuristic crew wins
    from there playing from its own hands (the search assumes a crew that sees every hand;
    the playout keeps a line the crew can find in view); ties go to the heuristic's card. A
    single legal card needs no search."""
    if n_legal == 1:
        return legal[0]
    hprm = heuristic_params(prm.shape[0])
    first = heuristic_play(s, p, legal, n_legal, hprm, ttype, tparams)
    n_samples = max(1, int(prm[SAMPLER_P.samples]))
    per = max(MIN_NODES, int(prm[SAMPLER_P.nodes]) // (n_samples * n_legal))
    w_play = prm[SAMPLER_P.playout]
    score = np.zeros(n_legal)
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for i in range(n_legal):
            st = world.copy()
            if play_and_close(st, p, legal[i]):
                end = mission_end(st, ttype, tparams)
                if end == END_SUCCESS:
                    score[i] += 1.0 + w_play
                    continue
                if end != ONGOING:
                    continue
            score[i] += _solved(st, ttype, tparams, per, line)
            if w_play > 0.0:  # the crew cannot see the hands: its own play from here counts too
                score[i] += w_play * _playout(st, hprm, ttype, tparams)
    best = -1
    for i in range(n_legal):
        if legal[i] == first:
            score[i] += 1e-6  # the heuristic's card breaks ties
        if best < 0 or score[i] > score[best]:
            best = i
    return legal[best]


# -- task choice and volunteering by the same sampled search --------------------------------------
@njit(cache=True)
def _solved(st, ttype, tparams, budget, line):
    """A fully visible (sampled) position scored as ``expert_play`` scores it: 1 if the search
    finds a winning line, its horizon estimate if it runs out of ``budget``, else 0."""
    found, used, est = depth_first(st, ttype, tparams, budget, line, True)
    if found >= 0:
        return 1.0
    if used > budget:
        return est if est >= 0.0 else UNKNOWN_CREDIT
    return 0.0


@njit(cache=True)
def _playout(st, hprm, ttype, tparams):
    """1.0 if the heuristic crew, each member playing from its own hand of the sampled deal,
    completes the mission from ``st`` (a copy is played), else 0.0: what the allocation is
    worth to a crew that cannot see the hands, beside the search's perfect-information
    verdict."""
    w = st.copy()
    legal = np.empty(NC, np.int64)
    while True:
        if w[S_NIN] == 0:  # judged at trick ends, as the game does
            end = mission_end(w, ttype, tparams)
            if end != ONGOING:
                return 1.0 if end == END_SUCCESS else 0.0
        q = current_player(w)
        n = legal_cards(w, q, legal)
        play_and_close(w, q, heuristic_play(w, q, legal, n, hprm, ttype, tparams))


@njit(cache=True)
def _complete_picks(w, p, may_pass, hprm, ttype, tparams):
    """Give the open tasks of a sampled deal holders as the crew would: one task per turn,
    clockwise from ``p``'s left, each member taking the heuristic's pick from its own (sampled)
    hand; a member may pass only while ``p`` could and enough members before the captain are
    still to come to take what is open. Every member takes part and the captain may take any
    task (the modes that leave the captain out, or bar it from a task, are approximated)."""
    n_players = w[S_NP]
    cap = w[S_CAPTAIN]
    avail = np.empty(MAX_TASKS, np.int64)
    to_come = (cap - p - 1) % n_players if may_pass else 0  # the first round's players left
    q = p
    for _ in range(MAX_TASKS * 8):
        q = (q + 1) % n_players
        na = 0
        for k in range(w[S_NTASKS]):
            if w[O_HOLDER + k] < 0:
                avail[na] = k
                na += 1
        if na == 0:
            return
        to_come -= 1
        i = heuristic_pick(w, q, avail, na, to_come >= na, hprm, ttype, tparams)
        if i >= 0:
            w[O_HOLDER + avail[i]] = q


@njit(cache=True)
def _sample_score(st, w_solve, per, w_play, hprm, ttype, tparams, line):
    """One sample's score for the task decisions: ``w_solve`` times the search's verdict
    (:func:`_solved`, ``per`` cards) plus ``w_play`` times the heuristic crew's playout."""
    v = 0.0
    if w_solve > 0.0:
        v += w_solve * _solved(st, ttype, tparams, per, line)
    if w_play > 0.0:
        v += w_play * _playout(st, hprm, ttype, tparams)
    return v


@njit(cache=True)
def pick_by_samples(s, p, avail, n_avail, may_pass, n_samples, nodes, w_solve, w_play,
                    ttype, tparams):  # fmt: skip
    """The task (index into ``avail``, -1 to pass) whose choice completes the mission in most
    of ``n_samples`` deals sampled from ``p``'s view: each gives ``p`` the candidate,
    completes the allocation with the others' heuristic picks and is scored by
    :func:`_sample_score` (the search's share of ``nodes``). Ties go to the heuristic's pick."""
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    first = heuristic_pick(s, p, avail, n_avail, may_pass, hprm, ttype, tparams)
    n_cand = n_avail + (1 if may_pass else 0)  # the last candidate is the pass
    if n_cand == 1:
        return 0
    per = max(MIN_NODES, nodes // (n_samples * n_cand))
    score = np.zeros(n_cand)
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for i in range(n_cand):
            st = world.copy()
            if i < n_avail:
                st[O_HOLDER + avail[i]] = p
            _complete_picks(st, p, may_pass, hprm, ttype, tparams)
            score[i] += _sample_score(st, w_solve, per, w_play, hprm, ttype, tparams, line)
    best = -1
    for i in range(n_cand):
        if (i if i < n_avail else -1) == first:
            score[i] += 1e-6  # the heuristic's pick breaks ties
        if best < 0 or score[i] > score[best]:
            best = i
    return best if best < n_avail else -1


@njit(cache=True)
def volunteer_by_samples(s, p, n_samples, nodes, w_solve, w_play, ttype, tparams):
    """Does ``p`` take every task? Yes when, over deals sampled from its view, the mission
    with every task on ``p`` scores at least the mean over the other members holding them all
    (each sample scored by :func:`_sample_score`)."""
    n_players = s[S_NP]
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    per = max(MIN_NODES, nodes // (n_samples * n_players))
    mine = 0.0
    others = 0.0
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for q in range(n_players):
            st = world.copy()
            for k in range(st[S_NTASKS]):
                st[O_HOLDER + k] = q
            v = _sample_score(st, w_solve, per, w_play, hprm, ttype, tparams, line)
            if q == p:
                mine += v
            else:
                others += v / (n_players - 1)
    return mine >= others


@njit(cache=True)
def bid_by_samples(s, p, row, n_samples, nodes, w_solve, w_play, ttype, tparams):
    """How much ``p`` wants task ``row`` (free selection; one member takes all: the bids are
    summed): its mean score over deals sampled from ``p``'s view with ``p`` holding that task
    alone (the mission's other tasks left out), by :func:`_sample_score`, in [0, 1]."""
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    per = max(MIN_NODES, nodes // n_samples)
    mine = -1
    for k in range(s[S_NTASKS]):
        if s[O_TASK + k] == row and (mine < 0 or s[O_HOLDER + k] < 0):
            mine = k
    if mine < 0:
        return 0.0
    total = 0.0
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for k in range(world[S_NTASKS]):
            world[O_HOLDER + k] = p
            if k != mine:
                world[O_TSTATE + k] = DONE
        total += _sample_score(world, w_solve, per, w_play, hprm, ttype, tparams, line)
    return total / (n_samples * max(w_solve + w_play, 1e-9))


# -- the sampler's own parameters -------------------------------------------------------------
@njit(cache=True)
def _budget(prm):
    """(samples, task-decision nodes, search weight, playout weight) of a sampler's row."""
    n = max(1, int(prm[SAMPLER_P.samples]))
    return n, int(prm[SAMPLER_P.pick_nodes]), 1.0, prm[SAMPLER_P.playout]


@njit(cache=True)
def sampler_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    n, nodes, w_solve, w_play = _budget(prm)
    return pick_by_samples(s, p, avail, n_avail, may_pass, n, nodes, w_solve, w_play, ttype,
                           tparams)  # fmt: skip


@njit(cache=True)
def sampler_volunteer(s, p, prm, ttype, tparams):
    n, nodes, w_solve, w_play = _budget(prm)
    return volunteer_by_samples(s, p, n, nodes, w_solve, w_play, ttype, tparams)


@njit(cache=True)
def sampler_task_bid(s, p, row, prm, ttype, tparams):
    n, nodes, w_solve, w_play = _budget(prm)
    return bid_by_samples(s, p, row, n, nodes, w_solve, w_play, ttype, tparams)
