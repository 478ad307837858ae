"""Caza-Tesoros's forward model: what the shared search (``simulator.search``) needs to look ahead.

The game travels as one value, :class:`~.state.State` (the arrays of :mod:`.state`, the day's
seat order and the cursor of :func:`.turn.next_turn` among them). The search decides one ship's
action at a time, from a few options keyed so that a key means the same in every simulation
(:func:`ship_options`): search the cross it stands on (``SEARCH``), wait (``PASS``), or sail to
its nearest own cross or its nearest Archive cross (the key is that hex). Bids, buys and
purchases are left to the seat's ``guide`` policy (:func:`delegated`).

What a seat cannot see is the future: every die, draw, treasure value and placement comes from
the game's generators in ``g`` (``G_RNG`` for the rules, ``G_POLICY_RNG`` for the built-in
policies). Decks are counts, not orders, and crosses lie face up, so nothing else is hidden
but the other seats' private aims (the ``random`` policy's next hex). Each simulation copies
the real position, reseeds both generators from the game's own search stream
(``G_SEARCH_RNG``, seeded from the game's seed: a game stays reproducible from its seed),
forgets the other seats' aims, walks the tree over its own player's ship actions of the day
(one ship: the root decision alone), then plays out to the end of the game with the
``rollout`` policy in every seat (the other players play it from the start). Why so shallow: a
deeper tree (every seat's actions, or the player's own on the following days) spent its
simulations on one-day deviations (a search tried on some later day, on either side) that the
playout never makes, and at a few hundred simulations that noise drowned the difference
between waiting and searching (docs/rules/caza-tesoros.md, "The search player"). It plays the
engine's own steps (:mod:`.turn`), so a playout follows the rules the engine plays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.caza_tesoros import (
    MCTS,
    MCTS_P,
    PASS,
    ROLLOUT_PRM,
    ROLLOUTS,
    SEARCH,
    decide_ship,
)
from simulator import search as T
from simulator.rng import STATE_WORDS, next_at, seed_words

from . import state as S
from .board import CELLS, hex_distance
from .state import State, Tables
from .turn import (
    EVENT_WIDTH,
    PURCHASES_DUE,
    WEEK_STARTS,
    act,
    decide_winner,
    end_turn,
    trading,
    walk_days,
)

MAX_OPTIONS = 4  # search, wait, own cross, Archive cross


@njit(cache=True)
def delegated(pids: np.ndarray, prm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Policy ids and parameters for every decision the search does not make: an ``mcts`` seat
    plays its guide policy (with that policy's defaults), every other seat its own."""
    ids = pids.copy()
    out = prm.copy()
    for c in range(pids.shape[0]):
        if pids[c] == MCTS:
            k = int(prm[c, MCTS_P.guide])
            ids[c] = ROLLOUTS[k]
            out[c] = ROLLOUT_PRM[k]
    return ids, out


@njit(cache=True, _nrt=False)
def ship_options(r, st: State, p: int, s: int, out) -> int:
    """The actions the search weighs for ship ``s`` of colour ``p`` into ``out``; returns how
    many. ``SEARCH`` (it stands on a cross it may search and can pay; alone when the rules bind
    it to search), ``PASS`` (on a cross), and sailing to its nearest own cross and its nearest
    Archive cross (keyed by the hex). At sea with nowhere to go: ``PASS`` alone."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    cell = sh[p, s, S.S_CELL]
    n = 0
    c = S.cross_here(cr, p, cell)
    if c >= 0:
        if pl[p, S.P_VP] >= S.search_cost(r, S.search_level(r, cr, g, p, c), g[S.G_WEATHER]):
            out[n] = SEARCH
            n += 1
            if S.bound_to_search(r, cr, g, p, c):
                return n
        out[n] = PASS
        n += 1
    own = -1
    archive = -1
    own_d = 1 << 30
    archive_d = 1 << 30
    for k in range(cr.shape[0]):
        owner = cr[k, S.C_OWNER]
        if owner != p and owner != S.ARCHIVE:
            continue
        d = hex_distance(cell, cr[k, S.C_CELL])
        if owner == p and d < own_d:
            own_d = d
            own = cr[k, S.C_CELL]
        elif owner == S.ARCHIVE and d < archive_d:
            archive_d = d
            archive = cr[k, S.C_CELL]
    if own >= 0 and own != cell:
        out[n] = own
        n += 1
    if archive >= 0 and archive != cell and archive != own:
        out[n] = archive
        n += 1
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@njit(cache=True, _nrt=False)
def option_index(keys, n: int, action: int) -> int:
    """Index of ``action`` among ``keys[:n]``, -1 when it is not one of them."""
    for k in range(n):
        if keys[k] == action:
            return k
    return -1


@njit(cache=True, _nrt=False)
def hide_from(r, st: State, me: int, seed) -> None:
    """A simulation of player ``me``'s search: fresh dice and policy draws from ``seed`` (drawn
    from the search stream, never the game's own future) and no knowledge of the other
    players' aims."""
    pl, sh = st.pl, st.sh
    seed_words(st.g, S.G_RNG, seed, 2 * STATE_WORDS)
    for c in range(pl.shape[0]):
        if S.player_of(r, pl, c) != me:
            for s in range(sh.shape[1]):
                sh[c, s, S.S_AIM] = -1
                sh[c, s, S.S_AIM_UNTIL] = 0


