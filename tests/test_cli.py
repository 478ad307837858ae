"""The command line: listings, simulate --json, and one-line errors with exit code 2."""

import json
import re

import pytest

import cli


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_games_lists_player_range_policies_and_length_unit(capsys):
    code, out, _ = call(capsys, "games", "--json")
    assert code == 0
    fake = next(g for g in json.loads(out) if g["id"] == "fake")
    assert fake["players"] == [2, 6]
    assert fake["policies"] == ["random", "strong"]
    assert fake["length_unit"] == "rounds"


def test_rules_table_and_json(capsys):
    code, out, _ = call(capsys, "rules", "fake", "--json")
    assert code == 0
    draw = next(o for o in json.loads(out) if o["name"] == "draw")
    assert (draw["default"], draw["lo"], draw["hi"]) == (0.0, 0.0, 1.0)
    code, out, _ = call(capsys, "rules", "fake")
    assert code == 0 and "extra_length" in out and "probability nobody wins" in out


def test_simulate_json_headline(capsys, tmp_path):
    code, out, _ = call(
        capsys,
        "simulate",
        "fake",
        "-n",
        1000,
        "--players",
        2,
        "--seed",
        4,
        "--set",
        "draw=0.1",
        "--jobs",
        1,
        "--out",
        tmp_path / "r",
        "--json",
    )
    assert code == 0
    s = json.loads(out)
    assert set(s) == {
        "game",
        "games",
        "seed",
        "n_players",
        "policies",
        "win_rate",
        "success_rate",
        "shared_win_rate",
        "no_winner_rate",
        "draw_rate",  # the old name of no_winner_rate, kept for one version
        "estimates",
        "mean_length",
        "length_unit",
        "out",
        "degenerate",
    }
    assert s["degenerate"] == []
    assert s["games"] == 1000 and s["n_players"] == 2 and s["success_rate"] is None
    assert sum(s["win_rate"]) + s["no_winner_rate"] == pytest.approx(1.0)
    assert 0.05 < s["no_winner_rate"] < 0.15 and s["draw_rate"] == s["no_winner_rate"]
    assert s["shared_win_rate"] == 0 and s["estimates"]["shared_win_rate"]["value"] == 0
    est = s["estimates"]
    assert [e["value"] for e in est["win_rate"]] == s["win_rate"]
    assert est["no_winner_rate"]["lo"] < s["no_winner_rate"] < est["no_winner_rate"]["hi"]
    assert 14 < s["mean_length"] < 16  # 10 + geometric extra with mean 5


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "nope"], "unknown game 'nope'"),
        (["simulate", "fake", "-p", "bogus"], "unknown policy 'bogus'"),
        (["simulate", "fake", "-p", "strong:x=1"], "unknown parameter 'x' for policy 'strong'"),
        (["simulate", "fake", "--set", "zzz=1"], "unknown rule 'zzz' for fake"),
        (["simulate", "fake", "--set", "cap=lots"], "rule 'cap' got 'lots'"),
        (["simulate", "fake", "--set", "draw=2"], "out of bounds"),
        (["simulate", "fake", "--players", "7"], "played by 2 to 6 players, not 7"),
        (["simulate", "fake", "-n", "many"], "--games expects a whole number, got 'many'"),
        (["simulate", "fake", "--seed", "abc"], "--seed expects a whole number, got 'abc'"),
        (["simulate", "fake", "--seed=1.5"], "--seed expects a whole number, got '1.5'"),
        (
            ["simulate", "fake", "--set", "bais=1"],
            "unknown rule 'bais' for fake; did you mean 'bias'?",
        ),
        (["simulate", "fake", "--variant", "missing.toml"], "does not exist"),
        (["rules", "nope"], "unknown game 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args, words):
    code, out, err = (
        call(capsys, *args, "--out", tmp_path / "r")
        if args[0] == "simulate"
        else call(capsys, *args)
    )
    assert code == 2
    assert words in err
    assert err.count("\n") == 1 and err.startswith("balance: error: ")
    assert "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_malformed_variant_file(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\nbias = 1")
    code, _, err = call(capsys, "simulate", "fake", "--variant", bad, "--out", tmp_path / "r")
    assert code == 2 and "is not valid TOML" in err and err.count("\n") == 1


