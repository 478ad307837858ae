"""Pedruscos del Espacio's forward model: what the shared search (``simulator.search``) needs.

The position travels as one value, :class:`Position` (the arrays ``pl``, ``br``, ``g`` of
:mod:`.state`). The rules of a turn live here, and :mod:`.engine` plays its games with them:
:func:`start_turn` (the station table, the take-off, the die), :func:`land` (collect, ship,
harvest, open a branch), :func:`end_turn` and :func:`next_seat` (the target, the round cap).

The search decides a turn's main decision: the square to end the move on *together with* what
landing there does when the landing offers a choice (ship the cargo at a moon, open a branch at a
station). An option's key is ``2 * cell + act`` (act 1: ship or build), the same option whatever
the die and wherever the ship came from, so the shared tree finds it again in every simulation.
The seat's smaller decisions (the autonomous hauler's offer, a harvest's dice and route, the
purity colour, swaps with a full hold) are its guide policy's in the game and the rollout
policy's in a simulation.

Nothing is hidden in Pedruscos but the dice: ore cards show their colour on the back (the seed:
"solo cuenta el reverso en el que se ve el color de la carta"), so every hold is seen by every
player; a deck is cards of one colour, only its size matters, and sizes follow from what is
seen. A simulation copies the real position, forgets the bookkeeping no rule reads (which cards
aboard came from harvests: :func:`forget_bookkeeping`), draws its own dice from numba's
generator, walks the tree over the moves of the following turns and plays out to the end of the
game with the ``rollout`` policy in every seat.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from policies.pedruscos import (
    MCTS_P,
    ROLLOUT_PRM,
    ROLLOUTS,
    decide_branch,
    decide_move,
    decide_ship,
)
from simulator import search as T

from . import outside as X  # the decisions: built-in, or a --policy-file's
from . import state as S
from .board import ASTEROID, MOON, PLANET, STATION
from .rules import REPAIRS_TELEPORT, ROUTE_BEFORE_ROLL

Position = namedtuple("Position", "pl br g")

# Station table results, in table order (rules.EVENT_NAMES)
EV_NOTHING, EV_HAULER, EV_LOST_TURN, EV_PURITY, EV_REPAIRS, EV_PIRATES, EV_MARKET, EV_HOLIDAYS = (
    range(8)
)


@njit(cache=True)
def new_position(n_players: int) -> Position:
    return Position(
        np.zeros((n_players, S.N_PLAYER_FIELDS), dtype=np.int64),
        np.zeros((n_players, S.N_STATIONS + 1), dtype=np.int64),
        np.zeros(S.N_GAME_FIELDS, dtype=np.int64),
    )


@njit(cache=True)
def copy_into(dst: Position, src: Position) -> None:
    dst.pl[:] = src.pl
    dst.br[:] = src.br
    dst.g[:] = src.g


@njit(cache=True)
def forget_bookkeeping(pos: Position) -> None:
    """Which cards aboard came from harvests is the branch-payback statistic, not a rule (the
    cards are alike); it steers how a discard draws its random numbers, so a simulation starts
    without it and its choices depend on what the table shows alone."""
    for p in range(pos.pl.shape[0]):
        for c in range(3):
            pos.pl[p, S.P_HCARDS + c] = 0


# -- cards ----------------------------------------------------------------------------------------
@njit(cache=True)
def take_card(r, b, pids, prm, pl, br, g, p, c, harvest, cell, heat_col, ext=None) -> bool:
    """``p`` takes a card of colour ``c``; a full hold takes it only by discarding one (the
    policy chooses which, or refuses). ``cell`` (-1: none) is where it was collected."""
    if not S.deck_has(r, g, c):
        return False
    if S.cargo(pl, p) >= r.hold_limit:
        d = X.swap(ext, pids[p], prm[p], p, r, b, pl, br, g, c)
        if d < 0 or d >= 3 or pl[p, S.P_CARDS + d] == 0:
            return False
        S.discard_card(r, pl, g, p, d)
    S.draw_card(r, pl, g, p, c, harvest)
    if cell >= 0:
        heat_col[cell] += 1
    return True


@njit(cache=True)
def roll_dice(n) -> int:
    t = 0
    for _ in range(n):
        t += np.random.randint(1, 7)
    return t


@njit(cache=True)
def harvest(r, b, pids, prm, pl, br, g, p, s, heat_col, ext=None) -> int:
    """A harvest at station ``s``: dice, then one card per square along the chosen route, in
    order, never past the next station. Returns the route's row."""
    lo = b.route_ptr[s]
    hi = b.route_ptr[s + 1]
    if hi == lo:
        return -1
    pid = pids[p]
    if r.route_choice == ROUTE_BEFORE_ROLL:
        i = X.route(ext, pid, prm[p], p, r, b, pl, br, g, s, 0, False)
        if i < lo or i >= hi:
            i = lo
        coord = S.coordinates(br, g, p, b.route_end[i])
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
    else:
        coord = False
        for j in range(lo, hi):
            if S.coordinates(br, g, p, b.route_end[j]):
                coord = True
        coord = coord and X.dice(ext, pid, prm[p], p, r, b, pl, br, g, s)
        roll = roll_dice(r.coordinated_dice if coord else r.harvest_dice)
        i = X.route(ext, pid, prm[p], p, r, b, pl, br, g, s, roll, coord)
        if i < lo or i >= hi or (coord and not S.coordinates(br, g, p, b.route_end[i])):
            i = -1
            for j in range(lo, hi):
                if i < 0 and (not coord or S.coordinates(br, g, p, b.route_end[j])):
                    i = j
    pl[p, S.P_HARVESTS] += 1
    pl[p, S.P_HARVESTS_PLANET] += b.route_via_planet[i]
    g[S.G_HARVEST_ROLL] = roll  # for a replay (record.py)
    g[S.G_HARVEST_ROUTE] = i
    g[S.G_HARVEST_COORD] = coord
    n = min(roll, b.route_len[i])
    for j in range(n):
        col = b.route_colour[i, j]
        if col >= 0:  # a counted moon gives nothing
            take_card(r, b, pids, prm, pl, br, g, p, col, True, b.route_cell[i, j], heat_col, ext)
    return i


