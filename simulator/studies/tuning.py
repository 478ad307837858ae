"""``balance tune``: fit a policy's declared parameters to the rules in force.

The search
- Optuna's TPE sampler proposes settings of the parameters the policy declares (their bounds,
  and whether they are whole numbers or span orders of magnitude, come from its ``PolicyParam``
  list). The policy's own setting (its defaults, or the values given with ``--policy``) is the
  first candidate, so the search never reports something worse than where it started from.
- The tuned policy holds every seat in turn against each policy of the field (a *seating*); a
  candidate's measure is its win rate pooled over the seatings (the players' success rate in a
  cooperative game, where by default every seat plays the tuned policy).
- Every candidate plays the same game seeds (common random numbers): the same run seed and the
  same chunk size, so game ``i`` deals the same in every candidate and differences are the
  setting's, not luck's.
- A candidate plays in ``RUNGS`` quarters; after each quarter Optuna's median pruner stops a
  candidate whose win rate so far is below the median of finished candidates at that point.
- Candidates are proposed ``BATCH`` at a time (constant liar). The batch size is fixed, never the
  number of workers, so the same seed proposes the same candidates on one machine or a cluster.

Files (everything under ``--out``)
- ``tune.json``: the plan (refused if a different tune is found there) and, at the end, the
  results and verdict;
- ``trials/NNN/<seating>/``: one ordinary run folder per candidate and seating. A pruned
  candidate's folders stop early (``stopped_early`` in their manifest). Nothing else is state: a
  killed tune run again replays the search from the folders (no game is played twice) and
  continues where it stopped;
- ``check/best/<seating>/`` and ``check/defaults/<seating>/``: the winner's curse. The best
  candidate was chosen because it did well on the search seeds, which flatters it; its win rate
  and the defaults' are measured again on fresh seeds (another run seed), paired game by game.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import DataSource, read_data
from simulator.contract.outcomes import RETURNS, share, with_outcome_columns
from simulator.contract.policy import PolicyDef, SeatPolicy, parse_policy
from simulator.contract.registry import GameSpec, get_game
from simulator.folders.run_folder import RunFolder, now
from simulator.folders.study_folders import TUNE_FILE, Seating
from simulator.runs.plan import RunConfig, plan_run
from simulator.runs.policy_file import PolicyFile, load_policies, read_policy_file
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import UNTIL_BATCH, run

RUNGS = 4  # a candidate plays in quarters; pruning is decided between them
BATCH = 4  # candidates proposed together (fixed: the search must not depend on the backend)
MAX_TRIALS = 1000
CHECK_SALT = 0xC4EC  # the fresh seeds of the check are drawn from (seed, CHECK_SALT)


@dataclass(frozen=True)
class Knob:
    """A parameter being searched, within these bounds."""

    name: str
    lo: float
    hi: float
    integer: bool
    log: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "lo": self.lo,
            "hi": self.hi,
            "integer": self.integer,
            "log": self.log,
        }


@dataclass(frozen=True)
class TunePlan:
    """A validated tune request."""

    spec: GameSpec
    policy: PolicyDef
    base: SeatPolicy  # the starting setting: declared defaults, or values given with --policy
    knobs: tuple[Knob, ...]
    seatings: tuple[Seating, ...]
    field: tuple[str, ...]
    n_players: int
    sets: tuple[str, ...]
    variant: str | None
    variant_name: str
    trials: int
    games: int  # per seating, per candidate
    check_games: int  # per seating, per setting checked
    seed: int
    chunk_size: int
    policy_file: PolicyFile | None = None
    data: tuple[DataSource, ...] = ()  # --data files, read once

    @property
    def check_seed(self) -> int:
        return int(np.random.SeedSequence([self.seed, CHECK_SALT]).generate_state(1)[0])

    @property
    def games_per_trial(self) -> int:
        return self.games * len(self.seatings)

    @property
    def default_params(self) -> dict[str, float]:
        return {
            p.name: _number(v, p.integer)
            for p, v in zip(self.policy.params, self.base.values, strict=True)
        }

    def policy_text(self, values: dict[str, float]) -> str:
        full = self.default_params | values
        return self.policy.name + ":" + ",".join(f"{k}={v!r}" for k, v in full.items())

    def config(
        self, values: dict[str, float], seating: Seating, *, check: bool = False
    ) -> RunConfig:
        return plan_run(
            self.spec.id,
            self.check_games if check else self.games,
            players=self.n_players,
            policies=seating.policies(self.policy_text(values), self.n_players),
            seed=self.check_seed if check else self.seed,
            sets=list(self.sets),
            variant=self.variant,
            chunk_size=None if check else self.chunk_size,
            policy_file=self.policy_file,
            data={s.name: s for s in self.data},
        )

    def describe(self) -> dict[str, Any]:
        """What decides the tune's results: a folder holding another tune is refused."""
        return {
            "kind": "tune",
            "game": self.spec.id,
            "policy": self.policy.name,
            "base": self.base.label,
            "knobs": [k.as_dict() for k in self.knobs],
            "field": list(self.field),
            "seatings": [s.label for s in self.seatings],
            "n_players": self.n_players,
            "variant": self.variant_name,
            "variant_file": self.variant,
            "sets": list(self.sets),
            "trials": self.trials,
            "games_per_seating": self.games,
            "check_games_per_seating": self.check_games,
            "seed": self.seed,
            "check_seed": self.check_seed,
            "chunk_size": self.chunk_size,
            "batch": BATCH,
            "rungs": RUNGS,
            **({"policy_file": self.policy_file.sha256} if self.policy_file else {}),
            **({"data": {s.name: s.sha256 for s in self.data}} if self.data else {}),
        }


