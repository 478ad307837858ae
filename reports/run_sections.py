"""Report sections about the outcome of each run: who wins by seat (or how often a cooperative
game succeeds), game length, end conditions, drama, the board heatmaps and the game's own
sections."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np

from analyses.boards import heatmaps
from analyses.overview import degenerate
from analyses.runs import Run
from analyses.seats import SEAT_EFFECT_ALPHA
from analyses.watch import games_to_watch

from . import figures
from .document import Figure, Section, Table
from .grouping import MAX_GROUPED_RUNS
from .text import interval, lead_text, num, p_value, pct, points, rules_text, with_interval


# -- what was run ----------------------------------------------------------------------------
def what_was_run(runs: list[Run], kind: str, title: str) -> Section:
    first = runs[0]
    seeds = sorted({r.seed for r in runs})
    paragraphs = [
        f"Game: {title}. Every run below played the number of games shown, each game decided by "
        "the policies (playing styles) named for each seat. "
        + (
            f"All runs used seed {seeds[0]}, so game number i started from the same game seed "
            "in every run: where a rule change leaves the deck, the dice and the seats alike, "
            "it dealt and rolled the same, and a difference comes from the rules or policies, "
            "not from luck; a change to the cards or the players deals differently from the "
            "same seed."
            + (" These runs differ in players." if len({r.n_players for r in runs}) > 1 else "")
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
def run_headline(summary: dict[str, Any], label: bool) -> list[str]:
    run = summary["run"]
    prefix = f"{run['label']}: " if label else ""
    unit = run["length_unit"]
    out = degenerate_sentences(summary, prefix) + fallback_sentences(summary, prefix)
    length = summary["length"]
    if "seats" in summary:
        s = summary["seats"]
        out += _seat_sentences(s, prefix)
        if shared_rate(s) > 0:
            out.append(
                f"{prefix}Seats share the win in {with_interval(s['shared_win_rate'])} of games "
                f"({SHARED_NOTE})."
            )
        if s["no_winner_rate"]["value"] > 0:
            out.append(f"{prefix}Nobody wins {with_interval(s['no_winner_rate'])} of games.")
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


SHARED_NOTE = "a win shared by k seats counts 1/k to each of their win rates"


def shared_rate(seats: dict[str, Any]) -> float:
    """The share of games two or more seats shared (0 for a summary written before shares)."""
    return seats.get("shared_win_rate", {}).get("value", 0.0)


def wins_text(wins: float) -> str:
    """A seat's wins: a whole count, or a sum of shares of the win to one decimal."""
    return f"{wins:,}" if float(wins).is_integer() else f"{wins:,.1f}"


def fallback_sentences(summary: dict[str, Any], prefix: str = "") -> list[str]:
    """A search that played to the end because its fitted evaluation did not earn its place."""
    text = summary["run"].get("evaluation_fallback")
    return [f"{prefix}{text[:1].upper()}{text[1:]}."] if text else []


def degenerate_sentences(summary: dict[str, Any], prefix: str = "") -> list[str]:
    """What a run's games never vary in (nobody wins, every game ends alike), as one sentence;
    none when they vary."""
    length = summary["length"]
    if "success" in summary:
        settled = summary["success"]["success"]["value"]
    else:
        settled = 1 - summary["seats"]["no_winner_rate"]["value"]
    reasons = [e["end_reason"] for e in summary["end_reasons"] if e["games"]]
    same = degenerate(length["games"], "success" in summary, settled,
                      (length["min"], length["max"]), reasons, length["unit"])  # fmt: skip
    return [f"{prefix}A degenerate run: {'; '.join(same)}."] if same else []


def seat_headline(summary: dict[str, Any], prefix: str) -> list[str]:
    """A run's seat sentences alone (a compare's variants: their own seats in the headline)."""
    return _seat_sentences(summary["seats"], prefix) if "seats" in summary else []


