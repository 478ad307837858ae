"""The compiled Pedruscos del Espacio game loop (rules: docs/rules/pedruscos.md).

One call of :func:`play_games` plays a whole chunk: seeding, set-up, whose turn, asking the
seats' policies (or the search, :func:`.forward.search_landing`), recording, the returned
columns. The rules are the steps of :mod:`.turn`, played on the game's :class:`~.state.State`.
:func:`play_one` plays one game from its seed and returns the final state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from policies.pedruscos import MCTS, MEMO_SLOTS, new_move_scratch
from simulator.search.tree import tally_for

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import record as R
from . import state as S
from .board import board_of
from .forward import guided, search_landing
from .rules import N_EVENTS, engine_rules
from .state import State
from .turn import (
    at_station_table,
    end_round,
    end_turn,
    land,
    land_unasked,
    setup,
    start_turn,
    take_off_and_roll,
)


@njit(cache=True, _nrt=True)
def turn(r, b, pids, prm, st: State, p, rec, rec_n, snap, scratch, ext=None, searching=None):
    """One miner's turn when a seat plays ``mcts`` (``searching``: the search's tally): the
    searching seat's other decisions are its guide policy's, and the search chooses its end
    square and what landing there does. The rest is :func:`quiet_turn`'s. With the runtime
    (the search allocates), though :func:`play_rounds` calls it without: a callee that does not
    say takes its caller's setting."""
    search_prm = prm[p]
    searches = pids[p] == MCTS
    if searches:  # the seat's other decisions are its guide policy's
        pids, prm = guided(pids, prm, p)
    die = roll_turn(r, b, pids, prm, st, p, rec, rec_n, snap, ext)
    key = -1
    pos = st.pl[p, S.P_POS]
    if searches and die > 0 and b.reach_ptr[pos * 7 + die + 1] > b.reach_ptr[pos * 7 + die]:
        key = search_landing(r, b, search_prm, st, p, die, None, searching)
    move_and_land(r, b, pids, prm, st, p, rec, rec_n, snap, scratch, ext, die, key)


@njit(cache=True, _nrt=False, inline="always")
def quiet_turn(r, b, pids, prm, st: State, p, rec, rec_n, snap, scratch, ext=None):
    """One miner's turn without a search: the station table if it starts on a station, then
    the die and the move (recorded into ``rec``/``rec_n`` against ``snap`` when recording:
    record.py; ``rec`` None when not recording, and numba leaves the recording out of the
    compile). ``scratch``: the moves' (``new_move_scratch``, one a chunk). Inlined into
    :func:`play_rounds`, without the runtime: a call would pass the rules, the board, the
    state and the scratch on the stack once a turn, and a call with the runtime would count the
    references of every array it is passed."""
    die = roll_turn(r, b, pids, prm, st, p, rec, rec_n, snap, ext)
    move_and_land(r, b, pids, prm, st, p, rec, rec_n, snap, scratch, ext, die, -1)


@njit(cache=True, inline="always")
def roll_turn(r, b, pids, prm, st: State, p, rec, rec_n, snap, ext) -> int:
    """A turn up to the move: the station table if the ship starts on a station, the die
    (recorded). Returns the die, 0 when the turn ends without a move."""
    pl, br, g = st.pl, st.br, st.g
    if rec is not None:  # a run passes None: pruned before compiling
        R.before_turn(rec, snap, pl, br, g, p)
    if at_station_table(r, b, pl, p):
        die = start_turn(r, b, pids, prm, st, p, ext)
    else:
        die = take_off_and_roll(b, pl, p)
    if rec is not None and die > 0:
        pos = pl[p, S.P_POS]
        options = b.reach_ptr[pos * 7 + die + 1] - b.reach_ptr[pos * 7 + die]
        R.after_roll(rec, rec_n, b, pl, br, g, p, snap, die, options)
    return die


@njit(cache=True, inline="always")
def move_and_land(r, b, pids, prm, st: State, p, rec, rec_n, snap, scratch, ext, die, key):
    """The rest of a turn: the move for ``die`` (0: none) and what landing does. ``key``: the
    search's end square and answer (``2 * cell + act``), -1 for the seat's policy to move."""
    pl = st.pl
    if die > 0:
        pos = pl[p, S.P_POS]
        lo = b.reach_ptr[pos * 7 + die]
        hi = b.reach_ptr[pos * 7 + die + 1]
        if hi > lo:
            act = -1
            if key >= 0:
                end = key // 2
                act = key % 2
            else:
                end = X.move(ext, pids[p], prm[p], p, r, b, st, die, scratch)
                ok = False
                for j in range(lo, hi):
                    if b.reach[j] == end:
                        ok = True
                if not ok:
                    end = b.reach[lo]
            if not land_unasked(r, b, st, p, end):
                land(r, b, pids, prm, st, p, end, scratch, ext, act)
    st.turn_ends[pl[p, S.P_POS]] += 1
    if rec is not None:
        R.after_turn(rec, rec_n, b, pl, st.br, st.g, p, snap)


