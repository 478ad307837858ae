"""Cape Horn rules, one seed sentence at a time, on hand-made positions."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simulator.games.cape_horn import board as BD
from simulator.games.cape_horn import engine as E
from simulator.games.cape_horn import forward as F
from simulator.games.cape_horn import outside as X
from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn
from simulator.games.cape_horn.rules import Rules

DATA = BD.load()
YELLOW, RED, GREEN = range(3)


def C(col: int, row: int) -> int:
    return DATA.cell(col, row)


def D(name: str) -> int:
    return DATA.design(name)


def position(n_players: int = 2, cards: dict | None = None, ships=(), **options):
    """A board with only the given cards (and no printed start winds unless listed)."""
    rules = Rules().with_values(options) if options else Rules()
    B, r, deck0 = E.engine_inputs(rules)
    nd = len(rules.card_counts)
    st = S.new_state(n_players, B.kind.shape[0], nd, len(deck0))
    E.setup(B, r, deck0, n_players, st)
    card, ship, pl, hand, g, deck = st
    card[:] = -1
    hand[:, :] = 0  # no dealt cards: each test gives the ones it needs
    pl[:, S.P_HAND] = 0
    for (col, row), name in (cards or {}).items():
        card[C(col, row)] = D(name)
    for p, (col, row) in enumerate(ships):
        ship[p] = C(col, row)
    return SimpleNamespace(B=B, r=r, card=card, ship=ship, pl=pl, hand=hand, g=g, deck=deck, st=st)


def place(x, p, name, col, row, n=1, give=True):
    if give:
        x.hand[p, D(name)] += 1
    return turn.can_place(x.B, x.r, x.card, x.ship, x.hand, p, D(name), C(col, row), n)


# -- 2. laying cards ------------------------------------------------------------------------------
def test_a_card_must_touch_a_card_diagonals_included() -> None:
    x = position(cards={(10, 2): "F2"}, ships=[(13, 0), (13, 1)])
    assert place(x, 0, "F3", 11, 3)  # diagonal
    assert place(x, 0, "F3", 10, 3)  # vertical
    assert not place(x, 0, "F3", 12, 4)  # two away
    o = position(cards={(10, 2): "F2"}, ships=[(13, 0), (13, 1)], adjacency="orthogonal")
    assert not place(o, 0, "F3", 11, 3)
    assert place(o, 0, "F3", 11, 2)


def test_only_cards_in_hand_and_only_on_sea() -> None:
    x = position(cards={(8, 4): "F2"}, ships=[(13, 0), (13, 1)])
    assert not place(x, 0, "F3", 8, 3, give=False)  # not in hand
    assert not place(x, 0, "F3", 7, 4)  # land
    assert place(x, 0, "F3", 8, 5)


def test_covering_needs_the_sole_card_of_the_turn() -> None:
    x = position(cards={(10, 0): "F2", (13, 3): "F1S1", (13, 2): "B1"}, ships=[(10, 0), (8, 8)])
    assert place(x, 0, "F3", 13, 3, n=1)
    assert not place(x, 0, "F3", 13, 3, n=2)
    y = position(
        cards={(10, 0): "F2", (13, 3): "F1S1", (13, 2): "B1"},
        ships=[(10, 0), (8, 8)],
        cover_sole_card=False,
    )
    assert place(y, 0, "F3", 13, 3, n=2)


def test_no_covering_a_card_the_ship_could_reach_this_turn() -> None:
    # ship 0 on F2 at (10,0): its move reaches (10,2); 'ignorar' reaches (11,1)
    cards = {(10, 0): "F2", (10, 1): "B1", (10, 2): "F3", (11, 1): "F1S1", (12, 2): "B2"}
    x = position(cards=cards, ships=[(10, 0), (8, 8)])
    assert not place(x, 0, "S2", 10, 2)  # by its card
    assert not place(x, 0, "S2", 11, 1)  # by 'ignorar', even with too few sail points
    x.pl[0, S.P_SP] = 0
    assert not place(x, 0, "S2", 11, 1)
    assert place(x, 0, "S2", 12, 2)  # out of reach
    m = position(cards=cards, ships=[(10, 0), (8, 8)], cover_reach="moves_only")
    assert place(m, 0, "S2", 11, 1)
    assert not place(m, 0, "S2", 10, 2)


def test_no_covering_a_card_a_ship_rests_on_even_ones_own() -> None:
    cards = {(10, 0): "F2", (12, 3): "F3", (12, 4): "F1S1"}
    x = position(cards=cards, ships=[(10, 0), (12, 3)])
    assert not place(x, 0, "S2", 12, 3)
    assert not place(x, 1, "S2", 12, 3)
    assert not place(x, 0, "S2", 10, 0)  # its own ship
    assert place(x, 0, "S2", 12, 4)


def test_printed_start_winds_are_cards() -> None:
    x = position(cards={(12, -1): "start_F1", (11, -1): "F2"}, ships=[(12, -1), (8, 8)])
    assert place(x, 1, "F3", 12, 0)  # next to a printed wind
    assert place(x, 1, "B1", 11, -1, n=1)  # covering a free start space
    assert not place(x, 1, "B1", 11, -1, n=2)


def test_a_card_laid_on_a_station_keeps_the_station() -> None:
    x = position(cards={(13, 2): "F1S1"}, ships=[(8, 8), (3, 8)])
    st = C(13, 3)
    assert place(x, 0, "F2", 13, 3)
    x.card[st] = D("F2")
    assert S.is_station(x.B, st) and x.B.st_colour[st] == RED
    assert turn.token_allowed(x.B, x.pl, x.g, 0, st)


# -- 3. movement ---------------------------------------------------------------------------------
def test_full_distance_over_empty_spaces_ending_on_a_card() -> None:
    x = position(cards={(10, 0): "F3", (10, 3): "B1"}, ships=[(10, 0), (8, 8)])
    assert turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NORMAL, 0, 0)
    assert S.move_target(x.B, x.card, C(10, 0), 0) == C(10, 3)
    x.card[C(10, 3)] = -1
    x.card[C(10, 2)] = D("B1")  # a card short of the distance does not help
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NORMAL, 0, 0)


def test_no_second_ship_unless_a_station() -> None:
    x = position(cards={(13, 0): "F3", (13, 3): "B1", (12, 0): "F2", (12, 2): "B1"})
    x.ship[0], x.ship[1] = C(12, 0), C(12, 2)
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NORMAL, 0, 0)
    x.ship[0], x.ship[1] = C(13, 0), C(13, 3)  # (13,3) is zone I's red station
    assert turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NORMAL, 0, 0)


def test_every_option_off_the_board_forces_ignore() -> None:
    cards = {(12, 4): "F2", (13, 4): "B1", (11, 3): "F3"}
    x = position(cards=cards, ships=[(12, 4), (8, 8)])
    assert turn.all_off_board(x.B, x.card, C(12, 4))
    assert not turn.has_normal_move(x.B, x.r, x.card, x.ship, 0)
    x.pl[0, S.P_SP] = 2
    assert turn.ignore_cost(x.B, x.r, x.card, x.ship, 0) == 3
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_IGNORE, C(13, 4), 0)
    f = position(cards=cards, ships=[(12, 4), (8, 8)], forced_ignore="free")
    f.pl[0, S.P_SP] = 0
    assert turn.legal_move(f.B, f.r, f.card, f.ship, f.pl, 0, S.MV_IGNORE, C(13, 4), 0)
    assert turn.make_move(f.B, f.r, f.st, 0, (S.MV_IGNORE, C(13, 4), 0)) == -1
    assert f.ship[0] == C(13, 4) and f.pl[0, S.P_SP] == 0
    # one option on the board (even if blocked) is not forced
    y = position(cards={(10, 4): "S2", (11, 4): "B1"}, ships=[(10, 4), (8, 8)])
    assert not turn.all_off_board(y.B, y.card, C(10, 4))


# -- special moves -------------------------------------------------------------------------------
def test_no_move_gains_a_sail_point_but_never_above_eight() -> None:
    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    x.pl[0, S.P_SP] = 5
    turn.make_move(x.B, x.r, x.st, 0, (S.MV_NONE, 0, 0))
    assert x.pl[0, S.P_SP] == 6 and x.ship[0] == C(10, 2)
    x.pl[0, S.P_SP] = 8
    assert turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NONE, 0, 0)
    turn.make_move(x.B, x.r, x.st, 0, (S.MV_NONE, 0, 0))
    assert x.pl[0, S.P_SP] == 8


def test_ignore_costs_three_to_any_neighbour_with_a_card() -> None:
    cards = {(10, 2): "F2", (9, 1): "B1", (11, 3): "F3", (10, 3): "F1S1"}
    x = position(cards=cards, ships=[(10, 2), (10, 3)])
    x.pl[0, S.P_SP] = 3
    legal = lambda c: turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_IGNORE, c, 0)  # noqa: E731
    assert legal(C(9, 1)) and legal(C(11, 3))
    assert not legal(C(10, 3))  # another ship
    assert not legal(C(9, 2))  # no card
    assert not legal(C(12, 2))  # not a neighbour
    turn.make_move(x.B, x.r, x.st, 0, (S.MV_IGNORE, C(9, 1), 0))
    assert x.ship[0] == C(9, 1) and x.pl[0, S.P_SP] == 0 and x.pl[0, S.P_SP_IGNORE] == 3
    x.pl[0, S.P_SP] = 2
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_IGNORE, C(10, 2), 0)


def test_move_twice_costs_five_second_move_by_the_card_landed_on() -> None:
    # F2 from (10,-1)... ship at (10,0) F2 -> (10,2), a station? no: (10,1) is green zone I
    cards = {(10, 0): "start_F1", (10, 1): "F3", (10, 4): "B1"}
    x = position(cards=cards, ships=[(10, 0), (8, 8)])
    x.pl[0, S.P_SP] = 4
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_TWICE, 0, 0)
    x.pl[0, S.P_SP] = 5
    assert turn.twice_target(x.B, x.r, x.card, x.ship, 0, 0, 0) == C(10, 4)
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_TWICE, 0, 0)) == -1
    assert x.ship[0] == C(10, 4) and x.pl[0, S.P_SP] == 0 and x.pl[0, S.P_SP_TWICE] == 5
    assert x.pl[0, S.P_TOK + 0] == GREEN  # the first move ended on zone I's green station
    y = position(cards=cards, ships=[(10, 0), (8, 8)], token_on_first_of_twice=False)
    y.pl[0, S.P_SP] = 5
    turn.make_move(y.B, y.r, y.st, 0, (S.MV_TWICE, 0, 0))
    assert y.pl[0, S.P_TOK + 0] == -1


# -- stations and tokens -------------------------------------------------------------------------
def test_one_token_per_zone_each_of_another_colour() -> None:
    x = position(cards={}, ships=[(8, 8), (3, 8)])
    end = lambda c: turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 0, c, True)  # noqa: E731
    end(C(13, 3))  # zone I red
    assert x.pl[0, S.P_TOK + 0] == RED
    end(C(10, 1))  # zone I green: zone I is taken
    assert x.pl[0, S.P_TOK + 0] == RED
    end(C(10, 7))  # zone II red: colour already held
    assert x.pl[0, S.P_TOK + 1] == -1
    end(C(4, 6))  # zone II green
    assert x.pl[0, S.P_TOK + 1] == GREEN
    assert x.g[S.G_TOK_LEFT + RED] == 4 and x.g[S.G_TOK_LEFT + GREEN] == 4


def test_tokens_run_out() -> None:
    x = position(cards={}, ships=[(8, 8), (3, 8)], tokens_per_colour=1)
    turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 0, C(13, 3), True)
    turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 1, C(10, 7), True)
    assert x.pl[0, S.P_TOK + 0] == RED and x.pl[1, S.P_TOK + 1] == -1


def test_passing_over_a_station_is_not_enough() -> None:
    x = position(cards={(10, 0): "F2", (10, 2): "B1"}, ships=[(10, 0), (8, 8)])
    turn.make_move(x.B, x.r, x.st, 0, (S.MV_NORMAL, 0, 0))
    assert x.ship[0] == C(10, 2) and S.tokens_held(x.pl, 0) == 0  # (10,1) was passed


# -- victory -------------------------------------------------------------------------------------
def test_two_tokens_and_the_finish_line_win() -> None:
    x = position(cards={(2, -2): "F1S1", (2, -3): "F2"}, ships=[(2, -2), (8, 8)])
    x.pl[0, S.P_TOK + 0] = YELLOW
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_NORMAL, 0, 0)) == -1
    x.ship[0] = C(2, -2)
    x.pl[0, S.P_TOK + 1] = GREEN
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_NORMAL, 0, 0)) == S.END_FINISH


def test_finish_without_a_card_only_when_reaching_counts() -> None:
    cards = {(2, -2): "F1S1"}
    x = position(cards=cards, ships=[(2, -2), (8, 8)])
    assert not turn.legal_move(x.B, x.r, x.card, x.ship, x.pl, 0, S.MV_NORMAL, 0, 0)
    y = position(cards=cards, ships=[(2, -2), (8, 8)], finish_mode="reach")
    y.pl[0, S.P_TOK + 0], y.pl[0, S.P_TOK + 1] = YELLOW, GREEN
    assert turn.make_move(y.B, y.r, y.st, 0, (S.MV_NORMAL, 0, 0)) == S.END_FINISH


def test_three_tokens_win_at_once() -> None:
    x = position(cards={}, ships=[(8, 8), (3, 8)])
    x.pl[0, S.P_TOK + 0], x.pl[0, S.P_TOK + 1] = RED, GREEN
    assert turn.end_move(x.B, x.r, x.ship, x.pl, x.g, 0, C(2, -2), True) == S.END_THREE
    y = position(cards={}, ships=[(8, 8), (3, 8)], three_token_victory=False)
    y.pl[0, S.P_TOK + 0], y.pl[0, S.P_TOK + 1] = RED, GREEN
    assert turn.end_move(y.B, y.r, y.ship, y.pl, y.g, 0, C(2, -2), True) == -1


# -- setup and cards -----------------------------------------------------------------------------
def test_setup_deals_three_cards_three_sail_points_ships_in_order() -> None:
    x = position(n_players=5)
    E.setup(x.B, x.r, E.engine_inputs(Rules())[2], 5, x.st)
    assert (x.hand.sum(axis=1) == 3).all() and (x.pl[:, S.P_HAND] == 3).all()
    assert (x.pl[:, S.P_SP] == 3).all()
    assert [DATA.col_row(int(c))[0] for c in x.ship] == [12, 11, 10, 9, 8]
    assert x.g[S.G_DECK_POS] == 15 and x.g[S.G_DECK_N] == 90
    assert (x.card >= 0).sum() == 5  # the printed start winds


def test_draw_stops_with_empty_piles() -> None:
    x = position()
    x.g[S.G_DECK_POS] = x.g[S.G_DECK_N]
    assert not turn.draw(x.st, 0)


def test_the_deck_holds_the_card_counts() -> None:
    deck0 = E.engine_inputs(Rules())[2]
    assert np.bincount(deck0, minlength=len(Rules().card_counts)).tolist() == list(
        Rules().card_counts
    )


def test_no_policy_buys_past_six_cards_or_its_sail_points() -> None:
    from policies.cape_horn import POLICIES, decide_buy
    from simulator.contract.policy import ROW

    x = position(cards={(10, 2): "F2"}, ships=[(10, 2), (8, 8)])
    prm = np.zeros((2, ROW))
    for pdef in POLICIES.values():
        prm[0] = pdef.defaults()
        x.pl[0, S.P_SP] = 8
        x.hand[0, D("F3")] = 6
        x.pl[0, S.P_HAND] = 6
        assert decide_buy(pdef.id, prm, 0, x.B, x.r, x.card, x.ship, x.pl, x.hand, x.g) == 0
        x.hand[0, D("F3")] = 1
        x.pl[0, S.P_HAND] = 1
        x.pl[0, S.P_SP] = 2
        assert decide_buy(pdef.id, prm, 0, x.B, x.r, x.card, x.ship, x.pl, x.hand, x.g) <= 2


def test_no_covering_the_second_landing_of_move_twice() -> None:
    # "no cubre una carta de viento que podría alcanzar con su barco en este turno": with 5 sail
    # points ship 0 (on F2 at (12,0)) can reach (12,2) by its card and then (12,4) by the F2
    # lying there ('mover dos veces'); both are out of bounds for a cover.
    cards = {(12, 0): "F2", (12, 1): "B1", (12, 2): "F2", (12, 3): "B1", (12, 4): "B1",
             (13, 4): "B1"}  # fmt: skip
    x = position(cards=cards, ships=[(12, 0), (8, 8)])
    x.pl[0, S.P_SP] = 5
    assert turn.twice_target(x.B, x.r, x.card, x.ship, 0, 0, 0) == C(12, 4)
    assert not place(x, 0, "F3", 12, 2)  # the first landing
    assert not place(x, 0, "F3", 12, 4)  # the second landing
    assert place(x, 0, "F3", 13, 4)  # neither
    assert place(x, 1, "F3", 12, 4)  # another player's ship reaches nothing here
    # the reading before: the card and 'ignorar' only
    y = position(cards=cards, ships=[(12, 0), (8, 8)], cover_reach="with_ignore")
    y.pl[0, S.P_SP] = 5
    assert not place(y, 0, "F3", 12, 2) and place(y, 0, "F3", 12, 4)
    # no second landing through a first landing it may not end on (another ship there)
    z = position(cards=cards, ships=[(12, 0), (12, 2)])
    assert place(z, 0, "F3", 12, 4)


def test_the_engine_refuses_a_cover_laid_as_the_second_card_of_a_turn() -> None:
    # "el jugador coloca solo esta carta de viento este turno": the engine checks each card the
    # policy lays against the number laid this turn, not as if it were the only one
    from simulator.contract.recording import no_recording
    from simulator.games.cape_horn.turn import EVENT_WIDTH, lay_cards

    cards = {(10, 0): "F2", (13, 3): "F1S1", (13, 2): "B1"}
    x = position(cards=cards, ships=[(10, 0), (8, 8)])
    x.hand[0, D("F3")] = 1
    x.hand[0, D("S2")] = 1
    x.pl[0, S.P_HAND] = 2
    buf = np.array([[D("F3"), C(12, 3)], [D("S2"), C(13, 3)]], np.int64)  # lay, then cover
    heat = np.zeros(x.B.kind.shape[0], np.int64)
    rec, rec_n = no_recording(EVENT_WIDTH)
    lay_cards(x.B, x.r, x.st, 0, buf, 2, heat, rec, rec_n)
    assert x.card[C(12, 3)] == D("F3")  # the first card is laid
    assert x.card[C(13, 3)] == D("F1S1")  # the cover is refused: two cards this turn
    assert x.hand[0, D("S2")] == 1 and x.pl[0, S.P_COVERED] == 0
    # the same cover as the turn's only card is laid
    lay_cards(x.B, x.r, x.st, 0, buf[1:], 1, heat, rec, rec_n)
    assert x.card[C(13, 3)] == D("S2") and x.pl[0, S.P_COVERED] == 1


def test_a_station_token_is_the_players_choice() -> None:
    # "el jugador puede tomar una ficha de estación": the move carries the seat's answer for
    # each stop (the built-ins take every token they may)
    cards = {(10, 0): "start_F1", (10, 1): "F3", (10, 4): "B1"}  # (10,1): zone I's green station
    x = position(cards=cards, ships=[(10, 0), (8, 8)])
    assert turn.make_move(x.B, x.r, x.st, 0, (S.MV_NORMAL, 0, 0), 0) == -1
    assert x.ship[0] == C(10, 1) and x.pl[0, S.P_TOK + 0] == -1  # stopped there, declined
    y = position(cards=cards, ships=[(10, 0), (8, 8)])
    y.pl[0, S.P_SP] = 5
    turn.make_move(y.B, y.r, y.st, 0, (S.MV_TWICE, 0, 0), turn.TAKE_END)
    assert y.ship[0] == C(10, 4) and y.pl[0, S.P_TOK + 0] == -1  # the first landing declined
    # 'mover dos veces' ending on zone I's red station (13,3), declined there
    w = position(cards={(13, 0): "start_F1", (13, 1): "F2", (13, 3): "B1"}, ships=[(13, 0), (8, 8)])
    w.pl[0, S.P_SP] = 5
    turn.make_move(w.B, w.r, w.st, 0, (S.MV_TWICE, 0, 0), turn.TAKE_FIRST)
    assert w.ship[0] == C(13, 3) and w.pl[0, S.P_TOK + 0] == -1
    z = position(cards=cards, ships=[(10, 0), (8, 8)])
    ids = np.zeros(2, np.int64)  # built-in ids: every built-in takes it
    prm = np.zeros((2, 8), np.float64)
    scratch = X.new_turn_scratch(2, z.B.kind.shape[0], z.B.n_moves.shape[0])
    take = F.token_choice(None, ids[0], prm, 0, z.B, z.r, z.st, (S.MV_NORMAL, 0, 0), scratch)
    assert take == turn.TAKE_ALL
