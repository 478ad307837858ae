"""``balance design`` on the known-answer game: at two players seat 1 wins a game with probability
(1 - draw) (1 + bias) / (2 + bias), and nobody wins with probability ``draw``."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest

import cli
from analyses.targets import MEETS, MISSES
from simulator.contract.errors import BalanceError
from simulator.runs.plan import plan_run
from simulator.runs.requests import Execution, PlayRequest
from simulator.studies.design import DESIGN_FILE, design, parse_rule_knob, plan_design
from tests.fake_game import FakeRules

TARGETS = ["first-seat=0.58..0.68", "draw<=10%"]


def first_seat(bias: float, draw: float) -> float:
    return (1 - draw) * (1 + bias) / (2 + bias)


def _design(out, *, targets=TARGETS, params=("bias=0:4", "draw=0:0.5"), trials=16, **kw):
    request = PlayRequest("fake", kw.pop("games", 400), players=2, sets=kw.pop("sets", None))
    plan = plan_design(request, list(targets), params=list(params), trials=trials, **kw)
    return plan, design(plan, out, Execution(jobs=1))


def call(args, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        cli.app(args)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_design_finds_a_setting_that_meets_the_targets_on_fresh_games(tmp_path):
    plan, data = _design(tmp_path / "d")
    start = data["default"]
    assert start["verdicts"]["first-seat=0.58..0.68"] == MISSES  # 50% at the defaults
    assert data["met_every_target"]
    best = data["best"]
    assert set(best["verdicts"].values()) == {MEETS}
    truth = first_seat(best["values"]["bias"], best["values"]["draw"])
    assert 0.55 < truth < 0.71 and best["values"]["draw"] <= 0.13  # what the rules really give
    # The check is its own games (fresh seeds), the same games for every setting.
    check = plan_run("fake", plan.check_games, players=2, seed=plan.check_seed)
    assert plan.check_seed != plan.seed and best["games"] == check.games == start["games"]
    change = best["differences"]["first-seat=0.58..0.68"]["change"]
    assert change["lo"] < truth - 0.5 < change["hi"]
    # The variant file reproduces the setting.
    text = (tmp_path / "d" / "variants" / "setting-1.toml").read_text()
    assert tomllib.loads(text)["rules"] == best["values"]
    config = plan_run("fake", 10, players=2, variant=best["variant_file"])
    assert (config.rules.bias, config.rules.draw) == (
        best["values"]["bias"],
        best["values"]["draw"],
    )


def test_the_starting_rules_are_the_first_candidate_and_every_candidate_shares_seeds(tmp_path):
    plan, data = _design(tmp_path / "d", trials=8, sets=["extra_length=2"])
    assert data["trials"][0]["values"] == {"bias": 0.0, "draw": 0.0}
    assert data["trials"][0]["label"] == "extra_length=2"
    from simulator.folders.run_folder import RunFolder

    configs = [
        RunFolder.open(tmp_path / "d" / "trials" / f"{i:03d}" / "run").read_manifest()["config"]
        for i in range(8)
    ]
    assert {(c["seed"], c["chunk_size"]) for c in configs} == {(plan.seed, plan.chunk_size)}
    assert all(c["rules"]["extra_length"] == 2 for c in configs)  # --set holds throughout


def test_unreachable_targets_are_said_with_the_closest_setting(tmp_path):
    # bias <= 1 gives seat 1 at most 2/3 of the games: 90% cannot be reached.
    _, data = _design(
        tmp_path / "d", targets=["first-seat>=90%", "draw<=10%"], params=["bias=0:1"], trials=6
    )
    assert not data["met_every_target"]
    assert data["held_back_by"] == ["first-seat>=90%"]
    assert data["best"]["verdicts"]["first-seat>=90%"] == MISSES
    from reports.design_report import verdict_sentences

    text = " ".join(verdict_sentences(data))
    assert "No setting in the ranges searched met every target" in text
    assert "held back by first-seat>=90%" in text


def test_a_killed_design_resumes_to_the_same_result(tmp_path):
    out = tmp_path / "d"
    _, first = _design(out, trials=8)
    shutil.rmtree(out / "trials" / "007")
    shutil.rmtree(out / "check")
    part = next((out / "trials" / "000" / "run" / "games").glob("*.parquet"))
    stamp = part.stat().st_mtime_ns
    _, again = _design(out, trials=8)
    assert [t["values"] for t in again["trials"]] == [t["values"] for t in first["trials"]]
    assert again["best"]["values"] == first["best"]["values"]
    assert again["best"]["figures"] == first["best"]["figures"]
    assert part.stat().st_mtime_ns == stamp  # finished candidates were not played again
    assert 0 < again["games_played_now"] < first["games_played_now"]


def test_same_seed_same_search_whatever_the_workers(tmp_path):
    plan = plan_design(
        PlayRequest("fake", 400, players=2), TARGETS, params=["bias=0:4", "draw=0:0.5"], trials=8
    )
    one = design(plan, tmp_path / "a", Execution(jobs=1))
    two = design(plan, tmp_path / "b", Execution(jobs=2))
    assert [t["values"] for t in one["trials"]] == [t["values"] for t in two["trials"]]
    assert one["best"]["values"] == two["best"]["values"]


@pytest.mark.slow
def test_cluster_local_finds_the_same_best_setting(tmp_path):
    plan = plan_design(
        PlayRequest("fake", 400, players=2), TARGETS, params=["bias=0:4", "draw=0:0.5"], trials=8
    )
    here = design(plan, tmp_path / "a", Execution(jobs=1))
    there = design(plan, tmp_path / "b", Execution(cluster="local"))
    assert there["best"]["values"] == here["best"]["values"]
    assert [t["figures"] for t in there["trials"]] == [t["figures"] for t in here["trials"]]


def test_adapted_play_tunes_the_policy_under_every_candidate(tmp_path):
    plan = plan_design(
        PlayRequest("fake", 320, players=2, policies=["strong", "random"]),
        ["first-seat>=55%"],
        params=["bias=0:2"],
        trials=2,
        tune="strong",
        tune_trials=2,
    )
    data = design(plan, tmp_path / "d", Execution(jobs=1))
    for t in data["trials"]:
        tune = json.loads(
            (tmp_path / "d" / "trials" / f"{t['number']:03d}" / "tune" / "tune.json").read_text()
        )
        best = tune["summary"]["best_params"]["skill"]
        assert t["tuned"] == f"strong:skill={best!r}"
        assert t["lineups"] == [[t["tuned"], "random"]]
    # the starting rules are checked with the play tuned to them (the first candidate's)
    check = json.loads((tmp_path / "d" / "check" / "start" / "run" / "manifest.json").read_text())
    assert check["config"]["policies"][0] == data["trials"][0]["tuned"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bias=0:11", "out of bounds"),
        ("bias=2:1", "LO must be below HI"),
        ("cap=3:3", "LO must be below HI"),
        ("bias", "give the range to search"),
        ("bias=1", "at least two values"),
        ("mode=plain,plain", "one setting"),
        ("mode=plain,odd", "allowed: one of plain, fancy"),
        ("biass=0:1", "did you mean 'bias'"),
        ("extra_length=1:3", "also fixed by --set"),
    ],
)
def test_bad_ranges_name_the_problem(text, message):
    with pytest.raises(BalanceError, match=message):
        parse_rule_knob(text, FakeRules, {"extra_length"})


def test_choice_and_yes_no_options_search_every_value():
    knob = parse_rule_knob("mode", FakeRules, set())
    assert knob.values == ("plain", "fancy") and knob.change("fancy", "plain") == 1.0
    assert parse_rule_knob("cap=10:20", FakeRules, set()).change(15, 10) == 0.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "draw<=5%", "--param", "bias=0:20"], "out of bounds"),
        (["--target", "draw<=5%", "--param", "bias=0:2", "--trials", "0"], "--trials must be"),
        (["--param", "bias=0:2"], "Missing option '--target'"),
        (["--target", "mean:fake_nothing>=1", "--param", "bias=0:2"], "no count or measure"),
        (["--target", "end:lost<=5%", "--param", "bias=0:2"], "no end condition 'lost'"),
        (["--target", "draw<=5%"], "name the rule options to search"),
        (["--target", "draw<=5%", "--explore", "{tmp}/nowhere"], "no explore.json there"),
        (["--target", "draw<=5%", "--param", "bias=0:2", "--set", "bias=1"], "also fixed"),
        (["--target", "draw<=5%", "--param", "bias=0:2", "--tune", "strong"], "no seat plays"),
        (["--target", "draw<=5%", "--param", "bias=0:2", "--format", "pdf"], "--format"),
    ],
)
def test_bad_requests_are_one_line_and_write_nothing(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = call(["design", "fake", "--out", str(tmp_path / "d"), *args], capsys)
    assert code == 2 and message in err, err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()


def test_a_folder_holding_another_design_is_refused(tmp_path, capsys):
    _design(tmp_path / "d", trials=4)
    before = (tmp_path / "d" / DESIGN_FILE).read_text()
    args = ["design", "fake", "--players", "2", "--target", "draw<=5%", "--param", "bias=0:2"]
    code, _, err = call([*args, "--trials", "4", "-n", "400", "--out", str(tmp_path / "d")], capsys)
    assert code == 2 and "holds another design" in err
    assert (tmp_path / "d" / DESIGN_FILE).read_text() == before


def test_cli_json_has_the_documented_keys_and_a_report(tmp_path, capsys):
    args = ["design", "fake", "--players", "2", "--param", "bias=0:4", "--param", "draw=0:0.5"]
    args += [f"--target={t}" for t in TARGETS]
    args += ["--trials", "8", "-n", "400", "--jobs", "1", "--json", "--out", str(tmp_path / "d")]
    code, out, err = call(args, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert {"game", "targets", "trials", "default", "best", "variant_file", "out"} <= set(data)
    assert data["targets"] == TARGETS and data["trials"] == 8
    for side in ("default", "best"):
        assert set(data[side]["verdicts"]) == set(data[side]["figures"]) == set(TARGETS)
    assert data["default"]["rules"] == {}
    assert set(data["best"]["rules"]) <= {"bias", "draw"} and data["best"]["rules"]
    assert data["variant_file"] == data["best"]["variant_file"]
    html = (tmp_path / "d" / "report.html").read_text()
    assert "Verdict on fresh seeds" in html and "Each target against each option" in html
    code, out, err = call(
        ["report", str(tmp_path / "d"), "--format", "md", "--out", str(tmp_path / "r.md")], capsys
    )
    assert code == 0, err
    assert "Verdict on fresh seeds" in (tmp_path / "r.md").read_text()


def test_rotated_lineups_measure_the_seat_and_the_policy_apart(tmp_path):
    """strong (weight 2) against random (weight 1), seats rotated, bias b on seat 1: seat 1 wins
    (3 + 2b) / (2 (3 + b)) of the games and strong (4 + b) / (2 (3 + b))."""
    plan = plan_design(
        PlayRequest("fake", 800, players=2, policies=["strong", "random"]),
        ["first-seat>=60%", "policy:strong>=55%"],
        params=["bias=0:4"],
        trials=10,
        rotate=True,
    )
    assert plan.lineups == [["strong", "random"], ["random", "strong"]]
    data = design(plan, tmp_path / "d", Execution(jobs=1))
    assert sorted(p.name for p in (tmp_path / "d" / "trials" / "000").iterdir()) == [
        "rot-1",
        "rot-2",
    ]
    start = data["default"]["figures"]
    assert start["first-seat>=60%"]["lo"] < 0.5 < start["first-seat>=60%"]["hi"]
    assert start["policy:strong>=55%"]["lo"] < 2 / 3 < start["policy:strong>=55%"]["hi"]
    assert data["default"]["games"] == plan.check_games * 2
    best = data["best"]
    b = best["values"]["bias"]
    assert (3 + 2 * b) / (2 * (3 + b)) > 0.57 and data["met_every_target"]
    seat = best["figures"]["first-seat>=60%"]
    assert seat["lo"] < (3 + 2 * b) / (2 * (3 + b)) < seat["hi"]


def test_policy_targets_need_the_policy_seated_and_rotation_needs_two_policies():
    with pytest.raises(BalanceError, match="no seat plays strong"):
        plan_design(
            PlayRequest("fake", 400, players=2), ["policy:strong>=50%"], params=["bias=0:1"]
        )
    with pytest.raises(BalanceError, match="--rotate needs seats playing different policies"):
        plan_design(
            PlayRequest("fake", 400, players=2), ["draw<=5%"], params=["bias=0:1"], rotate=True
        )
    with pytest.raises(BalanceError, match="comeback rate is measured in one run"):
        plan_design(
            PlayRequest("fake", 400, players=2, policies=["strong", "random"]),
            ["comeback<=50%"],
            params=["bias=0:1"],
            rotate=True,
        )


def test_starting_rules_that_already_meet_the_targets_are_said_first(tmp_path):
    _, data = _design(tmp_path / "d", targets=["draw<=10%"], params=["bias=0:1"], trials=4)
    assert data["start_met_every_target"]
    from reports.design_report import verdict_sentences

    assert verdict_sentences(data)[0].startswith(
        "The starting rules already meet every target on 800 fresh games"
    )


def test_a_search_that_proposes_only_the_starting_rules_says_so(tmp_path):
    _, data = _design(tmp_path / "d", targets=["draw<=10%"], params=["mode=plain,fancy"], trials=1)
    assert data["best"] is None and data["settings"] == []
    from reports.design_report import design_document, verdict_sentences

    assert verdict_sentences(data)[0].startswith("The search proposed no setting other than")
    assert "draw<=10%: meets" in verdict_sentences(data)[1]
    design_document(tmp_path / "d")  # the report still builds


def test_explore_then_design_searches_the_options_that_move_the_targets(tmp_path, capsys):
    code, _, err = call(
        [
            "explore",
            "fake",
            "--players",
            "2",
            "-n",
            "300",
            "-r",
            "6",
            "--range",
            "bias=0:2",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            str(tmp_path / "x"),
        ],
        capsys,
    )
    assert code == 0, err
    plan = plan_design(
        PlayRequest("fake", 400, players=2),
        ["first-seat>=55%", "length<=15"],
        explore=tmp_path / "x",
    )
    names = [k.name for k in plan.knobs]
    # bias moves the first seat and extra_length the length; cap changes no game
    assert names[:2] == ["bias", "extra_length"] and "cap" not in names
    bias = plan.knobs[0]
    assert (bias.lo, bias.hi) == (0, 2)  # the range the explore screened
    assert plan.describe()["explore"] == str(tmp_path / "x")
    with pytest.raises(BalanceError, match="explored fake"):
        from simulator.contract.registry import get_game
        from simulator.studies.design.knobs import knobs_from_explore

        knobs_from_explore(tmp_path / "x", get_game("pirateer"), ["first-seat"], set(), 4)


def test_a_rotated_setting_plays_again_as_it_was_judged(tmp_path, capsys):
    """The variant file records lineup, rotation, check seed and games; `simulate --variant`
    then plays every rotation on the same seeds and gives the design's figures exactly."""
    request = PlayRequest("fake", 200, players=2, policies=["strong", "random"])
    plan = plan_design(request, ["first-seat>=60%"], params=["bias=0:4"], trials=4, rotate=True)
    data = design(plan, tmp_path / "d", Execution(jobs=1))
    best = data["settings"][0]
    variant = tmp_path / "d" / "variants" / "setting-1.toml"
    play = tomllib.loads(variant.read_text())["play"]
    assert play == {"players": 2, "policies": ["strong", "random"], "rotate": True,
                    "seed": plan.check_seed, "games": plan.check_games}  # fmt: skip
    args = ["simulate", "fake", "--variant", variant, "-n", play["games"], "--seed", play["seed"],
            "--out", tmp_path / "again", "--jobs", "1", "--json"]  # fmt: skip
    code, out, err = call(list(map(str, args)), capsys)
    assert code == 0, err
    again = json.loads(out)
    assert [r["policies"] for r in again["rotations"]] == [
        ["strong", "random"],
        ["random", "strong"],
    ]
    assert again["pooled"]["first-seat"] == best["figures"]["first-seat>=60%"]
    code, out, err = call(list(map(str, args[:-1])), capsys)  # the same, in words: reused
    assert "2 rotations of the lineup (strong, random)" in out and "first seat wins" in out
    assert "reused" in err


def test_rotation_needs_a_lineup_of_different_policies(tmp_path, capsys):
    code, _, err = call(["simulate", "fake", "--rotate", "--out", str(tmp_path / "r")], capsys)
    assert code == 2 and "--rotate needs seats playing different policies" in err
