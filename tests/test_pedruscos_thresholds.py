"""Every threshold of Pedruscos's turn rules at its value and one either side.

Each test quotes the seed passage that fixes the number (docs/rules/pedruscos.md) and plays the
rule of ``simulator.games.pedruscos.turn`` on a hand-made position, so moving a threshold by one (a
``>`` for a ``>=``, a limit off by one) fails a test here.
"""

import numpy as np
import pytest

from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.turn import (
    EV_HAULER,
    EV_PIRATES,
    end_round,
    landing_choice,
    reach_target,
)
from tests.test_pedruscos_rules import MOON_CELL, RED, B, Table

ALWAYS_SHIPS = "hauler:ship_at=0"  # ships whenever the rules let it


# "solo pueden almacenar diez cargas de mineral, por lo que un Minero que tenga ya acumuladas
# diez cartas no puede recolectar más, pero sí cambiar unas por otras"
@pytest.mark.parametrize("held, taken", [(9, True), (10, False), (11, False)])
def test_the_hold_takes_a_card_freely_below_ten_and_only_by_a_swap_from_ten(held, taken):
    t = Table()
    assert t.rules.hold_limit == 10
    t.values(1, 1, 1)  # nothing dearer to swap for: a full hold refuses the card
    t.cards(red=held)
    assert t.take(0, RED) == taken
    assert sum(t.held()) == held + (1 if taken else 0)


# "El coste se descontará de lo que obtenga de ese envío (que deberá ser superior a dos)"
@pytest.mark.parametrize("value, ships", [(1, False), (2, False), (3, True)])
def test_a_moon_shipment_must_be_worth_more_than_two(value, ships):
    t = Table(policies=(ALWAYS_SHIPS, ALWAYS_SHIPS))
    assert t.rules.shipping_cost == 2
    t.values(1, 1, 1)
    t.cards(red=value)
    t.land(0, MOON_CELL)
    assert t.pl[0, S.P_SHIPMENTS] == (1 if ships else 0)
    assert t.pl[0, S.P_POINTS] == (value - 2 if ships else 0)
    assert t.held() == ([0, 0, 0] if ships else [value, 0, 0])


# "Se la puede contratar por 3 puntos ... como si hiciera el envío desde una luna, pagando 3
# puntos en lugar de 2": worth more than three, as a moon's shipment is worth more than two
@pytest.mark.parametrize("value, ships", [(2, False), (3, False), (4, True)])
def test_the_autonomous_hauler_ships_only_a_cargo_worth_more_than_three(value, ships):
    t = Table(policies=(ALWAYS_SHIPS, ALWAYS_SHIPS))
    assert t.rules.hauler_cost == 3
    t.values(1, 1, 1)
    t.cards(red=value)
    t.pl[0, S.P_POS] = 3  # a station
    assert t.event(0, EV_HAULER)
    assert t.pl[0, S.P_POINTS] == (value - 3 if ships else 0)
    assert t.pl[0, S.P_SHIPMENTS] == (1 if ships else 0)


# "Para establecer una sucursal en una estación hay que pagar cuatro puntos de los que ya se
# tengan acumulados"
@pytest.mark.parametrize("points, builds", [(3, False), (4, True), (5, True)])
def test_a_branch_needs_four_points_already_earned(points, builds):
    t = Table(policies=("builder", "builder"))
    assert t.rules.branch_cost == 4
    t.pl[0, S.P_POINTS] = points
    t.land(0, 1)  # station 1
    assert (t.br[0, 1] > 0) == builds
    assert t.pl[0, S.P_POINTS] == (points - 4 if builds else points)


# "El objetivo del juego es llegar a un cierto valor prefijado por los Mineros. Cincuenta puntos
# son una buena cantidad."
@pytest.mark.parametrize("points, wins", [(49, False), (50, True), (51, True)])
def test_reaching_fifty_points_wins(points, wins):
    t = Table()
    assert t.rules.target_points == 50
    t.pl[1, S.P_POINTS] = points
    assert reach_target(t.r, t.st, 1) == wins
    assert t.g[S.G_WINNER] == (1 if wins else 0) and t.g[S.G_ENDED] == (1 if wins else 0)


