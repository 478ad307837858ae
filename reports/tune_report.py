"""The report of a tune (``report.html`` under its folder) and the adapted-play section of a
comparison made with ``compare --tune``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

from analyses.tuning import dominance
from simulator.contract.errors import BalanceError
from simulator.folders.study_folders import read_tune

from .document import Document, Figure, Section, Table
from .figures import COLORS, WIDTH, _errors, _png, interval_bars, legend_beside, plt
from .text import (
    SEARCH_METHODS,
    interval,
    num,
    p_value,
    pct,
    points,
    rules_text,
    signed,
    with_interval,
)


def setting_text(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in params.items()) or "(no parameters)"


def changed_text(best: dict[str, Any], defaults: dict[str, Any]) -> str:
    """Only what the best setting changed, with the default in brackets."""
    moved = [f"{k}={v:g} (default {defaults[k]:g})" for k, v in best.items() if v != defaults[k]]
    return ", ".join(moved) or "the defaults"


def change_text(change: dict[str, float]) -> str:
    """A change in points with its interval in brackets."""
    return f"{points(change['value'])} [{points(change['lo'])}, {points(change['hi'])}]"


def _by_return(data: dict[str, Any]) -> bool:
    return data.get("objective") == "return"


def _value(data: dict[str, Any], x: float | None) -> str:
    """A tuned seat's outcome: a win rate in percent, or a mean return."""
    return signed(x, 2) if _by_return(data) else pct(x)


def _change(data: dict[str, Any], x: float | None, unit: bool = True) -> str:
    """A change of it: percentage points, or the return's change (``unit``: "a game" after it)."""
    if _by_return(data):
        return signed(x, 2) + (" a game" if unit else "")
    return points(x)


def _with_interval(data: dict[str, Any], est: dict[str, Any]) -> str:
    return with_interval(est, fmt=num) if _by_return(data) else with_interval(est)


def verdict(data: dict[str, Any]) -> str:
    s, c = data["summary"], data["check"]
    measure = data["measure"]
    d = c["difference"]["change"]
    if s["best_params"] == s["default_params"]:
        return (
            f"No setting tried beat the defaults of {s['policy']}: they stay best, with a "
            f"{measure} of {_with_interval(data, c['defaults'])} on {c['games']:,} fresh games."
        )
    sure = (
        "better than the defaults"
        if d["lo"] > 0
        else ("worse than the defaults" if d["hi"] < 0 else "not distinguishable from the defaults")
    )
    return (
        f"Best setting of {s['policy']}: {changed_text(s['best_params'], s['default_params'])}. "
        f"On {c['games']:,} fresh games its {measure} is {_with_interval(data, c['best'])} "
        f"against {_with_interval(data, c['defaults'])} for the defaults: "
        f"{_change(data, d['value'])} (95% interval {_change(data, d['lo'], False)} to "
        f"{_change(data, d['hi'], False)}, {p_value(c['difference']['p_value'])}), {sure}."
    )


def edge_sentences(data: dict[str, Any]) -> list[str]:
    """One sentence per parameter whose best value lies at an end of the range searched
    (``simulator.studies.tuning.at_edge``): a better setting may lie beyond it, unless the policy
    allows nothing there."""
    out = []
    for e in data["summary"].get("at_edge", []):
        where = (
            f"{e['name']}={e['value']:g} lies at the {e['end']} end of the range searched "
            f"({e['lo']:g} to {e['hi']:g})"
        )
        if e["limit"]:
            out.append(f"{where}, a limit of the policy: nothing beyond it can be played.")
        else:
            lo, hi = e["beyond"]
            out.append(
                f"{where}: a better setting may lie beyond it; search there with "
                f"--param {e['name']}={lo:g}:{hi:g}."
            )
    return out


