"""What the policies value, in points: a card, a shipment, a harvest's routes, an event, a
square landed on, a branch opened (the station values' memo and the scratch they share)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import ASTEROID, MOON, N_COLOURS, N_STATIONS, PLANET
from simulator.games.pedruscos.rules import ROUTE_BEFORE_ROLL

from .declarations import LOOK_P, WIN


# -- values ---------------------------------------------------------------------------------------
# Helpers compiled with ``_nrt=False`` allocate nothing and return scalars: without the runtime a
# call does not increment and decrement (atomically) every array it is passed, which cost more
# than the helpers' own work (same results, measured in docs/performance.md).
# The move's scores (end_scores_within, and landing_values_within under it) are inlined into
# their caller (``inline="always"``): a call passes the rules and the board by value, some 130
# words pushed on the stack. Inlining the chain below them too (event_value, station_values,
# memo_row) played about 13% faster again but cost 1 to 2 s more of the first run's compile.
@njit(cache=True, _nrt=False)
def card_gain(r, pl, g, p, c, w) -> float:
    """What one more card of colour ``c`` is worth (a full hold swaps out its cheapest card)."""
    if not S.deck_has(r, g, c):
        return 0.0
    v = g[S.G_VALUE + c]
    if S.cargo(pl, p) < r.hold_limit:
        return w * v
    cheap = S.cheapest_held(pl, g, p)
    return w * max(0, v - g[S.G_VALUE + cheap])


# The station values' memo (:func:`station_values`): a row per slot, its key, then two values
# per station s at M_STATION + 2 * (s - 1): at one of the player's open branches its harvest,
# at another station branch_share_of's two terms (the two-dice harvest there, the share).
M_ROOM, M_CHEAP, M_VALUE, M_BRANCHES, M_WEIGHT, M_RULES = 0, 1, 2, 5, 6, 7
M_STATION = 8
M_WIDTH = M_STATION + 2 * N_STATIONS
# Default 4-player games visit about 16,000 keys in 20,000 games; 16,384 slots miss 2% of the
# lookups (a search's or a single game's scratch takes fewer).
MEMO_SLOTS = 16384


@njit(cache=True)
def new_work(b, memo_slots=1):
    """Scratch for the value helpers below, which allocate nothing (so they run without the
    runtime): a row of route prefixes for every route of the board, then two rows of a value per
    station (:func:`branch_value`'s), then ``memo_slots`` rows of :func:`station_values`'s memo
    (one serves a single decision; a scratch serves one board)."""
    width = max(b.route_colour.shape[1] + 1, N_STATIONS + 1, M_WIDTH)
    n = b.route_colour.shape[0]
    work = np.empty((n + 2 + memo_slots, width))
    for k in range(memo_slots):
        work[n + 2 + k, M_ROOM] = np.nan  # no key yet: nothing matches it
    return work


def _dice_table(max_dice: int = 4) -> np.ndarray:
    """DICE[n, t]: probability that ``n`` dice total ``t`` (a constant for compiled code)."""
    table = np.zeros((max_dice + 1, 6 * max_dice + 1))
    table[0, 0] = 1.0
    for n in range(1, max_dice + 1):
        for t in range(6 * max_dice + 1):
            for f in range(1, 7):
                if t - f >= 0:
                    table[n, t] += table[n - 1, t - f] / 6.0
    return table


DICE = _dice_table()


@njit(cache=True, _nrt=False)
def route_prefix(r, b, pl, g, p, i, w, out, row):
    """``out[row, k]``: what the first ``k`` squares of route ``i`` give (k up to the route's
    length)."""
    room = r.hold_limit - S.cargo(pl, p)
    c0 = S.cheapest_held(pl, g, p)
    cheap = g[S.G_VALUE + c0] if c0 >= 0 else 0
    out[row, 0] = 0.0
    for j in range(b.route_len[i]):
        col = b.route_colour[i, j]
        v = 0.0
        if col >= 0:
            if room > 0:
                v = g[S.G_VALUE + col]
                room -= 1
            else:
                v = max(0, g[S.G_VALUE + col] - cheap)
        out[row, j + 1] = out[row, j] + w * v


# A route's prefixes depend on the hold and the ore values alone, not on the branches: a
# decision computes each station's once (``station_prefixes``) and the ``_of`` helpers below read
# them, however many harvests it values with branches as they are or as if one more were built.
@njit(cache=True, _nrt=False)
def station_prefixes(r, b, pl, g, p, s, w, work) -> None:
    """:func:`route_prefix` of every route of station ``s``, each into its row of ``work``."""
    for i in range(b.route_ptr[s], b.route_ptr[s + 1]):
        route_prefix(r, b, pl, g, p, i, w, work, i)


@njit(cache=True, _nrt=False)
def best_route_of(b, br, g, p, s, ndice, coord_only, work) -> float:
    """E over ``ndice`` dice of the best allowed route's gain at station ``s`` (route chosen
    after the roll), from its prefixes in ``work`` (:func:`station_prefixes`): a route the dice
    may not take is marked by -1 in its first column while it runs (a prefix's first column is
    0)."""
    lo = b.route_ptr[s]
    hi = b.route_ptr[s + 1]
    for i in range(lo, hi):
        if coord_only and not S.coordinates(br, g, p, b.route_end[i]):
            work[i, 0] = -1.0
    total = 0.0
    for t in range(ndice, 6 * ndice + 1):
        best = 0.0
        for i in range(lo, hi):
            if work[i, 0] == 0.0:
                best = max(best, work[i, min(t, b.route_len[i])])
        total += DICE[ndice, t] * best
    for i in range(lo, hi):
        work[i, 0] = 0.0
    return total


@njit(cache=True, _nrt=False)
def route_expectation_within(r, b, pl, br, g, p, i, w, work) -> float:
    """E of route ``i``'s gain when chosen before the roll (its own number of dice), in
    ``work`` (:func:`new_work`)."""
    route_prefix(r, b, pl, g, p, i, w, work, i)
    return route_expectation_of(r, b, br, g, p, i, work)


@njit(cache=True, _nrt=False)
def route_expectation_of(r, b, br, g, p, i, work) -> float:
    """:func:`route_expectation_within` from route ``i``'s prefixes in ``work``."""
    nd = r.coordinated_dice if S.coordinates(br, g, p, b.route_end[i]) else r.harvest_dice
    total = 0.0
    for t in range(nd, 6 * nd + 1):
        total += DICE[nd, t] * work[i, min(t, b.route_len[i])]
    return total


