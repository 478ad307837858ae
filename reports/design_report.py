"""The report of ``balance design`` (``report.html`` under its folder): the verdict on fresh
seeds, what was searched, the search history and each target against each option."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

from analyses.design import option_table, shortfall_history
from analyses.targets import MEETS, parse_target
from simulator.contract.errors import BalanceError
from simulator.folders.study_folders import read_design

from .document import Document, Figure, Section, Table
from .figures import COLORS, WIDTH, _png, legend_beside, plt
from .study_sections import target_range, target_value_text
from .text import SEARCH_METHODS, rules_text


def _range_text(target: str) -> str:
    t = parse_target(target)
    finite = {"low": t.low, "high": t.high}
    return target_range(
        {"measure": t.name, **{k: v if math.isfinite(v) else None for k, v in finite.items()}}
    )


def _estimate_text(target: str, est: dict[str, Any] | None) -> str:
    if est is None:
        return "not measured"
    name = parse_target(target).name
    fmt = lambda v: target_value_text(name, v)  # noqa: E731
    return f"{fmt(est['value'])} [{fmt(est['lo'])}, {fmt(est['hi'])}]"


def _difference_text(target: str, d: dict[str, Any] | None) -> str:
    if d is None:
        return "-"
    t, c = parse_target(target), d["change"]
    if t.is_share:
        return f"{c['value'] * 100:+.1f} points [{c['lo'] * 100:+.1f}, {c['hi'] * 100:+.1f}]"
    return f"{c['value']:+.2f} [{c['lo']:+.2f}, {c['hi']:+.2f}]"


def _games_text(plan: dict[str, Any], per_seating: int) -> str:
    """A candidate's games: ``1,000 games``, or ``2 seatings x 500 games`` when rotated."""
    if not plan.get("rotate"):
        return f"{per_seating:,} games"
    seatings = len(plan["lineups"])
    return f"{seatings * per_seating:,} games ({seatings} seatings x {per_seating:,})"


def setting_words(values: dict[str, Any], start: dict[str, Any]) -> str:
    """What a setting changes, with the starting value in brackets."""
    moved = [
        f"{k} = {_plain(v)} (was {_plain(start.get(k))})"
        for k, v in values.items()
        if v != start.get(k)
    ]
    return ", ".join(moved) or "the starting rules"


