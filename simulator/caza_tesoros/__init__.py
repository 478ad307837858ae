"""Caza-Tesoros (Yuyu, 2012): treasure hunting on an 18 x 18 hex sea, as a compiled simulator.

Rules as implemented: docs/rules/caza-tesoros.md. Score for the drama analysis: victory points.
``SPEC`` is built on first use: the engine imports ``policies.caza_tesoros``, which imports this
package's state layout, so either side may be imported first.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .rules import Rules
from .state import END_REASONS

COLUMNS = {
    "caza_treasures": "treasures each seat rescued (own and Archive crosses)",
    "caza_ships": "ships each seat has on the board at the end",
    "caza_searches": "searches made in the game (both levels)",
    "caza_level2_searches": "level 2 searches made in the game",
    "caza_archive_crosses": "Archive of the Indies crosses on the board at the end",
    "caza_auctions": "auctions held (weekly object cards not bought, and forced sales)",
    "caza_forced_sales": "forced sales (maintenance shortfall) that found a buyer",
    "caza_retired_ships": "ships retired to pay maintenance, all seats together",
}


@cache
def _spec() -> Any:
    from policies.caza_tesoros import POLICIES
    from simulator.games import GameSpec

    from .engine import play_chunk

    return GameSpec(
        id="caza-tesoros",
        title="Caza-Tesoros",
        min_players=2,
        max_players=6,
        default_players=4,
        cooperative=False,
        length_unit="days",
        end_reasons=END_REASONS,
        rules_class=Rules,
        policies=POLICIES,
        default_policy="greedy",
        play_chunk=play_chunk,
        columns=COLUMNS,
    )


def __getattr__(name: str) -> Any:
    if name == "SPEC":
        return _spec()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
