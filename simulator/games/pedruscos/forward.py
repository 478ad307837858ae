"""Pedruscos del Espacio's forward model: what the shared search (``simulator.search.tree``) needs.

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
aboard came from harvests: :func:`forget_bookkeeping`), draws its own dice from the search's own
stream, plays the root option, then ``horizon`` rounds with ``opponents`` in the other seats
(or the tree, ``opponents=tree``) and ``rollout`` in its own, and scores every seat with the
fitted evaluation of :mod:`.features` (or the end of the game's result, when it came first).

The self-play hooks of ``simulator.contract.registry.SearchHooks`` are here too: :func:`record`
(features at every turn, for the evaluation's fit), :func:`bank` and :func:`decide` (decisions of
self-play and the choices policies make there, for the agreement benchmark).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.pedruscos import (
    MCTS,
    MCTS_P,
    RANDOM,
    ROLLOUT_PRM,
    ROLLOUTS,
    decide_branch,
    decide_move,
    decide_move_within,
    decide_ship,
    end_scores,
    new_move_scratch,
)
from simulator.contract.seed_bank import new_seed_bank, seed_paired
from simulator.search import tree as T

from . import state as S
from .board import MOON
from .features import FEATURES, features
from .state import State
from .turn import (
    at_station_table,
    end_turn,
    land,
    land_unasked,
    landing_choice,
    next_seat,
    setup,
    start_turn,
    take_off_and_roll,
)

HORIZON_STOP = -2  # play_until's answer when the simulation stopped at its horizon
# The last rounds are played out: once a seat's points and cargo come within this many points of
# the target, the game ends within a round or two, and its exact result beats the evaluation.
FINISH_WITHIN = 5


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
@njit(cache=True, _nrt=False)
def play_until(r, b, pids, prm, st: State, q: int, seat: int, stop: int, scratch) -> int:
    """Play from seat ``q``'s turn (-1: the game is over), every seat with the policies
    ``pids``/``prm`` and nothing recorded, until the game ends (returns the winner, -1: the round
    cap) or ``seat`` is about to play in round ``stop`` (returns :data:`HORIZON_STOP`). The
    engine's turn, in this one function. Every decision is made in ``scratch``
    (``new_move_scratch``: one a search), so nothing below allocates and the whole simulation
    runs without the runtime: no call counts the references of the arrays it is passed."""
    pl, br, g = st.pl, st.br, st.g
    while q >= 0:
        if q == seat and g[S.G_ROUND] >= stop:
            return HORIZON_STOP
        if at_station_table(r, b, pl, q):
            die = start_turn(r, b, pids, prm, st, q)
        else:
            die = take_off_and_roll(b, pl, q)
        if die > 0:
            pos = pl[q, S.P_POS]
            if b.reach_ptr[pos * 7 + die + 1] > b.reach_ptr[pos * 7 + die]:
                score, values, work, next_ptr, classes = scratch
                end = decide_move_within(pids[q], prm[q], q, r, b, pl, br, g, die, score,
                                         values, work, next_ptr, classes)  # fmt: skip
                if not land_unasked(r, b, st, q, end):
                    land(r, b, pids, prm, st, q, end, scratch)
        end_turn(r, st, q)
        q = next_seat(r, st, q)
    return g[S.G_WINNER]


@njit(cache=True, _nrt=False)
def results(r, pl, winner: int, margin: float, out) -> None:
    """Each seat's reward into ``out`` for a simulation that reached the end of the game:
    ``1 - margin`` for the win, plus ``margin`` times its final points margin over the best
    other seat, mapped to 0-1 (0.5 + margin / (2 * target), clipped)."""
    n = pl.shape[0]
    for q in range(n):
        best = -(10**9)
        for o in range(n):
            if o != q and pl[o, S.P_POINTS] > best:
                best = pl[o, S.P_POINTS]
        m = 0.5 + (pl[q, S.P_POINTS] - best) / (2.0 * r.target_points)
        out[q] = (1.0 - margin) * (1.0 if q == winner else 0.0) + margin * min(max(m, 0.0), 1.0)


@njit(cache=True, _nrt=False)
def rewards_of(r, b, prm, st: State, winner: int, seat: int, feats, out) -> None:
    """A simulation's rewards into ``out``: at its horizon (``winner`` is :data:`HORIZON_STOP`,
    ``seat`` about to move) every seat's fitted evaluation; at the end of the game,
    :func:`results`."""
    if winner == HORIZON_STOP:
        features(r, b, st, seat, feats)
        T.evaluate(prm, feats, st.pl.shape[0], out)
    else:
        results(r, st.pl, winner, prm[MCTS_P.margin], out)


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
def guide_act(gid, gprm, r, b, st: State, p, cell) -> int:
    """Policy ``gid``'s answer (1: yes) to the yes-or-no landing on ``cell`` offers."""
    pl, br, g = st.pl, st.br, st.g
    if b.kind[cell] == MOON:
        return 1 if decide_ship(gid, gprm, p, r, b, pl, br, g, r.shipping_cost) else 0
    return 1 if decide_branch(gid, gprm, p, r, b, pl, br, g, b.station[cell]) else 0


