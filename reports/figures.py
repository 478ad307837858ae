"""Matplotlib figures as PNG bytes. Every figure draws its 95% intervals (bars, bands or text)."""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display: figures only become PNG bytes
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

WIDTH, ROW_HEIGHT, DPI = 7.0, 0.42, 100
COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


LABEL_CHARS = 70  # an axis label wider than this is wrapped, so the figure never cuts it


def _png(fig: plt.Figure) -> bytes:
    buf = io.BytesIO()
    _lay_out(fig)
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _lay_out(fig: plt.Figure) -> None:
    """Fit every label and legend inside the figure: long axis labels wrapped, category names
    that would run together turned, then the tight layout (which counts legends outside the
    axes)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            text = axis.get_label().get_text()
            if len(text) > LABEL_CHARS:
                axis.set_label_text(textwrap.fill(text, LABEL_CHARS))
    fig.tight_layout()
    for ax in fig.axes:
        if not _ticks_collide(fig, ax):
            continue
        names = [t.get_text() for t in ax.get_xticklabels()]
        ax.set_xticks(ax.get_xticks(), [_wrap(t) for t in names])  # break after ':' and ','
        fig.tight_layout()
        if _ticks_collide(fig, ax):  # still too wide: the names whole, turned
            ax.set_xticks(ax.get_xticks(), names)
            for t in ax.get_xticklabels():
                t.set(rotation=TICK_TURN, horizontalalignment="right", rotation_mode="anchor")
            fig.tight_layout()
    for ax in fig.axes:  # a label wider than a narrow axes (a legend beside it): wrap it shorter
        label = ax.xaxis.label
        text, width = " ".join(label.get_text().split()), LABEL_CHARS
        while text and _outside(fig, label) and width > MIN_LABEL_CHARS:
            width = int(width * 0.8)
            ax.xaxis.set_label_text(textwrap.fill(text, width))
            fig.tight_layout()


MIN_LABEL_CHARS = 16  # the narrowest an axis label is wrapped to


def _outside(fig: plt.Figure, text: plt.Text) -> bool:
    """Whether a text reaches past the figure's edge (and would be cut)."""
    box, frame = text.get_window_extent(fig.canvas.get_renderer()), fig.bbox
    return box.x0 < frame.x0 - 1 or box.x1 > frame.x1 + 1


TICK_TURN = 30  # degrees category names are turned by when they would run together


def _ticks_collide(fig: plt.Figure, ax: plt.Axes) -> bool:
    """Whether neighbouring x tick labels overlap: side by side when level, or, turned, when
    the gap between their parallel baselines is less than a line of text."""
    renderer = fig.canvas.get_renderer()
    ticks = [t for t in ax.get_xticklabels() if t.get_text()]
    if len(ticks) < 2:
        return False
    angle = ticks[0].get_rotation() % 180
    if angle == 0:
        boxes = [t.get_window_extent(renderer) for t in ticks]
        return any(a.x1 + 2 > b.x0 for a, b in zip(boxes, boxes[1:], strict=False))
    xs = [ax.transData.transform((t.get_position()[0], 0))[0] for t in ticks]
    gap = min(b - a for a, b in zip(xs, xs[1:], strict=False)) * math.sin(math.radians(angle))
    line = max(t.get_fontsize() for t in ticks) * fig.dpi / 72
    lines = max(t.get_text().count("\n") + 1 for t in ticks)
    return gap < line * lines * 1.1


def _wrap(label: str) -> str:
    """``mcts:playouts=75`` as ``mcts:`` over ``playouts=75``."""
    return label.replace(":", ":\n").replace(",", ",\n") if len(label) > 8 else label


