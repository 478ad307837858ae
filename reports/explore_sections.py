"""Report sections of a screening (``balance explore``): which options move which figure, in
sentences a designer can quote; an option "moves" a figure only where luck is ruled out."""

from __future__ import annotations

import math
from typing import Any

from analyses.explore import MAIN, is_rate

from . import figures
from .document import Figure, Section, Table
from .text import num, points, unsigned_zero
from .text import signed as signed_number

TOP = 3  # options named per figure in the headline


def _mixed(s: dict[str, Any]) -> bool:
    """Whether the seats play different policies (seat 1's figure is then its policy's too)."""
    return len(set(s["policies"])) > 1


def _figure_words(name: str, s: dict[str, Any]) -> str:
    unit = s["length_unit"]
    if name == "first-seat" and _mixed(s):
        return f"the first seat's win rate (seat 1 plays {s['policies'][0]}: its seat and policy)"
    if name == "first-seat":
        return "the first seat's win rate"
    if name == "balance":
        return "balance (1 minus the largest gap between two seats' win rates)"
    if name == "no-winner":
        return "the share of games nobody wins"
    if name == "shared":
        return "the share of games two or more seats share the win"
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
    if name == "balance":  # on its own 0-1 scale, as every other command prints it
        x = unsigned_zero(x, 3)
        return f"{x:{'+' if signed and x else ''}.3f}"
    if is_rate(name):
        return points(x) if signed else f"{unsigned_zero(x, 1, 100) * 100:.1f} points"
    digits = 2 if abs(x) < 10 else 1
    return signed_number(x, digits) if signed else num(x, digits)


def _ci(name: str, ci: list[float], signed: bool = False) -> str:
    return f"[{size(name, ci[0], signed)}, {size(name, ci[1], signed)}]".replace(" points", "")


def _share_ci(e: dict[str, float]) -> str:
    return f"{e['value']:.2f} [{e['lo']:.2f}, {e['hi']:.2f}]"


def _range(row: dict[str, Any]) -> str:
    lo, hi = row["range"]
    if isinstance(lo, bool):
        return "no to yes"
    return f"{lo} to {hi}"


def _sobol(s: dict[str, Any]) -> bool:
    return s["method"] == "sobol"


def _effect_words(row: dict[str, Any], s: dict[str, Any]) -> str:
    """An option's effect on a figure, by the figure and interval its verdict reads."""
    if _sobol(s):
        return f"{row['option']} ({_range(row)}): {_share_words(row)}"
    way = {"raises": "raises", "lowers": "lowers"}.get(row["direction"])
    how = f"raising {row['option']} {way} {row['figure']}" if way else "no steady direction"
    bends = ", interacts or bends" if row["interacts"] else ""
    return f"{row['option']} ({_range(row)}; {how}{bends}): {tested_words(row)}"


def tested_words(row: dict[str, Any]) -> str:
    """The Morris verdict's own figure and interval, in the figure's unit: the mean change
    over the option's range, or (an effect that changes sign) its size beyond luck."""
    name, t = row["figure"], row["tested"]
    if t["reads"] == "mean change":
        return (
            f"{size(name, t['value'], signed=True)} {_ci(name, [t['lo'], t['hi']], signed=True)}"
            " mean change over its range"
        )
    return (
        f"{size(name, t['value'])} {_ci(name, [t['lo'], t['hi']])} change beyond luck over its "
        "range, up or down depending on the other options"
    )


def _share_words(row: dict[str, Any]) -> str:
    e = row["effect"]
    raw = row.get("raw", e)
    if 0 <= raw["value"] <= 1:
        return f"{e['value']:.0%} of its variance over the design [{e['lo']:.0%}, {e['hi']:.0%}]"
    share = "about all" if raw["value"] > 1 else "next to none"
    return (
        f"{share} of its variance over the design as far as this design tells (the estimate, "
        f"{raw['value']:.0%} [{raw['lo']:.0%}, {raw['hi']:.0%}], lies outside the 0-100% a "
        "share can take: too few design points)"
    )


def budget_words(s: dict[str, Any]) -> str | None:
    """The Sobol budget note: why the shares are rough and the -r that would pin them down."""
    b = s.get("sobol_budget")
    if not b:
        return None
    return (
        f"Sobol shares at -r {b['trajectories']} are rough (intervals up to "
        f"+-{b['half_width']:.0%}{'; some estimates stray outside 0-100%' if b['beyond'] else ''}"
        f"; shown within 0-100%): -r {b['needed']} would narrow every interval to about +-10 "
        "points."
    )


def _settings_words(s: dict[str, Any]) -> str:
    """Design points that rounding made the same setting are played once: the count the
    progress line ("settings played: 13 of 13") shows."""
    runs = s.get("runs", s["points"])
    return f" in {runs:,} distinct settings, each played once" if runs < s["points"] else ""