def _plain(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def verdict_sentences(data: dict[str, Any]) -> list[str]:
    """The headline: the best setting and each target's verdict on fresh seeds, or, when no
    setting in the ranges meets every target, the closest one and what held it back."""
    plan, start, best = data["plan"], data["default"], data.get("best")
    games = plan["check_games"] * len(plan["lineups"])
    start_name = "the starting rules" + (
        "" if plan["start_name"] == "default" else f" ({plan['start_name']})"
    )
    out = []
    start_verdicts = "; ".join(
        f"{t}: {v}, {_estimate_text(t, start['figures'][t])}" for t, v in start["verdicts"].items()
    )
    if best is None:
        others = [t for t in data["trials"] if t["number"] > 0]
        if others and all(t.get("refused") for t in others):
            out.append(
                "No candidate other than the starting rules could be played (the rules refused "
                "every other combination searched); widen or change the ranges."
            )
        else:
            out.append(
                "The search proposed no setting other than the starting rules; widen the ranges "
                "or give more --trials."
            )
        out.append(f"The starting rules on {games:,} fresh games: {start_verdicts}.")
        return out
    if data.get("start_met_every_target"):
        out.append(
            f"T{start_name[1:]} already meet every target on {games:,} fresh games; the "
            "settings below are alternatives that meet them too, or come closest."
        )
    start_values = {k["name"]: start_value(data, k["name"]) for k in plan["knobs"]}
    words = setting_words(best["values"], start_values)
    verdicts = "; ".join(
        f"{t}: {v}, {_estimate_text(t, best['figures'][t])}" for t, v in best["verdicts"].items()
    )
    if data["met_every_target"]:
        out.append(
            f"Best setting: {words}. On {games:,} fresh games it meets every target ({verdicts})."
        )
    else:
        held = ", ".join(data["held_back_by"])
        out.append(
            f"No setting in the ranges searched met every target on {games:,} fresh games (the "
            f"{len(data['settings'])} closest of {len(data['trials'])} candidates were played "
            f"again). The closest: {words} ({verdicts}); held back by {held}."
        )
    out.append(f"For comparison, {start_name} on the same fresh games: {start_verdicts}.")
    if best.get("variant_file"):
        out.append(f"Variant file of the best setting: {best['variant_file']}.")
    return out


def start_value(data: dict[str, Any], name: str) -> Any:
    """The value an option had in the rules the search started from."""
    trials = [t for t in data["trials"] if t["number"] == 0]
    if trials:
        return trials[0]["values"][name]
    return None


# -- figures ---------------------------------------------------------------------------------
def history_figure(data: dict[str, Any]) -> bytes:
    short = shortfall_history(data)
    x = np.arange(1, len(short) + 1)
    fig, ax = plt.subplots(figsize=(WIDTH, 3.0))
    met = short == 0
    ax.plot(x[~met], short[~met], "o", color=COLORS[0], label="short of a target")
    ax.plot(x[met], short[met], "o", color=COLORS[2], label="meets every target (search games)")
    best = np.fmin.accumulate(np.where(np.isnan(short), np.inf, short))
    ax.step(
        x, np.where(np.isinf(best), np.nan, best), where="post", color="grey", label="best so far"
    )
    ax.set_xlabel("candidate")
    ax.set_ylabel("total shortfall")
    legend_beside(ax)
    return _png(fig)


def option_figure(data: dict[str, Any], option: str, points: list[tuple[Any, dict, bool]]) -> bytes:
    targets = data["plan"]["targets"]
    fig, axes = plt.subplots(1, len(targets), figsize=(WIDTH, 2.6), squeeze=False)
    for ax, text in zip(axes[0], targets, strict=True):
        t = parse_target(text)
        shown = [(v, f[text], c) for v, f, c in points if f.get(text) is not None]
        if not shown:
            continue
        xs = [v if isinstance(v, str) else float(v) for v, _, _ in shown]
        ys = [e["value"] for _, e, _ in shown]
        lo = [e["value"] - e["lo"] for _, e, _ in shown]
        hi = [e["hi"] - e["value"] for _, e, _ in shown]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="lightgrey", zorder=1)
        for checked, colour, z in ((False, COLORS[0], 2), (True, COLORS[3], 3)):
            at = [i for i, (_, _, c) in enumerate(shown) if c == checked]
            ax.scatter([xs[i] for i in at], [ys[i] for i in at], color=colour, s=14, zorder=z)
        edges = [b for b in (t.low, t.high) if math.isfinite(b)]
        extent = [y - e for y, e in zip(ys, lo, strict=True)]
        extent += [y + e for y, e in zip(ys, hi, strict=True)] + edges
        pad = 0.05 * ((max(extent) - min(extent)) or 1.0)
        bottom, top = min(extent) - pad, max(extent) + pad
        ax.set_ylim(bottom, top)
        ax.axhspan(max(t.low, bottom), min(t.high, top), color=COLORS[2], alpha=0.15, zorder=0)
        if t.is_share:
            ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
        ax.set_title(text, fontsize=8)
        ax.set_xlabel(option, fontsize=8)
        ax.tick_params(labelsize=7)
    return _png(fig)