@njit(cache=True)
def guide_option(gid, gprm, r, b, st: State, p, die, keys, n) -> int:
    """The option (index into ``keys[:n]``) policy ``gid`` takes: its end square, then its
    answer to the landing's choice."""
    cell = decide_move(gid, gprm, p, r, b, st.pl, st.br, st.g, die)
    key = 2 * cell
    if landing_choice(r, b, st, p, cell):
        key += guide_act(gid, gprm, r, b, st, p, cell)
    for i in range(n):
        if keys[i] == key:
            return i
    return -1


@njit(cache=True)
def option_scores(gid, gprm, r, b, st: State, p, die, keys, n, out) -> None:
    """``out[:n]``: policy ``gid``'s value of each option, the root's ranking: its score of the
    end square (all even for ``random``), one point less for the answer to the landing's
    yes-or-no it would not give."""
    pos = st.pl[p, S.P_POS]
    cells = np.zeros(b.kind.shape[0])
    if gid != RANDOM:
        lo, hi = b.reach_ptr[pos * 7 + die], b.reach_ptr[pos * 7 + die + 1]
        end_scores(gid, gprm, p, r, b, st.pl, st.br, st.g, cells, lo, hi)
    for i in range(n):
        cell = keys[i] // 2
        out[i] = cells[cell]
        if landing_choice(r, b, st, p, cell) and keys[i] % 2 != guide_act(
            gid, gprm, r, b, st, p, cell
        ):
            out[i] -= 1.0


@njit(cache=True)
def simulation_seats(prm, n_players: int, p: int):
    """The policies of a simulation's seats: ``rollout`` for the searching seat ``p`` (and for
    every seat with ``opponents=tree``, once out of the tree), ``opponents`` for the others."""
    ro = int(prm[MCTS_P.rollout])
    opp = int(prm[MCTS_P.opponents])
    ids = np.full(n_players, ROLLOUTS[ro], dtype=np.int64)
    rows = np.zeros((n_players, ROLLOUT_PRM.shape[1]), dtype=np.float64)
    for q in range(n_players):
        k = opp if q != p and opp < ROLLOUTS.shape[0] else ro
        ids[q] = ROLLOUTS[k]
        rows[q, :] = ROLLOUT_PRM[k]
    return ids, rows


