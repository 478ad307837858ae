"""Report section: Caza-Tesoros search odds by level and equipment, exact and simulated.

``search_odds_section(rules)`` returns a :class:`reports.document.Section` whose ``html`` and
``markdown`` fragments are complete (a table and a figure embedded as a base64 PNG), so any report
can place it as it is.
"""

from __future__ import annotations

import base64
from html import escape
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from analyses.caza_tesoros_search_odds import (  # noqa: E402
    equipment_sets,
    search_economics,
    search_row,
)
from reports.document import Section  # noqa: E402
from reports.figures import _png, legend_beside  # noqa: E402

TITLE = "Caza-Tesoros: search odds by level and equipment"


def search_odds_rows(rules: Any, trials: int = 20_000, seed: int = 0) -> list[dict[str, Any]]:
    """One row per equipment set and level (read with that level's marking): exact (the rule in
    force), the best choice, the greedy rule and the simulated interval."""
    rows = []
    for eq in equipment_sets(rules):
        for level, dice in ((1, eq.level1_dice), (2, eq.level2_dice)):
            marking = rules.level1_marking if level == 1 else rules.level2_marking
            row = search_row(
                level,
                dice,
                eq.rerolls,
                marking,
                rules.level2_combinations,
                trials,
                seed,
                rules.marking_choice,
            )
            rows.append(
                {
                    "equipment": eq.name,
                    "level": level,
                    "dice": dice,
                    "rerolls": eq.rerolls,
                    "marking": marking,
                    "exact": float(row.exact),
                    "optimal": float(row.exact_optimal),
                    "greedy": float(row.exact_greedy),
                    "simulated": row.simulated,
                    "trials": trials,
                }
            )
    return rows


def search_odds_figure(rows: list[dict[str, Any]]) -> bytes:
    """Grouped bars: exact success by equipment, one group per level, the simulated 95% interval
    drawn beside each bar."""
    names = list(dict.fromkeys(r["equipment"] for r in rows))
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    x = np.arange(len(names))
    for k, level in enumerate((1, 2)):
        sel = {r["equipment"]: r for r in rows if r["level"] == level}
        exact = np.array([sel[n]["exact"] for n in names])
        sim = np.array([sel[n]["simulated"]["value"] for n in names])
        err = np.vstack(
            [
                sim - [sel[n]["simulated"]["lo"] for n in names],
                [sel[n]["simulated"]["hi"] for n in names] - sim,
            ]
        ).clip(min=0)
        pos = x + (k - 0.5) * 0.38
        ax.bar(pos, exact, width=0.3, label=f"level {level}, exact", color=f"C{k}", alpha=0.8)
        ax.errorbar(
            pos + 0.17,
            sim,
            yerr=err,
            fmt="o",
            ms=3,
            color="black",
            capsize=3,
            label="simulated, 95% interval" if k == 0 else None,
        )
    ax.set_xticks(x, names, fontsize=8)
    ax.set_ylabel("search succeeds")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    legend_beside(ax)
    return _png(fig)


def search_odds_section(rules: Any = None, trials: int = 20_000, seed: int = 0) -> Section:
    """The section for ``rules`` (default: the Caza-Tesoros defaults)."""
    if rules is None:
        from simulator.games.caza_tesoros.rules import Rules

        rules = Rules()
    rows = search_odds_rows(rules, trials, seed)
    economics = search_economics(rules)
    png = base64.b64encode(search_odds_figure(rows)).decode("ascii")
    caption = (
        f"Exact chance that one search succeeds (bars) and the simulated rate of the engine's "
        f"search with its 95% interval ({trials:,} searches each); marking: level 1 "
        f"'{rules.level1_marking}', level 2 '{rules.level2_marking}' (one value: "
        f"{rules.marking_choice} choice); level 2 pairs "
        f"'{rules.level2_combinations}'."
    )
    odds_cols = ["equipment", "level", "dice", "rerolls", "exact", "simulated", "95% interval"]
    odds = [
        [
            r["equipment"],
            str(r["level"]),
            str(r["dice"]),
            str(r["rerolls"]),
            _pct(r["exact"]),
            _pct(r["simulated"]["value"]),
            f"{_pct(r['simulated']['lo'])} - {_pct(r['simulated']['hi'])}",
        ]
        for r in rows
    ]
    money_cols = [
        "equipment",
        "price",
        "weather",
        "found",
        "VP per attempt",
        "VP per treasure (break-even)",
    ]
    money = [
        [
            e.equipment.name,
            str(e.equipment.price),
            e.weather,
            _pct(e.found),
            f"{float(e.expected_cost):.2f}",
            f"{float(e.cost_per_treasure):.1f}",
        ]
        for e in economics
    ]
    lead = (
        "One attempt at a treasure is a level 1 search, then a level 2 search if level 1 fails. "
        "A treasure worth more than the break-even value pays its searching on average; "
        "bad weather adds the surcharge per level and, on a failed level 2, the best search card."
    )
    # The section's title is the heading: the fragments start with the table.
    html = "\n".join(
        [
            _html_table(odds_cols, odds),
            f'<figure><img alt="{escape(caption)}" src="data:image/png;base64,{png}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>",
            f"<p>{escape(lead)}</p>",
            _html_table(money_cols, money),
        ]
    )
    markdown = "\n".join(
        [
            *_md_table(odds_cols, odds),
            "",
            f"![{caption}](data:image/png;base64,{png})",
            "",
            f"*{caption}*",
            "",
            lead,
            "",
            *_md_table(money_cols, money),
        ]
    )
    return Section(TITLE, html=html, markdown=markdown)


def _pct(x: float) -> str:
    return f"{float(x):.2%}"


def _html_table(columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _md_table(columns: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]
