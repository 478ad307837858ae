"""The search player's fitted evaluation: known answers by simulation, the cache, the rows."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from simulator.contract.policy import EVAL_AT, parse_policy
from simulator.contract.registry import SearchHooks, get_game
from simulator.search import evaluation as ev
from simulator.search.evaluation import (
    MARGIN,
    Evaluation,
    attach_evaluations,
    evaluation_key,
    fit_model,
    fitted_evaluation,
    fitted_evaluations,
    needs_evaluation,
    relative,
    shares,
)


def _draw(rng, weights, intercept, players, games, per_game):
    """Positions whose winner is drawn from the evaluation's own model with known coefficients."""
    n = games * per_game
    feats = rng.normal(size=(n, players, len(weights)))
    truth = shares(intercept, np.asarray(weights), feats)
    u = rng.random(n)[:, None]
    winner = (u > np.cumsum(truth, axis=1)).sum(axis=1)
    return feats, winner, np.repeat(np.arange(games), per_game), truth


def test_two_players_recovers_the_true_weights_without_bias():
    """Known answer: at 2 players the model is exactly a logistic regression on the difference,
    so over 40 drawn datasets of 3,000 positions the mean fitted weight is within 0.04 of the
    truth (1.0, -0.5, 0.0) and the spread of the estimates is what their size predicts."""
    rng = np.random.default_rng(1)
    truth = np.array([1.0, -0.5, 0.0])
    fits = []
    for _ in range(40):
        feats, winner, game, _ = _draw(rng, truth, 0.0, 2, 300, 10)
        fits.append(fit_model(feats, winner, game).weights)
    fits = np.array(fits)
    assert np.abs(fits.mean(axis=0) - truth).max() < 0.04
    assert (fits.std(axis=0) < 0.08).all()


def test_the_held_out_quality_matches_the_truth():
    """The held-out log loss of a fit is close to the log loss of the true model on the same
    positions, and well below the constant model's (log 2)."""
    rng = np.random.default_rng(2)
    feats, winner, game, truth = _draw(rng, [1.5, 0.7], 0.0, 2, 800, 10)
    model = fit_model(feats, winner, game)
    held = game % 4 == 3
    true_loss = -np.log(truth[held][np.arange(held.sum()), winner[held]]).mean()
    assert model.log_loss == pytest.approx(true_loss, abs=0.01)
    assert model.log_loss < model.constant_log_loss - 0.1
    assert model.constant_log_loss == pytest.approx(np.log(2))


def test_four_players_is_calibrated():
    """At 4 players the shares are calibrated: in every bin holding 300 positions or more, the
    share that won is within 0.04 of the mean prediction."""
    rng = np.random.default_rng(3)
    feats, winner, game, _ = _draw(rng, [1.0, 0.5], 0.3, 4, 1500, 8)
    model = fit_model(feats, winner, game)
    assert model.constant_log_loss == pytest.approx(np.log(4))
    assert model.log_loss < model.constant_log_loss
    for predicted, won, count in model.calibration:
        if count >= 300:
            assert abs(predicted - won) < 0.04, (predicted, won, count)


def test_relative_features_subtract_the_other_seats_mean():
    f = np.array([[[3.0], [1.0], [2.0]]])
    assert relative(f)[0, :, 0].tolist() == [1.5, -1.5, 0.0]


# -- the cache and the seats' rows --------------------------------------------------------------


def _synthetic_spec(calls: list[int]):
    """Pirateer's spec with synthetic hooks: positions whose winner follows feature 0."""

    def record(rules, players, ids, params, games, seed):
        calls.append(games)
        rng = np.random.default_rng(seed)
        feats, winner, game, _ = _draw(rng, [2.0, 0.0], 0.0, players, games, 5)
        return feats, winner, game

    hooks = SearchHooks(("lead", "noise"), record, lambda *a: [], lambda *a: 0, fit_games=200)
    return dataclasses.replace(get_game("pirateer"), search_hooks=hooks)