@pytest.mark.parametrize("played, over", [(99, False), (100, True), (101, True)])
def test_the_round_cap_ends_the_game_after_its_last_round(played, over):
    # not the seed's (it plays to the target): the toolkit's cap, rules option max_rounds
    t = Table(max_rounds=100)
    t.g[S.G_ROUND] = played
    end_round(t.r, t.st)
    assert t.g[S.G_ENDED] == (1 if over else 0)
    assert t.g[S.G_WINNER] == (-1 if over else 0)


# "Cuando al mover se llega a una estación en la que ya se tiene una sucursal desde algún turno
# anterior, se pueden emplear sus instalaciones para recolectar": a branch built this turn
# (br = turn + 1) does not harvest, one built the turn before (br = turn) does.
@pytest.mark.parametrize("built_ago, harvests", [(-1, False), (0, False), (1, True)])
def test_a_branch_harvests_from_the_turn_after_it_was_built(built_ago, harvests):
    t = Table()
    turn = int(t.g[S.G_TURN])
    t.br[0, 2] = turn - built_ago + 1  # built on turn (turn - built_ago); built_ago -1: not yet
    S.seed_rng(5)
    t.land(0, 2)
    assert (sum(t.held()) > 0) == harvests
    assert t.pl[0, S.P_HARVESTS] == (1 if harvests else 0)


# "en ningún caso puede recolectarse más de una carta de un asteroide por turno, y no puede
# seguir recolectándose mas allá de una estación ... obtener un ocho y optar por la ruta más
# corta de la estación nº2 a la nº1, solo recolectaría dos cartas de cada color": a harvest
# takes min(dice, route length) cards
def test_a_harvest_takes_as_many_cards_as_the_dice_but_never_past_the_route_end():
    sides = set()
    for seed in range(400):
        t = Table()
        t.values(1, 1, 3)
        t.br[0, 2] = 1
        t.br[0, 6] = 1  # two dice on the route towards station 6
        S.seed_rng(seed)
        i = t.harvest(0, 2)
        roll, n = int(t.g[S.G_HARVEST_ROLL]), int(B.route_len[i])
        assert (B.route_colour[i, :n] >= 0).all()  # every square of it gives a card
        assert sum(t.held()) == min(roll, n), (seed, roll, n)
        sides.add(int(np.sign(roll - n)))
    assert sides == {-1, 0, 1}  # dice short of, equal to and past the route's length


# "El Minero cuenta sus cartas de mineral, las baraja, y descarta la mitad (o la mitad menos una,
# si es una cifra impar)"
@pytest.mark.parametrize("held, left", [(0, 0), (1, 1), (2, 1), (3, 2), (10, 5)])
def test_pirates_take_half_the_cards_rounded_down(held, left):
    t = Table()
    t.cards(red=held)
    t.pl[0, S.P_POS] = 5
    S.seed_rng(3)
    t.event(0, EV_PIRATES)
    assert sum(t.held()) == left


# "Con un resultado de 1 a 3 en el dado, el Valor para el mineral de ese color es de un punto.
# Con un resultado de 4 o 5, su Valor es de dos puntos. Con un resultado de 6, su Valor es de
# tres puntos."
def test_ore_values_change_at_faces_four_and_six():
    t = Table()
    assert tuple(t.r.value_faces) == (1, 1, 1, 2, 2, 3)


# The searched option "land and ship" or "land and open a branch" exists at the same thresholds
@pytest.mark.parametrize("points, value, offered", [(3, 2, False), (4, 3, True), (5, 4, True)])
def test_the_landing_choice_is_offered_at_the_same_thresholds(points, value, offered):
    t = Table()
    t.values(1, 1, 1)
    t.cards(red=value)
    t.pl[0, S.P_POINTS] = points
    assert landing_choice(t.r, t.b, t.st, 0, 1) == offered  # a branch for 4 points
    assert landing_choice(t.r, t.b, t.st, 0, MOON_CELL) == offered  # a cargo worth more than 2
