"""Game state as one int64 vector, and the compiled rules that act on it.

One flat vector (offsets below) makes a state cheap to copy, which the heuristic (what-if tricks)
and the omniscient search (one snapshot per depth) rely on. Everything here is a small
``@njit(cache=True)`` function that tests call on hand-made states.

Task evaluators return PENDING, DONE or FAILED. With ``public=True`` they use only what every
player sees (cards played, tricks won, how many cards of each suit are still out), which is what
policies may call; the referee (``public=False``) also reads the hands to fail a task as soon as
the deal makes it impossible.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import CONDITION_TYPES

MAXP = 5
NC = 40
MAXT = 13
MAX_TASKS = 32
SUB = 4

PENDING, DONE, FAILED = 0, 1, 2
# condition types, in the order of board.CONDITION_TYPES (numba needs plain int globals)
C_WIN_CARDS = 0
C_WIN_CARD_IN_LAST_TRICK = 1
C_WIN_CARD_ONLY_SUB = 2
C_WIN_CARD_WITH_SUB = 3
C_WIN_RANK_AT_LEAST = 4
C_WIN_RANK_EXACTLY = 5
C_WIN_SUIT_AT_LEAST = 6
C_WIN_SUIT_EXACTLY = 7
C_WIN_NONE = 8
C_WIN_MORE_SUIT_THAN_SUIT = 9
C_WIN_EQUAL_SUITS = 10
C_WIN_EACH_SUIT = 11
C_WIN_WHOLE_SUIT = 12
C_WIN_TRICK_EQUAL_SUITS = 13
C_WIN_RANK_WITH_RANK = 14
C_WIN_TRICK_USING_RANK = 15
C_WIN_TRICK_ALL_RANKS = 16
C_WIN_TRICK_SUM = 17
C_WIN_TRICK_PARITY = 18
C_NEVER_LEAD_SUITS = 19
C_WIN_TRICKS_AT = 20
C_WIN_ONLY_TRICKS_AT = 21
C_WIN_NONE_OF_FIRST = 22
C_WIN_EXACT_TRICKS = 23
C_WIN_EXACT_TRICKS_PREDICTED = 24
C_WIN_STREAK = 25
C_WIN_EXACT_STREAK = 26
C_NEVER_STREAK = 27
C_COMPARE_TRICKS = 28
assert C_COMPARE_TRICKS == CONDITION_TYPES.index("compare_tricks") == len(CONDITION_TYPES) - 1
# communication declarations
HIGHEST, ONLY, LOWEST, HIDDEN = 0, 1, 2, 3
# communication modes
COMM_NORMAL, COMM_CURRENTS, COMM_RAPTURE, COMM_TERRAIN, COMM_NONE = 0, 1, 2, 3, 4
# mission objectives (board.OBJECTIVES)
OBJ_NONE, OBJ_BALANCE9, OBJ_BALANCE1, OBJ_NO_LEAD, OBJ_FIRST_WINNER, OBJ_Y5_LAST = range(6)

# -- layout of the state vector -------------------------------------------------------------
S_NP = 0  # players
S_NTRICKS = 1  # tricks in the game
S_CAPTAIN = 2
S_LEADER = 3  # leader of the current trick
S_DONE = 4  # tricks completed
S_NIN = 5  # cards in the current trick
S_COMM_MODE = 6  # effective mode of this attempt (terrain already resolved)
S_POOL = 7  # rapture: shared sonar tokens left
S_NTASKS = 8
S_OBJECTIVE = 9
S_BALANCE1 = 10  # mission 20 option: also the colour-1s rule
S_COMM_FROM = 11  # first trick index before which communication is allowed
S_COMM_UNTIL = 12  # communication allowed only before tricks with index < this
S_LEAD_ILLEGAL = 13  # mission 12: forbidden lead is illegal (1) rather than a failure (0)
S_SINGLE_ANY = 14  # a single card may be declared highest/lowest too
S_SUM_ABOVE = 15  # trick-sum thresholds for this player count
S_SUM_BELOW = 16
S_OBJ_STATE = 17
S_DISTRESS = 18
S_DUMMY = 19  # seat of the 2-player dummy crew member, -1 without one
_SCALARS = 24


def _block(start: int, size: int) -> tuple[int, int]:
    return start, start + size


O_OWNER, _e = _block(_SCALARS, NC)  # holder of an unplayed card, -1 once played
O_WINNER, _e = _block(_e, NC)  # who won the card (-1 until its trick ends)
O_CTRICK, _e = _block(_e, NC)  # trick index the card was played in, -1 unplayed
O_CPOS, _e = _block(_e, NC)  # position in that trick (0 = lead)
O_TCARDS, _e = _block(_e, MAXT * MAXP)  # cards of trick t in play order
O_TLEADER, _e = _block(_e, MAXT)
O_TWINNER, _e = _block(_e, MAXT)
O_TWCARD, _e = _block(_e, MAXT)  # winning card of trick t
O_TRICKS, _e = _block(_e, MAXP)  # tricks won per player
O_WSUIT, _e = _block(_e, MAXP * 5)  # cards won per player and suit
O_WRANK, _e = _block(_e, MAXP * 10)  # colour cards won per player and rank
O_USUIT, _e = _block(_e, 5)  # unplayed cards per suit
O_URANK, _e = _block(_e, 10)  # unplayed colour cards per rank
O_HANDN, _e = _block(_e, MAXP)
O_VOID, _e = _block(_e, MAXP * 5)  # shown void (did not follow suit)
O_TASK, _e = _block(_e, MAX_TASKS)  # task row (0-95)
O_HOLDER, _e = _block(_e, MAX_TASKS)
O_TSTATE, _e = _block(_e, MAX_TASKS)
O_TX, _e = _block(_e, MAX_TASKS)  # predicted X (-2: free, the omniscient search decides)
O_COMMK, _e = _block(_e, NC)  # declaration of a communicated card, -1 none
O_COMMBY, _e = _block(_e, NC)
O_SONAR, _e = _block(_e, MAXP)  # own sonar tokens left
O_DOWN, _e = _block(_e, NC)  # 1: a face-down card of the dummy (not playable yet)
O_BELOW, _e = _block(_e, NC)  # the dummy's face-down card under this face-up card, -1 none
STATE_SIZE = _e


@njit(cache=True)
def suit_of(c):
    return c // 9 if c < 36 else SUB


@njit(cache=True)
def rank_of(c):
    return c % 9 + 1 if c < 36 else c - 35


@njit(cache=True)
def new_state(n_players, hands_owner, captain):
    """A state before play; ``hands_owner[c]`` is the holder of card c (-1: out of the game).
    Tricks: the smallest hand (3 players: 14/13/13 gives 13 tricks, one card never played)."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[S_NP] = n_players
    smallest = NC
    for p in range(n_players):
        cnt = 0
        for c in range(NC):
            cnt += hands_owner[c] == p
        smallest = min(smallest, cnt)
    s[S_NTRICKS] = smallest
    s[S_CAPTAIN] = captain
    s[S_LEADER] = captain
    s[S_COMM_UNTIL] = MAXT + 1
    s[S_POOL] = 0
    s[S_DUMMY] = -1
    for c in range(NC):
        s[O_OWNER + c] = hands_owner[c]
        s[O_WINNER + c] = -1
        s[O_CTRICK + c] = -1
        s[O_CPOS + c] = -1
        s[O_COMMK + c] = -1
        s[O_COMMBY + c] = -1
        s[O_BELOW + c] = -1
        if hands_owner[c] < 0:  # not in the game (hand-made states): counts as gone
            s[O_CTRICK + c] = MAXT
        else:
            s[O_HANDN + hands_owner[c]] += 1
            s[O_USUIT + suit_of(c)] += 1
            if c < 36:
                s[O_URANK + rank_of(c)] += 1
    for t in range(MAXT):
        s[O_TLEADER + t] = -1
        s[O_TWINNER + t] = -1
        s[O_TWCARD + t] = -1
        for i in range(MAXP):
            s[O_TCARDS + t * MAXP + i] = -1
    for p in range(MAXP):
        s[O_SONAR + p] = 1 if p < n_players else 0
    return s


