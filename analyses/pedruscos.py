"""Pedruscos del Espacio analyses: branch payback and the station table's effect on a run.

Pure functions of a run folder (read lazily); each returns plain dicts of estimates with their
95% intervals (:mod:`analyses.stats`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from analyses.runs import Run
from analyses.stats import mean_from_moments, proportion

TABLE_ROWS = ("2-4", "5", "6", "7", "8", "9", "10", "11-12")
EVENT_NAMES = (
    "nothing",
    "autonomous hauler",
    "lost turn",
    "high purity",
    "repairs",
    "pirates",
    "stock market",
    "holidays",
)
P_2D6 = np.array([6, 4, 5, 6, 5, 4, 3, 3]) / 36


def _seat_rows(run: Run) -> pl.DataFrame:
    """One row per game and seat: policy, won, branches, harvest points, pirate losses."""
    cols = [
        "game_index",
        "winner",
        "policies",
        "pedruscos_branches",
        "pedruscos_harvest_points",
        "pedruscos_pirate_losses",
        "pedruscos_shipments",
    ]
    df = run.scan().select(cols).collect()
    n = run.n_players
    return (
        df.with_columns(pl.lit(list(range(n))).alias("seat"))
        .explode(
            [
                "seat",
                "policies",
                "pedruscos_branches",
                "pedruscos_harvest_points",
                "pedruscos_pirate_losses",
                "pedruscos_shipments",
            ]
        )
        .with_columns((pl.col("winner") == pl.col("seat")).alias("won"))
    )


def _mean(values: np.ndarray) -> dict[str, float]:
    v = np.asarray(values, dtype=float)
    return mean_from_moments(float(v.mean()), float(v.std(ddof=1)), len(v)).as_dict()


def branch_payback(run: Run) -> dict[str, Any]:
    """Per policy: branches built, points paid for them, and the value their harvests shipped;
    the win rate of seats by branches built."""
    cost = int(run.rules.get("branch_cost", 4))
    rows = _seat_rows(run)
    by_policy = []
    for (policy,), part in rows.group_by(["policies"], maintain_order=True):
        branches = part["pedruscos_branches"].to_numpy()
        harvest = part["pedruscos_harvest_points"].to_numpy()
        builders = branches > 0
        ratio = harvest[builders].sum() / max(1, cost * branches[builders].sum())
        by_policy.append(
            {
                "policy": policy,
                "seats": len(part),
                "branches": _mean(branches),
                "paid": _mean(cost * branches),
                "harvest_points": _mean(harvest),
                "payback": float(ratio),
                "net": _mean(harvest - cost * branches),
            }
        )
    by_count = []
    for k, part in rows.with_columns(
        pl.col("pedruscos_branches").clip(upper_bound=4).alias("k")
    ).group_by("k"):
        by_count.append(
            {
                "branches": int(k[0]) if isinstance(k, tuple) else int(k),
                "seats": len(part),
                "win": proportion(int(part["won"].sum()), len(part)).as_dict(),
            }
        )
    by_count.sort(key=lambda r: r["branches"])
    return {"branch_cost": cost, "by_policy": by_policy, "by_branches": by_count}


def station_table(run: Run) -> dict[str, Any]:
    """Results of the station table: mean per game, share against 2d6, and the win rate of
    seats by cards lost to pirates."""
    ev = run.scan().select("pedruscos_events").collect()["pedruscos_events"].to_numpy()
    counts = np.stack(ev) if ev.dtype == object else ev
    total = counts.sum(axis=0)
    rolls = int(total.sum())
    rows = []
    for k in range(len(TABLE_ROWS)):
        rows.append(
            {
                "roll": TABLE_ROWS[k],
                "result": EVENT_NAMES[k],
                "per_game": _mean(counts[:, k]),
                "share": proportion(int(total[k]), rolls).as_dict(),
                "expected_share": float(P_2D6[k]),
            }
        )
    seats = _seat_rows(run).with_columns(
        pl.when(pl.col("pedruscos_pirate_losses") == 0)
        .then(pl.lit("0"))
        .when(pl.col("pedruscos_pirate_losses") <= 3)
        .then(pl.lit("1-3"))
        .otherwise(pl.lit("4+"))
        .alias("lost")
    )
    pirates = []
    for lost in ("0", "1-3", "4+"):
        part = seats.filter(pl.col("lost") == lost)
        pirates.append(
            {
                "cards_lost": lost,
                "seats": len(part),
                "win": proportion(int(part["won"].sum()), len(part)).as_dict(),
            }
        )
    return {"rolls": rolls, "games": len(counts), "results": rows, "pirates": pirates}
