"""Report sections of a skill ladder (``balance skill``) and of a comparison played under every
rung (``balance compare --ladder``): sentences a designer can quote, claiming a difference only
where its interval excludes none."""

from __future__ import annotations

import math
from typing import Any

from analyses.ladder import CHANGES, HOLDS, NONE
from analyses.skill import COIN_FLIP, first_seat_change

from . import figures
from .document import Figure, Section, Table
from .text import num, p_value, pct, points, signed

MIN_DECIDED = 30  # decided games a rung needs before its first-seat edge is compared


def _ci(lo: float, hi: float, fmt=pct) -> str:
    return f"[{fmt(lo)}, {fmt(hi)}]"


def _elo(x: float) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x:+.0f}"


def _separated(pair: dict[str, Any]) -> bool:
    lo = pair["ci"][0]
    return lo == lo and lo > COIN_FLIP


# -- balance skill ----------------------------------------------------------------------------
def _pair_words(p: dict[str, Any]) -> str:
    if not p["decided"]:
        none = f"none of their {p['no_winner']:,} games had a winner"
        return f"{p['stronger']} and {p['weaker']} ({none})"
    return (
        f"{p['stronger']} and {p['weaker']} ({pct(p['stronger_win_rate'])} {_ci(*p['ci'])} of "
        f"{p['decided']:,} decided games)"
    )


def _top_words(rungs: list[dict[str, Any]], pairs: list[dict[str, Any]]) -> str:
    """The strongest rung, named only when it beats the one below it."""
    top = rungs[-1]
    rating = f"{_elo(top['rating'])} {_ci(*top['rating_ci'], fmt=_elo)}"
    if pairs and _separated(pairs[-1]):
        return f"The strongest, {top['name']}, rates {rating}."
    tied = [top["name"]]
    for p in reversed(pairs):
        if _separated(p):
            break
        tied.append(p["weaker"])
    return (
        f"The top of the ladder cannot be told apart yet: {', '.join(tied)} "
        f"(the highest rating, {top['name']}, {rating})."
    )


def skill_headline(s: dict[str, Any]) -> list[str]:
    rungs, pairs = s["rungs"], s["pairs"]
    anchor = next(r["name"] for r in rungs if r["anchor"])
    ladder = " < ".join(r["name"] for r in rungs)
    told = [p for p in pairs if _separated(p)]
    out = [
        f"The ladder from weakest to strongest, by rating (Elo scale, {anchor} = 0): {ladder}. "
        + _top_words(rungs, pairs)
    ]
    if len(told) == len(pairs):
        out.append("Every rung beats the one below it head to head (95% intervals above 50%).")
    else:
        reversed_ = [p for p in pairs if p["ci"][1] < COIN_FLIP]
        unsure = [p for p in pairs if not _separated(p) and p not in reversed_]
        out.append(f"{len(told)} of {len(pairs)} neighbouring rungs are told apart head to head.")
        if unsure:
            words = "; ".join(_pair_words(p) for p in unsure)
            out.append(f"These cannot be told apart yet: {words}.")
        for p in reversed_:
            out.append(
                f"{p['weaker']} beats {p['stronger']} head to head, "
                f"{pct(1 - p['stronger_win_rate'])} {_ci(1 - p['ci'][1], 1 - p['ci'][0])} of "
                f"{p['decided']:,} decided games, although {p['stronger']} rates higher against "
                "the rest of the ladder: strength here is not one line."
            )
    out += _luck_sentences(s)
    if not s["cooperative"]:
        out += _first_seat_sentences(rungs, s["players"])
    else:
        out.append(
            "Success rate with every seat the rung: "
            + ", ".join(f"{r['name']} {pct(r['success']['value'])}" for r in rungs)
            + " (intervals in the table below)."
        )
    return out


