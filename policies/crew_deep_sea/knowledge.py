"""What a crew member knows, and believes, about the hands it cannot see.

From public information only (cards played, shown voids, sonar claims, the dummy's face-up
cards) and its own hand: who may still hold a card, the chance a later player can or must beat
the card winning a trick, the member's own view of the tasks, and deals of the hidden cards
sampled consistently with all of it (the expert's worlds).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import (
    DONE,
    MAXP,
    NC,
    O_BELOW,
    O_COMMBY,
    O_COMMK,
    O_CTRICK,
    O_DOWN,
    O_HANDN,
    O_OWNER,
    O_TSTATE,
    O_VOID,
    S_DONE,
    S_DUMMY,
    S_NIN,
    S_NP,
    S_NTASKS,
    SUB,
    suit_of,
)
from simulator.games.crew_deep_sea.turn import beats, claim_excludes
from simulator.games.crew_deep_sea.verdicts import prediction_hidden


# -- what a player knows ---------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def could_hold(s, q, c):
    """From public information: might player ``q`` hold the unplayed card ``c``?"""
    return _could_hold_given(s, q, c, _suit_claims(s, q, c))


@njit(cache=True, _nrt=False)
def _suit_claims(s, q, c):
    """The part of :func:`claims_exclude` that can concern ``c``: its own suit's."""
    su = suit_of(c)
    return _claims_in(s, q, su * 9, su * 9 + 9) if su != SUB else np.int64(0)


@njit(cache=True, _nrt=False)
def claims_exclude(s, q):
    """Bit mask of the colour cards that ``q``'s declarations (highest, lowest, only) say it
    does not hold: :func:`could_hold`'s last test for every card at once."""
    return _claims_in(s, q, 0, 36)


@njit(cache=True, _nrt=False)
def _claims_in(s, q, first, stop):
    """:func:`claims_exclude` from the declarations about cards ``first``..``stop - 1``."""
    m = np.int64(0)
    for x in range(first, stop):
        if s[O_COMMBY + x] == q:
            su = suit_of(x)
            for c in range(su * 9, su * 9 + 9):
                if c != x and claim_excludes(s[O_COMMK + x], x, c):
                    m |= np.int64(1) << c
    return m


@njit(cache=True, _nrt=False)
def _could_hold_given(s, q, c, excluded):
    """:func:`could_hold` with ``claims_exclude(s, q)`` (or its part for ``c``'s suit) given."""
    if s[O_COMMBY + c] >= 0 and s[O_CTRICK + c] < 0:
        return s[O_COMMBY + c] == q
    su = suit_of(c)
    if s[O_VOID + q * 5 + su] == 1:
        return False
    if su == SUB:
        return True
    return (excluded >> c) & 1 == 0


@njit(cache=True, _nrt=False)
def _hold_prob(s, q, x, share, excluded):
    """Chance that ``q`` holds the unplayed card ``x`` (not the viewer's), ``share`` where public
    information allows it (``excluded``: :func:`claims_exclude` of ``s`` and ``q``, or at least
    its part for ``x``'s suit)."""
    if s[O_COMMBY + x] >= 0:
        return 1.0 if s[O_COMMBY + x] == q else 0.0
    if not _could_hold_given(s, q, x, excluded):
        return 0.0
    return share


@njit(cache=True, _nrt=False)
def _known_to_hold_suit(s, q, su):
    for x in range(su * 9, su * 9 + 9):
        if s[O_COMMBY + x] == q and s[O_CTRICK + x] < 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def unknown_cards(s, p):
    """Unplayed cards not in ``p``'s hand (those ``p`` cannot see, or knows only by a claim)."""
    unknown = 0
    for x in range(NC):
        if s[O_CTRICK + x] < 0 and s[O_OWNER + x] != p:
            unknown += 1
    return unknown


