"""balance's Python API, mirroring the command line for notebooks.

>>> from simulator import simulate, load_run, rules_table
>>> game = list_games()[0]["id"]
>>> run = simulate(game, 10_000, "runs/base", players=4, seed=1)
>>> load_run(run).group_by("winner").len().collect()

Every command imports this package first, so it imports nothing heavy: the functions below
import what they need when called (numba, polars and joblib take seconds a command such as
``--help`` would pay for nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.compiling.jit import prepare_numba_when_imported

prepare_numba_when_imported()  # before anything imports numba: jit.py says why

from simulator.contract.old_names import keep_old_names  # noqa: E402

keep_old_names()  # policy files written for earlier versions import the old names

from simulator.contract.errors import BalanceError  # noqa: E402
from simulator.contract.registry import available, get_game  # noqa: E402

if TYPE_CHECKING:
    import polars as pl

    from simulator.folders.run_folder import RunFolder
    from simulator.runs.run_config import RunConfig


def simulate(game: str, games: int, out: str | Path, **options: Any) -> Path:
    """Python API of ``balance simulate``: plan, run, and return the run folder's path
    (options: ``simulator.runs.runner.simulate``'s)."""
    from simulator.runs.runner import simulate as simulate_run

    return simulate_run(game, games, out, **options)


def plan_run(*request: Any, **fields: Any) -> RunConfig:
    """Validate a run request (``simulator.runs.plan.plan_run``; raises BalanceError)."""
    from simulator.runs.plan import plan_run as plan

    return plan(*request, **fields)


def run(config: RunConfig, out: str | Path, **options: Any) -> RunFolder:
    """Play a planned run into ``out`` (``simulator.runs.runner.run``); returns the folder."""
    from simulator.runs.runner import run as run_chunks

    return run_chunks(config, out, **options)


def load_run(path: str | Path) -> pl.LazyFrame:
    """A run's games as a Polars LazyFrame (never loads the whole run)."""
    from simulator.folders.run_folder import load_run as scan

    return scan(path)


def read_manifest(path: str | Path) -> dict[str, Any]:
    """A run folder's manifest."""
    from simulator.folders.run_folder import read_manifest as read

    return read(path)


def rules_table(game: str) -> list[dict[str, Any]]:
    """Every rule option of a game: name, type, default, bounds or choices, doc, seed passage."""
    return [o.as_dict() for o in get_game(game).rules_class.options()]


def list_games() -> list[dict[str, Any]]:
    """The games with their player range, policies and unit of game length."""
    return [get_game(g).summary() for g in available()]


__all__ = [
    "BalanceError",
    "available",
    "get_game",
    "list_games",
    "load_run",
    "plan_run",
    "read_manifest",
    "rules_table",
    "run",
    "simulate",
]
