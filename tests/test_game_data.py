"""Named data files (``balance data``, ``--data NAME=FILE``, a variant's ``[data]`` table).

Every bad file is one line naming the file and the line or field, exit 2, nothing written; a
replaced file is recorded in the manifest (SHA-256 and text), changes the games, and an
equivalent copy of the shipped file plays the shipped games exactly.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import cli
from simulator.contract.game_data import DataSource
from simulator.contract.registry import get_game
from simulator.contract.rules import build_rules
from simulator.folders.run_folder import load_run
from simulator.games.cape_horn import board as CH
from simulator.games.cape_horn.rules import Rules as CapeRules
from simulator.games.pedruscos import board as PB
from simulator.games.pedruscos.rules import Rules as PedRules
from simulator.runs.plan import plan_run, play_chunk

SHIPPED_CARDS = CH.DATA_FILES[3].shipped.text
SHIPPED_BOARD = PB.DATA_FILES[0].shipped.text


def _cli(*args: object) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        with pytest.raises(SystemExit) as exc:
            cli.app(list(map(str, args)))
    return exc.value.code, out.getvalue()


def _refused(*args: object) -> str:
    """The one line a refused command prints (exit 2)."""
    code, output = _cli(*args)
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in output, output
    return lines[0]


def _edit_cards(tmp_path: Path, old: str, new: str, name: str = "cards.csv") -> Path:
    assert old in SHIPPED_CARDS
    path = tmp_path / name
    path.write_text(SHIPPED_CARDS.replace(old, new))
    return path


def _board(tmp_path: Path, edit, name: str = "board.json") -> Path:
    data = json.loads(SHIPPED_BOARD)
    edit(data["cells"])
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


# -- the shipped files ------------------------------------------------------------------------
def test_every_file_under_data_is_declared():
    for game in ("cape-horn", "pedruscos", "crew-deep-sea"):
        spec = get_game(game)
        folder = Path(spec.rules_class.data_files[0].folder)
        files = {f.file for f in spec.rules_class.data_files}
        assert files == {p.name for p in folder.iterdir() if p.is_file()}
        options = {o.name for o in spec.rules_class.options()}
        assert not options & {f.name for f in spec.rules_class.data_files}
    for game in ("pirateer", "caza-tesoros"):
        assert not get_game(game).rules_class.data_files
        assert get_game(game).rules_class.data_note


def test_the_shipped_pedruscos_file_is_the_generated_board():
    from_file = PB.board_from_file(PB.DATA_FILES[0].shipped, "skip", "beside")
    generated = PB.build_board()
    for name in generated.arrays._fields:
        assert np.array_equal(getattr(from_file.arrays, name), getattr(generated.arrays, name))
    assert from_file.neighbours == generated.neighbours
    assert np.allclose(from_file.x, generated.x, atol=1e-4)
    assert PB.board_json(PB.generate(), PB.ABOUT) == SHIPPED_BOARD


def test_data_lists_exports_and_keeps_an_existing_file(tmp_path):
    code, out = _cli("data", "cape-horn")
    assert code == 0 and "cards (cards.csv, reconstruction)" in out and "format: CSV" in out
    code, out = _cli("data", "pirateer")
    assert code == 0 and "board is in code" in out
    target = tmp_path / "mine.csv"
    assert _cli("data", "cape-horn", "cards", "--export", target)[0] == 0
    assert target.read_text() == SHIPPED_CARDS
    target.write_text("mine")
    line = _refused("data", "cape-horn", "cards", "--export", target)
    assert "already exists" in line and target.read_text() == "mine"
    assert "known: board, stations, starts, cards" in _refused("data", "cape-horn", "deck")


# -- bad files: one line, exit 2, nothing written ---------------------------------------------
def _bad_cape(tmp_path, name, text):
    path = tmp_path / f"bad-{name}"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    out = tmp_path / "run"
    line = _refused("simulate", "cape-horn", "-n", "10", "--data", f"{name}={path}", "--out", out)
    assert not out.exists()
    return line


BOARD_MAP = CH.DATA_FILES[0].shipped.text
STATIONS = CH.DATA_FILES[1].shipped.text
STARTS = CH.DATA_FILES[2].shipped.text


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("board", BOARD_MAP.replace("33333LLL1111111", "33333LXL1111111", 1), "unknown space 'X'"),
        ("board", BOARD_MAP.replace("FFFFF..........", "FFFFF........2.", 1), "not connected"),
        ("stations", STATIONS.replace("1,yellow,8,5", "1,purple,8,5"), "purple"),
        ("stations", STATIONS.replace("1,red,13,3", "1,red,6,3"), "is on land"),
        ("stations", STATIONS.replace("zone,colour", "zone,color"), "header lacks column 'colour'"),
        ("starts", STARTS.replace("1,12,-1,start_F1", "1,12,-1,F9"), "not a design"),
        ("starts", STARTS.replace("5,8,-1", "4,8,-1"), "start numbers are 1, 2, 3, 4, 4"),
        ("cards", SHIPPED_CARDS.replace("F3,14,", "F3,x,"), "count 'x' is not an integer"),
        ("cards", SHIPPED_CARDS.replace("F3,14,", "F3,-2,"), "count '-2' is not an integer from 0"),
        ("cards", SHIPPED_CARDS.replace("moves", "moves,cost", 1), "unknown column 'cost'"),
        ("cards", SHIPPED_CARDS.replace("0:3", "forward3"), "is not side:forward"),
        ("cards", "card,count,moves\nF3,0,0:3\n", "the deck needs at least one card"),
        ("cards", b"card,count,moves\nF\xe93,2,0:3\n", "not UTF-8"),
    ],
)  # fmt: skip
def test_a_bad_cape_horn_file_is_one_line_naming_file_and_line(tmp_path, name, text, words):
    line = _bad_cape(tmp_path, name, text)
    assert words in line and f"bad-{name}" in line


def test_a_deck_too_small_to_deal_is_refused(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text("card,count,moves\nF3,5,0:3\nstart_F1,0,0:1\nF2,0,0:2\nstart_F1D1,0,0:1\n")
    line = _refused(
        "simulate",
        "cape-horn",
        "-n",
        "10",
        "--players",
        "2",
        "--data",
        f"cards={path}",
        "--out",
        tmp_path / "run",
    )
    assert "small.csv" in line and "too small to deal 2 players 3 cards each" in line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda c: c[12].update(kind="comet"), "unknown cell kind 'comet'"),
        (lambda c: c[12]["links"].append(999), "a cell that does not exist"),
        (lambda c: c[12].update(colour="green"), "colour 'green'"),
        (lambda c: c[3].update(kind="moon"), "where a station is expected"),
        (lambda c: c[12].pop("links"), "lacks field 'links'"),
        (lambda c: c[12].update(x="left"), "x 'left' is not a number"),
    ],
)
def test_a_bad_pedruscos_board_is_one_line(tmp_path, edit, words):
    path = _board(tmp_path, edit)
    line = _refused("board", "pedruscos", "--data", f"board={path}", "--out", tmp_path / "b.png")
    assert words in line and "board.json" in line and "cell" in line
    assert not (tmp_path / "b.png").exists()


def test_a_board_not_connected_is_refused(tmp_path):
    def cut(cells):  # moon 1 (cell 7) loses both its links: nothing reaches it
        for c in cells:
            c["links"] = [j for j in c["links"] if j != 7]
        cells[7]["links"] = []

    path = _board(tmp_path, cut)
    line = _refused("simulate", "pedruscos", "-n", "10", "--data", f"board={path}",
                    "--out", tmp_path / "run")  # fmt: skip
    assert "not connected: cell 7 (moon)" in line and not (tmp_path / "run").exists()


def test_json_syntax_board_options_and_names(tmp_path):
    path = tmp_path / "b.json"
    path.write_text('{"cells": [\n{"id": 0,,}]}')
    assert "b.json:2: not JSON" in _refused("board", "pedruscos", "--data", f"board={path}",
                                             "--json")  # fmt: skip
    good = _board(tmp_path, lambda c: None, "good.json")
    line = _refused("board", "pedruscos", "--data", f"board={good}", "--set", "ring_length=5",
                    "--json")  # fmt: skip
    assert "ring_length shapes the generated board" in line
    line = _refused("simulate", "cape-horn", "--data", f"deck={good}", "--out", tmp_path / "r")
    assert "unknown data name 'deck'" in line and "known: board, stations, starts, cards" in line
    line = _refused("simulate", "pedruscos", "--data", f"board={tmp_path / 'nope.json'}",
                    "--out", tmp_path / "r")  # fmt: skip
    assert "no such file" in line and "nope.json" in line
    line = _refused("simulate", "pedruscos", "--data", f"board={tmp_path}", "--out", tmp_path / "r")
    assert "is a folder" in line
    line = _refused("simulate", "pedruscos", "--data", "board", "--out", tmp_path / "r")
    assert "NAME=FILE" in line
    assert not (tmp_path / "r").exists()


def test_a_variant_data_table_pointing_nowhere_is_refused(tmp_path):
    toml = tmp_path / "v.toml"
    toml.write_text('name = "my deck"\n[data]\ncards = "missing.csv"\n')
    line = _refused("simulate", "cape-horn", "--variant", toml, "--out", tmp_path / "r")
    assert "[data] cards=" in line and "missing.csv" in line and "no such file" in line


def test_crew_files_are_checked(tmp_path):
    from simulator.games.crew_deep_sea.board import DATA_FILES

    tasks = DATA_FILES[0].shipped.text
    bad = tmp_path / "tasks.csv"
    bad.write_text(tasks.replace(",win_cards,cards=P3,", ",win_card,cards=P3,", 1))
    line = _refused("replay", "crew-deep-sea", "--seed", "1", "--data", f"tasks={bad}")
    assert "tasks.csv:2: unknown condition_type 'win_card'" in line
    bad.write_text(tasks.replace(",win_cards,cards=P3,", ",win_cards,card=P3,", 1))
    assert "do not fit condition_type" in _refused(
        "replay", "crew-deep-sea", "--seed", "1", "--data", f"tasks={bad}"
    )
    missions = DATA_FILES[1].shipped.text
    bad = tmp_path / "missions.csv"
    bad.write_text(missions.replace("\n5,5,", "\n5,500,", 1))
    assert "target_difficulty '500'" in _refused(
        "replay", "crew-deep-sea", "--seed", "1", "--data", f"missions={bad}"
    )


# -- replaced files in runs -------------------------------------------------------------------
def _columns(config) -> pl.DataFrame:
    return play_chunk(config, 0, 0, 40).drop("variant")


def test_an_equivalent_copy_of_the_shipped_files_plays_the_shipped_games(tmp_path):
    cards = tmp_path / "cards.csv"
    cards.write_text("# the shipped deck, re-typed\n" + SHIPPED_CARDS.replace(",", ", "))
    base = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=3)
    mine = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=3,
                    data=[f"cards={cards}"])  # fmt: skip
    assert mine.rules.data and mine.rules != base.rules  # a replacement, parsed
    assert _columns(mine).equals(_columns(base))
    board = tmp_path / "board.json"
    board.write_text(json.dumps(json.loads(SHIPPED_BOARD), indent=1))
    base = plan_run("pedruscos", 40, players=2, policies=["lookahead"], seed=3)
    mine = plan_run("pedruscos", 40, players=2, policies=["lookahead"], seed=3,
                    data=[f"board={board}"])  # fmt: skip
    assert mine.rules.data and _columns(mine).equals(_columns(base))


def test_an_edited_deck_and_board_change_the_games(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,30,")
    base = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=3)
    mine = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=3,
                    data=[f"cards={cards}"])  # fmt: skip
    assert mine.rules.card_counts[0] == 30 and mine.rules.changed() == {"cards": "cards.csv"}
    assert not _columns(mine).equals(_columns(base))

    def move_station(cells):  # station 3's spoke now ends at station 2: a new board
        cells[3]["links"] = [j for j in cells[3]["links"] if j != 21]
        cells[21]["links"] = [2 if j == 3 else j for j in cells[21]["links"]]
        cells[2]["links"].append(21)

    board = _board(tmp_path, move_station)
    base = plan_run("pedruscos", 40, players=2, policies=["lookahead"], seed=3)
    mine = plan_run("pedruscos", 40, players=2, policies=["lookahead"], seed=3,
                    data=[f"board={board}"])  # fmt: skip
    assert not _columns(mine).equals(_columns(base))


def test_a_replaced_deck_sets_the_card_counts_default(tmp_path):
    cards = tmp_path / "two.csv"
    cards.write_text(SHIPPED_CARDS + "F4,6,0:4\n")
    rules, name = build_rules(CapeRules, data=[f"cards={cards}"])
    assert rules.card_counts[-1] == 6 and len(rules.card_counts) == 12
    assert name == "cards=two.csv" and rules.changed() == {"cards": "two.csv"}
    rules, _ = build_rules(
        CapeRules, data=[f"cards={cards}"], sets=["card_counts=" + "1," * 11 + "1"]
    )
    assert rules.changed()["card_counts"] == [1] * 12


def test_manifest_resume_and_repair(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,20,")
    out = tmp_path / "run"
    args = ["simulate", "cape-horn", "-n", "60", "--chunk-size", "20", "--players", "2",
            "-p", "planner", "--data", f"cards={cards}", "--out", out, "-j", "1", "-q"]  # fmt: skip
    assert _cli(*args)[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    sha = DataSource("cards", cards.read_text()).sha256
    assert manifest["config"]["data"] == {"cards": sha}
    assert manifest["data"]["cards"] == {
        "path": str(cards),
        "sha256": sha,
        "text": cards.read_text(),
    }
    assert manifest["rules_changed"] == {"cards": "cards.csv"}
    whole = load_run(out).sort("game_index").collect()
    cards.write_text(cards.read_text().replace("F3,20,", "F3,21,"))
    line = _refused(*args)
    assert "another content of data file cards" in line
    (out / "games" / "part-00001.parquet").unlink()
    cards.unlink()  # verify --repair needs only the manifest
    code, output = _cli("verify", "--repair", out, "-j", "1")
    assert code == 0, output
    assert load_run(out).sort("game_index").collect().equals(whole)
    code, output = _cli("replay", out, "--game-index", "5")
    assert code == 0 and "cards=cards.csv" in output


def test_variant_data_table_and_compare_labels(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,20,", "deck20.csv")
    toml = tmp_path / "deck.toml"
    toml.write_text('name = "deck20"\n[data]\ncards = "deck20.csv"\n[rules]\nstart_hand = 2\n')
    rules, name = build_rules(CapeRules, variant=toml)
    assert name == "deck20" and rules.card_counts[0] == 20 and rules.start_hand == 2
    out = tmp_path / "cmp"
    code, output = _cli(
        "compare",
        "cape-horn",
        "--variant",
        toml,
        "--data",
        f"cards={cards}",
        "-n",
        "40",
        "--players",
        "2",
        "-p",
        "planner",
        "--out",
        out,
        "-j",
        "1",
        "--json",
    )
    assert code == 0, output
    study = json.loads((out / "study.json").read_text())
    assert [r["label"] for r in study["runs"]] == ["default", "deck20", "cards=deck20.csv"]
    assert study["runs"][2]["params"] == {"cards": "deck20.csv"}
    assert "cards=deck20.csv" in (out / "report.html").read_text()


def test_board_draws_the_edited_board(tmp_path):
    def drop_chord(cells):  # the 2-6 chord (cells 94..101) loses its link to station 6
        cells[6]["links"].remove(101)
        cells[101]["links"].remove(6)

    path = _board(tmp_path, drop_chord)
    code, out = _cli("board", "pedruscos", "--data", f"board={path}", "--json")
    assert code == 0
    cells = json.loads(out)["cells"]
    assert 101 not in cells[6]["neighbours"] and 6 not in cells[101]["neighbours"]
    shipped = PB.board_of(PedRules())
    assert 101 in shipped.neighbours[6]


def test_a_deck_file_with_other_counts_plays_as_the_card_counts_rule(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,20,")
    counts = ",".join(map(str, (20, *CapeRules().card_counts[1:])))
    by_file = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=5,
                       data=[f"cards={cards}"])  # fmt: skip
    by_rule = plan_run("cape-horn", 40, players=2, policies=["planner"], seed=5,
                       sets=[f"card_counts={counts}"])  # fmt: skip
    assert _columns(by_file).equals(_columns(by_rule))


def test_a_design_plays_the_designer_deck_and_its_variant_files_carry_it(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,20,", "deck20.csv")
    out = tmp_path / "design"
    code, output = _cli(
        "design",
        "cape-horn",
        "--data",
        f"cards={cards}",
        "--param",
        "start_hand=1:6",
        "--target",
        "draw<=50%",
        "--trials",
        "4",
        "-n",
        "40",
        "--check-settings",
        "1",
        "--players",
        "2",
        "-p",
        "racer",
        "--out",
        out,
        "-j",
        "1",
        "--json",
    )
    assert code == 0, output
    data = json.loads(output)
    assert data["default"]["rules"]["cards"] == "deck20.csv"
    run = json.loads((out / "trials" / "000" / "run" / "manifest.json").read_text())
    assert run["config"]["data"] == {"cards": DataSource("cards", cards.read_text()).sha256}
    variant = Path(data["variant_file"])
    rules, _ = build_rules(CapeRules, variant=variant)
    assert rules.card_counts[0] == 20 and rules.source("cards").path == str(cards.resolve())
    assert rules.start_hand == data["best"]["values"]["start_hand"]
    line = _refused(
        "design",
        "cape-horn",
        "--data",
        "deck=x.csv",
        "--param",
        "start_hand=2:4",
        "--target",
        "draw<=50%",
        "--out",
        tmp_path / "bad",
    )
    assert "unknown data name 'deck'" in line and not (tmp_path / "bad").exists()


def test_an_explore_screens_around_the_designer_deck(tmp_path):
    cards = _edit_cards(tmp_path, "F3,14,", "F3,20,", "deck20.csv")
    out = tmp_path / "explore"
    code, output = _cli(
        "explore",
        "cape-horn",
        "--data",
        f"cards={cards}",
        "--options",
        "start_hand,twice_cost",
        "-r",
        "2",
        "-n",
        "20",
        "--players",
        "2",
        "-p",
        "racer",
        "--out",
        out,
        "-j",
        "1",
        "--quiet",
    )
    assert code == 0, output
    sha = DataSource("cards", cards.read_text()).sha256
    points = sorted(out.glob("point-*/manifest.json"))
    assert points and all(
        json.loads(p.read_text())["config"]["data"] == {"cards": sha} for p in points
    )
