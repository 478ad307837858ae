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

from policies import PolicyDef, PolicyParam
from simulator.crew_deep_sea.state import (
    C_COMPARE_TRICKS,
    C_NEVER_LEAD_SUITS,
    C_NEVER_STREAK,
    C_WIN_CARD_IN_LAST_TRICK,
    C_WIN_CARD_ONLY_SUB,
    C_WIN_CARD_WITH_SUB,
    C_WIN_CARDS,
    C_WIN_EACH_SUIT,
    C_WIN_EXACT_TRICKS,
    C_WIN_EXACT_TRICKS_PREDICTED,
    C_WIN_MORE_SUIT_THAN_SUIT,
    C_WIN_NONE,
    C_WIN_NONE_OF_FIRST,
    C_WIN_ONLY_TRICKS_AT,
    C_WIN_RANK_AT_LEAST,
    C_WIN_RANK_EXACTLY,
    C_WIN_SUIT_AT_LEAST,
    C_WIN_SUIT_EXACTLY,
    DONE,
    FAILED,
    HIGHEST,
    LOWEST,
    MAXP,
    NC,
    O_COMMBY,
    O_COMMK,
    O_CTRICK,
    O_HANDN,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TCARDS,
    O_TSTATE,
    O_VOID,
    O_WINNER,
    O_WRANK,
    O_WSUIT,
    ONLY,
    PENDING,
    S_DONE,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    STATE_SIZE,
    SUB,
    beats,
    comm_claims,
    current_player,
    evaluate,
    finish_trick,
    finish_trick_as,
    legal_cards,
    play_card,
    rank_of,
    suit_of,
    trick_winner_card,
)

RANDOM, HEURISTIC, OMNISCIENT = 0, 1, 2

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
        "takes tasks its hand fits, wins tricks holding its task cards, avoids taking others' "
        "task cards, sheds safely, shows others' task cards, calls distress on hopeless hands",
        (
            PolicyParam("caution", 0.5, 0.0, 1.0, "0.5 weighs a later card winning by its chance"),
            PolicyParam("comm_threshold", 2.5, 0.0, 10.0, "relevance needed to use the sonar"),
            PolicyParam("distress_below", 0.12, 0.0, 1.0, "call distress if a task fits below"),
            PolicyParam("volunteer", 0.4, 0.0, 1.0, "mean task fit needed to volunteer"),
            PolicyParam("pass_below", 0.45, 0.0, 1.0, "pass a task pick (when allowed) below"),
        ),
    ),
    "omniscient": PolicyDef(
        "omniscient",
        OMNISCIENT,
        "sees every hand and searches for a line that completes the mission (an upper bound); "
        "falls back to heuristic play when the budget runs out; every seat must use it",
        (
            PolicyParam("nodes", 20000.0, 10.0, 1e8, "search budget in cards tried per attempt"),
            PolicyParam("allocations", 4.0, 1.0, 64.0, "task allocations tried"),
        ),
    ),
}

W_DONE = 3.0
W_FAIL = 20.0
W_PROGRESS = 0.7


# -- what a player knows ---------------------------------------------------------------------
@njit(cache=True)
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


@njit(cache=True)
def _known_to_hold_suit(s, q, su):
    for x in range(su * 9, su * 9 + 9):
        if s[O_COMMBY + x] == q and s[O_CTRICK + x] < 0:
            return True
    return False


@njit(cache=True)
def beat_probability(s, p, best, led):
    """Chance that a player after ``p`` in this trick beats ``best``, treating the cards ``p``
    cannot see as spread at random over the hands that may hold them (public information)."""
    n_players = s[S_NP]
    unknown = 0
    for x in range(NC):
        if s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
            unknown += 1
    if unknown == 0:
        return 0.0
    p_none = 1.0
    for i in range(s[S_NIN] + 1, n_players):  # the state is the one before p plays
        q = (s[S_LEADER] + i) % n_players
        share = min(1.0, s[O_HANDN + q] / unknown)
        follow_miss = 1.0  # q holds no higher card of the led suit
        led_miss = 1.0  # q holds no card of the led suit at all
        sub_miss = 1.0  # q holds no submarine that beats best
        for x in range(NC):
            if s[O_CTRICK + x] >= 0 or s[O_OWNER + x] == p or x == best:
                continue
            if not could_hold(s, q, x):
                continue
            sx = suit_of(x)
            if sx == led:
                led_miss *= 1.0 - share
                if beats(x, best, led):
                    follow_miss *= 1.0 - share
            elif sx == SUB and beats(x, best, led):
                sub_miss *= 1.0 - share
        if s[O_COMMBY + best] == q:
            continue
        if led == SUB:
            p_q = 1.0 - follow_miss
        else:
            p_q = (1.0 - follow_miss) + led_miss * (1.0 - sub_miss) * follow_miss
            if _known_to_hold_suit(s, q, led):
                p_q = 1.0 - follow_miss
        p_none *= 1.0 - min(1.0, p_q)
    return 1.0 - p_none


