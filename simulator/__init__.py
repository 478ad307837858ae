"""balance's Python API, mirroring the command line for notebooks.

>>> from simulator import simulate, load_run, rules_table
>>> run = simulate("caza-tesoros", 10_000, "runs/base", players=4, policies=["greedy"], seed=1)
>>> load_run(run).group_by("winner").len().collect()

Names are imported on first use, so `import policies` (which needs `simulator.errors`) never
runs into the half-imported registry.
"""

from __future__ import annotations

import importlib
from typing import Any

from .jit import configure_cache

configure_cache()

_API = {
    "BalanceError": "simulator.errors",
    "available": "simulator.games",
    "get_game": "simulator.games",
    "load_run": "simulator.dataset",
    "read_manifest": "simulator.dataset",
    "plan_run": "simulator.runner",
    "run": "simulator.runner",
    "simulate": "simulator.runner",
}


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")


def rules_table(game: str) -> list[dict[str, Any]]:
    """Every rule option of a game: name, type, default, bounds or choices, doc, seed passage."""
    from .games import get_game

    return [o.as_dict() for o in get_game(game).rules_class.options()]


def list_games() -> list[dict[str, Any]]:
    """The games with their player range, policies and unit of game length."""
    from .games import available, get_game

    return [get_game(g).summary() for g in available()]


__all__ = [*_API, "list_games", "rules_table"]