# -- the document ----------------------------------------------------------------------------
def design_document(path: str | Path) -> tuple[Document, dict[str, Any]]:
    data = read_design(path)
    if data is None or "trials" not in data:
        raise BalanceError(f"{str(path)!r} is not a finished design folder (no results)")
    plan = data["plan"]
    headline = verdict_sentences(data)
    targets = plan["targets"]
    columns = ["target", "range", "starting rules", "verdict"]
    rows = [
        [
            t,
            _range_text(t),
            _estimate_text(t, data["default"]["figures"][t]),
            data["default"]["verdicts"][t],
        ]
        for t in targets
    ]
    for i, s in enumerate(data["settings"], 1):
        columns += [f"setting {i}", "verdict", "setting - start"]
        for row, t in zip(rows, targets, strict=True):
            row += [
                _estimate_text(t, s["figures"][t]),
                s["verdicts"][t],
                _difference_text(t, s["differences"].get(t)),
            ]
    verdict = Section(
        "Verdict on fresh seeds",
        [
            "The search chose these settings on its own games, which flatters them; so they and "
            "the starting rules were played again on fresh games, and every verdict below comes "
            "from those games only: meets when the whole 95% interval lies in the target's "
            "range, misses when it lies wholly outside, cannot tell yet otherwise."
        ],
    )
    verdict.add(
        Table(
            columns,
            rows,
            f"Every figure from {_games_text(plan, plan['check_games'])} per setting, fresh "
            f"(run seed "
            f"{plan['check_seed']}), the same games for every setting: 95% intervals; a target is "
            "met when the whole interval lies in its range. The last column of a setting is its "
            "paired difference from the starting rules.",
        )
    )
    start_values = {k["name"]: start_value(data, k["name"]) for k in plan["knobs"]}
    verdict.add(
        Table(
            ["setting", "changes", "targets met", "variant file"],
            [
                [
                    str(i),
                    setting_words(s["values"], start_values),
                    f"{sum(v == MEETS for v in s['verdicts'].values())} of {len(targets)}",
                    s.get("variant_file", "-"),
                ]
                for i, s in enumerate(data["settings"], 1)
            ],
            "Settings checked, best first (most targets met, fewest missed, smallest change).",
        )
    )
    tune = (
        f" Under every candidate, {plan['tune']} was first tuned to the candidate's rules "
        f"({plan['tune_trials']} tune candidates of {plan['tune_games']:,} games each), so no "
        "rule setting is judged by play fitted to other rules."
        if plan.get("tune")
        else ""
    )
    refused = sum(1 for t in data["trials"] if t.get("refused"))
    what = Section(
        "What was searched",
        [
            f"{plan['game']} at {plan['n_players']} players, seats {', '.join(plan['policies'])}"
            + (", rotated so every policy holds every seat equally often" if plan["rotate"] else "")
            + f", starting from {rules_text(plan['start'])}.{tune}",
            f"{plan['trials']} candidates proposed by a search that tries next the settings "
            f"most like the best so far (seed {plan['seed']}, "
            f"{plan['batch']} at a time), the starting rules first; each played "
            f"{_games_text(plan, plan['games'])} on the same game seeds. A candidate's shortfall "
            "is how far each estimate lies outside its target (in tens of points for a share, "
            "tenths of the bound otherwise), summed; among candidates with none, the search "
            "prefers the smallest change from the starting rules."
            + (
                f" {refused} candidate(s) were refused by the rules' own checks." if refused else ""
            ),
            f"{data['games_total']:,} games in all ({data['games_played_now']:,} played by the "
            f"last command), {data['wall_seconds']:,.0f} s of wall time on {data['backend']}.",
        ],
    )
    if plan.get("explore"):
        what.paragraphs.append(
            f"Options and ranges: those the explore in {plan['explore']} ranked highest for the "
            "targets' figures (its intervals clear of zero), over the ranges it screened."
        )
    what.add(
        Table(
            ["option", "searched", "start"],
            [
                [
                    k["name"],
                    ", ".join(map(_plain, k["values"]))
                    if k["values"]
                    else f"{_plain(k['lo'])} to {_plain(k['hi'])}",
                    _plain(start_values[k["name"]]),
                ]
                for k in plan["knobs"]
            ],
        )
    )
    history = Section(
        "Search history",
        ["Each candidate's total shortfall on the search's games (0: every target met there)."],
    )
    history.add(Figure(history_figure(data), "Total shortfall per candidate.", "history"))
    history.add(
        Table(
            ["candidate", "setting", *targets, "shortfall"],
            [
                [
                    str(t["number"] + 1),
                    t["label"] if not t.get("refused") else f"{t['values']} (refused)",
                    *[
                        _estimate_text(x, t["figures"][x]) if not t.get("refused") else "-"
                        for x in targets
                    ],
                    f"{sum(t['shortfalls']):.2f}" if not t.get("refused") else "-",
                ]
                for t in data["trials"]
            ],
            "Search games (they chose the best settings and flatter them): 95% intervals.",
        )
    )
    options = Section(
        "Each target against each option",
        [
            "Every candidate's estimate against the value it gave each option (the other options "
            "vary too); the band is the target's range; red points are settings checked again."
        ],
    )
    for option, points in option_table(data).items():
        options.add(Figure(option_figure(data, option, points), f"{option}.", f"opt-{option}"))
    doc = Document(
        f"Design: {plan['game']}",
        f"{plan['trials']} candidates x {_games_text(plan, plan['games'])}; generated "
        f"{str(data.get('finished', ''))[:10]}",
        headline,
        [verdict, what, history, options, Section("Methods", [SEARCH_METHODS])],
    )
    return doc, data


def write_design_report(path: str | Path, fmt: str = "html") -> Path:
    from .build import write_document

    doc, _ = design_document(path)
    return write_document(doc, Path(path) / f"report.{fmt}", fmt)
