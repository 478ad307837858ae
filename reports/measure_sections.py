"""The game's own figures in a run's report (their means per game, with intervals) and in a
comparison's (each variant's change, paired game by game and corrected for the number of
figures compared): a game file's ``measures``, a shipped game's counts and measures."""

from __future__ import annotations

from typing import Any

from analyses.measures import figure_notes, measure_changes
from analyses.runs import Run

from .document import Section, Table
from .text import num, p_value, signed, with_interval


def own_figures(
    runs: list[Run], summaries: list[dict[str, Any]], kind: str
) -> tuple[list[str], list[Section], dict[str, Any]]:
    """Headline sentences, sections and JSON data of the game's own figures: a table of means
    for every run; for a comparison, each variant's changes (``own_figure_changes``)."""
    if not any(s.get("columns") for s in summaries):
        return [], [], {}
    notes = figure_notes(runs[0])
    sections = [_means_section(runs, summaries, notes)]
    if kind != "compare" or len(runs) < 2:
        return [], sections, {}
    rows = measure_changes(runs[0], runs[1:])
    if not rows:
        return [], sections, {}
    sections.append(_changes_section(rows, notes))
    return _headline(rows, runs), sections, {"own_figure_changes": rows}


def _means_section(
    runs: list[Run], summaries: list[dict[str, Any]], notes: dict[str, str]
) -> Section:
    several = len(runs) > 1
    rows = [
        [*([run.label] if several else []), c, notes.get(c, ""), with_interval(e, num)]
        for run, summary in zip(runs, summaries, strict=True)
        for c, e in summary.get("columns", {}).items()
    ]
    section = Section(
        "The game's own figures",
        [
            "The game's own counts and measures (a game file's `measures`), as a mean per game "
            "with its 95% interval, over the games where each applies."
        ],
    )
    section.add(
        Table([*(["run"] if several else []), "figure", "what it is", "mean per game"], rows)
    )
    return section


def _change(row: dict[str, Any]) -> str:
    """``+5.20 (72.32 to 77.52; 97.5% interval +2.10 to +8.30, widened because 4 figures were
    compared)``: the change, the two means, and the interval its corrected verdict tests."""
    c = row["corrected"]
    level = f"{c['confidence']:.1%}".replace(".0%", "%")
    widened = c["comparisons"] > 1 and c["confidence"] > 0.9505
    why = f", widened because {c['comparisons']} figures were compared" if widened else ""
    return (
        f"{row['measure']} {signed(_shown(row), 2)} a game ({num(row['base'], 2)} to "
        f"{num(row['other'], 2)}; {level} interval {signed(c['lo'], 2)} to "
        f"{signed(c['hi'], 2)}{why})"
    )


def _shown(row: dict[str, Any]) -> float:
    """The change as the reader subtracts the two means printed beside it (to 0.01)."""
    return round(row["other"], 2) - round(row["base"], 2)


def _headline(rows: list[dict[str, Any]], runs: list[Run]) -> list[str]:
    out = []
    for run in runs[1:]:
        mine = [r for r in rows if r["variant"] == run.label]
        if not mine:
            continue
        sig = [r for r in mine if r["significant"]]
        if sig:
            changes = "; ".join(f"{_change(r)}, {p_value(r['p_adjusted'])} corrected" for r in sig)
            out.append(f"Variant '{run.label}', the game's own figures: {changes}.")
        else:
            out.append(
                f"Variant '{run.label}' changes none of the game's own figures detectably "
                f"({len(rows)} compared, corrected as the win rates are)."
            )
    return out


def _changes_section(rows: list[dict[str, Any]], notes: dict[str, str]) -> Section:
    paired = all(r["paired"] for r in rows)
    section = Section(
        "The game's own figures: variants against the default",
        [
            "Each variant's change in the mean per game of the game's own figures, over the "
            "games where the figure applies in both runs. "
            + (
                "Every run played the same game seeds, so each game is compared with its twin "
                "under the default rules (the mean of each game's change). "
                if paired
                else "The runs used different seeds, so they are compared as independent samples. "
            )
            + f"As for the win rates, p-values are raised to allow for the {len(rows)} figures "
            "compared, and the corrected interval is the 95% interval widened to the same end "
            "(a family of its own: these figures do not weaken what the win rates can tell)."
        ],
    )
    level = f"{rows[0]['corrected']['confidence']:.1%}"
    section.add(
        Table(
            [
                "variant",
                "figure",
                "what it is",
                "default",
                "variant",
                "change",
                "95% interval",
                "p",
                f"corrected {level} interval",
                "p corrected",
                "significant",
            ],  # fmt: skip
            [
                [
                    r["variant"],
                    r["measure"],
                    notes.get(r["measure"], ""),
                    num(r["base"], 2),
                    num(r["other"], 2),
                    signed(_shown(r), 2),
                    f"[{signed(r['change']['lo'], 2)}, {signed(r['change']['hi'], 2)}]",
                    p_value(r["p_value"]),
                    f"[{signed(r['corrected']['lo'], 2)}, {signed(r['corrected']['hi'], 2)}]",
                    p_value(r["p_adjusted"]),
                    "yes" if r["significant"] else "no",
                ]
                for r in rows
            ],
        )
    )
    return section
