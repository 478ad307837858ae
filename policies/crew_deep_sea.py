"""Policies for The Crew: Mission Deep Sea.

Every ``decide_*`` function branches on the seat's policy id (static dispatch, see
docs/architecture.md) and reads only what that player may know: their own hand (``OWNER == p``),
the cards played and who won them, the tasks and their holders, shown voids and communicated
cards. Task evaluation inside a policy uses the public evaluator (``public=True``).
``omniscient`` is the exception by design: a crew-level search that sees every hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from simulator.crew_deep_sea.state import (
    C_COMPARE_TRICKS,
    C_NEVER_LEAD_SUITS,
    C_NEVER_STREAK,
    C_WIN_CARD_IN_LAST_TRICK,
    C_WIN_CARD_ONLY_SUB,
    C_WIN_CARD_WITH_SUB,
    C_WIN_CARDS,
    C_WIN_EACH_SUIT,
    C_WIN_EXACT_STREAK,
    C_WIN_EXACT_TRICKS,
    C_WIN_EXACT_TRICKS_PREDICTED,
    C_WIN_MORE_SUIT_THAN_SUIT,
    C_WIN_NONE,
    C_WIN_NONE_OF_FIRST,
    C_WIN_ONLY_TRICKS_AT,
    C_WIN_RANK_AT_LEAST,
    C_WIN_RANK_EXACTLY,
    C_WIN_RANK_WITH_RANK,
    C_WIN_STREAK,
    C_WIN_SUIT_AT_LEAST,
    C_WIN_SUIT_EXACTLY,
    C_WIN_TRICK_EQUAL_SUITS,
    C_WIN_TRICK_PARITY,
    C_WIN_TRICK_USING_RANK,
    C_WIN_TRICKS_AT,
    DONE,
    FAILED,
    HIGHEST,
    LOWEST,
    MAX_TASKS,
    MAXP,
    NC,
    O_BELOW,
    O_COMMBY,
    O_COMMK,
    O_CTRICK,
    O_DOWN,
    O_HANDN,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TCARDS,
    O_TRICKS,
    O_TSTATE,
    O_TWINNER,
    O_TX,
    O_URANK,
    O_USUIT,
    O_VOID,
    O_WINNER,
    O_WRANK,
    O_WSUIT,
    OBJ_BALANCE1,
    OBJ_BALANCE9,
    OBJ_FIRST_WINNER,
    OBJ_NO_LEAD,
    OBJ_NONE,
    OBJ_Y5_LAST,
    ONLY,
    PENDING,
    S_CAPTAIN,
    S_DONE,
    S_DUMMY,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    STATE_SIZE,
    SUB,
    beats,
    comm_claims,
    current_player,
    eval_objective,
    evaluate,
    finish_trick,
    finish_trick_as,
    forbidden_lead,
    led_suit,
    legal_cards,
    neighbour,
    play_card,
    rank_of,
    streaks,
    suit_of,
    trick_winner_card,
)
from simulator.policy import PolicyDef, PolicyParam

RANDOM, HEURISTIC, OMNISCIENT, EXPERT = 0, 1, 2, 3

POLICIES = {
    "random": PolicyDef(
        "random",
        RANDOM,
        "random legal card, random task pick, never calls distress",
        (PolicyParam("communicate", 0.0, 0.0, 1.0, "chance to show a random legal card"),),
    ),
    "heuristic": PolicyDef(
        "heuristic",
        HEURISTIC,
        "cooperative card play from its own information: scores each card by who will win "
        "the trick (later players overtake when the crew gains or when forced), wins its task "
        "cards, plays under others', sluffs task cards to their owners, sheds what it must not "
        "win; takes tasks its hand fits, uses the sonar to guide the crew, calls distress",
        (
            PolicyParam("caution", 0.5, 0.0, 1.0, "0.5 weighs a later card winning by its chance"),
            PolicyParam("comm_threshold", 2.5, 0.0, 10.0, "relevance needed to use the sonar"),
            PolicyParam("distress_below", 0.12, 0.0, 1.0, "call distress if a task fits below"),
            PolicyParam("volunteer", 0.4, 0.0, 1.0, "mean task fit needed to volunteer"),
            PolicyParam("pass_below", 0.55, 0.0, 1.0, "pass a task pick (when allowed) below"),
            PolicyParam("done_early", 3.0, 0.0, 20.0, "value of completing a task at trick 1"),
            PolicyParam("done_late", 12.0, 0.0, 40.0, "value of completing it at the last trick"),
        ),
    ),
    "omniscient": PolicyDef(
        "omniscient",
        OMNISCIENT,
        "sees every hand and searches for a line that completes the mission (an upper bound), "
        "heuristic card first; without a line it plays heuristic and searches again every "
        "trick; every seat must use it",
        (
            PolicyParam(
                "nodes",
                20000.0,
                10.0,
                1e8,
                "search budget in cards tried per attempt",
                integer=True,
                log=True,
            ),
            PolicyParam("allocations", 4.0, 1.0, 64.0, "task allocations tried", integer=True),
        ),
    ),
    "expert": PolicyDef(
        "expert",
        EXPERT,
        "plays from what it can know: at each card it samples deals consistent with the public "
        "information (cards played, shown voids, sonar cards, the dummy's face-up cards) and "
        "its own hand, solves each with the omniscient search and plays the card that "
        "completes the mission in most samples (a search out of nodes scores the best trick "
        "end it reached by the chance its pending tasks are kept), plus the heuristic "
        "crew's own playout of the sample; chooses tasks, bids and "
        "volunteers the same way (the others' picks completed as the heuristic's on each "
        "sample); talks and calls distress as heuristic, and reads other players' sonar cards "
        "into its samples",
        (
            PolicyParam(
                "samples",
                12.0,
                1.0,
                512.0,
                "deals sampled per card decision",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "nodes",
                3000.0,
                10.0,
                1e7,
                "search budget per card decision (cards)",
                integer=True,
                log=True,
            ),
            PolicyParam("comm_threshold", 2.5, 0.0, 10.0, "relevance needed to use the sonar"),
            PolicyParam(
                "pick_nodes",
                8000.0,
                10.0,
                1e7,
                "search budget per task choice or volunteering decision (cards)",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "playout",
                1.0,
                0.0,
                4.0,
                "weight of the heuristic crew's own playout of each sample beside the search",
            ),
        ),
    ),
}
# Parameter positions by name, generated from the declarations above.
RANDOM_P = POLICIES["random"].slots
HEURISTIC_P = POLICIES["heuristic"].slots
OMNISCIENT_P = POLICIES["omniscient"].slots
EXPERT_P = POLICIES["expert"].slots

W_FAIL = 20.0
W_PROGRESS = 1.5
W_AIM = 1.0
W_SINGLETON = 4.0
W_SHED = 0.3
W_LEAD_OTHERS = 3.0
W_HAZARD = 1.0
PARTIAL_CREDIT = 0.4
W_BALANCE = 1.5
Y5 = 13  # yellow 5 (mission 27)
NO_LEAD_MASK = (1 << 9) - 1 | (15 << 36)  # pink and submarines (mission 12)


# -- what a player knows ---------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def could_hold(s, q, c):
    """From public information: might player ``q`` hold the unplayed card ``c``?"""
    if s[O_COMMBY + c] >= 0 and s[O_CTRICK + c] < 0:
        return s[O_COMMBY + c] == q
    su = suit_of(c)
    if s[O_VOID + q * 5 + su] == 1:
        return False
    if su == SUB:
        return True
    for x in range(su * 9, su * 9 + 9):
        if s[O_COMMBY + x] == q and x != c:
            k = s[O_COMMK + x]
            if k == ONLY or (k == HIGHEST and c > x) or (k == LOWEST and c < x):
                return False
    return True


@njit(cache=True, _nrt=False)
def _known_to_hold_suit(s, q, su):
    for x in range(su * 9, su * 9 + 9):
        if s[O_COMMBY + x] == q and s[O_CTRICK + x] < 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _hold_prob(s, p, q, x, share):
    """Chance, from ``p``'s view, that ``q`` holds the unplayed card ``x`` (not ``p``'s)."""
    if s[O_COMMBY + x] >= 0:
        return 1.0 if s[O_COMMBY + x] == q else 0.0
    if not could_hold(s, q, x):
        return 0.0
    return share


@njit(cache=True, _nrt=False)
def take_probs(s, p, q, best, led):
    """From ``p``'s view: the chance that ``q`` (still to play) can beat ``best``, and the chance
    that it must (it holds led-suit cards and all of them beat ``best``). Cards ``p`` cannot see
    are treated as spread at random over the hands that may hold them."""
    unknown = 0
    for x in range(NC):
        if s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
            unknown += 1
    if unknown == 0:
        return 0.0, 0.0
    share = min(1.0, s[O_HANDN + q] / unknown)
    hi_miss = 1.0
    lo_miss = 1.0
    sub_miss = 1.0
    # the led suit's cards, then the submarines (the only cards that can beat ``best``), each
    # block in increasing order as before
    for block in range(2):
        first, stop = (led * 9, led * 9 + 9) if block == 0 else (36, NC)
        if block == 0 and not 0 <= led < SUB:
            continue
        for x in range(first, stop):
            if s[O_CTRICK + x] >= 0 or s[O_OWNER + x] == p:
                continue
            sx = suit_of(x)
            h = _hold_prob(s, p, q, x, share)
            if h == 0.0:
                continue
            if sx == led:
                if beats(x, best, led):
                    hi_miss *= 1.0 - h
                else:
                    lo_miss *= 1.0 - h
            elif beats(x, best, led):
                sub_miss *= 1.0 - h
    can = 1.0 - hi_miss
    forced = can * lo_miss
    if led != SUB and sub_miss < 1.0:
        # a hand of nothing but submarines must trump
        n_sub = 0
        for x in range(36, NC):
            if s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p and _hold_prob(s, p, q, x, 1.0) > 0:
                n_sub += 1
        all_sub = 1.0
        for i in range(s[O_HANDN + q]):
            all_sub *= max(0, n_sub - i) / max(1, unknown - i)
        forced += all_sub
    if led != SUB and not _known_to_hold_suit(s, q, led):
        can += hi_miss * lo_miss * (1.0 - sub_miss)  # void in the led suit, trumps
    return min(1.0, can), forced


@njit(cache=True, _nrt=False)
def task_targets(row, ttype, tparams):
    """Card mask a task's holder wants to win (0 for tasks without named cards)."""
    ct = ttype[row]
    if ct == C_WIN_CARDS:
        return tparams[row, 0]
    if ct == C_WIN_CARD_IN_LAST_TRICK or ct == C_WIN_CARD_ONLY_SUB or ct == C_WIN_CARD_WITH_SUB:
        return np.int64(1) << tparams[row, 0]
    return np.int64(0)