def test_a_fit_is_cached_by_the_rules_and_read_back_identical(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    calls: list[int] = []
    spec = _synthetic_spec(calls)
    rules = spec.rules_class()
    first = fitted_evaluation(spec, rules, 2)
    assert calls == [200] and first.weights[0] > 1.0 and abs(first.weights[1]) < 0.3
    again = fitted_evaluation(spec, rules, 2)
    assert calls == [200] and again == first  # from the cache
    other = fitted_evaluation(spec, rules, 3)  # another player count is another fit
    assert calls == [200, 200] and other.key != first.key
    (cached,) = tmp_path.glob("evaluations/*/*-2p-*.json")
    cached.write_text("{ damaged")
    assert fitted_evaluation(spec, rules, 2) == first and calls == [200, 200, 200]
    assert json.loads(cached.read_text())["weights"] == list(first.weights)


def test_only_search_seats_with_a_horizon_get_the_coefficients(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    spec = _synthetic_spec([])
    seats = tuple(
        parse_policy(t, spec.policies, spec.id)
        for t in ("mcts:horizon=4", "mcts:horizon=0", "lookahead")
    )
    assert [needs_evaluation(s) for s in seats] == [True, False, False]
    filled, found = attach_evaluations(spec, spec.rules_class(), seats)
    assert found is not None
    row = filled[0].row()
    assert row[EVAL_AT] == found.intercept and row[EVAL_AT + 1] == found.weights[0]
    assert not filled[1].row()[EVAL_AT:].any() and not filled[2].row()[EVAL_AT:].any()
    assert [s.label for s in filled] == [s.label for s in seats]
    none, nothing = attach_evaluations(spec, spec.rules_class(), seats[1:])
    assert none == seats[1:] and nothing is None


def test_rules_under_which_nobody_wins_give_even_shares():
    rng = np.random.default_rng(4)
    feats = rng.normal(size=(200, 2, 3))
    model = fit_model(feats, np.full(200, -1), np.repeat(np.arange(20), 10))
    assert model.intercept == 0.0 and not model.weights.any()
    assert model.log_loss == model.constant_log_loss == pytest.approx(np.log(2))


# -- the key, fits once per key, the fallback, the manifest's coefficients, pruning ------------


def test_the_key_follows_the_data_files_contents(tmp_path):
    """A Pedruscos board with two asteroid colours swapped is another fit; the shipped board
    given as a file is the shipped rules' own fit."""
    from simulator.contract.rules import build_rules

    spec = get_game("pedruscos")
    shipped_file = spec.rules_class.data_files[0]
    board = json.loads((shipped_file.path).read_text())
    rocks = [c for c in board["cells"] if c["kind"] == "asteroid"]
    a = rocks[0]
    b = next(c for c in rocks if c["colour"] != a["colour"])
    a["colour"], b["colour"] = b["colour"], a["colour"]
    own = tmp_path / "swapped.json"
    own.write_text(json.dumps(board))
    same = tmp_path / "same.json"
    same.write_text(shipped_file.path.read_text())
    shipped, _ = build_rules(spec.rules_class)
    swapped, _ = build_rules(spec.rules_class, data=[f"board={own}"])
    copied, _ = build_rules(spec.rules_class, data=[f"board={same}"])
    assert swapped.to_dict() == shipped.to_dict() and swapped.data  # only the data differ
    keys = {name: evaluation_key(spec, r, 2) for name, r in
            (("shipped", shipped), ("swapped", swapped), ("copied", copied))}  # fmt: skip
    print(f"shipped board {keys['shipped']}, two asteroid colours swapped {keys['swapped']}")
    assert keys["swapped"] != keys["shipped"]
    assert keys["copied"] == keys["shipped"]


def _counting_spec(log, lead: float = 2.0):
    """Pirateer's spec with synthetic hooks that run anywhere (a worker process too) and write
    one line per recording to ``log``: positions whose winner follows feature 0 by ``lead``."""

    def record(rules, players, ids, params, games, seed):
        import os

        import numpy as np

        with open(log, "a") as f:
            f.write(f"{games} {rules.ships_per_fleet} {os.getpid()}\n")
        rng = np.random.default_rng(seed)
        n = games * 5
        feats = rng.normal(size=(n, players, 2))
        z = lead * (feats[:, :, 0] - feats[:, :, 0].mean(axis=1, keepdims=True))
        p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
        winner = (rng.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
        return feats, winner, np.repeat(np.arange(games), 5)

    hooks = SearchHooks(("lead", "noise"), record, lambda *a: [], lambda *a: 0, fit_games=200)
    return dataclasses.replace(get_game("pirateer"), search_hooks=hooks)


def _fits(log) -> list[tuple[str, int]]:
    """(rules, process id) of every fit the counting spec recorded."""
    rows = [line.split() for line in log.read_text().splitlines()]
    return [(ships, int(pid)) for games, ships, pid in rows if games == "200"]


def test_a_studys_settings_are_fitted_once_per_key_in_worker_processes(tmp_path, monkeypatch):
    """Three distinct keys among five settings: three fits, the first here (it compiles the
    recorder) and, when the rest are worth starting workers for, the others in workers."""
    import os

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(ev, "WORKER_START", 0.0)  # these fits take milliseconds
    log = tmp_path / "fits.log"
    spec = _counting_spec(log)
    base = spec.rules_class()
    other = base.with_values({"ships_per_fleet": 1})
    settings = [(spec, base, 2), (spec, other, 2), (spec, base, 2), (spec, other, 2),
                (spec, base, 3)]  # fmt: skip
    found = fitted_evaluations(settings, jobs=2)
    fits = _fits(log)
    assert sorted(s for s, _ in fits) == ["1", "3", "3"]  # three keys, each fitted once
    assert fits[0][1] == os.getpid() and all(pid != os.getpid() for _, pid in fits[1:])
    assert [f.key for f in found[:2]] == [f.key for f in found[2:4]]
    assert len({f.key for f in found}) == 3
    assert len(list((tmp_path / "cache").glob("evaluations/*/*.json"))) == 3
    before = log.read_text()
    assert fitted_evaluations(settings, jobs=2) == found and log.read_text() == before
    # a fit in the worker gives what a fit here gives
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "again"))
    assert fitted_evaluation(spec, other, 2) == found[1]


def test_cheap_fits_are_not_worth_starting_workers_for(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "cache"))
    log = tmp_path / "fits.log"
    spec = _counting_spec(log)
    base = spec.rules_class()
    settings = [(spec, base.with_values({"ships_per_fleet": k}), 2) for k in (1, 2, 3)]
    fitted_evaluations(settings, jobs=2)
    assert [pid for _, pid in _fits(log)] == [os.getpid()] * 3


