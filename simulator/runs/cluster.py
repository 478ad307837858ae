"""Running a run's chunks on a Dask distributed cluster.

The chunk function is the very one loky runs (``plan.indexed_chunk``) and a chunk's games depend
only on the run seed and the chunk's index, so a cluster run is identical, game for game, to the
same run with loky. Results come back as chunks finish and the caller writes each as a part, so a
run interrupted on a cluster resumes like any other. Dask recomputes the work of a worker that dies.
Chunks go through ``Client.submit``/``as_completed`` rather than joblib's dask backend: see
"Running on a Dask cluster" in docs/architecture.md for why.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import struct
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from simulator.contract.errors import BalanceError

if TYPE_CHECKING:
    from distributed import Client

    from .plan import RunConfig

CONNECT_TIMEOUT_S = 5
WORKERS_TIMEOUT_S = 30
_ADDRESS = re.compile(r"^((tcp|tls)://)?[\w.\-\[\]:]+:\d+$")
_RESUME_HINT = "finished parts are kept: run the same command again to resume"


# A Dask scheduler greets every connection at once with a short handshake (a length-prefixed
# message naming its pickle protocol); anything else is refused before a folder is written.
_GREETING_MAX_BYTES = 1 << 16
_GREETING_WORD = b"pickle-protocol"
_PROBED: set[str] = set()


def check_cluster(cluster: str | None) -> str | None:
    """``--cluster`` checked before anything is written: the address's form, then, for a
    scheduler address, that a Dask scheduler answers there within ``CONNECT_TIMEOUT_S``.

    A closed port, an address that never answers, and a server that is not a Dask scheduler
    (a web server) are each one line (BalanceError)."""
    if cluster is None:
        return None
    address = check_address(cluster)
    if address != "local" and address not in _PROBED:
        probe(address)
        _PROBED.add(address)
    return address


def probe(address: str, timeout: float | None = None) -> None:
    """Connect to ``address`` and read the scheduler's greeting, all within ``timeout`` seconds
    (``CONNECT_TIMEOUT_S``). ``tls://`` addresses are only connected to: their greeting is
    encrypted."""
    timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
    scheme, _, rest = address.rpartition("://")
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    deadline = time.monotonic() + timeout
    refuse = f"cannot use {address} as a Dask cluster"
    start = "start a scheduler with `dask scheduler` or check the address"
    try:
        sock = socket.create_connection((host, int(port)), timeout=timeout)
    except TimeoutError:
        raise BalanceError(f"{refuse}: nothing answered within {timeout:g} s; {start}") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise BalanceError(f"{refuse}: {why.lower()}; {start}") from None
    with sock:
        if scheme == "tls":
            return
        greeting = _read_greeting(sock, deadline)
        if greeting and _GREETING_WORD in greeting:
            # Greet back alike, so the scheduler logs no half-finished handshake.
            with suppress(OSError):
                sock.sendall(greeting)
    if greeting is None:
        raise BalanceError(
            f"{refuse}: something answers there but not as a Dask scheduler (no greeting "
            f"within {timeout:g} s); {start}"
        )
    if _GREETING_WORD not in greeting:
        raise BalanceError(
            f"{refuse}: something answers there but not as a Dask scheduler (it sent "
            f"{greeting[:12]!r}); {start}"
        )


def _read_greeting(sock: socket.socket, deadline: float) -> bytes | None:
    """The first message a Dask comm sends (its 8-byte length, then the message), or what was
    read instead (a web server's first bytes); None when nothing came before the deadline."""
    got = b""
    need = 8
    while len(got) < need:
        left = deadline - time.monotonic()
        if left <= 0:
            return got or None
        sock.settimeout(left)
        try:
            data = sock.recv(need - len(got))
        except TimeoutError:
            return got or None
        except OSError:
            return got
        if not data:
            return got
        got += data
        if need == 8 and len(got) == 8:
            (size,) = struct.unpack("Q", got)  # as distributed.comm.tcp reads it
            if not 0 < size <= _GREETING_MAX_BYTES:
                return got
            need = 8 + size
    return got


def check_address(cluster: str) -> str:
    """``local`` or a scheduler address (``tcp://host:8786``); anything else is refused."""
    address = cluster.strip()
    if address == "local" or _ADDRESS.match(address):
        return address
    raise BalanceError(
        f"--cluster must be 'local' or a Dask scheduler address like tcp://host:8786, "
        f"not {cluster!r}"
    )


@contextmanager
def cluster_session(cluster: str | None) -> Iterator[None]:
    """Hold one connection (or one LocalCluster) for a whole run, opened when first needed.

    A run that stops early plays its chunks in batches, each a call of :func:`execute_on_cluster`;
    inside a session they share the client instead of connecting (or starting a cluster) again.
    """
    if cluster is None:
        yield
        return
    address = check_cluster(cluster)
    if address in _SESSIONS:
        yield
        return
    with ExitStack() as closing:
        _SESSIONS[address] = _Session(closing)
        try:
            yield
        finally:
            del _SESSIONS[address]


def connect(cluster: str) -> None:
    """Open the current session's connection now, before several threads share it."""
    address = check_address(cluster)
    session = _SESSIONS.get(address)
    if session is not None and session.client is None:
        session.client = session.closing.enter_context(_client(address))


@dataclass
class _Session:
    closing: ExitStack
    client: Client | None = None


_SESSIONS: dict[str, _Session] = {}


def execute_on_cluster(
    config: RunConfig, todo: list[tuple[int, int, int]], cluster: str
) -> Iterator[tuple[int, pl.DataFrame]]:
    """Play ``todo`` chunks on the cluster; yield (chunk index, table) in finishing order."""
    address = check_address(cluster)
    session = _SESSIONS.get(address)
    if session is None:
        with _client(address) as client:
            yield from _execute(config, todo, address, client)
        return
    if session.client is None:
        session.client = session.closing.enter_context(_client(address))
    yield from _execute(config, todo, address, session.client)


def _execute(
    config: RunConfig, todo: list[tuple[int, int, int]], address: str, client: Client
) -> Iterator[tuple[int, pl.DataFrame]]:
    from distributed import as_completed

    from .plan import indexed_chunk

    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
    except TimeoutError:
        raise BalanceError(
            f"the Dask scheduler at {address} has no workers after {WORKERS_TIMEOUT_S} s; "
            f"start some with `dask worker {address}`"
        ) from None
    # One chunk per task, all handed to the scheduler at once: a chunk already amortises the call,
    # it is the unit a lost worker costs, and workers that join during the run get work too.
    run_id = uuid.uuid4().hex[:8]
    pending = {
        chunk[0]: client.submit(indexed_chunk, config, chunk, key=f"chunk-{chunk[0]:05d}-{run_id}")
        for chunk in todo
    }
    lost = BalanceError(
        f"lost the Dask scheduler at {address} part-way through the run; {_RESUME_HINT}"
    )
    finished = as_completed(list(pending.values()), loop=client.loop)
    try:
        while True:
            # Only the cluster's side is watched here: an error writing a part (at the yield)
            # is the caller's and passes as it is.
            try:
                future = next(finished)
                index = int(future.key.split("-")[1])
                del pending[index]
                if future.status == "error":
                    _raise_cluster_error(future.exception(), index, address)
                if future.status == "cancelled":
                    raise lost
                result = future.result()
            except StopIteration:
                return
            except (OSError, CancelledError, asyncio.CancelledError):
                raise lost from None
            yield result
    finally:
        # An error, an interrupt or a consumer that stopped early: free the cluster.
        with suppress(Exception):
            if pending and client.status == "running":
                client.cancel(list(pending.values()))


def _raise_cluster_error(error: BaseException, index: int, address: str) -> None:
    """One line for what a cluster, not the game, did wrong; the game's own errors as they are."""
    from distributed import KilledWorker

    if isinstance(error, KilledWorker):
        raise BalanceError(f"chunk {index} killed every Dask worker that ran it; {_RESUME_HINT}")
    if isinstance(error, ImportError) or "deserializ" in str(error):
        why = str(error) if isinstance(error, ImportError) else "it could not be unpickled there"
        raise BalanceError(
            f"the Dask cluster at {address} cannot load chunk {index} ({why}); its scheduler "
            f"and workers need this machine's packages and game code"
        )
    raise error


@contextmanager
def _client(address: str) -> Iterator[Client]:
    """A client of the scheduler at ``address``, or of a LocalCluster started (and closed) here."""
    from distributed import Client, LocalCluster

    with _quiet_distributed():
        if address == "local":
            # One single-threaded worker process per core: engines hold the GIL while they play.
            # Port 0 everywhere: a second run or another cluster on this machine never collides.
            with (
                LocalCluster(
                    n_workers=os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    scheduler_port=0,
                    dashboard_address=":0",
                ) as local,
                Client(local, set_as_default=False) as client,
            ):
                yield client
            return
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise BalanceError(
                f"cannot reach a Dask scheduler at {address} within {CONNECT_TIMEOUT_S} s "
                f"({type(exc).__name__}); start one with `dask scheduler` or check the address"
            ) from None
        try:
            yield client
        finally:
            client.close()


@contextmanager
def _quiet_distributed() -> Iterator[None]:
    """Silence distributed's logging for the run: connection retries would print tracebacks.

    Its configuration gives some loggers (``distributed.client``...) their own level, so each one
    is set, and restored after.
    """
    import distributed  # noqa: F401 (configures its loggers first)

    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