@njit(cache=True)
def is_avoid_task(row, ttype, tparams):
    """Tasks that want few tricks or certain cards kept away."""
    ct = ttype[row]
    if ct == C_WIN_NONE or ct == C_WIN_NONE_OF_FIRST or ct == C_WIN_ONLY_TRICKS_AT:
        return True
    if ct == C_NEVER_STREAK or ct == C_NEVER_LEAD_SUITS:
        return True
    if ct == C_WIN_EXACT_TRICKS and tparams[row, 0] <= 1:
        return True
    if ct == C_COMPARE_TRICKS and tparams[row, 0] == 1:
        return True
    if (ct == C_WIN_SUIT_EXACTLY or ct == C_WIN_RANK_EXACTLY) and tparams[row, 1] <= 1:
        return True
    return False


@njit(cache=True)
def _hand_profile(s, p):
    n = 0
    nsub = 0
    high = 0
    low = 0
    for c in range(NC):
        if s[O_OWNER + c] == p:
            n += 1
            if c >= 36:
                nsub += 1
            elif rank_of(c) >= 8:
                high += 1
            elif rank_of(c) <= 3:
                low += 1
    n = max(n, 1)
    power = min(1.0, (high + 1.5 * nsub) / n * 1.5)
    weak = min(1.0, (low + 0.3 * (n - high - nsub - low)) / n * 1.5)
    return nsub, power, weak


@njit(cache=True)
def _target_fit(s, p, x, nsub):
    su = suit_of(x)
    mine_higher = 0
    length = 0
    if su == SUB:
        for y in range(x + 1, NC):
            if s[O_OWNER + y] == p:
                mine_higher += 1
        if s[O_OWNER + x] == p:
            return min(0.95, 0.3 + 0.2 * (x - 35) + 0.15 * mine_higher)
        return min(0.9, 0.05 + 0.25 * mine_higher)
    for y in range(su * 9, su * 9 + 9):
        if s[O_OWNER + y] == p:
            length += 1
            if y > x:
                mine_higher += 1
    if s[O_OWNER + x] == p:  # my own card: it must outrank what the others hold
        return max(0.1, 0.9 - 0.12 * (9 - rank_of(x) - mine_higher))
    f = 0.25 + 0.2 * mine_higher + 0.06 * nsub
    if length <= 2 and nsub > 0:
        f += 0.1
    return min(0.9, f)


@njit(cache=True)
def _avoid_fit(s, p, m):
    """Fit of 'win none of these cards': each one I hold must be shed on someone else's trick,
    which the top card of a suit (or a high submarine) can hardly be."""
    f = 0.85
    for x in range(NC):
        if (m >> x) & 1 and s[O_OWNER + x] == p:
            if x >= 36:
                f -= 1.0 if x == 39 else 0.1 * (x - 34)
                continue
            top = True
            for y in range(x + 1, suit_of(x) * 9 + 9):
                if s[O_OWNER + y] != p and s[O_CTRICK + y] < 0:
                    top = False
            f -= 0.45 if top else 0.03 * rank_of(x)
    return max(0.0, f)


@njit(cache=True)
def task_fit(s, p, row, ttype, tparams):
    """How well ``p``'s own hand suits a task (0-1), from that hand only."""
    nsub, power, weak = _hand_profile(s, p)
    ct = ttype[row]
    m = task_targets(row, ttype, tparams)
    if m != 0:
        f = 1.0
        for x in range(NC):
            if (m >> x) & 1:
                f *= _target_fit(s, p, x, nsub)
        if ct == C_WIN_CARD_IN_LAST_TRICK:
            f *= 0.6
        elif ct == C_WIN_CARD_WITH_SUB:
            f = min(0.9, 0.15 + 0.2 * nsub)
        elif ct == C_WIN_CARD_ONLY_SUB:
            f *= 0.8
        return f
    if ct == C_NEVER_LEAD_SUITS:
        n = 0
        bad = 0
        for c in range(NC):
            if s[O_OWNER + c] == p:
                n += 1
                if c < 36 and (tparams[row, 0] >> suit_of(c)) & 1:
                    bad += 1
        return 0.9 - 0.8 * bad / max(n, 1)
    if ct == C_WIN_NONE:
        return _avoid_fit(s, p, tparams[row, 0])
    if ct == C_WIN_EXACT_TRICKS and tparams[row, 0] == 0 and s[O_OWNER + 39] == p:
        # submarine 4 wins whatever trick it is played into; only a hand with a card to spare
        # (3 players, 14 cards) can keep it unplayed
        if s[O_HANDN + p] <= s[S_NTRICKS] - s[S_DONE]:
            return 0.0
    if ct == C_WIN_RANK_WITH_RANK or ct == C_WIN_TRICK_USING_RANK:
        n_rank = 0  # the trick is won with a card of this rank: I must hold some
        for c in range(36):
            n_rank += s[O_OWNER + c] == p and rank_of(c) == tparams[row, 0]
        return min(0.9, 0.1 + 0.25 * n_rank)
    if is_avoid_task(row, ttype, tparams):
        return 0.15 + 0.6 * weak
    if ct == C_WIN_EXACT_TRICKS_PREDICTED:
        return 0.5
    return 0.15 + 0.6 * power


# -- what a player may not know --------------------------------------------------------------
@njit(cache=True)
def own_view(s, p, ttype, tparams):
    """``s`` as ``p`` may read it: another member's secret prediction (task 85) is unknown,
    so that task is left out of ``p``'s reckoning (marked done in a copy)."""
    hidden = False
    for k in range(s[S_NTASKS]):
        row = s[O_TASK + k]
        if (
            ttype[row] == C_WIN_EXACT_TRICKS_PREDICTED
            and tparams[row, 0] == 0
            and s[O_HOLDER + k] != p
            and s[O_TSTATE + k] == PENDING
        ):
            hidden = True
    if not hidden:
        return s
    v = s.copy()
    for k in range(s[S_NTASKS]):
        row = s[O_TASK + k]
        if ttype[row] == C_WIN_EXACT_TRICKS_PREDICTED and tparams[row, 0] == 0:
            if s[O_HOLDER + k] != p and s[O_TSTATE + k] == PENDING:
                v[O_TSTATE + k] = DONE
    return v


@njit(cache=True)
def as_heuristic(pid, prm):
    """The heuristic's id and parameters for the expert's decisions other than card play
    (defaults, with the expert's own sonar threshold)."""
    if pid != EXPERT:
        return pid, prm
    row = np.zeros(prm.shape[0])
    for i in range(len(HEURISTIC_DEFAULTS)):
        row[i] = HEURISTIC_DEFAULTS[i]
    row[HEURISTIC_P.comm_threshold] = prm[EXPERT_P.comm_threshold]
    return HEURISTIC, row


