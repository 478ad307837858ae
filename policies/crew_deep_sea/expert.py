"""The expert: a crew whose members search from what each can know.

Before every simulation the cards the member cannot see are dealt again consistently with
everything public (:func:`~.knowledge.sample_deal`); the simulation applies one candidate (a
card, a sonar card with its claim, keeping the token) and then lets the heuristic crew, each
member playing from its own hand of that deal, play to the mission's end. Nobody in a
simulation sees another hand, so no line is valued for what a member could only do by seeing
the deal (the sampler's perfect-information search fuses those strategies). Sequential halving
spreads the simulations over the candidates, all of a round's candidates on the same deals.
Task choice, bids and volunteering score each sampled deal by the same simulation
(:mod:`.sampler`'s allocation search without its solver).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea.state import (
    DONE,
    MAXP,
    NC,
    O_COMMBY,
    O_CPOS,
    O_CTRICK,
    O_HANDN,
    O_OWNER,
    O_TCARDS,
    O_TSTATE,
    O_URANK,
    O_USUIT,
    S_DONE,
    S_DUMMY,
    S_LEADER,
    S_NIN,
    S_NP,
    S_NTASKS,
    STATE_SIZE,
    current_player,
    rank_of,
    suit_of,
)
from simulator.games.crew_deep_sea.turn import (
    comm_claims,
    communicate,
    legal_cards,
    may_communicate,
    play_and_close,
)
from simulator.games.crew_deep_sea.verdicts import END_SUCCESS, ONGOING, mission_end

from .declarations import EXPERT_P, HEURISTIC_DEFAULTS, heuristic_params
from .heuristic import claim_to_make, heuristic_comm, heuristic_play
from .knowledge import own_view, sample_deal
from .sampler import bid_by_samples, pick_by_samples, volunteer_by_samples

PLAY, TALK, KEEP = 0, 1, 2  # candidate kinds: play a card, show a card, keep the sonar token


# -- one simulation --------------------------------------------------------------------------
@njit(cache=True)
def _talk_phase(w, hprm, ttype, tparams):
    """The heuristic crew's sonar phase before a trick of a simulation (one card a member)."""
    n_players = w[S_NP]
    for i in range(n_players):
        q = (current_player(w) + i) % n_players
        if q == w[S_DUMMY] or not may_communicate(w, q):
            continue
        c, claim = heuristic_comm(w, q, hprm, ttype, tparams)
        if c >= 0 and w[O_COMMBY + c] < 0 and ((comm_claims(w, q, c) >> claim) & 1) == 1:
            communicate(w, q, c, claim)


@njit(cache=True)
def _outcome(w, end, progress):
    """A finished simulation's value: 1 for success, else ``progress`` times the share of the
    tasks done (a failure later in the hand keeps more chances than an early one)."""
    if end == END_SUCCESS:
        return 1.0
    n = w[S_NTASKS]
    if n == 0 or progress == 0.0:
        return 0.0
    done = 0
    for k in range(n):
        done += w[O_TSTATE + k] == DONE
    return progress * done / n


@njit(cache=True)
def simulate(w, p, kind, a, b, hprm, progress, ttype, tparams):
    """Apply candidate (``kind``, ``a``, ``b``) for ``p`` to the sampled deal ``w`` (changed in
    place), then play the heuristic crew to the end; returns the value (:func:`_outcome`).
    The current sonar phase is the real members' business: the simulation's own phases start
    at the next trick."""
    if kind == PLAY:
        if play_and_close(w, p, a):
            end = mission_end(w, ttype, tparams)
            if end != ONGOING:
                return _outcome(w, end, progress)
    elif kind == TALK:
        communicate(w, p, a, b)
    legal = np.empty(NC, np.int64)
    first = kind != PLAY  # a card is played after the sonar phase; the next trick has its own
    while True:
        if w[S_NIN] == 0:  # judged at trick ends, as the game does
            end = mission_end(w, ttype, tparams)
            if end != ONGOING:
                return _outcome(w, end, progress)
            if not first:
                _talk_phase(w, hprm, ttype, tparams)
        first = False
        q = current_player(w)
        n = legal_cards(w, q, legal)
        play_and_close(w, q, heuristic_play(w, q, legal, n, hprm, ttype, tparams))


