"""Caza-Tesoros's search player (``mcts``): a search blind to the game's future dice, drawing
from its own stream, the right answer where it is clear, the features its evaluation scores at
the horizon (legal and reproducible games, replays, compiled equal to interpreted, the hooks'
contract: tests/test_game_contract.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from policies.caza_tesoros import (
    CATCHUP,
    PASS,
    PLANNER,
    POLICIES,
    SEARCH,
    decide_ship,
    ship_search_value,
)
from simulator.contract.policy import engine_arrays, parse_policy
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import CELLS
from simulator.games.caza_tesoros.engine import (
    EVENT_WIDTH,
    act,
    cross_slots,
    decide_winner,
    end_turn,
    engine_inputs,
    next_turn,
    play_chunk,
    play_one,
)
from simulator.games.caza_tesoros.features import FEATURES, features
from simulator.games.caza_tesoros.forward import (
    MAX_OPTIONS,
    certain_draw,
    search_ship,
    ship_options,
)
from simulator.games.caza_tesoros.rules import Rules
from simulator.games.caza_tesoros.selfplay import bank

GAME = "caza-tesoros"


def seats(*labels: str) -> tuple[np.ndarray, np.ndarray]:
    return engine_arrays([parse_policy(x, POLICIES, GAME) for x in labels])


def test_other_rollout_and_guide_policies_play_legal_games():
    """Legal play in every seat is the contract test's; here the search with another rollout and
    guide policy, beside a default one, at three players."""
    labels = ("greedy", "mcts:playouts=8", "mcts:playouts=8,rollout=planner,guide=catchup")
    ids, prm = seats(*labels)
    out = play_one(Rules(), len(labels), ids, prm, 1)
    assert out["problems"] == 0
    assert -1 <= out["winner"] < len(labels)
    assert out["end_reason"] in range(len(S.END_REASONS))


def test_the_tally_counts_simulations_and_their_days():
    ids, prm = seats("mcts:playouts=8", "planner")
    tally = np.zeros(2, dtype=np.int64)
    play_chunk(Rules(), 2, ids, prm, np.arange(2), tally=tally)
    assert tally[0] > 0
    assert tally[1] >= tally[0]  # a simulation to the end plays past the day it starts in


def test_opponents_in_the_tree_and_a_horizon_play_legal_games():
    labels = ("mcts:playouts=8,opponents=tree", "mcts:playouts=8,horizon=2", "planner")
    ids, prm = seats(*labels)
    out = play_one(Rules(colours_per_player=2), len(labels), ids, prm, 3)
    assert out["problems"] == 0
    assert -1 <= out["winner"] < len(labels)


# -- searching a hand-made position ---------------------------------------------------------------
def position(rules: Rules, vp: tuple[int, ...], day: int, seed: int = 0):
    """Colours 0..n-1 with one bare ship each; colour 0's ship stands on its own cross, the
    others' ships on theirs elsewhere; cloudy weather; colour 0 is the last to act today."""
    r = engine_inputs(rules)[0]
    n = len(vp)
    st = S.new_state(n, int(cross_slots(r, n)), CELLS)
    pl, sh, cr, g = st[:4]
    S.seed_rng(g, seed)
    rng = np.random.default_rng(seed)
    cells = rng.choice(CELLS, size=n, replace=False)
    for c in range(n):
        pl[c, S.P_VP] = vp[c]
        pl[c, S.P_ALIVE] = 1
        pl[c, S.P_SHIPS] = 1
        pl[c, S.P_CARDS] = 1
        sh[c, 0, S.S_CELL] = cells[c]
        cr[c, S.C_CELL] = cells[c]
        cr[c, S.C_OWNER] = c
    g[S.G_DAY] = day
    g[S.G_WEEKDAY] = (day - 1) % rules.days_per_week + 1
    g[S.G_WEATHER] = S.CLOUDY
    g[S.G_ARCHIVE_DECK] = rules.archive_deck_size - n
    g[S.G_LIVE] = n
    for k in range(S.N_KINDS):
        g[S.G_DECK + k] = rules.object_deck[k]
    st.order[:] = [*range(1, n), 0]  # colour 0 plays last today
    st.at[:] = [n - 1, 0, 1]
    return st, st.order, st.at


