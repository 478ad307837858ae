"""The search player for a designer's own game: tree search through the file's own functions.

Plain Python (the game is plain Python: nothing to compile), one decision at a time:

- **What it maximises is the game's objective.** Every simulation ends in a reward per seat:
  with ``objective = "return"`` the seat's ``returns`` (normalised by the range seen so far for
  the exploration term), otherwise its share of the win (1, 1/k when k seats share it, 0). A game
  nobody won is worth 1/n to each of n rival seats (a draw), and 0 in a one-seat or cooperative
  game (a loss: the seats win together or not at all).
- **A budget that holds.** At most ``playouts`` simulations and ``moves`` simulated moves a
  decision, whatever the number of actions: with more actions than the budget can compare (one
  per 4 simulations, one per 40 moves), that many are drawn, the rollout policy's choice among
  them. The move cap is the skill knob: the budget costs about the same time in a short game
  and a long one (the first round, one simulation an action, measures a simulation's length).
  ``seconds`` turns the budget into time (a timed search no longer replays from its seed).
- **The root is a best-arm problem.** The budget goes to finding the best action by sequential
  halving (Karnin, Koren and Somekh 2013): rounds share what is left among the actions still in
  play, then the better half by mean stays; the answer is the survivor with the best mean.
- **Common random numbers at the root.** Within a round the j-th simulation of every action
  left starts from the same sub-seed: the same deal of what the seat cannot see and the same
  dice, as far as the simulations go alike (their own choices draw on a second stream). Two
  actions are compared on the same luck, so the halving keeps the better one on fewer
  simulations.
- **Below the root, UCT with availability counts** (the subset-armed UCB of information-set
  MCTS): every seat maximises its own reward (max-n); a node's first visit plays the rollout
  policy's choice; out of the tree the rollout policy plays, one move in ten at random so that no
  line is played one way only.
- **Noisy simulations lean on the rollout policy.** Where chance or hidden cards make the results
  noisy and the file names a rollout policy, a node tries a k-th action only after 4 (k-1)^2
  visits (progressive unpruning), and the root keeps the rollout's choice unless paired
  simulations put another action ``SURE`` standard errors ahead: a few hundred simulations
  cannot tell apart actions a few points apart in Pig, and a search that followed that noise
  would play worse than the heuristic it rolls out with. Where nothing is left to luck, the tree
  decides alone (a rollout that always takes the first action would otherwise be kept).
- **A decision stops when its answer is settled.** With two actions left, every 4 simulations
  each: two actions ``CLEAR`` standard errors apart end it, and so does a challenger to the
  rollout's choice that the simulations left could lift ``SURE`` standard errors ahead with a
  chance under ``FUTILE`` were its edge what it is now (stochastic curtailment), once it has
  had a twentieth of the budget's simulations. Most decisions in a noisy game end there: a
  bigger budget looks longer before giving a challenger up, so it resolves closer calls.
- **Transpositions and proofs where everything is seen.** In a game without ``observe`` a node is
  the state itself (its pickled bytes), however it was reached, and a decided position is solved
  (MCTS-Solver, Winands, Björnsson and Saito 2008): a new node plays every action that ends the
  game at once, a position is won for its mover when one action leads to a position won for it,
  decided when every action leads to a decided one. A simulation that reaches a solved position
  takes its value without playing on; the root answers a proven win at once, drops proven
  losses, and among proven losses holds out longest (a rival may yet slip).
- **Hidden information: information-set MCTS keyed on observations** (Cowling, Powley and
  Whitehouse 2012). Each simulation starts from ``determinize(copy(state), seat, rng)`` dealt
  from the search's own stream; a node is ``(mover, observe(state, mover))``, so no decision
  depends on what its mover cannot see. A file that might keep unseen cards in its state without
  saying what a seat sees, or whose ``determinize`` deals nothing anew, is refused
  (``fairness``).
- **A best response on request.** ``exploit`` has the other seats play the rollout policy in the
  simulations instead of searching for themselves: the search answers with a best response to
  that policy (no proofs then: they assume every seat plays its best).
- **Its own random stream.** The search takes exactly one draw from the game's generator,
  whatever the budget, to seed its own; the real game's later dice never depend on the budget.

- **A value from scores, where the file asks for it** (``value="scores"``, :mod:`.value`): a
  simulation stops when the turn passes and a model of each seat's chance to win on its points,
  fitted on the rollout policy's games and used only where it passes its gate, judges it. In
  Pig to 100, simulations to the end cannot separate roll from hold well enough to beat ``hold``
  (their limit, the rollout algorithm's plan, wins 50.7%); judged when the turn passes, the
  search wins 53.8% [51.6, 56.0] of 2,000 at the default budget.

A simulation plays to the end of the game (``horizon=0``) or that many decisions, after which
``scores`` judge (the top scores share the win; the lowest where ``lowest_score_wins``; for the
return, each seat's score); one that reaches ``max_moves`` counts as a game nobody won.
"""

