"""Caza-Tesoros rules one at a time, on hand-made states (cases taken from the seed text)."""

import dataclasses

import numpy as np
import pytest

from policies.caza_tesoros import CAUTIOUS, GREEDY, GREEDY_P, POLICIES
from simulator.contract.errors import BalanceError
from simulator.contract.rng import STATE_WORDS
from simulator.contract.rules import build_rules
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import CELLS, cell_of
from simulator.games.caza_tesoros.engine import (
    check_end,
    decide_winner,
    engine_inputs,
    pay_maintenance,
    resolve_auction,
    search,
    seed_rng,
    weekly_draw,
)
from simulator.games.caza_tesoros.rules import Rules
from simulator.games.caza_tesoros.spec import SPEC
from simulator.games.caza_tesoros.treasure_search import (
    MARK_ALL,
    MARK_ONE,
    PAIRS_ANY,
    resolve_search,
)

NO_LOG = np.zeros((0, 7), dtype=np.int64)


def inputs(**values):
    return engine_inputs(Rules().with_values(values) if values else Rules())


def position(n_players=2, vp=20):
    """Every player with one bare ship and ``vp``; no crosses; a cloudy day 2."""
    st = S.new_state(n_players, 20, CELLS)
    pl, sh, cr, g = st[:4]
    for p in range(n_players):
        pl[p, S.P_VP] = vp
        pl[p, S.P_ALIVE] = 1
        pl[p, S.P_SHIPS] = 1
        sh[p, 0, S.S_CELL] = cell_of(5 + p, 9)
    g[S.G_DAY] = 2
    g[S.G_WEEKDAY] = 2
    g[S.G_WEATHER] = S.CLOUDY
    g[S.G_LIVE] = n_players
    g[S.G_ARCHIVE_DECK] = 10
    return st


def put_cross(cr, pl, cell, owner):
    c = int(np.flatnonzero(cr[:, S.C_OWNER] == S.FREE)[0])
    cr[c, S.C_CELL] = cell
    cr[c, S.C_OWNER] = owner
    if owner >= 0:
        pl[owner, S.P_CARDS] += 1
    return c


def policies(*ids):
    pids = np.array(ids, dtype=np.int64)
    prm = np.stack([POLICIES[name].defaults() for name in POLICIES])[pids]
    return pids, prm


# -- options ---------------------------------------------------------------------------------
def test_every_option_has_doc_seed_and_allowed_values():
    for info in Rules.options():
        assert info.doc and info.seed, info.name
        assert info.choices or info.type == "bool" or info.lo is not None, info.name


def test_engine_slots_cover_every_scalar_option():
    scalar = {f.name for f in dataclasses.fields(Rules) if not isinstance(f.default, tuple)}
    assert set(S.RULE_SLOTS) == scalar and len(S.RULE_SLOTS) == len(scalar)


def test_option_names_and_defaults_other_code_relies_on():
    rules = Rules()
    expected = {
        "level1_cost": 1, "level2_cost": 3, "bad_weather_surcharge": 1, "level1_marking": "all",
        "level2_marking": "one", "level2_combinations": "any_pair", "divers_rerolls": 1,
        "robot_dice": 1, "scanner_dice": 2, "upgrade_bonus": "replace", "price_compass": 10,
        "price_gps": 20, "price_satellite": 25, "price_divers": 5, "price_robot": 15,
        "price_scanner": 25, "price_ship": 10, "price_archive_card": 3, "starting_vp": 20,
        "treasures_to_win": 3, "archive_crosses_to_end": 5, "max_archive_cards": 3,
        "maintenance_per_ship": 1, "auction_commission": 3, "retire_ship_payout": 5,
    }  # fmt: skip
    for name, value in expected.items():
        assert getattr(rules, name) == value, name
    for name in ("treasure_values", "max_days", "days_per_week"):
        assert hasattr(rules, name)
    assert Rules.option_info("level1_marking").choices == ("all", "one")
    assert Rules.option_info("level2_marking").choices == ("all", "one")
    assert Rules.option_info("upgrade_bonus").choices == ("replace", "add")


