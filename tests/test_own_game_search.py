"""The search player for a designer's own game (``simulator/games/own_game/search.py``).

Each example's exact answer is computed here by a method of its own (enumerating the game tree,
best responses over information sets) and the simulations are checked against it with Wilson
intervals; the search's promises (one draw from the game's stream, the same answer from the same
seed, never reading what the seat cannot see) are checked directly.
"""

from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.games.own_game import search
from simulator.games.own_game.loader import from_source, load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Z = 3.29  # two-sided 99.9%: every check below runs on fixed seeds, kept far from its edge


# -- helpers --------------------------------------------------------------------------------------
def wilson(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def uniform(state, seat, actions, rng):
    return actions[int(rng.integers(len(actions)))]


def searcher(game, **kw):
    def choose(state, seat, actions, rng):
        return search.choose(game, state, seat, actions, rng, **kw)

    return choose


def play(game, rules, choosers, seed):
    """A bare game loop (the toolkit's own is ``simulator.games.own_game.play``): the winners."""
    rng = np.random.default_rng(seed)
    state = game.start(len(choosers), dict(rules))
    for _ in range(game.max_moves):
        mover = game.to_move(state)
        if mover is None:
            return list(game.winners(state))
        if mover == "chance":
            action = game.draw_chance(state, rng)
        else:
            actions = game.legal_actions(state)
            action = choosers[mover](state, mover, actions, rng)
            assert action in actions
        state = game.apply(state, action)
    raise AssertionError("game not over")


def defaults(game):
    return {k: o["default"] for k, o in game.options.items()}


class Peeking:
    """The same game, but ``determinize`` hands back the real state: a search that peeks."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def determinize(self, state, seat, rng):
        return state


@pytest.fixture(scope="module")
def noughts():
    return load(EXAMPLES / "noughts.py")


@pytest.fixture(scope="module")
def kuhn():
    return load(EXAMPLES / "kuhn.py")


@pytest.fixture(scope="module")
def pig():
    return load(EXAMPLES / "pig.py")


@pytest.fixture(scope="module")
def swap():
    """The hidden-information example where seeing the other card pays (Kuhn poker, won or lost,
    has no such gap: see test_kuhn_exact_values)."""
    return load(EXAMPLES / "swap.py")


# -- exact answers --------------------------------------------------------------------------------
def random_play_shares(game, rules):
    """Exact outcome shares of uniformly random play, by enumerating the game tree (perfect
    information, no chance): {winning seat or -1 for a draw: probability}."""
    memo: dict = {}

    def value(state):
        key = (tuple(state["cells"]), state["mover"])
        if key in memo:
            return memo[key]
        mover = game.to_move(state)
        if mover is None:
            won = game.winners(state)
            out = {won[0] if won else -1: 1.0}
        else:
            acts = game.legal_actions(state)
            out: dict = {}
            for a in acts:
                for k, p in value(game.apply(game.copy(state), a)).items():
                    out[k] = out.get(k, 0.0) + p / len(acts)
        memo[key] = out
        return out

    return value(game.start(2, rules))


def win_value(game, state, seat, mine):
    """``seat``'s exact win probability when it plays ``mine(state)`` at its decisions (a dict of
    actions to maximise over when ``mine`` returns None: peeking) and the other seat plays
    uniformly at random."""
    mover = game.to_move(state)
    if mover is None:
        won = game.winners(state)
        return 1.0 / len(won) if seat in won else 0.0
    if mover == "chance":
        return sum(
            p * win_value(game, game.apply(game.copy(state), o), seat, mine)
            for o, p in game.chance_outcomes(state)
        )
    acts = game.legal_actions(state)
    values = [win_value(game, game.apply(game.copy(state), a), seat, mine) for a in acts]
    if mover != seat:
        return sum(values) / len(values)
    chosen = mine(state)
    return max(values) if chosen is None else values[acts.index(chosen)]


def information_sets(game, state, seat, out):
    """``seat``'s information sets (what it observes at its decisions) -> its actions there."""
    mover = game.to_move(state)
    if mover is None:
        return out
    if mover == "chance":
        nexts = [o for o, _ in game.chance_outcomes(state)]
    else:
        nexts = game.legal_actions(state)
        if mover == seat:
            out[game.observe(state, seat)] = tuple(nexts)
    for x in nexts:
        information_sets(game, game.apply(game.copy(state), x), seat, out)
    return out


