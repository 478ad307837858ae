"""The word before an engine's first compile in a version: said once, with the time it took."""

from __future__ import annotations

from simulator.compiling import first_compile
from simulator.runs.plan import plan_run
from simulator.runs.runner import simulate


def test_first_compile_is_announced_once_per_version_with_its_time(tmp_path, monkeypatch, capsys):
    version = {"folder": tmp_path / "numba-v1"}
    monkeypatch.setattr(first_compile, "cache_folder", lambda: version["folder"])
    monkeypatch.setattr(first_compile, "cache_root", lambda: tmp_path)
    monkeypatch.setattr(first_compile, "REAL_COMPILE_S", 0.0)  # the test engine compiles fast
    simulate("fake", 50, tmp_path / "a", jobs=1, progress=True)
    err = capsys.readouterr().err
    assert "compiling the fake engine for this version of balance, once" in err
    assert "usually 10 s to 1 min" in err and "compiled in" in err
    simulate("fake", 50, tmp_path / "b", jobs=1, progress=True)
    assert "compiling" not in capsys.readouterr().err  # compiled in this version: silent
    version["folder"] = tmp_path / "numba-v2"  # the sources changed
    simulate("fake", 50, tmp_path / "c", jobs=1, progress=True)
    assert "s last time" in capsys.readouterr().err


def test_a_quiet_command_compiles_without_a_word(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(first_compile, "cache_folder", lambda: tmp_path / "numba-v1")
    monkeypatch.setattr(first_compile, "cache_root", lambda: tmp_path)
    simulate("fake", 50, tmp_path / "a", jobs=1)  # --quiet and --json turn progress off
    assert "compil" not in capsys.readouterr().err
    assert (tmp_path / "numba-v1" / "compiled" / "fake").is_file()


def test_search_player_and_policy_files_are_compiled_combinations_of_their_own():
    from pathlib import Path

    from simulator.runs.policy_file import read_policy_file

    assert first_compile.compiled_what(plan_run("fake", 10)) == ("fake", "the fake engine")
    search = plan_run("pirateer", 10, policies=["mcts"])
    assert first_compile.compiled_what(search) == (
        "pirateer-search",
        "the pirateer engine with the search player",
    )
    path = Path(__file__).parent / "policy_files" / "pirateer_runner_copy.py"
    own = plan_run("pirateer", 10, policy_file=read_policy_file(path))
    key, words = first_compile.compiled_what(own)
    assert key.startswith("pirateer-policy-file-") and words.endswith(f"policies of {path}")


def test_a_replay_is_a_combination_of_its_own_where_the_recording_compiles_apart():
    """Pedruscos's runs compile no recording, so its replays compile (and are announced) apart;
    a game whose runs carry the recording buffer replays with what its runs compiled."""
    ped = plan_run("pedruscos", 10)
    assert first_compile.compiled_what(ped) == ("pedruscos", "the pedruscos engine")
    assert first_compile.compiled_what(ped, replay=True) == (
        "pedruscos-replay",
        "the pedruscos engine with its recording",
    )
    pirateer = plan_run("pirateer", 10)
    assert first_compile.compiled_what(pirateer, replay=True) == first_compile.compiled_what(
        pirateer
    )


def test_the_wait_ticks_on_a_log_too(monkeypatch, capsys):
    """Off a terminal the elapsed time is a line every QUIET_LINE_S seconds, naming the wait."""
    import time

    monkeypatch.setattr(first_compile, "QUIET_LINE_S", 0.05)
    with first_compile.ticking(time.perf_counter(), lambda: "compiling the fake engine"):
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 2 and all(
        x.startswith("balance: compiling the fake engine... ") for x in lines
    )


def test_a_finished_run_says_it_is_reused(tmp_path, capsys):
    out = tmp_path / "a"
    simulate("fake", 50, out, jobs=1, progress=True, chunk_size=10)
    assert "reused" not in capsys.readouterr().err
    simulate("fake", 50, out, jobs=1, progress=True, chunk_size=10)
    assert f"balance: reused: {out} already holds these 50 games" in capsys.readouterr().err
    (out / "games" / "part-00002.parquet").unlink()
    simulate("fake", 50, out, jobs=1, progress=True, chunk_size=10)
    assert f"balance: resuming: {out} already holds 40 of these 50 games" in capsys.readouterr().err
    simulate("fake", 50, out, jobs=1, chunk_size=10)  # quiet: not a word
    assert "reused" not in capsys.readouterr().err
