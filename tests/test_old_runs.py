"""A run written before the outcome model (``simulator.contract.outcomes``) still reads, verifies,
replays and reports: ``tests/old_runs/pig-before-outcomes`` is 40 games of ``examples/pig.py``
written by the version before ``win_share`` and ``place`` existed (the file's text travels in
its manifest). Its parts are read, never written: each test works on a copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

import cli
from analyses.runs import Run
from analyses.seats import seat_summary

OLD = Path(__file__).parent / "old_runs" / "pig-before-outcomes"


@pytest.fixture
def old_run(tmp_path: Path) -> Path:
    return Path(shutil.copytree(OLD, tmp_path / "run"))


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_the_old_run_has_no_outcome_columns_and_reads_with_win_shares_from_its_winner(old_run):
    raw = pl.scan_parquet(old_run / "games" / "*.parquet").collect()
    assert "win_share" not in raw.columns and "place" not in raw.columns
    games = Run.open(old_run).scan().collect()
    for winner, shares in zip(games["winner"], games["win_share"].to_list(), strict=True):
        assert shares == [float(winner == s) for s in range(2)]
    wins = raw["winner"].value_counts().sort("winner")
    summary = seat_summary(Run.open(old_run))
    for seat in summary["seats"]:
        count = wins.filter(pl.col("winner") == seat["seat"] - 1)["count"]
        assert seat["value"] == pytest.approx(int(count.sum()) / raw.height)


def test_the_old_run_verifies_replays_and_reports(old_run, capsys):
    code, out, err = call(capsys, "verify", old_run)
    assert code == 0, err
    assert "sound" in out
    code, out, err = call(capsys, "replay", old_run, "--game-index", 3)
    assert code == 0, err
    assert out.strip().splitlines()[-1].startswith("result: seat ")
    code, out, err = call(capsys, "report", old_run, "--out", old_run.parent / "report.html")
    assert code == 0, err
    assert (old_run.parent / "report.html").stat().st_size > 0