# -- decisions -------------------------------------------------------------------------------
@njit(cache=True)
def decide_pick(s, p, avail, n_avail, may_pass, pid, prm, ttype, tparams):
    """Index into ``avail`` (task slots) of the task ``p`` takes, or -1 to pass (only when
    ``may_pass``: fewer tasks than players)."""
    if pid == EXPERT:
        return expert_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams)
    if pid == RANDOM:
        if may_pass and np.random.random() < 0.5:
            return -1
        return np.random.randint(n_avail)
    return heuristic_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams)


@njit(cache=True)
def heuristic_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    """The heuristic's pick: the task its own hand fits best, or a pass below ``pass_below``."""
    best = 0
    best_fit = -1.0
    for i in range(n_avail):
        f = task_fit(s, p, s[O_TASK + avail[i]], ttype, tparams)
        if f > best_fit:
            best_fit = f
            best = i
    if may_pass and best_fit < prm[HEURISTIC_P.pass_below]:
        return -1
    return best


@njit(cache=True)
def decide_task_bid(s, p, row, pid, prm, ttype, tparams):
    """How much ``p`` wants one task (free selection, volunteering)."""
    if pid == EXPERT:
        return expert_task_bid(s, p, row, prm, ttype, tparams)
    if pid == RANDOM:
        return np.random.random()
    return task_fit(s, p, row, ttype, tparams)


@njit(cache=True)
def decide_volunteer(s, p, pid, prm, ttype, tparams):
    """Will ``p`` take every task of the mission?"""
    if pid == EXPERT:
        return expert_volunteer(s, p, prm, ttype, tparams)
    n = s[S_NTASKS]
    if pid == RANDOM:
        return np.random.random() < 0.5
    total = 0.0
    for k in range(n):
        total += task_fit(s, p, s[O_TASK + k], ttype, tparams)
    return total / max(n, 1) >= prm[HEURISTIC_P.volunteer]


@njit(cache=True)
def decide_predict(s, p, k, pid, prm, ttype, tparams):
    """The X of an 'exactly X tricks' task, before play."""
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return np.random.randint(s[S_NTRICKS] + 1)
    est = 0.0
    for c in range(NC):
        if s[O_OWNER + c] == p:
            if c >= 36:
                est += 0.6 + 0.1 * (c - 35)
            elif rank_of(c) == 9:
                est += 0.6
            elif rank_of(c) == 8:
                est += 0.3
    return int(est + 0.5)


@njit(cache=True)
def decide_distress(s, p, pid, prm, ttype, tparams):
    """Does ``p`` ask for the distress signal (its hand cannot work its tasks)?"""
    pid, prm = as_heuristic(pid, prm)
    if pid != HEURISTIC:
        return False
    for k in range(s[S_NTASKS]):
        if (
            s[O_HOLDER + k] == p
            and task_fit(s, p, s[O_TASK + k], ttype, tparams) < prm[HEURISTIC_P.distress_below]
        ):
            return True
    return False


@njit(cache=True)
def decide_direction(s, p, pid, prm, ttype, tparams):
    """Distress pass direction ``p`` prefers: +1 left, -1 right, 0 none. It holds a card a
    neighbour's task needs (tasks are public, its own hand is its own)."""
    pid, prm = as_heuristic(pid, prm)
    if pid == RANDOM:
        return 0
    want = np.zeros(2)
    for i in range(2):
        to = neighbour(s, p, 1 - 2 * i)
        for k in range(s[S_NTASKS]):
            if s[O_HOLDER + k] == to:
                m = task_targets(s[O_TASK + k], ttype, tparams)
                for c in range(36):
                    if s[O_OWNER + c] == p and (m >> c) & 1:
                        want[i] += 1.0
    if want[0] > want[1]:
        return 1
    if want[1] > want[0]:
        return -1
    return 0


@njit(cache=True)
def decide_pass(s, p, to, pid, prm, ttype, tparams):
    """The non-submarine card ``p`` passes to ``to`` under the distress signal (-1: none)."""
    pid, prm = as_heuristic(pid, prm)
    n = 0
    cards = np.empty(NC, np.int64)
    for c in range(36):
        if s[O_OWNER + c] == p:
            cards[n] = c
            n += 1
    if n == 0:
        return -1
    if pid == RANDOM:
        return cards[np.random.randint(n)]
    for k in range(s[S_NTASKS]):  # hand over a card the receiver must win
        if s[O_HOLDER + k] == to:
            m = task_targets(s[O_TASK + k], ttype, tparams)
            for i in range(n):
                if (m >> cards[i]) & 1:
                    return cards[i]
    best = cards[0]  # else the lowest card of my shortest suit, to make a void
    best_len = 99
    for i in range(n):
        su = suit_of(cards[i])
        length = 0
        for y in range(su * 9, su * 9 + 9):
            if s[O_OWNER + y] == p:
                length += 1
        if length < best_len:
            best_len = length
            best = cards[i]
    return best


@njit(cache=True)
def decide_comm(s, p, pid, prm, ttype, tparams):
    """(card, claim) ``p`` shows now, or (-1, -1) to keep the sonar token."""
    pid, prm = as_heuristic(pid, prm)
    s = own_view(s, p, ttype, tparams)
    if pid == RANDOM:
        if np.random.random() >= prm[RANDOM_P.communicate]:
            return -1, -1
        n = 0
        cards = np.empty(NC, np.int64)
        for c in range(36):
            if comm_claims(s, p, c) != 0:
                cards[n] = c
                n += 1
        if n == 0:
            return -1, -1
        c = cards[np.random.randint(n)]
        return c, _claim(comm_claims(s, p, c))
    if pid != HEURISTIC:
        return -1, -1
    others = np.int64(0)
    mine = np.int64(0)
    for k in range(s[S_NTASKS]):
        if s[O_TSTATE + k] == PENDING:
            m = task_targets(s[O_TASK + k], ttype, tparams)
            if s[O_HOLDER + k] == p:
                mine |= m
            else:
                others |= m
    want_next = False  # a task of mine needs the coming trick: show where I am strong
    t = s[S_DONE]
    for k in range(s[S_NTASKS]):
        row = s[O_TASK + k]
        ct = ttype[row]
        if s[O_HOLDER + k] == p and s[O_TSTATE + k] == PENDING:
            if ct == C_WIN_TRICKS_AT or ct == C_WIN_ONLY_TRICKS_AT:
                last = tparams[row, 1] == 1 and t == s[S_NTRICKS] - 1
                want_next = want_next or ((tparams[row, 0] >> t) & 1) == 1 or last
    best = -1
    best_rel = -1.0
    for c in range(36):
        bits = comm_claims(s, p, c)
        if bits == 0 or s[O_COMMBY + c] >= 0:
            continue
        rel = 0.0
        only = (bits >> ONLY) & 1
        if (bits >> HIGHEST | bits >> ONLY) & 1 and _top_remaining(s, p, c):
            if want_next:
                rel += 3.0
            su = suit_of(c)
            for x in range(su * 9, c):
                if (mine >> x) & 1 and s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
                    rel += 2.5  # I win that suit: its holder may play my task card into it
                    break
        if (others >> c) & 1:
            rel += 3.0
        if (mine >> c) & 1:
            rel += 1.0 + 2.0 * only  # my task card is my only one: nobody should lead its suit
        if only:
            rel += 0.5
            su = suit_of(c)
            for x in range(su * 9, c):
                if (others >> x) & 1 and s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
                    rel += 2.5  # I must overtake that task card if its suit is led
                    break
        if rel > best_rel:
            best_rel = rel
            best = c
    if best < 0 or best_rel < prm[HEURISTIC_P.comm_threshold]:
        return -1, -1
    return best, _claim(comm_claims(s, p, best))


@njit(cache=True, _nrt=False)
def _top_remaining(s, p, c):
    """Is ``c`` (``p``'s card) above every unplayed card of its suit held by others?"""
    for y in range(c + 1, suit_of(c) * 9 + 9):
        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
            return False
    return True


@njit(cache=True, _nrt=False)
def _claim(bits):
    if (bits >> ONLY) & 1:
        return ONLY
    if (bits >> HIGHEST) & 1:
        return HIGHEST
    return LOWEST


