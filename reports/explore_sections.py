"""Report sections of a screening (``balance explore``): which options move which figure, in
sentences a designer can quote; an option "moves" a figure only where luck is ruled out."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyses.explore import MAIN, is_rate

from . import figures
from .document import Figure, Section, Table
from .text import num

TOP = 3  # options named per figure in the headline


def _figure_words(name: str, s: dict[str, Any]) -> str:
    unit = s["length_unit"]
    if name == "first-seat":
        return "the first seat's win rate"
    if name == "balance":
        return "balance (1 minus the largest gap between two seats' win rates)"
    if name == "draw":
        return "the share of games nobody wins"
    if name == "success":
        return "the success rate"
    if name == "length":
        return f"mean game length ({unit})"
    if name.startswith("end:"):
        return f"the share of games ending by {name[4:]}"
    return f"the mean of {name[5:]} per game"


def size(name: str, x: float, signed: bool = False) -> str:
    """An effect in the figure's own unit: points for rates, plain numbers otherwise."""
    if x is None or not math.isfinite(x):
        return "n/a"
    if is_rate(name):
        return f"{x * 100:+.1f} points" if signed else f"{x * 100:.1f} points"
    digits = 2 if abs(x) < 10 else 1
    return f"{x:+,.{digits}f}" if signed else f"{x:,.{digits}f}"


def _ci(name: str, ci: list[float]) -> str:
    return f"[{size(name, ci[0])}, {size(name, ci[1])}]".replace(" points", "")


def _range(row: dict[str, Any]) -> str:
    lo, hi = row["range"]
    if isinstance(lo, bool):
        return "no to yes"
    return f"{lo} to {hi}"


def _sobol(s: dict[str, Any]) -> bool:
    return s["method"] == "sobol"


def _effect_words(row: dict[str, Any], s: dict[str, Any]) -> str:
    name = row["figure"]
    if _sobol(s):
        return (
            f"{row['option']} ({_range(row)}): {row['effect']:.0%} of its variance over the "
            f"design [{row['ci'][0]:.0%}, {row['ci'][1]:.0%}]"
        )
    way = {"raises": "raising it raises", "lowers": "raising it lowers"}.get(row["direction"])
    how = f"{way} it" if way else "no steady direction"
    bends = ", interacts or bends" if row["interacts"] else ""
    return (
        f"{row['option']} ({_range(row)}; {how}{bends}): {size(name, row['effect'])} "
        f"{_ci(name, row['ci'])} over its range"
    )


def explore_headline(s: dict[str, Any]) -> list[str]:
    out = [
        f"{len(s['ranges'])} options screened ({s['method'].title()}, {s['points']:,} design "
        f"points, {s['games_per_point']:,} games each on the same seeds: {s['games']:,} games, "
        f"{_duration(s['wall_seconds'])} of wall time)."
    ]
    by_figure = _by_figure(s)
    ends = [f for f in s["figures"] if f.startswith("end:") and f not in s["same_as"]]
    for name in [m for m in MAIN if m in by_figure] + ends[:2]:
        rows = by_figure[name]
        moving = [r for r in rows if r["moves"]]
        what = _figure_words(name, s)
        if not moving:
            out.append(
                f"No option moves {what} beyond luck at this budget (luck at one point: "
                f"{size(name, s['noise'][name])}); more games per point (-n) would tell."
            )
            continue
        words = "; ".join(_effect_words(r, s) for r in moving[:TOP])
        rest = len(moving) - TOP
        more = f" (and {rest} more)" if rest > 0 else ""
        out.append(f"What moves {what} most: {words}{more}.")
    if s["dropped"]:
        names = ", ".join(d["figure"] for d in s["dropped"])
        out.append(f"The same at every point, so left out: {names}.")
    return out


