"""How a game ended, for every seat: the one outcome model every figure reads.

A game's end is more than a winner. Per game and seat the dataset holds:

- ``win_share``: the seat's share of the win: 1 for a sole winner, 1/k each when k seats share
  the win, 0 otherwise (a game nobody won is all zeros; a cooperative win is 1 for every seat);
- ``place``: the seat's place, 1 = first; tied seats share a place and the next place skips
  (1, 1, 3: standard competition ranking); null in cooperative games;
- ``returns``: the seat's payoff at the end (chips, money, points), only for a game that
  declares one.

The ``winner`` column stays (the seat of a sole winner, null otherwise), so a game is "shared"
when two or more seats hold a share and "no winner" when none does. A run written before this
model had only ``winner``: :func:`with_outcome_columns` derives ``win_share`` from it (places
were not recorded then and stay absent), so old runs still read, verify and replay.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

WIN_SHARE = "win_share"
PLACE = "place"
RETURNS = "returns"
OUTCOME_COLUMNS = (WIN_SHARE, PLACE, RETURNS)


def shares_of(winners: Sequence[int], n_players: int) -> list[float]:
    """Each seat's share of the win when ``winners`` won together (1/k each)."""
    out = [0.0] * n_players
    for s in winners:
        out[s] = 1.0 / len(winners)
    return out


def places_of(
    winners: Sequence[int], scores: Sequence[float], lowest_wins: bool = False
) -> list[int]:
    """Each seat's place (1 = first) from the winners and the scores: the winners share first
    place; the others follow, ordered by score (lowest first when ``lowest_wins``), tied scores
    sharing a place."""
    n = len(scores)
    won = set(winners)
    sign = -1.0 if lowest_wins else 1.0
    rest = [s for s in range(n) if s not in won]
    places = [1] * n
    for s in rest:
        better = sum(1 for t in rest if sign * scores[t] > sign * scores[s])
        places[s] = len(won) + 1 + better
    return places


def winner_columns(
    winner: np.ndarray,
    scores: np.ndarray,
    lowest_wins: bool = False,
    cooperative_success: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """``win_share`` and ``place`` (games x seats) of an engine that names one winner per game
    (-1: nobody): the compiled games' rows. A cooperative game's success is every seat's win."""
    g, n = scores.shape
    winner = np.asarray(winner, np.int64)
    share = np.zeros((g, n), np.float64)
    if cooperative_success is not None:
        share[np.asarray(cooperative_success, bool)] = 1.0
        return {WIN_SHARE: share}
    won = np.zeros((g, n), bool)
    decided = winner >= 0
    won[np.flatnonzero(decided), winner[decided]] = True
    share[won] = 1.0
    signed = (-1.0 if lowest_wins else 1.0) * np.asarray(scores, np.float64)
    beats = signed[:, None, :] > signed[:, :, None]  # [game, seat, rival]: the rival is ahead
    ahead = (beats & ~won[:, None, :]).sum(axis=2) + decided[:, None]
    place = np.where(won, 1, 1 + ahead).astype(np.int64)
    return {WIN_SHARE: share, PLACE: place}


def with_outcome_columns(lf: pl.LazyFrame, n_players: int) -> pl.LazyFrame:
    """``lf`` with ``win_share`` whatever the run's age: a run written before the outcome model
    has only ``winner``, whose seat then holds the whole win."""
    if WIN_SHARE in lf.collect_schema().names():
        return lf
    return lf.with_columns(
        pl.concat_list(
            [(pl.col("winner") == s).fill_null(False).cast(pl.Float64) for s in range(n_players)]
        ).alias(WIN_SHARE)
    )


def share(seat: int) -> pl.Expr:
    """A seat's share of the win in a game (0, 1/k or 1)."""
    return pl.col(WIN_SHARE).list.get(seat)


def winners_count() -> pl.Expr:
    """How many seats hold a share of the win in a game (0: nobody won; 2 or more: shared)."""
    return pl.col(WIN_SHARE).list.eval(pl.element() > 0).list.sum()


def is_shared() -> pl.Expr:
    return winners_count() >= 2


def is_no_winner() -> pl.Expr:
    return winners_count() == 0


def result_words(shares: Sequence[float]) -> str:
    """A game's result in words, seats from 1: "seat 2 wins", "seats 1 and 3 share the win",
    "no winner"."""
    seats = [s + 1 for s, x in enumerate(shares) if x > 0]
    if not seats:
        return "no winner"
    if len(seats) == 1:
        return f"seat {seats[0]} wins"
    listed = ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
    return f"seats {listed} share the win"