def _poor() -> Evaluation:
    return Evaluation("pirateer", 2, "lookahead", ("lead",), 0.0, (0.01,), 400, 9000,
                      0.686, 0.693, ((0.5, 0.5, 100),), "k" * 24)  # fmt: skip


def test_a_fit_no_better_than_even_shares_falls_back_to_full_playouts(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    spec = _counting_spec(tmp_path / "fits.log", lead=0.0)  # features say nothing
    seats = tuple(parse_policy(t, spec.policies, spec.id) for t in ("mcts", "lookahead"))
    filled, found = attach_evaluations(spec, spec.rules_class(), seats)
    assert found is not None and found.gain < MARGIN and not found.used
    assert [s.label for s in filled] == ["mcts", "lookahead"]  # as asked
    horizon = [p.name for p in seats[0].policy.params].index("horizon")
    assert seats[0].row()[horizon] > 0 and filled[0].row()[horizon] == 0  # plays to the end
    assert not filled[0].row()[EVAL_AT:].any() and filled[1] == seats[1]
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "good"))  # the same key otherwise
    good, better = attach_evaluations(_counting_spec(tmp_path / "g.log"), spec.rules_class(),
                                      seats)  # fmt: skip
    assert better.used and good[0].row()[horizon] == seats[0].row()[horizon]
    assert good[0].row()[EVAL_AT] == better.intercept


