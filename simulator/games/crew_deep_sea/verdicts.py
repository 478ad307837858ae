"""The task and mission-rule verdicts of The Crew, and the end of a mission: every compiled
function that judges a task or a mission rule (``turn.py`` applies the rules that move the game).

Task evaluators return PENDING, DONE or FAILED. With ``public=True`` they use only what every
player sees (cards played, tricks won, how many cards of each suit are still out), which is what
policies may call; the referee (``public=False``) also reads the hands to fail a task as soon as
the deal makes it impossible.
"""

from __future__ import annotations

from numba import njit

from .state import (
    C_COMPARE_TRICKS,
    C_NEVER_LEAD_SUITS,
    C_NEVER_STREAK,
    C_WIN_CARD_IN_LAST_TRICK,
    C_WIN_CARD_ONLY_SUB,
    C_WIN_CARD_WITH_SUB,
    C_WIN_CARDS,
    C_WIN_EACH_SUIT,
    C_WIN_EQUAL_SUITS,
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
    C_WIN_TRICK_ALL_RANKS,
    C_WIN_TRICK_EQUAL_SUITS,
    C_WIN_TRICK_PARITY,
    C_WIN_TRICK_SUM,
    C_WIN_TRICK_USING_RANK,
    C_WIN_TRICKS_AT,
    C_WIN_WHOLE_SUIT,
    DONE,
    FAILED,
    MAXP,
    MAXT,
    NC,
    O_CPOS,
    O_CTRICK,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TCARDS,
    O_TLEADER,
    O_TRICKS,
    O_TSTATE,
    O_TWCARD,
    O_TWINNER,
    O_TX,
    O_URANK,
    O_USUIT,
    O_WINNER,
    O_WRANK,
    O_WSUIT,
    OBJ_BALANCE1,
    OBJ_BALANCE9,
    OBJ_FIRST_WINNER,
    OBJ_NO_LEAD,
    OBJ_NONE,
    OBJ_Y5_LAST,
    PENDING,
    S_BALANCE1,
    S_CAPTAIN,
    S_DONE,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    S_SUM_ABOVE,
    S_SUM_BELOW,
    SUB,
    Y5,
    rank_of,
    suit_of,
)
from .turn import forbidden_lead


# -- task evaluation -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def single_trick_task(ct):
    """Tasks about one trick's cards (equal suits, rank with rank, using a rank, all ranks,
    sum, parity): done by the first such trick the holder wins."""
    return C_WIN_TRICK_EQUAL_SUITS <= ct <= C_WIN_TRICK_PARITY


@njit(cache=True, _nrt=False)
def wanted_trick(mask, last, t, ntr):
    """Is trick ``t`` (of ``ntr``) one a 'win the tricks at' task names: in ``mask``, or the
    last trick when ``last`` is 1?"""
    return ((mask >> t) & 1) == 1 or (last == 1 and t == ntr - 1)


@njit(cache=True, _nrt=False)
def prediction_hidden(s, k, p, ttype, tparams):
    """Is task slot ``k`` another member's secret prediction (task 85) that ``p`` may not know
    while it is pending?"""
    row = s[O_TASK + k]
    return (
        ttype[row] == C_WIN_EXACT_TRICKS_PREDICTED
        and tparams[row, 0] == 0
        and s[O_HOLDER + k] != p
        and s[O_TSTATE + k] == PENDING
    )


@njit(cache=True, _nrt=False)
def balance_rank(objective):
    """The rank missions 8 and 21 balance between the members (9 or 1), or 0."""
    if objective == OBJ_BALANCE9:
        return 9
    if objective == OBJ_BALANCE1:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def _mask_has(m, c):
    return (m >> c) & 1


@njit(cache=True, _nrt=False)
def _hand_blocks_trick(s, kind, v, op):
    """Referee check for single-trick tasks: does some player hold no card that could be part
    of a qualifying trick? kind 0: ranks op v (colour only); kind 1: parity v."""
    n_players = s[S_NP]
    for q in range(n_players):
        ok = False
        for c in range(36):
            if s[O_OWNER + c] != q:
                continue
            r = rank_of(c)
            if kind == 0:
                if (op == 0 and r < v) or (op == 1 and r > v):
                    ok = True
                    break
            elif r % 2 == v:
                ok = True
                break
        if not ok:
            return True
    return False


