"""A command's request as two values, built once from its options and passed down whole:

- :class:`PlayRequest`, what to play: the game, how many games, the players and their seats, the
  seed and the rules in force (``--set``, ``--variant``, ``--data``, ``--policy-file``);
- :class:`Execution`, how to play it: worker processes, a Dask cluster, a progress bar, waiting
  for another writer of the same folder.

``plan_run``, the studies (compare, sweep, tournament, skill, explore), tune, design and replay
take these instead of the same ten keywords each. Nothing here is checked: the planners check
every field, before anything is written.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.contract.game_data import DataSource

    from .policy_file import PolicyFile


@dataclass(frozen=True)
class PlayRequest:
    """What to play. ``seed`` is the run seed (a replay: the game's own seed); ``sets`` are
    ``key=value`` texts or a dict; ``data`` ``NAME=FILE`` texts or files already read."""

    game: str
    games: int = 1
    players: int | None = None
    policies: list[str] | None = None  # one for every seat, or one per seat in seat order
    seed: int = 0
    sets: list[str] | dict[str, Any] | None = None
    variant: str | Path | None = None
    policy_file: str | Path | PolicyFile | None = None
    data: list[str] | dict[str, DataSource] | None = None

    def but(self, **changes: Any) -> PlayRequest:
        """The same request with ``changes`` (field names) applied."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Execution:
    """How to play: ``jobs`` worker processes (None: every core), on ``cluster`` (a Dask
    scheduler address or ``local``), with a ``progress`` bar, ``wait``ing for another writer of
    the same folder instead of stopping at once."""

    jobs: int | None = None
    cluster: str | None = None
    progress: bool = False
    wait: bool = False

    def run_options(self) -> dict[str, Any]:
        """The keywords :func:`simulator.runs.runner.run` takes for these."""
        return {"jobs": self.jobs, "cluster": self.cluster, "progress": self.progress,
                "wait": self.wait}  # fmt: skip
