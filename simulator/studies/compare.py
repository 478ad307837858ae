"""Studies: several runs of one game that answer one question together.

- compare: the default rules and each variant;
- sweep: every point of a grid of rule values (``players`` may be swept too);
- tournament: policies rotated through every seat;
- skill: a ladder of policies played against each other (:mod:`simulator.studies.skill`);
- ladder: a comparison played once under every rung of a skill ladder (``compare --ladder``);
- explore: the points of a screening design over rule options (:mod:`simulator.studies.explore`).

A study folder holds ``study.json`` (kind, game, and each run's folder, label and parameters) and
one ordinary, resumable run folder per run. Every run uses the same run seed and game count, so
game ``i`` gets the same seed in every run (common random numbers) and the analyses pair them.
All runs are planned (validated) before the first game is played.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import read_data
from simulator.contract.registry import get_game
from simulator.contract.rules import coerce, parse_sets
from simulator.folders.run_folder import RunFolder, atomic_write
from simulator.folders.study_folders import STUDY_FILE, Study, StudyRun, read_study
from simulator.runs.plan import with_evaluations
from simulator.runs.policy_file import PolicyFile, read_policy_file
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import RunConfig, plan_run, resolve_jobs, run, say_study_reused

from .rotation import compared_as_judged
from .rungs import ladder_chunk_size, rung_labels

MAX_STUDY_RUNS = 100
KINDS = ("compare", "sweep", "tournament", "skill", "ladder", "explore")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=_-]+", "-", text).strip("-")[:60] or "run"


def _check_run_folders(p: Path, plans: list[tuple[StudyRun, RunConfig]]) -> None:
    """Refuse before playing anything if a run folder holds another configuration."""
    for entry, config in plans:
        sub = p / entry.folder
        if (sub / "manifest.json").is_file():
            try:
                old = RunFolder.open(sub).read_manifest().get("config")
            except BalanceError:  # torn: the run itself rebuilds it, or refuses, when it starts
                continue
            if old != config.manifest()["config"]:
                raise BalanceError(
                    f"{str(sub)!r} holds a run of another configuration; use a new --out folder"
                )


def _prepare(
    out: str | Path,
    kind: str,
    game: str,
    plans: list[tuple[StudyRun, RunConfig]],
    how: Execution,
    check_runs: bool = True,
    max_runs: int = MAX_STUDY_RUNS,
):
    from simulator.runs.cluster import check_cluster

    resolve_jobs(how.jobs)  # refused before anything is written
    check_cluster(how.cluster)
    if len(plans) > max_runs:
        raise BalanceError(
            f"this {kind} needs {len(plans)} runs; at most {max_runs} are allowed, "
            "so use fewer values"
        )
    study = Study(kind, game, tuple(s for s, _ in plans), Path(out))
    p = study.path
    if p.exists() and not p.is_dir():
        raise BalanceError(f"--out {str(p)!r} is a file; give a folder for the {kind}")
    existing = read_study(p) if p.is_dir() else None
    if existing is not None and existing.to_json() != study.to_json():
        raise BalanceError(
            f"--out {str(p)!r} holds another study; use a new folder, or repeat the original "
            "command to resume it"
        )
    if existing is None and p.is_dir() and any(p.iterdir()):
        raise BalanceError(f"--out {str(p)!r} is a non-empty folder; choose a new or empty folder")
    if check_runs:
        _check_run_folders(p, plans)
    p.mkdir(parents=True, exist_ok=True)
    text = json.dumps(study.to_json(), indent=2, default=str) + "\n"
    atomic_write(p / STUDY_FILE, text.encode(), durable=True)
    return study


def _execute(
    study: Study,
    plans: list[tuple[StudyRun, RunConfig]],
    how: Execution,
    untils: list[Callable[[RunFolder], bool] | None] | None = None,
) -> Study:
    from simulator.runs.cluster import cluster_session
    from simulator.runs.interrupt import expect

    for entry, config in plans:  # what Ctrl-C reports as kept
        expect(study.path / entry.folder, config.games)
    if how.progress and len(plans) > 1:  # one line for the study, not one per run
        say_study_reused(study.path, plans)
    # One cluster connection (or one --cluster local) for the whole study, not one per run.
    with cluster_session(how.cluster):
        for k, (entry, config) in enumerate(plans):
            until = untils[k] if untils else None
            if how.progress and sys.stderr.isatty() and len(plans) > 1:
                # Each run's bar is transient: say which of the study's runs it is.
                print(f"run {k + 1} of {len(plans)}: {entry.label}", file=sys.stderr)
            run(
                config,
                study.path / entry.folder,
                until=until,
                say_reused=len(plans) == 1,
                **how.run_options(),
            )
    return study


# -- compare ---------------------------------------------------------------------------------
def compare(
    request: PlayRequest,
    out: str | Path,
    how: Execution = Execution(),
    *,
    variants: list[str | Path] | None = None,
    until_ci: float | None = None,
    tune: str | None = None,
    tune_trials: int = 20,
    tune_games: int = 2_000,
    ladder: list[str] | None = None,
) -> Study:
    """The default rules and each variant file on the same game seeds.

    The request's ``--set`` values and ``--data`` files form one more variant (e.g. ``--set
    level2_cost=2``, ``--data cards=my_cards.csv``: the shipped data against the designer's). A
    variant file's ``[data]`` table makes a variant of its own data files. With ``until_ci``,
    the default run plays until its headline intervals are narrower than ``until_ci`` and every
    variant then plays exactly as many games, so games stay paired.

    With ``tune`` (a policy seated in the comparison), that policy is first tuned under each rule
    set (``balance tune`` against the comparison's other seat policies, in ``tunes/<run>/``) and
    each run then seats it with the setting best for its own rules: adapted play.

    With ``ladder`` (rungs of a skill ladder), the whole comparison is played once under every
    rung, every seat playing the rung: does the variant's effect hold as play gets stronger?
    """
    game, sets, data = request.game, request.sets, request.data
    if not variants and not sets and not data:
        raise BalanceError(
            "compare needs at least one --variant FILE, --set key=value or --data NAME=FILE"
        )
    if ladder is not None:
        if request.policies:
            raise BalanceError("--ladder seats each rung in every seat; leave out --policy")
        if tune is not None or until_ci is not None:
            option = "--tune" if tune is not None else "--until-ci"
            raise BalanceError(f"--ladder cannot be combined with {option}")
    if ladder is None:  # a variant a design wrote is compared under the lineup it was judged with
        request = compared_as_judged(request, variants or [])
    pfile = _read(request.policy_file)
    default = request.but(sets=None, variant=None, data=None, policy_file=pfile)
    plans = [(StudyRun("01-default", "default"), plan_run(default, fit=False))]
    labels = {"default"}
    others = [default.but(variant=v) for v in variants or []]
    if sets or data:
        others.append(default.but(sets=sets, data=data))
    for other_request in others:
        config = plan_run(other_request, fit=False)
        variant = other_request.variant
        label = config.variant
        where = f"file {str(variant)!r}" if variant is not None else "--set/--data"
        if label in labels:
            raise BalanceError(
                f"variant {label!r} ({where}) has the name of "
                + ("the default rules" if label == "default" else "another variant")
                + '; give every variant its own name (name = "..." in its file)'
            )
        for entry, other in plans:
            if other.rules == config.rules:
                same = "the default" if entry.label == "default" else f"variant {entry.label!r}"
                raise BalanceError(
                    f"variant {label!r} ({where}) has the same rules as {same}: the "
                    "comparison would set identical games side by side"
                )
        labels.add(label)
        folder = f"{len(plans) + 1:02d}-{_slug(label)}"
        plans.append((StudyRun(folder, label, config.rules.changed()), config))
    if until_ci is not None:  # small chunks, so the check looks early; every run alike (paired)
        size = until_ci_chunk_size(until_ci, request.games)
        plans = [(entry, dataclasses.replace(c, chunk_size=size)) for entry, c in plans]
    if ladder is not None:
        plans = fitted(ladder_plans(plans, ladder, pfile, fit=False), how)
        study = _prepare(out, "ladder", game, plans, how)
        return _execute(study, plans, how)
    plans = fitted(plans, how)
    if tune is not None:
        tunes = _plan_adapted(tune, plans, [default, *others], tune_trials, tune_games)
        study = _prepare(out, "compare", game, plans, how, check_runs=False)
        plans = _adapt(study, plans, tunes, tune, how)
        _check_run_folders(study.path, plans)
    else:
        study = _prepare(out, "compare", game, plans, how)
    untils = None
    if until_ci is not None:
        base_path = study.path / plans[0][0].folder
        untils = [until_ci_rule(until_ci)] + [_same_games_as(base_path)] * (len(plans) - 1)
    return _execute(study, plans, how, untils)


def fitted(
    plans: list[tuple[StudyRun, RunConfig]], how: Execution
) -> list[tuple[StudyRun, RunConfig]]:
    """A study's runs with their search seats' evaluations: each distinct fit once, the missing
    ones in ``--jobs`` worker processes (``simulator.runs.plan.with_evaluations``)."""
    configs = with_evaluations([c for _, c in plans], resolve_jobs(how.jobs))
    return [(entry, c) for (entry, _), c in zip(plans, configs, strict=True)]


def ladder_plans(
    plans: list[tuple[StudyRun, RunConfig]],
    rungs: list[str],
    policy_file: PolicyFile | None,
    fit: bool = True,
) -> list[tuple[StudyRun, RunConfig]]:
    """A comparison's runs once under every rung (every seat plays the rung), grouped by rung
    (``fit=False``: their evaluations left to :func:`fitted`)."""
    from dataclasses import replace

    first = plans[0][1]
    labels = rung_labels(reseated(first, [], policy_file), rungs, rules=first.rules)
    out: list[tuple[StudyRun, RunConfig]] = []
    for r, rung in enumerate(labels):
        for entry, config in plans:
            seated = plan_run(
                reseated(config, [rung], policy_file),
                rules=config.rules,
                chunk_size=ladder_chunk_size(config.games),
                fit=fit,
            )
            folder = f"rung-{r + 1:02d}-{_slug(rung)}/{entry.folder}"
            run_entry = StudyRun(folder, f"{entry.label} [{rung}]", {**entry.params, "rung": rung})
            out.append((run_entry, replace(seated, variant=config.variant)))
    return out


def reseated(config: RunConfig, policies: list[str], policy_file: PolicyFile | None) -> PlayRequest:
    """A planned run's game, games, players and seed with other seats (its rules are passed on
    as they are: ``plan_run(request, rules=config.rules)``)."""
    return PlayRequest(config.spec.id, config.games, players=config.n_players,
                       policies=policies, seed=config.seed, policy_file=policy_file)  # fmt: skip


def _plan_adapted(
    policy: str,
    plans: list[tuple[StudyRun, RunConfig]],
    requests: list[PlayRequest],
    trials: int,
    games: int,
) -> list[Any]:
    """One validated tune per run of the comparison (nothing is written here)."""
    from .tuning import plan_tune

    config = plans[0][1]
    name = policy.partition(":")[0].strip()
    texts = [s.label for s in config.seats]
    if name not in config.spec.policies and all(s.policy.name != name for s in config.seats):
        raise BalanceError(
            f"unknown policy '{name}' for {config.spec.id}; choose from: "
            f"{', '.join(config.spec.policies)}"
        )
    mine = [t for t, s in zip(texts, config.seats, strict=True) if s.policy.name == name]
    if not mine:
        raise BalanceError(
            f"--tune {name}: no seat plays {name} in this comparison; seat it with --policy"
        )
    start = policy if ":" in policy else mine[0]
    field = list(
        dict.fromkeys(t for t, s in zip(texts, config.seats, strict=True) if s.policy.name != name)
    )
    if not field and not config.spec.cooperative:
        field = [mine[0]]
    return [
        plan_tune(
            request.but(
                games=games, players=config.n_players, policies=None, policy_file=config.policy_file
            ),  # fmt: skip
            start,
            against=field,
            trials=trials,
        )
        for request in requests
    ]


def _adapt(
    study: Study,
    plans: list[tuple[StudyRun, RunConfig]],
    tunes: list[Any],
    policy: str,
    how: Execution,
) -> list[tuple[StudyRun, RunConfig]]:
    """Tune under each rule set, then seat the best setting in that rule set's run."""
    from .tuning import tune as run_tune

    name = policy.partition(":")[0].strip()
    adapted, entries = [], []
    for (entry, config), plan in zip(plans, tunes, strict=True):
        folder = f"tunes/{entry.folder}"
        data = run_tune(plan, study.path / folder, how)
        best = plan.policy_text(data["summary"]["best_params"])
        seats = [best if s.policy.name == name else s.label for s in config.seats]
        tuned = plan_run(
            reseated(config, seats, config.policy_file),
            rules=config.rules,
            chunk_size=config.chunk_size,
        )
        from dataclasses import replace

        adapted.append((entry, replace(tuned, variant=config.variant)))
        entries.append(
            {
                "label": entry.label,
                "rules": ", ".join(f"{k}={v}" for k, v in config.rules.changed().items())
                or "default rules",
                "tune": folder,
                "best_params": data["summary"]["best_params"],
            }
        )
    (study.path / "adapted.json").write_text(
        json.dumps({"policy": name, "variants": entries}, indent=2, default=str) + "\n"
    )
    return adapted


