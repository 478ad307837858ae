"""Report sections of a skill ladder (``balance skill``) and of a comparison played under every
rung (``balance compare --ladder``): sentences a designer can quote, each figure with its 95%
interval, an order or a difference claimed only where the intervals tell it. The names of the
methods are kept for a Methods note at the end."""

from __future__ import annotations

import math
from typing import Any

from analyses.ladder import CHANGES, HOLDS, NONE
from analyses.skill import COIN_FLIP, MIN_DECIDED, first_seat_change, separated, win_share

from . import figures
from .document import Figure, Section, Table
from .text import num, pct, signed


def _ci(lo: float, hi: float, fmt=pct) -> str:
    return f"[{fmt(lo)}, {fmt(hi)}]"


def _est(e: dict[str, float], fmt=pct) -> str:
    """``38.2% [36.1%, 40.4%]``"""
    return f"{fmt(e['value'])} {_ci(e['lo'], e['hi'], fmt)}"


def _elo(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _pts(x: float) -> str:
    """A change of a rate in percentage points, the unit said once after the interval."""
    return "n/a" if x is None or not math.isfinite(x) else f"{x * 100:+.1f}"


def _reversed(e: dict[str, float]) -> dict[str, float]:
    """The weaker's share from the stronger's."""
    return {"value": 1 - e["value"], "lo": 1 - e["hi"], "hi": 1 - e["lo"]}


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- balance skill ----------------------------------------------------------------------------
def _pair_words(p: dict[str, Any], cooperative: bool) -> str:
    if cooperative:
        return (
            f"{p['stronger']} and {p['weaker']} ({_est(p['stronger_win_rate'])} of the "
            f"{p['decided']:,} deals only one of them completes to the higher rated)"
        )
    if not p["decided"]:
        none = f"none of their {p['no_winner']:,} games had a winner"
        return f"{p['stronger']} and {p['weaker']} ({none})"
    return (
        f"{p['stronger']} and {p['weaker']} ({_est(p['stronger_win_rate'])} of "
        f"{p['decided']:,} decided games to the higher rated)"
    )


def _order_words(s: dict[str, Any]) -> str:
    """The rungs in order where head to heads tell it, groups that cannot be told apart in
    braces."""
    parts = [g[0] if len(g) == 1 else "{" + ", ".join(g) + "}" for g in s["groups"]]
    return " < ".join(parts)


def skill_headline(s: dict[str, Any]) -> list[str]:
    rungs, pairs = s["rungs"], s["pairs"]
    rated = [r for r in rungs if r["rated"]]
    anchor = next(r["name"] for r in rungs if r["anchor"])
    out = [
        f"The rungs from weakest to strongest, as far as their head to heads tell: "
        f"{_order_words(s)}"
        + (
            " (rungs in braces cannot be told apart)."
            if any(len(g) > 1 for g in s["groups"])
            else "."
        )
    ]
    if len(rated) > 1:
        top = rated[-1]
        out[0] += (
            f" Ratings (Elo scale, {anchor} = 0): the highest is {top['name']}'s, "
            f"{_est(top['rating'], _elo)}."
        )
    unsure = [p for p in pairs if not separated(p) and not p["stronger_win_rate"]["hi"] < COIN_FLIP]
    if unsure:
        out.append(
            "Cannot be told apart yet, head to head: "
            + "; ".join(_pair_words(p, s["cooperative"]) for p in unsure)
            + "."
        )
    for p in pairs:
        if p["stronger_win_rate"]["hi"] < COIN_FLIP:
            out.append(
                f"{p['weaker']} beats {p['stronger']} head to head, "
                f"{_est(_reversed(p['stronger_win_rate']))} of {p['decided']:,} decided games, "
                f"although {p['stronger']} rates higher against the rest of the ladder: "
                "strength here is not one line."
            )
    if s["unrated"]:
        out.append(
            f"{_and(s['unrated'])} cannot be rated: no chain of games with a winner links "
            f"{'it' if len(s['unrated']) == 1 else 'them'} to {anchor}."
        )
    out += _luck_sentences(s)
    out += _degenerate_sentences(rungs)
    if not s["cooperative"]:
        out += _first_seat_sentences(rungs)
    else:
        out.append(
            "Success rate with every seat the rung: "
            + ", ".join(f"{r['name']} {_est(r['success'])}" for r in rungs if "success" in r)
            + "."
        )
    return out


def _luck_sentences(s: dict[str, Any]) -> list[str]:
    """How much luck the game leaves, from the ends of the ladder; the neighbours' upset rate
    labelled as a figure of the rungs chosen."""
    coop = s["cooperative"]
    what = "deals only one of the two completes" if coop else "games one of the two won"
    ext, hand, span = s["extremes"], s["top_vs_hand_written"], s["span"]
    out = []
    if ext is None:
        return out
    if ext["decided"]:
        loses = (
            f"How much luck the game leaves: the highest rated rung, {ext['stronger']}, loses to "
            f"the weakest, {ext['weaker']}, in {_est(_reversed(ext['stronger_win_rate']))} of "
            f"the {ext['decided']:,} {what}"
        )
        if hand is not None and hand["decided"]:
            loses += (
                f", and to the best hand-written policy, {hand['weaker']}, in "
                f"{_est(_reversed(hand['stronger_win_rate']))} of {hand['decided']:,}"
            )
        elif hand is not None:
            loses += (
                f"; against the best hand-written policy, {hand['weaker']}, none of their "
                f"{hand['no_winner']:,} games had a winner"
            )
        out.append(loses + ".")
    else:
        out.append(
            f"The highest rated rung, {ext['stronger']}, and the weakest, {ext['weaker']}, had no "
            f"{'deal only one of them completed' if coop else 'game with a winner'} between them: "
            "how much luck the game leaves is not measured."
        )
    if span is not None and math.isfinite(span["points"]["value"]):
        out.append(
            f"The ratings span {_est(span['points'], _elo)} points from {span['from']} to "
            f"{span['to']}: at that gap {span['from']} would win "
            f"{_est(span['bottom_wins'])} of the {what}."
        )
    up = s["upset_rate"]
    if math.isfinite(up["value"]) and len(s["pairs"]) > 1:
        out.append(
            f"Between neighbours in the ratings the weaker wins {_est(up)} of the {what}; "
            f"this depends on the rungs chosen (more rungs between the same ends bring it "
            f"closer to {pct(COIN_FLIP, 0)}), so it describes this ladder, not the game."
        )
    return out


def _degenerate_sentences(rungs: list[dict[str, Any]]) -> list[str]:
    return [
        f"With every seat {r['name']}: {'; '.join(r['degenerate'])}."
        for r in rungs
        if r.get("degenerate")
    ]


def _first_seat_sentences(rungs: list[dict[str, Any]]) -> list[str]:
    measured = [r for r in rungs if r.get("decided", 0) >= MIN_DECIDED]
    silent = [r for r in rungs if "decided" in r and r["decided"] < MIN_DECIDED]
    out = []
    if measured:
        out.append(
            "First-seat edge (seat 1's share of the decided games minus an even share, every "
            "seat the same rung): "
            + "; ".join(
                f"{r['name']} {_est(r['first_seat_edge'], _pts)} points ({r['decided']:,} decided)"
                for r in measured
            )
            + "."
        )
    for r in silent:
        if r["decided"] == 0:
            out.append(
                f"Under {r['name']}, none of the {r['self_games']:,} games with every seat "
                f"{r['name']} had a winner, so no first-seat edge can be measured."
            )
            continue
        # The games were too few, not the winners: say which, beside the table's own figure.
        fsw = r.get("first_seat_win_rate")
        shown = (
            f"; the table's first-seat win rate, {_est(fsw)}, is as wide as that implies"
            if fsw and math.isfinite(fsw.get("value", math.nan))
            else ""
        )
        out.append(
            f"Under {r['name']}, {r['decided']:,} of the {r['self_games']:,} games with every "
            f"seat {r['name']} had a winner: fewer than the {MIN_DECIDED} decided games a "
            f"first-seat edge is measured on, so none is given{shown}."
        )
    if len(measured) < 2:
        return out
    weak, strong = measured[0], measured[-1]
    change = first_seat_change(weak, strong)["change"]
    told = change["lo"] > 0 or change["hi"] < 0
    out.append(
        f"From {weak['name']} to {strong['name']} the edge changes by "
        f"{_est(change, _pts)} points: "
        + ("told apart from no change." if told else "not told apart from no change yet.")
    )
    return out


def skill_sections(s: dict[str, Any]) -> list[Section]:
    return (
        [_ratings_section(s), _own_figures_section(s)]
        + ([_points_section(s)] if s["cooperative"] and s["points"] else [])
        + [_methods_section(s)]
    )


def key_sentence() -> str:
    """What a rating gap means, exactly, in the model the ratings come from."""
    return (
        f"A difference of 200 points means the stronger wins {pct(win_share(200))} of the games "
        f"the two decide; 400 points, {pct(win_share(400))}. Games nobody won are left out of "
        "the ratings and counted beside them; a game two rungs shared is a draw, half a win "
        "to each."
    )


def _ratings_section(s: dict[str, Any]) -> Section:
    rungs = s["rungs"]
    anchor = next(r["name"] for r in rungs if r["anchor"])
    how = (
        "Every rung played every seat of a table against itself, on the same deals; two rungs "
        "are compared on the deals where exactly one of them completes the mission."
        if s["cooperative"]
        else "Every pair of rungs played tables of just the two of them, seats rotated on the "
        "same game seeds, so seat effects cancel out of each head to head."
    )
    section = Section(
        "How much skill matters",
        [how, f"Ratings on the Elo scale, {anchor} = 0, with 95% intervals. " + key_sentence()],
    )
    if s["anchor_swept_by"]:
        section.paragraphs.append(
            f"{_and(s['anchor_swept_by'])} never lost a decided game to {anchor}: how far "
            f"above {anchor} a rung rates then rests partly on the prior (see Methods), and its "
            "interval is wide."
        )
    columns = ["rung (weakest first)", "rating", "95% interval"]
    if not s["cooperative"]:
        columns += ["games against other rungs", "no winner", "95% interval"]
    rows = []
    for r in rungs:
        row = [
            r["name"],
            _elo(r["rating"]["value"]),
            _ci(r["rating"]["lo"], r["rating"]["hi"], _elo),
        ]
        if not s["cooperative"]:
            nw = r["ladder_no_winner"]
            row += [f"{r['ladder_games']:,}", pct(nw["value"]), _ci(nw["lo"], nw["hi"])]
        rows.append(row)
    section.add(Table(columns, rows))
    rated = [r for r in rungs if r["rated"]]
    section.add(
        Figure(
            figures.forest(
                [r["name"] for r in rated][::-1],
                [r["rating"]["value"] for r in rated][::-1],
                [r["rating"]["lo"] for r in rated][::-1],
                [r["rating"]["hi"] for r in rated][::-1],
                f"rating (Elo scale, {anchor} = 0)",
                percent=False,
                significant=[r["rating"]["lo"] > 0 or r["rating"]["hi"] < 0 for r in rated][::-1],
            ),
            f"Each rung's rating with its 95% interval; a filled dot is told apart from {anchor}.",
            "skill-ratings",
        )
    )
    head = [*s["pairs"]]
    for extra in (s["extremes"], s["top_vs_hand_written"]):
        if extra is not None and extra not in head:
            head.append(extra)
    drawn = any(p.get("draws", 0) for p in head)  # a game the two rungs shared: a draw
    section.add(
        Table(
            ["higher rated", "lower rated", "higher wins", "95% interval", "decided"]
            + (["shared (draws)"] if drawn else [])
            + ["no winner", "95% interval"],
            [
                [
                    p["stronger"],
                    p["weaker"],
                    pct(p["stronger_win_rate"]["value"]),
                    _ci(p["stronger_win_rate"]["lo"], p["stronger_win_rate"]["hi"]),
                    f"{p['decided']:,}",
                ]
                + ([f"{p.get('draws', 0):,}"] if drawn else [])
                + [
                    pct(p["no_winner_share"]["value"]),
                    _ci(p["no_winner_share"]["lo"], p["no_winner_share"]["hi"]),
                ]
                for p in head
            ],
            "Head to heads: neighbouring rungs, then the strongest against the weakest and "
            "against the best hand-written policy. 'higher wins' is the higher rated rung's "
            "share of the games one of the two won"
            + (
                ", a game the two shared counting half to each (a draw); 'shared' how many "
                "such games they played"
                if drawn
                else ""
            )
            + "; 'no winner' the share of all their games nobody won.",
        )
    )
    section.paragraphs += _luck_sentences(s)
    return section


def _methods_section(s: dict[str, Any]) -> Section:
    model = s["model"]
    return Section(
        "Methods",
        [
            f"Ratings: {model['fit']} (the chance that rung a beats rung b is "
            "1 / (1 + 10^((b - a) / 400)), a and b their ratings), the maximum of the "
            f"likelihood times a {model['prior']}; 95% intervals by {model['intervals']}. "
            + (
                "Comparisons of a cooperative ladder are the deals where exactly one of the "
                "two rungs succeeds. "
                if s["cooperative"]
                else ""
            )
            + "Head to heads, shares and the first-seat edge: Wilson 95% intervals; the change "
            "of the first-seat edge between two rungs: a chi-square test and a Welch interval "
            "(independent runs).",
        ],
    )


def _own_figures_section(s: dict[str, Any]) -> Section:
    rungs = s["rungs"]
    names = [r["name"] for r in rungs]
    section = Section(
        "The game's figures at each rung",
        [
            "Each rung against itself (every seat the same rung, the same seeds): what the game "
            "looks like at that skill. Rungs run from the weakest (left) to the strongest."
        ],
    )
    columns = ["rung"]
    if s["cooperative"]:
        columns += ["success", "95% interval"]
    else:
        columns += ["first seat wins", "95% interval", "fair share", "no winner"]
    columns += ["mean length", "95% interval"]
    rows = []
    for r in rungs:
        row = [r["name"]]
        if s["cooperative"]:
            row += [pct(r["success"]["value"]), _ci(r["success"]["lo"], r["success"]["hi"])]
        else:
            fsw = r["first_seat_win_rate"]
            row += [
                pct(fsw["value"]),
                _ci(fsw["lo"], fsw["hi"]),
                pct(r["fair_share"]["value"]),
                pct(r["no_winner_rate"]["value"]),
            ]
        m = r["mean_length"]
        row += [num(m["value"]), _ci(m["lo"], m["hi"], fmt=num)]
        rows.append(row)
    section.add(Table(columns, rows))
    if not s["cooperative"]:
        section.add(
            Figure(
                figures.sweep_lines(
                    names,
                    [
                        (
                            "first seat wins",
                            *(
                                [r["first_seat_win_rate"][k] for r in rungs]
                                for k in ("value", "lo", "hi")
                            ),
                        ),
                        (
                            "no winner",
                            *(
                                [r["no_winner_rate"][k] for r in rungs]
                                for k in ("value", "lo", "hi")
                            ),
                        ),
                    ],
                    xlabel="rung (weakest to strongest)",
                    ylabel="share of games",
                    percent=True,
                    categorical=True,
                ),
                "First seat's win rate and the share of games nobody wins, every seat the same "
                "rung; bands are 95% intervals.",
                "skill-first-seat",
            )
        )
    reasons = [
        name
        for name in rungs[0]["end_reasons"]
        if any(r["end_reasons"][name]["value"] > 0 for r in rungs)
    ]
    if len(reasons) > 1:  # a single way to end is a flat line at 100%
        section.add(
            Figure(
                figures.sweep_lines(
                    names,
                    [
                        (
                            name,
                            *(
                                [r["end_reasons"][name][k] for r in rungs]
                                for k in ("value", "lo", "hi")
                            ),
                        )
                        for name in reasons
                    ],
                    xlabel="rung (weakest to strongest)",
                    ylabel="share of games",
                    percent=True,
                    categorical=True,
                ),
                "How games end at each rung; bands are 95% intervals.",
                "skill-end-reasons",
            )
        )
    section.add(
        Figure(
            figures.sweep_lines(
                names,
                [
                    (
                        "mean length",
                        *([r["mean_length"][k] for r in rungs] for k in ("value", "lo", "hi")),
                    )
                ],
                xlabel="rung (weakest to strongest)",
                ylabel="mean length",
                percent=False,
                categorical=True,
            ),
            "Mean game length at each rung; the band is the 95% interval.",
            "skill-length",
        )
    )
    own = list(rungs[0].get("columns", {}))
    if own:
        section.add(
            Table(
                ["rung", *own],
                [[r["name"], *(num(r["columns"][c]["value"], 2) for c in own)] for r in rungs],
                "The game's own figures (per-game means) at each rung.",
            )
        )
    return section


def _points_section(s: dict[str, Any]) -> Section:
    names = [r["name"] for r in s["rungs"]]
    section = Section(
        "Success at each setting",
        ["Each rung's success rate at each rule setting played (95% Wilson intervals)."],
    )
    rows = []
    series = []
    for point in s["points"]:
        where = ", ".join(f"{k}={v}" for k, v in point["point"].items()) or "rules as given"
        by = {r["name"]: r for r in point["rungs"]}
        rows.append(
            [where, *(f"{pct(by[n]['value'])} {_ci(by[n]['lo'], by[n]['hi'])}" for n in names)]
        )
        series.append((where, *([by[n][k] for n in names] for k in ("value", "lo", "hi"))))
    section.add(Table(["setting", *names], rows))
    section.add(
        Figure(
            figures.sweep_lines(
                names,
                series,
                xlabel="rung (weakest to strongest)",
                ylabel="success rate",
                percent=True,
                categorical=True,
            ),
            "Success rate per rung at each setting; bands are 95% intervals. A steep line is a "
            "setting that rewards skill.",
            "skill-success",
        )
    )
    return section


# -- compare --ladder -------------------------------------------------------------------------
def _effect(cell: dict[str, Any], kind: str, unit: str) -> str:
    """A rung's effect with its interval, or why the rung cannot measure it."""
    if not cell.get("measured", True):
        return "not measured"
    e = cell["effect"]
    if kind == "rate":
        return f"{_pts(e['value'])} {_ci(e['lo'], e['hi'], fmt=_pts)} points"
    band = _ci(e["lo"], e["hi"], fmt=lambda v: signed(v, 2))
    return f"{signed(e['value'], 2)} {unit} {band}"


def _change(d: dict[str, Any], kind: str, unit: str) -> str:
    c = d["change"]
    if kind == "rate":
        size = f"{_pts(c['value'])} {_ci(c['lo'], c['hi'], fmt=_pts)} points"
    else:
        size = f"{signed(c['value'], 2)} {unit} {_ci(c['lo'], c['hi'], lambda v: signed(v, 2))}"
    return f"from {d['from']} to {d['to']} the effect moves by {size}"


def _not_measured(f: dict[str, Any]) -> list[str]:
    return [f"under {c['rung']}: {c['why_not']}" for c in f["rungs"] if not c["measured"]]


def ladder_headline(summary: dict[str, Any], unit: str) -> list[str]:
    out = []
    figs = summary["figures"]
    for verdict in (CHANGES, HOLDS):
        for name, f in figs.items():
            if f["verdict"] != verdict:
                continue
            cells = ", ".join(
                f"{_effect(c, f['kind'], unit)} under {c['rung']}"
                for c in f["rungs"]
                if c["measured"]
            )
            sentence = f"{name} {verdict}: {cells}"
            if verdict == CHANGES:
                told = [d for d in f["differences"] if d["significant"]]
                sentence += "; " + "; ".join(_change(d, f["kind"], unit) for d in told)
            missing = _not_measured(f)
            if missing:
                sentence += f"; cannot tell {'; '.join(missing)}"
            out.append(sentence + ".")
    same = [name for name, f in figs.items() if f["verdict"] == NONE]
    if same:
        out.append(
            f"No effect at any rung (every game came out the same under the variant): "
            f"{'; '.join(same)}."
        )
    for name, f in figs.items():
        if f["verdict"] in (CHANGES, HOLDS, NONE):
            continue
        cells = [c for c in f["rungs"] if c["measured"]]
        why = "no rung's effect is told apart from another's, and " + (
            "not every rung measures it"
            if len(cells) < len(f["rungs"])
            else "some rung shows no effect told apart from none"
        )
        text = f"{name}: cannot tell yet whether it holds as play gets stronger ({why})"
        if cells:
            text += ": " + ", ".join(
                f"{_effect(c, f['kind'], unit)} under {c['rung']}" for c in cells
            )
        missing = _not_measured(f)
        if missing:
            text += f"; not measured {'; '.join(missing)}"
        out.append(text + ".")
    return out


def ladder_section(summary: dict[str, Any], unit: str) -> Section:
    rungs = [entry["rung"] for entry in summary["ladder"]]
    section = Section(
        "Does the effect hold as play gets stronger?",
        [
            "The comparison was played once under every rung (every seat playing the rung, the "
            "same seeds). Per figure: 'holds at every rung' when the effect is told apart from "
            "none with the same sign at every rung and no two rungs' effects differ; 'changes "
            "with skill' when two rungs' effects differ, compared game by game on the seeds "
            "both rungs played; 'no effect at any rung' when every game came out the same under "
            "the variant; otherwise 'cannot tell yet'. A rung where every game gives the same "
            "value of a figure under both rule sets (random players who decide no game) cannot "
            "measure that figure: it is left out of the tests and said so.",
        ],
    )
    figs = summary["figures"]
    section.add(
        Table(
            ["figure", *rungs, "verdict"],
            [
                [
                    name,
                    *(
                        _effect(c, f["kind"], unit) + (" *" if c["significant"] else "")
                        for c in f["rungs"]
                    ),
                    f["verdict"],
                ]
                for name, f in figs.items()
            ],
            "Effect of the variant (variant minus default) under each rung, 95% intervals; * "
            "told apart from none after correction for every rung and figure tested.",
        )
    )
    reasons = sorted({w for f in figs.values() for w in _not_measured(f)})
    if reasons:
        section.paragraphs.append("Not measured " + "; ".join(reasons) + ".")
    section.paragraphs.append(
        "Methods: each rung's effects are paired comparisons on common games (McNemar's exact "
        "test for yes/no outcomes, a paired t test for numbers); two rungs' effects are "
        "compared by a paired t test on the per-game difference of the effects (a z test from "
        "the intervals when the rungs share no seeds); p-values are corrected over every rung "
        "and figure, and over every pair of rungs and figure (Benjamini-Hochberg)."
    )
    for kind, percent, ylabel, stem in (
        ("rate", True, "change in rate (variant minus default)", "ladder-rates"),
        ("length", False, f"change in mean length ({unit})", "ladder-length"),
    ):
        chosen = [(name, f) for name, f in figs.items() if f["kind"] == kind]
        if not chosen:
            continue
        series = [
            (name, *([c["effect"][k] for c in f["rungs"]] for k in ("value", "lo", "hi")))
            for name, f in chosen
            if len(f["rungs"]) == len(rungs)
        ]
        if not series:
            continue
        section.add(
            Figure(
                figures.sweep_lines(
                    rungs,
                    series,
                    xlabel="rung (as given)",
                    ylabel=ylabel,
                    percent=percent,
                    categorical=True,
                ),
                "The variant's effect under each rung; bands are 95% intervals. A flat line "
                "away from zero holds at every rung.",
                stem,
            )
        )
    return section
