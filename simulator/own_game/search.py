"""The search player for a designer's own game: tree search through the file's own functions.

Plain Python (the game is plain Python: nothing to compile), one decision at a time:

- **The root is a best-arm problem.** The budget of ``playouts`` simulations goes to finding the
  best of the legal actions by sequential halving (Karnin, Koren and Somekh 2013): rounds share
  what is left equally among the actions still in play, then the better half by mean result stays;
  the answer is the survivor with the best mean, ties to the first in the file's order.
- **Common random numbers at the root.** Within a round the j-th simulation of every action left
  starts from the same sub-seed: the same deal of what the seat cannot see and the same dice, as far
  as the simulations go alike (the simulations' own choices draw on a second stream, so the k-th
  chance outcome of each is drawn with the same number however many choices came before). Two
  actions are then compared on the same luck, so the difference of their means has far less noise
  than the means themselves, and the halving keeps the better one on fewer simulations.
- **The rollout policy is the incumbent.** With a ``rollout`` policy (the toolkit passes the
  file's first), the search answers what that policy would unless the best arm beats it on the
  simulations both were given by more than ``SURE`` standard errors of their paired difference:
  a few hundred simulations cannot tell apart actions a few points apart in a game as noisy as
  Pig, and a search that follows noise plays worse than the heuristic it rolls out with
  (measured: 12-14% against `hold` before the rule, even after it). A node's first simulation
  also plays the rollout's choice, so a simulation is the rollout policy except where the tree
  has learnt better.
- **Below the root, UCT with availability counts.** Every seat maximises its own result (max-n): a
  node's statistics are its mover's rewards (a win shared among the winners, every seat 1/n when
  nobody wins). The score of an action is ``mean + explore * sqrt(ln(available) / visits)``, where
  ``available`` counts the visits in which the action was legal (the subset-armed UCB of
  information-set MCTS); with the same actions every time it is plain UCB1.
- **Hidden information: information-set MCTS keyed on observations** (Cowling, Powley and
  Whitehouse 2012). Where seats know different things (the file defines ``observe``) each
  simulation starts from ``determinize(copy(state), seat, rng)``, a state the seat cannot tell
  from the real one, dealt anew from the search's own stream; the real state is never played on,
  only copied. A node below the root is ``(mover, observe(state, mover))``: everything a mover
  knows and nothing else, so statistics gathered in different deals that the mover cannot tell
  apart are pooled, and no decision can depend on what its mover cannot see. Perfect-information
  games key a node on the path of actions and chance outcomes from the root (outcomes drawn by
  ``sample_chance``, such as shuffles, are not branched on: the node stays, open-loop).
- **Its own random stream.** The search takes exactly one draw from the game's generator, whatever
  the budget, to seed its own; the real game's later dice never depend on the budget.

A simulation plays to the end of the game (``horizon=0``) or that many decisions, after which the
seats with the top ``scores`` share the win (every seat 1/n without ``scores``); one that reaches
``max_moves`` counts as a game nobody won. Out of the tree, seats play uniformly at random, or the
``rollout`` policy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .loader import GameFile

EXPLORE = 0.7  # UCB1's constant for rewards in [0, 1]
_BATCH = 64  # uniforms drawn at a time for the simulations' own choices
_MASK = (1 << 128) - 1

Rollout = Callable[[Any, int, list, np.random.Generator], Any]


def refuse_reason(game: GameFile) -> str | None:
    """Why the search cannot play ``game`` (one line), or None when it can."""
    if game.observe is not None and game.determinize is None:
        return (
            f"{game.name}.py defines observe() but no determinize(): the search would have to "
            "read what a seat cannot see; add determinize(state, seat, rng) to play mcts"
        )
    return None


class _Node:
    """A perfect-information node: the statistics of each mover's actions, and where they lead."""

    __slots__ = ("acts", "outs")

    def __init__(self) -> None:
        self.acts: dict[Any, dict[Any, list]] = {}  # mover -> action -> edge
        self.outs: dict[Any, _Node] = {}  # chance outcome -> node


# An edge is a list: [visits, sum of the mover's rewards, availability (the visits in which the
# action was legal), the _Node it leads to or None (perfect information only)].


def _pick(
    stats: dict, actions: list, explore: float, r: float, first: Any = None
) -> tuple[Any, list, bool]:
    """The action to take at a node (``stats``: action -> edge): an untried legal one if any
    (``first``, the rollout policy's choice, while it is untried: a node's first simulation
    plays as the rollout would; else drawn with ``r``, a uniform), else the best by availability
    UCB (ties to the first); whether it was new. Every legal action's availability grows by one."""
    get, log, sqrt = stats.get, math.log, math.sqrt
    untried = None
    best_a, best_e, best = None, None, -math.inf
    for a in actions:
        e = get(a)
        if e is None:
            if untried is None:
                untried = [a]
            else:
                untried.append(a)
            continue
        avail = e[2] = e[2] + 1
        if untried is None:
            v = e[0]
            score = e[1] / v + explore * sqrt(log(avail) / v) if v else math.inf
            if score > best:
                best_a, best_e, best = a, e, score
    if untried is not None:
        a = first if first in untried else untried[int(r * len(untried))]
        e = [0, 0.0, 1, None]
        stats[a] = e
        return a, e, True
    return best_a, best_e, False  # type: ignore[return-value]


