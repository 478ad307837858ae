"""Which rule options move which figure: the analysis of a ``balance explore`` study.

Figures (named like ``--target`` names): ``first-seat`` (seat 1's win rate), ``balance`` (1 minus
the largest gap between two seats' win rates, as in the run summary; a k-way shared win counts
1/k to each seat), ``no-winner`` (share of games in which no seat holds a share of the win),
``shared`` (share of games two or more seats share; only for a game with a shared win at some
point), ``success`` (cooperative games, instead of the seat figures), ``length`` (mean, in
the game's unit), ``end:<reason>`` (share of games ending that way) and ``mean:<column>`` (mean of
each of the game's own numeric columns). Each is computed at every point of the design from the
point's games; a figure equal at every point is dropped with a note.

Morris: an *elementary effect* is the change of a figure between two neighbouring points of a
trajectory (one option changed) divided by the share of the option's range the step crossed, so
it reads as "the change over the whole range". The step is the one the rounded values really took
(an integer option's levels are rounded), so these are SALib's ``morris.analyze`` formulas with
the realised step: ``mu_star`` the mean absolute effect, ``mu`` the mean effect (its sign is the
direction), ``sigma`` their standard deviation (large against ``mu_star``: the effect depends on
the other options or on where in the range, "interacts or bends"). Intervals are percentiles of a
bootstrap over trajectories.

Luck. Each elementary effect carries the luck of the games behind it; under common seeds an
option that changes no game has effects of exactly 0. Every figure is resampled over games
(``GAME_RESAMPLES`` resamples of game indices, the same at every point, so the pairing is kept):
that gives each elementary effect its standard error ``s`` and each figure its standard error at
one point. Intervals resample trajectories and games together. ``mu_star`` is never below what
luck alone gives (a mean of absolute values), so an interval of ``mu_star`` excluding 0 says
nothing. An option *moves* a figure when its mean effect ``mu`` has an interval excluding 0 (a
steady direction), or when the mean of ``effect**2 - s**2`` (an unbiased estimate of the mean
squared true effect, which also catches effects that change sign) has an interval above 0.
``noise`` is the ``mu_star`` luck alone would give at this budget.

Sobol (``--method sobol``): ``SALib.analyze.sobol.analyze`` gives first-order (S1) and total (ST)
shares of the figure's variance over the design with their intervals; an option moves the figure
when ST's interval excludes 0; ST - S1 is the share it has only through interactions. The mean
effect (for the direction) comes from Saltelli's pairs of points that differ in one option.
"""

from __future__ import annotations

import json
import math
import warnings
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.outcomes import WIN_SHARE
from simulator.contract.registry import COUNT, MEASURE
from simulator.folders.study_folders import EXPLORE_TIME_FILE, read_plan

from .runs import Run

GAME_RESAMPLES = 200
TRAJECTORY_RESAMPLES = 2000
SEED = 20240101
INTERACTS = 1.0  # sigma / mu_star above this: "interacts or bends"
MAIN = ("first-seat", "balance", "no-winner", "shared", "success", "length")
RATES = ("first-seat", "balance", "no-winner", "shared", "success")
_NUMERIC = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64,
            pl.Float32, pl.Float64, pl.Boolean)  # fmt: skip


def is_rate(figure: str) -> bool:
    return figure in RATES or figure.startswith("end:")


# -- per-point figures with their game resamples -------------------------------------------------
def _own_columns(run: Run) -> list[str]:
    spec = run.spec
    schema = run.scan().collect_schema()
    # Only amounts, and only those that apply in every game (a "none" value would be averaged).
    names = [c for c in spec.columns if spec.kind_of(c) in (COUNT, MEASURE)] if spec else []
    return [c for c in names if c in schema and schema[c] in _NUMERIC]


