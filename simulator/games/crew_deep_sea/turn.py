"""The turn rules of The Crew: every compiled function that applies a rule to the state.

Legal cards, playing a card, the trick's winner, sonar communication, the task draw and the
distress pass; the task and mission-rule verdicts and the end of a mission are in
``verdicts.py``. The engine, the policies and their searches all call these; nobody copies them.
"""

from __future__ import annotations

from numba import njit

from .state import (
    COMM_CURRENTS,
    COMM_NONE,
    COMM_RAPTURE,
    HIDDEN,
    HIGHEST,
    LOWEST,
    MAXP,
    NC,
    O_BELOW,
    O_COMMBY,
    O_COMMK,
    O_CPOS,
    O_CTRICK,
    O_DOWN,
    O_HANDN,
    O_OWNER,
    O_SONAR,
    O_TCARDS,
    O_TLEADER,
    O_TRICKS,
    O_TSTATE,
    O_TWCARD,
    O_TWINNER,
    O_URANK,
    O_USUIT,
    O_VOID,
    O_WINNER,
    O_WRANK,
    O_WSUIT,
    OBJ_NO_LEAD,
    ONLY,
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
    SUB,
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
