"""Turn the folders given to `balance report` into runs and decide what kind of report they make:
one run, a comparison, a sweep or a tournament (a study folder says; loose runs are grouped)."""

from __future__ import annotations

import json
from pathlib import Path

from analyses.runs import Run
from simulator.contract.errors import BalanceError
from simulator.contract.registry import get_game
from simulator.folders.study_folders import read_study

MAX_GROUPED_RUNS = 6  # runs drawn side by side in one figure


def open_runs(paths: list[str | Path]) -> tuple[str, list[Run]]:
    """The report's kind and its runs, from run folders and/or study folders."""
    if not paths:
        raise BalanceError("give at least one run folder (or compare/sweep/tournament folder)")
    runs: list[Run] = []
    kinds = []
    for path in paths:
        study = read_study(path)
        if study is None:
            runs.append(Run.open(path))
            continue
        kinds.append(study.kind)
        for entry in study.runs:
            runs.append(Run.open(study.path / entry.folder, entry.label, entry.params))
    games = {r.game for r in runs}
    if len(games) > 1:
        raise BalanceError(
            f"a report covers one game; these runs are of {', '.join(sorted(games))}"
        )
    _refuse_identical(runs)
    _unique_labels(runs)
    if len(paths) == 1 and kinds:
        return kinds[0], runs
    return _infer_kind(runs), runs


def _refuse_identical(runs: list[Run]) -> None:
    """Two folders holding the same games (one folder given twice, or a copy) compare nothing."""
    seen: dict[str, Run] = {}
    for run in runs:
        key = json.dumps(run.config, sort_keys=True, default=str)
        if key in seen:
            first = seen[key]
            what = (
                "is given twice"
                if first.path.resolve() == run.path.resolve()
                else f"and {str(run.path)!r} hold the same games (same rules, seats, seed and "
                "games)"
            )
            raise BalanceError(f"run {str(first.path)!r} {what}: there is nothing to compare")
        seen[key] = run


def _unique_labels(runs: list[Run]) -> None:
    seen: dict[str, int] = {}
    for k, run in enumerate(runs):
        label = run.label
        if label in seen:
            label = f"{run.label} ({run.path.name})"
            runs[k] = Run(run.path, run.manifest, label, run.params)
        seen[label] = k


def _infer_kind(runs: list[Run]) -> str:
    if len(runs) == 1:
        return "single"
    first = runs[0]
    same_rules = all(r.rules == first.rules and r.n_players == first.n_players for r in runs)
    if same_rules and len({tuple(r.policies) for r in runs}) == len(runs):
        return "tournament"
    if all(r.n_players == first.n_players for r in runs):
        return "compare"
    return "runs"


def known(game: str) -> bool:
    try:
        get_game(game)
    except BalanceError:
        return False
    return True


def kind_words(kind: str, n: int) -> str:
    return {
        "single": "one run",
        "compare": f"the default rules against {n - 1} variant(s)",
        "sweep": f"a sweep of {n} rule settings",
        "tournament": f"a tournament of {n} seat rotations",
        "skill": f"a skill ladder of {n} runs",
        "ladder": f"a comparison under every rung of a skill ladder ({n} runs)",
        "explore": f"a screening of rule options ({n} settings)",
        "runs": f"{n} runs",
    }[kind]
