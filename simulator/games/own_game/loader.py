"""Reading a designer's game file: the protocol's names, checked once, as a :class:`GameFile`.

The file is plain Python and imports nothing of ours. It is run as a module of its own (named
after its SHA-256, so two versions of one file never mix in a process) and every name the
protocol promises is checked here, with one line naming the file and the name when one is
missing or malformed. Nothing of the file is trusted further than this: what its functions
return is checked while games are played (``checks``).
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.outcomes import places_of, shares_of

from . import watchdog

REQUIRED = ("start", "to_move", "legal_actions", "apply", "winners")
# chance_outcomes or sample_chance: needed only where to_move can say "chance" (checked in play)
OPTIONAL = (
    "chance_outcomes", "turn", "sample_chance", "scores", "measures", "end_reason", "observe",
    "determinize", "describe", "clone", "board", "pieces", "ranking", "returns",
)  # fmt: skip
DEFAULT_MAX_MOVES = 100_000
NO_WINNER = "no winner"
RESERVED_POLICIES = ("random", "greedy", "mcts")
OBJECTIVES = ("win", "return")
MAX_SEATS = 127  # the dataset keeps a seat count in one byte


@dataclass(frozen=True)
class FileParam:
    """One keyword parameter of a file's policy: its default sets its kind and bounds."""

    name: str
    default: float
    integer: bool
    boolean: bool


@dataclass(frozen=True)
class FilePolicy:
    name: str
    function: Callable[..., Any]
    doc: str
    params: tuple[FileParam, ...]


@dataclass(frozen=True, eq=False)
class GameFile:
    """A checked game file: its text, its module and the protocol's functions."""

    name: str  # the file's stem: the game's id
    path: str  # as given (shown in messages)
    source: str
    module: types.ModuleType = field(repr=False)

    def __post_init__(self) -> None:
        # The protocol's functions as attributes (None where an optional one is not defined),
        # looked up once: the game loop reads them for every move.
        for name in REQUIRED + OPTIONAL:
            object.__setattr__(self, name, getattr(self.module, name, None))

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()

    # -- declarations --------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return str(getattr(self.module, "title", self.name))

    @property
    def players(self) -> tuple[int, int]:
        return tuple(self.module.players)  # type: ignore[return-value]

    @property
    def length_unit(self) -> str:
        return str(getattr(self.module, "length_unit", "decisions"))

    @property
    def options(self) -> dict[str, dict[str, Any]]:
        return dict(getattr(self.module, "options", {}))

    @cached_property
    def cooperative(self) -> bool:
        return bool(getattr(self.module, "cooperative", False))

    @cached_property
    def max_moves(self) -> int:
        return int(getattr(self.module, "max_moves", DEFAULT_MAX_MOVES))

    @cached_property
    def end_reasons(self) -> tuple[str, ...]:
        """Declared ``end_reasons``; without ``end_reason``: "won" and "no winner"."""
        declared = getattr(self.module, "end_reasons", None)
        if declared is not None:
            return tuple(declared)
        return ("won", NO_WINNER) if self.end_reason is None else ("over",)

    @cached_property
    def lowest_score_wins(self) -> bool:
        """Do ``scores`` count against a seat (golf, No Thanks!)?"""
        return bool(getattr(self.module, "lowest_score_wins", False))

    @cached_property
    def objective(self) -> str:
        """What a player maximises: ``"win"`` (its share of the win) or ``"return"``."""
        return str(getattr(self.module, "objective", "win"))

    @cached_property
    def scores_during_play(self) -> bool:
        """Are ``scores`` meaningful before the end (lead changes, comebacks)?"""
        return bool(getattr(self.module, "scores_during_play", True))

    @property
    def measure_notes(self) -> dict[str, str]:
        return dict(getattr(self.module, "measure_notes", {}))

    @cached_property
    def hidden_information(self) -> bool:
        """Do seats know different things (the file defines ``observe``)?"""
        return self.observe is not None

    @cached_property
    def policies(self) -> dict[str, FilePolicy]:
        return _read_policies(self)

    # -- the toolkit's own uses of the protocol --------------------------------------------------
    def copy(self, state: Any) -> Any:
        return self.clone(state) if self.clone is not None else copy.deepcopy(state)

    def draw_chance(self, state: Any, rng: np.random.Generator) -> Any:
        """One chance outcome drawn with ``rng``: ``sample_chance`` where the file has it."""
        if self.sample_chance is not None:
            return self.sample_chance(state, rng)
        outcomes = self.chance_outcomes(state)
        u = rng.random()
        acc = 0.0
        for outcome, p in outcomes:
            acc += p
            if u < acc:
                return outcome
        return outcomes[-1][0]  # rounding: the probabilities summed to a hair under 1

    def ending(self, state: Any, n_players: int) -> Ending:
        """How a finished game ended for every seat (``simulator.contract.outcomes``): ``winners``
        (a list of two or more shares the win), the places (``ranking``, else from the winners and
        the scores) and the returns (``returns``, else None)."""
        won = list(self.winners(state))
        if self.cooperative:
            shares = [1.0 if won else 0.0] * n_players
        else:
            shares = shares_of(won, n_players)
        points = list(self.scores(state)) if self.scores is not None else None
        places: list[int] | None = None
        if self.ranking is not None:
            places = [int(x) for x in self.ranking(state)]
        elif not self.cooperative:
            places = places_of(won, points or [0] * n_players, self.lowest_score_wins)
        paid = [float(x) for x in self.returns(state)] if self.returns is not None else None
        return Ending(won, shares, places, paid, points)

    def length(self, state: Any, decisions: int) -> int:
        return int(self.turn(state)) if self.turn is not None else decisions

    def reason(self, state: Any, won: list[int]) -> str:
        if self.end_reason is not None:
            return str(self.end_reason(state))
        return "won" if won else NO_WINNER


