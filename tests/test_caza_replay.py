"""Caza-Tesoros's replay events (docs/rules/caza-tesoros.md, "Replay events") tell the game as the
rules play it: the weather die picks the day's weather, a storm pushes a ship side = higher die,
distance = lower die, a ship sails its recorded sides within its movement points and never more
than 3 in a row, each search throw shows what its dice show at that level and marks as the
marking rule says, a failed level 1 makes that player's next search of the cross level 2, and a
failed level 2 on an own cross leaves an Archive cross; the last picture is the final state."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.caza_tesoros import state as S
from simulator.games.caza_tesoros.board import cell_of, roll_cell, roll_cross_cell, step_in_line
from simulator.games.caza_tesoros.engine import play_one
from simulator.games.caza_tesoros.replay import hex_of, path_cells
from simulator.games.caza_tesoros.rules import WEATHER_NAMES, Rules
from simulator.games.caza_tesoros.spec import SPEC
from simulator.games.caza_tesoros.treasure_search import PAIRS_NAMES, throw_mask

CASES = [
    (4, ["greedy"], 3, {}),
    (3, ["planner", "greedy", "random"], 11, {}),
    (2, ["planner"], 5, {"colours_per_player": 2, "level1_marking": "one"}),
    (4, ["greedy", "planner", "random", "greedy"], 21, {"weather_faces": (5, 5, 5, 4, 0, 1)}),
]


def _play(n_players, names, seed, values=None):
    rules = Rules().with_values(values or {})
    ids, prm = engine_arrays(seat_policies(names, SPEC.policies, SPEC.id, n_players))
    rows, columns = SPEC.replay.play(rules, n_players, ids, prm, seed)
    return rules, rows, SPEC.replay.decode(rules, n_players, rows), columns, ids, prm


def _cell(xy) -> int:
    return cell_of(*xy)


def _mask(values) -> int:
    return sum(1 << (v - 1) for v in values)


@pytest.mark.parametrize(("n_players", "names", "seed", "values"), CASES)
def test_events_follow_the_rules(n_players, names, seed, values):
    rules, rows, events, columns, _, _ = _play(n_players, names, seed, values)
    pairs = PAIRS_NAMES.index(rules.level2_combinations)
    where: dict[tuple, list[int]] = {}  # (seat, colour, ship) -> [column, row]
    weather = None
    search = None
    throws: list[dict] = []
    level1_failed: set[tuple] = set()  # (seat, colour, hex) whose next search there is level 2
    for ev in events:
        kind = ev["kind"]
        key = (ev["player"], ev.get("colour", 1), ev.get("ship"))
        if kind == "ship":
            assert all(3 <= v <= 18 for v in ev["at"])  # two 3D6 sums
            where[key] = ev["at"]
        elif kind == "weather":
            face = rules.weather_faces[ev["die"] - 1]  # the die picks the day's weather
            weather = ev["weather"]
            assert weather == WEATHER_NAMES[face]
        elif kind in ("maintenance", "draw", "buy", "auction", "bid", "forced_sale"):
            assert (ev["step"] - 1) % rules.days_per_week == 0  # the trading day
        elif kind == "move":
            assert ev["from"] == where[key]
            sides = ev["sides"]
            assert len(sides) <= ev["points"]
            run = 1
            for a, b in zip(sides, sides[1:], strict=False):
                run = run + 1 if a == b else 1
                assert run <= rules.max_straight
            assert path_cells(_cell(ev["from"]), int("".join(map(str, sides)) or 0))[-1] == _cell(
                ev["to"]
            )
            where[key] = ev["to"]
        elif kind == "deviate":
            assert weather == "storm"
            assert ev["dice"] == [ev["side"], ev["distance"]] and ev["side"] >= ev["distance"]
            stop = rules.deviation_edge == "stop"
            to = step_in_line(_cell(ev["from"]), ev["side"] - 1, ev["distance"], stop)
            assert ev["from"] == where[key] and hex_of(to) == ev["to"]
            where[key] = ev["to"]
        elif kind == "search":
            assert ev["at"] == where[key]
            spot = (ev["player"], ev.get("colour", 1), tuple(ev["at"]))
            assert ev["level"] == (2 if spot in level1_failed else 1)
            search, throws = ev, []
        elif kind == "throw":
            assert len(ev["dice"]) == search["dice"] and all(1 <= d <= 6 for d in ev["dice"])
            before = throws[-1]["marked_so_far"] if throws else []
            shown = throw_mask(search["level"], np.array(ev["dice"]), len(ev["dice"]), pairs)
            assert _mask(ev["new"]) == shown & ~_mask(before)
            if ev["new"]:
                assert ev["outcome"] == "marks"
                if search["marking"] == "all":
                    assert ev["marked"] == ev["new"]
                else:
                    assert len(ev["marked"]) == 1 and ev["marked"][0] in ev["new"]
                assert sorted(before + ev["marked"]) == ev["marked_so_far"]
            else:
                assert ev["marked"] == [] and ev["marked_so_far"] == before
            throws.append(ev)
        elif kind == "searched":
            boxes = 6 if ev["level"] == 1 else 12
            assert ev["throws"] == len(throws) and ev["at"] == search["at"]
            spot = (ev["player"], ev.get("colour", 1), tuple(ev["at"]))
            if ev["found"]:  # every box marked, on the last throw; the cross is gone
                assert throws[-1]["marked_so_far"] == list(range(1, boxes + 1))
                level1_failed -= {s for s in level1_failed if s[2] == spot[2]}
            else:  # the last throw showed nothing new with no re-throw left
                assert throws[-1]["outcome"] == "fails"
                assert len(throws[-1]["marked_so_far"]) < boxes
                if ev["level"] == 1:
                    level1_failed.add(spot)
                else:
                    level1_failed.discard(spot)
        elif kind == "level2_fail":
            assert search["level"] == 2 and ev["at"] == search["at"]
            assert ev["archive_cross"] == (search["cross"] == "own")
            where[key] = ev["ship_to"]
        elif kind == "retire":
            assert where.pop(key) == ev["at"]
    end = events[-1]
    assert end["kind"] == "end" and [e["kind"] for e in events].count("end") == 1
    assert end["step"] == columns["length"][0]
    assert end["reason"] == SPEC.end_reasons[columns["end_reason"][0]]
    assert end["winner"] == (columns["winner"][0] if columns["winner"][0] >= 0 else None)
    assert sum(e["kind"] == "search" for e in events) == columns["caza_searches"][0]
    assert sum(e["kind"] == "weather" for e in events) == columns["length"][0]
    found = [e for e in events if e["kind"] == "treasure"]
    assert len(found) == int(np.sum(columns["caza_treasures"][0]))


def test_a_broke_table_pays_upkeep_retires_and_leaves_together():
    """Seed: "Al comienzo de la semana cada jugador deberá pagar 1 Pv por cada barco" and, short
    of VP with nothing to sell, "deberá retirar el barco": cautious players never spend, so 20 VP
    last 20 weeks; in week 21 each retires its ship (+5 VP) and is out; nobody is left."""
    rules, rows, events, columns, _, _ = _play(4, ["cautious"], 7)
    upkeep = [e for e in events if e["kind"] == "maintenance"]
    assert [e["vp"] for e in upkeep if e["player"] == 0] == list(range(19, -1, -1)) + [5]
    assert {e["step"] for e in upkeep} == {1 + 7 * w for w in range(21)}
    last = [e for e in events if e["step"] == 141 and e["kind"] != "weather"]
    assert [e["kind"] for e in last[:3]] == ["retire", "maintenance", "eliminated"]
    assert [e["player"] for e in last if e["kind"] == "eliminated"] == [0, 1, 2, 3]
    assert last[-1] == {"step": 141, "player": -1, "kind": "end", "reason": "all_out",
                        "winner": None}  # fmt: skip
    assert not any(e["kind"] in ("search", "buy", "purchase") for e in events)


@pytest.mark.parametrize(("n_players", "names", "seed", "values"), CASES[:3])
def test_the_last_picture_is_the_final_state(n_players, names, seed, values):
    rules, rows, events, _, ids, prm = _play(n_players, names, seed, values)
    frames = SPEC.replay.frames(rules, n_players, rows, events)
    final = play_one(rules, n_players, ids, prm, seed)  # the checked single-game path
    assert np.array_equal(final["events"], rows)
    marks = ("X", "A")  # crosses; ships are numbered
    ships = sorted((p["cell"], p["seat"]) for p in frames[-1]["pieces"] if p["label"] not in marks)
    sh = final["sh"]
    expected = sorted(
        (int(sh[c, s, S.S_CELL]), c % n_players)
        for c in range(sh.shape[0])
        for s in range(sh.shape[1])
        if sh[c, s, S.S_CELL] >= 0
    )
    assert ships == expected
    crosses = sorted(
        (p["cell"], p["seat"]) for p in frames[-1]["pieces"] if p["label"] in ("X", "A")
    )
    cr = final["cr"]
    held = [
        (int(cr[c, S.C_CELL]), -1 if cr[c, S.C_OWNER] == S.ARCHIVE else int(cr[c, S.C_OWNER]))
        for c in range(cr.shape[0])
        if cr[c, S.C_OWNER] != S.FREE
    ]
    assert crosses == sorted((cell, o if o < 0 else o % n_players) for cell, o in held)


def test_text_of_a_short_game():
    _, _, events, columns, _, _ = _play(4, ["greedy"], 3)
    lines = [SPEC.replay.text(e) for e in events]
    # The set-up and the first weather die of seed 3, drawn from the game's own generator in the
    # rules' order: each seat's ship (3D6 x 3D6), each seat's Archive card, the weather die.
    g = S.new_state(1, 1, 1).g
    S.seed_rng(g, 3)
    ships = [hex_of(roll_cell(g)) for _ in range(4)]
    crosses = [hex_of(roll_cross_cell(g, True)) for _ in range(4)]
    die = S.rand_int(g, 6) + 1
    weather = WEATHER_NAMES[Rules().weather_faces[die - 1]]
    assert lines[:4] == [f"seat {p + 1} sets up ship 1 at {ships[p]} (3D6 x 3D6)" for p in range(4)]
    assert lines[4:8] == [
        f"seat {p + 1} starts with an Archive card: its cross lies at {crosses[p]}"
        for p in range(4)
    ]
    assert lines[8] == f"weather die {die}: {weather} (day 1 of the week)"
    assert any(" throw 1: dice " in line for line in lines)
    assert len(lines) == len(events) and columns["length"][0] == events[-1]["step"]
