"""The value the search learns from a game file's scores (``search_value = "scores"``): fitted on
the rollout policy's games, held to the exact value of Pig computed here by value iteration,
refused by its gate where the scores say nothing or say it backwards, and a simulation judged by
it ends when the turn passes."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from simulator.contract.errors import BalanceError
from simulator.games.own_game import search
from simulator.games.own_game.loader import from_source, load
from simulator.games.own_game.spec import search_value, value_verdict
from simulator.games.own_game.value import fit, learned_value

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GOAL = 30


@pytest.fixture(scope="module")
def pig():
    return load(EXAMPLES / "pig.py")


def pig_with(scores_line: str):
    """Pig whose ``scores`` is replaced by ``scores_line`` (the body of the function)."""
    source = (EXAMPLES / "pig.py").read_text()
    old = 'def scores(state):\n    return list(state["scores"])\n'
    assert old in source
    return from_source("pig_scored.py", source.replace(old, f"def scores(state):\n{scores_line}\n"))


def hold_value(goal: int, faces: int, at: int) -> dict:
    """The exact chance that the seat to move wins two-seat Pig when both hold at ``at`` (or on
    reaching the goal): (own points, other's points, turn's points) -> probability, by value
    iteration."""
    v = {(i, j, t): 0.5 for i in range(goal) for j in range(goal) for t in range(goal - i + faces)}
    while True:
        change = 0.0
        for (i, j, t), old in v.items():
            if i + t >= goal:
                new = 1.0
            elif t >= at:
                new = 1.0 - v[j, i + t, 0]
            else:
                new = (1.0 - v[j, i, 0]) / faces + sum(
                    1.0 if i + t + f >= goal else v[i, j, t + f] for f in range(2, faces + 1)
                ) / faces
            v[i, j, t] = new
            change = max(change, abs(new - old))
        if change < 1e-10:
            return v


def test_the_value_of_pig_follows_the_exact_value(pig):
    """Fitted on 2,000 games of hold at 20 to 30 points, the chance each seat is given at a
    turn's start is within a few points of the exact one over the positions the games reach."""
    rules = {"goal": GOAL, "faces": 6}
    learned = fit(pig, rules, 2, pig.policies["hold"].function)
    assert learned.usable, learned.why
    exact = hold_value(GOAL, 6, 20)
    errors = []
    for i in range(0, GOAL, 3):
        for j in range(0, GOAL, 3):
            mover_first = learned.shares([i, j], 0)[0]
            errors.append(abs(mover_first - exact[i, j, 0]))
            waiting = learned.shares([i, j], 1)[0]  # seat 1 to move: seat 0's chance
            errors.append(abs(waiting - (1.0 - exact[j, i, 0])))
    assert np.mean(errors) < 0.04, np.mean(errors)
    assert abs(learned.shares([0, 0], 0)[0] - exact[0, 0, 0]) < 0.03
    assert learned.brier < min(learned.brier_constant, learned.brier_difference)


def test_the_fit_is_the_same_in_every_process(pig):
    rules = {"goal": GOAL, "faces": 6}
    hold = pig.policies["hold"].function
    a = fit(pig, rules, 2, hold, games=300)
    b = fit(pig, rules, 2, hold, games=300)
    assert np.array_equal(a.moving, b.moving) and np.array_equal(a.waiting, b.waiting)
    assert learned_value(pig, rules, 2, hold, "hold") is learned_value(pig, rules, 2, hold, "hold")


@pytest.mark.parametrize(
    "body, why",
    [
        ("    return [0] * len(state['scores'])", "no better than"),  # scores that say nothing
        ("    return [-p for p in state['scores']]", "does not rise"),  # backwards
    ],
)
def test_the_gate_refuses_scores_that_mislead(body, why):
    game = pig_with(body)
    learned = fit(game, {"goal": GOAL, "faces": 6}, 2, game.policies["hold"].function)
    assert not learned.usable and why in learned.why
    verdict = value_verdict(game, {"goal": GOAL, "faces": 6}, 2)
    assert verdict.startswith("not used (") and "play to the end" in verdict


def moves_a_simulation(game, value: str) -> float:
    rules = {"goal": 100, "faces": 6}
    state = game.start(2, dict(rules))
    hold = functools.partial(game.policies["hold"].function, at=20)
    search.choose(game, state, 0, ["roll", "hold"], np.random.default_rng(3), playouts=200,
                  moves=0, rollout=hold, value=value, rules=rules, rollout_key="hold")  # fmt: skip
    return search.effort["moves"] / search.effort["simulations"]


def test_a_simulation_judged_by_the_value_ends_with_the_turn(pig):
    """From the first decision of Pig to 100, a simulation played out lasts hundreds of moves;
    judged by the value it stops when the turn passes (a few rolls, two moves each)."""
    assert moves_a_simulation(pig, "playout") > 100
    assert moves_a_simulation(pig, "scores") < 20


def test_a_value_refused_leaves_the_simulations_to_the_end():
    game = pig_with("    return [-p for p in state['scores']]")
    assert moves_a_simulation(game, "scores") > 100


def test_the_file_says_which_value(pig):
    assert search_value(pig) == "scores"
    assert value_verdict(pig, {"goal": 100, "faces": 6}, 2).startswith("learned from hold games")
    plain = load(EXAMPLES / "no_thanks.py")
    assert search_value(plain) == "playout" and value_verdict(plain, {}, 4) is None
    odd = from_source("odd.py", (EXAMPLES / "pig.py").read_text() + '\nsearch_value = "deep"\n')
    with pytest.raises(BalanceError, match="search_value = 'deep'"):
        search_value(odd)
