"""Cape Horn rule options: every rule of docs/rules/cape-horn.md that a designer may change.

Seed passages are quoted from seeds/cape-horn.txt (Spanish); reconstructed numbers (board, card
mix) come from the package's data files and name ../shared/reference/boards.md section 2.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

from simulator.contract.rules import RuleSet, option

from .board import DATA_FILES, load

_DEFAULT_COUNTS = load().card_counts


@dataclass(frozen=True)
class Rules(RuleSet):
    game_id = "cape-horn"
    # The board, stations, start winds and card mix (balance data cape-horn; --data NAME=FILE).
    data_files = DATA_FILES

    # -- components and setup ---------------------------------------------------------------------
    card_counts: tuple[int, ...] = option(
        _DEFAULT_COUNTS,
        "copies of each card design of cards.csv in the deck, in file order (the designs only "
        "printed on start spaces have 0); a replaced cards file (--data cards=FILE) sets the "
        "default to its count column",
        "Componentes: '90 cartas de viento' (mix reconstructed, boards.md 2.4)",
        lo=0,
        hi=200,
    )
    start_hand: int = option(
        3,
        "wind cards each player draws before the first turn",
        "Preparar: 'Cada jugador roba tres cartas de viento de las pilas'",
        lo=0,
        hi=6,
    )
    start_sail_points: int = option(
        3,
        "sail points each player starts with",
        "Preparar: 'coloca su marcador de punto de vela en el espacio \"3\"'",
        lo=0,
        hi=20,
    )
    # -- step 1: sail points ----------------------------------------------------------------------
    max_sail_points: int = option(
        8,
        "most sail points a player can hold",
        "1.: 'un jugador no puede tener más de ocho puntos de vela'",
        lo=1,
        hi=20,
    )
    sail_points_per_turn: int = option(
        1,
        "sail points added at the start of each turn",
        "1.: 'El jugador agrega un punto de vela a su libro de registro'",
        lo=0,
        hi=5,
    )
    # -- step 2: laying cards ---------------------------------------------------------------------
    adjacency: str = option(
        "diagonal",
        "a laid card must touch a card on the board: 'diagonal' (8 neighbours) or 'orthogonal' "
        "(4, the German rules' reading)",
        "2.: 'Esto puede ser horizontal, vertical o diagonalmente'",
        choices=("diagonal", "orthogonal"),
    )
    cover_sole_card: bool = option(
        True,
        "a card may cover another only when it is the only card the player lays that turn",
        "2.: 'el jugador coloca solo esta carta de viento este turno'",
    )
    cover_reach: str = option(
        "all_moves",
        "cards a player may not cover: those its ship could reach this turn, whatever its sail "
        "points ('all_moves': by its card, by 'ignorar' (the 8 neighbours) and by 'mover dos "
        "veces' (both landings); 'with_ignore': by its card and 'ignorar'; 'moves_only': by "
        "its card only)",
        "2.: 'no cubre una carta de viento que podría alcanzar con su barco en este turno (esto "
        'incluye movimientos permitidos por el movimiento especial "ignorar")\'',
        choices=("all_moves", "with_ignore", "moves_only"),
    )
    # -- step 3: movement -------------------------------------------------------------------------
    forced_ignore: str = option(
        "paid",
        "when every move of the card leaves the board the ship can only move by 'ignorar': "
        "'paid' at its usual cost, 'free' without paying",
        "3.: 'el jugador debe elegir el movimiento especial \"ignorar\" para mover el barco'",
        choices=("paid", "free"),
    )
    no_move_gain: int = option(
        1,
        "sail points gained by the special move 'no move' (never above the maximum)",
        "Sin movimiento: 'recibir un punto de vela en su lugar (hasta un máximo de 8)'",
        lo=0,
        hi=5,
    )
    ignore_cost: int = option(
        3,
        "sail points the special move 'ignorar' costs (move to any of the 8 neighbours)",
        "Ignorar: 'un jugador puede pagar 3 puntos de vela'",
        lo=0,
        hi=20,
    )
    twice_cost: int = option(
        5,
        "sail points the special move 'mover dos veces' costs",
        "Mover dos veces: 'puede pagar 5 puntos de vela para mover su barco dos veces'",
        lo=0,
        hi=20,
    )
    token_on_first_of_twice: bool = option(
        True,
        "a ship moving twice takes a station token where its first move ends (each move is a "
        "move that ends somewhere)",
        "Mover dos veces: 'Cada movimiento debe seguir las reglas de movimiento normales'",
    )
    stuck: str = option(
        "no_move",
        "a ship with no legal move and no affordable 'ignorar': 'no_move' (the special move no "
        "move, gaining its sail point) or 'stay' (stays, gaining nothing)",
        "Sin movimiento: 'un jugador puede optar por no mover su barco' (silent on a stuck ship)",
        choices=("no_move", "stay"),
    )
    # -- step 4: cards ----------------------------------------------------------------------------
    hand_max: int = option(
        6,
        "most wind cards a player may hold (no discards)",
        "4.: 'un jugador nunca puede tener más de seis cartas de viento y no puede descartarlas'",
        lo=1,
        hi=12,
    )
    draw_per_turn: int = option(
        1,
        "cards drawn free at the end of each turn",
        "4.: 'El jugador roba una carta de viento de una de las pilas'",
        lo=0,
        hi=6,
    )
    buy_cost: int = option(
        1,
        "sail points per extra card bought at the end of a turn",
        "4.: 'El jugador puede comprar cartas de viento adicionales por 1 punto de vela cada una'",
        lo=0,
        hi=20,
    )
    empty_piles: str = option(
        "no_draw",
        "when both piles are empty: 'no_draw' (play on without drawing) or 'end' (the game ends "
        "with no winner)",
        "4.: silent on empty piles",
        choices=("no_draw", "end"),
    )
    # -- stations and victory ---------------------------------------------------------------------
    tokens_per_colour: int = option(
        5,
        "station tokens of each colour (15 in all: 3 colours x 5)",
        "Componentes: '15 fichas de estación'",
        lo=0,
        hi=20,
    )
    finish_tokens: int = option(
        2,
        "station tokens (different colours, different zones) a ship needs when it crosses the "
        "finish line to win",
        "Objeto: 'Adquirir 2 fichas de estación de diferentes colores en 2 zonas diferentes y "
        "cruzar la línea de meta'",
        lo=0,
        hi=3,
    )
    three_token_victory: bool = option(
        True,
        "a ship holding a token from each of the three zones wins at once",
        "Objeto: 'Adquirir una ficha de estación de diferente color en cada una de las tres zonas'",
    )
    finish_mode: str = option(
        "land",
        "crossing the finish line: 'land' (a move ends on a card laid beyond the line, the F row) "
        "or 'reach' (a move ends on any F space, card or not)",
        "Objeto: 'cruzar la línea de meta' (the line is not described)",
        choices=("land", "reach"),
    )
    max_rounds: int = option(
        200,
        "round cap: a game no player has won by then ends with reason 'round_cap'",
        "not in the seed (simulation guard)",
        lo=1,
        hi=10_000,
        screen=False,
    )

    def data_defaults(self) -> dict:
        """The deck follows the cards file in force: its count column is the default mix."""
        return {"card_counts": load(self).card_counts}

    def check(self) -> str | None:
        data = load(self)
        if len(self.card_counts) != len(data.card_names):
            return (
                f"card_counts has {len(self.card_counts)} entries but the card file has "
                f"{len(data.card_names)} designs ({', '.join(data.card_names)})"
            )
        if sum(self.card_counts) == 0:
            return "card_counts: the deck needs at least one card"
        if self.start_sail_points > self.max_sail_points:
            return "start_sail_points is above max_sail_points"
        if self.start_hand > self.hand_max:
            return "start_hand is above hand_max"
        return None


# choice values as the compiled code sees them (module-level ints are numba constants)
ADJ_ORTHOGONAL = Rules.choice_index("adjacency", "orthogonal")
REACH_ALL = Rules.choice_index("cover_reach", "all_moves")
REACH_MOVES_ONLY = Rules.choice_index("cover_reach", "moves_only")
FORCED_FREE = Rules.choice_index("forced_ignore", "free")
STUCK_NO_MOVE = Rules.choice_index("stuck", "no_move")
PILES_END = Rules.choice_index("empty_piles", "end")
FINISH_REACH = Rules.choice_index("finish_mode", "reach")


# What compiled code reads: every option but the card counts (an array; the engine gets the
# shuffled deck instead). A tuple of scalars is passed to every helper without reference counting
# and keeps the compiled signatures small.
ENGINE_FIELDS = tuple(o.name for o in Rules.options() if o.name != "card_counts")
EngineRules = namedtuple("EngineRules", ENGINE_FIELDS)


def engine_rules(rules: Rules) -> EngineRules:
    """The rules for compiled code, read by name (``r.ignore_cost``)."""
    full = rules.to_engine()
    return EngineRules(*(getattr(full, name) for name in ENGINE_FIELDS))
