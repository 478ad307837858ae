"""Known answers for the skill ladder's statistics, by simulation: ladders of known strengths
drawn game by game from the Bradley-Terry model, and per-game effects of a variant drawn with a
known change between two rungs.

The fast tests draw a few dozen ladders per scenario and check the pooled figures; the slow one
draws 200 per scenario and checks every rung: the mean error within 10 points plus 4% of the
ladder's span, the 95% interval holding the true rating in at least 90% of ladders.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyses.ladder import CHANGES, UNSURE, judge
from analyses.skill import fit_ratings, ladder_figures, win_share
from analyses.stats import paired_proportion

# name: (true ratings, random first, games a pair, share of games nobody wins)
SCENARIOS = {
    "even steps 0..600, 40 games a pair": ([0, 100, 200, 300, 400, 500, 600], 40, 0.0),
    "0/400/600/800, 40 games a pair": ([0, 400, 600, 800], 40, 0.0),
    "far apart at the top, 200 games a pair": ([0, 770, 876, 1167, 1207], 200, 0.0),
    "30% of games without a winner, 400 a pair": ([0, 120, 241], 400, 0.3),
}


def draw_ladder(truth: list[float], games: int, no_winner: float, rng) -> np.ndarray:
    """``wins[i, j, 0]`` games i won against j, ``wins[i, j, 1]`` their games nobody won."""
    k = len(truth)
    wins = np.zeros((k, k, 2))
    for i in range(k):
        for j in range(i + 1, k):
            none = rng.binomial(games, no_winner)
            won = rng.binomial(games - none, win_share(truth[i] - truth[j]))
            wins[i, j, 0], wins[j, i, 0] = won, games - none - won
            wins[i, j, 1] = wins[j, i, 1] = none
    return wins


def measure(truth, games, no_winner, ladders, seed=1):
    """Per rung above random: mean error of the rating, and the share of 95% intervals
    holding the truth."""
    rng = np.random.default_rng(seed)
    rungs = ["random"] + [f"rung{k}" for k in range(1, len(truth))]
    errors = np.zeros((ladders, len(truth) - 1))
    held = np.zeros_like(errors, dtype=bool)
    for b in range(ladders):
        fit = fit_ratings(draw_ladder(truth, games, no_winner, rng), rungs)
        for k, r in enumerate(fit[1:]):
            errors[b, k] = r["rating"]["value"] - truth[k + 1]
            held[b, k] = r["rating"]["lo"] <= truth[k + 1] <= r["rating"]["hi"]
    return errors.mean(axis=0), held.mean(axis=0)


def allowed_error(truth) -> float:
    return 10 + 0.04 * (max(truth) - min(truth))


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_ratings_are_unbiased_and_their_intervals_hold_the_truth(name):
    truth, games, no_winner = SCENARIOS[name]
    bias, held = measure(truth, games, no_winner, ladders=25)
    # 25 ladders: the mean error's own spread is about 60 / 5 points at the widest.
    assert np.all(np.abs(bias) < allowed_error(truth) + 15), bias
    assert held.mean() >= 0.88, held


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_ratings_known_answers_rung_by_rung(name):
    truth, games, no_winner = SCENARIOS[name]
    bias, held = measure(truth, games, no_winner, ladders=200)
    assert np.all(np.abs(bias) < allowed_error(truth)), bias
    assert np.all(held >= 0.90), held


def test_a_rating_gap_means_what_the_key_says():
    assert win_share(200) == pytest.approx(0.7597, abs=1e-4)
    assert win_share(400) == pytest.approx(10 / 11)


def test_the_luck_figure_is_the_games_not_the_ladders_spacing():
    """Ladders of 3 and 7 rungs between the same ends (0 and 600 points): the strongest's
    losses to the weakest and the rating span agree within their intervals, while the
    neighbours' upset rate depends on how many rungs stand between."""
    rng = np.random.default_rng(7)
    truth_bottom_wins = 1 - win_share(600)
    figures = {}
    for rungs in (3, 7):
        truth = list(np.linspace(0, 600, rungs))
        names = ["random"] + [f"rung{k}" for k in range(1, rungs)]
        figures[rungs] = ladder_figures(draw_ladder(truth, 400, 0.0, rng), names)
    for f in figures.values():
        ext = f["extremes"]["stronger_win_rate"]
        assert ext["lo"] <= 1 - truth_bottom_wins <= ext["hi"]
        span = f["span"]
        assert span["points"]["lo"] <= 600 <= span["points"]["hi"]
        assert span["bottom_wins"]["lo"] <= truth_bottom_wins <= span["bottom_wins"]["hi"]
    three, seven = figures[3], figures[7]
    assert three["span"]["points"]["lo"] < seven["span"]["points"]["hi"]
    assert seven["span"]["points"]["lo"] < three["span"]["points"]["hi"]
    # Neighbours 300 points apart upset 15% of the time, 100 points apart 36%.
    assert three["upset_rate"]["hi"] < seven["upset_rate"]["lo"]


