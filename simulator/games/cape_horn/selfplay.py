"""Cape Horn's self-play for the search (``SearchHooks``): the positions its evaluation is
fitted on (:func:`record`), and banked decisions (:func:`bank`) with what a policy chooses at
each (:func:`decide`), which measure how well the search settles."""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.cape_horn import MCTS, MCTS_P, PLANNER, PLANNER_P, ROLLOUT_PRM, ROLLOUTS, plan_weights

from . import state as S
from .engine import engine_inputs, start_game
from .features import FEATURES, features
from .forward import (
    EXTRA_ROW,
    MAX_EXTRA,
    MAX_OPTIONS,
    OPTION_SIZE,
    choose_turn,
    extra_options,
    plan_cells,
    plan_to_buf,
    play_turn,
    seat_rows,
    turn_options,
)
from .outside import new_turn_scratch
from .state import State, copy_state, new_state
from .turn import EVENT_WIDTH, MAX_PLACE, sail


@njit(cache=True)
def _record_games(B, r, deck0, pids, prm, seeds, feats, winner, game) -> int:
    """Self-play of ``seeds``' games: the features at every turn's start into ``feats`` (the
    game's index in ``game``, its winner in ``winner`` once it ends); returns positions."""
    n_players = pids.shape[0]
    st = new_state(n_players, B.kind.shape[0], B.n_moves.shape[0], deck0.shape[0])
    rec = np.zeros((0, EVENT_WIDTH), np.int64)
    rec_n = np.zeros(1, np.int64)
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    scratch = new_turn_scratch(n_players, B.kind.shape[0], B.n_moves.shape[0])
    heat = (np.zeros(B.kind.shape[0], np.int64), np.zeros(B.kind.shape[0], np.int64))
    m = 0
    for i in range(seeds.shape[0]):
        start_game(B, r, deck0, seeds[i], st, rec, rec_n)
        first = m
        w = -1
        over = False
        for rnd in range(1, r.max_rounds + 1):
            st.g[S.G_ROUND] = rnd
            for p in range(n_players):
                st.g[S.G_TURNS] += 1
                if m < feats.shape[0]:
                    features(B, st, p, feats[m])
                    game[m] = i
                    m += 1
                reason = play_turn(B, r, (pids, prm), p, st, buf, scratch, heat, rec, rec_n)
                if reason >= 0:
                    w = p if reason != S.END_PILES else -1
                    over = True
                    break
            if over:
                break
        winner[first:m] = w
    return m


def record(rules, players: int, ids, params, games: int, seed: int):
    """``SearchHooks.record``: the features of every turn's start in ``games`` self-play games."""
    B, r, deck0 = engine_inputs(rules)
    seeds = np.arange(seed, seed + games, dtype=np.int64)
    cap = games * players * int(rules.max_rounds)
    cap = min(cap, 200_000)
    feats = np.zeros((cap, players, len(FEATURES)), np.float64)
    winner = np.full(cap, -1, np.int64)
    game = np.zeros(cap, np.int64)
    m = _record_games(
        B, r, deck0, np.asarray(ids, np.int64), np.asarray(params, np.float64), seeds, feats,
        winner, game,
    )  # fmt: skip
    return feats[:m], winner[:m], game[:m]


@njit(cache=True)
def _bank_games(B, r, deck0, pids, prm, seeds, every, states, seats) -> int:
    """Decisions of self-play: every ``every``-th turn's root (its sail point taken) where the
    seat to move has two plans or more, into ``states`` (stacked arrays) and ``seats``."""
    n_players = pids.shape[0]
    card_s, ship_s, pl_s, hand_s, g_s, deck_s = states
    st = new_state(n_players, B.kind.shape[0], B.n_moves.shape[0], deck0.shape[0])
    rec = np.zeros((0, EVENT_WIDTH), np.int64)
    rec_n = np.zeros(1, np.int64)
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    scratch = new_turn_scratch(n_players, B.kind.shape[0], B.n_moves.shape[0])
    heat = (np.zeros(B.kind.shape[0], np.int64), np.zeros(B.kind.shape[0], np.int64))
    opts = np.zeros((MAX_OPTIONS + 1, OPTION_SIZE), np.int64)
    keys = np.zeros(MAX_OPTIONS, np.int64)
    w = np.zeros(3)  # how many plans a seat has does not depend on the weights
    look = new_state(n_players, B.kind.shape[0], B.n_moves.shape[0], deck0.shape[0])
    m = 0
    t = 0
    for i in range(seeds.shape[0]):
        start_game(B, r, deck0, seeds[i], st, rec, rec_n)
        over = False
        for rnd in range(1, r.max_rounds + 1):
            st.g[S.G_ROUND] = rnd
            for p in range(n_players):
                st.g[S.G_TURNS] += 1
                t += 1
                if t % every == 0 and m < seats.shape[0]:
                    copy_state(look, st)
                    sail(r, look, p, rec, rec_n)
                    if turn_options(B, r, look, p, w, opts, keys) >= 2:
                        card_s[m] = look.card
                        ship_s[m] = look.ship
                        pl_s[m] = look.pl
                        hand_s[m] = look.hand
                        g_s[m] = look.g
                        deck_s[m] = look.deck
                        seats[m] = p
                        m += 1
                reason = play_turn(B, r, (pids, prm), p, st, buf, scratch, heat, rec, rec_n)
                if reason >= 0:
                    over = True
                    break
            if over:
                break
        if m >= seats.shape[0]:
            break
    return m


