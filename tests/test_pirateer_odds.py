"""The exact capture odds the lookahead uses, against counting over all 36 rolls by brute force
with the full legal-move generator."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.games.pirateer import board as B
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.rules import Rules
from tests.test_pirateer_moves import Pos


def brute_odds(pos, q, p):
    """For each ship: the share of the 36 rolls with a legal move of ``q`` that captures it."""
    hits = np.zeros(S.N_SHIPS)
    for a in range(1, 7):
        for b in range(1, 7):
            caught = set()
            for m in pos.moves(q, a, b):
                after, _ = pos.outcome(m)
                caught |= {
                    s for s in range(S.N_SHIPS)
                    if pos.ships[s] >= 0 and pos.owner[s // 3] == p and s not in after
                }  # fmt: skip
            for s in caught:
                hits[s] += 1
    return hits / 36


def odds(pos, q, p):
    out = np.zeros(S.N_SHIPS)
    turn.capture_odds(pos.r, pos.ships, pos.owner, pos.occ, pos.g, q, p, out)
    return out


def test_single_ship_in_line():
    # the bottom-right ship on (13,9) captures (13,5) with any 4 (11 rolls of 36), or 1+3, 3+1,
    # 2+2 along the line (3 more), or around a corner two ways... the brute count decides
    pos = Pos({0: (13, 5), 6: (13, 9)})
    want = brute_odds(pos, 1, 0)
    assert want[0] > 11 / 36
    assert np.allclose(odds(pos, 1, 0), want)


def test_far_apart_is_zero():
    pos = Pos({0: (13, 5), 6: (5, 16)})
    assert odds(pos, 1, 0)[0] == 0.0 == brute_odds(pos, 1, 0)[0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), larger=st.booleans(), stops=st.booleans())
def test_odds_equal_brute_force(data, larger, stops):
    n_players = data.draw(st.integers(2, 4))
    rules = Rules().with_values({"must_use_larger": larger, "wind_entry_stops": stops})
    owner = turn.fleets_of(rules.to_engine(), n_players)
    slots = [s for s in range(12) if owner[s // 3] >= 0]
    near = [c for c in range(B.N_CELLS) if B.DIST[c, B.ANCHORAGE_CELLS[3]] <= 6]
    cells = data.draw(st.lists(st.sampled_from(near), min_size=len(slots), max_size=len(slots),
                               unique=True))  # fmt: skip
    pieces = {s: B.CELLS[c] for s, c in zip(slots, cells, strict=True)}
    treasure = data.draw(st.sampled_from([S.ON_ISLAND, *pieces]))
    pos = Pos(pieces, n_players=n_players, treasure=treasure, rules=rules)
    q, p = data.draw(st.permutations(range(n_players)))[:2]
    assert np.allclose(odds(pos, q, p), brute_odds(pos, q, p))


def test_legs_are_the_step_tables_landings():
    """LEGS[a, b] has bit x - 1 exactly when one straight step of x pips from a lands on b, and
    the two-step bit of (x, y) exactly when a step of x and then one of y do (RAY's landings)."""
    rng = np.random.default_rng(3)
    for a in rng.choice(B.N_CELLS, 12, replace=False):
        one = {(x, int(turn.RAY[a, d, x])) for d in range(B.N_DIRS) for x in range(1, 7)}
        two = {
            (x, y, int(turn.RAY[t, e, y]))
            for d in range(B.N_DIRS)
            for x in range(1, 7)
            if (t := turn.RAY[a, d, x]) >= 0
            for e in range(B.N_DIRS)
            for y in range(1, 7)
        }
        for b in range(B.N_CELLS):
            legs = int(turn.LEGS[a, b])
            for x in range(1, 7):
                assert bool(legs >> (x - 1) & 1) == ((x, b) in one)
                for y in range(1, 7):
                    bit = turn.LEG2 + 6 * (x - 1) + (y - 1)
                    assert bool(legs >> bit & 1) == ((x, y, b) in two)


def test_a_roll_no_leg_allows_captures_nothing():
    """The capture odds skip such rolls: counted anyway, they capture no ship."""
    pos = Pos({0: (13, 5), 6: (13, 9)})
    q, p = 1, 0
    legs = int(turn.LEGS[pos.ships[6], pos.ships[0]])
    every = (1 << S.N_SHIPS) - 1
    skipped = 0
    for a in range(1, 7):
        for b in range(a, 7):
            if not turn.roll_can_capture(legs, a, b):
                skipped += 1
                assert turn.roll_captures(pos.r, pos.ships, pos.owner, pos.occ, pos.g, q, p, a,
                                          b, every) == 0  # fmt: skip
    assert skipped > 0