@dataclass(frozen=True)
class Ending:
    """How one game ended: the winners, each seat's share of the win, place and return (None
    where the game has none), and its scores (None without ``scores``)."""

    winners: list[int]
    shares: list[float]
    places: list[int] | None
    returns: list[float] | None
    scores: list[float] | None


def _where(path: str) -> str:
    return Path(path).name


def load(path: str | Path) -> GameFile:
    """Read, run and check a game file (one line naming the file and the problem)."""
    p = Path(path)
    if not p.is_file():
        raise BalanceError(f"game file {str(p)!r} does not exist or is not a file")
    try:
        source = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BalanceError(f"game file {str(p)!r} cannot be read: {exc}") from None
    return from_source(str(p), source)


_LOADED: dict[tuple[str, str], GameFile] = {}


def from_source(path: str, source: str, name: str | None = None) -> GameFile:
    """The game of a file's text (cached per name and content in the process); its id is
    ``name`` or the file's stem."""
    name = name or Path(path).stem
    key = (name, hashlib.sha256(source.encode()).hexdigest())
    if key not in _LOADED:
        _LOADED[key] = _check(GameFile(name, path, source, _run(path, source, key[1])))
    return _LOADED[key]


def _run(path: str, source: str, sha: str) -> types.ModuleType:
    where = _where(path)
    module_name = f"balance_game_{sha[:16]}"
    module = types.ModuleType(module_name)
    module.__file__ = str(path)
    try:
        code = compile(source, str(path), "exec")
    except SyntaxError as exc:
        raise BalanceError(f"{where}: line {exc.lineno}: {exc.msg}") from None
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    with watchdog.watching(str(path)):  # its prints to stderr, its loops found
        try:
            exec(code, module.__dict__)
        except (Exception, SystemExit) as exc:  # a designer's code, anything may go wrong
            del sys.modules[module_name]
            raise BalanceError(
                f"{where}: {_raised(exc, path)} while the file was loading"
            ) from None
        except watchdog.Overrun as overrun:
            del sys.modules[module_name]
            at = f" (at line {overrun.line})" if overrun.line is not None else ""
            raise BalanceError(
                f"{where}: still running after {watchdog.limit_words()} while the file was "
                f"loading{at}: a loop at the top level? (--call-limit SECONDS allows longer)"
            ) from None
    return module


def _raised(exc: BaseException, path: str) -> str:
    """``ZeroDivisionError: division by zero (line 12)``: the exception and the file's line."""
    line = ""
    for frame in reversed(inspect.getinnerframes(exc.__traceback__)) if exc.__traceback__ else []:
        if frame.filename == str(path):
            line = f" (line {frame.lineno})"
            break
    if isinstance(exc, SystemExit):
        return f"SystemExit: sys.exit({exc.code!r}) was called{line}"
    return f"{type(exc).__name__}: {exc}{line}"