def fair_and_peeking(game, rules, seat=0):
    """The best win probability of ``seat`` against a uniformly random other seat: choosing by
    what it observes only (the best pure strategy over its information sets, all enumerated), and
    seeing every card (the best action at every state)."""
    root = game.start(2, rules)
    sets = information_sets(game, root, seat, {})
    keys = list(sets)
    fair = 0.0
    for choice in itertools.product(*(sets[k] for k in keys)):
        plan = dict(zip(keys, choice, strict=True))
        fair = max(
            fair, win_value(game, root, seat, lambda s, plan=plan: plan[game.observe(s, seat)])
        )
    peeking = win_value(game, root, seat, lambda s: None)
    return fair, peeking


# -- noughts and crosses --------------------------------------------------------------------------
def test_noughts_random_play_exact_shares(noughts):
    rules = defaults(noughts)
    exact = random_play_shares(noughts, rules)
    assert abs(sum(exact.values()) - 1.0) < 1e-12
    games = 3000
    counts = {0: 0, 1: 0, -1: 0}
    for seed in range(games):
        won = play(noughts, rules, [uniform, uniform], seed)
        counts[won[0] if won else -1] += 1
    for k in (0, 1, -1):
        lo, hi = wilson(counts[k], games)
        assert lo <= exact[k] <= hi, (k, exact[k], counts[k] / games, lo, hi)


@pytest.mark.parametrize("seat", [0, 1])
def test_noughts_search_never_loses_to_random(noughts, seat):
    rules = defaults(noughts)
    choosers = [uniform, uniform]
    choosers[seat] = searcher(noughts)
    results = [play(noughts, rules, choosers, 1000 + g) for g in range(16)]
    assert all(won in ([seat], []) for won in results), results
    assert sum(won == [seat] for won in results) >= 8  # it wins, too


# -- hidden information ---------------------------------------------------------------------------
def test_kuhn_exact_values(kuhn):
    """Won or lost (not chips), Kuhn poker gives no edge to a peek: betting and calling win at
    least as often as checking and folding with every pair of cards, so the best response that
    sees both cards and the one that sees its own only both win 3/4 against random play."""
    fair, peeking = fair_and_peeking(kuhn, defaults(kuhn))
    assert peeking >= fair - 1e-12
    assert abs(fair - 0.75) < 1e-12 and abs(peeking - fair) < 1e-12
    # the chip sizes change no one's win: the `bet` option does not open a gap either
    fair5, peeking5 = fair_and_peeking(kuhn, {**defaults(kuhn), "bet": 5})
    assert abs(peeking5 - fair5) < 1e-12


def _win_rate(game, rules, chooser, games, seed0):
    wins = sum(play(game, rules, [chooser, uniform], seed0 + g) == [0] for g in range(games))
    return wins, games


def test_kuhn_fair_search_not_above_fair_value(kuhn):
    rules = defaults(kuhn)
    fair, _ = fair_and_peeking(kuhn, rules)
    wins, games = _win_rate(kuhn, rules, searcher(kuhn, playouts=100), 1000, 5000)
    lo, hi = wilson(wins, games)
    assert lo <= fair, (wins / games, lo, hi, fair)
    assert hi >= fair - 0.05  # and it plays near the best response, not anyhow


def test_swap_peeking_search_beats_fair_value_fair_search_does_not(swap):
    rules = defaults(swap)
    fair, peeking = fair_and_peeking(swap, rules)
    assert peeking > fair + 0.05  # seeing the other card pays, by the enumeration's own numbers
    wins, games = _win_rate(swap, rules, searcher(swap, playouts=40), 600, 7000)
    lo, hi = wilson(wins, games)
    assert lo <= fair, (wins / games, lo, hi, fair)
    wins, games = _win_rate(swap, rules, searcher(Peeking(swap), playouts=40), 600, 7000)
    lo, hi = wilson(wins, games)
    assert lo > fair, (wins / games, lo, hi, fair)


