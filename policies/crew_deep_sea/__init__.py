"""Policies for The Crew: Mission Deep Sea.

Every ``decide_*`` function branches on the seat's policy id (static dispatch, see
docs/architecture.md) and reads only what that player may know: their own hand (``OWNER == p``),
the cards played and who won them, the tasks and their holders, shown voids and communicated
cards. Task evaluation inside a policy uses the public evaluator (``public=True``).
``omniscient`` is the exception by design: a crew-level search that sees every hand.

One module per job: ``declarations`` (the policies, their parameters), ``knowledge`` (what a
member knows and believes about the hands), ``tasks`` (task targets, fit, progress and the
chance a task is kept), ``heuristic`` (the heuristic crew), ``solver`` (the perfect-information
search), ``sampler`` (sampled deals solved by it) and ``expert`` (each member's search from its
own view, simulations played by the heuristic crew). Every rule they apply is called from
:mod:`simulator.games.crew_deep_sea.turn` and :mod:`simulator.games.crew_deep_sea.verdicts`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import NC, S_NTRICKS
from simulator.games.crew_deep_sea.turn import comm_claims, passable_cards

from .declarations import (
    EXPERT,
    EXPERT_P,
    HEURISTIC,
    HEURISTIC_DEFAULTS,
    HEURISTIC_P,
    OMNISCIENT,
    OMNISCIENT_P,
    POLICIES,
    RANDOM,
    RANDOM_P,
    SAMPLER,
    SAMPLER_P,
    as_heuristic,
    heuristic_params,
)
from .expert import expert_comm, expert_pick, expert_play, expert_task_bid, expert_volunteer
from .heuristic import (
    claim_to_make,
    heuristic_comm,
    heuristic_direction,
    heuristic_distress,
    heuristic_pass,
    heuristic_pick,
    heuristic_play,
    heuristic_predict,
    heuristic_volunteer,
    trick_aims,
)
from .knowledge import could_hold, later_discard, own_view, sample_deal, take_probs
from .sampler import sampler_pick, sampler_play, sampler_task_bid, sampler_volunteer
from .solver import IMPOSSIBLE, UNKNOWN, WINNABLE, depth_first, search_line, solve
from .tasks import horizon_value, is_avoid_task, task_fit, task_keep, task_targets

__all__ = [
    "EXPERT",
    "EXPERT_P",
    "HEURISTIC",
    "IMPOSSIBLE",
    "HEURISTIC_DEFAULTS",
    "HEURISTIC_P",
    "OMNISCIENT",
    "OMNISCIENT_P",
    "POLICIES",
    "RANDOM",
    "RANDOM_P",
    "SAMPLER",
    "SAMPLER_P",
    "UNKNOWN",
    "WINNABLE",
    "later_discard",
    "could_hold",
    "decide_comm",
    "decide_direction",
    "decide_distress",
    "decide_pass",
    "decide_pick",
    "decide_play",
    "decide_predict",
    "decide_task_bid",
    "decide_volunteer",
    "depth_first",
    "heuristic_params",
    "heuristic_play",
    "horizon_value",
    "is_avoid_task",
    "later_discard",
    "own_view",
    "sample_deal",
    "search_line",
    "solve",
    "take_probs",
    "task_fit",
    "task_keep",
    "task_targets",
    "trick_aims",
]


# -- decisions -------------------------------------------------------------------------------
@njit(cache=True)
def decide_pick(s, p, avail, n_avail, may_pass, pid, prm, ttype, tparams, searching=None):
    """Index into ``avail`` (task slots) of the task ``p`` takes, or -1 to pass (only when
    ``may_pass``: fewer tasks than players). ``searching``: None unless a seat searches (expert,
    sampler, omniscient): numba then prunes the searches away, and their seats play heuristic."""
    if searching is not None and pid == EXPERT:
        return expert_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams)
    if searching is not None and pid == SAMPLER:
        return sampler_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams)
    if pid == RANDOM:
        if may_pass and np.random.random() < 0.5:
            return -1
        return np.random.randint(n_avail)
    return heuristic_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams)


@njit(cache=True)
def decide_task_bid(s, p, row, pid, prm, ttype, tparams, searching=None):
    """How much ``p`` wants one task (free selection, volunteering)."""
    if searching is not None and pid == EXPERT:
        return expert_task_bid(s, p, row, prm, ttype, tparams)
    if searching is not None and pid == SAMPLER:
        return sampler_task_bid(s, p, row, prm, ttype, tparams)
    if pid == RANDOM:
        return np.random.random()
    return task_fit(s, p, row, ttype, tparams)


@njit(cache=True)
def decide_volunteer(s, p, pid, prm, ttype, tparams, searching=None):
    """Will ``p`` take every task of the mission?"""
    if searching is not None and pid == EXPERT:
        return expert_volunteer(s, p, prm, ttype, tparams)
    if searching is not None and pid == SAMPLER:
        return sampler_volunteer(s, p, prm, ttype, tparams)
    if pid == RANDOM:
        return np.random.random() < 0.5
    return heuristic_volunteer(s, p, prm, ttype, tparams)


@njit(cache=True)
def decide_predict(s, p, k, pid, prm, ttype, tparams):
    """The X of an 'exactly X tricks' task, before play."""
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return np.random.randint(s[S_NTRICKS] + 1)
    return heuristic_predict(s, p)


@njit(cache=True)
def decide_distress(s, p, pid, prm, ttype, tparams):
    """Does ``p`` ask for the distress signal (its hand cannot work its tasks)?"""
    pid, prm = as_heuristic(pid, prm)
    if pid != HEURISTIC:
        return False
    return heuristic_distress(s, p, prm, ttype, tparams)


@njit(cache=True)
def decide_direction(s, p, pid, prm, ttype, tparams):
    """Distress pass direction ``p`` prefers: +1 left, -1 right, 0 none. It holds a card a
    neighbour's task needs (tasks are public, its own hand is its own)."""
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return 0
    return heuristic_direction(s, p, ttype, tparams)


