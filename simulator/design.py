"""``balance design``: search rule settings for ones that meet a designer's targets.

The search
- The designer names the options to search (``--param NAME=LO:HI``, or a list of values), or
  takes those a ``balance explore`` ranked highest for the targets' figures (``--explore DIR``).
- Optuna's TPE sampler, constrained: each target is a constraint (how far the candidate's
  estimate lies outside the target's range, in units of the target's scale: 10 points for a
  share, a tenth of the bound for a length or a mean), and among the settings that meet every
  constraint the objective is the smallest change from the rules the search starts from (each
  searched option's move as a share of its range; a different choice counts 1). So the search
  answers "what is the least I must change to get there?", and with no setting meeting every
  target, the closest one.
- The starting rules are the first candidate; every candidate is an ordinary run folder played on
  the same game seeds (common random numbers). Candidates are proposed ``BATCH`` at a time
  (constant liar), never as many as the workers, so the same seed proposes the same candidates on
  one machine or on a cluster.
- Adapted play (``--tune POLICY``): under each candidate, that seated policy is first tuned to the
  candidate's rules (``balance tune`` machinery) and the candidate's run seats the tuned setting.
  This multiplies the games of a candidate by about ``tune_trials``.
- The winner's curse: the search flatters the settings it ranks first, so the best few are played
  again, with the starting rules, on fresh seeds; each target's verdict (meets, misses, cannot
  tell yet) comes from that check only.

Files (everything under ``--out``)
- ``design.json``: the plan (a folder holding another design is refused) and, at the end, the
  results;
- ``trials/NNN/run/`` (with ``--rotate``, ``trials/NNN/rot-K/``, one per rotation of the
  lineup; with ``--tune``, ``trials/NNN/tune/`` too): the run folders of a candidate.
  Nothing else is state: a killed design run again replays the search from its folders (no game
  is played twice) and continues;
- ``check/start/<run>/``, ``check/setting-K/<run>/``: the check on fresh seeds;
- ``variants/setting-K.toml``: each setting reported, as a variant file ``--variant`` accepts.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .dataset import now
from .errors import BalanceError
from .games import GameSpec, get_game
from .plan import RunConfig, plan_run
from .policy_file import PolicyFile, read_policy_file
from .rules import OptionInfo, RuleSet, coerce
from .tuning import (
    BATCH,
    Player,
    games_on_disk,
    plan_tune,
    prepare_search_folder,
    search_sampler,
    write_json,
)
from .tuning import tune as run_tune

DESIGN_FILE = "design.json"
MAX_TRIALS = 1000
CHECK_SALT = 0xDE5160  # the fresh seeds of the check are drawn from (seed, CHECK_SALT)
EXPLORE_FILE = "explore.json"
EXPLORE_OPTIONS = 4  # options taken from an explore when --param is not given


@dataclass(frozen=True)
class RuleKnob:
    """A rule option being searched: a range (``lo``..``hi``) or a list of ``values``."""

    name: str
    type: str  # int | float | bool | str
    lo: float | None = None
    hi: float | None = None
    values: tuple[Any, ...] = ()

    @property
    def categorical(self) -> bool:
        return bool(self.values)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "lo": self.lo,
            "hi": self.hi,
            "values": list(self.values),
        }

    def text(self) -> str:
        if self.categorical:
            return ", ".join(_value_text(v) for v in self.values)
        return f"{_value_text(self.lo)} to {_value_text(self.hi)}"

    def change(self, value: Any, start: Any) -> float:
        """How far ``value`` moved from ``start``: a share of the range, or 1 for another choice."""
        if self.categorical:
            return 0.0 if value == start else 1.0
        return abs(float(value) - float(start)) / (float(self.hi) - float(self.lo))


def _name(policy: str) -> str:
    """A policy's name without its parameters (``mcts:playouts=50`` -> ``mcts``)."""
    return policy.partition(":")[0].strip()


