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
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polars as pl

from simulator.compiling import interpreted_start
from simulator.compiling.first_compile import compile_notice
from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import EncodedPart, RunFolder, now

from .cluster import cluster_session, execute_on_cluster
from .interrupt import expect, noticed
from .plan import (
    RunConfig,
    encoded_chunk,
    indexed_chunk,
    plan_run,
    play_chunk,
)

# With an `until` rule, chunks run in fixed batches of this many (in index order) and the rule is
# checked between batches: fixed, so where a run stops never depends on --jobs or the backend.
# A rule may instead carry its own schedule (``until.looks``, e.g. :func:`geometric_looks`).
UNTIL_BATCH = 4
LOOK_GROWTH = 1.25  # geometric looks: each after about a quarter more chunks than the last


def batch_looks(n_chunks: int) -> list[int]:
    """Ask after every ``UNTIL_BATCH`` chunks (the default schedule)."""
    return list(range(UNTIL_BATCH, n_chunks, UNTIL_BATCH))


def every_chunk(n_chunks: int) -> list[int]:
    """Ask after every chunk."""
    return list(range(1, n_chunks))


def geometric_looks(n_chunks: int) -> list[int]:
    """Ask early and often: after 1, 2, 3, ... chunks, then each time about a quarter more
    (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, ...), so a run that needs few games stops soon and a
    long one is asked about log(n) times, not n."""
    looks, count = [], 1
    while count < n_chunks:
        looks.append(count)
        count = max(count + 1, int(count * LOOK_GROWTH))
    return looks


def run(
    config: RunConfig,
    out: str | Path,
    *,
    jobs: int | None = None,
    progress: bool = False,
    cluster: str | None = None,
    until: Callable[[RunFolder], bool] | None = None,
    wait: bool = False,
    notice: bool | None = None,
    say_reused: bool = True,
) -> RunFolder:
    """Play every chunk not yet soundly on disk and write it as a part; returns the folder.

    ``notice``: say so before a first compile of the engine (default: with ``progress``).
    With ``progress`` (and ``say_reused``), a folder that already holds games says so: "reused"
    when nothing is left to play, "resuming" otherwise.

    Damaged parts (and, in a finished run, missing ones) are replayed, the bad files moved to
    ``damaged/``, and a line on stderr says how many. One writer per folder: a folder another
    process is writing is refused at once (BalanceError), or waited for with ``wait``.

    ``until(folder)``, when given, is asked between batches of ``UNTIL_BATCH`` chunks (or after
    the chunk counts ``until.looks(n_chunks)`` lists) whether the games so far are enough; the
    run then stops early and the manifest records ``games_played`` and ``stopped_early``.
    Repeating the command resumes it to the same stopping point.
    """
    jobs = resolve_jobs(jobs)
    out = Path(out)
    RunFolder.check_out(out)  # before the lock file is made in a folder that is not a run
    fresh = not out.exists()
    expect(out, config.games)  # what Ctrl-C reports as kept
    # One cluster connection for the whole run, however many batches it is played in.
    # The cluster is checked (a scheduler answers) before the folder is made.
    with (
        cluster_session(cluster),
        _removed_if_refused(out, fresh),
        RunFolder(out).lock(wait),
    ):
        folder = RunFolder.prepare(out, config.manifest())
        if folder.rebuilt:
            say(f"{out}: manifest.json was unreadable; rebuilt from this command")
        folder.remove_temporaries()
        _set_aside_bad_parts(folder, config)
        done = folder.done_parts()
        todo = [c for c in config.chunks() if c[0] not in done]
        already = sum(c[2] for c in config.chunks() if c[0] in done)
        if progress and say_reused and already:  # a folder played before: what is reused
            if not todo:
                say(f"reused: {out} already holds these {already:,} games")
            else:
                say(f"resuming: {out} already holds {already:,} of these {config.games:,} games")
        with _Progress(config.games, already, progress) as bar, _saying_kept(config, folder):
            bar.notice = progress if notice is None else notice
            if until is None:
                for index, table in _execute(
                    config, todo, jobs, cluster, folder.fingerprint, notice=bar.notice
                ):
                    folder.write_part(index, table)
                    bar.advance(_rows(table))
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


def finished(config: RunConfig, folder: Path) -> bool:
    """Whether a run folder already holds every chunk of ``config`` (an earlier command's)."""
    done = RunFolder(folder).done_parts()
    return all(c[0] in done for c in config.chunks())


def say_study_reused(path: Path, plans: list[tuple[Any, RunConfig]]) -> None:
    """One line when some runs of a study (``(entry, config)`` with ``entry.folder``) were
    finished by an earlier command and are reused rather than played again."""
    reused = sum(finished(config, path / entry.folder) for entry, config in plans)
    if reused:
        many = "all" if reused == len(plans) else f"{reused:,} of"
        say(f"reused: {path} already holds {many} {len(plans):,} runs finished; not played again")


def say(message: str) -> None:
    """A line for the person at the terminal (stderr, so --json output stays clean)."""
    print(f"balance: {message}", file=sys.stderr, flush=True)


