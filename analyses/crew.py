"""Crew Deep Sea analyses: success per mission, the campaign, and the difficulty audit.

The audit fits, per player count, a logistic model of mission success against the task cards
present (one indicator per card, and an intercept): each card's coefficient is its empirical
difficulty in log-odds, with a Wald interval from the inverse Hessian. The printed values are
mapped onto the same axis by a weighted line with offset (a common shift of all cards is not
identified), and the cards furthest from that line, in standard errors, are listed. Mission
targets get the same treatment: success against target.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import optimize, stats

from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import RunFolder
from simulator.games.crew_deep_sea.board import EPILOGUE, missions, task_table

RIDGE = 0.5  # weak L2 prior on card coefficients (log-odds), keeps rare cards finite


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(successes, n).proportion_ci(confidence_level=level, method="wilson")
    return (float(ci.low), float(ci.high))


def load_games(runs: list[str | Path]) -> pl.DataFrame:
    """The columns the analyses need from one or more Crew runs."""
    frames = []
    for run in runs:
        folder = RunFolder.open(run)
        manifest = folder.read_manifest()
        if manifest["config"]["game"] != "crew-deep-sea":
            raise BalanceError(f"{str(run)!r} is a {manifest['config']['game']} run, not crew")
        policy = ",".join(sorted(set(manifest["config"]["policies"])))
        frames.append(
            folder.scan()
            .select("n_players", "success", "crew_mission", "crew_tasks", "crew_distress")
            .with_columns(pl.lit(policy).alias("policy"))
            .collect()
        )
    return pl.concat(frames)


def success_by_mission(games: pl.DataFrame) -> pl.DataFrame:
    """Success rate with its Wilson interval per policy, player count and mission."""
    agg = (
        games.group_by("policy", "n_players", "crew_mission")
        .agg(
            pl.len().alias("attempts"),
            pl.col("success").sum().alias("successes"),
            pl.col("crew_distress").mean().alias("distress_rate"),
        )
        .sort("policy", "n_players", "crew_mission")
    )
    lows, highs = zip(
        *(wilson(s, n) for s, n in zip(agg["successes"], agg["attempts"], strict=True)),
        strict=True,
    )
    return agg.with_columns(
        (pl.col("successes") / pl.col("attempts")).alias("success_rate"),
        pl.Series("ci_low", lows),
        pl.Series("ci_high", highs),
    )


def ceiling_summary(
    verdict: np.ndarray, budget: int, seconds: np.ndarray | None = None
) -> dict[str, Any]:
    """The crew's ceiling on one mission's deals from the exact solver's verdicts (1 winnable,
    0 impossible, -1 unknown: budget spent): the share proven winnable with its Wilson
    interval, and the share not proven impossible (what the ceiling would be if every unknown
    deal were winnable), so the true ceiling lies between the two. ``seconds`` (per deal), when
    given, adds their mean."""
    verdict = np.asarray(verdict)
    n = len(verdict)
    won = int((verdict == 1).sum())
    unknown = int((verdict == -1).sum())

    def share(k: int) -> dict[str, float]:
        lo, hi = wilson(k, n)
        return {"value": k / n if n else 0.0, "lo": lo, "hi": hi}

    summary = {
        "deals": n,
        "winnable": won,
        "impossible": n - won - unknown,
        "unknown": unknown,
        "exact": n - unknown,
        "ceiling": share(won),
        "not_impossible": share(won + unknown),
        "budget": int(budget),
    }
    if seconds is not None:
        summary["seconds_per_deal"] = float(np.mean(seconds)) if n else 0.0
    return summary


def campaign(table: pl.DataFrame) -> pl.DataFrame:
    """Expected attempts per mission (1/success, distress counted as one more attempt each)
    and the whole logbook (sum), per policy and player count."""
    per = table.with_columns(
        (
            (1 + pl.col("distress_rate"))
            / pl.when(pl.col("success_rate") > 0).then(pl.col("success_rate")).otherwise(None)
        ).alias("expected_attempts")
    )
    return per.group_by("policy", "n_players").agg(
        pl.col("expected_attempts").sum().alias("logbook_expected_attempts"),
        pl.col("expected_attempts").is_null().sum().alias("missions_never_won"),
        pl.len().alias("missions"),
    )


def _fit_logistic(x: np.ndarray, y: np.ndarray, ridge: np.ndarray) -> tuple[np.ndarray, ...]:
    def nll(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ beta
        p = 1.0 / (1.0 + np.exp(-z))
        loss = np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * np.sum(ridge * beta**2)
        return loss, x.T @ (p - y) + ridge * beta

    res = optimize.minimize(nll, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B")
    beta = res.x
    p = 1.0 / (1.0 + np.exp(-(x @ beta)))
    hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(ridge)
    se = np.sqrt(np.diag(np.linalg.pinv(hess)))
    return beta, se


def difficulty_audit(games: pl.DataFrame, top: int = 5) -> dict[str, Any]:
    """Per player count: each task card's empirical difficulty beside its printed value."""
    table = task_table()
    out: dict[str, Any] = {}
    # mission 32's tasks are fixed, not drawn: they say nothing about a card's printed value
    drawn = games.filter((pl.col("crew_tasks").list.max() > 0) & (pl.col("crew_mission") != 32))
    for n_players in sorted(drawn["n_players"].unique().to_list()):
        sub = drawn.filter(pl.col("n_players") == n_players)
        # a success after a distress call cost two attempts: it counts as half a success, so
        # cards that draw the call show as harder than their raw success suggests
        y = sub["success"].to_numpy().astype(float) / (
            1.0 + sub["crew_distress"].to_numpy().astype(float)
        )
        x = np.zeros((len(sub), 97))
        x[:, 96] = 1.0  # intercept
        for i, ids in enumerate(sub["crew_tasks"].to_list()):
            for t in ids:
                if t > 0:
                    x[i, t - 1] += 1.0
        ridge = np.full(97, RIDGE)
        ridge[96] = 1e-6
        beta, se = _fit_logistic(x, y, ridge)
        empirical = -beta[:96]  # difficulty = log-odds of success lost
        printed = table.difficulty[:, max(n_players, 3) - 3].astype(float)  # 2p: 3p values
        seen = x[:, :96].sum(axis=0)
        ok = seen >= 20
        # Card effects are identified only up to a common shift (each mission's task count is
        # nearly fixed), so the printed scale is fitted with an offset: empirical ~ a + b*printed.
        w = 1.0 / se[:96][ok] ** 2
        design = np.column_stack([np.ones(ok.sum()), printed[ok]]) * np.sqrt(w)[:, None]
        (offset, slope), *_ = np.linalg.lstsq(design, empirical[ok] * np.sqrt(w), rcond=None)
        offset, slope = float(offset), float(slope)
        z = (empirical - offset - slope * printed) / se[:96]
        z[~ok] = 0.0
        q = stats.norm.ppf(0.975)
        in_units = _printed_units(empirical, offset, slope)
        cards = pl.DataFrame(
            {
                "task": np.arange(1, 97),
                "key": list(table.keys),
                "printed": printed.astype(int),
                "empirical_logodds": empirical,
                "ci_low": empirical - q * se[:96],
                "ci_high": empirical + q * se[:96],
                # a difficulty is not negative: a card easier than the fitted line's zero
                # is reported at 0 and marked below the scale, its interval cut there too
                "empirical_in_printed_units": np.maximum(in_units, 0.0),
                "printed_units_low": np.maximum(
                    _printed_units(empirical - q * se[:96], offset, slope), 0.0
                ),
                "printed_units_high": np.maximum(
                    _printed_units(empirical + q * se[:96], offset, slope), 0.0
                ),
                "below_scale": in_units < 0,
                "z": z,
                "missions_seen": seen.astype(int),
            }
        )
        flagged = cards.filter(pl.col("missions_seen") >= 20).sort(
            pl.col("z").abs(), descending=True
        )
        out[str(n_players)] = {
            "slope_logodds_per_point": slope,
            "cards": cards,
            "flagged": flagged.head(top),
            "missions": _mission_targets(games.filter(pl.col("n_players") == n_players)),
        }
    return out