def rotations(seats: list[str]) -> list[list[str]]:
    """The lineup rotated one seat at a time (each distinct table once)."""
    out: list[list[str]] = []
    for shift in range(len(seats)):
        table = seats[shift:] + seats[:shift]
        if table not in out:
            out.append(table)
    return out


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def parse_rule_knob(text: str, rules_cls: type[RuleSet], fixed: set[str]) -> RuleKnob:
    """``NAME=LO:HI`` (a number's range), ``NAME=a,b,c`` (values to choose from) or ``NAME`` (a
    yes/no or a choice option: every value)."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    info = rules_cls.option_info(name)
    where = f"--param {text!r}"
    if name in fixed:
        raise BalanceError(
            f"{where}: '{name}' is also fixed by --set or the variant; search it or fix it, "
            "not both"
        )
    if info.type.startswith("tuple"):
        raise BalanceError(
            f"{where}: '{name}' is a list ({info.type}); design searches single numbers, yes/no "
            "and choice options (fix a list with --set)"
        )
    if info.type == "str" and not info.choices:
        raise BalanceError(f"{where}: '{name}' is free text, not a setting to search")
    if not sep:
        if info.type == "bool":
            return RuleKnob(name, "bool", values=(False, True))
        if info.choices:
            return RuleKnob(name, "str", values=tuple(info.choices))
        raise BalanceError(
            f"{where}: give the range to search, NAME=LO:HI (allowed: {info.allowed()}), or "
            "values, NAME=a,b,c"
        )
    if ":" in spec and info.type in ("int", "float"):
        return _range_knob(info, spec, where)
    raw = [v.strip() for v in spec.split(",") if v.strip()]
    if len(raw) < 2:
        raise BalanceError(f"{where}: give at least two values (NAME=a,b) or a range NAME=LO:HI")
    values = tuple(dict.fromkeys(coerce(info, v, where) for v in raw))
    if len(values) < 2:
        raise BalanceError(f"{where}: the values name one setting; give at least two")
    return RuleKnob(name, info.type, values=values)


def _range_knob(info: OptionInfo, spec: str, where: str) -> RuleKnob:
    a, _, b = spec.partition(":")
    lo, hi = coerce(info, a.strip(), where), coerce(info, b.strip(), where)
    if not lo < hi:
        raise BalanceError(f"{where}: LO must be below HI")
    if info.type == "int" and hi - lo < 1:
        raise BalanceError(f"{where}: the range holds one whole number")
    return RuleKnob(info.name, info.type, lo=lo, hi=hi)


def knobs_from_explore(
    path: str | Path, spec: GameSpec, figures: list[str], fixed: set[str], top: int
) -> list[RuleKnob]:
    """The options an explore ranked highest for these figures (those it told from luck), with
    the ranges it screened."""
    f = Path(path) / EXPLORE_FILE
    if not f.is_file():
        raise BalanceError(
            f"--explore {str(path)!r}: no {EXPLORE_FILE} there (run balance explore)"
        )
    try:
        data = json.loads(f.read_text())
        rows = list(data["options"])
        game = data["game"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None
    if game != spec.id:
        raise BalanceError(f"--explore {str(path)!r} explored {game}, not {spec.id}")
    told = [
        r
        for r in rows
        if r.get("figure") in figures
        and r.get("option") not in fixed
        and r.get("moves")  # told from luck (mu* alone never falls to zero under noise)
    ]
    # Effects of different figures are in different units (points, days): take each figure's
    # options in its own order, a figure at a time, so every target gets its strongest levers.
    by_figure = [
        sorted((r for r in told if r["figure"] == f), key=lambda r: -float(r["effect"]))
        for f in figures
    ]
    ranked = [
        col[i]
        for i in range(max(map(len, by_figure), default=0))
        for col in by_figure
        if i < len(col)
    ]
    if not ranked:
        raise BalanceError(
            f"--explore {str(path)!r}: no option moved {', '.join(figures)} beyond noise there; "
            "name the options to search with --param NAME=LO:HI"
        )
    knobs: list[RuleKnob] = []
    for r in ranked:
        if r["option"] in {k.name for k in knobs}:
            continue
        info = spec.rules_class.option_info(r["option"])
        lo, hi = r["range"]
        if info.type == "bool":
            knobs.append(RuleKnob(info.name, "bool", values=(False, True)))
        else:
            knobs.append(_range_knob(info, f"{lo}:{hi}", f"--explore {r['option']}"))
        if len(knobs) == top:
            break
    return knobs


def figure_of_target(name: str) -> str:
    """The explore figure a target measures (seat-N targets are read on the first seat's)."""
    return "first-seat" if name in ("last-seat",) or name.startswith("seat-") else name


@dataclass(frozen=True)
class DesignPlan:
    """A validated design request."""

    spec: GameSpec
    targets: tuple[Any, ...]  # analyses.targets.Target
    knobs: tuple[RuleKnob, ...]
    start: RuleSet  # the rules the search starts from (defaults, --variant, --set)
    start_name: str
    policies: tuple[str, ...]
    n_players: int
    trials: int
    games: int
    check_games: int
    check_settings: int
    seed: int
    chunk_size: int
    tune: str | None = None
    tune_trials: int = 0
    tune_games: int = 0
    rotate: bool = False
    policy_file: PolicyFile | None = None
    source: dict[str, Any] = field(default_factory=dict)  # what the request said (for the report)

    @property
    def check_seed(self) -> int:
        return int(np.random.SeedSequence([self.seed, CHECK_SALT]).generate_state(1)[0])

    @property
    def start_values(self) -> dict[str, Any]:
        return {k.name: getattr(self.start, k.name) for k in self.knobs}

    def rules(self, values: dict[str, Any]) -> RuleSet:
        return self.start.with_values(values, source="design candidate")

    @property
    def lineups(self) -> list[list[str]]:
        """The seatings a candidate plays: the lineup as given, or (``--rotate``) every rotation
        of it, so each policy holds each seat equally often."""
        seats = list(self.policies)
        return rotations(seats) if self.rotate else [seats]

    def folders(self) -> list[str]:
        return [f"rot-{k + 1}" for k in range(len(self.lineups))] if self.rotate else ["run"]

    def configs(
        self, values: dict[str, Any], *, check: bool = False, tuned: str | None = None
    ) -> list[tuple[str, RunConfig]]:
        """(folder, run) of every seating of a candidate; ``tuned`` (a policy text) takes the
        seats of the policy it tunes."""
        out = []
        for folder, seats in zip(self.folders(), self.lineups, strict=True):
            if tuned is not None:
                seats = [tuned if _name(t) == _name(tuned) else t for t in seats]
            out.append((folder, self.config(values, check=check, policies=seats)))
        return out

    def config(
        self, values: dict[str, Any], *, check: bool = False, policies: list[str] | None = None
    ) -> RunConfig:
        config = plan_run(
            self.spec.id,
            self.check_games if check else self.games,
            players=self.n_players,
            policies=policies or self.lineups[0],
            seed=self.check_seed if check else self.seed,
            rules=self.rules(values),
            chunk_size=None if check else self.chunk_size,
            policy_file=self.policy_file,
        )
        return dataclasses.replace(config, variant=self.label(values))

    def label(self, values: dict[str, Any]) -> str:
        moved = {k: v for k, v in values.items() if v != getattr(self.start, k)}
        if not moved:
            return self.start_name
        return ",".join(f"{k}={_value_text(v)}" for k, v in moved.items())

    def change(self, values: dict[str, Any]) -> float:
        start = self.start_values
        return sum(k.change(values[k.name], start[k.name]) for k in self.knobs)

    def tune_plan(self, values: dict[str, Any]) -> Any:
        """The tune of ``--tune POLICY`` under a candidate's rules (the other seats its field)."""
        name = _name(self.tune or "")
        texts = list(self.policies)
        mine = [t for t in texts if _name(t) == name]
        field_ = list(dict.fromkeys(t for t in texts if t not in mine))
        if not field_ and not self.spec.cooperative:
            field_ = [mine[0]]
        rules = self.rules(values)
        sets = [
            f"{k}={','.join(map(str, v)) if isinstance(v, list) else _value_text(v)}"
            for k, v in rule_changes(rules).items()
        ]
        return plan_tune(
            self.spec.id,
            self.tune if ":" in (self.tune or "") else mine[0],
            self.tune_games,
            against=field_,
            players=self.n_players,
            sets=sets,
            trials=self.tune_trials,
            seed=self.seed,
            policy_file=self.policy_file,
            data={s.name: s for s in rules.data},
        )

    def describe(self) -> dict[str, Any]:
        """What decides the design's results: a folder holding another design is refused."""
        return {
            "kind": "design",
            "game": self.spec.id,
            "targets": [t.text for t in self.targets],
            "knobs": [k.as_dict() for k in self.knobs],
            "start": self.start.changed(),
            "data": {s.name: s.sha256 for s in self.start.data},
            "start_name": self.start_name,
            "policies": list(self.policies),
            "n_players": self.n_players,
            "trials": self.trials,
            "games": self.games,
            "check_games": self.check_games,
            "check_settings": self.check_settings,
            "seed": self.seed,
            "check_seed": self.check_seed,
            "chunk_size": self.chunk_size,
            "batch": BATCH,
            "tune": self.tune,
            "tune_trials": self.tune_trials,
            "tune_games": self.tune_games,
            "rotate": self.rotate,
            "lineups": self.lineups,
            "explore": self.source.get("explore"),
            **({"policy_file": self.policy_file.sha256} if self.policy_file else {}),
        }


def plan_design(
    game: str,
    targets: list[str],
    games: int,
    *,
    params: list[str] | None = None,
    explore: str | Path | None = None,
    players: int | None = None,
    policies: list[str] | None = None,
    sets: list[str] | None = None,
    variant: str | Path | None = None,
    trials: int = 30,
    check_games: int | None = None,
    check_settings: int = 3,
    seed: int = 0,
    tune: str | None = None,
    tune_trials: int = 8,
    tune_games: int | None = None,
    rotate: bool = False,
    policy_file: str | Path | PolicyFile | None = None,
    data: list[str] | None = None,
) -> DesignPlan:
    """Validate a design request (BalanceError naming the problem; nothing is written)."""
    from analyses.targets import check_measurable, parse_targets

    spec = get_game(game)
    parsed = parse_targets(targets)
    if not parsed:
        raise BalanceError("design needs at least one --target (e.g. --target draw<=5%)")
    check_measurable(parsed, spec)
    if not 1 <= trials <= MAX_TRIALS:
        raise BalanceError(f"--trials must be between 1 and {MAX_TRIALS} candidates, not {trials}")
    if check_settings < 1:
        raise BalanceError(f"--check-settings must be at least 1, not {check_settings}")
    if check_games is not None and check_games < 1:
        raise BalanceError(f"--check-games must be at least 1, not {check_games}")
    if policy_file is not None and not isinstance(policy_file, PolicyFile):
        policy_file = read_policy_file(policy_file)
    base = plan_run(
        game,
        games,
        players=players,
        policies=policies,
        seed=seed,
        sets=sets,
        variant=variant,
        policy_file=policy_file,
        data=data,
    )
    start, start_name = base.rules, base.variant
    fixed = set(rule_changes(start))
    if params:
        knobs = [parse_rule_knob(t, spec.rules_class, fixed) for t in params]
    elif explore is not None:
        figures = list(dict.fromkeys(figure_of_target(t.name) for t in parsed))
        knobs = knobs_from_explore(explore, spec, figures, fixed, EXPLORE_OPTIONS)
    else:
        raise BalanceError(
            "name the rule options to search with --param NAME=LO:HI (repeatable), or take "
            "those a balance explore ranked highest with --explore DIR"
        )
    if len({k.name for k in knobs}) != len(knobs):
        raise BalanceError("each --param may be given only once")
    seats = [s.label for s in base.seats]
    names = {_name(t) for t in seats}
    for t in parsed:
        if t.name.startswith("policy:") and t.name[7:] not in names:
            raise BalanceError(
                f"--target {t.text!r}: no seat plays {t.name[7:]}; seated: {', '.join(seats)}"
            )
        if rotate and t.name == "comeback":
            raise BalanceError(
                f"--target {t.text!r}: the comeback rate is measured in one run; leave out "
                "--rotate or this target"
            )
    if rotate and len(names) < 2:
        raise BalanceError("--rotate needs seats playing different policies (repeat --policy)")
    lineups = rotations(seats) if rotate else [seats]
    per_lineup = -(-games // len(lineups))  # a candidate's games, shared among its seatings
    chunk_size = plan_run(game, per_lineup, players=base.n_players, policies=seats).chunk_size
    if tune is not None:
        name = tune.partition(":")[0].strip()
        if name not in spec.policies and all(s.policy.name != name for s in base.seats):
            raise BalanceError(
                f"unknown policy '{name}' for {spec.id}; choose from: {', '.join(spec.policies)}"
            )
        if all(s.policy.name != name for s in base.seats):
            raise BalanceError(f"--tune {name}: no seat plays {name}; seat it with --policy")
    plan = DesignPlan(
        spec=spec,
        targets=tuple(parsed),
        knobs=tuple(knobs),
        start=start,
        start_name=start_name,
        policies=tuple(seats),
        n_players=base.n_players,
        trials=trials,
        games=per_lineup,
        check_games=-(-(check_games or 2 * games) // len(lineups)),
        check_settings=check_settings,
        seed=seed,
        chunk_size=chunk_size,
        tune=tune,
        tune_trials=tune_trials,
        tune_games=tune_games or games,
        rotate=rotate,
        policy_file=policy_file,
        source={
            "variant": str(variant) if variant else None,
            "sets": list(sets or []),
            "explore": str(explore) if explore is not None and not params else None,
        },
    )
    # The extremes of every knob are validated now (the rules' own cross-checks may still refuse
    # a combination: such a candidate is recorded as refused, not played).
    plan.configs(plan.start_values)
    plan.configs(plan.start_values, check=True)
    for k in knobs:
        for v in k.values or (k.lo, k.hi):
            try:
                plan.rules({k.name: v})
            except BalanceError as exc:
                raise BalanceError(f"--param {k.name}: {exc}") from None
    if tune is not None:
        plan.tune_plan(plan.start_values)
    return plan


# -- the files -------------------------------------------------------------------------------
def read_design(path: str | Path) -> dict[str, Any] | None:
    """``design.json`` of a design folder (None when there is none; a damaged one is refused)."""
    f = Path(path) / DESIGN_FILE
    if not f.is_file():
        return None
    try:
        data = json.loads(f.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None
    if not isinstance(data, dict) or "plan" not in data:
        raise BalanceError(f"{str(f)!r} is damaged (no plan); start the design in a new folder")
    return data


def rule_changes(rules: RuleSet) -> dict[str, Any]:
    """The options a rule set changes (its replaced data files left out)."""
    files = {s.name for s in rules.data}
    return {k: v for k, v in rules.changed().items() if k not in files}


def variant_text(name: str, description: str, rules: RuleSet) -> str:
    """A variant file (``name``, ``description``, ``[rules]``, and ``[data]`` with the path of
    every replaced data file) that ``--variant`` reads back."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, str):
            return json.dumps(v)
        return repr(v)

    lines = [
        f"name = {json.dumps(name)}",
        f"description = {json.dumps(description)}",
        "",
        "[rules]",
    ]
    lines += [f"{k} = {value(v)}" for k, v in rule_changes(rules).items()]
    if rules.data:
        lines += ["", "[data]"]
        lines += [f"{s.name} = {json.dumps(str(Path(s.path).resolve()))}" for s in rules.data]
    return "\n".join(lines) + "\n"


# -- the search ------------------------------------------------------------------------------
def _trial_dir(path: Path, number: int) -> Path:
    return path / "trials" / f"{number:03d}"


def _suggest(plan: DesignPlan, trial: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for k in plan.knobs:
        if k.categorical:
            values[k.name] = trial.suggest_categorical(k.name, list(k.values))
        elif k.type == "int":
            values[k.name] = trial.suggest_int(k.name, int(k.lo), int(k.hi))
        else:
            v = trial.suggest_float(k.name, float(k.lo), float(k.hi))
            values[k.name] = min(max(float(f"{v:.4g}"), float(k.lo)), float(k.hi))
    return values


def _start_in_range(plan: DesignPlan) -> dict[str, Any]:
    """The starting values, each clipped into its knob's range (the first candidate)."""
    out = {}
    for k, v in plan.start_values.items():
        knob = next(x for x in plan.knobs if x.name == k)
        if knob.categorical:
            out[k] = v if v in knob.values else knob.values[0]
        else:
            out[k] = min(max(v, knob.lo), knob.hi)
    return out


def design(
    plan: DesignPlan,
    out: str | Path,
    *,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Run (or resume) the search and the check on fresh seeds; return the results."""
    import optuna

    from analyses.design import candidate, choose, settings_to_check

    from .cluster import check_address, cluster_session, connect

    if cluster is not None:
        check_address(cluster)
    path = prepare_search_folder(out, DESIGN_FILE, plan.describe(), "design")
    started = time.perf_counter()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="minimize", sampler=search_sampler(plan.seed, plan.trials)
    )
    study.enqueue_trial(_start_in_range(plan))
    played_before = games_on_disk(path)
    results: list[dict[str, Any]] = []
    say = _Say(progress)
    with cluster_session(cluster):
        if cluster is not None:
            connect(cluster)
        player = Player(jobs, cluster, notice=progress)
        while len(results) < plan.trials:
            asked = [study.ask() for _ in range(min(BATCH, plan.trials - len(results)))]
            batch = []
            for trial in asked:
                values = _suggest(plan, trial)
                d = _trial_dir(path, trial.number)
                try:
                    tuned = None
                    if plan.tune is not None:
                        tplan = plan.tune_plan(values)
                        result = run_tune(tplan, d / "tune", jobs=jobs, cluster=cluster)
                        tuned = tplan.policy_text(result["summary"]["best_params"])
                    runs = plan.configs(values, tuned=tuned)
                except BalanceError as exc:  # the rules' cross-checks refuse this combination
                    batch.append((trial, values, None, None, str(exc)))
                    continue
                batch.append((trial, values, runs, tuned, None))
            player.play(
                [
                    (config, _trial_dir(path, t.number) / folder, None)
                    for t, _, runs, _, _ in batch
                    for folder, config in runs or []
                ]
            )
            for trial, values, runs, tuned, refused in batch:
                if runs is None:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                    row = {"number": trial.number, "values": values, "refused": refused}
                else:
                    d = _trial_dir(path, trial.number)
                    row = candidate(plan, [d / f for f in plan.folders()], values)
                    row["number"], row["tuned"] = trial.number, tuned
                    row["lineups"] = [[s.label for s in c.seats] for _, c in runs]
                    for t, short in zip(plan.targets, row["shortfalls"], strict=True):
                        trial.set_constraint(t.text, short)  # feasible at 0 (target met)
                    study.tell(trial, row["change"])
                results.append(row)
                say.trial(row, plan)
        chosen = settings_to_check(plan, results)
        say.line(
            f"checking {len(chosen)} setting(s) and the starting rules on {plan.check_games:,} "
            "fresh games each"
        )
        runs = [
            (config, path / "check" / "start" / folder, None)
            for folder, config in plan.configs(plan.start_values, check=True)
        ]
        for i, row in enumerate(chosen, 1):
            for folder, config in plan.configs(row["values"], check=True, tuned=row["tuned"]):
                runs.append((config, path / "check" / f"setting-{i}" / folder, None))
        player.play(runs)
    verdict = choose(plan, path, chosen)
    for i, s in enumerate(verdict["settings"], 1):
        f = path / "variants" / f"setting-{i}.toml"
        f.parent.mkdir(exist_ok=True)
        f.write_text(variant_text(f"design-{i}", s["label"], plan.rules(s["values"])))
        s["variant_file"] = str(f)
    elapsed = time.perf_counter() - started
    data = read_design(path) or {}
    total = games_on_disk(path)
    data |= {
        "plan": plan.describe(),
        "finished": now(),
        "trials": results,
        **verdict,
        "games_total": total,
        "games_played_now": total - played_before,
        "wall_seconds": round(elapsed, 1),
        "backend": cluster or "local processes",
        "out": str(path),
    }
    write_json(path / DESIGN_FILE, data)
    return data


class _Say:
    """One line per candidate on stderr (a terminal only), so a long design shows it is alive."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()

    def line(self, text: str) -> None:
        if self.enabled:
            print(text, file=sys.stderr, flush=True)

    def trial(self, row: dict[str, Any], plan: DesignPlan) -> None:
        setting = ", ".join(f"{k}={_value_text(v)}" for k, v in row["values"].items())
        if row.get("refused"):
            self.line(
                f"candidate {row['number'] + 1}/{plan.trials}: {setting}: refused by the rules"
            )
            return
        short = sum(row["shortfalls"])
        state = "meets every target" if short == 0 else f"short by {short:.2f}"
        self.line(f"candidate {row['number'] + 1}/{plan.trials}: {setting}: {state}")