BANK_EVERY = 7  # turns between two banked decisions of one game (spread over the whole game)


def bank(rules, players: int, ids, params, positions: int, seed: int) -> list:
    """``SearchHooks.bank``: ``positions`` decisions (state, seat) of self-play, spread over the
    game (every ``BANK_EVERY``-th turn)."""
    B, r, deck0 = engine_inputs(rules)
    nc, nd, nk = B.kind.shape[0], B.n_moves.shape[0], deck0.shape[0]
    states = State(
        np.zeros((positions, nc), np.int64),
        np.zeros((positions, players), np.int64),
        np.zeros((positions, players, S.N_PLAYER_FIELDS), np.int64),
        np.zeros((positions, players, nd), np.int64),
        np.zeros((positions, S.N_GAME_FIELDS), np.int64),
        np.zeros((positions, max(nk, 1)), np.int64),
    )
    seats = np.zeros(positions, np.int64)
    seeds = np.arange(seed, seed + 100 * positions + 100, dtype=np.int64)
    m = _bank_games(
        B, r, deck0, np.asarray(ids, np.int64), np.asarray(params, np.float64), seeds,
        BANK_EVERY, states, seats,
    )  # fmt: skip
    return [(State(*(a[i].copy() for a in states)), int(seats[i])) for i in range(m)]


@njit(cache=True)
def _decide(B, r, st: State, p: int, pid: int, row, seed: int) -> int:
    """The option ``pid`` takes at decision (``st``, ``p``): plan index * MAX_EXTRA + extra-card
    index, as the search lists them."""
    np.random.seed(seed)
    n_players = st.ship.shape[0]
    prm = seat_rows(row, n_players)
    opts = np.zeros((MAX_OPTIONS + 1, OPTION_SIZE), np.int64)
    keys = np.zeros(MAX_OPTIONS, np.int64)
    if pid == MCTS:
        gi = int(row[MCTS_P.guide])
        w = plan_weights(ROLLOUTS[gi], seat_rows(ROLLOUT_PRM[gi], n_players), 0)
        n = turn_options(B, r, st, p, w, opts, keys)
        k, kb = choose_turn(B, r, row, st, p, opts, keys, n, None, None)
        return k * MAX_EXTRA + kb
    w = plan_weights(pid, prm, 0)
    turn_options(B, r, st, p, w, opts, keys)
    k = opts[0, 1] - 1
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    na = plan_to_buf(opts[k + 1], buf)
    land, via = plan_cells(B, st.card, st.ship, p, opts[k + 1])
    ex = np.zeros((MAX_EXTRA, EXTRA_ROW), np.int64)
    ex_keys = np.zeros(MAX_EXTRA, np.int64)
    margin = prm[0, PLANNER_P.margin] if pid == PLANNER else -1.0e9
    _, planner = extra_options(B, r, st, p, buf, na, land, via, margin, ex, ex_keys)
    return k * MAX_EXTRA + planner


def decide(rules, decision, policy_id: int, row, seed: int) -> int:
    """``SearchHooks.decide``: the option policy ``policy_id`` (``mcts`` or ``planner``) with
    parameter row ``row`` takes at a banked decision."""
    B, r, _ = engine_inputs(rules)
    st, p = decision
    st = State(*(a.copy() for a in st))
    return int(_decide(B, r, st, p, policy_id, np.asarray(row, np.float64), seed))
