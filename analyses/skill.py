"""How much skill matters: ratings of a ladder's rungs, how often the strongest loses, and how
the game's own figures move as play gets stronger (``balance skill``).

Competitive games: every pair of rungs played at tables holding only those two, seats rotated on
common seeds, so every game is one comparison of two rungs. The ratings are Bradley-Terry
strengths fitted to the games one of the two won, a win the two shared counting as a draw (half
a win to each, as Elo scores a draw; a game nobody won is counted beside the ratings, per pair,
not in them); they are shown on the Elo scale (400 points: 10 to 1 odds in
decided games) with ``random`` (else the weakest rung) at 0.

Cooperative games: every rung plays every seat on the same deals; two rungs are compared on the
deals where exactly one of them succeeds, and those comparisons feed the same model.

How much luck the game leaves is read off the ends of the ladder, which do not depend on the
rungs in between: how often the strongest rung loses to the weakest and to the best hand-written
policy, head to head, and what the rating span from the bottom to the top means in games. The
*upset rate* (how often the weaker of two rungs adjacent in the ratings wins) pools neighbours,
so it measures the spacing of the rungs chosen as much as the game: more rungs between the same
ends give a higher one.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import polars as pl
from scipy import optimize
from scipy.special import expit
from scipy.stats import chi2

from simulator.contract.outcomes import WIN_SHARE, share

from .runs import Run
from .stats import (
    CONFIDENCE,
    mean_from_moments,
    proportion,
    share_proportion,
    unpaired_proportion,
)
from .summary import means_of

ELO = 400.0 / math.log(10.0)  # Bradley-Terry log-strength -> Elo points
COIN_FLIP = 0.5  # how often either of two rungs of the same skill wins a decided game
MIN_DECIDED = 30  # games with a winner a rung needs before a seat's share of them is compared


def ladder_runs(runs: list[Run]) -> tuple[list[str], list[Run], list[Run]]:
    """Rungs in the order given, the runs of each rung against itself, the pair runs."""
    selves = [r for r in runs if len(r.params.get("rungs", [])) == 1]
    pairs = [r for r in runs if len(r.params.get("rungs", [])) == 2]
    rungs = list(dict.fromkeys(r.params["rungs"][0] for r in selves))
    return rungs, selves, pairs


def skill_summary(runs: list[Run], seed: int = 0) -> dict[str, Any]:
    """Everything the skill report shows (the JSON of ``balance skill``); every estimate is
    ``{"value", "lo", "hi"}`` with its 95% interval."""
    rungs, selves, pairs = ladder_runs(runs)
    first = runs[0]
    if first.cooperative:
        wins, per_point = _cooperative_comparisons(rungs, selves)
    else:
        wins, per_point = _pair_results(rungs, pairs), None
    out = ladder_figures(wins, rungs, seed)
    for row in out["rungs"]:
        own = [r for r in selves if r.params["rungs"][0] == row["name"]]
        row.update(_own_figures(own))
    _mark_degenerate(out["rungs"], first.cooperative, first.length_unit, first.game)
    return {
        "game": first.game,
        "players": first.n_players,
        "games": sum(r.games_played() for r in runs),
        "cooperative": first.cooperative,
        **out,
        "points": per_point,
    }


def ladder_figures(wins: np.ndarray, rungs: list[str], seed: int = 0) -> dict[str, Any]:
    """Ratings, head to heads and the luck figures of a ladder from its comparisons
    (``wins`` as in :func:`fit_ratings`)."""
    ratings = fit_ratings(wins, rungs, seed)
    order = sorted(  # weakest first, rungs that cannot be rated last
        range(len(rungs)),
        key=lambda k: (not ratings[k]["rated"], _finite(ratings[k]["rating"]["value"]), k),
    )
    rated = [k for k in order if ratings[k]["rated"]]
    anchor = next(k for k in order if ratings[k]["anchor"])
    rung_rows = [{"name": rungs[k], **ratings[k], **_ladder_games(wins, k)} for k in order]
    adjacent = [_pair_row(wins, rungs, rated[i + 1], rated[i]) for i in range(len(rated) - 1)]
    top = rated[-1] if len(rated) > 1 else None
    hand = [k for k in rated if _is_hand_written(rungs[k])]
    return {
        "rungs": rung_rows,
        "pairs": adjacent,
        "groups": _groups([rungs[k] for k in rated], adjacent),
        "extremes": _pair_row(wins, rungs, top, rated[0]) if top is not None else None,
        "top_vs_hand_written": (
            _pair_row(wins, rungs, top, hand[-1])
            if top is not None and hand and hand[-1] != top
            else None
        ),
        "span": (
            _span(ratings[top]["rating"], rungs[anchor], rungs[top])
            if top is not None and top != anchor
            else None
        ),
        "upset_rate": _pooled_upset(adjacent),
        "upset_rungs": len(rated),
        "anchor_swept_by": [r["name"] for r in rung_rows if r["sweeps_anchor"]],
        "unrated": [r["name"] for r in rung_rows if not r["rated"]],
        "model": {"fit": "Bradley-Terry on decided games", "prior": PRIOR, "intervals": INTERVALS},
    }


def _finite(x: float) -> float:
    return x if math.isfinite(x) else -math.inf


def _is_hand_written(rung: str) -> bool:
    return rung.partition(":")[0] not in ("random", "mcts")


def win_share(points: float) -> float:
    """The stronger's share of the decided games at a rating gap of ``points``."""
    return float(expit(points / ELO))


