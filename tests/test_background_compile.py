"""Compiles in a background process (``simulator/compiling/background_compile.py``): a run's first
games played interpreted beside it (``interpreted_start.py``), a search's fit beside it, and a
second command waiting for it instead of compiling twice.

The compile is replaced by stand-ins (a process that sleeps, one that marks the engine compiled,
one that fails), so these tests never compile; the games are real, interpreted and compiled.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys

import cloudpickle
import pytest

from simulator.compiling import background_compile, interpreted_start
from simulator.compiling.compile_job import compile_run
from simulator.compiling.first_compile import compiled_what, needs_compile, running_pid
from simulator.compiling.jit import cache_folder
from simulator.folders.run_folder import load_run
from simulator.runs.plan import plan_run
from simulator.runs.runner import run

GAME = "caza-tesoros"  # quick interpreted: about 40 games a second


@pytest.fixture
def cold(tmp_path, monkeypatch):
    """A cache root without the compiled markers (the engines' code stays warm in this
    process: numba's folder was fixed at import) and the switch on."""
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv(background_compile.SWITCH, "1")
    yield tmp_path
    _retire_loky_workers()


def _retire_loky_workers() -> None:
    """joblib keeps its loky workers for the next run; workers started under this test's cache
    root read numba's cache from there, so a later test's run would compile again in them."""
    from joblib.externals.loky import reusable_executor

    executor = reusable_executor._executor
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


def _config(games: int = 24, chunk_size: int = 3):
    return plan_run(GAME, games, players=2, seed=5, chunk_size=chunk_size)


def _compiled_rows(tmp_path, config):
    os.environ[background_compile.SWITCH] = "0"
    try:
        return load_run(run(config, tmp_path / "compiled", jobs=2).path).collect().sort("game")
    finally:
        os.environ[background_compile.SWITCH] = "1"


def _stand_in(monkeypatch, code: str) -> None:
    monkeypatch.setattr(
        background_compile, "compile_command", lambda job: [sys.executable, "-c", code]
    )


def _marks_compiled(marker, after: float) -> str:
    """A stand-in compile: marks the engine compiled after ``after`` seconds."""
    return f"import time, pathlib; time.sleep({after}); pathlib.Path({str(marker)!r}).touch()"


def test_every_game_plays_interpreted_when_the_compile_outlasts_the_run(cold, monkeypatch, capfd):
    _stand_in(monkeypatch, "import time; time.sleep(300)")
    config = _config()
    assert interpreted_start.wanted(config, config.chunks(), jobs=2)
    rows = load_run(run(config, cold / "run", jobs=2, progress=True).path).collect()
    err = capfd.readouterr().err
    assert "the first games play meanwhile, interpreted" in err
    assert "keeps compiling in the background" in err
    pid_file = cache_folder() / "compiling" / f"{compiled_what(config)[0]}.pid"
    pid = running_pid(pid_file)
    assert pid is not None  # the compile goes on after the command
    os.kill(pid, signal.SIGTERM)
    assert rows.sort("game").equals(_compiled_rows(cold, config))


def test_the_rest_plays_compiled_once_the_compile_is_done(cold, monkeypatch):
    config = _config(games=600)
    marker = cache_folder() / "compiled" / compiled_what(config)[0]
    _stand_in(monkeypatch, _marks_compiled(marker, after=4))
    marker.parent.mkdir(parents=True, exist_ok=True)
    parts = interpreted_start.play_while_compiling(config, config.chunks(), 2, "run", notice=False)
    interpreted = []
    try:
        while True:
            interpreted.append(next(parts)[0])
    except StopIteration as stop:
        left = stop.value
    assert interpreted and left  # some chunks each way, none twice, none lost
    assert sorted(interpreted + [c[0] for c in left]) == [c[0] for c in config.chunks()]
    assert not needs_compile(config)


def test_a_run_split_between_both_engines_has_the_compiled_rows(cold, monkeypatch):
    config = _config(games=600)
    marker = cache_folder() / "compiled" / compiled_what(config)[0]
    marker.parent.mkdir(parents=True, exist_ok=True)
    _stand_in(monkeypatch, _marks_compiled(marker, after=4))
    rows = load_run(run(config, cold / "run", jobs=2).path).collect().sort("game")
    assert rows.equals(_compiled_rows(cold, config))


def test_few_games_left_after_the_compile_play_in_this_process(cold, monkeypatch):
    """Starting workers takes seconds, more than a few hundred compiled games: the chunks left
    when the compile ends play here when they hold at most ``MAX_CHUNK_GAMES`` games."""
    most = interpreted_start.MAX_CHUNK_GAMES
    assert interpreted_start.few_left([(0, 0, most - 1), (1, most - 1, 1)])
    assert not interpreted_start.few_left([(0, 0, most), (1, most, 1)])
    import joblib  # the runner imports its Parallel when it starts workers

    pools = []
    real_parallel = joblib.Parallel
    monkeypatch.setattr(joblib, "Parallel", lambda **kw: pools.append(kw) or real_parallel(**kw))
    config = _config(games=600)
    marker = cache_folder() / "compiled" / compiled_what(config)[0]
    marker.parent.mkdir(parents=True, exist_ok=True)
    _stand_in(monkeypatch, _marks_compiled(marker, after=4))
    rows = load_run(run(config, cold / "run", jobs=2).path).collect().sort("game")
    assert not pools  # the rest played here
    marker.unlink()
    many = _config(games=2000, chunk_size=100)  # far more than 1,000 games left after 4 s
    _stand_in(monkeypatch, _marks_compiled(marker, after=4))
    many_rows = load_run(run(many, cold / "many", jobs=2).path).collect().sort("game")
    assert pools  # the rest played by workers
    os.environ[background_compile.SWITCH] = "0"
    try:
        assert rows.equals(_compiled_rows(cold, config))
        assert many_rows.equals(load_run(run(many, cold / "many_compiled", jobs=2).path)
                                .collect().sort("game"))  # fmt: skip
    finally:
        os.environ[background_compile.SWITCH] = "1"


def test_a_failed_compile_leaves_the_run_to_compile_as_before(cold, monkeypatch, capfd):
    _stand_in(monkeypatch, "import sys; sys.exit(1)")
    config = _config()
    rows = load_run(run(config, cold / "run", jobs=2, progress=True).path).collect()
    assert rows.sort("game").equals(_compiled_rows(cold, config))
    assert "compiled in" in capfd.readouterr().err  # the run's own compile, said as before


def test_when_it_is_not_used(cold, monkeypatch):
    config = _config()
    chunks = config.chunks()
    assert not interpreted_start.wanted(config, chunks, jobs=1)  # no core to spare
    assert not interpreted_start.wanted(config, chunks[:1], jobs=2)  # one chunk
    big = _config(games=4000, chunk_size=2000)
    assert not interpreted_start.wanted(big, big.chunks(), jobs=2)  # minutes a chunk
    searching = plan_run(GAME, 24, players=2, policies=["mcts:playouts=4", "greedy"], fit=False)
    assert not interpreted_start.wanted(searching, searching.chunks(), jobs=2)
    monkeypatch.setenv(background_compile.SWITCH, "0")
    assert not interpreted_start.wanted(config, chunks, jobs=2)
    monkeypatch.setenv(background_compile.SWITCH, "1")
    marker = cache_folder() / "compiled" / compiled_what(config)[0]
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    assert not interpreted_start.wanted(config, chunks, jobs=2)  # compiled already


def test_the_compile_job_marks_the_engine_compiled_and_cleans_up(cold):
    config = _config()
    folder = cache_folder() / "compiling"
    folder.mkdir(parents=True)
    job = folder / "job.pickle"
    job.write_bytes(cloudpickle.dumps(config))
    pid_file = folder / f"{compiled_what(config)[0]}.pid"
    pid_file.write_text(str(os.getpid()))
    assert needs_compile(config)
    compile_run(job)  # the engine is in numba's cache already: this loads it
    assert not needs_compile(config)
    assert not job.exists() and not pid_file.exists()
    assert pickle.loads(cloudpickle.dumps(config)).chunks() == config.chunks()


def test_a_command_waits_for_a_compile_under_way_instead_of_compiling_twice(cold, capfd):
    """A process compiling the same key (its pid file) is waited for; when it marks the engine
    compiled, ``compile_notice`` loads instead of compiling (said once, no compile time kept)."""
    import subprocess

    from simulator.compiling.first_compile import compile_notice, pid_file

    config = _config()
    key = compiled_what(config)[0]
    marker = cache_folder() / "compiled" / key
    marker.parent.mkdir(parents=True, exist_ok=True)
    other = subprocess.Popen([sys.executable, "-c", _marks_compiled(marker, after=1.5)])
    pid_file(key).parent.mkdir(parents=True, exist_ok=True)
    pid_file(key).write_text(str(other.pid))
    ran = []
    with compile_notice(config):
        ran.append(marker.is_file())  # the body runs only once the other process is done
    other.wait()
    err = capfd.readouterr().err
    assert ran == [True]
    assert f"compiling in the background (process {other.pid})" in err
    assert "for this version of balance" not in err  # no compile of its own announced


def test_a_searching_run_starts_its_compile_before_its_fit(cold, monkeypatch):
    """``compile_while_fitting``: one background compile per compiled combination, of a
    configuration with a stand-in evaluation (what compiling needs), before any fit."""
    jobs = []
    monkeypatch.setattr(
        background_compile,
        "compile_command",
        lambda job: jobs.append(job.read_bytes()) or [sys.executable, "-c", "pass"],
    )
    search = ["mcts:playouts=4", "runner"]
    configs = [
        plan_run("pirateer", 8, players=2, policies=search, seed=s, fit=False) for s in (1, 2)
    ]
    assert all(c.unfitted for c in configs)
    background_compile.compile_while_fitting([*configs, _config()])  # a fitted run: none
    assert len(jobs) == 1
    compiled = pickle.loads(jobs[0])
    assert compiled_what(compiled) == compiled_what(configs[0])
    assert not compiled.unfitted and compiled.evaluation.key == "stand-in"


def test_the_demo_plays_each_game_as_soon_as_its_engine_is_ready(cold, monkeypatch, capfd):
    """``engines_as_ready``: a compiled engine's game first, then each game as its compile ends
    (a failed compile hands its game on too), never more compiles at once than jobs, and the
    engine that took longest last time started first."""
    import time

    from simulator.compiling import warmup

    games = ["caza-tesoros", "pirateer", "pedruscos", "cape-horn"]
    keys = {g: compiled_what(plan_run(g, 1))[0] for g in games}
    compiled = cache_folder() / "compiled"
    compiled.mkdir(parents=True)
    (compiled / keys["caza-tesoros"]).touch()
    sleep = {"pirateer": 0.5, "pedruscos": 3.0, "cape-horn": 0.5}
    log = cold / "compiles.log"

    launched = []

    def stand_in(job):
        key = job.name.rsplit("-", 1)[0]
        game = next(g for g in games if keys[g] == key)
        launched.append(game)
        marks = "" if game == "cape-horn" else f"pathlib.Path({str(compiled / key)!r}).touch(); "
        return [sys.executable, "-c",
                f"import pathlib, time; log = open({str(log)!r}, 'a'); "
                f"log.write(f'start {game} {{time.time()}}\\n'); log.flush(); "
                f"time.sleep({sleep[game]}); {marks}"
                f"log.write(f'end {game} {{time.time()}}\\n')"]  # fmt: skip

    monkeypatch.setattr(background_compile, "compile_command", stand_in)
    last_time = {keys["pedruscos"]: 60.0, keys["pirateer"]: 20.0, keys["cape-horn"]: 30.0}
    monkeypatch.setattr(warmup, "seconds_before", last_time.get)
    order = []
    for game in warmup.engines_as_ready(games, jobs=2):
        if not order:  # the compiled game plays while two compiles run already
            assert len(list((cache_folder() / "compiling").glob("*.pid"))) == 2
        order.append(game)
        time.sleep(0.1)  # the caller playing the game meanwhile
    assert order == ["caza-tesoros", "cape-horn", "pirateer", "pedruscos"]
    events = sorted(
        (line.split() for line in log.read_text().splitlines()), key=lambda e: float(e[2])
    )
    assert launched == ["pedruscos", "cape-horn", "pirateer"]  # longest first
    running = peak = 0
    for what, _game, _t in events:
        running += 1 if what == "start" else -1
        peak = max(peak, running)
    assert peak == 2
    err = capfd.readouterr().err
    assert "compiling 3 engines for this version of balance" in err
    assert "cape-horn engine did not compile" in err
    assert "pedruscos engine ready" in err and "caza-tesoros engine" not in err


def test_without_background_compiles_the_demo_hands_every_game_on_at_once(cold, monkeypatch):
    from simulator.compiling import warmup

    monkeypatch.setenv(background_compile.SWITCH, "0")
    games = ["caza-tesoros", "pirateer"]
    assert list(warmup.engines_as_ready(games, jobs=2)) == games