def until_ci_rule(width: float) -> Callable[[RunFolder], bool]:
    """``--until-ci W``: enough games once every headline rate interval is narrower than W.

    Asked early and often (:func:`runner.geometric_looks`). The rule stops on the intervals'
    widths, never on where the estimates lie, so the 95% intervals printed at the stop keep
    their coverage however many times it looked (a known-answer simulation in
    tests/test_studies.py: coverage about 95%, no bias)."""
    if not 0 < width < 1:
        raise BalanceError(f"--until-ci must be an interval width between 0 and 1, not {width}")
    from analyses.runs import Run
    from analyses.summary import headline_rate_widths
    from simulator.runs.runner import geometric_looks

    def enough(folder: RunFolder) -> bool:
        # Asked between batches by the run's own writer: hashing every part each time would
        # cost the square of the run's length.
        return max(headline_rate_widths(Run.open(folder.path, deep=False)).values()) < width

    enough.looks = geometric_looks  # type: ignore[attr-defined]
    return enough


def until_ci_chunk_size(width: float | None, games: int) -> int | None:
    """Chunks small enough to look early with ``--until-ci W``: a 95% interval of a rate is
    narrower than W after at most (1.96 / W)**2 games (a rate of 1/2, the widest); a sixteenth
    of that per chunk, between 250 games and the usual chunk. None without ``--until-ci``."""
    if width is None:
        return None
    until_ci_rule(width)  # the width checked first
    from simulator.runs.plan import MIN_CHUNK, default_chunk_size

    worst = math.ceil((1.96 / width) ** 2)
    return min(default_chunk_size(games), max(MIN_CHUNK, worst // 16))


def _same_games_as(base: Path) -> Callable[[RunFolder], bool]:
    from simulator.runs.runner import every_chunk

    def enough(folder: RunFolder) -> bool:
        return folder.done_parts() >= RunFolder(base).done_parts()

    enough.looks = every_chunk  # type: ignore[attr-defined]  (stop exactly where the base did)
    return enough


# -- sweep -----------------------------------------------------------------------------------
def parse_param(text: str, game: str) -> tuple[str, list[str]]:
    """``key=v1,v2,v3`` (``;`` separates values when they are lists themselves)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise BalanceError(f"--param expects key=v1,v2,..., got {text!r}")
    sep_char = ";" if ";" in values else ","
    items = [v.strip() for v in values.split(sep_char) if v.strip()]
    if len(set(items)) != len(items):
        raise BalanceError(f"--param {key}: a value is repeated in {values!r}")
    if key != "players":
        info = get_game(game).rules_class.option_info(key, "--param")
        for item in items:  # each value alone, so a bad one is blamed on --param
            coerce(info, item, "--param")
    return key, items


def sweep(
    request: PlayRequest, out: str | Path, how: Execution = Execution(), *, params: list[str]
) -> Study:
    """Every combination of the ``--param`` values (``players`` sweeps the player count); the
    request's ``--set``, ``--variant`` and ``--data`` apply to every point."""
    game = request.game
    if not params:
        raise BalanceError("sweep needs at least one --param key=v1,v2,...")
    grid = [parse_param(p, game) for p in params]
    keys = [k for k, _ in grid]
    if len(set(keys)) != len(keys):
        raise BalanceError("each --param key may be given only once")
    base_sets = parse_sets(request.sets or [])
    clash = set(base_sets) & set(keys)
    if clash:
        raise BalanceError(f"{', '.join(sorted(clash))} is both swept (--param) and set (--set)")
    plans = []
    request = _read_once(request)
    for values in itertools.product(*(v for _, v in grid)):
        point = dict(zip(keys, values, strict=True))
        n_players = request.players
        rule_values = dict(base_sets)
        for key, value in point.items():
            if key == "players":
                try:
                    n_players = int(value)
                except ValueError:
                    raise BalanceError(f"--param players: {value!r} is not a number") from None
            else:
                rule_values[key] = value
        config = plan_run(request.but(players=n_players, sets=rule_values), fit=False)
        label = ", ".join(f"{k}={v}" for k, v in point.items())
        for entry, other in plans:
            if other.rules == config.rules and other.n_players == config.n_players:
                raise BalanceError(
                    f"--param: {entry.label} and {label} are the same setting (the rules read "
                    "both values alike); give each value once"
                )
        folder = f"{len(plans) + 1:02d}-{_slug(label.replace(', ', '_'))}"
        plans.append((StudyRun(folder, label, _typed_point(config, point)), config))
    plans = fitted(plans, how)
    study = _prepare(out, "sweep", game, plans, how)
    return _execute(study, plans, how)


def _typed_point(config: RunConfig, point: dict[str, str]) -> dict[str, Any]:
    """The grid point with each value as the rules hold it (numbers as numbers, for plotting)."""
    typed: dict[str, Any] = {}
    for key in point:
        value = config.n_players if key == "players" else getattr(config.rules, key)
        typed[key] = list(value) if isinstance(value, tuple) else value
    return typed


# -- tournament ------------------------------------------------------------------------------
def lineups(policies: list[str], n_players: int) -> list[list[str]]:
    """Seat assignments in which every policy holds every seat equally often.

    With at most as many policies as seats, the policies are repeated in turn to fill the table
    and the table is rotated one seat at a time; with more policies than seats, every group of
    ``n_players`` policies is rotated that way.
    """
    if len(policies) < 2:
        raise BalanceError("a tournament needs at least two --policy")
    if len(set(policies)) != len(policies):
        raise BalanceError("each --policy may be given only once in a tournament")
    groups = (
        [policies] if len(policies) <= n_players else itertools.combinations(policies, n_players)
    )
    out: list[list[str]] = []
    for group in groups:
        table = [group[s % len(group)] for s in range(n_players)]
        for shift in range(n_players):
            rotated = table[shift:] + table[:shift]
            if rotated not in out:
                out.append(rotated)
    return out


def tournament(request: PlayRequest, out: str | Path, how: Execution = Execution()) -> Study:
    """The request's policies rotated through every seat, each rotation on the same game
    seeds."""
    spec = get_game(request.game)
    n_players = request.players if request.players is not None else spec.default_players
    spec.check_players(n_players)
    plans = []
    entered = list(request.policies or [])
    request = _read_once(request).but(players=n_players)
    canonical: dict[str, str] = {}  # each --policy as given -> its label (defaults left out)
    for lineup in lineups(entered, n_players):
        config = plan_run(request.but(policies=lineup))
        canonical.update(zip(lineup, config.policy_labels, strict=True))
        label = " | ".join(config.policy_labels)
        plans.append((StudyRun(f"rotation-{len(plans) + 1:02d}", label), config))
    _refuse_same_policies(canonical)
    study = _prepare(out, "tournament", spec.id, plans, how)
    return _execute(study, plans, how)


def _refuse_same_policies(canonical: dict[str, str]) -> None:
    """Two --policy texts naming one policy with the same parameters would play it against
    itself under two names."""
    given_as: dict[str, str] = {}
    for text, label in canonical.items():
        if label in given_as:
            raise BalanceError(
                f"--policy {given_as[label]} and --policy {text} are the same policy ({label}, "
                "with the same parameter values); enter each policy once"
            )
        given_as[label] = text


def _read(policy_file: str | Path | PolicyFile | None) -> PolicyFile | None:
    """The policy file read once for every run of a study (each run records the same hash)."""
    if policy_file is None or isinstance(policy_file, PolicyFile):
        return policy_file
    return read_policy_file(policy_file)


def _read_once(request: PlayRequest) -> PlayRequest:
    """The request with its policy file and data files read (and checked) once for every run
    of a study."""
    pfile = _read(request.policy_file)
    files = read_data(get_game(request.game).rules_class, request.data)
    return request.but(policy_file=pfile, data=files)
