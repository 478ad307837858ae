"""Screening rule options: which of them move the game (``balance explore``).

A *factor* is one rule option varied over a range: a number between two values (rounded to whole
values for an integer option), a yes/no option as no and yes, or, when named, a choice option as
its choices in the order the game lists them. The design comes from SALib: Morris trajectories
(``SALib.sample.morris.sample``, ``LEVELS`` levels; r trajectories of k + 1 points, each point
one factor away from the last) or Saltelli's Sobol sample (``SALib.sample.sobol.sample``, N(k + 2)
points). Every distinct setting of the design is one ordinary run folder of a study of kind
``explore``, all on the run seed, so game ``i`` deals the same way at every point (common random
numbers) and a killed explore resumes like any study. ``explore-plan.json`` keeps the design
(the factors and their ranges, the sample in unit coordinates, which run each design row played)
for :mod:`analyses.explore`.

Ranges. A range given with ``--range NAME=LO:HI`` is used as given (inside the option's declared
bounds). Otherwise a number ranges from half to double the value in force (a default of 0: from
0 to a tenth of the declared span, or to 1 without an upper bound), clipped to the declared
bounds; an integer range is widened to at least ``MIN_STEPS`` whole steps where the bounds allow.
Declared bounds are what the engine accepts (a price up to 500), rarely what a designer would
print, hence the narrower default.
"""

from __future__ import annotations

import json
import math
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import read_data
from simulator.contract.registry import get_game
from simulator.contract.rules import OptionInfo, RuleSet, build_rules, parse_sets
from simulator.folders.run_folder import atomic_write
from simulator.folders.study_folders import (
    EXPLORE_FILE,
    EXPLORE_PLAN_FILE,
    EXPLORE_TIME_FILE,
    STUDY_FILE,
    Study,
    StudyRun,
    read_plan,
)
from simulator.runs.plan import RunConfig, plan_run, with_evaluations
from simulator.runs.requests import Execution, PlayRequest
from simulator.studies.compare import _execute, _prepare, _read

KIND = "explore"
METHODS = ("morris", "sobol")
LEVELS = (
    4  # Morris grid levels: steps of 2/3 of a range, so a yes/no or 0..1 step never rounds away
)
MIN_STEPS = 2  # whole steps an integer range spans at least, where the bounds allow
MAX_POINTS = 2000
DEFAULT_TRAJECTORIES = {"morris": 10, "sobol": 16}
MIN_SOBOL_BASE = 8  # below it the shares' bootstrap intervals mean nothing (N = 2: 186% [172, 200])


@dataclass(frozen=True)
class Factor:
    """One option varied over ``lo``..``hi`` (a choice option: its indices 0..k-1)."""

    name: str
    kind: str  # "int", "float", "bool" or "choice"
    lo: float
    hi: float
    default: Any  # the value in force at the base rules
    source: str  # "default range" or "--range"
    choices: tuple[str, ...] | None = None

    def value(self, u: float) -> Any:
        """The rule value at unit coordinate ``u`` (0 = low end, 1 = high end)."""
        if self.kind == "bool":
            return u >= 0.5
        x = self.lo + u * (self.hi - self.lo)
        if self.kind == "choice":
            return self.choices[math.floor(x + 0.5)]
        if self.kind == "int":
            return math.floor(x + 0.5)
        return float(f"{x:.4g}")  # four significant digits, so a folder's label is exact

    def position(self, value: Any) -> float:
        """Where a rule value lies in the range, 0..1 (the step a rounded value really took)."""
        if self.kind == "bool":
            return float(bool(value))
        x = self.choices.index(value) if self.kind == "choice" else float(value)
        return (x - self.lo) / (self.hi - self.lo)

    def range_text(self) -> str:
        if self.kind == "bool":
            return "no, yes"
        if self.kind == "choice":
            return ", ".join(self.choices)
        return f"{_num(self.lo)} to {_num(self.hi)}"

    def as_dict(self) -> dict[str, Any]:
        ends: list[Any] = [self.lo, self.hi]
        if self.kind == "bool":
            ends = [False, True]
        elif self.kind == "choice":
            ends = [self.choices[0], self.choices[-1]]
        elif self.kind == "int":
            ends = [int(self.lo), int(self.hi)]
        return {
            "option": self.name,
            "kind": self.kind,
            "range": ends,
            "choices": list(self.choices) if self.choices else None,
            "default": self.default,
            "source": self.source,
        }


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _set_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- which options, over which ranges -----------------------------------------------------------
def unscreenable(info: OptionInfo) -> str | None:
    """Why an option cannot be a factor at all, or None."""
    if info.type.startswith("tuple"):
        return (
            "is a list of numbers (such as card counts); Morris needs one ordered scale per "
            "option, so change it with --set, or compare lists with balance compare"
        )
    if info.type == "str" and not info.choices:
        return "is text (a file or folder), not a value on a scale"
    return None


