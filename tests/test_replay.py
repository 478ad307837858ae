"""`balance replay`: a run's game or a seed, as text, JSON and a page; its bad input in one line;
and the report's games to watch (the games every game has are checked in the contract test)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest

import cli
import tests.coop_game  # noqa: F401  (registers the cooperative test game)
import tests.fake_game as fake
from analyses.runs import Run
from analyses.watch import games_to_watch
from reports.build import write_report
from simulator.runs.replay import replay_run, run_row
from simulator.runs.runner import simulate


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory) -> Path:
    """40 games of the fake game, some drawn (no winner)."""
    out = tmp_path_factory.mktemp("replay") / "run"
    return simulate("fake", 40, out, jobs=1, seed=9, sets={"draw": 0.3}, progress=False)


def _row(run: Path, i: int) -> dict:
    return pl.read_parquet(run / "games").filter(pl.col("game_index") == i).row(0, named=True)


def test_text_is_the_game_of_the_row(capsys, fake_run):
    row = _row(fake_run, 7)
    code, out, _ = call(capsys, "replay", fake_run, "--game-index", 7)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"Known-answer test game: game 7 of {fake_run}, seed {row['seed']}")
    assert lines[1].split() == [
        "round",
        "0",
        "the",
        "game",
        "will",
        "last",
        str(row["length"]),
        "rounds",
    ]
    who = "no winner" if row["winner"] is None else f"seat {row['winner'] + 1} wins"
    assert lines[-1].startswith(f"result: {who} ({row['end_reason']}) after {row['length']} rounds")


def test_json_has_the_documented_keys_and_the_row_result(capsys, fake_run):
    code, out, _ = call(capsys, "replay", fake_run, "-i", 3, "--json")
    assert code == 0
    data = json.loads(out)
    keys = {"game", "seed", "rules_changed", "players", "policies", "events", "result"}
    assert keys <= set(data)
    row = _row(fake_run, 3)
    assert (data["game"], data["seed"], data["players"]) == ("fake", row["seed"], 3)
    assert data["rules_changed"] == {"draw": 0.3}
    assert data["result"]["winner"] == row["winner"]
    assert data["result"]["length"] == row["length"] == data["events"][0]["length"]
    assert data["events"][-1]["kind"] == ("draw" if row["winner"] is None else "win")


def test_a_seed_replays_with_the_run_options(capsys, fake_run):
    row = _row(fake_run, 5)
    code, out, _ = call(
        capsys, "replay", "fake", "--seed", row["seed"], "--set", "draw=0.3", "--json"
    )
    assert code == 0
    assert json.loads(out)["result"]["winner"] == row["winner"]


def test_the_page_draws_the_board_and_every_step(capsys, fake_run, tmp_path):
    page = tmp_path / "game.html"
    code, out, _ = call(capsys, "replay", fake_run, "-i", 2, "--out", page)
    assert code == 0 and f"{page}: " in out
    html = page.read_text()
    assert html.count("<polygon") == 9  # the 3 x 3 board
    data = json.loads(re.search(r'id="data">(.*?)</script>', html, re.S).group(1))
    assert len(data["frames"]) == len(data["events"]) + 1 == len(data["lines"]) + 1
    first, last = (data["sets"][f[0]] for f in (data["frames"][0], data["frames"][-1]))
    winner = _row(fake_run, 2)["winner"]
    assert first == [] and last == (
        [] if winner is None else [{"cell": winner, "seat": winner, "label": "W"}]
    )
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")  # self-contained


def test_a_game_without_a_board_gets_its_table(capsys, tmp_path):
    page = tmp_path / "coop.html"
    code, _, _ = call(capsys, "replay", "fake-coop", "--seed", 12, "--out", page)
    assert code == 0
    html = page.read_text()
    assert '<table id="table">' in html and "<svg" not in html
    assert "mission 1" in html  # seed 12: mission 12 % 3 + 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{run}", "-i", "40"], "outside the run: '{run}' has games 0 to 39"),
        (["{run}", "-i", "-1"], "outside the run"),
        (["{run}"], "say which game with --game-index"),
        (["{run}", "-i", "1", "--set", "draw=0"], "--set does not apply to a run's game"),
        (["{run}", "-i", "1", "--seed", "4"], "--seed does not apply"),
        (["fake", "--seed", "3", "--set", "speed=2"], "unknown rule 'speed'"),
        (["fake", "--seed", "3", "--set", "mode=odd"], "rule 'mode'"),
        (["fake", "--seed", "-1"], "a game seed is between 0 and"),
        (["fake"], "say which game of fake to play with --seed"),
        (["fake", "--seed", "1", "-i", "2"], "--game-index needs a run folder"),
        (["fake", "--seed", "1", "--players", "9"], "2 to 6 players"),
        (["fake", "--seed", "1", "--out", "{tmp}/x.png"], "name an .html file"),
        (["fake", "--seed", "1", "--out", "{tmp}/no/x.html"], "does not exist"),
        (["{tmp}", "-i", "1"], "is not a balance run folder"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(capsys, fake_run, tmp_path, args, message):
    page = tmp_path / "page.html"
    fill = {"run": str(fake_run), "tmp": str(tmp_path)}
    args = [a.format(**fill) for a in args]
    if "--out" not in args:
        args += ["--out", str(page)]
    code, out, err = call(capsys, "replay", *args)
    assert code == 2, out
    assert err.count("\n") == 1 and message.format(**fill) in err, err
    assert not page.exists() and not (tmp_path / "x.png").exists()


def test_a_damaged_run_is_refused(capsys, fake_run, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(fake_run, copy)
    part = sorted((copy / "games").glob("*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:-40])
    code, _, err = call(capsys, "replay", copy, "-i", 0)
    assert code == 2 and err.count("\n") == 1 and "verify --repair" in err
    (copy / "manifest.json").write_text('{"config": {"game": "fake"')
    code, _, err = call(capsys, "replay", copy, "-i", 0)
    assert code == 2 and err.count("\n") == 1 and "damaged" in err


def test_a_game_the_current_code_plays_differently_is_refused(fake_run, monkeypatch):
    row = run_row_of(fake_run, 0)
    replay_run(fake_run, 0)  # the same code: accepted
    monkeypatch.setattr(fake, "COMEBACK", 1.0)  # the engine now draws other half-time leaders
    decided = [i for i in range(40) if run_row_of(fake_run, i)["winner"][0] is not None]
    with pytest.raises(Exception, match="plays differently with the simulator as it is now"):
        for i in decided:
            replay_run(fake_run, i)
    assert row.height == 1


def run_row_of(path: Path, i: int) -> pl.DataFrame:
    from simulator.folders.run_folder import RunFolder

    return run_row(RunFolder.open(path), i)


def test_games_to_watch_and_their_commands(capsys, fake_run, tmp_path):
    games = pl.read_parquet(fake_run / "games")
    picks = {g["what"]: g for g in games_to_watch(Run.open(fake_run))}
    assert picks["the longest game"]["length"] == games["length"].max()
    nobody = picks["a game nobody won"]["game_index"]
    assert games.filter(pl.col("game_index") == nobody)["winner"][0] is None
    comeback = games.filter(pl.col("game_index") == picks["a comeback"]["game_index"])
    assert comeback["half_leader"][0] != comeback["winner"][0] is not None
    write_report([fake_run], tmp_path / "report.md")
    text = (tmp_path / "report.md").read_text()
    assert "Games to watch" in text
    command = picks["a game nobody won"]["command"]
    assert command in text
    code, out, _ = call(capsys, *command.split()[1:])
    assert code == 0 and "result: no winner" in out


def test_games_says_which_games_replay(capsys):
    code, out, _ = call(capsys, "games", "--json")
    assert code == 0
    replays = {g["id"]: g["replay"] for g in json.loads(out)}
    assert replays["fake"] is True and replays["pirateer"] is True


def test_a_win_on_a_lower_score_says_why(fake_run, monkeypatch):
    from dataclasses import replace

    replay = replay_run(fake_run, next(i for i in range(40) if _row(fake_run, i)["winner"] == 1))
    assert "lower score" not in replay.result_line()  # the fake game's winner scores 1, others 0
    lower = replay.row.with_columns(pl.Series("scores", [[5, 4]]))
    line = replace(replay, row=lower).result_line()
    assert line.endswith("Seat 2 wins with a lower score: the game's end rule decides")
    monkeypatch.setitem(fake.SPEC.end_notes, "won", "the last one standing wins")
    assert replace(replay, row=lower).result_line().endswith(": the last one standing wins")


def test_the_report_says_how_often_and_why_a_lower_score_wins(fake_run):
    from analyses.length import end_reasons
    from reports.run_sections import _end_section

    rows = {r["end_reason"]: r for r in end_reasons(Run.open(fake_run))}
    assert rows["won"]["lower_score_wins"] == 0 and rows["won"]["games"] > 0
    ended = [{"end_reason": "won", "games": 10, "lower_score_wins": 4, "value": 1.0, "lo": 0.7,
              "hi": 1.0}]  # fmt: skip
    summary = {"end_reasons": ended}
    section = _end_section([summary], {id(summary): "run"}, {"won": "the last one standing wins"})
    assert section.paragraphs[1] == (
        "In 4 of the 10 games ended by 'won' (40.0%) the winner scored less than another seat: "
        "the last one standing wins."
    )
