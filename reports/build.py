"""Build the designer's report from run folders and study folders.

What the report contains depends on what it is given: one run (who wins, length, end conditions,
drama), a comparison (each variant against the default), a sweep (measures against the swept
parameters) or a tournament (policies against each other and against chance). Loose run folders
are grouped automatically: runs differing only in seat policies make a tournament, other runs of
one game a comparison against the first one given.
"""

from __future__ import annotations

import importlib
import importlib.util
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from analyses.boards import heatmaps
from analyses.policies import policy_summary
from analyses.runs import Run
from analyses.seats import seat_counts
from analyses.stats import proportion, uniform_seat_test
from analyses.summary import estimates, run_summary
from analyses.sweeps import sweep_params
from analyses.targets import Target, check_targets
from analyses.variants import compare_runs
from simulator.errors import BalanceError
from simulator.games import get_game
from simulator.studies import read_study

from . import figures
from .document import Document, Figure, Section, Table
from .text import interval, num, p_value, pct, points, rules_text, signed, with_interval

MAX_GROUPED_RUNS = 6  # runs drawn side by side in one figure


def open_runs(paths: list[str | Path]) -> tuple[str, list[Run]]:
    """The report's kind and its runs, from run folders and/or study folders."""
    if not paths:
        raise BalanceError("give at least one run folder (or compare/sweep/tournament folder)")
    runs: list[Run] = []
    kinds = []
    for path in paths:
        study = read_study(path)
        if study is None:
            runs.append(Run.open(path))
            continue
        kinds.append(study.kind)
        for entry in study.runs:
            runs.append(Run.open(study.path / entry.folder, entry.label, entry.params))
    games = {r.game for r in runs}
    if len(games) > 1:
        raise BalanceError(
            f"a report covers one game; these runs are of {', '.join(sorted(games))}"
        )
    _unique_labels(runs)
    if len(paths) == 1 and kinds:
        return kinds[0], runs
    return _infer_kind(runs), runs


def _unique_labels(runs: list[Run]) -> None:
    seen: dict[str, int] = {}
    for k, run in enumerate(runs):
        label = run.label
        if label in seen:
            label = f"{run.label} ({run.path.name})"
            runs[k] = Run(run.path, run.manifest, label, run.params)
        seen[label] = k


def _infer_kind(runs: list[Run]) -> str:
    if len(runs) == 1:
        return "single"
    first = runs[0]
    same_rules = all(r.rules == first.rules and r.n_players == first.n_players for r in runs)
    if same_rules and len({tuple(r.policies) for r in runs}) == len(runs):
        return "tournament"
    if all(r.n_players == first.n_players for r in runs):
        return "compare"
    return "runs"


def build(paths: list[str | Path], targets: list[Target] | None = None) -> tuple[Document, dict]:
    """The report document and the same figures as a JSON-ready dict."""
    kind, runs = open_runs(paths)
    summaries = [run_summary(r) for r in runs]
    spec = get_game(runs[0].game) if _known(runs[0].game) else None
    title = spec.title if spec else runs[0].game
    data: dict[str, Any] = {
        "kind": kind,
        "game": runs[0].game,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "runs": summaries,
    }
    headline: list[str] = []
    sections: list[Section] = [_what_was_run(runs, kind, title)]
    if kind == "compare":
        rows = compare_runs(runs[0], runs[1:])
        data["comparison"] = rows
        headline += _compare_headline(rows, runs)
        sections.append(_compare_section(rows, runs))
    elif kind == "sweep":
        data["sweep"] = _sweep_data(runs, summaries)
        headline += _sweep_headline(runs, summaries)
        sections += _sweep_sections(runs, summaries)
    elif kind == "tournament":
        pol = policy_summary(runs)
        pooled = _pooled_seats(runs)
        data["tournament"] = pol | {"pooled_seats": pooled}
        headline += _tournament_headline(pol, pooled)
        sections.append(_tournament_section(pol, pooled))
    if kind in ("single", "compare", "runs"):
        for summary in summaries[:1] if kind == "compare" else summaries:
            headline += _run_headline(summary, label=len(summaries) > 1)
        sections += _outcome_sections(runs, summaries)
    if targets:
        rows = _targets(targets, runs, summaries)
        data["targets"] = rows
        headline += _targets_headline(rows)
        sections.insert(1, _targets_section(rows))
    sections += _board_sections(runs)
    sections += _extra_sections(runs)
    sections.append(_how_to_read(kind))
    data["headline"] = headline
    subtitle = (
        f"{title} ({runs[0].game}), {_kind_words(kind, len(runs))}; balance {runs[0].version}; "
        f"generated {data['generated'][:10]}"
    )
    return Document(f"Balance report: {title}", subtitle, headline, sections), data


