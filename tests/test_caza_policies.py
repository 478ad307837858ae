"""Caza-Tesoros policies: registry, exact odds, and each policy's decisions on set positions."""

import math

import numpy as np
import pytest

from policies.caza_tesoros import (
    CAUTIOUS,
    GREEDY,
    PASS,
    PLANNER,
    POLICIES,
    RANDOM,
    SEARCH,
    decide_bid,
    decide_buy,
    decide_ship,
    item_value,
)
from simulator.contract.errors import BalanceError
from simulator.contract.policy import parse_policy
from simulator.contract.rng import new_state
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import cell_of
from simulator.games.caza_tesoros.engine import engine_inputs, play_chunk, play_one, seed_rng
from simulator.games.caza_tesoros.odds import success_probability
from simulator.games.caza_tesoros.rules import Rules
from simulator.games.caza_tesoros.treasure_search import (
    MARK_ALL,
    MARK_ONE,
    PAIRS_ANY,
    resolve_search,
)


def setup(weather=S.CLOUDY, cards=(), vp=20, level=1, **values):
    r, t = engine_inputs(Rules().with_values(values))
    odds, tmean = t.odds, t.tmean
    pl, sh, cr, g = S.new_state(2, 10, 1)[:4]
    pl[:, S.P_VP] = vp
    pl[:, S.P_ALIVE] = 1
    pl[:, S.P_SHIPS] = 1
    sh[0, 0, S.S_CELL] = cell_of(9, 9)
    sh[1, 0, S.S_CELL] = cell_of(4, 4)
    for kind in cards:
        sh[0, 0, S.S_ITEMS + kind] = 1
    cr[0, :2] = (cell_of(9, 9), 0)
    cr[0, S.C_DUTY + 0] = 1 if level == 2 else 0  # failed level 1 there on day 1
    cr[1, :2] = (cell_of(15, 15), 1)
    pl[:, S.P_CARDS] = 1
    pl[1, S.P_SEARCHES] = 1  # an active rival (against a passive one the planner may gamble)
    g[S.G_DAY] = 2
    g[S.G_WEATHER] = weather
    return r, odds, tmean, pl, sh, cr, g


def params(name, **values):
    row = POLICIES[name].defaults()
    for i, p in enumerate(POLICIES[name].params):
        if p.name in values:
            row[i] = values[p.name]
    return row


def test_registry_ids_and_parameters():
    assert [POLICIES[n].id for n in ("random", "greedy", "cautious", "planner")] == [
        RANDOM,
        GREEDY,
        CAUTIOUS,
        PLANNER,
    ]
    seat = parse_policy("planner:horizon=5,reserve=2", POLICIES, "caza-tesoros")
    assert seat.label == "planner:reserve=2,horizon=5"
    with pytest.raises(BalanceError, match="horizon"):
        parse_policy("planner:horizon=99", POLICIES, "caza-tesoros")


def test_exact_odds_match_hand_counts_and_the_shared_search():
    # one die, no repeat: the six throws must all differ, 6!/6^6
    assert success_probability(1, 1, 0, MARK_ALL, PAIRS_ANY) == pytest.approx(
        math.factorial(6) / 6**6, abs=1e-12
    )
    # one repeat: the first failed throw is thrown again once
    p = success_probability(1, 1, 1, MARK_ALL, PAIRS_ANY)
    # by hand: sum over the box where the single repeat is spent
    exact = 0.0
    for k in range(1, 6):  # the failure happens with k boxes marked
        ways = math.prod((6 - i) / 6 for i in range(k))  # marks k distinct first
        exact += ways * (k / 6) * math.prod((6 - i) / 6 for i in range(k, 6))
    exact += math.factorial(6) / 6**6
    assert p == pytest.approx(exact, abs=1e-12)
    # the compiled search agrees with the exact odds (simulation, generous 5 sigma bound)
    for level, dice, rerolls, marking in ((1, 2, 1, MARK_ALL), (2, 4, 0, MARK_ONE)):
        state = new_state(3)
        n = 20_000
        wins = sum(
            resolve_search(state, level, dice, rerolls, marking, PAIRS_ANY)[0] for _ in range(n)
        )
        q = success_probability(level, dice, rerolls, marking, PAIRS_ANY)
        assert abs(wins / n - q) < 5 * math.sqrt(q * (1 - q) / n)


