"""Pirateer rule options: every rule of docs/rules/pirateer.md a designer may change.

Seed passages are named by the rulebook's section titles (seeds/pirateer.txt); readings the
Spanish text leaves open cite the board reference (boards.md section 1) where it helped.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.contract.rules import RuleSet, option


@dataclass(frozen=True)
class Rules(RuleSet):
    game_id = "pirateer"
    data_note = (
        "Pirateer's board is in code, not a data file: simulator/games/pirateer/board.py builds "
        "the 20 x 20 grid, straits, trade winds, anchorages and harbours of the published board "
        "(exact, boards.md section 1; docs/rules/pirateer.md, 'The board'). Nothing to replace."
    )

    # -- setup ------------------------------------------------------------------------------------
    ships_per_fleet: int = option(
        3,
        "ships each flag starts with",
        "Preparar: 'coloca barcos en los 3 espacios junto a la bandera de ancla'",
        lo=1,
        hi=3,
    )
    start_squares: str = option(
        "next_to_anchor",
        "where the ships start: the 3 spaces next to the anchor square, or the 3 end spaces of "
        "the harbour (the anchor square included)",
        "Preparar: 'los 3 espacios junto a la bandera de ancla al final de su puerto' "
        "(boards.md 1.4 options A and B)",
        choices=("next_to_anchor", "harbour_end"),
    )
    two_player_fleets: int = option(
        1,
        "flags each player sails in a 2-player game (2: six ships from opposite corners, as some "
        "players do)",
        "Preparar: 'Cada jugador elige una bandera' (one flag; two flags is a house rule)",
        lo=1,
        hi=2,
    )
    two_player_corners: str = option(
        "opposite",
        "which harbours two single-flag players take",
        "Preparar: 'Cada jugador elige una bandera' (the text lets them choose)",
        choices=("opposite", "adjacent"),
    )
    first_seat: int = option(
        1,
        "the seat that plays first (the winner of the opening roll); the others follow clockwise. "
        "Harbours belong to seats (seat 1 top-left, then clockwise), so this separates moving "
        "first from the harbour",
        "Preparar: 'los jugadores tiran los dados para obtener el total más alto para ver quién "
        "juega primero'",
        lo=1,
        hi=4,
        screen=False,
    )
    # -- movement ---------------------------------------------------------------------------------
    must_use_larger: bool = option(
        False,
        "when only one die can be used, it must be the larger one if that one can move",
        "Como se Juega: 'Si no es posible mover con ambos dados, se puede usar un dado' (any die)",
    )
    wind_diagonal: bool = option(
        True,
        "a ship on a trade wind may move diagonally along it",
        "Vientos alisios: 'Los barcos pueden moverse en diagonal dentro de los vientos alisios'",
    )
    wind_pass: bool = option(
        False,
        "a one-die move may pass through a trade wind (false: it must stop on it)",
        "Vientos alisios: 'ni pueden saltar a través de los vientos alisios con un movimiento de "
        "un dado'",
    )
    wind_entry_stops: bool = option(
        False,
        "a ship that enters a trade wind stays there for the rest of the turn",
        "not in the Spanish text (an English reading, boards.md 1.5)",
    )
    null_move: str = option(
        "allowed",
        "a double may take one ship out and straight back to where it started, a move that "
        "changes nothing ('allowed'), or not ('forbidden': such a move does not count as using "
        "both dice)",
        "Movimiento: 'Una tirada de ambos dados puede mover un barco ... dos veces en direcciones "
        "opuestas'",
        choices=("allowed", "forbidden"),
    )
    strait_pass: bool = option(
        False,
        "a one-die move may pass through a strait (false: it must stop on it)",
        "Estrecheces: 'Los barcos no pueden saltar a través del estrecho con un movimiento de un "
        "dado'",
    )
    # -- treasure ---------------------------------------------------------------------------------
    treasure_limit: str = option(
        "toward_or_parallel",
        "directions a treasure ship may take: toward its port or parallel to the harbour "
        "(never the grid direction away from its corner; trade-wind diagonals toward the port), "
        "or any direction",
        "Tesoro: 'Un barco del tesoro puede moverse directamente hacia su puerto o paralelo a la "
        "longitud de su puerto'",
        choices=("toward_or_parallel", "none"),
    )
    take_on_anchorage: str = option(
        "landing",
        "how a ship takes the treasure: by landing on an anchorage with a die-step this turn "
        "('landing'), or also, 'any_time', a ship already standing on an anchorage at the start "
        "of the turn (it may then move on as the treasure ship)",
        "Tesoro: 'Los barcos pueden tomar el tesoro ... aterrizando en cualquiera de los ocho "
        "espacios de anclaje ... Tomar el tesoro es opcional y se puede hacer en cualquier "
        "momento durante el turno'",
        choices=("landing", "any_time"),
    )
    anchorages_after_taking: str = option(
        "water",
        "what the 8 anchorages are once the treasure has left Skull Island: open water, or "
        "closed to ships",
        "Tesoro: the text says nothing of them afterwards (boards.md 1.5: both implementations "
        "treat them as water)",
        choices=("water", "closed"),
    )
    # -- end --------------------------------------------------------------------------------------
    max_turns: int = option(
        2000,
        "turn cap: a game no rule has ended after this many player turns stops with end reason "
        "'turn_cap' and no winner",
        "not in the seed (simulation guard)",
        lo=1,
        hi=1_000_000,
        screen=False,
    )


def check_players(rules: Rules, n_players: int) -> str | None:
    """A one-line problem with these rules at this player count, or None."""
    if rules.two_player_fleets == 2 and n_players != 2:
        return f"two_player_fleets=2 is a 2-player rule; this game has {n_players} players"
    if rules.first_seat > n_players:
        return f"first_seat={rules.first_seat} but this game has {n_players} players"
    return None
