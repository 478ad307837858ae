"""Caza-Tesoros rule options: every rule of docs/rules/caza-tesoros.md that a designer may change.

Seed passages are named by the rulebook's section titles (seeds/caza-tesoros.txt).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.contract.rules import RuleSet, option

MAX_SHIPS = 6  # ship slots per player (upper bound of the max_ships option)
MAX_CARDS = 6  # Archive cards per player (upper bound of max_archive_cards)
MAX_COLOURS = 6  # "eligen un color de los seis disponibles": colours at the table

WEATHER_NAMES = ("sunny", "partly cloudy", "cloudy", "very cloudy", "rain", "storm")


@dataclass(frozen=True)
class Rules(RuleSet):
    game_id = "caza-tesoros"
    data_note = (
        "Caza-Tesoros has no board or card files: its track, items, weather and treasure "
        "values are rule options (balance rules caza-tesoros). Nothing to replace."
    )

    # -- start ------------------------------------------------------------------------------------
    colours_per_player: int = option(
        1,
        "colours each player runs: each colour has its own ship, Archive card and purse and plays "
        "its own turn; the player wins on the sum of its colours' VP",
        "Inicio: 'si juegan menos jugadores pueden elegir varios colores cada uno'",
        lo=1,
        hi=3,
    )
    starting_vp: int = option(
        20,
        "victory points each player starts with",
        "Inicio: 'además de 20 Puntos de Victoria'",
        lo=0,
        hi=1000,
    )
    starting_ships: int = option(
        1, "ships each player starts with", "Inicio: 'comenzaran con un único barco'", lo=1, hi=6
    )
    starting_archive_cards: int = option(
        1,
        "Archive cards (own crosses) each player starts with",
        "Inicio: 'y una carta de Archivo de Indias'",
        lo=0,
        hi=6,
    )
    cross_reference: str = option(
        "card_edges",
        "each Archive card counts its coordinates from the edges it names, north or south and "
        "west or east, with equal chance ('card_edges'); or every cross from the top-left "
        "corner ('top_left')",
        "Colocar Tesoros: 'Barco hundido en la posición Norte 11 y Oeste 12' (the cards' texts "
        "are not in the seed)",
        choices=("card_edges", "top_left"),
    )
    archive_deck_size: int = option(
        18,
        "Archive of the Indies cards in the deck",
        "Contenido: '18 Cartas de Archivos de Indias'",
        lo=1,
        hi=100,
    )
    # -- days, weeks, weather ---------------------------------------------------------------------
    days_per_week: int = option(
        7,
        "days in a week (purchases and maintenance happen on day 1)",
        "Marcador de días de la semana (number of day boxes not in the text; a week of 7)",
        lo=1,
        hi=60,
    )
    max_days: int = option(
        365,
        "day cap: a game no rule has ended by then stops with end reason 'day_cap'",
        "not in the seed (simulation guard)",
        lo=1,
        hi=100_000,
        screen=False,
    )
    weather_faces: tuple[int, ...] = option(
        (0, 1, 2, 3, 4, 5),
        "weather state for weather-die faces 1..6 (0 sunny, 1 partly cloudy, 2 cloudy, "
        "3 very cloudy, 4 rain, 5 storm)",
        "Inicio: 'dos filas para el resultado del 1 al 3 la de arriba y del 4 al 6 las de abajo'",
        lo=0,
        hi=5,
    )
    weather_movement: tuple[int, ...] = option(
        (2, 1, 0, 0, -1, -2),
        "movement points added by each weather state (sunny .. storm)",
        "Meteorología: 'soleado +2', 'parcialmente nublado +1', 'lluvia -1', 'tormenta -2'",
        lo=-10,
        hi=10,
    )
    base_movement: int = option(
        1,
        "movement points of every ship before weather and navigation cards",
        "Meteorología: 'poseen 1 punto de movimiento'",
        lo=0,
        hi=10,
    )
    max_straight: int = option(
        3,
        "most hexes a ship may sail in one straight line within a turn before it must turn",
        "Movimiento: 'Ningún barco podrá avanzar más de 3 hexágonos en linea recta'",
        lo=1,
        hi=17,
    )
    deviation_edge: str = option(
        "stop",
        "storm deviation that would leave the board: 'stop' at the last hex, or 'stay' put",
        "Meteorología: deviation (board edge not covered by the seed)",
        choices=("stop", "stay"),
    )
    deviation_timing: str = option(
        "after_action",
        "storm deviation happens after the ship's action ('after_action': a ship on its cross "
        "may still search in a storm), or at the start of its turn ('before_action')",
        "Meteorología: 'Desviación del rumbo' (timing not stated); Buscar tesoros: 'Si algún "
        "jugador decide buscar tesoros en condiciones de mar adversa (Lluvia y Tormenta), lo "
        "pueden hacer'",
        choices=("after_action", "before_action"),
    )
    turn_order: str = option(
        "fixed",
        "seat order every day ('fixed'), or the first seat moves on by one each week",
        "Marcador de días de la semana: 'una vez haya trascurrido el turno de todos los jugadores'",
        choices=("fixed", "rotate_weekly"),
    )
    # -- searching --------------------------------------------------------------------------------
    level1_cost: int = option(
        1, "VP paid to start a level 1 search", "Buscar tesoros: 'debe pagar 1 Pv'", lo=0, hi=100
    )
    level2_cost: int = option(
        3,
        "VP paid to start a level 2 search",
        "Buscar tesoros: 'el precio es de 3 Pv'",
        lo=0,
        hi=100,
    )
    bad_weather_surcharge: int = option(
        1,
        "extra VP per search level in rain or storm",
        "Buscar tesoros: 'el precio de la búsqueda subirá en +1 Pv para cada nivel'",
        lo=0,
        hi=100,
    )
    level1_marking: str = option(
        "all",
        "a level 1 throw with extra dice marks every new value it shows ('all') or one ('one')",
        "Buscar tesoros: 'con el resultado obtenido ir marcando los números coincidentes'",
        choices=("all", "one"),
    )
    level2_marking: str = option(
        "one",
        "a level 2 throw marks one new value, its sum, difference or one die ('one'), "
        "or every new value it shows ('all')",
        "Buscar tesoros: 'se deberá marcar el resultado obtenido por los dados ya sea por la "
        "suma, resta o individual'",
        choices=("all", "one"),
    )
    marking_choice: str = option(
        "optimal",
        "with marking 'one', the value the player marks: the best choice, the one leaving the "
        "highest chance to finish (exact dynamic programme, 'optimal'), or the new value least "
        "likely to show again ('greedy')",
        "Buscar tesoros: 'se deberá marcar el resultado obtenido por los dados ya sea por la "
        "suma, resta o individual' (which one is the player's choice)",
        choices=("optimal", "greedy"),
    )
    level2_combinations: str = option(
        "any_pair",
        "level 2 sums and differences use any two dice, or only the two base dice",
        "Buscar tesoros: 'puede ser sumado, restado o tomado como valor independiente'",
        choices=("any_pair", "base_pair"),
    )
    level2_window: str = option(
        "any_later_turn",
        "after a failed level 1 the player's next search there is level 2, on any later turn "
        "('any_later_turn'); or level 2 only on the very next turn, else level 1 again "
        "('next_turn_only'); or the ship must search at level 2 on its very next turn when it "
        "is there and can pay ('must_next_turn')",
        "Buscar tesoros: 'el jugador fallara y deberá realizar una búsqueda de segundo nivel'; "
        "'en su siguiente turno podrá iniciar una búsqueda en el segundo nivel'",
        choices=("any_later_turn", "next_turn_only", "must_next_turn"),
    )
    bad_weather_item_loss: bool = option(
        True,
        "a failed level 2 in rain or storm returns the ship's best search card "
        "(else its best navigation card)",
        "Buscar tesoros: 'deberán devolver al mazo una carta objeto de búsqueda'",
    )
    archive_loot: str = option(
        "treasure",
        "rescuing an Archive cross pays the top Archive card's treasure (counts as a treasure), "
        "or gives that card as a new own cross ('card')",
        "Archivo de Indias: 'deberá coger la primera carta del mazo como botín del rescate'",
        choices=("treasure", "card"),
    )
    archive_fail_relocates: bool = option(
        True,
        "a failed level 2 on an Archive cross also re-places the ship by 3D6",
        "Archivo de Indias: 'no sera necesario remplazarla con otra ficha-cruz'",
    )
    treasure_values: tuple[int, ...] = option(
        (10, 20, 30, 40, 50),
        "VP of a treasure, drawn uniformly from these values",
        "Relación de cambio Tesoros/Puntos de victoria (table missing from the seed)",
        lo=0,
        hi=1000,
    )
    # -- items ------------------------------------------------------------------------------------
    items_per_ship: str = option(
        "one_per_kind",
        "a ship holds one card of each of the six kinds, each with its prerequisite "
        "('one_per_kind'), or one navigation and one search card, a new one replacing the old "
        "('one_per_type')",
        "Archivo de Indias: 'solo podrá tener un objeto de cada tipo navegación o búsqueda, por "
        "cada barco'; Objetos: 'Satélite ... el barco debe estar dotado de Gps para su uso'",
        choices=("one_per_kind", "one_per_type"),
    )
    upgrade_bonus: str = option(
        "replace",
        "GPS/satellite and robot/scanner replace the previous card's bonus, or add to it",
        "Objetos: 'GPS ... necesita estar en posesión de una brújula'",
        choices=("replace", "add"),
    )
    compass_movement: int = option(
        1, "movement points from a compass", "Objetos: 'Brújula ... una casilla más'", lo=0, hi=10
    )
    gps_movement: int = option(
        2, "movement points from a GPS", "Objetos: 'GPS ... dos casillas más'", lo=0, hi=10
    )
    satellite_movement: int = option(
        3,
        "movement points from a satellite",
        "Objetos: 'Satélite ... tres casillas más'",
        lo=0,
        hi=10,
    )
    divers_rerolls: int = option(
        1,
        "failed throws divers let a ship throw again per search",
        "Objetos: 'Buzos.- Le permiten realizar una tirada extra que hubiera fallado'",
        lo=0,
        hi=5,
    )
    robot_dice: int = option(
        1, "extra search dice from a robot", "Objetos: 'Robot ... sumar un dado extra'", lo=0, hi=3
    )
    scanner_dice: int = option(
        2,
        "extra search dice from a scanner",
        "Objetos: 'Escáner ... sumar dos dados extras'",
        lo=0,
        hi=3,
    )
    price_compass: int = option(10, "price of a compass", "Precios: 'Brújula 10 Pv'", lo=0, hi=500)
    price_gps: int = option(20, "price of a GPS", "Precios: 'Gps 20 Pv'", lo=0, hi=500)
    price_satellite: int = option(
        25, "price of a satellite", "Precios: 'Satélite 25 Pv'", lo=0, hi=500
    )
    price_divers: int = option(5, "price of divers", "Precios: 'Buzos 5 Pv'", lo=0, hi=500)
    price_robot: int = option(15, "price of a robot", "Precios: 'Robot 15 Pv'", lo=0, hi=500)
    price_scanner: int = option(25, "price of a scanner", "Precios: 'Escáner 25 Pv'", lo=0, hi=500)
    price_ship: int = option(
        10, "price of a new ship", "Precios: 'barco nuevo 10 Pv'", lo=0, hi=500
    )
    price_archive_card: int = option(
        3, "price of an Archive card", "Precios: 'Cartas de barcos hundidos 3 Pv'", lo=0, hi=500
    )
    object_deck: tuple[int, ...] = option(
        (6, 6, 6, 6, 6, 6),
        "object cards of each kind (compass, GPS, satellite, divers, robot, scanner)",
        "Contenido: '36 Cartas Objetos'; Nota del autor: '1D6 indicara el objeto'",
        lo=0,
        hi=100,
    )
    object_draw: str = option(
        "deck",
        "weekly object draw from the deck ('deck', returned cards shuffled in) or by 1D6",
        "Nota del autor: 'el resultado obtenido por 1D6 indicara el objeto'",
        choices=("deck", "die"),
    )
    # -- the week ---------------------------------------------------------------------------------
    maintenance_per_ship: int = option(
        1,
        "VP each player pays per ship at the start of every week",
        "Marcador de días de la semana: 'deberá pagar 1 Pv por cada barco'",
        lo=0,
        hi=100,
    )
    maintenance_order: str = option(
        "simultaneous",
        "players short of maintenance drop out together after everyone has paid "
        "('simultaneous'), or the game ends as soon as one player is left in seat order ('seat')",
        "Compra / Venta: 'si por esta razón quedara solo un jugador, este sera el ganador'",
        choices=("simultaneous", "seat"),
    )
    maintenance_first_week: bool = option(
        True,
        "maintenance is also paid at the start of the first week",
        "Marcador de días de la semana: 'Al comienzo de la semana'",
    )
    auction_commission: int = option(
        3,
        "VP the Archive pays a player whose drawn card sells at auction",
        "Compra / Venta: 'la comisión ... sera de 3 Pv'",
        lo=0,
        hi=100,
    )
    forced_sale_divisor: int = option(
        2,
        "a forced sale starts at the card price divided by this, rounded down",
        "Compra / Venta: 'el precio de salida sera la mitad del valor del objeto'",
        lo=1,
        hi=10,
    )
    retire_ship_payout: int = option(
        5,
        "VP the Archive pays for a retired ship",
        "Compra / Venta: 'el precio que le pagara el Archivo de Indias sera el de 5 Pv'",
        lo=0,
        hi=100,
    )
    purchase_days: str = option(
        "week_start",
        "ships and Archive cards are bought on the first day of the week only, or on any day",
        "Marcador de días de la semana: 'Las compras de material se realizan el primer día'",
        choices=("week_start", "any_day"),
    )
    max_ships: int = option(
        3,
        "most ships a player may own",
        "Contenido: '3 x 6 Fichas de barco por jugador'",
        lo=1,
        hi=MAX_SHIPS,
    )
    max_archive_cards: int = option(
        3,
        "most Archive cards (own crosses) a player may hold",
        "Archivo de Indias: 'Ningún jugador puede estar en posesión de más de tres cartas'",
        lo=1,
        hi=MAX_CARDS,
    )
    # -- end --------------------------------------------------------------------------------------
    treasures_to_win: int = option(
        3,
        "treasures a player must rescue to end the game",
        "Fin del juego: 'haya rescatado 3 fichas de tesoro'",
        lo=1,
        hi=100,
    )
    archive_crosses_to_end: int = option(
        5,
        "Archive crosses on the board that end the game at once",
        "Buscar tesoros: 'si ... aparecieran cinco marcas del Archivo de Indias'",
        lo=1,
        hi=50,
    )
    tie_equipment: str = option(
        "value",
        "third tie-break: total price of the ships' cards ('value') or their number",
        "Fin del juego: 'el que mejor los tenga dotados'",
        choices=("value", "count"),
    )

    def check(self) -> str | None:
        if len(self.weather_faces) != 6:
            return "weather_faces needs 6 values, one per face of the weather die"
        if len(self.weather_movement) != 6:
            return "weather_movement needs 6 values, one per weather state (sunny .. storm)"
        if len(self.object_deck) != 6:
            return "object_deck needs 6 counts: compass, GPS, satellite, divers, robot, scanner"
        if self.starting_ships > self.max_ships:
            return f"starting_ships ({self.starting_ships}) exceeds max_ships ({self.max_ships})"
        if self.starting_archive_cards > self.max_archive_cards:
            return (
                f"starting_archive_cards ({self.starting_archive_cards}) exceeds "
                f"max_archive_cards ({self.max_archive_cards})"
            )
        return None

    def engine_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rules as numba-friendly arrays: (scalars, read by name as ``r[state.R.name]``,
        treasure values, weather by die face, movement by weather state, object deck counts)."""
        return (
            self.scalar_array(),
            np.asarray(self.treasure_values, dtype=np.int64),
            np.asarray(self.weather_faces, dtype=np.int64),
            np.asarray(self.weather_movement, dtype=np.int64),
            np.asarray(self.object_deck, dtype=np.int64),
        )
