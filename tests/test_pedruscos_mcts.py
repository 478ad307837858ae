"""Pedruscos del Espacio's search player (`mcts`): a search that reads only what the table shows,
and a clear answer found on a hand-made position (legal and reproducible games, compiled equal to
interpreted: the contract test, tests/test_game_contract.py)."""

import dataclasses

import numpy as np
import pytest
from numba import njit

import policies.pedruscos as P
from policies.pedruscos import MCTS, POLICIES
from simulator.contract.policy import EVAL_AT, engine_arrays, seat_policies
from simulator.games.pedruscos import forward as F
from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import MOON, STATION, build_board
from simulator.games.pedruscos.engine import play_chunk
from simulator.games.pedruscos.features import FEATURES, features, moon_share
from simulator.games.pedruscos.rules import Rules, engine_rules
from simulator.search.tree import tally_for

CHEAP = "mcts:playouts=8,widen=1"  # three options enter the root at 8 simulations
BOARD = build_board(*Rules().board_key())


def seats(names):
    return engine_arrays(seat_policies(list(names), POLICIES, "pedruscos", len(names)))


def mcts_row(text=CHEAP):
    return seats([text])[1][0]


def test_the_tally_counts_simulations_and_the_rounds_they_play():
    ids, prm = seats((CHEAP, "lookahead"))
    rules = dataclasses.replace(Rules(), target_points=25)
    tally = np.zeros(2, dtype=np.int64)
    play_chunk(rules, 2, ids, prm, np.arange(40, 42), tally=tally)
    assert tally[0] > 0 and tally[1] >= tally[0] // 8  # simulations, and the rounds they played


def test_runs_without_the_search_pass_no_tally():
    assert tally_for(seats(("lookahead", "hauler"))[0], MCTS) is None
    assert tally_for(seats((CHEAP, "hauler"))[0], MCTS).shape == (2,)


# -- hand-made positions --------------------------------------------------------------------------
def position(n_players=2, points=(0, 0), values=(1, 1, 1)):
    r = engine_rules(Rules())
    pos = S.new_state(n_players, BOARD.n_cells)
    for c in range(3):
        pos.g[S.G_DECK + c] = Rules().deck_size
        pos.g[S.G_VALUE + c] = values[c]
    pos.g[S.G_ROUND] = 5
    pos.g[S.G_TURN] = 5 * n_players
    for p, pts in enumerate(points):
        pos.pl[p, S.P_POINTS] = pts
    return r, BOARD.arrays, pos


def cards(pos, p, red=0, yellow=0, blue=0):
    for c, n in enumerate((red, yellow, blue)):
        pos.pl[p, S.P_CARDS + c] = n
        pos.g[S.G_DECK + c] -= n


def moon_roll():
    """A square and a die that reach a moon among a few other squares."""
    b = BOARD.arrays
    found = []
    for cell in range(BOARD.n_cells):
        if b.kind[cell] == MOON:
            continue
        for die in range(1, 7):
            ends = b.reach[b.reach_ptr[cell * 7 + die] : b.reach_ptr[cell * 7 + die + 1]]
            moons = [e for e in ends if b.kind[e] == MOON]
            if moons and len(ends) >= 4:
                found.append((len(ends), cell, die, int(moons[0])))
    assert found, "no square reaches a moon"
    return min(found)[1:]


def search(prm, pos, p, die, seed):
    r, b = engine_rules(Rules()), BOARD.arrays
    keys = np.zeros(2 * BOARD.n_cells, dtype=np.int64)
    n = F.landing_options(r, b, pos, p, die, keys)
    stats = np.zeros((n, 2))
    S.seed_rng(seed)
    key = F.search_landing(r, b, prm, pos, p, die, stats)
    return key, stats, keys[:n]


def test_search_ships_the_winning_cargo():
    """45 points, a cargo worth 10 and a moon in reach: shipping wins at once, and anything else
    loses, since the opponent sits beside a moon with a winning cargo (a moon is a voluntary
    stop, so any die takes it there). With a random guide the search has to find the shipment
    among the other squares and the moon without shipping (no bias toward the guide, every
    option in reach of the tree)."""
    start, die, moon = moon_roll()
    r, b, pos = position(points=(45, 45), values=(2, 2, 2))
    cards(pos, 0, red=3, yellow=2)
    cards(pos, 1, red=5)
    pos.pl[0, S.P_POS] = start
    pos.pl[1, S.P_POS] = BOARD.neighbours[moon][0]
    before = [a.copy() for a in pos]
    prm = mcts_row("mcts:playouts=200,guide=random,bias=0,widen=1")
    key, stats, keys = search(prm, pos, 0, die, seed=3)
    assert key == 2 * moon + 1
    assert 2 * moon in keys  # landing there without shipping was an option too
    assert all(np.array_equal(x, y) for x, y in zip(before, pos, strict=True))  # root untouched
    won = list(keys).index(key)
    assert stats[won, 1] > np.delete(stats[:, 1], won).max()


