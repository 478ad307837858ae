"""Caza-Tesoros's forward model: what the shared search (``simulator.search``) needs to look ahead.

The position travels as one value, :class:`Position` (the arrays of :mod:`.state`), with the day's
seat order and the cursor of :func:`.turn.next_turn` beside it. The search decides one ship's
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

from collections import namedtuple

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
from .turn import EVENT_WIDTH, act, decide_winner, end_turn, next_turn

Position = namedtuple("Position", "pl sh cr g")
MAX_OPTIONS = 4  # search, wait, own cross, Archive cross


@njit(cache=True)
def new_position(n_colours: int, n_crosses: int) -> Position:
    pl = np.zeros((n_colours, S.N_PLAYER_FIELDS), dtype=np.int64)
    sh = np.zeros((n_colours, S.MAX_SHIPS, S.N_SHIP_FIELDS), dtype=np.int64)
    cr = np.zeros((n_crosses, S.N_CROSS_FIELDS), dtype=np.int64)
    return Position(pl, sh, cr, np.zeros(S.N_GAME_FIELDS, dtype=np.int64))


@njit(cache=True)
def copy_into(dst: Position, src: Position) -> None:
    dst.pl[:] = src.pl
    dst.sh[:] = src.sh
    dst.cr[:] = src.cr
    dst.g[:] = src.g


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
def ship_options(r, pl, sh, cr, g, p: int, s: int, out) -> int:
    """The actions the search weighs for ship ``s`` of colour ``p`` into ``out``; returns how
    many. ``SEARCH`` (it stands on a cross it may search and can pay; alone when the rules bind
    it to search), ``PASS`` (on a cross), and sailing to its nearest own cross and its nearest
    Archive cross (keyed by the hex). At sea with nowhere to go: ``PASS`` alone."""
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
def hide_from(r, pl, sh, g, me: int, seed) -> None:
    """A simulation of player ``me``'s search: fresh dice and policy draws from ``seed`` (drawn
    from the search stream, never the game's own future) and no knowledge of the other
    players' aims."""
    seed_words(g, S.G_RNG, seed, 2 * STATE_WORDS)
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
def search_ship(r, tv, wface, wmove, odds, tmean, worth, prm, root: Position, order, at, p: int,
                stats=None, tally=None) -> int:  # fmt: skip
    """The action (a target hex, ``SEARCH`` or ``PASS``) that ship ``at[1]`` of colour ``p``
    takes with policy ``mcts``: ``prm[MCTS_P.playouts]`` simulations of the shared search from
    the real position (its turn begun; ``order`` and the cursor ``at`` as the engine's day
    has them). Draws the simulations' seeds from the game's search stream (``root.g``).
    ``stats``, when given: each option's simulations and mean reward (``search.root_stats``);
    ``tally``, when given: [0] += simulations, [1] += days they played (benchmarks)."""
    s = at[1]
    root_keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    n_root = ship_options(r, root.pl, root.sh, root.cr, root.g, p, s, root_keys)
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
    sim = new_position(n_colours, root.cr.shape[0])
    sim_order = np.empty_like(order)
    sim_at = np.empty_like(at)
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    log = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    hits = np.zeros((2, CELLS), dtype=np.int64)
    dirs = np.zeros(64, dtype=np.int64)
    rewards = np.zeros(n_colours, dtype=np.float64)
    me = S.player_of(r, root.pl, p)
    day = root.g[S.G_DAY]
    # the tree's own random picks (untried options) follow the search stream too
    np.random.seed(np.int64(next_at(root.g, S.G_SEARCH_RNG) >> np.uint64(33)))
    for _ in range(playouts):
        copy_into(sim, root)
        hide_from(r, sim.pl, sim.sh, sim.g, me, next_at(root.g, S.G_SEARCH_RNG))
        sim_order[:] = order
        sim_at[:] = at
        T.begin(tree)
        q = p
        while q >= 0:
            mine = S.player_of(r, sim.pl, q) == me
            if mine and not T.left_tree(tree) and sim.g[S.G_DAY] == day:  # the tree's day
                n = ship_options(r, sim.pl, sim.sh, sim.cr, sim.g, q, sim_at[1], keys)
                best = -1
                if n > 1 and T.widening(tree, widen):
                    choice = decide_ship(guide, gprm, q, sim_at[1], r, odds, tmean, sim.pl,
                                         sim.sh, sim.cr, sim.g)  # fmt: skip
                    best = option_index(keys, n, choice)
                action = keys[T.choose(tree, keys, n, q, explore, best, widen, bias)]
            else:  # the playout, and the other players throughout: the rollout policy
                action = decide_ship(rollout, rprm, q, sim_at[1], r, odds, tmean, sim.pl, sim.sh,
                                     sim.cr, sim.g)  # fmt: skip
            act(r, tv, wmove, sim.pl, sim.sh, sim.cr, sim.g, log, hits, q, sim_at[1], action,
                dirs, worth)  # fmt: skip
            end_turn(r, sim.pl, sim.sh, sim.cr, sim.g, log, sim_at, False)
            q = next_turn(r, wface, odds, tmean, rpids, rprms, sim.pl, sim.sh, sim.cr, sim.g, log,
                          sim_order, sim_at, False, False)  # fmt: skip
        winner = decide_winner(r, sim.pl, sim.sh, sim.g[S.G_DAY])
        T.backup(tree, rewards_of(r, sim.pl, sim.g, winner, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_DAY] - root.g[S.G_DAY]
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return root_keys[T.most_visited(tree, root_keys, n_root, p)]