def test_the_fallback_is_in_the_manifest_and_said_on_the_terminal(tmp_path, monkeypatch, capsys):
    from simulator.runs import plan
    from simulator.runs.plan import plan_run

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(plan, "fitted_evaluations", lambda settings, jobs=1: [_poor()])
    ev._SAID.clear()
    config = plan_run("pirateer", 10, players=2, policies=["mcts", "lookahead"])
    said = capsys.readouterr().err
    assert "only 1.0% better than even shares" in said and "horizon=0" in said
    manifest = config.manifest()
    assert manifest["config"]["evaluation"] == "k" * 24
    assert manifest["config"]["evaluation_fallback"] == "full playouts"
    recorded = manifest["evaluation"]
    assert recorded["used"] is False and recorded["margin"] == MARGIN
    assert "played every simulation to the end" in recorded["fallback"]
    assert config.policy_labels == ["mcts", "lookahead"]


def test_the_fallback_reaches_the_reports_headline_and_the_terminal():
    from reports.run_sections import fallback_sentences
    from reports.terminal import run_lines

    text = _poor().fallback()
    line = fallback_sentences({"run": {"evaluation_fallback": text}}, "mcts: ")
    assert line == [f"mcts: The{text[3:]}."]
    summary = {"game": "pirateer", "games": 4, "n_players": 2, "seed": 0, "out": "r",
               "win_rate": [0.5, 0.5], "draw_rate": 0.0, "policies": ["mcts", "mcts"],
               "mean_length": 9.0, "length_unit": "turns", "evaluation_fallback": text,
               "estimates": {"win_rate": [{"value": 0.5, "lo": 0.15, "hi": 0.85}] * 2,
                             "no_winner_rate": {"value": 0.0, "lo": 0.0, "hi": 0.49}}}  # fmt: skip
    assert f"The{text[3:]}." in run_lines(summary)
    assert not fallback_sentences({"run": {"evaluation_fallback": None}})


def test_verify_reads_the_coefficients_from_the_manifest(tmp_path, monkeypatch):
    """A run planned with a fit is rebuilt from its manifest with fitting disabled, under
    another scikit-learn version (whose key would differ)."""
    import sklearn

    from simulator.folders.run_folder import RunFolder
    from simulator.runs import plan
    from simulator.runs.plan import plan_run
    from simulator.runs.verify import config_from_manifest

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "cache"))
    fake = dataclasses.replace(_poor(), log_loss=0.5, key="f" * 24)
    monkeypatch.setattr(plan, "fitted_evaluations", lambda settings, jobs=1: [fake])
    config = plan_run("pirateer", 10, players=2, policies=["mcts", "lookahead"])
    (tmp_path / "manifest.json").write_text(json.dumps(config.manifest()))

    def refuse(*args, **kwargs):
        raise AssertionError("fitted again")

    monkeypatch.setattr(plan, "fitted_evaluations", refuse)
    monkeypatch.setattr(ev, "fitted_evaluations", refuse)
    monkeypatch.setattr(ev, "fit", refuse)
    monkeypatch.setattr(sklearn, "__version__", "0.0-another")
    again = config_from_manifest(RunFolder(tmp_path))
    assert again.evaluation == fake
    assert np.array_equal(again.seats[0].row(), config.seats[0].row())


