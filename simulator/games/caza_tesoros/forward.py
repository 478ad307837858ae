"""Caza-Tesoros's forward model: what the shared search (``simulator.search.tree``) needs to look
ahead.

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
the real position, reseeds both generators from the search's own stream (numba's generator
switched by ``search.own_stream``; the real game's stream goes on after the search whatever
its budget), forgets the other seats' aims, and plays the root's option; then the searching
player's colours play ``rollout`` and the others ``opponents`` until the game ends or
``horizon`` days have begun, where the fitted evaluation (:mod:`.features`) scores every
player. With ``opponents=tree`` the others play ``rollout`` and the searching player's other
ships of the day choose in the shared tree. The root's options share the budget by sequential
halving. A tree over every seat's actions and the following days was tried before: at a few
hundred simulations its exploration drowned the difference between waiting and searching
(docs/rules/caza-tesoros.md, "The search player"). It plays the engine's own steps
(:mod:`.turn`), so a simulation follows the rules the engine plays.

:func:`record`, :func:`bank` and :func:`decide` are the game's ``SearchHooks`` (self-play
positions for the evaluation's fit and decisions for the agreement benchmark).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.caza_tesoros import (
    CATCHUP,
    MCTS,
    MCTS_P,
    PASS,
    ROLLOUT_PRM,
    ROLLOUTS,
    SEARCH,
    decide_ship,
    ship_search_value,
)
from simulator.contract.rng import STATE_WORDS, seed_words
from simulator.search import tree as T

from . import state as S
from .board import CELLS, hex_distance
from .features import N_FEATURES, features
from .state import CLOUDY, State, Tables
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
    from the search's own stream, never the game's future) and no knowledge of the other
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
    ``p`` takes with policy ``mcts``: ``prm[MCTS_P.playouts]`` simulations from the real
    position (its turn begun: the cursor as the engine's day has it), spread over the root's
    options by sequential halving, the answer the best mean reward among the options left
    (ties to the guide's choice). Each option's j-th simulation plays the same dice.
    The simulations draw from the search's own stream (``search.own_stream``: two draws of
    numba's generator whatever the budget). ``stats``, when given: each option's simulations
    and mean reward (``search.arm_stats``); ``tally``, when given: [0] += simulations, [1] +=
    days they played (benchmarks)."""
    s = root.at[1]
    root_keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    n_root = ship_options(r, root, p, s, root_keys)
    if n_root == 1 and stats is None:
        return root_keys[0]
    resume = T.own_stream()
    n_colours = root.pl.shape[0]
    playouts = int(prm[MCTS_P.playouts])
    sim = S.new_state(n_colours, root.cr.shape[0], CELLS)
    me = S.player_of(r, root.pl, p)
    # the guide's choice enters the halving first (on a copy: a policy may draw or keep aims)
    S.copy_state(sim, root)
    k = int(prm[MCTS_P.guide])
    # a mutable row, as the engine's: a constant's row (readonly) compiles the policy again
    choice = decide_ship(ROLLOUTS[k], ROLLOUT_PRM[k].copy(), p, s, r, t.odds, t.tmean,
                         sim.pl, sim.sh, sim.cr, sim.g)  # fmt: skip
    order = np.zeros(MAX_OPTIONS, dtype=np.int64)
    T.rank_by_score(np.zeros(MAX_OPTIONS), n_root, option_index(root_keys, n_root, choice), order)
    h = T.new_halving(MAX_OPTIONS)
    T.start_halving(h, order, T.root_width(n_root, playouts, prm[MCTS_P.widen]), playouts)
    tree = T.new_tree(playouts + 1)
    ids, prms = _seat_policies(prm, r, root.pl, me)
    rewards = np.zeros(n_colours, dtype=np.float64)
    feats = np.zeros((n_colours, N_FEATURES), dtype=np.float64)
    shares = np.zeros(n_colours, dtype=np.float64)
    # common random numbers: every option's j-th simulation throws the same dice, so options
    # are compared on the same futures (and options that come to the same tie exactly)
    futures = np.empty(max(playouts, 1), dtype=np.int64)
    for j in range(futures.shape[0]):
        futures[j] = np.random.randint(0, 2**62)
    arm = T.next_arm(h)
    while arm >= 0:
        S.copy_state(sim, root)
        hide_from(r, sim, me, futures[int(h.counts[arm]) % futures.shape[0]])
        days, drawn = _simulate(r, t, prm, sim, p, root_keys[arm], tree, ids, prms)
        if drawn:  # everyone still in drops out at the same upkeep: they share 1
            rewards_of(r, sim.pl, sim.g, -1, rewards)
        elif sim.g[S.G_ENDED] == 1:
            rewards_of(r, sim.pl, sim.g, decide_winner(r, sim.pl, sim.sh, sim.g[S.G_DAY]), rewards)
        else:  # stopped at the horizon: the fitted evaluation scores every player
            m = S.players_of(r, sim.pl)
            features(r, t, sim, feats)
            T.evaluate(prm, feats[:m], m, shares)
            for c in range(n_colours):
                rewards[c] = shares[S.player_of(r, sim.pl, c)]
        T.record_arm(h, arm, rewards[p])
        if int(prm[MCTS_P.opponents]) == len(ROLLOUTS):
            T.backup(tree, rewards)
        if tally is not None:
            tally[0] += 1
            tally[1] += days
        arm = T.next_arm(h)
    if stats is not None:
        T.arm_stats(h, n_root, stats)
    T.back_to_game(resume)
    return root_keys[T.best_arm(h)]