def default_range(info: OptionInfo, value: Any) -> tuple[float, float]:
    """The plausible range of a number around the value in force (see the module docstring);
    raises BalanceError when the declared bounds leave a single value."""
    lo_b = -math.inf if info.lo is None else float(info.lo)
    hi_b = math.inf if info.hi is None else float(info.hi)
    v = float(value)
    if v == 0:
        top = (hi_b - lo_b) / 10 if math.isfinite(hi_b - lo_b) else 1.0
        lo, hi = (-top if lo_b < 0 else 0.0), top
    else:
        lo, hi = sorted((v / 2, v * 2))
    lo, hi = max(lo, lo_b), min(hi, hi_b)
    if info.type == "int":
        lo, hi = math.floor(lo), math.ceil(hi)
        while hi - lo < MIN_STEPS and (hi < hi_b or lo > lo_b):
            if hi < hi_b:
                hi += 1
            if hi - lo < MIN_STEPS and lo > lo_b:
                lo -= 1
    if not hi > lo:
        raise BalanceError(
            f"option '{info.name}' allows only {_num(lo)} here (declared bounds "
            f"{_num(lo_b)}..{_num(hi_b)}); give it a range with --range"
        )
    return lo, hi


def parse_range(text: str, rules_cls: type[RuleSet]) -> tuple[str, float, float]:
    """``NAME=LO:HI`` for a number option, inside its declared bounds."""
    name, sep, span = text.partition("=")
    name = name.strip()
    lo_text, colon, hi_text = span.partition(":")
    if not sep or not name or not colon:
        raise BalanceError(f"--range expects NAME=LO:HI, e.g. price_ship=5:20; got {text!r}")
    info = rules_cls.option_info(name, "--range")
    why = unscreenable(info)
    if why:
        raise BalanceError(f"--range {name}: option '{name}' {why}")
    if info.type == "bool" or info.choices:
        what = "no and yes" if info.type == "bool" else "all its choices"
        raise BalanceError(
            f"--range {name}: option '{name}' is screened over {what}; --range takes a number "
            "option"
        )
    try:
        lo, hi = float(lo_text), float(hi_text)
    except ValueError:
        raise BalanceError(f"--range {text!r}: LO and HI must be numbers") from None
    if info.type == "int" and not (lo.is_integer() and hi.is_integer()):
        raise BalanceError(f"--range {text!r}: '{name}' is a whole number; give whole LO and HI")
    if lo >= hi:
        raise BalanceError(f"--range {text!r}: LO must be below HI")
    if (info.lo is not None and lo < info.lo) or (info.hi is not None and hi > info.hi):
        raise BalanceError(f"--range {text!r}: outside the bounds of '{name}' ({info.allowed()})")
    return name, lo, hi


def plan_factors(
    rules_cls: type[RuleSet],
    base: RuleSet,
    options: list[str] | None,
    ranges: list[str] | None,
    fixed: set[str],
) -> tuple[list[Factor], list[dict[str, str]]]:
    """The factors, and the options left out of a default screen with the reason."""
    given: dict[str, tuple[float, float]] = {}
    for text in ranges or []:
        name, lo, hi = parse_range(text, rules_cls)
        if name in given:
            raise BalanceError(f"--range {name} is given twice")
        given[name] = (lo, hi)
    skipped: list[dict[str, str]] = []
    if options:
        names = []
        for name in options:
            info = rules_cls.option_info(name, "--options")
            why = unscreenable(info)
            if why:
                raise BalanceError(f"--options {name}: option '{name}' {why}")
            if name in names:
                raise BalanceError(f"--options names '{name}' twice")
            names.append(name)
        stray = sorted(set(given) - set(names))
        if stray:
            raise BalanceError(
                f"--range {stray[0]}: '{stray[0]}' is not among --options; add it there"
            )
    else:
        names = []
        for info in rules_cls.options():
            if info.name in given:
                names.append(info.name)
            elif unscreenable(info) is None and not info.choices and info.name not in fixed:
                if info.screen:
                    names.append(info.name)
        for info in rules_cls.options():
            if info.name in fixed:
                skipped.append({"option": info.name, "reason": "fixed by --set"})
            elif info.name not in names:
                skipped.append({"option": info.name, "reason": _skip_reason(info)})
    clash = sorted(set(names) & fixed)
    if clash:
        raise BalanceError(
            f"'{clash[0]}' is both fixed (--set) and screened; leave it out of one of them"
        )
    factors = []
    for name in names:
        info = rules_cls.option_info(name)
        value = getattr(base, name)
        if info.type == "bool":
            factors.append(Factor(name, "bool", 0.0, 1.0, value, "no and yes"))
        elif info.choices:
            k = len(info.choices)
            factors.append(
                Factor(name, "choice", 0.0, k - 1.0, value, "choices in order", info.choices)
            )
        elif name in given:
            factors.append(Factor(name, info.type, *given[name], value, "--range"))
        else:
            try:
                lo, hi = default_range(info, value)
            except BalanceError as exc:
                if options:
                    raise
                skipped.append({"option": name, "reason": str(exc)})
                continue
            factors.append(Factor(name, info.type, lo, hi, value, "default range"))
    if len(factors) < 2:
        raise BalanceError(
            f"explore screens at least 2 options; {len(factors)} can be screened here "
            "(name them with --options A,B,...)"
        )
    return factors, skipped


