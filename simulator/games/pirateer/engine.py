"""The compiled Pirateer game loop (rules: docs/rules/pirateer.md).

One call of :func:`play_games` plays a whole chunk (recording its events ``EV_*`` when given a
buffer: ``balance replay``, docs/rules/pirateer.md); :func:`play_one` plays one game from its
seed and returns the final position and a trace of the moves. A turn: roll two dice, list the legal
moves (:func:`simulator.games.pirateer.turn.legal_moves`), let the seat's policy pick one
(``policies.pirateer.decide_move``), play it die-step by die-step, recording captures and where
the treasure changes hands.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from policies.pirateer import LOOKAHEAD, MCTS, decide_move
from simulator.contract.policy import OUTSIDE, compiled_switch
from simulator.contract.recording import no_recording, play_recorded, record
from simulator.search.tree import tally_for

from . import state as S
from .board import N_PICTURE
from .forward import search_move
from .outside import X_MOVE
from .state import State, new_state
from .turn import end_turn, legal_moves, new_game, new_move_scratch, play_move

# trace rows: (turn, player, die1, die2, ship, from, to, captured ship, treasure after)
TRACE_FIELDS = ("turn", "player", "die1", "die2", "ship", "from", "to", "captured", "treasure")

# Recorded events (simulator/contract/recording.py): rows of (kind, turn, player, a, b, c, d, e, f,
# h); the turn is 0 for the set-up, then 1..length. Fields a.. per kind:
EV_PLACE = 0  # ship, space: a ship set up in its harbour
EV_ROLL = 1  # die 1, die 2, legal moves (distinct resulting positions)
EV_MOVE = 2  # ship, die (pips), direction, from, to, ship captured (-1), treasure after
EV_CAPTURE = 3  # ship, captured ship, its player, space, 1 if it carried the treasure
EV_TREASURE = 4  # ship now carrying it, space, where from (-1: Skull Island, else the ship)
EV_PASS = 5  # die 1, die 2: no legal move
EV_END = 6  # end reason (the player is the winner, -1 for none)
EVENT_KINDS = ("place", "roll", "move", "capture", "treasure", "pass", "end")
EVENT_WIDTH = 10
COLUMNS = (
    "winner", "length", "end_reason", "scores", "lead_changes", "half_leader",
    "pirateer_captures", "pirateer_treasure_changes", "pirateer_treasure_taken_turn",
    "pirateer_passes", "pirateer_ships_left", "pirateer_captures_by_cell",
    "pirateer_treasure_taken_by_cell", "pirateer_treasure_lost_by_cell",
)  # fmt: skip


@njit(cache=True)
def seat_scores(ships, owner, g, n_players: int) -> np.ndarray:
    """Score for the drama analysis: ships on the board, +3 while carrying the treasure."""
    sc = np.zeros(n_players, dtype=np.int64)
    fill_seat_scores(ships, owner, g, sc)
    return sc


# Called after every turn: fills a game's own array, so no allocation and no reference counting.
@njit(cache=True, _nrt=False)
def fill_seat_scores(ships, owner, g, sc) -> None:
    """``sc[p]``: :func:`seat_scores` of each seat (``sc`` has a slot for every seat)."""
    for p in range(sc.shape[0]):
        sc[p] = 0
    for s in range(S.N_SHIPS):
        if ships[s] >= 0:
            sc[owner[s // S.FLEET]] += 1
    t = g[S.G_TREASURE]
    if t >= 0:
        sc[owner[t // S.FLEET]] += 3


@njit(cache=True, _nrt=False)
def leader_of(sc) -> int:
    best = -1
    top = -1
    for p in range(sc.shape[0]):
        if sc[p] > top:
            top = sc[p]
            best = p
        elif sc[p] == top:
            best = -1
    return best


@njit(cache=True)
def play_game(r, seats, seed, st: State, work, heat, rec, rec_n, checking, ext=None,
              searching=None, looking=True):  # fmt: skip
    """Play one game into ``st``; returns (lead changes, leader at half length, passes,
    problems). ``seats``: (policy ids, parameter rows), one per player; ``work``: the move
    buffers and the leader after each turn; ``heat``: the per-space counts of :func:`play_move`.
    ``searching``: None unless a seat plays ``mcts`` (compiled without the search then), else
    the search's tally (``forward.search_move``). ``looking``: None unless a seat plays
    ``lookahead`` or searches (compiled without `lookahead` then)."""
    pids, prm = seats
    moves, scratch, lead = work
    n_players = pids.shape[0]
    np.random.seed(seed)
    new_game(r, n_players, st)
    ships, owner, occ, g = st
    if rec.shape[0] > 0:
        for s in range(S.N_SHIPS):
            if ships[s] >= 0:
                record(rec, rec_n, EV_PLACE, 0, owner[s // S.FLEET], s, ships[s])
    sc = seat_scores(ships, owner, g, n_players)
    lead[0] = leader_of(sc)
    last = lead[0]
    changes = 0
    passes = 0
    problems = 0
    p = r.first_seat - 1  # the seat that won the opening roll plays first; then clockwise
    while g[S.G_ENDED] == 0:
        if S.count_alive(ships, owner, p) > 0:
            d1 = np.random.randint(1, 7)
            d2 = np.random.randint(1, 7)
            n = legal_moves(r, st, p, d1, d2, moves, scratch)
            if n == 0:
                passes += 1
                record(rec, rec_n, EV_PASS, g[S.G_TURN] + 1, p, d1, d2)
            else:
                record(rec, rec_n, EV_ROLL, g[S.G_TURN] + 1, p, d1, d2, n)
                if ext is not None and pids[p] >= OUTSIDE:  # a policy from --policy-file
                    k = ext[X_MOVE][pids[p] - OUTSIDE](prm[p], r, ships, owner, occ, g, p, moves,
                                                       n)  # fmt: skip
                elif searching is not None and pids[p] == MCTS:
                    k = search_move(r, prm[p], st, p, moves, n, None, searching)
                else:
                    k = decide_move(pids[p], prm[p], r, ships, owner, occ, g, p, moves, n, looking)
                k = min(max(k, 0), n - 1)
                play_move(r, st, p, moves[k], heat, rec, rec_n)
            end_turn(r, g)
            if checking:
                problems |= S.check_state(r, st)
            fill_seat_scores(ships, owner, g, sc)
            leader = leader_of(sc)
            lead[g[S.G_TURN]] = leader
            if leader >= 0:
                if last >= 0 and leader != last:
                    changes += 1
                last = leader
        p = (p + 1) % n_players
    record(rec, rec_n, EV_END, g[S.G_TURN], g[S.G_WINNER], g[S.G_END_REASON])
    return changes, lead[g[S.G_TURN] // 2], passes, problems


@njit(cache=True)
def play_games(r, n_players, pids, prm, seeds, rec, rec_n, ext=None, searching=None, looking=True):
    """Play every game of ``seeds``; ``rec``/``rec_n`` record their events (a zero-row buffer:
    no recording; a replay passes one seed)."""
    n = seeds.shape[0]
    winner = np.full(n, -1, dtype=np.int64)
    length = np.zeros(n, dtype=np.int64)
    reason = np.zeros(n, dtype=np.int64)
    scores = np.zeros((n, n_players), dtype=np.int64)
    lead_changes = np.zeros(n, dtype=np.int64)
    half_leader = np.full(n, -1, dtype=np.int64)
    captures = np.zeros(n, dtype=np.int64)
    changes = np.zeros(n, dtype=np.int64)
    taken_turn = np.full(n, -1, dtype=np.int64)
    passes = np.zeros(n, dtype=np.int64)
    ships_left = np.zeros((n, n_players), dtype=np.int64)
    cap_cell = np.zeros((n, N_PICTURE), dtype=np.int64)
    taken_cell = np.zeros((n, N_PICTURE), dtype=np.int64)
    lost_cell = np.zeros((n, N_PICTURE), dtype=np.int64)
    st = new_state()
    ships, owner, g = st.ships, st.owner, st.g
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    work = (moves, new_move_scratch(), np.zeros(r.max_turns + 1, dtype=np.int64))
    seats = (pids[:n_players], prm)
    for i in range(n):
        heat = (cap_cell[i], taken_cell[i], lost_cell[i])
        ch, half, ps, _ = play_game(r, seats, seeds[i], st, work, heat, rec, rec_n, False, ext,
                                    searching, looking)  # fmt: skip
        winner[i] = g[S.G_WINNER]
        length[i] = g[S.G_TURN]
        reason[i] = g[S.G_END_REASON]
        scores[i] = seat_scores(ships, owner, g, n_players)
        lead_changes[i] = ch
        half_leader[i] = half
        captures[i] = g[S.G_CAPTURES]
        changes[i] = g[S.G_TREASURE_CAPTURES]
        taken_turn[i] = g[S.G_TAKEN_TURN]
        passes[i] = ps
        for p in range(n_players):
            ships_left[i, p] = S.count_alive(ships, owner, p)
    return (
        winner, length, reason, scores, lead_changes, half_leader, captures, changes, taken_turn,
        passes, ships_left, cap_cell, taken_cell, lost_cell,
    )  # fmt: skip


def looking_for(policy_ids) -> bool | None:
    """The engine's ``looking`` switch for these seats."""
    return compiled_switch(policy_ids, (LOOKAHEAD,), MCTS)


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
    engine without that path. ``tally``: int64[2] the search adds its simulations and the turns they
    played to (benchmarks)."""
    if rec is None:
        rec, rec_n = no_recording(EVENT_WIDTH)
    out = play_games(
        rules.to_engine(), np.int64(n_players), np.asarray(policy_ids, dtype=np.int64),
        np.asarray(policy_params, dtype=np.float64), np.asarray(seeds, dtype=np.int64), rec, rec_n,
        outside, tally_for(policy_ids, MCTS, tally), looking_for(policy_ids),
    )  # fmt: skip
    return dict(zip(COLUMNS, out, strict=True))


def play_one(
    rules,
    n_players: int,
    policy_ids,
    policy_params,
    seed: int,
    trace_rows: int = 20_000,
    outside=None,
) -> dict[str, Any]:
    """Play one game from ``seed`` with every invariant checked after every turn: the outcome,
    the final position and the trace of die-steps (``TRACE_FIELDS``)."""
    r = rules.to_engine()
    st = new_state()
    ships, owner, occ, g = st
    moves = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
    work = (moves, new_move_scratch(), np.zeros(r.max_turns + 1, dtype=np.int64))
    cells = np.zeros((3, N_PICTURE), dtype=np.int64)
    pids = np.asarray(policy_ids, dtype=np.int64)[:n_players]
    seats = (pids, np.asarray(policy_params, dtype=np.float64))

    def play(rec, rec_n):
        cells[:] = 0  # played again from scratch when the first buffer was too small
        return play_game(
            r, seats, np.int64(seed), st, work, (cells[0], cells[1], cells[2]), rec, rec_n, True,
            outside, tally_for(policy_ids, MCTS), looking_for(policy_ids),
        )  # fmt: skip

    events, (changes, half, passes, problems) = play_recorded(play, EVENT_WIDTH, trace_rows)
    return {
        "winner": int(g[S.G_WINNER]),
        "length": int(g[S.G_TURN]),
        "end_reason": int(g[S.G_END_REASON]),
        "lead_changes": int(changes),
        "half_leader": int(half),
        "passes": int(passes),
        "problems": int(problems),
        "ships": ships,
        "owner": owner,
        "occ": occ,
        "g": g,
        "captures_by_cell": cells[0],
        "taken_by_cell": cells[1],
        "lost_by_cell": cells[2],
        "trace": _trace(events),
        "events": events,
    }


def _trace(events: np.ndarray) -> np.ndarray:
    """The die-steps of the events as ``TRACE_FIELDS`` rows (the roll from the move's turn)."""
    rows = []
    dice = (0, 0)
    for e in events:
        if e[0] == EV_ROLL:
            dice = (int(e[3]), int(e[4]))
        elif e[0] == EV_MOVE:
            rows.append((e[1] - 1, e[2], *dice, e[3], e[6], e[7], e[8], e[9]))
    return np.array(rows, dtype=np.int64).reshape(-1, len(TRACE_FIELDS))