# -- what the partners' cards of this trick say ---------------------------------------------
@njit(cache=True)
def partner_misses(w, p, hprm, ttype, tparams):
    """How many partners' cards of the current trick in the sampled deal ``w`` are not the
    card the heuristic would have played there from that partner's hand of ``w`` (the trick
    taken back card by card). ``p``'s own cards and the dummy's are not counted."""
    n_in = w[S_NIN]
    if n_in == 0:
        return 0
    v = w.copy()
    t = v[S_DONE]
    legal = np.empty(NC, np.int64)
    misses = 0
    for pos in range(n_in - 1, -1, -1):
        c = v[O_TCARDS + t * MAXP + pos]
        q = (v[S_LEADER] + pos) % v[S_NP]
        v[O_OWNER + c] = q  # back into q's hand: the state as q saw it before playing
        v[O_CTRICK + c] = -1
        v[O_CPOS + c] = -1
        v[S_NIN] = pos
        v[O_HANDN + q] += 1
        v[O_USUIT + suit_of(c)] += 1
        if c < 36:
            v[O_URANK + rank_of(c)] += 1
        if q == p or q == v[S_DUMMY]:
            continue
        n = legal_cards(v, q, legal)
        if n > 1 and heuristic_play(own_view(v, q, ttype, tparams), q, legal, n, hprm, ttype,
                                    tparams) != c:  # fmt: skip
            misses += 1
    return misses


@njit(cache=True)
def plausible_deal(s, p, out, hprm, doubt, ttype, tparams):
    """:func:`~.knowledge.sample_deal`, weighted by what the partners' cards of the current
    trick say: a deal where ``m`` of them are not the heuristic's card from the dealt hand is
    kept with chance ``doubt ** m`` (a partner holding its partner's task card seldom leads
    another card of that suit), else dealt again, at most ``_TRIES`` times. The partners
    search rather than play the heuristic, so a mismatch lowers a deal's weight, not to 0."""
    for _ in range(_TRIES):
        sample_deal(s, p, out)
        if s[S_NIN] == 0 or doubt >= 1.0:
            return
        m = partner_misses(out, p, hprm, ttype, tparams)
        if m == 0 or np.random.random() < doubt**m:
            return


_TRIES = 12


