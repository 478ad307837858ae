"""A value learned from a game file's own scores: the search's simulations may stop when the turn
passes and be judged by it (``-p mcts:value=scores``, or ``search_value = "scores"`` in the file).

Why: in a game as long as Pig, a simulation to the end costs hundreds of moves, so the default
budget buys a few dozen, and two actions a few points apart cannot be told apart on so few. A
simulation that stops when the seat's turn is over costs a handful of moves, and the value says
what the position it reaches is worth.

What is learned: ``GAMES`` games of the rollout policy at every seat, from the start under the
rules in play. At every turn's first decision (``turn(state)`` changed) each seat's row is its
own points, the best rival's, whether it moves next, and the share of the win it went on to get.
Points are the file's ``scores`` (negated where the lowest score wins) divided by the largest
final points seen. The model is a logistic regression on the cubic terms of (own, rival),
one for a seat about to move and one for a seat that is not.

The gate (a value that fails it is not used: simulations play to the end, and ``balance
policies`` says why): on the last fifth of the games, held out, its Brier score beats both the
constant and a logistic on the difference of points alone; and on every position the games
visited, it rises with the seat's own points and falls with the rival's. A smooth, monotone
model is what plays well: in Pig to 100 a fitted value that passes this gate makes the
turn-horizon search win about 54% against ``hold`` at 20 (exactly computed), while fits with a
Brier score as good that bend the wrong way somewhere (binned, isotonic, boosted trees) fall to
50% or below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .loader import GameFile

GAMES = 2000  # self-play games the value is fitted on (in Pig, more gained nothing)
HELD_OUT = 0.2  # the share of the games (the last ones) the gate judges it on
RIDGE = 1e-4  # a light penalty on the coefficients: a corner few games reach stays tame
SEED = 20_240  # the self-play's seeds start here: the same value in every process


@dataclass(frozen=True)
class ScoreValue:
    """The fitted value, or why there is none (``why``)."""

    why: str | None  # None: it passed the gate and the search uses it
    scale: float = 1.0
    sign: float = 1.0
    moving: np.ndarray | None = None  # coefficients for a seat about to move
    waiting: np.ndarray | None = None  # ... and for a seat that is not
    brier: float = float("nan")  # held out
    brier_constant: float = float("nan")
    brier_difference: float = float("nan")
    rows: int = 0

    @property
    def usable(self) -> bool:
        return self.why is None

    def shares(self, scores: list, mover: Any) -> list[float]:
        """Each seat's expected share of the win from a turn's first decision: the model's
        chance for every seat, scaled to sum to 1."""
        points = [self.sign * float(x) / self.scale for x in scores]
        n = len(points)
        out = []
        for i in range(n):
            rival = max(p for j, p in enumerate(points) if j != i)
            coef = self.moving if mover == i else self.waiting
            out.append(_sigmoid(float(_terms(points[i], rival) @ coef)))  # type: ignore[operator]
        total = sum(out)
        return [x / total for x in out] if total > 0 else [1.0 / n] * n


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def _terms(x: Any, y: Any) -> np.ndarray:
    """The cubic terms of (own, rival): 1, x, y, x^2, xy, y^2, x^3, x^2 y, x y^2, y^3."""
    one = np.ones_like(np.asarray(x, dtype=float))
    return np.stack([one, x, y, x * x, x * y, y * y, x**3, x * x * y, x * y * y, y**3], axis=-1)


def _slopes(coef: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The logit's slope in own points and in the rival's, at each (x, y)."""
    c = coef
    dx = c[1] + 2 * c[3] * x + c[4] * y + 3 * c[6] * x * x + 2 * c[7] * x * y + c[8] * y * y
    dy = c[2] + c[4] * x + 2 * c[5] * y + c[7] * x * x + 2 * c[8] * x * y + 3 * c[9] * y * y
    return dx, dy


def _logistic(features: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Coefficients of a logistic regression (shares in [0, 1] allowed), by Newton's method."""
    k = features.shape[1]
    coef = np.zeros(k)
    penalty = RIDGE * np.eye(k)
    penalty[0, 0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(features @ coef, -50, 50)))
        gradient = features.T @ (p - target) / len(target) + penalty @ coef
        w = p * (1 - p) / len(target)
        hessian = (features * w[:, None]).T @ features + penalty + 1e-10 * np.eye(k)
        step = np.linalg.solve(hessian, gradient)
        coef -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return coef


def _predict(coef: np.ndarray, features: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(features @ coef, -50, 50)))


def why_not(game: GameFile, players: int) -> str | None:
    """Why a value cannot be learned from this file's scores at all, or None."""
    if game.scores is None:
        return f"{game.name}.py has no scores(state) to learn a value from"
    if game.turn is None:
        return f"{game.name}.py has no turn(state): the simulations could not tell a turn's end"
    if not game.scores_during_play:
        return f"{game.name}.py says its scores are known only at the end (scores_during_play)"
    if game.cooperative or game.objective == "return":
        return "the value learned from scores is a chance to win against rivals"
    if players < 2:
        return "a one-seat game has no rival to weigh the scores against"
    return None


