"""``balance replay``: one game played again from its seed, recorded event by event.

A game of a run is found by its ``game_index``: its seed, rules, seats and variant come from the
run's manifest and row, the engine plays it again with a recording buffer
(``GameSpec.replay.play``, :mod:`simulator.contract.recording`), and the replay's row must equal the
run's row, or the replay is refused (the simulator changed since the run: the same seed would
show another game). A game can also be replayed from a seed with the usual run options.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulator.compiling.first_compile import compile_notice
from simulator.contract.errors import BalanceError
from simulator.contract.game_data import rules_from_manifest
from simulator.contract.outcomes import OUTCOME_COLUMNS, PLACE, RETURNS, WIN_SHARE, result_words
from simulator.contract.registry import GameSpec, get_game
from simulator.contract.rules import RuleSet
from simulator.folders.run_folder import RunFolder, chunk_table
from simulator.search.evaluation import recorded_evaluation

from .plan import RunConfig, chunk_seeds, engine_seats, plan_run
from .policy_file import PolicyFile
from .requests import PlayRequest

MAX_SEED = 2**32 - 1  # game seeds are uint32 (simulator.runs.plan.chunk_seeds)


@dataclass(frozen=True)
class Replay:
    """One recorded game: raw event rows, decoded events and the game's row as a run has it."""

    config: RunConfig  # games = 1; its seed is the game's seed
    rows: np.ndarray
    events: list[dict[str, Any]]
    row: pl.DataFrame  # one row, the run's columns
    game_index: int | None = None
    run: Path | None = None

    @property
    def spec(self) -> GameSpec:
        return self.config.spec

    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    @property
    def seed(self) -> int:
        return self.config.seed

    def result(self) -> dict[str, Any]:
        """Winner (or success), length, end reason, scores, and the game's own scalar columns."""
        r = self.row.row(0, named=True)
        out: dict[str, Any] = {}
        if self.spec.cooperative:
            out["success"] = r["success"]
        else:
            out["winner"] = r["winner"]
            if r.get(WIN_SHARE) is not None:
                out[WIN_SHARE] = r[WIN_SHARE]
                out["result"] = result_words(r[WIN_SHARE])
            if r.get(PLACE) is not None:
                out[PLACE] = r[PLACE]
            if r.get(RETURNS) is not None:
                out[RETURNS] = r[RETURNS]
        out.update(
            length=r["length"],
            length_unit=self.spec.length_unit,
            end_reason=r["end_reason"],
            scores=r["scores"],
        )
        for name in self.spec.columns:
            value = r.get(name)
            if value is not None and not isinstance(value, list):
                out[name] = value
        return out

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.spec.id, "seed": self.seed}
        if self.run is not None:
            out.update(run=str(self.run), game_index=self.game_index)
        out.update(
            variant=self.config.variant,
            rules_changed=self.rules.changed(),
            players=self.config.n_players,
            policies=self.config.policy_labels,
            events=self.events,
            result=self.result(),
        )
        return out

    def header(self) -> str:
        seats = ", ".join(f"seat {i + 1} {p}" for i, p in enumerate(self.config.policy_labels))
        where = f"game {self.game_index} of {self.run}, " if self.run is not None else ""
        changed = self.rules.changed()
        rules = (
            "rules: " + ", ".join(f"{k}={v}" for k, v in changed.items())
            if changed
            else "default rules"
        )
        return f"{self.spec.title}: {where}seed {self.seed}; {seats}; {rules}"

    def result_line(self) -> str:
        r = self.result()
        reason = str(r["end_reason"]).replace("_", " ")
        if self.spec.cooperative:
            who = f"{self.spec.success_subject} {'succeeds' if r['success'] else 'fails'}"
        elif "result" in r:
            who = r["result"]
        elif r["winner"] is None:
            who = "no winner"
        else:
            who = f"seat {r['winner'] + 1} wins"
        scores = ", ".join(f"{s:.4g}" if isinstance(s, float) else str(s) for s in r["scores"])
        what = f" ({self.spec.score_note}, by seat)" if self.spec.score_note else ""
        line = (
            f"result: {who} ({reason}) after {r['length']} {self.spec.length_unit}; scores "
            f"{scores}{what}"
        )
        if RETURNS in r:
            line += "; returns " + ", ".join(f"{x:.4g}" for x in r[RETURNS])
        if PLACE in r and len(r[PLACE]) > 2:
            line += "; places " + ", ".join(str(x) for x in r[PLACE])
        best = min(r["scores"]) if self.spec.lowest_score_wins else max(r["scores"])
        if r.get("winner") is not None and r["scores"][r["winner"]] != best:
            note = self.spec.end_notes.get(str(r["end_reason"]), "the game's end rule decides")
            worse = "a higher" if self.spec.lowest_score_wins else "a lower"
            line += f". Seat {r['winner'] + 1} wins with {worse} score: {note}"
        return line

    def text(self) -> str:
        """The game as text: a header, one line per event (its step first), the result."""
        unit = one_of(self.spec.length_unit)
        lines = [self.header()]
        show = self.spec.replay.text  # type: ignore[union-attr]
        places = _when(self.events, unit)
        lines += [f"{at}  {show(e)}" for at, e in zip(places, self.events, strict=True)]
        lines.append(self.result_line())
        return "\n".join(lines)


