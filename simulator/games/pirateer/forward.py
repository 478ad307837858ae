"""Pirateer's forward model: what the shared search (``simulator.search.tree``) needs to look ahead.

The position travels as one value, :class:`.state.State`. The search decides the turn's one
decision, the move of the roll; everything else in a turn is dice. Nothing is hidden in Pirateer:
the future dice are the only unknown, and each simulation draws its own from the search's own
stream (``search.own_stream``), so the real game's dice do not depend on the budget.

The root: the guide ranks the legal moves by its own evaluation of each (``move_scores``), the
best ``search.root_width`` enter a sequential halving, and the answer is the best mean. A
simulation plays the root move, then ``horizon`` rounds (a round: every seat with ships plays
once, the searching seat last; 0: to the end) in which the searching seat plays ``rollout`` and
every other seat plays ``opponents`` (or, with ``opponents=tree``, the
seats choose in the old max-n tree below the root, keyed by the position a move leads to,
``state.pack_position``, then play ``rollout``); a game not ended by then is scored by the fitted
evaluation of :mod:`.features`. The simulations play the engine's own turn (:mod:`.turn`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.pirateer import MCTS, MCTS_P, ROLLOUT_PRM, ROLLOUTS, decide_move, move_scores
from simulator.contract.seed_bank import new_seed_bank, seed_paired
from simulator.search import tree as T

from . import state as S
from .board import N_PICTURE
from .features import FEATURES, features
from .odds_memo import new_odds_memo
from .state import State, copy_state, new_state
from .turn import (
    end_turn,
    legal_moves,
    make_move,
    new_game,
    new_move_scratch,
    play_move,
    unmake_move,
)


@njit(cache=True)
def next_decision(
    r, st: State, p: int, moves, scratch, until: int = -1, dice=None
) -> tuple[int, int]:
    """Seat ``p`` has just finished its turn: play on (rolls without a legal move pass) to the
    next seat with a move to choose. Returns (that seat, its legal moves in ``moves``); (-1, 0)
    once the game is over; (the seat about to roll, 0) once ``until`` turns are played (a
    horizon; -1: none). The dice come from numba's generator, as in the engine; ``dice``, when
    given, keeps the roll."""
    ships, owner, g = st.ships, st.owner, st.g
    n_players = g[S.G_PLAYERS]
    q = p
    while g[S.G_ENDED] == 0:
        q = (q + 1) % n_players
        if S.count_alive(ships, owner, q) == 0:
            continue
        if 0 <= until <= g[S.G_TURN]:
            return q, 0
        d1 = np.random.randint(1, 7)
        d2 = np.random.randint(1, 7)
        n = legal_moves(r, st, q, d1, d2, moves, scratch)
        if n > 0:
            if dice is not None:
                dice[0], dice[1] = d1, d2
            return q, n
        end_turn(r, g)
    return -1, 0


@njit(cache=True)
def simulate(r, pols, st: State, seat: int, p: int, n: int, bufs, until: int, memo=None) -> int:
    """Play on from seat ``p`` choosing among its ``n`` legal moves (n = 0: ``p`` has just
    played) until the game ends or ``until`` turns are played: ``seat`` plays policy
    ``pols[0]`` (parameters ``pols[1]``), every other seat ``pols[2]`` (``pols[3]``). Returns
    the seat about to roll when it stopped at ``until`` (-1 at the end of the game). ``memo``:
    the search's remembered capture odds (:mod:`.odds_memo`), or None."""
    own, own_prm, other, other_prm = pols
    moves, scratch, heat, rec, rec_n = bufs
    ships, owner, occ, g = st
    while True:
        if n > 0:
            if p == seat:
                k = decide_move(own, own_prm, r, ships, owner, occ, g, p, moves, n, True, memo)
            else:
                k = decide_move(other, other_prm, r, ships, owner, occ, g, p, moves, n, True,
                                memo)  # fmt: skip
            play_move(r, st, p, moves[k], heat, rec, rec_n)
            end_turn(r, g)
        p, n = next_decision(r, st, p, moves, scratch, until)
        if n == 0:
            return p


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
def score(r, prm, st: State, next_seat: int, feats, rewards, memo=None) -> None:
    """Every seat's reward of a simulation: the win (1, else 0) once the game has ended, else the
    fitted evaluation of the position (seat ``next_seat`` to roll)."""
    n_players = st.g[S.G_PLAYERS]
    if st.g[S.G_ENDED] == 1 or next_seat < 0:
        T.win_rewards(st.g[S.G_WINNER], n_players, rewards)
    else:
        features(r, st, next_seat, feats, memo)
        T.evaluate(prm, feats, n_players, rewards)