def _swap_pairs(game, rules):
    """Pairs of real Swap states, seat 1 (0) to decide or seat 2 (1) after a swap or a keep,
    that differ only in the cards the mover has not seen."""
    n = rules["cards"]
    for own in range(1, n + 1):
        rest = [c for c in range(1, n + 1) if c != own]
        for mover, history in ((0, []), (1, ["swap"]), (1, ["keep"])):
            pair = []
            for others in (rest[:3], rest[-3:][::-1]):
                deal = (own, *others) if mover == 0 else (others[0], own, *others[1:])
                s = game.apply(game.start(2, rules), deal)
                for x in history:
                    s = game.apply(s, x)
                pair.append(s)
            assert game.observe(pair[0], mover) == game.observe(pair[1], mover)
            yield mover, pair


def _unseen_pairs(game, rules, histories):
    """Pairs of real Kuhn-like states (cards dealt, a history) that differ only in the card the
    mover cannot see, and the mover."""
    base = game.start(2, rules)
    for own in range(3):
        a, b = (c for c in range(3) if c != own)
        for history, mover in histories:
            pair = []
            for other in (a, b):
                s = game.copy(base)
                s = game.apply(s, (own, other) if mover == 0 else (other, own))
                for x in history:
                    s = game.apply(s, x)
                pair.append(s)
            assert game.to_move(pair[0]) == mover == game.to_move(pair[1])
            assert game.observe(pair[0], mover) == game.observe(pair[1], mover)
            yield mover, pair


def _decisions_alike(game, pairs, seeds, playouts):
    """Do both states of every pair get the same decision, and the very same simulations (the
    same states dealt), from each seed?"""
    alike = True
    for mover, pair in pairs:
        actions = game.legal_actions(pair[0])
        for seed in seeds:
            seen = []
            for real in pair:
                recording = Recording(game)
                rng = np.random.default_rng(seed)
                pick = search.choose(recording, real, mover, actions, rng, playouts=playouts)
                seen.append((pick, recording.dealt, recording.chance))
            alike = alike and seen[0] == seen[1]
    return alike


KUHN_HISTORIES = [([], 0), (["c", "b"], 0), (["c"], 1), (["b"], 1)]


def test_search_never_reads_hidden_information(kuhn, swap):
    """A permutation test: two real states that differ only in what the mover has not seen give
    the same decision from the same seed, at every Kuhn decision and at Swap's; the peeking
    search, which does read it, fails the same test (so the test can fail)."""
    rules = defaults(kuhn)
    pairs = list(_unseen_pairs(kuhn, rules, KUHN_HISTORIES))
    assert len(pairs) == 12
    assert _decisions_alike(kuhn, pairs, range(8), 30)
    swap_pairs = list(_swap_pairs(swap, defaults(swap)))
    assert _decisions_alike(swap, swap_pairs, range(8), 30)
    assert not _decisions_alike(Peeking(swap), swap_pairs, range(8), 30)


def test_hidden_information_needs_determinize():
    text = (EXAMPLES / "swap.py").read_text()
    source = text[: text.index("def determinize")] + text[text.index("def describe") :]
    game = from_source("no_determinize.py", source)
    reason = search.refuse_reason(game)
    assert reason and "determinize" in reason and "\n" not in reason
    state = game.apply(game.start(2, defaults(game)), (1, 2, 3, 4))
    with pytest.raises(ValueError, match="determinize"):
        search.choose(game, state, 0, ["keep", "swap"], np.random.default_rng(0))


