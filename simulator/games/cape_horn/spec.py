"""Cape Horn's ``SPEC``: what the toolkit needs to know about the game (built at import)."""

from __future__ import annotations

from typing import Any

from policies.cape_horn import POLICIES
from simulator.contract.registry import (
    CATEGORY,
    CELLS,
    COUNT,
    MEASURE,
    ColumnKind,
    GameSpec,
    SearchHooks,
)

from . import board as BD
from .engine import COLUMNS, HEATMAPS, play_chunk
from .features import FEATURES
from .outside import OUTSIDE_DECISIONS
from .replay import REPLAY
from .rules import Rules
from .selfplay import bank, decide, record
from .state import END_NOTES, END_REASONS

COLUMN_KINDS = {
    **{c: COUNT for c in COLUMNS if c not in HEATMAPS},
    "cape_horn_token_zone1": CATEGORY,
    "cape_horn_token_zone2": ColumnKind("category", none=-1),
    "cape_horn_token_zone3": ColumnKind("category", none=-1),
    **{c: MEASURE for c in COLUMNS if c.startswith(("cape_horn_sp", "cape_horn_sail"))},
    **{c: CELLS for c in HEATMAPS},
}

COLOURS = {
    "none": "white",
    "land": "#b59f74",
    "sea_area1": "#f3e79b",
    "sea_area2": "#a6c8e6",
    "sea_area3": "#e8a4a0",
    "start": "#cccccc",
    "finish": "#444444",
    **{
        f"station_zone{z}_{c}": {"yellow": "gold", "red": "red", "green": "green"}[c]
        for z in (1, 2, 3)
        for c in BD.COLOURS
    },
}
LEGEND = {
    "none": "",  # off the board
    **{
        f"station_zone{z}_{c}": f"{c} station (I, II, III: its zone)"
        for z in (1, 2, 3)
        for c in BD.COLOURS
    },
}


def board(rules: Rules) -> Any:
    """The board as cells (every grid space, so heatmap columns line up with it)."""
    from simulator.contract.boards import Board, Cell

    data = BD.load(rules)
    kinds = BD.cell_kinds(data)
    arr = BD.arrays(rules)
    starts = {data.cell(c, r): str(n) for n, c, r, _ in data.starts}
    cells = []
    for c in range(data.n_cells):
        col, row = data.col_row(c)
        neigh = (
            tuple(int(n) for n in arr.neigh[c] if n >= 0)
            if kinds[c] not in ("none", "land")
            else ()
        )
        label, tag = starts.get(c, ""), ""
        if kinds[c].startswith("station"):
            z, colour = kinds[c].removeprefix("station_zone").split("_")
            tag = "I" * int(z)  # the zone, so one legend entry serves a colour's three stations
            label = f"{tag} {colour[0].upper()}"
        x, y = float(col), float(row - data.row_origin)
        cells.append(Cell(c, kinds[c], x, y, neigh, label, tag))
    return Board(tuple(cells), "square", COLOURS, LEGEND)


def check(rules: Rules, n_players: int, seats: Any = None) -> str | None:
    """One-line problem with an impossible combination (None when it can be played)."""
    data = BD.load(rules)
    if n_players > len(data.starts):
        starts = rules.source("starts")
        where = "" if starts.shipped else f"{starts.where()}: "
        return (
            f"{where}Cape Horn has {len(data.starts)} start spaces, not enough for {n_players} "
            "players (a ship per start space)"
        )
    deal = n_players * rules.start_hand
    if deal > sum(rules.card_counts):
        cards = rules.source("cards")
        where = "" if cards.shipped else f"{cards.where()}: "
        return (
            f"{where}the deck ({sum(rules.card_counts)} cards) is too small to deal "
            f"{n_players} players {rules.start_hand} cards each ({deal}; start_hand)"
        )
    return None


SPEC = GameSpec(
    id="cape-horn",
    title="Cape Horn",
    min_players=2,
    max_players=5,
    default_players=4,
    cooperative=False,
    length_unit="rounds",
    end_reasons=END_REASONS,
    end_notes=END_NOTES,
    rules_class=Rules,
    policies=POLICIES,
    default_policy="planner",
    play_chunk=play_chunk,
    columns=COLUMNS,
    column_kinds=COLUMN_KINDS,
    score_note="station tokens held plus the share of the route sailed, 0 at the start row to 1 "
    "at the finish",
    board=board,
    heatmaps=HEATMAPS,
    check=check,
    replay=REPLAY,
    outside=OUTSIDE_DECISIONS,
    strongest="planner",
    search_hooks=SearchHooks(FEATURES, record, bank, decide),
)
