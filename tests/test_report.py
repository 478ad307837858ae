"""The designer's report: self-contained HTML, Markdown, what it says, and the commands end to end
on the known-answer games."""

from __future__ import annotations

import json
import re
import shutil

import pytest

import cli
import tests.coop_game as coop
from analyses.targets import parse_targets
from reports.build import open_runs, write_report
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import simulate


def call(args, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        cli.app(args)
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@pytest.fixture(scope="module")
def compare_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "study"
    from simulator.studies.compare import compare

    compare(PlayRequest("fake", 1500, sets=["bias=1"], seed=2), out, Execution(jobs=1))
    return out


def assert_self_contained(html: str) -> None:
    assert not re.search(r"https?://", html)
    assert "<link" not in html and "<script" not in html and "url(" not in html
    sources = re.findall(r'src="([^"]*)"', html)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)


def test_html_report_is_self_contained_and_says_what_was_run(compare_dir, tmp_path):
    data = write_report([compare_dir], tmp_path / "r.html")
    html = (tmp_path / "r.html").read_text()
    assert_self_contained(html)
    assert html.count("<img") >= 5  # seats, length, end conditions, drama, changes
    for text in ("What was run", "bias = 1.0", "random | random | random", "1,500", "seed"):
        assert text in html
    assert "Variants against the default" in html and "Headline findings" in html
    assert data["kind"] == "compare"
    sig = [r for r in data["comparison"] if r["significant"]]
    assert {r["measure"] for r in sig} == {"seat 1 win rate", "seat 2 win rate", "seat 3 win rate"}
    headline = " ".join(data["headline"])
    assert "Variant 'bias=1'" in headline and "95% interval" in headline


def test_markdown_report_links_its_figures(compare_dir, tmp_path):
    write_report([compare_dir], tmp_path / "r.md", fmt="md")
    text = (tmp_path / "r.md").read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links and all((tmp_path / link).is_file() for link in links)
    assert "| variant | measure |" in text and "## Headline findings" in text


def test_targets_appear_with_verdicts(compare_dir, tmp_path):
    targets = parse_targets(["length=10..20", "seat-1=0.33+-0.1"])
    data = write_report([compare_dir], tmp_path / "r.html", targets=targets)
    verdicts = {(r["run"], r["measure"]): r["verdict"] for r in data["targets"]}
    assert verdicts["default", "length"] == "meets"
    assert verdicts["bias=1", "seat-1"] == "misses"  # true rate 0.5
    assert "Design targets" in (tmp_path / "r.html").read_text()


def test_loose_runs_are_grouped_by_what_differs(tmp_path):
    a = simulate("fake", 300, tmp_path / "a", jobs=1)
    b = simulate("fake", 300, tmp_path / "b", jobs=1, sets={"bias": 1})
    c = simulate("fake", 300, tmp_path / "c", jobs=1, policies=["strong", "random", "random"])
    assert open_runs([a])[0] == "single"
    assert open_runs([a, b])[0] == "compare"
    assert open_runs([a, c])[0] == "tournament"
    again = simulate("fake", 300, tmp_path / "again", jobs=1, seed=1)  # default too, new seeds
    kind, runs = open_runs([a, again])
    assert len({r.label for r in runs}) == 2  # same label made unique


def test_cooperative_report_gives_success_by_mission(tmp_path):
    run = simulate(coop.SPEC.id, 600, tmp_path / "coop", jobs=1)
    data = write_report([run], tmp_path / "coop.html")
    html = (tmp_path / "coop.html").read_text()
    assert_self_contained(html)
    assert "How often the crew succeeds" in html and "mission 3" in html
    assert data["runs"][0]["success"]["by_group"][2]["group"] == 3
    assert "Who wins: seats" not in html and "Drama" not in html