def _known(game: str) -> bool:
    try:
        get_game(game)
    except BalanceError:
        return False
    return True


def _kind_words(kind: str, n: int) -> str:
    return {
        "single": "one run",
        "compare": f"the default rules against {n - 1} variant(s)",
        "sweep": f"a sweep of {n} rule settings",
        "tournament": f"a tournament of {n} seat rotations",
        "runs": f"{n} runs",
    }[kind]


# -- what was run ----------------------------------------------------------------------------
def _what_was_run(runs: list[Run], kind: str, title: str) -> Section:
    first = runs[0]
    seeds = sorted({r.seed for r in runs})
    paragraphs = [
        f"Game: {title}. Every run below played the number of games shown, each game decided by "
        "the policies (playing styles) named for each seat. "
        + (
            f"All runs used seed {seeds[0]}, so game number i had the same dice and cards in "
            "every run and differences come from the rules or policies, not from luck."
            if len(seeds) == 1 and len(runs) > 1
            else f"Seed: {', '.join(map(str, seeds))}."
        )
    ]
    stopped = [r for r in runs if r.manifest.get("stopped_early")]
    for r in stopped:
        paragraphs.append(
            f"{r.label}: stopped after {r.manifest.get('games_played', 0):,} of "
            f"{r.planned_games:,} games because its intervals were narrow enough."
        )
    rows = [
        [
            r.label,
            rules_text(r.rules_changed),
            str(r.n_players),
            " | ".join(r.policies),
            f"{r.games_played():,}",
            str(r.seed),
        ]
        for r in runs
    ]
    table = Table(
        ["run", "rules changed from the default", "players", "policies by seat", "games", "seed"],
        rows,
        f"balance version {first.version}.",
    )
    return Section("What was run", paragraphs, [table])


# -- one run ---------------------------------------------------------------------------------
def _run_headline(summary: dict[str, Any], label: bool) -> list[str]:
    run = summary["run"]
    prefix = f"{run['label']}: " if label else ""
    unit = run["length_unit"]
    out = []
    if "seats" in summary:
        s = summary["seats"]
        seats = s["seats"]
        best = max(seats, key=lambda x: x["value"])
        worst = min(seats, key=lambda x: x["value"])
        out.append(
            f"{prefix}Seat {best['seat']} wins most often, {with_interval(best)}, and seat "
            f"{worst['seat']} least often, {with_interval(worst)}; if seats did not matter each "
            f"would win {pct(s['fair_share'])}."
        )
        if s["seat_effect"]:
            out.append(
                f"{prefix}The seat test finds a real seat effect (chi-square, "
                f"{p_value(s['seat_test_p'])}): the differences between seats are larger than "
                "luck explains."
            )
        else:
            out.append(
                f"{prefix}The seat test finds no clear seat effect (chi-square, "
                f"{p_value(s['seat_test_p'])}): the differences between seats are within what "
                "luck produces at this number of games."
            )
        out.append(
            f"{prefix}Balance (1 minus the largest gap between two seats' win rates; 1 is "
            f"perfect) is {with_interval(s['balance'], lambda v: num(v, 3))}."
        )
        if s["draw_rate"]["value"] > 0:
            out.append(f"{prefix}Nobody wins {with_interval(s['draw_rate'])} of games.")
    else:
        succ = summary["success"]
        who = summary["run"]["success_subject"]
        out.append(
            f"{prefix}{who[:1].upper() + who[1:]} succeeds in {with_interval(succ['success'])} "
            "of games."
        )
        groups = [m for m in succ["by_group"] if m["games"] > 0]
        if len(groups) > 1:
            word = succ["group_word"]
            hard = min(groups, key=lambda m: m["value"])
            easy = max(groups, key=lambda m: m["value"])
            out.append(
                f"{prefix}Hardest {word}: {hard['group']}, succeeding "
                f"{with_interval(hard)}; easiest: {easy['group']}, {with_interval(easy)}."
            )
    length = summary["length"]
    p = length["percentiles"]
    out.append(
        f"{prefix}Games last {with_interval(length['mean'], num, unit)} on average; half of them "
        f"between {num(p['p25'], 0)} and {num(p['p75'], 0)}, nine in ten between "
        f"{num(p['p5'], 0)} and {num(p['p95'], 0)}."
    )
    ends = sorted(summary["end_reasons"], key=lambda e: -e["value"])
    if len([e for e in ends if e["games"]]) > 1:
        others = [f"'{e['end_reason']}' {pct(e['value'])}" for e in ends[1:] if e["value"] >= 0.01]
        out.append(
            f"{prefix}Most games end by '{ends[0]['end_reason']}' ({pct(ends[0]['value'])})"
            + (f"; then {', '.join(others)}." if others else ".")
        )
    drama = summary.get("drama")
    if drama:
        out.append(
            f"{prefix}The lead changes {with_interval(drama['lead_changes'], num, 'times')} per "
            f"game; another seat overtook the half-time leader and won (a comeback) in "
            f"{with_interval(drama['comeback_rate'])} of the games someone won."
        )
    return out


