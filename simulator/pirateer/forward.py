"""Pirateer's forward model: what the shared search (``simulator.search``) needs to look ahead.

The position travels as one value, :class:`Position` (the arrays of :mod:`.state`). The search
decides the turn's one decision, the move of the roll; everything else in a turn is dice. A
simulation copies the real position (nothing is hidden in Pirateer: the future dice are the only
unknown, and each simulation draws its own), walks the tree over the moves of the following
turns (a child is keyed by the position a move leads to, ``state.position_key``, so the same
move under another roll is the same child), then plays out to the end of the game with the
``rollout`` policy in every seat. The playout uses the engine's own turn: :func:`play_move` and
:func:`next_decision` are what :mod:`.engine` plays a game with.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from policies.pirateer import MCTS_P, ROLLOUT_PRM, ROLLOUTS, decide_move
from simulator import search as T
from simulator.recording import record

from . import state as S
from .board import N_CELLS, N_PICTURE

Position = namedtuple("Position", "ships owner occ g")

# Recorded events of a move (rows of simulator.recording; kinds as in .engine's EV_*)
EV_MOVE = 2
EV_CAPTURE = 3
EV_TREASURE = 4


@njit(cache=True)
def new_position() -> Position:
    return Position(
        np.zeros(S.N_SHIPS, dtype=np.int64),
        np.zeros(S.N_FLEETS, dtype=np.int64),
        np.zeros(N_CELLS, dtype=np.int64),
        np.zeros(S.N_G, dtype=np.int64),
    )


@njit(cache=True)
def copy_into(dst: Position, src: Position) -> None:
    dst.ships[:] = src.ships
    dst.owner[:] = src.owner
    dst.occ[:] = src.occ
    dst.g[:] = src.g


@njit(cache=True)
def play_move(r, ships, owner, occ, g, p, move, cap_cell, taken_cell, lost_cell, rec, rec_n):
    """Play a legal move step by step, counting captures and the treasure's changes of hand;
    ends the game when a step brings the treasure home or captures the last opponent."""
    if move[S.M_TAKE1] >= S.TAKEN_BEFORE:  # taken where the ship stood ('any_time')
        s = move[S.M_TAKE1] - S.TAKEN_BEFORE
        g[S.G_TREASURE] = s
        taken_cell[ships[s]] += 1
        g[S.G_TAKEN_TURN] = g[S.G_TURN]
        record(rec, rec_n, EV_TREASURE, g[S.G_TURN] + 1, p, s, ships[s], -1)
    for k in range(move[S.M_STEPS]):
        base = 1 + 4 * k
        s = move[base]
        frm = ships[s]
        t = S.walk(r, ships, owner, occ, g, s, move[base + 1], move[base + 2])
        victim = occ[t]
        before = g[S.G_TREASURE]
        S.make_step(ships, occ, g, s, t, move[base + 3])
        turn = g[S.G_TURN] + 1
        record(rec, rec_n, EV_MOVE, turn, p, s, move[base + 2], move[base + 1], frm, t, victim,
               g[S.G_TREASURE])  # fmt: skip
        if victim >= 0:
            g[S.G_CAPTURES] += 1
            cap_cell[t] += 1
            carried = 1 if before == victim else 0
            record(rec, rec_n, EV_CAPTURE, turn, p, s, victim, owner[victim // S.FLEET], t, carried)
            if before == victim:
                g[S.G_TREASURE_CAPTURES] += 1
                lost_cell[t] += 1
                taken_cell[t] += 1
                record(rec, rec_n, EV_TREASURE, turn, p, s, t, victim)
        elif before == S.ON_ISLAND and g[S.G_TREASURE] == s:
            taken_cell[t] += 1
            g[S.G_TAKEN_TURN] = g[S.G_TURN]
            record(rec, rec_n, EV_TREASURE, turn, p, s, t, -1)
        if S.treasure_home(ships, g):
            g[S.G_ENDED] = 1
            g[S.G_END_REASON] = S.END_TREASURE_HOME
            g[S.G_WINNER] = p
            g[S.G_TREASURE] = S.DELIVERED
            return
        if victim >= 0 and S.opponents_left(ships, owner, p) == 0:
            g[S.G_ENDED] = 1
            g[S.G_END_REASON] = S.END_LAST_OPPONENT
            g[S.G_WINNER] = p
            return


@njit(cache=True)
def end_turn(r, g) -> None:
    """A seat with ships has played its turn: count it, and stop the game at the turn cap."""
    g[S.G_TURN] += 1
    if g[S.G_ENDED] == 0 and g[S.G_TURN] >= r.max_turns:
        g[S.G_ENDED] = 1
        g[S.G_END_REASON] = S.END_TURN_CAP


@njit(cache=True)
def next_decision(r, n_players: int, pos: Position, p: int, moves, scratch) -> tuple[int, int]:
    """Seat ``p`` has just finished its turn: play on (rolls without a legal move pass) to the
    next seat with a move to choose. Returns (that seat, its legal moves in ``moves``), or
    (-1, 0) once the game is over. The dice come from numba's generator, as in the engine."""
    ships, owner, occ, g = pos.ships, pos.owner, pos.occ, pos.g
    q = p
    while g[S.G_ENDED] == 0:
        q = (q + 1) % n_players
        if S.count_alive(ships, owner, q) == 0:
            continue
        d1 = np.random.randint(1, 7)
        d2 = np.random.randint(1, 7)
        n = S.legal_moves(r, ships, owner, occ, g, q, d1, d2, moves, scratch)
        if n > 0:
            return q, n
        end_turn(r, g)
    return -1, 0