def dominance_sentences(data: dict[str, Any], dom: dict[str, Any]) -> list[str]:
    out = []
    fair = dom["fair_share"]
    policy = data["summary"]["policy"]
    if fair is None and _by_return(data):
        out.append(
            "A return has no fair share to be above (the game's objective is the return); only "
            "the settings are compared."
        )
    elif fair is None:
        out.append(
            "A cooperative game has no opponents to dominate; only the settings are compared."
        )
    elif dom["above_fair_share_everywhere"]:
        out.append(
            f"Dominant against the field: the best {policy} wins more than a fair share "
            f"({pct(fair)}) in every seat against every policy of the field (the lower end of "
            "every 95% interval is above it, on fresh seeds). A designer should ask whether that "
            "strategy leaves the others any reason to be played."
        )
    else:
        weak = [r["seating"] for r in data["check"]["by_seating"] if not r["best"]["lo"] > fair]
        out.append(
            f"Not dominant against the field: in {len(weak)} of "
            f"{len(data['check']['by_seating'])} seatings ({', '.join(weak)}) the best {policy} "
            f"is not surely above a fair share ({pct(fair)})."
        )
    alt = dom["alternatives"]
    n_alt = alt[0]["alternatives"] if alt else 0
    if n_alt == 0:
        out.append("No other candidate was played in full, so no alternative can be compared.")
    elif dom["significantly_everywhere"]:
        out.append(
            f"Against the {n_alt} other settings played in full, the best setting is ahead in "
            "every seating, significantly each time (paired intervals above zero, corrected for "
            f"the {n_alt} comparisons; search seeds): one setting dominates every alternative "
            "tried."
        )
    elif dom["beats_every_alternative_everywhere"]:
        out.append(
            f"The best setting is ahead of all {n_alt} other settings played in full in every "
            "seating, but not significantly against all of them: close settings are about as "
            "good (see the closest rival per seating below)."
        )
    elif dom["never_beaten"]:
        tied = max(a["tied"] for a in alt)
        out.append(
            f"No other setting tried beats the best one in any seating, but up to {tied} of the "
            f"{n_alt} score exactly as well on the same games (the parameters they change "
            "make no difference there), so the best setting is one of a family, not unique."
        )
    elif dom["never_significantly_beaten"]:
        out.append(
            "In some seating another setting tried scores higher than the best one overall, "
            "never significantly: no setting is shown to dominate, and none to beat it."
        )
    else:
        beaten = [a["seating"] for a in alt if a["significantly_behind"]]
        out.append(
            "No setting dominates: in "
            + ", ".join(beaten)
            + " another setting tried does significantly better than the best one overall "
            "(different seats favour different settings)."
        )
    return out


# -- figures ---------------------------------------------------------------------------------
def _rate_errors(
    data: dict[str, Any], trials: list[dict[str, Any]]
) -> tuple[np.ndarray, np.ndarray]:
    from analyses.stats import outcome_mean

    unbounded = _by_return(data)
    ests = [
        outcome_mean(t["wins"], t["games"], t.get("squares") or t["wins"], unbounded)
        for t in trials
    ]
    rates = np.array([e.value for e in ests])
    return rates, _errors(rates, [e.lo for e in ests], [e.hi for e in ests])


def history_figure(data: dict[str, Any]) -> bytes:
    trials = data["trials"]
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4))
    for state, marker, color in (("complete", "o", COLORS[0]), ("pruned", "x", "grey")):
        mine = [t for t in trials if t["state"] == state]
        if not mine:
            continue
        rates, err = _rate_errors(data, mine)
        x = [t["number"] + 1 for t in mine]
        ax.errorbar(
            x,
            rates,
            yerr=err,
            fmt=marker,
            color=color,
            ecolor=color,
            alpha=0.7,
            capsize=2,
            label=f"{state} ({len(mine)})",
        )
    best_so_far, top = [], -math.inf
    for t in trials:
        if t["state"] == "complete":
            top = max(top, t["win_rate"])
        best_so_far.append(top if math.isfinite(top) else np.nan)
    ax.step(
        [t["number"] + 1 for t in trials],
        best_so_far,
        where="post",
        color="firebrick",
        label="best so far",
    )
    ax.set_xlabel("candidate")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_ylabel(f"{data['measure']} (search seeds)")
    if not _by_return(data):
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    legend_beside(ax)
    return _png(fig)


