"""The Crew: Mission Deep Sea (Kosmos 2021): cooperative trick-taking, one logbook mission per
simulated game (docs/rules/crew-deep-sea.md)."""

from __future__ import annotations

from policies.crew_deep_sea import POLICIES
from simulator.games import GameSpec

from .engine import COLUMNS, END_REASONS, play_chunk
from .rules import Rules

SPEC = GameSpec(
    id="crew-deep-sea",
    title="The Crew: Mission Deep Sea",
    min_players=3,
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
