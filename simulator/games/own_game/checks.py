"""The promises of the protocol, checked while games are played (``balance check-game``).

Every check fails in one line naming the function, the game's seed and the step, as OpenSpiel's
``random_sim_test`` and Pgx's ``api_test`` do for their games: no legal action at a decision,
actions that change order between calls, chance probabilities that are negative or do not sum
to 1, a seat outside the game, ``winners`` naming a seat twice or outside the game, a game not
over within ``max_moves``, the same seed giving another game, ``apply`` changing a state it was
not given (a list shared between a state and its copy), ``determinize`` changing what the seat
observes, ``measures`` that are not numbers, a policy answering an action that is not legal,
``scores`` not one number per seat at a decision, a ``sample_chance`` that gives the same outcome
whatever generator it is handed (every game alike), a file saying "chance" with no way to draw
it. A call or a game running past the watchdog's limit (``watchdog``) ends the check in one line
naming the function (or the game) and the step.
"""

from __future__ import annotations

import math
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError

from . import watchdog
from .loader import GameFile, _raised
from .play import Chooser, policy_name

TOLERANCE = 1e-9  # chance probabilities must sum to 1 within this
RNG_PROBES = 4  # generators handed to sample_chance at a chance node to see it draw from them
RNG_PROBE_NODES = 200  # chance nodes probed so in one check (the first ones)
RNG_MIN_NODES = 8  # ... before outcomes that never varied say the rng is ignored (a coin: 1/8**8)


@dataclass(frozen=True)
class CheckReport:
    games: int
    seconds: float  # checking them
    games_per_second: float  # random play without checks, the file's own speed


class _Failed(Exception):
    def __init__(self, function: str, message: str):
        super().__init__(message)
        self.function = function


@dataclass
class _RngProbe:
    """Across a check's games: chance nodes where ``sample_chance`` was handed several
    generators, and whether any two of them gave different outcomes."""

    nodes: int = 0
    varied: bool = False

    def look(self, game: GameFile, state: Any, call: Callable[..., Any]) -> None:
        if self.varied or self.nodes >= RNG_PROBE_NODES:
            return
        self.nodes += 1
        drawn = {
            _snapshot(call("sample_chance", game.sample_chance, game.copy(state),
                           np.random.default_rng(k)))
            for k in range(RNG_PROBES)
        }  # fmt: skip
        self.varied = len(drawn) > 1


def _random(state: Any, seat: int, actions: list, rng: np.random.Generator) -> Any:
    return actions[int(rng.integers(len(actions)))]


def _snapshot(state: Any) -> bytes | str:
    try:
        return pickle.dumps(state)
    except Exception:  # an unpicklable state: its text stands in
        return repr(state)


