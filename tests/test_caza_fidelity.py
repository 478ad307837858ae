"""Caza-Tesoros rules corrected by a passage-by-passage review (docs/rules/caza-tesoros.md).

Each test quotes the passage it reads and plays the rule on a hand-made position or a short run.
"""

import numpy as np
import pytest

from policies.caza_tesoros import CAUTIOUS, GREEDY
from simulator.contract.errors import BalanceError
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import SIZE, cell_of, coords_of, cross_cell, roll_cross_cell
from simulator.games.caza_tesoros.engine import (
    check_end,
    decide_winner,
    give_item,
    play_chunk,
    play_one,
    search,
    seed_rng,
    ship_turn,
)
from simulator.games.caza_tesoros.rules import Rules
from simulator.games.caza_tesoros.spec import SPEC
from tests.test_caza_game import seats
from tests.test_caza_rules import NO_LOG, inputs, policies, position, put_cross

DIRS = np.zeros(64, dtype=np.int64)


def fail_level_one(r, t, st, p, c, first_seed):
    """Search cross ``c`` with ``p``'s ship at level 1 from consecutive seeds until it fails."""
    pl, sh, cr, g = st[:4]
    for k in range(first_seed, first_seed + 1000):
        saved = pl.copy(), sh.copy(), cr.copy(), g.copy()
        seed_rng(g, k)
        assert S.search_level(r, cr, g, p, c) == 1
        if not search(r, t, st, NO_LOG, p, 0, c):
            return
        for now, then in zip((pl, sh, cr, g), saved, strict=True):
            now[:] = then
    raise AssertionError("level 1 never failed")


# 1. "el jugador fallara y deberá realizar una búsqueda de segundo nivel": the duty is the player's
def test_two_players_failing_on_one_archive_cross_each_keep_their_level_two():
    r, t = inputs()
    st = position(2)
    pl, sh, cr, g = st[:4]
    sh[1, 0, S.S_CELL] = sh[0, 0, S.S_CELL]
    c = put_cross(cr, pl, sh[0, 0, S.S_CELL], S.ARCHIVE)
    g[S.G_ARCHIVE_CROSSES] = 1
    fail_level_one(r, t, st, 0, c, 1)
    g[S.G_DAY] += 1
    fail_level_one(r, t, st, 1, c, 1)  # the other player fails there next
    g[S.G_DAY] += 1
    assert S.search_level(r, cr, g, 0, c) == 2  # not overwritten by player 1's failure
    assert S.search_level(r, cr, g, 1, c) == 2


# 2. "deberá realizar": the next search there is level 2; "must_next_turn" binds the very next turn
def test_failed_level_one_binds_the_next_search_to_level_two():
    r, t = inputs()
    st = position(2)
    pl, sh, cr, g = st[:4]
    c = put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
    fail_level_one(r, t, st, 0, c, 1)
    g[S.G_DAY] += 9
    assert S.search_level(r, cr, g, 0, c) == 2  # default: no return to level 1
    assert Rules().level2_window == "any_later_turn"
    old, *_ = inputs(level2_window="next_turn_only")  # today's other reading, kept
    assert S.search_level(old, cr, g, 0, c) == 1


def test_must_next_turn_makes_even_a_cautious_ship_search_level_two():
    r, t = inputs(level2_window="must_next_turn")
    st = position(2)
    pl, sh, cr, g = st[:4]
    c = put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
    fail_level_one(r, t, st, 0, c, 1)
    g[S.G_DAY] += 1
    pids, prm = policies(CAUTIOUS, CAUTIOUS)
    vp = pl[0, S.P_VP]
    ship_turn(r, t, pids, prm, st, NO_LOG, 0, 0, DIRS)
    assert pl[0, S.P_SEARCHES] == 2 and g[S.G_LEVEL2_SEARCHES] == 1
    assert vp - pl[0, S.P_VP] >= 3 or pl[0, S.P_TREASURES] == 1  # the level 2 price was paid


# 3. "Si algún jugador decide buscar tesoros en condiciones de mar adversa (Lluvia y Tormenta),
#    lo pueden hacer": by default a ship on its cross can search in a storm
@pytest.mark.parametrize("timing, searches", [("after_action", 1), ("before_action", 0)])
def test_a_ship_on_its_cross_can_search_in_a_storm(timing, searches):
    r, t = inputs(deviation_timing=timing)
    st = position(2)
    pl, sh, cr, g = st[:4]
    g[S.G_WEATHER] = S.STORM
    put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
    pids, prm = policies(GREEDY, GREEDY)
    seed_rng(g, 3)
    ship_turn(r, t, pids, prm, st, NO_LOG, 0, 0, DIRS)
    assert pl[0, S.P_SEARCHES] == searches
    if searches:
        assert pl[0, S.P_VP] <= 20 - 2 or pl[0, S.P_TREASURES] == 1  # "el primer nivel costara 2"
    assert Rules().deviation_timing == "after_action"


