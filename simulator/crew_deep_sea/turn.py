"""The turn rules of The Crew: every compiled function that applies a rule to the state.

Legal cards, playing a card, the trick's winner, sonar communication, the task and mission-rule
checks, the end of a mission, the task draw and the distress pass. The engine, the policies and
their searches all call these; nobody copies them.

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
    COMM_CURRENTS,
    COMM_NONE,
    COMM_RAPTURE,
    DONE,
    FAILED,
    HIDDEN,
    HIGHEST,
    LOWEST,
    MAXP,
    MAXT,
    NC,
    O_BELOW,
    O_COMMBY,
    O_COMMK,
    O_CPOS,
    O_CTRICK,
    O_DOWN,
    O_HANDN,
    O_HOLDER,
    O_OWNER,
    O_SONAR,
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
    S_BALANCE1,
    S_CAPTAIN,
    S_COMM_FROM,
    S_COMM_MODE,
    S_COMM_UNTIL,
    S_DONE,
    S_DUMMY,
    S_LEAD_ILLEGAL,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    S_NTRICKS,
    S_OBJECTIVE,
    S_POOL,
    S_SINGLE_ANY,
    S_SUM_ABOVE,
    S_SUM_BELOW,
    SUB,
    Y5,
    hand_mask,
    led_suit,
    neighbour,
    rank_of,
    suit_of,
)


@njit(cache=True, _nrt=False)
def beats(challenger, best, led_suit):
    """Does ``challenger`` beat the card currently winning a trick led in ``led_suit``?"""
    cs = suit_of(challenger)
    bs = suit_of(best)
    if cs == SUB:
        return bs != SUB or challenger > best
    return bs != SUB and cs == led_suit and challenger > best


@njit(cache=True, _nrt=False)
def trick_winner_card(cards, n):
    """Index (0..n-1) of the card winning a trick of ``n`` cards in play order."""
    led = suit_of(cards[0])
    best = 0
    for i in range(1, n):
        if beats(cards[i], cards[best], led):
            best = i
    return best


FORBIDDEN_LEADS = (1 << 9) - 1 | (15 << 36)  # mission 12: pink (cards 0-8), submarines (36-39)


@njit(cache=True, _nrt=False)
def forbidden_lead(c):
    """Mission 12: pink and submarines may not open a trick."""
    return (FORBIDDEN_LEADS >> c) & 1 == 1


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def copy_play_fields(dst, src, s, start, stop):
    """Copy from ``src`` to ``dst`` every field that playing the cards at positions
    ``start``..``stop - 1`` of the current trick in ``s`` (:func:`play_card`) wrote, so what-if
    plays are undone without copying the whole state. ``src`` holds the state before them."""
    t = s[S_DONE]
    dst[S_NIN] = src[S_NIN]
    dst[O_TLEADER + t] = src[O_TLEADER + t]
    for i in range(s[S_NP] * 5):
        dst[O_VOID + i] = src[O_VOID + i]
    for q in range(s[S_NP]):
        dst[O_HANDN + q] = src[O_HANDN + q]
    for i in range(5):
        dst[O_USUIT + i] = src[O_USUIT + i]
    for i in range(10):
        dst[O_URANK + i] = src[O_URANK + i]
    for pos in range(start, stop):
        c = s[O_TCARDS + t * MAXP + pos]
        dst[O_TCARDS + t * MAXP + pos] = src[O_TCARDS + t * MAXP + pos]
        dst[O_OWNER + c] = src[O_OWNER + c]
        dst[O_CTRICK + c] = src[O_CTRICK + c]
        dst[O_CPOS + c] = src[O_CPOS + c]


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def copy_closing_fields(dst, src, s, t, n, winner):
    """Copy from ``src`` to ``dst`` every field that closing trick ``t`` of ``n`` cards in ``s``
    with ``winner`` taking it (:func:`finish_trick_as`) and then :func:`evaluate` may write, so
    a what-if close is undone without copying the whole state. ``s`` (either of the two when it
    is a whole state) gives the trick's cards, the dummy's and the tasks, which a close leaves
    alone."""
    for f in (S_DONE, S_NIN, S_LEADER, O_TWINNER + t, O_TWCARD + t, O_TRICKS + winner):
        dst[f] = src[f]
    for i in range(n):
        c = s[O_TCARDS + t * MAXP + i]
        dst[O_WINNER + c] = src[O_WINNER + c]
        f = O_WSUIT + winner * 5 + suit_of(c)
        dst[f] = src[f]
        if c < 36:
            f = O_WRANK + winner * 10 + rank_of(c)
            dst[f] = src[f]
        below = s[O_BELOW + c]
        if below >= 0:
            dst[O_DOWN + below] = src[O_DOWN + below]
            dst[O_COMMBY + below] = src[O_COMMBY + below]
            dst[O_COMMK + below] = src[O_COMMK + below]
    for k in range(s[S_NTASKS]):
        dst[O_TSTATE + k] = src[O_TSTATE + k]


@njit(cache=True, _nrt=False)
def _winning_position(s):
    """Position in play order of the card winning the current (started) trick."""
    t = s[S_DONE]
    n = s[S_NIN]
    return trick_winner_card(s[O_TCARDS + t * MAXP : O_TCARDS + t * MAXP + n], n)


@njit(cache=True, _nrt=False)
def winning_now(s):
    """(seat, card) winning the current trick as it stands."""
    i = _winning_position(s)
    return (s[S_LEADER] + i) % s[S_NP], s[O_TCARDS + s[S_DONE] * MAXP + i]


@njit(cache=True, _nrt=False)
def trick_winner_player(s):
    """The seat winning the current trick as it stands."""
    return winning_now(s)[0]


@njit(cache=True, _nrt=False)
def finish_trick(s):
    w = trick_winner_player(s)
    finish_trick_as(s, w)
    return w


@njit(cache=True, _nrt=False)
def play_and_close(s, p, c):
    """``p`` plays ``c``; the trick is closed once every seat has played. Returns True when it
    closed (the moment tasks are judged: see :func:`mission_end`)."""
    play_card(s, p, c)
    if s[S_NIN] == s[S_NP]:
        finish_trick(s)
        return True
    return False


# -- communication ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def claim_excludes(claim, c, x):
    """Does declaring ``claim`` about ``c`` say its holder has no ``x`` (another card of the
    suit)? Only: no other card of the suit; highest: none higher; lowest: none lower."""
    return claim == ONLY or (claim == HIGHEST and x > c) or (claim == LOWEST and x < c)


@njit(cache=True, _nrt=False)
def comm_claims(s, p, c):
    """Declarations ``p`` may truthfully make about ``c``: bit HIGHEST, ONLY, LOWEST (0: none).
    A card alone in its suit is 'only', and also highest and lowest under ``single_card_claim``
    any."""
    if s[O_OWNER + c] != p or c >= 36:
        return 0
    su = suit_of(c)
    above = -1  # the nearest other cards of the suit in the hand: any other card a claim rules
    below = -1  # out, one of these two is ruled out too
    for x in range(su * 9, su * 9 + 9):
        if x != c and s[O_OWNER + x] == p:
            if x > c and above < 0:
                above = x
            elif x < c:
                below = x
    if above < 0 and below < 0 and s[S_SINGLE_ANY] != 1:
        return 1 << ONLY
    bits = 0
    for claim in (HIGHEST, ONLY, LOWEST):
        if not (
            (above >= 0 and claim_excludes(claim, c, above))
            or (below >= 0 and claim_excludes(claim, c, below))
        ):
            bits |= 1 << claim
    return bits


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def communicate(s, p, c, claim):
    """Record ``p`` showing ``c`` with ``claim``; currents hide the claim."""
    if s[S_COMM_MODE] == COMM_RAPTURE:
        s[S_POOL] -= 1
    else:
        s[O_SONAR + p] -= 1
    s[O_COMMK + c] = HIDDEN if s[S_COMM_MODE] == COMM_CURRENTS else claim
    s[O_COMMBY + c] = p


# -- the distress signal ---------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def may_pass_card(s, p, c):
    """Distress signal: only a colour card of one's own hand (not a dummy's face-down card)."""
    return c < 36 and s[O_OWNER + c] == p and s[O_DOWN + c] == 0


@njit(cache=True, _nrt=False)
def passable_cards(s, p, out):
    """Write the cards ``p`` may pass under the distress signal into ``out``; return how many."""
    n = 0
    for c in range(36):
        if may_pass_card(s, p, c):
            out[n] = c
            n += 1
    return n


@njit(cache=True, _nrt=False)
def pass_target(s, p, d):
    """Distress signal: the neighbour in direction ``d`` (+1 left, -1 right); the 2-player dummy
    passes and receives like any member."""
    return neighbour(s, p, d)


@njit(cache=True, _nrt=False)
def distress_pass(s, cards, d):
    """Everyone passes ``cards[p]`` (-1: nothing) to the neighbour in direction ``d`` (+1 left,
    -1 right) at the same time."""
    n_players = cards.shape[0]
    dummy = s[S_DUMMY]
    for p in range(n_players):
        c = cards[p]
        if c >= 0 and not may_pass_card(s, p, c):
            raise ValueError("distress signal: only own colour cards may be passed")
    for p in range(n_players):
        c = cards[p]
        if c >= 0:
            to = pass_target(s, p, d)
            s[O_OWNER + c] = to
            if p == dummy:  # a face-up dummy card leaves its stack: no longer shown
                s[O_COMMBY + c] = -1
                s[O_COMMK + c] = -1
            if to == dummy:  # the card passed to the dummy lies face up where its card was
                mine = cards[dummy]
                s[O_COMMBY + c] = dummy
                s[O_COMMK + c] = HIDDEN
                if mine >= 0:
                    s[O_BELOW + c] = s[O_BELOW + mine]
    if dummy >= 0 and cards[dummy] >= 0:
        below = s[O_BELOW + cards[dummy]]
        s[O_BELOW + cards[dummy]] = -1
        if cards[pass_target(s, dummy, -d)] < 0 and below >= 0:  # nothing came: turn it up
            s[O_DOWN + below] = 0
            s[O_COMMBY + below] = dummy
            s[O_COMMK + below] = HIDDEN
    for p in range(n_players):  # a player with only submarines gives nothing but receives
        cnt = 0
        for c in range(NC):
            if s[O_OWNER + c] == p:
                cnt += 1
        s[O_HANDN + p] = cnt


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


# -- task draw -------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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
