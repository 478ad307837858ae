"""The compiled Pedruscos del Espacio game loop (rules: docs/rules/pedruscos.md).

One call of :func:`play_games` plays a whole chunk. Each rule is a small compiled function on the
state arrays of :mod:`.state` so tests can drive one rule on a hand-made position
(:func:`take_card`, :func:`harvest`, :func:`land`, :func:`station_event`, :func:`turn`).
:func:`play_one` plays one game from its seed and returns the final state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import record as R
from . import state as S
from .board import ASTEROID, MOON, PLANET, STATION, build_board
from .rules import N_EVENTS, REPAIRS_TELEPORT, ROUTE_BEFORE_ROLL, engine_rules

EV_NOTHING, EV_HAULER, EV_LOST_TURN, EV_PURITY, EV_REPAIRS, EV_PIRATES, EV_MARKET, EV_HOLIDAYS = (
    range(8)
)


# -- cards ----------------------------------------------------------------------------------------
@njit(cache=True)
def take_card(r, b, pids, prm, pl, br, g, p, c, harvest, cell, heat_col, ext=None) -> bool:
    """``p`` takes a card of colour ``c``; a full hold takes it only by discarding one (the
    policy chooses which, or refuses). ``cell`` (-1: none) is where it was collected."""
    if not S.deck_has(r, g, c):
        return False
    if S.cargo(pl, p) >= r.hold_limit:
        d = X.swap(ext, pids[p], prm[p], p, r, b, pl, br, g, c)
        if d < 0 or d >= 3 or pl[p, S.P_CARDS + d] == 0:
            return False
        S.discard_card(r, pl, g, p, d)
    S.draw_card(r, pl, g, p, c, harvest)
    if cell >= 0:
        heat_col[cell] += 1
    return True


@njit(cache=True)
def roll_dice(n) -> int:
    t = 0
    for _ in range(n):
        t += np.random.randint(1, 7)
    return t


@njit(cache=True)
def harvest(r, b, pids, prm, pl, br, g, p, s, heat_col, ext=None) -> int:
    """A harvest at station ``s``: dice, then one card per square along the chosen route, in
    order, never past the next station. Returns the route's row."""
    lo = b.route_ptr[s]
    hi = b.route_ptr[s + 1]
    if hi == lo:
        return -1
    pid = pids[p]
    if r.route_choice == ROUTE_BEFORE_ROLL:
        i = X.route(ext, pid, prm[p], p, r, b, pl, br, g, s, 0, False)
        if i < lo or i >= hi:
            i = lo
        coord = S.coordinates(br, g, p, b.route_end[i])
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
    else:
        coord = False
        for j in range(lo, hi):
            if S.coordinates(br, g, p, b.route_end[j]):
                coord = True
        coord = coord and X.dice(ext, pid, prm[p], p, r, b, pl, br, g, s)
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
        i = X.route(ext, pid, prm[p], p, r, b, pl, br, g, s, roll, coord)
        if i < lo or i >= hi or (coord and not S.coordinates(br, g, p, b.route_end[i])):
            i = -1
            for j in range(lo, hi):
                if i < 0 and (not coord or S.coordinates(br, g, p, b.route_end[j])):
                    i = j
    g[S.G_HARVEST_ROLL] = roll  # for a replay (record.py)
    g[S.G_HARVEST_ROUTE] = i
    g[S.G_HARVEST_COORD] = coord
    n = min(roll, b.route_len[i])
    for j in range(n):
        col = b.route_colour[i, j]
        if col >= 0:  # a counted moon gives nothing
            take_card(r, b, pids, prm, pl, br, g, p, col, True, b.route_cell[i, j], heat_col, ext)
    return i


@njit(cache=True)
def build_branch(r, pl, br, g, p, s):
    pl[p, S.P_POINTS] -= r.branch_cost
    br[p, s] = g[S.G_TURN] + 1
    pl[p, S.P_BRANCHES] += 1


