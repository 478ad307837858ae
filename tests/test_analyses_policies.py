"""Tournaments: lineups balance seats, policy rates and skill against chance are recovered."""

from __future__ import annotations

from collections import Counter

import pytest

from analyses.policies import policy_summary
from analyses.runs import Run
from simulator.contract.errors import BalanceError
from simulator.runs.requests import Execution, PlayRequest
from simulator.studies import compare as studies


@pytest.mark.parametrize(
    ("policies", "players"),
    [(["a", "b"], 2), (["a", "b"], 3), (["a", "b", "c"], 4), (["a", "b", "c"], 2)],
)
def test_lineups_give_every_policy_every_seat_equally_often(policies, players):
    tables = studies.lineups(policies, players)
    assert all(len(t) == players for t in tables)
    assert len({tuple(t) for t in tables}) == len(tables)
    per_seat = [Counter(t[s] for t in tables) for s in range(players)]
    assert all(c == per_seat[0] for c in per_seat)  # same policy mix in every seat
    assert set(per_seat[0]) == set(policies)


def test_lineups_refuse_too_few_or_repeated_policies():
    with pytest.raises(BalanceError, match="at least two"):
        studies.lineups(["a"], 3)
    with pytest.raises(BalanceError, match="only once"):
        studies.lineups(["a", "a"], 3)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour") / "t"
    study = studies.tournament(
        PlayRequest("fake", 2000, policies=["random", "strong:skill=2"], players=2, seed=5),
        out,
        Execution(jobs=1),
    )
    return [Run.open(p, r.label) for p, r in zip(study.run_paths(), study.runs, strict=True)]


def test_tournament_recovers_policy_strength_and_skill_against_chance(tournament):
    assert [r.policies for r in tournament] == [
        ["random", "strong:skill=2"],
        ["strong:skill=2", "random"],
    ]
    s = policy_summary(tournament)
    rates = {r["policy"]: r for r in s["policies"]}
    assert rates["strong:skill=2"]["slots"] == rates["random"]["slots"] == 4000
    # Weights 3 against 1: the strong policy wins 3/4 of its seats.
    assert rates["strong:skill=2"]["lo"] < 0.75 < rates["strong:skill=2"]["hi"]
    assert s["fair_share"] == pytest.approx(0.5)
    skill = s["skill"]
    assert (skill["policy"], skill["against"]) == ("strong:skill=2", "random")
    assert skill["lo"] < 0.5 < skill["hi"] and skill["lo"] > 0.4
    matrix = {(m["policy"], m["against"]): m for m in s["matrix"]}
    assert matrix["strong:skill=2", "random"]["value"] == pytest.approx(
        1 - matrix["random", "strong:skill=2"]["value"]
    )
    by_seat = {(r["policy"], r["seat"]): r for r in s["by_seat"]}
    assert set(by_seat) == {(p, seat) for p in rates for seat in (1, 2)}


def test_skill_without_random_is_measured_against_the_fair_share(tmp_path):
    study = studies.tournament(
        PlayRequest("fake", 600, policies=["strong:skill=1", "strong:skill=3"]),
        tmp_path / "t",
        Execution(jobs=1),
    )
    runs = [Run.open(p) for p in study.run_paths()]
    assert len(runs) == 3  # three seats: tables (1,3,1), (3,1,1), (1,1,3)
    skill = policy_summary(runs)["skill"]
    assert skill["policy"] == "strong:skill=3" and skill["against"] == "fair share"
    assert skill["lo"] > 0


def test_strongest_policy_is_named_only_when_separated_from_the_runner_up(tmp_path, tournament):
    from reports.study_sections import pooled_seats, tournament_headline

    clear = policy_summary(tournament)["strongest"]
    assert clear["leader"] == "strong:skill=2" and clear["separated"]
    assert tournament_headline(policy_summary(tournament), pooled_seats(tournament))[0].startswith(
        "Strongest policy: strong:skill=2"
    )
    # Weights 1.1 and 1.15 against random's 1: 100 games per rotation cannot rank them.
    study = studies.tournament(
        PlayRequest(
            "fake",
            100,
            policies=["random", "strong:skill=0.1", "strong:skill=0.15"],
            players=2,
            seed=3,
        ),
        tmp_path / "close",
        Execution(jobs=1),
    )
    runs = [Run.open(p, r.label) for p, r in zip(study.run_paths(), study.runs, strict=True)]
    summary = policy_summary(runs)
    close = summary["strongest"]
    assert not close["separated"] and close["comparisons"] == 2
    assert close["confidence"] == pytest.approx(0.975)  # corrected for two rivals
    assert close["games"] == 100 and close["games_to_tell"] > 100
    line = tournament_headline(summary, pooled_seats(runs))[0]
    assert line.startswith("No policy is shown to be the strongest yet")
    assert "cannot be told apart from" in line and "games per rotation would tell" in line
