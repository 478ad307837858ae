"""Caza-Tesoros's self-play for the search: the hooks ``simulator.contract.registry.SearchHooks``
asks for (``record`` for the evaluation's fit, ``bank`` and ``decide`` for the agreement benchmark).
Apart from :mod:`.forward` because it plays whole games through the engine's inputs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.caza_tesoros import MCTS, decide_ship

from . import state as S
from .board import CELLS
from .engine import colour_policies, cross_slots, engine_inputs
from .features import N_FEATURES, features
from .forward import MAX_OPTIONS, delegated, option_index, search_ship, ship_options
from .state import State, Tables
from .turn import (
    DAY_OVER,
    EVENT_WIDTH,
    GAME_OVER,
    PURCHASES_DUE,
    WEEK_STARTS,
    act,
    decide_winner,
    end_turn,
    setup_game,
    trading,
    walk_days,
)


@njit(cache=True)
def _start_game(r, t: Tables, st: State, seed) -> None:
    S.seed_rng(st.g, seed)
    setup_game(r, t, st, np.zeros((0, EVENT_WIDTH), dtype=np.int64))


@njit(cache=True)
def _play_on(r, t: Tables, pids, prm, st: State, feats, used: int, stop: int) -> tuple[int, int]:
    """Play on with the built-in policies ``pids`` until the game ends, or until the ``stop``-th
    ship decision with two options or more (counted from 0; its turn begun, the state left
    there). With ``feats`` rows, every player's features at the end of each day go into
    ``feats[used:]`` (until full). Returns (decisions met, or the deciding colour when stopped
    as -2 - colour; rows used)."""
    pl, sh, cr, g, at = st.pl, st.sh, st.cr, st.g, st.at
    log = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    dirs = np.zeros(64, dtype=np.int64)
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    met = 0
    while True:
        p = walk_days(r, t, st, log, True)
        if p == WEEK_STARTS or p == PURCHASES_DUE:
            trading(r, t, pids, prm, st, log, False, p)
            continue
        if p == DAY_OVER:
            if used < feats.shape[0]:
                features(r, t, st, feats[used])
                used += 1
            continue
        if p == GAME_OVER:
            return met, used
        s = at[1]
        if ship_options(r, st, p, s, keys) > 1:
            if met == stop:
                return -2 - p, used
            met += 1
        action = decide_ship(pids[p], prm[p], p, s, r, t.odds, t.tmean, pl, sh, cr, g)
        act(r, t, st, log, p, s, action, dirs)
        end_turn(r, st, log, False)


def _self_play(rules, players: int, ids, params):
    """The compiled inputs of self-play: rules, tables, each colour's built-in policy (an
    ``mcts`` seat plays its guide) and an empty state."""
    r, t = engine_inputs(rules)
    k = int(r[S.R.colours_per_player])
    cids, cprm = colour_policies(
        np.asarray(ids, dtype=np.int64), np.asarray(params, dtype=np.float64), k
    )
    pids, prm = delegated(cids, cprm)
    st = S.new_state(players * k, int(cross_slots(r, players * k)), CELLS)
    return r, t, pids, prm, st


MAX_RECORDED = 100_000  # positions a fit records at most (every day's when fewer)


def record(rules, players: int, ids, params, games: int, seed: int):
    """``SearchHooks.record``: ``games`` self-play games, every player's features at the end of
    each day (every k-th day when that would pass ``MAX_RECORDED``), the winner and the game."""
    r, t, pids, prm, st = _self_play(rules, players, ids, params)
    seeds = np.random.default_rng(seed).integers(0, 2**62, games)
    rows, winners, index = [], [], []
    for i, game_seed in enumerate(seeds):
        _start_game(r, t, st, game_seed)
        feats = np.zeros((int(r[S.R.max_days]) + 1, players, N_FEATURES))
        _, used = _play_on(r, t, pids, prm, st, feats, 0, -1)
        rows.append(feats[:used])
        winners.append(np.full(used, decide_winner(r, st.pl, st.sh, st.g[S.G_DAY])))
        index.append(np.full(used, i))
    feats, winner, game = np.concatenate(rows), np.concatenate(winners), np.concatenate(index)
    step = max(1, -(-len(winner) // MAX_RECORDED))
    return feats[::step], winner[::step].astype(np.int64), game[::step].astype(np.int64)


def bank(rules, players: int, ids, params, positions: int, seed: int) -> list:
    """``SearchHooks.bank``: ``positions`` ship decisions with two options or more, one from
    each self-play game, at a decision drawn uniformly among the game's (so spread over it).
    A decision is (the state, the deciding colour)."""
    r, t, pids, prm, st = _self_play(rules, players, ids, params)
    rng = np.random.default_rng(seed)
    none = np.zeros((0, players, N_FEATURES))
    out = []
    while len(out) < positions:
        game_seed = int(rng.integers(0, 2**62))
        _start_game(r, t, st, game_seed)
        met, _ = _play_on(r, t, pids, prm, st, none, 0, -1)
        if met == 0:
            continue
        _start_game(r, t, st, game_seed)
        stopped, _ = _play_on(r, t, pids, prm, st, none, 0, int(rng.integers(0, met)))
        out.append((S.State(*(a.copy() for a in st)), -2 - stopped))
    return out


@njit(cache=True)
def _seed_draws(seed) -> None:
    np.random.seed(seed)  # numba's generator, apart from numpy's


def decide(rules, decision, policy_id: int, row, seed: int) -> int:
    """``SearchHooks.decide``: the option (index among ``ship_options``) the policy takes at a
    banked decision, numba's generator seeded by ``seed``; -1 for an action outside them."""
    state, colour = decision
    r, t = engine_inputs(rules)
    st = S.State(*(a.copy() for a in state))
    row = np.asarray(row, dtype=np.float64)
    keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
    n = ship_options(r, st, colour, int(st.at[1]), keys)
    _seed_draws(seed)
    if policy_id == MCTS:
        action = search_ship(r, t, row, st, colour)
    else:
        action = decide_ship(policy_id, row, colour, int(st.at[1]), r, t.odds, t.tmean,
                             st.pl, st.sh, st.cr, st.g)  # fmt: skip
    return int(option_index(keys, n, action))
