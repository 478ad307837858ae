"""Seeded, chunked, parallel runs that write a resumable run folder.

The run's seed is split with ``SeedSequence(seed)``: chunk ``i`` uses child ``i`` (spawn key
``(i,)``) to draw one uint32 seed per game. A chunk's games therefore depend only on the seed, the
chunk size and the chunk's index: never on the number of jobs, the backend or finishing order.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from joblib import Parallel, delayed

from policies import SeatPolicy, engine_arrays, seat_policies

from .cluster import cluster_session
from .dataset import RunFolder, chunk_table, now
from .errors import BalanceError
from .games import GameSpec, get_game
from .jit import engine_source
from .rules import RuleSet, build_rules

MAX_CHUNK = 10_000
MIN_CHUNK = 250
# With an `until` rule, chunks run in fixed batches of this many (in index order) and the rule is
# checked between batches: fixed, so where a run stops never depends on --jobs or the backend.
UNTIL_BATCH = 4


def default_chunk_size(games: int) -> int:
    """About 32 chunks per run, between 250 and 10,000 games each (depends on games only)."""
    return min(MAX_CHUNK, max(MIN_CHUNK, -(-games // 32)))


def chunk_seeds(seed: int, chunk_index: int, n: int) -> np.ndarray:
    """One uint32 seed per game of chunk ``chunk_index`` (child ``chunk_index`` of the run seed)."""
    child = np.random.SeedSequence(seed, spawn_key=(chunk_index,))
    return child.generate_state(n, dtype=np.uint32)


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's results, validated."""

    spec: GameSpec
    rules: RuleSet
    variant: str
    seats: tuple[SeatPolicy, ...]
    seed: int
    games: int
    chunk_size: int

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def policy_labels(self) -> list[str]:
        return [s.label for s in self.seats]

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first game index, games in chunk) for every chunk."""
        return [
            (i, first, min(self.chunk_size, self.games - first))
            for i, first in enumerate(range(0, self.games, self.chunk_size))
        ]

    def manifest(self) -> dict[str, Any]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            pkg_version = version("balance")
        except PackageNotFoundError:
            pkg_version = "unknown"
        return {
            "format": 1,
            "config": {
                "game": self.spec.id,
                "variant": self.variant,
                "rules": self.rules.to_dict(),
                "n_players": self.n_players,
                "policies": self.policy_labels,
                "seed": self.seed,
                "games": self.games,
                "chunk_size": self.chunk_size,
                # Games played by other engine code must not be mixed into this run on resume.
                "engine_source": engine_source(),
            },
            "rules_changed": self.rules.changed(),
            "cooperative": self.spec.cooperative,
            "length_unit": self.spec.length_unit,
            "end_reasons": list(self.spec.end_reasons),
            "columns": self.spec.columns,
            "version": pkg_version,
        }


def plan_run(
    game: str,
    games: int,
    *,
    players: int | None = None,
    policies: list[str] | None = None,
    seed: int = 0,
    sets: dict[str, Any] | list[str] | None = None,
    variant: str | Path | None = None,
    rules: RuleSet | None = None,
    chunk_size: int | None = None,
) -> RunConfig:
    """Validate a run request (raises BalanceError naming the problem)."""
    spec = get_game(game)
    if games < 1:
        raise BalanceError(f"-n must be at least 1 game, not {games}")
    if seed < 0:
        raise BalanceError(f"--seed must be a non-negative integer, not {seed}")
    n_players = players if players is not None else spec.default_players
    spec.check_players(n_players)
    seats = seat_policies(policies or [spec.default_policy], spec.policies, spec.id, n_players)
    if rules is None:
        rules, name = build_rules(spec.rules_class, variant, sets)
    else:
        name = "default" if not rules.changed() else "custom"
    size = chunk_size or default_chunk_size(games)
    if size < 1:
        raise BalanceError(f"--chunk-size must be at least 1, not {size}")
    return RunConfig(spec, rules, name, tuple(seats), seed, games, size)


def play_chunk(config: RunConfig, chunk_index: int, first: int, n: int) -> pl.DataFrame:
    """Play one chunk and return its table (runs in a worker process)."""
    seeds = chunk_seeds(config.seed, chunk_index, n)
    ids, params = engine_arrays(list(config.seats))
    columns = config.spec.play_chunk(config.rules, config.n_players, ids, params, seeds)
    return chunk_table(
        columns,
        game=config.spec.id,
        variant=config.variant,
        seeds=seeds,
        first_index=first,
        policies=config.policy_labels,
        cooperative=config.spec.cooperative,
        end_reasons=config.spec.end_reasons,
    )


def _indexed_chunk(config: RunConfig, chunk: tuple[int, int, int]) -> tuple[int, pl.DataFrame]:
    return chunk[0], play_chunk(config, *chunk)


def run(
    config: RunConfig,
    out: str | Path,
    *,
    jobs: int | None = None,
    progress: bool = False,
    cluster: str | None = None,
    until: Callable[[RunFolder], bool] | None = None,
) -> RunFolder:
    """Play every chunk not yet on disk and write it as a part; returns the finished folder.

    ``until(folder)``, when given, is asked between batches of ``UNTIL_BATCH`` chunks whether the
    games so far are enough; the run then stops early and the manifest records ``games_played``
    and ``stopped_early``. Repeating the command resumes it to the same stopping point.
    """
    jobs = resolve_jobs(jobs)
    # One cluster connection for the whole run, however many batches it is played in.
    fresh = not Path(out).exists()
    with cluster_session(cluster), _removed_if_refused(Path(out), fresh):
        folder = RunFolder.prepare(out, config.manifest())
        done = folder.done_parts()
        todo = [c for c in config.chunks() if c[0] not in done]
        already = sum(c[2] for c in config.chunks() if c[0] in done)
        with _Progress(config.games, already, progress) as bar:
            if until is None:
                for index, table in _execute(config, todo, jobs, cluster):
                    folder.write_part(index, table)
                    bar.advance(table.height)
            else:
                _run_until(config, folder, jobs, cluster, until, bar)
    extra = {}
    if until is not None or "stopped_early" in folder.read_manifest():
        done = folder.done_parts()
        stopped = len(done) < len(config.chunks())
        extra = {
            "games_played": sum(c[2] for c in config.chunks() if c[0] in done),
            "stopped_early": stopped,
        }
    folder.update_manifest(finished=now(), **extra)
    return folder


@contextmanager
def _removed_if_refused(out: Path, fresh: bool) -> Iterator[None]:
    """A folder this run created is removed again if the run is refused (say, by an unreachable
    cluster) before any game was written, so bad input leaves nothing behind."""
    try:
        yield
    except BalanceError:
        if fresh and out.is_dir() and not RunFolder(out).done_parts():
            shutil.rmtree(out, ignore_errors=True)
        raise


def _run_until(
    config: RunConfig,
    folder: RunFolder,
    jobs: int,
    cluster: str | None,
    until: Callable[[RunFolder], bool],
    bar: _Progress,
) -> None:
    chunks = config.chunks()
    for start in range(0, len(chunks), UNTIL_BATCH):
        done = folder.done_parts()
        if start > 0 and all(c[0] in done for c in chunks[:start]) and until(folder):
            return
        batch = [c for c in chunks[start : start + UNTIL_BATCH] if c[0] not in done]
        for index, table in _execute(config, batch, jobs, cluster):
            folder.write_part(index, table)
            bar.advance(table.height)


def resolve_jobs(jobs: int | None) -> int:
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    if jobs < 0:
        return max(1, cores + 1 + jobs)
    return jobs


def _execute(
    config: RunConfig, todo: list[tuple[int, int, int]], jobs: int, cluster: str | None
) -> Iterator[tuple[int, pl.DataFrame]]:
    if not todo:
        return
    if cluster is not None:
        from .cluster import execute_on_cluster

        yield from execute_on_cluster(config, todo, cluster)
        return
    if jobs == 1 or len(todo) == 1:
        for chunk in todo:
            yield _indexed_chunk(config, chunk)
        return
    # Compile (or load the JIT cache) once here so workers load it instead of all compiling.
    play_chunk(config, 0, 0, 1)
    parallel = Parallel(
        n_jobs=min(jobs, len(todo)), backend="loky", return_as="generator_unordered"
    )
    yield from parallel(delayed(_indexed_chunk)(config, chunk) for chunk in todo)


class _Progress:
    """Games done, games per second and time left on a terminal; silent otherwise."""

    def __init__(self, total: int, already: int, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.total, self.already = total, already
        self._progress = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(
                "games", total=self.total, completed=self.already, rate=""
            )
            self._start, self._new = time.perf_counter(), 0
        return self

    def advance(self, n: int) -> None:
        if self._progress is not None:
            self._new += n
            rate = self._new / max(time.perf_counter() - self._start, 1e-9)
            self._progress.update(self._task, advance=n, rate=f"{rate:,.0f} games/s")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


def simulate(
    game: str,
    games: int,
    out: str | Path,
    *,
    players: int | None = None,
    policies: list[str] | None = None,
    seed: int = 0,
    sets: dict[str, Any] | list[str] | None = None,
    variant: str | Path | None = None,
    jobs: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    cluster: str | None = None,
) -> Path:
    """Python API of ``balance simulate``: plan, run, and return the run folder's path."""
    config = plan_run(
        game,
        games,
        players=players,
        policies=policies,
        seed=seed,
        sets=sets,
        variant=variant,
        chunk_size=chunk_size,
    )
    return run(config, out, jobs=jobs, progress=progress, cluster=cluster).path
