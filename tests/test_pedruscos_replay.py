"""Pedruscos del Espacio's replay events (docs/rules/pedruscos.md, "Replay events") tell the game
as the rules play it: a move goes exactly the die's pips to an end the board allows; an asteroid
gives a card of its colour; a shipment scores the cards' value less the shipping cost and
empties the hold; a branch costs its price and harvests come only from a branch built on an
earlier turn, one card per square up to the dice; the station table is rolled only by a ship
that starts its turn on a station; the winner reaches the target; the last picture is the final
position of the game."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pedruscos import record as R
from simulator.games.pedruscos import state as S
from simulator.games.pedruscos.board import ASTEROID, COLOUR_NAMES, STATION, build_board
from simulator.games.pedruscos.engine import play_one
from simulator.games.pedruscos.rules import Rules
from simulator.games.pedruscos.spec import SPEC

CASES = [
    (3, ["lookahead"], {}, 5),
    (2, ["random"], {}, 3),
    (4, ["lookahead"], {"repairs": "teleport"}, 12),
]


def _replay(n_players, names, values, seed):
    rules = Rules().with_values(values)
    seats = seat_policies(names, SPEC.policies, SPEC.id, n_players)
    ids, prm = engine_arrays(seats)
    rows, columns = SPEC.replay.play(rules, n_players, ids, prm, seed)
    return rules, rows, SPEC.replay.decode(rules, n_players, rows), columns, ids, prm


@pytest.mark.parametrize(("n_players", "names", "values", "seed"), CASES)
def test_events_follow_the_rules(n_players, names, values, seed):
    rules, rows, events, columns, ids, prm = _replay(n_players, names, values, seed)
    b = build_board(*rules.board_key())
    pos = [0] * n_players
    points = [0] * n_players
    aboard = [[0, 0, 0] for _ in range(n_players)]
    built: dict[tuple[int, int], int] = {}  # (seat, station) -> round*10 + turn order
    values_now = dict(events[0]["values"])
    repair = [False] * n_players
    die = None
    harvested: set[int] = set()
    last_move = None
    for i, ev in enumerate(events):
        kind, q = ev["kind"], ev["player"]
        now = (ev["step"], q)
        if kind == "table":
            assert b.kind[pos[q]] == STATION and ev["station"] == b.station[pos[q]]
        elif kind == "roll":
            assert 1 <= ev["die"] <= 6 and ev["from"]["cell"] == pos[q]
            assert ev["options"] == len(b.ends(pos[q], ev["die"]))
            die = ev["die"]
        elif kind == "move":
            assert ev["die"] == die and ev["from"]["cell"] == pos[q]
            assert ev["to"]["cell"] in b.ends(pos[q], die)  # exact pips, as the board allows
            pos[q] = ev["to"]["cell"]
            last_move = (now, pos[q])
        elif kind == "cards":
            change = list(ev["change"].values())
            after = list(ev["aboard"].values())
            assert [a + c for a, c in zip(aboard[q], change, strict=True)] == after
            assert sum(after) <= rules.hold_limit
            if events[i - 1]["kind"] == "harvest":  # one card per square, its colour
                colours = {int(b.colour[c]) for c in harvested if b.kind[c] == ASTEROID}
                assert sum(c for c in change if c > 0) <= len(harvested)
                assert {k for k, c in enumerate(change) if c > 0} <= colours
            if last_move and last_move[0] == now and events[i - 1]["kind"] == "move":
                cell = last_move[1]  # a card collected on landing: the asteroid's colour
                assert b.kind[cell] == ASTEROID and not repair[q]
                gained = [k for k, c in enumerate(change) if c > 0]
                assert gained == [int(b.colour[cell])], (COLOUR_NAMES, change)
            aboard[q] = after
        elif kind == "ship":
            value = sum(n * v for n, v in zip(aboard[q], values_now.values(), strict=True))
            assert ev["value"] == value and ev["cards"] == sum(aboard[q])
            cost = rules.hauler_cost if ev["by"] == "hauler" else rules.shipping_cost
            assert ev["points"] == max(value - cost, -points[q])
            points[q] = ev["total"]
            assert points[q] >= 0
            aboard[q] = [0, 0, 0]
        elif kind == "branch":
            assert ev["paid"] == rules.branch_cost and pos[q] == ev["station"]
            points[q] -= rules.branch_cost
            assert ev["total"] == points[q]
            built[(q, ev["station"])] = ev["step"]
        elif kind == "harvest":
            assert pos[q] == ev["station"]
            assert (q, ev["station"]) in built  # a branch of its own there
            assert not events[i - 1]["kind"] == "branch"  # built on an earlier turn
            routes = [r for r in b.routes_of(ev["station"]) if r[0] == ev["route_to"]]
            cells = [x["cell"] for x in ev["cells"]]
            assert len(cells) == ev["squares"]
            assert any(r[2][: len(cells)] == cells for r in routes)  # in order from the station
            assert any(ev["squares"] == min(ev["dice"], len(r[2])) for r in routes)
            harvested = set(cells)
        elif kind == "market" or kind == "setup":
            values_now = dict(ev["values"])
        elif kind == "repairs":
            repair[q] = not ev["repaired"]
            if ev.get("sent_to"):
                pos[q] = ev["sent_to"]["cell"]
        elif kind == "end":
            assert i == len(events) - 1
            assert ev["scores"] == points == list(columns["scores"][0])
            if ev["winner"] is not None:
                assert points[ev["winner"]] >= rules.target_points
    # the last picture is the game's final position, as play_one leaves it
    final = play_one(rules, n_players, ids, prm, seed)
    frames = SPEC.replay.frames(rules, n_players, rows, events)
    ships = {p["seat"]: p["cell"] for p in frames[-1]["pieces"] if p["label"].isdigit()}
    assert ships == {q: int(final["pl"][q, S.P_POS]) for q in range(n_players)}
    assert pos == [ships[q] for q in range(n_players)]


def test_the_table_has_a_row_per_round():
    rules, rows, events, columns, _, _ = _replay(3, ["lookahead"], {}, 5)
    view = SPEC.replay.table(rules, 3, rows, events)
    assert [r[0] for r in view["rows"]] == list(range(1, columns["length"][0] + 1))
    assert view["rows"][-1][4:] == list(columns["scores"][0])
    assert np.all(np.diff(view["event_of_row"]) > 0)


@pytest.mark.parametrize("policy", sorted(SPEC.policies))
def test_recording_changes_nothing_for_any_policy(policy):
    """The recorded game is the run's game: same columns as play_chunk without a buffer."""
    rules = Rules()
    seats = seat_policies([policy], SPEC.policies, SPEC.id, 3)
    ids, prm = engine_arrays(seats)
    seeds = np.array([4, 9], dtype=np.uint32)
    run = SPEC.play_chunk(rules, 3, ids, prm, seeds)
    for g, seed in enumerate(seeds):
        rows, columns = SPEC.replay.play(rules, 3, ids, prm, int(seed))
        for name, values in run.items():
            assert np.array_equal(columns[name][0], values[g]), (policy, name)
        turns = sum(1 for r in rows if r[0] == R.EV_ROLL or r[0] == R.EV_TABLE)
        assert turns >= columns["length"][0]  # at least one roll a round
