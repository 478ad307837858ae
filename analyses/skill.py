"""How much skill matters: ratings of a ladder's rungs, how often the weaker one wins, and how
the game's own figures move as play gets stronger (``balance skill``).

Competitive games: every pair of rungs played at tables holding only those two, seats rotated on
common seeds, so every game is one comparison of two rungs. The ratings are Bradley-Terry
strengths fitted to all of them (``choix``), a game without a winner counting half to each; they
are shown on the Elo scale (400 points: 10 to 1 odds) with ``random`` (else the weakest rung) at
0, and their intervals come from a parametric bootstrap of every pair's results.

Cooperative games: every rung plays every seat on the same deals; two rungs are compared on the
deals where exactly one of them succeeds, and those comparisons feed the same model.

The *upset rate* is how often the weaker of two rungs adjacent in the ratings wins, among the
games one of them won: 50% is a coin flip (two players of the same skill, or a game of pure
chance), 0% is a game skill always decides.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from .runs import Run
from .stats import CONFIDENCE, mean_from_moments, proportion, unpaired_proportion
from .summary import means_of

ELO = 400.0 / math.log(10.0)  # Bradley-Terry log-strength -> Elo points
PRIOR = 0.5  # pseudo-games won each way by every pair: keeps a clean sweep's rating finite
RESAMPLES = 1000
COIN_FLIP = 0.5  # the upset rate of two rungs of the same skill


def ladder_runs(runs: list[Run]) -> tuple[list[str], list[Run], list[Run]]:
    """Rungs in the order given, the runs of each rung against itself, the pair runs."""
    selves = [r for r in runs if len(r.params.get("rungs", [])) == 1]
    pairs = [r for r in runs if len(r.params.get("rungs", [])) == 2]
    rungs = list(dict.fromkeys(r.params["rungs"][0] for r in selves))
    return rungs, selves, pairs


def skill_summary(runs: list[Run], seed: int = 0) -> dict[str, Any]:
    """Everything the skill report shows (the JSON of ``balance skill``)."""
    rungs, selves, pairs = ladder_runs(runs)
    first = runs[0]
    if first.cooperative:
        wins, per_point = _cooperative_comparisons(rungs, selves)
    else:
        wins, per_point = _pair_results(rungs, pairs), None
    ratings = fit_ratings(wins, rungs, seed)
    order = sorted(range(len(rungs)), key=lambda k: (ratings[k]["rating"], k))
    rung_rows = []
    for k in order:
        own = [r for r in selves if r.params["rungs"][0] == rungs[k]]
        rung_rows.append({"name": rungs[k], **ratings[k], **_own_figures(own)})
    adjacent = [_pair_row(wins, rungs, order[i + 1], order[i]) for i in range(len(order) - 1)]
    upset = _pooled_upset(adjacent)
    extremes = _pair_row(wins, rungs, order[-1], order[0]) if len(order) > 1 else None
    return {
        "game": first.game,
        "players": first.n_players,
        "games": sum(r.games_played() for r in runs),
        "cooperative": first.cooperative,
        "rungs": rung_rows,
        "pairs": adjacent,
        "extremes": extremes,
        "upset_rate": upset["value"],
        "upset_ci": [upset["lo"], upset["hi"]],
        "upset_rate_random": COIN_FLIP,
        "skill_share": _skill_share(upset),
        "extremes_skill_share": _skill_share(extremes) if extremes else None,
        "points": per_point,
        "anchor_swept_by": [r["name"] for r in rung_rows if r["sweeps_anchor"]],
        "model": (
            "Bradley-Terry (choix), Elo scale, a game without a winner counting half to each "
            f"rung, {PRIOR} pseudo-game each way per pair; intervals: parametric bootstrap, "
            f"{RESAMPLES} resamples"
        ),
    }


# -- comparisons ------------------------------------------------------------------------------
def _pair_results(rungs: list[str], pairs: list[Run]) -> np.ndarray:
    """``wins[i, j, 0]``: games rung i won against rung j; ``wins[i, j, 1]``: games of the pair
    nobody won (the same in both cells)."""
    wins = np.zeros((len(rungs), len(rungs), 2))
    for run in pairs:
        a, b = (rungs.index(x) for x in run.params["rungs"])
        row = (
            run.scan()
            .select(
                pl.col("policies")
                .list.get(pl.col("winner").cast(pl.Int64), null_on_oob=True)
                .alias("winning")
            )
            .group_by("winning")
            .agg(pl.len().alias("n"))
            .collect()
        )
        for winning, n in row.iter_rows():
            if winning is None:
                wins[a, b, 1] += n
                wins[b, a, 1] += n
            else:
                w = rungs.index(winning)
                wins[w, b if w == a else a, 0] += n
    return wins


def _cooperative_comparisons(
    rungs: list[str], selves: list[Run]
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Deal by deal: rung i "beats" rung j when it succeeds and j fails on the same seed (and
    rule setting). Also each rung's success rate at each setting."""
    wins = np.zeros((len(rungs), len(rungs), 2))
    points: dict[str, dict[str, Any]] = {}
    for run in selves:
        key = _point_text(run.params.get("point", {}))
        points.setdefault(key, {"point": run.params.get("point", {}), "runs": {}})
        points[key]["runs"][run.params["rungs"][0]] = run
    per_point = []
    for entry in points.values():
        outcomes = {
            rung: run.scan()
            .select("game_index", pl.col("success").fill_null(False))
            .collect()
            .sort("game_index")
            for rung, run in entry["runs"].items()
        }
        row = {"point": entry["point"], "rungs": []}
        for rung, df in outcomes.items():
            ok = df["success"].to_numpy()
            row["rungs"].append({"name": rung, **proportion(int(ok.sum()), len(ok)).as_dict()})
        for a, da in outcomes.items():
            for b, db in outcomes.items():
                if a == b:
                    continue
                joined = da.join(db, on="game_index", suffix="_b")
                i, j = rungs.index(a), rungs.index(b)
                wins[i, j, 0] += int((joined["success"] & ~joined["success_b"]).sum())
        per_point.append(row)
    return wins, per_point


