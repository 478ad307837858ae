"""The generic chunk loop: a designer's game played by plain Python, one game at a time.

Each game draws from a ``numpy.random.Generator`` seeded with its own seed (the run's ``seed``
column), so any game plays again alone, whatever the chunk, the number of jobs or the backend.
The loop checks only what it must to stay sound (a game over within ``max_moves``, an end reason
the file declares); the promises of the protocol are checked by ``checks`` on the first games
of every command and by ``balance check-game``. An exception inside the designer's code, or a call
or game running past the watchdog's limit, ends in one line naming the function, the game (its
index in the run beside its seed) and the step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.outcomes import PLACE, RETURNS, WIN_SHARE

from . import watchdog
from .loader import GameFile, _raised

# A policy as the loop calls it: (state, seat, actions, rng) -> one of actions.
Chooser = Callable[[Any, int, list, np.random.Generator], Any]


class DesignerError(BalanceError):
    """A game of the designer's file went wrong: ``problem`` (``apply() raised ...``) in the game
    of ``seed`` at ``step``. ``position``: the game's place in its chunk, until whoever knows the
    chunk's first game index names the game by its index (:meth:`at_chunk`)."""

    def __init__(
        self, path: str, problem: str, seed: int, step: int, position: int = 0,
        index: int | None = None,
    ):  # fmt: skip
        super().__init__(path, problem, seed, step, position, index)  # all of them: it pickles
        self.path, self.problem, self.seed, self.step = path, problem, seed, step
        self.position, self.index = position, index

    def __str__(self) -> str:
        game = f"game {self.index} (seed {self.seed})" if self.index is not None else (
            f"the game of seed {self.seed}")  # fmt: skip
        return f"{self.path}: {self.problem} in {game}, step {self.step}"

    def at_chunk(self, first_index: int) -> DesignerError:
        """The same error naming the game by its index in the run."""
        return DesignerError(self.path, self.problem, self.seed, self.step, self.position,
                             first_index + self.position)  # fmt: skip


@dataclass
class Outcome:
    """One finished game."""

    winners: list[int]
    shares: list[float]
    places: list[int] | None
    returns: list[float] | None
    length: int
    reason: str
    scores: list[float]
    measures: dict[str, float]
    lead_changes: int
    half_leader: int


def play_games(
    game: GameFile, rules: dict[str, Any], choosers: list[Chooser], seeds: Any
) -> list[Outcome]:
    """The games of a chunk, one per seed, watched as one (``watchdog``); an error names the
    game's place in the chunk (``DesignerError.position``)."""
    outcomes = []
    with watchdog.watching(game.path):
        for position, seed in enumerate(seeds):
            try:
                outcomes.append(play_game(game, rules, choosers, int(seed)))
            except DesignerError as exc:
                exc.position = position
                raise
    return outcomes


def play_game(
    game: GameFile,
    rules: dict[str, Any],
    choosers: list[Chooser],
    seed: int,
    record: list[tuple[int, Any, Any, Any]] | None = None,
) -> Outcome:
    """Play one game from ``seed``; ``record`` (a list) receives ``(step, mover, action,
    state before)`` for every move when given (replays), then ``(step, None, None, final
    state)``."""
    if watchdog.active():  # a chunk's games share one watch
        return _play(game, rules, choosers, seed, record)
    with watchdog.watching(game.path):
        return _play(game, rules, choosers, seed, record)


@watchdog.game_loop
def _play(
    game: GameFile,
    rules: dict[str, Any],
    choosers: list[Chooser],
    seed: int,
    record: list[tuple[int, Any, Any, Any]] | None,
) -> Outcome:
    rng = np.random.default_rng(seed)
    n = len(choosers)
    step = 0
    where = "start"
    try:
        state = game.start(n, dict(rules))
        to_move, legal, apply = game.to_move, game.legal_actions, game.apply
        outcomes_of, sample = game.chance_outcomes, game.sample_chance
        scores, turn = game.scores, game.turn
        # The leader is looked at whenever another seat comes to decide (and at the end).
        track = scores is not None and not game.cooperative and game.scores_during_play
        sign = -1.0 if game.lowest_score_wins else 1.0
        leaders: list[tuple[int, int]] = []  # (length so far, leader) when the leader changes
        last_seat = -1
        limit = game.max_moves
        decisions = 0
        while True:
            where = "to_move"
            mover = to_move(state)
            if mover is None:
                break
            if mover == "chance":
                if sample is not None:
                    where = "sample_chance"
                    action = sample(state, rng)
                elif outcomes_of is None:
                    raise DesignerError(game.path, "to_move() said 'chance', but the file "
                                        "defines neither chance_outcomes(state) nor "
                                        "sample_chance(state, rng)", seed, step)  # fmt: skip
                else:
                    where = "chance_outcomes"
                    outcomes = outcomes_of(state)
                    u, acc, action = rng.random(), 0.0, outcomes[-1][0]
                    for outcome, p in outcomes:
                        acc += p
                        if u < acc:
                            action = outcome
                            break
            else:
                if track and mover != last_seat:
                    where = "scores"
                    _follow(leaders, scores(state), turn, state, decisions, sign)
                    last_seat = mover
                where = "legal_actions"
                actions = legal(state)
                if not actions:
                    raise DesignerError(game.path, f"legal_actions() gave no action to seat "
                                        f"{mover + 1}", seed, step)  # fmt: skip
                where = policy_name(choosers[mover])
                action = choosers[mover](state, mover, actions, rng)
                decisions += 1
            if record is not None:
                record.append((step, mover, action, game.copy(state)))
            where = "apply"
            state = apply(state, action)
            step += 1
            if step >= limit:
                raise DesignerError(
                    game.path,
                    f"the game is not over after {limit:,} moves (declare max_moves if your "
                    "games are longer)",
                    seed,
                    step,
                )
        if record is not None:
            record.append((step, None, None, state))
        where = "winners"
        won = list(game.winners(state))
        where = "ranking" if game.ranking is not None else "scores"
        ending = game.ending(state, n)
        where = "turn"
        length = game.length(state, decisions)
        where = "end_reason"
        reason = game.reason(state, won)
        where = "scores"
        points = ending.scores if ending.scores is not None else [int(s in won) for s in range(n)]
        if track:
            _follow(leaders, points, None, state, length, sign)
        where = "measures"
        extra = dict(game.measures(state)) if game.measures is not None else {}
    except BalanceError:
        raise
    except watchdog.Overrun as overrun:
        raise DesignerError(game.path, overrun.describe(), seed, step) from None
    except (Exception, SystemExit) as exc:  # the designer's code: anything may go wrong
        raise DesignerError(
            game.path, f"{where}() raised {_raised(exc, game.path)}", seed, step
        ) from None
    changes, half = 0, -1
    if track and leaders:
        definite = [who for _, who in leaders if who >= 0]  # a tie hands the lead to nobody
        changes = sum(1 for a, b in zip(definite, definite[1:], strict=False) if a != b)
        half = next((who for at, who in reversed(leaders) if at <= length / 2), -1)
    return Outcome(
        won, ending.shares, ending.places, ending.returns, length, reason, points, extra, changes,
        half,
    )  # fmt: skip