@njit(cache=True, _nrt=False)
def progress(s, k, ttype, tparams):
    """Public progress of a pending task, for tasks decided only late (cards won towards it)."""
    row = s[O_TASK + k]
    h = s[O_HOLDER + k]
    ct = ttype[row]
    if ct == C_WIN_MORE_SUIT_THAN_SUIT:
        return s[O_WSUIT + h * 5 + tparams[row, 0]] - s[O_WSUIT + h * 5 + tparams[row, 1]]
    if ct == C_WIN_SUIT_AT_LEAST:
        return s[O_WSUIT + h * 5 + tparams[row, 0]]
    if ct == C_WIN_RANK_AT_LEAST:
        return s[O_WRANK + h * 10 + tparams[row, 0]]
    if ct == C_WIN_CARDS:
        n = 0
        for c in range(NC):
            if (tparams[row, 0] >> c) & 1 and s[O_WINNER + c] == h:
                n += 1
        return n
    if ct == C_WIN_EACH_SUIT:
        n = 0
        for su in range(4):
            n += s[O_WSUIT + h * 5 + su] > 0
        return n
    if ct == C_WIN_SUIT_EXACTLY or ct == C_WIN_RANK_EXACTLY:
        # towards the count (beyond it the task fails): "exactly 1 submarine" wants one early
        n = 0
        for j in range(2):
            if j == 1 and (ct == C_WIN_RANK_EXACTLY or tparams[row, 2] < 0):
                break
            key = tparams[row, 2 * j]
            cnt = (
                s[O_WRANK + h * 10 + key] if ct == C_WIN_RANK_EXACTLY else s[O_WSUIT + h * 5 + key]
            )
            n += min(cnt, tparams[row, 2 * j + 1])
        return n
    return 0


@njit(cache=True, _nrt=False)
def _single_trick_task(ct):
    return C_WIN_TRICK_EQUAL_SUITS <= ct <= C_WIN_TRICK_PARITY


@njit(cache=True, _nrt=False)
def _needs_whole_trick(ct):
    """Single-trick tasks that later cards can still spoil (a rank-with-rank or won-with-rank
    trick stays one whoever adds cards, as long as its winner does not change)."""
    return _single_trick_task(ct) and ct != C_WIN_RANK_WITH_RANK and ct != C_WIN_TRICK_USING_RANK


@njit(cache=True, _nrt=False)
def _outcome(s, ttype, tparams, base, w_done, partial):
    """Score of a what-if state against the task states ``base`` before it (``base`` also
    holds each task's progress after the task states). A ``partial`` trick still misses cards,
    so a single-trick task it seems to complete counts only in part."""
    tf, rf, _ = evaluate(s, ttype, tparams, True)
    score = 0.0
    nt = s[S_NTASKS]
    for k in range(nt):
        if base[k] == PENDING:
            score += W_PROGRESS * (progress(s, k, ttype, tparams) - base[nt + k])
            st = s[O_TSTATE + k]
            if st == DONE:
                if partial and _needs_whole_trick(ttype[s[O_TASK + k]]):
                    score += PARTIAL_CREDIT * w_done  # so far so good: later cards may spoil it
                else:
                    score += w_done
            elif st == FAILED:
                score -= W_FAIL
    if rf:
        score -= W_FAIL
    return score


@njit(cache=True, _nrt=False)
def trick_aims(s, p, ttype, tparams, aim):
    """How much the crew wants each player to win the current trick for reasons its cards do
    not settle yet: trick counts, streaks, comparisons, leading constraints, cards to avoid.
    Public information, plus ``p``'s own hand for ``p``'s own tasks."""
    n_players = s[S_NP]
    for q in range(MAXP):
        aim[q] = 0.0
    t = s[S_DONE]
    rem = s[S_NTRICKS] - t  # tricks left, this one included
    cap = s[S_CAPTAIN]
    for k in range(s[S_NTASKS]):
        if s[O_TSTATE + k] != PENDING:
            continue
        row = s[O_TASK + k]
        h = s[O_HOLDER + k]
        ct = ttype[row]
        tw = s[O_TRICKS + h]
        if ct == C_WIN_EXACT_TRICKS or ct == C_WIN_EXACT_TRICKS_PREDICTED:
            n = tparams[row, 0] if ct == C_WIN_EXACT_TRICKS else s[O_TX + k]
            if n < 0:
                continue
            need = n - tw
            if need <= 0:
                aim[h] -= 2.0
            else:  # win the tricks it needs early, while it still holds its winners
                aim[h] += 2.0 if need >= rem else 0.8
        elif ct == C_WIN_STREAK:
            _, cur = streaks(s, h, t)
            aim[h] += 1.5 if cur > 0 else 0.6
        elif ct == C_WIN_EXACT_STREAK:
            kk = tparams[row, 0]
            if tw == 0:
                aim[h] += 2.0 if rem <= kk else 0.3
            elif tw < kk:
                aim[h] += 2.0
            else:
                aim[h] -= 2.0
        elif ct == C_NEVER_STREAK:
            _, cur = streaks(s, h, t)
            aim[h] -= 0.4 * cur
        elif ct == C_COMPARE_TRICKS:
            op = tparams[row, 0]
            if tparams[row, 1] == 2:
                d = tw - s[O_TRICKS + cap]
                if op == 2:
                    d = -1 if d < 0 else (1 if d > 0 else 0)
                    aim[h] -= 0.8 * d
                    aim[cap] += 0.8 * d
                    if d == 0:
                        aim[h] -= 0.2
                        aim[cap] -= 0.2
                else:
                    sign = 1.0 if op == 0 else -1.0
                    aim[h] += 0.8 * sign
                    aim[cap] -= 0.8 * sign
            else:
                sign = 1.0 if op == 0 else -1.0
                aim[h] += sign
                if tparams[row, 1] == 0:  # the others must stay below (above) it
                    for q in range(n_players):
                        if q != h and (s[O_TRICKS + q] - tw) * sign >= 0:
                            aim[q] -= 0.5 * sign
        elif ct == C_NEVER_LEAD_SUITS:
            if h == p:
                n = 0
                bad = 0
                for c in range(NC):
                    if s[O_OWNER + c] == p:
                        n += 1
                        if (tparams[row, 0] >> suit_of(c)) & 1:
                            bad += 1
                if bad == n and rem > 1:
                    aim[h] -= W_FAIL
                else:
                    aim[h] -= 0.3 + 1.5 * bad / max(n, 1)
            else:
                aim[h] -= 0.6
        elif ct == C_WIN_NONE:
            aim[h] -= 0.4
        elif ct == C_WIN_SUIT_EXACTLY or ct == C_WIN_RANK_EXACTLY:
            reached = True
            for j in range(2):
                if j == 1 and (ct == C_WIN_RANK_EXACTLY or tparams[row, 2] < 0):
                    break
                key = tparams[row, 2 * j]
                if ct == C_WIN_RANK_EXACTLY:
                    cnt = s[O_WRANK + h * 10 + key]
                else:
                    cnt = s[O_WSUIT + h * 5 + key]
                if cnt < tparams[row, 2 * j + 1]:
                    reached = False
            aim[h] += -0.8 if reached else 0.2
        elif ct == C_WIN_TRICKS_AT:
            if t + 1 < s[S_NTRICKS]:
                nxt = ((tparams[row, 0] >> (t + 1)) & 1) == 1 or (
                    tparams[row, 1] == 1 and t + 1 == s[S_NTRICKS] - 1
                )
                if nxt:
                    aim[h] += 0.5  # leading the wanted trick helps to win it
        elif ct == C_WIN_NONE_OF_FIRST or ct == C_WIN_ONLY_TRICKS_AT:
            pass  # the trick's own outcome decides these
        elif _single_trick_task(ct):
            aim[h] += 0.1
        else:  # named cards, counts of cards won: holding the lead helps
            aim[h] += 0.2
    obj = s[S_OBJECTIVE]
    if obj == OBJ_FIRST_WINNER and t > 0:
        aim[s[O_TWINNER]] += 1.0
    elif obj == OBJ_NO_LEAD and rem > 1:
        # winning means leading next, which my pink cards and submarines may not do
        n = 0
        bad = 0
        for c in range(NC):
            if s[O_OWNER + c] == p:
                n += 1
                bad += forbidden_lead(c)
        aim[p] -= W_FAIL if bad == n else 2.0 * bad / max(n, 1)
    elif obj == OBJ_Y5_LAST and s[O_OWNER + Y5] == p and t == s[S_NTRICKS] - 2:
        aim[(p + 1) % n_players] += 3.0  # my left neighbour leads the last trick: I play last


def _copy_into(dst, src):
    """``dst[:] = src`` for two state vectors of the same length: numpy's copy when interpreted,
    a loop when compiled (a slice assignment needs numba's runtime, which the callers do
    without)."""
    dst[:] = src


@overload(_copy_into)
def _copy_into_compiled(dst, src):
    def impl(dst, src):
        for i in range(src.shape[0]):
            dst[i] = src[i]

    return impl


@njit(cache=True, _nrt=False)
def _trick_values(s2, ttype, tparams, base, aim, w_done, partial, vals, s3):
    """``vals[w]``: score of closing the trick as it stands in ``s2`` with ``w`` winning it
    (``s3``: scratch of the state's length)."""
    for w in range(s2[S_NP]):
        _copy_into(s3, s2)
        finish_trick_as(s3, w)
        vals[w] = _outcome(s3, ttype, tparams, base, w_done, partial) + W_AIM * aim[w]