@njit(cache=True, _nrt=False)
def _sum_bounds_block(s, op, lo, hi):
    """Referee check for trick-sum tasks from each player's lowest and highest colour card."""
    smin = 0
    smax = 0
    for q in range(s[S_NP]):
        mn = 99
        mx = -1
        for c in range(36):
            if s[O_OWNER + c] == q:
                r = rank_of(c)
                mn = min(mn, r)
                mx = max(mx, r)
        if mx < 0:
            return True
        smin += mn
        smax += mx
    if op == 0:
        return smin >= lo
    if op == 1:
        return smax <= lo
    return smax < lo or smin > hi


@njit(cache=True, _nrt=False)
def _trick_property(s, t, ct, prm, n_players, above, below):
    """Does completed trick ``t`` have the property a single-trick task asks for?"""
    wc = s[O_TWCARD + t]
    n = 0
    for i in range(MAXP):
        if s[O_TCARDS + t * MAXP + i] >= 0:
            n += 1
    if ct == C_WIN_TRICK_EQUAL_SUITS:
        na = 0
        nb = 0
        for i in range(n):
            su = suit_of(s[O_TCARDS + t * MAXP + i])
            na += su == prm[0]
            nb += su == prm[1]
        return na == nb and na >= max(prm[2], 1)
    if ct == C_WIN_RANK_WITH_RANK:
        if wc >= 36 or rank_of(wc) != prm[0]:
            return False
        for i in range(n):
            c = s[O_TCARDS + t * MAXP + i]
            if c != wc and c < 36 and rank_of(c) == prm[1]:
                return True
        return False
    if ct == C_WIN_TRICK_USING_RANK:
        return wc < 36 and rank_of(wc) == prm[0]
    total = 0
    for i in range(n):
        c = s[O_TCARDS + t * MAXP + i]
        if c >= 36:
            return False
        r = rank_of(c)
        total += r
        if ct == C_WIN_TRICK_ALL_RANKS:
            if (prm[0] == 0 and r >= prm[1]) or (prm[0] == 1 and r <= prm[1]):
                return False
        elif ct == C_WIN_TRICK_PARITY:
            if r % 2 != prm[0]:
                return False
    if ct == C_WIN_TRICK_SUM:
        if prm[0] == 0:
            return total < below
        if prm[0] == 1:
            return total > above
        return prm[1] <= total <= prm[2]
    return True


@njit(cache=True, _nrt=False)
def streaks(s, h, upto):
    """(longest run of consecutive tricks won by h, current run ending at trick upto-1)."""
    best = 0
    cur = 0
    for t in range(upto):
        if s[O_TWINNER + t] == h:
            cur += 1
            best = max(best, cur)
        else:
            cur = 0
    return best, cur


