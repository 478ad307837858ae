"""Report sections of studies: a comparison against the default rules, a sweep of rule values, a
tournament of policies, and design targets."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyses.runs import Run
from analyses.seats import most_wins, seat_counts
from analyses.stats import Estimate, proportion, share_proportion, uniform_seat_test
from analyses.summary import estimates
from analyses.sweeps import most_balanced, sweep_params
from analyses.targets import Target, check_targets

from . import figures
from .document import Figure, Section, Table
from .run_sections import SHARED_NOTE, wins_text
from .text import (
    interval,
    lead_text,
    num,
    p_value,
    pct,
    points,
    rules_text,
    signed,
    with_interval,
)


# -- compare ---------------------------------------------------------------------------------
def shown_change(row: dict[str, Any]) -> float:
    """The change as the reader computes it from the two figures printed beside it: the
    difference of the rounded figures (rates to 0.1 of a percent, lengths to 0.01), so that
    "+2.6 points (15.5% to 18.1%)" subtracts as it reads."""
    if row["kind"] == "rate":
        return (round(row["other"] * 100, 1) - round(row["base"] * 100, 1)) / 100
    return round(row["other"], 2) - round(row["base"], 2)


def _unit_of(row: dict[str, Any], unit: str) -> str:
    """What a non-rate change counts: the game's length unit, or a return's amount a game."""
    return "a game" if row["kind"] == "return" else unit


def _change_text(row: dict[str, Any], unit: str) -> str:
    """A change with the interval its corrected verdict tests (widened for the comparisons)."""
    unit = _unit_of(row, unit)
    c = row.get("corrected") or {"confidence": 0.95, "comparisons": 1, **row["change"]}
    value = shown_change(row)
    level = f"{c['confidence']:.1%}".replace(".0%", "%")
    why = (
        f", widened because {c['comparisons']} comparisons were made"
        if c["comparisons"] > 1
        else ""
    )
    if row["kind"] == "rate":
        return (
            f"{row['measure']} {points(value)} ({pct(row['base'])} to {pct(row['other'])}; "
            f"{level} interval {points(c['lo'])} to {points(c['hi'])}{why})"
        )
    return (
        f"{row['measure']} {signed(value, 2)} {unit} ({num(row['base'], 2)} to "
        f"{num(row['other'], 2)}; {level} interval {signed(c['lo'], 2)} to "
        f"{signed(c['hi'], 2)}{why})"
    )


def compare_headline(rows: list[dict[str, Any]], runs: list[Run]) -> list[str]:
    unit = runs[0].length_unit
    out = []
    for run in runs[1:]:
        mine = [r for r in rows if r["variant"] == run.label]
        sig = [r for r in mine if r["significant"]]
        what = rules_text(run.rules_changed)
        if sig:
            changes = "; ".join(
                f"{_change_text(r, unit)}, {p_value(r['p_adjusted'])} corrected" for r in sig
            )
            out.append(f"Variant '{run.label}' ({what}) against the default: {changes}.")
            out += _uncorrected(mine, rows, run.label, unit)
        else:
            biggest = max(
                mine, key=lambda r: abs(r["change"]["value"]) if r["kind"] == "rate" else 0
            )
            out.append(
                f"Variant '{run.label}' ({what}) makes no change we can detect: none of its "
                f"differences is significant after correcting for {len(rows)} comparisons "
                f"(largest: {_change_text(biggest, unit)})."
            )
    return out


def _uncorrected(
    mine: list[dict[str, Any]], rows: list[dict[str, Any]], label: str, unit: str
) -> list[str]:
    """The changes a table reader sees with p < 0.05 that the correction does not keep: said,
    so the headline and the table's p-values agree."""
    near = [
        r for r in mine if not r["significant"] and r["p_value"] is not None and r["p_value"] < 0.05
    ]
    if not near:
        return []
    said = "; ".join(
        f"{_change_text(r, unit)}, {p_value(r['p_value'])} before correction and "
        f"{p_value(r['p_adjusted'])} after"
        for r in near
    )
    return [
        f"Variant '{label}': not shown to change once the {len(rows)} comparisons are allowed "
        f"for, though below 0.05 alone: {said}."
    ]