def test_greedy_searches_at_once_and_heads_for_its_nearest_cross():
    r, odds, tmean, pl, sh, cr, g = setup()
    prm = params("greedy")
    assert decide_ship(GREEDY, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH
    assert decide_ship(GREEDY, prm, 1, 0, r, odds, tmean, pl, sh, cr, g) == cell_of(15, 15)
    cr[1, S.C_OWNER] = S.ARCHIVE
    cr[2, :2] = (cell_of(5, 4), S.ARCHIVE)
    pl[1, S.P_CARDS] = 0
    assert decide_ship(GREEDY, prm, 1, 0, r, odds, tmean, pl, sh, cr, g) == cell_of(5, 4)
    pl[0, S.P_VP] = 0  # cannot pay the search: sails on (its own cross is here, so it stays)
    assert decide_ship(GREEDY, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == cell_of(9, 9)


def test_cautious_never_spends():
    r, odds, tmean, pl, sh, cr, g = setup()
    prm = params("cautious")
    assert decide_ship(CAUTIOUS, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == cell_of(9, 9)
    assert not decide_buy(CAUTIOUS, prm, 0, S.DIVERS, 5, r, odds, tmean, pl, sh, cr, g)
    assert decide_bid(CAUTIOUS, prm, 0, S.DIVERS, 1, 1, r, odds, tmean, pl, sh, cr, g) < 1
    ids = np.array([CAUTIOUS, GREEDY, CAUTIOUS], dtype=np.int64)
    prm3 = np.stack([params("cautious"), params("greedy"), params("cautious")])
    for seed in range(10):
        game = play_one(Rules(), 3, ids, prm3, seed)
        assert game["pl"][0, S.P_SEARCHES] == 0 and game["pl"][2, S.P_SEARCHES] == 0
        assert game["sh"][[0, 2], :, S.S_ITEMS : S.S_ITEMS + 6].sum() == 0


def test_planner_equips_before_searching():
    # bare ship: a level 1 search is worth less than it costs, so it waits on its cross
    r, odds, tmean, pl, sh, cr, g = setup()
    prm = params("planner")
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == PASS
    # divers, robot and scanner: 62% at level 1, worth searching
    r, odds, tmean, pl, sh, cr, g = setup(cards=(S.DIVERS, S.ROBOT, S.SCANNER))
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH


def test_planner_avoids_a_risky_level_two_in_a_storm():
    cards = (S.DIVERS, S.ROBOT)
    prm = params("planner")
    r, odds, tmean, pl, sh, cr, g = setup(cards=cards, level=2)
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH
    r, odds, tmean, pl, sh, cr, g = setup(weather=S.STORM, cards=cards, level=2)
    # level 2 with 3 dice and divers finds 41%: a failure would cost the robot (15 VP) too
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == PASS
    r, odds, tmean, pl, sh, cr, g = setup(
        weather=S.STORM, cards=cards, level=2, bad_weather_item_loss=False
    )
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH


def test_planner_values_cards_by_the_plan_they_open():
    prm = params("planner")
    r, odds, tmean, pl, sh, cr, g = setup()
    divers = item_value(r, odds, tmean, prm, sh, 0, S.DIVERS)
    # divers alone add little, but open the road to the robot: worth more than 5 VP
    assert divers > 5
    assert item_value(r, odds, tmean, prm, sh, 0, S.ROBOT) == 0.0  # no divers: cannot hold
    no_future = params("planner", horizon=0)
    assert item_value(r, odds, tmean, no_future, sh, 0, S.DIVERS) <= 5.0
    # with 20 VP like its rival the road to the robot (20 VP in cards) is out of reach
    assert not decide_buy(PLANNER, prm, 0, S.DIVERS, 5, r, odds, tmean, pl, sh, cr, g)
    assert item_value(r, odds, tmean, prm, sh, 0, S.DIVERS, 11.0) <= 5.0
    pl[0, S.P_VP] = 45
    assert decide_buy(PLANNER, prm, 0, S.DIVERS, 5, r, odds, tmean, pl, sh, cr, g)
    # bids never exceed what it can spend
    bid = decide_bid(PLANNER, prm, 0, S.DIVERS, 2, 1, r, odds, tmean, pl, sh, cr, g)
    assert 2 <= bid <= 45 - 9
    # navigation: move_value VP per movement point
    assert item_value(r, odds, tmean, prm, sh, 0, S.COMPASS) == prm[2]


def test_planner_buys_the_robot_before_searching_when_it_pays():
    prm = params("planner")
    r, odds, tmean, pl, sh, cr, g = setup(cards=(S.DIVERS,), vp=40)
    # divers alone: 8% per attempt, worth less than it costs, so it waits on its cross ...
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == PASS
    # ... and buys the robot (level 1 with 2 dice 36%, level 2 with 3 dice and one mark 41%)
    assert decide_buy(PLANNER, prm, 0, S.ROBOT, 15, r, odds, tmean, pl, sh, cr, g)
    sh[0, 0, S.S_ITEMS + S.ROBOT] = 1
    pl[0, S.P_VP] -= 15
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH
    # read level 2 as every value at once (7% with 3 dice) and the robot pays less
    r2, odds2, *_ = setup(cards=(S.DIVERS,), vp=40, level2_marking="all")
    assert item_value(r2, odds2, tmean, prm, sh, 0, S.SCANNER) < item_value(
        r, odds, tmean, prm, sh, 0, S.SCANNER
    )


def test_planner_keeps_enough_vp_for_maintenance():
    prm = params("planner")
    # the robot pays, but after it the planner must keep 4 weeks of upkeep and one attempt
    # (4 + 1 + 3) plus its reserve of 1: 24 VP buy it, 23 do not
    for vp, buys in ((24, True), (23, False)):
        r, odds, tmean, pl, sh, cr, g = setup(cards=(S.DIVERS,), vp=vp)
        pl[1, S.P_VP] = 20
        assert decide_buy(PLANNER, prm, 0, S.ROBOT, 15, r, odds, tmean, pl, sh, cr, g) == buys
    # far ahead of a poor rival it may spend down to outlasting it
    r, odds, tmean, pl, sh, cr, g = setup(cards=(S.DIVERS,), vp=17)
    pl[1, S.P_VP] = 0
    assert decide_buy(PLANNER, prm, 0, S.ROBOT, 15, r, odds, tmean, pl, sh, cr, g)


def test_planner_ends_the_game_while_ahead():
    prm = params("planner")
    # bare ship, level 2 pending on its own cross (1% to find), four Archive crosses down:
    # a failure lays the fifth and ends the game, a win when it is ahead
    for mine, rival, wants in ((25, 20, SEARCH), (20, 20, PASS), (20, 25, PASS)):
        r, odds, tmean, pl, sh, cr, g = setup(level=2)
        g[S.G_ARCHIVE_CROSSES] = 4
        pl[0, S.P_VP], pl[1, S.P_VP] = mine, rival
        assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == wants


def head_to_head(rival, planner_params, seeds):
    wins = {"planner": 0, rival: 0}
    for order in (("planner", rival), (rival, "planner")):
        ids = np.array([POLICIES[n].id for n in order], dtype=np.int64)
        prm = np.stack([planner_params if n == "planner" else params(n) for n in order])
        out = play_chunk(Rules(), 2, ids, prm, seeds)
        for seat, name in enumerate(order):
            wins[name] += int((out["winner"] == seat).sum())
    return {k: v / (2 * len(seeds)) for k, v in wins.items()}


def test_planner_beats_random_and_gambles_against_cautious():
    # 600 two-player games per pairing, both seat orders, fixed seeds
    seeds = np.arange(600, dtype=np.int64) + 7
    assert head_to_head("random", params("planner"), seeds)["planner"] > 0.9
    # against a rival that never spends, waiting ends with both out at once (no winner):
    # the planner gambles on bare searches and wins some games; without gambling, none
    gambling = head_to_head("cautious", params("planner"), seeds)
    assert gambling["planner"] > 0.03
    waiting = head_to_head("cautious", params("planner", gamble=0.0), seeds[:100])
    assert waiting == {"planner": 0.0, "cautious": 0.0}


def test_planner_gambles_only_when_waiting_cannot_win():
    prm = params("planner")
    r, odds, tmean, pl, sh, cr, g = setup()
    pl[1, S.P_SEARCHES] = 0  # a passive rival, level with it: waiting ends all out
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == SEARCH
    assert (
        decide_ship(PLANNER, params("planner", gamble=0.0), 0, 0, r, odds, tmean, pl, sh, cr, g)
        == PASS
    )
    pl[0, S.P_VP] = 21  # ahead of a passive rival: it outlasts it by waiting
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == PASS
    pl[0, S.P_VP] = 20
    pl[1, S.P_ITEMS] = 1  # a rival that buys is not passive: the bare search does not pay
    assert decide_ship(PLANNER, prm, 0, 0, r, odds, tmean, pl, sh, cr, g) == PASS


def test_random_picks_legal_choices():
    r, odds, tmean, pl, sh, cr, g = setup()
    seed_rng(g, 0)
    answers = [decide_ship(RANDOM, params("random"), 0, 0, r, odds, tmean, pl, sh, cr, g)]
    answers += [
        decide_ship(RANDOM, params("random"), 0, 0, r, odds, tmean, pl, sh, cr, g)
        for _ in range(400)
    ]
    assert SEARCH in answers and all(a == SEARCH or 0 <= a < 324 for a in answers)
    bids = [
        decide_bid(RANDOM, params("random"), 0, S.DIVERS, 5, 1, r, odds, tmean, pl, sh, cr, g)
        for _ in range(400)
    ]
    assert all(b < 5 or 5 <= b <= 20 for b in bids) and len(set(bids)) > 5


def test_greedy_keeps_a_reserve_a_person_would_keep():
    # day one, upkeep paid: 19 VP. Not a compass for half its purse, but divers, yes
    r, odds, tmean, pl, sh, cr, g = setup(vp=19)
    prm = params("greedy")
    assert not decide_buy(GREEDY, prm, 0, S.COMPASS, 10, r, odds, tmean, pl, sh, cr, g)
    assert decide_buy(GREEDY, prm, 0, S.DIVERS, 5, r, odds, tmean, pl, sh, cr, g)


def test_random_sails_to_one_hex_for_several_days():
    r, odds, tmean, pl, sh, cr, g = setup()
    sh[0, 0, S.S_CELL] = cell_of(2, 2)  # no cross here: it sails
    prm = params("random", commit_days=5)
    seed_rng(g, 1)
    aims = []
    for day in range(2, 12):
        g[S.G_DAY] = day
        aims.append(decide_ship(RANDOM, prm, 0, 0, r, odds, tmean, pl, sh, cr, g))
    assert len(set(aims[:5])) == 1 and len(set(aims[5:])) == 1 and aims[0] != aims[5]
