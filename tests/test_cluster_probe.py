"""--cluster is checked before anything is written: only a Dask scheduler is accepted.

Only loopback addresses are used; an unroutable address is simulated (the connect's timeout is
read, no packet is sent)."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator

import pytest

import cli
from simulator.contract.errors import BalanceError
from simulator.runs import cluster


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A socket that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for conn in accepted:
        conn.close()


@pytest.fixture
def web_port() -> Iterator[int]:
    """A plain web server on localhost."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _cli(address: str, tmp_path, capsys) -> tuple[int, str, float]:
    start = time.monotonic()
    with pytest.raises(SystemExit) as exit_info:
        cli.app(["simulate", "fake", "-n", "100", "--out", str(tmp_path / "run"), "-q",
                 "--cluster", address])  # fmt: skip
    return exit_info.value.code, capsys.readouterr().err, time.monotonic() - start


def test_a_closed_port_is_one_line_exit_2_and_no_folder(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    code, err, seconds = _cli(address, tmp_path, capsys)
    assert code == 2 and seconds < 10
    assert err == (
        f"balance: error: cannot use {address} as a Dask cluster: connection refused; start a "
        "scheduler with `dask scheduler` or check the address\n"
    )
    assert not (tmp_path / "run").exists()


def test_a_socket_that_never_answers_is_one_line_within_10_s(silent_port, tmp_path, capsys):
    code, err, seconds = _cli(f"tcp://127.0.0.1:{silent_port}", tmp_path, capsys)
    assert code == 2 and seconds < 10
    assert err.count("\n") == 1
    assert "something answers there but not as a Dask scheduler (no greeting within 5 s)" in err
    assert not (tmp_path / "run").exists()


def test_a_web_server_is_refused(web_port, monkeypatch, tmp_path):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 0.5)
    with pytest.raises(BalanceError, match="but not as a Dask scheduler"):
        cluster.probe(f"tcp://127.0.0.1:{web_port}")


def test_a_server_that_speaks_first_but_not_dask_is_refused(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer() -> None:
        conn = server.accept()[0]
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        conn.close()

    threading.Thread(target=answer, daemon=True).start()
    with pytest.raises(BalanceError, match=r"it sent b'HTTP/1.1'"):
        cluster.probe(f"tcp://127.0.0.1:{server.getsockname()[1]}")
    server.close()


def test_an_unroutable_address_gets_a_short_connect_timeout(monkeypatch):
    asked = {}

    def create_connection(address, timeout=None):
        asked["address"], asked["timeout"] = address, timeout
        raise TimeoutError

    monkeypatch.setattr(cluster.socket, "create_connection", create_connection)
    with pytest.raises(BalanceError) as error:
        cluster.probe("tcp://10.255.255.1:8786")
    assert asked == {"address": ("10.255.255.1", 8786), "timeout": cluster.CONNECT_TIMEOUT_S}
    assert cluster.CONNECT_TIMEOUT_S <= 5
    assert str(error.value) == (
        "cannot use tcp://10.255.255.1:8786 as a Dask cluster: nothing answered within 5 s; "
        "start a scheduler with `dask scheduler` or check the address"
    )


def test_a_run_refused_by_its_cluster_leaves_no_folder(tmp_path, fake_game):
    from simulator.runs.runner import plan_run, run

    with pytest.raises(BalanceError, match="connection refused"):
        run(plan_run("fake", 100), tmp_path / "run", cluster=f"tcp://127.0.0.1:{_closed_port()}")
    assert not (tmp_path / "run").exists()


def test_a_dask_scheduler_passes():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=False, scheduler_port=0, dashboard_address=None,
        host="127.0.0.1", protocol="tcp://",
    ) as local:  # fmt: skip
        cluster.probe(local.scheduler_address)
