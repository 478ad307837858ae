"""Every threshold of Caza-Tesoros's turn rules at its value and one either side.

Each test quotes the seed passage that fixes the number (docs/rules/caza-tesoros.md) and plays
the rule of ``simulator.games.caza_tesoros.turn`` on a hand-made position, so moving a threshold by
one (a ``>`` for a ``>=``, a price off by one) fails a test here.
"""

import numpy as np
import pytest

from policies.caza_tesoros import CAUTIOUS, GREEDY, GREEDY_P, PASS, SEARCH
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import cell_of
from simulator.games.caza_tesoros.engine import (
    EV_FORCED_SALE,
    EVENT_WIDTH,
    check_end,
    pay_maintenance,
    resolve_auction,
    seed_rng,
    weekly_draw,
)
from simulator.games.caza_tesoros.turn import act, purchases
from tests.test_caza_rules import NO_LOG, inputs, policies, position, put_cross

DIRS = np.zeros(64, dtype=np.int64)


# "el jugador debe pagar 1 Pv" (level 1), "para este segundo nivel el precio es de 3 Pv", and in
# "Lluvia y Tormenta ... el primer nivel costara 2 Pv y el segundo 4 Pv": a ship searches only
# when its player can pay
@pytest.mark.parametrize(
    "weather, level, cost",
    [(S.CLOUDY, 1, 1), (S.CLOUDY, 2, 3), (S.RAIN, 1, 2), (S.STORM, 2, 4)],
)
@pytest.mark.parametrize("short", [-1, 0, 1])
def test_a_ship_searches_only_when_its_player_can_pay(weather, level, cost, short):
    r, t = inputs(deviation_timing="before_action")  # the storm moves nobody in act
    st = position(2, vp=cost + short)
    pl, sh, cr, g = st[:4]
    g[S.G_WEATHER] = weather
    c = put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
    if level == 2:
        cr[c, S.C_DUTY + 0] = g[S.G_DAY] - 1  # failed level 1 yesterday
    assert S.search_level(r, cr, g, 0, c) == level
    seed_rng(g, 1)
    act(r, t, st, NO_LOG, 0, 0, SEARCH, DIRS)
    assert pl[0, S.P_SEARCHES] == (0 if short < 0 else 1)
    if short < 0:
        assert pl[0, S.P_VP] == cost - 1


# "Al comienzo de la semana cada jugador deberá pagar 1 Pv por cada barco": short of it by one,
# the player retires a ship (it has no card to sell); with exactly enough it pays everything
@pytest.mark.parametrize("vp, ships, left", [(1, 1, 5), (2, 2, 0), (3, 2, 1)])
def test_maintenance_is_paid_in_full_from_exactly_one_vp_per_ship(vp, ships, left):
    r, t = inputs()
    st = position(2, vp=vp)
    pl, sh, cr, g = st[:4]
    sh[0, 1, S.S_CELL] = cell_of(9, 9)
    pl[0, S.P_SHIPS] = 2
    pay_maintenance(r, t, *policies(CAUTIOUS, CAUTIOUS), st, NO_LOG, 0)
    assert pl[0, S.P_SHIPS] == ships and pl[0, S.P_VP] == left
    assert pl[0, S.P_RETIRED] == 2 - ships


# "el precio de salida sera la mitad del valor del objeto redondeando hacia abajo"
@pytest.mark.parametrize(
    "kind, start", [(S.DIVERS, 2), (S.COMPASS, 5), (S.ROBOT, 7), (S.SCANNER, 12)]
)
def test_a_forced_sale_starts_at_half_the_price_rounded_down(kind, start):
    r, t = inputs(maintenance_per_ship=4)
    st = position(2, vp=0)
    pl, sh, cr, g = st[:4]
    sh[0, 0, S.S_ITEMS + kind] = 1
    if kind == S.SCANNER:
        sh[0, 0, S.S_ITEMS + S.ROBOT] = 1  # the scanner's chain (it is sold first)
    log = np.zeros((16, EVENT_WIDTH), dtype=np.int64)
    pay_maintenance(r, t, *policies(CAUTIOUS, CAUTIOUS), st, log, 0)
    sales = log[log[:, 0] == EV_FORCED_SALE]
    assert sales[0, 5] == kind and sales[0, 8] == start


# "la carta podrá salir a subasta por el precio de inicio indicado por la carta": a bid of the
# start price counts, one below it does not; the winner pays one above the second bid, never
# below the start nor above its own bid
@pytest.mark.parametrize(
    "bids, result",
    [
        ([-1, 10, -1], (1, 10)),  # exactly the start: sold at the start
        ([-1, 9, -1], (-1, 0)),  # one below: unsold
        ([-1, 11, 9], (1, 10)),  # the second below the start: the start price
        ([-1, 12, 10], (1, 11)),  # the second at the start: one above it
        ([-1, 12, 11], (1, 12)),  # one above the second reaches the winner's bid
        ([-1, 12, 12], (1, 12)),  # equal bids: never above the winner's own
    ],
)
def test_auction_price_at_its_thresholds(bids, result):
    assert resolve_auction(np.array(bids, dtype=np.int64), 10, 0) == result


