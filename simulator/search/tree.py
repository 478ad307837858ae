"""The search player's tree: information-set Monte Carlo tree search, shared by every game.

Which search, and why. Every competitive game here has dice or hidden cards, so the tree is
*open-loop* over the deciding players' options, the way single-observer information-set MCTS
(Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree Search") builds it:

- each simulation starts from the real position with what the searching seat cannot see dealt
  again from its own view (a *determinisation*) and fresh dice; a node is a sequence of options
  from the root, not a position, so the statistics below a node average over the dice and the
  deals that reached it;
- the options at a node differ from one simulation to the next (another roll, another deal), so
  children are found by the option's *key* (an integer the game gives each option: the position a
  move leads to, the card played...) and the seat choosing, and the selection rule is the
  subset-armed UCB1 of ISMCTS: ``mean + explore * sqrt(ln(availability) / visits)``, where
  availability counts the simulations in which the option could have been taken, not the
  parent's visits;
- a node's statistics are kept for the seat that chose it (every seat maximises its own result:
  max-n), so one tree serves 2 to 6 players;
- the root is not a bandit: the guide's best-ranked options enter it and the budget is spread by
  sequential halving (``start_halving``, ``next_arm``, ``record_arm``); the answer is the
  survivor with the best mean result (``best_arm``), never the most visited;
- below the root the other seats either play a named policy (``opponents``) or stay in the
  tree (``opponents=tree``: one new node per simulation, progressive widening and bias toward
  the guide);
- a simulation plays to the end of the game, or ``horizon`` turns or rounds and then every seat
  is scored by the evaluation fitted to the rules in force (``evaluate``);
- the simulations draw from the search's own stream (``own_stream``, ``back_to_game``).

Numba cannot cache a compiled function that takes other compiled functions as arguments, so the
search does not call the game: the game's forward model (``simulator/games/<game>/forward.py``)
drives one simulation at a time and calls these functions at each decision. Everything that makes it
a search (the halving, the tree's storage, selection, expansion and backup, the evaluation) is
here:

    resume = own_stream()
    <rank the root options with the guide: order[:width]>
    start_halving(h, order, width, playouts)
    while (k := next_arm(h)) >= 0:
        <copy the position; deal what the seat cannot see>
        <apply root option k; with opponents=tree: begin(tree); enter_root(tree, key_k, seat)
         and the choose/left_tree loop below it>
        <play on with the rollout and opponents policies to the end or the horizon>
        <each seat's reward: the win, or evaluate(...) at the horizon>
        record_arm(h, k, reward[seat]); with opponents=tree: backup(tree, rewards)
    back_to_game(resume)
    k = best_arm(h)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.contract.policy import EVAL_AT, MAX_FEATURES, SEARCH_POLICY, PolicyDef, PolicyParam

EXPLORE = 0.7  # UCB1's constant for rewards in [0, 1]; sqrt(2) is the textbook value
WIDEN = 1.0  # progressive widening: children of a node <= 1 + WIDEN * sqrt(its visits)
BIAS = 1.0  # progressive bias toward the guide's choice: bias / (visits + 1) on its UCB score


TREE = "tree"  # opponents=tree: the other seats choose in the tree (max-n) rather than by a policy


def mcts_policy(
    policy_id: int,
    rollouts: tuple[str, ...],
    rollout: str,
    guide: str,
    playouts: int,
    searches: str,
    *,
    explore: float = EXPLORE,
    widen: float = WIDEN,
    bias: float = BIAS,
    horizon: int = 0,
    unit: str = "turns",
    opponents: str = TREE,
) -> PolicyDef:
    """The declaration every game gives its search player, ``mcts``: the same parameters in every
    game (``playouts``, the skill knob; ``rollout`` and ``guide``, each one of the game's
    built-in ``rollouts``; ``explore``; ``widen``; ``bias``; ``horizon``, in the game's ``unit``;
    ``opponents``, one of the ``rollouts`` or ``tree``; a game sets its own defaults),
    ``searches`` saying which decisions it searches and which it leaves to ``rollout``."""
    seats = (*rollouts, TREE)
    return PolicyDef(
        SEARCH_POLICY,
        policy_id,
        "Monte Carlo search (information-set, open-loop over the dice): from each decision, "
        "sequential halving over the guide's best-ranked options, each simulation played to the "
        "end of the game or to the horizon and then scored by an evaluation fitted to the rules "
        f"in force; {searches}",
        (
            PolicyParam(
                "playouts",
                float(playouts),
                1.0,
                100_000.0,
                "simulations per decision (the skill knob: more plays stronger and slower)",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "rollout",
                float(rollouts.index(rollout)),
                0.0,
                float(len(rollouts) - 1),
                "the policy every seat plays in a simulation once it leaves the tree: "
                + ", ".join(rollouts),
                integer=True,
                choices=rollouts,
            ),
            PolicyParam(
                "guide",
                float(rollouts.index(guide)),
                0.0,
                float(len(rollouts) - 1),
                "the policy whose choice the tree tries first and favours (progressive bias): "
                + ", ".join(rollouts),
                integer=True,
                choices=rollouts,
            ),
            PolicyParam(
                "explore",
                explore,
                0.0,
                5.0,
                "UCB1 exploration constant: higher tries more options, lower deepens the best",
            ),
            PolicyParam(
                "widen",
                widen,
                0.0,
                20.0,
                "how many options a decision considers: at the root the guide's best-ranked "
                "1 + widen * sqrt(playouts) enter the halving; below it a node holds at most "
                "1 + widen * sqrt(its simulations) (0: the guide's choice alone)",
            ),
            PolicyParam(
                "bias",
                bias,
                0.0,
                100.0,
                "progressive bias below the root (opponents=tree): the guide's choice gets "
                "bias / (simulations + 1) on top of its mean result",
            ),
            PolicyParam(
                "horizon",
                float(horizon),
                0.0,
                1000.0,
                f"{unit} a simulation plays before the fitted evaluation scores every seat "
                "(0: play to the end of the game)",
                integer=True,
            ),
            PolicyParam(
                "opponents",
                float(seats.index(opponents)),
                0.0,
                float(len(seats) - 1),
                "how the other seats play inside a simulation: a named policy ("
                + ", ".join(rollouts)
                + "), or tree (they choose in the search's tree below the root, as the game's "
                "search player says)",
                integer=True,
                choices=seats,
            ),
        ),
    )


# Tree arrays, one entry per node; node 0 is the root (the decision being searched).
Tree = namedtuple(
    "Tree",
    "key who first sibling nchild visits avail value favoured path mover cursor",
)
# cursor: [0] nodes in use, [1] path length, [2] 1 once this simulation left the tree (a new node
# or a full tree), [3] the node the simulation is at
C_SIZE, C_DEPTH, C_LEFT, C_AT = 0, 1, 2, 3
NO_NODE = -1
MAX_DEPTH = 512  # decisions of one simulation kept in the tree at most


def tally_for(policy_ids, search_id: int, tally: np.ndarray | None = None) -> np.ndarray | None:
    """An engine's ``searching`` argument: the search's tally (``tally``, or a new one; int64[2]:
    simulations, and the length units they played) when a seat plays the search policy
    ``search_id``, else None, so that numba prunes the search out of runs without it."""
    if search_id not in np.asarray(policy_ids).tolist():
        return None
    return np.zeros(2, dtype=np.int64) if tally is None else tally


@njit(cache=True)
def new_tree(capacity: int) -> Tree:
    """Room for ``capacity`` nodes (one per simulation is added, so ``playouts + 1`` is enough)."""
    cap = max(capacity, 2)
    tree = Tree(
        np.zeros(cap, dtype=np.int64),
        np.full(cap, -1, dtype=np.int64),
        np.full(cap, NO_NODE, dtype=np.int64),
        np.full(cap, NO_NODE, dtype=np.int64),
        np.zeros(cap, dtype=np.int64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
    )
    clear(tree)
    return tree


@njit(cache=True)
def clear(tree: Tree) -> None:
    """Forget every node: the tree holds the root alone (a new decision to search)."""
    tree.first[0] = NO_NODE
    tree.sibling[0] = NO_NODE
    tree.nchild[0] = 0
    tree.visits[0] = 0.0
    tree.cursor[C_SIZE] = 1
    tree.cursor[C_DEPTH] = 0
    tree.cursor[C_LEFT] = 0
    tree.cursor[C_AT] = 0


@njit(cache=True)
def begin(tree: Tree) -> None:
    """Start a simulation at the root."""
    tree.cursor[C_DEPTH] = 0
    tree.cursor[C_LEFT] = 0
    tree.cursor[C_AT] = 0


@njit(cache=True)
def left_tree(tree: Tree) -> bool:
    """True once this simulation has added its new node (or cannot add one): play out now."""
    return tree.cursor[C_LEFT] == 1


@njit(cache=True)
def child(tree: Tree, node: int, key: int, mover: int) -> int:
    """The child of ``node`` reached by seat ``mover`` taking the option ``key`` (NO_NODE: none)."""
    c = tree.first[node]
    while c != NO_NODE:
        if tree.key[c] == key and tree.who[c] == mover:
            return c
        c = tree.sibling[c]
    return NO_NODE


@njit(cache=True)
def _addchild(tree: Tree, node: int, key: int, mover: int) -> int:
    i = tree.cursor[C_SIZE]
    if i >= tree.key.shape[0]:
        return NO_NODE
    tree.cursor[C_SIZE] = i + 1
    tree.key[i] = key
    tree.who[i] = mover
    tree.first[i] = NO_NODE
    tree.sibling[i] = tree.first[node]
    tree.first[node] = i
    tree.nchild[node] += 1
    tree.nchild[i] = 0
    tree.favoured[i] = 0.0
    tree.visits[i] = 0.0
    tree.avail[i] = 0.0
    tree.value[i] = 0.0
    return i


@njit(cache=True)
def _enter(tree: Tree, child: int, mover: int) -> None:
    d = tree.cursor[C_DEPTH]
    if d < MAX_DEPTH:
        tree.path[d] = child
        tree.mover[d] = mover
        tree.cursor[C_DEPTH] = d + 1
    tree.cursor[C_AT] = child


@njit(cache=True)
def widening(tree: Tree, widen: float) -> bool:
    """Should the driver ask its guide policy for a choice at the simulation's current node?
    Progressive widening: a node holds at most ``1 + widen * sqrt(visits)`` children, so a small
    budget deepens the few options tried (the guide's first) instead of trying every option
    once; a visit that may add a child needs the guide. Below the root it always does: the
    options there change from one simulation to the next (other dice, another deal), and when
    none of the children tried is among them a new one must be added, which must be the
    guide's choice rather than a random one (a random reply makes every move look safe)."""
    if tree.cursor[C_LEFT] == 1:
        return False
    node = tree.cursor[C_AT]
    return node != 0 or tree.nchild[node] < 1.0 + widen * np.sqrt(tree.visits[node])


@njit(cache=True)
def choose(tree: Tree, keys: np.ndarray, n: int, mover: int, explore: float, guide: int,
           widen: float, bias: float) -> int:  # fmt: skip
    """The option (index into ``keys[:n]``) that seat ``mover`` takes at the simulation's current
    node. When the node may widen (:func:`widening`) and an option was never tried here, a new
    child: ``guide`` (the guide policy's choice, -1 for none) if untried, else one uniformly at
    random; it is the simulation's new node. Otherwise the best subset-armed UCB1 score, with
    progressive bias toward the guide's children (``bias / (visits + 1)``). Outside the tree
    (after the new node, a full tree or too deep a path): the guide's choice, else at random."""
    if n <= 1:  # nothing to choose: not a node of the tree
        return 0
    if tree.cursor[C_LEFT] == 1:
        return guide if guide >= 0 else np.random.randint(0, n)
    node = tree.cursor[C_AT]
    grow = tree.nchild[node] < 1.0 + widen * np.sqrt(tree.visits[node])
    untried = 0
    best = -1
    best_score = -np.inf
    for k in range(n):
        c = child(tree, node, keys[k], mover)
        if c == NO_NODE or tree.visits[c] == 0.0:
            untried += 1
            continue
        tree.avail[c] += 1.0
        v = tree.visits[c]
        score = tree.value[c] / v + explore * np.sqrt(np.log(tree.avail[c]) / v)
        score += bias * tree.favoured[c] / (v + 1.0)
        if score > best_score:
            best_score = score
            best = k
    if untried > 0 and (grow or best < 0):
        if guide >= 0:
            c = child(tree, node, keys[guide], mover)
            if c == NO_NODE or tree.visits[c] == 0.0:
                _step(tree, keys[guide], mover, 1.0)
                return guide
        pick = np.random.randint(0, untried)
        for k in range(n):
            c = child(tree, node, keys[k], mover)
            if c == NO_NODE or tree.visits[c] == 0.0:
                if pick == 0:
                    _step(tree, keys[k], mover, 0.0)
                    return k
                pick -= 1
    _step(tree, keys[best], mover, 0.0)
    return best


@njit(cache=True)
def _step(tree: Tree, key: int, mover: int, favoured: float) -> None:
    """Move the simulation to the child ``key`` of its node, adding it if new (and then leaving
    the tree); ``favoured``: 1 when the guide chose it."""
    node = tree.cursor[C_AT]
    c = child(tree, node, key, mover)
    if c == NO_NODE:
        c = _addchild(tree, node, key, mover)
        tree.cursor[C_LEFT] = 1
        if c == NO_NODE:  # the tree is full: this simulation is a playout from here
            return
        tree.favoured[c] = favoured
    elif tree.visits[c] == 0.0:
        tree.cursor[C_LEFT] = 1
    if tree.cursor[C_DEPTH] >= MAX_DEPTH:
        tree.cursor[C_LEFT] = 1
        return
    _enter(tree, c, mover)


@njit(cache=True)
def backup(tree: Tree, rewards: np.ndarray) -> None:
    """Add the simulation's result along its path: each node's value is its mover's reward."""
    tree.visits[0] += 1.0
    for d in range(tree.cursor[C_DEPTH]):
        c = tree.path[d]
        tree.visits[c] += 1.0
        tree.value[c] += rewards[tree.mover[d]]


@njit(cache=True)
def most_visited(tree: Tree, keys: np.ndarray, n: int, mover: int) -> int:
    """The root option simulated most often (index into ``keys[:n]``); ties go to the higher mean
    reward, then to the first listed."""
    return max(most_visited_at(tree, 0, keys, n, mover), 0)


@njit(cache=True)
def most_visited_at(tree: Tree, node: int, keys: np.ndarray, n: int, mover: int) -> int:
    """:func:`most_visited` below any ``node`` (a second decision of the same turn, read under
    the chosen first one); -1 when no option of ``keys[:n]`` was simulated there."""
    best = -1
    best_visits = 0.0
    best_mean = -np.inf
    for k in range(n):
        c = child(tree, node, keys[k], mover)
        v = 0.0 if c == NO_NODE else tree.visits[c]
        if v == 0.0:
            continue
        mean = tree.value[c] / v
        if v > best_visits or (v == best_visits and mean > best_mean):
            best = k
            best_visits = v
            best_mean = mean
    return best


@njit(cache=True)
def root_stats(tree: Tree, keys: np.ndarray, n: int, mover: int, out: np.ndarray) -> None:
    """Visits and mean reward of each root option into ``out[k, 0:2]`` (tests, replays)."""
    for k in range(n):
        c = child(tree, 0, keys[k], mover)
        v = 0.0 if c == NO_NODE else tree.visits[c]
        out[k, 0] = v
        out[k, 1] = tree.value[c] / v if v > 0.0 else 0.0


@njit(cache=True)
def win_rewards(winner: int, n_players: int, out: np.ndarray) -> np.ndarray:
    """The usual result: 1 to the winner, 0 to everyone else (nobody wins: 0 to all)."""
    for p in range(n_players):
        out[p] = 0.0
    if 0 <= winner < n_players:
        out[winner] = 1.0
    return out


# -- the root: sequential halving over the guide's ranking ---------------------------------------
# Halving arrays: arms (root option indices, the guide's best-ranked first; the arms still in
# play are arms[:alive]), their reward sums and simulations, and the schedule in ``cursor``.
Halving = namedtuple("Halving", "arms sums counts cursor")
H_ALIVE, H_ROUNDS, H_QUOTA, H_NEXT, H_LEFT, H_WIDTH = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def new_halving(capacity: int) -> Halving:
    """Room for ``capacity`` root options."""
    cap = max(capacity, 1)
    return Halving(
        np.zeros(cap, dtype=np.int64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(cap, dtype=np.float64),
        np.zeros(6, dtype=np.int64),
    )


@njit(cache=True)
def root_width(n: int, playouts: int, widen: float) -> int:
    """How many of ``n`` ranked root options enter the halving: the guide's best
    ``1 + widen * sqrt(playouts)``, and no more than leave each two simulations in the first
    round (at least 1)."""
    width = int(1.0 + widen * np.sqrt(playouts))
    width = min(width, n, max(1, playouts // 2))
    return max(width, 1)


@njit(cache=True)
def _set_quota(h: Halving) -> None:
    alive = h.cursor[H_ALIVE]
    rounds = max(h.cursor[H_ROUNDS], 1)
    h.cursor[H_QUOTA] = max(1, h.cursor[H_LEFT] // (alive * rounds))
    h.cursor[H_NEXT] = 0


@njit(cache=True)
def start_halving(h: Halving, order: np.ndarray, n: int, budget: int) -> None:
    """Sequential halving (Karnin, Koren and Somekh 2013) over the root options ``order[:n]``
    (indices, best-ranked first) with ``budget`` simulations: ceil(log2 n) rounds, each sharing
    its part of the budget equally among the options still in play, after which the better half
    by mean reward stays (ties keep the better-ranked option)."""
    for i in range(n):
        h.arms[i] = order[i]
        h.sums[order[i]] = 0.0
        h.counts[order[i]] = 0.0
    h.cursor[H_ALIVE] = n
    h.cursor[H_WIDTH] = n
    rounds = 0
    while (1 << rounds) < n:
        rounds += 1
    h.cursor[H_ROUNDS] = rounds
    h.cursor[H_LEFT] = budget
    _set_quota(h)


@njit(cache=True)
def _mean(h: Halving, arm: int) -> float:
    c = h.counts[arm]
    return h.sums[arm] / c if c > 0.0 else -1.0


@njit(cache=True)
def _halve(h: Halving) -> None:
    alive = h.cursor[H_ALIVE]
    for i in range(1, alive):  # stable insertion sort by mean, best first: ties keep the rank
        a = h.arms[i]
        m = _mean(h, a)
        j = i - 1
        while j >= 0 and _mean(h, h.arms[j]) < m:
            h.arms[j + 1] = h.arms[j]
            j -= 1
        h.arms[j + 1] = a
    h.cursor[H_ALIVE] = (alive + 1) // 2
    h.cursor[H_ROUNDS] -= 1
    _set_quota(h)


# Once a simulation each, allocating nothing: without the runtime, a call counts no references.
@njit(cache=True, _nrt=False)
def next_arm(h: Halving) -> int:
    """The root option (an index of the game's list) the next simulation starts with, or -1 when
    the halving is done (one option left, or the budget spent)."""
    if h.cursor[H_NEXT] >= h.cursor[H_ALIVE] * h.cursor[H_QUOTA] and h.cursor[H_ALIVE] > 1:
        _halve(h)
    alive = h.cursor[H_ALIVE]
    if alive <= 1 or h.cursor[H_LEFT] <= 0:
        return -1
    arm = h.arms[h.cursor[H_NEXT] % alive]
    h.cursor[H_NEXT] += 1
    h.cursor[H_LEFT] -= 1
    return arm


@njit(cache=True, _nrt=False)
def record_arm(h: Halving, arm: int, reward: float) -> None:
    """Add one simulation's reward (the searching seat's) to root option ``arm``."""
    h.sums[arm] += reward
    h.counts[arm] += 1.0


@njit(cache=True)
def best_arm(h: Halving) -> int:
    """The answer: the option left in play with the best mean reward (every option left in play
    has had the same simulations each round, so the choice is by value, not by visits); ties go
    to the better-ranked."""
    best = h.arms[0]
    for i in range(1, h.cursor[H_ALIVE]):
        if _mean(h, h.arms[i]) > _mean(h, best):
            best = h.arms[i]
    return best


@njit(cache=True)
def arm_stats(h: Halving, n: int, out: np.ndarray) -> None:
    """Simulations and mean reward of each of the ``n`` root options into ``out[k, 0:2]``."""
    for k in range(n):
        out[k, 0] = 0.0
        out[k, 1] = 0.0
    for i in range(h.cursor[H_WIDTH]):
        a = h.arms[i]
        if a < n and h.counts[a] > 0.0:
            out[a, 0] = h.counts[a]
            out[a, 1] = h.sums[a] / h.counts[a]


@njit(cache=True)
def rank_by_score(scores: np.ndarray, n: int, first: int, order: np.ndarray) -> None:
    """``order[:n]``: the options by descending ``scores`` (ties by index), with ``first`` (the
    guide's own choice, -1 for none) put first: the guide's ranking of the root."""
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        a = order[i]
        j = i - 1
        while j >= 0 and scores[order[j]] < scores[a]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = a
    if first > 0 or (first == 0 and order[0] != 0):
        at = 0
        while order[at] != first:
            at += 1
        while at > 0:
            order[at] = order[at - 1]
            at -= 1
        order[0] = first


@njit(cache=True)
def enter_root(tree: Tree, key: int, mover: int) -> None:
    """Start a simulation (after :func:`begin`) at the root option ``key`` the halving chose, in the
    tree kept below it for ``opponents=tree`` (a new child ends the tree part at once)."""
    _step(tree, key, mover, 0.0)


# -- the evaluation at the horizon ---------------------------------------------------------------
# A seat's parameter row carries the fitted evaluation after its declared parameters:
# prm[EVAL_AT] the intercept, prm[EVAL_AT + 1 + i] the weight of the game's feature i
# (simulator.search.evaluation fits them and the run's plan fills them in).


@njit(cache=True, _nrt=False)
def evaluate(prm: np.ndarray, feats: np.ndarray, n_players: int, out: np.ndarray) -> None:
    """Every seat's evaluation in [0, 1] into ``out``, from its features ``feats[seat, :m]``: the
    fitted logistic model of "this seat wins" on its features minus the mean of the others', as
    shares summing to 1 (unfitted weights, all zero: an even share each). Without the runtime
    (a simulation's), so it returns nothing: an array returned without it would not be counted
    for the caller that keeps it."""
    m = min(feats.shape[1], MAX_FEATURES)
    total = 0.0
    for s in range(n_players):
        z = prm[EVAL_AT]
        for i in range(m):
            others = 0.0
            for j in range(n_players):
                if j != s:
                    others += feats[j, i]
            z += prm[EVAL_AT + 1 + i] * (feats[s, i] - others / max(n_players - 1, 1))
        z = min(max(z, -30.0), 30.0)
        out[s] = 1.0 / (1.0 + np.exp(-z))
        total += out[s]
    for s in range(n_players):
        out[s] = out[s] / total if total > 0.0 else 1.0 / n_players


# -- the search's own random stream ---------------------------------------------------------
# numba keeps one generator per thread, and the real game's dice, deals and policies draw from
# it. A search takes two draws from it, whatever its budget: one seeds the search's own
# simulations, the other is where the real game goes on after the search. So the real game's
# draws do not depend on the budget (nor on anything the simulations do) until a choice differs.


@njit(cache=True)
def own_stream() -> int:
    """Switch numba's generator to the search's own stream; returns the seed the real game's
    stream resumes from (give it to :func:`back_to_game`)."""
    search_seed = np.random.randint(0, 2**31 - 1)
    resume = np.random.randint(0, 2**31 - 1)
    np.random.seed(search_seed)
    return resume


@njit(cache=True)
def back_to_game(resume: int) -> None:
    """After a search: the real game's stream goes on from ``resume``."""
    np.random.seed(resume)
