"""Running a run's chunks on a Dask distributed cluster.

The chunk function is the very one loky runs (``plan.indexed_chunk``) and a chunk's games depend
only on the run seed and the chunk's index, so a cluster run is identical, game for game, to the
same run with loky. Results come back as chunks finish and the caller writes each as a part, so a
run interrupted on a cluster resumes like any other. Dask recomputes the work of a worker that dies.
Chunks go through ``Client.submit``/``as_completed`` rather than joblib's dask backend: see
"Running on a Dask cluster" in docs/architecture.md for why.
"""

from __future__ import annotations

import logging
import os
import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from .errors import BalanceError

if TYPE_CHECKING:
    from distributed import Client

    from .plan import RunConfig

CONNECT_TIMEOUT_S = 5
WORKERS_TIMEOUT_S = 30
_ADDRESS = re.compile(r"^((tcp|tls)://)?[\w.\-\[\]:]+:\d+$")
_RESUME_HINT = "finished parts are kept: run the same command again to resume"


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
    address = check_address(cluster)
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
    try:
        for future in as_completed(list(pending.values()), loop=client.loop):
            index = int(future.key.split("-")[1])
            del pending[index]
            if future.status == "error":
                _raise_cluster_error(future.exception(), index, address)
            if future.status == "cancelled":
                raise BalanceError(f"lost the Dask scheduler at {address}; {_RESUME_HINT}")
            yield future.result()
    finally:
        # An error, an interrupt or a consumer that stopped early: free the cluster.
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