@njit(cache=True)
def build_branch(r, pl, br, g, p, s):
    pl[p, S.P_POINTS] -= r.branch_cost
    br[p, s] = g[S.G_TURN] + 1
    pl[p, S.P_BRANCHES] += 1


# -- a turn ---------------------------------------------------------------------------------------
@njit(cache=True)
def landing_choice(r, b, pl, br, g, p, cell) -> bool:
    """Does ending the move on ``cell`` offer ``p`` a yes or no (ship at a moon, open a branch at
    a station)? The same conditions as :func:`land`'s."""
    k = b.kind[cell]
    if k == MOON:
        return pl[p, S.P_REPAIR] == 0 and S.can_ship(r, pl, g, p, r.shipping_cost)
    if k == STATION:
        s = b.station[cell]
        return S.station_open(g, s) and br[p, s] == 0 and pl[p, S.P_POINTS] >= r.branch_cost
    return False


@njit(cache=True)
def land(r, b, pids, prm, pl, br, g, p, cell, heat_col, ext=None, act=-1):
    """What ending the move on ``cell`` does: collect, ship, harvest or open a branch. ``act``:
    the answer to the landing's yes-or-no (ship, build) when the search made it; -1 asks the
    seat's policy."""
    pl[p, S.P_POS] = cell
    k = b.kind[cell]
    repair = pl[p, S.P_REPAIR] == 1
    pid = pids[p]
    if k == ASTEROID:
        if not repair:
            take_card(r, b, pids, prm, pl, br, g, p, b.colour[cell], False, cell, heat_col, ext)
    elif k == MOON:
        if not repair and S.can_ship(r, pl, g, p, r.shipping_cost):
            if act == 1 or (act < 0 and X.ship(ext, pid, prm[p], p, r, b, pl, br, g,
                                               r.shipping_cost)):  # fmt: skip
                S.ship(r, pl, g, p, r.shipping_cost)
                reach_target(r, pl, g, p)
    elif k == STATION:
        s = b.station[cell]
        if S.station_open(g, s):
            if S.old_branch(br, g, p, s):
                if not repair:
                    harvest(r, b, pids, prm, pl, br, g, p, s, heat_col, ext)
            elif br[p, s] == 0 and pl[p, S.P_POINTS] >= r.branch_cost:
                if act == 1 or (act < 0 and X.branch(ext, pid, prm[p], p, r, b, pl, br, g, s)):
                    build_branch(r, pl, br, g, p, s)


