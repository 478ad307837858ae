"""The Crew: Mission Deep Sea (Kosmos 2021): cooperative trick-taking, one logbook mission per
simulated game (docs/rules/crew-deep-sea.md).

``SPEC`` is built on first access: the policies module imports this package's ``state``, so
importing the policies here at the top would make a cycle.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _spec() -> Any:
    from policies.crew_deep_sea import POLICIES
    from simulator.games import GameSpec

    from .engine import COLUMNS, END_REASONS, play_chunk
    from .rules import Rules

    return GameSpec(
        id="crew-deep-sea",
        title="The Crew: Mission Deep Sea",
        min_players=2,
        max_players=5,
        default_players=4,
        cooperative=True,
        length_unit="tricks",
        end_reasons=END_REASONS,
        rules_class=Rules,
        policies=POLICIES,
        default_policy="heuristic",
        play_chunk=play_chunk,
        columns=COLUMNS,
    )


def __getattr__(name: str) -> Any:
    if name == "SPEC":
        return _spec()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