def compare_section(rows: list[dict[str, Any]], runs: list[Run]) -> Section:
    unit = runs[0].length_unit
    paired = all(r["paired"] for r in rows)
    section = Section(
        "Variants against the default",
        [
            "Each variant's change from the default rules, with its 95% interval and p-value. "
            + (
                "Every run played the same game seeds, so each game is compared with its twin "
                "under the default rules: a change counts the games it turned from a loss into a "
                "win and back (for length, the mean of each game's change). "
                if paired
                else "The runs used different seeds, so they are compared as independent "
                "samples (see Methods). "
            )
            + f"p-values are raised to allow for the {len(rows)} comparisons made, so that "
            "luck alone rarely marks one of them 'yes'; the corrected interval is the 95% "
            "interval widened to the same end: it excludes 0 where the change is marked 'yes'."
        ],
    )
    table_rows = []
    for r in rows:
        rate = r["kind"] == "rate"
        fmt = pct if rate else (lambda v: num(v, 2))
        d = r["change"]
        shown = shown_change(r)
        change = points(shown) if rate else f"{signed(shown, 2)} {_unit_of(r, unit)}"
        ci = (
            f"[{points(d['lo'])}, {points(d['hi'])}]"
            if rate
            else f"[{signed(d['lo'], 2)}, {signed(d['hi'], 2)}]"
        )
        c = r.get("corrected") or d
        corrected = (
            f"[{points(c['lo'])}, {points(c['hi'])}]"
            if rate
            else f"[{signed(c['lo'], 2)}, {signed(c['hi'], 2)}]"
        )
        table_rows.append(
            [
                r["variant"],
                r["measure"],
                fmt(r["base"]),
                fmt(r["other"]),
                change,
                ci,
                p_value(r["p_value"]),
                corrected,
                p_value(r["p_adjusted"]),
                "yes" if r["significant"] else "no",
            ]
        )
    level = f"{rows[0]['corrected']['confidence']:.1%}" if rows and "corrected" in rows[0] else ""
    section.add(
        Table(
            [
                "variant",
                "measure",
                "default",
                "variant",
                "change",
                "95% interval",
                "p",
                f"corrected {level} interval".replace("  ", " "),
                "p corrected",
                "significant",
            ],
            table_rows,
        )
    )
    rates = [r for r in rows if r["kind"] == "rate"]
    lengths = [r for r in rows if r["kind"] == "length"]
    returns = [r for r in rows if r["kind"] == "return"]
    for chosen, name, percent, xlabel in (
        (rates, "rate-changes", True, "change in rate (variant minus default)"),
        (lengths, "length-changes", False, f"change in mean length ({unit})"),
        (returns, "return-changes", False, "change in mean return a game"),
    ):
        if not chosen:
            continue
        section.add(
            Figure(
                figures.forest(
                    [f"{r['variant']}: {r['measure']}" for r in chosen],
                    [r["change"]["value"] for r in chosen],
                    [(r.get("corrected") or r["change"])["lo"] for r in chosen],
                    [(r.get("corrected") or r["change"])["hi"] for r in chosen],
                    xlabel,
                    percent=percent,
                    significant=[r["significant"] for r in chosen],
                ),
                "Change against the default with its corrected interval (the 95% interval "
                "widened because several comparisons were made; the one the verdict tests); "
                "filled dots are significant after correction.",
                name,
            )
        )
    return section


# -- sweep -----------------------------------------------------------------------------------
def _sweep_measures(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v.as_dict() for k, v in estimates(summary).items()}


def sweep_data(runs: list[Run], summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"point": r.label, "params": r.params, "measures": _sweep_measures(s)}
        for r, s in zip(runs, summaries, strict=True)
    ]


def _main_measures(summary: dict[str, Any]) -> list[str]:
    if "success" in summary:
        return ["success"]
    n = summary["run"]["n_players"]
    return [f"seat-{s + 1}" for s in range(n)]