def _luck_sentences(s: dict[str, Any]) -> list[str]:
    what = "deals one of them completes" if s["cooperative"] else "games one of them won"
    up, share = s["upset_rate"], s["skill_share"]
    if not math.isfinite(up):
        return [
            "Neighbouring rungs had no "
            + ("deal only one of them completed" if s["cooperative"] else "game with a winner")
            + ", so the upset rate is not known."
        ]
    out = [
        f"Upset rate: the weaker of two neighbouring rungs wins {pct(up)} "
        f"{_ci(*s['upset_ci'])} of the {what}; two players of equal skill would split them "
        f"{pct(COIN_FLIP, 0)}-{pct(COIN_FLIP, 0)}. Between neighbours, skill decides "
        f"{pct(share['value'], 0)} {_ci(share['lo'], share['hi'], fmt=lambda v: pct(v, 0))} of "
        "the way from a coin flip to certainty."
    ]
    ext, ext_share = s["extremes"], s["extremes_skill_share"]
    if ext and ext["decided"] and len(s["pairs"]) > 1:
        out.append(
            f"From the bottom of the ladder to the top: {ext['weaker']} beats {ext['stronger']} "
            f"in {pct(1 - ext['stronger_win_rate'])} "
            f"{_ci(1 - ext['ci'][1], 1 - ext['ci'][0])} of the {what} "
            f"({ext['decided']:,}); skill decides {pct(ext_share['value'], 0)} "
            f"{_ci(ext_share['lo'], ext_share['hi'], fmt=lambda v: pct(v, 0))} of the way."
        )
    return out


def _first_seat_sentences(rungs: list[dict[str, Any]], players: int) -> list[str]:
    decided = [r for r in rungs if r.get("decided", 0) >= MIN_DECIDED]
    silent = [r for r in rungs if r.get("decided", 0) < MIN_DECIDED]
    out = []
    if silent:
        words = ", ".join(
            f"{r['name']} ({r.get('decided', 0):,} of {r['self_games']:,})" for r in silent
        )
        out.append(
            f"With every seat the same rung, too few games had a winner to measure a first-seat "
            f"edge under {words}."
        )
    if len(decided) < 2:
        return out
    weak, strong = decided[0], decided[-1]
    change = first_seat_change(weak, strong, players)
    told = change["lo"] > 0 or change["hi"] < 0
    verdict = (
        f"the change, {points(change['diff'])} {_ci(change['lo'], change['hi'], fmt=points)}, "
        "is told apart from none"
        if told
        else f"these cannot be told apart yet ({p_value(change['p_value'])})"
    )
    out.append(
        "First-seat edge (seat 1's share of the decided games minus an even share, every seat "
        f"the same rung): {points(change['weak_edge'])} under {weak['name']} "
        f"({weak['decided']:,} decided games), {points(change['strong_edge'])} under "
        f"{strong['name']} ({strong['decided']:,}); {verdict}."
    )
    return out


