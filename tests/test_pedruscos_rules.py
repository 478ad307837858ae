"""Pedruscos rules, sentence by sentence, on hand-made positions (docs/rules/pedruscos.md)."""

import dataclasses

import numpy as np
import pytest

from policies.pedruscos import POLICIES, new_move_scratch
from simulator.contract.errors import BalanceError
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import MOON, PLANET, STATION, build_board
from simulator.games.pedruscos.engine import turn
from simulator.games.pedruscos.rules import Rules, engine_rules
from simulator.games.pedruscos.turn import (
    EV_HAULER,
    EV_HOLIDAYS,
    EV_MARKET,
    EV_PIRATES,
    EV_PURITY,
    EV_REPAIRS,
    close_station,
    harvest,
    land,
    land_unasked,
    station_event,
    take_card,
)

RED, YELLOW, BLUE = 0, 1, 2
BOARD = build_board(*Rules().board_key())
B = BOARD.arrays
MOON_CELL = next(c for c in range(BOARD.n_cells) if BOARD.kind[c] == MOON)


class Table:
    """One hand-made position: rules, board, seats and the state arrays."""

    def __init__(self, policies=("lookahead", "lookahead"), **rules):
        self.rules = dataclasses.replace(Rules(), **rules)
        self.r = engine_rules(self.rules)
        self.b = build_board(*self.rules.board_key()).arrays
        n = len(policies)
        self.ids, self.prm = engine_arrays(seat_policies(list(policies), POLICIES, "pedruscos", n))
        self.st = S.new_state(n, self.b.kind.shape[0])
        self.pl, self.br, self.g, self.ends, self.cols = self.st
        for c in range(3):
            self.g[S.G_DECK + c] = self.rules.deck_size
            self.g[S.G_VALUE + c] = 1
        self.g[S.G_TURN] = 10
        self.scratch = new_move_scratch(self.b)

    def cards(self, p=0, red=0, yellow=0, blue=0):
        for c, n in enumerate((red, yellow, blue)):
            self.pl[p, S.P_CARDS + c] = n
            self.g[S.G_DECK + c] -= n

    def held(self, p=0):
        return [int(self.pl[p, S.P_CARDS + c]) for c in range(3)]

    def values(self, red, yellow, blue):
        self.g[S.G_VALUE : S.G_VALUE + 3] = (red, yellow, blue)

    def args(self):
        return (self.r, self.b, self.ids, self.prm, self.st)

    def land(self, p, cell):
        land(*self.args(), p, cell, self.scratch)

    def event(self, p, ev):
        return station_event(*self.args(), p, ev)

    def harvest(self, p, s):
        return harvest(*self.args(), p, s, self.scratch)

    def take(self, p, c):
        return take_card(*self.args(), p, c, False, -1)

    def turn(self, p):
        turn(*self.args(), p, None, None, np.zeros(0, np.int64), self.scratch)  # as a run


# -- shipping -------------------------------------------------------------------------------------
def test_the_seeds_shipment_8_plus_3_minus_2_is_9():
    # "con cuatro remesas de mineral rojo (valor total de ocho puntos), dos azules y una amarilla
    # (valor total de tres puntos), y unos gastos fijos de envío de dos puntos, obtendría
    # (8+3-2=9) nueve puntos"
    t = Table()
    t.values(2, 1, 1)
    t.cards(red=4, blue=2, yellow=1)
    t.land(0, MOON_CELL)
    assert t.pl[0, S.P_POINTS] == 9
    assert t.held() == [0, 0, 0]
    assert t.pl[0, S.P_SHIPMENTS] == 1
    assert [int(t.g[S.G_DECK + c]) for c in range(3)] == [67, 67, 67]  # back to their decks


def test_a_shipment_must_be_worth_more_than_its_cost():
    t = Table(policies=("random", "random"))
    t.cards(red=2)  # value 2: not more than the cost
    for _ in range(20):  # the random policy would ship if it were allowed
        t.land(0, MOON_CELL)
    assert t.pl[0, S.P_POINTS] == 0 and t.held() == [2, 0, 0]
    t2 = Table(policies=("random", "random"), must_exceed_cost=False)
    assert S.can_ship(t2.r, np.array([[0, 0, 2, 0, 0] + [0] * 11]), t2.g, 0, 2)