from __future__ import annotations

import math
import pickle
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from . import fairness
from .loader import GameFile
from .value import ScoreValue, learned_value

DEFAULT_PLAYOUTS = 5000  # simulations per decision at most, unless told
DEFAULT_MOVES = 20_000  # simulated moves per decision at most (0: no cap), unless told
EXPLORE = 0.7  # UCB1's constant for rewards in [0, 1]
WANDER = 0.1  # a rollout policy's moves played at random instead: no line is played one way
WIDEN = 4.0  # with a rollout policy, a node tries a k-th action after WIDEN * (k-1)^2 visits
ARM_SHARE = 4  # at most one root action per this many simulations of the budget
ARM_MOVES = 40  # ... and per this many simulated moves
TIMED_ARMS = 256  # root actions a timed search compares at most
OPEN_AT_MOST = 32  # a new node plays each action that ends the game at once, up to this many
_BATCH = 64  # uniforms drawn at a time for the simulations' own choices
_ROWS_AHEAD = 32  # rows whose sub-seeds are drawn at a time
_MASK = (1 << 128) - 1
_NO_DEADLINE = math.inf

Rollout = Callable[[Any, int, list, np.random.Generator], Any]
_REFUSALS: dict[str, str | None] = {}  # a file's SHA-256 -> why the search refuses it
effort = {"simulations": 0, "moves": 0}  # the last search's, for benchmarks


def refuse_reason(game: GameFile) -> str | None:
    """Why the search cannot play ``game`` fairly (one line), or None when it can."""
    if game.observe is not None and game.determinize is None:
        return (
            f"{game.name}.py defines observe() but no determinize(): the search would have to "
            "read what a seat cannot see; add determinize(state, seat, rng) to play mcts"
        )
    why = fairness.future_in_state_reason(game)
    if why:
        return why
    key = getattr(game, "sha256", None)
    if key is None or key not in _REFUSALS:
        try:
            why = fairness.determinize_deals_nothing(game)
        except Exception:  # the file's own error: check-game and the first games name it
            why = None
        if key is None:
            return why
        _REFUSALS[key] = why
    return _REFUSALS[key]


# A node is a list: [action -> edge, the proven rewards per seat or None, visits, the moves to
# the end of the game the proof counts (the longest a loser can hold out, the quickest win)].
# An edge is a list: [visits, sum of the mover's rewards, availability (the visits in which the
# action was legal), the node its action leads to when that is a decision or the end (perfect
# information only, for proofs), else None].


