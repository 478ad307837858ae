"""The skill ladder: rungs of play, from random to the search player, played against each other.

A *rung* is one policy (``lookahead``, ``mcts:playouts=100``). ``balance skill`` plays

- every rung against itself (every seat the rung): the game's own figures at that skill, such as
  the first-seat edge, the length and how games end;
- in a competitive game, every pair of rungs: half the seats each, rotated through every seat
  (``AB``/``BA`` at two players, ``ABAB``/``BABA`` at four, ``ABA``... and ``BAB``... at three),
  so seat effects cancel out of the pair's head to head. Every table holds exactly two rungs, so
  each game is one comparison of the two and the ladder's ratings come from those comparisons.

A cooperative game has no pairs to play: each rung plays every seat, and two rungs are compared
deal by deal on the same seeds (which of them succeeds where the other fails). ``--param`` plays
the whole ladder at several rule settings (a mission, a player count), so a designer sees which
settings reward skill.

``balance compare --ladder`` (:func:`simulator.studies.compare.ladder_plans`) plays a comparison
once under every rung. Every run is an ordinary run folder on the same seeds: a killed ladder
resumes. What a rung is and how rungs are named: :mod:`simulator.studies.rungs`.
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import read_data
from simulator.contract.registry import GameSpec, get_game
from simulator.runs.plan import plan_run
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import RunConfig
from simulator.studies.compare import (
    MAX_STUDY_RUNS,
    Study,
    StudyRun,
    _execute,
    _prepare,
    _read,
    _slug,
    parse_param,
)

from .rungs import default_rungs, ladder_chunk_size, rung_labels

KIND = "skill"


PAIR_GAMES = 400  # the default: games each pair of rungs plays, shared by its seatings
ALONE_GAMES = 200  # ... and each rung alone, where the game has no pairs (cooperative)


def default_games(request: PlayRequest) -> int:
    """Games per run when ``-n`` is not given: ``PAIR_GAMES`` for each pair of rungs, shared by
    its seatings (200 a run at two, four or six seats; 67 at three, where a pair has six
    seatings; 40 at five), so a ladder at an odd number of seats costs no more for its
    symmetry and each pair's head to head is as precise at every count."""
    spec = get_game(request.game)
    if spec.cooperative:
        return ALONE_GAMES
    n_players = request.players if request.players is not None else spec.default_players
    return -(-PAIR_GAMES // len(pair_tables("a", "b", n_players)))


def pair_tables(a: str, b: str, n_players: int) -> list[list[str]]:
    """Tables of two rungs, half the seats each (one more for ``a`` at an odd count, and as
    many tables the other way round), every table rotated through every seat."""
    tables: list[list[str]] = []
    for first, second in ((a, b), (b, a)):
        table = [first if s % 2 == 0 else second for s in range(n_players)]
        for shift in range(n_players):
            rotated = table[shift:] + table[:shift]
            if rotated not in tables:
                tables.append(rotated)
    return tables


def _points(spec: GameSpec, params: list[str] | None) -> list[dict[str, str]]:
    """The rule settings the ladder is played at (``--param``; one point without it)."""
    if not params:
        return [{}]
    if not spec.cooperative:
        raise BalanceError(
            "--param plays a cooperative ladder at several settings; for a competitive game run "
            "balance skill once per setting (--set)"
        )
    grid = [parse_param(p, spec.id) for p in params]
    keys = [k for k, _ in grid]
    if len(set(keys)) != len(keys):
        raise BalanceError("each --param key may be given only once")
    combinations = itertools.product(*(v for _, v in grid))
    return [dict(zip(keys, values, strict=True)) for values in combinations]


def plan_skill(
    request: PlayRequest, rungs: list[str] | None = None, params: list[str] | None = None
) -> list[tuple[StudyRun, RunConfig]]:
    """Every run of the ladder (``rungs``, or the game's default ones), at every point of
    ``params`` (``--param``), validated (nothing is written here)."""
    spec = get_game(request.game)
    files = read_data(spec.rules_class, request.data)  # read once for every run
    n_players = request.players if request.players is not None else spec.default_players
    spec.check_players(n_players)
    request = request.but(players=n_players, policy_file=_read(request.policy_file), data=files)
    points = _points(spec, params)
    sets = request.sets
    rule_sets = set(sets or [])
    for point in points:
        clash = sorted(k for k in point if any(s.partition("=")[0].strip() == k for s in rule_sets))
        if clash:
            raise BalanceError(f"{', '.join(clash)} is both in --param and in --set")
    texts = rungs if rungs is not None else default_rungs(spec)
    labels = rung_labels(request, texts)
    plans: list[tuple[StudyRun, RunConfig]] = []

    def add(folder: str, label: str, lineup: list[str], point: dict[str, str], run_params: dict):
        n = n_players
        rule_values = [*(sets or []), *(f"{k}={v}" for k, v in point.items() if k != "players")]
        if "players" in point:
            if not point["players"].isdigit():
                raise BalanceError(f"--param players: {point['players']!r} is not a number")
            n = int(point["players"])
        config = plan_run(
            request.but(players=n, policies=lineup, sets=rule_values),
            chunk_size=ladder_chunk_size(request.games),
        )
        plans.append((StudyRun(folder, label, run_params), config))

    for p, point in enumerate(points):
        where = ", ".join(f"{k}={v}" for k, v in point.items())
        prefix = f"p{p + 1:02d}-{_slug(where.replace(', ', '_'))}/" if point else ""
        for r, rung in enumerate(labels):
            label = f"{rung} everywhere" + (f" ({where})" if where else "")
            add(
                f"{prefix}self-{r + 1:02d}-{_slug(rung)}",
                label,
                [rung],
                point,
                {"rungs": [rung], "point": point},
            )
    if not spec.cooperative:
        for (i, a), (j, b) in itertools.combinations(enumerate(labels), 2):
            for t, table in enumerate(pair_tables(a, b, n_players)):
                add(
                    f"pair-{i + 1:02d}-{j + 1:02d}-{t + 1}",
                    " | ".join(table),
                    table,
                    {},
                    {"rungs": [a, b], "point": {}},
                )
    return plans


def skill(
    request: PlayRequest,
    out: str | Path,
    how: Execution = Execution(),
    *,
    rungs: list[str] | None = None,
    params: list[str] | None = None,
) -> Study:
    """Plan (:func:`plan_skill`), then play the ladder: a folder of ordinary runs, resumable.
    With ``how.progress``: the estimated time first, and off a terminal (a log) a line of
    progress every ``PROGRESS_LINE_S`` seconds."""
    plans = plan_skill(request, rungs, params)
    # A ladder at one rule setting is played whatever its size (the default one at five seats
    # is 105 runs); the cap is on settings multiplying it.
    points = len({tuple(sorted(s.params.get("point", {}).items())) for s, _ in plans})
    cap = max(MAX_STUDY_RUNS, -(-len(plans) // max(points, 1)))
    study = _prepare(out, KIND, request.game, plans, how, max_runs=cap)
    if not how.progress:
        return _execute(study, plans, how)
    costs = _seconds_per_game(plans)
    say_estimate(study.path, plans, costs, how)
    with _progress_lines(study.path, plans, costs, enabled=not sys.stderr.isatty()):
        return _execute(study, plans, how)


# -- the estimate and the progress lines ------------------------------------------------------
PROBE_S = 0.5  # seconds of play, about, that time a rung's games for the estimate
PROGRESS_LINE_S = 20.0  # off a terminal, a line of progress this often (at most 30 s apart)


def _seconds_per_game(plans: list[tuple[StudyRun, RunConfig]]) -> list[float]:
    """About how long one game of each run takes on one core: each rung's own games timed
    (its first self-play run: a game or more, PROBE_S at most after the first, which compiles
    or loads the engine), a pair's the mean of its two rungs'."""
    from simulator.compiling.first_compile import compile_notice
    from simulator.runs.plan import play_chunk

    per_rung: dict[str, float] = {}
    for entry, config in plans:
        rung = entry.params["rungs"][0]
        if len(entry.params["rungs"]) != 1 or rung in per_rung:
            continue
        with compile_notice(config):
            start = time.perf_counter()
            play_chunk(config, 0, 0, 1)
        seconds, games = time.perf_counter() - start, 1
        if seconds < PROBE_S:  # that game may have loaded the engine: time more, alone
            start, games = time.perf_counter(), max(1, min(64, int(PROBE_S / max(seconds, 1e-3))))
            play_chunk(config, 0, 0, games)
            seconds = time.perf_counter() - start
        per_rung[rung] = seconds / games
    return [
        sum(per_rung.get(r, 0.0) for r in entry.params["rungs"]) / len(entry.params["rungs"])
        for entry, _ in plans
    ]


def _left(
    path: Path, plans: list[tuple[StudyRun, RunConfig]], costs: list[float]
) -> tuple[int, int, float]:
    """Games still to play, runs finished, and the seconds of one core's work left."""
    from simulator.runs.interrupt import games_kept

    games, finished, work = 0, 0, 0.0
    for (entry, config), cost in zip(plans, costs, strict=True):
        left = max(0, config.games - games_kept(path / entry.folder))
        games, finished, work = games + left, finished + (left == 0), work + left * cost
    return games, finished, work


def say_estimate(
    path: Path, plans: list[tuple[StudyRun, RunConfig]], costs: list[float], how: Execution
) -> None:
    """One line before the ladder plays: its runs, the games left, the time they should take."""
    from simulator.compiling.first_compile import duration, tell
    from simulator.runs.runner import resolve_jobs

    games, finished, work = _left(path, plans, costs)
    if games == 0:
        return
    runs = f"{len(plans) - finished} of {len(plans)} runs" if finished else f"{len(plans)} runs"
    if how.cluster is not None:
        where = f"{duration(work)} of one core's work, shared by the cluster's workers"
    else:
        jobs = resolve_jobs(how.jobs)
        where = f"about {duration(work / jobs)} on {jobs} process{'es' * (jobs > 1)}"
    tell(
        f"skill: {runs}, {games:,} games to play; {where} (from a few games of each rung timed now)"
    )


@contextmanager
def _progress_lines(
    path: Path, plans: list[tuple[StudyRun, RunConfig]], costs: list[float], enabled: bool
) -> Iterator[None]:
    """Every PROGRESS_LINE_S seconds while the body runs, one line: games played of all, runs
    finished, time spent and left (the rungs' costs share out the work left)."""
    if not enabled:
        yield
        return
    from simulator.compiling.first_compile import duration, tell

    total = sum(config.games for _, config in plans)
    _, _, work_at_start = _left(path, plans, costs)
    start, done = time.perf_counter(), threading.Event()

    def report() -> None:
        while not done.wait(PROGRESS_LINE_S):
            games, finished, work = _left(path, plans, costs)
            spent = time.perf_counter() - start
            worked = work_at_start - work
            left = f", about {duration(spent * work / worked)} left" if worked > 0 else ""
            tell(
                f"skill: {total - games:,} of {total:,} games, {finished} of {len(plans)} runs "
                f"finished, {duration(spent)} spent{left}"
            )

    thread = threading.Thread(target=report, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