@njit(cache=True)
def station_event(r, b, pids, prm, pl, br, g, p, ev, heat_col, ext=None) -> bool:
    """Resolve table result ``ev`` for ``p`` on its station; False when the turn ends here."""
    g[S.G_EVENTS + ev] += 1
    pid = pids[p]
    s = b.station[pl[p, S.P_POS]]
    if ev == EV_HAULER:
        if (
            (pl[p, S.P_REPAIR] == 0 or not r.repairs_block_hauler)
            and S.can_ship(r, pl, g, p, r.hauler_cost)
            and X.ship(ext, pid, prm[p], p, r, b, pl, br, g, r.hauler_cost)
        ):
            S.ship(r, pl, g, p, r.hauler_cost)
            if reach_target(r, pl, g, p):
                return False  # the game is over before the move
    elif ev == EV_LOST_TURN:
        pl[p, S.P_LOST_TURNS] += 1
        return False
    elif ev == EV_PURITY:
        if S.cargo(pl, p) > 0:
            c = X.purity(ext, pid, prm[p], p, r, b, pl, br, g)
            if c < 0 or c >= 3 or pl[p, S.P_CARDS + c] == 0:
                c = S.dearest_held(pl, g, p)
            for _ in range(r.purity_cards):
                take_card(r, b, pids, prm, pl, br, g, p, c, False, -1, heat_col, ext)
    elif ev == EV_REPAIRS:
        pl[p, S.P_REPAIR] = 1
        if r.repairs == REPAIRS_TELEPORT:
            pl[p, S.P_POS] = 0
            return False
    elif ev == EV_PIRATES:
        S.pirates(r, pl, g, p)
    elif ev == EV_MARKET:
        S.roll_values(r, g)
    elif ev == EV_HOLIDAYS:
        S.close_station(g, s)
    return True


@njit(cache=True)
def start_turn(r, b, pids, prm, pl, br, g, p, heat_col, ext=None) -> int:
    """A turn up to the move: the station table when the ship starts on a station, the take-off
    from the planet (repaired), the die. Returns the die, 0 when the turn ends without a move."""
    if b.kind[pl[p, S.P_POS]] == STATION and r.station_events:
        if not station_event(r, b, pids, prm, pl, br, g, p, S.roll_event(r), heat_col, ext):
            return 0
    if b.kind[pl[p, S.P_POS]] == PLANET and pl[p, S.P_REPAIR] == 1:
        pl[p, S.P_REPAIR] = 0  # it takes off from the planet, repaired
    return np.random.randint(1, 7)


@njit(cache=True)
def reach_target(r, pl, g, p) -> bool:
    """The goal, checked whenever ``p`` scores: the first miner to reach the target wins at once
    (nothing later in the turn, a branch paid for, can take it back). True once the game is
    over."""
    if g[S.G_ENDED] == 0 and pl[p, S.P_POINTS] >= r.target_points:
        g[S.G_ENDED] = 1
        g[S.G_END_REASON] = S.END_TARGET
        g[S.G_WINNER] = p
    return g[S.G_ENDED] == 1


@njit(cache=True)
def end_turn(r, pl, g, p) -> None:
    """``p`` has played its turn: count it (the target was checked when it scored)."""
    g[S.G_TURN] += 1
    reach_target(r, pl, g, p)


@njit(cache=True)
def end_round(r, g) -> None:
    """Every seat has played the round: stop at the round cap."""
    if g[S.G_ENDED] == 0 and g[S.G_ROUND] >= r.max_rounds:
        g[S.G_ENDED] = 1
        g[S.G_END_REASON] = S.END_ROUND_CAP
        g[S.G_WINNER] = -1


