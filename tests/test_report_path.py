"""`balance report RUN` writes RUN/report.html (report.md with --format md) unless --out names
the file; several runs write report.html in the current folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import cli

PIG = str(Path(__file__).resolve().parents[1] / "examples" / "pig.py")


def call(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        cli.app(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_a_report_is_written_beside_its_run_unless_out_says_otherwise(tmp_path, capsys,
                                                                      monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    for name, seed in (("a", 0), ("b", 1)):
        code, _, err = call(capsys, "simulate", PIG, "-n", "20", "--seed", seed, "--out",
                            tmp_path / name, "-j", 1)  # fmt: skip
        assert code == 0, err
    code, out, _ = call(capsys, "report", tmp_path / "a")
    assert code == 0 and out.strip().endswith(f"report: {tmp_path / 'a' / 'report.html'}")
    code, out, _ = call(capsys, "report", tmp_path / "a", "-f", "md")
    assert code == 0 and (tmp_path / "a" / "report.md").is_file()
    code, out, _ = call(capsys, "report", tmp_path / "a", "--out", tmp_path / "elsewhere.html")
    assert code == 0 and (tmp_path / "elsewhere.html").is_file()
    code, out, err = call(capsys, "report", tmp_path / "a", tmp_path / "b")
    assert code == 0, err
    assert (tmp_path / "report.html").is_file()
    code, out, err = call(capsys, "verify", tmp_path / "a")
    assert code == 0, err  # the report beside the parts is no damage


def test_a_report_of_an_unfinished_run_says_so_first(tmp_path, capsys):
    import json

    run = tmp_path / "r"
    code, _, err = call(capsys, "simulate", PIG, "-n", "40", "--chunk-size", "10", "--out", run,
                        "-j", 1)  # fmt: skip
    assert code == 0, err
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["finished"]  # as a run whose command was stopped leaves it
    (run / "manifest.json").write_text(json.dumps(manifest))
    (run / "games" / "part-00003.parquet").unlink()
    code, out, err = call(capsys, "report", run)
    assert code == 0, err
    assert out.splitlines()[0] == (
        "- This run is unfinished: 30 of 40 games played, the command that wrote it stopped "
        "before the end. Every figure here is of the games played so far; the same command "
        "finishes the run."
    )


def test_game_is_a_game_id_or_a_game_file(capsys):
    code, out, _ = call(capsys, "simulate", "--help")
    assert code == 0 and "game file's path" in " ".join(out.split())
