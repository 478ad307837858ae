"""Caza-Tesoros's own report sections: the search odds under each distinct rule set of a report."""

from __future__ import annotations

from analyses.runs import Run
from reports.caza_tesoros_search_odds import search_odds_section
from reports.document import Section

MAX_RULE_SETS = 3  # a sweep would otherwise repeat the section for every point


def sections(runs: list[Run]) -> list[Section]:
    """One search-odds section for the first run's rules and one for each other distinct rule
    set, up to MAX_RULE_SETS."""
    rules_class = runs[0].spec.rules_class
    distinct: list[Run] = []
    for run in runs:
        if all(run.rules != r.rules for r in distinct):
            distinct.append(run)
    out = []
    for run in distinct[:MAX_RULE_SETS]:
        rules = rules_class().with_values(run.rules, source=f"run {str(run.path)!r}")
        section = search_odds_section(rules)
        if len(distinct) > 1:
            section.title = f"{section.title} ({run.label})"
        out.append(section)
    return out
