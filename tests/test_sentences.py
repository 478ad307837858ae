"""Sentences that must agree with the figures beside them: each test reads the very sentence."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simulator.contract.registry import GAME_MODULES, available, get_game
from tests.readme_examples import README


def _default(game: str, policy: str, param: str) -> float:
    spec = get_game(game)
    return next(p.default for p in spec.policies[policy].params if p.name == param)


def test_readme_states_each_games_default_search_budget():
    text = " ".join(README.read_text(encoding="utf-8").split())
    sentence = re.search(r"By default that is (.*?);", text)[1]
    stated = dict(
        (title, int(n))
        for n, title in re.findall(
            r"(\d+)(?: simulations)? in ([A-Z][^,;]*?)(?:,| and|$)", sentence
        )
    )
    shipped = [g for g in available() if g in GAME_MODULES]  # not the example game files
    titles = {get_game(g).title: g for g in shipped if "mcts" in get_game(g).policies}
    assert set(stated) == set(titles), sentence
    for title, n in stated.items():
        assert n == _default(titles[title], "mcts", "playouts"), title


def test_simulate_prints_each_rate_with_its_interval(tmp_path, capsys, fake_game):
    import cli

    with pytest.raises(SystemExit):
        cli.app(["simulate", "fake", "-n", "400", "-j", "1", "--out", str(tmp_path / "r")])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("win rate"))
    rates = re.findall(r"(\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\]", line)
    assert line.startswith("win rate [95% interval]  seat 1: ")
    assert len(rates) == get_game("fake").default_players + 1  # every seat, then no winner
    assert all(float(lo) <= float(v) <= float(hi) for v, lo, hi in rates)


def test_rules_prints_a_yes_no_default_as_its_allowed_text_says(capsys):
    import cli

    with pytest.raises(SystemExit):
        cli.app(["rules", "pedruscos"])
    rows = [r for r in capsys.readouterr().out.splitlines() if "true or false" in r]
    assert rows
    for row in rows:
        default = row.split("│")[2].strip()
        assert default in ("true", "false"), row


def test_a_compare_change_subtracts_as_its_figures_read():
    from reports.study_sections import _change_text

    row = {
        "measure": "seat 4 win rate",
        "kind": "rate",
        "base": 0.1553,
        "other": 0.1806,
        "change": {"value": 0.0253, "lo": 0.012, "hi": 0.039},
    }
    sentence = _change_text(row, "days")
    m = re.match(r"seat 4 win rate ([+-]\d+\.\d) points \((\d+\.\d)% to (\d+\.\d)%;", sentence)
    assert m, sentence
    change, base, other = map(float, m.groups())
    assert change == pytest.approx(other - base)  # 18.1 - 15.5 = 2.6, not the unrounded 2.5


def test_a_figure_never_sits_on_the_edge_of_its_own_interval():
    from reports.text import num, pct, with_interval

    rng = np.random.default_rng(48)
    for _ in range(2_000):
        fmt = [num, pct][rng.integers(2)]
        v = float(rng.uniform(0, 2 if fmt is num else 1))
        # Intervals down to a thousandth wide (a rate's: 0.1 of a point), lopsided too.
        half = float(rng.choice([2e-3, 1e-2, 0.1]) * rng.uniform(0.5, 1))
        est = {"value": v, "lo": v - half * rng.uniform(0.5, 1), "hi": v + half}
        sentence = with_interval(est, fmt, "times" if fmt is num else "")
        figures = [float(x) for x in re.findall(r"-?\d+\.\d+", sentence.replace(",", ""))]
        value, lo, hi = figures  # the value and the ends ("95%" has no decimal point)
        assert lo < value < hi, sentence


def test_the_demo_lead_change_sentence_separates_its_figures():
    from reports.text import num, with_interval

    sentence = with_interval({"value": 1.5234, "lo": 1.4951, "hi": 1.5512}, num, "times")
    assert sentence == "1.52 times (95% interval 1.50 to 1.55)"


def test_skill_says_why_no_first_seat_edge_beside_the_tables_figure():
    from reports.skill_sections import _first_seat_sentences

    rung = {
        "name": "random",
        "decided": 29,
        "self_games": 30,
        "first_seat_win_rate": {"value": 16 / 30, "lo": 0.361, "hi": 0.698},
    }
    (sentence,) = _first_seat_sentences([rung])
    assert sentence == (
        "Under random, 29 of the 30 games with every seat random had a winner: fewer than the 30 "
        "decided games a first-seat edge is measured on, so none is given; the table's "
        "first-seat win rate, 53.3% [36.1%, 69.8%], is as wide as that implies."
    )
    assert "Too few games had a winner" not in sentence


def test_design_progress_counts_the_check_games_as_the_report_does():
    from simulator.studies.design.search import check_line

    line = check_line(3, 200, 2)
    # The report: "On 400 fresh games it meets every target" (check games times seatings).
    assert line == (
        "checking 3 setting(s) and the starting rules on 400 fresh games each "
        "(200 in each of 2 seatings)"
    )
    assert check_line(1, 300, 1).endswith("on 300 fresh games each")


def test_design_shortfall_names_each_target_in_its_unit():
    from analyses.targets import parse_targets
    from simulator.studies.design.search import shortfall_text

    targets = parse_targets(["first-seat=47%..53%", "length=25..35", "no-winner<=5%"])
    assert shortfall_text(targets, [0.03, 2.5, 0.0]) == (
        "misses first-seat by 3.0 points, length by 2.50"
    )
    assert shortfall_text(targets, [0, 0, 0]) == "meets every target"


def test_explore_names_which_option_moves_which_figure():
    from reports.explore_sections import _effect_words

    row = {
        "option": "level2_cost",
        "figure": "first-seat",
        "range": [0, 6],
        "direction": "lowers",
        "interacts": False,
        "tested": {"reads": "mean change", "value": -0.02, "lo": -0.03, "hi": -0.01},
    }
    words = _effect_words(row, {"method": "morris"})
    assert "raising level2_cost lowers first-seat" in words and " it " not in words


def test_explore_counts_its_settings_as_the_progress_line_does():
    from reports.explore_sections import _settings_words

    summary = {"points": 16, "runs": 13}
    # The progress line: "settings played: 13 of 13".
    assert _settings_words(summary) == " in 13 distinct settings, each played once"
    assert _settings_words({"points": 16, "runs": 16}) == ""


def test_demo_says_how_long_all_the_engines_take_together(monkeypatch):
    from simulator.compiling import first_compile
    from simulator.runs.plan import plan_run

    monkeypatch.setattr(first_compile, "seconds_before", lambda key: None)
    games = [g for g in available() if g != "fake"][:5]
    low, high = first_compile.together([plan_run(g, 1) for g in games], cores=2)
    # Five engines of 10 s to 1 min each on two cores: the demo's engines, all ready at 57 s
    # on the project's machine (docs/performance.md), lie inside.
    assert low <= 57 <= high
    assert (first_compile.duration(low), first_compile.duration(high)) == ("25 s", "3.5 min")
    monkeypatch.setattr(first_compile, "seconds_before", lambda key: 60.0)
    assert first_compile.together([plan_run(g, 1) for g in games], cores=2) == (150.0, 210.0)
