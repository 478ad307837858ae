"""Drama: how often the lead changes hands, and how often the half-time leader loses.

Engines of competitive games with a score record ``lead_changes`` (times the leader changed in a
game) and ``half_leader`` (the leading seat at half the game's length, -1 when tied). Each game's
rules document says what "leading" means for it.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from simulator.contract.outcomes import WIN_SHARE, is_no_winner

from .runs import Run
from .stats import mean_from_moments, proportion

DRAMA_COLUMNS = ("lead_changes", "half_leader")


def has_drama(run: Run) -> bool:
    return not run.cooperative and all(c in run.columns() for c in DRAMA_COLUMNS)


def drama_summary(run: Run) -> dict[str, Any] | None:
    """Lead changes per game (mean with interval, share of games with none) and comeback rate.

    The comeback rate is the share of games with a clear half-time leader and a winner in which
    the leader holds no share of the win (another seat won, alone or sharing without it; the
    leader sharing the win was not overtaken). Games nobody won are left out: they are no one's
    comeback, and counting them would mix the no-winner rate into this one. "Leading" is the
    game's: where the lowest score wins, the engine records the lowest score as the lead. None
    when the game records no drama columns (``scores_during_play`` False: not measured).
    """
    if not has_drama(run):
        return None
    leader = pl.col("half_leader")
    decided = ~is_no_winner()
    leader_share = pl.col(WIN_SHARE).list.get(
        pl.when(leader >= 0).then(leader).cast(pl.Int64), null_on_oob=True
    )
    row = (
        run.scan()
        .select(
            pl.len().alias("games"),
            pl.col("lead_changes").mean().alias("mean"),
            pl.col("lead_changes").std().alias("std"),
            (pl.col("lead_changes") == 0).sum().alias("no_change"),
            ((leader >= 0) & decided).sum().alias("led"),
            ((leader >= 0) & decided & (leader_share == 0))
            .fill_null(False)
            .sum()
            .alias("comebacks"),
        )
        .collect()
        .row(0, named=True)
    )
    games = int(row["games"])
    std = float(row["std"]) if row["std"] is not None else float("nan")
    led, comebacks = int(row["led"]), int(row["comebacks"])
    return {
        "games": games,
        "lead_changes": mean_from_moments(float(row["mean"]), std, games).as_dict(),
        "no_lead_change": proportion(int(row["no_change"]), games).as_dict(),
        "games_with_half_leader": led,
        "comebacks": comebacks,
        "comeback_rate": proportion(comebacks, led).as_dict(),
    }