def _printed_units(logodds: np.ndarray, offset: float, slope: float) -> np.ndarray:
    """Log-odds of difficulty on the printed scale (NaN when the printed values do not rise
    with difficulty, so no scale can be fitted)."""
    if slope <= 0:
        return np.full_like(logodds, np.nan)
    return (logodds - offset) / slope


def flagged_under_both(first: pl.DataFrame, second: pl.DataFrame, z: float = 3.0) -> pl.DataFrame:
    """Cards out of line (|z| >= ``z``, same sign) in two audits' card tables, e.g. under
    `expert` and `omniscient`: what both crews find mispriced is a property of the cards."""
    cols = ["task", "key", "printed", "empirical_in_printed_units", "below_scale", "z"]
    cols += ["printed_units_low", "printed_units_high", "empirical_logodds", "ci_low", "ci_high"]
    # an audit written by an earlier version lacks the printed-scale interval
    cols = [c for c in cols if c in first.columns and c in second.columns]
    both = first.select(cols).join(second.select(cols), on=["task", "key", "printed"])
    return both.filter(
        (pl.col("z").abs() >= z)
        & (pl.col("z_right").abs() >= z)
        & (pl.col("z").sign() == pl.col("z_right").sign())
    ).sort(pl.col("z").abs(), descending=True)