def test_cli_compare_end_to_end_with_json(tmp_path, capsys):
    code, out, err = call(
        [
            "compare",
            "fake",
            "--set",
            "bias=2",
            "-n",
            "800",
            "--out",
            str(tmp_path / "c"),
            "--jobs",
            "1",
            "--json",
            "--target",
            "first-seat=0.6+-0.1",
        ],
        capsys,
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["kind"] == "compare" and (tmp_path / "c" / "report.html").is_file()
    seat1 = next(r for r in data["comparison"] if r["measure"] == "seat 1 win rate")
    assert seat1["significant"] and seat1["change"]["lo"] < 0.6 - 1 / 3 < seat1["change"]["hi"]
    assert {r["run"] for r in data["targets"]} == {"default", "bias=2"}


def test_cli_sweep_tournament_simulate_and_report(tmp_path, capsys):
    code, out, err = call(
        [
            "sweep",
            "fake",
            "--param",
            "bias=0,1",
            "-n",
            "400",
            "--out",
            str(tmp_path / "s"),
            "--jobs",
            "1",
            "--json",
        ],
        capsys,
    )
    assert code == 0, err
    assert [p["params"] for p in json.loads(out)["sweep"]] == [{"bias": 0.0}, {"bias": 1.0}]
    code, out, err = call(
        [
            "tournament",
            "fake",
            "--policy",
            "random",
            "--policy",
            "strong",
            "--players",
            "2",
            "-n",
            "400",
            "--out",
            str(tmp_path / "t"),
            "--jobs",
            "1",
            "--format",
            "md",
            "--quiet",
        ],
        capsys,
    )
    assert code == 0, err
    assert out == "" and (tmp_path / "t" / "report.md").is_file()
    code, out, err = call(
        [
            "simulate",
            "fake",
            "-n",
            "20000",
            "--until-ci",
            "0.06",
            "--out",
            str(tmp_path / "u"),
            "--jobs",
            "1",
            "--chunk-size",
            "250",
            "--json",
        ],
        capsys,
    )
    assert code == 0, err
    assert json.loads(out)["games"] < 20_000
    code, out, err = call(
        ["report", str(tmp_path / "u"), "--out", str(tmp_path / "u.html")], capsys
    )
    assert code == 0, err
    assert "stopped after" in (tmp_path / "u.html").read_text()
    assert out.startswith(("- Seat", "- The seat test")) and "report: " in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "fake", "-n", "10", "--out", "{tmp}/x"], "at least one --variant"),
        (["report", "{tmp}/nothing"], "not a balance run folder"),
        (["report", "{tmp}", "--format", "pdf"], "--format must be html or md"),
        (
            ["compare", "fake", "--set", "bias=1", "--out", "{tmp}/y", "--target", "speed=1..2"],
            "unknown measure",
        ),
        (["sweep", "fake", "--param", "bias", "--out", "{tmp}/z"], "--param expects"),
        (["tournament", "fake", "--policy", "random", "--out", "{tmp}/w"], "at least two"),
        (["simulate", "fake", "--until-ci", "2", "--out", "{tmp}/v"], "--until-ci"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    code, out, err = call([a.replace("{tmp}", str(tmp_path)) for a in args], capsys)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_identical_comparisons_and_repeated_names_are_refused(tmp_path, capsys):
    def variant(name: str, bias: float):
        path = tmp_path / f"{name}-{bias}.toml"
        path.write_text(f'name = "{name}"\n[rules]\nbias = {bias}\n')
        return str(path)

    cheap, other_cheap = variant("cheap", 1), variant("cheap", 2)
    cases = [
        (["compare", "fake", "--variant", cheap, "--variant", other_cheap], "has the name of"),
        (["compare", "fake", "--variant", variant("default", 1)], "name of the default rules"),
        (["compare", "fake", "--variant", variant("nothing", 0)], "same rules as the default"),
        (["compare", "fake", "--variant", cheap, "--set", "bias=1"], "same rules as variant"),
        (["sweep", "fake", "--param", "bias=1,1.0"], "the same setting"),
        (["tournament", "fake", "-p", "strong", "-p", "strong:skill=1"], "the same policy"),
    ]
    for k, (args, message) in enumerate(cases):
        out = tmp_path / f"study-{k}"
        code, _, err = call([*args, "-n", "50", "--out", str(out), "--jobs", "1"], capsys)
        assert code == 2 and message in err and err.count("\n") == 1, (args, err)
        assert not out.exists()  # refused before anything is written
    run = simulate("fake", 50, tmp_path / "run", jobs=1)
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    for folders, message in (([run, run], "is given twice"), ([run, copy], "the same games")):
        code, _, err = call(
            ["report", *map(str, folders), "--out", str(tmp_path / "r.html")], capsys
        )
        assert code == 2 and message in err and err.count("\n") == 1


def test_simulate_judges_end_reason_and_column_targets(tmp_path, capsys):
    """Drawn games have probability 0.3 exactly, so 'fake_total' (winners per game) has mean 0.7."""
    args = ["simulate", "fake", "--set", "draw=0.3", "-n", "4000", "--jobs", "1"]
    targets = ["end:drawn=25%..35%", "mean:fake_total>=0.8", "end:won<=0.9"]
    code, out, err = call(
        [*args, "--out", str(tmp_path / "r"), "--json", *[f"--target={t}" for t in targets]],
        capsys,
    )
    assert code == 0, err
    rows = {r["measure"]: r for r in json.loads(out)["targets"]}
    assert rows["end:drawn"]["lo"] < 0.3 < rows["end:drawn"]["hi"]
    assert rows["mean:fake_total"]["lo"] < 0.7 < rows["mean:fake_total"]["hi"]
    assert [rows[m]["verdict"] for m in ("end:drawn", "mean:fake_total", "end:won")] == [
        "meets",
        "misses",
        "meets",
    ]
    code, out, err = call(
        [*args, "--out", str(tmp_path / "bad"), "--target", "end:lost>=1%"], capsys
    )
    assert code == 2 and "no end condition 'lost'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "bad").exists()


def test_a_policy_target_counts_the_wins_of_every_seat_playing_it(tmp_path, capsys):
    """Three seats: strong (weight 2) twice and random (weight 1): strong seats win 4/5."""
    args = ["simulate", "fake", "--players", "3", "-p", "strong", "-p", "random", "-p", "strong"]
    args += ["-n", "3000", "--jobs", "1", "--json", "--out", str(tmp_path / "r")]
    code, out, err = call([*args, "--target", "policy:strong>=75%"], capsys)
    assert code == 0, err
    (row,) = json.loads(out)["targets"]
    assert row["lo"] < 0.8 < row["hi"] and row["verdict"] == "meets"
    code, _, err = call([*args, "--target", "policy:strongest>=75%"], capsys)
    assert code == 2 and "fake has no policy 'strongest'; its policies: random, strong" in err


def test_rules_lists_what_a_target_can_name(capsys):
    code, out, err = call(["rules", "fake"], capsys)
    assert code == 0, err
    assert "Targets (--target) can also name: end:won, end:drawn, mean:fake_total" in out
    assert "policy:NAME for random, strong" in out
    assert "fake_win_cells" not in out.split("Targets")[1]  # a cell list is not a number