def test_search_reads_only_what_the_table_shows():
    """Nothing in Pedruscos is hidden but the dice: every hold shows its colours, and a deck is
    only a count of alike cards. What no rule reads (which cards aboard came from harvests, the
    statistics columns, the replay's notes) is scrambled: the search, from the same seed, gives
    the same answer and the same statistics for every option."""
    start, die, _ = moon_roll()
    rng = np.random.default_rng(7)
    for trial in range(3):
        r, b, pos = position(points=(12, 20), values=(1, 2, 3))
        cards(pos, 0, red=2, yellow=1, blue=2)
        cards(pos, 1, red=1, blue=3)
        pos.pl[0, S.P_POS] = start
        pos.pl[1, S.P_POS] = 3
        pos.br[1, 2] = 1
        prm = mcts_row("mcts:playouts=60")
        key, stats, keys = search(prm, pos, 0, die, seed=trial)
        for p in range(2):
            for c in range(3):
                pos.pl[p, S.P_HCARDS + c] = rng.integers(0, pos.pl[p, S.P_CARDS + c] + 1)
            for f in (S.P_SHIPMENTS, S.P_PIRATE_LOST, S.P_HARVEST_POINTS, S.P_HARVEST_CARDS,
                      S.P_SHIPPED_VALUE, S.P_LOST_TURNS):  # fmt: skip
                pos.pl[p, f] = rng.integers(0, 50)
        pos.g[S.G_EVENTS : S.G_EVENTS + 8] = rng.integers(0, 9, 8)
        pos.g[S.G_HARVEST_ROLL : S.G_HARVEST_COORD + 1] = rng.integers(0, 5, 3)
        key2, stats2, keys2 = search(prm, pos, 0, die, seed=trial)
        assert key2 == key
        assert np.array_equal(keys2, keys)
        assert np.array_equal(stats2, stats)


def test_search_simulations_draw_their_own_dice():
    """The answer's statistics come from the dice the simulations draw (another seed, other
    simulations), not from anything stored in the position."""
    start, die, _ = moon_roll()
    r, b, pos = position(points=(12, 20))
    cards(pos, 0, red=2, yellow=1)
    pos.pl[0, S.P_POS] = start
    prm = mcts_row("mcts:playouts=40,horizon=0,margin=1")  # the margin: results other than 0/1
    _, a, _ = search(prm, pos, 0, die, seed=1)
    _, c, _ = search(prm, pos, 0, die, seed=2)
    assert 40 - 4 * len(a) <= a[:, 0].sum() <= 40  # the halving's rounds share the budget
    assert a[:, 0].sum() == c[:, 0].sum()
    assert not np.array_equal(a, c)


def test_mcts_id_is_the_registered_one():
    assert POLICIES["mcts"].id == MCTS


# -- features, the horizon, the root, the search's own stream ------------------------------------
def test_features_of_a_hand_made_position():
    """Seat 0: 30 points, 2 red and 1 blue aboard (values 1, 2, 3: worth 5), a branch at an open
    station and one at the closed one; seat 1: 46 points, 3 blue (worth 9, enough to win by
    shipping at cost 3), waiting for repairs; seat 1 is about to move."""
    r, b, pos = position(points=(30, 46), values=(1, 2, 3))
    cards(pos, 0, red=2, blue=1)
    cards(pos, 1, blue=3)
    pos.br[0, 1] = 1
    pos.br[0, 2] = 1
    pos.g[S.G_CLOSED] = 2
    pos.pl[1, S.P_REPAIR] = 1
    station = int(np.flatnonzero(BOARD.arrays.kind == STATION)[0])
    pos.pl[0, S.P_POS] = station
    out = np.zeros((2, len(FEATURES)))
    features(r, b, pos, 1, out)
    got = {name: tuple(out[:, i]) for i, name in enumerate(FEATURES)}
    share = moon_share(b, station)
    assert 0.0 < share <= 1.0
    assert got == {
        "points": (30, 46),
        "cargo_value": (5, 9),
        "cargo_cards": (3, 3),
        "cargo_in_reach": (5 * share, 0.0),  # a ship under repairs reaches no moon
        "winning_cargo": (0.0, 1.0),
        "branches": (1, 0),  # the closed station's branch harvests nothing for now
        "repairs": (0.0, 1.0),
        "turns_to_move": (1, 0),
    }


