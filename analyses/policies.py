"""Policies at mixed tables: who beats whom, and how much skill matters against chance.

A tournament plays the same game seeds with the policies rotated through every seat, so each
policy sits in each seat equally often and seat effects cancel out of the policy win rates. A
policy's win rate is counted per seat it occupies ("per slot"): at a table of P seats with no
draws, a policy no better than the others wins 1/P of its slots. A win k seats share counts 1/k
to each of their policies.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.outcomes import WIN_SHARE, is_no_winner, share

from .runs import Run
from .stats import Estimate, family_confidence, lead, paired_interval, share_proportion


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
    """Every game of the runs with each policy's share of the win (``won_k``: the shares of the
    seats it holds, so a policy at two seats sharing the win has the whole of it), the sum of
    their squares per seat held (``squares_k``), and the seats each policy holds."""
    frames = [
        r.scan().select(pl.lit(i).alias("run"), "game_index", WIN_SHARE, "policies", "n_players")
        for i, r in enumerate(runs)
    ]
    seats = range(max((r.n_players for r in runs), default=0))

    def holds(s: int, label: str) -> pl.Expr:
        return (pl.col("policies").list.get(s, null_on_oob=True) == label).fill_null(False)

    def seat_share(s: int) -> pl.Expr:
        return pl.col(WIN_SHARE).list.get(s, null_on_oob=True).fill_null(0.0)

    return pl.concat(frames).with_columns(
        *[
            pl.sum_horizontal([pl.when(holds(s, label)).then(seat_share(s)).otherwise(0.0)
                               for s in seats]).alias(f"won_{k}")
            for k, label in enumerate(labels)
        ],
        *[
            pl.sum_horizontal([pl.when(holds(s, label)).then(seat_share(s) ** 2).otherwise(0.0)
                               for s in seats]).alias(f"squares_{k}")
            for k, label in enumerate(labels)
        ],
        *[
            pl.col("policies").list.eval(pl.element() == label).list.sum().alias(f"slots_{k}")
            for k, label in enumerate(labels)
        ],
    )  # fmt: skip


def policy_summary(runs: list[Run]) -> dict[str, Any]:
    """Win rate per policy (per seat held), policy-by-policy matrix, by seat, skill vs chance."""
    labels = policy_labels(runs)
    games = _games(runs, labels)
    totals = (
        games.select(
            pl.len().alias("games"),
            is_no_winner().sum().alias("no_winner"),
            pl.col("n_players").cast(pl.Int64).sum().alias("slots"),
            *[pl.col(f"slots_{k}").sum().alias(f"slots_{k}") for k in range(len(labels))],
            *[pl.col(f"won_{k}").sum().alias(f"wins_{k}") for k in range(len(labels))],
            *[pl.col(f"squares_{k}").sum().alias(f"squares_{k}") for k in range(len(labels))],
        )
        .collect()
        .row(0, named=True)
    )
    n_games = int(totals["games"])
    fair = (n_games - int(totals["no_winner"])) / int(totals["slots"]) if n_games else math.nan
    rates = []
    for k, label in enumerate(labels):
        wins = whole(float(totals[f"wins_{k}"]))
        est = share_proportion(wins, int(totals[f"slots_{k}"]), float(totals[f"squares_{k}"]))
        rates.append(
            {
                "policy": label,
                "wins": wins,
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
        "strongest": strongest(games, labels, rates, len(runs)),
    }


def _slot_difference(games: pl.LazyFrame, labels: list[str], a: int, b: int) -> np.ndarray:
    """Per game where policies ``a`` and ``b`` both sat: a's wins per seat held minus b's."""
    sa, sb = pl.col(f"slots_{a}"), pl.col(f"slots_{b}")
    return (
        games.filter((sa > 0) & (sb > 0))
        .select(pl.col(f"won_{a}") / sa - pl.col(f"won_{b}") / sb)
        .collect()
        .to_series()
        .to_numpy()
    )


def _ranked_first(rates: list[dict[str, Any]]) -> dict[str, Any]:
    return max(rates, key=lambda r: r["value"] if r["value"] == r["value"] else -1)


def strongest(
    games: pl.LazyFrame, labels: list[str], rates: list[dict[str, Any]], rotations: int
) -> dict[str, Any] | None:
    """Whether the policy with the best win rate per seat held is separated from every other:
    per game where both sat, the difference in wins per seat held (paired on the same games),
    intervals corrected for the number of rivals. ``games_to_tell`` counts games per rotation."""
    if len(rates) < 2:
        return None
    best = _ranked_first(rates)
    k_best = labels.index(best["policy"])
    confidence = family_confidence(len(labels) - 1)
    rivals = []
    for k, label in enumerate(labels):
        if k == k_best:
            continue
        d = _slot_difference(games, labels, k_best, k)
        lo, hi = paired_interval(d, confidence)
        rivals.append((label, Estimate(float(d.mean()) if len(d) else math.nan, lo, hi)))
    # Every pair's interval narrows as the rotations grow, whatever share of them it sits in,
    # so games per rotation scale like any pair's games.
    per_rotation = round(games.select(pl.len()).collect().item() / rotations)
    return lead(best["policy"], rivals, per_rotation, confidence)


def win_matrix(games: pl.LazyFrame, labels: list[str]) -> list[dict[str, Any]]:
    """For each ordered pair (A, B): among games where both sat and one of them won, A's share
    (a win the two shared counts half to each, as a draw between them)."""
    exprs = []
    for a in range(len(labels)):
        for b in range(len(labels)):
            if a == b:
                continue
            both = (pl.col(f"slots_{a}") > 0) & (pl.col(f"slots_{b}") > 0)
            won = pl.when(both).then(pl.col(f"won_{a}")).otherwise(0.0)
            exprs.append(won.sum().alias(f"{a}_{b}"))
    if not exprs:
        return []
    row = games.select(exprs).collect().row(0, named=True)
    out = []
    for a in range(len(labels)):
        for b in range(len(labels)):
            if a == b:
                continue
            wins, losses = whole(row[f"{a}_{b}"]), whole(row[f"{b}_{a}"])
            est = share_proportion(wins, wins + losses)
            out.append(
                {"policy": labels[a], "against": labels[b], "wins": wins, "decided": wins + losses}
                | est.as_dict()
            )
    return out


def policy_by_seat(runs: list[Run]) -> list[dict[str, Any]]:
    """Win rate of each policy in each seat it held (pooled over the runs; a k-way shared win
    counts 1/k)."""
    counts: dict[tuple[str, int], list[float]] = {}
    for run in runs:
        row = (
            run.scan()
            .select(
                pl.len().alias("games"),
                *[share(s).sum().alias(f"w{s}") for s in range(run.n_players)],
                *[(share(s) ** 2).sum().alias(f"q{s}") for s in range(run.n_players)],
            )
            .collect()
            .row(0, named=True)
        )
        for s, label in enumerate(run.policies):
            entry = counts.setdefault((label, s + 1), [0, 0, 0.0])
            entry[0] += whole(float(row[f"w{s}"] or 0.0))
            entry[1] += int(row["games"])
            entry[2] += float(row[f"q{s}"] or 0.0)
    return [
        {
            "policy": label,
            "seat": seat,
            "wins": whole(w),
            "games": n,
            **share_proportion(w, n, q).as_dict(),
        }
        for (label, seat), (w, n, q) in sorted(counts.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]


def whole(wins: float) -> float | int:
    """A sum of shares of the win as an int when it is whole (a count of wins, as before
    shared wins), else as it is."""
    return int(wins) if float(wins).is_integer() else wins


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
    best = _ranked_first(rates)
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
    d = _slot_difference(games, labels, k_best, k_rand)
    if len(d) < 2:
        return None
    lo, hi = paired_interval(d)
    return {
        "policy": best["policy"],
        "against": labels[k_rand],
        "edge": float(d.mean()),
        "lo": lo,
        "hi": hi,
        "games": int(len(d)),
    }