def search(rules: Rules, pos: S.State, order, at, label: str = "mcts:playouts=64", tally=None):
    """Colour 0's search from ``pos`` (``order`` and ``at``: the cursor ``pos`` carries)."""
    r, t = engine_inputs(rules)
    prm = parse_policy(label, POLICIES, GAME).row()
    stats = np.zeros((4, 2))
    action = search_ship(r, t, prm, pos, 0, stats, tally)
    return action, stats


@njit(cache=True)
def seed_draws(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=True)
def next_draw() -> int:
    return np.random.randint(0, 2**31 - 1)


def test_behind_on_the_last_day_it_searches():
    # the day cap ends the game tonight 5 VP behind: only a find (with divers, robot and
    # scanner) can win, waiting loses for sure
    rules = Rules(max_days=20)
    pos, order, at = position(rules, (10, 15), day=20)
    for k in (S.DIVERS, S.ROBOT, S.SCANNER):
        pos.sh[0, 0, S.S_ITEMS + k] = 1
    action, stats = search(rules, pos, order, at)
    assert action == SEARCH
    assert stats[0, 1] > 0.1 and stats[1, 1] == 0.0  # SEARCH is listed first, PASS second
    assert stats[:2, 0].sum() == 64  # two options: one halving round shares the budget


def test_ahead_on_the_last_day_it_waits():
    # 1 VP ahead when the day cap ends the game: a bare search (1 VP, 1.5%) only risks a tie
    rules = Rules(max_days=20)
    pos, order, at = position(rules, (16, 15), day=20)
    action, stats = search(rules, pos, order, at)
    assert action == PASS
    assert stats[1, 1] == 1.0


def test_the_horizon_changes_only_games_that_go_on_past_it():
    # the game ends tonight: a horizon changes nothing
    rules = Rules(max_days=20)
    pos, order, at = position(rules, (10, 15), day=20)
    seed_draws(4)
    _, full = search(rules, pos, order, at)
    seed_draws(4)
    _, short = search(rules, pos, order, at, "mcts:playouts=64,horizon=2")
    assert np.array_equal(full, short)
    # mid-game two days ahead cannot end it (no find gives 3 treasures): every simulation stops
    # at the horizon, and the unfitted evaluation (all weights 0) gives each player half
    pos, order, at = position(Rules(), (10, 15), day=9)
    tally = np.zeros(2, dtype=np.int64)
    _, stats = search(Rules(), pos, order, at, "mcts:playouts=64,horizon=2", tally)
    tried = stats[:, 0] > 0
    assert tried.sum() == 2 and np.allclose(stats[tried, 1], 0.5)
    assert tally[0] == 64 and tally[1] == 2 * 64


def test_features_of_a_hand_made_position():
    rules = Rules()
    pos, _, _ = position(rules, (4, 15), day=73)
    pos.sh[0, 0, S.S_ITEMS + S.DIVERS] = 1
    pos.sh[0, 0, S.S_ITEMS + S.GPS] = 1
    pos.cr[0, S.C_DUTY + 0] = 72  # colour 0 failed level 1 on its cross yesterday
    pos.pl[1, S.P_TREASURES] = 1
    pos.pl[1, S.P_SEARCHES] = 2
    out = np.zeros((2, len(FEATURES)))
    r, t = engine_inputs(rules)
    features(r, t, pos, out)
    got = [dict(zip(FEATURES, row, strict=True)) for row in out]
    worth = ship_search_value(r, t.odds, t.tmean, pos.sh, 0, 0, 1, S.CLOUDY, True)
    assert got[0] == {
        "vp": 4.0, "lead": -11.0, "vp_late": 4.0 * 73 / 365, "in_game": 1.0, "ships": 1.0,
        "upkeep_weeks": 4.0, "treasures": 0.0, "cards": 1.0, "on_cross": 1.0, "distance": 0.0,
        "level2_due": 1.0, "search_cards": 1.0, "navigation_cards": 1.0, "search_worth": worth,
        "searches": 0.0,
    }  # fmt: skip
    assert got[1]["lead"] == 11.0 and got[1]["upkeep_weeks"] == 10.0  # 15 weeks: capped at 10
    assert got[1]["treasures"] == 1.0 and got[1]["searches"] == 2.0
    assert got[1]["level2_due"] == 0.0 and got[1]["search_cards"] == 0.0


