"""Everything the report says about one run, gathered in one dict (also what ``--json`` prints)."""

from __future__ import annotations

from typing import Any

import polars as pl

from .drama import drama_summary
from .length import end_reasons, length_summary
from .outcomes import outcome_estimates, outcome_summary
from .runs import Run
from .seats import seat_summary, success_summary
from .stats import Estimate, mean_from_moments, share_proportion


def run_summary(run: Run) -> dict[str, Any]:
    """What was run, who wins (or how often a cooperative game succeeds), length, end
    conditions, drama."""
    summary: dict[str, Any] = {"run": run.describe()}
    if run.cooperative:
        summary["success"] = success_summary(run)
    else:
        summary["seats"] = seat_summary(run)
    summary["outcomes"] = outcome_summary(run)  # places, returns, shared wins
    summary["length"] = length_summary(run)
    summary["end_reasons"] = end_reasons(run)
    summary["drama"] = drama_summary(run)
    summary["columns"] = column_means(run)
    return summary


def column_means(run: Run) -> dict[str, dict[str, float]]:
    """Mean per game of each of the game's own counts and measures, with its 95% interval (over
    the games where the column applies)."""
    own = run.own_figures()
    if not own:
        return {}
    frame = run.scan().select(*(e.alias(c) for c, e in own.items())).collect()
    return means_of(frame, list(own))


def means_of(frame: pl.DataFrame, columns: list[str]) -> dict[str, dict[str, float]]:
    """Mean and 95% interval of each column over the games where it applies (a null is a game
    where it does not: no campaign, a turn never reached); a column that never applies is left
    out."""
    out = {}
    for c in columns:
        values = frame[c].drop_nulls()
        if values.len():
            mean, std = float(values.mean() or 0.0), float(values.std() or 0.0)
            out[c] = mean_from_moments(mean, std, values.len()).as_dict()
    return out


def estimates(summary: dict[str, Any]) -> dict[str, Estimate]:
    """The run's headline measures by target name (see :mod:`analyses.targets`)."""
    out: dict[str, Estimate] = {}

    def est(d: dict[str, Any]) -> Estimate:
        return Estimate(d["value"], d["lo"], d["hi"])

    if "seats" in summary:
        seats = summary["seats"]["seats"]
        for s in seats:
            out[f"seat-{s['seat']}"] = est(s)
        out["first-seat"], out["last-seat"] = est(seats[0]), est(seats[-1])
        out["no-winner"] = est(summary["seats"]["no_winner_rate"])
        if "shared_win_rate" in summary["seats"]:
            out["shared"] = est(summary["seats"]["shared_win_rate"])
        out["balance"] = est(summary["seats"]["balance"])
        games = summary["seats"]["games"]
        for name in {s["policy"].partition(":")[0] for s in seats}:
            wins = sum(s["wins"] for s in seats if s["policy"].partition(":")[0] == name)
            out[f"policy:{name}"] = share_proportion(wins, games)
    if "success" in summary:
        out["success"] = est(summary["success"]["success"])
    out["length"] = est(summary["length"]["mean"])
    if summary.get("drama"):
        out["lead-changes"] = est(summary["drama"]["lead_changes"])
        out["comeback"] = est(summary["drama"]["comeback_rate"])
    for row in summary.get("end_reasons", []):
        out[f"end:{row['end_reason']}"] = est(row)
    for name, d in summary.get("columns", {}).items():
        out[f"mean:{name}"] = est(d)
    out.update(outcome_estimates(summary))  # return:seat-N, place:seat-N, shared
    return out


def headline_rate_widths(run: Run) -> dict[str, float]:
    """Width of every headline rate interval: seat win rates, shared-win and no-winner rates, or
    success.

    ``--until-ci W`` keeps playing until all of these are narrower than W (rates, so W=0.02
    means two percentage points).
    """
    if run.cooperative:
        s = success_summary(run)["success"]
        return {"success": s["hi"] - s["lo"]}
    seats = seat_summary(run)
    widths = {f"seat-{s['seat']}": s["hi"] - s["lo"] for s in seats["seats"]}
    for name, key in (("shared", "shared_win_rate"), ("no-winner", "no_winner_rate")):
        if seats[key]["value"] > 0:
            widths[name] = seats[key]["hi"] - seats[key]["lo"]
    return widths
