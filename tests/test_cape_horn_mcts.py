"""Cape Horn's search player (``mcts``): blind to what its seat cannot see, and right where the
answer is clear (legal and reproducible games, compiled equal to interpreted: the contract test,
tests/test_game_contract.py). Budgets are tiny: these check the machinery, docs/rules/cape-horn.md
measures the strength."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from policies.cape_horn import potential
from simulator.contract.policy import EVAL_AT, engine_arrays, parse_policy
from simulator.contract.registry import get_game
from simulator.games.cape_horn import engine as E
from simulator.games.cape_horn import features as FX
from simulator.games.cape_horn import forward as F
from simulator.games.cape_horn import outside as X
from simulator.games.cape_horn import state as S
from simulator.games.cape_horn import turn
from simulator.games.cape_horn.board import load
from simulator.games.cape_horn.rules import Rules

SPEC = get_game("cape-horn")
DATA = load()
NO_REC = (np.zeros((0, turn.EVENT_WIDTH), np.int64), np.zeros(1, np.int64))
NO_HEAT = (np.zeros(DATA.n_cells, np.int64),)


@njit
def _seed(s: int) -> None:
    np.random.seed(s)


def _arrays(*names: str) -> tuple[np.ndarray, np.ndarray]:
    return engine_arrays([parse_policy(n, SPEC.policies, SPEC.id) for n in names])


def test_other_rollout_and_guide_policies_play_legal_games():
    """Legal play in every seat is the contract test's; here the search with another rollout and
    guide policy, beside a default one, at three players."""
    names = ["racer", "mcts:playouts=8", "mcts:playouts=4,rollout=racer,guide=blocker"]
    ids, prm = _arrays(*names)
    tally = np.zeros(2, np.int64)
    out = E.play_chunk(Rules(), len(names), ids, prm, np.array([1]), tally=tally)
    assert tally[0] > 0 and tally[1] > 0  # the search ran, and its simulations played rounds
    one = E.play_one(Rules(), len(names), ids, prm, 1)
    assert one["problems"] == 0 and one["winner"] == out["winner"][0]
    assert one["end_reason"] in (S.END_FINISH, S.END_THREE)


def _midgame(seed: int, turns: int, n_players: int = 2):
    """A position reached by planners playing ``turns`` turns, at the start of the next seat's
    turn (its sail point taken): (board, rules, position, seat)."""
    B, r, deck0 = E.engine_inputs(Rules())
    pos = S.new_state(n_players, B.kind.shape[0], len(Rules().card_counts), len(deck0))
    _seed(seed)
    E.setup(B, r, deck0, n_players, pos)
    ids, prm = _arrays(*["planner"] * n_players)
    buf = np.zeros((turn.MAX_PLACE, 2), np.int64)
    heat = np.zeros(B.kind.shape[0], np.int64)
    scratch = X.new_turn_scratch(n_players, B.kind.shape[0], B.n_moves.shape[0])
    pos.g[S.G_ROUND] = 1
    pos.g[S.G_TURNS] = 1
    q = 0
    for _ in range(turns):
        assert F.play_turn(B, r, (ids, prm), q, pos, buf, scratch, (heat, heat), *NO_REC) < 0
        q = turn.next_seat(r, pos.g, q, n_players)
    turn.sail(r, pos, q, *NO_REC)
    return B, r, pos, q


def _permute_hidden(pos: S.State, p: int, rng: np.random.Generator) -> S.State:
    """The same position with the cards ``p`` cannot see (other hands, the piles' order) dealt
    again at random, every hand keeping its size."""
    out = S.State(*(a.copy() for a in pos))
    lo, hi = pos.g[S.G_DECK_POS], pos.g[S.G_DECK_N]
    pool = list(pos.deck[lo:hi])
    for q in range(pos.hand.shape[0]):
        if q != p:
            for d in range(pos.hand.shape[1]):
                pool += [d] * int(pos.hand[q, d])
    rng.shuffle(pool)
    i = 0
    for q in range(pos.hand.shape[0]):
        if q != p:
            out.hand[q] = 0
            for _ in range(pos.pl[q, S.P_HAND]):
                out.hand[q, pool[i]] += 1
                i += 1
    out.deck[lo:hi] = pool[i:]
    return out


def _search(B, r, prm, pos, p, seed):
    buf = np.zeros((turn.MAX_PLACE, 2), np.int64)
    stats = np.zeros((F.MAX_OPTIONS, 2))
    _seed(seed)
    n, kind, a, b = F.search_move(B, r, prm, pos, p, buf, stats)
    return (n, kind, a, b, buf[:n].tolist()), stats


@pytest.mark.parametrize("seed,turns", [(1, 3), (7, 6), (11, 9)])
def test_search_ignores_what_its_seat_cannot_see(seed, turns):
    """Other hands and the order of the piles, permuted, change no choice nor any statistic."""
    B, r, pos, p = _midgame(seed, turns, n_players=3)
    _, prm = _arrays("mcts:playouts=40", "planner", "planner")
    choice, stats = _search(B, r, prm[0], pos, p, seed)
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(3):
        other = _permute_hidden(pos, p, rng)
        changed += not np.array_equal(other.hand, pos.hand) or not np.array_equal(
            other.deck, pos.deck
        )
        again, stats2 = _search(B, r, prm[0], other, p, seed)
        assert again == choice
        assert np.array_equal(stats, stats2)
    assert changed  # the permutation did hide something


def _cell(col: int, row: int) -> int:
    return DATA.cell(col, row)


def test_search_takes_a_win_in_one_move():
    """Two tokens held and the card under the ship reaching the third zone's station of the
    missing colour: the guide's plan wins at once, and the search plays it without spending a
    simulation."""
    B, r, pos, _ = _midgame(3, 0)
    pos.card[:] = -1
    pos.card[_cell(2, 0)] = DATA.design("F2")  # forward is north in area 3
    pos.card[_cell(2, -1)] = DATA.design("F3")
    pos.card[_cell(1, 0)] = DATA.design("F3")
    pos.card[_cell(3, 0)] = DATA.design("B1")
    pos.card[_cell(2, -2)] = DATA.design("F1S1")  # zone III yellow, two steps ahead
    pos.card[_cell(10, 7)] = DATA.design("F2")
    pos.ship[0] = _cell(2, 0)
    pos.ship[1] = _cell(10, 7)
    pos.pl[0, S.P_TOK + 0] = 1  # red in zone I
    pos.pl[0, S.P_TOK + 1] = 2  # green in zone II
    pos.pl[0, S.P_SP] = 8  # 'ignorar' to three neighbours, 'mover dos veces', as options
    _, prm = _arrays("mcts:playouts=60", "planner")
    (n, kind, a, b, cards), stats = _search(B, r, prm[0], pos, 0, 1)
    ship = pos.ship.copy()
    pl = pos.pl.copy()
    g = pos.g.copy()
    assert turn.legal_move(B, r, pos.card, ship, pl, 0, kind, a, b)
    moved = S.State(pos.card, ship, pl, pos.hand, g, pos.deck)
    assert turn.make_move(B, r, moved, 0, (kind, a, b)) == S.END_THREE
    assert not stats.any()


# -- the features, the evaluation at the horizon, the root, the search's own stream --------------
def test_features_of_a_hand_built_position():
    """Each seat's features read off the position: steps left (``B.rem`` through the stations it
    may still use), tokens, sail points, cards, the steps the card under it promises, and the
    turns it waits."""
    B, r, pos, _ = _midgame(3, 0, n_players=3)
    pos.card[:] = -1
    pos.card[_cell(2, 0)] = DATA.design("F2")
    pos.ship[:] = [_cell(2, 0), _cell(10, 7), _cell(10, 7)]
    pos.pl[0, S.P_TOK + 0] = 1
    pos.pl[0, S.P_SP] = 5
    pos.pl[1, S.P_SP] = 2
    out = np.zeros((3, len(FX.FEATURES)))
    FX.features(B, pos, 1, out)
    steps0 = min(B.rem[S.token_index(pos.pl, 0), _cell(2, 0)], FX.STEPS_CAP)
    assert out[0, 0] == steps0 and out[0, 1] == 1.0 / (1.0 + steps0)
    assert out[:, 2].tolist() == [1, 0, 0]  # tokens
    assert out[:, 3].tolist() == [5, 2, pos.pl[2, S.P_SP]]
    assert out[:, 4].tolist() == pos.pl[:, S.P_HAND].tolist()
    ts0 = S.token_index(pos.pl, 0)
    assert out[0, 5] == max(
        potential(B.rem, B.target, B.n_moves, ts0, _cell(2, 0), pos.card[_cell(2, 0)]), -5.0
    )
    assert out[1, 5] == 0.0  # no card under seat 1's ship
    assert out[:, 6].tolist() == [2, 0, 1]  # seat 1 to move, then 2, then 0


def _row(policy: str, weights=None) -> np.ndarray:
    row = parse_policy(policy, SPEC.policies, SPEC.id).row()
    if weights is not None:
        row[EVAL_AT : EVAL_AT + len(weights)] = weights
    return row


def test_the_horizon_scores_with_the_evaluation():
    """At horizon 1 a simulation that does not end within the round is scored by the evaluation:
    with unfitted (zero) weights every seat gets an even share, so every plan's mean is exactly
    1/2 at two players; with a weight on steps left the means spread; played to the end (horizon
    0) they are shares of simulations won."""
    B, r, pos, p = _midgame(7, 6)
    _, even = _search(B, r, _row("mcts:playouts=24,horizon=1"), pos, p, 1)
    tried = even[:, 0] > 0
    assert tried.sum() >= 2 and np.all(even[tried, 1] == 0.5)
    weights = np.zeros(1 + len(FX.FEATURES))
    weights[1] = -1.0  # one step left fewer than the rival: e times the odds
    _, fitted = _search(B, r, _row("mcts:playouts=24,horizon=1", weights), pos, p, 1)
    assert len(set(fitted[fitted[:, 0] > 0, 1].tolist())) > 1
    _, full = _search(B, r, _row("mcts:playouts=24,horizon=0"), pos, p, 1)
    sims = full[full[:, 0] > 0]
    wins = sims[:, 1] * sims[:, 0]
    assert np.allclose(wins, np.round(wins))  # wins over simulations


def test_the_root_halves_over_the_guides_best_plans_and_answers_a_legal_one():
    """The guide's best-ranked 1 + widen * sqrt(playouts) plans enter, the guide's choice among
    them; the answer is a legal move whose cards lie legally."""
    B, r, pos, p = _midgame(11, 9)
    prm = _row("mcts:playouts=32,widen=0.5,horizon=2")
    (n, kind, a, b, cards), stats = _search(B, r, prm, pos, p, 3)
    opts = np.zeros((F.MAX_OPTIONS + 1, F.OPTION_SIZE), np.int64)
    keys = np.zeros(F.MAX_OPTIONS, np.int64)
    n_root = F.turn_options(B, r, pos, p, np.array([0.3, 0.1, 0.1]), opts, keys)
    width = min(int(1 + 0.5 * np.sqrt(32)), n_root)
    assert (stats[:, 0] > 0).sum() == width and 24 <= stats[:, 0].sum() <= 32
    assert stats[opts[0, 1] - 1, 0] > 0  # the planner's own plan is among them
    after = S.State(*(x.copy() for x in pos))
    turn.lay_cards(B, r, after, p, np.array(cards, np.int64).reshape(-1, 2), n, *NO_HEAT, *NO_REC)
    assert after.pl[p, S.P_HAND] == pos.pl[p, S.P_HAND] - n  # every card was laid
    assert turn.legal_move(B, r, after.card, after.ship, after.pl, p, kind, a, b)


def test_the_horizon_grows_with_the_budget():
    """``horizon`` rounds at the default 200 playouts, times the square root of the budget over
    200 elsewhere (rounded, at least 1); the simulations play exactly that many rounds when no
    game ends within them."""
    assert [F.horizon_rounds(3, n) for n in (12, 25, 50, 100, 200, 300, 400, 800, 1600)] == [
        1, 1, 2, 2, 3, 4, 4, 6, 8,
    ]  # fmt: skip
    assert F.horizon_rounds(0, 800) == 0 and F.horizon_rounds(1, 50) == 1
    B, r, pos, p = _midgame(7, 6)
    buf = np.zeros((turn.MAX_PLACE, 2), np.int64)
    for playouts, rounds in ((20, 1), (50, 2), (200, 3)):
        tally = np.zeros(2, np.int64)
        _seed(1)
        F.search_move(B, r, _row(f"mcts:playouts={playouts}", FITTED_2P), pos, p, buf, None, tally)
        assert tally[0] > 0 and tally[1] == rounds * tally[0]


@njit
def _draw() -> int:
    return np.random.randint(0, 2**31 - 1)


def test_the_search_draws_from_its_own_stream():
    """After a search the real game's next draw is the same whatever the budget."""
    B, r, pos, p = _midgame(7, 6)
    after = []
    for playouts in (8, 32):
        _search(B, r, _row(f"mcts:playouts={playouts},horizon=2"), pos, p, 9)
        after.append(_draw())
    assert after[0] == after[1]