@njit(cache=True)
def add_dummy(s, dummy, up, down):
    """Make seat ``dummy`` the 2-player dummy crew member: ``up[i]`` lies face up on the
    face-down ``down[i]`` (stacks of two). Its face-up cards are public, recorded as shown by
    the dummy with no claim; it has no sonar token."""
    s[S_DUMMY] = dummy
    s[O_SONAR + dummy] = 0
    for i in range(up.shape[0]):
        s[O_BELOW + up[i]] = down[i]
        s[O_DOWN + down[i]] = 1
        s[O_COMMBY + up[i]] = dummy
        s[O_COMMK + up[i]] = HIDDEN


@njit(cache=True)
def dummy_view(s):
    """The state as the captain sees it when deciding for the dummy: the dummy's face-down
    cards are unknown (held by no seat in play), and the captain's own hand is known, recorded
    as cards shown by the captain with no claim."""
    v = s.copy()
    cap = s[S_CAPTAIN]
    for c in range(NC):
        if s[O_DOWN + c] == 1:
            v[O_OWNER + c] = MAXP
        elif s[O_OWNER + c] == cap and s[O_COMMBY + c] < 0:
            v[O_COMMBY + c] = cap
            v[O_COMMK + c] = HIDDEN
    return v


@njit(cache=True)
def beats(challenger, best, led_suit):
    """Does ``challenger`` beat the card currently winning a trick led in ``led_suit``?"""
    cs = suit_of(challenger)
    bs = suit_of(best)
    if cs == SUB:
        return bs != SUB or challenger > best
    return bs != SUB and cs == led_suit and challenger > best