def _number(v: float, integer: bool) -> float:
    return int(round(v)) if integer else float(v)


def parse_knob(text: str, pdef: PolicyDef) -> Knob:
    """``NAME`` (its declared range) or ``NAME=LO:HI`` (within it, or anywhere for a parameter
    whose range bounds nothing but the search: ``PolicyParam.bounded``)."""
    name, sep, span = text.partition("=")
    name = name.strip()
    param = next((p for p in pdef.params if p.name == name), None)
    if param is None:
        allowed = ", ".join(p.name for p in pdef.params) or "none"
        raise BalanceError(
            f"unknown parameter '{name}' for policy '{pdef.name}'; parameters: {allowed}"
        )
    lo, hi = param.lo, param.hi
    if sep:
        a, colon, b = span.partition(":")
        try:
            lo, hi = float(a), float(b)
        except ValueError:
            colon = ""
        if not colon:
            raise BalanceError(f"--param expects NAME or NAME=LO:HI, got {text!r}")
        if param.bounded and not (param.lo <= lo < hi <= param.hi):
            raise BalanceError(
                f"--param {name}={span}: give LO < HI within the declared bounds "
                f"{param.lo:g}:{param.hi:g}"
            )
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise BalanceError(f"--param {name}={span}: give LO < HI")
    if param.instrument:
        raise BalanceError(
            f"parameter '{name}' of '{pdef.name}' is a measuring instrument (it reads what the "
            "player cannot see); not tunable"
        )
    if not hi > lo:
        raise BalanceError(f"parameter '{name}' of '{pdef.name}' is fixed at {lo:g}; not tunable")
    if param.integer and math.floor(hi) <= math.ceil(lo):
        raise BalanceError(f"--param {name}: the range {lo:g}:{hi:g} holds one whole number")
    return Knob(name, lo, hi, param.integer, param.log and lo > 0)


