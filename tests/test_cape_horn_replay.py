"""Cape Horn's replay events (docs/rules/cape-horn.md, "Replay events") tell the game as the rules
play it: each turn starts with a sail point, cards are laid from the hand next to a card, a ship
moves by an option of the card under it (or ignores it, or moves twice) and pays for it, a token
is taken by stopping on a station, and the race ends on the move that wins it; the last picture is
the final state."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.cape_horn import board as BD
from simulator.games.cape_horn import engine as E
from simulator.games.cape_horn.replay import ZONES
from simulator.games.cape_horn.rules import Rules
from simulator.games.cape_horn.spec import SPEC

DATA = BD.load()
CASES = [
    (3, ["planner"], 3, {}),
    (4, ["planner", "racer", "random", "blocker"], 17, {}),
    (5, ["random"], 8, {}),
    (2, ["racer"], 40, {"three_token_victory": False, "draw_per_turn": 2}),
]


def _play(n_players, names, seed, values=None):
    rules = Rules().with_values(values or {})
    ids, prm = engine_arrays(seat_policies(names, SPEC.policies, SPEC.id, n_players))
    rows, columns = SPEC.replay.play(rules, n_players, ids, prm, seed)
    return rules, rows, SPEC.replay.decode(rules, n_players, rows), columns, ids, prm


def _c(xy) -> int:
    return DATA.cell(*xy)


def _reach(B, card: dict, ship: dict, p: int) -> set[int]:
    """Every space ship ``p`` could end on this turn, whatever its sail points: by its card, by
    'ignorar' (the 8 neighbours) and by 'mover dos veces' (the card of a first landing it may
    end on: a card, no other ship unless a station)."""
    s = ship[p]
    out = {int(n) for n in B.neigh[s] if n >= 0}
    if s not in card:
        return out
    for k in range(B.n_moves[card[s]]):
        t1 = int(B.target[s, card[s], k])
        if t1 < 0:
            continue
        out.add(t1)
        alone = all(c != t1 for q, c in ship.items() if q != p) or B.st_zone[t1] >= 0
        if t1 in card and alone:
            out |= {int(B.target[t1, card[t1], j]) for j in range(B.n_moves[card[t1]])}
    return out


@pytest.mark.parametrize(("n_players", "names", "seed", "values"), CASES)
def test_events_follow_the_rules(n_players, names, seed, values):
    rules, rows, events, columns, _, _ = _play(n_players, names, seed, values)
    B, r, _ = E.engine_inputs(rules)
    design = {name: k for k, name in enumerate(DATA.card_names)}
    card: dict[int, int] = {}
    ship: dict[int, int] = {}
    hand = np.zeros((n_players, len(DATA.card_names)), np.int64)
    sp = [rules.start_sail_points] * n_players
    tokens: list[dict[str, str]] = [{} for _ in range(n_players)]
    laid_this_turn: list[dict] = []
    last_move = None
    for ev in events:
        kind, p = ev["kind"], ev["player"]
        if kind == "printed":
            card[_c(ev["at"])] = design[ev["wind"]]
        elif kind == "start":
            number = [s for s in DATA.starts if (s[1], s[2]) == tuple(ev["at"])][0][0]
            assert number == p + 1  # seat 1 on space 1, then 2, 3 ...
            ship[p] = _c(ev["at"])
        elif kind == "draw":
            hand[p, design[ev["wind"]]] += 1
            assert ev["hand"] == hand[p].sum() <= rules.hand_max
            if ev["how"] == "bought":
                sp[p] -= rules.buy_cost
            assert ev["sail_points"] == sp[p]
        elif kind == "sail":  # step 1: +1, never above the maximum
            sp[p] = min(sp[p] + rules.sail_points_per_turn, rules.max_sail_points)
            assert ev["sail_points"] == sp[p]
            laid_this_turn = []
        elif kind == "lay":
            c, d = _c(ev["at"]), design[ev["wind"]]
            assert hand[p, d] > 0
            hand[p, d] -= 1
            assert any(n >= 0 and n in card for n in B.neigh[c])  # next to a card
            assert ev["covers"] == (DATA.card_names[card[c]] if c in card else None)
            if ev["covers"]:
                assert c not in ship.values()  # never under a ship
                assert c not in _reach(B, card, ship, p)  # nor on a card its ship could reach
            card[c] = d
            laid_this_turn.append(ev)
        elif kind == "refused":
            laid_this_turn.append(ev)
        elif kind == "move":
            if any(e.get("covers") for e in laid_this_turn):  # a cover is the turn's only card
                assert len(laid_this_turn) == 1, laid_this_turn
            laid_this_turn = []
            frm, to = _c(ev["from"]), _c(ev["to"])
            assert frm == ship[p]
            if ev["move"] == "wind":
                assert B.target[frm, card[frm], ev["option"] - 1] == to and ev["paid"] == 0
            elif ev["move"] == "twice":
                via = _c(ev["via"])
                assert B.target[frm, card[frm], ev["option"] - 1] == via
                assert B.target[via, card[via], ev["option2"] - 1] == to
                assert ev["paid"] == rules.twice_cost
            elif ev["move"] == "ignore":
                assert to in B.neigh[frm] and ev["paid"] in (0, rules.ignore_cost)
            else:
                assert to == frm and ev["paid"] == 0
            if ev["move"] != "no_move":  # the move ends on a card, alone unless on a station
                assert to in card or B.kind[to] == BD.K_FINISH
                others = [q for q, c in ship.items() if q != p and c == to]
                assert not others or B.st_zone[to] >= 0
            gain = rules.no_move_gain if ev["move"] == "no_move" else 0
            sp[p] = min(sp[p] - ev["paid"] + gain, rules.max_sail_points)
            assert ev["sail_points"] == sp[p] >= 0
            ship[p] = to
            last_move = ev
        elif kind == "token":  # stopping on a station: one per zone, each of its own colour
            cell = _c(ev["at"])
            assert last_move["player"] == p
            assert cell in (_c(last_move["to"]), _c(last_move.get("via", last_move["to"])))
            z = ZONES.index(ev["zone"])
            assert B.st_zone[cell] == z and BD.COLOURS[B.st_colour[cell]] == ev["colour"]
            assert ev["zone"] not in tokens[p] and ev["colour"] not in tokens[p].values()
            tokens[p][ev["zone"]] = ev["colour"]
    end = events[-1]
    assert end["kind"] == "end" and [e["kind"] for e in events].count("end") == 1
    assert end["step"] == columns["length"][0]
    assert end["reason"] == SPEC.end_reasons[columns["end_reason"][0]]
    assert end["winner"] == (columns["winner"][0] if columns["winner"][0] >= 0 else None)
    for p in range(n_players):
        assert len(tokens[p]) == columns["cape_horn_tokens"][0][p]
        assert sp[p] == columns["cape_horn_sail_points"][0][p]
    laid = [e for e in events if e["kind"] == "lay"]
    assert len(laid) == sum(columns["cape_horn_cards_laid"][0])
    assert sum(e["covers"] is not None for e in laid) == sum(columns["cape_horn_cards_covered"][0])


def test_the_race_ends_on_the_winning_move():
    """Seed: "Adquirir 3 fichas ... en 3 zonas diferentes" wins at once: the third token comes
    right after the move that stops on its station, and the game ends there."""
    for seed in range(3, 12):
        _, _, events, columns, _, _ = _play(3, ["planner"], seed)
        if events[-1]["reason"] == "three_stations":
            break
    else:
        pytest.fail("no three-station win in these seeds")
    winner = events[-1]["winner"]
    move, token, end = events[-3:]
    assert move["kind"] == "move" and move["player"] == winner
    assert token == {**token, "kind": "token", "player": winner, "at": move["to"]}
    assert end["step"] == move["step"] == columns["length"][0]
    held = [e for e in events if e["kind"] == "token" and e["player"] == winner]
    assert sorted(e["zone"] for e in held) == ["I", "II", "III"]
    assert len({e["colour"] for e in held}) == 3


@pytest.mark.parametrize(("n_players", "names", "seed", "values"), CASES[:2])
def test_the_last_picture_is_the_final_state(n_players, names, seed, values):
    rules, rows, events, _, ids, prm = _play(n_players, names, seed, values)
    frames = SPEC.replay.frames(rules, n_players, rows, events)
    final = E.play_one(rules, n_players, ids, prm, seed)  # the checked single-game path
    assert final["problems"] == 0
    pieces = frames[-1]["pieces"]
    winds = {p["cell"]: p["name"] for p in pieces if p["seat"] < 0}
    assert winds == {c: DATA.card_names[d] for c, d in enumerate(final["card"]) if d >= 0}
    ships = {p["seat"]: p["cell"] for p in pieces if p["seat"] >= 0}
    assert ships == {p: int(c) for p, c in enumerate(final["ship"])}
    carried = {p["seat"]: int(p.get("carry", 0)) for p in pieces if p["seat"] >= 0}
    assert carried == {p: int((final["pl"][p, 2:5] >= 0).sum()) for p in range(n_players)}


def test_text_of_a_short_game():
    _, _, events, columns, _, _ = _play(3, ["planner"], 3)
    lines = [SPEC.replay.text(e) for e in events]
    assert lines[0] == "printed wind start_F1 on the start space [12, -1]"
    assert lines[5] == "seat 1's clipper on its start space [12, -1]"
    assert any(line.startswith("seat 2 lays ") for line in lines)
    assert lines[-1] == "seat 3 wins (three stations)"
    assert len(lines) == len(events) and columns["length"][0] == events[-1]["step"]