def test_the_horizon_scores_with_the_evaluation_and_the_end_with_the_margin():
    """A simulation stopped at its horizon gets every seat's fitted evaluation
    (``search.evaluate`` of the features); one that reached the end keeps the margin rule."""
    r, b, pos = position(points=(40, 20), values=(1, 2, 3))
    cards(pos, 0, red=2)
    prm = mcts_row("mcts:horizon=2,margin=0.5")
    prm[EVAL_AT + 1 + FEATURES.index("points")] = 0.1
    out = np.zeros(2)
    feats = np.zeros((2, len(FEATURES)))
    F.rewards_of(r, b, prm, pos, F.HORIZON_STOP, 0, feats, out)
    z = 0.1 * (40 - 20)
    win = 1 / (1 + np.exp(-z))
    lose = 1 / (1 + np.exp(z))
    assert np.allclose(out, [win / (win + lose), lose / (win + lose)])
    F.rewards_of(r, b, prm, pos, 0, 0, feats, out)  # the game ended, seat 0 won
    margin = 0.5 + 20 / (2 * Rules().target_points)
    assert np.allclose(out, [0.5 + 0.5 * margin, 0.5 * (1 - margin)])


def test_an_even_evaluation_at_the_horizon_leaves_the_guides_choice():
    """With the evaluation unfitted (every seat an even share) and nobody able to win within
    the horizon, every simulation scores 0.5: no option beats the guide's, which the halving
    ranks first (its best score; the first listed among equals) and keeps on ties. Played to
    the end (horizon 0) the results differ."""
    start, die, _ = moon_roll()
    r, b, pos = position(points=(10, 12), values=(1, 2, 3))
    cards(pos, 0, red=1, yellow=1)
    pos.pl[0, S.P_POS] = start
    keys = np.zeros(2 * BOARD.n_cells, dtype=np.int64)
    n = F.landing_options(r, b, pos, 0, die, keys)
    prm = mcts_row("mcts:playouts=40,horizon=1")
    key, stats, _ = search(prm, pos, 0, die, seed=4)
    assert np.allclose(stats[stats[:, 0] > 0, 1], 0.5)
    gprm = F.ROLLOUT_PRM[int(prm[F.MCTS_P.guide])]
    gid = F.ROLLOUTS[int(prm[F.MCTS_P.guide])]
    scores = np.zeros(n)
    F.option_scores(gid, gprm, r, b, pos, 0, die, keys, n, scores)
    assert key == keys[np.argmax(scores)]  # the guide's best, the first listed among equals
    _, full, _ = search(mcts_row("mcts:playouts=40,horizon=0"), pos, 0, die, seed=4)
    assert not np.allclose(full[full[:, 0] > 0, 1], 0.5)


@njit(cache=True)
def _search_then_draw(r, b, prm, pos, p, die, seed):
    S.seed_rng(seed)
    F.search_landing(r, b, prm, pos, p, die)
    return np.random.randint(0, 2**31 - 1)


def test_the_real_games_stream_does_not_depend_on_the_budget():
    """The search draws from its own stream: after a decision the game's next draw is the same
    at 20 and at 80 simulations, full playouts or to a horizon."""
    start, die, _ = moon_roll()
    r, b, pos = position(points=(12, 20), values=(1, 2, 3))
    cards(pos, 0, red=2, yellow=1)
    pos.pl[0, S.P_POS] = start
    for text in ("mcts:playouts={},horizon=0", "mcts:playouts={},horizon=2,opponents=racer"):
        draws = {
            _search_then_draw(r, b, mcts_row(text.format(k)), pos, 0, die, 9) for k in (20, 80)
        }
        assert len(draws) == 1, text


def test_every_root_and_opponents_answer_a_legal_option():
    """Halving roots with the tree below them (opponents=tree), named opponents and a horizon:
    the answer is one of the options, the simulations stay within the budget."""
    start, die, _ = moon_roll()
    r, b, pos = position(n_players=3, points=(12, 20, 30), values=(1, 2, 3))
    cards(pos, 0, red=2, yellow=1)
    cards(pos, 2, blue=4)
    pos.pl[0, S.P_POS] = start
    for text in (
        "mcts:playouts=30,opponents=tree,horizon=0",
        "mcts:playouts=30,opponents=tree,horizon=3",
        "mcts:playouts=30,opponents=lookahead,horizon=2",
        "mcts:playouts=30,widen=5",
    ):
        key, stats, keys = search(mcts_row(text), pos, 0, die, seed=2)
        assert key in keys, text
        assert 0 < stats[:, 0].sum() <= 30, text


