"""A validated design request: targets, options, the lineup and the runs of a candidate."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.registry import GameSpec, get_game
from simulator.contract.rules import RuleSet
from simulator.runs.plan import RunConfig, default_chunk_size, plan_run
from simulator.runs.policy_file import PolicyFile, read_policy_file
from simulator.runs.requests import PlayRequest

from ..tuning import BATCH, plan_tune
from .knobs import (
    EXPLORE_OPTIONS,
    RuleKnob,
    figure_of_target,
    knobs_from_explore,
    parse_rule_knob,
    policy_name,
    rotations,
    value_text,
)

MAX_TRIALS = 1000
CHECK_SALT = 0xDE5160  # the fresh seeds of the check are drawn from (seed, CHECK_SALT)


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
        self,
        values: dict[str, Any],
        *,
        check: bool = False,
        tuned: str | None = None,
        fit: bool = True,
    ) -> list[tuple[str, RunConfig]]:
        """(folder, run) of every seating of a candidate; ``tuned`` (a policy text) takes the
        seats of the policy it tunes; ``fit=False`` leaves a search seat's evaluation to
        ``simulator.runs.plan.with_evaluations`` (a batch of candidates fitted together)."""
        out = []
        for folder, seats in zip(self.folders(), self.lineups, strict=True):
            if tuned is not None:
                seats = [tuned if policy_name(t) == policy_name(tuned) else t for t in seats]
            out.append((folder, self.config(values, check=check, policies=seats, fit=fit)))
        return out

    def config(
        self,
        values: dict[str, Any],
        *,
        check: bool = False,
        policies: list[str] | None = None,
        fit: bool = True,
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
            fit=fit,
        )
        return dataclasses.replace(config, variant=self.label(values))

    def label(self, values: dict[str, Any]) -> str:
        moved = {k: v for k, v in values.items() if v != getattr(self.start, k)}
        if not moved:
            return self.start_name
        return ",".join(f"{k}={value_text(v)}" for k, v in moved.items())

    def change(self, values: dict[str, Any]) -> float:
        start = self.start_values
        return sum(k.change(values[k.name], start[k.name]) for k in self.knobs)

    def tune_plan(self, values: dict[str, Any]) -> Any:
        """The tune of ``--tune POLICY`` under a candidate's rules (the other seats its field)."""
        name = policy_name(self.tune or "")
        texts = list(self.policies)
        mine = [t for t in texts if policy_name(t) == name]
        field_ = list(dict.fromkeys(t for t in texts if t not in mine))
        if not field_ and not self.spec.cooperative:
            field_ = [mine[0]]
        rules = self.rules(values)
        sets = [
            f"{k}={','.join(map(str, v)) if isinstance(v, list) else value_text(v)}"
            for k, v in rule_changes(rules).items()
        ]
        request = PlayRequest(self.spec.id, self.tune_games, players=self.n_players,
                              seed=self.seed, sets=sets, policy_file=self.policy_file,
                              data={s.name: s for s in rules.data})  # fmt: skip
        return plan_tune(
            request,
            self.tune if ":" in (self.tune or "") else mine[0],
            against=field_,
            trials=self.tune_trials,
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
    request: PlayRequest,
    targets: list[str],
    *,
    params: list[str] | None = None,
    explore: str | Path | None = None,
    trials: int = 30,
    check_games: int | None = None,
    check_settings: int = 3,
    tune: str | None = None,
    tune_trials: int = 8,
    tune_games: int | None = None,
    rotate: bool = False,
) -> DesignPlan:
    """Validate a design request (``request.games`` games per candidate; BalanceError naming
    the problem; nothing is written)."""
    from analyses.targets import check_measurable, parse_targets

    games, seed, sets, variant = request.games, request.seed, request.sets, request.variant
    spec = get_game(request.game)
    parsed = parse_targets(targets)
    if not parsed:
        raise BalanceError("design needs at least one --target (e.g. --target no-winner<=5%)")
    check_measurable(parsed, spec)
    if not 1 <= trials <= MAX_TRIALS:
        raise BalanceError(f"--trials must be between 1 and {MAX_TRIALS} candidates, not {trials}")
    if check_settings < 1:
        raise BalanceError(f"--check-settings must be at least 1, not {check_settings}")
    if check_games is not None and check_games < 1:
        raise BalanceError(f"--check-games must be at least 1, not {check_games}")
    policy_file = request.policy_file
    if policy_file is not None and not isinstance(policy_file, PolicyFile):
        policy_file = read_policy_file(policy_file)
    base = plan_run(request.but(policy_file=policy_file), fit=False)
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
    names = {policy_name(t) for t in seats}
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
        chunk_size=default_chunk_size(per_lineup),
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
    plan.configs(plan.start_values, fit=False)
    plan.configs(plan.start_values, check=True, fit=False)
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
def rule_changes(rules: RuleSet) -> dict[str, Any]:
    """The options a rule set changes (its replaced data files left out)."""
    files = {s.name for s in rules.data}
    return {k: v for k, v in rules.changed().items() if k not in files}
