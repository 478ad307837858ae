"""The heuristic crew: every decision from the member's own view, by simple scored reasons.

Card play scores each legal card by a what-if of the trick (``card_value``: later players
overtake when the crew gains by it or when they must) plus the hand's own reasons
(``_best_play``); tasks are picked by fit, the sonar shows what helps a partner most.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.extending import overload

from simulator.games.crew_deep_sea.state import (
    C_COMPARE_TRICKS,
    C_NEVER_LEAD_SUITS,
    C_NEVER_STREAK,
    C_WIN_CARDS,
    C_WIN_EXACT_STREAK,
    C_WIN_EXACT_TRICKS,
    C_WIN_EXACT_TRICKS_PREDICTED,
    C_WIN_NONE,
    C_WIN_NONE_OF_FIRST,
    C_WIN_ONLY_TRICKS_AT,
    C_WIN_RANK_EXACTLY,
    C_WIN_RANK_WITH_RANK,
    C_WIN_STREAK,
    C_WIN_SUIT_EXACTLY,
    C_WIN_TRICKS_AT,
    DONE,
    FAILED,
    HIGHEST,
    LOWEST,
    MAXP,
    NC,
    O_COMMBY,
    O_COMMK,
    O_CTRICK,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TRICKS,
    O_TSTATE,
    O_TWINNER,
    O_TX,
    O_WRANK,
    O_WSUIT,
    OBJ_FIRST_WINNER,
    OBJ_NO_LEAD,
    OBJ_Y5_LAST,
    ONLY,
    PENDING,
    S_CAPTAIN,
    S_DONE,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    SUB,
    Y5,
    led_suit,
    neighbour,
    rank_of,
    suit_of,
)
from simulator.games.crew_deep_sea.turn import (
    FORBIDDEN_LEADS,
    comm_claims,
    copy_closing_fields,
    copy_play_fields,
    finish_trick_as,
    forbidden_lead,
    passable_cards,
    play_card,
    winning_now,
)
from simulator.games.crew_deep_sea.verdicts import (
    balance_rank,
    evaluate,
    single_trick_task,
    streaks,
    wanted_trick,
)

from .declarations import HEURISTIC_P
from .knowledge import (
    claims_exclude,
    later_discard,
    later_hold,
    likely_beater,
    take_probs_of,
    unknown_cards,
)
from .tasks import needs_whole_trick, progress, task_fit, task_targets

W_FAIL = 20.0
W_PROGRESS = 1.5
W_AIM = 1.0
W_SINGLETON = 4.0
W_SHED = 0.3
W_LEAD_OTHERS = 3.0
W_HAZARD = 1.0
PARTIAL_CREDIT = 0.4
W_BALANCE = 1.5


Reasons = namedtuple("Reasons", "base aim w_done caution mine others shed hazard excess")
Reasons.__doc__ = """What one card decision of the heuristic weighs, computed once by
:func:`heuristic_play`: ``base`` the task states then each task's progress before the card,
``aim`` how much the crew wants each seat to win the trick, ``w_done`` the worth of a task
completed now, ``caution``, the card masks ``mine`` (to win), ``others`` (partners must win),
``shed`` (not to win), ``hazard`` (partners must not win) and ``excess`` (missions 8/21:
balanced cards beyond the share)."""
Scratch = namedtuple("Scratch", "vals prob s2 s3 later top")
Scratch.__doc__ = """:func:`card_value`'s scratch, allocated once per decision (nothing below
:func:`heuristic_play` allocates): ``vals``/``prob`` per seat (the worth of each winner, the
winner distribution), ``s2``/``s3`` of the state's length, ``later`` (seats still to play) and
``top`` (the card each possible winner would be winning with) of ``MAXP``."""


# -- decisions other than card play ----------------------------------------------------------
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
def heuristic_volunteer(s, p, prm, ttype, tparams):
    """Takes every task when its hand fits them, on average, at least ``volunteer``."""
    n = s[S_NTASKS]
    total = 0.0
    for k in range(n):
        total += task_fit(s, p, s[O_TASK + k], ttype, tparams)
    return total / max(n, 1) >= prm[HEURISTIC_P.volunteer]


@njit(cache=True)
def heuristic_predict(s, p):
    """The X of an 'exactly X tricks' task from the hand's high cards and submarines."""
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
def heuristic_distress(s, p, prm, ttype, tparams):
    """Asks for the distress signal when its hand fits one of its tasks below
    ``distress_below``."""
    for k in range(s[S_NTASKS]):
        if (
            s[O_HOLDER + k] == p
            and task_fit(s, p, s[O_TASK + k], ttype, tparams) < prm[HEURISTIC_P.distress_below]
        ):
            return True
    return False