def _schedule(arms: int, budget: int) -> list[tuple[int, int]]:
    """Sequential halving's rounds over ``arms`` actions with ``budget`` simulations: (actions in
    play, simulations each), ceil(log2 arms) rounds sharing what is left, the last round taking
    all of it; it stops where what is left cannot give each action in play one."""
    out = []
    left = budget
    width = arms
    rounds = max(1, math.ceil(math.log2(arms)))
    for r in range(rounds):
        if width < 2 or left < width:
            break
        rounds_left = rounds - r
        quota = left // width if rounds_left == 1 else max(1, left // (width * rounds_left))
        out.append((width, quota))
        left -= quota * width
        width = (width + 1) // 2
    return out


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
    playouts: int = DEFAULT_PLAYOUTS,
    moves: int = DEFAULT_MOVES,
    seconds: float = 0.0,
    explore: float = EXPLORE,
    horizon: int = 0,
    rollout: Rollout | None = None,
    players: int | None = None,
    exploit: bool = False,
    value: str = "playout",
    rules: dict | None = None,
    rollout_key: str = "",
) -> Any:
    """The action ``seat`` takes at ``state`` among ``actions`` after ``playouts`` simulations
    (or as many as ``seconds`` allow, when above 0).

    ``value="scores"``: simulations stop when the turn passes and a value learned from the
    file's scores judges them (:mod:`.value`; fitted once per process on games of ``rollout``,
    named by ``rollout_key``, under ``rules``), where that value passed its gate; else they play
    to the end.

    ``rng`` is the game's generator: exactly one value is drawn from it to seed the search's own
    stream. ``players`` is the number of seats (from ``scores`` or the file's fixed count when
    not given). ``state`` is only copied, never changed. Raises ValueError for a game
    :func:`refuse_reason` refuses, or no actions.
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
    timed = seconds > 0
    budget = max(int(playouts), 0) if not timed else 1 << 40  # the time is the budget
    moves = int(moves) if not timed else 0
    first = actions.index(rollout(state, seat, actions, srng)) if rollout else None
    if budget < 2:  # no room to compare: the rollout's choice, else one drawn
        return actions[first if first is not None else int(srng.integers(k))]
    width = min(k, max(2, budget // ARM_SHARE), max(2, moves // ARM_MOVES) if moves else k)
    width = min(width, TIMED_ARMS) if timed else width
    if width < k:  # more actions than the budget can compare: a draw of them, the rollout's in
        drawn = [int(i) for i in srng.permutation(k)]
        if first is not None:
            drawn.remove(first)
            drawn.insert(0, first)
        arms = sorted(drawn[:width])
    else:
        arms = list(range(k))
    sim = _Simulator(game, state, seat, [actions[i] for i in arms], n, explore, horizon, rollout)
    sim.exploit = exploit
    if value == "scores":
        sim.judge_turns(game, state, rules, n, rollout, rollout_key)
    deadline = time.perf_counter() + seconds if timed else _NO_DEADLINE
    incumbent = arms.index(first) if first is not None else None
    root = _Root(sim, srng, incumbent)
    best = root.search(budget, deadline, moves)
    effort.update(simulations=sum(root.counts), moves=sim.moves)
    return actions[arms[best]]


class _Root:
    """Sequential halving over the simulator's root actions, the rollout policy's choice (the
    incumbent) kept in play to the end so that every round pairs it with the leaders."""

    def __init__(self, sim: _Simulator, srng: np.random.Generator, incumbent: int | None):
        self.sim = sim
        self.srng = srng
        self.incumbent = incumbent
        m = len(sim.actions)
        self.sums = [0.0] * m
        self.counts = [0] * m
        self.results: list[dict[int, float]] = [{} for _ in range(m)]  # row -> reward
        self.rows = 0
        self.started = time.perf_counter()
        self.futile_after = FUTILE_LEAST  # paired simulations before giving a challenger up
        # (a, b) with a < b -> [rows read, count, mean, sum of squares] of a's paired edge over
        # b (Welford's running form: each look reads only the rows since the last)
        self.paired: dict[tuple[int, int], list] = {}
        self.seeds: list[int] = []  # sub-seeds drawn ahead, eight a row

    def value(self, i: int) -> float:
        """The root action's value for the seat: proven, else its simulations' mean."""
        proof = self.sim.proven(i)
        if proof is not None:
            return proof[self.sim.seat]
        return self.sums[i] / self.counts[i] if self.counts[i] else -math.inf

    def rank(self, i: int) -> tuple[float, int, int]:
        """Best first: by value, then a proven loss or draw that lasts longer, then the file's
        order."""
        child = self.sim.root_stats[self.sim.actions[i]][3]
        longer = -child[3] if child is not None and child[1] is not None else 0
        return (-self.value(i), longer, i)

    def row(self, alive: list[int]) -> None:
        """One simulation of every action in ``alive`` from the same sub-seed (common random
        numbers); an action already proven plays none."""
        sim = self.sim
        if not self.seeds:  # the same values as eight at a time, drawn in one call
            self.seeds = self.srng.integers(0, 2**63, size=8 * _ROWS_AHEAD).tolist()[::-1]
        seeds = self.seeds
        luck = _state_dict(seeds.pop(), seeds.pop(), seeds.pop(), seeds.pop())
        choices = _state_dict(seeds.pop(), seeds.pop(), seeds.pop(), seeds.pop())
        j = self.rows
        self.rows += 1
        for i in alive:
            if sim.proven(i) is not None:
                continue
            reward = sim.run(i, luck, choices)
            self.sums[i] += reward
            self.counts[i] += 1
            self.results[i][j] = reward
            if sim.won_at is not None:
                return

    def search(self, budget: int, deadline: float, moves: int) -> int:
        """The index of the best root action after at most ``budget`` simulations, ``moves``
        simulated moves (0: no cap) and until ``deadline``. Under a cap the first round (one
        simulation each) measures a simulation, and the budget becomes what is left of it."""
        sim = self.sim
        m = len(sim.actions)
        alive = list(range(m))
        timed = deadline != _NO_DEADLINE
        cap = moves if moves > 0 else math.inf
        if timed or moves > 0:
            started = time.perf_counter()
            self.row(alive)
            ran = max(1, sum(self.counts))
            left = float(budget - m)
            if timed:
                per = (time.perf_counter() - started) / ran
                left = min(left, max(0.0, deadline - time.perf_counter()) / max(per, 1e-7))
            if moves > 0:
                left = min(left, max(0.0, cap - sim.moves) / max(sim.moves / ran, 1.0))
            budget = m + max(int(left), 0)
        self.futile_after = max(FUTILE_LEAST, budget // FUTILE_SHARE)
        spent = sum(self.counts)
        for width, quota in _schedule(m, max(budget - spent, 0)):
            alive = self._keep(alive, width)
            for done in range(1, quota + 1):
                if sim.won_at is not None:
                    return sim.won_at
                self.row(alive)
                if sim.moves >= cap or time.perf_counter() > deadline:
                    break
                if (
                    width == 2
                    and done % CLEAR_EVERY == 0
                    and done >= CLEAR_FIRST
                    and (self._clear(alive) or self._settled(alive, quota - done, cap, deadline))
                ):
                    cap = sim.moves  # the rest would not change the answer
                    break
            if sim.won_at is not None:
                return sim.won_at
            alive.sort(key=self.rank)
            if sim.moves >= cap or time.perf_counter() > deadline:
                break
        best = min(alive, key=self.rank)
        inc = self.incumbent if sim.chancy else None
        if inc is None or best == inc or self._surely_better(best, inc):
            return best
        return inc

    def _clear(self, pair: list[int]) -> bool:
        """Are the two actions left far apart: ``CLEAR`` standard errors of their paired
        difference, or one of them proven?"""
        a, b = pair
        if self.sim.proven(a) is not None or self.sim.proven(b) is not None:
            return False
        _, mean, se = self._paired(a, b)
        return abs(mean) > CLEAR * se

    def _settled(self, pair: list[int], more: int, cap: float, deadline: float) -> bool:
        """Where the rollout's choice stands unless another is surely better: is a challenger
        unlikely to get there with what is left (``more`` simulations each at most, the move cap
        and the deadline)? Stochastic curtailment: were its paired edge over the incumbent what
        it is now, the chance that the remaining simulations lift it ``SURE`` standard errors
        ahead is below ``FUTILE``; the incumbent is then the answer, and the rest of the budget
        is saved."""
        inc = self.incumbent if self.sim.chancy else None
        if inc is None or inc not in pair:
            return False
        other = pair[0] if pair[1] == inc else pair[1]
        if self.sim.proven(other) is not None or self.sim.proven(inc) is not None:
            return False
        done, mean, se = self._paired(other, inc)
        if done < self.futile_after:
            return False
        if se <= 0 or not math.isfinite(se):
            return mean <= 0
        if cap != math.inf:  # the moves left, shared by the two
            per = max(self.sim.moves / max(1, sum(self.counts)), 1.0)
            more = min(more, int(max(0.0, cap - self.sim.moves) / per / 2))
        if deadline != _NO_DEADLINE:  # the time left, likewise
            now = time.perf_counter()
            per = max((now - self.started) / max(1, sum(self.counts)), 1e-7)
            more = min(more, int(max(0.0, deadline - now) / per / 2))
        if more <= 0:
            return False
        total = done + more
        z = mean / se
        # the final z were the edge what it is now, and its spread given what is known
        hoped = z * math.sqrt(total / done)
        spread = math.sqrt(more / total)
        return _normal_cdf((hoped - SURE) / spread) < FUTILE

    def _keep(self, ranked: list[int], width: int) -> list[int]:
        """The best ``width`` of ``ranked`` (best first), the incumbent among them where the
        simulations are noisy."""
        kept = ranked[:width]
        inc = self.incumbent if self.sim.chancy else None
        if inc is not None and inc not in kept and inc in ranked:
            kept[-1] = inc
        return kept

    def _surely_better(self, a: int, b: int) -> bool:
        """Is ``a`` better than ``b`` by more than ``SURE`` standard errors? Proven values are
        exact; two estimates are compared on the simulations both were given (paired: the same
        luck)."""
        pa, pb = self.sim.proven(a), self.sim.proven(b)
        seat = self.sim.seat
        if pa is not None and pb is not None:
            return pa[seat] > pb[seat]
        if pa is not None or pb is not None:
            exact = pa[seat] if pa is not None else pb[seat]  # type: ignore[index]
            xs = list(self.results[b if pa is not None else a].values())
            mean, se = _mean_se(xs)
            return exact > mean + SURE * se if pa is not None else mean - SURE * se > exact
        _, mean, se = self._paired(a, b)
        return mean > SURE * se if se > 0 else mean > 0

    def _paired(self, a: int, b: int) -> tuple[int, float, float]:
        """``a``'s edge over ``b`` on the simulations both were given (the same luck): (their
        number, the mean difference, its standard error, infinite below two)."""
        key = (a, b) if a < b else (b, a)
        st = self.paired.get(key)
        if st is None:
            st = self.paired[key] = [0, 0, 0.0, 0.0]
        first, second = self.results[key[0]], self.results[key[1]]
        _, n, mean, m2 = st
        for j in range(st[0], self.rows):
            x, y = first.get(j), second.get(j)
            if x is None or y is None:
                continue
            d = x - y
            n += 1
            delta = d - mean
            mean += delta / n
            m2 += delta * (d - mean)
        st[:] = [self.rows, n, mean, m2]
        mean = mean if key[0] == a else -mean
        if n < 2:
            return n, mean, math.inf
        return n, mean, math.sqrt(m2 / (n - 1) / n)


SURE = 1.645  # one-sided 95%: how sure the search must be to overrule its rollout policy
CLEAR = 3.0  # standard errors apart: the last two actions are told apart, the budget is saved
CLEAR_EVERY = 4  # simulations each between two looks (8 cost No Thanks! at four seats 11%
# more time a decision, for the same strength)
CLEAR_FIRST = 8  # ... the first after this many: a standard error from 4 is too often far too
# small (in Pig to 100, a first look at 4 lost 3 points of win chance a game to false clears)
FUTILE = 0.05  # a challenger this unlikely to overrule the rollout's choice stops the search
FUTILE_SHARE = 20  # a challenger may be given up on once it and the rollout's choice have each
# had 1/20 of the decision's simulations (at least FUTILE_LEAST): a bigger budget resolves
# closer calls, and is stronger for it (a fixed 16 played Pig the same at every budget)
FUTILE_LEAST = 8  # ... and never before this many paired simulations


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error (infinite below two values)."""
    m = len(xs)
    if m < 2:
        return (xs[0] if xs else 0.0), math.inf
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / (m - 1)
    return mean, math.sqrt(var / m)


