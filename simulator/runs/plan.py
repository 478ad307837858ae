"""A run request validated into a :class:`RunConfig`, and the one function that plays a chunk of
it (in a worker process, whichever backend runs it).

The run's seed is split with ``SeedSequence(seed)``: chunk ``i`` uses child ``i`` (spawn key
``(i,)``) to draw one uint32 seed per game. A chunk's games therefore depend only on the seed, the
chunk size and the chunk's index: never on the number of jobs, the backend or finishing order.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from simulator.compiling.background_compile import compile_while_fitting
from simulator.contract.errors import BalanceError
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.contract.registry import get_game
from simulator.contract.rules import RuleSet, build_rules
from simulator.folders.run_folder import EncodedPart, chunk_table, encode_part
from simulator.search.evaluation import (
    MARGIN,
    Evaluation,
    fitted_evaluations,
    say_fallback,
    with_evaluation,
)

from .policy_file import PolicyFile, engine_tuples, load_policies, read_policy_file, seat_slots
from .requests import PlayRequest
from .run_config import RunConfig

MAX_CHUNK = 10_000
MIN_CHUNK = 250


def default_chunk_size(games: int) -> int:
    """About 32 chunks per run, between 250 and 10,000 games each (depends on games only)."""
    return min(MAX_CHUNK, max(MIN_CHUNK, -(-games // 32)))


def chunk_seeds(seed: int, chunk_index: int, n: int) -> np.ndarray:
    """One uint32 seed per game of chunk ``chunk_index`` (child ``chunk_index`` of the run seed)."""
    child = np.random.SeedSequence(seed, spawn_key=(chunk_index,))
    return child.generate_state(n, dtype=np.uint32)


def plan_run(
    request: PlayRequest | str,
    games: int | None = None,
    *,
    rules: RuleSet | None = None,
    chunk_size: int | None = None,
    fit: bool = True,
    evaluation: Evaluation | None = None,
    **fields: Any,
) -> RunConfig:
    """Validate a run request (raises BalanceError naming the problem).

    ``plan_run(PlayRequest(...))``, or the same fields as keywords: ``plan_run(game, games,
    players=..., policies=..., ...)``. ``rules`` replaces the rules the request would build.
    The request's ``policy_file`` (a designer's policies, usable by name beside the built-in
    ones) is read, checked and compiled here, and its ``data`` (replaced data files) read and
    checked, before anything is written.

    A search seat with a horizon gets the evaluation fitted to the rules (from the cache, else
    fitted here); ``evaluation`` gives it instead (a replay: the manifest's), and ``fit=False``
    leaves it to :func:`with_evaluations`, which fits a study's distinct keys together."""
    if isinstance(request, str):
        request = PlayRequest(request, games, **fields)  # type: ignore[arg-type]
    elif games is not None or fields:
        raise TypeError("plan_run takes a PlayRequest or the request's fields, not both")
    game, games, players, seed = request.game, request.games, request.players, request.seed
    policies, sets, variant, data = request.policies, request.sets, request.variant, request.data
    policy_file = request.policy_file
    spec = get_game(game)
    if games < 1:
        raise BalanceError(f"-n must be at least 1 game, not {games}")
    if seed < 0:
        raise BalanceError(f"--seed must be a non-negative integer, not {seed}")
    n_players = players if players is not None else spec.default_players
    spec.check_players(n_players)
    registry = spec.policies
    if policy_file is not None:
        if not isinstance(policy_file, PolicyFile):
            policy_file = read_policy_file(policy_file)
        registry = {**registry, **load_policies(spec, policy_file).definitions}
    seats = seat_policies(policies or [spec.default_policy], registry, spec.id, n_players)
    if rules is None:
        rules, name = build_rules(spec.rules_class, variant, sets, data)
    else:
        name = "default" if not rules.changed() else "custom"
    size = chunk_size or default_chunk_size(games)
    if size < 1:
        raise BalanceError(f"--chunk-size must be at least 1, not {size}")
    spec.check_run(rules, n_players, seats)
    config = RunConfig(spec, rules, name, tuple(seats), seed, games, size, policy_file)
    if evaluation is not None and config.unfitted:
        return _given(config, evaluation)
    return with_evaluations([config])[0] if fit else config


def _given(config: RunConfig, found: Evaluation, loud: bool = True) -> RunConfig:
    if loud:
        say_fallback(found, f"{config.variant}: " if config.variant != "default" else "")
    return replace(config, seats=with_evaluation(config.seats, found), evaluation=found)


def with_evaluations(configs: list[RunConfig], jobs: int = 1) -> list[RunConfig]:
    """The runs with their search seats' evaluations: each distinct fit read from the cache or
    fitted once, the missing ones in ``jobs`` worker processes (a study's settings together).
    A fit that has not earned its place makes those seats play to the end, said on stderr."""
    todo = [i for i, c in enumerate(configs) if c.unfitted]
    compile_while_fitting([configs[i] for i in todo])  # the engine compiles beside the fit
    found = fitted_evaluations(
        [(configs[i].spec, configs[i].rules, configs[i].n_players) for i in todo], jobs
    )
    out = list(configs)
    for i, evaluation in zip(todo, found, strict=True):
        out[i] = _given(configs[i], evaluation, loud=len(todo) == 1)
    poor = {f.key for f in found if not f.used}
    if len(todo) > 1 and poor:
        print(
            f"balance: {len(poor)} of {len({f.key for f in found})} fitted evaluations predict "
            f"the winner less than {MARGIN:.0%} better than even shares: the searches of "
            f"{sum(not f.used for f in found)} of these {len(todo)} runs play every simulation "
            "to the end (each run's manifest and report say so)",
            file=sys.stderr,
            flush=True,
        )
    return out


def engine_seats(config: RunConfig) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """The seats as the engine takes them: policy ids, parameter rows, and the keyword arguments
    a policy file adds (``outside``: its compiled decisions)."""
    ids, params = engine_arrays(list(config.seats))
    extra: dict[str, Any] = {}
    if config.policy_file is not None and config.spec.outside is not None:
        ids, slots = seat_slots(ids, load_policies(config.spec, config.policy_file))
        extra["outside"] = engine_tuples(config.spec.id, config.spec.outside, slots)
    return ids, params, extra


def play_chunk(config: RunConfig, chunk_index: int, first: int, n: int) -> pl.DataFrame:
    """Play one chunk and return its table (runs in a worker process)."""
    if config.unfitted:
        raise RuntimeError("a run planned with fit=False was played before with_evaluations")
    seeds = chunk_seeds(config.seed, chunk_index, n)
    ids, params, extra = engine_seats(config)
    try:
        columns = config.spec.play_chunk(
            config.rules, config.n_players, ids, params, seeds, **extra
        )
    except BalanceError as exc:  # a game file's game: named by its index in the run
        at_chunk = getattr(exc, "at_chunk", None)
        if at_chunk is None:
            raise
        raise at_chunk(first) from None
    except ValueError as exc:  # an engine refusing an answer (an illegal card...)
        if config.policy_file is None:
            raise
        raise BalanceError(
            f"{config.policy_file.path}: a game stopped on an answer the engine refuses ({exc}); "
            "check the decisions of the policies from this file"
        ) from None
    return chunk_table(
        columns,
        game=config.spec.id,
        variant=config.variant,
        seeds=seeds,
        first_index=first,
        policies=config.policy_labels,
        cooperative=config.spec.cooperative,
        end_reasons=config.spec.end_reasons,
        lowest_wins=config.spec.lowest_score_wins,
    )


def indexed_chunk(config: RunConfig, chunk: tuple[int, int, int]) -> tuple[int, pl.DataFrame]:
    return chunk[0], play_chunk(config, *chunk)


def encoded_chunk(
    config: RunConfig, chunk: tuple[int, int, int], run_id: str
) -> tuple[int, EncodedPart]:
    """Play one chunk and encode its part (in a worker process: the Parquet encoding then runs
    on every core, and the parent receives compressed bytes)."""
    index, table = indexed_chunk(config, chunk)
    return index, encode_part(table, run_id, index)
