"""The search player's evaluation: a model of "this seat wins", fitted to the rules in force.

A search simulation that stops at its horizon scores every seat with the game's features of the
position (``SearchHooks.features``, compiled in ``simulator/games/<game>/forward.py``) through a
logistic regression on each seat's features minus the mean of the other seats'
(:func:`simulator.search.tree.evaluate`). The model is fitted here on positions recorded from
self-play of the game's strongest hand-written policy under the run's own rules and player count,
so a rule variant gets its own fit as it gets its own games. A fit is quick, deterministic (the
self-play seed is fixed) and kept in the cache folder under a key made of the game, the rules,
the contents of the data files replaced (``RuleSet.data``), the player count and the engines'
source, so a resume and every cluster worker use the same coefficients; the run's manifest
records them with the fit's quality, and ``verify`` and ``replay`` read them from there.

Quality is measured on a quarter of the games held out of the fit: log loss against the constant
model (every seat an even share), and calibration (the held-out positions in ten bins of the
predicted share: mean prediction against the share that won). A fit whose held-out log loss is
not at least ``MARGIN`` (2%) below the constant model's has not earned its place: the search
seats play every simulation to the end instead (``horizon=0``), and the run says so.

A study fits its distinct keys together (:func:`fitted_evaluations`): the ones not in the cache
in ``jobs`` worker processes, once per key. Entries of other engine sources, and entries unused
for ``KEEP_DAYS``, are pruned from the cache after a fit (:func:`prune`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from simulator.compiling.jit import cache_root, engine_source
from simulator.contract.policy import MAX_FEATURES, SEARCH_POLICY, SeatPolicy, parse_policy
from simulator.contract.registry import GameSpec
from simulator.contract.rules import RuleSet

FIT_SEED = 20261201  # self-play seed of every fit: the same rules give the same coefficients
HELD_OUT = 4  # every 4th game is held out of the fit to measure its quality
FORMAT = 2  # 2: the key covers the data files' contents
# A fit is used only when its held-out log loss is at least this share below even shares'.
MARGIN = 0.02
KEEP_DAYS = 30  # cache entries of the current sources unused this long are pruned
OTHER_SOURCE_DAYS = 1  # entries of other engine sources (another checkout may still use them)
# Seconds to start fitting in worker processes (an interpreter importing the simulator,
# scikit-learn and the recorder): measured about 5 s on 2 cores (docs/performance.md).
WORKER_START = 5.0


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
        """The values a search player's parameter row carries
        (``simulator.search.tree.evaluate``)."""
        return (self.intercept, *self.weights)

    @property
    def gain(self) -> float:
        """How much lower the held-out log loss is than even shares' (a share of theirs)."""
        return 1.0 - self.log_loss / self.constant_log_loss if self.constant_log_loss else 0.0

    @property
    def used(self) -> bool:
        """Has the fit earned its place (at least ``MARGIN`` better than even shares)?"""
        return self.gain >= MARGIN

    def manifest(self) -> dict[str, Any]:
        out = asdict(self)
        out["coefficients"] = dict(zip(self.features, self.weights, strict=True))
        del out["weights"]
        out["used"] = self.used
        out["margin"] = MARGIN
        out["fallback"] = None if self.used else self.fallback()
        return out

    @classmethod
    def from_manifest(cls, recorded: dict[str, Any]) -> Evaluation:
        """The evaluation a run's manifest holds (``manifest()`` read back)."""
        names = {f.name for f in fields(cls)} - {"weights"}
        data = {k: v for k, v in recorded.items() if k in names}
        data["features"] = tuple(recorded["features"])
        data["weights"] = tuple(float(recorded["coefficients"][f]) for f in data["features"])
        data["calibration"] = tuple(tuple(b) for b in recorded["calibration"])
        return cls(**data)

    def describe(self) -> str:
        """One line for a person: what it was fitted on and how well it predicts."""
        return (
            f"logistic model on {len(self.features)} features, fitted on {self.positions:,} "
            f"positions of {self.games:,} {self.policy} self-play games; held-out log loss "
            f"{self.log_loss:.3f} against {self.constant_log_loss:.3f} for even shares "
            f"({self.gain:.1%} better)"
        )

    def fallback(self, played: bool = True) -> str:
        """What a run whose fit has not earned its place did (or, planned, does) instead."""
        return (
            f"the search's evaluation predicts the winner only {self.gain:.1%} better than even "
            f"shares (held-out log loss {self.log_loss:.3f} against {self.constant_log_loss:.3f};"
            f" a fit is used from {MARGIN:.0%} better), so the search "
            f"{'played' if played else 'plays'} every simulation to the end (horizon=0) instead"
        )


