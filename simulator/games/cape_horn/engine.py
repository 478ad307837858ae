"""The compiled Cape Horn game loop (rules: docs/rules/cape-horn.md).

One call of :func:`play_games` plays a whole chunk. A turn is ``forward.play_turn``: sail point,
cards laid (``decide_place``), the move (``decide_move``), the draw and purchases
(``decide_buy``); every answer of a policy is checked again by the rules of :mod:`.turn`, and
an illegal one is skipped (a card) or replaced by the special move 'no move'. A seat playing
``mcts`` plays ``forward.searched_turn`` instead. :func:`play_one` plays one game from its seed
and returns the final state. Given a recording buffer, :func:`play_games` records the events
``EV_*`` (:mod:`.turn`) of its game (``balance replay``, docs/rules/cape-horn.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from policies.cape_horn import MCTS
from simulator.contract.recording import no_recording, record
from simulator.search.tree import tally_for

from . import board as BD
from . import state as S
from .forward import play_turn, searched_turn
from .outside import new_turn_scratch
from .rules import engine_rules
from .state import State, new_state
from .turn import DRAW_DEALT, EV_DRAW, EV_END, EV_PRINTED, EV_START, EVENT_WIDTH, MAX_PLACE, draw


@njit(cache=True)
def setup(B, r, deck0, n_players: int, st: State) -> None:
    """Start of a game (numba's generator already seeded): printed winds, piles, hands, ships."""
    card, ship, pl, hand, g, deck = st
    card[:] = -1
    for i in range(B.start_cell.shape[0]):
        card[B.start_cell[i]] = B.start_card[i]
    n = deck0.shape[0]
    deck[:n] = deck0
    np.random.shuffle(deck[:n])
    g[:] = 0
    g[S.G_DECK_N] = n
    g[S.G_WINNER] = -1
    g[S.G_END] = -1
    for colour in range(3):
        g[S.G_TOK_LEFT + colour] = r.tokens_per_colour
    pl[:, :] = 0
    hand[:, :] = 0
    for p in range(n_players):
        pl[p, S.P_SP] = r.start_sail_points
        for z in range(BD.N_ZONES):
            pl[p, S.P_TOK + z] = -1
        ship[p] = B.start_cell[p]  # start player on space 1, then clockwise 2, 3...
    for _ in range(r.start_hand):
        for p in range(n_players):
            draw(st, p)


@njit(cache=True)
def record_setup(B, n_players: int, st: State, rec, rec_n) -> None:
    """Record the set-up :func:`setup` made: printed winds, ships, the cards dealt in order."""
    ship, pl, g, deck = st.ship, st.pl, st.g, st.deck
    for i in range(B.start_cell.shape[0]):
        record(rec, rec_n, EV_PRINTED, 0, -1, B.start_cell[i], B.start_card[i])
    for p in range(n_players):
        record(rec, rec_n, EV_START, 0, p, ship[p])
    for k in range(g[S.G_DECK_POS]):  # dealt round the table, as many rounds as start_hand
        p = k % n_players
        record(rec, rec_n, EV_DRAW, 0, p, deck[k], DRAW_DEALT, k // n_players + 1, pl[p, S.P_SP])


@njit(cache=True, _nrt=False)
def leader(B, pl, ship):
    """The seat with the best score (tokens + route share), -1 when tied."""
    best = -1.0
    who = -1
    for p in range(ship.shape[0]):
        v = S.score(B, pl, ship, p)
        if v > best + 1e-12:
            best = v
            who = p
        elif abs(v - best) <= 1e-12:
            who = -1
    return who


@njit(cache=True)
def start_game(B, r, deck0, seed, st: State, rec, rec_n) -> None:
    """Seed numba's generator with the game's ``seed`` and set the game up (recorded when
    recording)."""
    np.random.seed(seed)
    n_players = st.ship.shape[0]
    setup(B, r, deck0, n_players, st)
    if rec.shape[0] > 0:
        record_setup(B, n_players, st, rec, rec_n)


@njit(cache=True)
def play_game(B, r, seats, st: State, work, heat, checking, rec, rec_n, ext=None,
              searching=None):  # fmt: skip
    """Play the game set up in ``st`` (:func:`start_game`) to its end. Returns (winner, lead
    changes, leader at half time). ``seats``: policy ids and parameter rows; ``work``: the
    placement buffer, ``lead``, whose ``lead[k]`` gets the leader after round k, and the
    decisions' scratch (``outside.new_turn_scratch``); ``heat``: the
    per-cell counts of cards laid and ships blocked. With ``checking``, broken invariants after
    any turn are OR-ed into the returned problems mask. ``searching``: None unless a seat plays
    ``mcts`` (compiled without the search then), else the search's tally."""
    card, ship, pl, hand, g, deck = st
    pids, prm = seats
    buf, lead, scratch = work
    n_players = ship.shape[0]
    lead[0] = leader(B, pl, ship)
    last = lead[0]
    changes = 0
    problems = 0
    for rnd in range(1, r.max_rounds + 1):
        g[S.G_ROUND] = rnd
        for p in range(n_players):
            g[S.G_TURNS] += 1
            if searching is not None and pids[p] == MCTS:
                reason = searched_turn(B, r, prm, p, st, buf, heat, rec, rec_n, searching)
            else:
                reason = play_turn(B, r, seats, p, st, buf, scratch, heat, rec, rec_n, ext)
            if checking:
                problems |= S.state_problems(B, r, st)
            if reason >= 0:
                g[S.G_END] = reason
                if reason != S.END_PILES:
                    g[S.G_WINNER] = p
                break
        who = leader(B, pl, ship)
        if g[S.G_END] >= 0 and g[S.G_WINNER] >= 0:
            who = g[S.G_WINNER]
        lead[rnd] = who
        if who >= 0:
            if last >= 0 and who != last:
                changes += 1
            last = who
        if g[S.G_END] >= 0:
            break
    if g[S.G_END] < 0:
        g[S.G_END] = S.END_CAP
    record(rec, rec_n, EV_END, g[S.G_ROUND], g[S.G_WINNER], g[S.G_END])
    return g[S.G_WINNER], changes, lead[g[S.G_ROUND] // 2], problems


@njit(cache=True)
def play_games(B, r, deck0, n_players, pids, prm, seeds, rec, rec_n, ext=None, searching=None):
    """Play every game of a chunk; one row of every output per game. ``rec``/``rec_n`` record
    the events (a zero-row buffer: no recording; a replay passes one seed)."""
    n = seeds.shape[0]
    nc = B.kind.shape[0]
    winner = np.full(n, -1, np.int64)
    length = np.zeros(n, np.int64)
    reason = np.zeros(n, np.int64)
    scores = np.zeros((n, n_players), np.float64)
    lead_changes = np.zeros(n, np.int64)
    half_leader = np.full(n, -1, np.int64)
    per_seat = np.zeros((S.N_PLAYER_FIELDS, n, n_players), np.int64)
    tokens = np.zeros((n, n_players), np.int64)
    turns = np.zeros(n, np.int64)
    laid_heat = np.zeros((n, nc), np.int64)
    blocked_heat = np.zeros((n, nc), np.int64)
    st = new_state(n_players, nc, B.n_moves.shape[0], deck0.shape[0])  # one design per card kind
    ship, pl, g = st.ship, st.pl, st.g
    seats = (pids, prm)
    scratch = new_turn_scratch(n_players, nc, B.n_moves.shape[0])
    work = (np.zeros((MAX_PLACE, 2), np.int64), np.zeros(r.max_rounds + 1, np.int64), scratch)
    for i in range(n):
        start_game(B, r, deck0, seeds[i], st, rec, rec_n)
        heat = (laid_heat[i], blocked_heat[i])
        w, changes, half, _ = play_game(B, r, seats, st, work, heat, False, rec, rec_n, ext,
                                        searching)  # fmt: skip
        winner[i] = w
        length[i] = g[S.G_ROUND]
        reason[i] = g[S.G_END]
        lead_changes[i] = changes
        half_leader[i] = half
        turns[i] = g[S.G_TURNS]
        for p in range(n_players):
            scores[i, p] = S.score(B, pl, ship, p)
            tokens[i, p] = S.tokens_held(pl, p)
            for f in range(S.N_PLAYER_FIELDS):
                per_seat[f, i, p] = pl[p, f]
    return (winner, length, reason, scores, lead_changes, half_leader, per_seat, tokens, turns,
            laid_heat, blocked_heat)  # fmt: skip


# -- Python entry points --------------------------------------------------------------------------
SEAT_COLUMNS = {
    "cape_horn_token_zone1": (S.P_TOK + 0, "zone I token colour per seat (0 yellow 1 red 2 green)"),
    "cape_horn_token_zone2": (S.P_TOK + 1, "colour of the zone II token per seat (-1 none)"),
    "cape_horn_token_zone3": (S.P_TOK + 2, "colour of the zone III token per seat (-1 none)"),
    "cape_horn_sail_points": (S.P_SP, "sail points each seat holds at the end"),
    "cape_horn_sp_ignore": (S.P_SP_IGNORE, "sail points each seat spent on 'ignorar'"),
    "cape_horn_sp_twice": (S.P_SP_TWICE, "sail points each seat spent on 'mover dos veces'"),
    "cape_horn_sp_buy": (S.P_SP_BUY, "sail points each seat spent buying cards"),
    "cape_horn_sp_no_move": (S.P_SP_GAINED, "sail points each seat gained by 'no move'"),
    "cape_horn_sp_sailed": (S.P_SP_SAILED, "sail points each seat gained by the turn's point"),
    "cape_horn_ignores": (S.P_IGNORES, "'ignorar' moves each seat made"),
    "cape_horn_twices": (S.P_TWICES, "'mover dos veces' moves each seat made"),
    "cape_horn_no_moves": (S.P_NO_MOVES, "turns each seat took 'no move'"),
    "cape_horn_cards_laid": (S.P_LAID, "wind cards each seat laid"),
    "cape_horn_cards_covered": (S.P_COVERED, "of those, cards laid on top of another card"),
    "cape_horn_blocked": (S.P_BLOCKED, "turns each seat's ship had no legal move by its card"),
}  # fmt: skip
COLUMNS = {
    **{k: v[1] for k, v in SEAT_COLUMNS.items()},
    "cape_horn_tokens": "station tokens each seat holds at the end",
    "cape_horn_turns": "turns played in the game (all seats)",
    "cape_horn_laid_by_cell": "wind cards laid on each cell (games x cells)",
    "cape_horn_blocked_by_cell": "turns a ship on each cell had no legal move by its card",
}
HEATMAPS = {
    "cape_horn_laid_by_cell": "where wind cards are laid",
    "cape_horn_blocked_by_cell": "where ships are blocked (no legal move by their card)",
}


def engine_inputs(rules) -> tuple:
    """Board arrays, the engine rule tuple and the unshuffled deck for ``rules``."""
    B = BD.arrays(rules)
    r = engine_rules(rules)
    counts = np.asarray(rules.card_counts, np.int64)
    deck0 = np.repeat(np.arange(counts.shape[0], dtype=np.int64), counts)
    return B, r, deck0


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
    engine without that path. ``tally``: int64[2] the search adds its simulations and the rounds
    they played to (benchmarks)."""
    if rec is None:
        rec, rec_n = no_recording(EVENT_WIDTH)
    B, r, deck0 = engine_inputs(rules)
    out = play_games(
        B, r, deck0, np.int64(n_players), np.asarray(policy_ids, np.int64),
        np.asarray(policy_params, np.float64), np.asarray(seeds, np.int64), rec, rec_n, outside,
        tally_for(policy_ids, MCTS, tally),
    )  # fmt: skip
    (winner, length, reason, scores, changes, half, per_seat, tokens, turns, laid, blocked) = out
    cols: dict[str, np.ndarray] = {
        "winner": winner,
        "length": length,
        "end_reason": reason,
        "scores": scores,
        "lead_changes": changes,
        "half_leader": half,
    }
    for name, (field, _) in SEAT_COLUMNS.items():
        cols[name] = per_seat[field]
    cols["cape_horn_tokens"] = tokens
    cols["cape_horn_turns"] = turns
    cols["cape_horn_laid_by_cell"] = laid
    cols["cape_horn_blocked_by_cell"] = blocked
    return cols


def play_one(rules, n_players: int, policy_ids, policy_params, seed: int) -> dict[str, Any]:
    """Play one game from ``seed`` with invariant checks; the final state and the outcome."""
    B, r, deck0 = engine_inputs(rules)
    nc = B.kind.shape[0]
    st = new_state(n_players, nc, len(rules.card_counts), deck0.shape[0])
    card, ship, pl, hand, g, _ = st
    lead = np.zeros(int(rules.max_rounds) + 1, np.int64)
    scratch = new_turn_scratch(n_players, nc, B.n_moves.shape[0])
    work = (np.zeros((MAX_PLACE, 2), np.int64), lead, scratch)
    laid = np.zeros(nc, np.int64)
    blocked = np.zeros(nc, np.int64)
    seats = (np.asarray(policy_ids, np.int64), np.asarray(policy_params, np.float64))
    rec, rec_n = no_recording(EVENT_WIDTH)
    start_game(B, r, deck0, np.int64(seed), st, rec, rec_n)
    winner, changes, half, problems = play_game(
        B, r, seats, st, work, (laid, blocked), True, rec, rec_n, None, tally_for(policy_ids, MCTS)
    )
    return {
        "winner": int(winner),
        "length": int(g[S.G_ROUND]),
        "end_reason": int(g[S.G_END]),
        "lead_changes": int(changes),
        "half_leader": int(half),
        "problems": int(problems),
        "card": card,
        "ship": ship,
        "pl": pl,
        "hand": hand,
        "g": g,
        "laid_by_cell": laid,
        "blocked_by_cell": blocked,
        "leaders": lead[: int(g[S.G_ROUND]) + 1].copy(),
    }