def _set_aside_bad_parts(folder: RunFolder, config: RunConfig) -> None:
    """Move damaged and foreign parts aside so they are replayed; say how many parts will be."""
    bad = [p for p in folder.check() if p.kind in ("damaged", "missing")]
    if not bad:
        return
    planned = {c[0] for c in config.chunks()}
    for problem in bad:
        if problem.kind == "damaged":
            folder.set_aside(problem.part)
    replay = [p for p in bad if p.part in planned]
    details = "; ".join(f"{p.where()} {p.what}" for p in bad[:3])
    details += f"; and {len(bad) - 3} more" if len(bad) > 3 else ""
    kept = " (bad files kept in damaged/)" if any(p.kind == "damaged" for p in bad) else ""
    say(f"{folder.path}: replaying {len(replay)} damaged or missing part(s){kept}: {details}")


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


@contextmanager
def _saying_kept(config: RunConfig, folder: RunFolder) -> Iterator[None]:
    """A run stopped part-way by bad input (a designer's file raising in its tenth chunk) says
    which games it keeps."""
    try:
        yield
    except BalanceError as exc:
        done = folder.done_parts()
        kept = sum(c[2] for c in config.chunks() if c[0] in done)
        if not kept or "kept" in str(exc):  # nothing kept, or the line says so already
            raise
        raise BalanceError(
            f"{exc}; the {kept:,} games finished before it are kept in {folder.path}"
        ) from None


def _run_until(
    config: RunConfig,
    folder: RunFolder,
    jobs: int,
    cluster: str | None,
    until: Callable[[RunFolder], bool],
    bar: _Progress,
) -> None:
    chunks = config.chunks()
    looks = getattr(until, "looks", batch_looks)(len(chunks))
    for start, end in zip([0, *looks], [*looks, len(chunks)], strict=True):
        done = folder.done_parts()
        if start > 0 and all(c[0] in done for c in chunks[:start]) and until(folder):
            return
        batch = [c for c in chunks[start:end] if c[0] not in done]
        for index, table in _execute(
            config, batch, jobs, cluster, folder.fingerprint, notice=bar.notice
        ):
            folder.write_part(index, table)
            bar.advance(_rows(table))


def resolve_jobs(jobs: int | None) -> int:
    """Worker processes for ``--jobs``: None means every core; negative counts are joblib's
    (-1 every core, -2 all but one, ...). Anything that leaves no worker is refused."""
    cores = os.cpu_count() or 1
    if jobs is None:
        return cores
    if jobs < 0 and cores + 1 + jobs >= 1:
        return cores + 1 + jobs
    if jobs < 1:
        raise BalanceError(
            f"--jobs must be at least 1 (or -1 for every core, -2 for all but one, down to "
            f"-{cores} on this machine), not {jobs}"
        )
    return jobs


def _execute(
    config: RunConfig,
    todo: list[tuple[int, int, int]],
    jobs: int,
    cluster: str | None,
    run_id: str,
    *,
    notice: bool = True,
) -> Iterator[tuple[int, pl.DataFrame | EncodedPart]]:
    if not todo:
        return
    started_interpreted = cluster is None and interpreted_start.wanted(config, todo, jobs)
    if started_interpreted:
        todo = yield from interpreted_start.play_while_compiling(config, todo, jobs, run_id, notice)
        if not todo:
            return
    # Compile (or load the JIT cache) once here, saying so before a first compile (unless the
    # command is quiet); workers, local or on a cluster sharing the file system, then load it
    # instead of all compiling.
    with compile_notice(config, say=notice):
        _in_process(play_chunk, config, 0, 0, 1)
    if cluster is not None:
        yield from execute_on_cluster(config, todo, cluster)
        return
    if jobs == 1 or len(todo) == 1 or (started_interpreted and interpreted_start.few_left(todo)):
        for chunk in todo:
            yield _in_process(indexed_chunk, config, chunk)
        return
    # Workers encode their own parts: the Parquet encoding runs on every core, and the parent
    # receives compressed bytes instead of unpickling a table and encoding it alone.
    from joblib import delayed  # a tenth of a second: only a run of several chunks needs it

    tasks = (delayed(encoded_chunk)(config, chunk, run_id) for chunk in todo)
    yield from as_finished(min(jobs, len(todo)), tasks)


def as_finished(workers: int, tasks: Iterable[Any]) -> Iterator[Any]:
    """joblib's ``delayed`` tasks played by ``workers`` local processes, each result as soon as
    it is ready. Closed early (Ctrl-C, an error), the tasks still playing are cancelled without
    joblib's warning of them, a second line beside the one the interrupt prints."""
    from joblib import Parallel

    results = Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered")(tasks)
    try:
        for result in results:  # noqa: UP028 (`yield from` would close them outside the filter)
            yield result
    finally:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module=r"joblib\.parallel")
            results.close()


def _in_process(function: Callable[..., Any], *args: Any) -> Any:
    """Call ``function`` here; Ctrl-C landing inside compiled code comes out as a
    KeyboardInterrupt, not as the ``SystemError`` numba raises for it."""
    with noticed():
        return function(*args)


def _rows(table: pl.DataFrame | EncodedPart) -> int:
    return table.height if isinstance(table, pl.DataFrame) else table.rows


class _Progress:
    """Games done, games per second and time left on a terminal; silent otherwise."""

    def __init__(self, total: int, already: int, enabled: bool):
        self.notice = enabled  # the first-compile notice; --quiet and --json turn it off
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
    data: dict[str, Any] | list[str] | None = None,
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
        data=data,
    )
    return run(config, out, jobs=jobs, progress=progress, cluster=cluster).path
