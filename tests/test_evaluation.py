"""The search player's fitted evaluation: known answers by simulation, the cache, the rows."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from simulator.evaluation import (
    attach_evaluations,
    fit_model,
    fitted_evaluation,
    needs_evaluation,
    relative,
    shares,
)
from simulator.games import SearchHooks, get_game
from simulator.policy import EVAL_AT, parse_policy


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
    (cached,) = tmp_path.glob("evaluations/*-2p-*.json")
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