def sweep_headline(runs: list[Run], summaries: list[dict[str, Any]]) -> list[str]:
    params = sweep_params(runs)
    out = [
        f"The sweep played {len(runs)} settings of {', '.join(params)}, "
        f"{runs[0].games_played():,} games each."
    ]
    if "seats" in summaries[0]:
        out += _balance_sentences(runs, summaries)
        first = [(r, s["seats"]["seats"][0]) for r, s in zip(runs, summaries, strict=True)]
        out.append(
            f"Seat 1 wins from {with_interval(min(first, key=lambda x: x[1]['value'])[1])} "
            f"({min(first, key=lambda x: x[1]['value'])[0].label}) to "
            f"{with_interval(max(first, key=lambda x: x[1]['value'])[1])} "
            f"({max(first, key=lambda x: x[1]['value'])[0].label})."
        )
    else:
        succ = [(r, s["success"]["success"]) for r, s in zip(runs, summaries, strict=True)]
        lo = min(succ, key=lambda x: x[1]["value"])
        hi = max(succ, key=lambda x: x[1]["value"])
        out.append(
            f"Success ranges from {with_interval(lo[1])} ({lo[0].label}) to "
            f"{with_interval(hi[1])} ({hi[0].label})."
        )
    lengths = [(r, s["length"]["mean"]) for r, s in zip(runs, summaries, strict=True)]
    short = min(lengths, key=lambda x: x[1]["value"])
    long = max(lengths, key=lambda x: x[1]["value"])
    unit = runs[0].length_unit
    if short[1]["value"] == long[1]["value"]:
        out.append(
            f"Mean length is {with_interval(long[1], num, unit)} at every setting: the swept "
            "rules do not change how long these games last."
        )
    else:
        out.append(
            f"Mean length ranges from {with_interval(short[1], num, unit)} ({short[0].label}) "
            f"to {with_interval(long[1], num, unit)} ({long[0].label})."
        )
    return out


def _balance_sentences(runs: list[Run], summaries: list[dict[str, Any]]) -> list[str]:
    """Which setting is most balanced, only when paired differences separate it."""
    if any(s["seats"]["policies_differ"] for s in summaries):
        return [
            "Seats play different policies, so balance here compares seat-and-policy pairs, "
            "not seats, and no setting is called the most balanced."
        ]
    bal = {r.label: s["seats"]["balance"] for r, s in zip(runs, summaries, strict=True)}
    lowest = min(bal, key=lambda label: bal[label]["value"])
    lead = most_balanced(runs)
    fmt = lambda v: num(v, 3)  # noqa: E731
    if lead is None:
        top = max(bal, key=lambda label: bal[label]["value"])
        return [
            f"Balance runs from {with_interval(bal[lowest], fmt)} ({lowest}) to "
            f"{with_interval(bal[top], fmt)} ({top}); the runs do not share game seeds, so no "
            "setting is called the most balanced."
        ]
    top = lead["leader"]
    signed3 = lambda v: signed(v, 3)  # noqa: E731
    if lead["separated"]:
        first = (
            f"Most balanced setting: {top}, balance {with_interval(bal[top], fmt)}, "
            f"{lead_text(lead, 'setting', signed3)}."
        )
    else:
        undecided = lead_text(lead, "setting", signed3, " per setting")
        first = (
            f"No setting is shown to be the most balanced: {top}, balance "
            f"{with_interval(bal[top], fmt)}, {undecided}."
        )
    if bal[lowest]["value"] == bal[top]["value"]:
        return [first]
    return [first, f"The lowest balance is {lowest}'s, {with_interval(bal[lowest], fmt)}."]


def sweep_sections(runs: list[Run], summaries: list[dict[str, Any]]) -> list[Section]:
    params = sweep_params(runs)
    unit = runs[0].length_unit
    section = Section(
        "Sweep: measures against the swept rules",
        [
            "Each row is one setting of the swept rules; every cell gives the estimate and its "
            "95% interval. All settings played the same game seeds."
        ],
    )
    names = sorted({m for s in summaries for m in _main_measures(s)}, key=_measure_order)
    first = estimates(summaries[0])
    shared = any(estimates(x).get("shared", Estimate(0, 0, 0)).value > 0 for x in summaries)
    extra = ["shared"] if shared else []  # shown apart from no winner, when a setting has any
    extra += [m for m in ("no-winner", "balance", "comeback") if m in first]
    names += extra + ["length"]
    rows = []
    for run, s in zip(runs, summaries, strict=True):
        est = estimates(s)
        row = [run.label]
        for m in names:
            if m not in est:
                row.append("")
                continue
            fmt = num if m in ("length",) else (lambda v: num(v, 3)) if m == "balance" else pct
            row.append(f"{fmt(est[m].value)} [{fmt(est[m].lo)}, {fmt(est[m].hi)}]")
        rows.append(row)
    section.add(Table(["setting"] + [_measure_name(m, unit) for m in names], rows))
    for m_group, ylabel, percent, stem in (
        ([m for m in names if m.startswith("seat-") or m == "success"], "rate", True, "rates"),
        (["length"], f"mean length ({unit})", False, "length"),
    ):
        if not m_group:
            continue
        section.add(_sweep_figure(runs, summaries, params, m_group, ylabel, percent, stem, unit))
    return [section]