@njit(cache=True)
def next_seat(r, g, p, n_players) -> int:
    """The seat to play after ``p``'s ended turn (a new round after the last seat), -1 once the
    game is over."""
    if g[S.G_ENDED] == 1:
        return -1
    if p + 1 < n_players:
        return p + 1
    end_round(r, g)
    if g[S.G_ENDED] == 1:
        return -1
    g[S.G_ROUND] += 1
    return 0


@njit(cache=True)
def guided(pids, prm, p):
    """Copies of the seats' policy ids and parameters in which searching seat ``p`` makes its
    other decisions (hauler, dice, route, purity, swap) as its guide policy does."""
    gids = pids.copy()
    gprm = prm.copy()
    k = int(prm[p, MCTS_P.guide])
    gids[p] = ROLLOUTS[k]
    gprm[p, :] = ROLLOUT_PRM[k]
    return gids, gprm


# -- simulations ----------------------------------------------------------------------------------
@njit(cache=True)
def sim_turn(r, b, pids, prm, pl, br, g, p, heat_col) -> None:
    """The engine's turn with built-in policies and nothing recorded (a playout's turn)."""
    die = start_turn(r, b, pids, prm, pl, br, g, p, heat_col)
    if die > 0:
        pos = pl[p, S.P_POS]
        if b.reach_ptr[pos * 7 + die + 1] > b.reach_ptr[pos * 7 + die]:
            end = decide_move(pids[p], prm[p], p, r, b, pl, br, g, die)
            land(r, b, pids, prm, pl, br, g, p, end, heat_col)


@njit(cache=True)
def playout(r, b, n_players, pids, prm, pos: Position, p: int, heat_col) -> int:
    """Play the game to its end from seat ``p``'s turn (-1: it is over), every seat with the
    policies ``pids``/``prm``; returns the winner (-1: the round cap)."""
    pl, br, g = pos.pl, pos.br, pos.g
    while p >= 0:
        sim_turn(r, b, pids, prm, pl, br, g, p, heat_col)
        end_turn(r, pl, g, p)
        p = next_seat(r, g, p, n_players)
    return g[S.G_WINNER]


@njit(cache=True)
def results(r, pl, winner: int, margin: float, out) -> np.ndarray:
    """Each seat's reward for a simulation: ``1 - margin`` for the win, plus ``margin`` times
    its final points margin over the best other seat, mapped to 0-1 (0.5 + margin / (2 *
    target), clipped)."""
    n = pl.shape[0]
    for q in range(n):
        best = -(10**9)
        for o in range(n):
            if o != q and pl[o, S.P_POINTS] > best:
                best = pl[o, S.P_POINTS]
        m = 0.5 + (pl[q, S.P_POINTS] - best) / (2.0 * r.target_points)
        out[q] = (1.0 - margin) * (1.0 if q == winner else 0.0) + margin * min(max(m, 0.0), 1.0)
    return out


@njit(cache=True)
def landing_options(r, b, pl, br, g, p, die, keys) -> int:
    """``p``'s options for the rolled ``die`` into ``keys``: ``2 * cell`` for every square it
    may end on, and ``2 * cell + 1`` too where landing offers a choice (ship, build). Returns
    how many."""
    pos = pl[p, S.P_POS]
    n = 0
    for j in range(b.reach_ptr[pos * 7 + die], b.reach_ptr[pos * 7 + die + 1]):
        cell = b.reach[j]
        keys[n] = 2 * cell
        n += 1
        if landing_choice(r, b, pl, br, g, p, cell):
            keys[n] = 2 * cell + 1
            n += 1
    return n


@njit(cache=True)
def guide_option(gid, gprm, r, b, pl, br, g, p, die, keys, n) -> int:
    """The option (index into ``keys[:n]``) policy ``gid`` takes: its end square, then its
    answer to the landing's choice."""
    cell = decide_move(gid, gprm, p, r, b, pl, br, g, die)
    key = 2 * cell
    if landing_choice(r, b, pl, br, g, p, cell):
        if b.kind[cell] == MOON:
            yes = decide_ship(gid, gprm, p, r, b, pl, br, g, r.shipping_cost)
        else:
            yes = decide_branch(gid, gprm, p, r, b, pl, br, g, b.station[cell])
        if yes:
            key += 1
    for i in range(n):
        if keys[i] == key:
            return i
    return -1