@njit(cache=True, _nrt=False)
def take_probs(s, p, q, best, led):
    """From ``p``'s view: the chance that ``q`` (still to play) can beat ``best``, and the chance
    that it must (it holds led-suit cards and all of them beat ``best``). Cards ``p`` cannot see
    are treated as spread at random over the hands that may hold them."""
    return take_probs_of(s, p, q, best, led, unknown_cards(s, p), claims_exclude(s, q))


@njit(cache=True, _nrt=False)
def take_probs_of(s, p, q, best, led, unknown, excluded):
    """:func:`take_probs` with ``unknown_cards(s, p)`` and ``claims_exclude(s, q)`` given."""
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
            h = _hold_prob(s, q, x, share, excluded)
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
            if (
                s[O_CTRICK + x] < 0
                and s[O_OWNER + x] != p
                and _hold_prob(s, q, x, 1.0, excluded) > 0
            ):
                n_sub += 1
        all_sub = 1.0
        for i in range(s[O_HANDN + q]):
            all_sub *= max(0, n_sub - i) / max(1, unknown - i)
        forced += all_sub
    if led != SUB and not _known_to_hold_suit(s, q, led):
        can += hi_miss * lo_miss * (1.0 - sub_miss)  # void in the led suit, trumps
    return min(1.0, can), forced


# -- what a player may not know --------------------------------------------------------------
@njit(cache=True)
def own_view(s, p, ttype, tparams):
    """``s`` as ``p`` may read it: another member's secret prediction (task 85) is unknown,
    so that task is left out of ``p``'s reckoning (marked done in a copy)."""
    hidden = False
    for k in range(s[S_NTASKS]):
        hidden = hidden or prediction_hidden(s, k, p, ttype, tparams)
    if not hidden:
        return s
    v = s.copy()
    for k in range(s[S_NTASKS]):
        if prediction_hidden(s, k, p, ttype, tparams):
            v[O_TSTATE + k] = DONE
    return v


@njit(cache=True, _nrt=False)
def likely_beater(s, p, q, best, led, highest, unknown, excluded):
    """The card ``q`` would overtake ``best`` with: a cautious estimate of its highest (or,
    when it is forced and plays low, its lowest) card among those that beat ``best``
    (``unknown``: :func:`unknown_cards` of ``s`` and ``p``; ``excluded``: :func:`claims_exclude`
    of ``s`` and ``q``)."""
    share = min(1.0, s[O_HANDN + q] / max(unknown, 1))
    miss = 1.0
    pick = -1
    for i in range(NC):
        x = NC - 1 - i if highest else i
        if s[O_CTRICK + x] >= 0 or s[O_OWNER + x] == p or not beats(x, best, led):
            continue
        h = _hold_prob(s, q, x, share, excluded)
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
def later_discard(s, p, x, led, later, nl):
    """Chance that a later player holds the off-suit card ``x`` and has no card of the led suit,
    so may discard it (a rank-with-rank task: a 6 under a 6, an 8 under a 4)."""
    unknown = unknown_cards(s, p)
    miss = 1.0
    for j in range(nl):
        q = later[j]
        share = min(1.0, s[O_HANDN + q] / max(unknown, 1))
        h = _hold_prob(s, q, x, share, _suit_claims(s, q, x))
        if h > 0.0:
            miss *= 1.0 - h * _void_prob(s, p, q, led)
    return 1.0 - miss


@njit(cache=True, _nrt=False)
def later_hold(s, p, x, later, nl, unknown):
    """Chance that card ``x`` (unplayed, not ``p``'s) is with one of the players in ``later``
    (``unknown``: :func:`unknown_cards` of ``s`` and ``p``)."""
    total = 0.0
    mass = 0.0
    for q in range(s[S_NP]):
        if q == p:
            continue
        share = min(1.0, s[O_HANDN + q] / max(unknown, 1))
        h = _hold_prob(s, q, x, share, _suit_claims(s, q, x))
        total += h
        for j in range(nl):
            if later[j] == q:
                mass += h
    return mass / total if total > 0.0 else 0.0


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