def point_figures(runs: list[Run]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], int]:
    """Every figure at every point (``values[fig]``: points) and under every game resample
    (``resampled[fig]``: points x resamples), from the first ``games`` games all points share."""
    games = min(r.games_played() for r in runs)
    first = runs[0]
    coop, players = first.cooperative, first.n_players
    own = _own_columns(first)
    reasons = first.end_reasons
    weights = (
        np.random.default_rng(SEED)
        .multinomial(games, np.full(games, 1.0 / games), size=GAME_RESAMPLES)
        .T.astype(float)
        / games
    )  # games x resamples
    per_game: dict[str, list[np.ndarray]] = {}
    seat_wins: list[np.ndarray] = []
    for run in runs:
        cols = ["game_index", WIN_SHARE, "length", "end_reason", *own]
        if coop:
            cols.append("success")
        df = run.scan().filter(pl.col("game_index") < games).select(cols).sort("game_index")
        df = df.collect()
        rows: dict[str, np.ndarray] = {"length": df["length"].cast(pl.Float64).to_numpy()}
        if coop:
            rows["success"] = df["success"].cast(pl.Float64).fill_null(0).to_numpy()
        else:
            shares = np.array(df[WIN_SHARE].to_list(), dtype=float).reshape(-1, players)
            winners = (shares > 0).sum(axis=1)
            rows["first-seat"] = shares[:, 0]
            rows["no-winner"] = (winners == 0).astype(float)
            rows["shared"] = (winners >= 2).astype(float)
            seat_wins.append(shares.T)  # seats x games
        ends = df["end_reason"].to_numpy()
        for reason in reasons:
            rows[f"end:{reason}"] = (ends == reason).astype(float)
        for c in own:
            rows[f"mean:{c}"] = df[c].cast(pl.Float64).fill_null(0).to_numpy()
        for name, col in rows.items():
            per_game.setdefault(name, []).append(col)
    values, resampled = {}, {}
    order = ([] if coop else ["first-seat", "balance", "no-winner"]) + (["success"] if coop else [])
    if not coop and any(col.any() for col in per_game["shared"]):  # only a game that shares
        order.append("shared")
    order += ["length", *(f"end:{r}" for r in reasons), *(f"mean:{c}" for c in own)]
    for name in order:
        if name == "balance":
            wins = np.stack(seat_wins).astype(float)  # points x seats x games
            rates = wins.mean(axis=2)
            values[name] = 1.0 - (rates.max(axis=1) - rates.min(axis=1))
            res = wins @ weights  # points x seats x resamples
            resampled[name] = 1.0 - (res.max(axis=1) - res.min(axis=1))
            continue
        y = np.stack(per_game[name])  # points x games
        values[name] = y.mean(axis=1)
        resampled[name] = y @ weights
    return values, resampled, games


# -- Morris ------------------------------------------------------------------------------------
def _bootstrap_index(n: int) -> np.ndarray:
    return np.random.default_rng(SEED).integers(0, n, size=(TRAJECTORY_RESAMPLES, n))


def _interval(samples: np.ndarray) -> list[float]:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return [float(lo), float(hi)]