def _measure_order(name: str) -> tuple[int, str]:
    return (int(name[5:]), "") if name.startswith("seat-") else (0, name)


def _measure_name(name: str, unit: str) -> str:
    if name.startswith("seat-"):
        return f"seat {name[5:]} win rate"
    return {
        "success": "success rate",
        "no-winner": "no winner",
        "shared": "shared wins",
        "balance": "balance",
        "comeback": "comeback rate",
        "length": f"mean length ({unit})",
    }.get(name, name)


def _sweep_figure(runs, summaries, params, measures, ylabel, percent, stem, unit) -> Figure:
    ests = [estimates(s) for s in summaries]
    values = [[r.params.get(p) for p in params] for r in runs]
    if len(params) == 2 and len(measures) >= 1:
        # Heatmap of the first measure (seat 1, success or length) over the two parameters.
        m = measures[0]
        rows_v = sorted({v[0] for v in values}, key=_sort_key)
        cols_v = sorted({v[1] for v in values}, key=_sort_key)
        grid = np.full((len(rows_v), len(cols_v), 3), np.nan)
        for v, e in zip(values, ests, strict=True):
            if m in e:
                i, j = rows_v.index(v[0]), cols_v.index(v[1])
                grid[i, j] = (e[m].value, e[m].lo, e[m].hi)
        png = figures.heatmap(
            grid[..., 0],
            grid[..., 1],
            grid[..., 2],
            row_labels=[str(x) for x in rows_v],
            col_labels=[str(x) for x in cols_v],
            row_title=params[0],
            col_title=params[1],
            percent=percent,
        )
        return Figure(
            png,
            f"{_measure_name(m, unit)} for each pair of values; each cell shows the estimate "
            "and its 95% interval in brackets.",
            f"sweep-{stem}",
        )
    # One parameter (or more: the first on the x axis, one line per remaining combination).
    xs = sorted({v[0] for v in values}, key=_sort_key)
    categorical = not all(isinstance(x, int | float) and not isinstance(x, bool) for x in xs)
    series = []
    rest_keys = sorted({tuple(v[1:]) for v in values}, key=lambda t: tuple(map(_sort_key, t)))
    for rest in rest_keys:
        for m in measures:
            pts = {
                v[0]: e[m]
                for v, e in zip(values, ests, strict=True)
                if tuple(v[1:]) == rest and m in e
            }
            if not pts:
                continue
            label = _measure_name(m, unit)
            if rest:
                label += (
                    " ("
                    + ", ".join(f"{k}={x}" for k, x in zip(params[1:], rest, strict=True))
                    + ")"
                )
            series.append(
                (
                    label,
                    [pts[x].value if x in pts else np.nan for x in xs],
                    [pts[x].lo if x in pts else np.nan for x in xs],
                    [pts[x].hi if x in pts else np.nan for x in xs],
                )
            )
    png = figures.sweep_lines(
        xs, series[:12], xlabel=params[0], ylabel=ylabel, percent=percent, categorical=categorical
    )
    return Figure(png, f"{ylabel} against {params[0]}; bands are 95% intervals.", f"sweep-{stem}")


def _sort_key(x: Any) -> tuple[int, Any]:
    return (0, x) if isinstance(x, int | float) and not isinstance(x, bool) else (1, str(x))


# -- tournament ------------------------------------------------------------------------------
def pooled_seats(runs: list[Run]) -> dict[str, Any]:
    """Seat win rates over all rotations: each policy held each seat equally often (a k-way
    shared win counts 1/k)."""
    n = runs[0].n_players
    wins, games, no_winner, shared = [0] * n, 0, 0, 0
    share_squares = [0.0] * n
    squares: dict[tuple[int, int], float] = {}
    for run in runs:
        c = seat_counts(run.scan(), n)
        wins = [a + b for a, b in zip(wins, c["wins"], strict=True)]
        share_squares = [a + b for a, b in zip(share_squares, c["share_squares"], strict=True)]
        games += c["games"]
        no_winner += c["no_winner"]
        shared += c["shared"]
        # the squared seat differences: from the shares, or the wins where no game was shared
        for a in range(n):
            for b in range(a + 1, n):
                got = c["squares"][a, b] if c["squares"] else c["wins"][a] + c["wins"][b]
                squares[a, b] = squares.get((a, b), 0.0) + got
    lead = most_wins(wins, games, squares if shared else None)
    if lead["games_to_tell"] is not None:  # a tournament is sized in games per rotation
        lead["games_to_tell"] = math.ceil(lead["games_to_tell"] / len(runs))
    return {
        "games": games,
        "seats": [
            {
                "seat": s + 1,
                "wins": wins[s],
                **share_proportion(wins[s], games, share_squares[s]).as_dict(),
            }
            for s in range(n)
        ],
        "fair_share": (games - no_winner) / games / n if games else None,
        "shared_win_rate": proportion(shared, games).as_dict(),
        "seat_test_p": uniform_seat_test(wins),
        "most_wins": lead,
    }