def _outcome_sections(runs: list[Run], summaries: list[dict[str, Any]]) -> list[Section]:
    sections = []
    label_of = {id(s): r.label for r, s in zip(runs, summaries, strict=True)}
    competitive = [s for s in summaries if "seats" in s]
    cooperative = [s for s in summaries if "success" in s]
    if competitive:
        sections.append(_seats_section(competitive, label_of))
    if cooperative:
        sections.append(_success_section(cooperative, label_of))
    sections.append(_length_section(summaries, label_of))
    sections.append(_end_section(summaries, label_of))
    dramatic = [s for s in summaries if s.get("drama")]
    if dramatic:
        sections.append(_drama_section(dramatic, label_of))
    return sections


def _seats_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    section = Section(
        "Who wins: seats",
        [
            "Win rate of each seat (seat 1 plays first) with its 95% interval: the range that "
            "holds the true rate in 95 of 100 such runs. The fair share is what every seat would "
            "win if the seat did not matter."
        ],
    )
    rows = []
    for s in summaries:
        for seat in s["seats"]["seats"]:
            rows.append(
                [
                    label_of[id(s)],
                    str(seat["seat"]),
                    seat["policy"],
                    f"{seat['wins']:,}",
                    pct(seat["value"]),
                    interval(seat),
                ]
            )
    section.add(Table(["run", "seat", "policy", "wins", "win rate", "95% interval"], rows))
    section.add(
        Table(
            ["run", "fair share", "no winner", "seat test (chi-square)", "balance", "95% interval"],
            [
                [
                    label_of[id(s)],
                    pct(s["seats"]["fair_share"]),
                    pct(s["seats"]["draw_rate"]["value"]),
                    p_value(s["seats"]["seat_test_p"]),
                    num(s["seats"]["balance"]["value"], 3),
                    interval(s["seats"]["balance"], lambda v: num(v, 3)),
                ]
                for s in summaries
            ],
            "Seat test: a small p (below 0.05) means the seats do not win equally often. "
            "Balance: 1 minus the largest gap between two seats' win rates.",
        )
    )
    shown = summaries[:MAX_GROUPED_RUNS]
    groups = [
        (
            label_of[id(s)],
            [x["value"] for x in s["seats"]["seats"]],
            [x["lo"] for x in s["seats"]["seats"]],
            [x["hi"] for x in s["seats"]["seats"]],
            s["seats"]["fair_share"],
        )
        for s in shown
    ]
    section.add(
        Figure(
            figures.grouped_seat_bars(groups),
            "Win rate by seat; black whiskers are 95% intervals, dashed lines the fair share.",
            "seats",
        )
    )
    return section


