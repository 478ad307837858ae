"""A cooperative game whose answers are known, for the success-rate analyses and reports.

Each game's seed decides it: mission = seed % 3, and the crew succeeds when the seed's upper bits
(a uniform number) fall below ``SUCCESS[mission]`` minus ``difficulty`` (minus ``SLOPPY`` more
when any seat plays ``sloppy``). Length is 5 + seed % 7.
Its replay records the mission and the outcome and shows them as a table (a game without a
board).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.contract.policy import PolicyDef
from simulator.contract.recording import ReplayDef, record, replay_by_chunk
from simulator.contract.registry import GameSpec, register
from simulator.contract.rules import RuleSet, option

SUCCESS = (0.8, 0.5, 0.2)
SLOPPY = 0.3  # what a ``sloppy`` seat takes off the success chance


@dataclass(frozen=True)
class CoopRules(RuleSet):
    game_id = "fake-coop"
    difficulty: float = option(0.0, "lowers every mission's success chance", "test", lo=0, hi=1)


EV_MISSION, EV_DONE, EV_FAILED = range(3)  # events: (kind, trick, player, mission number)
EVENT_KINDS = ("mission", "mission_done", "mission_failed")


def play_chunk(rules, n_players, policy_ids, policy_params, seeds, rec=None, rec_n=None):
    seeds = np.asarray(seeds, dtype=np.uint64)
    mission = (seeds % 3).astype(np.int64)
    uniform = (seeds >> np.uint64(8)).astype(np.float64) / 2.0**24
    sloppy = SLOPPY if np.any(np.asarray(policy_ids) == 1) else 0.0
    success = uniform < np.asarray(SUCCESS)[mission] - rules.difficulty - sloppy
    n = len(seeds)
    if rec is not None:  # one game, recorded
        record(rec, rec_n, EV_MISSION, 0, -1, mission[0] + 1)
        end = EV_DONE if success[0] else EV_FAILED
        record(rec, rec_n, end, int(5 + seeds[0] % 7), -1, mission[0] + 1)
    return {
        "winner": np.full(n, -1, np.int64),
        "success": success,
        "length": (5 + seeds % 7).astype(np.int64),
        "end_reason": np.where(success, 0, 1),
        "scores": np.zeros((n, n_players), np.int64),
        "fake_coop_mission": mission + 1,
    }


def decode(rules, n_players, rows):
    return [
        {"step": step, "player": player, "kind": EVENT_KINDS[kind], "mission": a}
        for kind, step, player, a in rows.tolist()
    ]


def text(ev):
    if ev["kind"] == "mission":
        return f"the crew takes on mission {ev['mission']}"
    return f"mission {ev['mission']} {'done' if ev['kind'] == 'mission_done' else 'failed'}"


def table(rules, n_players, rows, events):
    last = events[-1]
    return {
        "title": "Missions",
        "columns": ["mission", "outcome"],
        "rows": [[last["mission"], last["kind"].removeprefix("mission_")]],
        "event_of_row": [len(events) - 1],
    }


SPEC = GameSpec(
    id="fake-coop",
    title="Known-answer cooperative test game",
    min_players=2,
    max_players=5,
    default_players=3,
    cooperative=True,
    length_unit="tricks",
    end_reasons=("mission done", "mission failed"),
    rules_class=CoopRules,
    policies={
        "random": PolicyDef("random", 0, "no decisions"),
        "sloppy": PolicyDef("sloppy", 1, "lowers the success chance by SLOPPY"),
    },
    default_policy="random",
    play_chunk=play_chunk,
    columns={"fake_coop_mission": "mission number (1-3)"},
    success_subject="the crew",
    breakdown=("fake_coop_mission", "mission"),
    replay=ReplayDef(play=replay_by_chunk(play_chunk, 4), decode=decode, text=text, table=table),
)
register(SPEC)
