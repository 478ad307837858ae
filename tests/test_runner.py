"""Seeded chunking, determinism across jobs, run folders and resume."""

import json

import numpy as np
import polars as pl
import pytest

from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import RunFolder, load_run
from simulator.runs.plan import chunk_seeds, default_chunk_size, plan_run
from simulator.runs.runner import run, simulate


def games(path) -> pl.DataFrame:
    return load_run(path).collect().sort("game_index")


def test_chunk_seeds_are_spawned_children():
    children = np.random.SeedSequence(42).spawn(5)
    for i, child in enumerate(children):
        assert np.array_equal(chunk_seeds(42, i, 7), child.generate_state(7, dtype=np.uint32))


def test_chunk_size_depends_only_on_games():
    assert default_chunk_size(100) == 250
    assert default_chunk_size(32_000) == 1000
    assert default_chunk_size(10_000_000) == 10_000


def test_same_results_for_any_jobs_and_chunk_order(tmp_path):
    a = simulate("fake", 3000, tmp_path / "a", seed=5, jobs=1, sets=["bias=1"])
    b = simulate("fake", 3000, tmp_path / "b", seed=5, jobs=2, sets=["bias=1"])
    assert games(a).equals(games(b))
    assert len(RunFolder(a).done_parts()) == 12  # 3000 games / 250 per chunk


def test_different_seed_different_games(tmp_path):
    a = simulate("fake", 500, tmp_path / "a", seed=1, jobs=1)
    b = simulate("fake", 500, tmp_path / "b", seed=2, jobs=1)
    assert not games(a)["seed"].equals(games(b)["seed"])


def test_common_columns_and_manifest(tmp_path):
    path = simulate(
        "fake",
        600,
        tmp_path / "r",
        seed=3,
        jobs=1,
        policies=["random", "strong"],
        players=2,
        sets=["draw=0.2"],
    )
    df = games(path)
    assert df.columns[:11] == [
        "game",
        "variant",
        "seed",
        "game_index",
        "n_players",
        "policies",
        "winner",
        "success",
        "length",
        "end_reason",
        "scores",
    ]
    assert df["game_index"].to_list() == list(range(600))
    assert df["policies"][0].to_list() == ["random", "strong"]
    assert set(df["end_reason"].unique()) == {"won", "drawn"}
    # winner is null exactly when the game was drawn
    assert (df["winner"].is_null() == (df["end_reason"] == "drawn")).all()
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["config"]["rules"]["draw"] == 0.2
    assert manifest["rules_changed"] == {"draw": 0.2}
    assert manifest["finished"] is not None


def test_game_replays_alone_from_its_seed(tmp_path, fake_game):
    path = simulate("fake", 300, tmp_path / "r", seed=9, jobs=1)
    row = games(path).row(123, named=True)
    config = plan_run("fake", 1)
    from simulator.contract.policy import engine_arrays

    ids, params = engine_arrays(list(config.seats))
    cols = fake_game.play_chunk(config.rules, 3, ids, params, np.array([row["seed"]], np.uint32))
    assert cols["length"][0] == row["length"]
    assert (cols["winner"][0] if cols["winner"][0] >= 0 else None) == row["winner"]


def test_resume_finishes_only_missing_parts(tmp_path):
    whole = simulate("fake", 2000, tmp_path / "whole", seed=11, jobs=1)
    partial = simulate("fake", 2000, tmp_path / "partial", seed=11, jobs=1)
    folder = RunFolder(partial)
    for i in (2, 5):
        folder.part_path(i).unlink()
    kept = {i: folder.part_path(i).stat().st_mtime_ns for i in folder.done_parts()}
    (folder.parts_dir / "part-00007.parquet.tmp").write_bytes(b"torn write")
    simulate("fake", 2000, partial, seed=11, jobs=1)
    assert folder.done_parts() == set(range(8))
    assert {i: folder.part_path(i).stat().st_mtime_ns for i in kept} == kept  # not rewritten
    assert games(partial).equals(games(whole))