def test_passing_a_moon_or_ending_elsewhere_ships_nothing_and_repairs_forbid_shipping():
    t = Table()
    t.cards(red=10)
    t.pl[0, S.P_REPAIR] = 1
    t.land(0, MOON_CELL)
    assert t.pl[0, S.P_POINTS] == 0 and t.held() == [10, 0, 0]


# -- cards ----------------------------------------------------------------------------------------
def test_ending_on_an_asteroid_takes_a_card_of_its_colour():
    t = Table()
    for colour in (RED, YELLOW, BLUE):
        cell = next(c for c in range(BOARD.n_cells) if BOARD.colour[c] == colour)
        t.land(0, cell)
        assert t.held()[colour] == 1
        assert t.cols[cell] == 1


def test_a_full_hold_swaps_only_for_a_dearer_card():
    # "puede tomar una carta de mineral amarillo, aunque ya tenga diez cartas acumuladas. Al
    # hacerlo debe descartar una carta que ya tenga para seguir totalizando diez como máximo"
    t = Table()
    t.values(1, 3, 2)
    t.cards(red=6, blue=4)
    assert t.take(0, YELLOW)
    assert t.held() == [5, 1, 4]  # the cheapest (red) went
    assert not t.take(0, RED)  # nothing cheaper to give up
    assert t.held() == [5, 1, 4] and sum(t.held()) == 10
    assert t.g[S.G_DECK + RED] == 67 - 5  # the discard went back to its deck


def test_a_landing_that_asks_no_policy_is_played_without_its_policy_and_the_others_are_left():
    # a turn plays these landings without the policies' call (land_unasked): what they change
    # must be what the general step changes (the move, then take_card for an asteroid's card),
    # and a landing that may ask a policy must be left untouched
    t = Table()
    asteroid = next(c for c in range(BOARD.n_cells) if BOARD.colour[c] == YELLOW)
    planet = next(c for c in range(BOARD.n_cells) if BOARD.kind[c] == PLANET)
    station = next(c for c in range(BOARD.n_cells) if BOARD.kind[c] == STATION)
    t.cards(red=9)  # one short of the hold limit: room for one
    for cell in (asteroid, planet):
        twin = Table()
        for a, b in zip(twin.st, t.st, strict=True):
            a[...] = b
        assert land_unasked(t.r, t.b, t.st, 0, cell)
        twin.pl[0, S.P_POS] = cell
        if cell == asteroid:
            assert take_card(*twin.args(), 0, YELLOW, False, cell)
        for a, b in zip(t.st, twin.st, strict=True):
            assert np.array_equal(a, b)
    assert t.held() == [9, 1, 0] and t.cols[asteroid] == 1 and t.pl[0, S.P_POS] == planet
    before = [a.copy() for a in t.st]
    for cell in (asteroid, MOON_CELL, station):  # a full hold (swap?), a shipment, a branch
        assert not land_unasked(t.r, t.b, t.st, 0, cell)
        assert all(np.array_equal(a, b) for a, b in zip(t.st, before, strict=True))


def test_an_empty_deck_gives_no_card_unless_decks_are_endless():
    t = Table(deck_size=1)
    assert t.take(0, RED) and not t.take(0, RED)
    t2 = Table(deck_size=1, empty_deck="endless")
    assert t2.take(0, RED) and t2.take(0, RED)


# -- branches and harvests ------------------------------------------------------------------------
def test_a_branch_costs_four_earned_points_and_needs_them():
    t = Table()
    t.pl[0, S.P_POINTS] = 3
    t.land(0, 1)
    assert t.br[0, 1] == 0 and t.pl[0, S.P_POINTS] == 3
    t.pl[0, S.P_POINTS] = 9
    t.land(0, 1)
    assert t.br[0, 1] == t.g[S.G_TURN] + 1 and t.pl[0, S.P_POINTS] == 5
    assert t.pl[0, S.P_BRANCHES] == 1
    # several players may hold a branch at one station
    t.pl[1, S.P_POINTS] = 4
    t.land(1, 1)
    assert t.br[1, 1] > 0