def _success_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    who = summaries[0]["run"]["success_subject"]
    word = summaries[0]["success"]["group_word"]
    section = Section(
        f"How often {who} succeeds",
        [
            "Success rate with its 95% interval, overall, by player count"
            + (f" and by {word}." if word else ".")
        ],
    )
    rows, fig_labels, fig_est = [], [], []
    for s in summaries:
        succ = s["success"]
        label = label_of[id(s)]
        rows.append(
            [
                label,
                "all",
                f"{succ['games']:,}",
                pct(succ["success"]["value"]),
                interval(succ["success"]),
            ]
        )
        fig_labels.append(f"{label}: all")
        fig_est.append(succ["success"])
        for m in succ["by_group"]:
            rows.append(
                [
                    label,
                    f"{succ['group_word']} {m['group']}",
                    f"{m['games']:,}",
                    pct(m["value"]),
                    interval(m),
                ]
            )
            fig_labels.append(f"{label}: {succ['group_word']} {m['group']}")
            fig_est.append(m)
        if len(summaries) > 1:
            for row in succ["by_players"]:
                rows.append(
                    [
                        label,
                        f"{row['n_players']} players",
                        f"{row['games']:,}",
                        pct(row["value"]),
                        interval(row),
                    ]
                )
    section.add(Table(["run", "group", "games", "success rate", "95% interval"], rows))
    fig_labels, fig_est = fig_labels[:40], fig_est[:40]
    section.add(
        Figure(
            figures.estimate_bars(fig_labels, fig_est, xlabel="success rate"),
            "Success rate; whiskers are 95% intervals.",
            "success",
        )
    )
    return section


def _length_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    unit = summaries[0]["length"]["unit"]
    section = Section(
        f"Game length ({unit})",
        [
            "Mean with its 95% interval, then the percentiles: 5% of games are shorter than the "
            "5th percentile, a quarter shorter than the 25th, half shorter than the median."
        ],
    )
    rows = []
    for s in summaries:
        length = s["length"]
        p = length["percentiles"]
        rows.append(
            [label_of[id(s)], num(length["mean"]["value"], 2), interval(length["mean"], num)]
            + [num(p[k], 1) for k in ("p5", "p25", "p50", "p75", "p95")]
            + [str(length["min"]), str(length["max"])]
        )
    section.add(
        Table(
            ["run", "mean", "95% interval", "5th", "25th", "median", "75th", "95th", "min", "max"],
            rows,
        )
    )
    shown = summaries[:4]
    section.add(
        Figure(
            figures.length_histograms(
                [(label_of[id(s)], s["length"]["histogram"], s["length"]["mean"]) for s in shown],
                unit,
            ),
            "Share of games by length; whiskers are 95% intervals of each share, the shaded band "
            "the 95% interval of the mean (dotted line).",
            "length",
        )
    )
    return section


def _end_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    section = Section(
        "How games end", ["Share of games ended by each end condition (caps included)."]
    )
    rows, labels, ests = [], [], []
    for s in summaries:
        for e in s["end_reasons"]:
            rows.append(
                [label_of[id(s)], e["end_reason"], f"{e['games']:,}", pct(e["value"]), interval(e)]
            )
            prefix = f"{label_of[id(s)]}: " if len(summaries) > 1 else ""
            labels.append(prefix + e["end_reason"])
            ests.append(e)
    section.add(Table(["run", "end condition", "games", "share", "95% interval"], rows))
    labels, ests = labels[:40], ests[:40]
    section.add(
        Figure(
            figures.estimate_bars(labels, ests, xlabel="share of games"),
            "Share of games by end condition; whiskers are 95% intervals.",
            "end-conditions",
        )
    )
    return section


def _drama_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    section = Section(
        "Drama: lead changes and comebacks",
        [
            "How often the lead changed hands during a game, and how often another seat overtook "
            "the player leading at half the game's length and won (a comeback; games nobody won "
            "are left out). The game's rules page says what 'leading' means for it."
        ],
    )
    rows = []
    for s in summaries:
        d = s["drama"]
        rows.append(
            [
                label_of[id(s)],
                num(d["lead_changes"]["value"], 2),
                interval(d["lead_changes"], lambda v: num(v, 2)),
                pct(d["no_lead_change"]["value"]),
                pct(d["comeback_rate"]["value"]),
                interval(d["comeback_rate"]),
            ]
        )
    section.add(
        Table(
            [
                "run",
                "lead changes per game",
                "95% interval",
                "games without a lead change",
                "comeback rate",
                "95% interval",
            ],
            rows,
        )
    )
    section.add(
        Figure(
            figures.estimate_bars(
                [label_of[id(s)] for s in summaries],
                [s["drama"]["comeback_rate"] for s in summaries],
                xlabel="comeback rate (half-time leader did not win)",
            ),
            "Comeback rate; whiskers are 95% intervals.",
            "comebacks",
        )
    )
    return section