# 4. "solo podrá tener un objeto de cada tipo navegación o búsqueda, por cada barco"
def test_one_card_of_each_kind_by_default_and_one_per_type_as_an_option():
    # default: a satellite needs a GPS "para su uso", so a ship keeps its chain of cards
    r, *_ = inputs()
    st = position(1)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK : S.G_DECK + 6] = 0
    for kind in (S.COMPASS, S.GPS, S.DIVERS, S.ROBOT):
        assert give_item(r, sh, g, 0, kind) == 0
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 6]) == [1, 1, 0, 1, 1, 0]
    # one_per_type: one navigation and one search card, a new one replacing (returning) the old
    r2, *_ = inputs(items_per_ship="one_per_type")
    st = position(1)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK : S.G_DECK + 6] = 0
    for kind in (S.COMPASS, S.GPS, S.DIVERS, S.ROBOT):
        assert give_item(r2, sh, g, 0, kind) == 0
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 6]) == [0, 1, 0, 0, 1, 0]
    assert g[S.G_DECK + S.COMPASS] == 1 and g[S.G_DECK + S.DIVERS] == 1
    assert S.movement_points(r2, np.zeros(6, dtype=np.int64), S.CLOUDY, sh, 0, 0) == 1 + 2
    assert S.search_rerolls(r2, sh, 0, 0) == 0  # the robot replaced the divers
    assert not S.can_hold(sh, 0, 0, S.COMPASS)  # never a step back down the chain
    assert Rules().items_per_ship == "one_per_kind"


# 5. Everyone out at once: no winner, its own end reason
def test_everyone_out_at_one_maintenance_has_no_winner():
    r, *_ = inputs()
    st = position(3)
    pl, sh, cr, g = st[:4]
    pl[:, S.P_VP] = [5, 5, 9]
    pl[:, S.P_ALIVE] = 0
    g[S.G_LIVE] = 0
    assert check_end(r, pl, g) == S.END_ALL_OUT
    assert decide_winner(r, pl, sh, 9) == -1  # not settled by the VP of a retired ship
    assert "all_out" in SPEC.end_reasons


# 6. "Barco hundido en la posición Norte 11 y Oeste 12": a card counts from the edges it names
def test_cross_coordinates_count_from_the_edges_the_card_names():
    assert cross_cell(12, 11, False, False) == cell_of(12, 11)  # Norte 11, Oeste 12
    assert cross_cell(12, 11, True, False) == cell_of(12, SIZE + 1 - 11)  # Sur 11: row 8
    assert cross_cell(12, 11, False, True) == cell_of(7, 11)  # Este 12: column 7
    g = S.new_state(1, 1, 1).g
    seed_rng(g, 5)
    edges = [coords_of(int(roll_cross_cell(g, True))) for _ in range(4000)]
    seed_rng(g, 5)
    corner = [coords_of(int(roll_cross_cell(g, False))) for _ in range(4000)]
    assert min(x for x, _ in corner) >= 3 and min(y for _, y in corner) >= 3
    assert min(x for x, _ in edges) <= 2 and min(y for _, y in edges) <= 2  # rows 1-2 reachable
    assert max(x for x, _ in edges) == SIZE or max(y for _, y in edges) == SIZE
    assert Rules().cross_reference == "card_edges"


# 7. "si juegan menos jugadores pueden elegir varios colores cada uno"
def test_two_colours_each_play_their_own_ship_card_and_purse_and_score_the_sum():
    rules = Rules().with_values({"colours_per_player": 2, "max_days": 50})
    game = play_one(rules, 2, *seats(["cautious"], 2), 7)
    pl = game["pl"]
    assert pl.shape[0] == 4  # colours A1 B1 A2 B2
    assert np.all(pl[:, S.P_SHIPS] == 1) and np.all(pl[:, S.P_CARDS] == 1)
    assert np.all(pl[:, S.P_VP] == 20 - 8)  # each colour pays its own upkeep from its own purse
    out = play_chunk(rules, 2, *seats(["cautious"], 2), np.arange(5, dtype=np.uint32))
    assert np.all(out["scores"] == 2 * (20 - 8)) and np.all(out["caza_ships"] == 2)


def test_a_player_wins_on_the_sum_of_its_colours():
    r, *_ = inputs(colours_per_player=2)
    st = position(4)
    pl, sh, cr, g = st[:4]
    pl[:, S.P_VP] = [10, 30, 26, 5]  # player 0: colours 0 and 2 (36); player 1: 1 and 3 (35)
    assert decide_winner(r, pl, sh, 9) == 0
    assert S.player_of(r, pl, 2) == 0 and S.player_of(r, pl, 3) == 1
    pl[0, S.P_ALIVE] = pl[2, S.P_ALIVE] = 0
    assert decide_winner(r, pl, sh, 9) == 1  # a player is out when all its colours are
    pl[2, S.P_ALIVE] = 1
    g[S.G_LIVE] = S.live_players(r, pl)
    assert g[S.G_LIVE] == 2 and check_end(r, pl, g) == -1


def test_more_colours_than_the_six_of_the_game_are_refused():
    rules = Rules().with_values({"colours_per_player": 2})
    with pytest.raises(BalanceError, match="colours"):
        SPEC.check_run(rules, 4, [])
    SPEC.check_run(rules, 3, [])