def legend_beside(ax: plt.Axes) -> None:
    """The legend beside the axes, never over the data."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def layout_problems(fig: plt.Figure) -> list[str]:
    """What a reader would trip on in a laid-out figure: a text or legend cut by the figure's
    edge, a legend over the axes (the data), category names running together."""
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    out = []
    for ax in fig.axes:
        texts = [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.get_xticklabels(),
                 *ax.get_yticklabels()]  # fmt: skip
        for t in texts:
            if not t.get_text() or not t.get_visible():
                continue
            box = t.get_window_extent(renderer)
            if (
                box.x0 < frame.x0 - 1
                or box.x1 > frame.x1 + 1
                or box.y0 < frame.y0 - 1
                or (box.y1 > frame.y1 + 1)
            ):
                out.append(f"cut: {t.get_text()!r}")
        legend = ax.get_legend()
        if legend is not None:
            box = legend.get_window_extent(renderer)
            if box.overlaps(ax.get_window_extent(renderer)):
                out.append("legend over the axes")
            if box.x1 > frame.x1 + 1 or box.y0 < frame.y0 - 1:
                out.append("legend cut")
        if _ticks_collide(fig, ax):
            out.append("x tick labels run together")
    return out


def _errors(values: Sequence[float], lo: Sequence[float], hi: Sequence[float]) -> np.ndarray:
    v, lo_a, hi_a = (np.asarray(x, dtype=float) for x in (values, lo, hi))
    return np.nan_to_num(np.vstack([v - lo_a, hi_a - v]).clip(min=0))


def interval_bars(
    labels: list[str],
    values: list[float],
    lo: list[float],
    hi: list[float],
    *,
    xlabel: str,
    reference: float | None = None,
    reference_label: str = "",
    percent: bool = True,
) -> bytes:
    """Horizontal bars with 95% interval whiskers; an optional dashed reference line."""
    fig, ax = plt.subplots(figsize=(WIDTH, 0.9 + ROW_HEIGHT * len(labels)))
    y = np.arange(len(labels))[::-1]
    ax.barh(y, values, color=COLORS[0], alpha=0.75, height=0.6)
    ax.errorbar(values, y, xerr=_errors(values, lo, hi), fmt="none", ecolor="black", capsize=4)
    if reference is not None and math.isfinite(reference):
        ax.axvline(reference, color="firebrick", linestyle="--", label=reference_label)
        legend_beside(ax)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    if percent:
        ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    return _png(fig)


def estimate_bars(labels: list[str], estimates: list[dict], **options) -> bytes:
    """:func:`interval_bars` for estimates given as dicts with ``value``, ``lo`` and ``hi``."""
    return interval_bars(
        labels,
        [e["value"] for e in estimates],
        [e["lo"] for e in estimates],
        [e["hi"] for e in estimates],
        **options,
    )


def grouped_seat_bars(
    groups: list[tuple[str, list[float], list[float], list[float], float | None]],
) -> bytes:
    """Win rate by seat for one or more runs: (label, rates, lo, hi, fair share) per run."""
    n_seats = max(len(g[1]) for g in groups)
    width = 0.8 / len(groups)
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4))
    x = np.arange(n_seats)
    for k, (label, rates, lo, hi, fair) in enumerate(groups):
        pos = x[: len(rates)] - 0.4 + width * (k + 0.5)
        color = COLORS[k % len(COLORS)]
        ax.bar(pos, rates, width=width * 0.95, color=color, alpha=0.75, label=label)
        ax.errorbar(pos, rates, yerr=_errors(rates, lo, hi), fmt="none", ecolor="black", capsize=3)
        if fair is not None:
            ax.hlines(fair, pos[0] - width / 2, pos[-1] + width / 2, colors=color, linestyles="--")
    ax.set_xticks(x, [f"seat {s + 1}" for s in range(n_seats)])
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    if len(groups) > 1:
        legend_beside(ax)
    return _png(fig)


def length_histograms(
    series: list[tuple[str, list[dict], dict]],
    unit: str,
) -> bytes:
    """Share of games by length (whiskers: 95% intervals); the shaded band is the mean's interval.

    ``series`` holds (label, histogram bins, mean estimate) per run.
    """
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4))
    for k, (label, bins, mean) in enumerate(series):
        color = COLORS[k % len(COLORS)]
        mids = [(b["from"] + b["to"]) / 2 for b in bins]
        shares = [b["share"] for b in bins]
        ax.step(mids, shares, where="mid", color=color, label=label)
        ax.errorbar(
            mids,
            shares,
            yerr=_errors(shares, [b["lo"] for b in bins], [b["hi"] for b in bins]),
            fmt="none",
            ecolor=color,
            alpha=0.6,
            capsize=2,
        )
        ax.axvspan(mean["lo"], mean["hi"], color=color, alpha=0.25)
        ax.axvline(mean["value"], color=color, linestyle=":")
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    if len(series) > 1:
        legend_beside(ax)
    return _png(fig)


def forest(
    labels: list[str],
    diffs: list[float],
    lo: list[float],
    hi: list[float],
    xlabel: str,
    *,
    percent: bool,
    significant: list[bool],
) -> bytes:
    """Changes against the baseline with their 95% intervals; filled dots are significant."""
    fig, ax = plt.subplots(figsize=(WIDTH, 0.9 + ROW_HEIGHT * len(labels)))
    y = np.arange(len(labels))[::-1]
    ax.errorbar(diffs, y, xerr=_errors(diffs, lo, hi), fmt="none", ecolor="black", capsize=4)
    colors = ["firebrick" if s else "white" for s in significant]
    ax.scatter(diffs, y, c=colors, edgecolors="black", zorder=3)
    ax.axvline(0, color="grey", linestyle="--")
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    if percent:
        ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    return _png(fig)


def sweep_lines(
    x: list[float],
    series: list[tuple[str, list[float], list[float], list[float]]],
    *,
    xlabel: str,
    ylabel: str,
    percent: bool,
    categorical: bool = False,
) -> bytes:
    """A measure against a swept parameter with its 95% intervals: shaded bands for one or two
    lines, whiskers set slightly apart for more (overlapping bands would hide each other)."""
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4))
    xs = np.arange(len(x)) if categorical else np.asarray(x, dtype=float)
    gap = float(np.min(np.diff(xs))) if len(xs) > 1 else 1.0
    for k, (label, values, lo, hi) in enumerate(series):
        color = COLORS[k % len(COLORS)]
        if len(series) <= 2:
            ax.plot(xs, values, marker="o", color=color, label=label)
            ax.fill_between(xs, lo, hi, color=color, alpha=0.2)
            continue
        shift = (k - (len(series) - 1) / 2) * gap * 0.6 / len(series)
        ax.plot(xs + shift, values, marker="o", color=color, label=label, linewidth=1)
        ax.errorbar(xs + shift, values, yerr=_errors(values, lo, hi), fmt="none", ecolor=color,
                    capsize=2)  # fmt: skip
    if categorical:
        ax.set_xticks(xs, [str(v) for v in x])
    elif all(float(v).is_integer() for v in x):  # whole-number rules: no ticks at 1.5, 2.5
        if len(xs) <= 12:
            ax.set_xticks(xs, [f"{v:g}" for v in xs])
        else:
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if percent:
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    if len(series) > 1:
        legend_beside(ax)
    return _png(fig)


def heatmap(
    values: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    *,
    row_labels: list[str],
    col_labels: list[str],
    row_title: str,
    col_title: str,
    percent: bool,
) -> bytes:
    """A grid of estimates; every cell is annotated with its value and 95% interval."""
    fig, ax = plt.subplots(
        figsize=(max(WIDTH, 1.5 * len(col_labels) + 2), 1.2 + 0.75 * len(row_labels))
    )
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    fig.colorbar(image, ax=ax)
    fmt = (lambda v: f"{v:.1%}") if percent else (lambda v: f"{v:.3g}")
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if not math.isfinite(values[i, j]):
                continue
            ax.text(
                j,
                i,
                f"{fmt(values[i, j])}\n[{fmt(lo[i, j])}, {fmt(hi[i, j])}]",
                ha="center",
                va="center",
                fontsize=7,
                color="white" if values[i, j] < np.nanmean(values) else "black",
            )
    ax.set_xticks(range(len(col_labels)), col_labels)
    ax.set_yticks(range(len(row_labels)), row_labels)
    ax.set_xlabel(col_title)
    ax.set_ylabel(row_title)
    return _png(fig)


def board_heatmap(board: object, per_game: np.ndarray, caption: str) -> bytes:
    """The board with each cell coloured by its mean count per game (grey: never)."""
    from simulator.contract.boards import draw_board

    fig, ax = plt.subplots(figsize=(WIDTH + 1.5, WIDTH))
    values = np.where(per_game > 0, per_game, np.nan)
    mappable = draw_board(board, ax, values=values)
    if mappable is not None:
        fig.colorbar(mappable, ax=ax, shrink=0.7, label=f"{caption}: per game")
    return _png(fig)