_LEARNED: dict[tuple, ScoreValue] = {}


def learned_value(
    game: GameFile, rules: dict, players: int, rollout: Any, rollout_key: str
) -> ScoreValue:
    """The value for ``game`` under ``rules`` at ``players`` seats with ``rollout`` playing
    every seat, fitted once per process (``rollout_key`` names the rollout and its
    parameters)."""
    key = (getattr(game, "sha256", game.name), tuple(sorted(rules.items())), players, rollout_key)
    if key not in _LEARNED:
        _LEARNED[key] = fit(game, rules, players, rollout)
    return _LEARNED[key]


def fit(game: GameFile, rules: dict, players: int, rollout: Any, games: int = GAMES) -> ScoreValue:
    """Play ``games`` games of ``rollout`` (None: random) and fit the value on them."""
    why = why_not(game, players)
    if why:
        return ScoreValue(why)
    sign = -1.0 if game.lowest_score_wins else 1.0
    rows: list[tuple[int, int, float, float, int]] = []  # game, seat, own, rival, moves next
    labels: list[float] = []
    finals: list[float] = []
    for g in range(games):
        seen, shares, last = _one_game(game, rules, players, rollout, SEED + g, sign)
        finals.append(last)
        for points, mover in seen:
            for i in range(players):
                rival = max(p for j, p in enumerate(points) if j != i)
                rows.append((g, i, points[i], rival, int(mover == i)))
                labels.append(shares[i])
    if not rows:
        return ScoreValue("the games gave no turn to learn from")
    scale = max(abs(x) for x in finals) or 1.0
    data = np.array(rows, dtype=float)
    target = np.array(labels)
    x, y = data[:, 2] / scale, data[:, 3] / scale
    features = _terms(x, y)
    difference = np.stack([np.ones_like(x), x - y], axis=-1)
    moves = data[:, 4] == 1
    train = data[:, 0] < games * (1 - HELD_OUT)
    test = ~train
    coefs = {}
    predicted = np.empty(len(target))
    plain = np.empty(len(target))
    for side in (True, False):
        fit_on = train & (moves == side)
        if fit_on.sum() < 20 or (test & (moves == side)).sum() < 5:
            return ScoreValue("too few turns to learn from and to check on", scale, sign)
        coefs[side] = _logistic(features[fit_on], target[fit_on])
        plain_coef = _logistic(difference[fit_on], target[fit_on])
        on = moves == side
        predicted[on] = _predict(coefs[side], features[on])
        plain[on] = _predict(plain_coef, difference[on])
    brier = float(np.mean((predicted[test] - target[test]) ** 2))
    constant = float(np.mean((target[train].mean() - target[test]) ** 2))
    by_difference = float(np.mean((plain[test] - target[test]) ** 2))
    found = dict(
        scale=scale, sign=sign, moving=coefs[True], waiting=coefs[False], brier=brier,
        brier_constant=constant, brier_difference=by_difference, rows=len(rows),
    )  # fmt: skip
    if not brier < min(constant, by_difference):
        return ScoreValue(
            f"the value learned from scores predicted the held-out games no better than "
            f"{'the difference of points' if by_difference <= constant else 'a constant'} "
            f"(Brier {brier:.4f} against {min(constant, by_difference):.4f})",
            **found,
        )
    for side in (True, False):
        on = moves == side
        dx, dy = _slopes(coefs[side], x[on], y[on])
        if not (np.all(dx > 0) and np.all(dy < 0)):
            return ScoreValue(
                "the value learned from scores does not rise with a seat's own points and "
                "fall with its rival's everywhere the games went",
                **found,
            )
    return ScoreValue(None, **found)


def _one_game(
    game: GameFile, rules: dict, players: int, rollout: Any, seed: int, sign: float
) -> tuple[list[tuple[list[float], Any]], list[float], float]:
    """One game of the rollout policy: (the points and the mover at each turn's first decision,
    each seat's share of the win, the top final points)."""
    rng = np.random.default_rng(seed)
    state = game.start(players, dict(rules))
    seen: list[tuple[list[float], Any]] = []
    turn = None
    moves = 0
    limit = game.max_moves
    while (mover := game.to_move(state)) is not None and moves < limit:
        if mover == "chance":
            action = game.draw_chance(state, rng)
        else:
            now = game.turn(state)
            if now != turn:
                turn = now
                seen.append(([sign * float(p) for p in game.scores(state)], mover))
            actions = game.legal_actions(state)
            if rollout is None:
                action = actions[int(rng.integers(len(actions)))]
            else:
                action = rollout(state, mover, actions, rng)
        state = game.apply(state, action)
        moves += 1
    won = list(game.winners(state)) if game.to_move(state) is None else []
    shares = [1.0 / len(won) if i in won else 0.0 for i in range(players)] if won else None
    if shares is None:
        shares = [1.0 / players] * players  # nobody won: a draw, as the search counts it
    last = max(sign * float(p) for p in game.scores(state))
    return seen, shares, last
