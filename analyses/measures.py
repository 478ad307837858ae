"""A game's own figures (a game file's ``measures``, a shipped game's count and measure columns:
``Run.own_figures``): their mean per game in each run, and their changes from the default in a
comparison.

A change is paired game by game where the runs share game seeds (the mean of each game's
change, paired t test), else compared as independent samples (Welch interval, Mann-Whitney
test), over the games where the figure applies in both. The own figures form one family of
comparisons, corrected as the win rates are (``analyses.variants.correct``: Benjamini-Hochberg,
each interval widened to the level the correction tests), apart from the win rates' family, so
that a game with many figures of its own does not weaken what the win rates can tell.
"""

from __future__ import annotations

from typing import Any

from .runs import Run, paired
from .stats import Difference, paired_mean, unpaired_mean
from .variants import correct


def figure_notes(run: Run) -> dict[str, str]:
    """What each own figure is, in the game's words (its spec's column descriptions)."""
    spec = run.spec
    return dict(spec.columns) if spec is not None else {}


def measure_changes(base: Run, others: list[Run]) -> list[dict[str, Any]]:
    """One row per variant and own figure, shaped as ``compare_runs``'s rows (``kind``
    ``own``): the default's and the variant's means, ``change`` with its 95% interval, the
    p-value, and after the correction ``p_adjusted``, ``significant`` and ``corrected``."""
    own = base.own_figures()
    rows: list[dict[str, Any]] = []
    for other in others:
        theirs = other.own_figures()
        names = [c for c in own if c in theirs]
        if not names:
            continue
        is_paired = paired(base, other)
        b = base.scan().select("game_index", *(own[c].alias(c) for c in names)).collect()
        o = other.scan().select("game_index", *(theirs[c].alias(c) for c in names)).collect()
        joined = b.join(o, on="game_index", suffix="_v") if is_paired else None
        for c in names:
            if joined is not None:
                both = joined.select(c, f"{c}_v").drop_nulls()
                if both.height == 0:
                    continue
                d = paired_mean(both[c].to_numpy(), both[f"{c}_v"].to_numpy())
                games = (both.height, both.height)
            else:
                x, y = b[c].drop_nulls(), o[c].drop_nulls()
                if x.len() == 0 or y.len() == 0:
                    continue
                d = unpaired_mean(x.to_numpy(), y.to_numpy())
                games = (x.len(), y.len())
            rows.append(_row(other.label, c, is_paired, games, d))
    correct(rows)
    return rows


def _row(
    variant: str, column: str, is_paired: bool, games: tuple[int, int], d: Difference
) -> dict[str, Any]:
    return {
        "variant": variant,
        "measure": column,
        "kind": "own",
        "seat": None,
        "paired": is_paired,
        "games_base": games[0],
        "games_variant": games[1],
        "base": d.base,
        "other": d.other,
        "change": d.change,
        "p_value": d.p_value,
        "test": d.test,
    }