@njit(cache=True, _nrt=False)
def eval_task(s, k, ttype, tparams, public):
    """State of task slot ``k`` now (PENDING, DONE or FAILED), deciding as early as it can."""
    row = s[O_TASK + k]
    h = s[O_HOLDER + k]
    ct = ttype[row]
    prm = tparams[row]
    n_players = s[S_NP]
    done_t = s[S_DONE]
    ntr = s[S_NTRICKS]
    rem = ntr - done_t
    final = rem == 0
    last = done_t - 1  # trick just completed
    tw = s[O_TRICKS + h]

    if ct == C_WIN_CARDS:
        all_won = True
        for c in range(NC):
            if _mask_has(prm[0], c):
                w = s[O_WINNER + c]
                if w >= 0 and w != h:
                    return FAILED
                if w != h:
                    all_won = False
        if all_won:
            return DONE
        return FAILED if final else PENDING
    if ct == C_WIN_CARD_IN_LAST_TRICK:
        c = prm[0]
        if s[O_CTRICK + c] >= 0:
            if s[O_CTRICK + c] != ntr - 1:
                return FAILED
            if s[O_WINNER + c] == h:
                return DONE
            return FAILED if s[O_WINNER + c] >= 0 else PENDING
        return FAILED if final else PENDING
    if ct == C_WIN_CARD_ONLY_SUB:
        c = prm[0]
        if s[O_WINNER + c] >= 0 and s[O_WINNER + c] != h:
            return FAILED
        other = s[O_WSUIT + h * 5 + SUB] - (1 if s[O_WINNER + c] == h else 0)
        if other > 0:
            return FAILED
        if s[O_WINNER + c] == h and s[O_USUIT + SUB] == 0:
            return DONE
        if final:
            return DONE if s[O_WINNER + c] == h else FAILED
        return PENDING
    if ct == C_WIN_CARD_WITH_SUB:
        c = prm[0]
        t = s[O_CTRICK + c]
        if t >= MAXT:  # out of the game
            return FAILED
        if t >= 0 and s[O_TWINNER + t] >= 0:
            if s[O_TWINNER + t] == h and s[O_TWCARD + t] >= 36:
                return DONE
            return FAILED
        if s[O_USUIT + SUB] == 0 or final:
            return FAILED
        return PENDING
    if ct == C_WIN_RANK_AT_LEAST or ct == C_WIN_SUIT_AT_LEAST:
        if ct == C_WIN_RANK_AT_LEAST:
            cnt = s[O_WRANK + h * 10 + prm[0]]
            out = s[O_URANK + prm[0]]
        else:
            cnt = s[O_WSUIT + h * 5 + prm[0]]
            out = s[O_USUIT + prm[0]]
        if cnt >= prm[1]:
            return DONE
        return FAILED if cnt + out < prm[1] or final else PENDING
    if ct == C_WIN_RANK_EXACTLY or ct == C_WIN_SUIT_EXACTLY:
        result = DONE
        for j in range(2):
            if j == 1 and (ct == C_WIN_RANK_EXACTLY or prm[2] < 0):
                break
            key = prm[2 * j]
            need = prm[2 * j + 1]
            if ct == C_WIN_RANK_EXACTLY:
                cnt = s[O_WRANK + h * 10 + key]
                out = s[O_URANK + key]
            else:
                cnt = s[O_WSUIT + h * 5 + key]
                out = s[O_USUIT + key]
            # at the end of the hand a card never played (3 players: the 14th) is nobody's
            if cnt > need or cnt + out < need or (final and cnt != need):
                return FAILED
            if not (cnt == need and (out == 0 or final)):
                result = PENDING
        return result
    if ct == C_WIN_NONE:
        open_cards = 0
        for c in range(NC):
            if _mask_has(prm[0], c):
                if s[O_WINNER + c] == h:
                    return FAILED
                if s[O_CTRICK + c] < 0:
                    open_cards += 1
        return DONE if open_cards == 0 or final else PENDING
    if ct == C_WIN_MORE_SUIT_THAN_SUIT or ct == C_WIN_EQUAL_SUITS:
        ca = s[O_WSUIT + h * 5 + prm[0]]
        cb = s[O_WSUIT + h * 5 + prm[1]]
        ua = s[O_USUIT + prm[0]]
        ub = s[O_USUIT + prm[1]]
        if ct == C_WIN_MORE_SUIT_THAN_SUIT:
            if final:  # a card never played (3 players: the 14th) is nobody's
                return DONE if ca > cb else FAILED
            if ca > cb + ub:
                return DONE
            if ca + ua <= cb:
                return FAILED
            return PENDING
        if ca > cb + ub or cb > ca + ua or ca + ua < prm[2] or cb + ub < prm[2]:
            return FAILED
        if (ua == 0 and ub == 0) or final:
            return DONE if ca == cb and ca >= prm[2] else FAILED
        return PENDING
    if ct == C_WIN_EACH_SUIT:
        result = DONE
        for su in range(5):
            if (prm[0] >> su) & 1:
                if s[O_WSUIT + h * 5 + su] == 0:
                    if s[O_USUIT + su] == 0 or final:
                        return FAILED
                    result = PENDING
        return result
    if ct == C_WIN_WHOLE_SUIT:
        possible = False
        for su in range(4):
            cnt = s[O_WSUIT + h * 5 + su]
            if cnt >= prm[0]:
                return DONE
            if cnt + s[O_USUIT + su] >= prm[0]:
                possible = True
        return PENDING if possible and not final else FAILED
    if single_trick_task(ct):
        above = s[S_SUM_ABOVE]
        below = s[S_SUM_BELOW]
        for t in range(done_t):
            if s[O_TWINNER + t] == h and _trick_property(s, t, ct, prm, n_players, above, below):
                return DONE
        if final:
            return FAILED
        # can a qualifying trick still happen?
        if ct == C_WIN_TRICK_EQUAL_SUITS:
            need = max(prm[2], 1)
            if s[O_USUIT + prm[0]] < need or s[O_USUIT + prm[1]] < need:
                return FAILED
        elif ct == C_WIN_RANK_WITH_RANK:
            if prm[0] == prm[1]:
                if s[O_URANK + prm[0]] < 2:
                    return FAILED
            elif s[O_URANK + prm[0]] == 0 or s[O_URANK + prm[1]] == 0:
                return FAILED
        elif ct == C_WIN_TRICK_USING_RANK:
            if s[O_URANK + prm[0]] == 0:
                return FAILED
        elif not public:
            if ct == C_WIN_TRICK_ALL_RANKS:
                if _hand_blocks_trick(s, 0, prm[1], prm[0]):
                    return FAILED
            elif ct == C_WIN_TRICK_PARITY:
                if _hand_blocks_trick(s, 1, prm[0], 0):
                    return FAILED
            elif ct == C_WIN_TRICK_SUM:
                lo = below if prm[0] == 0 else (above if prm[0] == 1 else prm[1])
                if _sum_bounds_block(s, prm[0], lo, prm[2]):
                    return FAILED
        return PENDING
    if ct == C_NEVER_LEAD_SUITS:
        for t in range(done_t):
            if s[O_TLEADER + t] == h and (prm[0] >> suit_of(s[O_TCARDS + t * MAXP])) & 1:
                return FAILED
        if final:
            return DONE
        if not public:
            for c in range(36):
                if s[O_OWNER + c] == h and (prm[0] >> suit_of(c)) & 1:
                    return PENDING
            return DONE
        return PENDING
    if ct == C_WIN_TRICKS_AT or ct == C_WIN_ONLY_TRICKS_AT:
        complete = True
        for t in range(ntr):
            wanted = wanted_trick(prm[0], prm[1], t, ntr)
            w = s[O_TWINNER + t]
            if wanted:
                if w >= 0 and w != h:
                    return FAILED
                if w < 0:
                    complete = False
            elif ct == C_WIN_ONLY_TRICKS_AT and w == h:
                return FAILED
        if ct == C_WIN_TRICKS_AT:
            return DONE if complete else PENDING
        return DONE if final else PENDING
    if ct == C_WIN_NONE_OF_FIRST:
        for t in range(min(done_t, prm[0])):
            if s[O_TWINNER + t] == h:
                return FAILED
        return DONE if done_t >= prm[0] or final else PENDING
    if ct == C_WIN_EXACT_TRICKS or ct == C_WIN_EXACT_TRICKS_PREDICTED:
        n = prm[0] if ct == C_WIN_EXACT_TRICKS else s[O_TX + k]
        if n < 0:  # free prediction: any count will do
            return DONE if final else PENDING
        if tw > n or tw + rem < n:
            return FAILED
        return DONE if final else PENDING
    if ct == C_WIN_STREAK or ct == C_NEVER_STREAK:
        best, cur = streaks(s, h, done_t)
        if ct == C_WIN_STREAK:
            if best >= prm[0]:
                return DONE
            return FAILED if cur + rem < prm[0] else PENDING
        if best >= prm[0]:
            return FAILED
        return DONE if final else PENDING
    if ct == C_WIN_EXACT_STREAK:
        kk = prm[0]
        if tw > kk:
            return FAILED
        if tw > 0:
            first = -1
            lastw = -1
            for t in range(done_t):
                if s[O_TWINNER + t] == h:
                    if first < 0:
                        first = t
                    lastw = t
            if lastw - first + 1 != tw:
                return FAILED
            if tw < kk and (lastw != last or tw + rem < kk):
                return FAILED
        elif rem < kk:
            return FAILED
        if final:
            return DONE if tw == kk else FAILED
        return PENDING
    if ct == C_COMPARE_TRICKS:
        op = prm[0]
        if prm[1] == 0:  # every other player
            mx = -1
            mn = 99
            need = 0
            for q in range(n_players):
                if q != h:
                    tq = s[O_TRICKS + q]
                    mx = max(mx, tq)
                    mn = min(mn, tq)
                    need += max(0, tw + 1 - tq)
            if op == 0:
                if tw > mx + rem:
                    return DONE
                if tw + rem <= mx:
                    return FAILED
            else:
                if tw + rem < mn:
                    return DONE
                if need > rem:
                    return FAILED
            return FAILED if final else PENDING
        if prm[1] == 1:  # all others combined
            others = done_t - tw
            if tw > others + rem:
                return DONE
            if tw + rem <= others:
                return FAILED
            return FAILED if final else PENDING
        tc = s[O_TRICKS + s[S_CAPTAIN]]
        if op == 0:
            if tw > tc + rem:
                return DONE
            if tw + rem <= tc:
                return FAILED
        elif op == 1:
            if tw + rem < tc:
                return DONE
            if tc + rem <= tw:
                return FAILED
        else:
            if abs(tw - tc) > rem:
                return FAILED
            if final:
                return DONE
        return FAILED if final else PENDING
    return PENDING  # pragma: no cover