@watchdog.game_loop
def _checked_game(
    game: GameFile,
    rules: dict[str, Any],
    choosers: list[Chooser],
    seed: int,
    probe: _RngProbe | None = None,
) -> list[Any]:
    """Play one game from ``seed`` with every check; returns its moves (to compare replays)."""
    n = len(choosers)
    rng = np.random.default_rng(seed)
    moves: list[Any] = []
    step = 0
    where = "start"  # the function running, for the watchdog
    during_play = game.scores is not None and game.scores_during_play

    def call(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except _Failed:
            raise
        except (Exception, SystemExit) as exc:
            raise _Failed(name, f"raised {_raised(exc, game.path)}") from None

    try:
        state = call("start", game.start, n, dict(rules))
        while True:
            mover = call("to_move", game.to_move, state)
            if mover is None:
                break
            if mover == "chance":
                if game.sample_chance is None and game.chance_outcomes is None:
                    raise _Failed(
                        "to_move",
                        "said 'chance', but the file defines neither chance_outcomes(state) "
                        "nor sample_chance(state, rng)",
                    )
                if game.sample_chance is not None:
                    if probe is not None:
                        probe.look(game, state, call)
                    action = call("sample_chance", game.sample_chance, state, rng)
                else:
                    outcomes = list(call("chance_outcomes", game.chance_outcomes, state))
                    _check_outcomes(outcomes)
                    action = game.draw_chance(state, rng)
            else:
                if isinstance(mover, bool) or not isinstance(mover, int | np.integer):
                    raise _Failed("to_move", f"gave {mover!r}: a seat 0..{n - 1}, 'chance' or None")
                if not 0 <= mover < n:
                    raise _Failed("to_move", f"gave {mover}, outside a {n}-player game (the file "
                                  f"numbers seats 0 to {n - 1})")  # fmt: skip
                if during_play:
                    _check_scores(call("scores", game.scores, state), n, "at a decision")
                actions = list(call("legal_actions", game.legal_actions, state))
                if not actions:
                    raise _Failed("legal_actions", f"gave no action to seat {mover + 1}")
                again = list(call("legal_actions", game.legal_actions, state))
                if again != actions:
                    raise _Failed(
                        "legal_actions", "gave the actions in another order when asked again"
                    )
                for a in actions:
                    try:
                        hash(a)
                    except TypeError:
                        raise _Failed(
                            "legal_actions", f"gave {a!r}, which is not hashable"
                        ) from None
                if len(set(actions)) != len(actions):
                    raise _Failed("legal_actions", "gave one action twice")
                if game.observe is not None and game.determinize is not None:
                    _check_determinize(game, state, mover, rng, call)
                policy = where = policy_name(choosers[mover])
                action = call(policy, choosers[mover], state, mover, actions, rng)
                where = "apply"  # noqa: F841  (read by the watchdog: the search's time is apart)
                if action not in actions:
                    raise _Failed(policy, f"answered {action!r}, not one of the legal actions")
            moves.append(action)
            kept = call("clone", game.copy, state)
            before = _snapshot(kept)
            state = call("apply", game.apply, state, action)
            if state is None:
                raise _Failed("apply", "returned None: it must return the state after the action")
            if _snapshot(kept) != before:
                raise _Failed(
                    "apply",
                    "changed a copy of the state it was given (a list shared between a state "
                    "and its copy: clone() must copy every list it holds)",
                )
            step += 1
            if step >= game.max_moves:
                raise _Failed("to_move", f"never gave None (game over) within {game.max_moves:,} "
                              "moves (declare max_moves if your games are longer)")  # fmt: skip
        won = call("winners", game.winners, state)
        if isinstance(won, str | bytes | dict) or not hasattr(won, "__iter__"):
            raise _Failed("winners", f"gave {won!r}: a list of seats")
        won = list(won)  # a generator is read once, as every reader of winners() does
        for s in won:
            if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s < n:
                raise _Failed("winners", f"named {s!r}, not a seat of a {n}-player game")
        if len(set(won)) != len(won):
            raise _Failed("winners", "named a seat twice")
        if game.scores is not None:
            _check_scores(call("scores", game.scores, state), n, "at the end")
        if game.turn is not None:
            length = call("turn", game.turn, state)
            if not _number(length) or float(length) != int(length) or length < 0:
                raise _Failed("turn", f"gave {length!r}: a whole number of {game.length_unit}")
        if game.measures is not None:
            values = call("measures", game.measures, state)
            if not isinstance(values, dict):
                raise _Failed("measures", "must give a dict of name -> number")
            for k, v in values.items():
                if not isinstance(k, str) or not k.isidentifier():
                    raise _Failed("measures", f"gave the name {k!r}: a word (letters, _)")
                if not _number(v):
                    raise _Failed("measures", f"gave {k} = {v!r}, which is not a number")
        if game.end_reason is not None:
            reason = call("end_reason", game.end_reason, state)
            if reason not in game.end_reasons:
                raise _Failed("end_reason", f"gave {reason!r}; end_reasons lists "
                              f"{', '.join(game.end_reasons)}")  # fmt: skip
    except _Failed as failed:
        raise BalanceError(
            f"{game.path}: {failed.function}() {failed} (game seed {seed}, step {step})"
        ) from None
    except watchdog.Overrun as overrun:
        raise BalanceError(
            f"{game.path}: {overrun.describe()} (game seed {seed}, step {step})"
        ) from None
    return moves


def _check_scores(points: Any, n: int, when: str) -> None:
    if (
        not isinstance(points, list | tuple | np.ndarray)
        or len(points) != n
        or not all(_number(p) for p in points)
    ):
        raise _Failed("scores", f"gave {points!r} {when}: a list of one number per seat")


def _number(x: Any) -> bool:
    return (
        isinstance(x, int | float | np.integer | np.floating)
        and not isinstance(x, bool)
        and math.isfinite(float(x))
    ) or isinstance(x, bool)


def _check_outcomes(outcomes: list[Any]) -> None:
    if not outcomes:
        raise _Failed("chance_outcomes", "gave no outcome at a chance node")
    total = 0.0
    for item in outcomes:
        if not isinstance(item, tuple | list) or len(item) != 2 or not _number(item[1]):
            raise _Failed("chance_outcomes", f"gave {item!r}: pairs (outcome, probability)")
        if item[1] < 0:
            raise _Failed("chance_outcomes", f"gave a negative probability {item[1]}")
        total += float(item[1])
    if abs(total - 1.0) > TOLERANCE:
        raise _Failed("chance_outcomes", f"gave probabilities summing to {total:.12g}, not 1")


def _check_determinize(game: GameFile, state: Any, seat: int, rng: Any, call: Any) -> None:
    seen = call("observe", game.observe, state, seat)
    try:
        hash(seen)
    except TypeError:
        raise _Failed("observe", f"gave {type(seen).__name__}, which is not hashable") from None
    before = _snapshot(state)
    dealt = call("determinize", game.determinize, game.copy(state), seat, np.random.default_rng(
        int(rng.integers(2**32))))  # fmt: skip
    if _snapshot(state) != before:
        raise _Failed("determinize", "changed the state it was given a copy of")
    if call("observe", game.observe, dealt, seat) != seen:
        raise _Failed(
            "determinize",
            f"dealt a state in which seat {seat + 1} observes another thing (observe() and "
            "determinize() must agree on what the seat sees)",
        )


def check_games(
    game: GameFile,
    rules: dict[str, Any],
    n_players: int,
    games: int,
    seed: int = 0,
    choosers: list[Chooser] | None = None,
    seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Play up to ``games`` games (seeds ``seed``, ``seed + 1``, ...) with every check on, each
    twice to see the same seed give the same game; stop early after ``seconds``; ``progress``
    is told the games checked so far. Returns the games checked; raises ``BalanceError`` (one
    line) at the first broken promise."""
    choosers = choosers or [_random] * n_players
    start = time.perf_counter()
    probe = _RngProbe()
    checked = games
    with watchdog.watching(game.path):
        for i in range(games):
            s = seed + i
            first = _checked_game(game, rules, choosers, s, probe)
            if _checked_game(game, rules, choosers, s) != first:
                raise BalanceError(
                    f"{game.path}: the same seed gave another game (game seed {s}): draw every "
                    "random number from the rng the toolkit passes, never from random or a global"
                )
            if progress is not None:
                progress(i + 1)
            if seconds is not None and time.perf_counter() - start > seconds:
                checked = i + 1
                break
    if probe.nodes >= RNG_MIN_NODES and not probe.varied:
        raise BalanceError(
            f"{game.path}: sample_chance() gave the same outcome whatever generator it was "
            f"handed ({probe.nodes} chance nodes, {RNG_PROBES} generators each): draw from the "
            "rng it is passed, or every game deals alike"
        )
    return checked


POLICY_GAME_SECONDS = 5.0  # a policy's one checked game stops after this (a slow search)


@dataclass(frozen=True)
class PolicyGame:
    """One checked game with every seat playing ``policy``: its decisions and their time;
    ``finished`` False when it stopped at ``POLICY_GAME_SECONDS``."""

    policy: str
    decisions: int
    seconds: float
    finished: bool

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / max(self.decisions, 1)


class _Enough(BaseException):  # noqa: N818  (past the file's `except Exception`, as Overrun)
    """The policy game has taken its time: stop it where it is."""


class _Timed:
    """A seat's policy, its time and decisions counted (named as the policy it wraps), stopped
    once it has had ``seconds``."""

    def __init__(self, chooser: Chooser, seconds: float):
        self.inner = chooser
        self.func = getattr(chooser, "func", chooser)  # what ``policy_name`` reads
        self.budget = seconds
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, state: Any, seat: int, actions: list, rng: np.random.Generator) -> Any:
        if self.seconds > self.budget:
            raise _Enough
        t0 = time.perf_counter()
        try:
            return self.inner(state, seat, actions, rng)
        finally:
            self.seconds += time.perf_counter() - t0
            self.decisions += 1


def policy_game(
    game: GameFile,
    rules: dict[str, Any],
    n_players: int,
    name: str,
    chooser: Chooser,
    seed: int,
    seconds: float = POLICY_GAME_SECONDS,
) -> PolicyGame:
    """One game from ``seed`` with ``chooser`` at every seat and every check on, stopped once
    its decisions have taken ``seconds``."""
    timed = _Timed(chooser, seconds)
    finished = True
    with watchdog.watching(game.path):
        try:
            _checked_game(game, rules, [timed] * n_players, seed)  # type: ignore[list-item]
        except _Enough:
            finished = False
    return PolicyGame(name, timed.decisions, timed.seconds, finished)
