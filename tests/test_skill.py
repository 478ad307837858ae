"""The skill ladder (``balance skill``) and a comparison under every rung (``compare --ladder``)
on the known-answer games.

In the fake game a seat playing ``strong:skill=k`` has weight 1 + k and ``random`` weight 1, and a
seat wins with probability proportional to its weight: the Bradley-Terry model holds exactly, so
the ratings, head to heads and upset rate have known values.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import tests.coop_game as coop
from analyses.ladder import CHANGES, HOLDS, NONE, UNSURE, ladder_summary, rung_groups
from analyses.runs import Run
from analyses.skill import ELO, fit_ratings, skill_summary
from reports.grouping import open_runs
from simulator.contract.errors import BalanceError
from simulator.runs.requests import Execution, PlayRequest
from simulator.studies import compare as studies
from simulator.studies.rungs import split_rungs
from simulator.studies.skill import PAIR_GAMES, default_games, pair_tables, plan_skill, skill
from tests.test_cli import call

WEAK, MID, TOP = "random", "strong", "strong:skill=3"  # weights 1, 2, 4
ROOT = Path(__file__).resolve().parents[1]


def test_rungs_split_on_commas_keeping_each_policys_parameters():
    assert split_rungs("random, mcts:playouts=100,explore=0.5 ,lookahead") == [
        "random",
        "mcts:playouts=100,explore=0.5",
        "lookahead",
    ]
    with pytest.raises(BalanceError, match="without a policy"):
        split_rungs("skill=3,random")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pair_tables_give_each_rung_every_seat_equally_often(players):
    tables = pair_tables("A", "B", players)
    for seat in range(players):
        held = [t[seat] for t in tables]
        assert held.count("A") == held.count("B")
    assert all(set(t) == {"A", "B"} for t in tables)
    assert len(tables) == (2 if players % 2 == 0 else 2 * players)


def test_ladder_plan_plays_each_rung_alone_and_each_pair(tmp_path):
    plans = plan_skill(PlayRequest("fake", 10, players=2), rungs=[WEAK, MID, TOP])
    selves = [e for e, _ in plans if len(e.params["rungs"]) == 1]
    pairs = [e for e, c in plans if len(e.params["rungs"]) == 2]
    assert [e.params["rungs"] for e in selves] == [[WEAK], [MID], [TOP]]
    assert len(pairs) == 3 * 2  # three pairs, both seat orders
    # A run of 10 searching games still spreads over the cores: one game a chunk.
    assert {c.chunk_size for _, c in plans} == {1}
    assert {c.chunk_size for _, c in plan_skill(PlayRequest("fake", 300), rungs=[WEAK, MID])} == {
        10
    }
    assert {tuple(c.policy_labels) for _, c in plans if len(_.params["rungs"]) == 2} >= {
        (WEAK, TOP),
        (TOP, WEAK),
    }


@pytest.mark.parametrize(
    "rungs, words",
    [
        (["random"], "at least two rungs"),
        (["random", "bogus"], "unknown policy 'bogus'"),
        (["strong", "strong:skill=1"], "is the rung 'strong' again"),  # 1 is the default
        (["random", "strong:skill=20"], "parameter 'skill' got '20'"),
    ],
)
def test_bad_ladders_are_refused_before_anything_is_written(tmp_path, rungs, words):
    with pytest.raises(BalanceError, match=words):
        skill(PlayRequest("fake", 10), tmp_path / "s", rungs=rungs)
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--rungs", "random"], "at least two rungs"),
        (["--rungs", "random,random"], "is the rung 'random' again"),
        (["--rungs", "random,strong:skill=-1"], "allowed: a number from 0 to 10"),
        (["--rungs", "random,strong", "--param", "bias=0,1"], "cooperative ladder"),
    ],
)
def test_skill_command_bad_input_is_one_line(capsys, tmp_path, args, words):
    code, _, err = call(capsys, "skill", "fake", *args, "--out", tmp_path / "s")
    assert code == 2 and words in err and err.count("\n") == 1
    assert not (tmp_path / "s").exists()


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "ladder"
    skill(PlayRequest("fake", 3000, players=2), out, Execution(jobs=1), rungs=[WEAK, MID, TOP])
    return out


def test_ratings_recover_the_known_strengths(ladder):
    s = skill_summary(open_runs([ladder])[1])
    by = {r["name"]: r for r in s["rungs"]}
    assert [r["name"] for r in s["rungs"]] == [WEAK, MID, TOP]
    assert by[WEAK]["rating"] == {"value": 0.0, "lo": 0.0, "hi": 0.0} and by[WEAK]["anchor"]
    for name, weight in ((MID, 2), (TOP, 4)):
        known = ELO * math.log(weight)  # 120 and 241 Elo points
        r = by[name]["rating"]
        assert r["lo"] < known < r["hi"] and abs(r["value"] - known) < 40
    # Neighbours: weight 2 against 1 and 4 against 2: the weaker wins a third of the games.
    assert [(p["stronger"], p["weaker"]) for p in s["pairs"]] == [(MID, WEAK), (TOP, MID)]
    assert s["upset_rate"]["lo"] < 1 / 3 < s["upset_rate"]["hi"]
    assert s["groups"] == [[WEAK], [MID], [TOP]]
    ext = s["extremes"]["stronger_win_rate"]  # weight 4 against 1: random wins a fifth
    assert s["extremes"]["weaker"] == WEAK and ext["lo"] < 0.8 < ext["hi"]
    assert s["top_vs_hand_written"] is None  # the top is itself the best hand-written policy
    span = s["span"]
    assert span["points"] == by[TOP]["rating"]
    assert span["bottom_wins"]["lo"] < 0.2 < span["bottom_wins"]["hi"]
    # Against itself every seat weighs the same: the first seat wins half of two-player games.
    for r in s["rungs"]:
        assert r["first_seat_win_rate"]["lo"] < 0.5 < r["first_seat_win_rate"]["hi"]
        assert r["first_seat_edge"]["lo"] < 0 < r["first_seat_edge"]["hi"]
        assert r["degenerate"] == []


def test_ratings_of_an_exact_win_matrix():
    wins = np.zeros((2, 2, 2))
    wins[1, 0, 0], wins[0, 1, 0] = 30_000, 10_000  # good wins 3 to 1: 191 Elo points
    rating = fit_ratings(wins, ["random", "good"])[1]
    assert rating["rating"]["value"] == pytest.approx(400 * math.log10(3), abs=1.0)
    assert rating["rating"]["lo"] < rating["rating"]["value"] < rating["rating"]["hi"]
    assert not rating["sweeps_anchor"]
    wins[0, 1, 0] = 0  # a clean sweep: finite, and flagged as resting on the prior
    swept = fit_ratings(wins, ["random", "good"])[1]
    assert swept["sweeps_anchor"] and math.isfinite(swept["rating"]["value"])
    assert swept["rating"]["value"] > 1000 and math.isfinite(swept["rating"]["hi"])


def test_games_nobody_wins_are_left_out_of_the_ratings_and_counted_beside_them(tmp_path):
    out = tmp_path / "draws"
    skill(
        PlayRequest("fake", 2000, players=2, sets=["draw=0.5"]),
        out,
        Execution(jobs=1),
        rungs=[WEAK, TOP],
    )
    s = skill_summary(open_runs([out])[1])
    pair = s["pairs"][0]
    assert pair["no_winner"] > 0 and pair["decided"] + pair["no_winner"] == 4000
    share = pair["no_winner_share"]
    assert share["value"] == pair["no_winner"] / 4000 and share["lo"] < share["value"]
    # Among decided games the 4-to-1 odds stay, and so does the rating: 241 points.
    assert pair["stronger_win_rate"]["lo"] < 0.8 < pair["stronger_win_rate"]["hi"]
    top = s["rungs"][1]
    assert top["rating"]["lo"] < ELO * math.log(4) < top["rating"]["hi"]
    assert top["ladder_no_winner"]["value"] == share["value"]


def test_a_ladder_where_nobody_wins_claims_nothing(tmp_path):
    from reports.skill_sections import skill_headline

    out = tmp_path / "draws"
    skill(
        PlayRequest("fake", 50, players=2, sets=["draw=1"]),
        out,
        Execution(jobs=1),
        rungs=[WEAK, TOP],
    )
    s = skill_summary(open_runs([out])[1])
    assert [r["rated"] for r in s["rungs"]] == [True, False] and s["unrated"] == [TOP]
    assert math.isnan(s["upset_rate"]["value"]) and s["pairs"] == []
    text = " ".join(skill_headline(s))
    assert f"{TOP} cannot be rated" in text
    assert f"With every seat {TOP}: nobody won any of its 50 games" in text
    assert f"none of the 50 games with every seat {TOP} had a winner" in text
    assert "The strongest" not in text


def test_skill_command_json_report_and_resume(capsys, ladder):
    part = next(ladder.glob("pair-*/games/part-*.parquet"))
    stamp = part.stat().st_mtime_ns
    code, out, err = call(
        capsys, "skill", "fake", "--rungs", f"{WEAK},{MID},{TOP}", "--players", 2, "-n", 3000,
        "--out", ladder, "--json", "--jobs", 1,
    )  # fmt: skip
    assert code == 0, err
    assert part.stat().st_mtime_ns == stamp  # nothing played again
    data = json.loads(out)
    assert {"game", "players", "games", "rungs", "pairs", "upset_rate", "span", "out"} <= set(data)
    rung_keys = {"name", "rating", "first_seat_win_rate", "first_seat_edge", "degenerate"}
    assert rung_keys | {"mean_length", "end_reasons", "ladder_no_winner"} <= set(data["rungs"][-1])
    assert set(data["pairs"][0]) >= {"stronger", "weaker", "stronger_win_rate", "no_winner_share"}
    assert data["players"] == 2 and data["games"] == 9 * 3000
    _every_estimate_has_its_interval(data)
    html = (ladder / "report.html").read_text()
    assert "How much skill matters" in html and "How much luck the game leaves" in html
    assert "Methods" in html and "Bradley-Terry" not in " ".join(data["headline"])


ESTIMATES = {"rating", "upset_rate", "stronger_win_rate", "no_winner_share", "first_seat_edge"}


def _every_estimate_has_its_interval(data) -> None:
    """Every estimate is written {"value", "lo", "hi"}, and no interval travels apart."""
    if isinstance(data, dict):
        for key, value in data.items():
            assert not key.endswith("_ci"), key
            if key in ESTIMATES:
                assert set(value) == {"value", "lo", "hi"}, key
            _every_estimate_has_its_interval(value)
    elif isinstance(data, list):
        for item in data:
            _every_estimate_has_its_interval(item)


def test_a_cooperative_ladder_compares_rungs_deal_by_deal(tmp_path):
    out = tmp_path / "coop"
    skill(
        PlayRequest("fake-coop", 600),
        out,
        Execution(jobs=1),
        rungs=["random", "sloppy"],
        params=["difficulty=0,0.1"],
    )
    s = skill_summary(open_runs([out])[1])
    assert [r["name"] for r in s["rungs"]] == ["sloppy", "random"]
    # sloppy only ever fails where random would succeed: every discordant deal goes to random.
    assert s["upset_rate"]["value"] == 0.0 and s["pairs"][0]["stronger"] == "random"
    assert s["rungs"][1]["anchor"] and s["rungs"][0]["rating"]["hi"] < 0
    assert len(s["points"]) == 2
    runs = {(r.params["rungs"][0], r.params["point"]["difficulty"]): r for r in _runs(out)}
    for (rung, difficulty), run in runs.items():
        seeds = run.scan().collect()["seed"].to_numpy().astype(np.uint64)
        chance = np.asarray(coop.SUCCESS)[(seeds % 3).astype(int)] - float(difficulty)
        chance -= coop.SLOPPY if rung == "sloppy" else 0.0
        expected = ((seeds >> np.uint64(8)).astype(float) / 2.0**24 < chance).mean()
        point = next(p for p in s["points"] if p["point"]["difficulty"] == difficulty)
        got = next(r for r in point["rungs"] if r["name"] == rung)
        assert got["value"] == pytest.approx(expected)


def _runs(path):
    return open_runs([path])[1]


# -- compare --ladder -------------------------------------------------------------------------
def _ladder_effects(effects: dict[str, list[tuple[float, float, float, float]]]) -> list[dict]:
    """Synthetic per-rung rows: figure -> [(diff, lo, hi, p) per rung]."""
    rungs = ["a", "b", "c"]
    return [
        {
            "rung": rung,
            "effects": [
                {
                    "variant": "v",
                    "measure": name,
                    "kind": "rate",
                    "change": {"value": cells[k][0], "lo": cells[k][1], "hi": cells[k][2]},
                    "p_value": cells[k][3],
                }
                for name, cells in effects.items()
            ],
        }
        for k, rung in enumerate(rungs)
    ]


def test_ladder_verdicts_hold_change_or_cannot_tell():
    from analyses.ladder import judge

    verdicts = judge(
        _ladder_effects(
            {
                "steady": [(0.10, 0.08, 0.12, 1e-9)] * 3,
                "reverses": [
                    (0.10, 0.08, 0.12, 1e-9),
                    (0.0, -0.02, 0.02, 1),
                    (-0.1, -0.12, -0.08, 1e-9),
                ],
                "faint": [(0.01, -0.02, 0.04, 0.5)] * 3,
                "same games": [(0.0, 0.0, 0.0, 1.0)] * 3,
            }
        )
    )["ladder_verdicts"]
    assert verdicts == {
        "v: steady": HOLDS,
        "v: reverses": CHANGES,
        "v: faint": UNSURE,
        "v: same games": NONE,
    }


def test_compare_ladder_finds_an_effect_that_shrinks_with_skill(capsys, tmp_path):
    # bias=3 adds 3 to seat 1's weight: +30 points at weights 1-1, +6.5 at weights 10-10.
    out = tmp_path / "cmp"
    code, text, err = call(
        capsys, "compare", "fake", "--players", 2, "--set", "bias=3", "-n", 3000,
        "--ladder", "random,strong:skill=9", "--out", out, "--json", "--jobs", 1,
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(text)
    assert [e["rung"] for e in data["ladder"]] == ["random", "strong:skill=9"]
    assert data["ladder_verdicts"]["bias=3: seat 1 win rate"] == CHANGES
    effects = {e["rung"]: e["effects"][0]["change"] for e in data["ladder"]}
    assert effects["random"]["lo"] < 0.3 < effects["random"]["hi"]
    assert effects["strong:skill=9"]["lo"] < 3 / 46 < effects["strong:skill=9"]["hi"]
    assert "changes with skill" in (out / "report.html").read_text()
    figure = data["figures"]["bias=3: seat 1 win rate"]
    assert {"value", "lo", "hi"} == set(figure["rungs"][0]["effect"])
    change = next(d for d in figure["differences"] if d["significant"])
    assert change["change"]["hi"] < 0 and "common seeds" in change["test"]
    groups = rung_groups(_runs(out))
    assert [len(g) for _, g in groups] == [2, 2]
    assert ladder_summary(_runs(out))["ladder_verdicts"] == data["ladder_verdicts"]


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--ladder", "random,random"], "is the rung 'random' again"),
        (["--ladder", "random,strong", "-p", "random"], "leave out --policy"),
        (["--ladder", "random,strong", "--tune", "strong"], "cannot be combined with --tune"),
        (["--ladder", "random"], "at least two rungs"),
    ],
)
def test_compare_ladder_bad_input_is_one_line(capsys, tmp_path, extra, words):
    code, _, err = call(
        capsys, "compare", "fake", "--set", "bias=1", *extra, "--out", tmp_path / "c"
    )
    assert code == 2 and words in err and err.count("\n") == 1
    assert not (tmp_path / "c").exists()


def test_ladder_study_is_an_ordinary_resumable_study(tmp_path):
    study = studies.compare(
        PlayRequest("fake", 200, sets=["bias=1"]),
        tmp_path / "c",
        Execution(jobs=1),
        ladder=[WEAK, MID],
    )
    assert study.kind == "ladder"
    assert [r.folder for r in study.runs] == [
        "rung-01-random/01-default",
        "rung-01-random/02-bias=1",
        "rung-02-strong/01-default",
        "rung-02-strong/02-bias=1",
    ]
    for path, entry in zip(study.run_paths(), study.runs, strict=True):
        assert Run.open(path).policies == [entry.params["rung"]] * 3


def test_a_ladder_at_one_rule_setting_is_never_too_big(tmp_path, monkeypatch):
    """The default ladder of a five-seat game with five rungs is 105 runs (5 alone, 10 pairs at
    10 tables each): played; the cap on runs limits only the settings that multiply it (a
    cooperative ladder's --param)."""
    monkeypatch.setattr("simulator.studies.skill._execute", lambda study, plans, how: study)
    no_thanks = str(ROOT / "examples" / "no_thanks.py")
    study = skill(PlayRequest(no_thanks, 1, players=5), tmp_path / "five", Execution(jobs=1))
    assert len(study.runs) == 5 + 10 * 10
    values = "difficulty=" + ",".join(f"{i / 60:.4f}" for i in range(60))  # a cooperative game
    with pytest.raises(BalanceError, match="needs 120 runs; at most 100 .* use fewer values"):
        skill(PlayRequest("fake-coop", 1), tmp_path / "many", Execution(jobs=1),
              rungs=["random", "sloppy"], params=[values])  # fmt: skip
    assert not (tmp_path / "many").exists()


def test_the_default_shares_each_pairs_games_among_its_seatings():
    """Without -n, each pair of rungs plays 400 games whatever the number of seats: 200 a run
    where a pair has two seatings, fewer where it has more (six at three seats, ten at five)."""
    no_thanks = str(ROOT / "examples" / "no_thanks.py")
    by_seats = {p: default_games(PlayRequest(no_thanks, players=p)) for p in (3, 4, 5)}
    assert by_seats == {3: 67, 4: 200, 5: 40}
    for p, games in by_seats.items():
        tables = len(pair_tables("a", "b", p))
        assert PAIR_GAMES <= games * tables < PAIR_GAMES + tables
    assert default_games(PlayRequest(no_thanks)) == by_seats[3]  # the file's fewest seats
    assert default_games(PlayRequest("fake", players=2)) == 200
    assert default_games(PlayRequest("fake-coop")) == 200  # no pairs: each rung alone