def recorded_evaluation(manifest: dict[str, Any]) -> Evaluation | None:
    """The search's evaluation a run's manifest holds (None: it has none, or a damaged one, which
    the comparison of configurations then refuses)."""
    if not isinstance(manifest.get("evaluation"), dict):
        return None
    try:
        return Evaluation.from_manifest(manifest["evaluation"])
    except (KeyError, TypeError, ValueError):
        return None


def needs_evaluation(seat: SeatPolicy) -> bool:
    """A search player that stops its simulations at a horizon."""
    if seat.policy.name != SEARCH_POLICY:
        return False
    names = [p.name for p in seat.policy.params]
    return "horizon" in names and seat.values[names.index("horizon")] > 0


def full_playouts(seat: SeatPolicy) -> SeatPolicy:
    """A search seat that plays every simulation to the end (its label unchanged)."""
    names = [p.name for p in seat.policy.params]
    values = list(seat.values)
    values[names.index("horizon")] = 0.0
    return replace(seat, played=tuple(values))


def with_evaluation(
    seats: tuple[SeatPolicy, ...], found: Evaluation | None
) -> tuple[SeatPolicy, ...]:
    """The seats with ``found`` in every search player's row that needs one; when the fit has
    not earned its place, those seats play to the end instead."""
    if found is None:
        return seats
    if not found.used:
        return tuple(full_playouts(s) if needs_evaluation(s) else s for s in seats)
    row = found.row()
    return tuple(replace(s, evaluation=row) if needs_evaluation(s) else s for s in seats)


def attach_evaluations(
    spec: GameSpec, rules: RuleSet, seats: tuple[SeatPolicy, ...]
) -> tuple[tuple[SeatPolicy, ...], Evaluation | None]:
    """The seats with the fitted evaluation in every search player's row that needs one."""
    if not wants_evaluation(spec, seats):
        return seats, None
    found = fitted_evaluation(spec, rules, len(seats))
    return with_evaluation(seats, found), found


def stand_in_evaluation(config: Any) -> Evaluation:
    """An evaluation of zeros for ``config``'s game (a :class:`simulator.runs.plan.RunConfig` whose
    search wants one): what compiling its engine needs (the types of the seats' rows) before
    the real fit exists. Never played as a run's."""
    hooks = config.spec.search_hooks
    features = tuple(hooks.features)
    return Evaluation(
        game=config.spec.id, players=config.n_players, policy="stand-in", features=features,
        intercept=0.0, weights=(0.0,) * len(features), games=0, positions=0, log_loss=0.0,
        constant_log_loss=0.0, calibration=(), key="stand-in",
    )  # fmt: skip


def wants_evaluation(spec: GameSpec, seats: Sequence[SeatPolicy]) -> bool:
    return spec.search_hooks is not None and any(needs_evaluation(s) for s in seats)


_SAID: set[str] = set()


def say_fallback(found: Evaluation, where: str = "") -> None:
    """The fallback on the terminal, once per fit and process."""
    if found.used or found.key in _SAID:
        return
    _SAID.add(found.key)
    print(f"balance: {where}{found.fallback(played=False)}", file=sys.stderr, flush=True)


