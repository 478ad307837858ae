"""Every game column declares what it holds; only counts and measures are averaged, and a "none"
value (-1: does not apply) never enters an average."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyses.runs import Run
from analyses.summary import column_means
from analyses.targets import check_measurable, parse_target
from simulator.contract import registry as games
from simulator.contract.errors import BalanceError
from simulator.contract.registry import COUNT, SEAT, ColumnKind, available, get_game
from simulator.runs.plan import plan_run
from simulator.runs.runner import run
from tests.fake_game import SPEC as FAKE

N = 40


def _play_with_codes(rules, n_players, policy_ids, policy_params, seeds, rec=None, rec_n=None):
    out = FAKE.play_chunk(rules, n_players, policy_ids, policy_params, seeds, rec, rec_n)
    index = np.arange(len(seeds))
    out["fake_captain"] = index % n_players  # a seat: its mean means nothing
    out["fake_taken_turn"] = np.where(index % 2 == 0, -1, 7)  # -1: never taken
    padded = np.full((len(seeds), 3), -1, np.int64)
    padded[:, 0] = 1
    padded[index % 4 == 0, 1] = 0  # one more task, not done
    out["fake_done"] = padded  # 1 done, 0 not, -1 padding
    return out


CODES = dataclasses.replace(
    FAKE,
    id="fake-codes",
    play_chunk=_play_with_codes,
    columns={
        **FAKE.columns,
        "fake_captain": "seat of the captain",
        "fake_taken_turn": "turn the prize was taken (-1: never)",
        "fake_done": "1 if that task was done, 0 if not, -1 padding",
    },
    column_kinds={
        "fake_total": COUNT,
        "fake_captain": SEAT,
        "fake_taken_turn": ColumnKind("measure", none=-1),
        "fake_done": ColumnKind("count", none=-1),
    },
)


@pytest.mark.parametrize("game", sorted(g for g in available() if not g.startswith("fake")))
def test_every_shipped_game_declares_what_each_column_holds(game: str) -> None:
    spec = get_game(game)
    assert set(spec.column_kinds) == set(spec.columns)
    for name in spec.heatmaps:
        assert spec.kind_of(name).kind == "cells"


def test_only_counts_and_measures_are_averaged_and_none_is_left_out(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(games._EXTRA, CODES.id, CODES)  # registered for this test only
    folder = run(plan_run("fake-codes", N, seed=1), tmp_path / "run", jobs=1)
    means = column_means(Run.open(folder.path))
    assert "fake_captain" not in means and "fake_win_cells" not in means
    taken = means["fake_taken_turn"]  # 7 in the odd games; the -1s are not averaged in
    assert (taken["value"], taken["lo"], taken["hi"]) == (7.0, 7.0, 7.0)
    assert means["fake_done"]["value"] == pytest.approx(1.0)  # tasks done per game: one


def test_a_code_or_a_negative_count_is_not_a_target() -> None:
    with pytest.raises(BalanceError, match=r"fake_captain' \(it holds seat numbers"):
        check_measurable([parse_target("mean:fake_captain=1..2")], CODES)
    with pytest.raises(BalanceError, match="fake_done is a count, never negative"):
        check_measurable([parse_target("mean:fake_done=-1..2")], CODES)
    check_measurable([parse_target("mean:fake_taken_turn=-1..2")], CODES)  # a measure may be


def test_a_kind_must_be_known() -> None:
    with pytest.raises(ValueError, match="column kind 'sum'"):
        ColumnKind("sum")


def test_a_column_that_never_applies_has_no_mean() -> None:
    import polars as pl

    from analyses.summary import means_of

    frame = pl.DataFrame(
        {"a": [None, None], "b": [1.0, None]}, schema={"a": pl.Float64, "b": pl.Float64}
    )
    means = means_of(frame, ["a", "b"])
    assert "a" not in means and means["b"]["value"] == 1.0
