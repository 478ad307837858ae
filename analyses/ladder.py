"""Does a variant's effect hold as play gets stronger? (``balance compare --ladder``)

The comparison is played once under every rung of a skill ladder (every seat playing the rung),
each rung on the same seeds. Per rung, the effects are the ordinary paired comparison
(:func:`analyses.variants.compare_runs`). Per figure (a variant and a measure) the verdict is

- "changes with skill" when the effect at two rungs differs: a z test of the difference of two
  rungs' effects (independent runs), its p-values corrected over every pair of rungs and figure;
- "holds at every rung" when no such difference is found and the effect is significant, with
  the same sign, at every rung (p-values corrected over every rung and figure);
- "cannot tell yet" otherwise: a rung shows no significant effect, and none differs;
- "no effect at any rung" in the one case that needs no test: every game came out the same
  under the variant at every rung (every difference and interval exactly zero).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from scipy import stats as sps

from .runs import Run
from .stats import ALPHA, CONFIDENCE, adjust_p_values
from .variants import compare_runs

HOLDS, CHANGES, UNSURE = "holds at every rung", "changes with skill", "cannot tell yet"
NONE = "no effect at any rung"
Z = float(sps.norm.ppf(0.5 + CONFIDENCE / 2))


def rung_groups(runs: list[Run]) -> list[tuple[str, list[Run]]]:
    """The runs of each rung, rungs in the order played, the default rules first in each."""
    groups: dict[str, list[Run]] = {}
    for run in runs:
        groups.setdefault(run.params["rung"], []).append(run)
    return list(groups.items())


def figure_name(row: dict[str, Any]) -> str:
    return f"{row['variant']}: {row['measure']}"


def ladder_summary(runs: list[Run]) -> dict[str, Any]:
    """``ladder``: each rung with its effects; ``ladder_verdicts`` {figure: verdict};
    ``figures``: per figure its effect at every rung and the reasons for its verdict."""
    ladder = []
    for rung, group in rung_groups(runs):
        rows = compare_runs(group[0], group[1:])
        for row in rows:
            row["variant"] = row["variant"].removesuffix(f" [{rung}]")
        ladder.append({"rung": rung, "effects": rows})
    return judge(ladder)


def judge(ladder: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdict of every figure from each rung's effects (``ladder``: rung and effects)."""
    figures: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for entry in ladder:
        for row in entry["effects"]:
            figures.setdefault(figure_name(row), []).append((entry["rung"], row))
    significant = _significance(figures)
    differences = _differences(figures)
    verdicts, details = {}, {}
    for name, cells in figures.items():
        changes = [d for d in differences if d["figure"] == name and d["significant"]]
        sig = [significant[name, rung] for rung, _ in cells]
        signs = {math.copysign(1, row["diff"]) for _, row in cells}
        if all(row["diff"] == row["lo"] == row["hi"] == 0 for _, row in cells):
            verdict = NONE
        elif changes:
            verdict = CHANGES
        elif all(sig) and len(signs) == 1:
            verdict = HOLDS
        else:
            verdict = UNSURE
        verdicts[name] = verdict
        details[name] = {
            "verdict": verdict,
            "kind": cells[0][1]["kind"],
            "rungs": [
                {
                    "rung": rung,
                    "diff": row["diff"],
                    "lo": row["lo"],
                    "hi": row["hi"],
                    "significant": significant[name, rung],
                }
                for rung, row in cells
            ],
            "differences": [d for d in differences if d["figure"] == name],
        }
    return {"ladder": ladder, "ladder_verdicts": verdicts, "figures": details}


def _standard_error(row: dict[str, Any]) -> float:
    lo, hi = row["lo"], row["hi"]
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return math.nan
    return (hi - lo) / (2 * Z)


def _significance(figures: dict[str, list[tuple[str, dict[str, Any]]]]) -> dict:
    keys, p = [], []
    for name, cells in figures.items():
        for rung, row in cells:
            keys.append((name, rung))
            p.append(row["p_value"])
    adjusted = adjust_p_values(p)
    return {k: bool(a < ALPHA) if a == a else False for k, a in zip(keys, adjusted, strict=True)}


def _differences(figures: dict[str, list[tuple[str, dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Every pair of rungs, per figure: the difference of their effects and its test."""
    out = []
    for name, cells in figures.items():
        for (ra, a), (rb, b) in itertools.combinations(cells, 2):
            se = math.hypot(_standard_error(a), _standard_error(b))
            delta = b["diff"] - a["diff"]
            if se > 0 and math.isfinite(se):
                p = float(2 * sps.norm.sf(abs(delta) / se))
            else:
                p = 1.0 if delta == 0 else 0.0
            out.append(
                {
                    "figure": name,
                    "from": ra,
                    "to": rb,
                    "change": delta,
                    "lo": delta - Z * se,
                    "hi": delta + Z * se,
                    "p_value": p,
                }
            )
    adjusted = adjust_p_values([d["p_value"] for d in out])
    for d, a in zip(out, adjusted, strict=True):
        d["p_adjusted"] = a
        d["significant"] = bool(a < ALPHA) if a == a else False
    return out
