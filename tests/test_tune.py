"""balance tune on the known-answer game: the fake `strong` policy wins with weight 1 + skill, so
more skill is always better and the best setting is at the top of its bounds."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

import cli
from analyses.tuning import dominance
from simulator.contract.errors import BalanceError
from simulator.contract.policy import PolicyDef, PolicyParam, parse_policy
from simulator.contract.registry import register
from simulator.folders.run_folder import RunFolder
from simulator.folders.study_folders import read_tune
from simulator.runs.requests import Execution, PlayRequest
from simulator.studies import compare as studies
from simulator.studies.tuning import parse_knob, plan_tune, tune
from tests import coop_game
from tests.fake_game import SPEC as FAKE

KEYS = [
    "game",
    "policy",
    "best_params",
    "best_win_rate",
    "default_params",
    "default_win_rate",
    "change",
    "trials",
    "games_per_trial",
    "out",
    "at_edge",  # the parameters whose best value lies at an end of the range searched
]


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def _tune_fake(out, trials=8, games=320, seed=5):
    plan = plan_tune(
        PlayRequest("fake", games, players=2, seed=seed),
        "strong",
        against=["random"],
        trials=trials,
    )
    return plan, tune(plan, out, Execution(jobs=1))


def test_cli_json_has_the_documented_keys_and_finds_more_skill(capsys, tmp_path):
    out = tmp_path / "t"
    code, text, _ = call(
        capsys, "tune", "fake", "--policy", "strong", "--against", "random", "--players", 2,
        "--trials", 8, "-n", 320, "--seed", 5, "-j", 1, "--out", out, "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(text)
    assert list(data) == KEYS
    assert data["default_params"] == {"skill": 1.0}
    # weight 1 + skill against 1: the win rate grows with skill, so the search climbs.
    assert data["best_params"]["skill"] > 5
    best, defaults = data["best_win_rate"], data["default_win_rate"]
    assert best["lo"] <= best["value"] <= best["hi"]
    assert data["change"]["lo"] > 0
    assert data["games_per_trial"] == 320 and data["trials"] == 8
    # Fresh seeds: the known answer (1 + s) / (2 + s) lies in the intervals.
    s = data["best_params"]["skill"]
    assert best["lo"] <= (1 + s) / (2 + s) <= best["hi"]
    assert defaults["lo"] <= 2 / 3 <= defaults["hi"]
    html = (out / "report.html").read_text()
    assert "Search history" in html and "Dominant strategy" in html and "skill" in html
    # The same command again resumes: nothing left to play, the same verdict in words.
    code, text, _ = call(
        capsys, "tune", "fake", "--policy", "strong", "--against", "random", "--players", 2,
        "--trials", 8, "-n", 320, "--seed", 5, "-j", 1, "--out", out,
    )  # fmt: skip
    assert code == 0
    assert "Best setting of strong: skill=" in text and "(0 played now)" in text
    assert f"report: {out / 'report.html'}" in text


def test_candidates_share_seeds_and_the_check_uses_fresh_ones(tmp_path):
    plan, data = _tune_fake(tmp_path / "t")
    seeds = []
    for t in data["trials"]:
        if t["state"] == "complete":
            folder = tmp_path / "t" / "trials" / f"{t['number']:03d}" / "seat1-vs-random"
            seeds.append(RunFolder.open(folder).scan().sort("game_index").collect()["seed"])
    assert len(seeds) >= 2 and all(s.equals(seeds[0]) for s in seeds)
    check = RunFolder.open(tmp_path / "t" / "check" / "best" / "seat1-vs-random").scan()
    fresh = check.collect()["seed"]
    assert not set(fresh.to_list()) & set(seeds[0].to_list())
    assert data["check"]["games"] == 2 * plan.games_per_trial


def test_first_candidate_is_the_defaults_and_weak_ones_are_pruned(tmp_path):
    plan, data = _tune_fake(tmp_path / "t", trials=16, games=320)
    assert data["trials"][0]["params"] == {"skill": 1.0}
    pruned = [t for t in data["trials"] if t["state"] == "pruned"]
    assert pruned, "a 16-candidate search on a monotone answer prunes some weak candidates"
    for t in pruned:
        assert t["games"] < plan.games_per_trial
        folder = tmp_path / "t" / "trials" / f"{t['number']:03d}" / "seat2-vs-random"
        assert RunFolder.open(folder).read_manifest()["stopped_early"] is True
    complete = [t for t in data["trials"] if t["state"] == "complete"]
    assert all(t["games"] == plan.games_per_trial for t in complete)


def test_a_killed_tune_resumes_to_the_same_result(tmp_path):
    out = tmp_path / "t"
    _, first = _tune_fake(out)
    # As if killed during the last candidates and the check: their folders are gone.
    import shutil

    shutil.rmtree(out / "trials" / "007")
    shutil.rmtree(out / "check")
    part = out / "trials" / "000" / "seat1-vs-random" / "games" / "part-00000.parquet"
    stamp = part.stat().st_mtime_ns
    _, again = _tune_fake(out)
    assert again["summary"] == first["summary"]
    assert [t["params"] for t in again["trials"]] == [t["params"] for t in first["trials"]]
    assert part.stat().st_mtime_ns == stamp  # finished candidates were not played again
    assert 0 < again["games_played_now"] < first["games_played_now"]


def test_a_folder_holding_another_tune_is_refused(tmp_path):
    _tune_fake(tmp_path / "t", trials=4)
    before = sorted(p.name for p in (tmp_path / "t" / "trials").iterdir())
    with pytest.raises(BalanceError, match="another tune"):
        _tune_fake(tmp_path / "t", trials=4, seed=6)
    assert sorted(p.name for p in (tmp_path / "t" / "trials").iterdir()) == before


def test_dominance_against_the_field(tmp_path):
    _tune_fake(tmp_path / "t", trials=8)
    data = read_tune(tmp_path / "t")
    dom = dominance(tmp_path / "t", data)
    assert dom["fair_share"] == 0.5
    assert dom["above_fair_share_everywhere"] is True  # skill > 0 beats random in both seats
    assert [a["seating"] for a in dom["alternatives"]] == ["seat 1 vs random", "seat 2 vs random"]
    for a in dom["alternatives"]:
        assert a["alternatives"] == sum(t["state"] == "complete" for t in data["trials"]) - 1
        assert a["ahead"] + a["tied"] + a["behind"] == a["alternatives"]
        # every alternative has less skill, so none is significantly better in either seat
        assert a["significantly_behind"] == 0
        # "ahead of every alternative" is one claim over all of them
        assert a["confidence"] == pytest.approx(1 - 0.05 / a["alternatives"])
    assert dom["never_significantly_beaten"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "strongest"], "unknown policy 'strongest'"),
        (["--policy", "strong", "--param", "luck"], "unknown parameter 'luck'"),
        (["--policy", "random"], "no tunable parameters"),
        (["--policy", "strong", "--trials", 0], "--trials must be at least 1"),
        (["--policy", "strong", "--against", "wizard"], "unknown policy 'wizard'"),
        (["--policy", "strong", "-n", 10], "too few"),
        (["--policy", "strong", "--param", "skill=5:20"], "within the declared bounds"),
        (["--policy", "strong", "--cluster", "nowhere"], "--cluster must be"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(capsys, tmp_path, args, message):
    out = tmp_path / "t"
    code, _, err = call(capsys, "tune", "fake", *args, "--out", out)
    assert code == 2
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_narrowed_bounds_are_searched(tmp_path):
    plan = plan_tune(
        PlayRequest("fake", 320, players=2),
        "strong",
        against=["random"],
        trials=4,
        params=["skill=2:3"],
    )
    data = tune(plan, tmp_path / "t", Execution(jobs=1))
    assert all(2 <= t["params"]["skill"] <= 3 for t in data["trials"])
    assert data["summary"]["default_params"] == {"skill": 1.0}  # still checked as they are


def test_a_measuring_instrument_is_never_tuned():
    # a switch that reads hidden hands would win every tune: it is left out of the default
    # knobs and refused by name
    pdef = PolicyDef(
        "p",
        0,
        "",
        (
            PolicyParam("care", 0.5, 0.0, 1.0, ""),
            PolicyParam("sees", 0.0, 0.0, 1.0, "", integer=True, instrument=True),
        ),
    )
    assert [p.name for p in pdef.params if p.tunable] == ["care"]
    with pytest.raises(BalanceError, match="measuring instrument"):
        parse_knob("sees", pdef)
    assert parse_knob("care", pdef).name == "care"


def test_whole_number_parameters_take_whole_values():
    pdef = PolicyDef("p", 0, "", (PolicyParam("ships", 1.0, 1.0, 6.0, "", integer=True),))
    assert parse_policy("p:ships=3", {"p": pdef}, "g").values == (3.0,)
    with pytest.raises(BalanceError, match="whole number"):
        parse_policy("p:ships=2.5", {"p": pdef}, "g")


# -- a cooperative game: the crew's success rate -----------------------------------------------
def _coop_play(rules, n_players, policy_ids, policy_params, seeds):
    columns = coop_game.play_chunk(rules, n_players, policy_ids, policy_params, seeds)
    uniform = (np.asarray(seeds, dtype=np.uint64) % np.uint64(1000)) / 1000.0
    columns["success"] = uniform < policy_params[:, 0].mean()  # care: the crew's mean effort
    columns["end_reason"] = np.where(columns["success"], 0, 1)
    return columns


COOP = replace(
    coop_game.SPEC,
    id="fake-coop-tuned",
    policies={"careful": PolicyDef("careful", 0, "", (PolicyParam("care", 0.3, 0.0, 0.9, ""),))},
    default_policy="careful",
    play_chunk=_coop_play,
)


def test_cooperative_tune_maximises_the_success_rate(tmp_path):
    register(COOP)
    plan = plan_tune(PlayRequest("fake-coop-tuned", 320, seed=2), "careful", trials=8)
    assert [s.label for s in plan.seatings] == ["every seat"]
    data = tune(plan, tmp_path / "t", Execution(jobs=1))
    s = data["summary"]
    assert data["measure"] == "success rate"
    assert s["best_params"]["care"] > 0.6  # success chance = care
    assert s["best_win_rate"]["lo"] <= s["best_params"]["care"] <= s["best_win_rate"]["hi"] + 0.01
    assert data["check"]["fair_share"] is None


# -- compare --tune ----------------------------------------------------------------------------
def test_compare_tune_seats_each_rule_sets_best_setting(tmp_path):
    out = tmp_path / "cmp"
    study = studies.compare(
        PlayRequest("fake", 320, sets=["bias=2"], players=2, policies=["strong", "random"]),
        out,
        Execution(jobs=1),
        tune="strong",
        tune_trials=4,
        tune_games=320,
    )
    adapted = json.loads((out / "adapted.json").read_text())
    assert [v["label"] for v in adapted["variants"]] == ["default", "bias=2"]
    for entry, path in zip(adapted["variants"], study.run_paths(), strict=True):
        best = read_tune(out / entry["tune"])["summary"]["best_params"]
        label = RunFolder.open(path).read_manifest()["config"]["policies"][0]
        assert label == f"strong:skill={best['skill']:g}" or best["skill"] == 1.0
    games = pl.scan_parquet(study.run_paths()[1] / "games" / "*.parquet").collect()
    assert games.height == 320
    from reports.build import write_report

    data = write_report([out], out / "report.html")
    # The play the comparison assumes is said once, first; then one effect per figure.
    head = data["headline"]
    assert head[0].startswith("Play assumed by every run of this comparison: strong tuned")
    assert sum("adapted play" in line for line in head) == 1
    assert not any("with default play" in line for line in head)
    effect = data["adapted_play"]["effects"][0]
    assert effect["variant"] == "bias=2"
    for play in ("default play", "adapted play"):
        assert effect[play]["change"]["lo"] <= effect[play]["change"]["value"]
        assert effect[play]["change"]["value"] <= effect[play]["change"]["hi"]
    change = effect["adapting_changes_effect"]["change"]
    assert change["value"] == pytest.approx(
        effect["adapted play"]["change"]["value"] - effect["default play"]["change"]["value"]
    )


def test_compare_tune_refuses_a_policy_nobody_plays(tmp_path):
    with pytest.raises(BalanceError, match="no seat plays strong"):
        studies.compare(PlayRequest("fake", 320, sets=["bias=2"]), tmp_path / "c", tune="strong")
    assert not (tmp_path / "c").exists()


@pytest.mark.slow
def test_cluster_local_finds_the_same_best(tmp_path):
    plan = plan_tune(
        PlayRequest("fake", 320, players=2, seed=5), "strong", against=["random"], trials=8
    )
    here = tune(plan, tmp_path / "a", Execution(jobs=1))
    there = tune(plan, tmp_path / "b", Execution(cluster="local"))
    assert there["summary"]["best_params"] == here["summary"]["best_params"]
    assert [t["win_rate"] for t in there["trials"]] == [t["win_rate"] for t in here["trials"]]


# VP, days, cards, sail points, steps, counts and switches are whole numbers: a tune proposes
# only settings a player could state (no reserve of 96.37 VP). Everything else is a weight.
WHOLE_NUMBER_PARAMETERS = {
    "caza-tesoros": {
        "random": {"commit_days"},
        "greedy": {"reserve", "ships", "cards", "bid_margin"},
        "planner": {"reserve", "horizon", "ships", "cards", "gamble"},
        "mcts": {"playouts", "rollout", "guide", "horizon", "opponents"},
    },
    "pirateer": {"mcts": {"playouts", "rollout", "guide", "horizon", "opponents"}},
    "pedruscos": {
        "hauler": {"ship_at"},
        "builder": {"ship_at", "reserve", "max_branches"},
        "mcts": {"playouts", "rollout", "guide", "horizon", "opponents"},
    },
    "crew-deep-sea": {
        "omniscient": {"nodes", "allocations"},
        "expert": {"playouts", "talk_playouts", "pick_samples", "sees_hands"},
        "sampler": {"samples", "nodes", "pick_nodes"},
    },
    "cape-horn": {
        "racer": {"keep_cards", "reserve"},
        "blocker": {"keep_cards", "reserve", "margin"},
        "planner": {"keep_cards", "reserve", "margin"},
        "mcts": {"playouts", "rollout", "guide", "horizon", "opponents"},
    },
}


@pytest.mark.parametrize("game", sorted(WHOLE_NUMBER_PARAMETERS))
def test_counts_and_points_are_declared_whole_numbers(game):
    from simulator.contract.registry import get_game

    declared = {
        name: {p.name for p in pdef.params if p.integer}
        for name, pdef in get_game(game).policies.items()
    }
    assert {k: v for k, v in declared.items() if v} == WHOLE_NUMBER_PARAMETERS[game]
    for pdef in get_game(game).policies.values():
        assert all(p.default == int(p.default) for p in pdef.params if p.integer)


WHOLE = replace(
    FAKE,
    id="fake-whole",
    policies={
        **FAKE.policies,
        "strong": PolicyDef(
            "strong", 1, "", (PolicyParam("skill", 1.0, 0.0, 10.0, "", integer=True),)
        ),
    },
)


def test_a_tune_proposes_whole_numbers_for_whole_number_parameters(tmp_path):
    register(WHOLE)
    plan = plan_tune(
        PlayRequest("fake-whole", 320, players=2), "strong", against=["random"], trials=8
    )
    data = tune(plan, tmp_path / "t", Execution(jobs=1))
    values = [t["params"]["skill"] for t in data["trials"]] + [
        data["summary"]["best_params"]["skill"]
    ]
    assert all(isinstance(v, int) for v in values)
    assert all("." not in plan.policy_text(t["params"]) for t in data["trials"])