@njit(cache=True)
def land(r, b, pids, prm, pl, br, g, p, cell, heat_col, ext=None):
    """What ending the move on ``cell`` does: collect, ship, harvest or open a branch."""
    pl[p, S.P_POS] = cell
    k = b.kind[cell]
    repair = pl[p, S.P_REPAIR] == 1
    pid = pids[p]
    if k == ASTEROID:
        if not repair:
            take_card(r, b, pids, prm, pl, br, g, p, b.colour[cell], False, cell, heat_col, ext)
    elif k == MOON:
        if (
            not repair
            and S.can_ship(r, pl, g, p, r.shipping_cost)
            and X.ship(ext, pid, prm[p], p, r, b, pl, br, g, r.shipping_cost)
        ):
            S.ship(r, pl, g, p, r.shipping_cost)
    elif k == STATION:
        s = b.station[cell]
        if S.station_open(g, s):
            if S.old_branch(br, g, p, s):
                if not repair:
                    harvest(r, b, pids, prm, pl, br, g, p, s, heat_col, ext)
            elif (
                br[p, s] == 0
                and pl[p, S.P_POINTS] >= r.branch_cost
                and X.branch(ext, pid, prm[p], p, r, b, pl, br, g, s)
            ):
                build_branch(r, pl, br, g, p, s)


@njit(cache=True)
def station_event(r, b, pids, prm, pl, br, g, p, ev, heat_col, ext=None) -> bool:
    """Resolve table result ``ev`` for ``p`` on its station; False when the turn ends here."""
    g[S.G_EVENTS + ev] += 1
    pid = pids[p]
    s = b.station[pl[p, S.P_POS]]
    if ev == EV_HAULER:
        if (
            (pl[p, S.P_REPAIR] == 0 or not r.repairs_block_hauler)
            and S.can_ship(r, pl, g, p, r.hauler_cost)
            and X.ship(ext, pid, prm[p], p, r, b, pl, br, g, r.hauler_cost)
        ):
            S.ship(r, pl, g, p, r.hauler_cost)
    elif ev == EV_LOST_TURN:
        pl[p, S.P_LOST_TURNS] += 1
        return False
    elif ev == EV_PURITY:
        if S.cargo(pl, p) > 0:
            c = X.purity(ext, pid, prm[p], p, r, b, pl, br, g)
            if c < 0 or c >= 3 or pl[p, S.P_CARDS + c] == 0:
                c = S.dearest_held(pl, g, p)
            for _ in range(r.purity_cards):
                take_card(r, b, pids, prm, pl, br, g, p, c, False, -1, heat_col, ext)
    elif ev == EV_REPAIRS:
        pl[p, S.P_REPAIR] = 1
        if r.repairs == REPAIRS_TELEPORT:
            pl[p, S.P_POS] = 0
            return False
    elif ev == EV_PIRATES:
        S.pirates(r, pl, g, p)
    elif ev == EV_MARKET:
        S.roll_values(r, g)
    elif ev == EV_HOLIDAYS:
        S.close_station(g, s)
    return True


