"""The chain field: how many cards it takes this turn to get a card onto an empty space that
touches none yet (:func:`chain_field`), and the bridge cards a plan lays on the way there."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn
from simulator.games.cape_horn.board import K_LAND, K_NONE
from simulator.games.cape_horn.rules import ADJ_ORTHOGONAL

FAR = 1 << 20


@njit(cache=True)
def chain_field(B, r, card, dist, parent, depth: int):
    """``dist[c]``: cards needed to get a card onto the empty space ``c`` this turn (1 when it
    touches a card now), laying bridge cards along ``parent``; FAR where none can go within
    ``depth`` cards (no plan lays more than its hand or ``MAX_CHAIN``, so the search stops there).
    :func:`chain_field_within` over the whole field, with a queue of its own."""
    queue = np.empty(card.shape[0], np.int64)
    chain_field_within(B, r, card, dist, parent, depth, queue, queue, -1)


@njit(cache=True, _nrt=False)
def _first_touching(B, r, card, c):
    """The lowest-numbered empty space next to ``c`` (by an edge the rules count) that touches
    a card: where the breadth-first search of :func:`chain_field` first reaches ``c`` from, as
    it takes the spaces touching a card in index order. -1 when there is none."""
    ortho_only = r.adjacency == ADJ_ORTHOGONAL
    first = -1
    for i in range(8):
        u = B.neigh[c, i]
        if u < 0 or card[u] >= 0 or not S.holds_cards(B, u) or (ortho_only and B.orth[c, i] == 0):
            continue
        if (first < 0 or u < first) and turn.touches_card(B, r, card, u):
            first = u
    return first


@njit(cache=True, _nrt=False)
def _near_field(B, r, card, dist, parent, depth: int, t) -> bool:
    """The chain field at the empty space ``t`` from its neighbours alone when it is at most
    3 cards away, as :func:`chain_field` finds it (FAR beyond ``depth``); False when it is
    further (the whole search decides then). The search reaches the spaces touching a card in
    index order, then each one's neighbours in their order; so a space 2 away comes from its
    lowest-numbered neighbour touching a card, and one 3 away from the neighbour 2 away that
    was reached first."""
    if turn.touches_card(B, r, card, t):
        dist[t] = 1
        return True
    first = _first_touching(B, r, card, t)
    if first >= 0:
        dist[t] = 2 if depth >= 2 else FAR
        parent[t] = first
        return True
    ortho_only = r.adjacency == ADJ_ORTHOGONAL
    best = -1
    best_key = 0
    for i in range(8):
        v = B.neigh[t, i]
        if v < 0 or card[v] >= 0 or not S.holds_cards(B, v) or (ortho_only and B.orth[t, i] == 0):
            continue
        u = _first_touching(B, r, card, v)
        if u < 0:
            continue
        for j in range(8):
            if B.neigh[u, j] == v:
                key = u * 8 + j  # the order the search reached v in
                if best < 0 or key < best_key:
                    best = v
                    best_key = key
    if best < 0:
        return False
    dist[t] = 3 if depth >= 3 else FAR
    parent[t] = best
    parent[best] = best_key // 8
    return True


@njit(cache=True, _nrt=False)
def chain_field_within(B, r, card, dist, parent, depth: int, queue, wanted, n_wanted: int):
    """:func:`chain_field` with ``queue`` (a slot per space) as scratch, which stops once the
    empty spaces ``wanted[:n_wanted]`` have their distance and parent (``n_wanted`` < 0:
    never). The rest of ``dist`` and ``parent`` is then unfinished, but for each wanted space's
    chain of parents; when every wanted space is at most 3 cards away (:func:`_near_field`),
    only those chains are marked.

    A breadth-first search from the spaces next to a laid card, in the order of their index; it
    finds them from the laid cards (a few) rather than from every space, since a space's
    neighbours are mutual (``board.board_arrays``)."""
    if n_wanted >= 0:
        near = 0
        for j in range(n_wanted):
            if _near_field(B, r, card, dist, parent, depth, wanted[j]):
                near += 1
        if near == n_wanted:  # each found by its neighbours: the field is not read beyond
            return
    kind = B.kind
    neigh = B.neigh
    orth = B.orth
    ortho_only = r.adjacency == ADJ_ORTHOGONAL
    dist[:] = FAR
    parent[:] = -1
    for m in range(card.shape[0]):
        if card[m] < 0:
            continue
        for i in range(8):
            c = neigh[m, i]
            if c < 0 or card[c] >= 0 or kind[c] == K_NONE or kind[c] == K_LAND:
                continue
            if not ortho_only or orth[m, i] == 1:
                dist[c] = 1
    missing = -1  # wanted spaces not found yet (-1: the whole field)
    if n_wanted >= 0:
        missing = 0
        for j in range(n_wanted):
            if dist[wanted[j]] == FAR:
                missing += 1
    tail = 0
    for c in range(card.shape[0]):  # the first spaces in index order
        if dist[c] == 1:
            queue[tail] = c
            tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        if dist[u] >= depth:
            break  # the queue holds spaces in order of distance: the rest are as far
        for i in range(8):
            v = neigh[u, i]
            if v < 0 or dist[v] != FAR or card[v] >= 0 or kind[v] == K_NONE or kind[v] == K_LAND:
                continue
            if ortho_only and orth[u, i] == 0:
                continue
            dist[v] = dist[u] + 1
            parent[v] = u
            queue[tail] = v
            tail += 1
            if missing > 0:
                for j in range(n_wanted):
                    if wanted[j] == v:
                        missing -= 1
                if missing == 0:
                    return


@njit(cache=True, _nrt=False)
def _spare(left):
    """The card to spend on a bridge: the most plentiful one left."""
    best = -1
    most = 0
    for e in range(left.shape[0]):
        if left[e] > most:
            most = left[e]
            best = e
    return best


@njit(cache=True, _nrt=False)
def _chain(hand, p, t, d, need, parent, chain, left):
    """Bridge cards (nearest the laid cards first) then ``d`` on ``t`` into ``chain`` (``left``:
    scratch for the cards left in hand)."""
    for e in range(left.shape[0]):
        left[e] = hand[p, e]
    left[d] -= 1
    u = parent[t]
    for i in range(need - 2, -1, -1):
        db = _spare(left)
        if db < 0 or u < 0:
            return False
        left[db] -= 1
        chain[i, 0] = db
        chain[i, 1] = u
        u = parent[u]
    chain[need - 1, 0] = d
    chain[need - 1, 1] = t
    return True
