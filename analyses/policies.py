"""Policies at mixed tables: who beats whom, and how much skill matters against chance.

A tournament plays the same game seeds with the policies rotated through every seat, so each
policy sits in each seat equally often and seat effects cancel out of the policy win rates. A
policy's win rate is counted per seat it occupies ("per slot"): at a table of P seats with no
draws, a policy no better than the others wins 1/P of its slots.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from .runs import Run
from .stats import CONFIDENCE, proportion


def _is_random(label: str) -> bool:
    return label.partition(":")[0] == "random"


def policy_labels(runs: list[Run]) -> list[str]:
    seen: list[str] = []
    for run in runs:
        for label in run.policies:
            if label not in seen:
                seen.append(label)
    return seen


def _games(runs: list[Run], labels: list[str]) -> pl.LazyFrame:
    """Every game of the runs with its winning policy and the seats each policy holds."""
    frames = [
        r.scan().select(pl.lit(i).alias("run"), "game_index", "winner", "policies", "n_players")
        for i, r in enumerate(runs)
    ]
    return pl.concat(frames).with_columns(
        pl.col("policies")
        .list.get(pl.col("winner").cast(pl.Int64), null_on_oob=True)
        .alias("winning_policy"),
        *[
            pl.col("policies").list.eval(pl.element() == label).list.sum().alias(f"slots_{k}")
            for k, label in enumerate(labels)
        ],
    )


def policy_summary(runs: list[Run]) -> dict[str, Any]:
    """Win rate per policy (per seat held), policy-by-policy matrix, by seat, skill vs chance."""
    labels = policy_labels(runs)
    games = _games(runs, labels)
    totals = (
        games.select(
            pl.len().alias("games"),
            pl.col("winner").is_null().sum().alias("no_winner"),
            pl.col("n_players").cast(pl.Int64).sum().alias("slots"),
            *[pl.col(f"slots_{k}").sum().alias(f"slots_{k}") for k in range(len(labels))],
            *[
                (pl.col("winning_policy") == label).sum().alias(f"wins_{k}")
                for k, label in enumerate(labels)
            ],
        )
        .collect()
        .row(0, named=True)
    )
    n_games = int(totals["games"])
    fair = (n_games - int(totals["no_winner"])) / int(totals["slots"]) if n_games else math.nan
    rates = []
    for k, label in enumerate(labels):
        est = proportion(int(totals[f"wins_{k}"]), int(totals[f"slots_{k}"]))
        rates.append(
            {
                "policy": label,
                "wins": int(totals[f"wins_{k}"]),
                "slots": int(totals[f"slots_{k}"]),
                **est.as_dict(),
            }
        )
    return {
        "games": n_games,
        "fair_share": fair,
        "policies": rates,
        "matrix": win_matrix(games, labels),
        "by_seat": policy_by_seat(runs),
        "skill": skill_vs_chance(games, labels, rates, fair),
    }


def win_matrix(games: pl.LazyFrame, labels: list[str]) -> list[dict[str, Any]]:
    """For each ordered pair (A, B): among games where both sat and one of them won, A's share."""
    exprs = []
    for a in range(len(labels)):
        for b in range(len(labels)):
            if a == b:
                continue
            both = (pl.col(f"slots_{a}") > 0) & (pl.col(f"slots_{b}") > 0)
            exprs.append((both & (pl.col("winning_policy") == labels[a])).sum().alias(f"{a}_{b}"))
    if not exprs:
        return []
    row = games.select(exprs).collect().row(0, named=True)
    out = []
    for a in range(len(labels)):
        for b in range(len(labels)):
            if a == b:
                continue
            wins, losses = int(row[f"{a}_{b}"]), int(row[f"{b}_{a}"])
            est = proportion(wins, wins + losses)
            out.append(
                {"policy": labels[a], "against": labels[b], "wins": wins, "decided": wins + losses}
                | est.as_dict()
            )
    return out


def policy_by_seat(runs: list[Run]) -> list[dict[str, Any]]:
    """Win rate of each policy in each seat it held (pooled over the runs)."""
    counts: dict[tuple[str, int], list[int]] = {}
    for run in runs:
        row = (
            run.scan()
            .select(
                pl.len().alias("games"),
                *[
                    (pl.col("winner") == s).fill_null(False).sum().alias(f"w{s}")
                    for s in range(run.n_players)
                ],
            )
            .collect()
            .row(0, named=True)
        )
        for s, label in enumerate(run.policies):
            entry = counts.setdefault((label, s + 1), [0, 0])
            entry[0] += int(row[f"w{s}"])
            entry[1] += int(row["games"])
    return [
        {"policy": label, "seat": seat, "wins": w, "games": n, **proportion(w, n).as_dict()}
        for (label, seat), (w, n) in sorted(counts.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]


def skill_vs_chance(
    games: pl.LazyFrame, labels: list[str], rates: list[dict[str, Any]], fair: float
) -> dict[str, Any] | None:
    """How much the strongest policy beats ``random``, per seat held, with a 95% interval.

    With ``random`` at the table: games holding both are paired, and the per-game difference
    (strongest's wins per seat held minus random's) gets a t interval. Without it: the strongest
    policy's win rate per seat held against the fair share.
    """
    if not rates:
        return None
    best = max(rates, key=lambda r: r["value"] if r["value"] == r["value"] else -1)
    k_best = labels.index(best["policy"])
    randoms = [k for k, label in enumerate(labels) if _is_random(label) and k != k_best]
    if not randoms:
        return {
            "policy": best["policy"],
            "against": "fair share",
            "edge": best["value"] - fair,
            "lo": best["lo"] - fair,
            "hi": best["hi"] - fair,
            "games": None,
        }
    k_rand = randoms[0]
    sb, sr = pl.col(f"slots_{k_best}"), pl.col(f"slots_{k_rand}")
    d = (
        games.filter((sb > 0) & (sr > 0))
        .select(
            (pl.col("winning_policy") == labels[k_best]).fill_null(False).cast(pl.Float64) / sb
            - (pl.col("winning_policy") == labels[k_rand]).fill_null(False).cast(pl.Float64) / sr
        )
        .collect()
        .to_series()
        .to_numpy()
    )
    if len(d) < 2:
        return None
    if np.all(d == d[0]):
        lo = hi = float(d[0])
    else:
        ci = stats.ttest_1samp(d, 0.0).confidence_interval(confidence_level=CONFIDENCE)
        lo, hi = float(ci.low), float(ci.high)
    return {
        "policy": best["policy"],
        "against": labels[k_rand],
        "edge": float(d.mean()),
        "lo": lo,
        "hi": hi,
        "games": int(len(d)),
    }