def test_old_cache_entries_are_pruned(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    now = 1_800_000_000.0
    day = 86400
    root = tmp_path / "evaluations"
    current = ev.cache_folder()

    def entry(path, age_days):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
        os.utime(path, (now - age_days * day, now - age_days * day))
        return path

    kept = [entry(current / "a.json", ev.KEEP_DAYS - 1), entry(root / "other2" / "b.json", 0.5)]
    gone = [
        entry(current / "old.json", ev.KEEP_DAYS + 1),
        entry(root / "other" / "c.json", ev.OTHER_SOURCE_DAYS + 1),
        entry(root / "pirateer-2p-flat.json", ev.OTHER_SOURCE_DAYS + 1),
    ]
    removed = ev.prune(now)
    assert all(p.exists() for p in kept) and not any(p.exists() for p in gone)
    assert not (root / "other").exists() and set(gone) <= set(removed)


@pytest.mark.slow
def test_a_fallen_back_run_says_so_and_verifies_and_replays_without_a_fit(
    tmp_path, monkeypatch, capsys
):
    """End to end (a Pirateer search compiled): a run whose fit has not earned its place says so
    on the terminal, in its manifest and in its report's headline; `verify --repair` and `replay`
    use the manifest's coefficients with fitting disabled, under another scikit-learn version."""
    import sklearn

    import cli
    from simulator.runs import plan
    from simulator.runs.replay import replay_run
    from simulator.runs.verify import config_from_manifest

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(plan, "fitted_evaluations", lambda settings, jobs=1: [_poor()])
    ev._SAID.clear()
    run = tmp_path / "run"

    def call(*args):
        with pytest.raises(SystemExit) as exc:
            cli.app(list(map(str, args)))
        out, err = capsys.readouterr()
        assert exc.value.code == 0, err
        return out, err

    out, err = call("simulate", "pirateer", "-n", "4", "--players", "2", "-p", "mcts:playouts=8",
                    "-p", "lookahead", "--out", run, "--jobs", "1")  # fmt: skip
    said = f"The{_poor().fallback()[3:]}."
    assert said in out and "horizon=0" in err
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["evaluation"]["used"] is False
    out, _ = call("report", run, "--out", tmp_path / "r.md", "-f", "md")
    assert f"- {said}" in out

    def refuse(*args, **kwargs):
        raise AssertionError("fitted again")

    for where in (plan, ev):
        monkeypatch.setattr(where, "fitted_evaluations", refuse)
    monkeypatch.setattr(ev, "fit", refuse)
    monkeypatch.setattr(sklearn, "__version__", "0.0-another")
    from simulator.folders.run_folder import RunFolder

    assert config_from_manifest(RunFolder(run)).evaluation == _poor()
    (next((run / "games").glob("part-*.parquet"))).unlink()
    call("verify", run, "--repair", "--jobs", "1")
    call("verify", run)
    assert replay_run(run, 3).row["game_index"][0] == 3


def test_explore_hands_every_points_fit_to_one_call(tmp_path, monkeypatch):
    """An explore with a searching seat plans its points without fitting, then fits them in one
    call (each distinct key once, in --jobs workers: the test above), before any game."""
    from simulator.runs import plan
    from simulator.runs.requests import PlayRequest
    from simulator.studies.explore import plan_explore

    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    calls = []

    def fake(settings, jobs=1):
        calls.append((len(settings), jobs))
        return [
            dataclasses.replace(_poor(), log_loss=0.5, key=str(i)) for i in range(len(settings))
        ]

    monkeypatch.setattr(plan, "fitted_evaluations", fake)
    request = PlayRequest("pirateer", 10, players=2, policies=["mcts", "lookahead"])
    explored = plan_explore(request, options=["ships_per_fleet", "wind_pass"], trajectories=2,
                            jobs=2)  # fmt: skip
    assert calls == [(len(explored.plans), 2)] and len(explored.plans) > 2
    assert all(c.evaluation is not None and not c.unfitted for _, c in explored.plans)
    keys = [c.evaluation.key for _, c in explored.plans]
    assert keys == [str(i) for i in range(len(keys))]
