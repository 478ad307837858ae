"""Games worth watching in a run: the longest, one nobody won (or a failed mission), one seats
shared, a comeback.

Each comes with the ``balance replay`` command that shows it move by move, so a surprising
figure in a report leads straight to an example game.
"""

from __future__ import annotations

import shlex
from typing import Any

import polars as pl

from simulator.contract.outcomes import WIN_SHARE, is_no_winner, is_shared

from .runs import Run


def replay_command(run: Run, game_index: int) -> str:
    return f"balance replay {shlex.quote(str(run.path))} --game-index {game_index}"


def seat_words(seats: list[int]) -> str:
    """0-based seats in words, from 1: "seats 1 and 2", "seats 1, 2 and 3"."""
    named = [str(s + 1) for s in seats]
    return "seats " + ", ".join(named[:-1]) + f" and {named[-1]}"


def games_to_watch(run: Run) -> list[dict[str, Any]]:
    """Up to four games of the run: ``{"what", "game_index", "length", "end_reason",
    "command"}``; a kind the run has no game of has ``game_index`` None. The first shared game
    ("a game seats 1 and 2 shared", its seats named) is listed only when the run has one. A
    comeback is a game won by seats the one leading at half time is not among (from the
    ``half_leader`` column, when the game has it); the one with most lead changes is shown."""
    games = run.scan()
    names = games.collect_schema().names()
    picks: list[tuple[str, pl.LazyFrame]] = [
        ("the longest game", games.sort(["length", "game_index"], descending=[True, False]))
    ]
    if run.cooperative:
        picks.append(("a failed game", games.filter(~pl.col("success")).sort("game_index")))
    else:
        picks.append(("a game nobody won", games.filter(is_no_winner())))
        shared = games.filter(is_shared()).select("game_index", WIN_SHARE).head(1).collect()
        if shared.height:  # named by its seats, so only a run with a shared game lists one
            seats = [s for s, x in enumerate(shared[WIN_SHARE][0]) if x > 0]
            first = pl.col("game_index") == shared["game_index"][0]
            picks.append((f"a game {seat_words(seats)} shared", games.filter(first)))
        if "half_leader" in names:
            leader = pl.col("half_leader")
            leader_share = pl.col(WIN_SHARE).list.get(
                pl.when(leader >= 0).then(leader).cast(pl.Int64), null_on_oob=True
            )
            comeback = games.filter(~is_no_winner() & (leader >= 0) & (leader_share == 0))
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