def policy_name(chooser: Chooser) -> str:
    """``hold`` for the file's ``hold`` (its parameters bound), ``mcts`` for the search: the name
    a message gives the function that raised."""
    base = getattr(chooser, "func", chooser)
    if getattr(base, "__name__", "") == "_search":
        return "mcts"
    if getattr(base, "__qualname__", "").startswith("_greedy."):
        return "greedy"
    name = getattr(base, "__name__", "a policy")
    return "policy " + name.lstrip("_")


def _follow(
    leaders: list[tuple[int, int]],
    points: list[float],
    turn: Any,
    state: Any,
    so_far: int,
    sign: float = 1.0,
) -> None:
    """Note the leader when it changed (``turn``: the file's clock, else ``so_far``; ``sign``
    -1 where the lowest score leads)."""
    leader = _leader([sign * p for p in points])
    if not leaders or leaders[-1][1] != leader:
        leaders.append((int(turn(state)) if turn is not None else so_far, leader))


def _leader(points: list[float]) -> int:
    """The one seat with the top score, -1 when tied."""
    top = max(points)
    seats = [s for s, p in enumerate(points) if p == top]
    return seats[0] if len(seats) == 1 else -1


def columns(
    game: GameFile,
    outcomes: list[Outcome],
    n_players: int,
    end_reasons: tuple[str, ...],
    measure_columns: dict[str, str],
    whole: frozenset[str] = frozenset(),
) -> dict[str, np.ndarray]:
    """The engine contract's columns of a chunk (``simulator.contract.registry``); ``whole`` names
    the columns (``scores``, measure columns) held as whole numbers: a count stays a count."""
    g = len(outcomes)
    winner = np.full(g, -1, np.int64)
    success = np.zeros(g, bool)
    length = np.zeros(g, np.int64)
    reason = np.zeros(g, np.int64)
    points = np.zeros((g, n_players), np.float64)
    lead_changes = np.zeros(g, np.int64)
    half_leader = np.full(g, -1, np.int64)
    extra = {col: np.zeros(g, np.float64) for col in measure_columns}
    shares = np.zeros((g, n_players), np.float64)
    places = np.zeros((g, n_players), np.int64)
    paid = np.zeros((g, n_players), np.float64)
    for i, o in enumerate(outcomes):
        shares[i] = o.shares
        if o.places is not None:
            places[i] = o.places
        if o.returns is not None:
            paid[i] = o.returns
        if game.cooperative:
            success[i] = bool(o.winners)
        elif len(o.winners) == 1:
            winner[i] = o.winners[0]
        length[i] = o.length
        if o.reason not in end_reasons:
            raise BalanceError(
                f"{game.path}: end_reason() gave {o.reason!r}, which end_reasons does not list "
                f"({', '.join(end_reasons)})"
            )
        reason[i] = end_reasons.index(o.reason)
        points[i] = o.scores
        lead_changes[i] = o.lead_changes
        half_leader[i] = o.half_leader
        for col, name in measure_columns.items():
            if name not in o.measures:
                raise BalanceError(f"{game.path}: measures() has no {name!r} in every game")
            extra[col][i] = o.measures[name]
    out: dict[str, np.ndarray] = {
        "winner": winner,
        "length": length,
        "end_reason": reason,
        "scores": points,
        WIN_SHARE: shares,
        **extra,
    }
    if not game.cooperative:
        out[PLACE] = places
    if game.returns is not None:
        out[RETURNS] = paid
    for col in whole:
        values = out[col]
        if not np.array_equal(values, np.round(values)):
            function = "scores" if col == "scores" else "measures"
            raise BalanceError(
                f"{game.path}: {function}() gave a fraction in {col} where the file's first game "
                "gave whole numbers; give floats in every game or whole numbers in every game"
            )
        out[col] = values.astype(np.int64)
    if game.cooperative:
        out["success"] = success
    elif game.scores is not None and game.scores_during_play:
        out["lead_changes"] = lead_changes
        out["half_leader"] = half_leader
    return out