class FailedReplay(BalanceError):
    """A replayed game that failed (a designer's file raising, or past its time limit): the
    error, and the events up to it (``lines``: what ``balance replay`` prints before it)."""

    def __init__(self, message: str, events: list[dict[str, Any]], header: str, unit: str):
        super().__init__(message, events, header, unit)
        self.events, self.header, self.unit = events, header, unit

    def __str__(self) -> str:
        return str(self.args[0])

    def lines(self, show: Any) -> list[str]:
        """As ``Replay.text`` prints a game: the header, one line per event, then where it
        stopped (the error follows on stderr)."""
        places = _when(self.events, self.unit)
        return [
            self.header,
            *(f"{at}  {show(e)}" for at, e in zip(places, self.events, strict=True)),
            f"the game stopped after these {len(self.events)} events, on the error below",
        ]


def one_of(unit: str) -> str:
    """A unit of game length, singular: ``turns`` -> ``turn``, ``guesses`` -> ``guess``."""
    if unit.endswith(("sses", "shes", "ches", "xes")):
        return unit[:-2]
    return unit.removesuffix("s") or "step"


def place(event: dict[str, Any], unit: str, width: int = 0) -> str:
    """Where an event happened: ``turn 12``, or ``chance 2`` for a game file's chance event
    (``chance_number``: numbered apart from its decisions)."""
    number = event.get("chance_number")
    return f"{unit} {str(event['step']).rjust(width)}" if number is None else f"chance {number}"


def _when(events: list[dict[str, Any]], unit: str) -> list[str]:
    """Each event's place (:func:`place`), aligned."""
    width = max([len(str(e["step"])) for e in events if "chance_number" not in e] + [1])
    places = [place(e, unit, width) for e in events]
    wide = max([len(p) for p in places] + [0])
    return [p.ljust(wide) for p in places]


def _replayable(spec: GameSpec) -> None:
    if spec.replay is None:
        raise BalanceError(f"{spec.id} cannot be replayed yet: its engine records no events")


def play(config: RunConfig, game_index: int | None = None, run: Path | None = None) -> Replay:
    """Play the game of ``config.seed`` again, recording it."""
    spec = config.spec
    _replayable(spec)
    ids, params, extra = engine_seats(config)
    try:
        with compile_notice(config, replay=True):
            rows, columns = spec.replay.play(config.rules, config.n_players, ids, params,  # type: ignore[union-attr]
                                             config.seed, **extra)  # fmt: skip
    except BalanceError as exc:  # a game file's game that fails: its moves up to the failure
        events = getattr(exc, "events", None)
        if events is None:
            raise
        at_chunk = getattr(exc, "at_chunk", None)
        if at_chunk is not None and game_index is not None:
            exc = at_chunk(game_index)
        seats = ", ".join(f"seat {i + 1} {p}" for i, p in enumerate(config.policy_labels))
        where = f"game {game_index} of {run}, " if run is not None else ""
        header = f"{spec.title}: {where}seed {config.seed}; {seats}; the moves up to the failure"
        unit = one_of(spec.length_unit)
        raise FailedReplay(str(exc), events, header, unit) from None
    row = chunk_table(
        columns,
        game=spec.id,
        variant=config.variant,
        seeds=np.array([config.seed], dtype=np.uint32),
        first_index=game_index or 0,
        policies=config.policy_labels,
        cooperative=spec.cooperative,
        end_reasons=spec.end_reasons,
        lowest_wins=spec.lowest_score_wins,
    )
    events = spec.replay.decode(config.rules, config.n_players, rows)  # type: ignore[union-attr]
    return Replay(config, rows, events, row, game_index, run)


