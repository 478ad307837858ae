"""The search player's evaluation: a model of "this seat wins", fitted to the rules in force.

A search simulation that stops at its horizon scores every seat with the game's features of the
position (``SearchHooks.features``, compiled in ``simulator/<game>/forward.py``) through a
logistic regression on each seat's features minus the mean of the other seats'
(:func:`simulator.search.evaluate`). The model is fitted here on positions recorded from
self-play of the game's strongest hand-written policy under the run's own rules and player count,
so a rule variant gets its own fit as it gets its own games. A fit is quick, deterministic (the
self-play seed is fixed) and kept in the cache folder under a key made of the game, the rules,
the player count and the engines' source, so a replay, a resume and every cluster worker use the
same coefficients; the run's manifest records them with the fit's quality.

Quality is measured on a quarter of the games held out of the fit: log loss against the constant
model (every seat an even share), and calibration (the held-out positions in ten bins of the
predicted share: mean prediction against the share that won).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from .games import GameSpec
from .jit import cache_root, engine_source
from .policy import MAX_FEATURES, SeatPolicy, parse_policy
from .rules import RuleSet
from .search import SEARCH_POLICY

FIT_SEED = 20261201  # self-play seed of every fit: the same rules give the same coefficients
HELD_OUT = 4  # every 4th game is held out of the fit to measure its quality
FORMAT = 1


@dataclass(frozen=True)
class Evaluation:
    """A fitted evaluation and how good it is."""

    game: str
    players: int
    policy: str  # the self-play policy the positions come from
    features: tuple[str, ...]
    intercept: float
    weights: tuple[float, ...]
    games: int
    positions: int
    log_loss: float  # held-out positions, the fitted model
    constant_log_loss: float  # held-out positions, every seat an even share
    calibration: tuple[tuple[float, float, int], ...]  # (mean prediction, share won, positions)
    key: str

    def row(self) -> tuple[float, ...]:
        """The values a search player's parameter row carries (``simulator.search.evaluate``)."""
        return (self.intercept, *self.weights)

    def manifest(self) -> dict[str, Any]:
        out = asdict(self)
        out["coefficients"] = dict(zip(self.features, self.weights, strict=True))
        del out["weights"]
        return out

    def describe(self) -> str:
        """One line for a person: what it was fitted on and how well it predicts."""
        gain = 1.0 - self.log_loss / self.constant_log_loss if self.constant_log_loss else 0.0
        return (
            f"logistic model on {len(self.features)} features, fitted on {self.positions:,} "
            f"positions of {self.games:,} {self.policy} self-play games; held-out log loss "
            f"{self.log_loss:.3f} against {self.constant_log_loss:.3f} for even shares "
            f"({gain:.0%} better)"
        )


def needs_evaluation(seat: SeatPolicy) -> bool:
    """A search player that stops its simulations at a horizon."""
    if seat.policy.name != SEARCH_POLICY:
        return False
    names = [p.name for p in seat.policy.params]
    return "horizon" in names and seat.values[names.index("horizon")] > 0


def attach_evaluations(
    spec: GameSpec, rules: RuleSet, seats: tuple[SeatPolicy, ...]
) -> tuple[tuple[SeatPolicy, ...], Evaluation | None]:
    """The seats with the fitted evaluation in every search player's row that needs one."""
    if spec.search_hooks is None or not any(needs_evaluation(s) for s in seats):
        return seats, None
    found = fitted_evaluation(spec, rules, len(seats))
    row = found.row()
    return tuple(replace(s, evaluation=row) if needs_evaluation(s) else s for s in seats), found


