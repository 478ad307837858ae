"""`tune` fits a policy to what the game's players maximise: its share of the wins (a win k seats
share counts 1/k), or its mean return where the file says ``objective = "return"``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import cli
from simulator.folders.study_folders import Seating

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def _seat_values(folder: Path, seat: int, column: str) -> np.ndarray:
    games = pl.read_parquet(folder / "games" / "*.parquet").sort("game_index")
    return np.array([row[seat] for row in games[column].to_list()], dtype=float)


@pytest.mark.parametrize("objective", ["win", "return"])
def test_tune_scores_the_tuned_seat_by_the_games_objective(tmp_path, capsys, objective):
    source = (EXAMPLES / "kuhn.py").read_text() + f'\nobjective = "{objective}"\n'
    game = tmp_path / "kuhn_chips.py"
    game.write_text(source)
    out = tmp_path / "tune"
    code, _, err = call(
        capsys, "tune", game, "--policy", "by_card", "--against", "random", "--trials", 3,
        "-n", 300, "--check-games", 300, "--seed", 4, "--out", out, "--quiet",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads((out / "tune.json").read_text())
    assert data["objective"] == objective
    assert data["measure"] == ("mean return" if objective == "return" else "win rate")
    column = "returns" if objective == "return" else "win_share"
    # The check's figures are the tuned seat's mean return (or share) in the check's own games.
    for row in data["check"]["by_seating"]:
        folder = out / "check" / "defaults" / Seating.from_label(row["seating"]).folder
        values = _seat_values(folder, row["seat"], column)
        assert row["defaults"]["value"] == pytest.approx(values.mean())
        assert row["defaults"]["lo"] < values.mean() < row["defaults"]["hi"]
    if objective == "return":
        assert data["check"]["fair_share"] is None
        # A mean return may be negative or above 1: no share of anything.
        trial = data["trials"][0]
        assert trial["win_rate"] == pytest.approx(trial["wins"] / trial["games"])