@njit(cache=True)
def turn(r, b, pids, prm, pl, br, g, p, heat_end, heat_col, rec, rec_n, snap, ext=None):
    """One miner's turn: the station table if it starts on a station, then the die and the move
    (recorded into ``rec``/``rec_n`` against ``snap`` when recording: record.py)."""
    pos = pl[p, S.P_POS]
    moving = True
    if rec.shape[0] > 0:  # guarded here: a call passes the board's arrays, even when idle
        R.before_turn(rec, snap, pl, br, g, p)
    if b.kind[pos] == STATION and r.station_events:
        moving = station_event(r, b, pids, prm, pl, br, g, p, S.roll_event(r), heat_col, ext)
    if moving:
        if b.kind[pl[p, S.P_POS]] == PLANET and pl[p, S.P_REPAIR] == 1:
            pl[p, S.P_REPAIR] = 0  # it takes off from the planet, repaired
        die = np.random.randint(1, 7)
        pos = pl[p, S.P_POS]
        lo = b.reach_ptr[pos * 7 + die]
        hi = b.reach_ptr[pos * 7 + die + 1]
        if rec.shape[0] > 0:
            R.after_roll(rec, rec_n, b, pl, br, g, p, snap, die, hi - lo)
        if hi > lo:
            end = X.move(ext, pids[p], prm[p], p, r, b, pl, br, g, die)
            ok = False
            for j in range(lo, hi):
                if b.reach[j] == end:
                    ok = True
            if not ok:
                end = b.reach[lo]
            land(r, b, pids, prm, pl, br, g, p, end, heat_col, ext)
    heat_end[pl[p, S.P_POS]] += 1
    if rec.shape[0] > 0:
        R.after_turn(rec, rec_n, b, pl, br, g, p, snap)


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
              ext=None):  # fmt: skip
    """Play one game from ``seed`` (recording it into ``rec``/``rec_n`` when they have rows);
    returns (winner, lead_changes, half_leader)."""
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
            turn(r, b, pids, prm, pl, br, g, p, heat_end, heat_col, rec, rec_n, snap, ext)
            g[S.G_TURN] += 1
            if checking:
                g[S.G_PROBLEMS] |= S.state_problems(r, b, pl, br, g)
            if pl[p, S.P_POINTS] >= r.target_points:
                g[S.G_ENDED] = 1
                g[S.G_END_REASON] = S.END_TARGET
                g[S.G_WINNER] = p
                break
        leader = points_leader(pl)
        lead[rnd] = leader
        if leader >= 0:
            if last >= 0 and leader != last:
                changes += 1
            last = leader
        if g[S.G_ENDED] == 0 and rnd >= r.max_rounds:
            g[S.G_ENDED] = 1
            g[S.G_END_REASON] = S.END_ROUND_CAP
            g[S.G_WINNER] = -1
    R.record_end(rec, rec_n, pl, g)
    return g[S.G_WINNER], changes, lead[rnd // 2]


@njit(cache=True)
def play_games(r, b, n_players, pids, prm, seeds, rec, rec_n, ext=None):
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
            r, b, pids, prm, seeds[i], pl, br, g, heat_end, heat_col, lead, False, rec, rec_n, ext
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
        for k in range(N_EVENTS):
            events[i, k] = g[S.G_EVENTS + k]
        ends[i, :] = heat_end
        collects[i, :] = heat_col
    return (
        winner, length, reason, scores, lead_changes, half_leader, shipments, branches, pirate,
        harvest_pts, lost_turns, events, ends, collects,
    )  # fmt: skip


# -- Python entry points --------------------------------------------------------------------------
COLUMNS = (
    "winner", "length", "end_reason", "scores", "lead_changes", "half_leader",
    "pedruscos_shipments", "pedruscos_branches", "pedruscos_pirate_losses",
    "pedruscos_harvest_points", "pedruscos_lost_turns", "pedruscos_events",
    "pedruscos_turn_ends_by_cell", "pedruscos_collects_by_cell",
)  # fmt: skip


def engine_inputs(rules) -> tuple:
    """The rules as compiled code reads them, and the board they call for."""
    return engine_rules(rules), build_board(*rules.board_key()).arrays


def play_chunk(
    rules, n_players: int, policy_ids, policy_params, seeds, rec=None, rec_n=None, outside=None
) -> dict[str, np.ndarray]:
    """The engine contract of ``simulator.games``: play one chunk, return its columns
    (recording its events into ``rec``/``rec_n`` when given: ``balance replay``).

    ``outside``: the compiled functions of policies from a --policy-file
    (``simulator.policy_file.engine_tuples``); None compiles the engine without that path."""
    r, b = engine_inputs(rules)
    if rec is None:
        rec, rec_n = R.no_recording(R.EVENT_WIDTH)
    out = play_games(
        r, b, np.int64(n_players), np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.asarray(seeds, dtype=np.int64), rec,
        rec_n, outside,
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
        heat_col, lead, checking, *R.no_recording(R.EVENT_WIDTH),
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