def test_no_harvest_on_the_turn_the_branch_is_built():
    t = Table(policies=("builder", "builder"))
    t.pl[0, S.P_POINTS] = 20
    t.land(0, 2)  # builds
    t.land(0, 2)  # same turn: neither harvest nor a second branch
    assert t.held() == [0, 0, 0] and t.pl[0, S.P_POINTS] == 16


def harvest_lengths(coordinated: bool, seeds=range(300), route_choice="after_roll"):
    """How many cards a harvest at station 2 takes, and whether they follow the route's order."""
    lengths = []
    for seed in seeds:
        t = Table(route_choice=route_choice)
        t.values(1, 1, 3)  # blue is dear: the best route depends on the dice
        t.br[0, 2] = 1  # built long ago
        if coordinated:
            t.br[0, 6] = 1
        S.seed_rng(seed)
        i = t.harvest(0, 2)
        n = sum(t.held())
        colours = [c for c in B.route_colour[i, : B.route_len[i]] if c >= 0][:n]
        assert t.held() == [colours.count(c) for c in range(3)]  # a prefix, in order
        assert int(t.pl[0, S.P_HARVEST_CARDS]) == n
        if coordinated and n > 6:
            assert B.route_end[i] == 6
        lengths.append(n)
    return lengths


def test_one_die_harvest_takes_one_to_six_cards_along_a_route():
    counts = np.bincount(harvest_lengths(False), minlength=9)
    assert counts[0] == 0 and counts[7:].sum() == 0
    assert (counts[1:7] > 20).all()  # each face of one die shows up (300 harvests)


def test_two_dice_when_the_route_ends_at_another_branch_station_2_to_6_beside_the_planet():
    # "la que pasa junto al Planeta del Espacio y le lleva hacia la estación nº6": with a branch
    # at 6 that route rolls two dice: 8 asteroids, so 7 or 8 cards show up
    counts = np.bincount(harvest_lengths(True), minlength=13)
    assert counts[1] == 0 and counts[9:].sum() == 0
    assert counts[7] + counts[8] > 0


def test_the_seeds_eight_on_the_shortest_route_2_to_1_gives_two_of_each_colour():
    # "obtener un ocho y optar por la ruta más corta de la estación nº2 a la nº1, solo
    # recolectaría dos cartas de cada color"
    t = Table()
    ring = next(
        i
        for i in range(B.route_ptr[2], B.route_ptr[3])
        if B.route_end[i] == 1 and B.route_len[i] == 6
    )
    taken = [int(c) for c in B.route_colour[ring, : min(8, B.route_len[ring])]]
    assert sorted(taken) == [0, 0, 1, 1, 2, 2]
    assert t.b.route_len[ring] == 6


def test_closed_stations_neither_harvest_nor_sell_branches_nor_coordinate():
    t = Table()
    t.br[0, 2] = 1
    t.br[0, 6] = 1
    close_station(t.g, 2)
    t.land(0, 2)
    assert t.held() == [0, 0, 0]
    t.pl[0, S.P_POINTS] = 10
    t.land(0, 2)
    assert t.pl[0, S.P_POINTS] == 10
    # "no podría coordinar una recolecta doble de mineral entre la nº6 y la nº5... al no estar
    # activa la nº5": close 6, harvest at 2 never takes more than one die
    assert S.coordinates(t.br, t.g, 0, 6)
    close_station(t.g, 6)
    assert S.station_open(t.g, 2)  # the last one reopened: one closed at a time
    assert not S.coordinates(t.br, t.g, 0, 6)
    for seed in range(100):
        t.pl[0, S.P_CARDS : S.P_CARDS + 3] = 0
        S.seed_rng(seed)
        t.harvest(0, 2)
        assert sum(t.held()) <= 6


def test_route_before_roll_also_takes_a_prefix():
    lengths = harvest_lengths(True, range(100), route_choice="before_roll")
    assert max(lengths) <= 8


def test_a_counted_moon_takes_a_card_slot_and_gives_nothing():
    t = Table(moon_in_harvest="counts")
    arc = next(
        i
        for i in range(t.b.route_ptr[1], t.b.route_ptr[2])
        if (t.b.route_colour[i, : t.b.route_len[i]] < 0).any()
    )
    assert t.b.route_len[arc] == 9 and t.b.route_colour[arc, 4] == -1


