"""The Crew's game state: one int64 vector (offsets below), and small read-only helpers over it.

One flat vector makes a state cheap to copy, which the heuristic (what-if tricks) and the
searches (one snapshot per depth) rely on. :class:`State` carries it through the engine with
the task table its task slots index. The rules that change the state are in :mod:`.turn`.
"""

from __future__ import annotations

from collections import namedtuple

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
Y5 = 9 + 4  # yellow 5 (card id: suit 1, rank 5), mission 27's last card

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
S_RAPTURE_SEVERAL = 20  # rapture of the deep: a member may take several tokens in one phase
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

State = namedtuple("State", "v ttype tparams")
State.__doc__ = """A mission in progress: the vector ``v`` (layout above) and the task table
its task slots index (``ttype[row]`` the condition type of task row ``row``, ``tparams[row]`` its
parameters; shared, never changed, by every copy). Compiled functions take it whole and unpack
what they loop over once at the top (``s, ttype, tparams = st``)."""


@njit(cache=True)
def copy_state(dst, src):
    """``dst`` becomes a copy of ``src`` (two states of the same mission)."""
    dst.v[:] = src.v


@njit(cache=True, _nrt=False)
def suit_of(c):
    return c // 9 if c < 36 else SUB


@njit(cache=True, _nrt=False)
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
    s[S_RAPTURE_SEVERAL] = 1
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


@njit(cache=True, _nrt=False)
def current_player(s):
    return (s[S_LEADER] + s[S_NIN]) % s[S_NP]


@njit(cache=True, _nrt=False)
def led_suit(s):
    if s[S_NIN] == 0:
        return -1
    return suit_of(s[O_TCARDS + s[S_DONE] * MAXP])


@njit(cache=True, _nrt=False)
def neighbour(s, p, d):
    """The neighbour of ``p`` in direction ``d`` (+1 left, -1 right); the 2-player dummy is a
    crew member with a seat of its own."""
    return (p + d) % s[S_NP]


@njit(cache=True, _nrt=False)
def hand_mask(s, p):
    m = 0
    for c in range(NC):
        if s[O_OWNER + c] == p:
            m |= 1 << c
    return m