@njit(cache=True, _nrt=False)
def any_coordination(b, br, g, p, s) -> bool:
    for i in range(b.route_ptr[s], b.route_ptr[s + 1]):
        if S.coordinates(br, g, p, b.route_end[i]):
            return True
    return False


@njit(cache=True)
def harvest_value(r, b, pl, br, g, p, s, w) -> float:
    """Expected value of a harvest at station ``s``, the better way of rolling."""
    return harvest_value_within(r, b, pl, br, g, p, s, w, new_work(b))


@njit(cache=True, _nrt=False)
def harvest_value_within(r, b, pl, br, g, p, s, w, work) -> float:
    station_prefixes(r, b, pl, g, p, s, w, work)
    return harvest_value_of(r, b, br, g, p, s, work)


@njit(cache=True, _nrt=False)
def harvest_value_of(r, b, br, g, p, s, work) -> float:
    """:func:`harvest_value_within` from station ``s``'s prefixes in ``work``."""
    if r.route_choice == ROUTE_BEFORE_ROLL:
        best = 0.0
        for i in range(b.route_ptr[s], b.route_ptr[s + 1]):
            best = max(best, route_expectation_of(r, b, br, g, p, i, work))
        return best
    v = best_route_of(b, br, g, p, s, r.harvest_dice, False, work)
    if any_coordination(b, br, g, p, s):
        v = max(v, best_route_of(b, br, g, p, s, r.coordinated_dice, True, work))
    return v


@njit(cache=True, _nrt=False)
def shipment_gain(r, pl, g, p, cost, w) -> float:
    """Points a shipment now brings over keeping the cargo (WIN when it reaches the target)."""
    if not S.can_ship(r, pl, g, p, cost):
        return -1.0
    v = S.cargo_value(pl, g, p)
    if pl[p, S.P_POINTS] + v - cost >= r.target_points:
        return WIN
    return (v - cost) - w * v


