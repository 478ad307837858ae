"""Pedruscos del Espacio's forward model: what the shared search (``simulator.search``) needs.

The game travels as one value, :class:`~.state.State`, and a simulation plays the turn rules of
:mod:`.turn` on it, the engine's own; this module holds no rule of its own, only what the search
drives: the options of a searched decision, the guide's choice among them, a playout, the
rewards.

The search decides a turn's main decision: the square to end the move on *together with* what
landing there does when the landing offers a choice (ship the cargo at a moon, open a branch at a
station). An option's key is ``2 * cell + act`` (act 1: ship or build), the same option whatever
the die and wherever the ship came from, so the shared tree finds it again in every simulation.
The seat's smaller decisions (the autonomous hauler's offer, a harvest's dice and route, the
purity colour, swaps with a full hold) are its guide policy's in the game and the rollout
policy's in a simulation.

Nothing is hidden in Pedruscos but the dice: ore cards show their colour on the back (the seed:
"solo cuenta el reverso en el que se ve el color de la carta"), so every hold is seen by every
player; a deck is cards of one colour, only its size matters, and sizes follow from what is
seen. A simulation copies the real position, forgets the bookkeeping no rule reads (which cards
aboard came from harvests: :func:`forget_bookkeeping`), draws its own dice from numba's
generator, walks the tree over the moves of the following turns and plays out to the end of the
game with the ``rollout`` policy in every seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.pedruscos import (
    MCTS_P,
    ROLLOUT_PRM,
    ROLLOUTS,
    decide_branch,
    decide_move,
    decide_ship,
)
from simulator import search as T

from . import state as S
from .board import MOON
from .state import State
from .turn import end_turn, land, landing_choice, next_seat, start_turn


@njit(cache=True, _nrt=False)
def forget_bookkeeping(st: State) -> None:
    """Which cards aboard came from harvests is the branch-payback statistic, not a rule (the
    cards are alike); it steers how a discard draws its random numbers, so a simulation starts
    without it and its choices depend on what the table shows alone."""
    pl = st.pl
    for p in range(pl.shape[0]):
        for c in range(3):
            pl[p, S.P_HCARDS + c] = 0


@njit(cache=True)
def guided(pids, prm, p):
    """Copies of the seats' policy ids and parameters in which searching seat ``p`` makes its
    other decisions (hauler, dice, route, purity, swap) as its guide policy does."""
    gids = pids.copy()
    gprm = prm.copy()
    k = int(prm[p, MCTS_P.guide])
    gids[p] = ROLLOUTS[k]
    gprm[p, :] = ROLLOUT_PRM[k]
    return gids, gprm


# -- simulations ----------------------------------------------------------------------------------
@njit(cache=True)
def playout(r, b, pids, prm, st: State, p: int) -> int:
    """Play the game to its end from seat ``p``'s turn (-1: it is over), every seat with the
    policies ``pids``/``prm`` and nothing recorded (the engine's turn, in this one function: each
    call counts the references of every array it is passed); returns the winner (-1: the round
    cap)."""
    pl, br, g = st.pl, st.br, st.g
    while p >= 0:
        die = start_turn(r, b, pids, prm, st, p)
        if die > 0:
            pos = pl[p, S.P_POS]
            if b.reach_ptr[pos * 7 + die + 1] > b.reach_ptr[pos * 7 + die]:
                end = decide_move(pids[p], prm[p], p, r, b, pl, br, g, die)
                land(r, b, pids, prm, st, p, end)
        end_turn(r, st, p)
        p = next_seat(r, st, p)
    return g[S.G_WINNER]


@njit(cache=True)
def results(r, pl, winner: int, margin: float, out) -> np.ndarray:
    """Each seat's reward for a simulation: ``1 - margin`` for the win, plus ``margin`` times
    its final points margin over the best other seat, mapped to 0-1 (0.5 + margin / (2 *
    target), clipped)."""
    n = pl.shape[0]
    for q in range(n):
        best = -(10**9)
        for o in range(n):
            if o != q and pl[o, S.P_POINTS] > best:
                best = pl[o, S.P_POINTS]
        m = 0.5 + (pl[q, S.P_POINTS] - best) / (2.0 * r.target_points)
        out[q] = (1.0 - margin) * (1.0 if q == winner else 0.0) + margin * min(max(m, 0.0), 1.0)
    return out


@njit(cache=True, _nrt=False)
def landing_options(r, b, st: State, p, die, keys) -> int:
    """``p``'s options for the rolled ``die`` into ``keys``: ``2 * cell`` for every square it
    may end on, and ``2 * cell + 1`` too where landing offers a choice (ship, build). Returns
    how many."""
    pos = st.pl[p, S.P_POS]
    n = 0
    for j in range(b.reach_ptr[pos * 7 + die], b.reach_ptr[pos * 7 + die + 1]):
        cell = b.reach[j]
        keys[n] = 2 * cell
        n += 1
        if landing_choice(r, b, st, p, cell):
            keys[n] = 2 * cell + 1
            n += 1
    return n


@njit(cache=True)
def guide_option(gid, gprm, r, b, st: State, p, die, keys, n) -> int:
    """The option (index into ``keys[:n]``) policy ``gid`` takes: its end square, then its
    answer to the landing's choice."""
    pl, br, g = st.pl, st.br, st.g
    cell = decide_move(gid, gprm, p, r, b, pl, br, g, die)
    key = 2 * cell
    if landing_choice(r, b, st, p, cell):
        if b.kind[cell] == MOON:
            yes = decide_ship(gid, gprm, p, r, b, pl, br, g, r.shipping_cost)
        else:
            yes = decide_branch(gid, gprm, p, r, b, pl, br, g, b.station[cell])
        if yes:
            key += 1
    for i in range(n):
        if keys[i] == key:
            return i
    return -1