@njit(cache=True, _nrt=False)
def eval_objective(s, objective):
    """State of a logbook mission rule (task-less missions, mission 20's option)."""
    done_t = s[S_DONE]
    rem = s[S_NTRICKS] - done_t
    n_players = s[S_NP]
    if objective == OBJ_BALANCE9 or objective == OBJ_BALANCE1:
        r = balance_rank(objective)
        mx = 0
        mn = 99
        for q in range(n_players):
            v = s[O_WRANK + q * 10 + r]
            mx = max(mx, v)
            mn = min(mn, v)
        if mx - mn >= 2:
            return FAILED
        return DONE if s[O_URANK + r] == 0 or rem == 0 else PENDING
    if objective == OBJ_NO_LEAD:
        for t in range(done_t):
            if forbidden_lead(s[O_TCARDS + t * MAXP]):
                return FAILED
        return DONE if rem == 0 else PENDING
    if objective == OBJ_FIRST_WINNER:
        if done_t == 0:
            return PENDING
        w = s[O_TWINNER]
        tw = s[O_TRICKS + w]
        mx = 0
        for q in range(n_players):
            if q != w:
                mx = max(mx, s[O_TRICKS + q])
        if tw <= mx:
            return FAILED
        return DONE if tw > mx + rem else PENDING
    if objective == OBJ_Y5_LAST:
        t = s[O_CTRICK + Y5]
        if t >= 0:
            if t != s[S_NTRICKS] - 1:
                return FAILED
            if s[O_CPOS + Y5] != n_players - 1:
                return FAILED
            return DONE if s[O_TWINNER + t] >= 0 else PENDING
        return FAILED if rem == 0 else PENDING
    return DONE