def _by_figure(s: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {f: [] for f in s["figures"]}
    for row in s["options"]:
        out[row["figure"]].append(row)
    return out


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "an unknown time"
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min"


def explore_sections(s: dict[str, Any]) -> list[Section]:
    sections = [_design_section(s)]
    for name, rows in _by_figure(s).items():
        sections.append(_figure_section(name, rows, s))
    return sections


def _design_section(s: dict[str, Any]) -> Section:
    if _sobol(s):
        budget = (
            f"Sobol (Saltelli's sample, N = {s['trajectories']}): N(k + 2) = {s['points']:,} points"
        )
    else:
        budget = (
            f"Morris, r = {s['trajectories']} trajectories of k + 1 points: r(k + 1) = "
            f"{s['points']:,} points"
        )
    distinct = (
        f" ({s['runs']:,} distinct settings; rounded values made some points the same)"
        if s["runs"] < s["points"]
        else ""
    )
    seats = ", ".join(s["policies"])
    section = Section(
        "What was screened",
        [
            f"{budget}{distinct}, {s['games_per_point']:,} games at each, every point on the same "
            f"game seeds (seed {s['seed']}): {s['games']:,} games in {_duration(s['wall_seconds'])}"
            f" of wall time. {s['players']} players; seats: {seats}.",
            "A number's default range runs from half to double the value in force (a default of "
            "0: up to a tenth of the declared bounds), inside the declared bounds, integers "
            "rounded; --range NAME=LO:HI replaces it. Yes/no options are screened as no and yes.",
            _effect_meaning(s),
        ],
    )
    section.add(
        Table(
            ["option", "range screened", "value in force", "range from"],
            [
                [
                    f["option"],
                    _factor_range(f),
                    _value(f["default"]),
                    f["source"],
                ]
                for f in s["ranges"]
            ],
        )
    )
    if s["skipped"]:
        section.add(
            Table(
                ["option not screened", "why"],
                [[x["option"], x["reason"]] for x in s["skipped"]],
                caption="Name an option with --options (and --range) to screen it anyway.",
            )
        )
    if s["dropped"]:
        section.paragraphs.append(
            "Figures equal at every point, left out: "
            + ", ".join(f"{d['figure']} ({num(d['value'], 3)})" for d in s["dropped"])
            + "."
        )
    return section


def _value(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _effect_meaning(s: dict[str, Any]) -> str:
    if _sobol(s):
        return (
            "Effect: ST, the share of a figure's variance over the design that goes away when "
            "the option is fixed (its interactions included), with its 95% interval; S1 is its "
            "share alone, and ST - S1 what it has only through interactions."
        )
    return (
        "Effect: the mean size of a figure's change when the option crosses its whole range "
        "(Morris's mu*; rates in percentage points), with its 95% interval from resampling "
        "trajectories and games. mu gives the direction; sigma above mu* means the effect "
        "depends on the other options or bends over the range. 'Luck alone' is the mu* an "
        "option that does nothing would show at this budget; an option moves a figure only "
        "when its effects stand above their luck (see How to read)."
    )


def _factor_range(f: dict[str, Any]) -> str:
    if f["kind"] == "bool":
        return "no, yes"
    if f["kind"] == "choice":
        return ", ".join(f["choices"]) + " (in this order)"
    return f"{f['range'][0]} to {f['range'][1]}"


def _verdict(row: dict[str, Any]) -> str:
    if row["unchanged"]:
        return "changed no game"
    if row["moves"]:
        return "moves it"
    return "cannot be told from noise at this budget"


def _figure_section(name: str, rows: list[dict[str, Any]], s: dict[str, Any]) -> Section:
    what = _figure_words(name, s)
    noise = s["noise"][name]
    paragraphs = [
        f"Luck at one point: {what} has a standard error of {size(name, noise)} over "
        f"{s['games_per_point']:,} games."
    ]
    if name in s["same_as"]:
        paragraphs.insert(
            0,
            f"At every point this equals {s['same_as'][name]} (or 100% minus it), so it ranks "
            "the options the same way.",
        )
    if name == "first-seat" and s.get("first_seat_edge"):
        e = s["first_seat_edge"]
        paragraphs.append(
            f"Seat 1's edge over an even share (1/{s['players']} of the games someone wins) "
            f"runs from {size(name, e['min'], signed=True)} to {size(name, e['max'], signed=True)}"
            f" over the design's settings (median {size(name, e['median'], signed=True)})."
            + (
                " The seats play different policies, so seat 1's figure is its seat and its "
                f"policy ({s['policies'][0]}) together."
                if len(set(s["policies"])) > 1
                else ""
            )
        )
    if _sobol(s):
        columns = ["rank", "option", "range", "ST [95%]", "S1 [95%]", "direction", "verdict"]
        table = [
            [
                str(r["rank"]),
                r["option"],
                _range(r),
                f"{r['effect']:.2f} [{r['ci'][0]:.2f}, {r['ci'][1]:.2f}]",
                f"{r['s1']:.2f} [{r['s1_ci'][0]:.2f}, {r['s1_ci'][1]:.2f}]",
                r["direction"],
                _verdict(r),
            ]
            for r in rows
        ]
        xlabel, values = "ST (share of the figure's variance)", [r["effect"] for r in rows]
        lo, hi = [r["ci"][0] for r in rows], [r["ci"][1] for r in rows]
        reference, label = None, ""
    else:
        columns = ["rank", "option", "range", "mu* [95%]", "mu (direction)", "sigma",
                   "luck alone", "verdict"]  # fmt: skip
        table = [
            [
                str(r["rank"]),
                r["option"],
                _range(r),
                f"{size(name, r['effect'])} {_ci(name, r['ci'])}",
                f"{size(name, r['mu'], signed=True)} ({r['direction']})",
                size(name, r["sigma"]) + (" (interacts or bends)" if r["interacts"] else ""),
                size(name, r["noise"]),
                _verdict(r),
            ]
            for r in rows
        ]
        scale = 100 if is_rate(name) else 1
        values = [r["effect"] * scale for r in rows]
        lo, hi = [r["ci"][0] * scale for r in rows], [r["ci"][1] * scale for r in rows]
        unit = (
            "percentage points" if is_rate(name) else s["length_unit"] if name == "length" else ""
        )
        xlabel = f"mu*: change over the option's range{f' ({unit})' if unit else ''}"
        reference = float(np.median([r["noise"] for r in rows])) * scale
        label = "luck alone (median over options)"
    section = Section(f"What moves {name}", paragraphs)
    shown = rows[:20]
    section.add(
        Figure(
            figures.interval_bars(
                [r["option"] for r in shown],
                values[: len(shown)],
                lo[: len(shown)],
                hi[: len(shown)],
                xlabel=xlabel,
                reference=reference,
                reference_label=label,
                percent=False,
            ),
            "Bars: effect of each option over its range; whiskers: 95% intervals. Options "
            "that move the figure come first, then those that cannot be told from noise"
            + (
                f"; only the first {len(shown)} of {len(rows)} options drawn"
                if len(rows) > 20
                else ""
            ),
            f"explore-{name.replace(':', '-')}",
        )
    )
    section.add(Table(columns, table))
    return section


def how_to_read_explore() -> list[str]:
    return [
        "Screening: an option's elementary effect is the change of a figure between two "
        "points of the design that differ in that option only, scaled to the option's whole "
        "range. Morris's mu* is the mean size of these changes, so it ranks options by how "
        "much they move a figure over the ranges screened (another range gives another "
        "ranking); it is a screening, not a forecast of any one setting.",
        "Every point plays the same game seeds, so an option that changes nothing has effects "
        "of exactly 0 ('changed no game'). Luck still enters each effect (another setting "
        "plays the same seeds differently); mu* is a mean of sizes and is never below what "
        "luck alone gives, so its interval excluding 0 proves nothing. An option 'moves' a "
        "figure when its mean change (mu) has a 95% interval excluding 0 (a steady direction), "
        "or when the mean of its squared effects, less what the games' luck adds to them, has "
        "a 95% interval above 0 (an effect that changes sign across the design); otherwise it "
        "'cannot be told from noise at this budget' and more games per point (-n) or more "
        "trajectories would tell. Intervals resample trajectories and games together: the "
        "same lucky games stand behind every trajectory.",
    ]
