"""The headline figures of one run, as printed by ``balance simulate --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from simulator.dataset import RunFolder


def headline(run: str | Path) -> dict[str, Any]:
    """Win rate by seat (or success rate), draw rate and mean length of a run folder."""
    folder = RunFolder.open(run)
    manifest = folder.read_manifest()
    config = manifest["config"]
    n_players = config["n_players"]
    cooperative = manifest["cooperative"]
    row = (
        folder.scan()
        .select(
            pl.len().alias("games"),
            pl.col("length").mean().alias("mean_length"),
            pl.col("winner").is_null().mean().alias("draw_rate"),
            pl.col("success").mean().alias("success_rate"),
            *[
                (pl.col("winner") == s).fill_null(False).mean().alias(f"w{s}")
                for s in range(n_players)
            ],
        )
        .collect()
        .row(0, named=True)
    )
    return {
        "game": config["game"],
        "games": row["games"],
        "seed": config["seed"],
        "n_players": n_players,
        "policies": config["policies"],
        "win_rate": None if cooperative else [row[f"w{s}"] for s in range(n_players)],
        "success_rate": row["success_rate"] if cooperative else None,
        "draw_rate": None if cooperative else row["draw_rate"],
        "mean_length": row["mean_length"],
        "length_unit": manifest["length_unit"],
        "out": str(folder.path),
    }