# -- the search's promises ------------------------------------------------------------------------
def _positions(game, rules, count, seed):
    """Decisions reached by random play: (state, mover)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.start(2, dict(rules))
        while (mover := game.to_move(state)) is not None:
            if mover == "chance":
                state = game.apply(state, game.draw_chance(state, rng))
                continue
            out.append((game.copy(state), mover))
            actions = game.legal_actions(state)
            state = game.apply(state, actions[int(rng.integers(len(actions)))])
    return out[:count]


@pytest.mark.parametrize("name", ["noughts", "kuhn", "pig"])
def test_one_draw_from_the_games_stream_whatever_the_budget(name, request):
    game = request.getfixturevalue(name)
    for state, mover in _positions(game, defaults(game), 4, 3):
        actions = game.legal_actions(state)
        after = []
        for playouts in (10, 100):
            rng = np.random.default_rng(11)
            search.choose(game, state, mover, actions, rng, playouts=playouts)
            after.append(int(rng.integers(2**63)))
        once = np.random.default_rng(11)
        once.integers(2**63)
        assert after[0] == after[1] == int(once.integers(2**63))
    rng = np.random.default_rng(11)
    state, mover = _positions(game, defaults(game), 1, 3)[0]
    only = game.legal_actions(state)[:1]
    assert search.choose(game, state, mover, only, rng) == only[0]  # one action: at once
    assert int(rng.integers(2**63)) == after[0]


@pytest.mark.parametrize("name", ["noughts", "kuhn", "pig"])
def test_same_seed_same_choice_and_state_untouched(name, request):
    game = request.getfixturevalue(name)
    for state, mover in _positions(game, defaults(game), 6, 4):
        actions = game.legal_actions(state)
        before = repr(state)
        picks = {
            search.choose(game, state, mover, actions, np.random.default_rng(21), playouts=60)
            for _ in range(3)
        }
        assert len(picks) == 1 and picks <= set(actions)
        assert repr(state) == before


def test_noughts_takes_a_win_and_blocks_a_loss(noughts):
    # X to move: X X . / O O . / . . . -> X wins at 2
    state = {"cells": [0, 0, -1, 1, 1, -1, -1, -1, -1], "mover": 0, "moves": 4, "centre": True}
    rng = np.random.default_rng(0)
    assert search.choose(noughts, state, 0, noughts.legal_actions(state), rng, playouts=100) == 2
    # O to move: X X . / O . . / . . . -> O must block at 2
    state = {"cells": [0, 0, -1, 1, -1, -1, -1, -1, -1], "mover": 1, "moves": 3, "centre": True}
    assert search.choose(noughts, state, 1, noughts.legal_actions(state), rng, playouts=200) == 2


# -- pig: legal actions, the horizon, a rollout policy --------------------------------------------
def test_pig_legal_and_horizon(pig):
    rules = {**defaults(pig), "goal": 20}
    for state, mover in _positions(pig, rules, 20, 5):
        rng = np.random.default_rng(1)
        assert search.choose(pig, state, mover, ["roll", "hold"], rng, playouts=30) in (
            "roll",
            "hold",
        )
    # 8 points this turn, behind 5 to 10: one decision ahead, only holding leads on the scores
    state = pig.start(2, defaults(pig))
    state.update(scores=[5, 10], turn_total=8)
    rng = np.random.default_rng(2)
    assert search.choose(pig, state, 0, ["roll", "hold"], rng, playouts=50, horizon=1) == "hold"


class Recording:
    """A game that records each simulation (each starts with a copy of the root state): its
    decisions, its chance outcomes and the state it was dealt."""

    def __init__(self, game, root=None):
        self._game = game
        self.root = root  # the searched state: each simulation starts with a copy of it
        self.decisions: list[int] = []
        self.chance: list[list] = []
        self.dealt: list[str] = []
        self.line = None  # the state the current simulation plays on

    def __getattr__(self, name):
        return getattr(self._game, name)

    @property
    def clone(self):
        def clone(state):
            copied = self._game.copy(state)
            if self.root is None or state is self.root:
                self.decisions.append(0)
                self.chance.append([])
                self.line = copied
            return copied

        return clone

    def copy(self, state):
        return self.clone(state)

    @property
    def determinize(self):
        def determinize(state, seat, rng):
            dealt = self._game.determinize(state, seat, rng)
            self.dealt.append(repr(dealt))
            return dealt

        return None if self._game.determinize is None else determinize

    @property
    def apply(self):
        def apply(state, action):
            if self.root is not None and state is not self.line:
                return self._game.apply(state, action)  # a look one move ahead, off the line
            if self._game.to_move(state) == "chance":
                self.chance[-1].append(action)
            else:
                self.decisions[-1] += 1
            self.line = self._game.apply(state, action)
            return self.line

        return apply


def test_common_random_numbers_at_the_root(kuhn, pig):
    """Two actions, one round: simulations alternate between them, and each pair starts from the
    same deal of the unseen card (Kuhn) and the same first die (Pig)."""
    state = kuhn.apply(kuhn.start(2, defaults(kuhn)), (1, 0))
    recording = Recording(kuhn)
    search.choose(recording, state, 0, ["c", "b"], np.random.default_rng(3), playouts=40)
    dealt = recording.dealt
    assert len(dealt) == 40 and len(set(dealt)) == 2  # both unseen cards dealt, in pairs
    assert all(dealt[i] == dealt[i + 1] for i in range(0, 40, 2))
    state = pig.start(2, defaults(pig))
    state.update(turn_total=6)
    recording = Recording(pig, state)
    search.choose(recording, state, 0, ["roll", "hold"], np.random.default_rng(3), playouts=40)
    firsts = [c[0] for c in recording.chance]
    assert len(firsts) == 40 and len(set(firsts)) > 2
    assert all(firsts[i] == firsts[i + 1] for i in range(0, 40, 2))


@pytest.mark.parametrize("horizon", [1, 3, 7])
def test_horizon_bounds_every_simulation(pig, horizon):
    state = pig.start(2, defaults(pig))
    recording = Recording(pig, state)
    search.choose(recording, state, 0, ["roll", "hold"], np.random.default_rng(0), playouts=64,
                  horizon=horizon)  # fmt: skip
    assert 2 <= len(recording.decisions) <= 64  # two actions far apart may end it early
    assert max(recording.decisions) == horizon


def test_rollout_policy_plays_the_simulations(pig):
    calls = []

    def hold_at_15(state, seat, actions, rng):
        calls.append(seat)
        assert isinstance(rng, np.random.Generator)
        return pig.policies["hold"].function(state, seat, actions, rng, at=15)

    state = pig.start(2, {**defaults(pig), "goal": 30})
    search.choose(pig, state, 0, ["roll", "hold"], np.random.default_rng(0), playouts=20,
                  rollout=hold_at_15)  # fmt: skip
    assert calls and set(calls) == {0, 1}


ENDLESS = """
players = (2, 2)
max_moves = 50
def start(players, rules): return {"n": 0}
def to_move(state): return state["n"] % 2
def legal_actions(state): return ["a", "b"]
def chance_outcomes(state): return []
def apply(state, action):
    state["n"] += 1
    return state
