"""The Crew's replay events (docs/rules/crew-deep-sea.md, "Replay events") tell the attempt as
the seed plays it: the holder of submarine 4 is captain and leads trick 1; cards come from the
hand dealt (after the distress pass), follow suit when they can; the highest submarine, else the
highest card of the led suit, wins and its winner leads next; sonar claims are true and never
show a submarine; the mission fails at once with the first failed task; the table has a row per
trick."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.contract.policy import engine_arrays, seat_policies
from simulator.games.crew_deep_sea import record as R
from simulator.games.crew_deep_sea.rules import Rules
from simulator.games.crew_deep_sea.spec import SPEC

CASES = [
    (4, {}, 7),
    (3, {"mission": 12}, 3),
    (5, {"mission": 15}, 4),  # rapture of the deep: shared sonar tokens
    (4, {"mission": 20, "distress": "always"}, 9),
    (2, {"distress": "always"}, 11),  # the dummy crew member
]


def _replay(n_players, values, seed):
    rules = Rules().with_values(values)
    seats = seat_policies(["heuristic"], SPEC.policies, SPEC.id, n_players)
    ids, prm = engine_arrays(seats)
    rows, columns = SPEC.replay.play(rules, n_players, ids, prm, seed)
    return rules, rows, SPEC.replay.decode(rules, n_players, rows), columns


def _suit(name: str) -> str:
    return name[0]


def _rank(name: str) -> int:
    return int(name[1:])


def _beats(a: str, b: str, led: str) -> bool:
    """Trick order of the seed: submarines trump, else the led suit, higher rank wins."""
    if _suit(a) == _suit(b):
        return _rank(a) > _rank(b)
    return _suit(a) == "S" or (_suit(a) == led and _suit(b) != "S")


@pytest.mark.parametrize(("n_players", "values", "seed"), CASES)
def test_events_follow_the_rules(n_players, values, seed):
    rules, rows, events, columns = _replay(n_players, values, seed)
    attempt = events[0]
    assert attempt["kind"] == "attempt" and attempt["step"] == 0
    dummy = attempt.get("dummy_seat", -1)
    hands: dict[int, set[str]] = {}
    face_down: set[str] = set()
    trick: list[tuple[int, str]] = []
    leader = attempt["captain"]
    tricks = 0
    ended = False
    for i, ev in enumerate(events):
        assert not ended, "nothing after the end"
        kind = ev["kind"]
        if kind == "hand":
            hands[ev["seat"]] = set(ev["cards"])
            face_down |= set(ev.get("face_down", []))
        elif kind == "pass":
            assert _suit(ev["card"]) != "S"  # colour cards only
            giver = next(q for q, h in hands.items() if ev["card"] in h)
            hands[giver].discard(ev["card"])
            to = dummy if ev["to"] == "the dummy" else int(ev["to"].split()[1]) - 1
            hands[to].add(ev["card"])
        elif kind == "sonar":
            q = ev["player"]
            shown = ev["card"]
            assert _suit(shown) != "S" and shown in hands[q]
            same = sorted(_rank(c) for c in hands[q] if _suit(c) == _suit(shown))
            claim = ev["claim"]
            if claim == "only":
                assert same == [_rank(shown)]
            elif claim == "highest":
                assert same[-1] == _rank(shown)
            elif claim == "lowest":
                assert same[0] == _rank(shown)
        elif kind == "turn_up":
            face_down.discard(ev["card"])
            hands[dummy].add(ev["card"])
        elif kind == "play":
            q = ev["seat"]
            if not trick:
                assert q == leader and ev["position"] == 0
            else:
                assert q == (trick[-1][0] + 1) % len(hands) and ev["position"] == len(trick)
            held = hands[q] - face_down if q == dummy else hands[q]
            assert ev["card"] in held
            if trick:
                led = _suit(trick[0][1])
                if _suit(ev["card"]) != led:  # may not follow: holds none of the led suit
                    assert not any(_suit(c) == led for c in held)
            hands[q].discard(ev["card"])
            trick.append((q, ev["card"]))
        elif kind == "trick":
            best = trick[0]
            for q, c in trick[1:]:
                if _beats(c, best[1], _suit(trick[0][1])):
                    best = (q, c)
            assert ev["card"] == best[1] and ev["step"] == tricks + 1
            assert ev["player"] == (-1 if best[0] == dummy else best[0])
            leader = best[0]
            trick = []
            tricks += 1
        elif kind == "task_failed":
            assert events[i + 1]["kind"] in ("task_failed", "end")
        elif kind == "end":
            ended = True
            assert ev["tricks"] == tricks == columns["length"][0]
            assert ev["reason"] == SPEC.end_reasons[columns["end_reason"][0]]
    assert ended
    # the captain holds submarine 4 when the cards are dealt
    first_hands = {e["seat"]: e["cards"] for e in events if e["kind"] == "hand"}
    assert "S4" in first_hands[attempt["captain"]]


def test_a_failed_task_ends_the_attempt_at_once():
    """Seed: "la misión fracasa instantáneamente": the first failure is followed by the end,
    in the trick it happened, with reason task_failed."""
    seen = 0
    for seed in range(40):
        _, _, events, columns = _replay(4, {"mission": 8}, seed)
        fails = [i for i, e in enumerate(events) if e["kind"] in ("task_failed", "rule_failed")]
        if not fails:
            continue
        seen += 1
        end = events[-1]
        assert end["kind"] == "end" and end["reason"] in ("task_failed", "mission_rule_failed")
        assert all(events[i]["step"] == end["step"] for i in fails)
        assert not columns["success"][0]
    assert seen > 0


def test_the_table_has_the_deal_and_one_row_per_trick():
    rules, rows, events, columns = _replay(4, {"mission": 20, "distress": "always"}, 9)
    view = SPEC.replay.table(rules, 4, rows, events)
    labels = [r[0] for r in view["rows"]]
    assert labels[:3] == ["hands", "tasks", "distress"]
    assert labels[3:] == [f"trick {t + 1}" for t in range(columns["length"][0])]
    for r in view["rows"][3:]:
        assert sum(" (lead)" in cell for cell in r[1:5]) == 1  # one leader, four cards
        assert all(cell for cell in r[1:5])


def test_the_text_log_names_the_captain_and_the_cards():
    _, _, events, _ = _replay(4, {}, 7)
    lines = [SPEC.replay.text(e) for e in events]
    assert lines[0].startswith(f"seat {events[0]['captain'] + 1} is captain")
    assert any(line.endswith("legal)") and " leads " in line for line in lines)
    assert lines[-1].startswith("the mission ")


@pytest.mark.parametrize("policy", ["random", "heuristic", "expert", "omniscient"])
def test_recording_changes_nothing_for_any_policy(policy):
    """The recorded attempt is the run's attempt: same columns as play_chunk without a buffer
    (the omniscient crew plays a searched line: its what-if play-outs are never recorded)."""
    rules = Rules()
    seats = seat_policies([policy], SPEC.policies, SPEC.id, 4)
    ids, prm = engine_arrays(seats)
    seeds = np.array([3, 17], dtype=np.uint32)
    run = SPEC.play_chunk(rules, 4, ids, prm, seeds)
    for g, seed in enumerate(seeds):
        rows, columns = SPEC.replay.play(rules, 4, ids, prm, int(seed))
        for name, values in run.items():
            assert np.array_equal(columns[name][0], values[g]), (policy, name)
        plays = [r for r in rows if r[0] == R.EV_PLAY]
        assert len(plays) == 4 * columns["length"][0]  # every card of every trick, once


def test_exactly_three_submarines_fails_with_submarine_4_unplayed():
    """3 players, mission 7, seed 22: the holder of task 31 ("exactly three submarines") has won
    two and keeps S4, the card never played; at the end of the hand the task fails, with its
    event, and the attempt ends task_failed (not all_tricks_played)."""
    _, _, events, columns = _replay(3, {"mission": 7}, 22)
    failed = [e for e in events if e["kind"] == "task_failed"]
    assert [e["task"] for e in failed] == [31]
    assert failed[0]["step"] == 13 == columns["length"][0]
    assert events[-1]["reason"] == "task_failed"


@pytest.mark.parametrize("n_players", [2, 3])
def test_every_task_is_decided_when_the_hand_ends(n_players):
    """At 2 and 3 players one card is never played; still, after the last trick every task is
    done or failed, so no attempt ends with tasks pending (all_tricks_played)."""
    rules = Rules()
    seats = seat_policies(["heuristic"], SPEC.policies, SPEC.id, n_players)
    ids, prm = engine_arrays(seats)
    reasons = []
    for mission in (3, 4, 11, 17):
        run = SPEC.play_chunk(rules.with_values({"mission": mission}), n_players, ids, prm,
                              np.arange(200, dtype=np.uint32))  # fmt: skip
        reasons += [SPEC.end_reasons[r] for r in run["end_reason"]]
    assert "all_tricks_played" not in reasons
    assert reasons.count("task_failed") > 0 and reasons.count("success") > 0
