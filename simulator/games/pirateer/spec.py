"""Pirateer's ``SPEC``: what the game tells the toolkit about itself (registered in
``simulator/contract/registry.py``)."""

from __future__ import annotations

from policies.pirateer import POLICIES
from simulator.contract.boards import Board, Cell
from simulator.contract.policy import SeatPolicy
from simulator.contract.registry import CELLS, COUNT, ColumnKind, GameSpec, SearchHooks

from . import board as B
from .engine import play_chunk
from .features import FEATURES
from .forward import bank, decide, record
from .outside import OUTSIDE_DECISIONS
from .replay import REPLAY
from .rules import Rules, check_players
from .state import END_NOTES, END_REASONS

COLUMNS = {
    "pirateer_captures": "ships captured in the game",
    "pirateer_treasure_changes": "captures of the treasure ship (the treasure changing hands)",
    "pirateer_treasure_taken_turn": "turn the treasure left Skull Island (-1: never taken)",
    "pirateer_passes": "turns in which the roll allowed no move",
    "pirateer_ships_left": "ships each seat has on the board at the end",
    "pirateer_captures_by_cell": "captures on each board cell (games x 236 cells)",
    "pirateer_treasure_taken_by_cell": "treasure taken on each cell (games x cells)",
    "pirateer_treasure_lost_by_cell": "treasure ship captured on each cell (games x cells)",
}
COLOURS = {
    "sea": "#8ecae6", "trade_wind": "#023047", "strait": "#6d597a", "anchorage": "#ffb703",
    "harbour": "#90be6d", "anchor": "#f94144", "start": "#43aa8b", "island": "#8d6e63",
}  # fmt: skip
HEATMAPS = {
    "pirateer_captures_by_cell": "where ships are captured",
    "pirateer_treasure_taken_by_cell": "where the treasure is taken (from Skull Island or by "
    "capturing the treasure ship)",
    "pirateer_treasure_lost_by_cell": "where a treasure ship is captured",
}
COLUMN_KINDS = {
    **{c: COUNT for c in COLUMNS if c not in HEATMAPS},
    "pirateer_treasure_taken_turn": ColumnKind("measure", none=-1),
    **{c: CELLS for c in HEATMAPS},
}


def board(rules: Rules | None = None) -> Board:
    """The 232 spaces, then the 4 cells of Skull Island (for the picture; no neighbours).

    ``x, y`` follow the physical board (boards.md 1.3): right is grid x - y, down is grid x + y,
    so the drawing has the real board's landscape view with a flag in each corner; labels are
    the grid cells "(x, y)" (a strait: its top half-cell).
    """
    rules = rules or Rules()
    starts = set(B.START[Rules.choice_index("start_squares", rules.start_squares)].ravel().tolist())
    cells = []
    for c, (x, y) in enumerate(B.CELLS):
        kind = B.KIND_NAMES[B.kind_of(c)]
        if kind in ("start", "harbour"):
            kind = "start" if c in starts else "harbour"
        nb = tuple(sorted({int(t) for t in B.STEP[c] if t >= 0}))
        cells.append(Cell(c, kind, float(x - y), float(x + y), nb, f"({x}, {y})"))
    for k, (x, y) in enumerate(B.ISLAND):
        cells.append(Cell(B.N_CELLS + k, "island", float(x - y), float(x + y), (), f"({x}, {y})"))
    return Board(tuple(cells), "diamond", colours=COLOURS)


def check(rules: Rules, n_players: int, seats: list[SeatPolicy]) -> str | None:
    return check_players(rules, n_players)


SPEC = GameSpec(
    id="pirateer",
    title="Pirateer",
    min_players=2,
    max_players=4,
    default_players=4,
    cooperative=False,
    length_unit="turns",
    end_reasons=END_REASONS,
    end_notes=END_NOTES,
    rules_class=Rules,
    policies=POLICIES,
    default_policy="runner",
    strongest="lookahead",
    compiled_when_played=("lookahead",),
    play_chunk=play_chunk,
    columns=COLUMNS,
    column_kinds=COLUMN_KINDS,
    score_note="ships on the board, plus 3 for the seat carrying the treasure",
    board=board,
    heatmaps=HEATMAPS,
    check=check,
    outside=OUTSIDE_DECISIONS,
    replay=REPLAY,
    search_hooks=SearchHooks(FEATURES, record, bank, decide),
)