def winners(state): return []
"""


def test_a_game_that_never_ends_stops_at_max_moves():
    game = from_source("endless.py", ENDLESS)
    assert search.choose(game, {"n": 0}, 0, ["a", "b"], np.random.default_rng(0), playouts=20) in (
        "a",
        "b",
    )


def pig_best_response(goal, faces, at):
    """The exact win probability of the best player against ``hold`` at ``at`` in two-seat Pig,
    by value iteration on (own points, other's points, turn's points) for the seat to move and
    for the other: (moving first, moving second)."""
    mine: dict = {}  # our turn: our points, theirs, our turn's points -> our win probability
    theirs: dict = {}  # their turn: our points, theirs, their turn's points -> ours
    for i, j in itertools.product(range(goal), repeat=2):
        for t in range(goal - i + faces):
            mine[i, j, t] = 0.5
        for t in range(goal - j + faces):
            theirs[i, j, t] = 0.5
    while True:
        change = 0.0
        for (i, j, t), old in mine.items():
            hold = 1.0 if i + t >= goal else theirs[i + t, j, 0]
            roll = (
                theirs[i, j, 0] / faces
                + sum(1.0 if i + t + f >= goal else mine[i, j, t + f] for f in range(2, faces + 1))
                / faces
            )
            mine[i, j, t] = max(hold, roll)
            change = max(change, abs(mine[i, j, t] - old))
        for (i, j, t), old in theirs.items():
            if t >= at or j + t >= goal:  # they hold
                new = 0.0 if j + t >= goal else mine[i, j + t, 0]
            else:
                new = (
                    mine[i, j, 0] / faces
                    + sum(
                        0.0 if j + t + f >= goal else theirs[i, j, t + f]
                        for f in range(2, faces + 1)
                    )
                    / faces
                )
            theirs[i, j, t] = new
            change = max(change, abs(new - old))
        if change < 1e-12:
            return mine[0, 0, 0], theirs[0, 0, 0]


@pytest.mark.slow
def test_pig_search_against_hold(pig):
    """Goal 20: hold at 20 (roll until the goal in one turn) is the best play there (the best
    response to it wins exactly half, by value iteration), so the search is measured against hold
    at 10, which the best response beats: the search beats it too, and not by more than the best
    response does."""
    first, second = pig_best_response(20, 6, 20)
    assert abs((first + second) / 2 - 0.5) < 1e-9
    first, second = pig_best_response(20, 6, 10)
    best = (first + second) / 2  # the search plays each seat in half the games
    rules = {**defaults(pig), "goal": 20}
    hold = pig.policies["hold"].function
    games = 240
    wins = 0
    for g in range(games):
        seat = g % 2
        choosers = [functools.partial(hold, at=10)] * 2
        choosers[seat] = searcher(pig, playouts=200)
        wins += play(pig, rules, choosers, 9000 + g) == [seat]
    lo, hi = wilson(wins, games)
    assert 0.5 < lo <= best, (wins / games, lo, hi, best)


COIN = """
players = (2, 2)
def start(players, rules): return {"chose": None, "coin": None}
def to_move(state):
    if state["chose"] is None:
        return 0
    return "chance" if state["coin"] is None else None
