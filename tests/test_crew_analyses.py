"""Crew Deep Sea analyses on synthetic games with a known answer, and the CLI's bad input."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl

from analyses.crew import (
    campaign,
    difficulty_audit,
    flagged_under_both,
    success_by_mission,
    wilson,
)
from simulator.cli.commands.crew_deep_sea import json_rows
from simulator.games.crew_deep_sea.board import task_table


def synthetic(
    n: int = 6000, odd_card: int = 7, seed: int = 3, odd_shift: float = 3.0
) -> pl.DataFrame:
    """Success follows the printed 4-player values (0.6 log-odds a point), except one card that
    is ``odd_shift`` points harder than printed."""
    rng = np.random.default_rng(seed)
    values = task_table().difficulty[:, 1].astype(float)
    truth = values.copy()
    truth[odd_card - 1] += odd_shift
    tasks, success = [], []
    for _ in range(n):
        ids = rng.choice(96, size=3, replace=False)
        tasks.append((ids + 1).tolist())
        success.append(rng.random() < 1 / (1 + np.exp(-(3.0 - 0.6 * truth[ids].sum()))))
    return pl.DataFrame(
        {
            "n_players": [4] * n,
            "success": success,
            "crew_mission": [9] * n,
            "crew_tasks": tasks,
            "crew_distress": [False] * n,
            "policy": ["heuristic"] * n,
        }
    )


def test_audit_flags_the_card_that_is_out_of_line():
    audit = difficulty_audit(synthetic(), top=3)["4"]
    assert audit["flagged"]["task"][0] == 7
    assert audit["flagged"]["z"][0] > 3
    assert 0.4 < audit["slope_logodds_per_point"] < 0.8
    row = audit["cards"].filter(pl.col("task") == 7).row(0, named=True)
    assert row["ci_low"] < row["empirical_logodds"] < row["ci_high"]


def test_a_card_easier_than_the_scale_goes_stays_at_zero_difficulty():
    cards = difficulty_audit(synthetic(odd_shift=-6.0), top=3)["4"]["cards"]
    row = cards.filter(pl.col("task") == 7).row(0, named=True)
    assert row["below_scale"] and row["empirical_in_printed_units"] == 0.0
    assert row["printed_units_low"] == 0.0 <= row["printed_units_high"]
    assert cards["empirical_in_printed_units"].min() >= 0.0
    assert not cards.filter(pl.col("task") != 7)["below_scale"].any()


def test_success_table_and_campaign():
    games = synthetic(n=400)
    table = success_by_mission(games)
    row = table.row(0, named=True)
    assert row["attempts"] == 400
    assert (row["ci_low"], row["ci_high"]) == wilson(row["successes"], 400)
    camp = campaign(table).row(0, named=True)
    assert abs(camp["logbook_expected_attempts"] - 400 / row["successes"]) < 1e-9


def test_json_rows_write_each_estimate_as_value_lo_hi():
    games = synthetic(n=400)
    table = success_by_mission(games)
    row, first = json_rows(table)[0], table.row(0, named=True)
    assert row["success_rate"] == {
        "value": first["success_rate"],
        "lo": first["ci_low"],
        "hi": first["ci_high"],
    }
    assert "ci_low" not in row and "ci_high" not in row
    cards = difficulty_audit(synthetic())["4"]["cards"]
    both = json_rows(flagged_under_both(cards, cards))[0]
    for suffix in ("", "_right"):
        for figure in ("empirical_logodds", "empirical_in_printed_units"):
            e = both[figure + suffix]
            assert set(e) == {"value", "lo", "hi"} and e["lo"] <= e["value"] <= e["hi"]
    assert not any(k.startswith(("ci_", "printed_units_")) for k in both)


def test_crew_audit_rejects_bad_player_count(tmp_path):
    cmd = [sys.executable, "-c", "from cli import app; app()", "crew-audit", "--players", "7"]
    done = subprocess.run([*cmd, "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "balance: error: crew-deep-sea is played by 2 to 5 players, not 7"
    ]


def test_mission_32_stays_out_of_the_fit_and_distress_counts():
    games = synthetic(n=3000)
    fixed = games.head(500).with_columns(
        pl.lit(32, dtype=pl.Int64).alias("crew_mission"), pl.lit(False).alias("success")
    )
    base = difficulty_audit(games)["4"]["cards"]
    with32 = difficulty_audit(pl.concat([games, fixed]))["4"]["cards"]
    assert np.allclose(base["empirical_logodds"], with32["empirical_logodds"])
    # every attempt holding card 20 called distress: that card turns out harder
    called = games.with_columns(pl.col("crew_tasks").list.contains(20).alias("crew_distress"))
    harder = difficulty_audit(called)["4"]["cards"]
    assert harder["empirical_logodds"][19] > base["empirical_logodds"][19] + 0.3


def test_flags_only_what_both_crews_find_out_of_line():
    a = difficulty_audit(synthetic(seed=3))["4"]["cards"]
    b = difficulty_audit(synthetic(seed=4))["4"]["cards"]
    c = difficulty_audit(synthetic(seed=5, odd_card=30))["4"]["cards"]
    assert flagged_under_both(a, b)["task"].to_list()[:1] == [7]
    assert 7 not in flagged_under_both(a, c)["task"].to_list()


def test_crew_audit_confirm_with_needs_the_other_audits_table(tmp_path):
    cmd = [sys.executable, "-c", "from cli import app; app()", "crew-audit", "-n", "2"]
    cmd += ["--out", str(tmp_path / "a"), "--confirm-with", str(tmp_path / "none")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 2
    assert "task_audit_4p.csv" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "a").exists()  # refused before anything was written