# -- compare ---------------------------------------------------------------------------------
def _change_text(row: dict[str, Any], unit: str) -> str:
    if row["kind"] == "rate":
        return (
            f"{row['measure']} {points(row['diff'])} ({pct(row['base'])} to {pct(row['other'])}; "
            f"95% interval {points(row['lo'])} to {points(row['hi'])})"
        )
    return (
        f"{row['measure']} {signed(row['diff'], 2)} {unit} ({num(row['base'], 2)} to "
        f"{num(row['other'], 2)}; 95% interval {signed(row['lo'], 2)} to {signed(row['hi'], 2)})"
    )


def _compare_headline(rows: list[dict[str, Any]], runs: list[Run]) -> list[str]:
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
        else:
            biggest = max(mine, key=lambda r: abs(r["diff"]) if r["kind"] == "rate" else 0)
            out.append(
                f"Variant '{run.label}' ({what}) makes no change we can detect: none of its "
                f"differences is significant after correcting for {len(rows)} comparisons "
                f"(largest: {_change_text(biggest, unit)})."
            )
    return out


def _compare_section(rows: list[dict[str, Any]], runs: list[Run]) -> Section:
    unit = runs[0].length_unit
    paired = all(r["paired"] for r in rows)
    section = Section(
        "Variants against the default",
        [
            "Each variant's change from the default rules, with its 95% interval and p-value. "
            + (
                "Every run played the same game seeds, so each game is compared with its twin "
                "under the default rules (exact McNemar test for win and success rates, paired t "
                "test for length). "
                if paired
                else "The runs used different seeds, so they are compared as independent "
                "samples (chi-square for rates, Mann-Whitney for length). "
            )
            + f"p-values are corrected for the {len(rows)} comparisons made (Benjamini-Hochberg); "
            "'yes' marks a change unlikely to be luck."
        ],
    )
    table_rows = []
    for r in rows:
        rate = r["kind"] == "rate"
        fmt = pct if rate else (lambda v: num(v, 2))
        change = points(r["diff"]) if rate else f"{signed(r['diff'], 2)} {unit}"
        ci = (
            f"[{points(r['lo'])}, {points(r['hi'])}]"
            if rate
            else f"[{signed(r['lo'], 2)}, {signed(r['hi'], 2)}]"
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
                p_value(r["p_adjusted"]),
                "yes" if r["significant"] else "no",
            ]
        )
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
                "p corrected",
                "significant",
            ],
            table_rows,
        )
    )
    rates = [r for r in rows if r["kind"] == "rate"]
    lengths = [r for r in rows if r["kind"] == "length"]
    for chosen, name, percent, xlabel in (
        (rates, "rate-changes", True, "change in rate (variant minus default)"),
        (lengths, "length-changes", False, f"change in mean length ({unit})"),
    ):
        if not chosen:
            continue
        section.add(
            Figure(
                figures.forest(
                    [f"{r['variant']}: {r['measure']}" for r in chosen],
                    [r["diff"] for r in chosen],
                    [r["lo"] for r in chosen],
                    [r["hi"] for r in chosen],
                    xlabel,
                    percent=percent,
                    significant=[r["significant"] for r in chosen],
                ),
                "Change against the default with its 95% interval; filled dots are significant "
                "after correction.",
                name,
            )
        )
    return section


# -- sweep -----------------------------------------------------------------------------------
def _sweep_measures(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v.as_dict() for k, v in estimates(summary).items()}


def _sweep_data(runs: list[Run], summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"point": r.label, "params": r.params, "measures": _sweep_measures(s)}
        for r, s in zip(runs, summaries, strict=True)
    ]


def _main_measures(summary: dict[str, Any]) -> list[str]:
    if "success" in summary:
        return ["success"]
    n = summary["run"]["n_players"]
    return [f"seat-{s + 1}" for s in range(n)]


