"""Pedruscos del Espacio's recording points (``balance replay``; events in docs/rules/pedruscos.md).

A turn is recorded at three points of the engine's turn (:func:`.engine.roll_turn`,
:func:`.engine.move_and_land`): before it (a snapshot of the miner, its branches and the game),
after the die is rolled (what the station table did, then the roll), and after the move (the
move and what landing did). What a rule changed is read off the state
(cards aboard, points, shipments, branches, the closed station, ore values), so the rules'
functions stay as they are; the harvest leaves its dice and route in ``g`` (``G_HARVEST_*``).
A run passes no buffer (None) and the engine calls none of these helpers: numba prunes the calls,
so a run does not compile them. Each still returns at once on a zero-row buffer. The engine
keeps the snapshot in an int64[SNAPSHOT] array a game. Rows: ``(kind, round, player, a, b, c, d,
e, f, h)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.recording import record

from . import state as S
from .board import N_COLOURS, N_STATIONS
from .rules import EVENT_NAMES, N_EVENTS

HAULER = EVENT_NAMES.index("hauler")
MARKET = EVENT_NAMES.index("stock_market")

# Fields a, b, c, ... per kind:
EV_SETUP = 0  # (-1) ore values red, yellow, blue; cards per deck; points to win
EV_PLACE = 1  # (player) cell: a ship at the start
EV_TABLE = 2  # (player) station table result (rules.EVENT_NAMES), station
EV_ROLL = 3  # (player) die, cells it may end on, from cell
EV_MOVE = 4  # (player) from cell, to cell, die
EV_CARDS = 5  # (player) change in red, yellow, blue; aboard after: red, yellow, blue
EV_HARVEST = 6  # (player) station, dice, route's end station, coordinated, squares, route number
EV_SHIP = 7  # (player) points gained, points after, cards shipped, value, 1 by hauler
EV_BRANCH = 8  # (player) station, points paid, points after
EV_PIRATES = 9  # (player) cards lost
EV_MARKET = 10  # (player) new values red, yellow, blue
EV_CLOSED = 11  # (player) station closed for holidays (the one before reopens)
EV_REPAIRS = 12  # (player) cell the ship is sent to (-1: stays), 1 when repaired on take-off
EV_END = 13  # (winner) end reason, rounds, points of seats 1-6 in fields c..
EVENT_KINDS = (
    "setup", "place", "table", "roll", "move", "cards", "harvest", "ship", "branch", "pirates",
    "market", "closed", "repairs", "end",
)  # fmt: skip
EVENT_WIDTH = 11

# the snapshot: the miner's fields, its branches, the game fields, the stage and the die
_PL = 0
_BR = S.N_PLAYER_FIELDS
_G = _BR + N_STATIONS + 1
_STAGE = _G + S.N_GAME_FIELDS
_DIE = _STAGE + 1
SNAPSHOT = _DIE + 1


@njit(cache=True)
def _take(snap, pl, br, g, p, stage):
    for k in range(S.N_PLAYER_FIELDS):
        snap[_PL + k] = pl[p, k]
    for k in range(N_STATIONS + 1):
        snap[_BR + k] = br[p, k]
    for k in range(S.N_GAME_FIELDS):
        snap[_G + k] = g[k]
    snap[_STAGE] = stage


@njit(cache=True)
def record_setup(rec, rec_n, r, pl, g):
    if rec.shape[0] == 0:
        return
    record(rec, rec_n, EV_SETUP, 0, -1, g[S.G_VALUE], g[S.G_VALUE + 1], g[S.G_VALUE + 2],
           r.deck_size, r.target_points)  # fmt: skip
    for p in range(pl.shape[0]):
        record(rec, rec_n, EV_PLACE, 0, p, pl[p, S.P_POS])


@njit(cache=True)
def before_turn(rec, snap, pl, br, g, p):
    if rec.shape[0] == 0:
        return
    g[S.G_HARVEST_ROLL] = 0
    _take(snap, pl, br, g, p, 0)


@njit(cache=True)
def _changes(rec, rec_n, b, pl, br, g, p, snap):
    """What the state says happened since the snapshot, in the order the rules do it."""
    rnd = g[S.G_ROUND]
    for k in range(N_EVENTS):
        if g[S.G_EVENTS + k] != snap[_G + S.G_EVENTS + k]:
            record(rec, rec_n, EV_TABLE, rnd, p, k, b.station[snap[_PL + S.P_POS]])
    if pl[p, S.P_REPAIR] != snap[_PL + S.P_REPAIR]:
        sent = pl[p, S.P_POS] if pl[p, S.P_POS] != snap[_PL + S.P_POS] else -1
        record(rec, rec_n, EV_REPAIRS, rnd, p, sent, 1 - pl[p, S.P_REPAIR])
    if g[S.G_CLOSED] != snap[_G + S.G_CLOSED]:
        record(rec, rec_n, EV_CLOSED, rnd, p, g[S.G_CLOSED])
    market = False
    for c in range(N_COLOURS):
        market = market or g[S.G_VALUE + c] != snap[_G + S.G_VALUE + c]
    if market or g[S.G_EVENTS + MARKET] != snap[_G + S.G_EVENTS + MARKET]:
        record(rec, rec_n, EV_MARKET, rnd, p, g[S.G_VALUE], g[S.G_VALUE + 1], g[S.G_VALUE + 2])
    if g[S.G_HARVEST_ROLL] > 0:
        i = g[S.G_HARVEST_ROUTE]
        record(rec, rec_n, EV_HARVEST, rnd, p, b.station[pl[p, S.P_POS]], g[S.G_HARVEST_ROLL],
               b.route_end[i], g[S.G_HARVEST_COORD], min(g[S.G_HARVEST_ROLL], b.route_len[i]),
               i - b.route_ptr[b.station[pl[p, S.P_POS]]])  # fmt: skip
        g[S.G_HARVEST_ROLL] = 0
    lost = pl[p, S.P_PIRATE_LOST] - snap[_PL + S.P_PIRATE_LOST]
    if lost > 0:
        record(rec, rec_n, EV_PIRATES, rnd, p, lost)
    shipped = pl[p, S.P_SHIPMENTS] != snap[_PL + S.P_SHIPMENTS]
    if shipped:  # the hold is emptied: first any cards taken before, then the shipment
        before = 0
        for c in range(N_COLOURS):
            before += snap[_PL + S.P_CARDS + c]
        value = pl[p, S.P_SHIPPED_VALUE] - snap[_PL + S.P_SHIPPED_VALUE]
        hauler = 1 if g[S.G_EVENTS + HAULER] != snap[_G + S.G_EVENTS + HAULER] else 0
        record(rec, rec_n, EV_SHIP, rnd, p, pl[p, S.P_POINTS] - snap[_PL + S.P_POINTS],
               pl[p, S.P_POINTS], before, value, hauler)  # fmt: skip
    else:
        moved = False
        for c in range(N_COLOURS):
            moved = moved or pl[p, S.P_CARDS + c] != snap[_PL + S.P_CARDS + c]
        if moved:
            record(rec, rec_n, EV_CARDS, rnd, p,
                   pl[p, S.P_CARDS] - snap[_PL + S.P_CARDS],
                   pl[p, S.P_CARDS + 1] - snap[_PL + S.P_CARDS + 1],
                   pl[p, S.P_CARDS + 2] - snap[_PL + S.P_CARDS + 2],
                   pl[p, S.P_CARDS], pl[p, S.P_CARDS + 1], pl[p, S.P_CARDS + 2])  # fmt: skip
    for s in range(1, N_STATIONS + 1):
        if br[p, s] != snap[_BR + s]:
            record(rec, rec_n, EV_BRANCH, rnd, p, s, snap[_PL + S.P_POINTS] - pl[p, S.P_POINTS],
                   pl[p, S.P_POINTS])  # fmt: skip


@njit(cache=True)
def after_roll(rec, rec_n, b, pl, br, g, p, snap, die, options):
    """The die is rolled: what the station table did, then the roll."""
    if rec.shape[0] == 0:
        return
    _changes(rec, rec_n, b, pl, br, g, p, snap)
    record(rec, rec_n, EV_ROLL, g[S.G_ROUND], p, die, options, pl[p, S.P_POS])
    _take(snap, pl, br, g, p, 1)
    snap[_DIE] = die


@njit(cache=True)
def after_turn(rec, rec_n, b, pl, br, g, p, snap):
    """The move (when the ship rolled and could move) and what landing did."""
    if rec.shape[0] == 0:
        return
    if snap[_STAGE] == 1 and pl[p, S.P_POS] != snap[_PL + S.P_POS]:
        record(rec, rec_n, EV_MOVE, g[S.G_ROUND], p, snap[_PL + S.P_POS], pl[p, S.P_POS],
               snap[_DIE])  # fmt: skip
    _changes(rec, rec_n, b, pl, br, g, p, snap)


@njit(cache=True)
def record_end(rec, rec_n, pl, g):
    if rec.shape[0] == 0:
        return
    pts = np.zeros(6, dtype=np.int64)
    for p in range(min(pl.shape[0], 6)):
        pts[p] = pl[p, S.P_POINTS]
    record(rec, rec_n, EV_END, g[S.G_ROUND], g[S.G_WINNER], g[S.G_END_REASON], g[S.G_ROUND],
           pts[0], pts[1], pts[2], pts[3], pts[4], pts[5])  # fmt: skip