def parameter_figure(data: dict[str, Any], knob: dict[str, Any]) -> bytes:
    name = knob["name"]
    trials = data["trials"]
    fig, ax = plt.subplots(figsize=(WIDTH, 3.0))
    for state, marker, color in (("complete", "o", COLORS[0]), ("pruned", "x", "grey")):
        mine = [t for t in trials if t["state"] == state]
        if not mine:
            continue
        rates, err = _rate_errors(data, mine)
        ax.errorbar(
            [t["params"][name] for t in mine],
            rates,
            yerr=err,
            fmt=marker,
            color=color,
            ecolor=color,
            alpha=0.7,
            capsize=2,
            label=state,
        )
    s = data["summary"]
    ax.axvline(s["default_params"][name], color="grey", linestyle="--", label="default")
    ax.axvline(s["best_params"][name], color="firebrick", linestyle=":", label="best")
    if knob["log"]:
        ax.set_xscale("log")
    ax.set_xlabel(f"{name} (searched {knob['lo']:g} to {knob['hi']:g})")
    ax.set_ylabel(data["measure"])
    if not _by_return(data):
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    legend_beside(ax)
    return _png(fig)


# -- the document ----------------------------------------------------------------------------
def tune_document(path: str | Path) -> tuple[Document, dict[str, Any]]:
    data = read_tune(path)
    if data is None:
        raise BalanceError(f"{str(path)!r} is not a tune folder (no tune.json)")
    plan, s, c = data["plan"], data["summary"], data["check"]
    dom = dominance(path, data)
    measure = data["measure"]
    rules = rules_text(dict(kv.split("=", 1) for kv in plan["sets"]))
    if plan.get("variant_file"):
        rules = f"variant '{plan['variant']}'" + ("" if not plan["sets"] else f", {rules}")
    field = ", ".join(plan["field"]) or "none (every seat plays the tuned policy)"
    pruned = sum(1 for t in data["trials"] if t["state"] == "pruned")
    what = Section(
        "What was tuned",
        [
            f"Policy {s['policy']} of {s['game']} at {plan['n_players']} players under {rules}, "
            f"starting from {plan['base']}; field: {field}. Seatings: "
            f"{'; '.join(plan['seatings'])}.",
            f"{s['trials']} candidates proposed by a search that tries next the settings "
            f"most like the best so far (seed {plan['seed']}), "
            f"{plan['batch']} at a time; each candidate plays {s['games_per_trial']:,} games "
            f"({plan['games_per_seating']:,} per seating) on the same game seeds, in quarters; "
            + (
                "1 weak candidate was stopped"
                if pruned == 1
                else f"{pruned} weak candidates were stopped"
            )
            + " after a quarter or more (median rule). "
            f"{data['games_total']:,} games in all ({data['games_played_now']:,} played by the "
            f"last command), {data['wall_seconds']:,.0f} s of wall time on {data['backend']}.",
        ],
    )
    what.add(
        Table(
            ["parameter", "searched from", "to", "kind", "default", "best"],
            [
                [
                    k["name"],
                    f"{k['lo']:g}",
                    f"{k['hi']:g}",
                    "whole number" if k["integer"] else ("log scale" if k["log"] else "number"),
                    f"{s['default_params'][k['name']]:g}",
                    f"{s['best_params'][k['name']]:g}",
                ]
                for k in plan["knobs"]
            ],
        )
    )
    verdict_section = Section(
        "Verdict: the best setting against the defaults, on fresh seeds",
        [
            verdict(data),
            *edge_sentences(data),
            f"The best candidate scored {_value(data, data['search_win_rate'])} on the search "
            "seeds; "
            "seeds that chose it flatter it (the winner's curse), so both settings were played "
            f"again on {c['games']:,} fresh games (run seed {c['seed']}), paired game by game.",
        ],
    )
    verdict_section.add(
        Figure(
            interval_bars(
                ["best setting", "defaults"],
                [c["best"]["value"], c["defaults"]["value"]],
                [c["best"]["lo"], c["defaults"]["lo"]],
                [c["best"]["hi"], c["defaults"]["hi"]],
                xlabel=f"{measure} on fresh seeds",
                reference=c["fair_share"],
                reference_label="fair share",
                percent=not _by_return(data),
            ),
            f"{measure.capitalize()} on fresh seeds; whiskers: 95% intervals.",
            "verdict",
        )
    )
    history = Section(
        "Search history",
        [
            "Each candidate's score on the search seeds (whiskers: 95% intervals); pruned "
            "candidates are scored on the games they played."
        ],
    )
    history.add(Figure(history_figure(data), "Candidates in the order proposed.", "history"))
    ranked = sorted(data["trials"], key=lambda t: (t["state"] != "complete", -t["win_rate"]))
    history.add(
        Table(
            ["candidate", "setting", "state", measure, "games"],
            [
                [
                    str(t["number"] + 1),
                    setting_text(t["params"]),
                    t["state"],
                    _value(data, t["win_rate"]),
                    f"{t['games']:,}",
                ]
                for t in ranked[:15]
            ],
            "The 15 best candidates (complete ones first); search seeds.",
        )
    )
    effects = Section(
        "Each parameter's effect",
        [
            "Score against each parameter's value, all other parameters as each candidate had "
            "them: a clear slope means the parameter matters under these rules, a flat cloud that "
            "it hardly does."
        ],
    )
    for k in plan["knobs"]:
        effects.add(
            Figure(
                parameter_figure(data, k),
                f"{k['name']}: each candidate's {measure} (95% intervals).",
                f"param-{k['name']}",
            )
        )
    dom_section = Section("Dominant strategy", dominance_sentences(data, dom))
    dom_section.add(
        Table(
            ["seating", "best", "interval", "defaults", "interval", "best - defaults", "interval"],
            [
                [
                    r["seating"],
                    _value(data, r["best"]["value"]),
                    interval(r["best"], fmt=lambda x: _value(data, x)),
                    _value(data, r["defaults"]["value"]),
                    interval(r["defaults"], fmt=lambda x: _value(data, x)),
                    _change(data, r["difference"]["change"]["value"]),
                    f"[{_change(data, r['difference']['change']['lo'])}, "
                    f"{_change(data, r['difference']['change']['hi'])}]",
                ]
                for r in c["by_seating"]
            ],
            f"{measure.capitalize()} by seating on fresh seeds"
            + (f"; fair share {pct(c['fair_share'])}." if c["fair_share"] else "."),
        )
    )
    dom_section.add(
        Table(
            [
                "seating",
                "alternatives",
                "best ahead of",
                "significantly",
                "tied",
                "behind",
                "significantly behind",
                "closest rival",
                "best - rival",
            ],
            [
                [
                    a["seating"],
                    str(a["alternatives"]),
                    str(a["ahead"]),
                    str(a["significantly_ahead"]),
                    str(a["tied"]),
                    str(a["behind"]),
                    str(a["significantly_behind"]),
                    setting_text(a["closest"]["params"]) if a["closest"] else "-",
                    change_text(a["closest"]["change"]) if a["closest"] else "-",
                ]
                for a in dom["alternatives"]
            ],
            "The best setting against every other fully played candidate, paired on the search "
            "seeds (which chose it, so they flatter it); intervals corrected for the number of "
            "candidates compared.",
        )
    )
    headline = [verdict(data)] + edge_sentences(data) + dominance_sentences(data, dom)
    doc = Document(
        f"Tune: {s['policy']} in {s['game']}",
        f"{s['trials']} candidates x {s['games_per_trial']:,} games; generated "
        f"{data.get('finished', '')[:10]}",
        headline,
        [
            verdict_section,
            what,
            history,
            effects,
            dom_section,
            Section("Methods", [SEARCH_METHODS]),
        ],
    )
    return doc, data | {"dominance": dom}


