"""Every threshold of Cape Horn's turn rules (simulator/games/cape_horn/turn.py) at exactly its
value and one either side, each citing the seed passage (/work/shared/seeds/cape-horn.txt) it comes
from: what 'ignorar', 'mover dos veces' and a card cost, the hand limit, the sail-point cap, the
station tokens, the victory counts, the round cap."""

from __future__ import annotations

import pytest

from simulator.contract.recording import no_recording
from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn
from tests.test_cape_horn_rules import GREEN, RED, YELLOW, C, D, position

NO_REC = no_recording(turn.EVENT_WIDTH)
ON_F2 = {(10, 2): "F2", (9, 1): "B1", (11, 3): "F3"}  # (10,2) with two neighbours holding cards


def _ignore_legal(sail_points: int) -> bool:
    x = position(cards=ON_F2, ships=[(10, 2), (8, 8)])
    x.pl[0, S.P_SP] = sail_points
    return bool(turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_IGNORE, C(9, 1), 0))


# "Ignorar: un jugador puede pagar 3 puntos de vela para ignorar las instrucciones impresas en la
# tarjeta de viento."
@pytest.mark.parametrize(("sail_points", "legal"), [(2, False), (3, True), (4, True)])
def test_ignore_is_payable_from_exactly_three_sail_points(sail_points, legal):
    assert _ignore_legal(sail_points) == legal


@pytest.mark.parametrize("sail_points", [3, 4])
def test_ignore_takes_exactly_three_sail_points(sail_points):
    x = position(cards=ON_F2, ships=[(10, 2), (8, 8)])
    x.pl[0, S.P_SP] = sail_points
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_IGNORE, C(9, 1), 0)) == -1
    assert x.ship[0] == C(9, 1) and x.pl[0, S.P_SP] == sail_points - 3


# "Mover dos veces: un jugador puede pagar 5 puntos de vela para mover su barco dos veces en un
# turno." F1 on (10,0) lands on the F3 of (10,1), whose 3 north ends on (10,4).
TWICE = {(10, 0): "start_F1", (10, 1): "F3", (10, 4): "B1"}


@pytest.mark.parametrize(("sail_points", "legal"), [(4, False), (5, True), (6, True)])
def test_move_twice_is_payable_from_exactly_five_sail_points(sail_points, legal):
    x = position(cards=TWICE, ships=[(10, 0), (8, 8)])
    x.pl[0, S.P_SP] = sail_points
    assert turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_TWICE, 0, 0) == legal
    if legal:
        turn.make_move(x.B, x.r, x.st, 0, (S.MV_TWICE, 0, 0))
        assert x.ship[0] == C(10, 4) and x.pl[0, S.P_SP] == sail_points - 5


def _buy(sail_points: int, in_hand: int, wanted: int):
    """(cards bought, sail points left) when seat 0 asks to buy ``wanted`` cards."""
    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    x.hand[0, D("F3")] = in_hand
    x.pl[0, S.P_HAND] = in_hand
    x.pl[0, S.P_SP] = sail_points
    turn.buy_step(x.r, x.st, 0, wanted, *NO_REC)
    return int(x.pl[0, S.P_HAND]) - in_hand, int(x.pl[0, S.P_SP])


# "El jugador puede comprar cartas de viento adicionales por 1 punto de vela cada una."
@pytest.mark.parametrize(
    ("sail_points", "bought", "left"), [(0, 0, 0), (1, 1, 0), (2, 2, 0), (3, 2, 1)]
)
def test_a_card_costs_exactly_one_sail_point(sail_points, bought, left):
    assert _buy(sail_points, in_hand=1, wanted=2) == (bought, left)


# "Sin embargo, un jugador nunca puede tener más de seis cartas de viento": purchases stop at six
# cards in hand ...
@pytest.mark.parametrize(("in_hand", "bought"), [(4, 2), (5, 1), (6, 0)])
def test_purchases_stop_at_six_cards_in_hand(in_hand, bought):
    assert _buy(8, in_hand, wanted=3)[0] == bought


# ... and so does the free draw ("El jugador roba una carta de viento de una de las pilas").
@pytest.mark.parametrize(("in_hand", "drawn"), [(5, 1), (6, 0)])
def test_the_free_draw_is_skipped_with_six_cards_in_hand(in_hand, drawn):
    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    x.hand[0, D("F3")] = in_hand
    x.pl[0, S.P_HAND] = in_hand
    assert turn.draw_step(x.r, x.st, 0, *NO_REC) == -1
    assert x.pl[0, S.P_HAND] == in_hand + drawn
    assert x.hand[0].sum() == in_hand + drawn