@njit(cache=True)
def trick_winner_card(cards, n):
    """Index (0..n-1) of the card winning a trick of ``n`` cards in play order."""
    led = suit_of(cards[0])
    best = 0
    for i in range(1, n):
        if beats(cards[i], cards[best], led):
            best = i
    return best


@njit(cache=True)
def current_player(s):
    return (s[S_LEADER] + s[S_NIN]) % s[S_NP]


@njit(cache=True)
def led_suit(s):
    if s[S_NIN] == 0:
        return -1
    return suit_of(s[O_TCARDS + s[S_DONE] * MAXP])


@njit(cache=True)
def forbidden_lead(c):
    """Mission 12: pink and submarines may not open a trick."""
    return suit_of(c) == 0 or suit_of(c) == SUB


@njit(cache=True)
def legal_cards(s, p, out):
    """Write the cards ``p`` may play now into ``out``; return how many."""
    led = led_suit(s)
    n = 0
    if led >= 0:
        for c in range(NC):
            if s[O_OWNER + c] == p and s[O_DOWN + c] == 0 and suit_of(c) == led:
                out[n] = c
                n += 1
        if n > 0:
            return n
    elif s[S_OBJECTIVE] == OBJ_NO_LEAD and s[S_LEAD_ILLEGAL] == 1:
        for c in range(NC):
            if s[O_OWNER + c] == p and s[O_DOWN + c] == 0 and not forbidden_lead(c):
                out[n] = c
                n += 1
        if n > 0:
            return n
    for c in range(NC):
        if s[O_OWNER + c] == p and s[O_DOWN + c] == 0:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def play_card(s, p, c):
    """``p`` plays ``c`` into the current trick (legality is the caller's business)."""
    t = s[S_DONE]
    pos = s[S_NIN]
    led = led_suit(s)
    su = suit_of(c)
    if led >= 0 and su != led and p != s[S_DUMMY]:  # the dummy may hide the suit face down
        s[O_VOID + p * 5 + led] = 1
    if pos == 0:
        s[O_TLEADER + t] = p
    s[O_TCARDS + t * MAXP + pos] = c
    s[O_OWNER + c] = -1
    s[O_CTRICK + c] = t
    s[O_CPOS + c] = pos
    s[S_NIN] = pos + 1
    s[O_HANDN + p] -= 1
    s[O_USUIT + su] -= 1
    if c < 36:
        s[O_URANK + rank_of(c)] -= 1
    # a dummy card uncovered by this play stays face down until the trick is over
    # (finish_trick_as turns it up)


@njit(cache=True)
def finish_trick_as(s, winner):
    """Close the current trick with ``winner`` taking its cards (also for what-if tricks)."""
    t = s[S_DONE]
    n = s[S_NIN]
    cards = s[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + n]
    best = trick_winner_card(cards, n)
    s[O_TWINNER + t] = winner
    s[O_TWCARD + t] = cards[best]
    for i in range(n):
        c = cards[i]
        s[O_WINNER + c] = winner
        s[O_WSUIT + winner * 5 + suit_of(c)] += 1
        if c < 36:
            s[O_WRANK + winner * 10 + rank_of(c)] += 1
    s[O_TRICKS + winner] += 1
    dummy = s[S_DUMMY]
    if dummy >= 0:  # the dummy's cards uncovered in this trick are turned face up now
        for i in range(n):
            below = s[O_BELOW + cards[i]]
            if below >= 0 and s[O_DOWN + below] == 1:
                s[O_DOWN + below] = 0
                s[O_COMMBY + below] = dummy
                s[O_COMMK + below] = HIDDEN
    s[S_DONE] = t + 1
    s[S_NIN] = 0
    s[S_LEADER] = winner


@njit(cache=True)
def trick_winner_player(s):
    t = s[S_DONE]
    n = s[S_NIN]
    cards = s[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + n]
    return (s[S_LEADER] + trick_winner_card(cards, n)) % s[S_NP]


@njit(cache=True)
def finish_trick(s):
    w = trick_winner_player(s)
    finish_trick_as(s, w)
    return w


