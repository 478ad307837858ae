"""The compiled game loop: one call plays every attempt of a chunk.

An attempt: choose the communication mode (unknown terrain draws a colour card), deal, draw tasks
to the mission's difficulty (redeal or redraw when the notes call the set impossible), allocate
them by the mission's rule, predictions, optional distress signal, then tricks with a
communication phase before each, until a task or mission rule fails or everything is done.
Every rule it applies is called from :mod:`.turn`; the mission travels as a :class:`Mission`
(configuration and task table) and the game in progress as a :class:`~.state.State`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from policies.crew_deep_sea import (
    EXPERT,
    HEURISTIC,
    OMNISCIENT,
    OMNISCIENT_P,
    RANDOM,
    SAMPLER,
    heuristic_params,
    search_line,
)
from simulator.contract.recording import no_recording
from simulator.contract.rules import index_slots, slot_array

from . import outside as X  # the decisions: built-in, or a --policy-file's on its seat's view
from . import record as R
from .board import (
    ALLOCATIONS,
    COMMUNICATIONS,
    EPILOGUE,
    OBJECTIVES,
    UNTIMED_COMMUNICATION,
    missions,
    task_table,
)
from .rules import Rules
from .state import (
    C_WIN_EXACT_TRICKS_PREDICTED,
    COMM_RAPTURE,
    COMM_TERRAIN,
    DONE,
    FAILED,
    MAX_TASKS,
    NC,
    O_COMMBY,
    O_HOLDER,
    O_TASK,
    O_TRICKS,
    O_TSTATE,
    O_TX,
    PENDING,
    S_BALANCE1,
    S_CAPTAIN,
    S_COMM_FROM,
    S_COMM_MODE,
    S_COMM_UNTIL,
    S_DISTRESS,
    S_DONE,
    S_DUMMY,
    S_LEAD_ILLEGAL,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    S_POOL,
    S_RAPTURE_SEVERAL,
    S_SINGLE_ANY,
    S_SUM_ABOVE,
    S_SUM_BELOW,
    State,
    add_dummy,
    current_player,
    dummy_view,
    new_state,
)
from .turn import (
    comm_claims,
    communicate,
    deal_impossible,
    distress_pass,
    draw_tasks,
    finish_trick,
    legal_cards,
    may_communicate,
    pass_target,
    play_card,
)
from .verdicts import (
    END_ALL_PLAYED,
    END_ATTEMPT_CAP,
    END_SUCCESS,
    ONGOING,
    eval_task,
    evaluate,
    single_trick_task,
    verdict,
)

END_REASONS = ("success", "task_failed", "mission_rule_failed", "all_tricks_played", "attempt_cap")
assert END_REASONS.index("attempt_cap") == END_ATTEMPT_CAP and END_ALL_PLAYED == 3

# allocation codes (board.ALLOCATIONS)
A_NORMAL, A_ONE_TAKES_ALL, A_CAPTAIN_ALL_OR_ONE, A_ONE_VOLUNTEER, A_TWO_VOLUNTEERS = range(5)
A_HARDEST_TO_CAPTAIN, A_CAPTAIN_NONE, A_FREE, A_NONE = 5, 6, 7, 8
# The mission and the rules in force reach compiled code as two int64 vectors read by name
# (`mcfg[M.allocation]`); `engine_inputs` fills them with `slot_array`, which checks every name.
M = index_slots(
    "MissionSlot",
    ("target", "allocation", "communication", "objective", "balance1", "comm_from", "n_fixed"),
)
RC = index_slots(
    "RuleSlot",
    (
        "lead_illegal",
        "single_any",
        "redraw",
        "forced",
        "distress",
        "direction",
        "hardest_tie",
        "sum_above",
        "sum_below",
        "dummy_seat",
        "volunteer_order",
        "recipient",
        "predict_after",
        "rapture_several",
    ),
)
REDRAW_REDEAL, REDRAW_TASKS, REDRAW_NONE = 0, 1, 2
DISTRESS_POLICY, DISTRESS_NEVER, DISTRESS_ALWAYS = 0, 1, 2
DIRECTION_AGREED, DIRECTION_LEFT, DIRECTION_RIGHT = 0, 1, 2
SEAT_AGREED, SEAT_AFTER_CAPTAIN, SEAT_BEFORE_CAPTAIN = 0, 1, 2
VOLUNTEER_ENDING_CAPTAIN, VOLUNTEER_FROM_CAPTAIN = 0, 1
RECIPIENT_WILLING, RECIPIENT_RANDOM = 0, 1
MAX_REDRAWS = 200
FREE_LOAD_PENALTY = 0.15


# -- setup -----------------------------------------------------------------------------------
@njit(cache=True)
def terrain_mode(rank):
    """Unknown terrain: a colour card of rank 1-3 normal, 4-6 currents, 7-9 rapture."""
    return (rank - 1) // 3


@njit(cache=True)
def deal(n_players):
    """Holder of every card (all 40 dealt; 3 players: seat 0 gets 14) and the captain."""
    order = np.random.permutation(NC)
    owner = np.empty(NC, np.int64)
    for i in range(NC):
        owner[order[i]] = i % n_players
    return owner, owner[39]


DUMMY_SEAT = 2  # 2 players: the dummy is seat 2 (trick order 0, 1, 2)
DUMMY_STACKS = 7


@njit(cache=True)
def deal_with_dummy(seat=SEAT_AGREED):
    """2 players: submarine 4 set aside, 7 cards face down with 7 face up on them for the dummy
    (seat 2), submarine 4 shuffled back, 13 to each human. Returns (holders, captain, face-up
    cards, face-down cards below them). ``seat``: the dummy's place, agreed before the deal
    (seat 2 whoever turns out captain), or right after or right before the captain in trick
    order (the humans' hands are relabelled so that the captain sits in seat 1 or seat 0)."""
    order = np.random.permutation(NC - 1)  # every card but submarine 4 (card 39)
    owner = np.empty(NC, np.int64)
    down = order[:DUMMY_STACKS].copy()
    up = order[DUMMY_STACKS : 2 * DUMMY_STACKS].copy()
    for i in range(2 * DUMMY_STACKS):
        owner[order[i]] = DUMMY_SEAT
    rest = np.empty(NC - 2 * DUMMY_STACKS, np.int64)
    rest[:-1] = order[2 * DUMMY_STACKS :]
    rest[-1] = NC - 1
    rest = rest[np.random.permutation(rest.shape[0])]
    for i in range(rest.shape[0]):
        owner[rest[i]] = i % 2
    want = 1 if seat == SEAT_AFTER_CAPTAIN else 0  # trick order 1, 2, 0 / 0, 1, 2
    if seat != SEAT_AGREED and owner[NC - 1] != want:
        for c in range(NC):
            if owner[c] < 2:
                owner[c] = 1 - owner[c]
    return owner, owner[NC - 1], up, down


@njit(cache=True)
def deal_state(n_players, dummy_seat=SEAT_AGREED):
    """A fresh state for a deal; 2 players get the dummy as a third seat."""
    if n_players == 2:
        owner, captain, up, down = deal_with_dummy(dummy_seat)
        s = new_state(3, owner, captain)
        add_dummy(s, DUMMY_SEAT, up, down)
        return s
    owner, captain = deal(n_players)
    return new_state(n_players, owner, captain)


@njit(cache=True)
def _replace_conflicts(rows, n, values, forced, order):
    """Two drawn tasks forcing the same trick: replace the later one by an undrawn task of
    equal value that forces nothing already forced."""
    for j in range(1, n):
        used = 0
        for i in range(j):
            used |= forced[rows[i]]
        if used & forced[rows[j]] == 0:
            continue
        for row in order:
            if values[row] != values[rows[j]] or used & forced[row] != 0:
                continue
            taken = False
            for i in range(n):
                if rows[i] == row:
                    taken = True
            if not taken:
                rows[j] = row
                break


@njit(cache=True)
def draw_mission_tasks(mcfg, fixed, values, forced, replace_conflicts, n_players, rows, used=None):
    """Task rows of one attempt (fixed tasks, none, or a draw to the exact difficulty). With
    ``used`` (campaign: 1 for task cards already used), the draw skips used cards; when the
    rest cannot make the difficulty exactly, the used pile is shuffled back in."""
    if mcfg[M.n_fixed] > 0:
        for i in range(mcfg[M.n_fixed]):
            rows[i] = fixed[i]
        return mcfg[M.n_fixed]
    if mcfg[M.target] <= 0:
        return 0
    order = np.random.permutation(values.shape[0])
    n = -1
    if used is not None:
        fresh = order[used[order] == 0]
        n = draw_tasks(fresh, values, mcfg[M.target], rows)
        if n >= 0:
            order = fresh
        else:  # the deck ran low: the used pile goes back in
            used[:] = 0
    if n < 0:
        n = draw_tasks(order, values, mcfg[M.target], rows)
    alloc = mcfg[M.allocation]
    turn_based = alloc == A_NORMAL or alloc == A_HARDEST_TO_CAPTAIN or alloc == A_CAPTAIN_NONE
    if replace_conflicts and turn_based and n <= n_players:
        _replace_conflicts(rows, n, values, forced, order)
    return n


# -- allocation ------------------------------------------------------------------------------
@njit(cache=True)
def chooser(s, q):
    """The seat whose policy decides for ``q``: the captain decides for the dummy."""
    return s[S_CAPTAIN] if q == s[S_DUMMY] else q


@njit(cache=True)
def view_for(s, q):
    """The state ``q``'s decisions are made from: for the dummy, the captain's view of it."""
    return dummy_view(s) if q == s[S_DUMMY] else s


@njit(cache=True)
def select_in_turn(s, start, eligible, pids, prms, ttype, tparams, barred, ext=None,
                   searching=None):  # fmt: skip
    """Eligible players take one open task per turn, clockwise from ``start``; the captain never
    takes a captain-comparison task."""
    n_players = eligible.shape[0]
    avail = np.empty(MAX_TASKS, np.int64)
    turn = start
    n_eligible = 0
    for q in range(n_players):
        n_eligible += eligible[q]
    # fewer tasks than players: in the first round a player may pass while enough players
    # are still to come to take the open tasks
    passing_round = s[S_NTASKS] < n_eligible
    to_come = n_eligible
    for _ in range(MAX_TASKS * 8):
        n_open = 0
        for k in range(s[S_NTASKS]):
            if s[O_HOLDER + k] < 0:
                n_open += 1
        if n_open == 0:
            return
        q = turn
        turn = (turn + 1) % n_players
        if not eligible[q]:
            continue
        na = 0
        for k in range(s[S_NTASKS]):
            if s[O_HOLDER + k] < 0 and not (q == s[S_CAPTAIN] and barred[s[O_TASK + k]] == 1):
                avail[na] = k
                na += 1
        to_come -= 1
        may_pass = passing_round and to_come >= n_open
        if na > 0:
            w = chooser(s, q)
            i = X.pick(
                ext, view_for(s, q), q, avail, na, may_pass, pids[w], prms[w], ttype, tparams,
                searching,
            )  # fmt: skip
            if i >= 0:
                s[O_HOLDER + avail[i]] = q


@njit(cache=True)
def _any_barred(s, barred):
    for k in range(s[S_NTASKS]):
        if barred[s[O_TASK + k]] == 1:
            return True
    return False


@njit(cache=True)
def _give_all(s, q):
    for k in range(s[S_NTASKS]):
        s[O_HOLDER + k] = q


@njit(cache=True)
def allocate(st, m, pids, prms, ext=None, searching=None):
    """Give every task a holder following the mission's allocation rule (``m``: the
    :class:`Mission`; the captain decides for the 2-player dummy). ``searching``: None unless a
    seat searches (``play_attempts``)."""
    s, ttype, tparams = st
    alloc = m.mcfg[M.allocation]
    values = m.values
    barred = m.barred
    hardest_tie = m.rcfg[RC.hardest_tie]
    volunteer_order = m.rcfg[RC.volunteer_order]
    recipient = m.rcfg[RC.recipient]
    n_players = pids.shape[0]
    n = s[S_NTASKS]
    cap = s[S_CAPTAIN]
    if n == 0:
        return
    cap_ok = not _any_barred(s, barred)
    eligible = np.ones(n_players, np.bool_)  # the dummy is a crew member: the captain picks for it
    if alloc == A_NORMAL:
        select_in_turn(s, cap, eligible, pids, prms, ttype, tparams, barred, ext, searching)
    elif alloc == A_CAPTAIN_NONE:
        eligible[cap] = False
        left = (cap + 1) % n_players
        select_in_turn(s, left, eligible, pids, prms, ttype, tparams, barred, ext, searching)
    elif alloc == A_HARDEST_TO_CAPTAIN:
        top = -1
        for k in range(n):
            if barred[s[O_TASK + k]] == 0:
                top = max(top, values[s[O_TASK + k]])
        if top >= 0:
            tied = np.empty(MAX_TASKS, np.int64)
            nt = 0
            for k in range(n):
                if barred[s[O_TASK + k]] == 0 and values[s[O_TASK + k]] == top:
                    tied[nt] = k
                    nt += 1
            i = 0
            if hardest_tie == 1 and nt > 1:
                i = X.pick(
                    ext, s, cap, tied, nt, False, pids[cap], prms[cap], ttype, tparams, searching
                )
            s[O_HOLDER + tied[i]] = cap
        left = (cap + 1) % n_players
        select_in_turn(s, left, eligible, pids, prms, ttype, tparams, barred, ext, searching)
    elif alloc == A_ONE_TAKES_ALL:
        best = -1
        best_bid = -1e9
        for i in range(n_players):
            q = (cap + i) % n_players
            if q == cap and not cap_ok:
                continue
            bid = 0.0
            w = chooser(s, q)
            v = view_for(s, q)
            for k in range(n):
                bid += X.task_bid(
                    ext, v, q, s[O_TASK + k], pids[w], prms[w], ttype, tparams, searching
                )
            if bid > best_bid:
                best_bid = bid
                best = q
        _give_all(s, best)
    elif alloc == A_CAPTAIN_ALL_OR_ONE:
        if cap_ok and X.volunteer(ext, s, cap, pids[cap], prms[cap], ttype, tparams, searching):
            _give_all(s, cap)
        else:
            q = (cap + 1 + np.random.randint(n_players - 1)) % n_players
            if recipient == RECIPIENT_WILLING:  # the first member from the captain's left who
                for i in range(1, n_players):  # agrees; nobody agrees: the left neighbour
                    r = (cap + i) % n_players
                    w = chooser(s, r)
                    if X.volunteer(
                        ext, view_for(s, r), r, pids[w], prms[w], ttype, tparams, searching
                    ):
                        q = r
                        break
                    if i == n_players - 1:
                        q = (cap + 1) % n_players
            _give_all(s, q)
            s[S_COMM_UNTIL] = 1  # given away: communication only before the first trick
    elif alloc == A_ONE_VOLUNTEER or alloc == A_TWO_VOLUNTEERS:
        want = 1 if alloc == A_ONE_VOLUNTEER else 2
        chosen = np.full(2, -1, np.int64)
        nc = 0
        first = cap + 1 if volunteer_order == VOLUNTEER_ENDING_CAPTAIN else cap
        for i in range(n_players):
            q = (first + i) % n_players
            if nc < want and (q != cap or cap_ok or want == 2):
                w = chooser(s, q)
                if X.volunteer(ext, view_for(s, q), q, pids[w], prms[w], ttype, tparams, searching):
                    chosen[nc] = q
                    nc += 1
        for i in range(n_players):  # nobody (or one) said yes: the next in turn takes it
            q = (first + i) % n_players
            ok = q != chosen[0] and (q != cap or cap_ok or want == 2)
            if nc < want and ok:
                chosen[nc] = q
                nc += 1
        if want == 1:
            _give_all(s, chosen[0])
        else:
            eligible[:] = False
            eligible[chosen[0]] = True
            eligible[chosen[1]] = True
            select_in_turn(
                s, chosen[0], eligible, pids, prms, ttype, tparams, barred, ext, searching
            )
    elif alloc == A_FREE:
        order = np.argsort(-values[s[O_TASK : O_TASK + n]], kind="mergesort")
        load = np.zeros(n_players)
        for j in range(n):
            k = order[j]
            row = s[O_TASK + k]
            best = -1
            best_bid = -1e9
            for i in range(n_players):
                q = (cap + i) % n_players
                if q == cap and barred[row] == 1:
                    continue
                w = chooser(s, q)
                bid = X.task_bid(
                    ext, view_for(s, q), q, row, pids[w], prms[w], ttype, tparams, searching
                )
                bid -= FREE_LOAD_PENALTY * load[q]
                if bid > best_bid:
                    best_bid = bid
                    best = q
            s[O_HOLDER + k] = best
            load[best] += 1.0


@njit(cache=True)
def predict(s, pids, prms, ttype, tparams, ext=None):
    for k in range(s[S_NTASKS]):
        if ttype[s[O_TASK + k]] == C_WIN_EXACT_TRICKS_PREDICTED:
            h = s[O_HOLDER + k]
            w = chooser(s, h)
            s[O_TX + k] = X.predict(ext, view_for(s, h), h, k, pids[w], prms[w], ttype, tparams)


@njit(cache=True)
def pass_direction(s, rule, pids, prms, ttype, tparams, ext=None):
    """The direction of the distress pass: fixed by the rule, or agreed (seed: "los jugadores
    pueden acordar la dirección"): each member states a preference from its own hand and the
    public tasks, the majority decides, a tie passes left."""
    if rule == DIRECTION_LEFT:
        return 1
    if rule == DIRECTION_RIGHT:
        return -1
    votes = 0
    for p in range(s[S_NP]):
        if p != s[S_DUMMY]:  # the captain speaks for the dummy with its own vote
            votes += X.direction(ext, s, p, pids[p], prms[p], ttype, tparams)
    return -1 if votes < 0 else 1


@njit(cache=True)
def single_trick_blocked(s, rows, n, ttype, tparams, rcfg):
    """Do the hands already rule out a drawn single-trick task (no trick of that kind can form,
    e.g. all cards below 7 while one member holds none)? Such a set makes the mission
    impossible, which the seed redeals."""
    t = s.copy()
    t[S_SUM_ABOVE] = rcfg[RC.sum_above]
    t[S_SUM_BELOW] = rcfg[RC.sum_below]
    t[S_NTASKS] = max(n, 0)
    for k in range(max(n, 0)):
        t[O_TASK + k] = rows[k]
        t[O_HOLDER + k] = 0  # before any trick the verdict does not depend on the holder
        t[O_TSTATE + k] = PENDING
    for k in range(max(n, 0)):
        ct = ttype[rows[k]]
        if single_trick_task(ct) and eval_task(t, k, ttype, tparams, False) == FAILED:
            return True
    return False


@njit(cache=True)
def impossible_set(s, rows, n, redeal, ttype, tparams, rcfg):
    return deal_impossible(s, rows, n, redeal) or single_trick_blocked(
        s, rows, n, ttype, tparams, rcfg
    )


# -- the attempt -----------------------------------------------------------------------------
@njit(cache=True)
def setup_attempt(n_players, m, rows, used=None):
    """Communication mode, deal and tasks of one attempt of mission ``m`` (a :class:`Mission`).
    Returns (state vector, redraws)."""
    mcfg, fixed, rcfg, values, ttype, tparams, redeal, forced, _, _ = m
    mode = mcfg[M.communication]
    if mode == COMM_TERRAIN:
        mode = terrain_mode(np.random.randint(36) % 9 + 1)
    s = deal_state(n_players, rcfg[RC.dummy_seat])
    n = draw_mission_tasks(mcfg, fixed, values, forced, rcfg[RC.forced] == 1, n_players, rows, used)
    redraws = 0
    if rcfg[RC.redraw] != REDRAW_NONE:
        while redraws < MAX_REDRAWS and impossible_set(s, rows, n, redeal, ttype, tparams, rcfg):
            redraws += 1
            if rcfg[RC.redraw] == REDRAW_REDEAL:
                s = deal_state(n_players, rcfg[RC.dummy_seat])
            else:
                n = draw_mission_tasks(
                    mcfg, fixed, values, forced, rcfg[RC.forced] == 1, n_players, rows, used
                )
    s[S_COMM_MODE] = mode
    s[S_POOL] = s[S_NP] - 2 if mode == COMM_RAPTURE else 0  # the dummy counts as a member
    s[S_OBJECTIVE] = mcfg[M.objective]
    s[S_BALANCE1] = mcfg[M.balance1]
    s[S_COMM_FROM] = mcfg[M.comm_from]
    s[S_LEAD_ILLEGAL] = rcfg[RC.lead_illegal]
    s[S_SINGLE_ANY] = rcfg[RC.single_any]
    s[S_SUM_ABOVE] = rcfg[RC.sum_above]
    s[S_SUM_BELOW] = rcfg[RC.sum_below]
    s[S_RAPTURE_SEVERAL] = rcfg[RC.rapture_several]
    s[S_NTASKS] = n
    for k in range(n):
        s[O_TASK + k] = rows[k]
        s[O_HOLDER + k] = -1
        s[O_TSTATE + k] = PENDING
        s[O_TX + k] = -1
    return s, redraws


@njit(cache=True)
def communication_phase(s, pids, prms, ttype, tparams, ext=None, searching=None):
    """Before a trick, from the leader clockwise, each player may show a card; under rapture
    of the deep (``S_RAPTURE_SEVERAL``), a member may take another token at once while any is
    left."""
    n_players = pids.shape[0]
    several = s[S_RAPTURE_SEVERAL] == 1
    for i in range(n_players):
        q = (current_player(s) + i) % n_players
        if q == s[S_DUMMY]:
            continue
        for _ in range(NC):
            if not may_communicate(s, q):
                break
            c, claim = X.comm(ext, s, q, pids[q], prms[q], ttype, tparams, searching)
            if c < 0 or s[O_COMMBY + c] >= 0:
                break
            if ((comm_claims(s, q, c) >> claim) & 1) == 0:
                raise ValueError("policy made an untrue or illegal sonar claim")
            communicate(s, q, c, claim)
            if not (several and s[S_COMM_MODE] == COMM_RAPTURE):
                break


@njit(cache=True)
def seat_card(s, q, legal, n, pids, prms, ttype, tparams, ext=None, searching=None):
    """The card seat ``q`` plays. The dummy's is chosen by the captain's policy from the seat of
    the dummy, seeing its face-up cards as everyone does and not its face-down ones."""
    if q == s[S_DUMMY]:
        cap = s[S_CAPTAIN]
        v = dummy_view(s)
        return X.play(ext, v, cap, q, legal, n, pids[cap], prms[cap], ttype, tparams, searching)
    return X.play(ext, s, q, q, legal, n, pids[q], prms[q], ttype, tparams, searching)


@njit(cache=True)
def play_out(st, pids, prms, line, line_len, budget, rec, rec_n, seen, ext=None,
             searching=None):  # fmt: skip
    """Play tricks until the mission is decided. ``line`` (if line_len >= 0) dictates the cards.
    With ``budget`` > 0 (omniscient crew) and no line, every trick starts with a new search from
    the position reached, its budget scaled by the tricks left. Returns (end reason, tricks
    played, search nodes used). ``rec``/``rec_n``/``seen``: the recording (``record.py``).
    ``searching`` None (no seat searches) compiles it without the searches."""
    s, ttype, tparams = st
    n_players = pids.shape[0]
    legal = np.empty(NC, np.int64)
    tf, rf, done = evaluate(s, ttype, tparams, False)
    step = 0
    nodes = 0
    while True:
        R.record_progress(rec, rec_n, s, seen, rf)
        end = verdict(tf, rf, done, s)
        if end != ONGOING:
            return end, s[S_DONE], nodes
        if searching is not None and line_len < 0 and budget > 0 and s[S_DONE] > 0:
            rem = s[S_NTRICKS] - s[S_DONE]
            found, used = search_line(s, ttype, tparams, budget * rem // s[S_NTRICKS], line)
            nodes += used
            if found >= 0:
                line_len = found
                step = 0
        if line_len < 0:
            communication_phase(s, pids, prms, ttype, tparams, ext, searching)
        for _ in range(n_players):
            q = current_player(s)
            n = legal_cards(s, q, legal)
            if 0 <= step < line_len:
                c = line[step]
            else:
                c = seat_card(s, q, legal, n, pids, prms, ttype, tparams, ext, searching)
            ok = False
            for i in range(n):
                ok = ok or legal[i] == c
            if not ok:
                raise ValueError("policy chose an illegal card")
            R.record_shown(rec, rec_n, s, seen)
            play_card(s, q, c)
            R.record_play(rec, rec_n, s, q, c, n, seen)
            step += 1
        finish_trick(s)
        tf, rf, done = evaluate(s, ttype, tparams, False)


@njit(cache=True)
def free_predictions(s, ttype):
    for k in range(s[S_NTASKS]):
        if ttype[s[O_TASK + k]] == C_WIN_EXACT_TRICKS_PREDICTED:
            s[O_TX + k] = -2


@njit(cache=True)
def _fix_predictions(st, line, line_len, pids, prms):
    """After a search with free predictions: X = the tricks the holder takes along the line."""
    s = st.v
    sim = s.copy()
    rec, rec_n = np.zeros((0, 3), np.int64), np.zeros(1, np.int64)  # a what-if: not recorded
    what_if = State(sim, st.ttype, st.tparams)
    play_out(what_if, pids, prms, line, line_len, 0, rec, rec_n, np.empty(0, np.int64))
    for k in range(s[S_NTASKS]):
        if s[O_TX + k] == -2:
            s[O_TX + k] = sim[O_TRICKS + s[O_HOLDER + k]]


@njit(cache=True)
def play_attempts(n_players, m, policy_ids, policy_params, seeds, rec, rec_n, used_tasks=None,
                  ext=None, searching=None):  # fmt: skip
    """One attempt of mission ``m`` (a :class:`Mission`) per seed; the returned columns are
    those of :func:`play_attempt_chunk`. ``searching``: None unless a seat searches (expert,
    sampler, omniscient: :func:`searches`), so that a run without one never compiles them."""
    _, _, rcfg, _, ttype, tparams, _, _, _, width = m
    n_games = seeds.shape[0]
    success = np.zeros(n_games, np.bool_)
    length = np.zeros(n_games, np.int64)
    reason = np.zeros(n_games, np.int64)
    scores = np.zeros((n_games, n_players), np.int64)  # humans only (not the dummy's tasks)
    tasks = np.full((n_games, width), -1, np.int64)
    holders = np.full((n_games, width), -1, np.int64)
    done_out = np.full((n_games, width), -1, np.int64)
    distress = np.zeros(n_games, np.bool_)
    redraws = np.zeros(n_games, np.int64)
    captain = np.zeros(n_games, np.int64)
    comm_mode = np.zeros(n_games, np.int64)
    nodes_out = np.zeros(n_games, np.int64)
    rows = np.empty(MAX_TASKS, np.int64)
    n_humans = n_players
    if n_players == 2:  # the dummy is a third seat, played by the captain's policy
        n_players = 3
        seat_ids = np.empty(3, np.int64)
        seat_params = np.empty((3, policy_params.shape[1]))
        for p in range(3):
            seat_ids[p] = policy_ids[p % 2]
            seat_params[p] = policy_params[p % 2]
        policy_ids = seat_ids
        policy_params = seat_params
    omniscient = searching is not None
    for p in range(n_players):
        omniscient = omniscient and policy_ids[p] == OMNISCIENT
    play_ids = policy_ids.copy()
    for p in range(n_players):
        if play_ids[p] == OMNISCIENT:
            play_ids[p] = HEURISTIC
    random_ids = np.full(n_players, RANDOM, np.int64)
    line = np.empty(NC, np.int64)
    play_params = policy_params.copy()
    if omniscient:  # its allocation and fallback play are the heuristic's, with its defaults
        play_params = np.empty((n_players, policy_params.shape[1]))
        for p in range(n_players):
            play_params[p] = heuristic_params(policy_params.shape[1])
    for g in range(n_games):
        np.random.seed(seeds[g])
        s, redraws[g] = setup_attempt(n_humans, m, rows, used_tasks)
        dealt = R.record_deal(rec, rec_n, s, redraws[g])
        line_len = -1
        search_budget = 0
        if searching is not None and omniscient:
            budget = int(policy_params[0, OMNISCIENT_P.nodes])
            tries = int(policy_params[0, OMNISCIENT_P.allocations])
            search_budget = budget // tries
            first = s.copy()
            for a in range(tries):
                trial = first.copy()
                ids = play_ids if a == 0 else random_ids
                allocate(State(trial, ttype, tparams), m, ids, play_params)
                if a == 0:
                    s = trial.copy()
                free_predictions(trial, ttype)
                found, used = search_line(trial, ttype, tparams, budget // tries, line)
                nodes_out[g] += used
                if found >= 0:
                    s = trial
                    line_len = found
                    found_st = State(s, ttype, tparams)
                    _fix_predictions(found_st, line, line_len, play_ids, play_params)
                    break
            if line_len < 0:
                predict(s, play_ids, play_params, ttype, tparams)
        else:
            allocate(State(s, ttype, tparams), m, play_ids, play_params, ext, searching)
            if not rcfg[RC.predict_after]:
                predict(s, play_ids, play_params, ttype, tparams, ext)
            call = rcfg[RC.distress] == DISTRESS_ALWAYS
            if rcfg[RC.distress] == DISTRESS_POLICY:
                for p in range(n_players):
                    if p == s[S_DUMMY]:
                        continue
                    call = call or X.distress(
                        ext, s, p, play_ids[p], play_params[p], ttype, tparams
                    )
            if call:
                d = pass_direction(
                    s, rcfg[RC.direction], play_ids, play_params, ttype, tparams, ext
                )
                cards = np.full(n_players, -1, np.int64)
                for p in range(n_players):  # the captain chooses the dummy's card
                    to = pass_target(s, p, d)
                    w = chooser(s, p)
                    cards[p] = X.pass_card(
                        ext, view_for(s, p), p, to, play_ids[w], play_params[w], ttype, tparams
                    )
                distress_pass(s, cards, d)
                s[S_DISTRESS] = 1
            if rcfg[RC.predict_after]:
                predict(s, play_ids, play_params, ttype, tparams, ext)
        distress[g] = s[S_DISTRESS] == 1
        captain[g] = s[S_CAPTAIN]
        comm_mode[g] = s[S_COMM_MODE]
        seen = R.record_preparation(rec, rec_n, s, dealt)
        reason[g], length[g], used = play_out(
            State(s, ttype, tparams), play_ids, play_params, line, line_len, search_budget, rec,
            rec_n, seen, ext, searching,
        )  # fmt: skip
        nodes_out[g] += used
        success[g] = reason[g] == END_SUCCESS
        R.record_end(rec, rec_n, s, reason[g], length[g])
        for k in range(min(s[S_NTASKS], width)):
            tasks[g, k] = s[O_TASK + k] + 1
            holders[g, k] = s[O_HOLDER + k]
            done_out[g, k] = 1 if s[O_TSTATE + k] == DONE else 0
            if s[O_TSTATE + k] == DONE and s[O_HOLDER + k] < n_humans:
                scores[g, s[O_HOLDER + k]] += 1
    return (
        success,
        length,
        reason,
        scores,
        tasks,
        holders,
        done_out,
        distress,
        redraws,
        captain,
        comm_mode,
        nodes_out,
    )


# -- Python side -----------------------------------------------------------------------------
Mission = namedtuple("Mission", "mcfg fixed rcfg values ttype tparams redeal forced barred width")
Mission.__doc__ = """One mission as the compiled engine plays it: its configuration (``mcfg``
read by ``M``, the rules in force ``rcfg`` read by ``RC``, the printed tasks ``fixed``, the task
values for this player count), the task table (``ttype``, ``tparams``, ``redeal``, ``forced``,
``barred``: ``board.TaskTable``) and ``width``, the task columns of a row."""


def engine_inputs(rules, n_players: int) -> Mission:
    """Resolve the mission and the rule options into the engine's integer vectors."""
    table = task_table(rules)
    mission = missions(rules)[rules.mission]
    number = mission.number
    target = mission.target
    if number == 3:
        target = rules.mission3_target
    elif number == 26:
        target = rules.mission26_target
    elif number == EPILOGUE:
        target = rules.epilogue_difficulty
    comm = UNTIMED_COMMUNICATION.get(number, mission.communication)
    if number == 16 and rules.mission16_untimed == "terrain":
        comm = "terrain"
    if rules.communication == "none":
        comm = "none"
    elif rules.communication == "normal":
        comm = "normal"
    fixed = np.array([table.row(k) for k in mission.fixed_tasks] or [0], np.int64)
    n_fixed = len(mission.fixed_tasks)
    values = table.difficulty[:, min(max(n_players, 3), 5) - 3].copy()
    if n_players == 4 and "win_pink9_yellow8" in table.keys:
        values[table.row("win_pink9_yellow8")] = rules.pink9_yellow8_4p
    mcfg = slot_array(
        M,
        target=target if not n_fixed else 0,
        allocation=ALLOCATIONS.index(mission.allocation),
        communication=COMMUNICATIONS.index(comm),
        objective=OBJECTIVES.index(mission.objective),
        balance1=int(number == 20 and rules.mission20_ones_rule),
        comm_from=(1 if rules.mission23_communication == "before_trick_2" else 2)
        if mission.objective == "first_winner_leads"
        else 0,
        n_fixed=n_fixed,
    )
    idx = min(max(n_players, 3), 5) - 3
    rcfg = slot_array(
        RC,
        lead_illegal=int(rules.mission12_forbidden_lead == "illegal"),
        single_any=int(rules.single_card_claim == "any"),
        redraw=Rules.choice_index("redraw_policy", rules.redraw_policy),
        forced=int(rules.forced_conflicts),
        distress=Rules.choice_index("distress", rules.distress),
        direction=Rules.choice_index("distress_direction", rules.distress_direction),
        hardest_tie=int(rules.hardest_tie == "captain_chooses"),
        sum_above=rules.trick_sum_above[idx],
        sum_below=rules.trick_sum_below[idx],
        dummy_seat=Rules.choice_index("dummy_seat", rules.dummy_seat),
        volunteer_order=Rules.choice_index("volunteer_order", rules.volunteer_order),
        recipient=Rules.choice_index("mission10_recipient", rules.mission10_recipient),
        predict_after=int(rules.prediction_time == "after_distress"),
        rapture_several=int(rules.rapture_several_per_phase),
    )
    width = max(1, min(MAX_TASKS, n_fixed or target))
    return Mission(
        mcfg, fixed, rcfg, values, table.ctype, table.params, table.redeal, table.forced,
        table.captain_barred, width,
    )  # fmt: skip


SEARCHING_POLICIES = (EXPERT, SAMPLER, OMNISCIENT)


def searches(policy_ids) -> np.ndarray | None:
    """The engine's ``searching`` switch: None when no seat plays a searching policy, so the
    searches are compiled only for runs that play them (about half of the engine's compile)."""
    ids = np.asarray(policy_ids, np.int64)
    return np.ones(1, np.int64) if np.isin(ids, SEARCHING_POLICIES).any() else None


def play_attempt_chunk(
    rules, n_players, policy_ids, policy_params, seeds, rec=None, rec_n=None, outside=None
) -> dict[str, np.ndarray]:
    """One attempt per game (recording the events of ``record.py`` into ``rec``/``rec_n`` when
    given: ``balance replay``). ``outside``: the compiled functions of policies from a
    --policy-file (``simulator.runs.policy_file.engine_tuples``); None compiles the engine without
    that path. The game's chunk function is ``campaign.play_chunk``."""
    if rec is None:
        rec, rec_n = no_recording(R.EVENT_WIDTH)
    out = play_attempts(
        n_players,
        engine_inputs(rules, n_players),
        np.asarray(policy_ids, np.int64),
        np.asarray(policy_params, np.float64),
        np.asarray(seeds, np.uint32),
        rec,
        rec_n,
        None,
        outside,
        searches(policy_ids),
    )
    success, length, reason, scores, tasks, holders, done, distress, redraws = out[:9]
    captain, comm_mode, nodes = out[9:]
    n = len(seeds)
    return {
        "winner": np.full(n, -1, np.int64),
        "success": success,
        "length": length,
        "end_reason": reason,
        "scores": scores,
        "crew_mission": np.full(n, rules.mission, np.int64),
        "crew_tasks": tasks,
        "crew_task_holders": holders,
        "crew_task_done": done,
        "crew_distress": distress,
        "crew_redraws": redraws,
        "crew_captain": captain,
        "crew_comm_mode": comm_mode,
        "crew_search_nodes": nodes,
        "crew_campaign_attempts": np.full((n, 1), -1, np.int64),
    }


COLUMNS = {
    "crew_mission": "mission attempted (1-32; 33 = epilogue)",
    "crew_tasks": "task card ids drawn (tasks.csv id, 1-96), in draw order, -1 padding",
    "crew_task_holders": "seat holding each drawn task (same order), -1 padding",
    "crew_task_done": "1 if that task was completed, 0 if not, -1 padding",
    "crew_distress": "distress signal used (counts as one more attempt)",
    "crew_redraws": "redeals/redraws because the deal made a task impossible (not attempts)",
    "crew_captain": "seat of the captain (holder of submarine 4)",
    "crew_comm_mode": "communication of the attempt: 0 normal, 1 currents, 2 rapture, 4 none",
    "crew_search_nodes": "cards tried by the omniscient search (0 for other policies)",
    "crew_campaign_attempts": "campaign: attempts at each mission 1-32 (distress counted), -1 "
    "not reached; -1 (one entry) for a single attempt",
}