def test_bad_values_are_refused_with_one_line():
    with pytest.raises(BalanceError, match="level2_marking"):
        Rules().with_values({"level2_marking": "some"})
    with pytest.raises(BalanceError, match="weather_faces needs 6"):
        Rules().with_values({"weather_faces": "0,1,2"})
    with pytest.raises(BalanceError, match="starting_archive_cards"):
        Rules().with_values({"starting_archive_cards": "4"})
    with pytest.raises(BalanceError, match="out of bounds"):
        Rules().with_values({"robot_dice": "9"})
    rules, name = build_rules(Rules, sets=["treasure_values=5,50", "upgrade_bonus=add"])
    assert rules.treasure_values == (5, 50) and rules.upgrade_bonus == "add"


# -- movement points -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "face, points",
    [(1, 3), (2, 2), (3, 1), (4, 1), (5, 0), (6, 0)],  # sunny +2 ... rain -1, storm -2
)
def test_weather_changes_base_movement(face, points):
    r, t = inputs()
    sh = position().sh
    assert S.movement_points(r, t.wmove, t.wface[face - 1], sh, 0, 0) == points


@pytest.mark.parametrize(
    "cards, replace, add",
    [((1, 0, 0), 1, 1), ((1, 1, 0), 2, 3), ((1, 1, 1), 3, 6)],
)
def test_navigation_cards_replace_or_add(cards, replace, add):
    for mode, bonus in (("replace", replace), ("add", add)):
        r, t = inputs(upgrade_bonus=mode)
        wmove = t.wmove
        sh = position().sh
        sh[0, 0, S.S_ITEMS : S.S_ITEMS + 3] = cards
        assert S.movement_points(r, wmove, S.CLOUDY, sh, 0, 0) == 1 + bonus
        # storm takes two points but never below zero
        assert S.movement_points(r, wmove, S.STORM, sh, 0, 0) == max(0, bonus - 1)


def test_search_dice_and_divers():
    for mode, dice in (("replace", (1, 2, 3)), ("add", (1, 2, 4))):
        r, *_ = inputs(upgrade_bonus=mode)
        sh = position().sh
        assert S.search_dice(r, sh, 0, 0, 1) == dice[0]
        sh[0, 0, S.S_ITEMS + S.DIVERS] = 1
        sh[0, 0, S.S_ITEMS + S.ROBOT] = 1
        assert S.search_dice(r, sh, 0, 0, 1) == dice[1]
        assert S.search_dice(r, sh, 0, 0, 2) == dice[1] + 1  # level 2 throws 2D6
        sh[0, 0, S.S_ITEMS + S.SCANNER] = 1
        assert S.search_dice(r, sh, 0, 0, 1) == dice[2]
        assert S.search_rerolls(r, sh, 0, 0) == 1


def test_items_need_the_previous_card_and_one_of_each_kind_per_ship():
    sh = position().sh
    assert S.can_hold(sh, 0, 0, S.COMPASS) and not S.can_hold(sh, 0, 0, S.GPS)
    assert not S.can_hold(sh, 0, 0, S.ROBOT) and S.can_hold(sh, 0, 0, S.DIVERS)
    sh[0, 0, S.S_ITEMS + S.COMPASS] = 1
    assert not S.can_hold(sh, 0, 0, S.COMPASS) and S.can_hold(sh, 0, 0, S.GPS)
    assert not S.can_hold(sh, 0, 1, S.COMPASS)  # no ship in slot 1


# -- searching -------------------------------------------------------------------------------------
def searched(seed, want, weather=S.CLOUDY, level=1, owner=0, cards=None, **values):
    """Search until the outcome ``want`` comes up, from consecutive seeds (deterministic)."""
    r, t = inputs(**values)
    for k in range(seed, seed + 5000):
        st = position()
        pl, sh, cr, g = st[:4]
        g[S.G_WEATHER] = weather
        cell = sh[0, 0, S.S_CELL]
        c = put_cross(cr, pl, cell, owner)
        if owner == S.ARCHIVE:
            g[S.G_ARCHIVE_CROSSES] = 1
        if level == 2:
            cr[c, S.C_DUTY + 0] = g[S.G_DAY] - 1
        if cards:
            for kind in cards:
                sh[0, 0, S.S_ITEMS + kind] = 1
        before = pl.copy()
        seed_rng(g, k)
        if search(r, t, st, NO_LOG, 0, 0, c) == want:
            return before, pl, sh, cr, g, c, cell
    raise AssertionError("outcome never came up")