@njit(cache=True)
def neighbour(s, p, d):
    """The neighbour of ``p`` in direction ``d`` (+1 left, -1 right); the 2-player dummy is a
    crew member with a seat of its own."""
    return (p + d) % s[S_NP]


# -- communication ---------------------------------------------------------------------------
@njit(cache=True)
def comm_claims(s, p, c):
    """Declarations ``p`` may truthfully make about ``c``: bit HIGHEST, ONLY, LOWEST (0: none)."""
    if s[O_OWNER + c] != p or c >= 36:
        return 0
    su = suit_of(c)
    higher = 0
    lower = 0
    for x in range(su * 9, su * 9 + 9):
        if s[O_OWNER + x] == p and x != c:
            if x > c:
                higher += 1
            else:
                lower += 1
    if higher == 0 and lower == 0:
        if s[S_SINGLE_ANY] == 1:
            return (1 << HIGHEST) | (1 << ONLY) | (1 << LOWEST)
        return 1 << ONLY
    bits = 0
    if higher == 0:
        bits |= 1 << HIGHEST
    if lower == 0:
        bits |= 1 << LOWEST
    return bits


@njit(cache=True)
def may_communicate(s, p):
    """May ``p`` use a sonar token now (between tricks, mode and tokens permitting)?"""
    if s[S_NIN] != 0 or s[S_DONE] >= s[S_NTRICKS]:
        return False
    mode = s[S_COMM_MODE]
    t = s[S_DONE]
    if mode == COMM_NONE or t < s[S_COMM_FROM] or t >= s[S_COMM_UNTIL]:
        return False
    if mode == COMM_RAPTURE:
        return s[S_POOL] > 0
    return s[O_SONAR + p] > 0


@njit(cache=True)
def communicate(s, p, c, claim):
    """Record ``p`` showing ``c`` with ``claim``; currents hide the claim."""
    if s[S_COMM_MODE] == COMM_RAPTURE:
        s[S_POOL] -= 1
    else:
        s[O_SONAR + p] -= 1
    s[O_COMMK + c] = HIDDEN if s[S_COMM_MODE] == COMM_CURRENTS else claim
    s[O_COMMBY + c] = p


# -- task evaluation -------------------------------------------------------------------------
@njit(cache=True)
def _won_by(s, c, h):
    return s[O_WINNER + c] == h


@njit(cache=True)
def _mask_has(m, c):
    return (m >> c) & 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
    if (
        ct == C_WIN_TRICK_EQUAL_SUITS
        or ct == C_WIN_RANK_WITH_RANK
        or ct == C_WIN_TRICK_USING_RANK
        or ct == C_WIN_TRICK_ALL_RANKS
        or ct == C_WIN_TRICK_SUM
        or ct == C_WIN_TRICK_PARITY
    ):
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
            wanted = ((prm[0] >> t) & 1) == 1 or (prm[1] == 1 and t == ntr - 1)
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


@njit(cache=True)
def eval_objective(s, objective):
    """State of a logbook mission rule (task-less missions, mission 20's option)."""
    done_t = s[S_DONE]
    rem = s[S_NTRICKS] - done_t
    n_players = s[S_NP]
    if objective == OBJ_BALANCE9 or objective == OBJ_BALANCE1:
        r = 9 if objective == OBJ_BALANCE9 else 1
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
        y5 = 9 + 4
        t = s[O_CTRICK + y5]
        if t >= 0:
            if t != s[S_NTRICKS] - 1:
                return FAILED
            if s[O_CPOS + y5] != n_players - 1:
                return FAILED
            return DONE if s[O_TWINNER + t] >= 0 else PENDING
        return FAILED if rem == 0 else PENDING
    return DONE


@njit(cache=True)
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


# -- task draw -------------------------------------------------------------------------------
@njit(cache=True)
def draw_tasks(order, values, target, out):
    """Reveal task rows in ``order``, skipping any that would overshoot, until the values sum to
    exactly ``target``. Writes rows into ``out``; returns how many (-1 if the deck runs out)."""
    total = 0
    n = 0
    for row in order:
        if total == target:
            break
        v = values[row]
        if total + v <= target:
            out[n] = row
            n += 1
            total += v
    return n if total == target else -1


@njit(cache=True)
def hand_mask(s, p):
    m = 0
    for c in range(NC):
        if s[O_OWNER + c] == p:
            m |= 1 << c
    return m


@njit(cache=True)
def deal_impossible(s, rows, n, redeal):
    """Does the deal make one of the drawn tasks impossible (one hand holds a listed set)?"""
    for i in range(n):
        for j in range(2):
            m = redeal[rows[i], j]
            if m == 0:
                continue
            for p in range(s[S_NP]):
                if hand_mask(s, p) & m == m:
                    return True
    return False