def _seat_sentences(s: dict[str, Any], prefix: str) -> list[str]:
    """Who wins by seat, claiming a seat advantage only when every seat plays the same policy
    and a seat winning most only when it is separated from every other seat."""
    seats = s["seats"]
    by_rate = sorted(seats, key=lambda x: -x["value"])
    fair = f"if seats did not matter each would win {pct(s['fair_share'])}"
    if s["policies_differ"]:
        rates = ", ".join(f"seat {x['seat']} ({x['policy']}) {with_interval(x)}" for x in by_rate)
        test = (
            "differ by more than luck explains"
            if s["seat_test_p"] < SEAT_EFFECT_ALPHA
            else "differ no more than luck produces at this number of games"
        )
        return [
            f"{prefix}Seats play different policies, so each seat's figure is the seat and its "
            f"policy together, not an advantage of the seat: {rates}.",
            f"{prefix}These seat-and-policy pairs {test} ({p_value(s['seat_test_p'])}); to tell "
            "seat from policy, rotate the policies through the seats (balance tournament).",
        ]
    top, lead = by_rate[0], s["most_wins"]
    if s["seat_effect"]:
        test = (
            f"{prefix}The seat test finds a real seat effect ({p_value(s['seat_test_p'])}): the "
            "differences between seats are larger than luck explains."
        )
    else:
        test = (
            f"{prefix}The seat test finds no clear seat effect ({p_value(s['seat_test_p'])}): the "
            "differences between seats are within what luck produces at this number of games."
        )
    if lead["separated"]:
        out = [
            f"{prefix}Seat {top['seat']} wins most often, {with_interval(top)}, "
            f"{lead_text(lead, 'seat')}; {fair}.",
            test,
        ]
    else:
        # What the data do show (the test, the range, a seat winning least) before what they
        # cannot tell yet (which seat wins most).
        low, least = by_rate[-1], s.get("fewest_wins")
        out = [
            test,
            f"{prefix}Seat win rates run from seat {low['seat']}'s {with_interval(low)} to "
            f"seat {top['seat']}'s {with_interval(top)}; {fair}.",
        ]
        if least and least["separated"] and least["leader"] == f"seat {low['seat']}":
            c = least["closest"]
            level = f"{least['confidence']:.1%}".replace(".0%", "%")
            out.append(
                f"{prefix}Seat {low['seat']} wins least: every other seat wins more often in "
                f"the same games ({c['name']} minus seat {low['seat']}: {points(c['value'])}, "
                f"{level} interval {points(c['lo'])} to {points(c['hi'])})."
            )
        out.append(
            f"{prefix}Which seat wins most cannot be told yet: seat {top['seat']} "
            f"{lead_text(lead, 'seat')}."
        )
    out.append(
        f"{prefix}Balance (1 minus the largest gap between two seats' win rates; 1 is "
        f"perfect) is {with_interval(s['balance'], lambda v: num(v, 3))}."
    )
    return out