@njit(cache=True)
def search_move(r, prm, root: State, p: int, root_moves, n_root: int, stats=None,
                tally=None) -> int:  # fmt: skip
    """The move (index into ``root_moves[:n_root]``) seat ``p`` plays with policy ``mcts``:
    ``prm[MCTS_P.playouts]`` simulations shared by sequential halving among the guide's
    best-ranked moves. ``stats``, when given: each move's simulations and mean reward
    (``search.arm_stats``); ``tally``, when given: [0] += simulations, [1] += turns they played
    (benchmarks)."""
    if n_root == 1 and stats is None:
        return 0
    win = winning_move(r, root, p, root_moves, n_root)
    if win >= 0 and stats is None:  # a decisive move: no simulation can beat it
        return win
    resume = T.own_stream()
    n_players = root.g[S.G_PLAYERS]
    playouts = int(prm[MCTS_P.playouts])
    rollout = ROLLOUTS[int(prm[MCTS_P.rollout])]
    # mutable rows, as the engine's: a constant's row (readonly) compiles the policies again
    rprm = ROLLOUT_PRM[int(prm[MCTS_P.rollout])].copy()
    explore, widen, bias = prm[MCTS_P.explore], prm[MCTS_P.widen], prm[MCTS_P.bias]
    horizon = int(prm[MCTS_P.horizon])  # rounds: every seat in play, the searching seat last
    seats = 1 + S.opponents_left(root.ships, root.owner, p)
    until = root.g[S.G_TURN] + 1 + horizon * seats if horizon > 0 else -1
    opp = int(prm[MCTS_P.opponents])
    in_tree = opp >= ROLLOUTS.shape[0]  # opponents=tree
    if in_tree:
        pols = (rollout, rprm, rollout, rprm)
    else:
        pols = (rollout, rprm, ROLLOUTS[opp], ROLLOUT_PRM[opp].copy())
    # the root: the guide's ranking, then sequential halving over its best
    gi = int(prm[MCTS_P.guide])
    scores = np.zeros(n_root, dtype=np.float64)
    move_scores(ROLLOUTS[gi], ROLLOUT_PRM[gi].copy(), r, root.ships, root.owner, root.occ,
                root.g, p, root_moves, n_root, scores)  # fmt: skip
    order = np.zeros(n_root, dtype=np.int64)
    T.rank_by_score(scores, n_root, -1, order)
    h = T.new_halving(n_root)
    T.start_halving(h, order, T.root_width(n_root, playouts, widen), playouts)
    tree = T.new_tree(playouts + 1 if in_tree else 2)
    sim = new_state()
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    keys = np.zeros(S.MAX_MOVES, dtype=np.int64)
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    rec_n = np.zeros(1, dtype=np.int64)
    bufs = (moves, new_move_scratch(), (cells[0], cells[1], cells[2]),
            np.zeros((0, 3), dtype=np.int64), rec_n)  # fmt: skip
    heat, rec = bufs[2], bufs[3]
    rewards = np.zeros(n_players, dtype=np.float64)
    feats = np.zeros((n_players, len(FEATURES)), dtype=np.float64)
    dice = np.random.randint(0, 2**30)
    bank = new_seed_bank(playouts + 1)
    memo = new_odds_memo()
    while True:
        k = T.next_arm(h)
        if k < 0:
            break
        # common random numbers: the j-th simulation of every root move rolls the same dice (as
        # long as their games draw alike), so the halving compares moves more than luck
        seed_paired(bank, int(h.counts[k]), dice + int(h.counts[k]))
        copy_state(sim, root)
        play_move(r, sim, p, root_moves[k], heat, rec, rec_n)
        end_turn(r, sim.g)
        q, n, stopped = p, 0, False
        if in_tree:
            T.begin(tree)
            T.enter_root(tree, root_moves[k, S.M_KEY], p)
            while not T.left_tree(tree):
                q, n = next_decision(r, sim, q, moves, bufs[1], until)
                if n == 0:
                    stopped = True
                    break
                for i in range(n):
                    keys[i] = moves[i, S.M_KEY]
                best = -1
                if T.widening(tree, widen):  # replies below the root: the rollout policy's
                    best = decide_move(rollout, rprm, r, sim.ships, sim.owner, sim.occ, sim.g,
                                       q, moves, n, True, memo)  # fmt: skip
                c = T.choose(tree, keys, n, q, explore, best, widen, bias)
                play_move(r, sim, q, moves[c], heat, rec, rec_n)
                end_turn(r, sim.g)
                n = 0
        if not stopped:
            q = simulate(r, pols, sim, p, q, n, bufs, until, memo)
        score(r, prm, sim, q, feats, rewards, memo)
        if in_tree:
            T.backup(tree, rewards)
        T.record_arm(h, k, rewards[p])
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_TURN] - root.g[S.G_TURN]
    if stats is not None:
        T.arm_stats(h, n_root, stats)
    best = T.best_arm(h)
    T.back_to_game(resume)
    return best