@njit(cache=True, _nrt=False)
def event_value(r, pl, br, g, p, s, prm) -> float:
    """Expected points of the station table for ``p`` starting a turn on a station (the
    holidays result aside: it depends on the station)."""
    if not r.station_events:
        return 0.0
    w = prm[LOOK_P.card_weight]
    n = S.cargo(pl, p)
    mean_card = S.cargo_value(pl, g, p) / n if n > 0 else 0.0
    mean_value = 0.0
    for f in range(6):
        mean_value += r.value_faces[f] / 6.0
    total = 0.0
    for k in range(8):
        q = S.event_probability(r, k)
        if q == 0:
            continue
        e = 0.0
        if k == 1:
            if pl[p, S.P_REPAIR] == 0 or not r.repairs_block_hauler:
                e = max(0.0, shipment_gain(r, pl, g, p, r.hauler_cost, w))
        elif k == 2:
            e = -prm[LOOK_P.turn_worth]
        elif k == 3:
            d = S.dearest_held(pl, g, p)
            if d >= 0:
                e = r.purity_cards * card_gain(r, pl, g, p, d, w)
        elif k == 4:
            e = -prm[LOOK_P.repair_cost]
        elif k == 5:
            e = -w * S.pirates_discards(r, n) * mean_card
        elif k == 6:
            for c in range(N_COLOURS):
                e += w * pl[p, S.P_CARDS + c] * (mean_value - g[S.G_VALUE + c])
        total += q * min(e, WIN / 2)
    return total


# The lookahead's one-square value depends on the square's class alone: an asteroid's colour, a
# moon, the planet, or one station; ``landing_values`` values each class once a decision.
V_MOON, V_PLANET = N_COLOURS, N_COLOURS + 1  # 0..N_COLOURS-1: asteroids by colour
V_STATION = N_COLOURS + 2  # station s's value at V_STATION + s (s = 1..N_STATIONS)
N_VALUES = V_STATION + N_STATIONS + 1


@njit(cache=True, inline="always")
def value_class(b, cell) -> int:
    """The slot of :func:`landing_values`'s output that holds cell ``cell``'s value (inlined: a
    call would pass every board array)."""
    k = b.kind[cell]
    if k == ASTEROID:
        return b.colour[cell]
    if k == MOON:
        return V_MOON
    if k == PLANET:
        return V_PLANET
    return V_STATION + b.station[cell]


@njit(cache=True)
def landing_values(r, b, pl, br, g, p, prm, out):
    """``out[value_class(b, c)]``: expected points of ending the move on cell ``c`` (the
    lookahead's one-square value)."""
    landing_values_within(r, b, pl, br, g, p, prm, out, new_work(b))


@njit(cache=True, _nrt=False, inline="always")
def landing_values_within(r, b, pl, br, g, p, prm, out, work):
    w = prm[LOOK_P.card_weight]
    repair = pl[p, S.P_REPAIR] == 1
    for c in range(N_COLOURS):
        out[c] = 0.0 if repair else card_gain(r, pl, g, p, c, w)
    out[V_MOON] = 0.0 if repair else max(0.0, shipment_gain(r, pl, g, p, r.shipping_cost, w))
    out[V_PLANET] = prm[LOOK_P.repair_cost] if repair else 0.0
    events = event_value(r, pl, br, g, p, 0, prm)
    holidays = S.event_probability(r, 7) * 0.5
    builds = pl[p, S.P_POINTS] >= r.branch_cost and prm[LOOK_P.branch_worth] > 0.0
    row = -1
    if builds or not repair:
        row = station_values(r, b, pl, br, g, p, w, builds, repair, work)
    left = max(0.0, 1.0 - pl[p, S.P_POINTS] / r.target_points)
    for s in range(1, N_STATIONS + 1):
        v = events
        if S.station_open(g, s):
            if br[p, s] > 0:
                v -= holidays  # its own branch may close for a while
                if not repair:
                    v += work[row, M_STATION + 2 * s - 2]
            elif builds:  # (branch_value is 0 for branch_worth 0: the racer's)
                k = M_STATION + 2 * s - 2
                worth = branch_worth_of(prm, left, work[row, k], work[row, k + 1])
                v += max(0.0, worth - r.branch_cost)
        out[V_STATION + s] = v


