"""Per-cell totals of a game's heatmap columns (``GameSpec.heatmaps``), read lazily.

Two forms of column: ``*_by_cell`` holds per-cell counts (one list entry per cell); any other
heatmap column holds events (the cell of each event, a list of any length per game).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simulator.contract.game_data import rules_from_manifest

from .runs import Run


def cell_totals(run: Run, column: str, n_cells: int) -> np.ndarray:
    """Sum over every game of the run: how many events fell on each cell."""
    totals = np.zeros(n_cells, dtype=np.int64)
    if column.endswith("_by_cell"):
        # Part by part: a run of millions of games is never held whole.
        for part in sorted(run.path.glob("games/part-*.parquet")):
            counts = pl.read_parquet(part, columns=[column])[column]
            if len(counts):
                totals += np.vstack(counts.to_list()).sum(axis=0)[:n_cells]
        return totals
    grouped = (
        run.scan()
        .select(pl.col(column).explode().alias("cell"))
        .drop_nulls()
        .group_by("cell")
        .len()
        .collect()
    )
    for cell, count in grouped.iter_rows():
        if 0 <= cell < n_cells:
            totals[cell] += count
    return totals


def heatmaps(run: Run) -> list[dict]:
    """Every heatmap the run's game declares and the run holds: column, caption, totals, games."""
    spec = run.spec
    if spec is None or spec.board is None or not spec.heatmaps:
        return []
    board = spec.board(rules_from_manifest(spec.rules_class, run.manifest, f"run {run.path}"))
    columns = set(run.scan().collect_schema().names())
    out = []
    for column, caption in spec.heatmaps.items():
        if column not in columns:
            continue
        totals = cell_totals(run, column, len(board.cells))
        out.append({"column": column, "caption": caption, "board": board, "totals": totals})
    return out
