"""Studies: compare, sweep and until-ci runs on the known-answer game, resumable and refused
when the folder holds something else."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analyses.runs import Run
from analyses.stats import proportion
from analyses.summary import headline_rate_widths
from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import read_manifest
from simulator.runs.plan import plan_run
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import geometric_looks, run
from simulator.studies import compare as studies


def test_a_request_is_planned_as_the_same_fields_given_as_keywords():
    request = PlayRequest("fake", 300, players=3, policies=["strong"], seed=4, sets=["bias=1"])
    assert plan_run(request) == plan_run("fake", 300, players=3, policies=["strong"], seed=4,
                                         sets=["bias=1"])  # fmt: skip
    assert plan_run(request.but(seed=5)).seed == 5
    with pytest.raises(TypeError):
        plan_run(request, 300)


def test_compare_plays_default_and_variants_on_the_same_seeds(tmp_path):
    variant = tmp_path / "rigged.toml"
    variant.write_text('name = "rigged"\n[rules]\nbias = 1.0\n')
    study = studies.compare(
        PlayRequest("fake", 500, sets=["draw=0.1"]),
        tmp_path / "cmp",
        Execution(jobs=1),
        variants=[variant],
    )
    assert [r.label for r in study.runs] == ["default", "rigged", "draw=0.1"]
    assert json.loads((tmp_path / "cmp" / "study.json").read_text())["kind"] == "compare"
    seeds = [Run.open(p).scan().sort("game_index").collect()["seed"] for p in study.run_paths()]
    assert seeds[0].equals(seeds[1]) and seeds[0].equals(seeds[2])
    assert read_manifest(study.run_paths()[1])["rules_changed"] == {"bias": 1.0}


def test_compare_plays_a_designed_variant_under_the_lineup_it_was_judged_with(tmp_path):
    variant = tmp_path / "setting-1.toml"
    play = '[play]\nplayers = 2\npolicies = ["strong", "random"]\nseed = 3\ngames = 300\n'
    variant.write_text('name = "design-1"\n[rules]\nbias = 1.0\n' + play + "rotate = false\n")
    study = studies.compare(PlayRequest("fake", 300), tmp_path / "cmp", Execution(jobs=1),
                            variants=[variant])  # fmt: skip
    for path in study.run_paths():
        assert read_manifest(path)["config"]["policies"] == ["strong", "random"]
    variant.write_text('name = "design-1"\n[rules]\nbias = 1.0\n' + play + "rotate = true\n")
    with pytest.raises(BalanceError, match="judged over every rotation.*--seed 3` plays it"):
        studies.compare(PlayRequest("fake", 300), tmp_path / "c2", Execution(jobs=1),
                        variants=[variant])  # fmt: skip
    one = studies.compare(PlayRequest("fake", 300, 2, policies=["random", "strong"]),
                          tmp_path / "c3", Execution(jobs=1), variants=[variant])  # fmt: skip
    assert read_manifest(one.run_paths()[1])["config"]["policies"] == ["random", "strong"]


def test_compare_resumes_and_refuses_another_study(tmp_path):
    out = tmp_path / "cmp"
    study = studies.compare(PlayRequest("fake", 500, sets=["bias=1"]), out, Execution(jobs=1))
    part = study.run_paths()[1] / "games" / "part-00000.parquet"
    stamp = part.stat().st_mtime_ns
    studies.compare(
        PlayRequest("fake", 500, sets=["bias=1"]), out, Execution(jobs=1)
    )  # nothing left to play
    assert part.stat().st_mtime_ns == stamp
    with pytest.raises(BalanceError, match="another study"):
        studies.compare(PlayRequest("fake", 500, sets=["bias=2"]), out, Execution(jobs=1))
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(BalanceError, match="non-empty"):
        studies.compare(
            PlayRequest("fake", 500, sets=["bias=2"]), tmp_path / "busy", Execution(jobs=1)
        )


def test_compare_validates_every_run_before_playing(tmp_path):
    with pytest.raises(BalanceError, match="at least one"):
        studies.compare(PlayRequest("fake", 100), tmp_path / "a")
    with pytest.raises(BalanceError, match="unknown rule"):
        studies.compare(PlayRequest("fake", 100, sets=["speed=2"]), tmp_path / "b")
    assert not (tmp_path / "b").exists()


def test_sweep_plays_the_grid_with_typed_parameters(tmp_path):
    study = studies.sweep(
        PlayRequest("fake", 300, sets=["draw=0.1"]),
        tmp_path / "sw",
        Execution(jobs=1),
        params=["bias=0,1", "players=2,3"],
    )
    assert [r.params for r in study.runs] == [
        {"bias": 0.0, "players": 2},
        {"bias": 0.0, "players": 3},
        {"bias": 1.0, "players": 2},
        {"bias": 1.0, "players": 3},
    ]
    manifests = [read_manifest(p) for p in study.run_paths()]
    assert [m["config"]["n_players"] for m in manifests] == [2, 3, 2, 3]
    assert all(m["config"]["rules"]["draw"] == 0.1 for m in manifests)


@pytest.mark.parametrize(
    ("params", "sets", "message"),
    [
        ([], None, "at least one --param"),
        (["bias"], None, "key=v1"),
        (["bias=1,1"], None, "repeated"),
        (["bias=1", "bias=2"], None, "only once"),
        (["bias=1,2"], ["bias=3"], "both swept"),
        (["speed=1,2"], None, "unknown rule"),
        (["bias=1,x"], None, "^--param: rule 'bias' got 'x'"),
        (["players=2,9"], None, "2 to 6 players"),
    ],
)
def test_sweep_refuses_bad_grids(tmp_path, params, sets, message):
    with pytest.raises(BalanceError, match=message):
        studies.sweep(PlayRequest("fake", 100, sets=sets), tmp_path / "sw", params=params)


def test_until_ci_stops_early_at_a_batch_boundary_and_resumes_to_the_same_point(tmp_path):
    config = plan_run("fake", 20_000, seed=1, chunk_size=250)
    rule = studies.until_ci_rule(0.04)
    folder = run(config, tmp_path / "r", jobs=1, until=rule)
    manifest = folder.read_manifest()
    played = manifest["games_played"]
    assert manifest["stopped_early"] and played < 20_000
    assert played // 250 in geometric_looks(80) and played % 250 == 0  # looked early and often
    assert max(headline_rate_widths(Run.open(folder.path)).values()) < 0.04
    assert folder.scan().select(pl.len()).collect().item() == played
    # The look before would not have been enough.
    looks = geometric_looks(80)
    before = looks[looks.index(played // 250) - 1] * 250
    fewer = folder.scan().filter(pl.col("game_index") < before).collect()
    widths = [proportion(int((fewer["winner"] == s).sum()), fewer.height).width for s in range(3)]
    assert max(widths) >= 0.04
    again = run(config, tmp_path / "r", jobs=1, until=rule)
    assert again.read_manifest()["games_played"] == played
    # The same command without the rule finishes the run.
    full = run(config, tmp_path / "r", jobs=1)
    assert full.read_manifest()["games_played"] == 20_000
    assert not full.read_manifest()["stopped_early"]


def test_until_ci_is_validated():
    for width in (0, 1.5, -0.1):
        with pytest.raises(BalanceError, match="until-ci"):
            studies.until_ci_rule(width)


def test_compare_until_ci_gives_every_variant_the_default_run_games(tmp_path):
    study = studies.compare(
        PlayRequest("fake", 40_000, sets=["bias=1"]),
        tmp_path / "c",
        Execution(jobs=1),
        until_ci=0.08,
    )
    played = [read_manifest(p)["games_played"] for p in study.run_paths()]
    assert played[0] < 40_000 and played[0] == played[1]


def _sweep_runs(tmp_path, name: str, param: str, games: int) -> list[Run]:
    study = studies.sweep(
        PlayRequest("fake", games, players=2), tmp_path / name, Execution(jobs=1), params=[param]
    )
    return [
        Run.open(p, r.label, r.params) for p, r in zip(study.run_paths(), study.runs, strict=True)
    ]


def test_most_balanced_setting_is_named_only_when_paired_differences_separate_it(tmp_path):
    from analyses.summary import run_summary
    from analyses.sweeps import most_balanced
    from reports.study_sections import sweep_headline

    runs = _sweep_runs(tmp_path, "clear", "bias=0,1.5", 2000)
    lead = most_balanced(runs)
    assert lead["leader"] == "bias=0" and lead["separated"] and lead["comparisons"] == 1
    text = " ".join(sweep_headline(runs, [run_summary(r) for r in runs]))
    assert "Most balanced setting: bias=0" in text
    # The winner does not depend on the game length swept here: every game ends alike.
    runs = _sweep_runs(tmp_path, "same", "extra_length=2,5", 300)
    lead = most_balanced(runs)
    assert not lead["separated"] and lead["closest"]["value"] == 0
    text = " ".join(sweep_headline(runs, [run_summary(r) for r in runs]))
    assert "No setting is shown to be the most balanced" in text
    assert "cannot tell them apart" in text and "Most balanced setting" not in text


def test_until_ci_keeps_95_percent_coverage_however_often_it_looks():
    """Known answer by simulation: seat rates drawn game by game, the --until-ci rule asked on
    the same schedule as a run (geometric looks over 250-game chunks), stopping once every
    Wilson interval is narrower than W. The intervals printed at the stop still hold the true
    rates about 95% of the time, and the rates carry no bias."""
    from analyses.stats import proportion

    rng = np.random.default_rng(48)
    truth = np.array([0.17, 0.166, 0.167, 0.163, 0.334])  # four seats and no winner
    width, chunk, reps = 0.05, 250, 300
    looks = [k * chunk for k in geometric_looks(4000)]
    covered, errors, stops = 0, [], []
    for _ in range(reps):
        counts, n = np.zeros(5, dtype=int), 0
        for m in looks:
            counts += rng.multinomial(m - n, truth)
            n = m
            ests = [proportion(int(k), n) for k in counts]
            if max(e.hi - e.lo for e in ests) < width:
                break
        stops.append(n)
        covered += sum(e.lo <= p <= e.hi for e, p in zip(ests, truth, strict=True))
        errors.append(counts / n - truth)
    coverage = covered / (reps * len(truth))
    assert 0.93 <= coverage <= 0.97, coverage  # 1,500 intervals: 95% +- 1.1 points
    assert np.all(np.abs(np.mean(errors, axis=0)) < 0.002)  # no bias beyond a fifth of a point
    assert np.median(stops) < 2_000  # it stopped near the ~1,400 games W needs, not a batch late
