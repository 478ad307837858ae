"""balance's Python API, mirroring the command line for notebooks.

>>> from simulator import simulate, load_run, rules_table
>>> game = list_games()[0]["id"]
>>> run = simulate(game, 10_000, "runs/base", players=4, seed=1)
>>> load_run(run).group_by("winner").len().collect()
"""

from __future__ import annotations

from typing import Any

from .jit import (
    compile_callees_without_python_entry,
    compile_calls_unliteral,
    configure_cache,
    limit_loop_unswitching,
    link_callees_without_machine_code,
)

configure_cache()  # before any engine is compiled: numba's cache folder follows the sources
limit_loop_unswitching()  # compile time: jit.py says why
compile_calls_unliteral()  # one specialisation per argument type (jit.py says why)
compile_callees_without_python_entry()  # compile time: jit.py says why
link_callees_without_machine_code()  # the same

from .dataset import load_run, read_manifest  # noqa: E402
from .errors import BalanceError  # noqa: E402
from .games import available, get_game  # noqa: E402
from .plan import plan_run  # noqa: E402
from .runner import run, simulate  # noqa: E402


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