def test_the_real_game_stream_does_not_depend_on_the_budget():
    # from banked positions of planner self-play: the same seed before a search at 8 and at 32
    # simulations leaves numba's generator at the same next draw; the answer is a legal option
    planner = parse_policy("planner", POLICIES, GAME).row()
    decisions = bank(Rules(), 2, np.full(2, PLANNER), np.stack([planner] * 2), 3, 5)
    r, t = engine_inputs(Rules())
    for state, colour in decisions:
        keys = np.zeros(MAX_OPTIONS, dtype=np.int64)
        n = ship_options(r, state, colour, int(state.at[1]), keys)
        after = set()
        for budget in (8, 32):
            prm = parse_policy(f"mcts:playouts={budget}", POLICIES, GAME).row()
            seed_draws(17)
            action = search_ship(r, t, prm, state, colour)
            after.add(next_draw())
            assert action in keys[:n]
        assert len(after) == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_choices_ignore_the_future_and_other_seats_aims(seed):
    # the game's dice and the policies' draws (the future) and another seat's private aim are
    # what the seat cannot see: changing them changes neither the choice nor any statistic,
    # while the search's own stream does change the statistics
    rules = Rules()
    rng = np.random.default_rng(seed)
    pos, order, at = position(
        rules, tuple(int(v) for v in rng.integers(5, 30, 3)), day=9, seed=seed
    )
    pos.cr[3, S.C_CELL] = int(rng.integers(0, CELLS))  # an Archive cross to sail to
    pos.cr[3, S.C_OWNER] = S.ARCHIVE
    pos.g[S.G_ARCHIVE_CROSSES] = 1
    seed_draws(seed)
    action, stats = search(rules, pos, order, at, "mcts:playouts=48")
    assert (stats[:, 0] > 0).sum() >= 2  # a real choice was searched
    for _ in range(2):
        pos.g[S.G_RNG : S.G_RNG + 8] = rng.integers(-(2**62), 2**62, 8)
        pos.sh[1:, 0, S.S_AIM] = rng.integers(0, CELLS, 2)
        pos.sh[1:, 0, S.S_AIM_UNTIL] = 99
        seed_draws(seed)
        again, stats2 = search(rules, pos, order, at, "mcts:playouts=48")
        assert again == action
        assert np.array_equal(stats, stats2)
    seed_draws(seed + 100)
    _, other = search(rules, pos, order, at, "mcts:playouts=48")
    assert not np.array_equal(stats, other)


# -- a certain draw ends a simulation early --------------------------------------------------------
@njit(cache=True)
def play_to_end(r, t, ids, prm, st) -> None:
    """The rest of the game from ``st``, every colour playing its policy (no search, no stop)."""
    log = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    dirs = np.zeros(64, dtype=np.int64)
    while True:
        q = next_turn(r, t, ids, prm, st, log, False, False)
        if q < 0:
            return
        s = st.at[1]
        action = decide_ship(ids[q], prm[q], q, s, r, t.odds, t.tmean, st.pl, st.sh, st.cr, st.g)
        act(r, t, st, log, q, s, action, dirs)
        end_turn(r, st, log, False)


def week_start(rules: Rules, vp: tuple[int, ...], seed: int = 0):
    """``position`` on day 8 (a week's first day) before it begins: nobody has acted yet."""
    pos, _, _ = position(rules, vp, day=8, seed=seed)
    pos.at[:] = [-1, 0, 0]
    return pos


def draws_every_time(rules: Rules, pos: S.State, games: int = 20) -> tuple[bool, set[int]]:
    """Whether every play to the end of ``pos`` (``catchup`` everywhere, other dice each time)
    ends with every colour out on the same day and no winner; and the days they ended on."""
    r, t = engine_inputs(rules)
    ids, prm = seats(*["catchup"] * pos.pl.shape[0])
    days = set()
    for k in range(games):
        st = S.new_state(pos.pl.shape[0], pos.cr.shape[0], CELLS)
        S.copy_state(st, pos)
        S.seed_rng(st.g, 1000 + k)
        play_to_end(r, t, ids, prm, st)
        out_days = set(st.pl[:, S.P_OUT_DAY].tolist())
        days.add(int(st.g[S.G_DAY]))
        if st.g[S.G_END_REASON] != S.END_ALL_OUT or out_days != {int(st.g[S.G_DAY])}:
            return False, days
        if decide_winner(r, st.pl, st.sh, st.g[S.G_DAY]) != -1:
            return False, days
    return True, days


