"""The Crew's replay (``balance replay``): the events of :mod:`.record` as dicts, text lines and
a trick-by-trick table of hands, tasks, sonar and tricks (events: docs/rules/crew-deep-sea.md,
"Replay events"). The game has no board: the page shows the table."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.contract.recording import ReplayDef, replay_by_chunk

from . import engine as E
from . import record as R
from .board import COMMUNICATIONS, OBJECTIVES, card_name, task_table
from .campaign import play_chunk

CLAIMS = ("highest", "only", "lowest", "hidden")


def cards_of(mask: int) -> list[str]:
    """Card names of a hand mask, in deck order (pink, yellow, green, blue, submarines)."""
    return [card_name(c) for c in range(40) if (mask >> c) & 1]


def seat_name(seat: int, dummy: int) -> str:
    return "the dummy" if seat == dummy else f"seat {seat + 1}"


def decode(rules: Any, n_players: int, rows: np.ndarray) -> list[dict[str, Any]]:
    table = task_table(rules)
    dummy = -1
    out = []
    for row in rows.tolist():
        kind, step, player, a, b, c, d, e, f = row
        ev: dict[str, Any] = {"step": step, "player": player, "kind": R.EVENT_KINDS[kind]}
        if kind == R.EV_ATTEMPT:
            dummy = d
            ev.update(captain=player, communication=COMMUNICATIONS[a], tricks=b, redraws=c,
                      tasks=e)  # fmt: skip
            if dummy >= 0:
                ev["dummy_seat"] = dummy
            if a == 2:  # rapture: the shared tokens
                ev["sonar_tokens"] = f
        elif kind == R.EV_HAND:
            ev.update(seat=c, cards=cards_of(a))
            if c == dummy:
                ev["face_down"] = cards_of(b)
        elif kind in (R.EV_TASK, R.EV_TASK_DONE, R.EV_TASK_FAILED):
            ev.update(task=a, text=table.texts[a - 1], holder=seat_name(c, dummy))
        elif kind == R.EV_PREDICT:
            ev.update(task=a, text=table.texts[a - 1], tricks=b)
        elif kind == R.EV_DISTRESS:
            ev["direction"] = {1: "left", -1: "right"}.get(a, "none")
        elif kind == R.EV_PASS:
            ev.update(card=card_name(a), to=seat_name(b, dummy))
            ev["from"] = seat_name(c, dummy)
        elif kind == R.EV_SONAR:
            ev.update(card=card_name(a), claim=CLAIMS[b])
        elif kind == R.EV_TURN_UP:
            ev["card"] = card_name(a)
        elif kind == R.EV_PLAY:
            ev.update(seat=d, card=card_name(a), position=b, legal=c)
            ev["by"] = seat_name(d, dummy)
        elif kind == R.EV_TRICK:
            ev.update(card=card_name(a), winner=seat_name(b, dummy))
        elif kind == R.EV_RULE_FAILED:
            ev["rule"] = OBJECTIVES[a] or "mission rule"
        elif kind == R.EV_END:
            ev.update(reason=E.END_REASONS[a], tricks=b, tasks_done=c, tasks=d)
        out.append(ev)
    return out


def _who(ev: dict[str, Any]) -> str:
    return "the dummy" if ev["player"] < 0 else f"seat {ev['player'] + 1}"


def text(ev: dict[str, Any]) -> str:
    kind = ev["kind"]
    if kind == "attempt":
        line = (
            f"seat {ev['captain'] + 1} is captain (submarine 4); {ev['tricks']} tricks, "
            f"{ev['tasks']} task{'s' if ev['tasks'] != 1 else ''}, communication "
            f"{ev['communication']}"
        )
        if "sonar_tokens" in ev:
            line += f" ({ev['sonar_tokens']} shared tokens)"
        if ev["redraws"]:
            line += f"; redealt {ev['redraws']} time{'s' if ev['redraws'] != 1 else ''}"
        return line + ("; the dummy plays as seat 3" if "dummy_seat" in ev else "")
    if kind == "hand":
        if "face_down" in ev:
            return (
                f"the dummy shows {' '.join(ev['cards'])} face up over "
                f"{len(ev['face_down'])} face-down cards ({' '.join(ev['face_down'])})"
            )
        return f"{_who(ev)} is dealt {' '.join(ev['cards'])}"
    if kind == "task":
        return f"{ev['holder']} takes task {ev['task']}: {ev['text']}"
    if kind == "predict":
        return f"{_who(ev)} predicts {ev['tricks']} tricks for task {ev['task']}"
    if kind == "distress":
        return f"distress signal: every member passes a colour card to the {ev['direction']}"
    if kind == "pass":
        return f"{ev['from']} passes {ev['card']} to {ev['to']}"
    if kind == "sonar":
        claim = "(claim hidden by the currents)" if ev["claim"] == "hidden" else ev["claim"]
        return f"{_who(ev)} shows {ev['card']} by sonar: {claim}"
    if kind == "turn_up":
        return f"the dummy turns up {ev['card']}"
    if kind == "play":
        how = "leads" if ev["position"] == 0 else "plays"
        return f"{ev['by']} {how} {ev['card']} ({ev['legal']} legal)"
    if kind == "trick":
        return f"{ev['winner']} wins the trick with {ev['card']}"
    if kind == "task_done":
        return f"task {ev['task']} done by {ev['holder']}: {ev['text']}"
    if kind == "task_failed":
        return f"task {ev['task']} of {ev['holder']} fails: {ev['text']}"
    if kind == "rule_failed":
        return f"the mission rule {ev['rule'].replace('_', ' ')} is broken"
    outcome = "succeeds" if ev["reason"] == "success" else "fails"
    return (
        f"the mission {outcome} ({ev['reason'].replace('_', ' ')}) after {ev['tricks']} "
        f"tricks, {ev['tasks_done']} of {ev['tasks']} tasks done"
    )


def table(rules: Any, n_players: int, rows: np.ndarray, events: list) -> dict[str, Any]:
    """One row for the hands, one for the tasks, one for the distress pass, then one per trick:
    each seat's card, the winner, the sonar shown before it and the tasks it decided."""
    seats = n_players + (1 if n_players == 2 else 0)
    dummy = next((e.get("dummy_seat", -1) for e in events if e["kind"] == "attempt"), -1)
    names = [seat_name(q, dummy) for q in range(seats)]
    columns = ["", *names, "won by", "sonar before the trick", "tasks"]
    out: list[list[str]] = []
    at: list[int] = []

    def blank() -> list[str]:
        return [""] * len(columns)

    hands, tasks, passes = blank(), blank(), blank()
    hands[0], tasks[0], passes[0] = "hands", "tasks", "distress"
    trick: list[str] = blank()
    shown: list[str] = []
    holder: dict[int, int] = {}  # task card -> column of its holder
    last = {"hands": -1, "tasks": -1, "pass": -1}
    for i, ev in enumerate(events):
        kind = ev["kind"]
        if kind == "hand":
            cell = " ".join(ev["cards"])
            if "face_down" in ev:
                cell = f"up {cell} / down {' '.join(ev['face_down'])}"
            hands[1 + ev["seat"]] = cell
            last["hands"] = i
        elif kind == "task":
            col = 1 + names.index(ev["holder"])
            holder[ev["task"]] = col
            note = f"{ev['task']} {ev['text']}"
            tasks[col] = f"{tasks[col]}; {note}" if tasks[col] else note
            last["tasks"] = i
        elif kind == "predict":
            tasks[holder[ev["task"]]] += f" (predicts {ev['tricks']})"
            last["tasks"] = i
        elif kind == "pass":
            passes[1 + names.index(ev["from"])] = f"{ev['card']} to {ev['to']}"
            last["pass"] = i
        elif kind == "sonar":
            shown.append(f"{_who(ev)} {ev['card']} {ev['claim']}")
        elif kind == "play":
            trick[1 + ev["seat"]] = ev["card"] + (" (lead)" if ev["position"] == 0 else "")
        elif kind == "trick":
            trick[0] = f"trick {ev['step']}"
            trick[-3] = f"{ev['winner']} ({ev['card']})"
            trick[-2] = "; ".join(shown)
            shown = []
            out.append(trick)
            at.append(i)
            trick = blank()
        elif kind in ("task_done", "task_failed", "rule_failed"):
            word = {"task_done": "done", "task_failed": "failed"}.get(kind)
            note = f"{ev['task']} {word}" if word else f"rule {ev['rule']} broken"
            row = out[-1] if out and ev["step"] > 0 else tasks  # before trick 1: the deal
            row[-1] = f"{row[-1]}, {note}" if row[-1] else note
    head = []
    for row, key in ((hands, "hands"), (tasks, "tasks"), (passes, "pass")):
        if last[key] >= 0:
            head.append((row, last[key]))
    rows_out = [r for r, _ in head] + out
    return {
        "title": "Tricks: the card each seat played, the winner, sonar and tasks",
        "columns": columns,
        "rows": rows_out,
        "event_of_row": [e for _, e in head] + at,
    }


REPLAY = ReplayDef(
    play=replay_by_chunk(play_chunk, R.EVENT_WIDTH), decode=decode, text=text, table=table
)
