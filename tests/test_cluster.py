"""Runs on a real Dask cluster on loopback: scheduler and workers are separate processes."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import cli
from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import load_run, read_manifest
from simulator.runs.plan import RunConfig, plan_run
from simulator.runs.runner import UNTIL_BATCH, run
from tests.slow_game import SPEC as SLOW_FAKE

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
DASK = ROOT / ".venv" / "bin" / "dask"
STARTUP_S = 60

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not DASK.exists(), reason="needs the project's .venv/bin/dask"),
]


def _config() -> RunConfig:
    # 24 chunks: enough for a worker to die with work in flight and for parts to arrive in turns.
    return plan_run("fake", 6000, seed=11, chunk_size=250, sets=["bias=0.5", "draw=0.1"])


def _games(path: Path) -> pl.DataFrame:
    return load_run(path).sort("game_index").collect()


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class LoopbackCluster:
    """A scheduler and worker processes started from the project's ``dask`` command."""

    def __init__(self, logs: Path):
        self.logs = logs
        self.procs: list[subprocess.Popen] = []
        # Workers unpickle the test games by reference (tests.fake_game): they need the project.
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}
        scheduler_file = logs / "scheduler.json"
        self._start(
            "scheduler",
            "scheduler",
            "--host=127.0.0.1",
            "--port=0",
            "--no-dashboard",
            f"--scheduler-file={scheduler_file}",
        )
        deadline = time.monotonic() + STARTUP_S
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the dask scheduler did not start"
            assert self.procs[0].poll() is None, (logs / "scheduler.log").read_text()
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written in one go, but give the writer time to close it
        self.address = json.loads(scheduler_file.read_text())["address"]
        self.client = distributed.Client(self.address, timeout=STARTUP_S, set_as_default=False)

    def _start(self, log_name: str, *args: str) -> subprocess.Popen:
        log = open(self.logs / f"{log_name}.log", "w")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen(
            [str(DASK), *args], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        self.procs.append(proc)
        return proc

    def add_worker(self, name: str) -> subprocess.Popen:
        """One single-threaded worker process without a nanny: killing it loses it for good."""
        before = len(self.client.scheduler_info()["workers"])
        proc = self._start(
            f"worker-{name}",
            "worker",
            self.address,
            f"--name={name}",
            "--nthreads=1",
            "--no-nanny",
            "--no-dashboard",
            "--host=127.0.0.1",
            "--death-timeout=30",
        )
        self.client.wait_for_workers(before + 1, timeout=STARTUP_S)
        return proc

    def worker_address(self, name: str) -> str:
        workers = self.client.scheduler_info()["workers"]
        return next(addr for addr, info in workers.items() if info["name"] == name)

    def close(self) -> None:
        self.client.close()
        for proc in reversed(self.procs):
            _stop(proc)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[LoopbackCluster]:
    loopback = LoopbackCluster(tmp_path_factory.mktemp("dask"))
    try:
        loopback.add_worker("w1")
        loopback.add_worker("w2")
        yield loopback
    finally:
        loopback.close()


@pytest.fixture(scope="module")
def loky_twin(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("loky") / "run"
    run(_config(), out, jobs=2)
    return out


def _jit_cache_stats() -> tuple[int, int]:
    """(cache hits, cache misses) of the fake engine in this process: run on each worker."""
    from tests.fake_game import _play

    return sum(_play.stats.cache_hits.values()), sum(_play.stats.cache_misses.values())


def test_cluster_run_equals_its_loky_twin(cluster, loky_twin, tmp_path):
    with distributed.get_task_stream(client=cluster.client) as tasks:
        out = run(_config(), tmp_path / "run", cluster=cluster.address).path
    # Every chunk was played by the cluster's workers, one task each.
    chunk_tasks = [t for t in tasks.data if t["key"].startswith("chunk-")]
    assert len(chunk_tasks) == 24
    assert {t["worker"] for t in chunk_tasks} <= set(cluster.client.scheduler_info()["workers"])
    assert read_manifest(out)["config"] == read_manifest(loky_twin)["config"]
    assert read_manifest(out)["finished"] is not None
    games = _games(out)
    assert games["game_index"].to_list() == list(range(6000))
    assert games.equals(_games(loky_twin))
    # Workers loaded the engine from the JIT cache the client had warmed, none compiled it.
    stats = cluster.client.run(_jit_cache_stats)
    assert len(stats) == 2
    for hits, misses in stats.values():
        assert (hits, misses) == (1, 0)


def _play_one_and_report_jit_cache(config: RunConfig) -> tuple[int, int, int]:
    from simulator.runs.plan import play_chunk

    play_chunk(config, 0, 0, 1)
    return (os.getpid(), *_jit_cache_stats())


def test_loky_workers_load_the_jit_cache(loky_twin):
    from joblib import Parallel, delayed

    config = _config()
    stats = Parallel(n_jobs=2, backend="loky")(
        delayed(_play_one_and_report_jit_cache)(config) for _ in range(8)
    )
    per_worker = {pid: (hits, misses) for pid, hits, misses in stats}
    assert per_worker and all(v == (1, 0) for v in per_worker.values()), per_worker


def test_cluster_resumes_a_partial_run_and_matches(cluster, loky_twin, tmp_path):
    out = tmp_path / "run"
    first = run(_config(), out, jobs=1).path
    parts = sorted((first / "games").glob("part-*.parquet"))
    for part in parts[::2]:  # a run killed with every other chunk missing
        part.unlink()
    run(_config(), out, cluster=cluster.address)
    assert len(list((out / "games").glob("part-*.parquet"))) == len(parts)
    assert _games(out).equals(_games(loky_twin))


def _clients_connected(cluster: LoopbackCluster) -> int:
    events = cluster.client.get_events("all")
    return sum(1 for _time, event in events if event.get("action") == "add-client")


def test_run_in_batches_keeps_one_connection(cluster, loky_twin, tmp_path):
    asked: list[int] = []

    def until(folder) -> bool:  # never satisfied: every batch of chunks is played
        asked.append(len(folder.done_parts()))
        return False

    before = _clients_connected(cluster)
    out = run(_config(), tmp_path / "run", cluster=cluster.address, until=until).path
    assert len(asked) == 24 // UNTIL_BATCH - 1
    assert _clients_connected(cluster) - before == 1
    assert _games(out).equals(_games(loky_twin))


class RunInThread(threading.Thread):
    """A cluster run in a thread of this process, so the test can act during it and bound it."""

    def __init__(self, config: RunConfig, out: Path, address: str):
        super().__init__(daemon=True)
        self.args, self.error = (config, out, address), None
        self.start()

    def run(self) -> None:
        config, out, address = self.args
        try:
            run(config, out, cluster=address)
        except BaseException as exc:  # handed to the test by finish()
            self.error = exc

    def finish(self, timeout: float) -> BaseException | None:
        self.join(timeout)
        assert not self.is_alive(), f"the run did not end within {timeout} s"
        return self.error


def test_worker_killed_mid_run_still_completes_correctly(cluster, loky_twin, tmp_path):
    victim = cluster.add_worker("victim")
    victim_address = cluster.worker_address("victim")
    config = dataclasses.replace(_config(), spec=SLOW_FAKE)  # same games, 0.3 s per chunk
    out = tmp_path / "run"
    runner = RunInThread(config, out, cluster.address)
    deadline = time.monotonic() + STARTUP_S
    while not cluster.client.processing(workers=[victim_address]).get(victim_address):
        assert time.monotonic() < deadline, "the victim worker was never given a chunk"
        assert runner.is_alive(), f"the run ended before the victim got work: {runner.error}"
        time.sleep(0.02)
    os.kill(victim.pid, signal.SIGKILL)
    parts_at_kill = len(list((out / "games").glob("part-*.parquet")))
    victim.wait(10)

    assert runner.finish(120) is None
    assert parts_at_kill < 24
    assert victim_address not in cluster.client.scheduler_info()["workers"]
    assert read_manifest(out)["finished"] is not None
    assert _games(out).equals(_games(loky_twin))


def test_a_scheduler_lost_mid_run_is_one_line_and_keeps_the_finished_parts(tmp_path, loky_twin):
    doomed = LoopbackCluster(tmp_path)
    try:
        doomed.add_worker("w")
        config = dataclasses.replace(_config(), spec=SLOW_FAKE)  # 0.3 s a chunk
        out = tmp_path / "run"
        runner = RunInThread(config, out, doomed.address)
        deadline = time.monotonic() + STARTUP_S
        while len(list((out / "games").glob("part-*.parquet"))) < 2:
            assert time.monotonic() < deadline and runner.is_alive(), runner.error
            time.sleep(0.02)
        doomed.client.close()
        _stop(doomed.procs[0])  # the scheduler
        error = runner.finish(30)
    finally:
        doomed.close()
    assert isinstance(error, BalanceError), error
    assert str(error) == (
        f"lost the Dask scheduler at {doomed.address} part-way through the run; finished parts "
        "are kept: run the same command again to resume"
    )
    kept = load_run(out).collect()
    assert 2 * 250 <= kept.height < 6000
    twin = _games(loky_twin).filter(pl.col("game_index").is_in(kept["game_index"].implode()))
    assert kept.sort("game_index").equals(twin)


def test_a_cluster_that_cannot_load_the_game_is_one_line(cluster, tmp_path, monkeypatch):
    # A game module only this process can import: the scheduler and workers lack it.
    (tmp_path / "only_here_game.py").write_text(
        "from tests.fake_game import play_chunk as fake_play_chunk\n\n\n"
        "def play_chunk(*args):\n    return fake_play_chunk(*args)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import only_here_game

    config = dataclasses.replace(
        _config(), spec=dataclasses.replace(SLOW_FAKE, play_chunk=only_here_game.play_chunk)
    )
    error = RunInThread(config, tmp_path / "run", cluster.address).finish(30)
    assert isinstance(error, BalanceError) and "cannot load chunk" in str(error)
    assert "\n" not in str(error)
    monkeypatch.delitem(sys.modules, "only_here_game")


def test_local_cluster_run_equals_its_loky_twin(loky_twin, tmp_path):
    out = run(_config(), tmp_path / "run", cluster="local").path
    assert _games(out).equals(_games(loky_twin))


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize(
    ("address", "message"),
    [
        (f"tcp://127.0.0.1:{_closed_port()}", "as a Dask cluster: connection refused"),
        ("nonsense", "--cluster must be 'local' or a Dask scheduler address"),
    ],
)
def test_unreachable_or_malformed_address_is_one_line_and_exit_2(
    address, message, tmp_path, capsys
):
    start = time.monotonic()
    with pytest.raises(SystemExit) as exit_info:
        cli.app(
            ["simulate", "fake", "-n", "100", "--out", str(tmp_path / "run"), "-q"]
            + ["--cluster", address]
        )
    elapsed = time.monotonic() - start
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("balance: error: ") and message in err
    assert elapsed < 20
