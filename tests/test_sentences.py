"""Sentences that must agree with the figures beside them: each test reads the very sentence."""

from __future__ import annotations

import re

import pytest

from simulator.games import available, get_game
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
    titles = {get_game(g).title: g for g in available() if "mcts" in get_game(g).policies}
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
