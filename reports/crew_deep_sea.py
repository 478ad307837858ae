"""The Crew: Mission Deep Sea's own report sections: the campaign (the logbook as one game) and
the ceiling (what a crew seeing every hand could win, beside the crew that played)."""

from __future__ import annotations

import json

from analyses.crew import campaign_attempts
from analyses.runs import Run
from reports.document import Section, Table

MAX_RUNS = 3  # a sweep would otherwise repeat the section for every point


def _pm(e: dict[str, float], digits: int = 1) -> str:
    return f"{e['value']:,.{digits}f} ({e['lo']:,.{digits}f} - {e['hi']:,.{digits}f})"


def _share(e: dict[str, float]) -> str:
    return f"{100 * e['value']:.1f}% ({100 * e['lo']:.1f} - {100 * e['hi']:.1f})"


def ceiling_section(runs: list[Run]) -> list[Section]:
    """One table over the runs that carry the exact solver's ceiling.json (crew-audit)."""
    rows = []
    for run in runs:
        path = run.path / "ceiling.json"
        if path.is_file():
            c = json.loads(path.read_text())
            rows.append((c, run.label))
    if not rows:
        return []
    budget = rows[0][0]["budget"]
    sec = Section(
        "Ceiling: what a crew seeing every hand could win",
        [
            "Per mission, on the first deals of the run, the share an exact depth-first "
            "solver (every hand visible, the crew choosing every card) proves winnable, with "
            "its 95% interval, beside the crew that played the same deals. Deals where the "
            f"solver spent its budget ({budget:,} cards per task allocation) count as not "
            "won; 'not proven impossible' counts them as won, so the true ceiling lies "
            "between the two."
        ],
    )
    sec.add(
        Table(
            ["mission", "deals", "crew", "ceiling", "not proven impossible", "exact"],
            [
                [
                    str(c["crew_mission"]),
                    f"{c['deals']:,}",
                    f"{100 * c['crew_success']:.1f}%",
                    _share(c["ceiling"]),
                    _share(c["not_impossible"]),
                    f"{c['exact']:,}",
                ]
                for c, _ in sorted(rows, key=lambda r: r[0]["crew_mission"])
            ],
        )
    )
    return [sec]


def sections(runs: list[Run]) -> list[Section]:
    out = ceiling_section(runs)
    campaign_runs = [r for r in runs if r.rules.get("campaign")]
    for run in campaign_runs[:MAX_RUNS]:
        c = campaign_attempts(run)
        if c is None:
            continue
        suffix = f" ({run.label})" if len(runs) > 1 else ""
        fin = c["finished"]
        first = c["missions"][0]["mission"] if c["missions"] else 1
        last = c["missions"][-1]["mission"] if c["missions"] else 1
        text = [
            f"{c['campaigns']:,} campaigns of missions {first}-{last}, each mission attempted "
            f"until it succeeds (a distress signal adds one attempt and stays active for that "
            f"mission). Expected attempts for the logbook: {_pm(c['logbook_attempts'])} "
            f"(95% interval). Finished: {100 * fin['value']:.1f}% "
            f"({100 * fin['lo']:.1f} - {100 * fin['hi']:.1f})."
        ]
        if c["capped"]:
            text.append(
                f"{c['capped']:,} campaigns stopped at a mission not won in "
                f"{c['attempt_cap']:,} attempts (rule campaign_attempt_cap): their attempts so "
                "far are counted, so the logbook figure is a lower bound."
            )
        sec = Section("Campaign: where the attempts go" + suffix, text)
        sec.add(
            Table(
                ["mission", "campaigns reaching it", "attempts (95% interval)", "share of all"],
                [
                    [
                        str(r["mission"]),
                        f"{r['campaigns']:,}",
                        _pm(r["attempts"], 2),
                        f"{100 * r['share']:.1f}%",
                    ]
                    for r in c["missions"]
                ],
            )
        )
        out.append(sec)
    return out