# -- one game -------------------------------------------------------------------------------------
@njit(cache=True)
def play_game(
    r, b, pids, prm, seed, st: State, checking, rec, rec_n, scratch, ext=None, searching=None
):
    """Play one game from ``seed`` (recording it into ``rec``/``rec_n`` when they are not None);
    returns (winner, lead_changes, half_leader). ``scratch``: the moves' (``new_move_scratch``).
    ``searching``: the search's tally when a seat plays ``mcts``, else None. ``checking``: True
    to collect the broken invariants after every turn (:func:`play_one`), else None. numba
    prunes what a None switch guards, so a run compiles neither the recording nor the check.
    The set-up, the recording's ends and the arrays a game needs are here, with the runtime;
    the rounds are :func:`play_rounds`'s."""
    np.random.seed(seed)
    setup(r, st)
    pl, g = st.pl, st.g
    if rec is not None:
        R.record_setup(rec, rec_n, r, pl, g)
    snap = np.zeros(R.SNAPSHOT if rec is not None else 0, dtype=np.int64)  # a turn's, recording
    lead = np.empty(r.max_rounds + 1, dtype=np.int64)  # the points leader after each round
    lead[0] = -1
    changes, rnd = play_rounds(
        r, b, pids, prm, st, checking, rec, rec_n, snap, lead, scratch, ext, searching
    )
    if rec is not None:
        R.record_end(rec, rec_n, pl, g)
    return g[S.G_WINNER], changes, lead[rnd // 2]


@njit(cache=True, _nrt=False)
def play_rounds(
    r, b, pids, prm, st: State, checking, rec, rec_n, snap, lead, scratch, ext=None, searching=None
):
    """The rounds of one game, turn by turn, until it ends (``lead``: the points leader after
    each round; the other arguments :func:`play_game`'s); returns (lead_changes, rounds).
    Without the runtime, with a turn without a search (:func:`quiet_turn`) inlined."""
    pl, br, g = st.pl, st.br, st.g
    n = pl.shape[0]
    last = -1
    changes = 0
    rnd = 0
    while g[S.G_ENDED] == 0:
        rnd += 1
        g[S.G_ROUND] = rnd
        for p in range(n):
            if searching is None:
                quiet_turn(r, b, pids, prm, st, p, rec, rec_n, snap, scratch, ext)
            else:
                turn(r, b, pids, prm, st, p, rec, rec_n, snap, scratch, ext, searching)
            end_turn(r, st, p)
            if checking is not None and checking:
                g[S.G_PROBLEMS] |= S.state_problems(r, b, pl, br, g)
            if g[S.G_ENDED] == 1:
                break
        leader = S.points_leader(pl)
        lead[rnd] = leader
        if leader >= 0:
            if last >= 0 and leader != last:
                changes += 1
            last = leader
        end_round(r, st)
    return changes, rnd


@njit(cache=True)
def play_games(r, b, n_players, pids, prm, seeds, rec, rec_n, ext=None, searching=None):
    """Play every game of a chunk; one row of every output per game (``rec``/``rec_n``: a
    recording buffer, None when not recording; a replay passes one seed)."""
    n = seeds.shape[0]
    n_cells = b.kind.shape[0]
    winner = np.full(n, -1, dtype=np.int64)
    length = np.zeros(n, dtype=np.int64)
    reason = np.zeros(n, dtype=np.int64)
    scores = np.zeros((n, n_players), dtype=np.int64)
    lead_changes = np.zeros(n, dtype=np.int64)
    half_leader = np.full(n, -1, dtype=np.int64)
    shipments = np.zeros((n, n_players), dtype=np.int64)
    branches = np.zeros((n, n_players), dtype=np.int64)
    pirate = np.zeros((n, n_players), dtype=np.int64)
    harvest_pts = np.zeros((n, n_players), dtype=np.int64)
    lost_turns = np.zeros((n, n_players), dtype=np.int64)
    harvests = np.zeros((n, n_players), dtype=np.int64)
    via_planet = np.zeros((n, n_players), dtype=np.int64)
    events = np.zeros((n, N_EVENTS), dtype=np.int64)
    ends = np.zeros((n, n_cells), dtype=np.int64)
    collects = np.zeros((n, n_cells), dtype=np.int64)
    st = S.new_state(n_players, n_cells)
    pl, g = st.pl, st.g
    scratch = new_move_scratch(b, True, MEMO_SLOTS)  # the moves' scratch, once a chunk
    for i in range(n):
        w, changes, half = play_game(
            r, b, pids, prm, seeds[i], st, None, rec, rec_n, scratch, ext, searching
        )
        winner[i] = w
        length[i] = g[S.G_ROUND]
        reason[i] = g[S.G_END_REASON]
        lead_changes[i] = changes
        half_leader[i] = half
        for p in range(n_players):
            scores[i, p] = pl[p, S.P_POINTS]
            shipments[i, p] = pl[p, S.P_SHIPMENTS]
            branches[i, p] = pl[p, S.P_BRANCHES]
            pirate[i, p] = pl[p, S.P_PIRATE_LOST]
            harvest_pts[i, p] = pl[p, S.P_HARVEST_POINTS]
            lost_turns[i, p] = pl[p, S.P_LOST_TURNS]
            harvests[i, p] = pl[p, S.P_HARVESTS]
            via_planet[i, p] = pl[p, S.P_HARVESTS_PLANET]
        for k in range(N_EVENTS):
            events[i, k] = g[S.G_EVENTS + k]
        for c in range(n_cells):  # a loop: an array assignment compiles its shape error's text
            ends[i, c] = st.turn_ends[c]
            collects[i, c] = st.collects[c]
    return (
        winner, length, reason, scores, lead_changes, half_leader, shipments, branches, pirate,
        harvest_pts, lost_turns, harvests, via_planet, events, ends, collects,
    )  # fmt: skip


# -- Python entry points --------------------------------------------------------------------------
COLUMNS = (
    "winner", "length", "end_reason", "scores", "lead_changes", "half_leader",
    "pedruscos_shipments", "pedruscos_branches", "pedruscos_pirate_losses",
    "pedruscos_harvest_points", "pedruscos_lost_turns", "pedruscos_harvests",
    "pedruscos_harvests_via_planet", "pedruscos_events",
    "pedruscos_turn_ends_by_cell", "pedruscos_collects_by_cell",
)  # fmt: skip


def engine_inputs(rules) -> tuple:
    """The rules as compiled code reads them, and the board they call for."""
    return engine_rules(rules), board_of(rules).arrays


def play_chunk(
    rules,
    n_players: int,
    policy_ids,
    policy_params,
    seeds,
    rec=None,
    rec_n=None,
    outside=None,
    tally=None,
) -> dict[str, np.ndarray]:
    """The engine contract of ``simulator.contract.registry``: play one chunk, return its columns
    (recording its events into ``rec``/``rec_n`` when given: ``balance replay``).

    ``outside``: the compiled functions of policies from a --policy-file
    (``simulator.runs.policy_file.engine_tuples``); None compiles the engine without that path.
    ``tally``: int64[2] the search adds its simulations and the rounds they played to
    (benchmarks)."""
    r, b = engine_inputs(rules)
    out = play_games(
        r, b, np.int64(n_players), np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.asarray(seeds, dtype=np.int64), rec,
        rec_n, outside, tally_for(policy_ids, MCTS, tally),
    )  # fmt: skip
    return dict(zip(COLUMNS, out, strict=True))


def play_one(rules, n_players: int, policy_ids, policy_params, seed: int, checking: bool = True):
    """Play one game from ``seed``: the final state arrays and the outcome.

    With ``checking`` the invariants of :func:`state.state_problems` are verified after every
    turn and the broken ones collected in ``problems`` (without it, the check is not even
    compiled)."""
    r, b = engine_inputs(rules)
    st = S.new_state(n_players, b.kind.shape[0])
    winner, changes, half = play_game(
        r, b, np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.int64(seed), st,
        True if checking else None, None, None, new_move_scratch(b), None,
        tally_for(policy_ids, MCTS),
    )  # fmt: skip
    g = st.g
    out: dict[str, Any] = {
        "winner": int(winner),
        "length": int(g[S.G_ROUND]),
        "end_reason": int(g[S.G_END_REASON]),
        "lead_changes": int(changes),
        "half_leader": int(half),
        "pl": st.pl,
        "br": st.br,
        "g": g,
        "turn_ends": st.turn_ends,
        "collects": st.collects,
        "problems": int(g[S.G_PROBLEMS]),
    }
    return out
