"""Pedruscos analyses and report sections on a small run."""

import numpy as np
import pytest

from analyses.pedruscos import branch_payback, station_table
from analyses.runs import Run
from reports.pedruscos import sections
from simulator.runs.plan import plan_run
from simulator.runs.runner import run


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ped") / "run"
    config = plan_run("pedruscos", 300, policies=["builder", "hauler", "lookahead"], players=3)
    run(config, out, jobs=1)
    return Run.open(out)


def test_branch_payback_by_policy(small_run):
    pay = branch_payback(small_run)
    rows = {r["policy"]: r for r in pay["by_policy"]}
    assert set(rows) == {"builder", "hauler", "lookahead"}
    assert rows["hauler"]["branches"]["value"] == 0 and rows["hauler"]["harvest_points"][
        "value"
    ] == pytest.approx(0)
    assert rows["builder"]["branches"]["value"] > 0
    assert rows["builder"]["paid"]["value"] == pytest.approx(
        4 * rows["builder"]["branches"]["value"]
    )
    assert sum(r["seats"] for r in pay["by_branches"]) == 900


def test_station_table_shares_sum_to_one(small_run):
    tab = station_table(small_run)
    shares = [r["share"]["value"] for r in tab["results"]]
    assert sum(shares) == pytest.approx(1.0)
    assert sum(r["expected_share"] for r in tab["results"]) == pytest.approx(1.0)
    assert tab["games"] == 300 and tab["rolls"] > 300
    assert sum(r["seats"] for r in tab["pirates"]) == 900
    assert np.isfinite(tab["results"][0]["per_game"]["lo"])


def test_sections_render(small_run):
    secs = sections([small_run])
    assert [s.title for s in secs] == ["Branch payback", "Station table"]
    assert all(s.blocks for s in secs)