def _schedule(k: int, playouts: int) -> list[tuple[int, int]]:
    """Sequential halving's rounds over ``k`` actions with ``playouts`` simulations: (actions in
    play, simulations each), ceil(log2 k) rounds sharing what is left equally, at least one
    simulation per action; stops early when the budget is spent."""
    out = []
    left = max(int(playouts), k)
    width = k
    rounds = max(1, math.ceil(math.log2(k))) if k > 1 else 0
    while width > 1 and left > 0 and rounds > 0:
        quota = max(1, left // (width * rounds))
        out.append((width, quota))
        left -= quota * width
        rounds -= 1
        width = (width + 1) // 2
    return out


def simulations(k: int, playouts: int) -> int:
    """How many simulations a search among ``k`` actions with ``playouts`` plays (0 for one
    action)."""
    return sum(width * quota for width, quota in _schedule(k, playouts))


def _seats(game: GameFile, state: Any) -> int:
    """Seats in play: from ``scores`` where the file has it, else its fixed count (else its
    fewest)."""
    if game.scores is not None:
        return len(game.scores(state))
    return int(game.players[0])


def _state_dict(a: int, b: int, c: int, d: int) -> dict:
    """A PCG64 state from four 63-bit draws (no hashing: setting it costs under a microsecond)."""
    return {
        "bit_generator": "PCG64",
        "state": {"state": (a << 64 | b) & _MASK, "inc": ((c << 65) | (d << 1) | 1) & _MASK},
        "has_uint32": 0,
        "uinteger": 0,
    }


def choose(
    game: GameFile,
    state: Any,
    seat: int,
    actions: list,
    rng: np.random.Generator,
    *,
    playouts: int = 200,
    explore: float = EXPLORE,
    horizon: int = 0,
    rollout: Rollout | None = None,
    players: int | None = None,
) -> Any:
    """The action ``seat`` takes at ``state`` among ``actions`` after ``playouts`` simulations.

    ``rng`` is the game's generator: exactly one value is drawn from it to seed the search's own
    stream. ``players`` is the number of seats (from ``scores`` or the file's fixed count when
    not given); it sets the 1/n a game nobody won is worth. ``state`` is only copied, never
    changed. Raises ValueError for a game :func:`refuse_reason` refuses, or no actions.
    """
    why = refuse_reason(game)
    if why:
        raise ValueError(why)
    seed = int(rng.integers(2**63))  # the one draw, whatever the budget
    actions = list(actions)
    k = len(actions)
    if k == 0:
        raise ValueError(f"no legal action for seat {seat} to choose from")
    if k == 1:
        return actions[0]
    n = int(players) if players else _seats(game, state)
    srng = np.random.Generator(np.random.PCG64(seed))
    sim = _Simulator(game, state, seat, actions, n, explore, horizon, rollout)

    # The rollout policy's own choice here: the answer unless the search is sure of better.
    incumbent = actions.index(rollout(state, seat, actions, srng)) if rollout else None
    sums = [0.0] * k
    counts = [0] * k
    results: list[list[float | None]] = [[] for _ in range(k)]  # by simulation, None: not run
    alive = list(range(k))
    for _width, quota in _schedule(k, playouts):
        draws = srng.integers(0, 2**63, size=(quota, 8)).tolist()
        for row in draws:  # common random numbers: the j-th simulation of every arm alike
            luck = _state_dict(*row[:4])
            choices = _state_dict(*row[4:])
            for i in range(k):
                reward = sim.run(i, luck, choices) if i in alive else None
                results[i].append(reward)
                if reward is not None:
                    sums[i] += reward
                    counts[i] += 1
        alive.sort(key=lambda i: (-sums[i] / counts[i], i))
        alive = alive[: (len(alive) + 1) // 2]
    best = min(alive, key=lambda i: (-sums[i] / counts[i], i))
    if (
        incumbent is not None
        and best != incumbent
        and not _surely_better(results[best], results[incumbent])
    ):
        return actions[incumbent]
    return actions[best]


SURE = 1.645  # one-sided 95%: how sure the search must be to overrule its rollout policy


def _surely_better(a: list[float | None], b: list[float | None]) -> bool:
    """Is ``a`` better than ``b`` on the simulations both were given (paired: the same luck),
    by more than ``SURE`` standard errors of the mean difference?"""
    diffs = [x - y for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    m = len(diffs)
    if m < 2:
        return False
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
    return mean > SURE * math.sqrt(var / m) if var > 0 else mean > 0


class _Simulator:
    """One search's tree and the simulations that grow it."""

    def __init__(
        self,
        game: GameFile,
        state: Any,
        seat: int,
        actions: list,
        n: int,
        explore: float,
        horizon: int,
        rollout: Rollout | None,
    ) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.actions = actions
        self.n = n
        self.explore = explore
        self.horizon = horizon
        self.rollout = rollout
        self.hidden = game.hidden_information
        self.table: dict[tuple[int, Any], dict] = {}  # hidden: (mover, observation) -> stats
        self.roots = [_Node() for _ in actions]  # perfect information: a tree per root action
        self.closed = game.sample_chance is None  # branch on chance outcomes
        self.limit = game.max_moves
        # the file's functions, read once (GameFile looks each one up on every access)
        self.to_move, self.legal, self.apply = game.to_move, game.legal_actions, game.apply
        self.observe, self.winners, self.scores = game.observe, game.winners, game.scores
        self.sample_chance, self.outcomes = game.sample_chance, game.chance_outcomes
        self.cooperative = game.cooperative
        self.copy = game.clone if game.clone is not None else game.copy
        self.determinize = game.determinize
        self.luck_bits = np.random.PCG64(0)
        self.luck = np.random.Generator(self.luck_bits)
        self.choice_bits = np.random.PCG64(0)
        self.choice = np.random.Generator(self.choice_bits)

    def run(self, arm: int, luck: dict, choices: dict) -> float:
        """One simulation starting with root action ``arm``; the searching seat's reward."""
        to_move, legal, apply, observe = self.to_move, self.legal, self.apply, self.observe
        sample_chance, outcomes = self.sample_chance, self.outcomes
        hidden, closed, table = self.hidden, self.closed, self.table
        explore, horizon, limit, rollout = self.explore, self.horizon, self.limit, self.rollout
        self.luck_bits.state = luck
        self.choice_bits.state = choices
        g, c = self.luck, self.choice
        u: list[float] = []  # uniforms for the simulation's own choices
        ui = 0
        lu: list[float] = []  # uniforms for chance outcomes drawn from a list
        li = 0

        s = self.copy(self.state)
        if hidden:
            s = self.determinize(s, self.seat, g)
        s = apply(s, self.actions[arm])
        node = self.roots[arm]
        path: list[tuple[int, list]] = []
        in_tree = True
        decisions = moves = 1
        rewards: dict[int, float] | None = None
        default = 1.0 / self.n
        while True:
            mover = to_move(s)
            if mover is None:
                won = self.winners(s)
                if won:
                    share = 1.0 if self.cooperative else 1.0 / len(won)
                    rewards, default = dict.fromkeys(won, share), 0.0
                break
            if moves >= limit:
                break  # a game nobody won
            if mover == "chance":
                if sample_chance is not None:
                    o = sample_chance(s, g)
                else:  # as GameFile.draw_chance, on the batch's uniforms
                    if li >= len(lu):
                        lu, li = g.random(_BATCH).tolist(), 0
                    x = lu[li]
                    li += 1
                    listed = outcomes(s)
                    o = listed[-1][0]  # rounding: the probabilities summed to a hair under 1
                    for out, p in listed:
                        x -= p
                        if x < 0.0:
                            o = out
                            break
                if in_tree and closed and not hidden:
                    try:
                        nxt = node.outs.get(o)
                        if nxt is None:
                            nxt = node.outs[o] = _Node()
                        node = nxt
                    except TypeError:  # an unhashable outcome: not branched on
                        pass
                s = apply(s, o)
                moves += 1
                continue
            if horizon and decisions >= horizon:
                if self.scores is not None:
                    points = self.scores(s)
                    top = max(points)
                    tops = [i for i, p in enumerate(points) if p == top]
                    rewards, default = dict.fromkeys(tops, 1.0 / len(tops)), 0.0
                break
            acts = legal(s)
            if ui >= len(u):
                u, ui = c.random(_BATCH).tolist(), 0
            r = u[ui]
            ui += 1
            if in_tree:
                if hidden:
                    key = (mover, observe(s, mover))
                    stats = table.get(key)
                    if stats is None:
                        stats = table[key] = {}
                else:
                    stats = node.acts.get(mover)
                    if stats is None:
                        stats = node.acts[mover] = {}
                first = rollout(s, mover, acts, c) if rollout is not None else None
                a, edge, new = _pick(stats, acts, explore, r, first)
                path.append((mover, edge))
                if new:
                    in_tree = False
                elif not hidden:
                    nxt = edge[3]
                    if nxt is None:
                        nxt = edge[3] = _Node()
                    node = nxt
            elif rollout is None:
                a = acts[int(r * len(acts))]
            else:
                a = rollout(s, mover, acts, c)
            s = apply(s, a)
            decisions += 1
            moves += 1

        if rewards is None:
            for _, edge in path:
                edge[0] += 1
                edge[1] += default
            return default
        get = rewards.get
        for mover, edge in path:
            edge[0] += 1
            edge[1] += get(mover, default)
        return get(self.seat, default)