@pytest.mark.parametrize(
    "weather, level, cost",
    [(S.SUNNY, 1, 1), (S.VERY_CLOUDY, 1, 1), (S.RAIN, 1, 2), (S.STORM, 1, 2),
     (S.CLOUDY, 2, 3), (S.RAIN, 2, 4), (S.STORM, 2, 4)],
)  # fmt: skip
def test_search_costs_rise_in_rain_and_storm(weather, level, cost):
    # "el primer nivel costara 2 Pv y el segundo 4 Pv" in rain and storm
    before, pl, *_ = searched(1, False, weather=weather, level=level)
    assert before[0, S.P_VP] - pl[0, S.P_VP] == cost
    assert pl[0, S.P_SEARCHES] == 1


@pytest.mark.parametrize("level", [1, 2])
def test_each_search_level_reads_its_own_marking(level):
    # level 1 "ir marcando los números coincidentes", level 2 "marcar el resultado obtenido ...
    # ya sea por la suma, resta o individual": with divers and a robot both levels throw an extra
    # die, and the engine's search plays the marking of its level (same seed, same throws).
    differs = 0
    for m1, m2 in (("all", "one"), ("one", "all")):
        # the greedy rule, which resolve_search plays (the best choice is tested elsewhere)
        r, t = inputs(level1_marking=m1, level2_marking=m2, marking_choice="greedy")
        mine = MARK_ONE if (m1 if level == 1 else m2) == "one" else MARK_ALL
        for k in range(200):
            st = position()
            pl, sh, cr, g = st[:4]
            c = put_cross(cr, pl, sh[0, 0, S.S_CELL], 0)
            if level == 2:
                cr[c, S.C_DUTY + 0] = g[S.G_DAY] - 1
            sh[0, 0, S.S_ITEMS + S.DIVERS] = sh[0, 0, S.S_ITEMS + S.ROBOT] = 1
            seed_rng(g, k)
            dice = g[S.G_RNG : S.G_RNG + STATE_WORDS].copy().view(np.uint64)  # the game's dice
            outcome = search(r, t, st, NO_LOG, 0, 0, c)
            played = resolve_search(dice.copy(), level, level + 1, 1, mine, PAIRS_ANY)[0]
            other = resolve_search(dice.copy(), level, level + 1, 1, 1 - mine, PAIRS_ANY)[0]
            assert outcome == played
            differs += played != other
    assert differs > 0  # the two markings do tell apart on these seeds


def test_failed_level_one_makes_the_next_search_level_two():
    r, *_ = inputs()
    _, pl, sh, cr, g, c, _ = searched(1, False)
    assert cr[c, S.C_DUTY + 0] == g[S.G_DAY] and cr[c, S.C_OWNER] == 0
    g[S.G_DAY] += 5
    assert S.search_level(r, cr, g, 0, c) == 2  # default: on any later turn
    assert S.search_level(r, cr, g, 1, c) == 1  # only for the player who failed
    r2, *_ = inputs(level2_window="next_turn_only")
    assert S.search_level(r2, cr, g, 0, c) == 1
    g[S.G_DAY] = cr[c, S.C_DUTY + 0] + 1
    assert S.search_level(r2, cr, g, 0, c) == 2


def test_found_treasure_pays_and_returns_the_card():
    before, pl, sh, cr, g, c, _ = searched(1, True, cards=(S.DIVERS, S.ROBOT, S.SCANNER))
    gained = pl[0, S.P_VP] - before[0, S.P_VP] + 1  # + the level 1 cost
    assert gained in Rules().treasure_values
    assert pl[0, S.P_TREASURES] == 1 and pl[0, S.P_CARDS] == 0
    assert cr[c, S.C_OWNER] == S.FREE and g[S.G_ARCHIVE_DECK] == 11