@njit(cache=True)
def _first_later_beater(s, p, best, led):
    n_players = s[S_NP]
    for i in range(s[S_NIN] + 1, n_players):
        q = (s[S_LEADER] + i) % n_players
        for x in range(NC):
            if s[O_CTRICK + x] >= 0 or s[O_OWNER + x] == p:
                continue
            if could_hold(s, q, x) and beats(x, best, led):
                return q
    return -1


@njit(cache=True)
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
    if ct == C_WIN_NONE and tparams[row, 0] >> 36 != 0:
        if s[O_OWNER + 39] == p:  # submarine 4 always wins its trick
            return 0.0
        return 0.8 - 0.3 * nsub
    if is_avoid_task(row, ttype, tparams):
        return 0.15 + 0.6 * weak
    if ct == C_WIN_EXACT_TRICKS_PREDICTED:
        return 0.5
    return 0.15 + 0.6 * power


# -- decisions -------------------------------------------------------------------------------
@njit(cache=True)
def decide_pick(s, p, avail, n_avail, may_pass, pid, prm, ttype, tparams):
    """Index into ``avail`` (task slots) of the task ``p`` takes, or -1 to pass (only when
    ``may_pass``: fewer tasks than players)."""
    if pid == RANDOM:
        if may_pass and np.random.random() < 0.5:
            return -1
        return np.random.randint(n_avail)
    best = 0
    best_fit = -1.0
    for i in range(n_avail):
        f = task_fit(s, p, s[O_TASK + avail[i]], ttype, tparams)
        if f > best_fit:
            best_fit = f
            best = i
    if may_pass and best_fit < prm[4]:
        return -1
    return best


@njit(cache=True)
def decide_task_bid(s, p, row, pid, prm, ttype, tparams):
    """How much ``p`` wants one task (free selection, volunteering)."""
    if pid == RANDOM:
        return np.random.random()
    return task_fit(s, p, row, ttype, tparams)


@njit(cache=True)
def decide_volunteer(s, p, pid, prm, ttype, tparams):
    """Will ``p`` take every task of the mission?"""
    n = s[S_NTASKS]
    if pid == RANDOM:
        return np.random.random() < 0.5
    total = 0.0
    for k in range(n):
        total += task_fit(s, p, s[O_TASK + k], ttype, tparams)
    return total / max(n, 1) >= prm[3]


@njit(cache=True)
def decide_predict(s, p, k, pid, prm, ttype, tparams):
    """The X of an 'exactly X tricks' task, before play."""
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
    if pid != HEURISTIC:
        return False
    for k in range(s[S_NTASKS]):
        if s[O_HOLDER + k] == p and task_fit(s, p, s[O_TASK + k], ttype, tparams) < prm[2]:
            return True
    return False


@njit(cache=True)
def decide_pass(s, p, to, pid, prm, ttype, tparams):
    """The non-submarine card ``p`` passes to ``to`` under the distress signal (-1: none)."""
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
    if pid == RANDOM:
        if np.random.random() >= prm[0]:
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
    best = -1
    best_rel = -1.0
    for c in range(36):
        bits = comm_claims(s, p, c)
        if bits == 0 or s[O_COMMBY + c] >= 0:
            continue
        rel = 0.0
        if (others >> c) & 1:
            rel += 3.0
        if (mine >> c) & 1:
            rel += 1.0
        if (bits >> ONLY) & 1:
            rel += 0.5
        if rel > best_rel:
            best_rel = rel
            best = c
    if best < 0 or best_rel < prm[1]:
        return -1, -1
    return best, _claim(comm_claims(s, p, best))


@njit(cache=True)
def _claim(bits):
    if (bits >> ONLY) & 1:
        return ONLY
    if (bits >> HIGHEST) & 1:
        return HIGHEST
    return LOWEST


@njit(cache=True)
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
    return 0


@njit(cache=True)
def _outcome(s, ttype, tparams, base):
    """Score of a what-if state against the task states ``base`` before it (``base`` also
    holds each task's progress after the task states)."""
    tf, rf, _ = evaluate(s, ttype, tparams, True)
    score = 0.0
    nt = s[S_NTASKS]
    for k in range(nt):
        if base[k] == PENDING:
            score += W_PROGRESS * (progress(s, k, ttype, tparams) - base[nt + k])
            st = s[O_TSTATE + k]
            if st == DONE:
                score += W_DONE
            elif st == FAILED:
                score -= W_FAIL
    if rf:
        score -= W_FAIL
    return score