@njit(cache=True)
def _random_pass(s, p):
    """A random card of those ``p`` may pass, -1 when it has none."""
    cards = np.empty(NC, np.int64)
    n = passable_cards(s, p, cards)
    if n == 0:
        return -1
    return cards[np.random.randint(n)]


@njit(cache=True)
def decide_pass(s, p, to, pid, prm, ttype, tparams):
    """The non-submarine card ``p`` passes to ``to`` under the distress signal (-1: none)."""
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return _random_pass(s, p)
    return heuristic_pass(s, p, to, ttype, tparams)


@njit(cache=True)
def _random_comm(s, p, prm):
    """With chance ``communicate``, a random card ``p`` may truthfully declare."""
    if np.random.random() >= prm[RANDOM_P.communicate]:
        return -1, -1
    n = 0
    cards = np.empty(NC, np.int64)
    for c in range(36):
        if comm_claims(s, p, c) != 0:
            cards[n] = c
            n += 1
    if n == 0:
        return -1, -1
    c = cards[np.random.randint(n)]
    return c, claim_to_make(comm_claims(s, p, c))


@njit(cache=True)
def decide_comm(s, p, pid, prm, ttype, tparams, searching=None):
    """(card, claim) ``p`` shows now, or (-1, -1) to keep the sonar token."""
    s = own_view(s, p, ttype, tparams)
    if searching is not None and pid == EXPERT:
        return expert_comm(s, p, prm, ttype, tparams)
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return _random_comm(s, p, prm)
    if pid != HEURISTIC:
        return -1, -1
    return heuristic_comm(s, p, prm, ttype, tparams)


@njit(cache=True)
def decide_play(s, p, legal, n_legal, pid, prm, ttype, tparams, searching=None):
    """The card ``p`` plays (one of ``legal[:n_legal]``)."""
    if pid == RANDOM:
        return legal[np.random.randint(n_legal)]
    if searching is not None and pid == EXPERT:
        return expert_play(own_view(s, p, ttype, tparams), p, legal, n_legal, prm, ttype, tparams)
    if searching is not None and pid == SAMPLER:
        return sampler_play(own_view(s, p, ttype, tparams), p, legal, n_legal, prm, ttype, tparams)
    return heuristic_play(own_view(s, p, ttype, tparams), p, legal, n_legal, prm, ttype, tparams)
