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

``balance compare --ladder`` (:func:`simulator.studies.ladder_plans`) plays a comparison once
under every rung. Every run is an ordinary run folder on the same seeds: a killed ladder resumes.
What a rung is and how rungs are named: :mod:`simulator.rungs`.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from .errors import BalanceError
from .game_data import read_data
from .games import GameSpec, get_game
from .plan import plan_run
from .requests import Execution, PlayRequest
from .rungs import default_rungs, ladder_chunk_size, rung_labels
from .runner import RunConfig
from .studies import Study, StudyRun, _execute, _prepare, _read, _slug, parse_param

KIND = "skill"


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
    """Plan (:func:`plan_skill`), then play the ladder: a folder of ordinary runs, resumable."""
    plans = plan_skill(request, rungs, params)
    study = _prepare(out, KIND, request.game, plans, how)
    return _execute(study, plans, how)
