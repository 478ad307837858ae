"""Legal moves of a roll on hand-made positions, one test per sentence of the seed's movement,
trade-wind, strait, treasure and capture rules; plus a pure-Python reference generator."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator  # noqa: F401  (configures the JIT cache)
from simulator.games.pirateer import board as B
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.games.pirateer.rules import Rules

DIRS = {"+x": B.PX, "-x": B.MX, "+y": B.PY, "-y": B.MY, "d+x": B.DIAG_PX, "d-x": B.DIAG_MX}


class Pos:
    """A hand-made position: ``pieces`` maps ship id -> grid cell; ships 0-2 belong to the
    top-left flag, 3-5 top-right, 6-8 bottom-right, 9-11 bottom-left."""

    def __init__(self, pieces, n_players=2, treasure=S.ON_ISLAND, rules=None, **sets):
        self.rules = (rules or Rules()).with_values(sets) if sets else (rules or Rules())
        self.r = self.rules.to_engine()
        self.ships = np.full(S.N_SHIPS, -1, dtype=np.int64)
        self.owner = turn.fleets_of(self.r, n_players)
        self.occ = np.full(B.N_CELLS, -1, dtype=np.int64)
        self.g = np.zeros(S.N_G, dtype=np.int64)
        self.g[S.G_PLAYERS] = n_players
        for s, cell in pieces.items():
            c = B.INDEX[cell]
            self.ships[s] = c
            self.occ[c] = s
        self.g[S.G_TREASURE] = treasure

    @property
    def state(self) -> S.State:
        return S.State(self.ships, self.owner, self.occ, self.g)

    def walk(self, ship, d, pips):
        return turn.walk(self.r, self.ships, self.owner, self.occ, self.g, ship, d, pips)

    def moves(self, p, d1, d2):
        out = np.zeros((S.MAX_MOVES, S.MOVE_FIELDS), dtype=np.int64)
        n = turn.legal_moves(self.r, self.state, p, d1, d2, out, turn.new_move_scratch())
        return out[:n].copy()

    def outcome(self, move):
        """(ship id -> cell for ships on the board, treasure holder) after ``move``."""
        undo = np.zeros((2, 3), dtype=np.int64)
        before = self.ships.copy(), self.occ.copy(), self.g.copy()
        k = turn.make_move(self.r, self.ships, self.owner, self.occ, self.g, move, undo)
        res = (
            {s: B.CELLS[c] for s, c in enumerate(self.ships) if c >= 0},
            int(self.g[S.G_TREASURE]),
        )
        turn.unmake_move(self.ships, self.occ, self.g, move, undo, k)
        assert (self.ships == before[0]).all() and (self.occ == before[1]).all()
        assert (self.g == before[2]).all()
        return res

    def ends(self, p, d1, d2, ship):
        """Cells where ``ship`` can end the turn."""
        return {self.outcome(m)[0].get(ship) for m in self.moves(p, d1, d2)}

    def steps(self, p, d1, d2):
        return sorted({int(m[S.M_STEPS]) for m in self.moves(p, d1, d2)})


def test_each_die_one_direction_exact_distance():
    pos = Pos({0: (13, 5), 6: (5, 14)})
    ends = pos.ends(0, 1, 2, 0)
    assert (16, 5) in ends  # twice in the same direction
    assert (15, 6) in ends and (14, 7) in ends  # at a right angle
    assert (12, 5) in ends and (14, 5) in ends  # there and back
    assert (13, 5) not in ends  # 1 + 2 cannot return to the start
    assert (14, 6) not in ends  # never diagonal in open sea
    assert all(abs(x - 13) + abs(y - 5) in (1, 3) for x, y in ends)


def test_two_ships_one_die_each():
    pos = Pos({0: (13, 5), 1: (13, 12), 6: (5, 14)})
    outs = [pos.outcome(m)[0] for m in pos.moves(0, 1, 2)]
    assert any(o[0] == (14, 5) and o[1] == (15, 12) for o in outs)
    assert any(o[0] == (15, 5) and o[1] == (12, 12) for o in outs)


def test_both_dice_when_possible_else_one_else_pass():
    # (0,9) is the dead end of the top-left harbour: 5 reaches (0,14); the opponent on (2,14)
    # blocks the 6 that would follow, and a 6 alone goes nowhere: one die is used
    pos = Pos({0: (0, 9), 6: (2, 14)})
    moves = pos.moves(0, 5, 6)
    assert len(moves) == 1 and moves[0][S.M_STEPS] == 1 and moves[0][S.M_PIPS1] == 5
    assert pos.moves(0, 6, 6).shape[0] == 0  # nothing moves: the turn passes
    assert pos.steps(0, 5, 2) == [2]  # 5 then 2 captures on (2,14): both dice are used


def test_doubles_are_two_steps():
    pos = Pos({0: (13, 5), 6: (5, 14)})
    moves = pos.moves(0, 2, 2)
    assert {int(m[S.M_STEPS]) for m in moves} == {2}
    ends = pos.ends(0, 2, 2, 0)
    assert (17, 5) in ends and (19, 5) not in ends  # two 2s, never three or four


def test_no_passing_ships_and_no_landing_on_own():
    pos = Pos({0: (13, 5), 1: (13, 8), 6: (14, 5)})
    ends = pos.ends(0, 3, 3, 0)
    assert (13, 11) not in ends  # would pass the own ship on (13,8)
    assert (16, 5) not in ends  # would pass the opponent on (14,5)
    single = Pos({0: (13, 5), 1: (13, 8), 6: (5, 14)})
    assert all(m[S.M_SHIP1] != 0 or m[S.M_DIR1] != B.PY for m in single.moves(0, 3, 1))


def test_no_diagonal_in_open_sea_diagonal_along_the_winds():
    open_sea = Pos({0: (13, 5), 6: (5, 14)})
    moves = open_sea.moves(0, 3, 4)
    assert all(m[S.M_DIR1] < 4 for m in moves)  # (13,5) is open sea
    for m in moves:  # a diagonal second step only from a trade wind the first step reached
        if m[S.M_DIR2] >= 4:
            first = turn.step_target(open_sea.r, open_sea.ships, open_sea.owner, open_sea.occ,
                                  open_sea.g, m, 0)  # fmt: skip
            assert B.IS_WIND[first]
    wind = Pos({0: (10, 5), 6: (5, 14)})  # on the north trade wind
    assert (11, 4) in wind.ends(0, 2, 1, 0)  # 2 along the wind, 1 back along it
    assert any(m[S.M_DIR1] >= 4 for m in wind.moves(0, 2, 1))
    # a diagonal may not leave the wind: 3 along the wind from (10,5) would reach (13,2)
    assert wind.walk(0, B.DIAG_PX, 3) == -1
    assert B.CELLS[wind.walk(0, B.DIAG_PX, 2)] == (12, 3)
    off = Pos({0: (10, 5), 6: (5, 14)}, wind_diagonal=False)
    assert all(m[S.M_DIR1] < 4 and m[S.M_DIR2] < 4 for m in off.moves(0, 2, 1))


def test_no_jumping_across_a_trade_wind_with_one_die():
    pos = Pos({0: (10, 3), 6: (5, 14)})
    w = lambda p, d, n: turn.walk(p.r, p.ships, p.owner, p.occ, p.g, 0, d, n)  # noqa: E731
    assert B.CELLS[w(pos, B.PY, 2)] == (10, 5)  # lands on the wind
    assert w(pos, B.PY, 3) == -1  # would cross it
    passing = Pos({0: (10, 3), 6: (5, 14)}, wind_pass=True)
    assert B.CELLS[w(passing, B.PY, 3)] == (10, 6)
    # entering with one die and sailing on with the other is allowed ...
    assert (10, 6) in pos.ends(0, 2, 1, 0)
    # ... unless entering a wind ends the ship's turn
    stop = Pos({0: (10, 3), 6: (5, 14)}, wind_entry_stops=True)
    assert (10, 6) not in stop.ends(0, 2, 1, 0)


def test_straits_join_the_edges_and_must_be_landed_on():
    pos = Pos({0: (5, 4), 6: (8, 12)})
    w = lambda p, n: turn.walk(p.r, p.ships, p.owner, p.occ, p.g, 0, B.MX, n)  # noqa: E731
    assert B.CELLS[w(pos, 2)] == (3, 4)  # onto strait S1
    assert w(pos, 3) == -1  # no jumping through the strait with one die
    assert (13, 16) in pos.ends(0, 2, 2, 0)  # two dice: onto the strait, then out at the bottom
    through = Pos({0: (5, 4), 6: (8, 12)}, strait_pass=True)
    assert B.CELLS[w(through, 3)] == (14, 16)


def test_a_ship_on_a_strait_occupies_both_halves():
    # the opponent sits on S1 (drawn at the top); from (13,16) a 2 upward... -y? no: +x lands
    # on (15,16), the bottom half of the same space: a capture
    pos = Pos({0: (13, 16), 6: (3, 4)})
    moves = pos.moves(0, 2, 1)
    caught = [pos.outcome(m)[0] for m in moves]
    assert any(6 not in o and o[0] in ((15, 16), (3, 4), (4, 4), (3, 5), (14, 16)) for o in caught)
    assert B.INDEX[(15, 16)] == B.INDEX[(3, 4)]


def test_taking_the_treasure_is_optional_on_landing():
    pos = Pos({0: (8, 13), 1: (13, 5), 6: (5, 14)})  # -y 3 lands on the anchorage (8,10)
    outs = [pos.outcome(m) for m in pos.moves(0, 3, 3)]
    landed = [o for o in outs if o[0][0] == (8, 10)]  # the other ship moves the second 3
    assert {t for _, t in landed} == {S.ON_ISLAND, 0}
    first = [m for m in pos.moves(0, 3, 3) if m[S.M_DIR1] == B.MY and m[S.M_SHIP1] == 0]
    assert {int(m[S.M_TAKE1]) for m in first} == {0, 1}
    # a ship already on an anchorage takes it only by landing again
    still = Pos({0: (8, 9), 1: (13, 5), 6: (5, 14)})
    for m in still.moves(0, 1, 2):
        o = still.outcome(m)
        if o[0][0] == (8, 9):
            assert o[1] == S.ON_ISLAND


def test_treasure_taken_mid_turn_limits_the_second_die():
    # top-left ship lands on the anchorage (8,9) with the first die and takes the treasure:
    # its second die may not go +x (away from the top-left port)
    pos = Pos({0: (11, 7), 6: (5, 14)})  # +y 3 reaches the anchorage (11,10)
    taken = [m for m in pos.moves(0, 3, 2) if m[S.M_TAKE1] == 1]
    assert taken and all(m[S.M_DIR2] != B.PX for m in taken if m[S.M_SHIP2] == 0)
    ends = {pos.outcome(m)[0][0] for m in taken}
    assert (11, 12) in ends and (9, 10) not in ends  # +y allowed; (9,10) is Skull Island
    assert (13, 10) not in ends  # +x is away from the top-left port
    kept = {pos.outcome(m)[0][0] for m in pos.moves(0, 3, 2) if m[S.M_TAKE1] == 0}
    assert (13, 10) in kept


@pytest.mark.parametrize(
    ("fleet", "cell", "away"),
    [(0, (13, 5), B.PX), (1, (13, 5), B.PY), (2, (6, 12), B.MX), (3, (6, 12), B.MY)],
)
def test_treasure_ship_never_moves_away_from_its_port(fleet, cell, away):
    s = 3 * fleet
    enemy = 3 * ((fleet + 2) % 4)
    far = (5, 14) if cell == (13, 5) else (13, 4)
    pos = Pos({s: cell, enemy: far}, n_players=4, treasure=s)
    moves = pos.moves(fleet, 2, 3)
    assert len(moves) > 0
    assert all(m[S.M_DIR1] != away and m[S.M_DIR2] != away for m in moves)
    free = Pos({s: cell, enemy: far}, n_players=4, treasure=s, treasure_limit="none")
    assert any(m[S.M_DIR1] == away for m in free.moves(fleet, 2, 3))


def test_treasure_ship_uses_the_wind_toward_its_port_only():
    pos = Pos({0: (10, 5), 6: (5, 14)}, treasure=0)  # top-left treasure ship on the north wind
    dirs = {int(m[S.M_DIR1]) for m in pos.moves(0, 1, 1)}
    assert B.DIAG_MX in dirs and B.DIAG_PX not in dirs


def test_treasure_ship_crosses_the_strait_parallel_to_its_harbour():
    # top-left harbour runs along y: a -y step through S1 is parallel
    pos = Pos({0: (3, 6), 6: (8, 12)}, treasure=0)
    assert (15, 15) in pos.ends(0, 2, 1, 0)


def test_capture_with_the_first_die_then_move_on():
    pos = Pos({0: (13, 5), 6: (13, 7), 7: (5, 14)})
    outs = [pos.outcome(m)[0] for m in pos.moves(0, 2, 3)]
    assert any(6 not in o and o[0] == (16, 7) for o in outs)  # +y 2 captures, then +x 3


def test_capturing_the_treasure_ship_takes_the_treasure():
    pos = Pos({0: (13, 5), 6: (13, 7), 7: (5, 14)}, treasure=6)
    outs = [pos.outcome(m) for m in pos.moves(0, 2, 3)]
    assert any(6 not in o and t == 0 for o, t in outs)
    assert all(t == 0 for o, t in outs if 6 not in o)


def test_treasure_ship_may_capture():
    pos = Pos({0: (13, 5), 6: (13, 7), 7: (5, 14)}, treasure=0)
    assert any(6 not in pos.outcome(m)[0] for m in pos.moves(0, 2, 3))


def test_never_capture_ones_own_flag():
    pos = Pos({0: (13, 5), 1: (13, 7), 6: (5, 14)})
    assert all(len(pos.outcome(m)[0]) == 3 for m in pos.moves(0, 2, 3))


def test_two_flags_of_one_player_do_not_capture_each_other():
    pos = Pos({0: (13, 5), 6: (13, 7), 3: (5, 14), 9: (6, 3)}, two_player_fleets=2)
    assert all(len(pos.outcome(m)[0]) == 4 for m in pos.moves(0, 2, 3))


def test_treasure_home_with_the_first_die_ends_the_move():
    pos = Pos({0: (0, 12), 6: (5, 14)}, treasure=0)
    moves = pos.moves(0, 3, 1)
    wins = [m for m in moves if m[S.M_STEPS] == 1]
    assert len(wins) == 1 and wins[0][S.M_PIPS1] == 3 and wins[0][S.M_DIR1] == B.MY
    assert any(m[S.M_STEPS] == 2 for m in moves)


def test_last_opponent_captured_ends_the_move():
    pos = Pos({0: (13, 5), 6: (13, 7)})
    moves = pos.moves(0, 2, 6)
    assert any(m[S.M_STEPS] == 1 and pos.outcome(m)[0].get(6) is None for m in moves)


def test_must_use_larger_keeps_the_larger_die():
    # (0,9): 5 reaches (0,14), 3 reaches (0,12); the opponent on (1,14)... blocks nothing of
    # the 3-first line, so find the rule's effect on the one-die case of the first test instead
    pos = Pos({0: (0, 9), 6: (2, 14)}, must_use_larger=True)
    assert [int(m[S.M_PIPS1]) for m in pos.moves(0, 5, 6)] == [5]  # the 6 cannot move at all


def test_anchorages_closed_after_taking():
    pieces = {0: (8, 13), 6: (5, 14), 7: (13, 15)}
    pos = Pos(pieces, treasure=7, anchorages_after_taking="closed")
    assert (8, 10) not in pos.ends(0, 3, 6, 0)
    assert (8, 10) in Pos(pieces, treasure=7).ends(0, 3, 6, 0)
    assert (8, 10) in Pos(pieces, anchorages_after_taking="closed").ends(0, 3, 6, 0)


# -- a pure-Python reference for the whole move set ----------------------------------------------
def ref_walk(rules, ships, occ, owner, treasure, s, d, n):
    c = ships[s]
    if d >= 4 and not rules.wind_diagonal:
        return -1
    if treasure == s and rules.treasure_limit != "none" and not B.ALLOWED[s // 3, d]:
        return -1
    for k in range(1, n + 1):
        c = int(B.STEP[c, d])
        if c < 0:
            return -1
        if rules.anchorages_after_taking == "closed" and treasure != -1 and B.IS_ANCHORAGE[c]:
            return -1
        o = occ.get(c, -1)
        if k < n and (o >= 0 or (d < 4 and B.IS_WIND[c] and not rules.wind_pass)
                      or (d < 4 and B.IS_STRAIT[c] and not rules.strait_pass)):  # fmt: skip
            return -1
        if k == n and o >= 0 and owner[o // 3] == owner[s // 3]:
            return -1
    return c


@pytest.mark.parametrize(
    "sets",
    [
        {},
        {"wind_pass": True, "strait_pass": True},
        {"wind_diagonal": False, "anchorages_after_taking": "closed"},
        {"treasure_limit": "none", "anchorages_after_taking": "closed", "wind_pass": True},
    ],
)
def test_open_directions_are_the_reference_walks_of_a_lone_ship(sets):
    """The direction table (one read per ship and die) against the reference walk of a ship
    alone on the sea, from every space, every die, every direction; the ship holding the
    treasure or not. Nothing but other ships can still stop a walk in an open direction."""
    rules = Rules().with_values(sets)
    r = rules.to_engine()
    owner = turn.fleets_of(r, 2)
    ships = np.full(S.N_SHIPS, -1, dtype=np.int64)
    g = np.zeros(S.N_G, dtype=np.int64)
    for holder in (S.ON_ISLAND, 0):
        g[S.G_TREASURE] = holder
        for c in range(B.N_CELLS):
            ships[0] = c
            for pips in range(1, 7):
                dirs = turn.open_directions(r, ships, g, 0, pips)
                want = [ref_walk(rules, [c], {c: 0}, owner, holder, 0, d, pips) >= 0
                        for d in range(B.N_DIRS)]  # fmt: skip
                assert [bool((dirs >> d) & 1) for d in range(B.N_DIRS)] == want, (c, pips)
                assert dirs >> B.N_DIRS == 0


def ref_outcomes(rules, ships0, owner, treasure0, p, d1, d2):
    """Set of (ships, treasure) after every legal move, found by plain search."""

    def steps(ships, treasure, pips):
        occ = {c: s for s, c in enumerate(ships) if c >= 0}
        for s, c in enumerate(ships):
            if c < 0 or owner[s // 3] != p:
                continue
            for d in range(6):
                t = ref_walk(rules, ships, occ, owner, treasure, s, d, pips)
                if t < 0:
                    continue
                new = list(ships)
                v = occ.get(t, -1)
                tr = treasure
                if v >= 0:
                    new[v] = -1
                    if tr == v:
                        tr = s
                new[s] = t
                takes = [tr]
                if treasure == -1 and B.IS_ANCHORAGE[t]:
                    takes.append(s)
                for tt in takes:
                    yield s, t, c, tuple(new), tt

    def ended(ships, tr):
        if tr >= 0 and ships[tr] == B.ANCHOR[tr // 3]:
            return True
        return not any(c >= 0 and owner[s // 3] != p for s, c in enumerate(ships))

    two, one = set(), {}
    for a, b in {(d1, d2), (d2, d1)}:
        for s, t, frm, ships1, tr1 in steps(tuple(ships0), treasure0, a):
            one.setdefault(a, set()).add((ships1, tr1))
            if ended(ships1, tr1):
                two.add((ships1, tr1, "end"))
                continue
            stop = rules.wind_entry_stops and B.IS_WIND[t] and not B.IS_WIND[frm]
            for s2, _, _, ships2, tr2 in steps(ships1, tr1, b):
                if not (stop and s2 == s):
                    two.add((ships2, tr2, "two"))
    if any(k == "two" for *_, k in two):
        return {(sh, tr) for sh, tr, _ in two}
    singles = set().union(*one.values()) if one else set()
    big = max(d1, d2)
    if rules.must_use_larger and one.get(big):
        singles = one[big]
    return singles


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    sets=st.fixed_dictionaries(
        {},
        optional={
            "wind_pass": st.booleans(),
            "strait_pass": st.booleans(),
            "wind_diagonal": st.booleans(),
            "wind_entry_stops": st.booleans(),
            "must_use_larger": st.booleans(),
            "treasure_limit": st.sampled_from(("toward_or_parallel", "none")),
            "anchorages_after_taking": st.sampled_from(("water", "closed")),
        },
    ),
)
def test_move_set_equals_the_reference(data, sets):
    n_players = data.draw(st.integers(2, 4))
    rules = Rules().with_values(sets)
    owner = turn.fleets_of(rules.to_engine(), n_players)
    slots = [s for s in range(12) if owner[s // 3] >= 0]
    # ships crowded round the island, where the rules interact most
    near = [c for c in range(B.N_CELLS) if B.DIST[c, B.ANCHORAGE_CELLS[0]] <= 7]
    cells = data.draw(st.lists(st.sampled_from(near), min_size=len(slots), max_size=len(slots),
                               unique=True))  # fmt: skip
    alive = data.draw(st.lists(st.booleans(), min_size=len(slots), max_size=len(slots)))
    pieces = {s: B.CELLS[c] for s, c, a in zip(slots, cells, alive, strict=True) if a}
    p = data.draw(st.integers(0, n_players - 1))
    if not any(owner[s // 3] == p for s in pieces) or len({owner[s // 3] for s in pieces}) < 2:
        return
    holders = [S.ON_ISLAND] + list(pieces)
    treasure = data.draw(st.sampled_from(holders))
    d1, d2 = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    pos = Pos(pieces, n_players=n_players, treasure=treasure, rules=rules)
    got = set()
    moves = pos.moves(p, d1, d2)
    for m in moves:
        o, t = pos.outcome(m)
        got.add((tuple(B.INDEX[o[s]] if s in o else -1 for s in range(12)), t))
    want = ref_outcomes(rules, pos.ships.tolist(), owner, treasure, p, d1, d2)
    assert got == want
    assert len(moves) == len(got)  # each resulting position once
    # a scratch kept across every call (as the engine keeps one) lists the same moves and is
    # left with every hash slot empty
    out = np.zeros_like(moves, shape=(S.MAX_MOVES, S.MOVE_FIELDS))
    n = turn.legal_moves(pos.r, pos.state, p, d1, d2, out, SHARED_SCRATCH)
    assert (out[:n] == moves).all() and n == len(moves)
    assert (SHARED_SCRATCH[1][: turn.SEEN_SLOTS] == -1).all()


SHARED_SCRATCH = turn.new_move_scratch()


def test_a_double_out_and_back_is_a_move_unless_forbidden():
    # "dos veces en direcciones opuestas": with a double the ship may come straight back, a move
    # that changes nothing; null_move=forbidden leaves it out
    pos = Pos({0: (13, 5), 6: (5, 14)})
    ends = pos.ends(0, 2, 2, 0)
    assert (13, 5) in ends
    no = Pos({0: (13, 5), 6: (5, 14)}, null_move="forbidden")
    assert no.ends(0, 2, 2, 0) == ends - {(13, 5)}
    assert no.steps(0, 2, 2) == [2]
    # out and back is no null move when the first step captured on the way
    cap = Pos({0: (13, 5), 6: (15, 5), 7: (5, 14)}, null_move="forbidden")
    assert any(o[0][0] == (13, 5) and 6 not in o[0] for o in map(cap.outcome, cap.moves(0, 2, 2)))


def test_a_ship_on_an_anchorage_may_take_the_treasure_where_it_stands_any_time():
    # "Tomar el tesoro ... se puede hacer en cualquier momento durante el turno": with
    # take_on_anchorage=any_time the ship on (8,9) takes it without landing again, and then
    # moves as a treasure ship (never +x, away from the top-left port)
    still = Pos({0: (8, 9), 1: (13, 5), 6: (5, 14)}, take_on_anchorage="any_time")
    moves = still.moves(0, 1, 2)
    before = [m for m in moves if m[S.M_TAKE1] == S.TAKEN_BEFORE + 0]
    assert before
    assert all(still.outcome(m)[1] == 0 for m in before)
    assert any(still.outcome(m)[0][0] == (8, 9) for m in before)  # ship 1 used both dice
    for m in before:
        for k in (0, 1):
            if m[1 + 4 * k] == 0:
                assert m[2 + 4 * k] != B.PX
    landing = Pos({0: (8, 9), 1: (13, 5), 6: (5, 14)})  # the default: only by landing
    assert all(landing.outcome(m)[0][0] != (8, 9) or landing.outcome(m)[1] != 0
               for m in landing.moves(0, 1, 2))  # fmt: skip


def test_the_first_seat_is_a_rule():
    from simulator.contract.policy import engine_arrays, seat_policies
    from simulator.games.pirateer.spec import SPEC

    rules = Rules().with_values({"first_seat": 2})
    ids, prm = engine_arrays(seat_policies(["runner"], SPEC.policies, SPEC.id, 3))
    rows, _ = SPEC.replay.play(rules, 3, ids, prm, 5)
    events = SPEC.replay.decode(rules, 3, rows)
    turns = [e["player"] for e in events if e["kind"] in ("roll", "pass")]
    assert turns[:4] == [1, 2, 0, 1]  # seat 2 opens, then clockwise
    assert "first_seat" in SPEC.check(Rules().with_values({"first_seat": 4}), 3, [])
