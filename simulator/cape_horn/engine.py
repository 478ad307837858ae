"""The compiled Cape Horn game loop (rules: docs/rules/cape-horn.md).

One call of :func:`play_games` plays a whole chunk. A turn is :func:`play_turn`: sail point, cards
laid (``decide_place``), the move (``decide_move``), the draw and purchases (``decide_buy``); every
answer of a policy is checked again with the helpers of :mod:`.state`, and an illegal one is
skipped (a card) or replaced by the special move 'no move'. :func:`play_one` plays one game from
its seed and returns the final state. Given a recording buffer, :func:`play_games` records the
events ``EV_*`` of its game (``balance replay``, docs/rules/cape-horn.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from simulator.recording import no_recording, record

from . import board as BD
from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import state as S
from .rules import PILES_END, STUCK_NO_MOVE, engine_rules

MAX_PLACE = 16  # rows of the placement buffer (a hand holds at most 12 cards by the rules' bounds)

# Recorded events (simulator.recording): rows of (event, round, player, a, ..., j); round 0 is
# the set-up. Fields a.. per event:
EV_PRINTED = 0  # cell, design: a wind printed on a start space
EV_START = 1  # cell: the player's clipper on its start space
EV_DRAW = 2  # design, how (0 dealt, 1 drawn, 2 bought), cards in hand after, sail points after
EV_SAIL = 3  # sail points after the turn's sail point
EV_LAY = 4  # design, cell, design covered (-1 none), cards in hand after
EV_REFUSED = 5  # design, cell: a card the policy asked to lay that may not lie there
EV_BLOCKED = 6  # cell: the card under the ship has no move that may be made
EV_MOVE = 7  # move kind (S.MV_*), from, to, first landing (twice) or -1, option 1, option 2,
#              sail points after, sail points paid, 1 when the policy's answer was illegal
EV_TOKEN = 8  # zone, colour, station cell
EV_END = 9  # end reason (the player is the winner, -1 for none)
EVENT_KINDS = ("printed", "start", "draw", "sail", "lay", "refused", "blocked", "move", "token",
               "end")  # fmt: skip
EVENT_WIDTH = 12
DRAW_DEALT, DRAW_DRAWN, DRAW_BOUGHT = 0, 1, 2


@njit(cache=True)
def draw(pl, hand, g, deck, p):
    """Top card of the piles into p's hand; False when both piles are empty."""
    if g[S.G_DECK_POS] >= g[S.G_DECK_N]:
        return False
    d = deck[g[S.G_DECK_POS]]
    g[S.G_DECK_POS] += 1
    hand[p, d] += 1
    pl[p, S.P_HAND] += 1
    return True


@njit(cache=True)
def setup(B, r, deck0, n_players, card, ship, pl, hand, g, deck):
    """Start of a game (numba's generator already seeded): printed winds, piles, hands, ships."""
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
            draw(pl, hand, g, deck, p)


