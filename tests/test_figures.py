"""Figures: no legend over the data, no label cut by the figure's edge, no category names
running together (read from matplotlib's own text and legend boxes)."""

from __future__ import annotations

import pytest

from reports import figures


@pytest.fixture
def laid_out(monkeypatch):
    """Every figure drawn, laid out as it is saved, and kept for the test."""
    kept = []

    def png(fig):
        figures._lay_out(fig)
        fig.canvas.draw()
        kept.append(fig)
        return b""

    monkeypatch.setattr(figures, "_png", png)
    yield kept
    for fig in kept:
        figures.plt.close(fig)


@pytest.mark.parametrize(
    ("names", "reference_label"),
    [
        ([f"option_{k}_with_a_long_name" for k in range(12)], "no change"),
        # two short names beside a long legend: the axes are narrow and the label must wrap
        (["goal", "faces"], "no change: a verdict 'moves it' needs the interval clear of 0"),
    ],
)
def test_explores_bars_keep_legend_and_axis_label_clear(laid_out, names, reference_label):
    values = [0.01 * (len(names) - k) for k in range(len(names))]
    figures.interval_bars(
        names,
        values,
        [v - 0.01 for v in values],
        [v + 0.015 for v in values],
        xlabel="mean change over the option's range (size beyond luck where marked) (balance, 0-1)",
        reference=0.0,
        reference_label=reference_label,
        percent=False,
    )
    (fig,) = laid_out
    assert figures.layout_problems(fig) == []


def test_skills_rung_names_do_not_run_together(laid_out):
    rungs = ["random", "greedy", "cautious", "planner", "lookahead", "mcts:playouts=75",
             "mcts:playouts=300", "mcts:playouts=1200"]  # fmt: skip
    series = [
        ("first seat wins", [0.5] * len(rungs), [0.45] * len(rungs), [0.55] * len(rungs)),
        ("no winner", [0.1] * len(rungs), [0.08] * len(rungs), [0.12] * len(rungs)),
    ]
    figures.sweep_lines(rungs, series, xlabel="rung", ylabel="share", percent=True,
                        categorical=True)  # fmt: skip
    (fig,) = laid_out
    assert figures.layout_problems(fig) == []


def test_the_check_sees_a_legend_over_the_data():
    fig, ax = figures.plt.subplots(figsize=(figures.WIDTH, 3))
    ax.bar([0, 1, 2], [1, 2, 3], label="bars")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.canvas.draw()
    assert "legend over the axes" in figures.layout_problems(fig)
    figures.plt.close(fig)