@njit(cache=True)
def _seat_policies(prm, r, pl, me: int) -> tuple[np.ndarray, np.ndarray]:
    """Each colour's policy inside a simulation: the searching player's colours play
    ``rollout``; the others play ``opponents``, or ``rollout`` too with ``opponents=tree``."""
    k = int(prm[MCTS_P.rollout])
    o = int(prm[MCTS_P.opponents])
    if o == len(ROLLOUTS):
        o = k
    n = pl.shape[0]
    ids = np.empty(n, dtype=np.int64)
    prms = np.empty((n, ROLLOUT_PRM.shape[1]), dtype=np.float64)
    for c in range(n):
        j = k if S.player_of(r, pl, c) == me else o
        ids[c] = ROLLOUTS[j]
        prms[c] = ROLLOUT_PRM[j]
    return ids, prms


@njit(cache=True, _nrt=False)
def certain_draw(r, t: Tables, st: State, ids) -> bool:
    """At a week's start, before its upkeep: whether the game must end with every player still
    in dropping out at the same upkeep, whatever the dice, when every colour plays ``ids``.

    That holds when every colour still in plays ``catchup`` and no player is partly out; all
    of them have the same VP and ships (so nobody is behind, and all pay alike); no ship has a
    search worth its price at either level, on its own cross or an Archive one (``catchup``
    searches only behind or then), and no failed level 1 binds a ship to search; upkeep is
    paid together (``maintenance_order = simultaneous``); and the upkeep clock runs out before
    the day cap. Then nobody searches, buys or bids: the weeks only take the same upkeep from
    everyone (a short player retires ships for the Archive's payout, and no forced sale finds
    a buyer), storms only push ships about, and each player still in gets an equal share.
    """
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    day = g[S.G_DAY]
    if r[S.R.maintenance_order] == 1 or day < 2:
        return False
    m = S.players_of(r, pl)
    vp = -1
    ships = -1
    players_in = 0
    for q in range(m):
        alive = 0
        for c in range(q, pl.shape[0], m):
            alive += pl[c, S.P_ALIVE]
        if alive == 0:
            continue
        if alive < r[S.R.colours_per_player]:
            return False
        players_in += 1
        for c in range(q, pl.shape[0], m):
            if ids[c] != CATCHUP:
                return False
            if vp < 0:
                vp = pl[c, S.P_VP]
                ships = pl[c, S.P_SHIPS]
            elif pl[c, S.P_VP] != vp or pl[c, S.P_SHIPS] != ships:
                return False
            for s in range(sh.shape[1]):
                if sh[c, s, S.S_CELL] < 0:
                    continue
                for level in (1, 2):
                    for own in (True, False):
                        if ship_search_value(r, t.odds, t.tmean, sh, c, s, level, CLOUDY, own) > 0:
                            return False
            for k in range(cr.shape[0]):
                if cr[k, S.C_DUTY + c] >= day - 1:
                    return False
    if players_in < 2:
        return False
    # the upkeep clock: the week everyone is out, against the day cap
    upkeep = r[S.R.maintenance_per_ship]
    while True:
        while vp < upkeep * ships and ships > 0:
            vp += r[S.R.retire_ship_payout]
            ships -= 1
        vp -= upkeep * ships
        if ships == 0:
            return True
        day += r[S.R.days_per_week]
        if day > r[S.R.max_days]:
            return False