def legal_actions(state): return ["heads", "tails"]
def chance_outcomes(state): return [(0, 0.5), (1, 0.5)]
def apply(state, action):
    if state["chose"] is None:
        state["chose"] = action
    else:
        state["coin"] = action
    return state
def winners(state): return [state["coin"]]
def first(state, seat, actions, rng): return "tails"
policies = {"first": first}
"""


def test_a_challenger_that_cannot_overrule_the_rollout_stops_the_search():
    """Both calls lose or win on the same coin: no simulation can make ``heads`` surely better
    than the rollout's ``tails``, so the search answers ``tails`` long before its budget."""
    game = from_source("coin.py", COIN)
    first = game.policies["first"].function
    for seed in range(20):
        choice = search.choose(game, game.start(2, {}), 0, ["heads", "tails"],
                               np.random.default_rng(seed), rollout=first)  # fmt: skip
        assert choice == "tails"
        assert search.effort["simulations"] <= 2 * (1 + _futile_after() + search.CLEAR_EVERY)


def test_an_even_call_keeps_the_rollouts_choice_on_a_fraction_of_the_budget():
    """The call wins on one face of the coin and loses on the other, either way: the paired
    simulations see a difference of a whole game every time, averaging nothing. The search keeps
    the rollout's ``tails`` but for the few calls its looks and its final test get wrong by
    chance (a one-sided 5% test, looked at every few simulations: under 10% of 200), and half
    the decisions stop within four times the simulations before a challenger may be given up
    on, a fifth of the 5,000 the budget allows."""
    source = COIN.replace(
        'def winners(state): return [state["coin"]]',
        'def winners(state): return [0 if (state["coin"] == 0) == (state["chose"] == "heads") '
        "else 1]",
    )
    game = from_source("call.py", source)
    first = game.policies["first"].function
    choices, simulations = [], []
    for seed in range(200):
        choices.append(search.choose(game, game.start(2, {}), 0, ["heads", "tails"],
                                     np.random.default_rng(seed), rollout=first))  # fmt: skip
        simulations.append(search.effort["simulations"])
    assert choices.count("heads") < 20, choices.count("heads")
    assert sorted(simulations)[100] <= 4 * _futile_after(), sorted(simulations)


def _futile_after() -> int:
    """Paired simulations before a challenger may be given up on, at the default budget of the
    coin games (each simulation two moves, so the 5,000 simulations bind first)."""
    return max(search.FUTILE_LEAST, search.DEFAULT_PLAYOUTS // search.FUTILE_SHARE)