def outcome_sections(runs: list[Run], summaries: list[dict[str, Any]]) -> list[Section]:
    sections = []
    label_of = {id(s): r.label for r, s in zip(runs, summaries, strict=True)}
    competitive = [s for s in summaries if "seats" in s]
    cooperative = [s for s in summaries if "success" in s]
    if competitive:
        sections.append(_seats_section(competitive, label_of))
    if cooperative:
        sections.append(_success_section(cooperative, label_of))
    note = runs[0].spec.length_note if runs[0].spec else ""
    sections.append(_length_section(summaries, label_of, note))
    notes = runs[0].spec.end_notes if runs[0].spec else {}
    sections.append(_end_section(summaries, label_of, notes))
    dramatic = [s for s in summaries if s.get("drama")]
    if dramatic:
        sections.append(_drama_section(dramatic, label_of))
    elif competitive:
        known_late = runs[0].spec is not None and not runs[0].spec.scores_during_play
        sections.append(
            Section(
                "Drama: lead changes and comebacks",
                [
                    "Not measured: "
                    + (
                        "this game's scores are known only at the end (its file says "
                        "scores_during_play = False, or keeps no scores), so no lead can be "
                        "followed through a game: lead changes and comebacks are not counted."
                        if known_late
                        else "this game's engine records no lead_changes and half_leader "
                        "columns (the leader by score, turn by turn), which the drama analysis "
                        "needs."
                    )
                ],
            )
        )
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
    mixed = [label_of[id(s)] for s in summaries if s["seats"]["policies_differ"]]
    if mixed:
        section.paragraphs.append(
            f"Seats play different policies in {', '.join(mixed)}: there a seat's win rate is "
            "the seat and its policy together, and the seat test and balance compare those "
            "pairs, not seats. A tournament rotates the policies through the seats to tell "
            "the two apart."
        )
    rows = []
    for s in summaries:
        for seat in s["seats"]["seats"]:
            rows.append(
                [
                    label_of[id(s)],
                    str(seat["seat"]),
                    seat["policy"],
                    wins_text(seat["wins"]),
                    pct(seat["value"]),
                    interval(seat),
                ]
            )
    shared = any(shared_rate(s["seats"]) > 0 for s in summaries)
    section.add(
        Table(
            ["run", "seat", "policy", "wins", "win rate", "95% interval"],
            rows,
            f"Wins and win rates count shared wins: {SHARED_NOTE}." if shared else "",
        )
    )
    section.add(
        Table(
            ["run", "fair share"]
            + (["shared wins"] if shared else [])
            + ["no winner", "seat test", "balance", "95% interval"],
            [
                [label_of[id(s)], pct(s["seats"]["fair_share"])]
                + ([pct(shared_rate(s["seats"]))] if shared else [])
                + [
                    pct(s["seats"]["no_winner_rate"]["value"]),
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


def _length_section(
    summaries: list[dict[str, Any]], label_of: dict[int, str], note: str = ""
) -> Section:
    unit = summaries[0]["length"]["unit"]
    section = Section(
        f"Game length ({unit})",
        [
            "Mean with its 95% interval, then the percentiles: 5% of games are shorter than the "
            "5th percentile, a quarter shorter than the 25th, half shorter than the median."
        ]
        + ([note] if note else []),
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


def _end_section(
    summaries: list[dict[str, Any]], label_of: dict[int, str], notes: dict[str, str]
) -> Section:
    section = Section(
        "How games end", ["Share of games ended by each end condition (caps included)."]
    )
    rows, labels, ests = [], [], []
    lower: dict[str, list[int]] = {}  # end reason -> games won on a lower score, games
    for s in summaries:
        for e in s["end_reasons"]:
            rows.append(
                [label_of[id(s)], e["end_reason"], f"{e['games']:,}", pct(e["value"]), interval(e)]
                + [f"{e.get('lower_score_wins', 0):,}"]
            )
            prefix = f"{label_of[id(s)]}: " if len(summaries) > 1 else ""
            labels.append(prefix + e["end_reason"])
            ests.append(e)
            tally = lower.setdefault(e["end_reason"], [0, 0])
            tally[0] += e.get("lower_score_wins", 0)
            tally[1] += e["games"]
    for reason, (won_lower, games) in lower.items():
        if won_lower:
            section.paragraphs.append(
                f"In {won_lower:,} of the {games:,} games ended by '{reason}' "
                f"({pct(won_lower / games)}) the winner scored less than another seat: "
                + notes.get(reason, "the end rule, not the score, decides who wins")
                + "."
            )
    section.add(
        Table(
            ["run", "end condition", "games", "share", "95% interval", "won on a lower score"], rows
        )
    )
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


MAX_BOARD_RUNS = 3  # heatmaps drawn for at most this many runs of a report


def board_sections(runs: list[Run]) -> list[Section]:
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
                    f"board-{hm['column']}-{runs.index(run) + 1}",
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


_NONE_TO_WATCH = {  # a shared game is listed only when the run has one
    "a game nobody won": "Every game of the run had a winner.",
    "a failed game": "No game of the run failed.",
    "a comeback": "No game of the run was won by a seat that trailed at half time.",
}


def watch_section(runs: list[Run]) -> Section | None:
    """A few games worth watching, each with the command that replays it (games that record)."""
    spec = runs[0].spec
    if spec is None or spec.replay is None:
        return None
    section = Section(
        "Games to watch",
        [
            "A figure is easier to trust after watching a few of the games behind it. Each "
            "command below replays one game of the run move by move from its seed (add "
            "`--out game.html` for the board at every step)."
        ],
    )
    rows = []
    for run in runs[:MAX_BOARD_RUNS]:
        games = games_to_watch(run)
        label = f"{run.label}: " if len(runs) > 1 else ""
        for game in games:
            if game["game_index"] is None:
                section.paragraphs.append(label + _NONE_TO_WATCH[game["what"]])
        for game in (g for g in games if g["game_index"] is not None):
            rows.append(
                [
                    run.label,
                    game["what"],
                    str(game["game_index"]),
                    f"{game['length']} {run.length_unit}",
                    game["end_reason"],
                    game["command"],
                ]
            )
    section.add(Table(["run", "game", "index", "length", "end", "replay it with"], rows))
    return section


def extra_sections(runs: list[Run]) -> list[Section]:
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