def test_the_banked_decisions_and_the_choices_made_there():
    """The bank's positions have two options or more, from several games' turns; the lookahead
    decides there as in the game, and the search's answer is one of the options."""
    from simulator.games.pedruscos.spec import SPEC

    hooks = SPEC.search_hooks
    ids, prm = seats(("lookahead", "lookahead"))
    decisions = hooks.bank(Rules(), 2, ids, prm, 12, 5)
    assert len(decisions) == 12
    rounds = {int(d[0].g[S.G_ROUND]) for d in decisions}
    assert len(rounds) >= 4  # spread over the game
    keys = np.zeros(2 * BOARD.n_cells, dtype=np.int64)
    for pos, p, die in decisions:
        n = F.landing_options(engine_rules(Rules()), BOARD.arrays, pos, p, die, keys)
        assert n >= 2
        k = hooks.decide(Rules(), (pos, p, die), MCTS, mcts_row(), 3)
        assert 0 <= k < n
        assert 0 <= hooks.decide(Rules(), (pos, p, die), ids[0], prm[0], 3) < n


# -- the answer that settles, the last rounds played out ------------------------------------------
def _halving(counts):
    from simulator.search import tree as T

    h = T.new_halving(len(counts))
    for arm, c in enumerate(counts):
        h.counts[arm] = c
    return h


def test_the_answer_leaves_the_guides_first_option_only_when_clearly_better():
    """Option 1 is the halving's best, option 0 the guide's first; both had 4 simulations on
    the same dice. A steady gain of 0.1 (no spread) is clearly better; a gain of 0.05 whose
    paired differences swing by 0.25 is within 2 standard errors (0.25 / sqrt(3) each), so the
    answer stays the guide's; with settle 0.3 it is taken."""
    h = _halving([4, 4, 2])
    slot = np.array([0, 1, 2])
    trail = np.zeros((3, 6))
    trail[0, :4] = 0.5
    trail[1, :4] = 0.6
    assert F.settled(h, 0, slot, trail, 1, 2.0) == 1
    trail[1, :4] = 0.5 + np.array([0.3, -0.2, 0.3, -0.2])
    assert F.settled(h, 0, slot, trail, 1, 2.0) == 0
    assert F.settled(h, 0, slot, trail, 1, 0.3) == 1
    assert F.settled(h, 1, slot, trail, 1, 2.0) == 1  # the guide's first is the best already


def test_the_last_rounds_are_played_to_the_end():
    """A seat whose points and cargo come within FINISH_WITHIN (5) of the target (50): 45 is
    near the end, 44 is not. Near it, one-round simulations play on past the horizon."""
    r, b, pos = position(points=(44, 10), values=(1, 2, 3))
    cards(pos, 0, red=1)  # worth 1
    assert F.near_end(r, pos)  # 44 + 1 = 45 = 50 - 5
    pos.pl[0, S.P_POINTS] = 43
    assert not F.near_end(r, pos)
    pos.pl[0, S.P_POINTS] = 45
    assert F.near_end(r, pos)
    start, die, _ = moon_roll()
    keys = np.zeros(2 * BOARD.n_cells, dtype=np.int64)
    rounds = {}
    for points in (43, 44):
        r, b, pos = position(points=(points, 10), values=(1, 2, 3))
        cards(pos, 0, red=1)
        pos.pl[0, S.P_POS] = start
        n = F.landing_options(r, b, pos, 0, die, keys)
        tally = np.zeros(2, dtype=np.int64)
        S.seed_rng(5)
        F.search_landing(r, b, mcts_row("mcts:playouts=40,horizon=1"), pos, 0, die,
                         np.zeros((n, 2)), tally)  # fmt: skip
        rounds[points] = tally[1] / tally[0]
    assert rounds[43] == 1.0  # every simulation stops at its one-round horizon
    assert rounds[44] > 1.0