# "Carta de objeto navegación Brújula ..........................10 Pv": the card drawn is bought
# at its price only by a player who has it
@pytest.mark.parametrize("vp, bought", [(9, False), (10, True), (11, True)])
def test_the_card_drawn_is_bought_only_with_its_price_in_hand(vp, bought):
    r, t = inputs()
    st = position(2, vp=vp)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK + S.COMPASS] = 1
    pids, prm = policies(GREEDY, CAUTIOUS)
    prm[:, GREEDY_P.reserve] = -5  # it would buy beyond its means: the rule refuses
    weekly_draw(r, t, pids, prm, st, NO_LOG, 0)
    assert sh[0, 0, S.S_ITEMS + S.COMPASS] == (1 if bought else 0)
    assert pl[0, S.P_VP] == (vp - 10 if bought else vp)


# "Precio por barco nuevo ....10 Pv", "Cartas de barcos hundidos del Archivo de Indias....3 Pv"
@pytest.mark.parametrize("short", [-1, 0, 1])
@pytest.mark.parametrize("what, price", [("ship", 10), ("card", 3)])
def test_purchases_need_their_price(what, price, short):
    r, t = inputs()
    st = position(2, vp=price + short)
    pl, sh, cr, g = st[:4]
    pids, prm = policies(GREEDY, GREEDY)
    prm[:, GREEDY_P.reserve] = -20  # asks whatever it holds: the rule decides
    prm[:, GREEDY_P.cards] = 1 if what == "card" else 0
    prm[:, GREEDY_P.ships] = 2 if what == "ship" else 1
    seed_rng(g, 2)
    purchases(r, t, pids, prm, st, NO_LOG, 0)
    field = S.P_SHIPS if what == "ship" else S.P_CARDS
    assert pl[0, field] == (1 if what == "ship" else 0) + (0 if short < 0 else 1)
    assert pl[0, S.P_VP] == (price + short if short < 0 else short)


# "El juego acaba cuando cualquier jugador haya rescatado 3 fichas de tesoro o cuando el Archivo
# de Indias ponga las 5 fichas-cruz del archivo sobre el tablero."
@pytest.mark.parametrize("treasures, end", [(2, -1), (3, S.END_TREASURES), (4, S.END_TREASURES)])
def test_three_treasures_end_the_game(treasures, end):
    r, _ = inputs()
    pl, sh, cr, g = position(3)[:4]
    pl[2, S.P_TREASURES] = treasures
    assert check_end(r, pl, g) == end


@pytest.mark.parametrize("crosses, end", [(4, -1), (5, S.END_ARCHIVE), (6, S.END_ARCHIVE)])
def test_five_archive_crosses_end_the_game(crosses, end):
    r, _ = inputs()
    pl, sh, cr, g = position(3)[:4]
    g[S.G_ARCHIVE_CROSSES] = crosses
    assert check_end(r, pl, g) == end


# "Si el jugador falla en el primer nivel de búsqueda debe pasar el turno al siguiente jugador,
# pero en su siguiente turno podrá iniciar una búsqueda en el segundo nivel": with
# level2_window = next_turn_only the level 2 is the day after the failure's, and only then; with
# must_next_turn that day binds the ship to search
@pytest.mark.parametrize("days_after, level, bound", [(0, 1, False), (1, 2, True), (2, 1, False)])
def test_the_level_two_window_is_the_day_after_the_failure(days_after, level, bound):
    window, _ = inputs(level2_window="next_turn_only")
    must, _ = inputs(level2_window="must_next_turn")
    pl, sh, cr, g = position(2)[:4]
    c = put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
    cr[c, S.C_DUTY + 0] = g[S.G_DAY]
    g[S.G_DAY] += days_after
    assert S.search_level(window, cr, g, 0, c) == level
    assert S.bound_to_search(must, cr, g, 0, c) == bound


# "Pero este último estado (Tempestad) ... traen como consecuencia una Desviación del rumbo ...
# si el barco no esta dotado de navegación vía satélite": rain (the state before) moves nobody
@pytest.mark.parametrize("weather, moved", [(S.RAIN, False), (S.STORM, True)])
def test_only_the_storm_deviates_a_ship(weather, moved):
    r, t = inputs()
    st = position(2)
    pl, sh, cr, g = st[:4]
    g[S.G_WEATHER] = weather
    start = sh[0, 0, S.S_CELL]
    seed_rng(g, 4)
    act(r, t, st, NO_LOG, 0, 0, PASS, DIRS)
    assert (sh[0, 0, S.S_CELL] != start) == moved