# -- compare --ladder -------------------------------------------------------------------------
def _rung(name: str, base: np.ndarray, variant: np.ndarray, unmeasured=None) -> dict:
    """A rung of a ladder study from per-game yes/no outcomes under the default and variant."""
    d = paired_proportion(base, variant)
    row = {
        "variant": "v",
        "measure": "seat 1 win rate",
        "kind": "rate",
        "change": {"value": d.diff, "lo": d.lo, "hi": d.hi},
        "p_value": d.p_value,
    }
    games = np.arange(len(base))
    per_game = {"v: seat 1 win rate": (games, variant.astype(float) - base.astype(float))}
    return {
        "rung": name,
        "effects": [row],
        "per_game": per_game,
        "unmeasured": unmeasured or {},
    }


def _shrinking_effect(rng, games=200):
    """Two rungs on the same seeds: the variant wins game i for seat 1 under the strong rung
    only where it does under the weak one, so the effects (+16.7 and +10.0 points) move
    together game by game."""
    u = rng.random(games)
    weak_gain = u < 1 / 6 + 0.05  # the variant turns a loss into a win
    weak_loss = u > 1 - 0.05  # ... or a win into a loss
    strong_gain = weak_gain & (rng.random(games) > (1 / 15) / (1 / 6 + 0.05))
    base = rng.random(games) < 0.5
    weak_variant = np.where(weak_gain, True, np.where(weak_loss, False, base))
    weak_base = np.where(weak_gain, False, np.where(weak_loss, True, base))
    strong_variant = np.where(strong_gain, True, np.where(weak_loss, False, base))
    strong_base = np.where(strong_gain, False, np.where(weak_loss, True, base))
    return _rung("weak", weak_base, weak_variant), _rung("strong", strong_base, strong_variant)


def test_a_change_of_effect_between_rungs_is_found_on_common_seeds():
    rng = np.random.default_rng(3)
    found_paired = found_apart = 0
    trials = 100
    for _ in range(trials):
        weak, strong = _shrinking_effect(rng)
        found_paired += judge([weak, strong])["ladder_verdicts"]["v: seat 1 win rate"] == CHANGES
        for rung in (weak, strong):
            rung.pop("per_game")  # as if the rungs had played different seeds
        found_apart += judge([weak, strong])["ladder_verdicts"]["v: seat 1 win rate"] == CHANGES
    assert found_paired / trials >= 0.9
    assert found_apart / trials < 0.7  # the independent test throws the pairing away


def test_a_rung_that_cannot_measure_a_figure_leaves_it_unsure_and_says_why():
    from reports.skill_sections import ladder_headline

    rng = np.random.default_rng(5)
    nobody = np.zeros(200, dtype=bool)
    random = _rung("random", nobody, nobody, {"v: seat 1 win rate": "random decides no game"})
    base = rng.random(200) < 0.5
    planner = _rung("planner", base, base | (rng.random(200) < 0.3))
    summary = judge([random, planner])
    assert summary["ladder_verdicts"]["v: seat 1 win rate"] == UNSURE
    cells = summary["figures"]["v: seat 1 win rate"]["rungs"]
    assert [c["measured"] for c in cells] == [False, True]
    assert summary["figures"]["v: seat 1 win rate"]["differences"] == []
    text = " ".join(ladder_headline(summary, "turns"))
    assert "cannot tell yet" in text and "under random: random decides no game" in text
    assert "per_game" not in summary["ladder"][0]