def test_failed_level_two_leaves_an_archive_cross_and_replaces_the_ship():
    before, pl, sh, cr, g, c, cell = searched(1, False, level=2)
    assert cr[c, S.C_OWNER] == S.ARCHIVE and cr[c, S.C_CELL] == cell
    assert g[S.G_ARCHIVE_CROSSES] == 1 and g[S.G_ARCHIVE_DECK] == 11
    assert pl[0, S.P_CARDS] == 0
    moved = [searched(k, False, level=2)[2][0, 0, S.S_CELL] for k in (1, 40, 80, 120)]
    assert any(m != cell for m in moved)  # re-placed by 3D6, not left on the cross


def test_failed_level_two_in_bad_weather_costs_the_best_search_card():
    cards = (S.COMPASS, S.DIVERS, S.ROBOT)
    *_, sh, cr, g, c, _ = searched(1, False, weather=S.STORM, level=2, cards=cards)
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 6]) == [
        1,
        0,
        0,
        1,
        0,
        0,
    ]  # robot lost, divers kept
    *_, sh, cr, g, c, _ = searched(1, False, weather=S.RAIN, level=2, cards=(S.COMPASS, S.GPS))
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 6]) == [
        1,
        0,
        0,
        0,
        0,
        0,
    ]  # no search card: GPS goes
    *_, sh, cr, g, c, _ = searched(1, False, weather=S.CLOUDY, level=2, cards=cards)
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 6]) == [
        1,
        0,
        0,
        1,
        1,
        0,
    ]  # fair weather: nothing lost


def test_archive_crosses_are_open_to_all_and_failing_adds_none():
    st = position()
    pl, sh, cr, g = st[:4]
    c = put_cross(cr, pl, sh[1, 0, S.S_CELL], S.ARCHIVE)
    assert S.cross_here(cr, 1, sh[1, 0, S.S_CELL]) == c
    own = put_cross(cr, pl, sh[0, 0, S.S_CELL], 1)
    assert S.cross_here(cr, 0, sh[0, 0, S.S_CELL]) == -1  # another player's cross is closed
    assert own >= 0
    _, pl, sh, cr, g, c, _ = searched(1, False, level=2, owner=S.ARCHIVE)
    assert cr[c, S.C_OWNER] == S.ARCHIVE and g[S.G_ARCHIVE_CROSSES] == 1
    before, pl, sh, cr, g, c, _ = searched(1, True, owner=S.ARCHIVE, cards=(3, 4, 5))
    assert cr[c, S.C_OWNER] == S.FREE and g[S.G_ARCHIVE_CROSSES] == 0
    assert pl[0, S.P_TREASURES] == 1 and pl[0, S.P_VP] > before[0, S.P_VP]


# -- auctions, maintenance -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "bids, start, seller, result",
    [
        ([-1, 12, 15, -1], 10, 0, (2, 13)),  # second highest + 1
        ([-1, 12, -1, -1], 10, 0, (1, 10)),  # alone: the start price
        ([-1, 9, 8, -1], 10, 0, (-1, 0)),  # nobody reaches the start: unsold
        ([-1, 14, 14, -1], 10, 0, (1, 14)),  # equal: first in turn after the seller
        ([14, 14, -1, 30], 10, 2, (3, 15)),  # the seller never bids
        ([14, 14, -1, -1], 10, 2, (0, 14)),  # turn order starts left of the seller
    ],
)
def test_auction_resolution(bids, start, seller, result):
    assert resolve_auction(np.array(bids, dtype=np.int64), start, seller) == result


