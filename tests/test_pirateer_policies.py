"""Policies on hand-made positions: what each one is for, and the lookahead's pruned search
equal to scoring every move."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policies import pirateer as P
from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pirateer import board as B
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.spec import SPEC
from tests.test_pirateer_moves import Pos


def choose(pos, name, p, d1, d2, seed=0):
    ids, prm = engine_arrays(seat_policies([name], SPEC.policies, SPEC.id, 1))
    moves = pos.moves(p, d1, d2)
    P.seed_numba(seed)
    k = P.decide_move(ids[0], prm[0], pos.r, pos.ships, pos.owner, pos.occ, pos.g, p, moves,
                      len(moves))  # fmt: skip
    return pos.outcome(moves[k])


def test_runner_takes_the_treasure():
    pos = Pos({0: (11, 7), 6: (5, 14)})  # +y 3 lands on the anchorage (11,10)
    _, treasure = choose(pos, "runner", 0, 3, 1)
    assert treasure == 0


def test_hunter_and_lookahead_capture_the_treasure_ship():
    for name in ("hunter", "lookahead", "runner"):
        pos = Pos({0: (13, 5), 1: (5, 5), 6: (13, 7), 7: (5, 14)}, treasure=6)
        after, treasure = choose(pos, name, 0, 2, 5)
        assert 6 not in after and treasure in (0, 1), name


def test_lookahead_keeps_out_of_reach():
    # the opponent on (13,9) hits (13,5) with many rolls; with the risk weighted up and the
    # distance terms off, the lookahead moves to the safest square it can reach
    pos = Pos({0: (13, 5), 6: (13, 9)})
    after, _ = choose(pos, "lookahead:risk=5,near=0,chase=0,capture=0", 0, 6, 5)
    out = np.zeros(S.N_SHIPS)
    c = B.INDEX[after[0]]
    moved = Pos({0: B.CELLS[c], 6: (13, 9)})
    turn.capture_odds(moved.r, moved.ships, moved.owner, moved.occ, moved.g, 1, 0, out)
    best = min(
        _risk_after(pos, m) for m in pos.moves(0, 6, 5) if pos.outcome(m)[0].get(6) is not None
    )
    assert out[0] <= best + 1e-12 and 6 in after


def _risk_after(pos, move):
    after, _ = pos.outcome(move)
    moved = Pos({0: after[0], 6: after[6]})
    out = np.zeros(S.N_SHIPS)
    turn.capture_odds(moved.r, moved.ships, moved.owner, moved.occ, moved.g, 1, 0, out)
    return out[0]


def _crowded(data, cell: int, reach: int) -> tuple[Pos, int]:
    """A drawn position of 2 to 4 players, every ship within ``reach`` of ``cell``, where
    captures are everywhere; the treasure on the island or on any ship."""
    n_players = data.draw(st.integers(2, 4))
    pos0 = Pos({}, n_players=n_players)
    slots = [s for s in range(12) if pos0.owner[s // 3] >= 0]
    near = [c for c in range(B.N_CELLS) if B.DIST[c, cell] <= reach]
    cells = data.draw(st.lists(st.sampled_from(near), min_size=len(slots), max_size=len(slots),
                               unique=True))  # fmt: skip
    pieces = {s: B.CELLS[c] for s, c in zip(slots, cells, strict=True)}
    treasure = data.draw(st.sampled_from([S.ON_ISLAND, *pieces]))
    return Pos(pieces, n_players=n_players, treasure=treasure), n_players


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_pruned_lookahead_equals_scoring_every_move(data):
    pos, _ = _crowded(data, B.ANCHORAGE_CELLS[5], 6)
    d1, d2 = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    moves = pos.moves(0, d1, d2)
    if len(moves) < 2:
        return
    _, prm = engine_arrays(seat_policies(["lookahead"], SPEC.policies, SPEC.id, 1))
    odds, risk, undo = np.zeros(12), np.zeros(12), np.zeros((2, 3), dtype=np.int64)
    scores = []
    for m in moves:
        k = turn.make_move(pos.r, pos.ships, pos.owner, pos.occ, pos.g, m, undo)
        v = P.lookahead_static(pos.r, prm[0], pos.ships, pos.owner, pos.g, 0)
        if v < P.WIN:
            v -= P.risk_penalty(pos.r, prm[0], pos.ships, pos.owner, pos.occ, pos.g, 0, odds, risk)
        turn.unmake_move(pos.ships, pos.occ, pos.g, m, undo, k)
        scores.append(v)
    P.seed_numba(1)
    k = P.decide_lookahead(prm[0], pos.r, pos.ships, pos.owner, pos.occ, pos.g, 0, moves,
                           len(moves))  # fmt: skip
    assert abs(scores[k] - max(scores)) < 1e-9


def _clear(pieces):
    pos = Pos(pieces, treasure=0)
    return P.clear_home_steps(pos.r, pos.ships, pos.owner, 0, 0), P.home_steps(pos.r, pos.ships, 0)


def test_own_ships_in_the_harbour_count_against_the_treasure_ship():
    # "ni pueden cruzar otros barcos": the top-left harbour (0,9)-(0,14) is one space wide, so
    # an own ship between the treasure ship and the anchor (0,9) must leave first
    far = {6: (13, 7)}
    blocked, plain = _clear({0: (4, 14), 1: (0, 10), **far})
    assert blocked > plain
    assert _clear({0: (4, 14), 1: (6, 13), **far}) == (plain, plain)  # it left: nothing in the way
    inside, _ = _clear({0: (0, 12), 1: (0, 10), **far})
    at_mouth, _ = _clear({0: (0, 14), 1: (0, 10), **far})
    assert inside == at_mouth  # entering the strip behind it is no progress...
    assert inside > _clear({0: (3, 14), 1: (0, 10), **far})[0]  # ...and worse than waiting outside
    behind = _clear({0: (0, 11), 1: (0, 13), **far})
    assert behind[0] == behind[1]  # a ship behind the treasure ship is not in the way
    assert (
        _clear({0: (0, 11), 1: (0, 9), **far})[0] > _clear({0: (0, 11), **far})[0]
    )  # on the anchor
    assert _clear({0: (4, 14), 1: (1, 14), **far})[0] > plain  # on the way in


def test_runner_takes_its_ship_out_of_the_harbour_before_the_treasure_comes():
    # with 1 and 3 ship 1 can leave the strip (2 to the mouth, then out) or the treasure ship
    # can come 4 closer: the runner clears the way, and not onto the way in (1,14)
    pos = Pos({0: (8, 15), 1: (0, 12), 6: (13, 7)}, treasure=0)
    for seed in range(5):
        after, _ = choose(pos, "runner", 0, 1, 3, seed)
        assert after[0] == (8, 15) and after[1] not in B.HARBOUR_STRIPS[0] + ((1, 14),), after


def test_runner_never_takes_the_treasure_into_the_harbour_behind_its_own_ship():
    # the treasure ship may not leave the strip by its open end (that points away from its
    # harbour), so behind an own ship it would be stuck for good
    strip = B.HARBOUR_STRIPS[0]
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            pos = Pos({0: (3, 14), 1: (0, 10), 6: (13, 7)}, treasure=0)
            if len(pos.moves(0, d1, d2)) == 0:
                continue
            after, _ = choose(pos, "runner", 0, d1, d2)
            assert after[0] not in strip or after[1] not in strip, (d1, d2, after)


def test_lookahead_is_compiled_only_into_runs_that_play_it():
    """The engine's ``looking`` switch: None (numba leaves `lookahead` and its capture odds out)
    unless a seat plays `lookahead` or searches; a run's compiled combination says which."""
    from simulator.compiling.first_compile import compiled_what
    from simulator.games.pirateer.engine import looking_for
    from simulator.runs.plan import plan_run
    from tests.test_game_contract import _switch_signatures

    def ids(*names):
        return engine_arrays(seat_policies(list(names), SPEC.policies, SPEC.id, 4))[0]

    assert looking_for(ids("runner")) is None
    assert looking_for(ids("runner", "hunter", "random", "runner")) is None
    assert looking_for(ids("runner", "lookahead", "runner", "runner")) is True
    assert looking_for(ids("runner", "mcts", "runner", "runner")) is True
    keys = {
        names: compiled_what(plan_run("pirateer", 1, players=2, policies=list(names)))[0]
        for names in (("runner",), ("lookahead", "hunter"), ("mcts", "lookahead"))
    }
    assert keys == {
        ("runner",): "pirateer",
        ("lookahead", "hunter"): "pirateer-lookahead",
        ("mcts", "lookahead"): "pirateer-search",
    }
    without = _switch_signatures([("pirateer", ["runner", "hunter"])], switch="looking")
    with_it = _switch_signatures([("pirateer", ["runner", "lookahead"])], switch="looking")
    for found, wanted in ((without, {"none"}), (with_it, {"bool"})):
        engine = {k: set(v) for k, v in found.items() if "pirateer" in k and v}
        assert "simulator.games.pirateer.engine.play_games" in engine  # callees: only when compiled
        for name, types_seen in engine.items():
            assert types_seen == wanted, (name, types_seen)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_runner_value_from_the_decision_equals_scoring_the_position(data):
    # the decision counts the opponents once and takes each move's captures from its undo record
    pos, n_players = _crowded(data, B.ANCHORAGE_CELLS[2], 5)
    p = data.draw(st.integers(0, n_players - 1))
    d1, d2 = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    mine = S.fleet_mask(pos.ships, pos.owner, p)
    opponents = P.count_ships(pos.ships, pos.owner, p, False)
    undo = np.zeros((2, 3), dtype=np.int64)
    for m in pos.moves(p, d1, d2):
        k = turn.make_move(pos.r, pos.ships, pos.owner, pos.occ, pos.g, m, undo)
        captured = sum(int(undo[step, 1] >= 0) for step in range(k))
        want = P.runner_score(pos.r, pos.ships, pos.owner, pos.g, p)
        got = P.runner_value(pos.r, pos.ships, pos.owner, pos.g, p, mine, opponents - captured)
        turn.unmake_move(pos.ships, pos.occ, pos.g, m, undo, k)
        assert got == want
