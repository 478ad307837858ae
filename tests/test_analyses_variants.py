"""Variant comparisons on common random numbers: nothing found where nothing changed, big changes
found, and the multiple-comparison correction applied."""

from __future__ import annotations

import pytest

from analyses.runs import Run, paired
from analyses.stats import adjust_p_values
from analyses.variants import compare_runs
from simulator.contract.errors import BalanceError
from simulator.runs.runner import simulate

GAMES = 2000


def play(tmp_path, name, seed=3, **kwargs) -> Run:
    return Run.open(simulate("fake", GAMES, tmp_path / name, jobs=1, seed=seed, **kwargs))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("variants")
    return {
        "default": play(tmp, "default"),
        "same": play(tmp, "same", sets={"mode": "fancy"}),  # a rule the engine ignores
        "longer": play(tmp, "longer", sets={"extra_length": 8}),  # length only
        "rigged": play(tmp, "rigged", sets={"bias": 2}),  # seat 1: 1/3 -> 3/5
        "other_seed": play(tmp, "other_seed", seed=99),
    }


def rows_for(rows, variant):
    return {r["measure"]: r for r in rows if r["variant"] == variant}


def test_a_variant_that_changes_nothing_shows_no_difference(runs):
    rows = compare_runs(runs["default"], [runs["same"]])
    assert all(r["paired"] for r in rows)
    assert [r["measure"] for r in rows] == [
        "seat 1 win rate",
        "seat 2 win rate",
        "seat 3 win rate",
        "mean length",
    ]
    for r in rows:
        assert r["change"]["value"] == 0 and r["p_value"] == 1.0 and not r["significant"]


def test_a_length_only_variant_changes_length_and_nothing_else(runs):
    rows = rows_for(compare_runs(runs["default"], [runs["longer"]]), "extra_length=8")
    wins = [rows[f"seat {s} win rate"] for s in (1, 2, 3)]
    assert not any(r["significant"] for r in wins)
    length = rows["mean length"]
    assert (
        length["significant"] and length["change"]["lo"] < 3 < length["change"]["hi"]
    )  # mean 15 -> 18


def test_a_rigged_variant_is_detected_with_a_covering_interval(runs):
    rows = rows_for(compare_runs(runs["default"], [runs["rigged"]]), "bias=2")
    seat1 = rows["seat 1 win rate"]
    assert seat1["significant"] and seat1["p_adjusted"] < 1e-6
    assert seat1["change"]["lo"] < 3 / 5 - 1 / 3 < seat1["change"]["hi"]
    assert seat1["test"].startswith("McNemar")
    for s in (2, 3):
        r = rows[f"seat {s} win rate"]
        assert r["significant"] and r["change"]["lo"] < 1 / 5 - 1 / 3 < r["change"]["hi"]
    assert not rows["mean length"]["significant"]  # same seeds, same lengths
    assert rows["mean length"]["change"]["value"] == 0


def test_correction_covers_every_comparison_of_the_study(runs):
    rows = compare_runs(runs["default"], [runs["same"], runs["longer"], runs["rigged"]])
    assert len(rows) == 12
    assert [r["p_adjusted"] for r in rows] == pytest.approx(
        adjust_p_values([r["p_value"] for r in rows])
    )
    assert all(r["p_adjusted"] >= r["p_value"] for r in rows)
    assert all(r["significant"] == (r["p_adjusted"] < 0.05) for r in rows)


def test_runs_with_other_seeds_are_compared_as_independent_samples(runs):
    # Same rules, other games: every difference is luck, and none may look significant.
    assert not paired(runs["default"], runs["other_seed"])
    rows = compare_runs(runs["default"], [runs["other_seed"]])
    assert not any(r["paired"] for r in rows)
    assert not any(r["significant"] for r in rows)
    assert rows[0]["test"].startswith("chi-square")
    assert rows[-1]["test"].startswith("Mann-Whitney")


def test_draws_add_a_no_winner_row(tmp_path, runs):
    drawn = play(tmp_path, "drawn", sets={"draw": 0.2})
    rows = rows_for(compare_runs(runs["default"], [drawn]), "draw=0.2")
    no_winner = rows["no-winner rate"]
    assert no_winner["significant"] and no_winner["base"] == 0
    d = no_winner["change"]
    assert d["lo"] < d["value"] < d["hi"]
    assert abs(d["value"] - 0.2) < 0.04


def test_runs_of_other_player_counts_are_refused(tmp_path, runs):
    four = Run.open(simulate("fake", 300, tmp_path / "four", jobs=1, players=4))
    with pytest.raises(BalanceError, match="players"):
        compare_runs(runs["default"], [four])


def test_a_corrected_verdict_carries_the_interval_it_tests(runs):
    others = [runs["same"], runs["longer"], runs["rigged"]]
    rows = compare_runs(runs["default"], others)
    called = sum(r["significant"] for r in rows)
    for r in rows:
        c, d = r["corrected"], r["change"]
        assert c["comparisons"] == len(rows) == 12
        assert c["confidence"] == pytest.approx(1 - max(called, 1) * 0.05 / 12)
        assert c["lo"] <= d["lo"] <= d["value"] <= d["hi"] <= c["hi"]  # widened, not moved
        if d["lo"] != d["hi"]:  # a change that varies from game to game: verdict = interval
            assert r["significant"] == (c["lo"] > 0 or c["hi"] < 0), r
