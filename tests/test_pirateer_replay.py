"""Pirateer's replay events (docs/rules/pirateer.md, "Replay events") tell the game as the rules
play it: every die-step is a straight line of its die's length on the board, from where the
ship stood; dice come from the turn's roll; captures take opponents, for good; the treasure
leaves Skull Island from an anchorage and ends on its carrier's anchor; the last picture is the
final position."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.pirateer import board as B
from simulator.games.pirateer.engine import play_one
from simulator.games.pirateer.replay import DIRECTIONS, ISLAND_CELL, SHORT_FLAGS
from simulator.games.pirateer.rules import Rules
from simulator.games.pirateer.spec import SPEC

CASES = [
    (2, ["runner", "hunter"], 11),
    (3, ["random"], 5),
    (4, ["runner", "lookahead", "hunter", "random"], 21),
    (4, ["hunter"], 8),
]


def _play(n_players, names, seed):
    seats = seat_policies(names, SPEC.policies, "pirateer", n_players)
    ids, prm = engine_arrays(seats)
    rows, columns = SPEC.replay.play(Rules(), n_players, ids, prm, seed)
    return rows, SPEC.replay.decode(Rules(), n_players, rows), columns, ids, prm


def _ship(name: str) -> int:
    flag, k = name.split("-")
    return SHORT_FLAGS.index(flag) * 3 + int(k) - 1


@pytest.mark.parametrize(("n_players", "names", "seed"), CASES)
def test_events_follow_the_rules(n_players, names, seed):
    rows, events, columns, _, _ = _play(n_players, names, seed)
    at: dict[str, tuple[int, int]] = {}
    gone: set[str] = set()
    seat_of: dict[str, int] = {}
    roll: list[int] = []
    used: dict[int, list[int]] = {}
    last_move = None
    for ev in events:
        kind = ev["kind"]
        if kind == "place":
            assert ev["step"] == 0
            strip = B.HARBOUR_STRIPS[_ship(ev["ship"]) // 3]
            assert tuple(ev["at"]) in strip[1:4]  # next to the anchor (start_squares default)
            at[ev["ship"]] = tuple(ev["at"])
            seat_of[ev["ship"]] = ev["player"]
        elif kind in ("roll", "pass"):
            roll = sorted(ev["dice"])
            assert all(1 <= d <= 6 for d in roll)
        elif kind == "move":
            ship = ev["ship"]
            assert ship not in gone and seat_of[ship] == ev["player"]
            assert tuple(ev["from"]) == at[ship]
            d = DIRECTIONS.index(ev["direction"])
            c = B.INDEX[tuple(ev["from"])]
            for _ in range(ev["die"]):  # a straight line of exactly the die's length
                c = int(B.STEP[c, d])
                assert c >= 0
            assert c == B.INDEX[tuple(ev["to"])]
            used.setdefault(ev["step"], []).append(ev["die"])
            assert sorted(used[ev["step"]]) in ([roll[0]], [roll[1]], roll)
            at[ship] = tuple(ev["to"])
            last_move = ev
        elif kind == "capture":
            assert last_move["captured"] == ev["captured"] and last_move["ship"] == ev["ship"]
            assert ev["captured_player"] != ev["player"] and ev["captured"] not in gone
            assert tuple(ev["at"]) == at[ev["ship"]]
            gone.add(ev["captured"])
        elif kind == "treasure":
            assert tuple(ev["at"]) == at[ev["ship"]]
            if ev["taken_from"] == "Skull Island":
                assert tuple(ev["at"]) in B.ANCHORAGES
            else:
                assert ev["taken_from"] in gone
    end = events[-1]
    assert end["kind"] == "end" and [e["kind"] for e in events].count("end") == 1
    assert end["step"] == columns["length"][0]
    assert end["reason"] == SPEC.end_reasons[columns["end_reason"][0]]
    assert end["winner"] == (columns["winner"][0] if columns["winner"][0] >= 0 else None)
    assert len(gone) == columns["pirateer_captures"][0]
    if end["reason"] == "treasure_home":
        assert last_move["treasure"] and last_move["player"] == end["winner"]
        anchor = B.HARBOUR_STRIPS[_ship(last_move["ship"]) // 3][0]
        assert tuple(last_move["to"]) == anchor


@pytest.mark.parametrize(("n_players", "names", "seed"), CASES[:2])
def test_the_last_picture_is_the_final_position(n_players, names, seed):
    rows, events, _, ids, prm = _play(n_players, names, seed)
    frames = SPEC.replay.frames(Rules(), n_players, rows, events)
    final = play_one(Rules(), n_players, ids, prm, seed)  # the checked single-game path
    ships = {p["name"]: p["cell"] for p in frames[-1]["pieces"] if p["name"] != "treasure"}
    expected = {
        f"{SHORT_FLAGS[s // 3]}-{s % 3 + 1}": int(c) for s, c in enumerate(final["ships"]) if c >= 0
    }
    assert ships == expected
    assert frames[0]["pieces"] == [
        {"cell": ISLAND_CELL, "seat": -1, "label": "T", "name": "treasure"}
    ]
    carriers = [p for p in frames[-1]["pieces"] if p.get("carry")]
    on_island = final["g"][0] == -1  # G_TREASURE: ON_ISLAND, a carrier, or DELIVERED (-2)
    assert len(carriers) == (0 if on_island else 1)
    assert np.array_equal(final["trace"][:, 4], rows[rows[:, 0] == 2][:, 3])  # same die-steps


def test_text_of_a_short_game():
    _, events, columns, _, _ = _play(2, ["runner", "hunter"], 11)
    lines = [SPEC.replay.text(e) for e in events]
    assert lines[0] == "seat 1 sets up cross-1 at (0, 10)"
    assert any(line.startswith("seat 2 rolls ") for line in lines)
    assert lines[-1].startswith("seat ") or lines[-1].startswith("no winner")
    assert len(lines) == len(events) and columns["length"][0] == events[-1]["step"]
