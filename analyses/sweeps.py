"""Parameter sweeps: headline measures of every grid point, ready to plot against the parameter."""

from __future__ import annotations

from typing import Any

from .runs import Run, paired
from .seats import outcome_blocks
from .stats import balance_difference, balance_of, family_confidence, lead
from .summary import estimates


def sweep_rows(runs: list[Run], summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per grid point and measure: the point's parameter values, estimate and interval.

    Measures are the target names of :func:`analyses.summary.estimates` (seat-N, balance, draw,
    success, length, ...), so a sweep can be read against the same targets as a single run.
    """
    rows = []
    for run, summary in zip(runs, summaries, strict=True):
        for measure, est in estimates(summary).items():
            if measure in ("first-seat", "last-seat"):
                continue  # duplicates of seat-1 and seat-P
            rows.append(
                {
                    "point": run.label,
                    **{f"param:{k}": v for k, v in run.params.items()},
                    "measure": measure,
                    **est.as_dict(),
                }
            )
    return rows


def sweep_params(runs: list[Run]) -> list[str]:
    """The swept parameters, in the order they were given."""
    names: list[str] = []
    for run in runs:
        for key in run.params:
            if key not in names:
                names.append(key)
    return names


def most_balanced(runs: list[Run]) -> dict[str, Any] | None:
    """Whether the setting with the highest balance is separated from every other: balance
    differences paired on the games all settings share, bootstrap intervals corrected for the
    number of other settings (see :func:`analyses.stats.lead`). None for cooperative games and
    for runs on different seeds."""
    if runs[0].cooperative or not all(paired(runs[0], r) for r in runs[1:]):
        return None
    games = min(r.games_played() for r in runs)
    blocks = [outcome_blocks(r.scan(), r.n_players, games) for r in runs]
    top = max(range(len(runs)), key=lambda k: float(balance_of(blocks[k].sum(axis=0))))
    confidence = family_confidence(len(runs) - 1)
    rivals = [
        (runs[k].label, balance_difference(blocks[top], blocks[k], confidence))
        for k in range(len(runs))
        if k != top
    ]
    return lead(runs[top].label, rivals, games, confidence)