# -- sequential halving over the candidates ----------------------------------------------------
@njit(cache=True)
def halving(s, p, kinds, a, b, n_cand, budget, first, progress, doubt, sees, ttype, tparams):
    """Index of the best candidate by sequential halving: ``budget`` simulations split evenly
    over ceil(log2 n) rounds, each round simulating every surviving candidate on the same
    freshly sampled deals and keeping the better half. Ties go to candidate ``first``. With
    ``sees`` every simulation is played on the true deal ``s`` instead (the `sees_hands`
    measuring instrument: what hidden information costs this search)."""
    if n_cand == 1:
        return 0
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    alive = np.arange(n_cand)
    n_alive = n_cand
    total = np.zeros(n_cand)
    count = np.zeros(n_cand)
    rounds = 0
    while (1 << rounds) < n_cand:
        rounds += 1
    world = np.empty(STATE_SIZE, np.int64)
    key = np.empty(n_cand)
    while n_alive > 1:
        # on the true deal the heuristic crew plays alike every time: one simulation tells
        per = 1 if sees else max(1, budget // (n_alive * rounds))
        for _ in range(per):
            if sees:
                world[:] = s
            else:
                plausible_deal(s, p, world, hprm, doubt, ttype, tparams)
            for j in range(n_alive):
                i = alive[j]
                total[i] += simulate(
                    world.copy(), p, kinds[i], a[i], b[i], hprm, progress, ttype, tparams
                )
                count[i] += 1.0
        for j in range(n_alive):
            i = alive[j]
            key[j] = -(total[i] / count[i] + (1e-9 if i == first else 0.0))
        order = np.argsort(key[:n_alive], kind="mergesort")
        kept = alive[:n_alive][order].copy()
        n_alive = (n_alive + 1) // 2
        alive[:n_alive] = kept[:n_alive]
    return alive[0]


# -- the decisions -----------------------------------------------------------------------------
@njit(cache=True)
def expert_play(s, p, legal, n_legal, prm, ttype, tparams):
    """The card of ``legal[:n_legal]`` that completes the mission in most simulations from
    ``p``'s view (``s``: its own view). A single legal card needs no search."""
    if n_legal == 1:
        return legal[0]
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    h = heuristic_play(s, p, legal, n_legal, hprm, ttype, tparams)
    kinds = np.full(n_legal, PLAY, np.int64)
    first = 0
    for i in range(n_legal):
        if legal[i] == h:
            first = i
    budget = int(prm[EXPERT_P.playouts])
    i = halving(s, p, kinds, legal, legal, n_legal, budget, first, prm[EXPERT_P.progress],
                prm[EXPERT_P.doubt], prm[EXPERT_P.sees_hands] > 0, ttype, tparams)  # fmt: skip
    return legal[i]


@njit(cache=True)
def expert_comm(s, p, prm, ttype, tparams):
    """(card, claim) ``p`` shows now, or (-1, -1): keeping the token, or showing any card it
    may truthfully declare (its strongest claim), whichever completes the mission in most
    simulations from ``p``'s view; ties go to the heuristic's sonar. With ``talk_playouts``
    0, the heuristic's sonar.

    The simulations' partners are heuristic: a shown card is worth in them what the heuristic
    makes of it, which is often nothing where a searching partner would act on it (a task
    card shown as its holder's only one of the suit tells the task's owner to take that
    trick). Where they cannot tell the choices apart, the heuristic's relevance rule says
    what is worth showing."""
    hprm = heuristic_params(len(HEURISTIC_DEFAULTS))
    h_card, h_claim = heuristic_comm(s, p, hprm, ttype, tparams)
    budget = int(prm[EXPERT_P.talk_playouts])
    if budget <= 0:
        return h_card, h_claim
    kinds = np.empty(NC + 1, np.int64)
    cards = np.empty(NC + 1, np.int64)
    claims = np.empty(NC + 1, np.int64)
    kinds[0], cards[0], claims[0] = KEEP, -1, -1
    n = 1
    first = 0
    for c in range(NC):
        bits = comm_claims(s, p, c)
        if bits != 0 and s[O_COMMBY + c] < 0:
            kinds[n], cards[n], claims[n] = TALK, c, claim_to_make(bits)
            if c == h_card:
                first = n
            n += 1
    if n == 1:
        return -1, -1
    i = halving(s, p, kinds, cards, claims, n, budget, first, prm[EXPERT_P.progress],
                prm[EXPERT_P.doubt], prm[EXPERT_P.sees_hands] > 0, ttype, tparams)  # fmt: skip
    return cards[i], claims[i]


@njit(cache=True)
def expert_pick(s, p, avail, n_avail, may_pass, prm, ttype, tparams):
    """The task (index into ``avail``, -1 to pass) that completes the mission in most deals
    sampled from ``p``'s view, each played out by the heuristic crew."""
    n = max(1, int(prm[EXPERT_P.pick_samples]))
    return pick_by_samples(s, p, avail, n_avail, may_pass, n, 0, 0.0, 1.0, ttype, tparams)


@njit(cache=True)
def expert_volunteer(s, p, prm, ttype, tparams):
    n = max(1, int(prm[EXPERT_P.pick_samples]))
    return volunteer_by_samples(s, p, n, 0, 0.0, 1.0, ttype, tparams)


@njit(cache=True)
def expert_task_bid(s, p, row, prm, ttype, tparams):
    n = max(1, int(prm[EXPERT_P.pick_samples]))
    return bid_by_samples(s, p, row, n, 0, 0.0, 1.0, ttype, tparams)
