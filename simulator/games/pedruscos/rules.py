"""Pedruscos del Espacio rule options: every rule of docs/rules/pedruscos.md a designer may change.

Seed passages are named by the seed's paragraph titles (seeds/pedruscos-del-espacio.txt).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

from simulator.contract.rules import RuleSet, option

from .board import COLOUR_ORDERS, DATA_FILES, SHAPE_OPTIONS

# Codes of the station table's results, in table order (the `pedruscos_events` column's order).
EVENT_NAMES = (
    "nothing",  # 2-4
    "hauler",  # 5
    "lost_turn",  # 6
    "purity",  # 7
    "repairs",  # 8
    "pirates",  # 9
    "stock_market",  # 10
    "holidays",  # 11-12
)
N_EVENTS = len(EVENT_NAMES)
SEED_TABLE = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 7)  # results 2..12


@dataclass(frozen=True)
class Rules(RuleSet):
    game_id = "pedruscos"
    # The board as cells and links (balance data pedruscos; --data board=FILE).
    data_files = DATA_FILES

    # -- goal -------------------------------------------------------------------------------------
    target_points: int = option(
        50,
        "points that win: the first miner to reach them wins at once",
        "Objetivo: 'llegar a un cierto valor prefijado... Cincuenta puntos son una buena cantidad'",
        lo=1,
        hi=10_000,
    )
    max_rounds: int = option(
        1000,
        "round cap: a game nobody has won by then stops with end reason 'round_cap'",
        "not in the seed (simulation guard)",
        lo=1,
        hi=100_000,
        screen=False,
    )
    # -- the board (a reconstruction: its free numbers) -------------------------------------------
    spoke_length: int = option(
        4,
        "asteroids on each route from the planet to a station",
        "boards.md 3.2 (reconstruction: 'each a path of 4 small squares')",
        lo=1,
        hi=12,
    )
    ring_length: int = option(
        6,
        "asteroids on the shortest route between neighbouring stations",
        "Estaciones: 'la ruta más corta de la estación nº2 a la nº1, solo recolectaría dos cartas "
        "de cada color' (with two dice rolling 8: 6 asteroids, two of each colour)",
        lo=1,
        hi=12,
    )
    arc_length: int = option(
        9,
        "squares on the 'upper' route between stations 1-2, 3-4 and 5-6, its moon at the middle",
        "Estaciones: 'suele ser mejor optar por el camino más largo' (the upper route gives more "
        "cards than the shortest: 8 asteroids and the moon; boards.md 3.2 had 3 + moon + 3)",
        lo=1,
        hi=13,
    )
    chord_length: int = option(
        8,
        "asteroids on the routes between stations two apart (2-4, 4-6, 6-2), which pass beside "
        "the planet; 0: no such routes",
        "Estaciones: 'la que pasa junto al Planeta del Espacio y le lleva hacia la estación nº6' "
        "(from station 2)",
        lo=0,
        hi=14,
    )
    planet_routes: str = option(
        "beside",
        "harvest routes pass beside the planet, never through it ('beside'), or may also run "
        "from one spoke through the planet into another ('through')",
        "Estaciones: 'siguiendo en orden una de las rutas posibles'; 'la que pasa junto al "
        "Planeta del Espacio' (beside, not through)",
        choices=("beside", "through"),
    )
    colour_order: str = option(
        "red-yellow-blue",
        "order in which asteroid colours cycle along every route, from the planet or from the "
        "lower-numbered station",
        "boards.md 3.2 (reconstruction: 'cycle red, yellow, blue along each path')",
        choices=COLOUR_ORDERS,
    )
    # -- cards and ore ----------------------------------------------------------------------------
    hold_limit: int = option(
        10,
        "ore cards a ship may carry; a full ship takes a card only by discarding one",
        "Carga máxima: 'solo pueden almacenar diez cargas de mineral'",
        lo=1,
        hi=100,
    )
    deck_size: int = option(
        67,
        "cards in each colour's deck (Trivio 1000: 1000 questions, 5 a card, about 200 cards in "
        "three colours)",
        "Movimiento: 'Se usan las cartas de preguntas' (deck sizes are not in the seed)",
        lo=1,
        hi=10_000,
    )
    empty_deck: str = option(
        "no_card",
        "a colour whose deck is empty gives no card ('no_card') or decks never run out ('endless')",
        "Envíos: 'Todas las cartas son devueltas a sus mazos' (running out is not covered)",
        choices=("no_card", "endless"),
    )
    value_faces: tuple[int, ...] = option(
        (1, 1, 1, 2, 2, 3),
        "an ore's value for each face 1-6 of its die",
        "Bolsa de valores: 'de 1 a 3... un punto. 4 o 5... dos puntos. 6... tres puntos'",
        lo=0,
        hi=100,
    )
    # -- shipping ---------------------------------------------------------------------------------
    shipping_cost: int = option(
        2,
        "points a shipment from a moon costs, taken from its value",
        "Envíos desde las lunas: 'tiene un coste de dos puntos'",
        lo=0,
        hi=100,
    )
    must_exceed_cost: bool = option(
        True,
        "a shipment is allowed only when its value exceeds its cost",
        "Envíos desde las lunas: 'El coste se descontará de lo que obtenga de ese envío (que "
        "deberá ser superior a dos)'",
    )
    # -- stations ---------------------------------------------------------------------------------
    branch_cost: int = option(
        4,
        "points a branch costs, from points already earned",
        "Estaciones: 'hay que pagar cuatro puntos de los que ya se tengan acumulados'",
        lo=0,
        hi=100,
    )
    harvest_dice: int = option(
        1,
        "dice rolled for a harvest at a station with a branch",
        "Estaciones: 'Se lanza para ello un dado'",
        lo=1,
        hi=4,
    )
    coordinated_dice: int = option(
        2,
        "dice rolled for a harvest along a route ending at another active station with a branch",
        "Estaciones: 'ambas se coordinan y en lugar de un dado se lanzan dos'",
        lo=1,
        hi=4,
    )
    route_choice: str = option(
        "after_roll",
        "a harvest's route is chosen after the dice (only the choice to coordinate, hence how "
        "many dice, comes first) or before them",
        "Estaciones: 'Se lanza para ello un dado... Para determinar los colores de estas, "
        "elegiremos una de las rutas'",
        choices=("after_roll", "before_roll"),
    )
    moon_in_harvest: str = option(
        "skip",
        "a moon on a harvest route gives no card and is skipped, or counts as one of the squares",
        "Estaciones: 'pudiendo recolectar tantas cartas como la cifra obtenida' (moons on a route "
        "are not covered)",
        choices=("skip", "counts"),
    )
    # -- the station table ------------------------------------------------------------------------
    station_events: bool = option(
        True,
        "a ship starting its turn on a station rolls 2d6 on the station table",
        "Sucesos aleatorios: 'Cada vez que un Minero comienza su turno en una estación, debe "
        "lanzar dos dados'",
    )
    event_table: tuple[int, ...] = option(
        SEED_TABLE,
        "result for each 2d6 sum 2..12: 0 nothing, 1 hauler, 2 lost turn, 3 purity, 4 repairs, "
        "5 pirates, 6 stock market, 7 holidays",
        "Sucesos aleatorios: the table 2-4, 5, 6, 7, 8, 9, 10, 11-12",
        lo=0,
        hi=N_EVENTS - 1,
    )
    hauler_cost: int = option(
        3,
        "points the autonomous hauler (result 5) charges for a shipment",
        "5. Transportistas autónomos: 'pagando 3 puntos en lugar de 2'",
        lo=0,
        hi=100,
    )
    purity_cards: int = option(
        2,
        "extra cards of a colour already carried on result 7",
        "7. Nivel de pureza alto: 'toma dos cartas adicionales mineral de un color que ya tenga'",
        lo=0,
        hi=10,
    )
    repairs: str = option(
        "travel",
        "result 8: the ship must travel back to the planet ('travel') or is put there at once "
        "and ends its turn ('teleport'); either way no collecting or shipping until it takes off "
        "from the planet",
        "8. Reparación y mantenimiento: 'debe regresar al Planeta del Espacio... Hasta que "
        "regrese al mundo central y vuelva a despegar de allí al turno siguiente'",
        choices=("travel", "teleport"),
    )
    repairs_block_hauler: bool = option(
        False,
        "a ship under repairs may not use the autonomous hauler either",
        "8. Reparación: 'no puede recolectar mineral en los asteroides ni estaciones, ni puede "
        "realizar envíos desde las lunas' (the hauler is not named)",
    )
    pirates_odd: str = option(
        "half_down",
        "result 9 with an odd number of cards discards (n-1)/2 ('half_down') or (n+1)/2",
        "9. ¡Piratas!: 'descarta la mitad (o la mitad menos una, si es una cifra impar)'",
        choices=("half_down", "half_up"),
    )
    discards_to_deck: bool = option(
        True,
        "discarded cards (pirates, a full ship's swap) go back to their decks",
        "Envíos: 'Todas las cartas son devueltas a sus mazos' (discards are not covered)",
    )

    def check(self) -> str | None:
        if len(self.value_faces) != 6:
            return "value_faces needs one value for each die face 1-6 (6 numbers)"
        if len(self.event_table) != 11:
            return "event_table needs one result for each 2d6 sum 2..12 (11 numbers)"
        if not self.source("board").shipped:
            shaped = [o for o in SHAPE_OPTIONS if getattr(self, o) != getattr(Rules(), o)]
            if shaped:
                which = f"{shaped[0]} shapes" if len(shaped) == 1 else f"{', '.join(shaped)} shape"
                return (
                    f"{which} the generated board and cannot be set with a board file "
                    "(--data board=FILE); edit the file's cells and links instead"
                )
        return None

    def board_key(self) -> tuple:
        """The arguments of :func:`board.build_board` these rules call for."""
        return (
            self.spoke_length,
            self.ring_length,
            self.arc_length,
            self.colour_order,
            self.moon_in_harvest,
            self.chord_length,
            self.planet_routes,
        )


EMPTY_ENDLESS = Rules.choice_index("empty_deck", "endless")
ROUTE_BEFORE_ROLL = Rules.choice_index("route_choice", "before_roll")
REPAIRS_TELEPORT = Rules.choice_index("repairs", "teleport")
PIRATES_HALF_UP = Rules.choice_index("pirates_odd", "half_up")


# numba's cache matches argument types by class: the rules tuple compiled code receives must be a
# class importable by name, or every new process compiles the engine again. Tuple options travel
# as tuples of ints (passed by value) rather than arrays, which would be reference-counted at
# every call of every helper.
PedruscosRules = namedtuple("PedruscosRules", [o.name for o in Rules.options()])


def engine_rules(rules: Rules) -> PedruscosRules:
    """``rules.to_engine()`` as the module-level tuple class above (same fields and values)."""
    values = rules.to_engine()
    return PedruscosRules(*(tuple(int(x) for x in v) if hasattr(v, "shape") else v for v in values))