@njit(cache=True)
def walk_tree(r, b, prm, tree, sim: State, q: int, p: int, stop: int, keys, rids, rprm, scratch
              ) -> int:  # fmt: skip
    """``opponents=tree``: the seats' moves after the root option, chosen in the tree (the guide
    adds the new nodes) until the simulation leaves it, its horizon comes or the game ends;
    the other decisions are the rollout policy's. Returns the seat to play next (-1: over)."""
    gu = int(prm[MCTS_P.guide])
    gid = ROLLOUTS[gu]
    gprm = ROLLOUT_PRM[gu].copy()  # mutable, as the engine's rows: one compile of the policies
    while q >= 0 and not T.left_tree(tree) and not (q == p and sim.g[S.G_ROUND] >= stop):
        d = start_turn(r, b, rids, rprm, sim, q)
        n = landing_options(r, b, sim, q, d, keys) if d > 0 else 0
        if n > 0:
            best = -1
            if n > 1 and T.widening(tree, prm[MCTS_P.widen]):
                best = guide_option(gid, gprm, r, b, sim, q, d, keys, n)
            k = T.choose(tree, keys, n, q, prm[MCTS_P.explore], best, prm[MCTS_P.widen],
                         prm[MCTS_P.bias])  # fmt: skip
            land(r, b, rids, rprm, sim, q, keys[k] // 2, scratch, None, keys[k] % 2)
        end_turn(r, sim, q)
        q = next_seat(r, sim, q)
    return q


@njit(cache=True)
def search_landing(r, b, prm, root: State, p: int, die: int, stats=None, tally=None) -> int:
    """The option seat ``p`` takes with policy ``mcts`` for the rolled ``die``: its key,
    ``2 * cell + act`` (act 1: ship or open a branch on landing). The guide ranks the options,
    its best ``search.root_width`` enter sequential halving over ``prm[MCTS_P.playouts]``
    simulations from the real position (left as it was), each one the option then ``horizon``
    rounds (0, or a seat near the target: the rest of the game) with ``opponents`` in the other
    seats (or the tree), scored by the fitted evaluation at the horizon; the answer is the best
    mean, or the guide's first option when it is not clearly better (``settle``, :func:`settled`).
    The simulations draw from the search's own stream.
    ``stats``, when given: each option's simulations and mean reward (in the order of
    :func:`landing_options`); ``tally``, when given: [0] += simulations, [1] += rounds they
    played (benchmarks)."""
    n_players = root.pl.shape[0]
    n_cells = b.kind.shape[0]
    root_keys = np.zeros(2 * n_cells, dtype=np.int64)
    n_root = landing_options(r, b, root, p, die, root_keys)
    if n_root == 1 and stats is None:
        return root_keys[0]
    resume = T.own_stream()
    playouts = int(prm[MCTS_P.playouts])
    gu = int(prm[MCTS_P.guide])
    gid = ROLLOUTS[gu]
    gprm = ROLLOUT_PRM[gu].copy()  # mutable, as the engine's rows: one compile of the policies
    horizon = int(prm[MCTS_P.horizon])
    in_tree = int(prm[MCTS_P.opponents]) == ROLLOUTS.shape[0]
    scores = np.zeros(n_root)
    option_scores(gid, gprm, r, b, root, p, die, root_keys, n_root, scores)
    order = np.zeros(n_root, dtype=np.int64)
    T.rank_by_score(scores, n_root, -1, order)  # the guide's choice, up to its random tie-break
    h = T.new_halving(n_root)
    T.start_halving(h, order, T.root_width(n_root, playouts, prm[MCTS_P.widen]), playouts)
    sids, sprm = simulation_seats(prm, n_players, p)
    tree = T.new_tree(playouts + 1 if in_tree else 2)
    sim = S.new_state(n_players, n_cells)
    keys = np.zeros(2 * n_cells, dtype=np.int64)
    feats = np.zeros((n_players, len(FEATURES)))
    rewards = np.zeros(n_players)
    scratch = new_move_scratch(b)
    root_round = root.g[S.G_ROUND]
    stop = root_round + horizon if horizon > 0 and not near_end(r, root) else 1 << 62
    paired = np.random.randint(0, 2**31 - 1 - playouts)
    bank = new_seed_bank(playouts + 1)
    width = h.cursor[T.H_WIDTH]
    slot = np.full(n_root, -1, dtype=np.int64)
    for i in range(width):
        slot[order[i]] = i
    settle = prm[MCTS_P.settle]
    trail = np.zeros((width if settle > 0.0 else 0, playouts // 2 + 2))  # each option's rewards
    k = T.next_arm(h)
    while k >= 0:
        # common random numbers: each option's i-th simulation rolls from the same seed, so the
        # options are compared on the same dice as far as their games run alike
        seed_paired(bank, int(h.counts[k]), paired + int(h.counts[k]))
        q = start_simulation(r, b, sids, sprm, root, sim, p, root_keys[k], scratch)
        if in_tree:
            T.begin(tree)
            T.enter_root(tree, root_keys[k], p)
            q = walk_tree(r, b, prm, tree, sim, q, p, stop, keys, sids, sprm, scratch)
        finish_simulation(r, b, prm, sids, sprm, sim, q, p, stop, scratch, feats, rewards)
        if settle > 0.0 and h.counts[k] < trail.shape[1]:
            trail[slot[k], int(h.counts[k])] = rewards[p]
        T.record_arm(h, k, rewards[p])
        if in_tree:
            T.backup(tree, rewards)
        if tally is not None:
            tally[0] += 1
            tally[1] += sim.g[S.G_ROUND] - root_round
        k = T.next_arm(h)
    if stats is not None:
        T.arm_stats(h, n_root, stats)
    T.back_to_game(resume)
    best = T.best_arm(h)
    if settle > 0.0:
        best = settled(h, order[0], slot, trail, best, settle)
    return root_keys[best]


# A simulation's two halves around the tree's walk (opponents=tree), each one call without the
# runtime: the search's loop then counts no references of the state's, board's and scratch's
# arrays, once a simulation.
@njit(cache=True, _nrt=False)
def start_simulation(r, b, sids, sprm, root: State, sim: State, p: int, key: int, scratch) -> int:
    """A simulation's start: ``root`` copied into ``sim`` (its bookkeeping forgotten), root
    option ``key`` played by seat ``p`` and its turn ended. Returns the seat to play next."""
    S.copy_state(sim, root)
    forget_bookkeeping(sim)
    land(r, b, sids, sprm, sim, p, key // 2, scratch, None, key % 2)
    end_turn(r, sim, p)
    return next_seat(r, sim, p)


@njit(cache=True, _nrt=False)
def finish_simulation(r, b, prm, sids, sprm, sim: State, q, p, stop, scratch, feats, rewards):
    """A simulation's rest: played from seat ``q`` to its horizon or the end
    (:func:`play_until`), every seat's rewards into ``rewards``."""
    winner = play_until(r, b, sids, sprm, sim, q, p, stop, scratch)
    rewards_of(r, b, prm, sim, winner, p, feats, rewards)


@njit(cache=True)
def settled(h, first: int, slot, trail, best: int, settle: float) -> int:
    """The root's answer with ``settle`` > 0: the guide's first-ranked option ``first`` unless
    the halving's ``best`` beats it by more than ``settle`` standard errors of their paired
    results, over the simulations both had (each option's i-th simulation rolls the same dice,
    so the paired difference is far less noisy than either mean). A near tie between good
    options is then answered the same way by every search, rather than by the dice."""
    m = int(min(h.counts[best], h.counts[first], trail.shape[1]))
    if first == best or m < 2:
        return best
    d = trail[slot[best], :m] - trail[slot[first], :m]
    if d.mean() <= settle * d.std() / np.sqrt(m - 1.0):
        return first
    return best


@njit(cache=True, _nrt=False)
def near_end(r, st: State) -> bool:
    """Some seat's points and cargo are within :data:`FINISH_WITHIN` of the target: the last
    rounds, which a simulation plays to the end of the game rather than to its horizon."""
    for s in range(st.pl.shape[0]):
        if st.pl[s, S.P_POINTS] + S.cargo_value(st.pl, st.g, s) >= r.target_points - FINISH_WITHIN:
            return True
    return False


# -- self-play for the evaluation and the benchmarks (simulator.contract.registry.SearchHooks) --
TURNS_KEPT = 400  # turns of one game recorded at most per seat (games run about 30 rounds)
BANK_STRIDE = 9  # a bank keeps every 9th decision of its games: spread over every seat and round


@njit(cache=True)
def self_play(r, b, pids, prm, seed: int, st: State, feats, decisions) -> int:
    """Play one game from ``seed`` with the seats' policies (a searching seat plays its guide),
    as the engine plays it. At the start of every turn the seats' features go into
    ``feats[t]`` (while there is room); at every move with two options or more a copy of the
    game's fields into ``decisions`` (rows of ``pl``, ``br``, ``g`` flattened, the seat, the
    die; while there is room). Returns the turns recorded and the decisions kept, packed as
    ``turns + (decisions << 32)``."""
    S.seed_rng(seed)
    setup(r, st)
    pl, br, g = st.pl, st.br, st.g
    keys = np.zeros(2 * b.kind.shape[0], dtype=np.int64)
    scratch = new_move_scratch(b)
    score, values, work, next_ptr, classes = scratch
    turns = 0
    kept = 0
    q = 0
    g[S.G_ROUND] = 1
    while q >= 0:
        qids, qprm = pids, prm
        if pids[q] == MCTS:
            qids, qprm = guided(pids, prm, q)
        if turns < feats.shape[0]:
            features(r, b, st, q, feats[turns])
        turns += 1
        die = start_turn(r, b, qids, qprm, st, q)
        options = landing_options(r, b, st, q, die, keys) if die > 0 else 0
        if options > 0:
            if kept < decisions.shape[0] and options > 1:
                save_decision(st, q, die, decisions[kept])
                kept += 1
            end = decide_move_within(qids[q], qprm[q], q, r, b, pl, br, g, die, score, values,
                                     work, next_ptr, classes)  # fmt: skip
            land(r, b, qids, qprm, st, q, end, scratch)
        end_turn(r, st, q)
        q = next_seat(r, st, q)
    return min(turns, feats.shape[0]) + (kept << 32)


@njit(cache=True)
def save_decision(st: State, p: int, die: int, out) -> None:
    """The game's fields, the seat to move and its die, flattened into ``out``."""
    i = 0
    for a in (st.pl.ravel(), st.br.ravel(), st.g):
        out[i : i + a.shape[0]] = a
        i += a.shape[0]
    out[i] = p
    out[i + 1] = die


def _inputs(rules, players: int):
    from .board import board_of
    from .rules import engine_rules

    b = board_of(rules).arrays
    return engine_rules(rules), b, S.new_state(players, b.kind.shape[0])


def record(rules, players: int, ids, params, games: int, seed: int):
    """``games`` games of self-play: every turn's features (positions x players x features),
    the game's winner (-1: the round cap) and the game's index, one row a turn."""
    r, b, st = _inputs(rules, players)
    ids = np.asarray(ids, dtype=np.int64)
    params = np.asarray(params, dtype=np.float64)
    buffer = np.zeros((TURNS_KEPT * players, players, len(FEATURES)))
    none = np.zeros((0, 1), dtype=np.int64)
    feats, winner, game = [], [], []
    for i in range(games):
        turns = self_play(r, b, ids, params, seed + i, st, buffer, none) & 0xFFFFFFFF
        feats.append(buffer[:turns].copy())
        winner.append(np.full(turns, st.g[S.G_WINNER], dtype=np.int64))
        game.append(np.full(turns, i, dtype=np.int64))
    return np.concatenate(feats), np.concatenate(winner), np.concatenate(game)


def bank(rules, players: int, ids, params, positions: int, seed: int) -> list:
    """``positions`` decisions of self-play where the seat to move has two options or more:
    every :data:`BANK_STRIDE`-th of the games', in order; each a tuple (state, seat, die)."""
    r, b, st = _inputs(rules, players)
    ids = np.asarray(ids, dtype=np.int64)
    params = np.asarray(params, dtype=np.float64)
    sizes = (st.pl.size, st.br.size, st.g.size)
    rows = np.zeros((TURNS_KEPT * players, sum(sizes) + 2), dtype=np.int64)
    no_feats = np.zeros((0, players, len(FEATURES)))
    out: list = []
    seen = 0
    i = 0
    while len(out) < positions:
        kept = self_play(r, b, ids, params, seed + i, st, no_feats, rows) >> 32
        for row in rows[:kept]:
            if seen % BANK_STRIDE == 0 and len(out) < positions:
                pos = S.new_state(players, b.kind.shape[0])
                pl_end, br_end = sizes[0], sizes[0] + sizes[1]
                pos.pl[:] = row[:pl_end].reshape(pos.pl.shape)
                pos.br[:] = row[pl_end:br_end].reshape(pos.br.shape)
                pos.g[:] = row[br_end : br_end + sizes[2]]
                out.append((pos, int(row[-2]), int(row[-1])))
            seen += 1
        i += 1
    return out


@njit(cache=True)
def decide_at(r, b, pid, row, st: State, p, die, seed):
    """The option (index of :func:`landing_options`) policy ``pid`` takes, seeded by ``seed``."""
    S.seed_rng(seed)
    keys = np.zeros(2 * b.kind.shape[0], dtype=np.int64)
    n = landing_options(r, b, st, p, die, keys)
    if pid != MCTS:
        return guide_option(pid, row, r, b, st, p, die, keys, n)
    key = search_landing(r, b, row, st, p, die)
    for i in range(n):
        if keys[i] == key:
            return i
    return -1


def decide(rules, decision, policy_id: int, row, seed: int) -> int:
    """The option policy ``policy_id`` (parameters ``row``) takes at a :func:`bank` decision;
    the position is left as it was."""
    pos, p, die = decision
    r, b, _ = _inputs(rules, pos.pl.shape[0])
    row = np.asarray(row, dtype=np.float64)
    return int(decide_at(r, b, np.int64(policy_id), row, pos, np.int64(p), np.int64(die), seed))
