"""Parameter sweeps: headline measures of every grid point, ready to plot against the parameter."""

from __future__ import annotations

from typing import Any

from .runs import Run
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