def test_weekly_card_sold_at_auction_pays_the_commission_only_when_sold():
    r, t = inputs(object_deck="0,0,0,1,0,0")
    st = position(3)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK + S.DIVERS] = 1
    pids, prm = policies(CAUTIOUS, GREEDY, GREEDY)  # seat 0 never buys; greedy bids the start
    weekly_draw(r, t, pids, prm, st, NO_LOG, 0)
    assert pl[0, S.P_VP] == 20 + 3 and pl[1, S.P_VP] == 20 - 5
    assert sh[1, 0, S.S_ITEMS + S.DIVERS] == 1 and g[S.G_AUCTIONS] == 1
    # nobody bids: no commission, the card goes back to the deck
    st = position(3)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK + S.DIVERS] = 1
    pids, prm = policies(CAUTIOUS, CAUTIOUS, CAUTIOUS)
    weekly_draw(r, t, pids, prm, st, NO_LOG, 0)
    assert list(pl[:, S.P_VP]) == [20, 20, 20] and g[S.G_DECK + S.DIVERS] == 1


def test_weekly_card_bought_at_its_price():
    r, t = inputs()
    st = position(2)
    pl, sh, cr, g = st[:4]
    g[S.G_DECK + S.COMPASS] = 1
    pids, prm = policies(GREEDY, GREEDY)
    prm[:, GREEDY_P.reserve] = 4  # a greedy player keeping 4 VP back
    weekly_draw(r, t, pids, prm, st, NO_LOG, 0)
    assert pl[0, S.P_VP] == 10 and sh[0, 0, S.S_ITEMS + S.COMPASS] == 1


def test_maintenance_one_vp_per_ship():
    r, t = inputs()
    st = position(2)
    pl, sh, cr, g = st[:4]
    sh[0, 1, S.S_CELL] = cell_of(9, 9)
    pl[0, S.P_SHIPS] = 2
    pids, prm = policies(GREEDY, GREEDY)
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 0)
    assert pl[0, S.P_VP] == 18


def test_short_player_sells_cards_at_half_price_before_retiring_ships():
    r, t = inputs(maintenance_per_ship=4)
    st = position(2)
    pl, sh, cr, g = st[:4]
    pl[0, S.P_VP] = 2
    sh[0, 0, S.S_ITEMS + S.COMPASS] = 1
    sh[0, 0, S.S_ITEMS + S.GPS] = 1
    sh[1, 0, S.S_ITEMS + S.COMPASS] = 1  # so player 1 may take a GPS
    pids, prm = policies(GREEDY, GREEDY)
    prm[:, GREEDY_P.reserve] = 4  # a greedy player keeping 4 VP back
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 0)
    # the GPS (20 VP) is offered from half its price, 10, and sells: 2 + 10 - 4 = 8
    assert pl[0, S.P_VP] == 8 and pl[0, S.P_SHIPS] == 1 and pl[0, S.P_ALIVE] == 1
    assert list(sh[0, 0, S.S_ITEMS : S.S_ITEMS + 2]) == [1, 0]
    assert sh[1, 0, S.S_ITEMS + S.GPS] == 1 and pl[1, S.P_VP] == 10
    assert g[S.G_FORCED_SALES] == 1 and g[S.G_AUCTIONS] == 1


def test_unsold_forced_sale_then_retirement():
    r, t = inputs(maintenance_per_ship=4)
    st = position(2)
    pl, sh, cr, g = st[:4]
    pl[0, S.P_VP] = 2
    sh[0, 0, S.S_ITEMS + S.COMPASS] = 1
    sh[0, 0, S.S_ITEMS + S.GPS] = 1
    pids, prm = policies(GREEDY, GREEDY)
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 0)
    # nobody may take the GPS (no compass), and the compass cannot go before the GPS it carries:
    # the only ship is retired (+5) and the player is out
    assert g[S.G_AUCTIONS] == 1 and g[S.G_FORCED_SALES] == 0
    assert pl[0, S.P_VP] == 7 and pl[0, S.P_SHIPS] == 0 and pl[0, S.P_ALIVE] == 0
    assert g[S.G_DECK + S.COMPASS] == 1 and g[S.G_DECK + S.GPS] == 1  # its cards go back