def _sweep_headline(runs: list[Run], summaries: list[dict[str, Any]]) -> list[str]:
    params = sweep_params(runs)
    out = [
        f"The sweep played {len(runs)} settings of {', '.join(params)}, "
        f"{runs[0].games_played():,} games each."
    ]
    if "seats" in summaries[0]:
        bal = [(r, s["seats"]["balance"]) for r, s in zip(runs, summaries, strict=True)]
        best = max(bal, key=lambda x: x[1]["value"])
        worst = min(bal, key=lambda x: x[1]["value"])
        out.append(
            f"Most balanced setting: {best[0].label}, balance "
            f"{with_interval(best[1], lambda v: num(v, 3))}; least balanced: {worst[0].label}, "
            f"{with_interval(worst[1], lambda v: num(v, 3))}."
        )
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
    out.append(
        f"Mean length ranges from {with_interval(short[1], num, unit)} ({short[0].label}) to "
        f"{with_interval(long[1], num, unit)} ({long[0].label})."
    )
    return out


def _sweep_sections(runs: list[Run], summaries: list[dict[str, Any]]) -> list[Section]:
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
    extra = [m for m in ("draw", "balance", "comeback") if m in estimates(summaries[0])]
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
        "draw": "no winner",
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
def _pooled_seats(runs: list[Run]) -> dict[str, Any]:
    """Seat win rates over all rotations: each policy held each seat equally often."""
    n = runs[0].n_players
    wins, games, no_winner = [0] * n, 0, 0
    for run in runs:
        c = seat_counts(run.scan(), n)
        wins = [a + b for a, b in zip(wins, c["wins"], strict=True)]
        games += c["games"]
        no_winner += c["no_winner"]
    return {
        "games": games,
        "seats": [
            {"seat": s + 1, "wins": wins[s], **proportion(wins[s], games).as_dict()}
            for s in range(n)
        ],
        "fair_share": (games - no_winner) / games / n if games else None,
        "seat_test_p": uniform_seat_test(wins),
    }


def _tournament_headline(pol: dict[str, Any], pooled: dict[str, Any]) -> list[str]:
    out = []
    ranked = sorted(pol["policies"], key=lambda r: -r["value"])
    best = ranked[0]
    out.append(
        f"Strongest policy: {best['policy']}, winning {with_interval(best)} of the seats it "
        f"held, against a fair share of {pct(pol['fair_share'])}."
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
    out.append(
        f"With every policy rotated through every seat, seat {seat['seat']} wins most often, "
        f"{with_interval(seat)}; seat test {p_value(pooled['seat_test_p'])}."
    )
    return out


def _tournament_section(pol: dict[str, Any], pooled: dict[str, Any]) -> Section:
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
                [r["policy"], f"{r['slots']:,}", f"{r['wins']:,}", pct(r["value"]), interval(r)]
                for r in pol["policies"]
            ],
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
                [str(s["seat"]), f"{s['wins']:,}", pct(s["value"]), interval(s)]
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
def _targets(targets: list[Target], runs: list[Run], summaries: list[dict]) -> list[dict]:
    rows = []
    for run, s in zip(runs, summaries, strict=True):
        for row in check_targets(targets, estimates(s), run.n_players):
            rows.append({"run": run.label, **row})
    return rows


def _fmt_target_value(measure: str, v: float | None) -> str:
    if measure in ("length", "lead-changes"):
        return num(v, 2)
    if measure == "balance":
        return num(v, 3)
    return pct(v)


def _targets_headline(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in rows:
        fmt = lambda v, m=r["measure"]: _fmt_target_value(m, v)  # noqa: E731
        est = (
            f"{fmt(r['value'])} (95% interval {fmt(r['lo'])} to {fmt(r['hi'])})"
            if r["value"] is not None
            else "not measured for this game"
        )
        out.append(f"Target {r['target']} ({r['run']}): {r['verdict']}; the run gives {est}.")
    return out


def _targets_section(rows: list[dict[str, Any]]) -> Section:
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
                        f"{_fmt_target_value(r['measure'], r['low'])} to "
                        f"{_fmt_target_value(r['measure'], r['high'])}",
                        _fmt_target_value(r["measure"], r["value"]),
                        f"[{_fmt_target_value(r['measure'], r['lo'])}, "
                        f"{_fmt_target_value(r['measure'], r['hi'])}]",
                        r["verdict"],
                    ]
                    for r in rows
                ],
            )
        ],
    )


# -- sections written elsewhere --------------------------------------------------------------
MAX_BOARD_RUNS = 3  # heatmaps drawn for at most this many runs of a report


