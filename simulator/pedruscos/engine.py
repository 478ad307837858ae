"""The compiled Pedruscos del Espacio game loop (rules: docs/rules/pedruscos.md).

One call of :func:`play_games` plays a whole chunk. Each rule is a small compiled function on the
state arrays of :mod:`.state` so tests can drive one rule on a hand-made position
(:func:`take_card`, :func:`harvest`, :func:`land`, :func:`station_event`, :func:`turn`); the rules
of a turn live in :mod:`.forward`, where the search's simulations play them too.
:func:`play_one` plays one game from its seed and returns the final state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from policies.pedruscos import MCTS
from simulator.search import tally_for

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import record as R
from . import state as S
from .board import board_of
from .forward import (  # the rules of a turn; tests drive them by these names too
    EV_HAULER,  # noqa: F401
    EV_HOLIDAYS,  # noqa: F401
    EV_LOST_TURN,  # noqa: F401
    EV_MARKET,  # noqa: F401
    EV_NOTHING,  # noqa: F401
    EV_PIRATES,  # noqa: F401
    EV_PURITY,  # noqa: F401
    EV_REPAIRS,  # noqa: F401
    Position,
    end_round,
    end_turn,
    guided,
    harvest,  # noqa: F401
    land,
    search_landing,
    start_turn,
    station_event,  # noqa: F401
    take_card,  # noqa: F401
)
from .rules import N_EVENTS, engine_rules


@njit(cache=True)
def turn(r, b, pids, prm, pl, br, g, p, heat_end, heat_col, rec, rec_n, snap, ext=None,
         searching=None):  # fmt: skip
    """One miner's turn: the station table if it starts on a station, then the die and the move
    (recorded into ``rec``/``rec_n`` against ``snap`` when recording: record.py). ``searching``:
    None unless a seat plays ``mcts`` (compiled without the search then), else the search's
    tally; a searching seat's other decisions are its guide policy's."""
    if rec.shape[0] > 0:  # guarded here: a call passes the board's arrays, even when idle
        R.before_turn(rec, snap, pl, br, g, p)
    if searching is not None and pids[p] == MCTS:
        gids, gprm = guided(pids, prm, p)
        _play_turn(r, b, gids, gprm, pl, br, g, p, heat_col, rec, rec_n, snap, ext, prm[p],
                   searching)  # fmt: skip
    else:
        _play_turn(r, b, pids, prm, pl, br, g, p, heat_col, rec, rec_n, snap, ext)
    heat_end[pl[p, S.P_POS]] += 1
    if rec.shape[0] > 0:
        R.after_turn(rec, rec_n, b, pl, br, g, p, snap)


@njit(cache=True)
def _play_turn(r, b, pids, prm, pl, br, g, p, heat_col, rec, rec_n, snap, ext=None,
               search_prm=None, searching=None):  # fmt: skip
    die = start_turn(r, b, pids, prm, pl, br, g, p, heat_col, ext)
    if die == 0:
        return
    pos = pl[p, S.P_POS]
    lo = b.reach_ptr[pos * 7 + die]
    hi = b.reach_ptr[pos * 7 + die + 1]
    if rec.shape[0] > 0:
        R.after_roll(rec, rec_n, b, pl, br, g, p, snap, die, hi - lo)
    if hi == lo:
        return
    act = -1
    if searching is not None:
        key = search_landing(r, b, pl.shape[0], search_prm, Position(pl, br, g), p, die, None,
                             searching)  # fmt: skip
        end = key // 2
        act = key % 2
    else:
        end = X.move(ext, pids[p], prm[p], p, r, b, pl, br, g, die)
        ok = False
        for j in range(lo, hi):
            if b.reach[j] == end:
                ok = True
        if not ok:
            end = b.reach[lo]
    land(r, b, pids, prm, pl, br, g, p, end, heat_col, ext, act)


# -- one game -------------------------------------------------------------------------------------
@njit(cache=True)
def points_leader(pl) -> int:
    best = -1
    tied = False
    for p in range(pl.shape[0]):
        if best < 0 or pl[p, S.P_POINTS] > pl[best, S.P_POINTS]:
            best = p
            tied = False
        elif pl[p, S.P_POINTS] == pl[best, S.P_POINTS]:
            tied = True
    return -1 if tied else best


@njit(cache=True)
def setup(r, pl, br, g, heat_end, heat_col):
    pl[:] = 0
    br[:] = 0
    g[:] = 0
    heat_end[:] = 0
    heat_col[:] = 0
    for c in range(3):
        g[S.G_DECK + c] = r.deck_size
    S.roll_values(r, g)  # before anyone takes off


@njit(cache=True)
def play_game(r, b, pids, prm, seed, pl, br, g, heat_end, heat_col, lead, checking, rec, rec_n,
              ext=None, searching=None):  # fmt: skip
    """Play one game from ``seed`` (recording it into ``rec``/``rec_n`` when they have rows);
    returns (winner, lead_changes, half_leader). ``searching``: the search's tally when a seat
    plays ``mcts``, else None."""
    np.random.seed(seed)
    setup(r, pl, br, g, heat_end, heat_col)
    R.record_setup(rec, rec_n, r, pl, g)
    snap = R.snapshot_buffer(rec)
    n = pl.shape[0]
    lead[0] = -1
    last = -1
    changes = 0
    rnd = 0
    while g[S.G_ENDED] == 0:
        rnd += 1
        g[S.G_ROUND] = rnd
        for p in range(n):
            turn(r, b, pids, prm, pl, br, g, p, heat_end, heat_col, rec, rec_n, snap, ext,
                 searching)  # fmt: skip
            end_turn(r, pl, g, p)
            if checking:
                g[S.G_PROBLEMS] |= S.state_problems(r, b, pl, br, g)
            if g[S.G_ENDED] == 1:
                break
        leader = points_leader(pl)
        lead[rnd] = leader
        if leader >= 0:
            if last >= 0 and leader != last:
                changes += 1
            last = leader
        end_round(r, g)
    R.record_end(rec, rec_n, pl, g)
    return g[S.G_WINNER], changes, lead[rnd // 2]


@njit(cache=True)
def play_games(r, b, n_players, pids, prm, seeds, rec, rec_n, ext=None, searching=None):
    """Play every game of a chunk; one row of every output per game (``rec``/``rec_n``: a
    recording buffer, zero rows when not recording; a replay passes one seed)."""
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
    pl = np.zeros((n_players, S.N_PLAYER_FIELDS), dtype=np.int64)
    br = np.zeros((n_players, 7), dtype=np.int64)
    g = np.zeros(S.N_GAME_FIELDS, dtype=np.int64)
    heat_end = np.zeros(n_cells, dtype=np.int64)
    heat_col = np.zeros(n_cells, dtype=np.int64)
    lead = np.zeros(r.max_rounds + 1, dtype=np.int64)
    for i in range(n):
        w, changes, half = play_game(
            r, b, pids, prm, seeds[i], pl, br, g, heat_end, heat_col, lead, False, rec, rec_n, ext,
            searching,
        )  # fmt: skip
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
        ends[i, :] = heat_end
        collects[i, :] = heat_col
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
    """The engine contract of ``simulator.games``: play one chunk, return its columns
    (recording its events into ``rec``/``rec_n`` when given: ``balance replay``).

    ``outside``: the compiled functions of policies from a --policy-file
    (``simulator.policy_file.engine_tuples``); None compiles the engine without that path.
    ``tally``: int64[2] the search adds its simulations and the rounds they played to
    (benchmarks)."""
    r, b = engine_inputs(rules)
    if rec is None:
        rec, rec_n = R.no_recording(R.EVENT_WIDTH)
    out = play_games(
        r, b, np.int64(n_players), np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.asarray(seeds, dtype=np.int64), rec,
        rec_n, outside, tally_for(policy_ids, MCTS, tally),
    )  # fmt: skip
    return dict(zip(COLUMNS, out, strict=True))


def play_one(rules, n_players: int, policy_ids, policy_params, seed: int, checking: bool = True):
    """Play one game from ``seed``: the final state arrays and the outcome.

    With ``checking`` the invariants of :func:`state.state_problems` are verified after every
    turn and the broken ones collected in ``problems``."""
    r, b = engine_inputs(rules)
    pl, br, g, heat_end, heat_col = S.new_state(n_players, b.kind.shape[0])
    lead = np.zeros(int(rules.max_rounds) + 1, dtype=np.int64)
    winner, changes, half = play_game(
        r, b, np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.int64(seed), pl, br, g, heat_end,
        heat_col, lead, checking, *R.no_recording(R.EVENT_WIDTH), None, tally_for(policy_ids, MCTS),
    )  # fmt: skip
    out: dict[str, Any] = {
        "winner": int(winner),
        "length": int(g[S.G_ROUND]),
        "end_reason": int(g[S.G_END_REASON]),
        "lead_changes": int(changes),
        "half_leader": int(half),
        "pl": pl,
        "br": br,
        "g": g,
        "turn_ends": heat_end,
        "collects": heat_col,
        "problems": int(g[S.G_PROBLEMS]),
    }
    return out