def skill_sections(s: dict[str, Any]) -> list[Section]:
    return [_ratings_section(s), _own_figures_section(s)] + (
        [_points_section(s)] if s["cooperative"] and s["points"] else []
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
        [
            how,
            f"Ratings: {s['model']}; {anchor} = 0. A difference of 200 points means the stronger "
            "wins about 76% of the games the two decide; 400 points, about 91%.",
        ],
    )
    if s["anchor_swept_by"]:
        section.paragraphs.append(
            f"{', '.join(s['anchor_swept_by'])} never lost a game to {anchor}: how far above "
            f"{anchor} a rung rates then rests partly on the prior, and the upper ends of the "
            "intervals understate it. The differences between the other rungs, and their head "
            "to heads below, are what these games measure."
        )
    section.add(
        Table(
            ["rung (weakest first)", "rating", "95% interval"],
            [[r["name"], _elo(r["rating"]), _ci(*r["rating_ci"], fmt=_elo)] for r in rungs],
        )
    )
    section.add(
        Figure(
            figures.forest(
                [r["name"] for r in rungs][::-1],
                [r["rating"] for r in rungs][::-1],
                [r["rating_ci"][0] for r in rungs][::-1],
                [r["rating_ci"][1] for r in rungs][::-1],
                f"rating (Elo scale, {anchor} = 0)",
                percent=False,
                significant=[r["rating_ci"][0] > 0 or r["rating_ci"][1] < 0 for r in rungs][::-1],
            ),
            f"Each rung's rating with its 95% bootstrap interval; a filled dot is told apart from "
            f"{anchor}.",
            "skill-ratings",
        )
    )
    section.add(
        Table(
            ["stronger", "weaker", "stronger wins", "95% interval", "decided", "no winner"],
            [
                [
                    p["stronger"],
                    p["weaker"],
                    pct(p["stronger_win_rate"]),
                    _ci(*p["ci"]),
                    f"{p['decided']:,}",
                    f"{p['no_winner']:,}",
                ]
                for p in s["pairs"]
            ],
            "Neighbouring rungs head to head: the stronger's share of the games one of the two "
            "won (Wilson 95% intervals).",
        )
    )
    section.paragraphs += _luck_sentences(s)
    return section


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
            row += [
                pct(r["first_seat_win_rate"]),
                _ci(*r["first_seat_ci"]),
                pct(r["fair_share"]),
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
                            [r["first_seat_win_rate"] for r in rungs],
                            [r["first_seat_ci"][0] for r in rungs],
                            [r["first_seat_ci"][1] for r in rungs],
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
    if kind == "rate":
        return f"{points(cell['diff'])} {_ci(cell['lo'], cell['hi'], fmt=points)}"
    band = _ci(cell["lo"], cell["hi"], fmt=lambda v: signed(v, 2))
    return f"{signed(cell['diff'], 2)} {unit} {band}"


def ladder_headline(summary: dict[str, Any], unit: str) -> list[str]:
    out = []
    figs = summary["figures"]
    for verdict, words in ((CHANGES, "changes with skill"), (HOLDS, "holds at every rung")):
        chosen = [name for name, f in figs.items() if f["verdict"] == verdict]
        for name in chosen:
            f = figs[name]
            cells = ", ".join(
                f"{_effect(c, f['kind'], unit)} under {c['rung']}" for c in f["rungs"]
            )
            out.append(f"{name} {words}: {cells}.")
    same = [name for name, f in figs.items() if f["verdict"] == NONE]
    if same:
        out.append(
            f"No effect at any rung (every game came out the same under the variant): "
            f"{'; '.join(same)}."
        )
    unsure = [name for name, f in figs.items() if f["verdict"] not in (CHANGES, HOLDS, NONE)]
    if unsure:
        out.append(
            f"Cannot tell yet whether these hold as play gets stronger (no significant effect at "
            f"some rung, and no rung's effect differs from another's): {'; '.join(unsure)}."
        )
    return out


def ladder_section(summary: dict[str, Any], unit: str) -> Section:
    rungs = [entry["rung"] for entry in summary["ladder"]]
    section = Section(
        "Does the effect hold as play gets stronger?",
        [
            "The comparison was played once under every rung (every seat playing the rung, the "
            "same seeds). Per figure: 'holds at every rung' when the effect is significant with "
            "the same sign at every rung and no two rungs' effects differ; 'changes with skill' "
            "when two rungs' effects differ (a z test of the difference); 'no effect at any "
            "rung' when every game came out the same under the variant; otherwise 'cannot tell "
            "yet'. p-values are corrected for every rung and figure tested (Benjamini-Hochberg)."
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
            "significant after correction.",
        )
    )
    for kind, percent, ylabel, stem in (
        ("rate", True, "change in rate (variant minus default)", "ladder-rates"),
        ("length", False, f"change in mean length ({unit})", "ladder-length"),
    ):
        chosen = [(name, f) for name, f in figs.items() if f["kind"] == kind]
        if not chosen:
            continue
        series = [
            (name, *([c[k] for c in f["rungs"]] for k in ("diff", "lo", "hi")))
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
