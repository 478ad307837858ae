"""How long games last and which rule ended them."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simulator.contract.outcomes import share

from .runs import Run
from .stats import mean_from_moments, proportion

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
MAX_BINS = 40


def length_summary(run: Run) -> dict[str, Any]:
    """Mean (with its t interval), median, 5/25/75/95th percentiles and a histogram of length.

    Lengths are whole numbers, so the histogram comes from the run's value counts: one small
    table however many games the run holds.
    """
    lf = run.scan()
    row = (
        lf.select(
            pl.len().alias("games"),
            pl.col("length").mean().alias("mean"),
            pl.col("length").std().alias("std"),
            pl.col("length").min().alias("min"),
            pl.col("length").max().alias("max"),
            *[
                pl.col("length").quantile(q, interpolation="linear").alias(f"q{q}")
                for q in QUANTILES
            ],
        )
        .collect()
        .row(0, named=True)
    )
    games = int(row["games"])
    std = float(row["std"]) if row["std"] is not None else float("nan")
    mean = mean_from_moments(float(row["mean"]), std, games)
    counts = lf.group_by("length").agg(pl.len().alias("n")).sort("length").collect()
    return {
        "games": games,
        "unit": run.length_unit,
        "mean": mean.as_dict(),
        "std": std,
        "min": int(row["min"]),
        "max": int(row["max"]),
        "percentiles": {f"p{round(q * 100)}": float(row[f"q{q}"]) for q in QUANTILES},
        "histogram": _histogram(counts["length"].to_numpy(), counts["n"].to_numpy(), games),
    }


def _histogram(values: np.ndarray, counts: np.ndarray, games: int) -> list[dict[str, Any]]:
    """Bins of game length (at most MAX_BINS, each a whole number of units) with shares."""
    lo, hi = int(values.min()), int(values.max())
    width = max(1, -(-(hi - lo + 1) // MAX_BINS))
    bins = (values - lo) // width
    totals = np.bincount(bins, weights=counts).astype(np.int64)
    out = []
    for b, n in enumerate(totals):
        share = proportion(int(n), games)
        out.append(
            {"from": lo + b * width, "to": lo + (b + 1) * width - 1, "games": int(n)}
            | {"share": share.value, "lo": share.lo, "hi": share.hi}
        )
    return out


def end_reasons(run: Run) -> list[dict[str, Any]]:
    """Share of games ended by each end condition (caps included), with Wilson intervals.

    Every end condition the game declares is listed, even those that never happened.
    ``lower_score_wins`` counts the games of each in which a seat holding a share of the win
    scored worse than another seat (the end rule, not the score, chose the winner); worse is
    lower, or higher in a game where the lowest score wins.
    """
    lf = run.scan()
    sign = -1 if run.spec is not None and run.spec.lowest_score_wins else 1
    score = [sign * pl.col("scores").list.get(s, null_on_oob=True) for s in range(run.n_players)]
    worst_winner = pl.min_horizontal(
        [pl.when(share(s) > 0).then(score[s]) for s in range(run.n_players)]
    )
    lower = (worst_winner < pl.max_horizontal(score)).fill_null(False)
    table = lf.group_by("end_reason").agg(pl.len().alias("n"), lower.sum().alias("lower")).collect()
    counts = dict(zip(table["end_reason"], table["n"], strict=True))
    lower_counts = dict(zip(table["end_reason"], table["lower"], strict=True))
    games = sum(counts.values())
    names = run.end_reasons + sorted(set(counts) - set(run.end_reasons))
    rows = []
    for name in names:
        est = proportion(int(counts.get(name, 0)), games)
        rows.append(
            {
                "end_reason": name,
                "games": int(counts.get(name, 0)),
                "lower_score_wins": int(lower_counts.get(name, 0)),
                **est.as_dict(),
            }
        )
    return rows