def _check(game: GameFile) -> GameFile:
    where = _where(game.path)
    m = game.module
    missing = [n for n in REQUIRED if not callable(getattr(m, n, None))]
    if missing:
        raise BalanceError(
            f"{where}: no {', '.join(f'{n}()' for n in missing)}; a game file defines "
            f"{', '.join(REQUIRED)} (docs/own-game.md)"
        )
    for n in OPTIONAL:
        if hasattr(m, n) and not callable(getattr(m, n)):
            raise BalanceError(f"{where}: {n} must be a function")
    players = getattr(m, "players", None)
    if (
        not isinstance(players, tuple | list)
        or len(players) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in players)
        or not 1 <= players[0] <= players[1]
    ):
        raise BalanceError(f"{where}: players must be (fewest, most) seats, e.g. (2, 4)")
    if players[1] > MAX_SEATS:
        raise BalanceError(
            f"{where}: players = {tuple(players)}: a game has at most {MAX_SEATS} seats"
        )
    reasons = getattr(m, "end_reasons", None)
    if reasons is not None and (
        not isinstance(reasons, tuple | list)
        or not reasons
        or not all(isinstance(r, str) and r for r in reasons)
    ):
        raise BalanceError(f"{where}: end_reasons must be a list of words")
    max_moves = getattr(m, "max_moves", DEFAULT_MAX_MOVES)
    if not isinstance(max_moves, int) or isinstance(max_moves, bool) or max_moves < 1:
        raise BalanceError(f"{where}: max_moves must be a positive whole number, not {max_moves!r}")
    objective = getattr(m, "objective", "win")
    if objective not in OBJECTIVES:
        raise BalanceError(
            f"{where}: objective must be 'win' (a player maximises its share of the win) or "
            f"'return' (its payoff from returns()), not {objective!r}"
        )
    if objective == "return" and game.returns is None:
        raise BalanceError(
            f"{where}: objective = 'return' needs returns(state): each seat's payoff"
        )
    for flag in ("lowest_score_wins", "scores_during_play", "cooperative"):
        if hasattr(m, flag) and not isinstance(getattr(m, flag), bool):
            raise BalanceError(f"{where}: {flag} must be True or False")
    if getattr(m, "lowest_score_wins", False) and game.scores is None:
        raise BalanceError(f"{where}: lowest_score_wins needs scores(state)")
    if game.determinize is not None and game.observe is None:
        raise BalanceError(f"{where}: determinize() needs observe(): what the seat knows")
    _check_options(game)
    game.policies  # noqa: B018  (checked when read)
    return game


def _check_options(game: GameFile) -> None:
    where = _where(game.path)
    options = getattr(game.module, "options", {})
    if not isinstance(options, dict):
        raise BalanceError(f"{where}: options must be a dict of name -> {{'default': ...}}")
    for name, spec in options.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise BalanceError(f"{where}: option name {name!r} must be a word (letters, _)")
        if not isinstance(spec, dict) or "default" not in spec:
            raise BalanceError(f"{where}: option {name!r} needs a dict with a 'default'")
        unknown = set(spec) - {"default", "min", "max", "choices", "meaning"}
        if unknown:
            raise BalanceError(
                f"{where}: option {name!r} has unknown key(s) {', '.join(sorted(unknown))}; "
                "allowed: default, min, max, choices, meaning"
            )
        d = spec["default"]
        if not isinstance(d, bool | int | float | str):
            raise BalanceError(f"{where}: option {name!r}: default must be a number, text or bool")
        if "choices" in spec:
            choices = spec["choices"]
            if not isinstance(d, str) or not isinstance(choices, list | tuple) or d not in choices:
                raise BalanceError(
                    f"{where}: option {name!r}: choices must be a list of texts holding the default"
                )
        for bound in ("min", "max"):
            if bound in spec:
                value = spec[bound]
                if isinstance(d, bool | str) or not isinstance(value, int | float):
                    raise BalanceError(f"{where}: option {name!r}: {bound} is for numbers only")
        lo, hi = spec.get("min"), spec.get("max")
        if lo is not None and hi is not None and lo > hi:
            raise BalanceError(f"{where}: option {name!r}: min {lo} is above max {hi}")
        if isinstance(d, int | float) and not isinstance(d, bool):
            if (lo is not None and d < lo) or (hi is not None and d > hi):
                raise BalanceError(
                    f"{where}: option {name!r}: default {d} is outside its bounds [{lo}, {hi}]"
                )


def _read_policies(game: GameFile) -> dict[str, FilePolicy]:
    where = _where(game.path)
    declared = getattr(game.module, "policies", {})
    if not isinstance(declared, dict):
        raise BalanceError(f"{where}: policies must be a dict of name -> function")
    out: dict[str, FilePolicy] = {}
    for name, fn in declared.items():
        if not isinstance(name, str) or not name.replace("_", "").isalnum():
            raise BalanceError(f"{where}: policy name {name!r} must be a word")
        if name in RESERVED_POLICIES:
            raise BalanceError(
                f"{where}: policy name {name!r} is the toolkit's own; choose another name"
            )
        if not callable(fn):
            raise BalanceError(f"{where}: policy {name!r} must be a function")
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            raise BalanceError(f"{where}: policy {name!r} has no readable signature") from None
        plain = [
            p
            for p in sig.parameters.values()
            if p.default is inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if len(plain) != 4:
            raise BalanceError(
                f"{where}: policy {name!r} must take (state, seat, actions, rng) and keyword "
                f"parameters with defaults, not {len(plain)} plain arguments"
            )
        params = []
        for p in sig.parameters.values():
            if p.default is inspect.Parameter.empty:
                continue
            d = p.default
            if not isinstance(d, bool | int | float):
                raise BalanceError(
                    f"{where}: policy {name!r} parameter {p.name!r}: its default must be a "
                    f"number or True/False, not {d!r}"
                )
            params.append(FileParam(p.name, float(d), isinstance(d, int), isinstance(d, bool)))
        doc = inspect.getdoc(fn) or f"{name} (from {where})"
        out[name] = FilePolicy(name, fn, " ".join(doc.split()), tuple(params))
    return out