def explore_headline(s: dict[str, Any]) -> list[str]:
    out = [
        f"{len(s['ranges'])} options screened ({s['method'].title()}, {s['points']:,} design "
        f"points{_settings_words(s)}, {s['games_per_point']:,} games each on the same seeds: "
        f"{s['games']:,} games, {_duration(s['wall_seconds'])} of wall time)."
    ]
    if _mixed(s):
        seats = ", ".join(f"seat {i} {p}" for i, p in enumerate(s["policies"], 1))
        out.append(
            f"The seats play different policies ({seats}): a seat's figures are its seat and its "
            "policy together, and balance compares policies as much as seats."
        )
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
    if budget_words(s):
        out.append(budget_words(s))
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
            f"Variance shares (N = {s['trajectories']} base points): N(k + 2) = {s['points']:,} "
            "points"
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
            "Effect: the share of a figure's spread over the design that would go away if the "
            "option were fixed, its interactions with the other options included (ST), with "
            "its 95% interval; S1 is its share alone, and ST - S1 what it has only through "
            "interactions. A share lies between 0% and 100%; an option moves a figure when the "
            "interval of its share starts above 0%."
        )
    return (
        "Size of change: how much a figure changes, on average and whatever the direction, when "
        "the option crosses its whole range (rates in percentage points), with its 95% interval "
        "from resampling the design and the games. It ranks the options, but it is never below "
        "what luck alone gives, so the verdict does not read it: an option moves a figure when "
        "its mean change has an interval clear of 0 (a steady direction), or, for an effect "
        "that goes up or down depending on the other options, when its size beyond luck has an "
        "interval above 0. The last column shows that figure and interval. 'Luck alone' is the "
        "size an option that does nothing would show at this budget; sigma above the size "
        "means the effect depends on the other options or bends over the range."
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
                _share_ci(r["effect"]),
                _share_ci(r["s1"]),
                r["direction"],
                _verdict(r),
            ]
            for r in rows
        ]
        xlabel = "ST (share of the figure's variance)"
        values, lo, hi = ([r["effect"][k] for r in rows] for k in ("value", "lo", "hi"))
        reference, label = None, ""
    else:
        columns = ["rank", "option", "range", "size of change [95%]", "direction", "sigma",
                   "luck alone", "verdict", "what the verdict reads [95%]"]  # fmt: skip
        table = [
            [
                str(r["rank"]),
                r["option"],
                _range(r),
                f"{size(name, r['effect']['value'])} "
                f"{_ci(name, [r['effect']['lo'], r['effect']['hi']])}",
                r["direction"],
                size(name, r["sigma"]) + (" (interacts or bends)" if r["interacts"] else ""),
                size(name, r["noise"]),
                _verdict(r),
                tested_words(r),
            ]
            for r in rows
        ]
        # The chart draws what each verdict reads: an interval clear of 0 moves the figure.
        scale = 100 if is_rate(name) and name != "balance" else 1
        values = [r["tested"]["value"] * scale for r in rows]
        lo = [r["tested"]["lo"] * scale for r in rows]
        hi = [r["tested"]["hi"] * scale for r in rows]
        unit = (
            "balance, 0-1"
            if name == "balance"
            else "percentage points"
            if is_rate(name)
            else s["length_unit"]
            if name == "length"
            else ""
        )
        xlabel = (
            f"mean change over the option's range (size beyond luck where marked)"
            f"{f' ({unit})' if unit else ''}"
        )
        reference, label = 0.0, "no change: a verdict 'moves it' needs the interval clear of 0"
    section = Section(f"What moves {name}", paragraphs)
    if _sobol(s) and budget_words(s):
        section.paragraphs.append(budget_words(s))
    shown = rows[:20]
    marked = [
        r["option"] + (" (size beyond luck)" if r.get("tested", {}).get("reads") == "size beyond "
                       "luck" else "")
        for r in shown
    ]  # fmt: skip
    section.add(
        Figure(
            figures.interval_bars(
                marked,
                values[: len(shown)],
                lo[: len(shown)],
                hi[: len(shown)],
                xlabel=xlabel,
                reference=reference,
                reference_label=label,
                percent=False,
            ),
            "Bars: what each option's verdict reads (Sobol: its share of the variance; "
            "screening: its mean change over its range, or its size beyond luck where marked); "
            "whiskers: the 95% intervals the verdicts test. Options that move the figure come "
            "first, then those that cannot be told from noise"
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
        "Screening: the design steps one option at a time between points that differ in that "
        "option only, and scales each step's change of a figure to the option's whole range. "
        "The mean size of these changes ranks options by how much they move a figure over the "
        "ranges screened (another range gives another ranking); it is a screening, not a "
        "forecast of any one setting.",
        "Every point plays the same game seeds, so an option that changes nothing has changes "
        "of exactly 0 ('changed no game'). Luck still enters each change (another setting "
        "plays the same seeds differently), and a mean of sizes is never below what luck alone "
        "gives, so an interval of the size excluding 0 proves nothing. An option 'moves' a "
        "figure when its mean change has a 95% interval clear of 0 (a steady direction), or "
        "when its size beyond luck (the root of the mean squared change less what the games' "
        "luck adds) has a 95% interval above 0 (a change whose sign depends on the other "
        "options); the verdict's figure and interval are printed beside it and drawn in the "
        "chart. Otherwise it 'cannot be told from noise at this budget' and more games per "
        "point (-n) or more trajectories (-r) would tell. Intervals resample the design and "
        "the games together: the same lucky games stand behind every step.",
    ]


def explore_methods(s: dict[str, Any]) -> list[str]:
    """The methods' names, for the report's Methods note."""
    if _sobol(s):
        return [
            f"Variance shares: Sobol indices from Saltelli's sample (N = {s['trajectories']}), "
            "first-order S1 and total ST with SALib's bootstrap intervals, shown within 0-100%; "
            "direction from Saltelli's pairs of points that differ in one option."
        ]
    return [
        f"Screening: Morris's elementary effects (r = {s['trajectories']} trajectories, SALib's "
        "sample): size of change is mu*, mean change mu, sigma their spread; intervals are "
        "percentile bootstraps over trajectories and game resamples."
    ]