@njit(cache=True)
def playout(r, n_players: int, rollout: int, rprm, pos: Position, p: int, n: int, moves,
            scratch, cells, rec, rec_n) -> int:  # fmt: skip
    """Play the game to its end from seat ``p`` choosing among its ``n`` legal ``moves`` (n = 0:
    seat ``p`` has just played), every seat with policy ``rollout``; returns the winner."""
    ships, owner, occ, g = pos.ships, pos.owner, pos.occ, pos.g
    while g[S.G_ENDED] == 0:
        if n > 0:
            k = decide_move(rollout, rprm, r, ships, owner, occ, g, p, moves, n)
            play_move(r, ships, owner, occ, g, p, moves[k], cells[0], cells[1], cells[2], rec,
                      rec_n)  # fmt: skip
            end_turn(r, g)
        p, n = next_decision(r, n_players, pos, p, moves, scratch)
    return g[S.G_WINNER]


@njit(cache=True)
def winning_move(r, pos: Position, p: int, moves, n: int) -> int:
    """The first of the ``n`` moves that ends the game in seat ``p``'s favour, or -1. Rewards count
    wins, not how soon, so without this a search may prefer a move that wins a few turns later."""
    undo = np.zeros((2, 3), dtype=np.int64)
    for i in range(n):
        k = S.make_move(r, pos.ships, pos.owner, pos.occ, pos.g, moves[i], undo)
        won = S.is_terminal(pos.ships, pos.owner, pos.g, p)
        S.unmake_move(pos.ships, pos.occ, pos.g, moves[i], undo, k)
        if won:
            return i
    return -1


@njit(cache=True)
def search_move(r, n_players: int, prm, root: Position, p: int, root_moves, n_root: int,
                stats=None, tally=None) -> int:  # fmt: skip
    """The move (index into ``root_moves[:n_root]``) seat ``p`` plays with policy ``mcts``:
    ``prm[MCTS_P.playouts]`` simulations of the shared search from the real position.
    ``stats``, when given: each move's simulations and mean reward (``search.root_stats``);
    ``tally``, when given: [0] += simulations, [1] += turns they played (benchmarks)."""
    if n_root == 1 and stats is None:
        return 0
    win = winning_move(r, root, p, root_moves, n_root)
    if win >= 0 and stats is None:  # a decisive move: no simulation can beat it
        return win
    playouts = int(prm[MCTS_P.playouts])
    rollout = ROLLOUTS[int(prm[MCTS_P.rollout])]
    rprm = ROLLOUT_PRM[int(prm[MCTS_P.rollout])]
    guide = ROLLOUTS[int(prm[MCTS_P.guide])]  # the root's: below it the rollout policy guides
    gprm = ROLLOUT_PRM[int(prm[MCTS_P.guide])]
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    tree = T.new_tree(playouts + 1)
    sim = new_position()
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    scratch = np.zeros_like(moves)
    keys = np.zeros(S.MAX_MOVES, dtype=np.int64)
    root_keys = root_moves[:n_root, S.M_KEY].copy()
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    rec = np.zeros((0, 3), dtype=np.int64)
    rec_n = np.zeros(1, dtype=np.int64)
    rewards = np.zeros(n_players, dtype=np.float64)
    # the root's options and position are the same in every simulation: ask the guide once
    root_guide = decide_move(guide, gprm, r, root.ships, root.owner, root.occ, root.g, p,
                             root_moves, n_root)  # fmt: skip
    for _ in range(playouts):
        copy_into(sim, root)
        T.begin(tree)
        k = T.choose(tree, root_keys, n_root, p, explore, root_guide if T.widening(tree, widen)
                     else -1, widen, bias)  # fmt: skip
        play_move(r, sim.ships, sim.owner, sim.occ, sim.g, p, root_moves[k], cells[0], cells[1],
                  cells[2], rec, rec_n)  # fmt: skip
        end_turn(r, sim.g)
        q, n = p, 0
        while not T.left_tree(tree):
            q, n = next_decision(r, n_players, sim, q, moves, scratch)
            if n == 0:
                break
            for i in range(n):
                keys[i] = moves[i, S.M_KEY]
            best = -1
            if T.widening(tree, widen):  # replies below the root: the rollout policy's, cheap
                best = decide_move(rollout, rprm, r, sim.ships, sim.owner, sim.occ, sim.g, q,
                                   moves, n)  # fmt: skip
            k = T.choose(tree, keys, n, q, explore, best, widen, bias)
            play_move(r, sim.ships, sim.owner, sim.occ, sim.g, q, moves[k], cells[0], cells[1],
                      cells[2], rec, rec_n)  # fmt: skip
            end_turn(r, sim.g)
            n = 0
        winner = playout(r, n_players, rollout, rprm, sim, q, n, moves, scratch, cells, rec,
                         rec_n)  # fmt: skip
        T.backup(tree, T.win_rewards(winner, n_players, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_TURN] - root.g[S.G_TURN]
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return T.most_visited(tree, root_keys, n_root, p)
