"""Who wins: win rate by seat (competitive games; a k-way shared win counts 1/k) or success
rate (cooperative games)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simulator.contract.outcomes import is_no_winner, is_shared, share

from .runs import Run
from .stats import (
    BLOCKS,
    Estimate,
    balance_estimate,
    family_confidence,
    lead,
    paired_share_difference,
    proportion,
    share_proportion,
    uniform_seat_test,
)

SEAT_EFFECT_ALPHA = 0.05


def seat_counts(lf: pl.LazyFrame, n_players: int) -> dict[str, Any]:
    """Games, games nobody won, games two or more seats shared, and every seat's wins, in one
    lazy pass. A seat's wins are the sum of its shares of the win (a k-way shared win counts
    1/k), whole numbers (ints) when no game was shared; ``share_squares`` the sums of each
    seat's squared shares (for its interval). ``squares`` is None without a shared game, else
    it holds, per pair of seats ``(a, b)``, the sum over games of the squared difference of
    their shares (what a paired interval between two seats needs once they are fractional)."""
    pairs = [(a, b) for a in range(n_players) for b in range(a + 1, n_players)]
    row = (
        lf.select(
            pl.len().alias("games"),
            is_no_winner().sum().alias("no_winner"),
            is_shared().sum().alias("shared"),
            *[share(s).sum().alias(f"w{s}") for s in range(n_players)],
            *[(share(s) ** 2).sum().alias(f"q{s}") for s in range(n_players)],
            *[((share(a) - share(b)) ** 2).sum().alias(f"d{a}_{b}") for a, b in pairs],
        )
        .collect()
        .row(0, named=True)
    )
    shared = int(row["shared"] or 0)
    wins = [float(row[f"w{s}"] or 0.0) for s in range(n_players)]
    return {
        "games": int(row["games"]),
        "no_winner": int(row["no_winner"] or 0),
        "shared": shared,
        "wins": wins if shared else [int(w) for w in wins],
        "share_squares": [float(row[f"q{s}"] or 0.0) for s in range(n_players)],
        "squares": {(a, b): float(row[f"d{a}_{b}"] or 0.0) for a, b in pairs} if shared else None,
    }


def outcome_blocks(lf: pl.LazyFrame, n_players: int, games: int | None = None) -> np.ndarray:
    """Outcome counts of blocks of games, for balance and its paired bootstrap between
    settings: row k holds the wins of each seat (sums of shares of the win: a k-way shared win
    counts 1/k), then the games nobody won, among games whose ``game_index`` is k modulo the
    number of blocks. Runs on the same seeds put the same games in the same block, which pairs
    them; ``games`` keeps only the first games (the ones two runs have in common)."""
    if games is not None:
        lf = lf.filter(pl.col("game_index") < games)
    games = lf.select(pl.len()).collect().item() if games is None else games
    n_blocks = max(1, min(BLOCKS, games))
    counted = (
        lf.group_by((pl.col("game_index") % n_blocks).alias("block"))
        .agg(
            *[share(s).sum().alias(f"w{s}") for s in range(n_players)],
            is_no_winner().sum().alias("none"),
        )
        .collect()
    )
    blocks = np.zeros((n_blocks, n_players + 1))
    rows = counted["block"].to_numpy()
    for s in range(n_players):
        blocks[rows, s] = counted[f"w{s}"].to_numpy()
    blocks[rows, n_players] = counted["none"].to_numpy()
    return blocks


def seat_summary(run: Run) -> dict[str, Any]:
    """Win rate of every seat with Wilson intervals, the fair share, the seat test and balance.

    A seat's win rate is its mean share of the win: a k-way shared win counts 1/k to each of
    the k seats (:func:`analyses.stats.share_proportion` gives the interval). ``shared_win_rate``
    is the share of games two or more seats shared, ``no_winner_rate`` the share nobody won:
    two separate figures. The fair share is what every seat would win if seats did not matter:
    (1 - no-winner rate) / P. ``draw_rate`` repeats ``no_winner_rate`` under its old name for
    one version (CHANGELOG.md). The chi-square test asks whether the decided games are shared
    equally among seats; balance is 1 minus the largest gap between two seats' win rates (1
    means every seat wins equally often). ``most_wins`` says whether the seat winning most is
    separated from every other (paired in the same games, corrected for the P - 1 comparisons).

    When seats play different policies a seat's figure is the seat and its policy together:
    ``policies_differ`` is then true and ``seat_effect`` None (no seat effect can be told from a
    policy effect without rotating the policies, as a tournament does).
    """
    counts = seat_counts(run.scan(), run.n_players)
    games, wins, squares = counts["games"], counts["wins"], counts["squares"]
    rates = [
        share_proportion(w, games, q) for w, q in zip(wins, counts["share_squares"], strict=True)
    ]
    none = proportion(counts["no_winner"], games)
    p_value = uniform_seat_test(wins)
    policies_differ = len(set(run.policies)) > 1
    return {
        "games": games,
        "n_players": run.n_players,
        "policies_differ": policies_differ,
        "seats": [
            {"seat": s + 1, "policy": run.policies[s], "wins": wins[s], **rates[s].as_dict()}
            for s in range(run.n_players)
        ],
        "fair_share": (1 - none.value) / run.n_players if games else None,
        "no_winner_rate": none.as_dict(),
        "shared_win_rate": proportion(counts["shared"], games).as_dict(),
        "draw_rate": none.as_dict(),  # the old name, kept for one version
        "seat_test_p": p_value,
        "seat_effect": (
            bool(p_value < SEAT_EFFECT_ALPHA)
            if p_value == p_value and not policies_differ
            else None
        ),
        "most_wins": most_wins(wins, games, squares),
        "fewest_wins": fewest_wins(wins, games, squares),
        "balance": balance_estimate(outcome_blocks(run.scan(), run.n_players)).as_dict(),
    }


Squares = dict[tuple[int, int], float] | None


def most_wins(wins: list[float], games: int, squares: Squares = None) -> dict[str, Any]:
    """The seat with the most wins against each other seat in the same games: whether it is
    separated from all of them (see :func:`analyses.stats.lead`); names are seat numbers.
    ``squares`` (from :func:`seat_counts`) is needed when a game was shared."""
    seat = max(range(len(wins)), key=lambda s: wins[s])
    return _against_the_others(wins, games, seat, 1, squares)


def fewest_wins(wins: list[float], games: int, squares: Squares = None) -> dict[str, Any]:
    """The seat with the fewest wins, as :func:`most_wins` reads the top: each estimate is the
    other seat's share minus this seat's, paired in the same games, corrected for the P - 1
    comparisons; ``separated`` when every other seat wins more."""
    seat = min(range(len(wins)), key=lambda s: wins[s])
    return _against_the_others(wins, games, seat, -1, squares)


def _against_the_others(
    wins: list[float], games: int, seat: int, sign: int, squares: Squares
) -> dict[str, Any]:
    """``seat`` against every other seat in the same games: its share minus theirs (``sign``
    1), or theirs minus its (-1), with intervals corrected for the P - 1 comparisons."""
    confidence = family_confidence(len(wins) - 1)
    rivals = [
        (
            f"seat {s + 1}",
            paired_share_difference(
                *(wins[seat], wins[s])[::sign],
                games,
                confidence,
                squares=None if squares is None else squares[min(s, seat), max(s, seat)],
            ),
        )
        for s in range(len(wins))
        if s != seat
    ]
    return lead(f"seat {seat + 1}", rivals, games, confidence)


def seat_table(summary: dict[str, Any]) -> pl.DataFrame:
    """The seats of a :func:`seat_summary` as a small table."""
    return pl.DataFrame(summary["seats"])


def success_summary(run: Run) -> dict[str, Any]:
    """Cooperative games: success rate with its interval, by player count and by the game's
    breakdown column (``GameSpec.breakdown``, e.g. the mission), when it has one."""
    lf = run.scan()
    columns = run.columns()
    breakdown = run.spec.breakdown if run.spec else None
    column, word = breakdown if breakdown and breakdown[0] in columns else (None, "")
    total = lf.select(pl.len().alias("games"), pl.col("success").sum().alias("won")).collect()
    games, won = int(total["games"][0]), int(total["won"][0] or 0)
    out: dict[str, Any] = {
        "games": games,
        "n_players": run.n_players,
        "success": {"wins": won, "games": games, **proportion(won, games).as_dict()},
        "by_players": _success_by(lf, "n_players"),
        "group_word": word,
        "by_group": _success_by(lf, column, key="group") if column else [],
    }
    return out


def _success_by(lf: pl.LazyFrame, column: str, key: str | None = None) -> list[dict[str, Any]]:
    grouped = (
        lf.group_by(column)
        .agg(pl.len().alias("games"), pl.col("success").sum().alias("wins"))
        .sort(column)
        .collect()
    )
    rows = []
    for value, games, wins in grouped.iter_rows():
        est: Estimate = proportion(int(wins or 0), int(games))
        rows.append(
            {key or column: value, "wins": int(wins or 0), "games": int(games), **est.as_dict()}
        )
    return rows


def first_seat_advantage(summary: dict[str, Any]) -> float | None:
    """Seat 1's win rate minus the fair share (positive: the first player is favoured)."""
    if not summary["games"]:
        return None
    return summary["seats"][0]["value"] - summary["fair_share"]