def tournament_headline(pol: dict[str, Any], pooled: dict[str, Any]) -> list[str]:
    out = []
    best = max(pol["policies"], key=lambda r: r["value"])
    lead = pol["strongest"]
    held = f"winning {with_interval(best)} of the seats it held"
    fair = f"a fair share is {pct(pol['fair_share'])}"
    if lead is None:
        out.append(f"Only {best['policy']} played, {held}; {fair}.")
    elif lead["separated"]:
        out.append(
            f"Strongest policy: {best['policy']}, {held}, {lead_text(lead, 'policy')}; {fair}."
        )
    else:
        out.append(
            f"No policy is shown to be the strongest yet: {best['policy']}, {held}, "
            f"{lead_text(lead, 'policy', per=' per rotation')}; {fair}."
        )
    skill = pol.get("skill")
    if skill:
        against = "random play" if skill["against"] != "fair share" else "the fair share"
        out.append(
            f"Skill against chance: per seat held, {skill['policy']} wins {points(skill['edge'])} "
            f"compared with {against} (95% interval {points(skill['lo'])} to "
            f"{points(skill['hi'])})."
        )
    seat = max(pooled["seats"], key=lambda s: s["value"])
    if pooled["most_wins"]["separated"]:
        out.append(
            f"With every policy rotated through every seat, seat {seat['seat']} wins most often, "
            f"{with_interval(seat)}; seat test {p_value(pooled['seat_test_p'])}."
        )
    else:
        seat_lead = lead_text(pooled["most_wins"], "seat", per=" per rotation")
        out.append(
            f"With every policy rotated through every seat, no seat is shown to win most: seat "
            f"{seat['seat']}, {with_interval(seat)}, {seat_lead}; seat test "
            f"{p_value(pooled['seat_test_p'])}."
        )
    return out


