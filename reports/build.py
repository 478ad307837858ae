"""Build the designer's report from run folders and study folders.

What the report contains depends on what it is given: one run (who wins, length, end conditions,
drama), a comparison (each variant against the default), a sweep (measures against the swept
parameters) or a tournament (policies against each other and against chance). Loose run folders
are grouped automatically: runs differing only in seat policies make a tournament, other runs of
one game a comparison against the first one given.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analyses.policies import policy_summary
from analyses.runs import Run
from analyses.summary import run_summary
from analyses.targets import Target
from analyses.variants import compare_runs
from simulator.contract.errors import BalanceError
from simulator.contract.registry import get_game

from .document import Document, Section
from .grouping import kind_words, known, open_runs
from .measure_sections import own_figures
from .outcome_sections import ending_headline, ending_sections
from .run_sections import (
    board_sections,
    degenerate_sentences,
    extra_sections,
    fallback_sentences,
    outcome_sections,
    run_headline,
    seat_headline,
    watch_section,
    what_was_run,
)
from .skill_sections import ladder_headline, ladder_section, skill_headline, skill_sections
from .study_sections import (
    compare_headline,
    compare_section,
    pooled_seats,
    sweep_data,
    sweep_headline,
    sweep_sections,
    target_rows,
    targets_headline,
    targets_section,
    tournament_headline,
    tournament_section,
)


def build(paths: list[str | Path], targets: list[Target] | None = None) -> tuple[Document, dict]:
    """The report document and the same figures as a JSON-ready dict."""
    kind, runs = open_runs(paths)
    # A ladder's runs are read by its own analysis; the figures of each of its dozens of runs
    # would bury it.
    ladders = kind in ("skill", "ladder", "explore")
    summaries = [] if ladders else [run_summary(r) for r in runs]
    spec = get_game(runs[0].game) if known(runs[0].game) else None
    title = spec.title if spec else runs[0].game
    data: dict[str, Any] = {
        "kind": kind,
        "game": runs[0].game,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "runs": summaries,
    }
    headline: list[str] = []
    # An explore's design section names its settings; a table of hundreds of points would not.
    sections: list[Section] = [] if kind == "explore" else [what_was_run(runs, kind, title)]
    if kind == "compare":
        rows = compare_runs(runs[0], runs[1:])
        data["comparison"] = rows
        adapted = _adapted_play(paths)
        if adapted is not None:  # the play the effects assume comes first, once
            headline += adapted[0]
            data["adapted_play"] = adapted[2]
        headline += compare_headline(rows, runs)
        sections.append(compare_section(rows, runs))
        if adapted is not None:
            sections.append(adapted[1])
    elif kind == "sweep":
        data["sweep"] = sweep_data(runs, summaries)
        headline += sweep_headline(runs, summaries)
        sections += sweep_sections(runs, summaries)
    elif kind == "skill":
        from analyses.skill import skill_summary

        skill = skill_summary(runs)
        data.update({k: v for k, v in skill.items() if k != "game"}, out=str(paths[0]))
        headline += skill_headline(skill)
        sections += skill_sections(skill)
    elif kind == "ladder":
        from analyses.ladder import ladder_summary

        ladder = ladder_summary(runs)
        data.update(ladder, out=str(paths[0]))
        headline += ladder_headline(ladder, runs[0].length_unit)
        sections.append(ladder_section(ladder, runs[0].length_unit))
    elif kind == "explore":
        from analyses.explore import explore_summary

        from .explore_sections import explore_headline, explore_sections

        explore = explore_summary(paths[0], runs)
        data.update(explore, out=str(paths[0]))
        headline += explore_headline(explore)
        sections += explore_sections(explore)
    elif kind == "tournament":
        pol = policy_summary(runs)
        pooled = pooled_seats(runs)
        data["tournament"] = pol | {"pooled_seats": pooled}
        headline += tournament_headline(pol, pooled)
        sections.append(tournament_section(pol, pooled))
    if kind in ("single", "compare", "runs"):
        for summary in summaries[:1] if kind == "compare" else summaries:
            headline += run_headline(summary, label=len(summaries) > 1)
            labelled = f"{summary['run']['label']}: " if len(summaries) > 1 else ""
            headline += ending_headline(summary, labelled)  # places and returns
        if kind == "compare":  # each variant's own seats, and one whose games never vary
            for summary in summaries[1:]:
                label = f"{summary['run']['label']}: "
                headline += degenerate_sentences(summary, label) + seat_headline(summary, label)
                headline += fallback_sentences(summary, label)
        sections += outcome_sections(runs, summaries)
        sections += ending_sections(runs, summaries)  # places and returns
        said, own, own_data = own_figures(runs, summaries, kind)  # a game's own figures
        headline, sections = headline + said, sections + own
        data.update(own_data)
    if targets and not ladders:
        rows = target_rows(targets, runs, summaries)
        data["targets"] = rows
        headline += targets_headline(rows)
        sections.insert(1, targets_section(rows))
    if not ladders:
        sections += board_sections(runs)
        watch = watch_section(runs)
        if watch is not None:
            sections.append(watch)
        sections += extra_sections(runs)
    sections.append(_how_to_read(kind))
    methods = _methods(kind)
    if kind == "explore":
        from .explore_sections import explore_methods, how_to_read_explore

        sections[-1].paragraphs[:0] = how_to_read_explore()
        methods.paragraphs[:0] = explore_methods(explore)
    sections.append(methods)
    headline[:0] = _unfinished(runs)  # the first thing said: the figures are partial
    data["headline"] = headline
    subtitle = (
        f"{title} ({runs[0].game}), {kind_words(kind, len(runs))}; balance {runs[0].version}; "
        f"generated {data['generated'][:10]}"
    )
    return Document(f"Balance report: {title}", subtitle, headline, sections), data


def _adapted_play(paths: list[str | Path]) -> tuple[list[str], Section, dict] | None:
    """Headline, section and JSON of a comparison made with ``compare --tune``."""
    from .tune_report import adapted_play

    return adapted_play(paths[0]) if len(paths) == 1 else None


def _how_to_read(kind: str) -> Section:
    return Section(
        "How to read this report",
        [
            "Every number comes from simulated games, so it carries some luck. The 95% interval "
            "next to a number is the range that would contain the true value in 95 of 100 "
            "repetitions of the whole run; more games make it narrower.",
            "A p-value is the chance of seeing a difference at least this large if nothing "
            "really differed; below 0.05 we call a difference significant. When many "
            "differences are tested at once, p-values are raised and intervals widened (a "
            "'98.3% interval, widened because 3 comparisons were made') so that luck does not "
            "produce false alarms; a verdict always shows the interval it tested.",
            "The seat test asks whether the seats could be winning equally often with the "
            "differences seen coming from luck; balance is 1 minus the largest gap between two "
            "seats' win rates (1: every seat wins equally often), and its interval holds every "
            "pair of seats' gap at once.",
            "A sentence calls something the best, the most balanced or the strongest only when "
            "paired differences on the same games separate it from every alternative, with "
            "intervals corrected for how many were compared; otherwise it names what cannot be "
            "told apart yet and roughly how many games would tell.",
        ],
    )


def _methods(kind: str) -> Section:
    """The statistical methods by name, for a reader who wants to check them (the report's
    sentences say what each does in plain words)."""
    return Section(
        "Methods",
        [
            "Win and success rates: Wilson score intervals. Seat test: chi-square test of equal "
            "wins among seats. Mean length: t intervals. Balance: Bonferroni-corrected intervals "
            "of every pair of seats' gap; a difference of balance between settings: paired "
            "bootstrap over games.",
            "Changes between runs on the same seeds: McNemar's exact test (rates) and paired t "
            "test and interval (length); on different seeds: chi-square and Mann-Whitney tests "
            "with Welch intervals. Many comparisons: Benjamini-Hochberg corrected p-values, with "
            "false-coverage-rate intervals (level 1 - R x 0.05 / m for R of m changes called "
            "significant) and Bonferroni intervals where one setting is called the best.",
        ],
    )


FORMATS = ("html", "md")


def _unfinished(runs: list[Run]) -> list[str]:
    """One sentence on the runs whose command stopped before the end (no ``finished`` in the
    manifest): their figures are those of the games played so far."""
    partial = [r for r in runs if r.manifest.get("finished") is None]
    if not partial:
        return []
    played = sum(r.games_played() for r in partial)
    planned = sum(r.planned_games for r in partial)
    which = (
        "This run is unfinished"
        if len(runs) == 1
        else f"{len(partial)} of these {len(runs)} runs are unfinished "
        f"({', '.join(r.label for r in partial[:3])}{', ...' if len(partial) > 3 else ''})"
    )
    return [
        f"{which}: {played:,} of {planned:,} games played, the command that wrote "
        f"{'it' if len(partial) == 1 else 'them'} stopped before the end. Every figure here is "
        "of the games played so far; the same command finishes the run."
    ]


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
    if fmt not in FORMATS:
        raise BalanceError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    doc, data = build(paths, targets)
    write_document(doc, out, fmt)
    data["report"] = str(out)
    return data


def write_document(doc: Document, out: str | Path, fmt: str = "html") -> Path:
    """Render a report to ``out``: one self-contained HTML file, or Markdown with its figures in
    ``<out stem>_figures/``."""
    from .html import render_html
    from .markdown import render_markdown

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
    return out