def test_other_configuration_is_refused_and_folder_untouched(tmp_path):
    path = simulate("fake", 500, tmp_path / "r", seed=1, jobs=1)
    before = {p: p.read_bytes() for p in path.rglob("*") if p.is_file()}
    with pytest.raises(BalanceError, match=r"another configuration \(differs in rules: bias"):
        simulate("fake", 500, path, seed=1, jobs=1, sets=["bias=2"])
    with pytest.raises(BalanceError, match="differs in seed"):
        simulate("fake", 500, path, seed=2, jobs=1)
    assert {p: p.read_bytes() for p in path.rglob("*") if p.is_file()} == before


def test_out_path_that_is_a_file_or_foreign_folder(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("keep me")
    with pytest.raises(BalanceError, match="is a file"):
        simulate("fake", 10, f, jobs=1)
    assert f.read_text() == "keep me"
    d = tmp_path / "notes"
    d.mkdir()
    (d / "x.txt").write_text("mine")
    with pytest.raises(BalanceError, match="not a balance run"):
        simulate("fake", 10, d, jobs=1)
    assert [p.name for p in d.iterdir()] == ["x.txt"]


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"game": "nope"}, "unknown game 'nope'; choose from:"),
        ({"players": 1}, "played by 2 to 6 players, not 1"),
        ({"policies": ["zz"]}, "unknown policy 'zz' for fake; choose from: random, strong"),
        ({"policies": ["strong:skil=1"]}, "unknown parameter 'skil' for policy 'strong'"),
        ({"policies": ["strong:skill=-1"]}, "allowed: a number from 0 to 10"),
        ({"policies": ["random", "random"]}, "2 policies for 3 players"),
        ({"games": 0}, "-n must be at least 1"),
    ],
)
def test_plan_rejects_bad_requests(kwargs, words):
    args = {"game": "fake", "games": 10, **kwargs}
    with pytest.raises(BalanceError) as err:
        plan_run(args.pop("game"), args.pop("games"), **args)
    assert words in str(err.value)


def test_policy_labels_are_canonical():
    config = plan_run("fake", 10, players=2, policies=["strong:skill=1", "strong:skill=2.5"])
    assert config.policy_labels == ["strong", "strong:skill=2.5"]


def test_run_with_rules_object(tmp_path, fake_game):
    rules = fake_game.rules_class(bias=4.0)
    config = plan_run("fake", 400, rules=rules)
    df = run(config, tmp_path / "r", jobs=1).scan().collect()
    assert (df["winner"] == 0).mean() > 0.5  # seat 0 weight 5 of 7


def test_refused_run_leaves_no_new_folder_but_keeps_an_old_one(tmp_path, monkeypatch):
    import simulator.runs.runner as runner

    def refuse(*args, **kwargs):
        raise BalanceError("cannot reach a Dask scheduler")
        yield  # a generator, like the real one

    monkeypatch.setattr(runner, "_execute", refuse)
    with pytest.raises(BalanceError):
        simulate("fake", 500, tmp_path / "new", jobs=1)
    assert not (tmp_path / "new").exists()

    monkeypatch.undo()
    kept = simulate("fake", 500, tmp_path / "old", jobs=1)
    RunFolder(kept).part_path(0).unlink()
    monkeypatch.setattr(runner, "_execute", refuse)
    with pytest.raises(BalanceError):
        simulate("fake", 500, kept, jobs=1)
    assert RunFolder(kept).done_parts() == {1}


def test_run_of_other_engine_code_is_refused(tmp_path):
    path = simulate("fake", 300, tmp_path / "r", seed=1, jobs=1)
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["config"]["engine_source"] = "0" * 16
    (path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(BalanceError, match="was played by other engine code"):
        simulate("fake", 300, path, seed=1, jobs=1)