def plan_tune(
    request: PlayRequest,
    policy: str,
    *,
    against: list[str] | None = None,
    params: list[str] | None = None,
    trials: int = 40,
    check_games: int | None = None,
) -> TunePlan:
    """Validate a tune of ``policy`` (``request.games`` games per candidate, its seats left to
    the tune; BalanceError naming the problem; nothing is written)."""
    games, players, sets, variant = request.games, request.players, request.sets, request.variant
    seed, policy_file, data = request.seed, request.policy_file, request.data
    spec = get_game(request.game)
    files = read_data(spec.rules_class, data)
    if trials < 1:
        raise BalanceError(f"--trials must be at least 1 candidate, not {trials}")
    if trials > MAX_TRIALS:
        raise BalanceError(f"--trials must be at most {MAX_TRIALS}, not {trials}")
    registry = spec.policies
    if policy_file is not None:
        if not isinstance(policy_file, PolicyFile):
            policy_file = read_policy_file(policy_file)
        registry = {**registry, **load_policies(spec, policy_file).definitions}
    base = parse_policy(policy, registry, spec.id)
    pdef = base.policy
    tunable = [p for p in pdef.params if p.tunable]
    if not tunable:
        raise BalanceError(
            f"policy '{pdef.name}' of {spec.id} has no tunable parameters; "
            f"policies with some: {', '.join(_tunable_policies(spec)) or 'none'}"
        )
    if params:
        knobs = [parse_knob(t, pdef) for t in params]
        if len({k.name for k in knobs}) != len(knobs):
            raise BalanceError("each --param may be given only once")
    else:
        knobs = [parse_knob(p.name, pdef) for p in tunable]
    n_players = players if players is not None else spec.default_players
    spec.check_players(n_players)
    field = list(dict.fromkeys(a.strip() for a in against or []))
    if not field and not spec.cooperative:
        field = [name for name in spec.policies if name != pdef.name] or [pdef.name]
    for text in field:  # unknown names and parameters, one line each
        parse_policy(text, registry, spec.id)
    if field:
        seatings = [Seating(s, opp) for opp in field for s in range(n_players)]
    else:
        seatings = [Seating(None, None)]
    per_seating = -(-games // len(seatings))
    least = RUNGS * UNTIL_BATCH
    if per_seating < least:
        raise BalanceError(
            f"-n {games} is too few: a candidate plays {len(seatings)} seating(s) of at least "
            f"{least} games each (so weak candidates can be stopped early); use -n "
            f"{least * len(seatings)} or more"
        )
    if check_games is not None and check_games < 1:
        raise BalanceError(f"--check-games must be at least 1, not {check_games}")
    per_check = -(-(check_games or 2 * games) // len(seatings))
    chunk = -(-per_seating // (RUNGS * UNTIL_BATCH))
    plan = TunePlan(
        spec=spec,
        policy=pdef,
        base=base,
        knobs=tuple(knobs),
        seatings=tuple(seatings),
        field=tuple(field),
        n_players=n_players,
        sets=tuple(sets or []),
        variant=str(variant) if variant is not None else None,
        variant_name="",
        trials=trials,
        games=per_seating,
        check_games=per_check,
        seed=seed,
        chunk_size=chunk,
        policy_file=policy_file,
        data=tuple(files[n] for n in sorted(files)),
    )
    # Every run the tune can make is validated now: rules, seat policies, the game's own checks.
    first = plan.config({}, seatings[0])
    for seating in seatings:
        plan.config({}, seating)
        plan.config({}, seating, check=True)
        for knob in knobs:  # the extremes of every knob
            plan.config({knob.name: _number(knob.lo, knob.integer)}, seating)
            plan.config({knob.name: _number(knob.hi, knob.integer)}, seating)
    return _with_variant_name(plan, first.variant)


def _with_variant_name(plan: TunePlan, name: str) -> TunePlan:
    from dataclasses import replace

    return replace(plan, variant_name=name)


def _tunable_policies(spec: GameSpec) -> list[str]:
    return [n for n, p in spec.policies.items() if any(q.tunable for q in p.params)]


# -- the search ------------------------------------------------------------------------------
@dataclass
class TrialResult:
    number: int
    params: dict[str, float]
    state: str  # complete | pruned
    win_rate: float  # the mean outcome: the share of the wins, or the mean return
    wins: float  # the outcomes' sum: a win k seats share counts 1/k
    games: int
    rungs: list[float]  # win rate after each quarter played
    squares: float = 0.0  # the squared outcomes' sum, for the interval

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def prepare_out(plan: TunePlan, out: str | Path) -> Path:
    """Check ``--out`` (new, empty, or this very tune to resume) and write the plan there."""
    return prepare_search_folder(out, TUNE_FILE, plan.describe(), "tune")


def prepare_search_folder(out: str | Path, file_name: str, plan: dict[str, Any], kind: str) -> Path:
    """A search's folder (a tune, a design): new, empty, or holding this very plan (to resume);
    the plan is written to ``file_name`` there. Another plan is refused, nothing touched."""
    p = Path(out)
    if p.exists() and not p.is_dir():
        raise BalanceError(f"--out {str(p)!r} is a file; give a folder for the {kind}")
    f = p / file_name
    if f.is_file():
        try:
            old = json.loads(f.read_text()).get("plan")
        except (OSError, json.JSONDecodeError, AttributeError) as exc:
            raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None
        if old != _jsonable(plan):
            raise BalanceError(
                f"--out {str(p)!r} holds another {kind}; use a new folder, or repeat the original "
                "command to resume it"
            )
        return p
    if p.is_dir() and any(p.iterdir()):
        raise BalanceError(f"--out {str(p)!r} is a non-empty folder; choose a new or empty folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BalanceError(f"cannot create {str(p)!r}: {exc.strerror}") from None
    write_json(f, {"plan": plan, "started": now()})
    return p


def _jsonable(obj: Any) -> Any:
    return json.loads(json.dumps(obj, default=str))


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Replace a search's state file at once (a kill leaves the old one or the new one)."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
    tmp.replace(path)


def tune(plan: TunePlan, out: str | Path, how: Execution = Execution()) -> dict[str, Any]:
    """Run (or resume) the search and the check on fresh seeds; return the results."""
    import optuna

    from simulator.runs.cluster import check_address, cluster_session, connect

    jobs, cluster, progress = how.jobs, how.cluster, how.progress
    if cluster is not None:
        check_address(cluster)  # a bad address is refused before anything is written
    path = prepare_out(plan, out)
    started = time.perf_counter()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = search_sampler(plan.seed, plan.trials)
    pruner = optuna.pruners.MedianPruner(n_startup_trials=BATCH, n_warmup_steps=0)
    study = optuna.create_study(direction="maximize", sampler=sampler, pruner=pruner)
    study.enqueue_trial(_suggestable(plan, plan.default_params))
    played_before = games_on_disk(path)
    results: list[TrialResult] = []
    say = _Say(progress)
    with cluster_session(cluster):
        if cluster is not None:
            connect(cluster)
        player = Player(jobs, cluster, notice=progress)
        while len(results) < plan.trials:
            k = min(BATCH, plan.trials - len(results))
            asked = [study.ask() for _ in range(k)]
            batch = [(t, _values(plan, t)) for t in asked]
            for trial, result in zip(asked, _play_batch(plan, path, batch, player), strict=True):
                if result.state == "pruned":
                    study.tell(trial, state=optuna.trial.TrialState.PRUNED)
                else:
                    study.tell(trial, result.win_rate)
                results.append(result)
                say.trial(result, plan)
        best = _best(results)
        say.line(f"checking the best setting and the defaults on {plan.check_games} fresh games")
        check = _check(plan, path, best.params, player)
    elapsed = time.perf_counter() - started
    summary = {
        "game": plan.spec.id,
        "policy": plan.policy.name,
        "best_params": plan.default_params | best.params,
        "best_win_rate": check["best"],
        "default_params": plan.default_params,
        "default_win_rate": check["defaults"],
        "change": check["difference"]["change"],
        "trials": plan.trials,
        "games_per_trial": plan.games_per_trial,
        "out": str(path),
        "at_edge": at_edge(plan, plan.default_params | best.params),
    }
    data = json.loads((path / TUNE_FILE).read_text())
    total = games_on_disk(path)
    data |= {
        "plan": plan.describe(),
        "finished": now(),
        "summary": summary,
        "trials": [r.as_dict() for r in results],
        "best_trial": best.number,
        "search_win_rate": best.win_rate,
        "check": check,
        "measure": (
            "success rate"
            if plan.spec.cooperative
            else "mean return"
            if by_return(plan.spec)
            else "win rate"
        ),
        "objective": "return" if by_return(plan.spec) else "win",
        "games_total": total,
        "games_played_now": total - played_before,
        "wall_seconds": round(elapsed, 1),
        "backend": cluster or "local processes",
    }
    write_json(path / TUNE_FILE, data)
    return data


# A best value in the outer twentieth of the range searched (on the knob's own scale) is at its
# edge: a better setting may lie beyond it.
EDGE_SHARE = 0.05


def at_edge(plan: TunePlan, best: dict[str, float]) -> list[dict[str, Any]]:
    """The knobs whose best value lies at an end of the range searched: name, value, the end
    (``lower`` or ``upper``), the range, whether that end is a limit of the policy (``limit``:
    nothing beyond it can be played) and, where it is not, a range that searches beyond it
    (``beyond``, for ``--param NAME=LO:HI``)."""
    out = []
    for knob in plan.knobs:
        param = next(p for p in plan.policy.params if p.name == knob.name)
        value = best[knob.name]
        scale = math.log if knob.log else (lambda x: x)
        span = scale(knob.hi) - scale(knob.lo)
        where = (scale(value) - scale(knob.lo)) / span if span > 0 else 0.5
        if EDGE_SHARE < where < 1 - EDGE_SHARE:
            continue
        end = "lower" if where <= EDGE_SHARE else "upper"
        limit_lo, limit_hi = (param.lo, param.hi) if param.bounded else (-math.inf, math.inf)
        limit = (end == "lower" and knob.lo <= limit_lo) or (end == "upper" and knob.hi >= limit_hi)
        entry = {"name": knob.name, "value": value, "end": end, "lo": knob.lo, "hi": knob.hi,
                 "limit": bool(limit)}  # fmt: skip
        if not limit:
            if knob.log:  # as far again on the log scale, staying above 0 (1 for a count)
                ratio = knob.hi / knob.lo
                lo, hi = (value / ratio, value) if end == "lower" else (value, value * ratio)
                lo = max(lo, 1) if knob.integer else lo
            else:
                width = knob.hi - knob.lo
                lo, hi = (value - width, value) if end == "lower" else (value, value + width)
            lo = _number(max(lo, limit_lo), knob.integer)
            hi = _number(min(hi, limit_hi), knob.integer)
            if lo < hi:
                entry["beyond"] = [lo, hi]
            else:
                entry["limit"] = True
        out.append(entry)
    return out


def search_sampler(seed: int, trials: int) -> Any:
    """Optuna's TPE sampler as every search here uses it: seeded, and told a running batch's
    candidates (constant liar) so a batch proposes different settings."""
    import optuna

    return optuna.samplers.TPESampler(
        seed=seed,
        multivariate=True,
        constant_liar=True,
        n_startup_trials=max(BATCH, min(10, trials // 3)),
    )


def _suggestable(plan: TunePlan, values: dict[str, float]) -> dict[str, float]:
    """The starting values of the knobs, clipped into the knobs' bounds."""
    return {k.name: _number(min(max(values[k.name], k.lo), k.hi), k.integer) for k in plan.knobs}


def _values(plan: TunePlan, trial: Any) -> dict[str, float]:
    """The knobs' values for an Optuna trial (floats kept to 4 significant digits, so a run
    folder's label names its setting exactly)."""
    values = {}
    for k in plan.knobs:
        if k.integer:
            lo, hi = math.ceil(k.lo), math.floor(k.hi)
            values[k.name] = trial.suggest_int(k.name, lo, hi, log=k.log)
        else:
            v = trial.suggest_float(k.name, k.lo, k.hi, log=k.log)
            values[k.name] = min(max(float(f"{v:.4g}"), k.lo), k.hi)
    return values


def _trial_dir(path: Path, number: int) -> Path:
    return path / "trials" / f"{number:03d}"


class Player:
    """Plays a list of runs: one after another on local processes (each run spread over
    ``jobs``), or all at once on a Dask cluster (the runs of several candidates share it)."""

    def __init__(self, jobs: int | None, cluster: str | None, notice: bool = True):
        self.jobs, self.cluster, self.notice = jobs, cluster, notice

    def play(self, runs: list[tuple[RunConfig, Path, Callable[[RunFolder], bool] | None]]) -> None:
        def one(item: tuple[RunConfig, Path, Callable[[RunFolder], bool] | None]) -> None:
            config, folder, until = item
            run(
                config,
                folder,
                jobs=self.jobs,
                cluster=self.cluster,
                until=until,
                notice=self.notice,
            )

        if self.cluster is None or len(runs) < 2:
            for item in runs:
                one(item)
            return
        with ThreadPoolExecutor(max_workers=min(len(runs), 16)) as pool:
            for future in [pool.submit(one, item) for item in runs]:
                future.result()


def _stop_after(chunks: int) -> Callable[[RunFolder], bool]:
    def enough(folder: RunFolder) -> bool:
        return len(folder.done_parts()) >= chunks

    return enough


def _play_batch(
    plan: TunePlan, path: Path, batch: list[tuple[Any, dict[str, float]]], player: Player
) -> list[TrialResult]:
    """Play a batch of candidates quarter by quarter, pruning between quarters."""
    results = {t.number: TrialResult(t.number, v, "running", math.nan, 0, 0, []) for t, v in batch}
    alive = list(batch)
    n_chunks = -(-plan.games // plan.chunk_size)
    for rung in range(1, RUNGS + 1):
        until = None if rung == RUNGS else _stop_after(min(n_chunks, rung * UNTIL_BATCH))
        runs = [
            (plan.config(v, s), _trial_dir(path, t.number) / s.folder, until)
            for t, v in alive
            for s in plan.seatings
        ]
        player.play(runs)
        survivors = []
        for trial, values in alive:  # in trial order: pruning decisions are reproducible
            res = results[trial.number]
            wins, games, squares = _wins(plan, _trial_dir(path, trial.number))
            res.wins, res.games, res.win_rate = wins, games, wins / games
            res.squares = squares
            res.rungs.append(res.win_rate)
            trial.report(res.win_rate, step=rung)
            if rung < RUNGS and trial.should_prune():
                res.state = "pruned"
            else:
                survivors.append((trial, values))
        alive = survivors
    for trial, _ in alive:
        results[trial.number].state = "complete"
    return [results[t.number] for t, _ in batch]


def by_return(spec: GameSpec) -> bool:
    """Do the game's players maximise their return (``objective = "return"``), so a tune
    maximises the tuned seat's mean return instead of its share of the wins?"""
    return spec.objective == "return" and spec.has_returns and not spec.cooperative


def seat_outcomes(plan: TunePlan, folder: Path, seating: Seating) -> pl.DataFrame:
    """``game_index`` and ``won`` of one run: what the tuned seat plays for in each game: its
    share of the win (0, 1/k for a win k seats share, or 1), its return where the game's
    objective is the return, or whether the players succeeded."""
    frame = RunFolder.open(folder).scan()
    if plan.spec.cooperative:
        won = pl.col("success").fill_null(False).cast(pl.Float64)
    elif by_return(plan.spec):
        won = pl.col(RETURNS).list.get(seating.seat).cast(pl.Float64)
    else:
        frame = with_outcome_columns(frame, plan.n_players)
        won = share(seating.seat)
    return frame.select("game_index", won.alias("won")).collect().sort("game_index")


def _wins(plan: TunePlan, trial_dir: Path) -> tuple[float, int, float]:
    """The sum of the tuned seat's outcomes (shares of the win, or returns), the games and the
    sum of the squared outcomes (for the interval)."""
    wins, games, squares = 0.0, 0, 0.0
    for s in plan.seatings:
        df = seat_outcomes(plan, trial_dir / s.folder, s)
        wins += float(df["won"].sum())
        squares += float((df["won"] * df["won"]).sum())
        games += df.height
    return wins, games, squares


def _best(results: list[TrialResult]) -> TrialResult:
    complete = [r for r in results if r.state == "complete"]
    return max(complete, key=lambda r: (r.win_rate, -r.number))


def _check(plan: TunePlan, path: Path, best: dict[str, float], player: Player) -> dict[str, Any]:
    """Best setting and defaults on fresh seeds: Wilson intervals and the paired difference,
    pooled and by seating."""
    from analyses.stats import outcome_mean, share_change

    def rate(won: np.ndarray) -> dict[str, float]:
        """The mean outcome with its interval (whole wins read as a proportion)."""
        total, squares = float(won.sum()), float((won * won).sum())
        return outcome_mean(total, len(won), squares, by_return(plan.spec)).as_dict()

    defaults = plan.default_params
    best = defaults | best
    same = best == defaults
    folders = {
        "defaults": path / "check" / "defaults",
        "best": path / "check" / ("defaults" if same else "best"),
    }
    runs = [
        (plan.config(defaults, s, check=True), folders["defaults"] / s.folder, None)
        for s in plan.seatings
    ]
    if not same:
        runs += [
            (plan.config(best, s, check=True), folders["best"] / s.folder, None)
            for s in plan.seatings
        ]
    player.play(runs)
    by_seating = []
    pooled: dict[str, list[np.ndarray]] = {"defaults": [], "best": []}
    for s in plan.seatings:
        won = {}
        for key, folder in folders.items():
            df = seat_outcomes(plan, folder / s.folder, s)
            won[key] = df["won"].to_numpy()
            pooled[key].append(won[key])
        d = share_change(won["defaults"], won["best"], True)
        by_seating.append(
            {
                "seating": s.label,
                "seat": s.seat,
                "opponent": s.opponent,
                "games": len(won["best"]),
                "best": rate(won["best"]),
                "defaults": rate(won["defaults"]),
                "difference": d.as_dict(),
            }
        )
    b, dflt = np.concatenate(pooled["best"]), np.concatenate(pooled["defaults"])
    diff = share_change(dflt, b, True)
    return {
        "seed": plan.check_seed,
        "games": len(b),
        "best": rate(b),
        "defaults": rate(dflt),
        "difference": diff.as_dict(),
        "by_seating": by_seating,
        "fair_share": None if plan.spec.cooperative or by_return(plan.spec) else 1 / plan.n_players,
    }


def games_on_disk(path: Path) -> int:
    total = 0
    for manifest in path.glob("**/manifest.json"):
        folder = RunFolder(manifest.parent)
        if folder.done_parts():
            total += folder.scan().select(pl.len()).collect().item()
    return total


class _Say:
    """One line per candidate on stderr (a terminal only), so a long tune shows it is alive."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()

    def line(self, text: str) -> None:
        if self.enabled:
            print(text, file=sys.stderr, flush=True)

    def trial(self, r: TrialResult, plan: TunePlan) -> None:
        setting = ", ".join(f"{k}={v:g}" for k, v in r.params.items())
        how = f"pruned after {r.games} games" if r.state == "pruned" else f"{r.games} games"
        self.line(f"candidate {r.number + 1}/{plan.trials}: {setting}: {r.win_rate:.1%} ({how})")
