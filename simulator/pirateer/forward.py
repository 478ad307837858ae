"""Pirateer's forward model: what the shared search (``simulator.search``) needs to look ahead.

The position travels as one value, :class:`.state.State`. The search
decides the turn's one decision, the move of the roll; everything else in a turn is dice. A
simulation copies the real position (nothing is hidden in Pirateer: the future dice are the only
unknown, and each simulation draws its own), walks the tree over the moves of the following
turns (a child is keyed by the position a move leads to, ``state.position_key``, so the same
move under another roll is the same child), then plays out to the end of the game with the
``rollout`` policy in every seat. The playout plays the engine's own turn (:mod:`.turn`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.pirateer import MCTS_P, ROLLOUT_PRM, ROLLOUTS, decide_move
from simulator import search as T

from . import state as S
from .board import N_PICTURE
from .state import State, copy_state, new_state
from .turn import end_turn, legal_moves, make_move, play_move, unmake_move


@njit(cache=True)
def next_decision(r, st: State, p: int, moves, scratch) -> tuple[int, int]:
    """Seat ``p`` has just finished its turn: play on (rolls without a legal move pass) to the
    next seat with a move to choose. Returns (that seat, its legal moves in ``moves``), or
    (-1, 0) once the game is over. The dice come from numba's generator, as in the engine."""
    ships, owner, g = st.ships, st.owner, st.g
    n_players = g[S.G_PLAYERS]
    q = p
    while g[S.G_ENDED] == 0:
        q = (q + 1) % n_players
        if S.count_alive(ships, owner, q) == 0:
            continue
        d1 = np.random.randint(1, 7)
        d2 = np.random.randint(1, 7)
        n = legal_moves(r, st, q, d1, d2, moves, scratch)
        if n > 0:
            return q, n
        end_turn(r, g)
    return -1, 0


@njit(cache=True)
def playout(r, rollout: int, rprm, st: State, p: int, n: int, moves, scratch, heat, rec,
            rec_n) -> int:  # fmt: skip
    """Play the game to its end from seat ``p`` choosing among its ``n`` legal ``moves`` (n = 0:
    seat ``p`` has just played), every seat with policy ``rollout``; returns the winner."""
    ships, owner, occ, g = st
    while g[S.G_ENDED] == 0:
        if n > 0:
            k = decide_move(rollout, rprm, r, ships, owner, occ, g, p, moves, n)
            play_move(r, st, p, moves[k], heat, rec, rec_n)
            end_turn(r, g)
        p, n = next_decision(r, st, p, moves, scratch)
    return g[S.G_WINNER]


@njit(cache=True)
def winning_move(r, st: State, p: int, moves, n: int) -> int:
    """The first of the ``n`` moves that ends the game in seat ``p``'s favour, or -1. Rewards count
    wins, not how soon, so without this a search may prefer a move that wins a few turns later."""
    ships, owner, occ, g = st
    undo = np.zeros((2, 3), dtype=np.int64)
    for i in range(n):
        k = make_move(r, ships, owner, occ, g, moves[i], undo)
        won = S.is_terminal(ships, owner, g, p)
        unmake_move(ships, occ, g, moves[i], undo, k)
        if won:
            return i
    return -1


@njit(cache=True)
def search_move(r, prm, root: State, p: int, root_moves, n_root: int, stats=None,
                tally=None) -> int:  # fmt: skip
    """The move (index into ``root_moves[:n_root]``) seat ``p`` plays with policy ``mcts``:
    ``prm[MCTS_P.playouts]`` simulations of the shared search from the real position.
    ``stats``, when given: each move's simulations and mean reward (``search.root_stats``);
    ``tally``, when given: [0] += simulations, [1] += turns they played (benchmarks)."""
    if n_root == 1 and stats is None:
        return 0
    win = winning_move(r, root, p, root_moves, n_root)
    if win >= 0 and stats is None:  # a decisive move: no simulation can beat it
        return win
    n_players = root.g[S.G_PLAYERS]
    playouts = int(prm[MCTS_P.playouts])
    rollout = ROLLOUTS[int(prm[MCTS_P.rollout])]
    rprm = ROLLOUT_PRM[int(prm[MCTS_P.rollout])]
    guide = ROLLOUTS[int(prm[MCTS_P.guide])]  # the root's: below it the rollout policy guides
    gprm = ROLLOUT_PRM[int(prm[MCTS_P.guide])]
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    tree = T.new_tree(playouts + 1)
    sim = new_state()
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    scratch = np.zeros_like(moves)
    keys = np.zeros(S.MAX_MOVES, dtype=np.int64)
    root_keys = root_moves[:n_root, S.M_KEY].copy()
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    heat = (cells[0], cells[1], cells[2])
    rec = np.zeros((0, 3), dtype=np.int64)
    rec_n = np.zeros(1, dtype=np.int64)
    rewards = np.zeros(n_players, dtype=np.float64)
    # the root's options and position are the same in every simulation: ask the guide once
    ships, owner, occ, g = root
    root_guide = decide_move(guide, gprm, r, ships, owner, occ, g, p, root_moves, n_root)
    for _ in range(playouts):
        copy_state(sim, root)
        T.begin(tree)
        k = T.choose(tree, root_keys, n_root, p, explore, root_guide if T.widening(tree, widen)
                     else -1, widen, bias)  # fmt: skip
        play_move(r, sim, p, root_moves[k], heat, rec, rec_n)
        end_turn(r, sim.g)
        q, n = p, 0
        while not T.left_tree(tree):
            q, n = next_decision(r, sim, q, moves, scratch)
            if n == 0:
                break
            for i in range(n):
                keys[i] = moves[i, S.M_KEY]
            best = -1
            if T.widening(tree, widen):  # replies below the root: the rollout policy's, cheap
                best = decide_move(rollout, rprm, r, sim.ships, sim.owner, sim.occ, sim.g, q,
                                   moves, n)  # fmt: skip
            k = T.choose(tree, keys, n, q, explore, best, widen, bias)
            play_move(r, sim, q, moves[k], heat, rec, rec_n)
            end_turn(r, sim.g)
            n = 0
        winner = playout(r, rollout, rprm, sim, q, n, moves, scratch, heat, rec, rec_n)
        T.backup(tree, T.win_rewards(winner, n_players, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_TURN] - root.g[S.G_TURN]
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return T.most_visited(tree, root_keys, n_root, p)
