"""The search for a game file held to exact answers: it plays the game's objective, never reads a
card no seat has seen, never loses to perfect play in noughts and crosses, finds the right move in
Nim and 21 sticks, beats `hold` in Pig, and keeps its budget.

Every exact answer is computed here by a method of its own (minimax, the nim-sum, a table of
sticks, value iteration, enumeration of strategies or deals); budgets are the search's defaults
unless a check says otherwise. Longer measurements: benchmarks/own_game_search.py.
"""

from __future__ import annotations

import functools
import itertools
import time
from pathlib import Path

import numpy as np
import pytest

from simulator.games.own_game import fairness, search
from simulator.games.own_game.loader import from_source, load
from tests.test_own_game_search import (
    defaults,
    information_sets,
    pig_best_response,
    play,
    wilson,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def searcher(game, **kw):
    def choose(state, seat, actions, rng):
        return search.choose(game, state, seat, actions, rng, **kw)

    return choose


def leftmost(state, seat, actions, rng):
    return actions[0]


# -- noughts and crosses against perfect play ----------------------------------------------------
@pytest.fixture(scope="module")
def noughts():
    return load(EXAMPLES / "noughts.py")


@functools.cache
def minimax(cells: tuple, mover: int) -> int:
    """The exact value of a noughts-and-crosses position for X (1 won, 0 drawn, -1 lost)."""
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    for a, b, c in lines:
        if cells[a] >= 0 and cells[a] == cells[b] == cells[c]:
            return 1 if cells[a] == 0 else -1
    free = [i for i, x in enumerate(cells) if x < 0]
    if not free:
        return 0
    values = [minimax(cells[:i] + (mover,) + cells[i + 1 :], 1 - mover) for i in free]
    return max(values) if mover == 0 else min(values)


def perfect(state, seat, actions, rng):
    """Perfect play: one of the best moves, drawn at random (so the games differ)."""
    cells = tuple(state["cells"])
    values = [minimax(cells[:a] + (seat,) + cells[a + 1 :], 1 - seat) for a in actions]
    best = max(values) if seat == 0 else min(values)
    good = [a for a, v in zip(actions, values, strict=True) if v == best]
    return good[int(rng.integers(len(good)))]


@pytest.mark.parametrize("rollout", ["random", "tactics", "leftmost"])
@pytest.mark.parametrize("seat", [0, 1])
def test_noughts_no_loss_to_perfect_play(noughts, seat, rollout):
    policy = {"random": None, "tactics": noughts.policies["tactics"].function}.get(
        rollout, leftmost
    )
    choosers = [perfect, perfect]
    choosers[seat] = searcher(noughts, rollout=policy)
    results = [play(noughts, defaults(noughts), choosers, 300 + g) for g in range(8)]
    assert all(won in ([seat], []) for won in results), results


# -- Nim and 21 sticks: the right move ----------------------------------------------------------
def nim_right(state, action):
    pile, taken = action
    piles = list(state["piles"])
    piles[pile] -= taken
    return functools.reduce(lambda a, b: a ^ b, piles) == 0  # the other seat is left lost


@functools.cache
def sticks_lost(left: int, most: int) -> bool:
    """Is the seat to move lost with ``left`` sticks (whoever takes the last one loses)?"""
    if left == 0:
        return False  # the other seat took the last stick
    return all(not sticks_lost(left - k, most) for k in range(1, min(most, left) + 1))


def sticks_right(state, action):
    return sticks_lost(state["left"] - action, state["most"])


def right_moves(name: str, count: int, **budget) -> int:
    """How many of ``count`` random positions with a winning move the search plays one in."""
    game = load(EXAMPLES / f"{name}.py")
    right_of = nim_right if name == "nim" else sticks_right
    rng = np.random.default_rng(17)
    positions = []
    while len(positions) < count:
        if name == "nim":
            piles = [int(rng.integers(0, 4 + i)) for i in range(3)]
            state = {"piles": piles, "mover": int(rng.integers(2)), "moves": 0}
        else:
            state = {"left": int(rng.integers(1, 22)), "most": 3, "mover": 0, "moves": 0}
        actions = game.legal_actions(state)
        if game.to_move(state) is not None and any(right_of(state, a) for a in actions):
            positions.append(state)
    return sum(
        right_of(
            s,
            search.choose(
                game, s, s["mover"], game.legal_actions(s), np.random.default_rng(i), **budget
            ),
        )  # fmt: skip
        for i, s in enumerate(positions)
    )


@pytest.mark.parametrize("name", ["nim", "sticks"])
def test_the_right_move_from_random_positions(name):
    right = right_moves(name, 60)
    assert right >= 0.95 * 60, right


@pytest.mark.parametrize("name", ["nim", "sticks"])
def test_skill_grows_with_the_budget(name):
    """From the same 60 positions, a sixteenth of the default budget (its cap on simulations
    scaled with it) finds fewer winning moves than the default, which finds at least 95%."""
    small = right_moves(name, 60, moves=search.DEFAULT_MOVES // 16,
                        playouts=search.DEFAULT_PLAYOUTS // 16)  # fmt: skip
    default = right_moves(name, 60)
    assert small < default and default >= 0.95 * 60, (small, default)


# -- Pig: better than `hold` where there is room -----------------------------------------------
@pytest.mark.slow
def test_pig_beats_hold_where_the_best_response_does():
    """Goal 20 against `hold` at 10: the best response wins 66.9% over both seats (value
    iteration); the search at its default budget, rolling out with `hold` at 20, wins more than
    half (hold against itself) and no more than the best response."""
    pig = load(EXAMPLES / "pig.py")
    first, second = pig_best_response(20, 6, 10)
    best = (first + second) / 2
    rules = {**defaults(pig), "goal": 20}
    hold = pig.policies["hold"].function
    games = 400
    wins = 0
    for g in range(games):
        seat = g % 2
        choosers = [functools.partial(hold, at=10)] * 2
        choosers[seat] = searcher(pig, rollout=hold, playouts=300)
        wins += play(pig, rules, choosers, 4000 + g) == [seat]
    lo, hi = wilson(wins, games)
    assert 0.5 < lo <= best, (wins / games, lo, hi, best)


# -- the objective -------------------------------------------------------------------------------
def kuhn_with(objective: str):
    source = (EXAMPLES / "kuhn.py").read_text()
    return from_source(f"kuhn_{objective}.py", source + f"\nobjective = {objective!r}\n")


def chips(game, state, seat, plan):
    """``seat``'s exact expected return when it plays ``plan`` (observation -> action) and the
    other seat plays uniformly at random."""
    mover = game.to_move(state)
    if mover is None:
        return game.returns(state)[seat]
    if mover == "chance":
        return sum(
            p * chips(game, game.apply(game.copy(state), o), seat, plan)
            for o, p in game.chance_outcomes(state)
        )
    actions = game.legal_actions(state)
    if mover != seat:
        values = [chips(game, game.apply(game.copy(state), a), seat, plan) for a in actions]
        return sum(values) / len(values)
    action = plan[game.observe(state, seat)]
    return chips(game, game.apply(game.copy(state), action), seat, plan)


def kuhn_plans(game, seat):
    """Every pure plan of ``seat`` over its information sets, and a real state at each."""
    rules = defaults(game)
    sets = information_sets(game, game.start(2, rules), seat, {})
    keys = list(sets)
    plans = [dict(zip(keys, c, strict=True)) for c in itertools.product(*(sets[k] for k in keys))]
    states = {}
    for key in keys:
        _, card, history, _ = key
        other = next(c for c in range(3) if c != card)
        state = game.apply(game.start(2, rules), (card, other) if seat == 0 else (other, card))
        for a in history:
            state = game.apply(state, a)
        states[key] = state
    return plans, states


def searched_plan(game, seat, states, **kw):
    """The search's answer at each information set (the most frequent of three seeds)."""
    plan = {}
    for key, state in states.items():
        actions = game.legal_actions(state)
        picks = [
            search.choose(game, state, seat, actions, np.random.default_rng(s), **kw)
            for s in range(3)
        ]
        plan[key] = max(actions, key=picks.count)
    return plan


def test_kuhn_chips_against_random_follow_the_objective():
    """The best response to uniform random play earns 1/2 a chip a hand as the first seat and
    5/12 as the second, 11/24 over both (enumerating every pure plan). The search exploiting
    random play (``exploit``: the other seat plays its rollout, random) earns within 0.05 of it
    at each seat when it plays for chips, and more than 0.1 below it over both seats when it
    plays for the win: a hand lost either way is as bad folded as called, and a bet that wins
    the pot as often as a check is not worth more chips to it."""
    by_return, by_win = kuhn_with("return"), kuhn_with("win")
    best = {}
    got: dict[str, list[float]] = {"return": [], "win": []}
    for seat, exact in ((0, 0.5), (1, 5 / 12)):
        plans, states = kuhn_plans(by_return, seat)
        root = by_return.start(2, defaults(by_return))
        best[seat] = max(chips(by_return, root, seat, p) for p in plans)
        assert abs(best[seat] - exact) < 1e-12
        for game in (by_return, by_win):
            plan = searched_plan(game, seat, states, playouts=400, exploit=True)
            got[game.objective].append(chips(by_return, root, seat, plan))
    assert all(got["return"][s] >= best[s] - 0.05 for s in (0, 1)), (got, best)
    assert sum(got["win"]) / 2 < sum(best.values()) / 2 - 0.1, (got, best)


GAMBLE = """
players = (1, 1)
objective = {objective!r}
def start(players, rules): return {{"choice": None, "coin": None}}
def to_move(state):
    if state["choice"] is None: return 0
    if state["choice"] == "gamble" and state["coin"] is None: return "chance"
    return None
def legal_actions(state): return ["safe", "gamble"]
def chance_outcomes(state): return [("heads", 0.5), ("tails", 0.5)]
def apply(state, action):
    if state["choice"] is None: state["choice"] = action
    else: state["coin"] = action
    return state
def winners(state):
    return [0] if state["choice"] == "safe" or state["coin"] == "heads" else []
def returns(state):
    if state["choice"] == "safe": return [1.0]
    return [10.0] if state["coin"] == "heads" else [-1.0]
"""


@pytest.mark.parametrize(("objective", "answer"), [("win", "safe"), ("return", "gamble")])
def test_one_seat_plays_its_objective(objective, answer):
    """Safe wins always and pays 1; the gamble wins half the time and pays 4.5 on average. A game
    nobody won is a loss at one seat (not the 1/n a draw is worth among rivals)."""
    game = from_source(f"gamble_{objective}.py", GAMBLE.format(objective=objective))
    state = game.start(1, {})
    picks = {
        search.choose(game, state, 0, ["safe", "gamble"], np.random.default_rng(s), playouts=60)
        for s in range(5)
    }
    assert picks == {answer}


# -- fairness: no card read before it shows ------------------------------------------------------
def honest_rate(cards: int) -> float:
    """The share of right guesses of the best honest player of Next card (counting the cards
    left above and below), averaged exactly over every order of the deck."""
    right = 0
    orders = 0
    for order in itertools.permutations(range(1, cards + 1)):
        left = set(order)
        for shown, nxt in itertools.pairwise(order):
            left.discard(shown)
            above = sum(c > shown for c in left)
            guess_higher = 2 * above >= len(left)
            right += guess_higher == (nxt > shown)
        orders += 1
    return right / (orders * (cards - 1))


SHUFFLED = '''
def sample_chance(state, rng):
    """The whole deck, shuffled into the state at the start: every card to come is in it."""
    return [int(c) for c in rng.permutation(state["cards"]) + 1]
def to_move(state):
    if state["deck"] is None: return "chance"
    return None if len(state["seen"]) == state["cards"] else 0
def chance_outcomes(state): return []
def apply(state, action):
    if isinstance(action, list):  # the shuffle; the first card is turned up
        state["deck"], state["seen"] = action, action[:1]
        return state
    turned = state["deck"][len(state["seen"])]  # a guess: the next card of the deck shows
    state["right"] += (action == "higher") == (turned > state["seen"][-1])
    state["seen"] = state["seen"] + [turned]
    return state
def start(players, rules):
    return {"cards": rules["cards"], "goal": rules["goal"], "seen": [], "guess": None,
            "right": 0, "deck": None}
'''


def test_next_card_search_is_right_no_more_often_than_honest_play():
    game = load(EXAMPLES / "next_card.py")
    rules = {**defaults(game), "cards": 6}
    exact = honest_rate(6)
    right = guesses = 0
    for g in range(60):
        rng = np.random.default_rng(800 + g)
        state = game.start(1, rules)
        while (mover := game.to_move(state)) is not None:
            if mover == "chance":
                state = game.apply(state, game.draw_chance(state, rng))
                continue
            action = search.choose(game, state, 0, game.legal_actions(state), rng, playouts=100)
            state = game.apply(state, action)
        right += state["right"]
        guesses += rules["cards"] - 1
    lo, hi = wilson(right, guesses)
    assert lo <= exact, (right / guesses, lo, hi, exact)
    assert hi >= exact - 0.05  # and it plays near honest play, not anyhow


def test_a_shuffled_deck_without_observe_is_refused():
    """The leak case: the deck shuffled into the state by sample_chance, no observe(): the search
    would read every card to come, so it is refused in one line saying how to write it."""
    text = (EXAMPLES / "next_card.py").read_text()
    game = from_source("shuffled.py", text + SHUFFLED)
    reason = search.refuse_reason(game)
    assert reason and "\n" not in reason
    assert "draw each card when it is revealed" in reason and "observe" in reason
    state = game.apply(game.start(1, defaults(game)), [3, 1, 5, 2, 8, 4, 7, 6])
    with pytest.raises(ValueError, match="sample_chance"):
        search.choose(game, state, 0, ["higher", "lower"], np.random.default_rng(0))


def test_a_determinize_that_deals_nothing_is_refused():
    text = (EXAMPLES / "kuhn.py").read_text()
    game = from_source("kuhn_peeks.py", text + "\ndef determinize(state, seat, rng):\n"
                       "    return state\n")  # fmt: skip
    reason = fairness.determinize_deals_nothing(game)
    assert reason and "\n" not in reason and "determinize" in reason
    assert search.refuse_reason(game) == reason
    assert fairness.determinize_deals_nothing(load(EXAMPLES / "kuhn.py")) is None


def test_seeing_everything_needs_no_deal():
    """A determinize that returns the state is right where the observation is the whole state."""
    text = (EXAMPLES / "noughts.py").read_text()
    source = text + (
        "\ndef observe(state, seat):\n    return (tuple(state['cells']), state['mover'])\n"
        "\ndef determinize(state, seat, rng):\n    return state\n"
    )
    assert fairness.determinize_deals_nothing(from_source("noughts_seen.py", source)) is None


# -- the budget ----------------------------------------------------------------------------------
WIDE = """
players = (2, 2)
def start(players, rules): return {"picked": None}
def to_move(state): return None if state["picked"] is not None else 0
def legal_actions(state): return list(range(10_000))
def chance_outcomes(state): return []
def apply(state, action):
    state["picked"] = action
    return state
def winners(state): return [0] if state["picked"] % 7 == 3 else [1]
def clone(state): return dict(state)
"""


def test_the_budget_holds_whatever_the_number_of_actions():
    game = from_source("wide.py", WIDE)
    ends = []
    counting = type("Counting", (), {})()
    for name in dir(game):
        if not name.startswith("__"):
            setattr(counting, name, getattr(game, name))

    def winners(state):
        ends.append(1)
        return game.winners(state)

    counting.winners = winners
    state = game.start(2, {})
    actions = game.legal_actions(state)
    started = time.perf_counter()
    pick = search.choose(counting, state, 0, actions, np.random.default_rng(0), playouts=200)
    assert len(ends) <= 200 and time.perf_counter() - started < 5.0
    assert pick % 7 == 3  # among the 50 actions it could compare, it found a winning one


def test_a_time_budget():
    pig = load(EXAMPLES / "pig.py")
    state = pig.start(2, defaults(pig))
    started = time.perf_counter()
    search.choose(pig, state, 0, ["roll", "hold"], np.random.default_rng(0), seconds=0.05)
    assert time.perf_counter() - started < 0.5


def test_winners_as_a_generator():
    text = (EXAMPLES / "noughts.py").read_text()
    source = text.replace(
        "return [owner] if owner >= 0 else []", "yield from ([owner] if owner >= 0 else [])"
    )
    assert source != text
    game = from_source("noughts_generator.py", source)
    state = {"cells": [0, 0, -1, 1, 1, -1, -1, -1, -1], "mover": 0, "moves": 4, "centre": True}
    assert search.choose(game, state, 0, game.legal_actions(state), np.random.default_rng(0)) == 2


# -- greedy follows the game's ending ------------------------------------------------------------
STEP = """
players = (2, 2)
{extra}
def start(players, rules): return {{"points": [3, 3], "done": False}}
def to_move(state): return None if state["done"] else 0
def legal_actions(state): return ["small", "large", "end"]
def chance_outcomes(state): return []
def apply(state, action):
    if action == "end":
        state["done"] = True
    else:
        state["points"] = [1 if action == "small" else 5, 3]
    return state
def scores(state): return list(state["points"])
def winners(state): return [0] if state["points"][0] < 3 else [1]
def returns(state): return [-1.0, 1.0] if state["done"] else [0.0, 0.0]
"""


@pytest.mark.parametrize(
    ("extra", "answer"),
    [("", "large"), ("lowest_score_wins = True", "small"), ("objective = 'return'", "large")],
)
def test_greedy_reads_scores_the_games_way(extra, answer):
    """Greedy leads on the scores counted the game's way (the lowest ahead where lowest scores
    win); a finished game counts by how it ended (ending now loses, for the win and the return
    alike)."""
    from simulator.games.own_game.spec import _greedy

    name = f"step_{len(extra)}"
    game = from_source(f"{name}.py", STEP.format(extra=extra))
    state = game.start(2, {})
    pick = _greedy(game)(state, 0, game.legal_actions(state), np.random.default_rng(0))
    assert pick == answer