def _pick(
    node: list,
    actions: list,
    explore: float,
    r: float,
    first: Any,
    lo: float,
    span: float,
    mover: Any,
    top: float,
    solving: bool,
    widen: bool,
) -> tuple[Any, list | None, bool, list | None]:
    """The action to take at ``node``: (action, edge, whether the edge is new, the proven node
    that proves ``node`` or None).

    An untried legal action is taken while the node may widen (``first``, the rollout policy's
    choice, before any other; then one drawn with ``r``, a uniform); with a rollout policy a node
    widens one action at a time as its visits grow (progressive unpruning), so a position seen
    a few times is played as the rollout would. Otherwise the best by availability UCB on
    rewards normalised by ``lo`` and ``span``; every legal action's availability grows by one.
    ``solving``: an action leading to a proven position scores its exact value and explores no
    more; the node is proven when one of them gives the mover ``top`` or every legal action is
    proven."""
    stats = node[0]
    get, log, sqrt = stats.get, math.log, math.sqrt
    untried = None
    tried = 0
    best_a, best_e, best = None, None, -math.inf
    proven_best: list | None = None  # the proven child best for the mover
    unproven = False
    for a in actions:
        e = get(a)
        if e is None:
            if untried is None:
                untried = [a]
            else:
                untried.append(a)
            continue
        tried += 1
        avail = e[2] = e[2] + 1
        child = e[3]
        value = child[1] if solving and child is not None else None
        if value is not None:
            mine = value[mover]
            if mine >= top:
                return a, e, False, child
            if (
                proven_best is None
                or mine > proven_best[1][mover]
                or (mine == proven_best[1][mover] and child[3] > proven_best[3])
            ):
                proven_best = child  # the same value: the longer game, a rival may yet slip
            score = (mine - lo) / span
        else:
            unproven = True
            v = e[0]
            if v:
                score = ((e[1] / v) - lo) / span + explore * sqrt(log(avail) / v)
            else:
                score = math.inf
        if score > best:
            best_a, best_e, best = a, e, score
    if untried is not None and (
        not widen or best_e is None or tried < 1 + int(sqrt(node[2] / WIDEN))
    ):
        a = first if first in untried else untried[int(r * len(untried))]
        e = [0, 0.0, 1, None]
        stats[a] = e
        return a, e, True, None
    if solving and untried is None and not unproven:
        return best_a, best_e, False, proven_best
    return best_a, best_e, False, None