def _mission_targets(games: pl.DataFrame) -> pl.DataFrame:
    """Success against the printed target for drawn missions; residual from a logistic fit."""
    book = missions()
    rows = (
        games.group_by("crew_mission")
        .agg(pl.len().alias("attempts"), pl.col("success").sum().alias("successes"))
        .sort("crew_mission")
    )
    target = [book[m].target if m in book else 0 for m in rows["crew_mission"]]
    rows = rows.with_columns(pl.Series("target", target))
    drawn = rows.filter((pl.col("target") > 0) & (pl.col("crew_mission") != EPILOGUE))
    if drawn.height < 3:
        return rows
    t = drawn["target"].to_numpy().astype(float)
    k = drawn["successes"].to_numpy().astype(float)
    n = drawn["attempts"].to_numpy().astype(float)
    x = np.repeat(np.column_stack([np.ones_like(t), t]), n.astype(int), axis=0)
    y = np.concatenate(
        [np.r_[np.ones(int(a)), np.zeros(int(b - a))] for a, b in zip(k, n, strict=True)]
    )
    beta, _ = _fit_logistic(x, y, np.array([1e-6, 1e-6]))
    expected = 1.0 / (1.0 + np.exp(-(beta[0] + beta[1] * t)))
    se = np.sqrt(np.maximum(expected * (1 - expected) / n, 1e-12))
    return drawn.with_columns(
        (pl.col("successes") / pl.col("attempts")).alias("success_rate"),
        pl.Series("expected_from_target", expected),
        pl.Series("z", (k / n - expected) / se),
    ).sort(pl.col("z").abs(), descending=True)


def campaign_attempts(run: Any) -> dict[str, Any] | None:
    """A `campaign` run (the logbook as one game): expected attempts for the logbook with its
    95% t interval, campaigns finished, and the attempts at each mission (mean with interval,
    share of all attempts). None for a run of single attempts. Campaigns stopped by the attempt
    cap count their attempts so far, so with any of them the logbook mean is a lower bound."""
    from analyses.stats import mean_from_moments, proportion

    if not run.rules.get("campaign"):
        return None
    games = run.scan().select("length", "success", "crew_campaign_attempts").collect()
    n = games.height
    if n == 0:
        return None
    length = games["length"].to_numpy().astype(float)
    per = np.stack(games["crew_campaign_attempts"].to_numpy())
    total = max(float(length.sum()), 1.0)
    rows = []
    for m in range(per.shape[1]):
        col = per[:, m]
        reached = col >= 0
        if not reached.any():
            continue
        a = col[reached].astype(float)
        est = mean_from_moments(
            float(a.mean()), float(a.std(ddof=1)) if a.size > 1 else 0.0, a.size
        )
        rows.append(
            {
                "mission": m + 1,
                "campaigns": int(reached.sum()),
                "attempts": est.as_dict(),
                "share": float(a.sum() / total),
            }
        )
    sd = float(length.std(ddof=1)) if n > 1 else 0.0
    return {
        "campaigns": n,
        "finished": proportion(int(games["success"].sum()), n).as_dict(),
        "capped": int(n - games["success"].sum()),
        "attempt_cap": run.rules.get("campaign_attempt_cap"),
        "logbook_attempts": mean_from_moments(float(length.mean()), sd, n).as_dict(),
        "missions": rows,
    }
