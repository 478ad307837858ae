"""The search, the check on fresh seeds and the files of a design folder."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError
from simulator.contract.rules import RuleSet
from simulator.folders.run_folder import now
from simulator.folders.study_folders import DESIGN_FILE, read_design
from simulator.runs.plan import with_evaluations
from simulator.runs.requests import Execution
from simulator.runs.runner import resolve_jobs

from ..tuning import BATCH, Player, games_on_disk, prepare_search_folder, search_sampler, write_json
from ..tuning import tune as run_tune
from .knobs import value_text
from .plan import DesignPlan, rule_changes


def design_summary(
    plan: DesignPlan, result: dict[str, Any], out: str | Path, report: str | Path
) -> dict[str, Any]:
    """What ``balance design --json`` prints: the plan, the results and where they are."""
    best = result["best"]
    return {
        "game": plan.spec.id,
        "targets": [t.text for t in plan.targets],
        "trials": plan.trials,
        "default": result["default"],
        "best": best,
        "settings": result["settings"],
        "met_every_target": result["met_every_target"],
        "held_back_by": result["held_back_by"],
        "variant_file": best.get("variant_file") if best else None,
        "games_total": result["games_total"],
        "wall_seconds": result["wall_seconds"],
        "out": str(out),
        "report": str(report),
    }


def variant_text(
    name: str, description: str, rules: RuleSet, play: dict[str, Any] | None = None
) -> str:
    """A variant file (``name``, ``description``, ``[rules]``, ``[data]`` with the path of
    every replaced data file, and ``[play]``: how the setting was judged) that ``--variant``
    reads back."""

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
    if play:
        lines += ["", "# How the design judged this setting; `balance simulate GAME --variant THIS",
                  f"# -n {play['games']} --seed {play['seed']}` plays those games again.",
                  "[play]"]  # fmt: skip
        lines += [f"{k} = {value(v)}" for k, v in play.items()]
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


def design(plan: DesignPlan, out: str | Path, how: Execution = Execution()) -> dict[str, Any]:
    """Run (or resume) the search and the check on fresh seeds; return the results."""
    import optuna

    from analyses.design import candidate, choose, settings_to_check
    from simulator.runs.cluster import check_address, cluster_session, connect

    jobs, cluster, progress = how.jobs, how.cluster, how.progress
    workers = resolve_jobs(jobs)  # also the processes a batch's evaluations are fitted in
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
                        result = run_tune(tplan, d / "tune", Execution(jobs, cluster))
                        tuned = tplan.policy_text(result["summary"]["best_params"])
                    runs = plan.configs(values, tuned=tuned, fit=False)
                except BalanceError as exc:  # the rules' cross-checks refuse this combination
                    batch.append((trial, values, None, None, str(exc)))
                    continue
                batch.append((trial, values, runs, tuned, None))
            batch = _fitted(batch, workers)
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
        say.line(check_line(len(chosen), plan.check_games, len(plan.folders())))
        # The starting rules are checked with the play fitted to them (the first candidate's
        # tune) when a policy is re-tuned, as every setting is with its own.
        start_tuned = next(
            (
                r.get("tuned")
                for r in results
                if r["number"] == 0 and r["values"] == plan.start_values
            ),
            None,
        )
        runs = [
            (config, path / "check" / "start" / folder, None)
            for folder, config in plan.configs(
                plan.start_values, check=True, tuned=start_tuned, fit=False
            )
        ]
        for i, row in enumerate(chosen, 1):
            for folder, config in plan.configs(
                row["values"], check=True, tuned=row["tuned"], fit=False
            ):
                runs.append((config, path / "check" / f"setting-{i}" / folder, None))
        fitted = with_evaluations([config for config, _, _ in runs], workers)
        player.play([(c, f, u) for c, (_, f, u) in zip(fitted, runs, strict=True)])
    verdict = choose(plan, path, chosen)
    for i, s in enumerate(verdict["settings"], 1):
        f = path / "variants" / f"setting-{i}.toml"
        f.parent.mkdir(exist_ok=True)
        judged = plan.configs(s["values"], check=True, tuned=s.get("tuned"), fit=False)[0][1]
        play = {
            "players": plan.n_players,
            "policies": [seat.label for seat in judged.seats],
            "rotate": plan.rotate,
            "seed": plan.check_seed,
            "games": plan.check_games,
        }
        f.write_text(variant_text(f"design-{i}", s["label"], plan.rules(s["values"]), play))
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


def _fitted(batch: list[tuple], jobs: int) -> list[tuple]:
    """A batch of candidates with their runs' evaluations, each distinct fit once, together."""
    flat = with_evaluations([c for _, _, runs, _, _ in batch for _, c in runs or []], jobs)
    it = iter(flat)
    return [
        (t, values, [(f, next(it)) for f, _ in runs] if runs is not None else None, tuned, why)
        for t, values, runs, tuned, why in batch
    ]


class _Say:
    """One line per candidate on stderr (a terminal only), so a long design shows it is alive."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()

    def line(self, text: str) -> None:
        if self.enabled:
            print(text, file=sys.stderr, flush=True)

    def trial(self, row: dict[str, Any], plan: DesignPlan) -> None:
        setting = ", ".join(f"{k}={value_text(v)}" for k, v in row["values"].items())
        if row.get("refused"):
            self.line(
                f"candidate {row['number'] + 1}/{plan.trials}: {setting}: refused by the rules"
            )
            return
        state = shortfall_text(plan.targets, row["shortfalls"])
        self.line(f"candidate {row['number'] + 1}/{plan.trials}: {setting}: {state}")


def check_line(settings: int, games: int, seatings: int) -> str:
    """What the check plays, counted as the report counts it (every seating's games together)."""
    each = f"{games * seatings:,} fresh games each"
    if seatings > 1:
        each += f" ({games:,} in each of {seatings} seatings)"
    return f"checking {settings} setting(s) and the starting rules on {each}"


def shortfall_text(targets: list[Any], shortfalls: list[float]) -> str:
    """How far a candidate is from its targets, each in its own unit: a share in points, any
    other measure in its own (``first-seat by 3.0 points, length by 2.50``)."""
    missed = [
        f"{t.name} by {short * 100:.1f} points" if t.is_share else f"{t.name} by {short:.2f}"
        for t, short in zip(targets, shortfalls, strict=True)
        if short > 0
    ]
    return "misses " + ", ".join(missed) if missed else "meets every target"