# The station values of a decision depend on the route prefixes' inputs (the room in the hold,
# its cheapest card's value, the ore values, the card weight), the player's open branches and
# the harvest rules alone: a memo keyed by them serves the many decisions of a game or a search
# that share them (most do), each value computed as :func:`branch_value_of` and
# :func:`harvests_now` compute it, so it is the same to the bit.
@njit(cache=True, _nrt=False)
def station_values(r, b, pl, br, g, p, w, builds, repair, work) -> int:
    """The row of ``work``'s memo holding the player's station values (:data:`M_STATION`: the
    harvests at its open branches unless under repairs, :func:`branch_share_of`'s terms at the
    other open stations when it ``builds``), the missing ones computed now."""
    n = b.route_colour.shape[0]
    row = memo_row(r, b, pl, br, g, p, w, work)
    ready = False  # the prefixes of the player's open branches and their harvests, in work
    for s in range(1, N_STATIONS + 1):
        if not S.station_open(g, s):
            continue
        k = M_STATION + 2 * s - 2
        if not np.isnan(work[row, k]) or (repair if br[p, s] > 0 else not builds):
            continue
        if not ready:
            for t in range(1, N_STATIONS + 1):
                if br[p, t] > 0 and S.station_open(g, t):
                    station_prefixes(r, b, pl, g, p, t, w, work)
            harvests_now(r, b, br, g, p, work)
            ready = True
        if br[p, s] > 0:
            work[row, k] = work[n + 1, s]
        else:
            station_prefixes(r, b, pl, g, p, s, w, work)
            work[row, k], work[row, k + 1] = branch_share_of(r, b, br, g, p, s, work)
    return row


@njit(cache=True, _nrt=False)
def memo_row(r, b, pl, br, g, p, w, work) -> int:
    """The memo row of the player's key (:func:`station_values`): its own, or a slot taken over
    with its values cleared (NaN: not computed)."""
    # route_prefix fills no hold with more room than a route has squares, and reads the
    # cheapest card only once the hold is full: the same prefixes share one key
    room = min(r.hold_limit - S.cargo(pl, p), b.route_colour.shape[1])
    c0 = S.cheapest_held(pl, g, p)
    cheap = g[S.G_VALUE + c0] if c0 >= 0 and room < b.route_colour.shape[1] else 0
    branches = 0
    for t in range(1, N_STATIONS + 1):
        if br[p, t] > 0 and S.station_open(g, t):
            branches |= 1 << t
    rules = r.harvest_dice + 8 * r.coordinated_dice + 64 * r.route_choice
    h = room
    for c in range(N_COLOURS):
        h = h * 128 + g[S.G_VALUE + c]
    h = (h * 128 + cheap) * 128 + branches
    first = b.route_colour.shape[0] + 2
    h = ((h * -7046029254386353131) >> 33) & 0x7FFFFFFF  # Fibonacci hashing (wraps)
    row = first + h % (work.shape[0] - first)
    if (
        work[row, M_ROOM] == room
        and work[row, M_CHEAP] == cheap
        and work[row, M_VALUE] == g[S.G_VALUE]
        and work[row, M_VALUE + 1] == g[S.G_VALUE + 1]
        and work[row, M_VALUE + 2] == g[S.G_VALUE + 2]
        and work[row, M_BRANCHES] == branches
        and work[row, M_WEIGHT] == w
        and work[row, M_RULES] == rules
    ):
        return row
    work[row, M_ROOM] = room
    work[row, M_CHEAP] = cheap
    for c in range(N_COLOURS):
        work[row, M_VALUE + c] = g[S.G_VALUE + c]
    work[row, M_BRANCHES] = branches
    work[row, M_WEIGHT] = w
    work[row, M_RULES] = rules
    for k in range(M_STATION, M_WIDTH, 2):
        work[row, k] = np.nan
    return row