def _key(spec: GameSpec, rules: RuleSet, players: int, policy: str, games: int) -> str:
    import sklearn

    text = json.dumps(
        {
            "format": FORMAT,
            "game": spec.id,
            "rules": rules.to_dict(),
            "players": players,
            "policy": policy,
            "games": games,
            "features": list(spec.search_hooks.features),
            "engine": engine_source(),
            "sklearn": sklearn.__version__,
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def fitted_evaluation(spec: GameSpec, rules: RuleSet, players: int) -> Evaluation:
    """The evaluation of ``spec``'s search under ``rules`` at ``players`` seats: from the cache,
    else fitted now (and cached)."""
    hooks = spec.search_hooks
    assert hooks is not None
    policy = spec.best_heuristic
    games = hooks.fit_games
    key = _key(spec, rules, players, policy, games)
    path = cache_root() / "evaluations" / f"{spec.id}-{players}p-{key}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            data["features"] = tuple(data["features"])
            data["weights"] = tuple(data["weights"])
            data["calibration"] = tuple(tuple(b) for b in data["calibration"])
            return Evaluation(**data)
        except (ValueError, TypeError, KeyError):
            pass  # a damaged cache entry is fitted again
    print(
        f"balance: fitting the search's evaluation for {spec.id} at {players} players on "
        f"{games} games of {policy} self-play (once for these rules; kept in the cache)",
        file=sys.stderr,
        flush=True,
    )
    found = fit(spec, rules, players, policy, games, key)
    print(f"balance: evaluation: {found.describe()}", file=sys.stderr, flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(asdict(found)))
    tmp.replace(path)
    return found


def relative(features: np.ndarray) -> np.ndarray:
    """Each seat's features minus the mean of the other seats' (positions x seats x features)."""
    n = features.shape[1]
    total = features.sum(axis=1, keepdims=True)
    return features - (total - features) / max(n - 1, 1)


def shares(intercept: float, weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The evaluation of every seat (positions x seats), as ``simulator.search.evaluate``."""
    z = np.clip(intercept + relative(features) @ weights, -30.0, 30.0)
    p = 1.0 / (1.0 + np.exp(-z))
    return p / p.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Model:
    """Fitted coefficients in the features' own units, and their quality on held-out games."""

    intercept: float
    weights: np.ndarray
    log_loss: float
    constant_log_loss: float
    calibration: tuple[tuple[float, float, int], ...]


def fit_model(features: np.ndarray, winner: np.ndarray, game: np.ndarray) -> Model:
    """Fit the logistic model on recorded positions (features[positions, seats, m], the winner
    of each position's game, -1 for nobody, and the game's index); every ``HELD_OUT``-th game is
    held out to measure the fit. Rules under which nobody wins give the unfitted model (every
    weight 0: even shares)."""
    from sklearn.linear_model import LogisticRegression

    feats = np.asarray(features, dtype=np.float64)
    winner = np.asarray(winner, dtype=np.int64)
    players = feats.shape[1]
    held = (np.asarray(game) % HELD_OUT) == HELD_OUT - 1
    won = winner[:, None] == np.arange(players)[None, :]
    x = relative(feats)
    train_x = x[~held].reshape(-1, x.shape[2])
    train_y = won[~held].reshape(-1)
    if len(np.unique(train_y)) < 2:  # nobody won (or every seat always did): nothing to learn
        constant = float(np.log(players))
        return Model(0.0, np.zeros(x.shape[2]), constant, constant, ())
    mean = train_x.mean(axis=0)
    sd = train_x.std(axis=0)
    sd[sd == 0.0] = 1.0
    model = LogisticRegression(C=1.0, max_iter=2000)  # standardised, so the penalty is even
    model.fit((train_x - mean) / sd, train_y)
    weights = model.coef_[0] / sd
    intercept = float(model.intercept_[0] - (model.coef_[0] * mean / sd).sum())
    test = shares(intercept, weights, feats[held])
    truth = won[held]
    decided = winner[held] >= 0
    log_loss = float(-np.log(np.maximum(test[decided][truth[decided]], 1e-12)).mean())
    edges = np.linspace(0.0, 1.0, 11)
    calibration = []
    flat_p, flat_y = test.reshape(-1), truth.reshape(-1)
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (flat_p >= lo) & ((flat_p < hi) | (hi == 1.0))
        if inside.any():
            calibration.append(
                (float(flat_p[inside].mean()), float(flat_y[inside].mean()), int(inside.sum()))
            )
    return Model(intercept, weights, log_loss, float(np.log(players)), tuple(calibration))


def fit(
    spec: GameSpec, rules: RuleSet, players: int, policy: str, games: int, key: str = ""
) -> Evaluation:
    """Record positions of ``games`` self-play games of ``policy`` and fit the model."""
    hooks = spec.search_hooks
    assert hooks is not None
    if len(hooks.features) > MAX_FEATURES:
        raise ValueError(f"{spec.id}: more than {MAX_FEATURES} evaluation features")
    seat = parse_policy(policy, spec.policies, spec.id)
    ids = np.full(players, seat.policy.id, dtype=np.int64)
    params = np.stack([seat.row()] * players)
    feats, winner, game = hooks.record(rules, players, ids, params, games, FIT_SEED)
    model = fit_model(feats, winner, game)
    return Evaluation(
        game=spec.id,
        players=players,
        policy=policy,
        features=tuple(hooks.features),
        intercept=model.intercept,
        weights=tuple(float(w) for w in model.weights),
        games=games,
        positions=int(len(winner)),
        log_loss=model.log_loss,
        constant_log_loss=model.constant_log_loss,
        calibration=model.calibration,
        key=key,
    )
