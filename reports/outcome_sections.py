"""Report sections on places and returns by seat (:mod:`analyses.outcomes`): what each seat's
finishing places and payoffs are, claiming an order only where paired intervals support it."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from analyses.runs import Run
from analyses.stats import proportion

from . import figures
from .document import Figure, Section, Table
from .grouping import MAX_GROUPED_RUNS
from .text import interval, lead_text, num, pct, signed, with_interval

MIN_PLACES_SEATS = 3  # with two seats a place says no more than the win rate


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _signed_amount(x: float | None) -> str:
    return signed(x, 2)


def _with_signed(est: dict[str, Any]) -> str:
    return with_interval(est, _signed_amount)


# -- the headline ------------------------------------------------------------------------------
def ending_headline(summary: dict[str, Any], prefix: str = "") -> list[str]:
    """Sentences on places (three or more seats) and returns, each order claimed only when the
    seat is separated from every other in the same games."""
    outcomes = summary.get("outcomes") or {}
    out: list[str] = []
    places = outcomes.get("places")
    if places and places["recorded"] and places["n_players"] >= MIN_PLACES_SEATS:
        out += _place_sentences(places, prefix)
    returns = outcomes.get("returns")
    if returns and returns["games"]:
        out += _return_sentences(returns, prefix)
    return out


def _who(seat: dict[str, Any], policies_differ: bool) -> str:
    """ "seat 2", or "seat 2 (careful)" where seats play different policies: the figure is then
    the seat and its policy together."""
    return f"seat {seat['seat']}" + (f" ({seat['policy']})" if policies_differ else "")


def _place_sentences(places: dict[str, Any], prefix: str) -> list[str]:
    differ = places["policies_differ"]
    out = []
    if differ:
        out.append(
            f"{prefix}Seats play different policies, so each seat's places are the seat and its "
            "policy together."
        )
    last = places["most_last"]
    if last is not None:
        seat = next(s for s in places["seats"] if f"seat {s['seat']}" == last["leader"])
        who = _who(seat, differ)
        if last["separated"]:
            out.append(
                f"{prefix}{who[:1].upper()}{who[1:]} comes last most often, in "
                f"{with_interval(seat['last'])} of games, {lead_text(last, 'seat')}."
            )
        else:
            out.append(
                f"{prefix}Which seat comes last most often cannot be told yet: {who}, last in "
                f"{with_interval(seat['last'])} of games, {lead_text(last, 'seat')}."
            )
    best = places["best_mean_place"]
    if best is not None:
        seat = next(s for s in places["seats"] if f"seat {s['seat']}" == best["leader"])
        who = _who(seat, differ)
        mean = f"mean place {with_interval(seat['mean_place'], num)}"
        if best["separated"]:
            out.append(
                f"{prefix}{who[:1].upper()}{who[1:]} finishes best on average (1 is first), "
                f"{mean}: every other seat's mean place is worse in the same games "
                f"({_closest_place(best)})."
            )
        else:
            tied = ", ".join(r["name"] for r in best["tied"])
            out.append(
                f"{prefix}Which seat finishes best on average (1 is first) cannot be told yet: "
                f"{who}, {mean}, cannot be told apart from {tied} ({_closest_place(best)})."
            )
    return out


def _closest_place(best: dict[str, Any]) -> str:
    """The closest rival's mean place minus the best seat's, with the interval tested."""
    c = best["closest"]
    level = f"{best['confidence']:.1%}".replace(".0%", "%")
    widened = (
        f", widened from 95% because {best['comparisons']} comparisons were made"
        if best["comparisons"] > 1
        else ""
    )
    return (
        f"{c['name']}'s mean place minus {best['leader']}'s: {signed(c['value'], 2)}, {level} "
        f"interval {signed(c['lo'], 2)} to {signed(c['hi'], 2)}{widened}"
    )


def _return_sentences(returns: dict[str, Any], prefix: str) -> list[str]:
    seats = ", ".join(f"seat {s['seat']} {_with_signed(s)}" for s in returns["seats"])
    out = [f"{prefix}Mean return a game: {seats}."]
    best = returns["highest"]
    if best is not None:
        amount = lambda x: signed(x, 2)  # noqa: E731
        if best["separated"]:
            out.append(
                f"{prefix}{best['leader'][:1].upper()}{best['leader'][1:]} has the highest "
                f"mean return, {lead_text(best, 'seat', amount)}."
            )
        else:
            out.append(
                f"{prefix}Which seat has the highest mean return cannot be told yet: "
                f"{best['leader']} {lead_text(best, 'seat', amount)}."
            )
    return out


# -- the sections ------------------------------------------------------------------------------
def ending_sections(runs: list[Run], summaries: list[dict[str, Any]]) -> list[Section]:
    """The places section (three or more seats, or a note when places were not recorded) and
    the returns section (a game that pays returns)."""
    label_of = {id(s): r.label for r, s in zip(runs, summaries, strict=True)}
    with_places = [
        s
        for s in summaries
        if (s.get("outcomes") or {}).get("places")
        and s["outcomes"]["places"]["n_players"] >= MIN_PLACES_SEATS
    ]
    with_returns = [s for s in summaries if (s.get("outcomes") or {}).get("returns")]
    out = []
    if with_places:
        out.append(places_section(with_places, label_of))
    if with_returns:
        out.append(returns_section(with_returns, label_of))
    return out


def places_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    section = Section(
        "Places: who finishes where",
        [
            "The share of games each seat finished in each place (1st is the win; seats tied "
            "share a place and the next place is skipped: 1st, 1st, 3rd), each with its 95% "
            "interval, and the seat's mean place (1 is first). A seat comes last when it holds "
            "the worst place of the game and not every seat holds it."
        ],
    )
    recorded = [s for s in summaries if s["outcomes"]["places"]["recorded"]]
    for s in summaries:
        if not s["outcomes"]["places"]["recorded"]:
            section.paragraphs.append(
                f"{label_of[id(s)]}: places were not recorded (the run was written before "
                "places were); play it again to see them."
            )
    if not recorded:
        return section
    n_places = max(s["outcomes"]["places"]["n_players"] for s in recorded)
    rows = []
    for s in recorded:
        for seat in s["outcomes"]["places"]["seats"]:
            cells = [f"{pct(p['value'])} {interval(p)}" for p in seat["places"]]
            cells += [""] * (n_places - len(cells))
            rows.append(
                [
                    label_of[id(s)],
                    str(seat["seat"]),
                    seat["policy"],
                    *cells,
                    f"{pct(seat['last']['value'])} {interval(seat['last'])}",
                    f"{num(seat['mean_place']['value'], 2)} "
                    f"{interval(seat['mean_place'], lambda v: num(v, 2))}",
                ]
            )
    section.add(
        Table(
            [
                "run",
                "seat",
                "policy",
                *[_ordinal(k) for k in range(1, n_places + 1)],
                "last",
                "mean place",
            ],  # fmt: skip
            rows,
            "Each share with its 95% Wilson interval; the mean place with Wilson's interval for "
            "a mean bounded by first and last place, at the number of games its spread is worth "
            "(Kish's effective sample size).",
        )
    )
    for s in recorded[:MAX_GROUPED_RUNS]:
        section.add(
            Figure(
                place_bars(s["outcomes"]["places"]),
                f"{label_of[id(s)]}: each seat's games by place, first place at the left. A "
                "black whisker at each boundary is the 95% interval of the share of games the "
                "seat finished in that place or better.",
                f"places-{len(section.blocks)}",
            )
        )
    return section


def place_bars(places: dict[str, Any]) -> bytes:
    """Stacked horizontal bars, one per seat, of the share of games in each place; a whisker at
    each boundary shows the interval of the cumulative share (that place or better)."""
    seats = places["seats"]
    n_places = places["n_players"]
    fig, ax = plt.subplots(figsize=(figures.WIDTH, 1.1 + figures.ROW_HEIGHT * len(seats)))
    y = np.arange(len(seats))[::-1]
    games = places["games"]
    left = np.zeros(len(seats))
    for k in range(n_places):
        shares = np.array([s["places"][k]["value"] for s in seats])
        color = figures.COLORS[k % len(figures.COLORS)]
        ax.barh(y, shares, left=left, height=0.6, color=color, alpha=0.8, label=_ordinal(k + 1))
        left = left + shares
        if k < n_places - 1:
            better = [sum(p["games"] for p in s["places"][: k + 1]) for s in seats]
            bounds = [proportion(b, games) for b in better]
            ax.errorbar(
                [b.value for b in bounds],
                y,
                xerr=figures._errors(
                    [b.value for b in bounds], [b.lo for b in bounds], [b.hi for b in bounds]
                ),
                fmt="none",
                ecolor="black",
                capsize=3,
            )
    ax.set_yticks(y, [_who(s, places["policies_differ"]) for s in seats])
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    figures.legend_beside(ax)
    return figures._png(fig)


def returns_section(summaries: list[dict[str, Any]], label_of: dict[int, str]) -> Section:
    section = Section(
        "Returns: what each seat takes home",
        [
            "Each seat's mean return a game (the payoff the game declares: chips, money, "
            "points) with its 95% t interval. The total over the seats shows whether the game "
            "is zero-sum (0: what one seat wins, another loses)."
        ],
    )
    rows = []
    for s in summaries:
        r = s["outcomes"]["returns"]
        for seat in r["seats"]:
            rows.append(
                [
                    label_of[id(s)],
                    str(seat["seat"]),
                    seat["policy"],
                    signed(seat["value"], 3),
                    interval(seat, lambda v: signed(v, 3)),
                ]
            )
        rows.append(
            [
                label_of[id(s)],
                "all",
                "",
                signed(r["total"]["value"], 3),
                interval(r["total"], lambda v: signed(v, 3)),
            ]  # fmt: skip
        )
    section.add(Table(["run", "seat", "policy", "mean return", "95% interval"], rows))
    shown = summaries[:MAX_GROUPED_RUNS]
    labels, estimates = [], []
    for s in shown:
        for seat in s["outcomes"]["returns"]["seats"]:
            labels.append(
                f"{label_of[id(s)]}: seat {seat['seat']}"
                if len(shown) > 1
                else f"seat {seat['seat']}"
            )
            estimates.append(seat)
    section.add(
        Figure(
            figures.estimate_bars(
                labels,
                estimates,
                xlabel="mean return a game",
                reference=0.0,
                reference_label="even",
                percent=False,
            ),
            "Mean return a game by seat; black whiskers are 95% intervals, the dashed line "
            "breaking even.",
            "returns",
        )
    )
    return section