def tournament_section(pol: dict[str, Any], pooled: dict[str, Any]) -> Section:
    section = Section(
        "Policies against each other",
        [
            "Each policy sat in every seat equally often on the same game seeds, so seat "
            "advantages cancel out. Win rates are per seat held: at a table of P seats, a policy "
            "no better than the others wins the fair share."
        ],
    )
    section.add(
        Table(
            ["policy", "seats held", "wins", "win rate", "95% interval"],
            [
                [r["policy"], f"{r['slots']:,}", wins_text(r["wins"]), pct(r["value"]), interval(r)]
                for r in pol["policies"]
            ],
            f"Wins count shared wins: {SHARED_NOTE}."
            if any(not float(r["wins"]).is_integer() for r in pol["policies"])
            else "",
        )
    )
    section.add(
        Figure(
            figures.estimate_bars(
                [r["policy"] for r in pol["policies"]],
                pol["policies"],
                xlabel="win rate per seat held",
                reference=pol["fair_share"],
                reference_label="fair share",
            ),
            "Win rate per seat held; whiskers are 95% intervals, the dashed line the fair share.",
            "policies",
        )
    )
    labels = [r["policy"] for r in pol["policies"]]
    if pol["matrix"]:
        cell = {(m["policy"], m["against"]): m for m in pol["matrix"]}
        section.add(
            Table(
                ["policy \\ against"] + labels,
                [
                    [a]
                    + [
                        "" if a == b else f"{pct(cell[a, b]['value'])} {interval(cell[a, b])}"
                        for b in labels
                    ]
                    for a in labels
                ],
                "Row policy's share of the games it and the column policy both played and one of "
                "them won, with 95% intervals.",
            )
        )
        grid = np.full((len(labels), len(labels), 3), np.nan)
        for (a, b), m in cell.items():
            grid[labels.index(a), labels.index(b)] = (m["value"], m["lo"], m["hi"])
        section.add(
            Figure(
                figures.heatmap(
                    grid[..., 0],
                    grid[..., 1],
                    grid[..., 2],
                    row_labels=labels,
                    col_labels=labels,
                    row_title="policy",
                    col_title="against",
                    percent=True,
                ),
                "Head to head: each cell is the row policy's share of wins against the column "
                "policy, with its 95% interval in brackets.",
                "head-to-head",
            )
        )
    skill = pol.get("skill")
    if skill:
        section.paragraphs.append(
            f"Skill against chance: {skill['policy']} against {skill['against']}, "
            f"{points(skill['edge'])} per seat held, 95% interval {points(skill['lo'])} to "
            f"{points(skill['hi'])}."
        )
        section.add(
            Figure(
                figures.forest(
                    [f"{skill['policy']} vs {skill['against']}"],
                    [skill["edge"]],
                    [skill["lo"]],
                    [skill["hi"]],
                    "edge in win rate per seat held",
                    percent=True,
                    significant=[skill["lo"] > 0 or skill["hi"] < 0],
                ),
                "Skill against chance with its 95% interval; a filled dot means the interval "
                "excludes zero.",
                "skill",
            )
        )
    section.add(
        Table(
            ["seat", "wins", "win rate", "95% interval"],
            [
                [str(s["seat"]), wins_text(s["wins"]), pct(s["value"]), interval(s)]
                for s in pooled["seats"]
            ],
            f"Seats over all rotations (policies balanced across seats); seat test "
            f"{p_value(pooled['seat_test_p'])}.",
        )
    )
    by_seat = pol["by_seat"]
    section.add(
        Table(
            ["policy", "seat", "games", "win rate", "95% interval"],
            [
                [r["policy"], str(r["seat"]), f"{r['games']:,}", pct(r["value"]), interval(r)]
                for r in by_seat
            ],
            "Each policy in each seat.",
        )
    )
    return section


# -- targets ---------------------------------------------------------------------------------
def target_rows(targets: list[Target], runs: list[Run], summaries: list[dict]) -> list[dict]:
    rows = []
    for run, s in zip(runs, summaries, strict=True):
        for row in check_targets(targets, estimates(s), run.n_players):
            rows.append({"run": run.label, **row})
    return rows


def target_value_text(measure: str, v: float | None) -> str:
    """A target measure's value in its own unit: shares as percentages, means as numbers."""
    if measure in ("length", "lead-changes") or measure.startswith(("mean:", "return:", "place:")):
        return num(v, 2)
    if measure == "balance":
        return num(v, 3)
    return pct(v)


def target_range(r: dict[str, Any]) -> str:
    """A target's range in words: "40 to 60", "at least 30.0%", "at most 0.55"."""
    fmt = lambda v: target_value_text(r["measure"], v)  # noqa: E731
    if r["low"] is None:
        return f"at most {fmt(r['high'])}"
    if r["high"] is None:
        return f"at least {fmt(r['low'])}"
    return f"{fmt(r['low'])} to {fmt(r['high'])}"


def targets_headline(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in rows:
        fmt = lambda v, m=r["measure"]: target_value_text(m, v)  # noqa: E731
        est = (
            f"{fmt(r['value'])} (95% interval {fmt(r['lo'])} to {fmt(r['hi'])})"
            if r["value"] is not None
            else "not measured for this game"
        )
        out.append(f"Target {r['target']} ({r['run']}): {r['verdict']}; the run gives {est}.")
    return out


def targets_section(rows: list[dict[str, Any]]) -> Section:
    return Section(
        "Design targets",
        [
            "A run meets a target when the whole 95% interval lies inside the target range, "
            "misses it when the interval lies wholly outside, and otherwise cannot tell yet: more "
            "games would narrow the interval."
        ],
        [
            Table(
                ["run", "target", "range", "estimate", "95% interval", "verdict"],
                [
                    [
                        r["run"],
                        r["target"],
                        target_range(r),
                        target_value_text(r["measure"], r["value"]),
                        f"[{target_value_text(r['measure'], r['lo'])}, "
                        f"{target_value_text(r['measure'], r['hi'])}]",
                        r["verdict"],
                    ]
                    for r in rows
                ],
            )
        ],
    )