@njit(cache=True, _nrt=False)
def card_value(s, p, c, ttype, tparams, base, aim, w_done, caution, vals, prob, s2, s3, later, top):
    """Expected score of ``p`` playing ``c`` now: the trick is closed by a cooperative crew, each
    later player overtaking when the crew gains by it and it can, or when it must (all its cards
    of the led suit are higher). Leaves the winner distribution in ``prob``. Scratch handed
    down (nothing here allocates): ``s2`` and ``s3`` of the state's length, ``later`` and
    ``top`` (the card each possible winner would be winning with) of ``MAXP``."""
    n_players = s[S_NP]
    pos = s[S_NIN]
    leader = s[S_LEADER]
    _copy_into(s2, s)
    play_card(s2, p, c)
    t = s2[S_DONE]
    led = suit_of(s2[O_TCARDS + t * MAXP])
    nl = 0
    for j in range(pos + 1, n_players):
        q = (leader + j) % n_players
        forced_card = -1
        if nl == 0 and led != SUB:  # a card shown as 'only' is all q may play in its suit
            for x in range(led * 9, led * 9 + 9):
                if s2[O_COMMBY + x] == q and s2[O_CTRICK + x] < 0 and s2[O_COMMK + x] == ONLY:
                    forced_card = x
        if forced_card >= 0:
            play_card(s2, q, forced_card)
        else:
            later[nl] = q
            nl += 1
    n_in = s2[S_NIN]
    cards = s2[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + n_in]
    bi = trick_winner_card(cards, n_in)
    best = cards[bi]
    w0 = (leader + bi) % n_players
    _trick_values(s2, ttype, tparams, base, aim, w_done, nl > 0, vals, s3)
    if nl > 0 and led != SUB:
        # a later holder of a task card in the led suit plays it when its owner is winning
        for k in range(s[S_NTASKS]):
            if s[O_TSTATE + k] != PENDING:
                continue
            row = s[O_TASK + k]
            h = s[O_HOLDER + k]
            if ttype[row] == C_WIN_RANK_WITH_RANK and w0 == h and best < 36:
                # a later player adds the wanted rank under the owner's winning card: in the
                # led suit when it is lower, or as a discard from another suit when void
                if rank_of(best) == tparams[row, 0]:
                    x = led * 9 + tparams[row, 1] - 1
                    if x < best and s2[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
                        vals[h] += 0.8 * w_done * _later_hold(s2, p, x, later, nl)
                    miss = 1.0
                    for su in range(4):
                        y = su * 9 + tparams[row, 1] - 1
                        if su != led and s2[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
                            miss *= 1.0 - _later_discard(s2, p, y, led, later, nl)
                    vals[h] += 0.8 * w_done * (1.0 - miss)
                continue
            if ttype[row] != C_WIN_CARDS:
                continue
            m = tparams[row, 0]
            for x in range(led * 9, led * 9 + 9):
                if (m >> x) & 1 and s2[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
                    vals[h] += 0.8 * w_done * _later_hold(s2, p, x, later, nl)
    for q in range(n_players):
        prob[q] = 0.0
        top[q] = best
    prob[w0] = 1.0
    scale = min(1.0, 2.0 * caution)
    for j in range(nl):
        q = later[j]
        moved = 0.0
        for w in range(n_players):
            if w != q and prob[w] > 0.0:
                can, must = take_probs(s2, p, q, top[w], led)
                take = can if vals[q] > vals[w] + 0.5 else must
                d = prob[w] * take * scale
                prob[w] -= d
                moved += d
        if moved > 0.0:
            # the card q would win with: its highest if it wants the trick, else its lowest
            top[q] = _likely_beater(s2, p, q, best, led, vals[q] > vals[w0] + 0.5)
        prob[q] += moved
    score = 0.0
    for w in range(n_players):
        score += prob[w] * vals[w]
    return score


@njit(cache=True, _nrt=False)
def _likely_beater(s, p, q, best, led, highest):
    """The card ``q`` would overtake ``best`` with: a cautious estimate of its highest (or,
    when it is forced and plays low, its lowest) card among those that beat ``best``."""
    unknown = 0
    for x in range(NC):
        if s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
            unknown += 1
    share = min(1.0, s[O_HANDN + q] / max(unknown, 1))
    miss = 1.0
    pick = -1
    for i in range(NC):
        x = NC - 1 - i if highest else i
        if s[O_CTRICK + x] >= 0 or s[O_OWNER + x] == p or not beats(x, best, led):
            continue
        h = _hold_prob(s, p, q, x, share)
        if h == 0.0:
            continue
        if pick < 0:
            pick = x
        miss *= 1.0 - h
        if miss <= 0.3:  # pessimistic: the card reached with 70% chance
            return x
    return pick if pick >= 0 else best


@njit(cache=True, _nrt=False)
def _void_prob(s, p, q, su):
    """From ``p``'s view: the chance that ``q`` holds no card of suit ``su`` (shown void: 1)."""
    if s[O_VOID + q * 5 + su] == 1:
        return 1.0
    if _known_to_hold_suit(s, q, su):
        return 0.0
    unknown = 0
    in_suit = 0
    for y in range(NC):
        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p and s[O_COMMBY + y] < 0:
            unknown += 1
            if suit_of(y) == su:
                in_suit += 1
    if unknown == 0:
        return 0.0
    miss = 1.0
    for i in range(s[O_HANDN + q]):  # draws without replacement from the unknown cards
        miss *= max(0.0, (unknown - in_suit - i) / max(1, unknown - i))
    return miss


@njit(cache=True, _nrt=False)
def _later_discard(s, p, x, led, later, nl):
    """Chance that a later player holds the off-suit card ``x`` and has no card of the led suit,
    so may discard it (a rank-with-rank task: a 6 under a 6, an 8 under a 4)."""
    unknown = 0
    for y in range(NC):
        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
            unknown += 1
    miss = 1.0
    for j in range(nl):
        q = later[j]
        h = _hold_prob(s, p, q, x, min(1.0, s[O_HANDN + q] / max(unknown, 1)))
        if h > 0.0:
            miss *= 1.0 - h * _void_prob(s, p, q, led)
    return 1.0 - miss


@njit(cache=True, _nrt=False)
def _later_hold(s, p, x, later, nl):
    """Chance that card ``x`` (unplayed, not ``p``'s) is with one of the players in ``later``."""
    unknown = 0
    for y in range(NC):
        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
            unknown += 1
    total = 0.0
    mass = 0.0
    for q in range(s[S_NP]):
        if q == p:
            continue
        h = _hold_prob(s, p, q, x, min(1.0, s[O_HANDN + q] / max(unknown, 1)))
        total += h
        for j in range(nl):
            if later[j] == q:
                mass += h
    return mass / total if total > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def _balance_rank(s):
    """The rank missions 8 and 21 balance (9 or 1), or 0."""
    if s[S_OBJECTIVE] == OBJ_BALANCE9:
        return 9
    if s[S_OBJECTIVE] == OBJ_BALANCE1:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def _balance_excess(s, p):
    """Missions 8/21: how many of the balanced rank ``p`` has won or holds beyond its share
    (the colour cards of that rank in play, spread as evenly as the rule demands)."""
    r = _balance_rank(s)
    if r == 0:
        return 0
    mine = s[O_WRANK + p * 10 + r]
    total = 0
    for su in range(4):
        c = su * 9 + r - 1
        if s[O_OWNER + c] == p:
            mine += 1
        if s[O_OWNER + c] >= 0 or s[O_CTRICK + c] >= 0:
            total += 1
    share = (total + s[S_NP] - 1) // s[S_NP]
    return mine - share


@njit(cache=True)
def heuristic_play(s, p, legal, n_legal, prm, ttype, tparams):
    caution = prm[HEURISTIC_P.caution]
    nt = s[S_NTASKS]
    base = np.empty(2 * nt + 1, np.int64)
    mine = np.int64(0)
    others = np.int64(0)  # cards other players must win
    shed = np.int64(0)  # cards I must not win
    hazard = np.int64(0)  # cards another player must not win: dump them on tricks others take
    for k in range(nt):
        base[k] = s[O_TSTATE + k]
        base[nt + k] = progress(s, k, ttype, tparams)
        if s[O_HOLDER + k] == p and base[k] == PENDING:
            row = s[O_TASK + k]
            mine |= task_targets(row, ttype, tparams)
            if ttype[row] == C_WIN_NONE:
                shed |= tparams[row, 0]
        elif base[k] == PENDING:
            others |= task_targets(s[O_TASK + k], ttype, tparams)
            if ttype[s[O_TASK + k]] == C_WIN_NONE:
                hazard |= tparams[s[O_TASK + k], 0]
    if s[S_OBJECTIVE] == OBJ_NO_LEAD:
        shed |= NO_LEAD_MASK  # pink cards and submarines leave a hand only as discards
    excess = _balance_excess(s, p)
    aim = np.zeros(MAXP)
    trick_aims(s, p, ttype, tparams, aim)
    # a task done late is worth more than one done early: waiting only adds risk
    w_done = prm[HEURISTIC_P.done_early] + (
        prm[HEURISTIC_P.done_late] - prm[HEURISTIC_P.done_early]
    ) * s[S_DONE] / max(s[S_NTRICKS] - 1, 1)
    vals = np.empty(MAXP)
    prob = np.empty(MAXP)
    s2 = np.empty_like(s)  # card_value's scratch, once per decision
    s3 = np.empty_like(s)
    later = np.empty(MAXP, np.int64)
    winning = np.empty(MAXP, np.int64)
    return _best_play(
        s,
        p,
        legal,
        n_legal,
        ttype,
        tparams,
        base,
        aim,
        w_done,
        caution,
        vals,
        prob,
        s2,
        s3,
        later,
        winning,
        mine,
        others,
        shed,
        hazard,
        excess,
    )


@njit(cache=True, _nrt=False)
def _best_play(
    s,
    p,
    legal,
    n_legal,
    ttype,
    tparams,
    base,
    aim,
    w_done,
    caution,
    vals,
    prob,
    s2,
    s3,
    later,
    winning,
    mine,
    others,
    shed,
    hazard,
    excess,
):
    """The heuristic's card among ``legal[:n_legal]``, each scored by :func:`card_value` plus
    the hand's own reasons (arrays allocated by :func:`heuristic_play`: nothing here
    allocates, so its calls pay no reference counting)."""
    pos = s[S_NIN]
    best_card = legal[0]
    best_score = -1e18
    for i in range(n_legal):
        c = legal[i]
        score = card_value(
            s, p, c, ttype, tparams, base, aim, w_done, caution, vals, prob, s2, s3, later, winning
        )
        lose = 1.0 - prob[p]
        rank = rank_of(c)
        if aim[p] < 0.0:
            # a player avoiding tricks sheds its winners while the tricks are harmless:
            # each submarine or high card kept is a trick it may be forced to win later
            score += W_SHED * (1.0 + 0.25 * rank if c >= 36 else rank / 9.0)
        elif c >= 36:  # submarines are the crew's control: spend them only for a reason
            score -= 0.3 + 0.05 * rank
        else:
            score -= 0.02 * rank
        if (shed >> c) & 1:
            score += 1.0 * lose
        if excess > 0 and c < 36 and rank_of(c) == _balance_rank(s):
            # more 9s (1s) than my share: each one I keep I would have to win myself
            score += W_BALANCE * lose * (1.0 if suit_of(c) != led_suit(s) else 0.5)
        if (hazard >> c) & 1:
            score += W_HAZARD  # play it while the trick's fate is foreseeable (what-if above)
        if pos == 0 and (others >> c) & 1:
            score -= W_LEAD_OTHERS  # its owner is better served by a trick it already leads
        if ((others >> c) & 1) == 0 and c < 36:
            # keeping someone's task card as my last card of its suit: I would have to play it
            # into whatever trick leads that suit
            su = suit_of(c)
            left = 0
            kept = -1
            for x in range(su * 9, su * 9 + 9):
                if s[O_OWNER + x] == p and x != c:
                    left += 1
                    kept = x
            if left == 1 and (others >> kept) & 1:
                score -= W_SINGLETON
        if pos == 0 and mine != 0 and c < 36:
            # lead the top card of a suit where I still need a card held elsewhere
            su = suit_of(c)
            for x in range(su * 9, su * 9 + 9):
                if (mine >> x) & 1 and s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p and x < c:
                    top = True
                    for y in range(c + 1, su * 9 + 9):
                        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
                            top = False
                    if top:
                        score += 1.0
                    break
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@njit(cache=True)
def decide_play(s, p, legal, n_legal, pid, prm, ttype, tparams):
    """The card ``p`` plays (one of ``legal[:n_legal]``)."""
    if pid == RANDOM:
        return legal[np.random.randint(n_legal)]
    if pid == EXPERT:
        return expert_play(own_view(s, p, ttype, tparams), p, legal, n_legal, prm, ttype, tparams)
    return heuristic_play(own_view(s, p, ttype, tparams), p, legal, n_legal, prm, ttype, tparams)


# -- omniscient search -----------------------------------------------------------------------
HEURISTIC_DEFAULTS = tuple(p.default for p in POLICIES["heuristic"].params)


@njit(cache=True)
def heuristic_params(width):
    """A parameter row holding the heuristic's defaults (the omniscient crew's own play)."""
    row = np.zeros(width)
    for i in range(len(HEURISTIC_DEFAULTS)):
        row[i] = HEURISTIC_DEFAULTS[i]
    return row


@njit(cache=True)
def _order_moves(s, cand, n, hprm, ttype, tparams):
    """Put the card the heuristic would play first: the search's first line is then the
    heuristic's own game, and it branches from there."""
    q = current_player(s)
    c = heuristic_play(s, q, cand, n, hprm, ttype, tparams)
    for i in range(n):
        if cand[i] == c:
            cand[i] = cand[0]
            cand[0] = c
            break


@njit(cache=True)
def search_line(s, ttype, tparams, budget, line):
    """Depth-first search with every hand visible for a sequence of cards that completes the
    mission, the heuristic's card tried first at every node, pruning as soon as a task or
    mission rule fails. Returns (cards in the line, or -1 if none was found; nodes used). The
    line is written to ``line``."""
    found, nodes, _ = _search(s, ttype, tparams, budget, line, False)
    return found, nodes


# -- horizon evaluation: a pending task scored from the state so far ------------------------
# The expert's searches run out of nodes long before the last trick, where most end-judged
# tasks are decided; ``horizon_value`` then scores a trick end of a sampled (fully visible)
# deal by the chance that its pending tasks are kept, a cheap product of per-card factors:
H_HOLD = 0.8  # a card still to win that the holder has in hand (or a card still to win with)
H_REACH = 0.45  # a card still to win that the holder must take from another hand
H_LONG = 0.2  # ... and the holder has nothing left that beats it
H_AVOID_HELD = 0.6  # a card the holder must not win, still in their own hand
H_AVOID_OUT = 0.9  # a card the holder must not win, in another hand; a forbidden lead held
H_UNKNOWN = 0.5  # a pending task (or mission rule) with no estimate of its own


@njit(cache=True)
def _can_beat(s, h, c):
    """Does ``h`` hold a card that beats ``c`` (higher of its suit, or a submarine over a
    colour card)?"""
    su = suit_of(c)
    for x in range(NC):
        if s[O_OWNER + x] == h and x != c:
            if suit_of(x) == su and x > c:
                return True
            if su != SUB and x >= 36:
                return True
    return False


@njit(cache=True)
def _to_win(s, h, c):
    """Chance factor that ``h`` still wins the unplayed card ``c``."""
    if s[O_OWNER + c] == h:
        return H_HOLD
    return H_REACH if _can_beat(s, h, c) else H_LONG


@njit(cache=True)
def _held(s, h, su, r):
    """Cards of suit ``su`` (or colour rank ``r`` when ``su`` < 0) in ``h``'s hand."""
    n = 0
    for x in range(NC):
        if s[O_OWNER + x] == h and (suit_of(x) == su if su >= 0 else (x < 36 and rank_of(x) == r)):
            n += 1
    return n


@njit(cache=True)
def task_keep(s, k, ttype, tparams):
    """Estimated chance that pending task ``k`` is kept from this state (every hand visible):
    cards still to win count ``H_HOLD``/``H_REACH``/``H_LONG`` each by where they are, cards
    not to win ``H_AVOID_HELD``/``H_AVOID_OUT``; "more A than B" is a logistic in the
    expected final margin (the holder wins ``H_HOLD`` of their own A cards and a fair share of
    the rest); trick counts compare the tricks needed with a fair share of those left."""
    row = s[O_TASK + k]
    h = s[O_HOLDER + k]
    ct = ttype[row]
    prm = tparams[row]
    n_players = s[S_NP]
    rem = s[S_NTRICKS] - s[S_DONE]
    v = 1.0
    if ct == C_WIN_CARDS:
        for c in range(NC):
            if (prm[0] >> c) & 1 and s[O_CTRICK + c] < 0:
                v *= _to_win(s, h, c)
        return v
    if ct == C_WIN_NONE:
        for c in range(NC):
            if (prm[0] >> c) & 1 and s[O_CTRICK + c] < 0:
                v *= H_AVOID_HELD if s[O_OWNER + c] == h else H_AVOID_OUT
        return v
    if ct == C_WIN_RANK_AT_LEAST or ct == C_WIN_SUIT_AT_LEAST:
        rank = ct == C_WIN_RANK_AT_LEAST
        cnt = s[O_WRANK + h * 10 + prm[0]] if rank else s[O_WSUIT + h * 5 + prm[0]]
        held = _held(s, h, -1, prm[0]) if rank else _held(s, h, prm[0], 0)
        need = max(0, prm[1] - cnt)
        return H_HOLD ** min(need, held) * H_REACH ** max(0, need - held)
    if ct == C_WIN_RANK_EXACTLY or ct == C_WIN_SUIT_EXACTLY:
        for j in range(2):
            if j == 1 and (ct == C_WIN_RANK_EXACTLY or prm[2] < 0):
                break
            key = prm[2 * j]
            if ct == C_WIN_RANK_EXACTLY:
                cnt = s[O_WRANK + h * 10 + key]
                out = s[O_URANK + key]
            else:
                cnt = s[O_WSUIT + h * 5 + key]
                out = s[O_USUIT + key]
            need = max(0, prm[2 * j + 1] - cnt)
            v *= H_REACH**need * H_AVOID_OUT ** max(0, out - need)
        return v
    if ct == C_WIN_MORE_SUIT_THAN_SUIT:
        a = prm[0]
        b = prm[1]
        ha = _held(s, h, a, 0)
        hb = _held(s, h, b, 0)
        ua = s[O_USUIT + a]
        ub = s[O_USUIT + b]
        ea = s[O_WSUIT + h * 5 + a] + H_HOLD * ha + (ua - ha) / n_players
        eb = s[O_WSUIT + h * 5 + b] + (1.0 - H_AVOID_HELD) * hb + (ub - hb) / n_players
        spread = 0.5 + 0.5 * np.sqrt(ua + ub)
        return 1.0 / (1.0 + np.exp(-1.7 * (ea - eb - 0.5) / spread))
    if ct == C_WIN_EACH_SUIT:
        for su in range(5):
            if (prm[0] >> su) & 1 and s[O_WSUIT + h * 5 + su] == 0:
                v *= H_HOLD if _held(s, h, su, 0) > 0 else H_REACH
        return v
    if ct == C_NEVER_LEAD_SUITS:
        for c in range(36):
            if s[O_OWNER + c] == h and (prm[0] >> suit_of(c)) & 1:
                v *= H_AVOID_OUT
        return v
    if ct == C_WIN_NONE_OF_FIRST:
        return H_AVOID_OUT ** max(0, prm[0] - s[S_DONE])
    if ct == C_WIN_EXACT_TRICKS or ct == C_WIN_EXACT_TRICKS_PREDICTED:
        n = prm[0] if ct == C_WIN_EXACT_TRICKS else s[O_TX + k]
        if n < 0:
            return 1.0
        gap = abs(n - s[O_TRICKS + h] - rem / n_players)
        return max(0.1, 1.0 - 0.3 * gap)
    return H_UNKNOWN


@njit(cache=True)
def horizon_value(s, ttype, tparams):
    """Estimated chance that the mission succeeds from a trick end with nothing failed yet:
    the product of ``task_keep`` over the pending tasks (done tasks count 1), times
    ``H_UNKNOWN`` for a pending mission rule. Reads the state's hands, so it is for
    fully visible (sampled) deals only."""
    v = 1.0
    for k in range(s[S_NTASKS]):
        if s[O_TSTATE + k] == PENDING:
            v *= task_keep(s, k, ttype, tparams)
    if s[S_OBJECTIVE] != OBJ_NONE and eval_objective(s, s[S_OBJECTIVE]) == PENDING:
        v *= H_UNKNOWN
    return v


@njit(cache=True)
def _search(s, ttype, tparams, budget, line, horizon):
    """``search_line``, also returning, with ``horizon``, the best ``horizon_value`` of the
    trick ends it reached with nothing failed (-1.0 if none, or without ``horizon``)."""
    best_h = -1.0
    n_players = s[S_NP]
    depth_max = (s[S_NTRICKS] - s[S_DONE]) * n_players - s[S_NIN]
    snap = np.empty((depth_max + 1, STATE_SIZE), np.int64)
    cand = np.empty((depth_max + 1, NC), np.int64)
    ncand = np.zeros(depth_max + 1, np.int64)
    idx = np.zeros(depth_max + 1, np.int64)
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    snap[0] = s
    if s[S_NIN] == 0:  # tasks are judged at trick ends: mid-trick a judgement can be early
        tf, rf, done = evaluate(snap[0], ttype, tparams, False)
        if tf or rf:
            return -1, 0, best_h
        if done:
            return 0, 0, best_h
    if horizon and s[S_NIN] == 0 and s[S_DONE] > 0:
        best_h = horizon_value(s, ttype, tparams)
    ncand[0] = legal_cards(snap[0], current_player(snap[0]), cand[0])
    _order_moves(snap[0], cand[0], ncand[0], hprm, ttype, tparams)
    d = 0
    nodes = 0
    while d >= 0:
        if idx[d] >= ncand[d]:
            d -= 1
            continue
        c = cand[d, idx[d]]
        idx[d] += 1
        nodes += 1
        if nodes > budget:
            return -1, nodes, best_h
        st = snap[d + 1]
        st[:] = snap[d]
        play_card(st, current_player(st), c)
        line[d] = c
        if st[S_NIN] == n_players:
            finish_trick(st)
            tf, rf, done = evaluate(st, ttype, tparams, False)
            if tf or rf:
                continue
            if done:
                return d + 1, nodes, best_h
            if st[S_DONE] >= st[S_NTRICKS]:
                continue
            if horizon:
                best_h = max(best_h, horizon_value(st, ttype, tparams))
        d += 1
        ncand[d] = legal_cards(st, current_player(st), cand[d])
        idx[d] = 0
        if ncand[d] > 1:
            _order_moves(st, cand[d], ncand[d], hprm, ttype, tparams)
    return -1, nodes, best_h


# -- expert: sampled deals, each solved with every hand visible --------------------------------
EXPERT_UNKNOWN_CREDIT = 0.25  # out of budget before any trick end: neither won nor lost
EXPERT_MIN_NODES = 40


@njit(cache=True)
def _known_holder(s, c):
    """Seat publicly known to hold the unplayed card ``c`` (shown by sonar or face up on the
    dummy), or -1."""
    if s[O_CTRICK + c] < 0 and s[O_COMMBY + c] >= 0:
        return s[O_COMMBY + c]
    return -1


@njit(cache=True)
def _fits(s, q, c, rem, relaxed):
    return rem[q] > 0 and (relaxed or could_hold(s, q, c))


@njit(cache=True)
def sample_deal(s, p, out):
    """Write into ``out`` a copy of ``s`` whose hidden cards are dealt at random, consistent
    with everything ``p`` knows: hand sizes, shown voids, sonar claims, the dummy's face-up
    cards (its face-down cards are hidden cards too). Reads nothing of ``s`` that ``p`` could
    not see; the randomness is numba's generator. Returns False when no consistent deal was
    found in a few tries and the claims and voids were dropped."""
    n_players = s[S_NP]
    out[:] = s
    dummy = s[S_DUMMY]
    unknown = np.empty(NC, np.int64)
    nu = 0
    cap = np.zeros(MAXP, np.int64)  # hidden cards each seat holds
    for q in range(n_players):
        cap[q] = s[O_HANDN + q]
    for c in range(NC):
        if s[O_CTRICK + c] >= 0:
            continue
        if s[O_OWNER + c] == p and s[O_DOWN + c] == 0:
            cap[p] -= 1
        elif _known_holder(s, c) >= 0:
            cap[_known_holder(s, c)] -= 1
        else:
            unknown[nu] = c
            nu += 1
    if dummy >= 0:  # which cards lie face down is hidden: they are dealt again below
        for c in range(NC):
            out[O_DOWN + c] = 0
    owner = np.full(NC, -1, np.int64)
    relaxed = False
    ok = False
    for attempt in range(60):
        relaxed = attempt >= 40
        key = np.empty(nu)  # most constrained cards first, ties at random
        for i in range(nu):
            npos = 0
            for q in range(n_players):
                npos += _fits(s, q, unknown[i], cap, relaxed)
            key[i] = npos + np.random.random()
        order = np.argsort(key)
        rem = cap.copy()
        ok = True
        for j in range(nu):
            c = unknown[order[j]]
            tot = 0
            for q in range(n_players):
                tot += _fits(s, q, c, rem, relaxed)
            if tot == 0:
                ok = False
                break
            pick = np.random.randint(tot)
            for q in range(n_players):
                if _fits(s, q, c, rem, relaxed):
                    if pick == 0:
                        owner[c] = q
                        rem[q] -= 1
                        break
                    pick -= 1
        if ok:
            break
    if not ok:  # hand sizes only cannot fail; keep the state as it is
        return False
    for i in range(nu):
        out[O_OWNER + unknown[i]] = owner[unknown[i]]
    if dummy >= 0:  # the dummy's sampled hidden cards go face down under its face-up ones
        j = 0
        for u in range(NC):
            b = s[O_BELOW + u]
            if b < 0 or s[O_CTRICK + b] >= 0 or _known_holder(s, b) >= 0:
                continue  # no card below, or it is already up or played
            face_up = s[O_CTRICK + u] < 0 and _known_holder(s, u) == dummy
            # played by the dummy in this trick: the card it uncovered turns up after the trick
            pending = s[O_CTRICK + u] == s[S_DONE] and s[S_NIN] > 0
            if face_up or pending:
                while j < nu and owner[unknown[j]] != dummy:
                    j += 1
                if j < nu:
                    out[O_BELOW + u] = unknown[j]
                    out[O_DOWN + unknown[j]] = 1
                    out[O_OWNER + unknown[j]] = dummy
                    j += 1
    return not relaxed


@njit(cache=True)
def expert_play(s, p, legal, n_legal, prm, ttype, tparams):
    """The card that completes the mission in most sampled deals, each solved by the
    perfect-information search, plus ``playout`` times the samples the heuristic crew wins
    from there playing from its own hands (the search assumes a crew that sees every hand;
    the playout keeps a line the crew can find in view); ties go to the heuristic's card. A
    single legal card needs no search."""
    if n_legal == 1:
        return legal[0]
    hprm = heuristic_params(prm.shape[0])
    first = heuristic_play(s, p, legal, n_legal, hprm, ttype, tparams)
    n_samples = max(1, int(prm[EXPERT_P.samples]))
    per = max(EXPERT_MIN_NODES, int(prm[EXPERT_P.nodes]) // (n_samples * n_legal))
    w_play = prm[EXPERT_P.playout]
    score = np.zeros(n_legal)
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for i in range(n_legal):
            st = world.copy()
            play_card(st, p, legal[i])
            if st[S_NIN] == st[S_NP]:
                finish_trick(st)
                tf, rf, done = evaluate(st, ttype, tparams, False)
                if tf or rf:
                    continue
                if done:
                    score[i] += 1.0 + w_play
                    continue
                if st[S_DONE] >= st[S_NTRICKS]:
                    continue
            score[i] += _solved(st, ttype, tparams, per, line)
            if w_play > 0.0:  # the crew cannot see the hands: its own play from here counts too
                score[i] += w_play * _playout(st, hprm, ttype, tparams)
    best = -1
    for i in range(n_legal):
        if legal[i] == first:
            score[i] += 1e-6  # the heuristic's card breaks ties
        if best < 0 or score[i] > score[best]:
            best = i
    return legal[best]


# -- expert: task choice and volunteering by the same sampled search ---------------------------
@njit(cache=True)
def _solved(st, ttype, tparams, budget, line):
    """A fully visible (sampled) position scored as ``expert_play`` scores it: 1 if the search
    finds a winning line, its horizon estimate if it runs out of ``budget``, else 0."""
    found, used, est = _search(st, ttype, tparams, budget, line, True)
    if found >= 0:
        return 1.0
    if used > budget:
        return est if est >= 0.0 else EXPERT_UNKNOWN_CREDIT
    return 0.0


@njit(cache=True)
def _playout(st, hprm, ttype, tparams):
    """1.0 if the heuristic crew, each member playing from its own hand of the sampled deal,
    completes the mission from ``st`` (a copy is played), else 0.0: what the allocation is
    worth to a crew that cannot see the hands, beside the search's perfect-information
    verdict."""
    w = st.copy()
    legal = np.empty(NC, np.int64)
    while True:
        if w[S_NIN] == 0:  # judged at trick ends, as the game does
            tf, rf, done = evaluate(w, ttype, tparams, False)
            if tf or rf:
                return 0.0
            if done:
                return 1.0
            if w[S_DONE] >= w[S_NTRICKS]:
                return 0.0
        q = current_player(w)
        n = legal_cards(w, q, legal)
        play_card(w, q, heuristic_play(w, q, legal, n, hprm, ttype, tparams))
        if w[S_NIN] == w[S_NP]:
            finish_trick(w)


@njit(cache=True)
def _complete_picks(w, p, may_pass, hprm, ttype, tparams):
    """Give the open tasks of a sampled deal holders as the crew would: one task per turn,
    clockwise from ``p``'s left, each member taking the heuristic's pick from its own (sampled)
    hand; a member may pass only while ``p`` could and enough members before the captain are
    still to come to take what is open. Every member takes part and the captain may take any
    task (the modes that leave the captain out, or bar it from a task, are approximated)."""
    n_players = w[S_NP]
    cap = w[S_CAPTAIN]
    avail = np.empty(MAX_TASKS, np.int64)
    to_come = (cap - p - 1) % n_players if may_pass else 0  # the first round's players left
    q = p
    for _ in range(MAX_TASKS * 8):
        q = (q + 1) % n_players
        na = 0
        for k in range(w[S_NTASKS]):
            if w[O_HOLDER + k] < 0:
                avail[na] = k
                na += 1
        if na == 0:
            return
        to_come -= 1
        i = heuristic_pick(w, q, avail, na, to_come >= na, hprm, ttype, tparams)
        if i >= 0:
            w[O_HOLDER + avail[i]] = q


@njit(cache=True)
def expert_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    """The task (index into ``avail``, -1 to pass) whose choice completes the mission in most
    sampled deals: each sample deals the hidden cards from ``p``'s view, gives ``p`` the
    candidate, completes the allocation with the others' heuristic picks and is scored as the
    card play scores a sample (the search, its horizon estimate when out of ``pick_nodes``,
    plus ``playout`` times the heuristic crew's playout). Ties go to the heuristic's pick."""
    hprm = heuristic_params(prm.shape[0])
    first = heuristic_pick(s, p, avail, n_avail, may_pass, hprm, ttype, tparams)
    n_cand = n_avail + (1 if may_pass else 0)  # the last candidate is the pass
    if n_cand == 1:
        return 0
    n_samples = max(1, int(prm[EXPERT_P.samples]))
    per = max(EXPERT_MIN_NODES, int(prm[EXPERT_P.pick_nodes]) // (n_samples * n_cand))
    score = np.zeros(n_cand)
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for i in range(n_cand):
            st = world.copy()
            if i < n_avail:
                st[O_HOLDER + avail[i]] = p
            _complete_picks(st, p, may_pass, hprm, ttype, tparams)
            score[i] += _solved(st, ttype, tparams, per, line)
            score[i] += prm[EXPERT_P.playout] * _playout(st, hprm, ttype, tparams)
    best = -1
    for i in range(n_cand):
        if (i if i < n_avail else -1) == first:
            score[i] += 1e-6  # the heuristic's pick breaks ties
        if best < 0 or score[i] > score[best]:
            best = i
    return best if best < n_avail else -1


@njit(cache=True)
def expert_volunteer(s, p, prm, ttype, tparams):
    """Does ``p`` take every task? Yes when, over deals sampled from its view, the mission
    with every task on ``p`` scores at least the mean over the other members holding them all
    (scored as the card play scores a sample)."""
    n_players = s[S_NP]
    hprm = heuristic_params(prm.shape[0])
    n_samples = max(1, int(prm[EXPERT_P.samples]))
    per = max(EXPERT_MIN_NODES, int(prm[EXPERT_P.pick_nodes]) // (n_samples * n_players))
    mine = 0.0
    others = 0.0
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for q in range(n_players):
            st = world.copy()
            for k in range(st[S_NTASKS]):
                st[O_HOLDER + k] = q
            v = _solved(st, ttype, tparams, per, line)
            v += prm[EXPERT_P.playout] * _playout(st, hprm, ttype, tparams)
            if q == p:
                mine += v
            else:
                others += v / (n_players - 1)
    return mine >= others


@njit(cache=True)
def expert_task_bid(s, p, row, prm, ttype, tparams):
    """How much ``p`` wants task ``row`` (free selection; one member takes all: the bids are
    summed): its mean score over deals sampled from ``p``'s view with ``p`` holding that task
    alone (the mission's other tasks left out), by the search and playout of ``expert_pick``."""
    hprm = heuristic_params(prm.shape[0])
    n_samples = max(1, int(prm[EXPERT_P.samples]))
    per = max(EXPERT_MIN_NODES, int(prm[EXPERT_P.pick_nodes]) // n_samples)
    w_play = prm[EXPERT_P.playout]
    mine = -1
    for k in range(s[S_NTASKS]):
        if s[O_TASK + k] == row and (mine < 0 or s[O_HOLDER + k] < 0):
            mine = k
    if mine < 0:
        return 0.0
    total = 0.0
    world = np.empty(STATE_SIZE, np.int64)
    line = np.empty(NC, np.int64)
    for _ in range(n_samples):
        sample_deal(s, p, world)
        for k in range(world[S_NTASKS]):
            world[O_HOLDER + k] = p
            if k != mine:
                world[O_TSTATE + k] = DONE
        total += _solved(world, ttype, tparams, per, line)
        total += w_play * _playout(world, hprm, ttype, tparams)
    return total / (n_samples * (1.0 + w_play))