def elementary_effects(
    unit: np.ndarray, pos: np.ndarray, y: np.ndarray, yb: np.ndarray, k: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per factor, its elementary effects and the same effects under every game resample
    (effects x resamples)."""
    effects: list[list[float]] = [[] for _ in range(k)]
    resampled: list[list[np.ndarray]] = [[] for _ in range(k)]
    for t in range(len(unit) // (k + 1)):
        for i in range(t * (k + 1), t * (k + 1) + k):
            j = int(np.argmax(np.abs(unit[i + 1] - unit[i])))
            dx = pos[i + 1, j] - pos[i, j]
            if dx == 0:  # cannot happen with LEVELS = 4; kept so a rounding never divides by 0
                continue
            effects[j].append(float((y[i + 1] - y[i]) / dx))
            resampled[j].append((yb[i + 1] - yb[i]) / dx)
    return [(np.asarray(e), np.asarray(r)) for e, r in zip(effects, resampled, strict=True)]


def morris_rows(
    figure: str, unit: np.ndarray, pos: np.ndarray, y: np.ndarray, yb: np.ndarray, factors
) -> list[dict[str, Any]]:
    """One row per factor. Intervals resample trajectories and games together (bootstrap ``b``
    draws trajectories and takes game resample ``b`` modulo ``GAME_RESAMPLES``): under common
    seeds the same lucky games sit behind every trajectory, which trajectories alone miss."""
    rows = []
    for f, (e, eb) in zip(factors, elementary_effects(unit, pos, y, yb, len(factors)), strict=True):
        s2 = eb.var(axis=1, ddof=1)  # each effect's squared standard error from the games
        idx = _bootstrap_index(len(e))
        games = np.arange(TRAJECTORY_RESAMPLES) % eb.shape[1]
        draws = eb[idx, games[:, None]]  # resamples x effects
        mu_star, mu = float(np.abs(e).mean()), float(e.mean())
        sigma = float(e.std(ddof=1)) if len(e) > 1 else math.nan
        # Mean squared true effect: a resampled effect carries the games' luck twice over.
        signal = _interval((draws**2 - 2 * s2[idx]).mean(axis=1))
        mu_ci = _interval(draws.mean(axis=1))
        steady = not _holds(0.0, mu_ci)
        rows.append(
            {
                "option": f["option"],
                "figure": figure,
                "effect": _estimate(mu_star, _interval(np.abs(draws).mean(axis=1))),
                "interaction": sigma,
                "mu": _estimate(mu, mu_ci),
                "sigma": sigma,
                "noise": float(math.sqrt(2 / math.pi) * np.sqrt(s2).mean()),
                "moves": bool(steady or signal[0] > 0),
                "tested": _morris_test(mu, mu_ci, float(np.mean(e**2 - s2)), signal, steady),
                "unchanged": bool(np.all(e == 0) and np.all(s2 == 0)),
                "elementary_effects": len(e),
                "range": f["range"],
            }
        )
    return rows


def _morris_test(
    mu: float, mu_ci: list[float], signal: float, signal_ci: list[float], steady: bool
) -> dict[str, Any]:
    """The figure a Morris verdict reads, with the interval it tests: the mean change (moves
    when its interval excludes 0), else the size of the change beyond luck, the root of the
    mean squared true effect (moves when its interval starts above 0: an effect that changes
    sign). An option that moves neither way is shown by its mean change."""
    if steady or signal_ci[0] <= 0:
        return {"reads": "mean change", "value": mu, "lo": mu_ci[0], "hi": mu_ci[1]}
    root = [math.sqrt(max(x, 0.0)) for x in (signal, *signal_ci)]
    return {"reads": "size beyond luck", "value": root[0], "lo": root[1], "hi": root[2]}


# -- Sobol -------------------------------------------------------------------------------------
def sobol_rows(
    figure: str, unit: np.ndarray, pos: np.ndarray, y: np.ndarray, factors
) -> list[dict[str, Any]]:
    from SALib.analyze.sobol import analyze

    k = len(factors)
    problem = {"num_vars": k, "names": [f["option"] for f in factors], "bounds": [[0, 1]] * k}
    with warnings.catch_warnings(record=True) as caught:  # said once, in our words (notes)
        warnings.simplefilter("always")
        si = analyze(problem, y, calc_second_order=False, conf_level=0.95, seed=SEED)
    rough = bool(caught)  # SALib: some resample saw the same value at every point
    rows = []
    for j, f in enumerate(factors):
        # Saltelli's blocks: A, AB_1 .. AB_k, B; AB_j differs from A in option j only.
        a = np.arange(0, len(y), k + 2)
        dx = pos[a + 1 + j, j] - pos[a, j]
        ok = dx != 0
        e = (y[a + 1 + j][ok] - y[a][ok]) / dx[ok]
        st, st_conf = float(si["ST"][j]), float(si["ST_conf"][j])
        s1, s1_conf = float(si["S1"][j]), float(si["S1_conf"][j])
        idx = _bootstrap_index(len(e))
        rows.append(
            {
                "option": f["option"],
                "figure": figure,
                "effect": _estimate(_share(st), [_share(st - st_conf), _share(st + st_conf)]),
                "raw": {"value": st, "lo": st - st_conf, "hi": st + st_conf},
                "interaction": _share(st) - _share(s1),
                "s1": _estimate(_share(s1), [_share(s1 - s1_conf), _share(s1 + s1_conf)]),
                "rough": rough,
                "mu": _estimate(
                    float(e.mean()) if len(e) else math.nan,
                    _interval(e[idx].mean(axis=1)) if len(e) else [math.nan, math.nan],
                ),
                "moves": bool(st - st_conf > 0),
                "tested": {
                    "reads": "ST",
                    "value": _share(st),
                    "lo": _share(st - st_conf),
                    "hi": _share(st + st_conf),
                },  # fmt: skip
                "unchanged": bool(len(e) and np.all(e == 0)),
                "range": f["range"],
            }
        )
    return rows


def _share(x: float) -> float:
    """A variance share, which lies in 0..1: Saltelli's estimates stray outside it when the
    design is small (the budget note says how large a design would pin them down)."""
    return min(max(float(x), 0.0), 1.0)


SOBOL_HALF_WIDTH = 0.10  # a share known to +-10 points is a share a designer can quote


def sobol_budget(rows: list[dict[str, Any]], base: int) -> dict[str, Any] | None:
    """When the Sobol shares of options that move a figure are too rough to quote (an estimate
    outside 0-100%, or an interval wider than +-10 points), the base sample N that would narrow
    the widest to +-10 points (intervals narrow as 1/sqrt(N); N a power of 2); None when they
    hold."""
    # The shares quoted are those of options that move a figure; where nothing does, the
    # figure's spread is the games' luck and its shares mean nothing at any budget.
    quoted = [r for r in rows if "raw" in r and r["moves"]]
    if not quoted:
        return None
    half = max((r["raw"]["hi"] - r["raw"]["lo"]) / 2 for r in quoted)
    beyond = [r for r in quoted if not 0 <= r["raw"]["value"] <= 1]
    if half <= SOBOL_HALF_WIDTH and not beyond and not any(r["rough"] for r in quoted):
        return None
    need = base * (half / SOBOL_HALF_WIDTH) ** 2
    return {
        "trajectories": base,
        "half_width": half,
        "beyond": [{"option": r["option"], "figure": r["figure"], **r["raw"]} for r in beyond],
        "needed": max(2 * base, 2 ** math.ceil(math.log2(max(need, 1.0)))),
    }


def _estimate(value: float, ci: list[float]) -> dict[str, float]:
    return {"value": value, "lo": ci[0], "hi": ci[1]}


def _holds(x: float, ci: list[float]) -> bool:
    return ci[0] <= x <= ci[1]


def _direction(row: dict[str, Any]) -> str:
    lo, hi = row["mu"]["lo"], row["mu"]["hi"]
    if lo > 0:
        return "raises"
    if hi < 0:
        return "lowers"
    return "either way"


# -- the study -------------------------------------------------------------------------------------
def explore_summary(path: Any, runs: list[Run]) -> dict[str, Any]:
    """The explore's ranked options per figure, with what a report and ``--json`` need."""
    plan = read_plan(path)
    factors = plan["factors"]
    unit = np.asarray(plan["unit"], dtype=float)
    run_of_row = np.asarray(plan["run_of_row"], dtype=int)
    values, resampled, games = point_figures(runs)
    # Where each design row's rounded values lie in the ranges (the step really taken).
    pos = np.empty_like(unit)
    for r, run_index in enumerate(run_of_row):
        point = runs[run_index].params["values"]
        for j, f in enumerate(factors):
            pos[r, j] = _position(f, point[f["option"]])
    rows: list[dict[str, Any]] = []
    figures, dropped, noise, same = [], [], {}, {}
    for name, per_point in values.items():
        y = per_point[run_of_row]
        if np.ptp(y) == 0:
            dropped.append({"figure": name, "value": float(y[0])})
            continue
        twin = next(
            (
                f
                for f in figures
                if np.allclose(values[f], per_point)
                or (is_rate(f) and is_rate(name) and np.allclose(values[f], 1 - per_point))
            ),
            None,
        )
        if twin is not None:  # e.g. the share ending by a cap is the share nobody wins
            same[name] = twin
        figures.append(name)
        # A typical point's standard error (root mean square over points: a median would say
        # 0 for a figure most points never see, such as a rare end reason).
        noise[name] = float(np.sqrt(np.mean(resampled[name].var(axis=1, ddof=1))))
        if plan["method"] == "morris":
            found = morris_rows(name, unit, pos, y, resampled[name][run_of_row], factors)
        else:
            found = sobol_rows(name, unit, pos, y, factors)
        for row in found:
            row["direction"] = _direction(row)
            row["interacts"] = bool(
                plan["method"] == "morris"
                and row["effect"]["value"] > 0
                and row["sigma"] / row["effect"]["value"] > INTERACTS
            )
        found.sort(key=lambda row: (-row["moves"], -row["effect"]["value"]))
        for rank, row in enumerate(found, 1):
            row["rank"] = rank
        rows += found
    first = runs[0]
    seconds = wall_seconds(path, runs)
    edge = None
    if "first-seat" in values:  # seat 1's edge over an even share of the decided games
        e = values["first-seat"] - (1 - values["no-winner"]) / first.n_players
        edge = {"min": float(e.min()), "median": float(np.median(e)), "max": float(e.max())}
    return {
        "game": first.game,
        "method": plan["method"],
        "figures": figures,
        "options": rows,
        "ranges": factors,
        "skipped": plan["skipped"],
        "dropped": dropped,
        "same_as": same,
        "noise": noise,
        "points": int(len(unit)),
        "runs": len(runs),
        "trajectories": plan["trajectories"],
        "games_per_point": games,
        "games": games * len(runs),
        "players": first.n_players,
        "policies": first.policies,
        "cooperative": first.cooperative,
        "length_unit": first.length_unit,
        "seed": first.seed,
        "wall_seconds": seconds,
        "first_seat_edge": edge,
        "sobol_budget": sobol_budget(rows, plan["trajectories"])
        if plan["method"] == "sobol"
        else None,
    }


def _position(f: dict[str, Any], value: Any) -> float:
    if f["kind"] == "bool":
        return float(bool(value))
    if f["kind"] == "choice":
        return f["choices"].index(value) / (len(f["choices"]) - 1)
    lo, hi = f["range"]
    return (float(value) - lo) / (hi - lo)


TIME_FILE = EXPLORE_TIME_FILE


def wall_seconds(path: Any, runs: list[Run]) -> float:
    """Wall time the explore took: the sum of the seconds each ``balance explore`` invocation
    of this folder spent (``explore-time.json``, written by the command, a resumed explore
    adding its own), else the span from the first point's start to the last point's finish."""
    from datetime import datetime
    from pathlib import Path

    f = Path(path) / TIME_FILE
    if f.is_file():
        try:
            return float(sum(json.loads(f.read_text())["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    starts = [r.manifest.get("started") for r in runs]
    ends = [r.manifest.get("finished") for r in runs]
    if not all(starts) or not all(ends):
        return math.nan
    span = datetime.fromisoformat(max(ends)) - datetime.fromisoformat(min(starts))
    return span.total_seconds()