def _board_sections(runs: list[Run]) -> list[Section]:
    """The game's heatmaps (``GameSpec.heatmaps``) on its board, one section per column."""
    by_column: dict[str, Section] = {}
    for run in runs[:MAX_BOARD_RUNS]:
        games = run.games_played()
        for hm in heatmaps(run):
            total = int(hm["totals"].sum())
            section = by_column.setdefault(
                hm["column"],
                Section(
                    f"On the board: {hm['caption']}",
                    [
                        f"Each cell's colour is its mean count per game (column "
                        f"`{hm['column']}`); grey cells never saw one. A cell's count over n "
                        "games is a sum of per-game counts, so its relative error is about "
                        "1/sqrt(count): the table gives the busiest cells with their counts."
                    ],
                ),
            )
            per_game = hm["totals"] / max(games, 1)
            label = f"{run.label}: " if len(runs) > 1 else ""
            section.add(
                Figure(
                    figures.board_heatmap(hm["board"], per_game, hm["caption"]),
                    f"{label}{hm['caption']}, {total:,} in {games:,} games.",
                    f"board-{hm['column']}",
                )
            )
            top = np.argsort(-hm["totals"])[:8]
            cells = hm["board"].cells
            section.add(
                Table(
                    ["run", "cell", "kind", "count", "per game"],
                    [
                        [
                            run.label,
                            cells[i].label or str(i),
                            cells[i].kind,
                            f"{int(hm['totals'][i]):,}",
                            num(float(per_game[i]), 3),
                        ]
                        for i in top
                        if hm["totals"][i] > 0
                    ],
                )
            )
    return list(by_column.values())


def _extra_sections(runs: list[Run]) -> list[Section]:
    """The game's own sections (``GameSpec.report_sections``, "module:function" taking the
    report's runs). A hook that fails says so in the report instead of vanishing."""
    spec = runs[0].spec
    if spec is None or spec.report_sections is None:
        return []
    module, _, name = spec.report_sections.partition(":")
    try:
        return _as_sections(getattr(importlib.import_module(module), name)(runs))
    except Exception as exc:  # noqa: BLE001 - a broken game section must not lose the report
        return [
            Section(
                f"{spec.title}: game-specific sections",
                [f"These sections could not be built ({type(exc).__name__}: {exc})."],
            )
        ]


def _as_sections(result: Any) -> list[Section]:
    if result is None:
        return []
    if isinstance(result, Section):
        return [result]
    if isinstance(result, list | tuple):
        return [s for r in result for s in _as_sections(r)]
    return []


def _how_to_read(kind: str) -> Section:
    return Section(
        "How to read this report",
        [
            "Every number comes from simulated games, so it carries some luck. The 95% interval "
            "next to a number is the range that would contain the true value in 95 of 100 "
            "repetitions of the whole run; more games make it narrower.",
            "A p-value is the chance of seeing a difference at least this large if nothing "
            "really differed; below 0.05 we call a difference significant. When many "
            "differences are tested at once, p-values are corrected so that luck does not "
            "produce false alarms.",
            "Win-rate intervals are Wilson intervals; the seat test is a chi-square test of equal "
            "wins among seats; mean-length intervals are t intervals; the balance interval is a "
            "bootstrap over games.",
        ],
    )


# -- writing ---------------------------------------------------------------------------------
FORMATS = ("html", "md")


def write_report(
    paths: list[str | Path],
    out: str | Path,
    *,
    fmt: str = "html",
    targets: list[Target] | None = None,
) -> dict[str, Any]:
    """Write the report to ``out`` and return its figures (what ``--json`` prints).

    HTML is one self-contained file; Markdown links figures written to ``<out stem>_figures/``.
    """
    from .html import render_html
    from .markdown import render_markdown

    if fmt not in FORMATS:
        raise BalanceError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    doc, data = build(paths, targets)
    out = Path(out)
    if out.is_dir():
        raise BalanceError(f"--out {str(out)!r} is a folder; give a file name such as report.html")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "html":
            out.write_text(render_html(doc), encoding="utf-8")
        else:
            figures_dir = out.with_name(out.stem + "_figures")
            text, files = render_markdown(doc, figures_dir)
            figures_dir.mkdir(exist_ok=True)
            for rel, png in files.items():
                (out.parent / rel).write_bytes(png)
            out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BalanceError(f"cannot write the report to {str(out)!r}: {exc.strerror}") from None
    data["report"] = str(out)
    return data