def test_out_file_and_other_configuration_leave_files_untouched(capsys, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("precious")
    code, _, err = call(capsys, "simulate", "fake", "--out", f)
    assert code == 2 and "is a file" in err and f.read_text() == "precious"

    run_dir = tmp_path / "run"
    assert call(capsys, "simulate", "fake", "-n", 300, "-j", 1, "-q", "--out", run_dir)[0] == 0
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    code, _, err = call(
        capsys, "simulate", "fake", "-n", 300, "-j", 1, "--seed", 8, "--out", run_dir
    )
    assert code == 2 and "another configuration (differs in seed)" in err
    assert {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()} == before


def test_help_teaches(capsys):
    code, out, _ = call(capsys, "simulate", "--help")
    assert code == 0
    for words in ("--policy", "mcts:playouts=400", "--set", "--variant", "resume"):
        assert words in out


@pytest.mark.parametrize("command", ["simulate", "explore", "compare"])
def test_the_policy_example_in_help_is_accepted(capsys, command):
    from simulator.cli.options import POLICY_EXAMPLE
    from simulator.contract.policy import parse_policy
    from simulator.contract.registry import available, get_game

    code, out, _ = call(capsys, command, "--help")
    assert code == 0 and POLICY_EXAMPLE in " ".join(out.replace("│", " ").split())
    name = POLICY_EXAMPLE.split(":")[0]
    specs = [get_game(g) for g in available() if name in get_game(g).policies]
    assert len(specs) >= 3
    for spec in specs:
        parse_policy(POLICY_EXAMPLE, spec.policies, spec.id)  # refused with BalanceError if not


def test_until_ci_says_how_many_games_it_took(capsys, tmp_path):
    code, out, _ = call(
        capsys, "simulate", "fake", "-n", 20000, "--until-ci", 0.2, "-j", 1, "--out", tmp_path / "a"
    )
    assert code == 0
    games = json.loads((tmp_path / "a" / "manifest.json").read_text())["games_played"]
    assert games < 20000
    assert f"--until-ci 0.2: every interval that narrow after {games:,} games" in out
    code, out, _ = call(
        capsys, "simulate", "fake", "-n", 500, "--until-ci", 0.001, "-j", 1, "--out", tmp_path / "b"
    )
    assert code == 0 and "--until-ci 0.001: not reached within the 500 games of -n" in out


def test_board_json_and_picture(capsys, tmp_path):
    code, out, _ = call(capsys, "board", "caza-tesoros", "--json")
    board = json.loads(out)
    assert code == 0 and board["game"] == "caza-tesoros" and board["shape"] == "hex"
    assert len(board["cells"]) == 324 and board["counts"] == {"sea": 324}
    corner = board["cells"][0]
    assert corner["label"] == "1,1" and sorted(corner["neighbours"]) == [1, 18]
    picture = tmp_path / "fake.png"
    code, out, _ = call(capsys, "board", "fake", "--out", picture, "--ids")
    assert code == 0 and picture.read_bytes()[:4] == b"\x89PNG"
    assert "9 cells (6 home, 3 sea)" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["board", "fake"], "--out board.png"),
        (["board", "fake", "--out", "{tmp}/no/such/folder/b.png"], "does not exist"),
        (["board", "fake", "--out", "{tmp}/b.txt"], ".png, .svg or .pdf"),
        (["board", "nosuchgame", "--json"], "unknown game"),
        (["board", "fake", "--set", "cap=0", "--json"], "cap"),
    ],
)
def test_board_bad_input_is_one_line(capsys, tmp_path, args, words):
    code, _, err = call(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_simulate_says_when_seats_play_different_policies(capsys, tmp_path):
    """The report's caveat, in the terminal too: a seat's rate is its policy's as well."""
    code, out, _ = call(capsys, "simulate", "fake", "--players", "2", "-p", "strong", "-p",
                        "random", "-n", "50", "--out", tmp_path / "r", "--jobs", "1")  # fmt: skip
    assert code == 0
    assert "seats play different policies (seat 1 strong, seat 2 random)" in out


def test_simulate_and_report_say_a_run_is_degenerate(capsys, tmp_path):
    """Nobody wins and every game ends alike: the report's headline and the terminal say so."""
    code, out, _ = call(capsys, "simulate", "fake", "--set", "draw=1", "--set", "extra_length=0",
                        "-n", "50", "--out", tmp_path / "r", "--jobs", "1")  # fmt: skip
    assert code == 0
    said = re.search(r"a degenerate run: nobody won any of its 50 games; every game ended the "
                     r"same way \((\S+) after 10 (\w+)\)", out)  # fmt: skip
    assert said, out
    code, out, _ = call(capsys, "report", tmp_path / "r", "--out", tmp_path / "r.md", "-f", "md")
    assert code == 0
    assert f"- A degenerate run: nobody won any of its 50 games; every game ended the same way " \
           f"({said[1]} after 10 {said[2]})." in out  # fmt: skip
    code, out, _ = call(capsys, "simulate", "fake", "-n", "50", "--out", tmp_path / "v", "-j", "1")
    assert code == 0 and "degenerate" not in out
    code, out, _ = call(capsys, "compare", "fake", "--set", "draw=1", "-n", "50", "--out",
                        tmp_path / "c", "-j", "1", "-f", "md")  # fmt: skip
    assert code == 0 and "- draw=1: A degenerate run: nobody won any of its 50 games." in out


def test_the_games_own_commands_are_the_ones_their_specs_declare(capsys):
    from simulator.contract.registry import GAME_MODULES, game_commands, get_game

    declared = [c for g in GAME_MODULES for c in get_game(g).commands]
    assert all(c.startswith("simulator.cli.commands.") for c in declared)
    assert [f"{f.__module__}:{f.__name__}" for f in game_commands()] == declared
    code, out, _ = call(capsys, "--help")
    assert code == 0
    assert all(f.__name__.replace("_", "-") in out for f in game_commands())


def test_a_built_in_command_runs_without_importing_the_games_commands(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys, cli\n"
        "try:\n"
        f"    cli.app(['verify', {str(tmp_path / 'nowhere')!r}])\n"
        "except SystemExit as exc:\n"
        "    own = [m for m in sys.modules if m.startswith('simulator.cli.commands.')]\n"
        "    print(exc.code, any(m != 'simulator.cli.commands.check_game' for m in own))\n"
    )
    root = Path(cli.__file__).parent
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True)
    assert done.stdout.split() == ["2", "False"], done.stderr
