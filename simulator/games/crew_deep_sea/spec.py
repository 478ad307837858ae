"""The Crew: Mission Deep Sea as the toolkit sees it."""

from __future__ import annotations

from policies.crew_deep_sea import OMNISCIENT, POLICIES
from simulator.contract.policy import SeatPolicy
from simulator.contract.registry import CATEGORY, COUNT, SEAT, ColumnKind, GameSpec

from .campaign import play_chunk
from .engine import COLUMNS, END_REASONS
from .outside import OUTSIDE_DECISIONS
from .replay import REPLAY
from .rules import Rules

COLUMN_KINDS = {
    "crew_mission": CATEGORY,
    "crew_tasks": ColumnKind("category", none=-1),
    "crew_task_holders": ColumnKind("seat", none=-1),
    "crew_task_done": ColumnKind("count", none=-1),  # summed: tasks completed
    "crew_distress": COUNT,
    "crew_redraws": COUNT,
    "crew_captain": SEAT,
    "crew_comm_mode": CATEGORY,
    "crew_search_nodes": COUNT,
    "crew_campaign_attempts": ColumnKind("count", none=-1),  # summed: a campaign's attempts
}


def check(rules: Rules, n_players: int, seats: list[SeatPolicy]) -> str | None:
    if n_players == 2 and not rules.two_player_dummy:
        return (
            "crew-deep-sea has no 2-player game without the dummy crew member: "
            "keep rule 'two_player_dummy' on"
        )
    omniscient = [s.policy.id == OMNISCIENT for s in seats]
    if any(omniscient) and not all(omniscient):
        return "policy 'omniscient' plays the whole crew: give it to every seat"
    return None


SPEC = GameSpec(
    id="crew-deep-sea",
    title="The Crew: Mission Deep Sea",
    min_players=2,
    max_players=5,
    default_players=4,
    cooperative=True,
    length_unit="tricks",
    end_reasons=END_REASONS,
    rules_class=Rules,
    policies=POLICIES,
    default_policy="heuristic",
    search_budget=("expert", "playouts"),
    play_chunk=play_chunk,
    columns=COLUMNS,
    column_kinds=COLUMN_KINDS,
    score_note="tasks each seat completed",
    check=check,
    success_subject="the crew",
    breakdown=("crew_mission", "mission"),
    report_sections="reports.crew_deep_sea:sections",
    commands=("simulator.cli.commands.crew_deep_sea:crew_audit",),
    length_unit_of=lambda rules: "attempts" if rules.campaign else "tricks",
    replay=REPLAY,
    outside=OUTSIDE_DECISIONS,
)