def _skip_reason(info: OptionInfo) -> str:
    why = unscreenable(info)
    if why:
        return f"'{info.name}' {why}"
    if info.choices:
        return (
            "a choice: its choices have no order for elementary effects to step along; name it "
            "in --options to screen its choices in the order listed"
        )
    return "a run limit rather than a design choice (declared screen=False); name it to screen it"


def _feasible(
    factors: list[Factor], skipped: list[dict[str, str]], refused, *, narrow: bool
) -> list[Factor]:
    """Factors whose range ends the rules accept alone and in every pair (other options at
    the values in force). A default screen (``narrow``) pulls an integer range in until its
    ends are accepted and leaves out an option that still clashes, saying why; options the
    designer named are refused instead."""
    kept: list[Factor] = []
    for f in factors:
        ends = [f.value(0.0), f.value(1.0)]
        problem = next((p for v in ends if (p := refused({f.name: v}))), None)
        if problem and narrow and f.kind == "int":
            lo, hi = f.lo, f.hi
            while hi > lo and refused({f.name: int(hi)}):
                hi -= 1
            while hi > lo and refused({f.name: int(lo)}):
                lo += 1
            if hi > lo:
                f = Factor(f.name, f.kind, lo, hi, f.default, "default range, narrowed")
                problem = None
        if problem is None:
            kept.append(f)
            continue
        if not narrow:
            raise BalanceError(f"option '{f.name}' over {f.range_text()}: {problem}")
        skipped.append({"option": f.name, "reason": f"its range is refused here: {problem}"})
    out: list[Factor] = []
    for f in kept:
        problem = None
        for g in out:
            for a in (0.0, 1.0):
                for b in (0.0, 1.0):
                    problem = problem or refused({g.name: g.value(a), f.name: f.value(b)})
            if problem:
                if not narrow:
                    raise BalanceError(
                        f"options '{g.name}' ({g.range_text()}) and '{f.name}' "
                        f"({f.range_text()}) clash: {problem}; narrow a --range"
                    )
                skipped.append(
                    {"option": f.name, "reason": f"its range clashes with '{g.name}': {problem}"}
                )
                break
        if problem is None:
            out.append(f)
    if len(out) < 2:
        raise BalanceError(
            f"explore screens at least 2 options; {len(out)} can be screened here "
            "(name them with --options A,B,...)"
        )
    return out


# -- the design ---------------------------------------------------------------------------------
@dataclass
class ExplorePlan:
    game: str
    method: str
    factors: list[Factor]
    skipped: list[dict[str, str]]
    trajectories: int  # Morris: r trajectories; Sobol: N base samples
    games: int
    seed: int
    unit: list[list[float]]  # the sample, one row per design point, unit coordinates
    run_of_row: list[int]  # index into ``plans`` of the run that plays each row
    plans: list[tuple[StudyRun, RunConfig]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "levels": LEVELS if self.method == "morris" else None,
            "trajectories": self.trajectories,
            "games": self.games,
            "seed": self.seed,
            "factors": [f.as_dict() for f in self.factors],
            "skipped": self.skipped,
            "unit": self.unit,
            "run_of_row": self.run_of_row,
        }


