"""The figures of ``balance design``: a candidate against the targets, the settings worth
checking, and the verdicts on fresh seeds (see :mod:`simulator.studies.design`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.outcomes import is_no_winner, share

from .outcomes import per_game_outcome
from .runs import Run
from .seats import outcome_blocks
from .stats import (
    Estimate,
    balance_estimate,
    mean_from_moments,
    paired_mean,
    paired_proportion,
    proportion,
    share_change,
    share_proportion,
)
from .summary import estimates, run_summary
from .targets import MEETS, MISSES, Target

SHARE_SCALE = 0.1  # a share's shortfall is counted in tens of points


def target_scale(target: Target) -> float:
    """The unit a shortfall is counted in, so targets of different measures add up: ten points
    for a share, a tenth of the target's largest bound otherwise (at least 1)."""
    if target.is_share:
        return SHARE_SCALE
    bounds = [abs(b) for b in (target.low, target.high) if math.isfinite(b)]
    return max(0.1 * max(bounds, default=10.0), 1.0) if bounds else 1.0


def pooled_estimates(runs: list[Run], targets: tuple[Target, ...]) -> dict[str, Estimate]:
    """Each target's estimate over every game of ``runs`` (the rotations of a lineup); one run's
    are the figures its own report gives."""
    if len(runs) == 1:
        return estimates(run_summary(runs[0]))
    out: dict[str, Estimate] = {}
    for t in targets:
        if t.name == "balance":
            blocks = np.vstack([outcome_blocks(r.scan(), r.n_players) for r in runs])
            out[t.name] = balance_estimate(blocks)
            continue
        parts = [per_game_values(r, t.name) for r in runs]
        if any(p is None for p in parts):
            continue
        x = np.concatenate(parts)
        if x.dtype == bool:
            out[t.name] = proportion(int(x.sum()), len(x))
        elif _is_win_share(t.name):  # a shared win somewhere: the shares' own interval
            out[t.name] = share_proportion(float(x.sum()), len(x), float((x * x).sum()))
        else:
            out[t.name] = mean_from_moments(float(x.mean()), float(x.std(ddof=1)), len(x))
    return out


def _estimates(paths: list[Path], targets: tuple[Target, ...]) -> tuple[list[Run], dict]:
    runs = [Run.open(p) for p in paths]
    return runs, pooled_estimates(runs, targets)


def candidate(plan: Any, paths: list[Path], values: dict[str, Any]) -> dict[str, Any]:
    """A searched candidate: its setting, change from the start, each target's estimate and
    shortfall (how far the estimate lies outside the range, in the target's scale)."""
    runs, est = _estimates(paths, plan.targets)
    figures, shortfalls = {}, []
    for t in plan.targets:
        e = est.get(t.name)
        figures[t.text] = e.as_dict() if e else None
        short = t.distance(e.value) / target_scale(t) if e and math.isfinite(e.value) else 1.0
        shortfalls.append(round(short, 6))
    return {
        "values": values,
        "label": plan.label(values),
        "change": round(plan.change(values), 6),
        "figures": figures,
        "shortfalls": shortfalls,
        "games": sum(r.games_played() for r in runs),
    }


def _rank(row: dict[str, Any]) -> tuple:
    short = sum(row["shortfalls"])
    return (short > 0, short, row["change"], row["number"])