def check_replay_options(game_index: int | None, request: PlayRequest) -> bool:
    """Is ``balance replay TARGET`` (``request.game``) a run's game (True: a run folder and
    ``--game-index``) or a game played from ``--seed`` (False)? Refuses the options that do
    not apply (``request``'s fields given as None when the option was not given)."""
    target = request.game
    if Path(target).is_dir():
        if game_index is None:
            raise BalanceError(f"{target} is a run folder: say which game with --game-index I")
        given = [
            name
            for name, value in (
                ("--seed", request.seed),
                ("--players", request.players),
                ("--policy", request.policies),
                ("--set", request.sets),
                ("--variant", request.variant),
                ("--policy-file", request.policy_file),
                ("--data", request.data),
            )  # fmt: skip
            if value is not None
        ]
        if given:
            raise BalanceError(
                f"{given[0]} does not apply to a run's game (it is replayed with the run's own "
                "seed, rules and seats); use `balance replay GAME --seed S` to choose them"
            )
        return True
    if game_index is not None:
        raise BalanceError(f"--game-index needs a run folder; {target!r} is not one")
    if request.seed is None:
        raise BalanceError(
            f"say which game of {target} to play with --seed S (a run's `seed` column), or "
            "give a run folder and --game-index I"
        )
    return False


def replay_seed(request: PlayRequest) -> Replay:
    """The game a run's engine plays from game seed ``request.seed`` (the run's ``seed``
    column), with the request's players, seats and rules."""
    _replayable(get_game(request.game))
    seed = request.seed
    if not 0 <= seed <= MAX_SEED:
        raise BalanceError(f"--seed {seed}: a game seed is between 0 and {MAX_SEED}")
    return play(plan_run(request.but(games=1)))


def run_row(folder: RunFolder, game_index: int) -> pl.DataFrame:
    """Game ``game_index`` of a run, as its one-row table (one line when it is not there)."""
    manifest = folder.read_manifest()
    total = manifest.get("games_played", manifest["config"].get("games"))
    if not isinstance(total, int) or total < 1:
        raise BalanceError(f"{str(folder.path)!r} is damaged: its manifest has no game count")
    if not 0 <= game_index < total:
        raise BalanceError(
            f"--game-index {game_index} is outside the run: {str(folder.path)!r} has games 0 to "
            f"{total - 1}"
        )
    row = folder.scan().filter(pl.col("game_index") == game_index).collect()
    if row.height != 1:
        raise BalanceError(
            f"game {game_index} of {str(folder.path)!r} is not played yet (the run is "
            "unfinished: run the same command again to finish it)"
        )
    return row


def replay_run(path: str | Path, game_index: int) -> Replay:
    """Game ``game_index`` of the run in ``path``, played again and checked against its row."""
    folder = RunFolder.open(path)
    manifest = folder.read_manifest()
    recorded = manifest["config"]
    try:
        # the policy file as it was when the run was played, kept in the manifest
        policy_file = PolicyFile(**manifest["policy_file"]) if "policy_file" in manifest else None
        spec = get_game(str(recorded["game"]))
        _replayable(spec)
        rules = rules_from_manifest(
            spec.rules_class, manifest, f"{str(folder.path / 'manifest.json')!r}"
        )
        n_players = int(recorded["n_players"])
        labels = [str(p) for p in recorded["policies"]]
        variant = str(recorded["variant"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise BalanceError(
            f"{str(folder.path)!r} is damaged: its manifest's run configuration is incomplete"
        ) from None
    try:
        row = run_row(folder, game_index)
    except BalanceError as missing:
        if "not played yet" not in str(missing):
            raise
        row = None  # perhaps the game the run stopped at: played below, its failure shown
    if row is not None:
        seed = int(row["seed"][0])
    else:
        size = int(recorded.get("chunk_size", 0)) or None
        if size is None:
            raise BalanceError(f"{str(folder.path)!r} is damaged: its manifest has no chunk_size")
        seed = int(
            chunk_seeds(int(recorded["seed"]), game_index // size, game_index % size + 1)[-1]
        )
    evaluation = recorded_evaluation(manifest)  # the run's coefficients, not a fit made again
    config = plan_run(spec.id, 1, players=n_players, policies=labels, seed=seed, rules=rules,
                      policy_file=policy_file, evaluation=evaluation)  # fmt: skip
    config = dataclasses.replace(config, variant=variant)
    replay = play(config, game_index, folder.path)
    if row is None:  # it played to its end: the run had not reached it
        run_row(folder, game_index)  # says so
    if not same_row(replay.row, row):
        raise BalanceError(
            f"game {game_index} of {str(folder.path)!r} plays differently with the simulator as "
            f"it is now (its code changed since the run); `balance replay {spec.id} --seed "
            f"{seed}` shows what the seed gives today"
        )
    return replay


def same_row(replayed: pl.DataFrame, recorded: pl.DataFrame) -> bool:
    """Do two one-row tables hold the same game (same columns, same values)?"""
    # A run written before the outcome model has no win_share/place/returns: those are new.
    replayed = replayed.drop(
        [c for c in OUTCOME_COLUMNS if c not in recorded.columns], strict=False
    )
    if set(replayed.columns) != set(recorded.columns):
        return False
    return replayed.equals(recorded.select(replayed.columns))