@njit(cache=True)
def branch_value(r, b, pl, br, g, p, s, prm) -> float:
    """:func:`branch_value_within` with scratch of its own."""
    return branch_value_within(r, b, pl, br, g, p, s, prm, new_work(b))


@njit(cache=True, _nrt=False)
def branch_value_within(r, b, pl, br, g, p, s, prm, work) -> float:
    """What a branch at station ``s`` is worth: ``branch_worth`` (the points a branch whose
    harvests are all coordinated brings at the start) times the share of that the station
    gives, worth less as the player nears the target. The share: a harvest here with the
    player's branches as they are (one die, or two on a route to another of its branches), plus
    what the branch adds to the harvests of the player's branches a route joins to ``s`` (they
    may roll two dice toward it), over a two-dice harvest here."""
    w = prm[LOOK_P.card_weight]
    for t in range(1, N_STATIONS + 1):
        if t == s or (br[p, t] > 0 and S.station_open(g, t)):
            station_prefixes(r, b, pl, g, p, t, w, work)
    harvests_now(r, b, br, g, p, work)
    return branch_value_of(r, b, pl, br, g, p, s, prm, work)


@njit(cache=True, _nrt=False)
def harvests_now(r, b, br, g, p, work) -> None:
    """The row after the partners' in ``work``: :func:`harvest_value_of` at each of the
    player's open branches (0 elsewhere), from their prefixes in ``work``."""
    now = b.route_colour.shape[0] + 1
    for t in range(1, N_STATIONS + 1):
        work[now, t] = 0.0
        if br[p, t] > 0 and S.station_open(g, t):
            work[now, t] = harvest_value_of(r, b, br, g, p, t, work)


@njit(cache=True, _nrt=False)
def branch_value_of(r, b, pl, br, g, p, s, prm, work) -> float:
    """:func:`branch_value_within` from the prefixes in ``work`` of station ``s`` and of the
    player's open branches (:func:`station_prefixes`), and their harvests now
    (:func:`harvests_now`)."""
    left = max(0.0, 1.0 - pl[p, S.P_POINTS] / r.target_points)
    if left <= 0.0 or prm[LOOK_P.branch_worth] <= 0.0:
        return 0.0
    full, share = branch_share_of(r, b, br, g, p, s, work)
    return branch_worth_of(prm, left, full, share)


@njit(cache=True, _nrt=False)
def branch_worth_of(prm, left, full, share) -> float:
    """:func:`branch_value_of` from its station's two-dice harvest and share
    (:func:`branch_share_of`) and the part of the target left."""
    if left <= 0.0 or prm[LOOK_P.branch_worth] <= 0.0 or full <= 0.0:
        return 0.0
    return prm[LOOK_P.branch_worth] * left * share / full


@njit(cache=True, _nrt=False)
def branch_share_of(r, b, br, g, p, s, work) -> tuple[float, float]:
    """:func:`branch_value_of`'s terms: the two-dice harvest at station ``s``, and the harvest
    there with the branches as they are plus what a branch there adds to its partners' (0 when
    the first is 0)."""
    full = best_route_of(b, br, g, p, s, r.coordinated_dice, False, work)
    share = 0.0
    if full > 0.0:
        here = harvest_value_of(r, b, br, g, p, s, work)
        # the two rows after the prefixes: whether station t is a partner (1.0), its harvest now
        partner = b.route_colour.shape[0]
        now = partner + 1
        for t in range(1, N_STATIONS + 1):
            work[partner, t] = 0.0
            if t != s and br[p, t] > 0 and S.station_open(g, t):
                for i in range(b.route_ptr[t], b.route_ptr[t + 1]):
                    if b.route_end[i] == s:
                        work[partner, t] = 1.0
        before = br[p, s]
        br[p, s] = g[S.G_TURN] + 1  # as if built: the partners' routes toward s coordinate
        added = 0.0
        for t in range(1, N_STATIONS + 1):
            if work[partner, t] == 1.0:
                gain = harvest_value_of(r, b, br, g, p, t, work) - work[now, t]
                added += max(0.0, gain)
        br[p, s] = before
        share = here + added
    return full, share