@njit(cache=True)
def _what_if(s, p, c, winner_override, ttype, tparams, base):
    """Play ``c``, add the cards later players are known to be forced to play, close the trick
    with the natural winner (or ``winner_override``) and score the result."""
    s2 = s.copy()
    n_players = s[S_NP]
    pos = s[S_NIN]
    play_card(s2, p, c)
    led = suit_of(s2[O_TCARDS + s2[S_DONE] * MAXP])
    players = np.empty(MAXP, np.int64)
    for i in range(pos + 1):
        players[i] = (s[S_LEADER] + i) % n_players
    n = pos + 1
    for i in range(pos + 1, n_players):
        if led == SUB:
            break
        q = (s[S_LEADER] + i) % n_players
        for x in range(led * 9, led * 9 + 9):
            if s2[O_COMMBY + x] == q and s2[O_CTRICK + x] < 0 and s2[O_COMMK + x] == ONLY:
                play_card(s2, q, x)
                players[n] = q
                n += 1
                break
    t = s2[S_DONE]
    cards = s2[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + n]
    w = players[trick_winner_card(cards, n)]
    if winner_override >= 0:
        w = winner_override
    finish_trick_as(s2, w)
    return _outcome(s2, ttype, tparams, base), w


@njit(cache=True)
def heuristic_play(s, p, legal, n_legal, prm, ttype, tparams):
    caution = prm[0]
    nt = s[S_NTASKS]
    base = np.empty(2 * nt + 1, np.int64)
    avoid = False
    mine = np.int64(0)
    for k in range(nt):
        base[k] = s[O_TSTATE + k]
        base[nt + k] = progress(s, k, ttype, tparams)
        if s[O_HOLDER + k] == p and base[k] == PENDING:
            row = s[O_TASK + k]
            mine |= task_targets(row, ttype, tparams)
            if is_avoid_task(row, ttype, tparams):
                avoid = True
    pos = s[S_NIN]
    n_players = s[S_NP]
    best_card = legal[0]
    best_score = -1e18
    for i in range(n_legal):
        c = legal[i]
        score, w = _what_if(s, p, c, -1, ttype, tparams, base)
        # is the what-if winner safe from later players?
        if pos < n_players - 1:
            t = s[S_DONE]
            led = suit_of(c) if pos == 0 else suit_of(s[O_TCARDS + t * MAXP])
            best = c
            if pos > 0:
                bi = trick_winner_card(s[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + pos], pos)
                best = s[O_TCARDS + t * MAXP + bi]
                if beats(c, best, led):
                    best = c
            risk = min(1.0, 2.0 * caution * beat_probability(s, p, best, led))
            if risk > 0.0:
                q = _first_later_beater(s, p, best, led)
                if q >= 0 and q != w:
                    alt, _ = _what_if(s, p, c, q, ttype, tparams, base)
                    score = (1.0 - risk) * score + risk * alt
        rank = rank_of(c)
        if c >= 36:
            score -= 0.3 + 0.05 * rank
        elif w == p:
            score -= 0.02 * rank
        elif avoid:
            score += 0.01 * rank
        else:
            score -= 0.02 * rank
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
    return heuristic_play(s, p, legal, n_legal, prm, ttype, tparams)


# -- omniscient search -----------------------------------------------------------------------
@njit(cache=True)
def search_line(s, ttype, tparams, budget, line):
    """Depth-first search with every hand visible for a sequence of cards that completes the
    mission, pruning as soon as a task or mission rule fails. Returns (cards in the line, or -1
    if none was found; nodes used). The line is written to ``line``."""
    n_players = s[S_NP]
    depth_max = (s[S_NTRICKS] - s[S_DONE]) * n_players - s[S_NIN]
    snap = np.empty((depth_max + 1, STATE_SIZE), np.int64)
    cand = np.empty((depth_max + 1, NC), np.int64)
    ncand = np.zeros(depth_max + 1, np.int64)
    idx = np.zeros(depth_max + 1, np.int64)
    snap[0] = s
    tf, rf, done = evaluate(snap[0], ttype, tparams, False)
    if tf or rf:
        return -1, 0
    if done:
        return 0, 0
    ncand[0] = legal_cards(snap[0], current_player(snap[0]), cand[0])
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
            return -1, nodes
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
                return d + 1, nodes
            if st[S_DONE] >= st[S_NTRICKS]:
                continue
        d += 1
        ncand[d] = legal_cards(st, current_player(st), cand[d])
        idx[d] = 0
    return -1, nodes