def _span(rating: dict[str, float], bottom: str, top: str) -> dict[str, Any]:
    """The top's rating over the anchor, and the share of decided games the anchor would win
    at that gap (the interval carried through: the share falls as the gap grows)."""
    return {
        "from": bottom,
        "to": top,
        "points": rating,
        "bottom_wins": {
            "value": 1 - win_share(rating["value"]),
            "lo": 1 - win_share(rating["hi"]),
            "hi": 1 - win_share(rating["lo"]),
        },
    }


# -- comparisons ------------------------------------------------------------------------------
def _pair_results(rungs: list[str], pairs: list[Run]) -> np.ndarray:
    """``wins[i, j, 0]``: games rung i won against rung j, a game the two shared counting half
    to each (a draw, as Elo scores one); ``wins[i, j, 1]``: games of the pair nobody won and
    ``wins[i, j, 2]``: games they shared (each the same in both cells)."""
    wins = np.zeros((len(rungs), len(rungs), 3))
    for run in pairs:
        a, b = (rungs.index(x) for x in run.params["rungs"])
        row = (
            run.scan()
            .select((_held(run, rungs[a]) > 0).alias("a"), (_held(run, rungs[b]) > 0).alias("b"))
            .group_by("a", "b")
            .agg(pl.len().alias("n"))
            .collect()
        )
        for a_won, b_won, n in row.iter_rows():
            if a_won and b_won:  # shared between the two rungs: a draw
                wins[a, b, 0] += n / 2
                wins[b, a, 0] += n / 2
                wins[a, b, 2] += n
                wins[b, a, 2] += n
            elif a_won or b_won:
                w, other = (a, b) if a_won else (b, a)
                wins[w, other, 0] += n
            else:
                wins[a, b, 1] += n
                wins[b, a, 1] += n
    return wins


def _held(run: Run, rung: str) -> pl.Expr:
    """A rung's share of the win in each game of a run: the shares of the seats it holds."""
    seats = [s for s, p in enumerate(run.policies) if p == rung]
    return pl.sum_horizontal([share(s) for s in seats]) if seats else pl.lit(0.0)


