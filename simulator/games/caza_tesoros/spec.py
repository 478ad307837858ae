"""Caza-Tesoros as the toolkit sees it. Score for the drama analysis: victory points."""

from __future__ import annotations

from policies.caza_tesoros import POLICIES
from simulator.contract.registry import CELLS, COUNT, GameSpec, SearchHooks

from .board import board_cells
from .engine import play_chunk
from .features import FEATURES
from .outside import OUTSIDE_DECISIONS
from .replay import REPLAY
from .rules import MAX_COLOURS, Rules
from .selfplay import bank, decide, record
from .state import END_NOTES, END_REASONS

COLUMNS = {
    "caza_treasures": "treasures each seat rescued (own and Archive crosses)",
    "caza_ships": "ships each seat has on the board at the end",
    "caza_searches": "searches made in the game (both levels)",
    "caza_level2_searches": "level 2 searches made in the game",
    "caza_archive_crosses": "Archive of the Indies crosses on the board at the end",
    "caza_auctions": "auctions held (weekly object cards not bought, and forced sales)",
    "caza_forced_sales": "forced sales (maintenance shortfall) that found a buyer",
    "caza_retired_ships": "ships retired to pay maintenance, all seats together",
    "caza_seat_searches": "searches each seat made (all its colours)",
    "caza_items": "object cards each seat acquired (bought at the price or at auction)",
    "caza_search_cells": "board cell (hex index) of every search made, in order",
    "caza_find_cells": "board cell of every search that found its treasure",
}
HEATMAPS = {
    "caza_search_cells": "where ships search",
    "caza_find_cells": "where treasures are found",
}
COLUMN_KINDS = {
    **{c: COUNT for c in COLUMNS if c not in HEATMAPS},
    **{c: CELLS for c in HEATMAPS},
}


def check(rules: Rules, n_players: int, seats) -> str | None:
    """Six colours at the table ("un color de los seis disponibles")."""
    colours = n_players * rules.colours_per_player
    if colours > MAX_COLOURS:
        return (
            f"{n_players} players with colours_per_player={rules.colours_per_player} need "
            f"{colours} colours; the game has {MAX_COLOURS}"
        )
    return None


SPEC = GameSpec(
    id="caza-tesoros",
    title="Caza-Tesoros",
    min_players=2,
    max_players=6,
    default_players=4,
    cooperative=False,
    length_unit="days",
    end_reasons=END_REASONS,
    end_notes=END_NOTES,
    length_note="Lengths bunch at whole weeks (days_per_week, 7 days by default): players drop "
    "out at the weekly upkeep, when they cannot pay for their ships, so most games end on an "
    "upkeep day.",
    rules_class=Rules,
    policies=POLICIES,
    default_policy="greedy",
    strongest="planner",
    play_chunk=play_chunk,
    columns=COLUMNS,
    column_kinds=COLUMN_KINDS,
    score_note="victory points",
    board=board_cells,
    heatmaps=HEATMAPS,
    report_sections="reports.caza_tesoros:sections",
    commands=("simulator.cli.commands.caza_tesoros:search_odds",),
    check=check,
    replay=REPLAY,
    outside=OUTSIDE_DECISIONS,
    search_hooks=SearchHooks(FEATURES, record, bank, decide),
)