def write_tune_report(path: str | Path) -> Path:
    from .html import render_html

    doc, _ = tune_document(path)
    out = Path(path) / "report.html"
    out.write_text(render_html(doc), encoding="utf-8")
    return out


# -- compare --tune --------------------------------------------------------------------------
ADAPTED_FILE = "adapted.json"


def adapted_play(study_path: str | Path) -> tuple[list[str], Section, dict[str, Any]] | None:
    """``compare --tune``: the play every run of the comparison assumes, stated once (headline),
    the section on the tunes behind it, and the same as JSON. The variants' effects reported
    above are effects under that adapted play; this section adds, on the tunes' own fresh games,
    whether the variant's effect on the tuned policy would differ with the policy at its
    defaults, and says so in the headline only when the data separate the two."""
    import json

    from analyses.tuning import adapted_effects

    f = Path(study_path) / ADAPTED_FILE
    if not f.is_file():
        return None
    adapted = json.loads(f.read_text())
    policy = adapted["policy"]
    tunes = []
    for entry in adapted["variants"]:
        path = Path(study_path) / entry["tune"]
        data = read_tune(path)
        if data is None:
            raise BalanceError(f"the tune of {entry['label']!r} is missing from {str(path)!r}")
        tunes.append((entry, path, data))
    (_, base_path, base_data), others = tunes[0], tunes[1:]
    effects = adapted_effects((base_path, base_data), [(e["label"], p, d) for e, p, d in others])
    settings = "; ".join(
        f"under {'the default rules' if e['label'] == 'default' else e['rules']}: "
        + changed_text(d["summary"]["best_params"], d["summary"]["default_params"])
        for e, _, d in tunes
    )
    field = ", ".join(base_data["plan"]["field"])
    play = (
        f"Play assumed by every run of this comparison: {policy} tuned to the rules of its own run "
        f"(adapted play; {settings}); every other seat as given. The comparison's effects are "
        "effects under that play."
    )
    games = effects[0]["games"] if effects else base_data["check"]["games"]
    figure = (
        f"{policy}'s {base_data['measure']}"
        + (f", every seat in turn against {field}" if field else ", every seat playing it")
        + f", on the tunes' {games:,} fresh games"
    )
    headline = [play]
    sentences = [
        "Before comparing, the policy was tuned under each rule set (balance tune), and every "
        "run of the comparison plays its seats of that policy with the setting best for its own "
        "rules.",
        play,
    ]
    rows = []
    for e in effects:
        level = f"{e['adapting_changes_effect']['confidence']:.1%}".replace(".0%", "%")
        change = e["adapting_changes_effect"]["change"]
        d, a = e["default play"]["change"], e["adapted play"]["change"]
        rows.append(
            [
                e["variant"],
                change_text(d),
                change_text(a),
                f"{change_text(change)} ({level})",
            ]
        )
        if change["lo"] > 0 or change["hi"] < 0:
            said = (
                f"Re-tuning matters for '{e['variant']}': its effect on {figure} is "
                f"{points(a['value'])} under adapted play against {points(d['value'])} with "
                f"{policy} at its defaults, a difference of {points(change['value'])} "
                f"({level} interval {points(change['lo'])} to {points(change['hi'])})."
            )
            headline.append(said)
            sentences.append(said)
        else:
            sentences.append(
                f"For '{e['variant']}', adapted play and {policy} at its defaults cannot be told "
                f"apart in the effect on {figure} (difference {points(change['value'])}, "
                f"{level} interval {points(change['lo'])} to {points(change['hi'])})."
            )
    section = Section(f"Adapted play: {policy} tuned under each rule set", sentences)
    tune_rows = [
        [
            entry["label"],
            changed_text(d["summary"]["best_params"], d["summary"]["default_params"]),
            with_interval(d["check"]["defaults"]),
            with_interval(d["check"]["best"]),
            change_text(d["check"]["difference"]["change"]),
        ]
        for entry, _, d in tunes
    ]
    section.add(
        Table(
            ["rules", "best setting", "defaults", "best", "best - defaults"],
            tune_rows,
            f"Each rule set's tune: {figure}; 95% intervals.",
        )
    )
    if rows:
        section.add(
            Table(
                ["variant", "effect, default play", "effect, adapted play", "adapted - default"],
                rows,
                f"Each variant's effect on {figure}, paired game by game with the default rules; "
                "95% intervals, the last column's corrected for the number of variants.",
            )
        )
    data = {
        "policy": policy,
        "play": play,
        "figure": figure,
        "best_settings": {e["label"]: d["summary"]["best_params"] for e, _, d in tunes},
        "effects": effects,
    }
    return headline, section, data
