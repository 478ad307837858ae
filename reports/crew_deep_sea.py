"""The Crew: Mission Deep Sea's own report section: the campaign (the logbook as one game)."""

from __future__ import annotations

from analyses.crew import campaign_attempts
from analyses.runs import Run
from reports.document import Section, Table

MAX_RUNS = 3  # a sweep would otherwise repeat the section for every point


def _pm(e: dict[str, float], digits: int = 1) -> str:
    return f"{e['value']:,.{digits}f} ({e['lo']:,.{digits}f} - {e['hi']:,.{digits}f})"


def sections(runs: list[Run]) -> list[Section]:
    out = []
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
