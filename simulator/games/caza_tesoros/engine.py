"""The compiled Caza-Tesoros game loop (rules: docs/rules/caza-tesoros.md).

One call of :func:`play_games` plays a whole chunk (recording its events ``EV_*`` when given a
buffer: ``balance replay``, docs/rules/caza-tesoros.md). The rules are the compiled steps of
:mod:`.turn` (re-exported here: tests drive a single rule on a hand-made position), played on
the game's :class:`~.state.State`; the search's simulations (:mod:`.forward`) play them too.
:func:`play_one` plays one game from its seed and returns the final state and the trace of
events.

Decisions go to ``policies.caza_tesoros`` (static dispatch on the seat's policy id); a seat
playing ``mcts`` has its ships' actions searched (:func:`.forward.search_ship`) and its other
decisions made by its guide policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from policies.caza_tesoros import MCTS, decide_ship
from simulator.contract.policy import OUTSIDE
from simulator.contract.recording import no_recording, play_recorded
from simulator.folders.run_folder import events_column
from simulator.search.tree import tally_for

from . import state as S
from .board import CELLS
from .forward import delegated, search_ship
from .odds import CHOICES, odds_table, worth_table
from .outside import X_SHIP
from .turn import (  # noqa: F401 (re-exported: tests and the replay read the rules from here)
    DAY_OVER,
    EV_AUCTION,
    EV_BID,
    EV_BUY,
    EV_CARD,
    EV_DEVIATE,
    EV_DRAW,
    EV_ELIMINATED,
    EV_END,
    EV_FORCED_SALE,
    EV_ITEM_LOST,
    EV_LEVEL2_FAIL,
    EV_MAINTENANCE,
    EV_MOVE,
    EV_PURCHASE,
    EV_RETIRE,
    EV_SEARCH,
    EV_SEARCHED,
    EV_SHIP,
    EV_THROW,
    EV_TREASURE,
    EV_WEATHER,
    EVENT_NAMES,
    EVENT_WIDTH,
    GAME_OVER,
    PURCHASES_DUE,
    WEEK_STARTS,
    act,
    check_end,
    decide_winner,
    deviate,
    deviation_roll,
    end_turn,
    give_item,
    log_event,
    next_turn,
    pay_maintenance,
    resolve_auction,
    search,
    seed_rng,
    setup_game,
    ship_turn,
    trading,
    vp_leader,
    walk_days,
    weekly_draw,
)

TRACE_FIELDS = ("day", "event", "player", "ship", "a", "b", "c")  # play_one's trace (colours)


@njit(cache=True)
def play_game(r, t: S.Tables, pids, prm, seed, st: S.State, log, lead, checking, ext=None,
              searching=None) -> tuple[int, int, int]:  # fmt: skip
    """Play one game from ``seed`` on the given state.

    Returns (winner, lead_changes, half_leader); length and end reason are in ``st.g``.
    ``lead[d]`` receives the VP leader at the end of day ``d`` (``lead[0]``: at the start).
    ``searching``: None unless a seat plays ``mcts`` (compiled without the search then), else
    the search's tally (``forward.search_ship``).
    """
    pl, sh, cr, g, at = st.pl, st.sh, st.cr, st.g, st.at
    odds, tmean = t.odds, t.tmean
    # policies from a --policy-file draw from numba's generator, and the search takes its own
    # stream's seed from it (simulator.search.tree.own_stream): seeded per game
    if ext is not None or searching is not None:
        np.random.seed(seed)
    S.seed_rng(g, seed)
    setup_game(r, t, st, log)
    dpids, dprm = delegated(pids, prm)  # an mcts seat's bids, buys and purchases: its guide's
    dirs = np.zeros(64, dtype=np.int64)
    lead[0] = vp_leader(r, pl)
    last_leader = lead[0]
    changes = 0
    while True:
        p = walk_days(r, t, st, log, True)
        if p == WEEK_STARTS or p == PURCHASES_DUE:
            trading(r, t, dpids, dprm, st, log, checking, p, ext)
            continue
        if p == DAY_OVER or p == GAME_OVER:  # the day's leader (the last day's at the end)
            leader = vp_leader(r, pl)
            lead[g[S.G_DAY]] = leader
            if leader >= 0:
                if last_leader >= 0 and leader != last_leader:
                    changes += 1
                last_leader = leader
            if p == GAME_OVER:
                break
            continue
        s = at[1]
        if ext is not None and pids[p] >= OUTSIDE:
            action = ext[X_SHIP][pids[p] - OUTSIDE](prm[p], p, s, r, odds, tmean, pl, sh, cr, g)
        elif searching is not None and pids[p] == MCTS:
            action = search_ship(r, t, prm[p], st, p, None, searching)
        else:
            action = decide_ship(dpids[p], dprm[p], p, s, r, odds, tmean, pl, sh, cr, g)
        act(r, t, st, log, p, s, action, dirs)
        end_turn(r, st, log, checking)
    winner = decide_winner(r, pl, sh, g[S.G_DAY])
    log_event(log, g, EV_END, winner, -1, g[S.G_END_REASON], winner, 0)
    if log.shape[0] > 0:  # events name the colour's player (column 3 keeps the colour)
        for e in range(min(g[S.G_LOG_N], log.shape[0])):
            if log[e, 2] >= 0:
                log[e, 2] = S.player_of(r, pl, log[e, 2])
    return winner, changes, lead[g[S.G_DAY] // 2]


@njit(cache=True)
def play_games(r, t: S.Tables, n_players, pids, prm, seeds, rec, rec_n, ext=None, searching=None):
    """Play every game of a chunk; one row of every output per game. ``rec``/``rec_n`` record
    the events of a one-game chunk (a zero-row buffer: no recording)."""
    n = seeds.shape[0]
    winner = np.full(n, -1, dtype=np.int64)
    length = np.zeros(n, dtype=np.int64)
    reason = np.zeros(n, dtype=np.int64)
    scores = np.zeros((n, n_players), dtype=np.int64)
    lead_changes = np.zeros(n, dtype=np.int64)
    half_leader = np.full(n, -1, dtype=np.int64)
    treasures = np.zeros((n, n_players), dtype=np.int64)
    ships = np.zeros((n, n_players), dtype=np.int64)
    seat_searches = np.zeros((n, n_players), dtype=np.int64)
    items = np.zeros((n, n_players), dtype=np.int64)
    searches = np.zeros(n, dtype=np.int64)
    level2 = np.zeros(n, dtype=np.int64)
    archive = np.zeros(n, dtype=np.int64)
    auctions = np.zeros(n, dtype=np.int64)
    forced = np.zeros(n, dtype=np.int64)
    retired = np.zeros(n, dtype=np.int64)
    k = r[S.R.colours_per_player]
    n_colours = n_players * k
    st = S.new_state(n_colours, cross_slots(r, n_colours), CELLS)
    pl, g, hits = st.pl, st.g, st.hits
    pids, prm = colour_policies(pids, prm, k)
    log = rec
    lead = np.zeros(r[S.R.max_days] + 1, dtype=np.int64)
    # Cells of every search and every find, game after game (events_column splits them).
    search_cells = np.zeros(max(n, 16), dtype=np.int64)
    find_cells = np.zeros(max(n, 16), dtype=np.int64)
    n_search = np.zeros(n, dtype=np.int64)
    n_find = np.zeros(n, dtype=np.int64)
    used_search = 0
    used_find = 0
    for i in range(n):
        w, changes, half = play_game(
            r, t, pids, prm, seeds[i], st, log, lead, False, ext, searching
        )
        if rec.shape[0] > 0:
            rec_n[0] = g[S.G_LOG_N]
        search_cells, used_search, n_search[i] = _append_cells(search_cells, used_search, hits[0])
        find_cells, used_find, n_find[i] = _append_cells(find_cells, used_find, hits[1])
        winner[i] = w
        length[i] = g[S.G_DAY]
        reason[i] = g[S.G_END_REASON]
        lead_changes[i] = changes
        half_leader[i] = half
        for p in range(n_players):
            scores[i, p] = S.player_sum(r, pl, p, S.P_VP)
            treasures[i, p] = S.player_sum(r, pl, p, S.P_TREASURES)
            ships[i, p] = S.player_sum(r, pl, p, S.P_SHIPS)
            seat_searches[i, p] = S.player_sum(r, pl, p, S.P_SEARCHES)
            items[i, p] = S.player_sum(r, pl, p, S.P_ITEMS)
            retired[i] += S.player_sum(r, pl, p, S.P_RETIRED)
        searches[i] = g[S.G_SEARCHES]
        level2[i] = g[S.G_LEVEL2_SEARCHES]
        archive[i] = g[S.G_ARCHIVE_CROSSES]
        auctions[i] = g[S.G_AUCTIONS]
        forced[i] = g[S.G_FORCED_SALES]
    return (
        winner, length, reason, scores, lead_changes, half_leader, treasures, ships, searches,
        level2, archive, auctions, forced, retired, seat_searches, items,
        search_cells[:used_search], n_search,
        find_cells[:used_find], n_find,
    )  # fmt: skip


@njit(cache=True)
def _append_cells(buf, used, counts):
    """Append each cell ``counts[cell]`` times to ``buf`` (grown by doubling)."""
    total = counts.sum()
    if used + total > buf.shape[0]:
        bigger = np.zeros(max(2 * buf.shape[0], used + total), dtype=np.int64)
        bigger[:used] = buf[:used]
        buf = bigger
    for cell in range(counts.shape[0]):
        for _ in range(counts[cell]):
            buf[used] = cell
            used += 1
    return buf, used, total


@njit(cache=True)
def cross_slots(r, n_colours) -> int:
    """Own crosses (cards held by each colour) plus the Archive crosses that end the game."""
    return n_colours * r[S.R.max_archive_cards] + r[S.R.archive_crosses_to_end]


@njit(cache=True)
def colour_policies(pids, prm, k):
    """Each colour plays its player's policy: colour ``c`` belongs to player ``c % players``."""
    n = pids.shape[0]
    out_ids = np.empty(n * k, dtype=np.int64)
    out_prm = np.empty((n * k, prm.shape[1]), dtype=np.float64)
    for c in range(n * k):
        out_ids[c] = pids[c % n]
        out_prm[c] = prm[c % n]
    return out_ids, out_prm


