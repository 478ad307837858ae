"""Pirateer's ``SPEC``: what the game tells the toolkit about itself (registered in
``simulator/games.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from policies.pirateer import POLICIES
from simulator.games import GameSpec

from . import board as B
from .engine import play_chunk
from .rules import Rules, check_players
from .state import END_REASONS

COLUMNS = {
    "pirateer_captures": "ships captured in the game",
    "pirateer_treasure_changes": "captures of the treasure ship (the treasure changing hands)",
    "pirateer_treasure_taken_turn": "turn the treasure left Skull Island (-1: never taken)",
    "pirateer_passes": "turns in which the roll allowed no move",
    "pirateer_ships_left": "ships each seat has on the board at the end",
}
HEATMAPS = {
    "pirateer_captures_by_cell": "where ships are captured",
    "pirateer_treasure_taken_by_cell": "where the treasure is taken (from Skull Island or by "
    "capturing the treasure ship)",
    "pirateer_treasure_lost_by_cell": "where a treasure ship is captured",
}


def board(rules: Rules | None = None) -> Any:
    """The 232 spaces (and the 4 cells of Skull Island, for the picture) as declared cells.

    ``x, y`` follow the physical board: right is grid x - y, up is -(x + y), so the picture has
    the real board's landscape orientation with the flags in the corners.
    """
    from simulator.boards import Board, Cell

    rules = rules or Rules()
    starts = set(B.START[1 if rules.start_squares == "harbour_end" else 0].ravel().tolist())
    cells = []
    for c, (x, y) in enumerate(B.CELLS):
        kind = B.KIND_NAMES[B.kind_of(c)]
        if kind in ("start", "harbour", "anchor") and c not in B.ANCHOR:
            kind = "start" if c in starts else "harbour"
        nb = tuple(sorted({int(t) for t in B.STEP[c] if t >= 0}))
        label = ""
        if B.IS_STRAIT[c]:
            label = "S1" if (x, y) == (3, 4) else "S2"
        elif c in B.ANCHOR:
            label = B.CORNER_NAMES[int(list(B.ANCHOR).index(c))]
        cells.append(Cell(c, kind, float(x - y), float(-(x + y)), nb, label))
    for k, (x, y) in enumerate(B.ISLAND):
        cells.append(
            Cell(B.N_CELLS + k, "island", float(x - y), float(-(x + y)), (), "Skull Island")
        )
    return Board(tuple(cells), "square")


def check(rules: Rules, n_players: int, seats: Any = None) -> str | None:
    return check_players(rules, n_players)


_fields = {f.name for f in dataclasses.fields(GameSpec)}
_extra: dict[str, Any] = {}
if "board" in _fields:
    _extra["board"] = board
if "heatmaps" in _fields:
    _extra["heatmaps"] = HEATMAPS
if "check" in _fields:
    _extra["check"] = check

SPEC = GameSpec(
    id="pirateer",
    title="Pirateer",
    min_players=2,
    max_players=4,
    default_players=4,
    cooperative=False,
    length_unit="turns",
    end_reasons=END_REASONS,
    rules_class=Rules,
    policies=POLICIES,
    default_policy="runner",
    play_chunk=play_chunk,
    columns=COLUMNS if "heatmaps" in _fields else {**COLUMNS, **HEATMAPS},
    **_extra,
)