def test_an_ended_simulation_scores_the_win_alone_by_default():
    """margin 0 (the default): the end of the game scores 1 for the winner and 0 for the others,
    the scale of the evaluation at the horizon (a chance of winning)."""
    r, b, pos = position(points=(50, 20))
    out = np.zeros(2)
    F.rewards_of(r, b, mcts_row("mcts"), pos, 0, 0, np.zeros((2, len(FEATURES))), out)
    assert np.array_equal(out, [1.0, 0.0])


def test_the_guides_square_values_by_class():
    """The lookahead's and racer's one-square values (the search's root ranking and its
    simulations' moves), one per class of square: an asteroid's colour (a card at its value
    times ``card_weight``), the moons' shipment, the planet, each station (the station table;
    a harvest where the seat has a branch; a branch's worth where it has none, for the
    lookahead only: the racer gives a branch no worth)."""
    r, b, pos = position(points=(10, 0), values=(2, 4, 6))
    cards(pos, 0, red=2, blue=1)  # cargo worth 10
    pos.br[0, 1] = 1  # a branch at station 1, built long ago
    worth = {}
    for name in ("lookahead", "racer"):
        prm = seats([name])[1][0]
        w = prm[P.LOOK_P.card_weight]
        out = np.full(P.N_VALUES, np.nan)
        P.landing_values(r, b, pos.pl, pos.br, pos.g, 0, prm, out)
        assert np.allclose(out[:3], [w * 2, w * 4, w * 6])
        assert out[P.V_MOON] == (10 - r.shipping_cost) - w * 10
        assert out[P.V_PLANET] == 0.0
        events = P.event_value(r, pos.pl, pos.br, pos.g, 0, 0, prm)
        holidays = S.event_probability(r, 7) * 0.5
        harvest = P.harvest_value(r, b, pos.pl, pos.br, pos.g, 0, 1, w)
        assert harvest > 0 and out[P.V_STATION + 1] == events - holidays + harvest
        worth[name] = P.branch_value(r, b, pos.pl, pos.br, pos.g, 0, 2, prm)
        built = max(0.0, worth[name] - r.branch_cost) if name == "lookahead" else 0.0
        assert out[P.V_STATION + 2] == events + built
    assert worth["lookahead"] > 0.0 and worth["racer"] == 0.0
    for cell in range(BOARD.n_cells):
        kind = b.kind[cell]
        slot = P.value_class(b, cell)
        if kind == STATION:
            assert slot == P.V_STATION + b.station[cell]
        elif kind == MOON:
            assert slot == P.V_MOON
        elif kind == P.ASTEROID:
            assert slot == b.colour[cell]
        else:
            assert slot == P.V_PLANET


def test_the_next_moves_classes_list_each_class_a_die_reaches_once():
    """The lookahead's table of the next move: for every square and die, the classes of the
    squares reached, each once, and none other."""
    b = BOARD.arrays
    ptr, classes = P.next_classes(b)
    for k in range(b.reach_ptr.shape[0] - 1):
        listed = classes[ptr[k] : ptr[k + 1]].tolist()
        reached = {P.value_class(b, c) for c in b.reach[b.reach_ptr[k] : b.reach_ptr[k + 1]]}
        assert len(listed) == len(set(listed)) and set(listed) == reached


@pytest.mark.parametrize("name", ["lookahead", "racer"])
def test_the_squares_scores_are_the_same_with_the_table_and_without(name):
    # 30 positions of lookahead self-play, every die: the table changes no score (the best of a
    # class's squares is its value, read once)
    r, b, _ = position()
    ids, params = seats(["lookahead", "lookahead"])
    prm = seats([name])[1][0]
    with_table = P.new_move_scratch(b)
    without = P.new_move_scratch(b, False)
    assert without[3].shape[0] == 0
    seen = 0
    for pos, seat, _ in F.bank(Rules(), 2, ids, params, 30, 4):
        for die in range(1, 7):
            lo = b.reach_ptr[pos.pl[seat, S.P_POS] * 7 + die]
            hi = b.reach_ptr[pos.pl[seat, S.P_POS] * 7 + die + 1]
            scores = []
            for score, values, work, next_ptr, next_cls in (with_table, without):
                score[:] = np.nan
                P.end_scores_within(P.POLICIES[name].id, prm, seat, r, b, pos.pl, pos.br,
                                    pos.g, score, lo, hi, values, work, next_ptr,
                                    next_cls)  # fmt: skip
                scores.append(score[b.reach[lo:hi]].copy())
            assert np.array_equal(scores[0], scores[1])
            seen += hi - lo
    assert seen > 100