def settings_to_check(plan: Any, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The searched settings to play again on fresh seeds: those meeting every target on the
    search's games first (the smallest change first), else the closest; never the start (it is
    always checked), each setting once."""
    played = sorted((r for r in results if not r.get("refused")), key=_rank)
    chosen, seen = [], {plan.label(plan.start_values)}
    for row in played:
        if row["label"] in seen:
            continue
        seen.add(row["label"])
        chosen.append(row)
        if len(chosen) == plan.check_settings:
            break
    return chosen


def per_game(run: Run, measure: str) -> pl.Expr | None:
    """A measure as one number (or yes/no) per game, for paired differences; None for a
    measure of the whole run (balance, comeback)."""
    last = run.n_players - 1
    seat = {"first-seat": 0, "last-seat": last}.get(measure)
    if measure.startswith("seat-"):
        seat = int(measure[5:]) - 1
    if seat is not None:  # the seat's share of the win (1/k a k-way shared win)
        return share(seat)
    if measure == "no-winner":  # no seat holds a share of the win
        return is_no_winner()
    if measure == "success":
        return pl.col("success").fill_null(False)
    if measure == "length":
        return pl.col("length").cast(pl.Float64)
    if measure == "lead-changes":
        return pl.col("lead_changes").cast(pl.Float64)
    if measure.startswith("end:"):
        return pl.col("end_reason") == measure[4:]
    if measure.startswith("mean:"):
        return run.own_figures().get(measure[5:])
    if measure.startswith("policy:"):
        seats = [s for s, p in enumerate(run.policies) if p.partition(":")[0] == measure[7:]]
        return pl.sum_horizontal([share(s) for s in seats]) if seats else pl.lit(0.0)
    return per_game_outcome(measure)  # return:seat-N, place:seat-N, shared


def _is_win_share(measure: str) -> bool:
    """Whether the measure is a share of the win per game (a seat's, or a policy's seats')."""
    return measure in ("first-seat", "last-seat") or measure.startswith(("seat-", "policy:"))


def per_game_values(run: Run, measure: str) -> np.ndarray | None:
    """A measure's value in every game of a run, in game order (None: a whole-run measure)."""
    expr = per_game(run, measure)
    if expr is None:
        return None
    frame = run.scan().select("game_index", expr.alias("x")).collect().sort("game_index")
    x = frame["x"].to_numpy()
    if _is_win_share(measure) and np.isin(x, (0.0, 1.0)).all():
        return x.astype(bool)  # every share whole: a yes/no win, read as before shared wins
    return x


def paired_change(start: list[Run], other: list[Run], target: Target) -> dict[str, Any] | None:
    """The setting minus the start on the same fresh games (seating by seating), with its 95%
    interval."""
    pairs = [
        (per_game_values(a, target.name), per_game_values(b, target.name))
        for a, b in zip(start, other, strict=True)
    ]
    if any(a is None or b is None for a, b in pairs):
        return None
    n = [min(len(a), len(b)) for a, b in pairs]
    a = np.concatenate([x[:k] for (x, _), k in zip(pairs, n, strict=True)])
    b = np.concatenate([y[:k] for (_, y), k in zip(pairs, n, strict=True)])
    if a.dtype == bool and b.dtype == bool:
        return paired_proportion(a, b).as_dict()
    if _is_win_share(target.name):  # shares of the win, one of them fractional
        return share_change(a.astype(float), b.astype(float), True).as_dict()
    return paired_mean(a.astype(float), b.astype(float)).as_dict()


def _judged(plan: Any, path: Path, rules: dict[str, Any]) -> tuple[list[Run], dict[str, Any]]:
    runs, est = _estimates([path / f for f in plan.folders()], plan.targets)
    figures, verdicts = {}, {}
    for t in plan.targets:
        e = est.get(t.name)
        figures[t.text] = e.as_dict() if e else None
        verdicts[t.text] = t.verdict(e)
    return runs, {
        "rules": rules,
        "figures": figures,
        "verdicts": verdicts,
        "games": sum(r.games_played() for r in runs),
    }


def choose(plan: Any, path: Path, chosen: list[dict[str, Any]]) -> dict[str, Any]:
    """Every checked setting judged on the fresh games only, ranked (most targets met, fewest
    missed, the smallest change), against the start; the best, and what held it back."""
    start_runs, start = _judged(plan, path / "check" / "start", plan.start.changed())
    start["label"] = plan.start_name
    settings = []
    for i, row in enumerate(chosen, 1):
        runs, judged = _judged(
            plan, path / "check" / f"setting-{i}", plan.rules(row["values"]).changed()
        )
        judged |= {
            "label": row["label"],
            "values": row["values"],
            "change": row["change"],
            "trial": row["number"],
            "tuned": row.get("tuned"),
            "lineups": row["lineups"],
            "search_shortfalls": row["shortfalls"],
            "check_folder": f"check/setting-{i}",
            "differences": {t.text: paired_change(start_runs, runs, t) for t in plan.targets},
        }
        settings.append(judged)
    settings.sort(key=_verdict_rank)
    best = settings[0] if settings else None
    met = bool(best) and all(v == MEETS for v in best["verdicts"].values())
    held = [] if met or best is None else [t for t, v in best["verdicts"].items() if v != MEETS]
    return {
        "default": start,
        "settings": settings,
        "best": best,
        "met_every_target": met,
        "start_met_every_target": all(v == MEETS for v in start["verdicts"].values()),
        "held_back_by": held,
    }


def _verdict_rank(s: dict[str, Any]) -> tuple:
    verdicts = list(s["verdicts"].values())
    return (-verdicts.count(MEETS), verdicts.count(MISSES), s["change"], s["trial"])


def option_table(data: dict[str, Any]) -> dict[str, list[tuple[Any, dict[str, Any], bool]]]:
    """For each searched option, every played candidate's value beside its figures and whether
    the candidate was checked again on fresh seeds (the report's "each target against each
    option")."""
    checked = {s["trial"] for s in data.get("settings", [])}
    played = [t for t in data["trials"] if not t.get("refused")]
    return {
        knob["name"]: [
            (t["values"][knob["name"]], t["figures"], t["number"] in checked) for t in played
        ]
        for knob in data["plan"]["knobs"]
    }


def shortfall_history(data: dict[str, Any]) -> np.ndarray:
    """Total shortfall of each candidate in the order played (nan for a refused one)."""
    return np.array(
        [math.nan if t.get("refused") else sum(t["shortfalls"]) for t in data["trials"]]
    )
