"""Pedruscos del Espacio declared to the toolkit (``SPEC``): players, columns, board, heatmaps."""

from __future__ import annotations

from typing import Any

from policies.pedruscos import POLICIES
from simulator.contract.boards import Board, Cell
from simulator.contract.registry import CELLS, COUNT, MEASURE, GameSpec, SearchHooks

from .board import board_of
from .engine import play_chunk
from .features import FEATURES
from .forward import bank, decide, record
from .outside import OUTSIDE_DECISIONS
from .replay import REPLAY
from .rules import EVENT_NAMES, Rules
from .state import END_REASONS

TABLE_ROWS = ("2-4", "5", "6", "7", "8", "9", "10", "11-12")
COLUMNS = {
    "pedruscos_shipments": "shipments each seat made (moons and the autonomous hauler)",
    "pedruscos_branches": "branches each seat built (4 points each by default)",
    "pedruscos_pirate_losses": "cards each seat lost to pirates (result 9)",
    "pedruscos_harvest_points": "value, when shipped, of the harvested cards each seat shipped "
    "(branch payback: against the points paid for branches)",
    "pedruscos_lost_turns": "turns each seat lost looking for its pilot (result 6)",
    "pedruscos_harvests": "harvests each seat made at its branches",
    "pedruscos_harvests_via_planet": "of those, along a route through the planet (planet_routes="
    "through)",
    "pedruscos_events": "station table results in the game, 8 counts in table order: "
    + ", ".join(f"{r} {n}" for r, n in zip(TABLE_ROWS, EVENT_NAMES, strict=True)),
    "pedruscos_turn_ends_by_cell": "turns that ended on each cell (games x cells)",
    "pedruscos_collects_by_cell": "ore cards collected from each cell, landings and harvests "
    "(games x cells)",
}
HEATMAPS = {
    "pedruscos_turn_ends_by_cell": "where ships end their turns",
    "pedruscos_collects_by_cell": "where ore cards are collected (landings and harvests)",
}
COLUMN_KINDS = {
    **{c: COUNT for c in COLUMNS if c not in HEATMAPS},
    "pedruscos_harvest_points": MEASURE,
    **{c: CELLS for c in HEATMAPS},
}


COLOURS = {
    "planet": "firebrick",
    "asteroid_red": "red",
    "asteroid_yellow": "gold",
    "asteroid_blue": "royalblue",
    "station": "forestgreen",
    "moon": "whitesmoke",
}


def board(rules: Rules) -> Board:
    """The board these rules call for, as cells for ``balance board`` and the heatmaps."""
    b = board_of(rules)
    cells = tuple(
        Cell(
            id=c,
            kind=b.kind_name(c),
            x=float(b.x[c]),
            y=-float(b.y[c]),  # drawings run downwards
            neighbours=b.neighbours[c],
            label=b.label(c),
            tag=str(int(b.station[c])) if b.station[c] else "",
        )
        for c in range(b.n_cells)
    )
    return Board(cells=cells, shape="graph", colours=COLOURS)


def check(rules: Rules, n_players: int, seats: Any) -> str | None:
    """One-line problem for an impossible combination, or None."""
    best = rules.hold_limit * max(rules.value_faces)
    if rules.must_exceed_cost and best <= min(rules.shipping_cost, rules.hauler_cost):
        return (
            f"no shipment can score: a full hold is worth at most {best}, not more than the "
            f"shipping cost {min(rules.shipping_cost, rules.hauler_cost)}"
        )
    return None


SPEC = GameSpec(
    id="pedruscos",
    title="Pedruscos del Espacio",
    min_players=2,
    max_players=6,
    default_players=4,
    cooperative=False,
    length_unit="rounds",
    end_reasons=END_REASONS,
    rules_class=Rules,
    policies=POLICIES,
    default_policy="lookahead",
    play_chunk=play_chunk,
    columns=COLUMNS,
    column_kinds=COLUMN_KINDS,
    score_note="points",
    board=board,
    heatmaps=HEATMAPS,
    replay=REPLAY,
    check=check,
    report_sections="reports.pedruscos:sections",
    outside=OUTSIDE_DECISIONS,
    search_hooks=SearchHooks(FEATURES, record, bank, decide, fit_games=2000),
)
