"""Does a variant's effect hold as play gets stronger? (``balance compare --ladder``)

The comparison is played once under every rung of a skill ladder (every seat playing the rung),
each rung on the same seeds. Per rung, the effects are the ordinary paired comparison
(:func:`analyses.variants.compare_runs`). Per figure (a variant and a measure) the verdict is

- "changes with skill" when the effect at two rungs differs. The rungs play the same seeds, so
  game i under one rung and game i under another share their deal: the test is a paired t test
  of the per-game difference of the two effects (variant minus default under one rung, minus
  the same under the other), its p-values corrected over every pair of rungs and figure;
- "holds at every rung" when no such difference is found and the effect is significant, with
  the same sign, at every rung (p-values corrected over every rung and figure);
- "cannot tell yet" otherwise: a rung shows no significant effect and none differs, or a rung
  could not measure the figure at all (every game the same under both rule sets, or a seat's
  win rate where fewer than ``MIN_DECIDED`` games have a winner: random players who decide
  almost no game): such a rung takes part in no test, and its reason is given. A seat's win
  rate counts a k-way shared win 1/k; the shared-win rate is a figure of its own where a game
  shares its win;
- "no effect at any rung" in the one case that needs no test: every game came out the same
  under the variant at every rung (every difference and interval exactly zero).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as sps

from simulator.contract.outcomes import WIN_SHARE

from .runs import Run, paired
from .skill import MIN_DECIDED
from .stats import ALPHA, CONFIDENCE, adjust_p_values, paired_mean
from .variants import OUTCOME_COLUMNS, compare_runs

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
    groups = rung_groups(runs)
    common = all(paired(groups[0][1][0], group[0]) for _, group in groups)
    for rung, group in groups:
        rows = compare_runs(group[0], group[1:])
        for row in rows:
            row["variant"] = row["variant"].removesuffix(f" [{rung}]")
        entry: dict[str, Any] = {"rung": rung, "effects": rows}
        entry["unmeasured"], per_game = _per_game_effects(rung, group[0], group[1:])
        if common:  # every rung on the same seeds: differences between rungs are paired
            entry["per_game"] = per_game
        ladder.append(entry)
    return judge(ladder)


def _per_game_effects(
    rung: str, base: Run, others: list[Run]
) -> tuple[dict[str, str], dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Per figure: the game indices and each game's value under the variant minus under the
    default; and the figures this rung cannot measure, with the reason in words (a seat's win
    rate needs ``MIN_DECIDED`` games with a winner under both rule sets; any figure needs two
    games that differ in it)."""
    columns = [c for c in OUTCOME_COLUMNS if c in base.scan().collect_schema()]
    effects, unmeasured = {}, {}
    for other in others:
        label = other.label.removesuffix(f" [{rung}]")
        joined = (
            base.scan()
            .select(columns)
            .join(other.scan().select(columns), on="game_index", suffix="_v")
            .sort("game_index")
            .collect()
        )
        index = joined["game_index"].to_numpy()
        values: dict[str, tuple[pl.Expr, pl.Expr]] = {}
        few = None
        if base.cooperative:
            values["success rate"] = (
                pl.col("success").fill_null(False),
                pl.col("success_v").fill_null(False),
            )
        else:
            count = {c: _winners(c) for c in (WIN_SHARE, f"{WIN_SHARE}_v")}
            decided = [int(joined.select((n > 0).sum()).item()) for n in count.values()]
            if min(decided) < MIN_DECIDED:
                few = (
                    f"{rung} players decide no game, with or without the variant"
                    if max(decided) == 0
                    else f"{rung} players decide {decided[0]:,} of {joined.height:,} games by "
                    f"default and {decided[1]:,} with the variant"
                )
            for s in range(base.n_players):  # a seat's share of the win: 1/k a shared win
                values[f"seat {s + 1} win rate"] = (
                    pl.col(WIN_SHARE).list.get(s),
                    pl.col(f"{WIN_SHARE}_v").list.get(s),
                )
            by_default, by_variant = count.values()
            shared = (by_default >= 2, by_variant >= 2)
            if joined.select((shared[0] | shared[1]).any()).item():  # only where a win is shared
                values["shared-win rate"] = shared
            values["no-winner rate"] = (by_default == 0, by_variant == 0)
        values["mean length"] = (pl.col("length"), pl.col("length_v"))
        frame = joined.select(
            *(a.cast(pl.Float64).alias(f"{m}|a") for m, (a, _) in values.items()),
            *(b.cast(pl.Float64).alias(f"{m}|b") for m, (_, b) in values.items()),
        )
        for measure in values:
            a, b = frame[f"{measure}|a"].to_numpy(), frame[f"{measure}|b"].to_numpy()
            name = f"{label}: {measure}"
            effects[name] = (index, b - a)
            both = np.concatenate([a, b])
            if few is not None and measure.startswith("seat "):
                unmeasured[name] = few
            elif len(both) and np.all(both == both[0]):
                unmeasured[name] = _same_everywhere(measure, both[0], rung, base.length_unit)
    return unmeasured, effects