# -- self-play for the evaluation's fit and the agreement bank -----------------------------------
@njit(cache=True)
def _self_play(r, n_players: int, seats, seed: int, feats, snaps) -> tuple[int, int]:
    """Play one game of the seats' (policy ids, parameter rows) from ``seed``. Before each
    decision keep every seat's features in ``feats[i]``, or, when the seat has 2+ moves, the
    position and the seat and roll in ``snaps`` = (ships, owner, occ, g, seat-die-die), while
    room is left (a zero-row buffer keeps nothing). Returns (decisions kept, the winner)."""
    pids, prm = seats
    np.random.seed(seed)
    st = new_state()
    new_game(r, n_players, st)
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    scratch = new_move_scratch()
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    heat = (cells[0], cells[1], cells[2])
    rec, rec_n = np.zeros((0, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
    dice = np.zeros(2, dtype=np.int64)
    ships, owner, occ, g = st
    p = (r.first_seat - 2) % n_players  # the engine's first seat rolls first
    taken = 0
    while True:
        p, n = next_decision(r, st, p, moves, scratch, -1, dice)
        if n == 0:
            return taken, g[S.G_WINNER]
        if taken < feats.shape[0]:
            features(r, st, p, feats[taken])
            taken += 1
        if n >= 2 and taken < snaps[0].shape[0]:
            snaps[0][taken] = ships
            snaps[1][taken] = owner
            snaps[2][taken] = occ
            snaps[3][taken] = g
            snaps[4][taken] = (p, dice[0], dice[1])
            taken += 1
        k = decide_move(pids[p], prm[p], r, ships, owner, occ, g, p, moves, n)
        play_move(r, st, p, moves[k], heat, rec, rec_n)
        end_turn(r, g)


def _seats(ids, params) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(ids, dtype=np.int64), np.asarray(params, dtype=np.float64)


def _snaps(rows: int) -> tuple[np.ndarray, ...]:
    st = new_state()
    return (*(np.zeros((rows, a.shape[0]), dtype=np.int64) for a in st),
            np.zeros((rows, 3), dtype=np.int64))  # fmt: skip


MAX_POSITIONS = 100_000  # positions a fit records at most (every decision of every game below)


def record(rules, players: int, ids, params, games: int, seed: int):
    """The ``record`` search hook: every seat's features before every decision of ``games``
    self-play games (seeds ``seed``, ``seed + 1``...), with the game's winner and index."""
    r = rules.to_engine()
    seats = _seats(ids, params)
    buf = np.zeros((r.max_turns + 1, players, len(FEATURES)), dtype=np.float64)
    none = _snaps(0)
    feats, winner, game = [], [], []
    for i in range(games):
        taken, won = _self_play(r, players, seats, seed + i, buf, none)
        feats.append(buf[:taken].copy())
        winner.append(np.full(taken, won, dtype=np.int64))
        game.append(np.full(taken, i, dtype=np.int64))
    out = np.concatenate(feats), np.concatenate(winner), np.concatenate(game)
    if out[0].shape[0] > MAX_POSITIONS:
        keep = np.sort(np.random.default_rng(seed).choice(out[0].shape[0], MAX_POSITIONS, False))
        out = tuple(a[keep] for a in out)
    return out


PER_GAME = 2  # bank decisions taken from one game at most: spread over many games


def bank(rules, players: int, ids, params, positions: int, seed: int) -> list:
    """The ``bank`` search hook: ``positions`` decisions with 2+ legal moves, at most
    ``PER_GAME`` from each self-play game, drawn uniformly from its decisions (so from every
    stage of a game). A decision: (ships, owner, occ, g, seat, die, die)."""
    r = rules.to_engine()
    seats = _seats(ids, params)
    feats = np.zeros((0, players, len(FEATURES)), dtype=np.float64)
    snaps = _snaps(r.max_turns + 1)
    rng = np.random.default_rng(seed)
    out: list = []
    game = 0
    while len(out) < positions:
        taken, _ = _self_play(r, players, seats, seed + game, feats, snaps)
        game += 1
        for i in sorted(rng.choice(taken, min(PER_GAME, taken), replace=False)):
            if len(out) < positions:
                seat, d1, d2 = (int(v) for v in snaps[4][i])
                out.append((*(a[i].copy() for a in snaps[:4]), seat, d1, d2))
    return out


@njit(cache=True)
def _decide(r, st: State, seat_dice, policy_id: int, row, seed: int) -> int:
    p, d1, d2 = seat_dice
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    n = legal_moves(r, st, p, d1, d2, moves, new_move_scratch())
    np.random.seed(seed)
    if policy_id == MCTS:
        return search_move(r, row, st, p, moves, n)
    return decide_move(policy_id, row, r, st.ships, st.owner, st.occ, st.g, p, moves, n)


def decide(rules, decision, policy_id: int, row, seed: int) -> int:
    """The ``decide`` search hook: the move (an index of the decision's legal moves) policy
    ``policy_id`` with parameter row ``row`` plays at a ``bank`` decision, its draws seeded by
    ``seed``."""
    ships, owner, occ, g, seat, d1, d2 = decision
    st = State(ships.copy(), owner.copy(), occ.copy(), g.copy())
    row = np.asarray(row, dtype=np.float64)
    return int(_decide(rules.to_engine(), st, (seat, d1, d2), policy_id, row, seed))