# "Si el marcador ya está en el "8", no se mueve ya que un jugador no puede tener más de ocho
# puntos de vela."
@pytest.mark.parametrize(("before", "after"), [(6, 7), (7, 8), (8, 8)])
def test_the_turns_sail_point_stops_at_eight(before, after):
    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    x.pl[0, S.P_SP] = before
    turn.sail(x.r, x.st, 0, *NO_REC)
    assert x.pl[0, S.P_SP] == after and x.pl[0, S.P_SP_SAILED] == after - before


# "Sin movimiento: un jugador puede optar por no mover su barco y recibir un punto de vela en su
# lugar (hasta un máximo de 8 puntos de vela)."
@pytest.mark.parametrize(("before", "after"), [(6, 7), (7, 8), (8, 8)])
def test_no_move_gains_a_sail_point_up_to_eight(before, after):
    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    x.pl[0, S.P_SP] = before
    turn.make_move(x.B, x.r, x.st, 0, (S.MV_NONE, 0, 0))
    assert x.pl[0, S.P_SP] == after and x.pl[0, S.P_SP_GAINED] == after - before


# "15 fichas de estación" (five of each colour): a stop takes a token while one of its colour is
# left in the supply.
@pytest.mark.parametrize(("left", "taken"), [(0, False), (1, True), (2, True)])
def test_a_token_is_taken_while_one_of_its_colour_is_left(left, taken):
    x = position(cards={}, ships=[(8, 8), (3, 8)])
    x.g[S.G_TOK_LEFT + RED] = left
    turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 0, C(13, 3), True)  # zone I's red station
    assert (x.pl[0, S.P_TOK + 0] == RED) == taken
    assert x.g[S.G_TOK_LEFT + RED] == (left - 1 if taken else left)


def test_the_supply_holds_five_tokens_of_each_colour():
    assert (position().g[S.G_TOK_LEFT : S.G_TOK_LEFT + 3] == 5).all()


# "un barco que ha recogido dos fichas de estación cruza la línea de meta": crossing with one
# token goes on, with two or three wins (the finish line, (2,-3), is one step north of (2,-2)).
@pytest.mark.parametrize(("tokens", "reason"), [(1, -1), (2, S.END_FINISH)])
def test_the_finish_line_wins_from_exactly_two_tokens(tokens, reason):
    x = position(cards={(2, -2): "F1S1", (2, -3): "F2"}, ships=[(2, -2), (8, 8)])
    for z, colour in enumerate((YELLOW, GREEN)[:tokens]):
        x.pl[0, S.P_TOK + z] = colour
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_NORMAL, 0, 0)) == reason


# "un barco recolecta fichas de tres estaciones": the third token wins at once, the second not.
@pytest.mark.parametrize(("held", "reason"), [(1, -1), (2, S.END_THREE)])
def test_three_tokens_win_at_once_two_do_not(held, reason):
    x = position(cards={}, ships=[(8, 8), (3, 8)])
    for z, colour in enumerate((RED, GREEN)[:held]):
        x.pl[0, S.P_TOK + z] = colour
    # (2,-2) is zone III's yellow station; with one token held it is the second token
    assert turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 0, C(2, -2), True) == reason
    assert S.tokens_held(x.pl, 0) == held + 1


# "Cada jugador roba tres cartas de viento ... coloca su marcador de punto de vela en el espacio
# "3"": the set-up deals exactly three cards and three sail points to each seat.
def test_the_setup_deals_exactly_three_cards_and_three_sail_points():
    x = position(n_players=2)
    assert (x.pl[:, S.P_SP] == 3).all()
    assert x.g[S.G_DECK_POS] == 2 * 3  # dealt before position() emptied the hands


# The round cap (docs/rules/cape-horn.md, `max_rounds`; not in the seed: a simulation guard): the
# last seat of round ``max_rounds`` ends the game, the last seat of the round before does not.
@pytest.mark.parametrize(("round_", "next_seat"), [(199, 0), (200, -1)])
def test_the_round_cap_ends_the_game_after_exactly_max_rounds(round_, next_seat):
    x = position()
    assert x.r.max_rounds == 200
    x.g[S.G_ROUND] = round_
    assert turn.next_seat(x.r, x.g, 1, 2) == next_seat
    assert x.g[S.G_ROUND] == min(round_ + 1, 200)


def test_every_threshold_above_is_the_rules_default():
    r = position().r
    values = (r.ignore_cost, r.twice_cost, r.buy_cost, r.hand_max, r.max_sail_points)
    assert values == (3, 5, 1, 6, 8)
    assert (r.tokens_per_colour, r.finish_tokens, r.start_hand, r.start_sail_points) == (5, 2, 3, 3)
    assert (r.sail_points_per_turn, r.no_move_gain) == (1, 1)