def test_every_plan_is_simulated_on_the_same_deals_and_dice():
    """Common random numbers: a plan entered twice (the guide's, copied into another row) gets,
    simulation for simulation, the same deal and dice as its twin, hence the same statistics
    (with fresh draws for each plan their means would differ)."""
    B, r, pos, p = _midgame(11, 9)
    opts = np.zeros((F.MAX_OPTIONS + 1, F.OPTION_SIZE), np.int64)
    keys = np.zeros(F.MAX_OPTIONS, np.int64)
    n = F.turn_options(B, r, pos, p, np.array([0.3, 0.1, 0.1]), opts, keys)
    g = opts[0, 1] - 1  # the guide's plan
    twin = next(k for k in range(n) if k != g)
    opts[twin + 1] = opts[g + 1]
    stats = np.zeros((F.MAX_OPTIONS, 2))
    _seed(3)
    F.choose_turn(B, r, _row("mcts:playouts=64,horizon=0"), pos, p, opts, keys, n, stats)
    assert stats[g, 0] == stats[twin, 0] > 4
    assert stats[g, 1] == stats[twin, 1]
    assert len(set(stats[stats[:, 0] > 0, 1].tolist())) > 1  # the other plans differ


def test_opponents_in_the_tree_still_play_legal_games():
    names = ["mcts:playouts=8,opponents=tree", "planner"]
    ids, prm = _arrays(*names)
    one = E.play_one(Rules(), 2, ids, prm, 4)
    assert one["problems"] == 0 and one["end_reason"] in (S.END_FINISH, S.END_THREE)