@njit(cache=True)
def heuristic_direction(s, p, ttype, tparams):
    """+1 left, -1 right, 0 none: towards the neighbour whose tasks need more of its cards."""
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
def heuristic_pass(s, p, to, ttype, tparams):
    """A card the receiver's task needs, else the lowest card of its shortest suit (-1: none)."""
    cards = np.empty(NC, np.int64)
    n = passable_cards(s, p, cards)
    if n == 0:
        return -1
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
def heuristic_comm(s, p, prm, ttype, tparams):
    """(card, claim) that helps the crew most (a task card of another's, the top of a suit where
    its own task card lies elsewhere, a task it needs the coming trick for), if relevant
    enough (``comm_threshold``); else (-1, -1). ``s``: ``p``'s own view."""
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
                wanted = wanted_trick(tparams[row, 0], tparams[row, 1], t, s[S_NTRICKS])
                want_next = want_next or wanted
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
    return best, claim_to_make(comm_claims(s, p, best))


@njit(cache=True, _nrt=False)
def _top_remaining(s, p, c):
    """Is ``c`` (``p``'s card) above every unplayed card of its suit held by others?"""
    for y in range(c + 1, suit_of(c) * 9 + 9):
        if s[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
            return False
    return True


@njit(cache=True, _nrt=False)
def claim_to_make(bits):
    if (bits >> ONLY) & 1:
        return ONLY
    if (bits >> HIGHEST) & 1:
        return HIGHEST
    return LOWEST


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
                if partial and needs_whole_trick(ttype[s[O_TASK + k]]):
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
                if wanted_trick(tparams[row, 0], tparams[row, 1], t + 1, s[S_NTRICKS]):
                    aim[h] += 0.5  # leading the wanted trick helps to win it
        elif ct == C_WIN_NONE_OF_FIRST or ct == C_WIN_ONLY_TRICKS_AT:
            pass  # the trick's own outcome decides these
        elif single_trick_task(ct):
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
    """``vals[w]``: score of closing the trick as it stands in ``s2`` with ``w`` winning it.
    Each close is played on ``s2`` and undone from ``s3`` (scratch of the state's length), which
    keeps only the fields a close writes: ``s2`` is left as it was."""
    t = s2[S_DONE]
    n = s2[S_NIN]
    for w in range(s2[S_NP]):
        copy_closing_fields(s3, s2, s2, t, n, w)
        finish_trick_as(s2, w)
        vals[w] = _outcome(s2, ttype, tparams, base, w_done, partial) + W_AIM * aim[w]
        copy_closing_fields(s2, s3, s2, t, n, w)


@njit(cache=True, _nrt=False)
def card_value(s, p, c, ttype, tparams, why, scratch):
    """Expected score of ``p`` playing ``c`` now (``why``: the decision's :class:`Reasons`): the
    trick is closed by a cooperative crew, each later player overtaking when the crew gains by
    it and it can, or when it must (all its cards of the led suit are higher). Leaves the winner
    distribution in ``scratch.prob`` (``scratch``: see :class:`Scratch`; its ``s2`` must hold
    ``s``: the what-if plays are made there and undone before returning)."""
    base, aim, w_done, caution = why.base, why.aim, why.w_done, why.caution
    vals, prob, s2, s3, later, top = scratch
    n_players = s[S_NP]
    pos = s[S_NIN]
    leader = s[S_LEADER]
    play_card(s2, p, c)
    led = led_suit(s2)
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
    w0, best = winning_now(s2)
    unknown = unknown_cards(s2, p)  # s2 stays as it is from here on
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
                        vals[h] += 0.8 * w_done * later_hold(s2, p, x, later, nl, unknown)
                    miss = 1.0
                    for su in range(4):
                        y = su * 9 + tparams[row, 1] - 1
                        if su != led and s2[O_CTRICK + y] < 0 and s[O_OWNER + y] != p:
                            miss *= 1.0 - later_discard(s2, p, y, led, later, nl)
                    vals[h] += 0.8 * w_done * (1.0 - miss)
                continue
            if ttype[row] != C_WIN_CARDS:
                continue
            m = tparams[row, 0]
            for x in range(led * 9, led * 9 + 9):
                if (m >> x) & 1 and s2[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
                    vals[h] += 0.8 * w_done * later_hold(s2, p, x, later, nl, unknown)
    for q in range(n_players):
        prob[q] = 0.0
        top[q] = best
    prob[w0] = 1.0
    scale = min(1.0, 2.0 * caution)
    for j in range(nl):
        q = later[j]
        excluded = claims_exclude(s2, q)
        moved = 0.0
        for w in range(n_players):
            if w != q and prob[w] > 0.0:
                can, must = take_probs_of(s2, p, q, top[w], led, unknown, excluded)
                take = can if vals[q] > vals[w] + 0.5 else must
                d = prob[w] * take * scale
                prob[w] -= d
                moved += d
        if moved > 0.0:
            # the card q would win with: its highest if it wants the trick, else its lowest
            top[q] = likely_beater(s2, p, q, best, led, vals[q] > vals[w0] + 0.5, unknown, excluded)
        prob[q] += moved
    score = 0.0
    for w in range(n_players):
        score += prob[w] * vals[w]
    copy_play_fields(s2, s, s2, pos, s2[S_NIN])
    return score


@njit(cache=True, _nrt=False)
def _balance_excess(s, p):
    """Missions 8/21: how many of the balanced rank ``p`` has won or holds beyond its share
    (the colour cards of that rank in play, spread as evenly as the rule demands)."""
    r = balance_rank(s[S_OBJECTIVE])
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
        shed |= FORBIDDEN_LEADS  # pink cards and submarines leave a hand only as discards
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
    why = Reasons(base, aim, w_done, caution, mine, others, shed, hazard, excess)
    scratch = Scratch(vals, prob, s2, s3, later, winning)
    return _best_play(s, p, legal, n_legal, ttype, tparams, why, scratch)


@njit(cache=True, _nrt=False)
def _best_play(s, p, legal, n_legal, ttype, tparams, why, scratch):
    """The heuristic's card among ``legal[:n_legal]``, each scored by :func:`card_value` plus
    the hand's own reasons (arrays allocated by :func:`heuristic_play`: nothing here
    allocates, so its calls pay no reference counting)."""
    aim, mine, others, shed, hazard, excess = (
        why.aim, why.mine, why.others, why.shed, why.hazard, why.excess
    )  # fmt: skip
    prob = scratch.prob
    pos = s[S_NIN]
    _copy_into(scratch.s2, s)  # card_value plays each card there and undoes it
    best_card = legal[0]
    best_score = -1e18
    for i in range(n_legal):
        c = legal[i]
        score = card_value(s, p, c, ttype, tparams, why, scratch)
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
        if excess > 0 and c < 36 and rank_of(c) == balance_rank(s[S_OBJECTIVE]):
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