class _Simulator:
    """One search's tree (a table of nodes) and the simulations that grow it."""

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
        self.table: dict[Any, list] = {}
        self.limit = game.max_moves
        # the file's functions, read once (GameFile looks each one up on every access)
        self.to_move, self.legal, self.apply = game.to_move, game.legal_actions, game.apply
        self.observe, self.winners, self.scores = game.observe, game.winners, game.scores
        self.returns = game.returns if game.objective == "return" else None
        self.sample_chance, self.outcomes = game.sample_chance, game.chance_outcomes
        self.cooperative = game.cooperative
        self.sign = -1.0 if game.lowest_score_wins else 1.0
        self.copy = game.clone if game.clone is not None else game.copy
        self.determinize = game.determinize
        # rewards in [0, 1] for the win; returns normalised by the range seen
        self.lo, self.hi = (math.inf, -math.inf) if self.returns is not None else (0.0, 1.0)
        self.top = 1.0 if self.returns is None else math.inf  # the best a seat can get
        self.draw = [1.0 / n] * n if n > 1 and not self.cooperative else [0.0] * n
        self.won_at: int | None = None  # a root action proven to give the seat `top`
        # chance met or cards unseen: the simulations' results are noisy
        self.chancy = self.hidden
        self.moves = 0  # simulated moves so far
        self.exploit = False  # the other seats play the rollout policy, not the tree
        self.value: ScoreValue | None = None  # judges a simulation when the turn passes
        self.turn = game.turn
        self.root_turn: Any = None
        self.wander = WANDER
        self.root_stats: dict = {}
        if not self.hidden:
            self.key = _keyer(state)
            # the root's actions are each simulated at once: no need to open it
            self.root_stats = self._node(state, seat)[0]
        else:
            self.root_stats = self._node(state, seat)[0]
        for a in actions:
            self.root_stats.setdefault(a, [0, 0.0, 0, None])
        self.luck_bits = np.random.PCG64(0)
        self.luck = np.random.Generator(self.luck_bits)
        self.choice_bits = np.random.PCG64(0)
        self.choice = np.random.Generator(self.choice_bits)

    def judge_turns(
        self, game: GameFile, state: Any, rules: dict | None, n: int, rollout: Any, key: str
    ) -> None:
        """Stop simulations when the turn passes, judged by the value learned from scores,
        where it passed its gate. The rollout then plays as it would (no random moves): a
        simulation this short is the tree's to explore."""
        rules = rules if rules is not None else {k: o["default"] for k, o in game.options.items()}
        learned = learned_value(game, rules, n, rollout, key)
        if learned.usable and self.turn is not None:
            self.value = learned
            self.root_turn = self.turn(state)
            self.wander = 0.0

    # -- the tree ------------------------------------------------------------------------------
    def _node(self, s: Any, mover: Any) -> list:
        key = (mover, self.observe(s, mover)) if self.hidden else self.key(s)
        node = self.table.get(key)
        if node is None:
            node = self.table[key] = [{}, None, 0, 0]
        return node

    def _opened(self, s: Any, mover: int, acts: list) -> list:
        """A new node of a position everyone sees: every action that ends the game is played at
        once, so a win in one is proven on the first visit (and with it a loss one move
        earlier)."""
        stats: dict = {}
        if len(acts) > OPEN_AT_MOST:
            return [stats, None, 0, 0]  # too many to try each: found as the tree grows
        to_move, apply, copy = self.to_move, self.apply, self.copy
        for a in acts:
            after = apply(copy(s), a)
            if to_move(after) is None:
                value = self.ended(after)
                stats[a] = [0, 0.0, 0, [{}, value, 0, 0]]
                if value[mover] >= self.top:
                    return [stats, value, 0, 1]
        return [stats, None, 0, 0]

    def proven(self, arm: int) -> list | None:
        child = self.root_stats[self.actions[arm]][3]
        return child[1] if child is not None else None

    # -- the end of a simulation ---------------------------------------------------------------
    def ended(self, s: Any) -> list[float]:
        """Each seat's reward at the end of the game."""
        if self.returns is not None:
            return self._seen([float(x) for x in self.returns(s)])
        won = list(self.winners(s))
        if not won:
            return self.draw
        if self.cooperative:
            return [1.0] * self.n
        share = 1.0 / len(won)
        out = [0.0] * self.n
        for w in won:
            out[w] = share
        return out

    def judged(self, s: Any) -> list[float]:
        """Each seat's reward when a simulation stops at the horizon: by ``scores``."""
        if self.scores is None:
            return self.draw if self.returns is None else self._seen([0.0] * self.n)
        points = [self.sign * float(x) for x in self.scores(s)]
        if self.returns is not None:
            return self._seen(points)
        top = max(points)
        tops = [i for i, p in enumerate(points) if p == top]
        out = [0.0] * self.n
        for i in tops:
            out[i] = 1.0 / len(tops)
        return out

    def _seen(self, rewards: list[float]) -> list[float]:
        lo, hi = min(rewards), max(rewards)
        if lo < self.lo:
            self.lo = lo
        if hi > self.hi:
            self.hi = hi
        return rewards

    # -- one simulation ------------------------------------------------------------------------
    def run(self, arm: int, luck: dict, choices: dict) -> float:
        """One simulation starting with root action ``arm``; the searching seat's reward."""
        to_move, legal, apply, observe = self.to_move, self.legal, self.apply, self.observe
        sample_chance, outcomes = self.sample_chance, self.outcomes
        hidden, table = self.hidden, self.table
        key = None if hidden else self.key
        explore, horizon, limit, rollout = self.explore, self.horizon, self.limit, self.rollout
        top = self.top
        seat, exploit = self.seat, self.exploit
        value, turn_of, root_turn, wander = self.value, self.turn, self.root_turn, self.wander
        solving = not hidden and not exploit  # proofs: every seat plays its best
        noisy = self.chancy and rollout is not None
        lo = self.lo if self.lo < self.hi else 0.0
        span = self.hi - self.lo if self.lo < self.hi else 1.0
        self.luck_bits.state = luck
        self.choice_bits.state = choices
        g, c = self.luck, self.choice
        u: list[float] = []  # uniforms for the simulation's own choices
        ui = _BATCH
        lu: list[float] = []  # uniforms for chance outcomes drawn from a list
        li = _BATCH

        s = self.copy(self.state)
        if hidden:
            s = self.determinize(s, self.seat, g)
        root_edge = self.root_stats[self.actions[arm]]
        root_edge[2] += 1
        s = apply(s, self.actions[arm])
        path: list[tuple[int, list]] = [(self.seat, root_edge)]
        last: list | None = root_edge if solving else None  # the edge just taken, to link
        in_tree = True
        decisions = moves = 1
        rewards: list[float] | None = None
        while True:
            mover = to_move(s)
            if mover is None:
                rewards = self.ended(s)
                if last is not None and solving and last[3] is None:
                    last[3] = [{}, rewards, 0, 0]  # the end: proven
                break
            if moves >= limit:
                rewards = self.draw if self.returns is None else self._seen([0.0] * self.n)
                break  # a game nobody won
            if mover == "chance":
                last = None  # proofs do not cross chance
                if not self.chancy:
                    self.chancy = True
                    noisy = rollout is not None
                if sample_chance is not None:
                    o = sample_chance(s, g)
                else:  # as GameFile.draw_chance, on the batch's uniforms
                    if li == _BATCH:
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
                s = apply(s, o)
                moves += 1
                continue
            if horizon and decisions >= horizon:
                rewards = self.judged(s)
                break
            if value is not None and turn_of(s) != root_turn:
                rewards = value.shares(self.scores(s), mover)
                break
            acts = legal(s)
            if ui == _BATCH:
                u, ui = c.random(_BATCH).tolist(), 0
            r = u[ui]
            ui += 1
            if in_tree and (mover == seat or not exploit):
                if hidden:
                    k = (mover, observe(s, mover))
                else:
                    k = key(s)  # type: ignore[misc]
                node = table.get(k)
                if node is None:
                    node = table[k] = self._opened(s, mover, acts) if solving else [{}, None, 0, 0]
                if last is not None:
                    last[3] = node
                proof = node[1]
                if proof is not None:
                    rewards = proof
                    break
                first = rollout(s, mover, acts, c) if rollout is not None else None
                node[2] += 1
                a, edge, new, proof = _pick(
                    node, acts, explore, r, first, lo, span, mover, top, solving, noisy
                )
                if proof is not None:
                    node[1], node[3] = proof[1], proof[3] + 1
                    rewards = proof[1]
                    break
                path.append((mover, edge))  # type: ignore[arg-type]
                last = edge if solving else None
                if new:
                    in_tree = False
            else:
                last = None
                if exploit and mover != seat:  # the policy exploited, as it plays
                    a = rollout(s, mover, acts, c) if rollout else acts[int(r * len(acts))]
                elif rollout is None or r < wander:
                    a = acts[int(r / wander * len(acts))] if rollout else acts[int(r * len(acts))]
                else:
                    a = rollout(s, mover, acts, c)
            s = apply(s, a)
            decisions += 1
            moves += 1
            if not in_tree and last is not None:
                # the new edge's position: linked so a proof can reach it, then out of the tree
                after = to_move(s)
                if after is None:
                    rewards = self.ended(s)
                    last[3] = [{}, rewards, 0, 0]
                    break
                if after != "chance":
                    k = key(s)  # type: ignore[misc]
                    node = table.get(k)
                    if node is None:
                        node = table[k] = self._opened(s, after, legal(s))
                    last[3] = node
                    if node[1] is not None:
                        rewards = node[1]
                        break
                last = None
            if not in_tree:
                rewards, moves = self._playout(s, u, ui, lu, li, moves, decisions)
                break

        self.moves += moves
        for mover, edge in path:
            edge[0] += 1
            edge[1] += rewards[mover]
        if not hidden:
            child = root_edge[3]
            if child is not None and child[1] is not None and child[1][self.seat] >= top:
                self.won_at = arm
        return rewards[self.seat]

    def _playout(
        self, s: Any, u: list, ui: int, lu: list, li: int, moves: int, decisions: int
    ) -> tuple[list[float], int]:
        """The rest of a simulation out of the tree, on the same streams: (rewards, moves)."""
        to_move, legal, apply = self.to_move, self.legal, self.apply
        sample_chance, outcomes = self.sample_chance, self.outcomes
        horizon, limit, rollout = self.horizon, self.limit, self.rollout
        seat, exploit = self.seat, self.exploit
        value, turn_of, root_turn, wander = self.value, self.turn, self.root_turn, self.wander
        g, c = self.luck, self.choice
        judge = bool(horizon) or value is not None  # the simulation may stop before the end
        plain = rollout is not None and not exploit  # the common case, tested once a move
        batch = _BATCH
        while True:
            mover = to_move(s)
            if mover is None:
                return self.ended(s), moves
            if moves >= limit:  # a game nobody won
                return (self.draw if self.returns is None else self._seen([0.0] * self.n)), moves
            if mover == "chance":
                self.chancy = True
                if sample_chance is not None:
                    o = sample_chance(s, g)
                else:  # as GameFile.draw_chance, on the batch's uniforms
                    if li == batch:
                        lu, li = g.random(batch).tolist(), 0
                    x = lu[li]
                    li += 1
                    listed = outcomes(s)
                    o = listed[-1][0]  # rounding: the probabilities summed to a hair under 1
                    for out, p in listed:
                        x -= p
                        if x < 0.0:
                            o = out
                            break
                s = apply(s, o)
                moves += 1
                continue
            if judge:
                if horizon and decisions >= horizon:
                    return self.judged(s), moves
                if value is not None and turn_of(s) != root_turn:
                    return value.shares(self.scores(s), mover), moves
            acts = legal(s)
            if ui == batch:
                u, ui = c.random(batch).tolist(), 0
            r = u[ui]
            ui += 1
            if plain:  # one move in ten at random (``wander``), else the rollout policy's
                a = rollout(s, mover, acts, c) if r >= wander else acts[int(r / wander * len(acts))]
            elif rollout is None:
                a = acts[int(r * len(acts))]
            elif mover != seat:  # the policy exploited, as it plays
                a = rollout(s, mover, acts, c)
            elif r < wander:
                a = acts[int(r / wander * len(acts))]
            else:
                a = rollout(s, mover, acts, c)
            s = apply(s, a)
            decisions += 1
            moves += 1


def _keyer(state: Any) -> Callable[[Any], Any]:
    """A state's key in the table: its pickled bytes (its text where it cannot be pickled)."""
    dumps = pickle.dumps
    try:
        dumps(state)
    except Exception:
        return repr
    return dumps