@pytest.mark.parametrize("route_choice", ["after_roll", "before_roll"])
def test_station_values_sharing_the_routes_prefixes_are_each_values_alone(route_choice):
    # 60 positions of 4-player lookahead self-play: the station values a decision computes from
    # each station's route prefixes, computed once and shared by every harvest it values (with
    # the branches as they are and as if one more were built), are those each harvest and branch
    # value gives computed alone, to the last bit
    rules = dataclasses.replace(Rules(), route_choice=route_choice)
    r, b = engine_rules(rules), build_board(*rules.board_key()).arrays
    ids, params = seats(["lookahead"] * 4)
    prm = params[0]
    w = prm[P.LOOK_P.card_weight]
    values = np.zeros(P.N_VALUES)
    work = P.new_work(b)
    kinds = set()
    for pos, _, _ in F.bank(rules, 4, ids, params, 60, 9):
        pl, br, g = pos.pl, pos.br, pos.g
        for p in range(4):
            P.landing_values_within(r, b, pl, br, g, p, prm, values, work)
            repair = pl[p, S.P_REPAIR] == 1
            builds = pl[p, S.P_POINTS] >= r.branch_cost
            events = P.event_value(r, pl, br, g, p, 0, prm)
            for s in range(1, 7):
                alone = events
                if S.station_open(g, s) and br[p, s] > 0:
                    alone -= S.event_probability(r, 7) * 0.5
                    if not repair:
                        alone += P.harvest_value(r, b, pl, br, g, p, s, w)
                        kinds.add("harvest")
                elif S.station_open(g, s) and builds:
                    worth = P.branch_value(r, b, pl, br, g, p, s, prm)
                    alone += max(0.0, worth - r.branch_cost)
                    kinds.add("branch" if worth > 0.0 else "no branch")
                assert values[P.V_STATION + s] == alone
    assert kinds == {"harvest", "branch", "no branch"}


def variants(pos, p):
    """The position with seat ``p`` able to pay for a branch, then each change of one part of
    the memo's key in turn: another value of one ore, a hold with little room, the same room
    with another cheapest card."""
    pl, g = pos.pl.copy(), pos.g.copy()
    pl[p, S.P_POINTS] = max(pl[p, S.P_POINTS], 10)
    yield pl, g
    g = g.copy()
    g[S.G_VALUE + 1] = g[S.G_VALUE + 1] % 3 + 1
    yield pl, g
    for cheap in (0, 2):
        pl = pl.copy()
        pl[p, S.P_CARDS : S.P_CARDS + 3] = 0
        pl[p, S.P_HCARDS : S.P_HCARDS + 3] = 0
        pl[p, S.P_CARDS + 1] = 6
        pl[p, S.P_CARDS + cheap] += 1
        yield pl, g


@pytest.mark.parametrize("route_choice", ["after_roll", "before_roll"])
def test_station_values_from_the_memo_are_those_computed_afresh(route_choice):
    # 200 positions of 4-player lookahead self-play, every seat, each as it is and changed in
    # one part of the memo's key after another, with three seat rows (two card weights, the
    # racer's): the landing values read from a memo shared by them all (its keys repeat; its
    # few slots are taken over often, and a memo of one slot compares each key with the last)
    # are those computed with a memo of their own, to the last bit
    rules = dataclasses.replace(Rules(), route_choice=route_choice)
    r, b = engine_rules(rules), build_board(*rules.board_key()).arrays
    ids, params = seats(["lookahead"] * 4)
    rows = [params[0], seats(["lookahead:card_weight=0.5"])[1][0], seats(["racer"])[1][0]]
    shared, small = P.new_work(b, 61), P.new_work(b, 1)
    shared_values, alone_values = np.zeros(P.N_VALUES), np.zeros(P.N_VALUES)
    keys = []
    for k, (pos, _, _) in enumerate(F.bank(rules, 4, ids, params, 200, 11)):
        for p in range(4):
            prm = rows[(k + p) % 3]
            br = pos.br
            for pl, g in variants(pos, p):
                P.landing_values_within(r, b, pl, br, g, p, prm, alone_values, P.new_work(b))
                for work in (shared, small):
                    P.landing_values_within(r, b, pl, br, g, p, prm, shared_values, work)
                    assert shared_values.tobytes() == alone_values.tobytes()
                row = P.memo_row(r, b, pl, br, g, p, prm[P.LOOK_P.card_weight], shared)
                keys.append(tuple(shared[row, : P.M_STATION]))
    assert len(keys) - len(set(keys)) > 1200  # most lookups find a key seen before