@njit(cache=True)
def search_landing(r, b, prm, root: State, p: int, die: int, stats=None, tally=None) -> int:
    """The option seat ``p`` takes with policy ``mcts`` for the rolled ``die``: its key,
    ``2 * cell + act`` (act 1: ship or open a branch on landing). ``prm[MCTS_P.playouts]``
    simulations of the shared search from the real position, which is left as it was.
    ``stats``, when given: each option's simulations and mean reward (``search.root_stats``, in
    the order of :func:`landing_options`); ``tally``, when given: [0] += simulations, [1] +=
    rounds they played (benchmarks)."""
    n_players = root.pl.shape[0]
    n_cells = b.kind.shape[0]
    root_keys = np.zeros(2 * n_cells, dtype=np.int64)
    n_root = landing_options(r, b, root, p, die, root_keys)
    if n_root == 1 and stats is None:
        return root_keys[0]
    playouts = int(prm[MCTS_P.playouts])
    ro = int(prm[MCTS_P.rollout])
    gu = int(prm[MCTS_P.guide])
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    margin = prm[MCTS_P.margin]
    # every seat of a simulation plays the rollout policy at its default parameters
    rids = np.full(n_players, ROLLOUTS[ro], dtype=np.int64)
    rprm = np.zeros((n_players, ROLLOUT_PRM.shape[1]), dtype=np.float64)
    for q in range(n_players):
        rprm[q, :] = ROLLOUT_PRM[ro]
    gid = ROLLOUTS[gu]
    gprm = ROLLOUT_PRM[gu].copy()
    tree = T.new_tree(playouts + 1)
    sim = S.new_state(n_players, n_cells)
    keys = np.zeros(2 * n_cells, dtype=np.int64)
    rewards = np.zeros(n_players, dtype=np.float64)
    pl, g = sim.pl, sim.g
    root_round = root.g[S.G_ROUND]
    for _ in range(playouts):
        S.copy_state(sim, root)
        forget_bookkeeping(sim)
        T.begin(tree)
        best = -1
        if T.widening(tree, widen):
            best = guide_option(gid, gprm, r, b, sim, p, die, root_keys, n_root)
        k = T.choose(tree, root_keys, n_root, p, explore, best, widen, bias)
        land(r, b, rids, rprm, sim, p, root_keys[k] // 2, None, root_keys[k] % 2)
        end_turn(r, sim, p)
        q = next_seat(r, sim, p)
        while q >= 0 and not T.left_tree(tree):
            d = start_turn(r, b, rids, rprm, sim, q)
            n = landing_options(r, b, sim, q, d, keys) if d > 0 else 0
            if n > 0:
                best = -1
                if n > 1 and T.widening(tree, widen):
                    best = guide_option(gid, gprm, r, b, sim, q, d, keys, n)
                k = T.choose(tree, keys, n, q, explore, best, widen, bias)
                land(r, b, rids, rprm, sim, q, keys[k] // 2, None, keys[k] % 2)
            end_turn(r, sim, q)
            q = next_seat(r, sim, q)
        winner = playout(r, b, rids, rprm, sim, q)
        T.backup(tree, results(r, pl, winner, margin, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += g[S.G_ROUND] - root_round
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return root_keys[T.most_visited(tree, root_keys, n_root, p)]