def _winners(column: str) -> pl.Expr:
    """How many seats hold a share of the win in each game."""
    return pl.col(column).list.eval(pl.element() > 0).list.sum()


def _same_everywhere(measure: str, value: float, rung: str, unit: str) -> str:
    """Why a figure that is the same in every game under both rule sets tells nothing."""
    either = "with or without the variant"
    if measure == "mean length":
        return f"every game under {rung} lasts {value:,.0f} {unit}, {either}"
    if measure == "success rate":
        return f"{rung} players complete {'every' if value else 'no'} deal, {either}"
    if measure == "shared-win rate":
        return f"every game under {rung} {'is' if value else 'is not'} shared, {either}"
    if measure == "no-winner rate":
        return (
            f"{rung} players decide no game, {either}"
            if value
            else f"every game under {rung} has a winner, {either}"
        )
    seat = measure.removesuffix(" win rate")
    return f"{seat} {'wins every game' if value else 'never wins'} under {rung}, {either}"


def judge(ladder: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdict of every figure from each rung's effects (``ladder``: rung and effects; and,
    when the rungs share their seeds, ``per_game``: figure -> (game indices, per-game effect),
    and ``unmeasured``: figure -> why the rung cannot measure it)."""
    figures: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for entry in ladder:
        for row in entry["effects"]:
            figures.setdefault(figure_name(row), []).append((entry["rung"], row))
    per_game = {e["rung"]: e.get("per_game", {}) for e in ladder}
    unmeasured = {e["rung"]: e.get("unmeasured", {}) for e in ladder}
    significant = _significance(figures)
    differences = _differences(figures, per_game, unmeasured)
    verdicts, details = {}, {}
    for name, cells in figures.items():
        changes = [d for d in differences if d["figure"] == name and d["significant"]]
        missing = {rung: unmeasured[rung][name] for rung, _ in cells if name in unmeasured[rung]}
        sig = [significant[name, rung] for rung, _ in cells]
        signs = {math.copysign(1, row["change"]["value"]) for _, row in cells}
        if all(row["change"] == {"value": 0, "lo": 0, "hi": 0} for _, row in cells):
            verdict = NONE
        elif changes:
            verdict = CHANGES
        elif all(sig) and len(signs) == 1 and not missing:
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
                    "effect": row["change"],
                    "significant": significant[name, rung],
                    "measured": rung not in missing,
                    "why_not": missing.get(rung),
                }
                for rung, row in cells
            ],
            "differences": [d for d in differences if d["figure"] == name],
        }
    plain = [{k: v for k, v in e.items() if k != "per_game"} for e in ladder]
    return {"ladder": plain, "ladder_verdicts": verdicts, "figures": details}


def _standard_error(row: dict[str, Any]) -> float:
    lo, hi = row["change"]["lo"], row["change"]["hi"]
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


def _differences(
    figures: dict[str, list[tuple[str, dict[str, Any]]]],
    per_game: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]],
    unmeasured: dict[str, dict[str, str]],
) -> list[dict[str, Any]]:
    """Every pair of rungs that both measure a figure: the difference of their effects and its
    test (paired on common games when both rungs have per-game effects)."""
    out = []
    for name, cells in figures.items():
        measured = [(rung, row) for rung, row in cells if name not in unmeasured[rung]]
        for (ra, a), (rb, b) in itertools.combinations(measured, 2):
            if name in per_game[ra] and name in per_game[rb]:
                change = _paired_change(per_game[ra][name], per_game[rb][name])
            else:
                change = _independent_change(a, b)
            out.append({"figure": name, "from": ra, "to": rb, **change})
    adjusted = adjust_p_values([d["p_value"] for d in out])
    for d, a in zip(out, adjusted, strict=True):
        d["p_adjusted"] = a
        d["significant"] = bool(a < ALPHA) if a == a else False
    return out


def _paired_change(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> dict[str, Any]:
    """The effect under rung b minus under rung a, game by game on the games both played."""
    common, ia, ib = np.intersect1d(a[0], b[0], return_indices=True)
    d = paired_mean(a[1][ia], b[1][ib])
    return {
        "change": d.change,
        "p_value": d.p_value,
        "games": len(common),
        "test": "paired t on the per-game difference of the two effects (common seeds)",
    }


def _independent_change(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Without common games: a z test of two independent estimates from their intervals."""
    se = math.hypot(_standard_error(a), _standard_error(b))
    delta = b["change"]["value"] - a["change"]["value"]
    if se > 0 and math.isfinite(se):
        p = float(2 * sps.norm.sf(abs(delta) / se))
    else:
        p = 1.0 if delta == 0 else 0.0
    return {
        "change": {"value": delta, "lo": delta - Z * se, "hi": delta + Z * se},
        "p_value": p,
        "games": None,
        "test": "z test of two independent effects",
    }