# -- a standoff: both ships stuck on their cards at the sail-point maximum -------------------------
# The evaluation fitted at two players with the shipped rules (intercept, then FEATURES' weights)
FITTED_2P = [0.0, -1.05, 4.04, 0.468, 0.211, 0.125, 0.457, -0.811]
# A position of a game between two searches (round 12): the cards laid so far, by space and design
STANDOFF_LAID = [
    ((11, 0), "D2"), ((13, 0), "F3"), ((11, 1), "F1S1"), ((12, 2), "F3"), ((13, 2), "F1S1"),
    ((13, 3), "D2"), ((12, 4), "F3"), ((9, 5), "F3"), ((11, 5), "S2"), ((8, 6), "F2S1D2"),
    ((10, 6), "F2"),
]  # fmt: skip
STANDOFF_HAND = {"F1S1": 2, "S2": 1, "B1": 2, "B2": 1}


def _standoff(rival_at=(10, 6)):
    """Seat 1's ship on [8, 6], seat 2's on ``rival_at``, neither moved by the card under it,
    both with 8 sail points (the maximum) and 6 cards, each with the red token of zone I; seat 1
    to move (its sail point taken). The cards seat 1 cannot see are dealt at random."""
    B, r, pos, _ = _midgame(3, 0)
    rest = list(np.repeat(np.arange(len(Rules().card_counts)), Rules().card_counts))
    for (col, row), name in STANDOFF_LAID:
        pos.card[_cell(col, row)] = DATA.design(name)
        rest.remove(DATA.design(name))
    pos.hand[:] = 0
    for name, k in STANDOFF_HAND.items():
        pos.hand[0, DATA.design(name)] = k
        for _ in range(k):
            rest.remove(DATA.design(name))
    rng = np.random.default_rng(0)
    rng.shuffle(rest)
    for d in rest[:6]:
        pos.hand[1, d] += 1
    pos.deck[: len(rest) - 6] = rest[6:]
    pos.g[S.G_DECK_POS], pos.g[S.G_DECK_N] = 0, len(rest) - 6
    pos.ship[:] = [_cell(8, 6), _cell(*rival_at)]
    pos.pl[:, :] = 0
    pos.pl[:, S.P_SP] = 8
    pos.pl[:, S.P_HAND] = 6
    pos.pl[:, S.P_TOK : S.P_TOK + 3] = [1, -1, -1]
    pos.g[S.G_TOK_LEFT + 1] -= 2
    pos.g[S.G_ROUND] = 12
    return B, r, pos


