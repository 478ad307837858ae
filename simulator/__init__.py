"""balance's Python API, mirroring the command line for notebooks.

>>> from simulator import simulate, load_run, rules_table
>>> run = simulate("caza-tesoros", 10_000, "runs/base", players=4, policies=["greedy"], seed=1)
>>> load_run(run).group_by("winner").len().collect()
"""

from __future__ import annotations

from typing import Any

from .dataset import load_run, read_manifest
from .errors import BalanceError
from .games import available, get_game
from .runner import plan_run, run, simulate


def rules_table(game: str) -> list[dict[str, Any]]:
    """Every rule option of a game: name, type, default, bounds or choices, doc, seed passage."""
    return [o.as_dict() for o in get_game(game).rules_class.options()]


def games() -> list[dict[str, Any]]:
    """The games with their player range, policies and unit of game length."""
    return [get_game(g).summary() for g in available()]


__all__ = [
    "BalanceError",
    "games",
    "get_game",
    "load_run",
    "plan_run",
    "read_manifest",
    "rules_table",
    "run",
    "simulate",
]