def _point_text(point: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


# -- ratings ----------------------------------------------------------------------------------
def _strengths(counts: np.ndarray) -> np.ndarray:
    import choix

    comp = counts[..., 0] + 0.5 * counts[..., 1]
    np.fill_diagonal(comp, 0.0)
    return choix.ilsr_pairwise_dense(comp, alpha=PRIOR, max_iter=1000)


def fit_ratings(wins: np.ndarray, rungs: list[str], seed: int = 0) -> list[dict[str, Any]]:
    """Each rung's Elo-scale rating against the anchor, with a 95% bootstrap interval."""
    n = len(rungs)
    anchor = next((k for k, r in enumerate(rungs) if r.partition(":")[0] == "random"), None)
    theta = _strengths(wins)
    if anchor is None:
        anchor = int(np.argmin(theta))
    rng = np.random.default_rng(seed)
    draws = np.empty((RESAMPLES, n))
    for b in range(RESAMPLES):
        draws[b] = _strengths(_resample(wins, rng))
    rel = (draws - draws[:, [anchor]]) * ELO
    alpha = (1 - CONFIDENCE) / 2
    lo, hi = np.quantile(rel, [alpha, 1 - alpha], axis=0)
    point = (theta - theta[anchor]) * ELO
    return [
        {
            "rating": float(point[k]),
            "rating_ci": [float(lo[k]), float(hi[k])],
            "anchor": k == anchor,
            # Never lost a decided game to the anchor: how far above it rests on the prior.
            "sweeps_anchor": bool(wins[k, anchor, 0] > 0 and wins[anchor, k, 0] == 0),
        }
        for k in range(n)
    ]


def _resample(wins: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Every pair's games drawn again from its shares of wins and no-winner games, each share
    taken half a game away from zero (Jeffreys): a clean sweep must not resample as a certainty."""
    out = np.zeros_like(wins)
    n = wins.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            counts = np.array([wins[i, j, 0], wins[j, i, 0], wins[i, j, 1]])
            total = int(counts.sum())
            if total == 0:
                continue
            smoothed = counts + np.array([0.5, 0.5, 0.5 if counts[2] else 0.0])
            a, b, d = rng.multinomial(total, smoothed / smoothed.sum())
            out[i, j, 0], out[j, i, 0] = a, b
            out[i, j, 1] = out[j, i, 1] = d
    return out


# -- pairs and luck ---------------------------------------------------------------------------
def _pair_row(wins: np.ndarray, rungs: list[str], strong: int, weak: int) -> dict[str, Any]:
    won, lost, none = wins[strong, weak, 0], wins[weak, strong, 0], wins[strong, weak, 1]
    decided = int(won + lost)
    est = proportion(int(won), decided)
    return {
        "stronger": rungs[strong],
        "weaker": rungs[weak],
        "stronger_wins": int(won),
        "weaker_wins": int(lost),
        "no_winner": int(none),
        "decided": decided,
        "stronger_win_rate": est.value,
        "ci": [est.lo, est.hi],
    }


def _pooled_upset(pairs: list[dict[str, Any]]) -> dict[str, float]:
    upsets = sum(p["weaker_wins"] for p in pairs)
    decided = sum(p["decided"] for p in pairs)
    return proportion(upsets, decided).as_dict()


def _skill_share(est: dict[str, Any] | None) -> dict[str, float] | None:
    """How far between a coin flip (0) and certainty (1) skill takes the result: 1 minus the
    upset rate over the coin flip's 50%, with the interval carried through."""
    if est is None:
        return None
    if "stronger_win_rate" in est:
        upset = {
            "value": 1 - est["stronger_win_rate"],
            "lo": 1 - est["ci"][1],
            "hi": 1 - est["ci"][0],
        }
    else:
        upset = est
    return {
        "value": 1 - upset["value"] / COIN_FLIP,
        "lo": 1 - upset["hi"] / COIN_FLIP,
        "hi": 1 - upset["lo"] / COIN_FLIP,
    }


# -- the game's own figures per rung ----------------------------------------------------------
def _own_figures(runs: list[Run]) -> dict[str, Any]:
    """First-seat win rate (with the fair share), length and end reasons of the rung against
    itself (pooled over rule settings for a cooperative ladder), plus the game's own numeric
    columns."""
    if not runs:
        return {}
    own = runs[0].own_figures()
    frame = pl.concat(
        [r.scan().select(*_common_columns(r), *(e.alias(c) for c, e in own.items())) for r in runs]
    ).collect()
    games = frame.height
    out: dict[str, Any] = {"self_games": games}
    length = frame["length"].cast(pl.Float64)
    out["mean_length"] = mean_from_moments(
        float(length.mean()), float(length.std()), games
    ).as_dict()
    reasons = frame["end_reason"].value_counts()
    names = runs[0].end_reasons + sorted(set(reasons["end_reason"]) - set(runs[0].end_reasons))
    counts = dict(reasons.iter_rows())
    out["end_reasons"] = {
        name: proportion(int(counts.get(name, 0)), games).as_dict() for name in names
    }
    if runs[0].cooperative:
        ok = frame["success"].fill_null(False)
        out["success"] = proportion(int(ok.sum()), games).as_dict()
    else:
        first = int((frame["winner"] == 0).fill_null(False).sum())
        decided = int(frame["winner"].is_not_null().sum())
        est = proportion(first, games)
        out["first_seat_win_rate"] = est.value
        out["first_seat_ci"] = [est.lo, est.hi]
        out["fair_share"] = decided / games / runs[0].n_players if games else math.nan
        out["first_seat_wins"], out["decided"] = first, decided
        out["no_winner_rate"] = proportion(games - decided, games).as_dict()
    out["columns"] = means_of(frame, list(own))  # over the games where each column applies
    return out


def _common_columns(run: Run) -> list[str]:
    schema = run.scan().collect_schema()
    return [c for c in ("winner", "success", "length", "end_reason") if c in schema]


def first_seat_change(
    weak: dict[str, Any], strong: dict[str, Any], players: int
) -> dict[str, Any] | None:
    """The first-seat edge (seat 1's share of the decided games minus 1/P) under two rungs, and
    whether its change is told apart from none (two independent samples); None when either
    rung decided no game."""
    if not weak.get("decided") or not strong.get("decided"):
        return None
    fair = 1.0 / players  # an even share of the decided games
    shares = []
    for rung in (weak, strong):
        won = np.zeros(rung["decided"], dtype=bool)
        won[: rung["first_seat_wins"]] = True
        shares.append(won)
    d = unpaired_proportion(shares[0], shares[1])
    return {
        "weak_edge": shares[0].mean() - fair,
        "strong_edge": shares[1].mean() - fair,
        "diff": d.diff,
        "lo": d.lo,
        "hi": d.hi,
        "p_value": d.p_value,
    }
