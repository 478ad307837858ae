"""A game's own figures (a game file's `measures`) reach the reports: each run's mean per game
with its interval, and in a comparison each variant's change, paired game by game and corrected
for the number of figures compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyses.measures import measure_changes
from analyses.runs import Run
from reports.build import build
from simulator.runs.runner import simulate

PIG = str(Path(__file__).resolve().parents[1] / "examples" / "pig.py")


@pytest.fixture(scope="module")
def pig_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pig")
    base = simulate(PIG, 300, root / "base", seed=5, jobs=1)
    short = simulate(PIG, 300, root / "short", seed=5, jobs=1, sets=["goal=50"])
    return base, short


def test_a_runs_report_shows_each_figure_with_its_interval(pig_runs):
    doc, data = build([pig_runs[0]])
    section = next(s for s in doc.sections if s.title == "The game's own figures")
    table = section.blocks[0]
    assert [row[0] for row in table.rows] == ["pig_rolls", "pig_busts"]
    assert table.rows[0][1] == "dice rolled in the game"
    rolls = data["runs"][0]["columns"]["pig_rolls"]
    assert rolls["lo"] < rolls["value"] < rolls["hi"]
    assert f"{rolls['value']:.1f} (95% interval" in table.rows[0][2]


def test_a_comparison_pairs_each_figure_and_corrects_for_how_many(pig_runs):
    base, short = (Run.open(p) for p in pig_runs)
    rows = measure_changes(base, [short])
    assert [r["measure"] for r in rows] == ["pig_rolls", "pig_busts"]
    assert all(r["paired"] and r["test"] == "paired t" for r in rows)
    rolls = rows[0]
    assert rolls["change"]["hi"] < 0 and rolls["significant"]  # a shorter race rolls less
    assert rolls["corrected"]["comparisons"] == 2
    assert rolls["corrected"]["lo"] <= rolls["change"]["lo"]
    doc, data = build(list(pig_runs))
    assert data["own_figure_changes"][0]["measure"] == "pig_rolls"
    said = [line for line in doc.headline if "own figures" in line]
    assert said and said[0].startswith("Variant 'goal=50', the game's own figures: pig_rolls -")
    titles = [s.title for s in doc.sections]
    assert "The game's own figures: variants against the default" in titles
