"""Pirateer policies: one decision per turn, which legal move of the roll to play.

:func:`decide_move` branches on the seat's policy id. Every policy sees the whole position and
the list of legal moves (``simulator.games.pirateer.turn.legal_moves``, duplicates already removed)
and answers an index into it; ties are broken uniformly at random.

- ``random``: uniform over the legal moves;
- ``runner``: goes for the treasure: nearest ship to an anchorage, takes it, carries it home by
  the shortest path its limits allow; captures the treasure ship when it can;
- ``hunter``: captures whatever it can (the treasure ship first), keeps its ships near the
  anchorages while the treasure is on the island, then chases the treasure ship;
- ``lookahead``: scores each move by a position evaluation that includes the exact chance, over
  the 36 rolls, that each opponent can capture each of its ships on that opponent's next turn;
- ``mcts``: the shared search (``simulator.search.tree``) over Pirateer's forward model
  (``simulator.games.pirateer.forward``); the engine calls it, never :func:`decide_move`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.board import DIST, HARBOUR, HOME, TO_ANCHORAGE
from simulator.games.pirateer.odds_memo import memo_capture_odds
from simulator.search.tree import mcts_policy

RANDOM, RUNNER, HUNTER, LOOKAHEAD, MCTS = 0, 1, 2, 3, 4
WIN = 1.0e6
BLOCKER_STEPS = 6
STUCK_STEPS = 30

POLICIES: dict[str, PolicyDef] = {
    "random": PolicyDef("random", RANDOM, "a uniformly random legal move"),
    "runner": PolicyDef(
        "runner",
        RUNNER,
        "races for the treasure and carries it home; captures only the treasure ship on purpose",
    ),
    "hunter": PolicyDef(
        "hunter",
        HUNTER,
        "captures whatever it can (the treasure ship first), guards the anchorages, then chases "
        "the treasure ship",
    ),
    "lookahead": PolicyDef(
        "lookahead",
        LOOKAHEAD,
        "evaluates every legal move with the exact chance, over the 36 rolls, that each opponent "
        "captures each of its ships next turn",
        (
            PolicyParam("ship", 1.0, 0.0, 50.0, "value of one own ship on the board"),
            PolicyParam("capture", 2.0, 0.0, 50.0, "value of one opponent ship removed"),
            PolicyParam("treasure", 8.0, 0.0, 200.0, "value of carrying the treasure"),
            PolicyParam("home", 0.3, 0.0, 10.0, "cost per space between a treasure ship and home"),
            PolicyParam(
                "near", 0.6, 0.0, 10.0, "cost per space to an anchorage (treasure on the island)"
            ),
            PolicyParam("chase", 0.1, 0.0, 10.0, "cost per space to an opponent's treasure ship"),
            PolicyParam("risk", 1.0, 0.0, 5.0, "weight of the chance of being captured"),
            PolicyParam(
                "threat",
                0.0,
                0.0,
                5.0,
                "weight of its own chance (36 rolls) to capture an opponent's treasure ship next "
                "turn",
            ),
        ),
    ),
}


ROLLOUT_NAMES = ("random", "runner", "hunter", "lookahead")
POLICIES["mcts"] = mcts_policy(
    MCTS, ROLLOUT_NAMES, "lookahead", "lookahead", 300,
    "every move is searched (a turn has one decision): the guide ranks the legal moves by its "
    "own evaluation, the best enter a sequential halving, each simulation plays the move, then "
    "every seat's next turn (a round; the searching seat's own next move last) with the same "
    "dice for every move, and scores the position with an evaluation fitted on lookahead "
    "self-play",
    bias=10.0, widen=0.1, horizon=1, unit="rounds", opponents="lookahead",
)  # fmt: skip
LOOK_P = POLICIES["lookahead"].slots  # parameter columns by name
MCTS_P = POLICIES["mcts"].slots
ROLLOUTS = np.array([POLICIES[name].id for name in ROLLOUT_NAMES], dtype=np.int64)
# each rollout policy's default parameters, by rollout index
ROLLOUT_PRM = np.stack([POLICIES[name].defaults() for name in ROLLOUT_NAMES])


# -- position features ----------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def limited(r) -> int:
    return 1 if r.treasure_limit == S.LIMIT_DIRECTIONS else 0


@njit(cache=True, _nrt=False)
def home_steps(r, ships, s: int) -> int:
    """Spaces between treasure ship ``s`` and its anchor under the treasure ship's limits."""
    return HOME[limited(r), s // S.FLEET, ships[s]]


# Loops over the ships go fleet by fleet or bit by bit, never reading each ship's owner: LLVM
# turns such a loop into AVX-512 gathers, slower than plain loads on twelve ships.
@njit(cache=True, _nrt=False)
def count_ships(ships, owner, p: int, mine: bool) -> int:
    n = 0
    for f in range(S.N_FLEETS):
        if (owner[f] == p) == mine:
            for s in range(f * S.FLEET, (f + 1) * S.FLEET):
                if ships[s] >= 0:
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def nearest_to_anchorage(ships, owner, p: int) -> int:
    return nearest_in(ships, S.fleet_mask(ships, owner, p), -1)


@njit(cache=True, _nrt=False)
def nearest_to(ships, owner, p: int, cell: int) -> int:
    return nearest_in(ships, S.fleet_mask(ships, owner, p), cell)


@njit(cache=True, _nrt=False)
def nearest_in(ships, mask: int, cell: int) -> int:
    """The fewest spaces from a ship of ``mask`` (bits) to ``cell`` (-1: to an anchorage)."""
    best = 999
    s = 0
    while mask:  # bit by bit: a loop numba cannot vectorise
        if mask & 1:
            best = min(best, TO_ANCHORAGE[ships[s]] if cell < 0 else DIST[ships[s], cell])
        mask >>= 1
        s += 1
    return best


@njit(cache=True, _nrt=False)
def won(ships, owner, g, p: int) -> bool:
    return S.is_terminal(ships, owner, g, p)


def _entrances() -> np.ndarray:
    """The one space outside each harbour next to its open end: the way in."""
    out = np.zeros(HARBOUR.shape[0], dtype=np.int64)
    for k in range(HARBOUR.shape[0]):
        mouth = HARBOUR[k, -1]
        out[k] = next(c for c in np.flatnonzero(DIST[mouth] == 1) if c not in HARBOUR[k])
    return out


ENTRANCE = _entrances()


def _places() -> np.ndarray:
    """PLACE[corner, space]: the space's place on the way into that corner's harbour: its index
    in the harbour strip (0: the anchor), the strip's length on the way in, one more elsewhere."""
    width = HARBOUR.shape[1]
    place = np.full((HARBOUR.shape[0], DIST.shape[0]), width + 1, dtype=np.int64)
    for k in range(HARBOUR.shape[0]):
        place[k, ENTRANCE[k]] = width
        place[k, HARBOUR[k]] = np.arange(width)
    return place


PLACE = _places()


@njit(cache=True, _nrt=False)
def way_in(ships, t: int) -> int:
    """Where treasure ship ``t`` is on its way in (:data:`PLACE`)."""
    return PLACE[t // S.FLEET, ships[t]]


@njit(cache=True, _nrt=False)
def harbour_blockers(ships, owner, p: int, t: int) -> int:
    """Own ships between treasure ship ``t`` and its anchor in its harbour, or on the way in: the
    strip is one space wide and no ship passes another, so each must leave first."""
    k = t // S.FLEET
    ahead = way_in(ships, t)
    n = 0
    for f in range(S.N_FLEETS):  # fleet by fleet (see count_ships)
        if owner[f] == p:
            for s in range(f * S.FLEET, (f + 1) * S.FLEET):
                if s != t and ships[s] >= 0 and PLACE[k, ships[s]] < ahead:
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def clear_home_steps(r, ships, owner, p: int, t: int) -> int:
    """``home_steps`` of own treasure ship ``t``, counting own ships in the way: while any is
    in the harbour ahead of it, no place inside the strip is progress, and each costs
    ``BLOCKER_STEPS`` more (a whole die: getting it out beats a die of progress elsewhere).
    Inside the strip behind one it is stuck (``STUCK_STEPS`` more): it may not leave the strip
    by its open end, which points away from its harbour."""
    steps = home_steps(r, ships, t)
    blockers = harbour_blockers(ships, owner, p, t)
    if blockers > 0:
        mouth = HOME[limited(r), t // S.FLEET, HARBOUR[t // S.FLEET, -1]] + 1
        steps = max(steps, mouth) + BLOCKER_STEPS * blockers
        if way_in(ships, t) < HARBOUR.shape[1]:
            steps += STUCK_STEPS
    return steps


# -- the heuristics -------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def runner_score(r, ships, owner, g, p: int) -> float:
    mine = S.fleet_mask(ships, owner, p)
    return runner_value(r, ships, owner, g, p, mine, count_ships(ships, owner, p, False))


@njit(cache=True, _nrt=False)
def runner_value(r, ships, owner, g, p: int, mine: int, opponents: int) -> float:
    """:func:`runner_score` given ``p``'s ships (bits, as ``fleet_mask``) and the number of
    opponent ships on the board: what a decision knows before trying its moves (``p``'s own
    move changes neither its ships nor the opponents' but by its captures)."""
    if opponents == 0 or S.treasure_home(ships, g):  # none left: won (as ``won``)
        return WIN
    t = g[S.G_TREASURE]
    score = -3.0 * opponents
    if t >= 0 and owner[t // S.FLEET] == p:
        return score + 1000.0 - 10.0 * clear_home_steps(r, ships, owner, p, t)
    return score - nearest_in(ships, mine, -1 if t == S.ON_ISLAND else ships[t])


@njit(cache=True, _nrt=False)
def hunter_score(r, ships, owner, g, p: int) -> float:
    opponents = count_ships(ships, owner, p, False)  # none left: won (as ``won``)
    if opponents == 0 or S.treasure_home(ships, g):
        return WIN
    t = g[S.G_TREASURE]
    score = -10.0 * opponents
    if t >= 0 and owner[t // S.FLEET] == p:
        return score + 100.0 - clear_home_steps(r, ships, owner, p, t)
    for s in range(S.N_SHIPS):
        if ships[s] < 0 or owner[s // S.FLEET] != p:
            continue
        if t == S.ON_ISLAND:
            score -= 0.5 * TO_ANCHORAGE[ships[s]]
        else:
            score -= 0.5 * DIST[ships[s], ships[t]]
    return score


@njit(cache=True, _nrt=False)
def lookahead_static(r, prm, ships, owner, g, p: int) -> float:
    """The evaluation with no ship at risk: own ships, minus the opponents' ships, plus progress
    toward the treasure or home (or the opponent's distance from home)."""
    if won(ships, owner, g, p):
        return WIN
    score = prm[LOOK_P.ship] * count_ships(ships, owner, p, True)
    score -= prm[LOOK_P.capture] * count_ships(ships, owner, p, False)
    t = g[S.G_TREASURE]
    if t >= 0 and owner[t // S.FLEET] == p:
        score += prm[LOOK_P.treasure] - prm[LOOK_P.home] * clear_home_steps(r, ships, owner, p, t)
    elif t == S.ON_ISLAND:
        score -= prm[LOOK_P.near] * nearest_to_anchorage(ships, owner, p)
    elif t >= 0:
        score -= prm[LOOK_P.treasure]
        score += prm[LOOK_P.home] * home_steps(r, ships, t)
        score -= prm[LOOK_P.chase] * nearest_to(ships, owner, p, ships[t])
    return score


@njit(cache=True)
def risk_penalty(r, prm, ships, owner, occ, g, p: int, odds, risk, memo=None) -> float:
    """What the static evaluation loses to the opponents' next turns: each own ship (and the
    treasure it carries) times the chance, exact over the 36 rolls, that some opponent can
    capture it (opponents taken as independent). ``memo``: a search's remembered capture odds
    (``simulator.games.pirateer.odds_memo``), or None."""
    risk[:] = 0.0
    for q in range(g[S.G_PLAYERS]):
        if q == p or count_ships(ships, owner, q, True) == 0:
            continue
        memo_capture_odds(memo, r, ships, owner, occ, g, q, p, odds)
        for s in range(S.N_SHIPS):
            risk[s] = 1.0 - (1.0 - risk[s]) * (1.0 - odds[s])
    w_risk = prm[LOOK_P.risk]
    loss = 0.0
    t = g[S.G_TREASURE]
    if t >= 0 and owner[t // S.FLEET] != p and prm[LOOK_P.threat] > 0.0:
        # offence: the chance of NOT being able to capture the treasure ship on its own next turn
        # (kept a loss, never a gain, so the static score stays an upper bound)
        memo_capture_odds(memo, r, ships, owner, occ, g, p, owner[t // S.FLEET], odds)
        loss += prm[LOOK_P.threat] * prm[LOOK_P.treasure] * (1.0 - odds[t])
    for s in range(S.N_SHIPS):
        if ships[s] >= 0 and owner[s // S.FLEET] == p:
            lost = min(1.0, w_risk * risk[s])
            loss += prm[LOOK_P.ship] * lost
            if s == t:
                loss += prm[LOOK_P.treasure] * lost
    return loss


@njit(cache=True)
def decide_lookahead(prm, r, ships, owner, occ, g, p: int, moves, n: int, memo=None) -> int:
    """Best move by static evaluation minus risk. The risk only lowers a score, so moves are
    taken in order of their static score and the search stops once no static score can beat the
    best full score found: the answer is the full evaluation's, at a fraction of the cost."""
    undo = np.zeros((2, 3), dtype=np.int64)
    odds = np.zeros(S.N_SHIPS, dtype=np.float64)
    risk = np.zeros(S.N_SHIPS, dtype=np.float64)
    static = np.empty(n, dtype=np.float64)
    for i in range(n):
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
        static[i] = lookahead_static(r, prm, ships, owner, g, p)
        turn.unmake_move(ships, occ, g, moves[i], undo, k)
    done = np.zeros(n, dtype=np.bool_)
    best = 0
    best_score = -np.inf
    ties = 0
    for _ in range(n):
        i = -1  # the best static score not tried yet (a sort costs seconds of compile time)
        for j in range(n):
            if not done[j] and (i < 0 or static[j] > static[i]):
                i = j
        done[i] = True
        if static[i] < best_score - 1e-9:
            break
        v = static[i]
        if v < WIN:
            k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
            v -= risk_penalty(r, prm, ships, owner, occ, g, p, odds, risk, memo)
            turn.unmake_move(ships, occ, g, moves[i], undo, k)
        if v > best_score + 1e-9:
            best_score = v
            best = i
            ties = 1
        elif v > best_score - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best = i
    return best


@njit(cache=True)
def move_scores(pid: int, prm, r, ships, owner, occ, g, p: int, moves, n: int, out) -> None:
    """``out[:n]``: each legal move's value under policy ``pid``'s own evaluation, higher better
    (the search ranks its root's options by it): `lookahead`'s static score minus its risk for
    every move (no pruning), `runner`'s and `hunter`'s scores, 0 for `random`."""
    undo = np.zeros((2, 3), dtype=np.int64)
    odds = np.zeros(S.N_SHIPS, dtype=np.float64)
    risk = np.zeros(S.N_SHIPS, dtype=np.float64)
    for i in range(n):
        out[i] = 0.0
        if pid == RANDOM:
            continue
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
        if pid == RUNNER:
            out[i] = runner_score(r, ships, owner, g, p)
        elif pid == HUNTER:
            out[i] = hunter_score(r, ships, owner, g, p)
        else:
            out[i] = lookahead_static(r, prm, ships, owner, g, p)
            if out[i] < WIN:
                out[i] -= risk_penalty(r, prm, ships, owner, occ, g, p, odds, risk)
        turn.unmake_move(ships, occ, g, moves[i], undo, k)


@njit(cache=True)
def decide_move(pid: int, prm, r, ships, owner, occ, g, p: int, moves, n: int,
                looking=True, memo=None) -> int:  # fmt: skip
    """Index of the move seat ``p`` plays among the ``n`` legal ``moves`` of its roll.
    ``looking``: None in an engine compiled without `lookahead` (no seat plays it:
    ``GameSpec.compiled_when_played``), so numba leaves its capture odds out. ``memo``: a
    search's remembered capture odds, or None."""
    if pid == RANDOM or n == 1:
        return np.random.randint(0, n)
    if pid == LOOKAHEAD and looking is not None:
        return decide_lookahead(prm, r, ships, owner, occ, g, p, moves, n, memo)
    return decide_greedy(pid, r, ships, owner, occ, g, p, moves, n, np.zeros((2, 3), np.int64))


# The scoring loop allocates nothing: no reference counting (its calls pass five arrays a move).
@njit(cache=True, _nrt=False)
def decide_greedy(pid: int, r, ships, owner, occ, g, p: int, moves, n: int, undo) -> int:
    """`runner`'s or `hunter`'s move: the best score after the move, ties at random."""
    best = 0
    best_score = -np.inf
    ties = 0
    mine = S.fleet_mask(ships, owner, p)
    opponents = count_ships(ships, owner, p, False)
    for i in range(n):
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
        if pid == RUNNER:
            captured = 1 if undo[0, 1] >= 0 else 0  # a move has one or two steps
            if k == 2 and undo[1, 1] >= 0:
                captured += 1
            v = runner_value(r, ships, owner, g, p, mine, opponents - captured)
        else:
            v = hunter_score(r, ships, owner, g, p)
        turn.unmake_move(ships, occ, g, moves[i], undo, k)
        if v > best_score + 1e-9:
            best_score = v
            best = i
            ties = 1
        elif v > best_score - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best = i
    return best


@njit(cache=True)
def seed_numba(seed: int):
    """Seed numba's generator (the one the policies draw their tie-breaks from), for tests."""
    np.random.seed(seed)
