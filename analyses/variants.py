"""Rule variants against the default: what changed, by how much, and how sure we are.

Runs made with the same seed (``balance compare``) play the same game seeds index by index, so
games are paired by ``game_index`` (common random numbers) and the paired tests see only the effect
of the rule change. Runs with different seeds are compared as independent samples. p-values are
corrected for the number of comparisons (Benjamini-Hochberg over every row of the comparison),
and each change carries the interval widened to the level that correction tests (``corrected``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simulator.contract.errors import BalanceError
from simulator.contract.outcomes import WIN_SHARE

from .outcomes import return_changes
from .runs import Run, paired
from .stats import (
    ALPHA,
    Difference,
    adjust_p_values,
    paired_mean,
    paired_proportion,
    share_change,
    unpaired_mean,
    unpaired_proportion,
)

OUTCOME_COLUMNS = ["game_index", WIN_SHARE, "success", "length"]


def compare_runs(base: Run, others: list[Run]) -> list[dict[str, Any]]:
    """One row per variant and measure: baseline, variant, ``change`` (``{"value", "lo",
    "hi"}``), raw and corrected p-values, whether the change is significant after correction,
    and ``corrected``: the change with the interval widened to the level that correction
    tests."""
    for other in others:
        if other.game != base.game:
            raise BalanceError(
                f"cannot compare runs of different games ({base.game} and {other.game})"
            )
        if other.n_players != base.n_players:
            raise BalanceError(
                f"cannot compare runs with {base.n_players} and {other.n_players} players; "
                "compare runs with the same player count"
            )
    rows: list[dict[str, Any]] = []
    for other in others:
        rows.extend(_compare_pair(base, other))
    correct(rows)
    return rows


def correct(rows: list[dict[str, Any]]) -> None:
    """Add to each row of one family of comparisons its corrected p-value (``p_adjusted``),
    whether it is ``significant`` after correction, and ``corrected``: its change with the
    interval widened to the level the correction tests."""
    adjusted = adjust_p_values([r["p_value"] for r in rows])
    for row, p_adj in zip(rows, adjusted, strict=True):
        row["p_adjusted"] = p_adj
        row["significant"] = bool(p_adj < ALPHA) if p_adj == p_adj else False
    # The interval a corrected verdict rests on: with R of m changes called significant, each
    # interval at 1 - R * ALPHA / m excludes 0 exactly where the corrected p-value is below
    # ALPHA (false coverage rate intervals; 1 - ALPHA / m when none is).
    tested = sum(r["p_value"] == r["p_value"] for r in rows)
    level = 1 - max(sum(r["significant"] for r in rows), 1) * ALPHA / max(tested, 1)
    for row in rows:
        c = row["change"]
        lo, hi = widened(c["value"], c["lo"], c["hi"], level)
        row["corrected"] = {
            "value": c["value"],
            "lo": lo,
            "hi": hi,
            "confidence": level,
            "comparisons": tested,
        }


def widened(value: float, lo: float, hi: float, confidence: float) -> tuple[float, float]:
    """A 95% interval around ``value`` widened to ``confidence`` (normal scaling of each side)."""
    ratio = float(stats.norm.ppf(1 - (1 - confidence) / 2) / stats.norm.ppf(1 - ALPHA / 2))
    return value - (value - lo) * ratio, value + (hi - value) * ratio


def _compare_pair(base: Run, other: Run) -> list[dict[str, Any]]:
    is_paired = paired(base, other)
    if is_paired:
        joined = (
            base.scan()
            .select(OUTCOME_COLUMNS)
            .join(other.scan().select(OUTCOME_COLUMNS), on="game_index", suffix="_v")
            .collect()
        )
        if joined.height == 0:
            raise BalanceError(
                f"runs {str(base.path)!r} and {str(other.path)!r} share no game index"
            )
        b = joined.select(OUTCOME_COLUMNS)
        o = joined.select("game_index", *[pl.col(f"{c}_v").alias(c) for c in OUTCOME_COLUMNS[1:]])
        n_base = n_other = joined.height
    else:
        b = base.scan().select(OUTCOME_COLUMNS).collect()
        o = other.scan().select(OUTCOME_COLUMNS).collect()
        n_base, n_other = b.height, o.height
    prop = paired_proportion if is_paired else unpaired_proportion
    mean = paired_mean if is_paired else unpaired_mean

    def row(measure: str, kind: str, seat: int | None, d: Difference) -> dict[str, Any]:
        return {
            "variant": other.label,
            "measure": measure,
            "kind": kind,
            "seat": seat,
            "paired": is_paired,
            "games_base": n_base,
            "games_variant": n_other,
            "base": d.base,
            "other": d.other,
            "change": d.change,
            "p_value": d.p_value,
            "test": d.test,
        }

    rows = []
    if base.cooperative:
        rows.append(
            row("success rate", "rate", None, prop(_bool(b, "success"), _bool(o, "success")))
        )
    else:
        for s in range(base.n_players):  # a seat's share of the win: 1/k a shared win
            change = share_change(_wins(b, s), _wins(o, s), is_paired)
            rows.append(row(f"seat {s + 1} win rate", "rate", s + 1, change))
        shared_b, shared_o = _count_of(b, 2, None), _count_of(o, 2, None)
        if shared_b.any() or shared_o.any():
            rows.append(row("shared-win rate", "rate", None, prop(shared_b, shared_o)))
        no_winner_b, no_winner_o = _count_of(b, 0, 0), _count_of(o, 0, 0)
        if no_winner_b.any() or no_winner_o.any():
            rows.append(row("no-winner rate", "rate", None, prop(no_winner_b, no_winner_o)))
    rows.append(
        row(
            "mean length",
            "length",
            None,
            mean(b["length"].to_numpy().astype(float), o["length"].to_numpy().astype(float)),
        )
    )
    for seat, d in return_changes(base, other, is_paired):  # a game that pays returns
        rows.append(row(f"seat {seat} mean return", "return", seat, d))
    return rows


def _wins(df: pl.DataFrame, seat: int) -> np.ndarray:
    """A seat's share of the win in each game (0, 1/k or 1)."""
    return df[WIN_SHARE].list.get(seat).to_numpy().astype(float)


def _count_of(df: pl.DataFrame, fewest: int, most: int | None) -> np.ndarray:
    """Per game, whether fewest to most (None: any number of) seats hold a share of the win:
    (0, 0) nobody won, (2, None) shared."""
    winners = df[WIN_SHARE].list.eval(pl.element() > 0).list.sum().to_numpy()
    return (winners >= fewest) & (winners <= (most if most is not None else winners.max()))


def _bool(df: pl.DataFrame, column: str) -> np.ndarray:
    return df[column].fill_null(False).to_numpy()


def comparison_table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows)