@njit(cache=True)
def search_landing(r, b, n_players: int, prm, root: Position, p: int, die: int,
                   stats=None, tally=None) -> int:  # fmt: skip
    """The option seat ``p`` takes with policy ``mcts`` for the rolled ``die``: its key,
    ``2 * cell + act`` (act 1: ship or open a branch on landing). ``prm[MCTS_P.playouts]``
    simulations of the shared search from the real position, which is left as it was.
    ``stats``, when given: each option's simulations and mean reward (``search.root_stats``, in
    the order of :func:`landing_options`); ``tally``, when given: [0] += simulations, [1] +=
    rounds they played (benchmarks)."""
    n_cells = b.kind.shape[0]
    root_keys = np.zeros(2 * n_cells, dtype=np.int64)
    n_root = landing_options(r, b, root.pl, root.br, root.g, p, die, root_keys)
    if n_root == 1 and stats is None:
        return root_keys[0]
    playouts = int(prm[MCTS_P.playouts])
    ro = int(prm[MCTS_P.rollout])
    gu = int(prm[MCTS_P.guide])
    explore = prm[MCTS_P.explore]
    widen = prm[MCTS_P.widen]
    bias = prm[MCTS_P.bias]
    margin = prm[MCTS_P.margin]
    # every seat of a simulation plays the rollout policy at its default parameters
    rids = np.full(n_players, ROLLOUTS[ro], dtype=np.int64)
    rprm = np.zeros((n_players, ROLLOUT_PRM.shape[1]), dtype=np.float64)
    for q in range(n_players):
        rprm[q, :] = ROLLOUT_PRM[ro]
    gid = ROLLOUTS[gu]
    gprm = ROLLOUT_PRM[gu].copy()
    tree = T.new_tree(playouts + 1)
    sim = new_position(n_players)
    keys = np.zeros(2 * n_cells, dtype=np.int64)
    heat = np.zeros(n_cells, dtype=np.int64)  # where cards were collected: unused here
    rewards = np.zeros(n_players, dtype=np.float64)
    for _ in range(playouts):
        copy_into(sim, root)
        forget_bookkeeping(sim)
        pl, br, g = sim.pl, sim.br, sim.g
        T.begin(tree)
        best = -1
        if T.widening(tree, widen):
            best = guide_option(gid, gprm, r, b, pl, br, g, p, die, root_keys, n_root)
        k = T.choose(tree, root_keys, n_root, p, explore, best, widen, bias)
        land(r, b, rids, rprm, pl, br, g, p, root_keys[k] // 2, heat, None, root_keys[k] % 2)
        end_turn(r, pl, g, p)
        q = next_seat(r, g, p, n_players)
        while q >= 0 and not T.left_tree(tree):
            d = start_turn(r, b, rids, rprm, pl, br, g, q, heat)
            n = landing_options(r, b, pl, br, g, q, d, keys) if d > 0 else 0
            if n > 0:
                best = -1
                if n > 1 and T.widening(tree, widen):
                    best = guide_option(gid, gprm, r, b, pl, br, g, q, d, keys, n)
                k = T.choose(tree, keys, n, q, explore, best, widen, bias)
                land(r, b, rids, rprm, pl, br, g, q, keys[k] // 2, heat, None, keys[k] % 2)
            end_turn(r, pl, g, q)
            q = next_seat(r, g, q, n_players)
        winner = playout(r, b, n_players, rids, rprm, sim, q, heat)
        T.backup(tree, results(r, pl, winner, margin, rewards))
        if tally is not None:
            tally[0] += 1
            tally[1] += g[S.G_ROUND] - root.g[S.G_ROUND]
    if stats is not None:
        T.root_stats(tree, root_keys, n_root, p, stats)
    return root_keys[T.most_visited(tree, root_keys, n_root, p)]
