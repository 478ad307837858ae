"""Tasks as the policies weigh them: the cards a task wants, how well a hand fits it, its public
progress, and (on a fully visible deal) the chance it is still kept. The verdict on a task is
the rules' (``simulator.games.crew_deep_sea.verdicts.eval_task``); these are estimates.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import (
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
    C_WIN_RANK_WITH_RANK,
    C_WIN_SUIT_AT_LEAST,
    C_WIN_SUIT_EXACTLY,
    C_WIN_TRICK_USING_RANK,
    NC,
    O_CTRICK,
    O_HANDN,
    O_HOLDER,
    O_OWNER,
    O_TASK,
    O_TRICKS,
    O_TSTATE,
    O_TX,
    O_URANK,
    O_USUIT,
    O_WINNER,
    O_WRANK,
    O_WSUIT,
    OBJ_NONE,
    PENDING,
    S_DONE,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    SUB,
    rank_of,
    suit_of,
)
from simulator.games.crew_deep_sea.turn import beats
from simulator.games.crew_deep_sea.verdicts import eval_objective, single_trick_task


@njit(cache=True, _nrt=False)
def task_targets(row, ttype, tparams):
    """Card mask a task's holder wants to win (0 for tasks without named cards)."""
    ct = ttype[row]
    if ct == C_WIN_CARDS:
        return tparams[row, 0]
    if ct == C_WIN_CARD_IN_LAST_TRICK or ct == C_WIN_CARD_ONLY_SUB or ct == C_WIN_CARD_WITH_SUB:
        return np.int64(1) << tparams[row, 0]
    return np.int64(0)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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
def needs_whole_trick(ct):
    """Single-trick tasks that later cards can still spoil (a rank-with-rank or won-with-rank
    trick stays one whoever adds cards, as long as its winner does not change)."""
    return single_trick_task(ct) and ct != C_WIN_RANK_WITH_RANK and ct != C_WIN_TRICK_USING_RANK


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


@njit(cache=True, _nrt=False)
def _can_beat(s, h, c):
    """Does ``h`` hold a card that beats ``c`` (higher of its suit, or a submarine over a
    colour card)?"""
    for x in range(NC):
        if s[O_OWNER + x] == h and x != c and beats(x, c, suit_of(c)):
            return True
    return False


@njit(cache=True, _nrt=False)
def _to_win(s, h, c):
    """Chance factor that ``h`` still wins the unplayed card ``c``."""
    if s[O_OWNER + c] == h:
        return H_HOLD
    return H_REACH if _can_beat(s, h, c) else H_LONG


@njit(cache=True, _nrt=False)
def _held(s, h, su, r):
    """Cards of suit ``su`` (or colour rank ``r`` when ``su`` < 0) in ``h``'s hand."""
    n = 0
    for x in range(NC):
        if s[O_OWNER + x] == h and (suit_of(x) == su if su >= 0 else (x < 36 and rank_of(x) == r)):
            n += 1
    return n


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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