@njit(cache=True)
def record_setup(B, n_players, ship, pl, g, deck, rec, rec_n):
    """Record the set-up :func:`setup` made: printed winds, ships, the cards dealt in order."""
    for i in range(B.start_cell.shape[0]):
        record(rec, rec_n, EV_PRINTED, 0, -1, B.start_cell[i], B.start_card[i])
    for p in range(n_players):
        record(rec, rec_n, EV_START, 0, p, ship[p])
    for k in range(g[S.G_DECK_POS]):  # dealt round the table, as many rounds as start_hand
        p = k % n_players
        record(rec, rec_n, EV_DRAW, 0, p, deck[k], DRAW_DEALT, k // n_players + 1, pl[p, S.P_SP])


@njit(cache=True)
def lay_cards(B, r, card, ship, pl, hand, p, buf, n, laid_heat, rec, rec_n, rnd):
    """Lay the policy's cards in order; each must be legal when laid (a cover only if n == 1)."""
    for i in range(n):
        d = buf[i, 0]
        c = buf[i, 1]
        if S.can_place(B, r, card, ship, hand, p, d, c, n):
            under = card[c]
            if card[c] >= 0:
                pl[p, S.P_COVERED] += 1
            card[c] = d
            hand[p, d] -= 1
            pl[p, S.P_HAND] -= 1
            pl[p, S.P_LAID] += 1
            laid_heat[c] += 1
            if rec.shape[0] > 0:
                record(rec, rec_n, EV_LAY, rnd, p, d, c, under, pl[p, S.P_HAND])
        elif rec.shape[0] > 0:
            record(rec, rec_n, EV_REFUSED, rnd, p, d, c)


@njit(cache=True)
def can_move_at_all(B, r, card, ship, pl, p):
    """Some move other than 'no move' is legal (by the card, 'ignorar' or twice)."""
    if S.has_normal_move(B, r, card, ship, p):
        return True
    s = ship[p]
    if pl[p, S.P_SP] >= S.ignore_cost(B, r, card, ship, p):
        for i in range(8):
            if S.can_land(B, r, card, ship, p, B.neigh[s, i]):
                return True
    return False


@njit(cache=True)
def make_move(B, r, card, ship, pl, g, p, kind, a, b):
    """Carry out a legal move; returns the end reason (-1 while the game goes on)."""
    s = ship[p]
    if kind == S.MV_NORMAL:
        return S.end_move(B, r, ship, pl, g, p, S.move_target(B, card, s, a), True)
    if kind == S.MV_IGNORE:
        cost = S.ignore_cost(B, r, card, ship, p)
        pl[p, S.P_SP] -= cost
        pl[p, S.P_SP_IGNORE] += cost
        pl[p, S.P_IGNORES] += 1
        return S.end_move(B, r, ship, pl, g, p, a, True)
    if kind == S.MV_TWICE:
        t1 = S.move_target(B, card, s, a)
        t2 = S.twice_target(B, r, card, ship, p, a, b)
        pl[p, S.P_SP] -= r.twice_cost
        pl[p, S.P_SP_TWICE] += r.twice_cost
        pl[p, S.P_TWICES] += 1
        reason = S.end_move(B, r, ship, pl, g, p, t1, r.token_on_first_of_twice)
        if reason >= 0:
            return reason
        return S.end_move(B, r, ship, pl, g, p, t2, True)
    # no move
    if r.stuck == STUCK_NO_MOVE or can_move_at_all(B, r, card, ship, pl, p):
        before = pl[p, S.P_SP]
        S.gain_sail_points(r, pl, p, r.no_move_gain)
        pl[p, S.P_SP_GAINED] += pl[p, S.P_SP] - before
    pl[p, S.P_NO_MOVES] += 1
    return -1


@njit(cache=True)
def record_move(B, card, ship, pl, rec, rec_n, rnd, p, kind, asked, a, b, frm, sp, held):
    """Record the move just made from ``frm`` (sail points ``sp`` and tokens ``held``, as
    ``S.token_index``, before it) and every station token it took."""
    via = S.move_target(B, card, frm, a) if kind == S.MV_TWICE else -1
    record(rec, rec_n, EV_MOVE, rnd, p, kind, frm, ship[p], via, a, b, pl[p, S.P_SP],
           max(sp - pl[p, S.P_SP], 0), 1 if kind != asked else 0)  # fmt: skip
    m = 1
    for z in range(BD.N_ZONES):
        colour = pl[p, S.P_TOK + z]
        if colour != (held // m) % 4 - 1:
            for c in range(B.st_zone.shape[0]):
                if B.st_zone[c] == z and B.st_colour[c] == colour:
                    record(rec, rec_n, EV_TOKEN, rnd, p, z, colour, c)
        m *= 4


@njit(cache=True)
def play_turn(B, r, pids, prm, p, card, ship, pl, hand, g, deck, buf, laid_heat, blocked_heat,
              rec, rec_n, ext=None):  # fmt: skip
    """One player's turn, steps 1 to 4; returns the end reason (-1 while the game goes on)."""
    pid = pids[p]
    rnd = g[S.G_ROUND]
    S.gain_sail_points(r, pl, p, r.sail_points_per_turn)
    recording = rec.shape[0] > 0  # (a run skips every event: no call made)
    if recording:
        record(rec, rec_n, EV_SAIL, rnd, p, pl[p, S.P_SP])
    n = X.place(ext, pid, prm, p, B, r, card, ship, pl, hand, g, buf)
    lay_cards(B, r, card, ship, pl, hand, p, buf, min(n, buf.shape[0]), laid_heat, rec, rec_n, rnd)
    if not S.has_normal_move(B, r, card, ship, p):
        pl[p, S.P_BLOCKED] += 1
        blocked_heat[ship[p]] += 1
        if recording:
            record(rec, rec_n, EV_BLOCKED, rnd, p, ship[p])
    kind, a, b = X.move(ext, pid, prm, p, B, r, card, ship, pl, hand, g)
    asked = kind
    if not S.legal_move(B, r, card, ship, pl, p, kind, a, b):
        kind = S.MV_NONE
    frm = ship[p]
    sp = pl[p, S.P_SP]
    held = S.token_index(pl, p) if recording else 0
    reason = make_move(B, r, card, ship, pl, g, p, kind, a, b)
    if recording:
        record_move(B, card, ship, pl, rec, rec_n, rnd, p, kind, asked, a, b, frm, sp, held)
    if reason >= 0:
        return reason
    for _ in range(r.draw_per_turn):
        if pl[p, S.P_HAND] < r.hand_max:
            if not draw(pl, hand, g, deck, p):
                if r.empty_piles == PILES_END:
                    return S.END_PILES
                break
            if recording:
                record(rec, rec_n, EV_DRAW, rnd, p, deck[g[S.G_DECK_POS] - 1], DRAW_DRAWN,
                       pl[p, S.P_HAND], pl[p, S.P_SP])  # fmt: skip
    nb = X.buy(ext, pid, prm, p, B, r, card, ship, pl, hand, g)
    for _ in range(nb):
        if pl[p, S.P_HAND] >= r.hand_max or pl[p, S.P_SP] < r.buy_cost:
            break
        if not draw(pl, hand, g, deck, p):
            break
        pl[p, S.P_SP] -= r.buy_cost
        pl[p, S.P_SP_BUY] += r.buy_cost
        if recording:
            record(rec, rec_n, EV_DRAW, rnd, p, deck[g[S.G_DECK_POS] - 1], DRAW_BOUGHT,
                   pl[p, S.P_HAND], pl[p, S.P_SP])  # fmt: skip
    return -1


@njit(cache=True)
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
def play_game(B, r, deck0, pids, prm, seed, card, ship, pl, hand, g, deck, buf, laid_heat,
              blocked_heat, lead, checking, rec, rec_n, ext=None):  # fmt: skip
    """Play one game from ``seed``. Returns (winner, lead changes, leader at half time);
    ``lead[k]`` gets the leader after round k. With ``checking``, broken invariants after any
    turn are OR-ed into the returned problems mask."""
    np.random.seed(seed)
    n_players = ship.shape[0]
    setup(B, r, deck0, n_players, card, ship, pl, hand, g, deck)
    if rec.shape[0] > 0:
        record_setup(B, n_players, ship, pl, g, deck, rec, rec_n)
    lead[0] = leader(B, pl, ship)
    last = lead[0]
    changes = 0
    problems = 0
    for rnd in range(1, r.max_rounds + 1):
        g[S.G_ROUND] = rnd
        for p in range(n_players):
            g[S.G_TURNS] += 1
            reason = play_turn(B, r, pids, prm, p, card, ship, pl, hand, g, deck, buf, laid_heat,
                               blocked_heat, rec, rec_n, ext)  # fmt: skip
            if checking:
                problems |= S.state_problems(B, r, card, ship, pl, hand, g)
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
def play_games(B, r, deck0, n_players, pids, prm, seeds, n_designs, deck_size, rec, rec_n,
               ext=None):  # fmt: skip
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
    card = np.full(nc, -1, np.int64)
    ship = np.full(n_players, -1, np.int64)
    pl = np.zeros((n_players, S.N_PLAYER_FIELDS), np.int64)
    hand = np.zeros((n_players, n_designs), np.int64)
    g = np.zeros(S.N_GAME_FIELDS, np.int64)
    deck = np.zeros(max(deck_size, 1), np.int64)
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    lead = np.zeros(r.max_rounds + 1, np.int64)
    for i in range(n):
        w, changes, half, _ = play_game(
            B, r, deck0, pids, prm, seeds[i], card, ship, pl, hand, g, deck, buf, laid_heat[i],
            blocked_heat[i], lead, False, rec, rec_n, ext,
        )  # fmt: skip
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
    B = BD.arrays(rules.data_dir, int(rules.finish_tokens), bool(rules.three_token_victory))
    r = engine_rules(rules)
    counts = np.asarray(rules.card_counts, np.int64)
    deck0 = np.repeat(np.arange(counts.shape[0], dtype=np.int64), counts)
    return B, r, deck0


def play_chunk(
    rules, n_players: int, policy_ids, policy_params, seeds, rec=None, rec_n=None, outside=None
) -> dict[str, np.ndarray]:
    """The engine contract of ``simulator.games``: play one chunk, return its columns (recording
    its events into ``rec``/``rec_n`` when given). ``outside``: the compiled functions of
    policies from a --policy-file (``simulator.policy_file.engine_tuples``); None compiles the
    engine without that path."""
    if rec is None:
        rec, rec_n = no_recording(EVENT_WIDTH)
    B, r, deck0 = engine_inputs(rules)
    out = play_games(
        B, r, deck0, np.int64(n_players), np.asarray(policy_ids, np.int64),
        np.asarray(policy_params, np.float64), np.asarray(seeds, np.int64),
        np.int64(len(rules.card_counts)), np.int64(deck0.shape[0]), rec, rec_n, outside,
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
    card, ship, pl, hand, g, deck = S.new_state(
        n_players, nc, len(rules.card_counts), deck0.shape[0]
    )
    buf = np.zeros((MAX_PLACE, 2), np.int64)
    laid = np.zeros(nc, np.int64)
    blocked = np.zeros(nc, np.int64)
    lead = np.zeros(int(rules.max_rounds) + 1, np.int64)
    winner, changes, half, problems = play_game(
        B, r, deck0, np.asarray(policy_ids, np.int64), np.asarray(policy_params, np.float64),
        np.int64(seed), card, ship, pl, hand, g, deck, buf, laid, blocked, lead, True,
        *no_recording(EVENT_WIDTH),
    )  # fmt: skip
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