def test_a_standoff_is_not_waited_out():
    """Both ships stuck on their cards at the sail-point maximum: 'no move' gains nothing, and
    the rival, stuck as well, may answer it in kind; then the position repeats and so would the
    passes, to the round cap (no winner). Every simulation of the pass scores exactly that, so
    the search lays its cards and moves (two searches used to wait for each other until the
    cap, each counting on the rival to lay the cards first)."""
    B, r, pos = _standoff()
    assert not turn.has_normal_move(B, r, pos.card, pos.ship, 0)
    assert not turn.has_normal_move(B, r, pos.card, pos.ship, 1)
    prm = _row("mcts", FITTED_2P)
    for seed in (1, 2, 3):
        (n, kind, a, b, cards), stats = _search(B, r, prm, pos, 0, seed)
        assert kind != S.MV_NONE and n > 0
        assert stats[0, 0] > 0 and stats[0, 1] == 0.0  # the pass (plan 0): the round cap, always


def test_a_pass_is_still_weighed_when_the_rival_can_move():
    """With the rival's ship free to move by its card, the pass is simulated as before (the
    rival plays the planner): its simulations score above nothing."""
    B, r, pos = _standoff(rival_at=(13, 3))
    assert turn.has_normal_move(B, r, pos.card, pos.ship, 1)
    (_, _, _, _, _), stats = _search(B, r, _row("mcts", FITTED_2P), pos, 0, 1)
    assert stats[0, 0] > 0 and stats[0, 1] > 0.0