@njit(cache=True, _nrt=False)
def evaluate(s, ttype, tparams, public):
    """Update every pending task and the mission rules. Returns (task failed, rule failed,
    everything done). A decided task never changes again."""
    task_failed = False
    all_done = True
    for k in range(s[S_NTASKS]):
        st = s[O_TSTATE + k]
        if st == PENDING:
            st = eval_task(s, k, ttype, tparams, public)
            s[O_TSTATE + k] = st
        if st == FAILED:
            task_failed = True
        if st != DONE:
            all_done = False
    rule_failed = False
    for obj in (s[S_OBJECTIVE], OBJ_BALANCE1 if s[S_BALANCE1] == 1 else OBJ_NONE):
        if obj != OBJ_NONE:
            st = eval_objective(s, obj)
            if st == FAILED:
                rule_failed = True
            if st != DONE:
                all_done = False
    return task_failed, rule_failed, all_done


# -- the end of a mission ------------------------------------------------------------------
ONGOING = -1
END_SUCCESS, END_TASK_FAILED, END_RULE_FAILED, END_ALL_PLAYED, END_ATTEMPT_CAP = 0, 1, 2, 3, 4


@njit(cache=True, _nrt=False)
def verdict(task_failed, rule_failed, all_done, s):
    """The end of a mission from :func:`evaluate`'s answer at a trick end: failed (a task first,
    then a mission rule), succeeded, every trick played, or ONGOING."""
    if task_failed:
        return END_TASK_FAILED
    if rule_failed:
        return END_RULE_FAILED
    if all_done:
        return END_SUCCESS
    if s[S_DONE] >= s[S_NTRICKS]:
        return END_ALL_PLAYED
    return ONGOING


@njit(cache=True, _nrt=False)
def mission_end(s, ttype, tparams):
    """The referee's verdict at a trick end (every pending task updated): an END_* code, or
    ONGOING."""
    tf, rf, done = evaluate(s, ttype, tparams, False)
    return verdict(tf, rf, done, s)