def evaluation_key(spec: GameSpec, rules: RuleSet, players: int) -> str:
    """The cache key of the fit of ``spec``'s evaluation under ``rules`` at ``players`` seats:
    the game, the rules, the replaced data files' contents, the player count, the self-play
    policy and games, the features, the engines' source and scikit-learn's version."""
    import sklearn

    hooks = spec.search_hooks
    assert hooks is not None
    text = json.dumps(
        {
            "format": FORMAT,
            "game": spec.id,
            "rules": rules.to_dict(),
            "data": {d.name: d.sha256 for d in rules.data},
            "players": players,
            "policy": spec.best_heuristic,
            "games": hooks.fit_games,
            "features": list(hooks.features),
            "engine": engine_source(),
            "sklearn": sklearn.__version__,
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_folder() -> Path:
    """Where this version of the sources keeps its fits."""
    return cache_root() / "evaluations" / engine_source()


def _path(folder: Path, game: str, players: int, key: str) -> Path:
    return folder / f"{game}-{players}p-{key}.json"


def _read(path: Path) -> Evaluation | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        data["features"] = tuple(data["features"])
        data["weights"] = tuple(data["weights"])
        data["calibration"] = tuple(tuple(b) for b in data["calibration"])
        found = Evaluation(**data)
    except (ValueError, TypeError, KeyError, OSError):
        return None  # a damaged cache entry is fitted again
    try:
        os.utime(path)  # used now: kept by the pruning
    except OSError:
        pass
    return found


def _fit_and_store(
    spec: GameSpec, rules: RuleSet, players: int, key: str, path: Path, loud: bool
) -> Evaluation:
    """Fit one evaluation and write it to ``path`` (in the calling process or a worker)."""
    policy, games = spec.best_heuristic, spec.search_hooks.fit_games
    if loud:
        print(
            f"balance: fitting the search's evaluation for {spec.id} at {players} players on "
            f"{games} games of {policy} self-play (once for these rules; kept in the cache)",
            file=sys.stderr,
            flush=True,
        )
    found = fit(spec, rules, players, policy, games, key)
    if loud:
        print(f"balance: evaluation: {found.describe()}", file=sys.stderr, flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(asdict(found)))
    tmp.replace(path)
    return found


def fitted_evaluation(spec: GameSpec, rules: RuleSet, players: int) -> Evaluation:
    """The evaluation of ``spec``'s search under ``rules`` at ``players`` seats: from the cache,
    else fitted now (and cached)."""
    return fitted_evaluations([(spec, rules, players)])[0]


def fitted_evaluations(
    settings: Sequence[tuple[GameSpec, RuleSet, int]], jobs: int = 1
) -> list[Evaluation]:
    """The evaluation of every (game, rules, players) setting, in order: each distinct key read
    from the cache or fitted once. The first missing fit is made here (compiling or loading the
    recorder, so workers load it), and so is each next one while they are cheap; once the rest
    would take ``jobs`` worker processes (joblib, loky) less time than here, counting the
    ``WORKER_START`` seconds of starting them, the rest are fitted in the workers."""
    folder = cache_folder()
    keys = [evaluation_key(spec, rules, n) for spec, rules, n in settings]
    found: dict[str, Evaluation] = {}
    missing: dict[str, tuple[GameSpec, RuleSet, int]] = {}
    for setting, key in zip(settings, keys, strict=True):
        if key in found or key in missing:
            continue
        hit = _read(_path(folder, setting[0].id, setting[2], key))
        if hit is not None:
            found[key] = hit
        else:
            missing[key] = setting
    todo = list(missing.items())
    if len(todo) > 1 and jobs > 1:
        games = ", ".join(sorted({spec.id for spec, _, _ in missing.values()}))
        print(
            f"balance: fitting the search's evaluation for {len(todo)} rule sets of {games} "
            "(once each; kept in the cache)",
            file=sys.stderr,
            flush=True,
        )
    while todo:  # here, one at a time, until the workers would finish the rest sooner
        key, (spec, rules, n) = todo.pop(0)
        started = time.perf_counter()
        path = _path(folder, spec.id, n, key)
        found[key] = _fit_and_store(spec, rules, n, key, path, len(missing) == 1 or jobs <= 1)
        took = time.perf_counter() - started  # the first also compiled (or loaded) the recorder
        if jobs > 1 and len(todo) * took * (1 - 1 / min(jobs, len(todo) or 1)) > WORKER_START:
            break
    if todo:
        from joblib import Parallel, delayed

        done = Parallel(n_jobs=min(jobs, len(todo)), backend="loky")(
            delayed(_fit_and_store)(spec, rules, n, key, _path(folder, spec.id, n, key), False)
            for key, (spec, rules, n) in todo
        )
        found.update(zip((key for key, _ in todo), done, strict=True))
    if missing:
        prune()
    return [found[k] for k in keys]


def prune(now: float | None = None) -> list[Path]:
    """Remove cache entries no run will read: every entry of another engine source unused for
    ``OTHER_SOURCE_DAYS`` (a checkout still on it fits again), and entries of the current
    sources unused for ``KEEP_DAYS`` (a read counts as a use). Returns what was removed."""
    root = cache_root() / "evaluations"
    if not root.is_dir():
        return []
    now = time.time() if now is None else now
    current = engine_source()
    removed: list[Path] = []
    for folder in root.iterdir():
        days = KEEP_DAYS if folder.name == current else OTHER_SOURCE_DAYS
        try:
            if not folder.is_dir():  # an entry of the layout before one folder per source
                if now - folder.stat().st_mtime > OTHER_SOURCE_DAYS * 86400:
                    folder.unlink()
                    removed.append(folder)
                continue
            for entry in list(folder.iterdir()):
                if now - entry.stat().st_mtime > days * 86400:
                    entry.unlink()
                    removed.append(entry)
            if folder.name != current and not any(folder.iterdir()):
                folder.rmdir()
                removed.append(folder)
        except OSError:
            continue  # another process pruning or writing: left for the next time
    return removed


def relative(features: np.ndarray) -> np.ndarray:
    """Each seat's features minus the mean of the other seats' (positions x seats x features)."""
    n = features.shape[1]
    total = features.sum(axis=1, keepdims=True)
    return features - (total - features) / max(n - 1, 1)


def shares(intercept: float, weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The evaluation of every seat (positions x seats), as ``simulator.search.tree.evaluate``."""
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