@njit(cache=True)  # returns its array: reference counted
def rewards_of(r, pl, g, winner: int, out) -> np.ndarray:
    """Each colour's reward: 1 to the winner's colours, 0 to the others; with no winner the
    players still standing at the end (in, or out on the last day: all out together) share 1,
    so a draw is worth more than a loss."""
    out[:] = 0.0
    m = S.players_of(r, pl)
    if winner >= 0:
        for c in range(winner, pl.shape[0], m):
            out[c] = 1.0
        return out
    standing = 0
    for q in range(m):
        if _standing(r, pl, g, q):
            standing += 1
    for q in range(m):
        if _standing(r, pl, g, q):
            for c in range(q, pl.shape[0], m):
                out[c] = 1.0 / standing
    return out


@njit(cache=True, _nrt=False)
def _standing(r, pl, g, q: int) -> bool:
    for c in range(q, pl.shape[0], S.players_of(r, pl)):
        if pl[c, S.P_ALIVE] == 1 or pl[c, S.P_OUT_DAY] == g[S.G_DAY]:
            return True
    return False


@njit(cache=True)
def search_ship(r, t: Tables, prm, root: State, p: int, stats=None, tally=None) -> int:
    """The action (a target hex, ``SEARCH`` or ``PASS``) that ship ``root.at[1]`` of colour
    ``p`` takes with policy ``mcts``: ``prm[MCTS_P.playouts]`` simulations of the shared search
    from the real position (its turn begun: the cursor as the engine's day has it). Draws the
    simulations' seeds from the game's search stream (``root.g``).
    ``stats``, when given: each option's simulations and mean reward (``search.root_stats``);
    ``tally``, when given: [0] += simulations, [1] += days they played (benchmarks)."""
    s = root.at[1]
    root_keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    n_root = ship_options(r, root, p, s, root_keys)
    if n_root == 1 and stats is None:
        return root_keys[0]
    n_colours = root.pl.shape[0]
    playouts = int(prm[MCTS_P.playouts])
    rollout = ROLLOUTS[int(prm[MCTS_P.rollout])]
    rprm = ROLLOUT_PRM[int(prm[MCTS_P.rollout])]
    guide = ROLLOUTS[int(prm[MCTS_P.guide])]
    gprm = ROLLOUT_PRM[int(prm[MCTS_P.guide])]
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    rpids = np.full(n_colours, rollout, dtype=np.int64)
    rprms = np.empty((n_colours, rprm.shape[0]), dtype=np.float64)
    for c in range(n_colours):
        rprms[c] = rprm
    tree = T.new_tree(playouts + 1)
    sim = S.new_state(n_colours, root.cr.shape[0], CELLS)
    pl, sh, cr, g, at = sim.pl, sim.sh, sim.cr, sim.g, sim.at
    odds, tmean = t.odds, t.tmean
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    log = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    dirs = np.zeros(64, dtype=np.int64)
    rewards = np.zeros(n_colours, dtype=np.float64)
    me = S.player_of(r, root.pl, p)
    day = root.g[S.G_DAY]
    # the tree's own random picks (untried options) follow the search stream too
    np.random.seed(np.int64(next_at(root.g, S.G_SEARCH_RNG) >> np.uint64(33)))
    for _ in range(playouts):
        S.copy_state(sim, root)
        hide_from(r, sim, me, next_at(root.g, S.G_SEARCH_RNG))
        T.begin(tree)
        q = p
        while q >= 0:
            mine = S.player_of(r, pl, q) == me
            if mine and not T.left_tree(tree) and g[S.G_DAY] == day:  # the tree's day
                n = ship_options(r, sim, q, at[1], keys)
                best = -1
                if n > 1 and T.widening(tree, widen):
                    choice = decide_ship(guide, gprm, q, at[1], r, odds, tmean, pl, sh, cr, g)
                    best = option_index(keys, n, choice)
                action = keys[T.choose(tree, keys, n, q, explore, best, widen, bias)]
            else:  # the playout, and the other players throughout: the rollout policy
                action = decide_ship(rollout, rprm, q, at[1], r, odds, tmean, pl, sh, cr, g)
            act(r, t, sim, log, q, at[1], action, dirs)
            end_turn(r, sim, log, False)
            q = walk_days(r, t, sim, log, False)
            while q == WEEK_STARTS or q == PURCHASES_DUE:
                trading(r, t, rpids, rprms, sim, log, False, q)
                q = walk_days(r, t, sim, log, False)
        winner = decide_winner(r, pl, sh, g[S.G_DAY])
        T.backup(tree, rewards_of(r, pl, g, winner, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += g[S.G_DAY] - day
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return root_keys[T.most_visited(tree, root_keys, n_root, p)]