# -- the station table ----------------------------------------------------------------------------
def test_hauler_ships_for_three():
    t = Table()
    t.values(2, 2, 2)
    t.cards(red=10)  # 20 - 3 = 17
    t.pl[0, S.P_POS] = 3
    assert t.event(0, EV_HAULER)
    assert t.pl[0, S.P_POINTS] == 17
    t2 = Table()
    t2.cards(red=3)  # worth 3: not more than 3
    t2.pl[0, S.P_POS] = 3
    t2.event(0, EV_HAULER)
    assert t2.pl[0, S.P_POINTS] == 0


def test_a_lost_turn_keeps_the_ship_and_it_rolls_again():
    t = Table(event_table=(2,) * 11)  # every roll: "¿Dónde está el piloto?"
    t.pl[0, S.P_POS] = 4
    for _ in range(5):
        t.turn(0)
    assert t.pl[0, S.P_POS] == 4 and t.pl[0, S.P_LOST_TURNS] == 5
    assert t.g[S.G_EVENTS + 2] == 5 and t.ends[4] == 5


def test_purity_gives_two_cards_of_a_colour_already_held():
    t = Table()
    t.values(1, 3, 1)
    t.cards(red=2, yellow=1)
    t.pl[0, S.P_POS] = 1
    t.event(0, EV_PURITY)
    assert t.held() == [2, 3, 0]
    t2 = Table()
    t2.pl[0, S.P_POS] = 1
    t2.event(0, EV_PURITY)
    assert t2.held() == [0, 0, 0]  # nothing held, nothing to refine
    t3 = Table()
    t3.values(1, 3, 1)
    t3.cards(red=9, yellow=1)
    t3.pl[0, S.P_POS] = 1
    t3.event(0, EV_PURITY)
    assert t3.held() == [7, 3, 0]  # a full hold swaps a cheap red for each yellow


def test_repairs_send_the_ship_home_and_stop_collecting_until_it_takes_off():
    t = Table()
    t.pl[0, S.P_POS] = 1
    assert t.event(0, EV_REPAIRS)  # it still moves this turn (travel)
    assert t.pl[0, S.P_REPAIR] == 1
    cell = next(c for c in range(BOARD.n_cells) if BOARD.colour[c] == RED)
    t.land(0, cell)
    assert t.held() == [0, 0, 0]
    t.pl[0, S.P_POINTS] = 0
    t.br[0, 3] = 1
    t.land(0, 3)  # no harvest either
    assert t.held() == [0, 0, 0]
    t.land(0, PLANET)
    assert t.pl[0, S.P_REPAIR] == 1  # still until it takes off
    S.seed_rng(1)
    t.turn(0)  # starts on the planet: takes off repaired
    assert t.pl[0, S.P_REPAIR] == 0
    assert t.pl[0, S.P_POS] != PLANET
    t2 = Table(repairs="teleport")
    t2.pl[0, S.P_POS] = 1
    assert not t2.event(0, EV_REPAIRS)
    assert t2.pl[0, S.P_POS] == PLANET


@pytest.mark.parametrize(
    "held, rule, left",
    [(7, "half_down", 4), (8, "half_down", 4), (7, "half_up", 3), (1, "half_down", 1)],
)
def test_pirates_take_half_rounded_down(held, rule, left):
    t = Table(pirates_odd=rule)
    t.cards(red=held)
    t.pl[0, S.P_POS] = 5
    S.seed_rng(3)
    t.event(0, EV_PIRATES)
    assert sum(t.held()) == left
    assert t.pl[0, S.P_PIRATE_LOST] == held - left


def test_stock_market_rerolls_every_value_from_the_faces():
    seen = set()
    t = Table()
    t.cards(red=3)
    t.pl[0, S.P_POS] = 5
    for seed in range(200):
        S.seed_rng(seed)
        t.event(0, EV_MARKET)
        seen.add(tuple(int(v) for v in t.g[S.G_VALUE : S.G_VALUE + 3]))
    assert all(v in (1, 2, 3) for vals in seen for v in vals)
    assert len(seen) > 15  # values move independently
    assert t.held() == [3, 0, 0]


def test_holidays_close_one_station_at_a_time():
    t = Table()
    t.pl[0, S.P_POS] = 5
    t.event(0, EV_HOLIDAYS)
    assert not S.station_open(t.g, 5)
    t.pl[1, S.P_POS] = 2
    t.event(1, EV_HOLIDAYS)
    assert S.station_open(t.g, 5) and not S.station_open(t.g, 2)