def sample(method: str, k: int, trajectories: int, seed: int) -> list[list[float]]:
    """The design in unit coordinates (rows: points, columns: factors)."""
    problem = {"num_vars": k, "names": [f"x{i}" for i in range(k)], "bounds": [[0.0, 1.0]] * k}
    if method == "morris":
        from SALib.sample.morris import sample as morris_sample

        x = morris_sample(problem, trajectories, num_levels=LEVELS, seed=seed)
    else:
        from SALib.sample.sobol import sample as sobol_sample

        with warnings.catch_warnings():  # N is checked here (a power of 2); no second word
            warnings.simplefilter("ignore")
            x = sobol_sample(problem, trajectories, calc_second_order=False, seed=seed)
    return [[round(float(v), 12) for v in row] for row in x]


def points_needed(method: str, k: int, trajectories: int) -> int:
    return trajectories * (k + 1) if method == "morris" else trajectories * (k + 2)


def plan_explore(
    request: PlayRequest,
    *,
    options: list[str] | None = None,
    ranges: list[str] | None = None,
    method: str = "morris",
    trajectories: int | None = None,
    jobs: int = 1,
) -> ExplorePlan:
    """Every point of the design (``request.games`` games each), validated (nothing is written
    here). A searching seat's evaluations are fitted once per distinct key, the missing ones in
    ``jobs`` worker processes."""
    game, games, seed = request.game, request.games, request.seed
    if method not in METHODS:
        raise BalanceError(f"--method must be morris or sobol, not {method!r}")
    if games < 1:
        raise BalanceError(f"-n must be at least 1 game per point, not {games}")
    r = DEFAULT_TRAJECTORIES[method] if trajectories is None else trajectories
    if r < 2:
        raise BalanceError(
            f"--trajectories must be at least 2, not {r}: the spread of the effects and their "
            "intervals need two or more"
        )
    if method == "sobol" and r < MIN_SOBOL_BASE:
        raise BalanceError(
            f"--method sobol: --trajectories {r} is too small a base sample; shares of variance "
            f"from {2 * r} points fall outside 0-100% by luck alone: use --trajectories "
            f"{MIN_SOBOL_BASE} or more (the report says when a larger one would pin them down)"
        )
    if method == "sobol" and r & (r - 1):
        raise BalanceError(
            f"--method sobol: --trajectories is Saltelli's base sample N and must be a power of "
            f"2 (8, 16, 32, ...), not {r}"
        )
    spec = get_game(game)
    base_sets = parse_sets(request.sets or [])
    files = read_data(spec.rules_class, request.data)  # read and checked once for every point
    base, _ = build_rules(spec.rules_class, request.variant, base_sets, files)
    factors, skipped = plan_factors(spec.rules_class, base, options, ranges, set(base_sets))
    request = request.but(policy_file=_read(request.policy_file), data=files)
    first = plan_run(request.but(sets=base_sets), fit=False)

    def refused(values: dict[str, Any]) -> str | None:
        """Why the rules in force with ``values`` cannot be played here (as a run says it)."""
        try:
            rules = base.with_values({n: _set_text(v) for n, v in values.items()})
            spec.check_run(rules, first.n_players, list(first.seats))
        except BalanceError as exc:
            return str(exc)
        return None

    factors = _feasible(factors, skipped, refused, narrow=not options and not ranges)
    k = len(factors)
    needed = points_needed(method, k, r)
    if needed > MAX_POINTS:
        raise BalanceError(
            f"this design needs {needed:,} points ({k} options, --trajectories {r}); at most "
            f"{MAX_POINTS:,} are allowed: screen fewer options or lower --trajectories"
        )
    unit = sample(method, k, r, seed)
    plans: list[tuple[StudyRun, RunConfig]] = []
    index: dict[tuple, int] = {}
    run_of_row = []
    rows_of_run: list[list[int]] = []
    for row_number, row in enumerate(unit):
        values = {f.name: f.value(u) for f, u in zip(factors, row, strict=True)}
        key = tuple(values.values())
        if key not in index:
            point = {**base_sets, **{n: _set_text(v) for n, v in values.items()}}
            try:
                config = plan_run(request.but(sets=point), fit=False)
            except BalanceError as exc:
                where = ", ".join(f"{n}={_set_text(v)}" for n, v in values.items())
                raise BalanceError(
                    f"explore point ({where}) is refused: {exc}; narrow a --range or screen "
                    "other --options"
                ) from None
            index[key] = len(plans)
            rows_of_run.append([])
            n = len(plans) + 1
            plans.append((StudyRun(f"point-{n:04d}", f"point {n}", {"values": values}), config))
        run_of_row.append(index[key])
        rows_of_run[index[key]].append(row_number)
    fitted = with_evaluations([c for _, c in plans], jobs)
    plans = [
        (StudyRun(s.folder, s.label, {**s.params, "rows": rows}), c)
        for (s, _), c, rows in zip(plans, fitted, rows_of_run, strict=True)
    ]
    return ExplorePlan(game, method, factors, skipped, r, games, seed, unit, run_of_row, plans)


