"""Boards declared as cells, so one drawing serves square, hex and graph boards alike.

A game that has a board gives ``GameSpec.board``: a function of the rules in force returning a
:class:`Board`. Cell ``i`` of ``Board.cells`` has id ``i``; a game column of per-cell counts
(games x cells) lines up with it, and the report draws its sum as a heatmap on the board.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import BalanceError

SHAPES = ("square", "diamond", "hex", "graph")


@dataclass(frozen=True)
class Cell:
    id: int
    kind: str
    x: float  # drawing coordinates: x to the right, y downwards (as a board is read)
    y: float
    neighbours: tuple[int, ...] = ()
    label: str = ""  # the game's own name for the cell ("(3, 5)", "station 2"), for people
    tag: str = ""  # a short mark always drawn on the cell (a station's number)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "x": self.x,
            "y": self.y,
            "neighbours": list(self.neighbours),
            "label": self.label,
            "tag": self.tag,
        }


@dataclass(frozen=True)
class Board:
    cells: tuple[Cell, ...]
    # "square", "diamond" (squares turned 45 degrees, a grid drawn on the diagonal) and "hex"
    # draw tiles; "graph" draws nodes joined by their edges.
    shape: str
    colours: dict[str, str] = field(default_factory=dict)  # kind -> matplotlib colour
    # kind -> its legend entry (default: the kind); kinds with one entry share a swatch, and a
    # kind mapped to "" is left out (blank spaces)
    legend: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"board shape {self.shape!r} is not one of {SHAPES}")
        n = len(self.cells)
        for i, cell in enumerate(self.cells):
            if cell.id != i:
                raise ValueError(f"cell {i} has id {cell.id}: ids must be 0..{n - 1} in order")
            bad = [j for j in cell.neighbours if not 0 <= j < n or j == i]
            if bad:
                raise ValueError(f"cell {i} names neighbours that are not other cells: {bad}")

    def kinds(self) -> list[str]:
        """Cell kinds in order of first appearance."""
        return list(dict.fromkeys(c.kind for c in self.cells))

    def legend_entries(self, colour: dict[str, str]) -> list[tuple[str, str]]:
        """(entry, colour) for the legend, in order of first appearance, one per entry."""
        entries: dict[str, str] = {}
        for k in self.kinds():
            entry = self.legend.get(k, k)
            if entry:
                entries.setdefault(entry, colour[k])
        return list(entries.items())

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.cells:
            out[c.kind] = out.get(c.kind, 0) + 1
        return out

    def as_json(self, game: str) -> dict[str, Any]:
        return {
            "game": game,
            "shape": self.shape,
            "counts": self.counts(),
            "cells": [c.as_dict() for c in self.cells],
        }


def write_board_json(board: Board, game: str) -> str:
    return json.dumps(board.as_json(game), indent=1)


# -- drawing --------------------------------------------------------------------------------------
_PALETTE = (
    "#8ecae6", "#219ebc", "#ffb703", "#fb8500", "#8d6e63", "#90be6d", "#f94144", "#577590",
    "#f9c74f", "#43aa8b", "#b5838d", "#6d597a", "#adb5bd", "#e9c46a", "#2a9d8f", "#e76f51",
)  # fmt: skip


def _spacing(board: Board) -> float:
    """Distance between neighbouring cells in drawing units (for tile and node sizes)."""
    xy = np.array([(c.x, c.y) for c in board.cells], dtype=float)
    d = [
        float(np.hypot(*(xy[c.id] - xy[j]))) for c in board.cells for j in c.neighbours if j > c.id
    ]
    d = [v for v in d if v > 0]
    if d:
        return float(np.median(d))
    if len(xy) > 1:
        return float(np.ptp(xy[:, 0]) + np.ptp(xy[:, 1])) / max(np.sqrt(len(xy)), 1) or 1.0
    return 1.0


def node_radii(board: Board, step: float) -> np.ndarray:
    """Radius of each node of a graph board: 0.3 of the usual spacing, smaller where cells sit
    closer (where routes meet), so no two circles overlap."""
    xy = np.array([(c.x, c.y) for c in board.cells], dtype=float)
    gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    return np.minimum(step * 0.3, gaps.min(axis=1) * 0.46)


def draw_board(
    board: Board,
    ax: Any,
    values: Sequence[float] | None = None,
    show_ids: bool = False,
    cmap: str = "viridis",
    legend: bool = True,
) -> Any:
    """Draw ``board`` on a matplotlib axis: cells coloured by kind, or by ``values`` (one per
    cell, a heatmap; cells with NaN keep a pale kind colour). Returns the heatmap's mappable
    (for a colour bar) or None."""
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, RegularPolygon

    step = _spacing(board)
    kinds = board.kinds()
    colour = {k: board.colours.get(k, _PALETTE[i % len(_PALETTE)]) for i, k in enumerate(kinds)}
    xy = np.array([(c.x, c.y) for c in board.cells], dtype=float)
    if board.shape == "graph":
        segments = [(xy[c.id], xy[j]) for c in board.cells for j in c.neighbours if j > c.id]
        ax.add_collection(LineCollection(segments, colors="#999999", linewidths=0.8, zorder=1))
    patches = []
    radii = node_radii(board, step) if board.shape == "graph" else None
    for c in board.cells:
        if board.shape == "square":
            patches.append(
                RegularPolygon((c.x, c.y), 4, radius=step / np.sqrt(2), orientation=np.pi / 4)
            )
        elif board.shape == "diamond":
            patches.append(RegularPolygon((c.x, c.y), 4, radius=step / np.sqrt(2) * 0.98))
        elif board.shape == "hex":
            patches.append(RegularPolygon((c.x, c.y), 6, radius=step / np.sqrt(3)))
        else:
            patches.append(Circle((c.x, c.y), radius=radii[c.id]))
    mappable = None
    edge = "#555555" if board.shape == "graph" else "white"  # pale nodes need an outline
    if values is None:
        faces = [colour[c.kind] for c in board.cells]
        coll = PatchCollection(patches, facecolors=faces, edgecolors=edge, linewidths=0.4)
        ax.add_collection(coll)
    else:
        vals = np.asarray(values, dtype=float)
        if vals.shape != (len(board.cells),):
            raise ValueError(f"{vals.shape[0]} values for {len(board.cells)} cells")
        shown = ~np.isnan(vals)
        pale = PatchCollection(
            [p for p, s in zip(patches, shown, strict=True) if not s],
            facecolors="#eeeeee",
            edgecolors="white",
            linewidths=0.4,
        )
        ax.add_collection(pale)
        coll = PatchCollection(
            [p for p, s in zip(patches, shown, strict=True) if s],
            cmap=cmap,
            edgecolors="white",
            linewidths=0.4,
        )
        coll.set_array(vals[shown])
        ax.add_collection(coll)
        mappable = coll
    size = max(3.0, min(8.0, 300.0 / np.sqrt(len(board.cells))))
    for c in board.cells:
        if show_ids:
            ax.text(c.x, c.y, c.label or str(c.id), ha="center", va="center", fontsize=size)
        elif c.tag:
            ax.text(c.x, c.y, c.tag, ha="center", va="center", fontsize=size + 1, weight="bold")
    pad = step
    ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
    ax.set_ylim(xy[:, 1].max() + pad, xy[:, 1].min() - pad)  # y grows downwards
    ax.set_aspect("equal")
    ax.axis("off")
    if legend and values is None:
        handles = [
            Line2D(
                [],
                [],
                marker="s",
                linestyle="",
                markersize=9,
                color=c,
                label=entry,
                markeredgecolor="#888888",
                markeredgewidth=0.5,
            )  # pale swatches show
            for entry, c in board.legend_entries(colour)
        ]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return mappable


def save_board_picture(
    board: Board,
    path: str | Path,
    title: str,
    values: Sequence[float] | None = None,
    show_ids: bool = False,
    caption: str = "",
) -> Path:
    """Draw the board (or a heatmap on it) to a PNG or SVG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise BalanceError(f"--out {path}: name a .png, .svg or .pdf file")
    if not path.parent.exists():
        raise BalanceError(f"--out {path}: folder {path.parent} does not exist")
    fig, ax = plt.subplots(figsize=(9, 7))
    mappable = draw_board(board, ax, values=values, show_ids=show_ids)
    if mappable is not None:
        fig.colorbar(mappable, ax=ax, shrink=0.7, label=caption)
    ax.set_title(title)
    fig.tight_layout()
    tmp = path.with_name(path.name + ".tmp" + path.suffix)
    fig.savefig(tmp, dpi=130, bbox_inches="tight")
    plt.close(fig)
    tmp.replace(path)
    return path
