"""Games worth watching in a run: the longest, one nobody won (or a failed mission), a comeback.

Each comes with the ``balance replay`` command that shows it move by move, so a surprising
figure in a report leads straight to an example game.
"""

from __future__ import annotations

import shlex
from typing import Any

import polars as pl

from .runs import Run


def replay_command(run: Run, game_index: int) -> str:
    return f"balance replay {shlex.quote(str(run.path))} --game-index {game_index}"


def games_to_watch(run: Run) -> list[dict[str, Any]]:
    """Up to three games of the run: ``{"what", "game_index", "length", "end_reason",
    "command"}``; a kind the run has no game of has ``game_index`` None. A comeback is a game
    won by a seat that was not leading at half time (from the ``half_leader`` column, when the
    game has it); the one with most lead changes is shown."""
    games = run.scan()
    names = games.collect_schema().names()
    picks: list[tuple[str, pl.LazyFrame]] = [
        ("the longest game", games.sort(["length", "game_index"], descending=[True, False]))
    ]
    if run.cooperative:
        picks.append(("a failed game", games.filter(~pl.col("success")).sort("game_index")))
    else:
        picks.append(("a game nobody won", games.filter(pl.col("winner").is_null())))
        if "half_leader" in names:
            comeback = games.filter(
                pl.col("winner").is_not_null()
                & (pl.col("half_leader") >= 0)
                & (pl.col("half_leader") != pl.col("winner"))
            )
            order = ["lead_changes", "game_index"] if "lead_changes" in names else ["game_index"]
            descending = [True, False] if "lead_changes" in names else [False]
            picks.append(("a comeback", comeback.sort(order, descending=descending)))
    out = []
    for what, frame in picks:
        row = frame.select("game_index", "length", "end_reason").head(1).collect()
        if row.height == 0:
            out.append({"what": what, "game_index": None})
            continue
        i = int(row["game_index"][0])
        out.append(
            {
                "what": what,
                "game_index": i,
                "length": int(row["length"][0]),
                "end_reason": str(row["end_reason"][0]),
                "command": replay_command(run, i),
            }
        )
    return out