def explore(
    request: PlayRequest, out: str | Path, how: Execution = Execution(), **design: Any
) -> Study:
    """Plan (``design``: the keywords of :func:`plan_explore`), then play every point: a folder of
    ordinary runs, resumable. The seconds it took are added to the folder's ``explore-time.json``
    (an interrupted explore's too: its finished points are kept), so the report gives the wall
    time of the whole explore however often it was resumed."""
    started, refused = time.monotonic(), False
    try:
        return _explore(request, out, how, **design)
    except BalanceError:
        refused = True  # bad input is refused before anything is written
        raise
    finally:
        if not refused:
            _add_seconds(Path(out), time.monotonic() - started)


def _add_seconds(out: Path, seconds: float) -> None:
    """Add one invocation's wall time to OUT/explore-time.json."""
    if not (out / STUDY_FILE).is_file():
        return  # interrupted while planning: nothing was written
    f = out / EXPLORE_TIME_FILE
    try:
        spent = json.loads(f.read_text())["seconds"] if f.is_file() else []
    except (OSError, ValueError, KeyError, TypeError):
        spent = []
    f.write_text(json.dumps({"seconds": [*spent, round(seconds, 1)]}) + "\n")


# What `balance explore --json` prints and OUT/explore.json holds (`design --explore` reads it).
SUMMARY_KEYS = (
    "game", "figures", "options", "method", "points", "games", "out", "ranges", "skipped",
    "dropped", "same_as", "noise", "games_per_point", "runs", "trajectories", "players",
    "policies", "wall_seconds", "first_seat_edge", "sobol_budget", "headline", "report",
)  # fmt: skip


def write_summary(study: Study, fmt: str = "html") -> dict[str, Any]:
    """Write the explore's report (OUT/report.FMT) and OUT/explore.json; return the summary."""
    from reports.build import write_report

    data = write_report([study.path], study.path / f"report.{fmt}", fmt=fmt)
    summary = {k: data[k] for k in SUMMARY_KEYS}
    (study.path / EXPLORE_FILE).write_text(json.dumps(summary, indent=2, default=str) + "\n")
    return summary


def _explore(request: PlayRequest, out: str | Path, how: Execution, **design: Any) -> Study:
    game = request.game
    from simulator.runs.runner import resolve_jobs

    plan = plan_explore(request, **design, jobs=resolve_jobs(how.jobs))
    p = Path(out)
    old = p / EXPLORE_PLAN_FILE
    if old.is_file() and read_plan(p) != json.loads(json.dumps(plan.to_json())):
        raise BalanceError(
            f"--out {str(p)!r} holds another explore; use a new folder, or repeat the original "
            "command to resume it"
        )
    study = _prepare(out, KIND, game, plan.plans, how, max_runs=MAX_POINTS)
    atomic_write(study.path / EXPLORE_PLAN_FILE, (json.dumps(plan.to_json()) + "\n").encode())
    return _play(study, plan.plans, how)


def _play(study: Study, plans: list[tuple[StudyRun, RunConfig]], how: Execution) -> Study:
    """Points of one chunk each would play one after another on one core: spread whole points
    over the worker processes instead (the first played here, so it compiles once)."""
    from simulator.runs.interrupt import expect
    from simulator.runs.runner import as_finished, resolve_jobs, run, say_study_reused

    for entry, config in plans:  # what Ctrl-C reports as kept
        expect(study.path / entry.folder, config.games)
    workers, wait = resolve_jobs(how.jobs), how.wait
    if how.cluster is not None or workers == 1 or len(plans[0][1].chunks()) > 1 or len(plans) < 3:
        return _execute(study, plans, how)
    if how.progress:
        say_study_reused(study.path, plans)
    from joblib import delayed

    first, rest = plans[0], plans[1:]
    run(first[1], study.path / first[0].folder, jobs=1, progress=False, wait=wait)
    tell = how.progress and sys.stderr.isatty()
    done = 1
    tasks = (
        delayed(_play_point)(config, str(study.path / entry.folder), wait) for entry, config in rest
    )
    for _ in as_finished(workers, tasks):
        done += 1
        if tell:
            # A run per distinct setting: rounding can make design points the same setting.
            print(f"\rsettings played: {done} of {len(plans)}", end="", file=sys.stderr)
    if tell:
        print(file=sys.stderr)
    return study


def _play_point(config: RunConfig, folder: str, wait: bool) -> None:
    from simulator.runs.runner import run

    run(config, folder, jobs=1, progress=False, wait=wait)
