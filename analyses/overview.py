"""The headline figures of one run, as printed by ``balance simulate --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from simulator.contract.outcomes import is_no_winner, is_shared, share, with_outcome_columns
from simulator.folders.run_folder import RunFolder

from .runs import evaluation_fallback


def headline(run: str | Path) -> dict[str, Any]:
    """Win rate by seat (or success rate), no-winner rate and mean length of a run folder, and
    what its games never vary in (``degenerate``, as the report says it).

    ``estimates`` gives each rate with its 95% interval (``{"value", "lo", "hi"}``): ``win_rate``
    by seat (a seat's mean share of the win: a k-way shared win counts 1/k), ``shared_win_rate``
    (games two or more seats shared) and ``no_winner_rate`` (games nobody won), or
    ``success_rate``. ``draw_rate`` repeats ``no_winner_rate`` under its old name for one
    version (CHANGELOG.md)."""
    from .stats import proportion, share_proportion

    folder = RunFolder.open(run)
    manifest = folder.read_manifest()
    config = manifest["config"]
    n_players = config["n_players"]
    cooperative = manifest["cooperative"]
    row = (
        with_outcome_columns(folder.scan(), n_players)
        .select(
            pl.len().alias("games"),
            pl.col("length").mean().alias("mean_length"),
            is_no_winner().sum().alias("no_winner"),
            is_shared().sum().alias("shared"),
            pl.col("success").sum().alias("successes"),
            pl.col("length").min().alias("shortest"),
            pl.col("length").max().alias("longest"),
            pl.col("end_reason").unique().alias("reasons").implode(),
            *[share(s).sum().alias(f"w{s}") for s in range(n_players)],
            *[(share(s) ** 2).sum().alias(f"q{s}") for s in range(n_players)],
        )
        .collect()
        .row(0, named=True)
    )
    fallback = evaluation_fallback(manifest)  # a search that played to the end, said as well
    games = row["games"]
    if cooperative:
        estimates = {"success_rate": proportion(int(row["successes"] or 0), games).as_dict()}
    else:
        estimates = {
            "win_rate": [
                share_proportion(float(row[f"w{s}"] or 0.0), games, row[f"q{s}"]).as_dict()
                for s in range(n_players)
            ],
            "shared_win_rate": proportion(int(row["shared"] or 0), games).as_dict(),
            "no_winner_rate": proportion(int(row["no_winner"] or 0), games).as_dict(),
        }
    value = {
        k: v["value"] if isinstance(v, dict) else [e["value"] for e in v]
        for k, v in estimates.items()
    }
    return {
        "game": config["game"],
        "games": row["games"],
        "seed": config["seed"],
        "n_players": n_players,
        "policies": config["policies"],
        "win_rate": value.get("win_rate"),
        "success_rate": value.get("success_rate"),
        "shared_win_rate": value.get("shared_win_rate"),
        "no_winner_rate": value.get("no_winner_rate"),
        "draw_rate": value.get("no_winner_rate"),  # the old name, kept for one version
        "estimates": estimates,
        "mean_length": row["mean_length"],
        "length_unit": manifest["length_unit"],
        "out": str(folder.path),
        "degenerate": degenerate(
            row["games"],
            cooperative,
            value["success_rate"] if cooperative else 1 - value["no_winner_rate"],
            (row["shortest"], row["longest"]),
            [r for r in row["reasons"] if r is not None],
            manifest["length_unit"],
        ),
        **({"evaluation_fallback": fallback} if fallback else {}),
    }


def degenerate(
    games: int,
    cooperative: bool,
    settled: float,
    lengths: tuple[int, int],
    reasons: list[str],
    unit: str,
) -> list[str]:
    """What a run's games never vary in, in words: nobody wins (no game succeeds: ``settled``,
    the share won or succeeded, is 0), every game ends the same way after the same length.
    Empty when the games vary."""
    words = []
    if games and not settled:
        words.append(
            f"no game of {games:,} succeeded"
            if cooperative
            else f"nobody won any of its {games:,} games"
        )
    if games > 1 and lengths[0] == lengths[1] and len(reasons) == 1:
        words.append(f"every game ended the same way ({reasons[0]} after {lengths[0]:,} {unit})")
    return words