def is_certain(rules: Rules, pos: S.State) -> bool:
    r, t = engine_inputs(rules)
    return bool(certain_draw(r, t, pos, np.full(pos.pl.shape[0], CATCHUP)))


@pytest.mark.parametrize("vp", [(6, 6), (12, 12, 12), (3, 3, 3, 3)])
def test_a_certain_draw_is_a_draw_in_every_play_to_the_end(vp):
    rules = Rules()
    pos = week_start(rules, vp)
    assert is_certain(rules, pos)
    drawn, _ = draws_every_time(rules, pos)
    assert drawn


def test_the_upkeep_clock_against_the_day_cap_at_the_cap_and_either_side():
    # the day everyone drops out, found by playing to the end: a cap on that day (the upkeep is
    # paid at the day's start) still ends in the draw, a cap one day earlier does not
    _, days = draws_every_time(Rules(), week_start(Rules(), (4, 4)))
    (out,) = days
    for cap, certain in ((out + 1, True), (out, True), (out - 1, False)):
        rules = Rules(max_days=cap)
        pos = week_start(rules, (4, 4))
        assert is_certain(rules, pos) == certain
        assert draws_every_time(rules, pos)[0] == certain


def test_what_breaks_a_certain_draw():
    rules = Rules()
    assert not is_certain(rules, week_start(rules, (6, 7)))  # one VP behind: it searches
    pos = week_start(rules, (6, 6))
    pos.pl[1, S.P_SHIPS] = 2  # more ships: a higher upkeep
    pos.sh[1, 1, S.S_CELL] = pos.sh[1, 0, S.S_CELL]
    assert not is_certain(rules, pos)
    pos = week_start(rules, (6, 6))
    for k in (S.DIVERS, S.ROBOT, S.SCANNER):  # a search worth its price: catchup takes it
        pos.sh[0, 0, S.S_ITEMS + k] = 1
    assert not is_certain(rules, pos)
    seat = Rules(maintenance_order="seat")  # the first to drop out leaves the other the winner
    assert not is_certain(seat, week_start(seat, (6, 6)))
    must = Rules(level2_window="must_next_turn")
    pos = week_start(must, (6, 6))
    pos.cr[0, S.C_DUTY + 0] = 7  # failed level 1 yesterday: it must search today
    assert not is_certain(must, pos)
    pos.cr[0, S.C_DUTY + 0] = 6
    assert is_certain(must, pos)
    pos = week_start(rules, (6, 6))
    r, t = engine_inputs(rules)
    assert not certain_draw(r, t, pos, np.array([CATCHUP, PLANNER]))


def with_archive_cross(pos: S.State, cell: int) -> S.State:
    pos.cr[3, S.C_CELL] = cell
    pos.cr[3, S.C_OWNER] = S.ARCHIVE
    pos.g[S.G_ARCHIVE_CROSSES] = 1
    return pos


def test_a_search_between_waiting_players_stops_at_the_certain_draw():
    # level on day 9, too poor to search: wait, or sail to an Archive cross and back; every
    # simulation stops at the next week's start (day 15) instead of playing the upkeep clock
    # out, scored as the draw it is
    rules = Rules(level1_cost=4)
    pos, order, at = position(rules, (3, 3), day=9)
    tally = np.zeros(2, dtype=np.int64)
    _, stats = search(rules, with_archive_cross(pos, 5), order, at, "mcts:playouts=32", tally)
    assert np.array_equal(stats[:2], [[16, 0.5], [16, 0.5]])
    assert tally[0] == 32 and tally[1] == 32 * (15 - 9)
    # one VP apart, the same simulations play on past that week
    pos, order, at = position(rules, (3, 2), day=9)
    tally[:] = 0
    search(rules, with_archive_cross(pos, 5), order, at, "mcts:playouts=32", tally)
    assert tally[0] == 32 and tally[1] > 32 * (15 - 9)