def _cooperative_comparisons(
    rungs: list[str], selves: list[Run]
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Deal by deal: rung i "beats" rung j when it succeeds and j fails on the same seed (and
    rule setting). Also each rung's success rate at each setting."""
    wins = np.zeros((len(rungs), len(rungs), 3))  # as :func:`_pair_results`: no draws here
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
PRIOR = (
    "Jeffreys prior on the strengths (Firth's bias-reduced likelihood: the likelihood times the "
    "square root of the determinant of its information)"
)
INTERVALS = "profile likelihood (the same penalised likelihood)"
_CRITICAL = float(chi2.ppf(CONFIDENCE, 1)) / 2  # a drop of this much in log-likelihood
_FARTHEST = 30.0  # log-odds: beyond this an interval's end is unbounded (about 5,200 points)
_TOLERANCE = 0.005  # log-odds: an interval's ends to within a point of rating


class _BradleyTerry:
    """Decided games between rungs as a logistic model of strength differences, the anchor's
    strength fixed at 0; ``free`` are the other rated rungs."""

    def __init__(self, wins: np.ndarray, rated: list[int], anchor: int) -> None:
        self.free = [k for k in rated if k != anchor]
        column = {k: c for c, k in enumerate(self.free)}
        rows, won, games = [], [], []
        for a, b in itertools.combinations(rated, 2):
            decided = wins[a, b, 0] + wins[b, a, 0]
            if decided == 0:
                continue
            x = np.zeros(len(self.free))
            if a in column:
                x[column[a]] = 1.0
            if b in column:
                x[column[b]] = -1.0
            rows.append(x)
            won.append(wins[a, b, 0])
            games.append(decided)
        self.x = np.array(rows, dtype=float).reshape(len(rows), len(self.free))
        self.won, self.games = np.array(won, float), np.array(games, float)

    def information(self, beta: np.ndarray) -> np.ndarray:
        p = expit(self.x @ beta)
        return self.x.T @ ((self.games * p * (1 - p))[:, None] * self.x)

    def loss(self, beta: np.ndarray) -> tuple[float, np.ndarray]:
        """Minus the penalised log-likelihood and its gradient (Firth's modified score)."""
        eta = self.x @ beta
        p = expit(eta)
        loglik = -np.sum(
            self.won * np.logaddexp(0, -eta) + (self.games - self.won) * np.logaddexp(0, eta)
        )
        info = self.information(beta)
        _, logdet = np.linalg.slogdet(info)
        leverage = (
            self.games * p * (1 - p) * np.einsum("pi,ij,pj->p", self.x, np.linalg.inv(info), self.x)
        )
        score = self.x.T @ (self.won - self.games * p + leverage * (0.5 - p))
        return -(loglik + 0.5 * logdet), -score

    def fit(self, fixed: tuple[int, float] | None = None, start: np.ndarray | None = None):
        """The penalised maximum, with ``fixed`` = (column, value) held (a profile point)."""
        m = len(self.free)
        keep = [c for c in range(m) if fixed is None or c != fixed[0]]

        def full(b: np.ndarray) -> np.ndarray:
            out = np.empty(m)
            out[keep] = b
            if fixed is not None:
                out[fixed[0]] = fixed[1]
            return out

        def loss(b):
            value, grad = self.loss(full(b))
            return value, grad[keep]

        x0 = np.zeros(len(keep)) if start is None else start[keep]
        if not keep:
            return full(x0), loss(x0)[0]
        res = optimize.minimize(  # the information stands for the curvature (Fisher scoring)
            loss,
            x0,
            jac=True,
            hess=lambda b: self.information(full(b))[np.ix_(keep, keep)],
            method="trust-exact",
        )
        return full(res.x), float(res.fun)

    def interval(self, beta: np.ndarray, best: float, column: int) -> tuple[float, float]:
        """Where the profile of one strength falls ``_CRITICAL`` below the maximum: a secant
        search from the quadratic guess, a bracketed one when that strays."""

        def drop(value: float) -> float:
            return self.fit((column, value), beta)[1] - best - _CRITICAL

        se = math.sqrt(max(np.linalg.inv(self.information(beta))[column, column], 1e-12))
        z = math.sqrt(2 * _CRITICAL)
        ends = []
        for sign in (-1.0, 1.0):
            guess = optimize.root_scalar(
                drop, x0=beta[column] + sign * z * se, x1=beta[column] + sign * 1.2 * z * se,
                method="secant", xtol=_TOLERANCE, maxiter=8,
            )  # fmt: skip
            if guess.converged and sign * (guess.root - beta[column]) > 0:
                ends.append(guess.root)
                continue
            step = 2.0 * se
            while drop(beta[column] + sign * step) < 0 and step <= _FARTHEST:
                step *= 2
            if step > _FARTHEST:
                ends.append(sign * math.inf)
                continue
            ends.append(
                optimize.brentq(
                    drop, *sorted((beta[column], beta[column] + sign * step)), xtol=_TOLERANCE
                )
            )
        return ends[0], ends[1]


def _reachable(wins: np.ndarray, start: int) -> list[int]:
    """Rungs linked to ``start`` through pairs with at least one decided game."""
    decided = (wins[..., 0] + wins[..., 0].T) > 0
    seen, todo = {start}, [start]
    while todo:
        k = todo.pop()
        for j in np.flatnonzero(decided[k]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return sorted(seen)


def fit_ratings(wins: np.ndarray, rungs: list[str], seed: int = 0) -> list[dict[str, Any]]:
    """Each rung's Elo-scale rating against the anchor with its 95% interval.

    Bradley-Terry on the decided games only (a game nobody won says nothing of who is
    stronger): the maximum of the likelihood times a Jeffreys prior, which stays finite when a
    rung never lost to another and removes the fit's small-sample pull; the interval is where
    the profile of that likelihood drops by half the 95% chi-square quantile. ``seed`` is kept
    for callers: the fit and its intervals draw nothing.

    The anchor is ``random`` (else the weakest rung). Rungs linked to it by no chain of decided
    games cannot be rated (``rated`` False, ratings NaN)."""
    del seed
    n = len(rungs)
    random = next((k for k, r in enumerate(rungs) if r.partition(":")[0] == "random"), None)
    rated = _reachable(wins, 0 if random is None else random)
    if len(rated) == 1:  # the anchor decided no game: rate the largest linked group instead
        rated = max((_reachable(wins, k) for k in range(n)), key=len)
    anchor = random if random in rated else rated[0]
    model = _BradleyTerry(wins, rated, anchor)
    beta, best = model.fit()
    if anchor != random and len(beta) and beta.min() < 0:  # no random: the weakest at 0
        anchor = model.free[int(np.argmin(beta))]
        model = _BradleyTerry(wins, rated, anchor)
        beta, best = model.fit()
    out = []
    for k in range(n):
        if k == anchor:
            rating = {"value": 0.0, "lo": 0.0, "hi": 0.0}
        elif k in model.free:
            c = model.free.index(k)
            lo, hi = model.interval(beta, best, c)
            rating = {"value": beta[c] * ELO, "lo": lo * ELO, "hi": hi * ELO}
        else:
            rating = {"value": math.nan, "lo": math.nan, "hi": math.nan}
        out.append(
            {
                "rating": {key: float(v) for key, v in rating.items()},
                "anchor": k == anchor,
                "rated": k == anchor or k in model.free,
                # Never lost a decided game to the anchor: how far above it rests on the prior.
                "sweeps_anchor": bool(wins[k, anchor, 0] > 0 and wins[anchor, k, 0] == 0),
            }
        )
    return out


# -- pairs and luck ---------------------------------------------------------------------------
def _ladder_games(wins: np.ndarray, k: int) -> dict[str, Any]:
    """A rung's games against the other rungs: how many, and the share nobody won."""
    decided = round(wins[k, :, 0].sum() + wins[:, k, 0].sum())  # a draw: two halves, one game
    none = int(wins[k, :, 1].sum() - wins[k, k, 1])
    return {
        "ladder_games": decided + none,
        "ladder_decided": decided,
        "ladder_no_winner": proportion(none, decided + none).as_dict(),
    }


def _pair_row(wins: np.ndarray, rungs: list[str], strong: int, weak: int) -> dict[str, Any]:
    won, lost, none = wins[strong, weak, 0], wins[weak, strong, 0], wins[strong, weak, 1]
    draws = int(wins[strong, weak, 2]) if wins.shape[2] > 2 else 0
    decided = round(won + lost)  # a draw counts half to each: one decided game
    squares = won - draws / 2 + draws / 4  # the stronger's per-game score squared: 1 or 1/4
    return {
        "stronger": rungs[strong],
        "weaker": rungs[weak],
        "stronger_wins": _whole(won),
        "weaker_wins": _whole(lost),
        "draws": draws,
        "no_winner": int(none),
        "decided": decided,
        "stronger_win_rate": share_proportion(_whole(won), decided, squares).as_dict(),
        "no_winner_share": proportion(int(none), decided + int(none)).as_dict(),
    }


def _whole(x: float) -> float | int:
    """A count of wins as an int when whole (no draw among them), else with its halves."""
    return int(x) if float(x).is_integer() else float(x)


def separated(pair: dict[str, Any]) -> bool:
    """Whether the stronger of a pair beats the weaker head to head (interval above 50%)."""
    lo = pair["stronger_win_rate"]["lo"]
    return lo == lo and lo > COIN_FLIP


def _groups(names: list[str], adjacent: list[dict[str, Any]]) -> list[list[str]]:
    """Rungs in rating order, neighbours joined when their head to head does not separate
    them: an order is claimed only between groups."""
    groups: list[list[str]] = [[names[0]]] if names else []
    for name, pair in zip(names[1:], adjacent, strict=True):
        if separated(pair):
            groups.append([name])
        else:
            groups[-1].append(name)
    return groups


def _pooled_upset(pairs: list[dict[str, Any]]) -> dict[str, float]:
    upsets = sum(p["weaker_wins"] for p in pairs)
    decided = sum(p["decided"] for p in pairs)
    draws = sum(p.get("draws", 0) for p in pairs)
    return share_proportion(upsets, decided, upsets - draws / 4).as_dict()


# -- the game's own figures per rung ----------------------------------------------------------
def _own_figures(runs: list[Run]) -> dict[str, Any]:
    """First-seat win rate and edge, length and end reasons of the rung against itself (pooled
    over rule settings for a cooperative ladder), plus the game's own numeric columns."""
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
    out["length_range"] = [float(length.min()), float(length.max())] if games else None
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
        players = runs[0].n_players
        shares = frame[WIN_SHARE]
        seat_1 = shares.list.get(0)  # a k-way shared win counts 1/k
        first = _whole(float(seat_1.sum()))
        squares = float((seat_1**2).sum())
        decided = int((shares.list.eval(pl.element() > 0).list.sum() > 0).sum())
        out["first_seat_win_rate"] = share_proportion(first, games, squares).as_dict()
        of_decided = share_proportion(first, decided, squares)  # seat 1's share of decided games
        out["first_seat_edge"] = {k: v - 1 / players for k, v in of_decided.as_dict().items()}
        out["first_seat_wins"], out["decided"] = first, decided
        out["first_seat_squares"] = squares
        none = proportion(games - decided, games)
        out["no_winner_rate"] = none.as_dict()
        out["fair_share"] = {  # an even share of all games: the decided ones over the seats
            "value": (1 - none.value) / players,
            "lo": (1 - none.hi) / players,
            "hi": (1 - none.lo) / players,
        }
    out["columns"] = means_of(frame, list(own))  # over the games where each column applies
    return out


def _common_columns(run: Run) -> list[str]:
    schema = run.scan().collect_schema()
    return [c for c in (WIN_SHARE, "success", "length", "end_reason") if c in schema]


def _mark_degenerate(rows: list[dict[str, Any]], cooperative: bool, unit: str, game: str) -> None:
    """``degenerate``: what a rung's games against itself never vary in, in words (nobody
    wins, every game ends the same way, one of the game's own counts never above zero while
    another rung's is)."""
    counted = {c for r in rows for c, est in r.get("columns", {}).items() if est["value"] > 0}
    for row in rows:
        words = []
        games = row.get("self_games", 0)
        if games and cooperative and row["success"]["value"] == 0:
            words.append(f"no deal of {games:,} was completed")
        elif games and not cooperative and row["decided"] == 0:
            words.append(f"nobody won any of its {games:,} games")
        lengths = row.get("length_range")
        reasons = [n for n, est in row.get("end_reasons", {}).items() if est["value"] > 0]
        if games > 1 and lengths and lengths[0] == lengths[1] and len(reasons) == 1:
            words.append(
                f"every game ended the same way ({reasons[0]} after {lengths[0]:,.0f} {unit})"
            )
        never = [
            c.removeprefix(game.replace("-", "_") + "_").replace("_", " ")
            for c, est in row.get("columns", {}).items()
            if c in counted and est["value"] == 0 and est["lo"] == est["hi"]
        ]
        if never:
            listed = ", ".join(never[:-1]) + " or " + never[-1] if len(never) > 1 else never[0]
            words.append(f"no game had any {listed}")
        row["degenerate"] = words


def first_seat_change(weak: dict[str, Any], strong: dict[str, Any]) -> dict[str, Any] | None:
    """The first-seat edge (seat 1's share of the decided games minus 1/P) under two rungs, and
    whether its change is told apart from none (two independent samples); None when either
    rung decided no game."""
    if not weak.get("decided") or not strong.get("decided"):
        return None
    rungs = (weak, strong)
    if all(float(r["first_seat_wins"]).is_integer() for r in rungs) and all(
        r.get("first_seat_squares", r["first_seat_wins"]) == r["first_seat_wins"] for r in rungs
    ):  # whole wins: two samples of yes/no outcomes
        shares = []
        for rung in rungs:
            won = np.zeros(rung["decided"], dtype=bool)
            won[: int(rung["first_seat_wins"])] = True
            shares.append(won)
        d = unpaired_proportion(shares[0], shares[1])
        return {"change": d.change, "p_value": d.p_value}
    return _share_change_from_moments(weak, strong)


def _share_change_from_moments(weak: dict[str, Any], strong: dict[str, Any]) -> dict[str, Any]:
    """Seat 1's share of the decided games under two rungs where a win was shared (a share of
    1/k): Welch's t test and interval from each rung's sum and sum of squared shares."""
    from scipy import stats

    moments = []
    for rung in (weak, strong):
        n = rung["decided"]
        mean = rung["first_seat_wins"] / n
        squares = rung.get("first_seat_squares", rung["first_seat_wins"])
        variance = max(0.0, (squares - n * mean * mean) / max(n - 1, 1))
        moments.append((mean, variance, n))
    (m1, v1, n1), (m2, v2, n2) = moments
    se = math.sqrt(v1 / n1 + v2 / n2)
    diff = m2 - m1
    if se == 0:
        return {"change": {"value": diff, "lo": diff, "hi": diff}, "p_value": float(diff == 0)}
    dof = se**4 / ((v1 / n1) ** 2 / max(n1 - 1, 1) + (v2 / n2) ** 2 / max(n2 - 1, 1))
    half = float(stats.t.ppf(0.975, dof)) * se
    p = float(2 * stats.t.sf(abs(diff) / se, dof))
    return {"change": {"value": diff, "lo": diff - half, "hi": diff + half}, "p_value": p}