@njit(cache=True)
def _simulate(r, t: Tables, prm, sim: State, p: int, first: int, tree, ids, prms) -> int:
    """One simulation from the root's option ``first``: ship ``sim.at[1]`` of colour ``p`` takes
    it, then every colour plays its policy (``ids``, ``prms``) until the game ends or
    ``horizon`` days have begun after the root's, or, playing to the end, until a week starts
    whose end is a certain draw (:func:`certain_draw`); with ``opponents=tree`` the searching
    player's other ships of the root's day choose in ``tree`` (the guide's choice first).
    Returns the days played and whether it stopped at a certain draw."""
    pl, sh, cr, g, at = sim.pl, sim.sh, sim.cr, sim.g, sim.at
    horizon = int(prm[MCTS_P.horizon])
    in_tree = int(prm[MCTS_P.opponents]) == len(ROLLOUTS)
    me = S.player_of(r, pl, p)
    day = g[S.G_DAY]
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    log = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    dirs = np.zeros(64, dtype=np.int64)
    if in_tree:
        T.begin(tree)
        T.enter_root(tree, first, p)
    action = first
    q = p
    while True:
        act(r, t, sim, log, q, at[1], action, dirs)
        end_turn(r, sim, log, False)
        q = walk_days(r, t, sim, log, False)
        while q == WEEK_STARTS or q == PURCHASES_DUE:
            if horizon > 0 and g[S.G_DAY] - day >= horizon:
                return g[S.G_DAY] - day, False
            if q == WEEK_STARTS and horizon == 0 and certain_draw(r, t, sim, ids):
                return g[S.G_DAY] - day, True
            trading(r, t, ids, prms, sim, log, False, q)
            q = walk_days(r, t, sim, log, False)
        if q < 0 or (horizon > 0 and g[S.G_DAY] - day >= horizon):
            return g[S.G_DAY] - day, False
        mine = S.player_of(r, pl, q) == me
        if in_tree and mine and not T.left_tree(tree) and g[S.G_DAY] == day:  # the tree's day
            n = ship_options(r, sim, q, at[1], keys)
            best = -1
            if n > 1 and T.widening(tree, prm[MCTS_P.widen]):
                k = int(prm[MCTS_P.guide])
                choice = decide_ship(ROLLOUTS[k], ROLLOUT_PRM[k].copy(), q, at[1], r, t.odds,
                                     t.tmean, pl, sh, cr, g)  # fmt: skip
                best = option_index(keys, n, choice)
            c = T.choose(tree, keys, n, q, prm[MCTS_P.explore], best, prm[MCTS_P.widen],
                         prm[MCTS_P.bias])  # fmt: skip
            action = keys[c]
        else:
            action = decide_ship(ids[q], prms[q], q, at[1], r, t.odds, t.tmean, pl, sh, cr, g)