def test_only_a_turn_started_on_a_station_rolls_the_table():
    t = Table(event_table=(2,) * 11)
    for start in (PLANET, MOON_CELL, 20):
        t.pl[0, S.P_POS] = start
        t.turn(0)
        assert t.pl[0, S.P_POS] != start
    assert t.g[S.G_EVENTS : S.G_EVENTS + 8].sum() == 0
    t.pl[0, S.P_POS] = 2
    assert BOARD.kind[2] == STATION
    t.turn(0)
    assert t.g[S.G_EVENTS + 2] == 1


def test_event_probabilities_follow_2d6():
    r = engine_rules(Rules())
    probs = [S.event_probability(r, k) for k in range(8)]
    assert probs == pytest.approx([6 / 36, 4 / 36, 5 / 36, 6 / 36, 5 / 36, 4 / 36, 3 / 36, 3 / 36])


def test_bad_rule_values_are_one_line_errors():
    with pytest.raises(BalanceError):
        Rules().with_values({"value_faces": "1,2,3"})
    with pytest.raises(BalanceError):
        Rules().with_values({"event_table": "0,9,0,0,0,0,0,0,0,0,0"})
    with pytest.raises(BalanceError):
        Rules().with_values({"colour_order": "red-red-blue"})


# -- the goal -------------------------------------------------------------------------------------
def test_the_hauler_reaching_the_target_wins_before_the_move():
    # "El objetivo del juego es llegar a un cierto valor prefijado": the first miner to reach it
    # wins at once. A hauler (table result 5) lifts player 0 from 28 to 30 points on a station
    # where it could open a branch (4 points): the game is over before the die, so no move and no
    # branch takes the points back below the target.
    t = Table(policies=("builder", "builder"), event_table=(1,) * 11, target_points=30)
    station = next(c for c in range(B.kind.shape[0]) if B.kind[c] == STATION)
    t.pl[0, S.P_POS] = station
    t.pl[0, S.P_POINTS] = 28
    t.cards(red=5)  # 5 - 3 = 2
    t.turn(0)
    assert t.g[S.G_ENDED] == 1 and t.g[S.G_WINNER] == 0 and t.g[S.G_END_REASON] == S.END_TARGET
    assert t.pl[0, S.P_POINTS] == 30 and t.pl[0, S.P_POS] == station
    assert t.pl[0, S.P_BRANCHES] == 0


def test_a_moon_shipment_reaching_the_target_ends_the_game_on_landing():
    t = Table(target_points=30)
    t.pl[0, S.P_POINTS] = 25
    t.cards(red=7)  # 7 - 2 = 5
    t.land(0, MOON_CELL)
    assert t.pl[0, S.P_POINTS] == 30
    assert t.g[S.G_ENDED] == 1 and t.g[S.G_WINNER] == 0  # at once, not at the end of the turn
    t2 = Table(target_points=30)
    t2.pl[0, S.P_POINTS] = 25
    t2.cards(red=6)  # at most 29: short of the target
    t2.land(0, MOON_CELL)
    assert t2.pl[0, S.P_POINTS] < 30 and t2.g[S.G_ENDED] == 0


@pytest.mark.parametrize("seed", [149, *range(150, 162)])
def test_no_event_follows_the_shipment_that_reaches_the_target(seed):
    # builders on a table of haulers: shipments from stations, branches bought on landing
    from simulator.games.pedruscos.spec import SPEC

    rules = Rules().with_values({"event_table": (1,) * 11, "target_points": 30, "ring_length": 3})
    ids, prm = engine_arrays(seat_policies(["builder"], SPEC.policies, SPEC.id, 3))
    rows, columns = SPEC.replay.play(rules, 3, ids, prm, seed)
    events = SPEC.replay.decode(rules, 3, rows)
    first = next(i for i, e in enumerate(events) if e["kind"] == "ship" and e["total"] >= 30)
    assert events[first + 1]["kind"] == "end", events[first : first + 3]
    assert events[first + 1]["winner"] == events[first]["player"] == columns["winner"][0]
    assert events[first + 1]["scores"][events[first]["player"]] == events[first]["total"]
