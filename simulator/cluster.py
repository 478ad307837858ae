"""Running a run's chunks on a Dask distributed cluster through joblib's dask backend.

The chunk function is the very one loky runs (``runner._indexed_chunk``) and a chunk's games depend
only on the run seed and the chunk's index, so a cluster run is identical, game for game, to the
same run with loky. Results come back as chunks finish and the caller writes each as a part, so a
run interrupted on a cluster resumes like any other. Dask recomputes the work of a worker that dies.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from .errors import BalanceError

if TYPE_CHECKING:
    from distributed import Client

    from .runner import RunConfig

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
    from distributed import CancelledError, KilledWorker
    from joblib import Parallel, delayed, parallel_config

    from .runner import _indexed_chunk, play_chunk

    # Compile (or load) the JIT cache once here: workers sharing this file system load it.
    play_chunk(config, 0, 0, 1)
    with parallel_config(backend="dask", client=client, wait_for_workers_timeout=WORKERS_TIMEOUT_S):
        # One chunk per task: a chunk already amortises the call, it is the unit a lost
        # worker costs, and parts reach the disk as soon as each chunk is done.
        parallel = Parallel(n_jobs=-1, batch_size=1, return_as="generator_unordered")
        try:
            yield from parallel(delayed(_indexed_chunk)(config, chunk) for chunk in todo)
        except TimeoutError as exc:
            if "no worker" not in str(exc):
                raise
            raise BalanceError(
                f"the Dask scheduler at {address} has no workers after {WORKERS_TIMEOUT_S} s; "
                f"start some with `dask worker {address}`"
            ) from None
        except KilledWorker as exc:
            raise BalanceError(
                f"a chunk killed every Dask worker that ran it ({exc}); {_RESUME_HINT}"
            ) from None
        except (CancelledError, OSError) as exc:
            raise BalanceError(
                f"lost the Dask scheduler at {address} ({type(exc).__name__}); {_RESUME_HINT}"
            ) from None


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
    """Silence distributed's logging for the run: connection retries would print tracebacks."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