# -- Python entry points --------------------------------------------------------------------------
COLUMNS = (
    "winner", "length", "end_reason", "scores", "lead_changes", "half_leader", "caza_treasures",
    "caza_ships", "caza_searches", "caza_level2_searches", "caza_archive_crosses", "caza_auctions",
    "caza_forced_sales", "caza_retired_ships", "caza_seat_searches", "caza_items",
)  # fmt: skip


def engine_inputs(rules) -> tuple[np.ndarray, S.Tables]:
    """Everything a compiled game needs from the rules: the rule values ``r`` and the tables
    (search odds, mean treasure ...)."""
    r, tv, wface, wmove, deck0 = rules.engine_arrays()
    extras = (0, rules.robot_dice, rules.scanner_dice, rules.robot_dice + rules.scanner_dice)
    markings = (int(r[S.R.level1_marking]), int(r[S.R.level2_marking]))
    pairs = int(r[S.R.level2_combinations])
    choice = CHOICES[int(r[S.R.marking_choice])]
    odds = odds_table(extras, rules.divers_rerolls, markings, pairs, choice)
    if choice == "optimal":
        worth = worth_table(extras, rules.divers_rerolls, markings, pairs)
    else:
        worth = np.zeros((3, 9, rules.divers_rerolls + 1, 1))
    return r, S.Tables(tv, wface, wmove, deck0, odds, float(np.mean(tv)), worth)


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
    (recording its events into ``rec``/``rec_n`` when given). ``outside``: the compiled functions of
    policies from a --policy-file (``simulator.runs.policy_file.engine_tuples``); None compiles the
    engine without that path. ``tally``: int64[2] the search adds its simulations and the days they
    played to (benchmarks)."""
    if rec is None:
        rec, rec_n = no_recording(EVENT_WIDTH)
    r, t = engine_inputs(rules)
    out = play_games(
        r, t, n_players,
        np.asarray(policy_ids, dtype=np.int64), np.asarray(policy_params, dtype=np.float64),
        np.asarray(seeds, dtype=np.int64), rec, rec_n, outside, tally_for(policy_ids, MCTS, tally),
    )  # fmt: skip
    columns = dict(zip(COLUMNS, out[: len(COLUMNS)], strict=True))
    search_cells, n_search, find_cells, n_find = out[len(COLUMNS) :]
    columns["caza_search_cells"] = events_column(search_cells, n_search)
    columns["caza_find_cells"] = events_column(find_cells, n_find)
    return columns


def play_one(
    rules,
    n_players: int,
    policy_ids,
    policy_params,
    seed: int,
    trace_rows: int = 4096,
    checking: bool = True,
    outside=None,
) -> dict[str, Any]:
    """Play one game from ``seed``: final state arrays, outcome, the recorded events and their
    trace (``TRACE_FIELDS``: day, event, colour, ship, a, b, c).

    With ``checking`` the invariants of :func:`state_problems` are verified after every turn and
    the broken ones collected in ``g[G_PROBLEMS]`` (returned as ``problems``)."""
    r, t = engine_inputs(rules)
    k = int(r[S.R.colours_per_player])
    st = S.new_state(n_players * k, int(cross_slots(r, n_players * k)), CELLS)
    g = st.g
    lead = np.zeros(int(r[S.R.max_days]) + 1, dtype=np.int64)

    def play(rec, rec_n):
        out = play_game(
            r, t,
            *colour_policies(
                np.asarray(policy_ids, dtype=np.int64), np.asarray(policy_params, dtype=np.float64),
                k,
            ),
            np.int64(seed), st, rec, lead, checking, outside, tally_for(policy_ids, MCTS),
        )  # fmt: skip
        rec_n[0] = g[S.G_LOG_N]
        return out

    events, (winner, changes, half) = play_recorded(play, EVENT_WIDTH, trace_rows)
    length = int(g[S.G_DAY])
    return {
        "winner": int(winner),
        "length": length,
        "end_reason": int(g[S.G_END_REASON]),
        "lead_changes": int(changes),
        "half_leader": int(half),
        "leaders": lead[: length + 1].copy(),
        "pl": st.pl,
        "sh": st.sh,
        "cr": st.cr,
        "g": g,
        "trace": events[:, [1, 0, 3, 4, 5, 6, 7]].copy(),  # TRACE_FIELDS
        "events": events,
        "problems": int(g[S.G_PROBLEMS]),
        "hits": st.hits,
    }
