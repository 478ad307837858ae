"""Every threshold of Pirateer's turn rules (simulator/games/pirateer/turn.py) at exactly its value
and one either side, each citing the seed passage (/work/shared/seeds/pirateer.txt) it comes
from."""

import numpy as np
import pytest

from simulator.games.pirateer import board as B
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.board import N_PICTURE
from simulator.games.pirateer.rules import Rules
from tests.test_pirateer_moves import Pos


def _lands(pos: Pos, direction: int, pips: int) -> tuple[int, int] | None:
    """Where ship 0 lands with one die of ``pips`` in ``direction`` (None: it may not)."""
    c = pos.walk(0, direction, pips)
    return B.CELLS[c] if c >= 0 else None


def _play(pos: Pos, p: int, move) -> None:
    heat = tuple(np.zeros(N_PICTURE, dtype=np.int64) for _ in range(3))
    rec, rec_n = np.zeros((0, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
    turn.play_move(pos.r, pos.state, p, move, heat, rec, rec_n)


def _one_step(ship: int, direction: int, pips: int, take: int = 0) -> np.ndarray:
    move = np.zeros(S.MOVE_FIELDS, dtype=np.int64)
    move[S.M_STEPS] = 1
    move[S.M_SHIP1], move[S.M_DIR1], move[S.M_PIPS1], move[S.M_TAKE1] = ship, direction, pips, take
    move[S.M_SHIP2] = -1
    return move


# "Cada dado equivale al número de espacios que se puede mover un barco en una dirección ... ni
# pueden cruzar otros barcos." An opponent 3 spaces ahead: 2 stops short, 3 captures it, 4 would
# cross it.
def test_a_ship_ahead_is_landed_on_at_its_distance_and_never_crossed():
    pos = Pos({0: (13, 5), 6: (13, 8)})
    assert _lands(pos, B.PY, 2) == (13, 7)
    assert _lands(pos, B.PY, 3) == (13, 8)  # a capture
    assert _lands(pos, B.PY, 4) is None


# "Los jugadores no pueden capturar barcos de su propia bandera": an own ship 3 ahead is no
# landing either, and still may not be crossed.
def test_an_own_ship_ahead_is_neither_landed_on_nor_crossed():
    pos = Pos({0: (13, 5), 1: (13, 8), 6: (5, 14)})
    assert _lands(pos, B.PY, 2) == (13, 7)
    assert _lands(pos, B.PY, 3) is None
    assert _lands(pos, B.PY, 4) is None


# "ni pueden saltar a través de los vientos alisios con un movimiento de un dado": the wind at
# (10,5) is 2 spaces from (10,3): 1 stops before it, 2 lands on it, 3 would jump it.
def test_a_trade_wind_is_landed_on_and_never_jumped_with_one_die():
    pos = Pos({0: (10, 3), 6: (5, 14)})
    assert _lands(pos, B.PY, 1) == (10, 4)
    assert _lands(pos, B.PY, 2) == (10, 5) and B.IS_WIND[B.INDEX[(10, 5)]]
    assert _lands(pos, B.PY, 3) is None


# "Los barcos no pueden saltar a través del estrecho con un movimiento de un dado": strait S1 is 2
# spaces from (5,4): 1 stops before it, 2 lands on it, 3 would jump it.
def test_a_strait_is_landed_on_and_never_jumped_with_one_die():
    pos = Pos({0: (5, 4), 6: (8, 12)})
    assert _lands(pos, B.MX, 1) == (4, 4)
    assert _lands(pos, B.MX, 2) == (3, 4) and B.IS_STRAIT[B.INDEX[(3, 4)]]
    assert _lands(pos, B.MX, 3) is None


# "Los barcos pueden tomar el tesoro de Skull Island aterrizando en cualquiera de los ocho
# espacios de anclaje": from (8,13) the anchorage (8,10) is 3 spaces north.
@pytest.mark.parametrize(("pips", "offered"), [(2, False), (3, True), (4, True)])
def test_the_treasure_is_offered_only_on_landing_on_an_anchorage(pips, offered):
    pos = Pos({0: (8, 13), 6: (5, 14)})
    to = pos.walk(0, B.MY, pips)
    assert bool(S.can_take(pos.g, to)) == offered
    assert bool(B.IS_ANCHORAGE[to]) == offered


# "El juego termina cuando un jugador mueve el tesoro a la casilla de ancla al final de su
# puerto": from (0,12) the top-left anchor square (0,9) is 3 spaces away.
@pytest.mark.parametrize(("pips", "home"), [(2, False), (3, True)])
def test_the_treasure_home_ends_the_game_on_the_anchor_square_only(pips, home):
    pos = Pos({0: (0, 12), 6: (5, 14)}, treasure=0)
    _play(pos, 0, _one_step(0, B.MY, pips))
    assert pos.g[S.G_ENDED] == int(home)
    if home:
        assert pos.g[S.G_END_REASON] == S.END_TREASURE_HOME and pos.g[S.G_WINNER] == 0
    assert pos.g[S.G_TREASURE] == (S.DELIVERED if home else 0)
    assert _lands(Pos({0: (0, 12), 6: (5, 14)}, treasure=0), B.MY, 4) is None  # past it: land


# "El juego también termina cuando un jugador captura a su último oponente restante": capturing
# the opponent's last ship ends the game, capturing one of its last two does not.
@pytest.mark.parametrize(("opponent_ships", "ends"), [(1, True), (2, False)])
def test_capturing_the_last_opponent_ship_ends_the_game(opponent_ships, ends):
    pieces = {0: (13, 5), 6: (13, 7)}
    if opponent_ships == 2:
        pieces[7] = (5, 14)
    pos = Pos(pieces)
    pos.g[S.G_WINNER] = -1
    _play(pos, 0, _one_step(0, B.PY, 2))
    assert pos.ships[6] == -1 and pos.g[S.G_CAPTURES] == 1
    assert pos.g[S.G_ENDED] == int(ends)
    assert (pos.g[S.G_END_REASON] == S.END_LAST_OPPONENT) == ends
    assert pos.g[S.G_WINNER] == (0 if ends else -1)


# "Ambos dados deben usarse para el movimiento siempre que sea posible. Si no es posible mover con
# ambos dados, se puede usar un dado": with two dice usable every move is two steps; with one,
# one step; with none, no move.
def test_the_number_of_dice_used_is_two_when_possible_then_one_then_none():
    pos = Pos({0: (0, 9), 6: (2, 14)})
    assert pos.steps(0, 5, 2) == [2]
    assert pos.steps(0, 5, 6) == [1]
    assert pos.moves(0, 6, 6).shape[0] == 0


# "Cada jugador elige una bandera y coloca barcos en los 3 espacios junto a la bandera de ancla":
# each flag in the game starts with ``ships_per_fleet`` ships (3), whatever the option says.
@pytest.mark.parametrize("ships_per_fleet", [1, 2, 3])
def test_each_flag_starts_with_its_ships(ships_per_fleet):
    r = Rules().with_values({"ships_per_fleet": str(ships_per_fleet)}).to_engine()
    st = S.new_state()
    turn.new_game(r, 4, st)
    for f in range(S.N_FLEETS):
        on_board = [s for s in range(f * S.FLEET, (f + 1) * S.FLEET) if st.ships[s] >= 0]
        assert len(on_board) == ships_per_fleet
    assert S.check_state(r, st) == 0


# The turn cap (docs/rules/pirateer.md, `max_turns`; not in the seed: a simulation guard): the
# game stops after exactly ``max_turns`` player turns, not one before.
@pytest.mark.parametrize(("turns_before", "ends"), [(-2, False), (-1, True)])
def test_the_turn_cap_stops_the_game_at_exactly_max_turns(turns_before, ends):
    r = Rules().with_values({"max_turns": "50"}).to_engine()
    g = np.zeros(S.N_G, dtype=np.int64)
    g[S.G_TURN] = r.max_turns + turns_before
    turn.end_turn(r, g)
    assert g[S.G_TURN] == r.max_turns + turns_before + 1
    assert g[S.G_ENDED] == int(ends)
    assert (g[S.G_END_REASON] == S.END_TURN_CAP) == ends