def test_short_player_without_cards_retires_ships_for_five_vp_each():
    r, t = inputs()
    st = position(3)
    pl, sh, cr, g = st[:4]
    pl[0, S.P_VP] = 1
    pl[0, S.P_SHIPS] = 3
    sh[0, 1, S.S_CELL] = cell_of(9, 9)
    sh[0, 2, S.S_CELL] = cell_of(9, 10)
    sh[0, 2, S.S_ITEMS + S.DIVERS] = 1  # the equipped ship is the last to go
    pids, prm = policies(CAUTIOUS, CAUTIOUS, CAUTIOUS)
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 0)
    # owes 3 with 1 VP; the divers do not sell; retire one ship: 6 VP, owes 2 -> pays, 4 left
    assert pl[0, S.P_SHIPS] == 2 and pl[0, S.P_VP] == 4 and pl[0, S.P_RETIRED] == 1
    assert sh[0, 2, S.S_CELL] >= 0 and sh[0, 0, S.S_CELL] == -1


def test_retiring_the_last_ship_puts_the_player_out():
    r, t = inputs()
    st = position(3, vp=0)
    pl, sh, cr, g = st[:4]
    put_cross(cr, pl, cell_of(7, 7), 0)
    pids, prm = policies(CAUTIOUS, CAUTIOUS, CAUTIOUS)
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 0)
    assert pl[0, S.P_ALIVE] == 0 and pl[0, S.P_VP] == 5 and g[S.G_LIVE] == 2
    assert pl[0, S.P_CARDS] == 0 and g[S.G_ARCHIVE_DECK] == 11  # its card goes back
    assert check_end(r, pl, g) == -1
    pay_maintenance(r, t, pids, prm, st, NO_LOG, 1)
    assert check_end(r, pl, g) == S.END_LAST_PLAYER


# -- the end -----------------------------------------------------------------------------------
def test_three_treasures_or_five_archive_crosses_end_the_game():
    r, *_ = inputs()
    st = position(3)
    pl, sh, cr, g = st[:4]
    pl[1, S.P_TREASURES] = 2
    g[S.G_ARCHIVE_CROSSES] = 4
    assert check_end(r, pl, g) == -1
    pl[1, S.P_TREASURES] = 3
    assert check_end(r, pl, g) == S.END_TREASURES
    pl[1, S.P_TREASURES] = 2
    g[S.G_ARCHIVE_CROSSES] = 5
    assert check_end(r, pl, g) == S.END_ARCHIVE


def test_winner_by_vp_then_ships_then_equipment_else_draw():
    r, *_ = inputs()
    st = position(3)
    pl, sh, cr, g = st[:4]
    pl[:, S.P_VP] = [30, 31, 12]
    assert decide_winner(r, pl, sh, 9) == 1
    pl[:, S.P_VP] = [31, 31, 12]
    sh[0, 1, S.S_CELL] = cell_of(3, 3)
    pl[0, S.P_SHIPS] = 2
    assert decide_winner(r, pl, sh, 9) == 0  # more ships
    pl[0, S.P_SHIPS] = 1
    sh[0, 1, S.S_CELL] = -1
    assert decide_winner(r, pl, sh, 9) == -1  # replay rule: reported as a draw
    sh[1, 0, S.S_ITEMS + S.DIVERS] = 1
    assert decide_winner(r, pl, sh, 9) == 1  # better equipped
    sh[0, 0, S.S_ITEMS + S.COMPASS] = 1
    assert decide_winner(r, pl, sh, 9) == 0  # compass (10) beats divers (5) by value
    r2, *_ = inputs(tie_equipment="count")
    assert decide_winner(r2, pl, sh, 9) == -1  # one card each
    pl[0, S.P_ALIVE] = 0
    assert decide_winner(r, pl, sh, 9) == 1  # players out of the game cannot win


def test_spec_describes_the_game():
    assert SPEC.id == "caza-tesoros" and SPEC.length_unit == "days"
    assert (SPEC.min_players, SPEC.max_players, SPEC.default_players) == (2, 6, 4)
    assert SPEC.end_reasons == (
        "treasures", "archive_crosses", "last_player", "day_cap", "all_out"
    )  # fmt: skip
    assert {"random", "greedy", "cautious", "planner"} <= set(SPEC.policies)
