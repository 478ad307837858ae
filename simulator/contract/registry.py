"""The game registry: what every game package tells the toolkit about itself.

A game is a package ``simulator/games/<game>/`` whose ``spec`` module builds ``SPEC`` (a
:class:`GameSpec`), plus one line in ``GAME_MODULES``. Shared code (cli, runner, analyses,
reports) finds everything game-specific through the spec: its board, heatmap columns, a
breakdown column, report sections (``report_sections``, "module:function"), its own checks, and
extra commands (``commands``, "module:function" each, in ``simulator/cli/commands/<game>.py``).

The engine contract is
``play_chunk(rules, n_players, policy_ids, policy_params, seeds) -> dict[str, np.ndarray]``:

- ``rules`` is the game's ``Rules`` instance; ``policy_ids`` int64[P] and ``policy_params``
  float64[P, MAX_PARAMS] come from :func:`simulator.contract.policy.engine_arrays`; ``seeds``
  uint32[G] holds one seed per game (the engine seeds numba's generator with it at the start of that
  game, so any game can be replayed alone).
- The returned columns have one entry per game: ``winner`` (int, -1 when nobody wins alone),
  ``length`` (int, in ``length_unit``), ``end_reason`` (int index into ``end_reasons``),
  ``scores`` (float or int, games x P), ``success`` (bool, cooperative games only),
  ``lead_changes`` and ``half_leader`` (int; competitive games that have a score, for the drama
  analysis: how often the leader changed, and the leader at half the game's length, -1 if tied),
  and any game-specific column, named with the game's prefix (``caza_``, ``crew_``...);
  2-D arrays (games x P) become list columns.

A game that can be replayed move by move (``balance replay``) also declares ``replay``, a
:class:`simulator.contract.recording.ReplayDef`: its engine records events into a buffer passed
through the same compiled code that plays a chunk (a zero-row buffer when not recording).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import BalanceError
from .policy import OutsideDecisions, PolicyDef, SeatPolicy
from .rules import RuleSet

if TYPE_CHECKING:
    from .boards import Board
    from .replay_def import ReplayDef

# Game id -> module that exports SPEC. Imported lazily so `balance games` stays fast.
GAME_MODULES: dict[str, str] = {
    "caza-tesoros": "simulator.games.caza_tesoros.spec",
    "pirateer": "simulator.games.pirateer.spec",
    "pedruscos": "simulator.games.pedruscos.spec",
    "crew-deep-sea": "simulator.games.crew_deep_sea.spec",
    "cape-horn": "simulator.games.cape_horn.spec",
}
# Game id -> its spec's ``commands``, repeated here so that listing them (``balance --help``)
# imports no game's engine; a test holds the two equal.
GAME_COMMANDS: dict[str, tuple[str, ...]] = {
    "caza-tesoros": ("simulator.cli.commands.caza_tesoros:search_odds",),
    "crew-deep-sea": ("simulator.cli.commands.crew_deep_sea:crew_audit",),
}


@dataclass(frozen=True)
class ColumnKind:
    """What one of a game's own columns holds, so that only numbers are averaged.

    ``count`` (things that happened: searches, captures) and ``measure`` (an amount: sail points,
    a turn number) are averaged per game; ``category`` (a code: a mission number, a colour),
    ``seat`` (a seat index) and ``cells`` (board cells, drawn as heatmaps) are not. ``none`` is
    the value that means "does not apply" (a turn never reached, list padding): it is left out of
    every average, and a game where nothing applies has no value rather than -1."""

    kind: str
    none: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column kind {self.kind!r}; known: {', '.join(COLUMN_KINDS)}")

    @property
    def averaged(self) -> bool:
        return self.kind in ("count", "measure")

    @property
    def never_negative(self) -> bool:
        return self.kind == "count"

    def describe(self) -> str:
        """``count`` or ``measure (-1: none)``, for ``balance games GAME`` and docs."""
        return self.kind + (f" ({self.none}: none)" if self.none is not None else "")


COLUMN_KINDS = ("count", "measure", "category", "seat", "cells")
COUNT, MEASURE, CATEGORY, SEAT, CELLS = (ColumnKind(k) for k in COLUMN_KINDS)


@dataclass(frozen=True)
class SearchHooks:
    """What a game with a search player (``mcts``) gives beyond its forward model, all in
    ``simulator/games/<game>/forward.py``: the features its evaluation is fitted on, and decisions
    of self-play to fit it on and to measure the search against.

    - ``record(rules, players, ids, params, games, seed)``: play ``games`` games with the seats'
      policies and return every recorded position's features (float64[positions, players, m], in
      the order of ``features``), the game's winner (int64[positions], -1: nobody) and the game's
      index (int64[positions]);
    - ``bank(rules, players, ids, params, positions, seed)``: ``positions`` decisions met in such
      games where the seat to move has two options or more (opaque values for ``decide``);
    - ``decide(rules, decision, policy_id, row, seed)``: the option (an index of the decision's
      options) that policy ``policy_id`` with parameter row ``row`` chooses there, its random
      draws seeded by ``seed``.
    """

    features: tuple[str, ...]
    record: Callable[..., tuple[Any, Any, Any]]
    bank: Callable[..., list[Any]]
    decide: Callable[..., int]
    fit_games: int = 400  # self-play games an evaluation is fitted on


@dataclass(frozen=True)
class GameSpec:
    id: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    cooperative: bool
    length_unit: str
    end_reasons: tuple[str, ...]
    rules_class: type[RuleSet]
    policies: dict[str, PolicyDef]
    default_policy: str
    play_chunk: Callable[..., dict[str, Any]]
    columns: dict[str, str] = field(default_factory=dict)  # game-specific column -> meaning
    # Game-specific column -> what it holds; a column left out is a measure (cells when it is a
    # heatmap), so a designer's prototype needs none, while every shipped game declares all.
    column_kinds: dict[str, ColumnKind] = field(default_factory=dict)
    # The rules in force -> the board as cells (None: the game has no board to draw).
    board: Callable[[RuleSet], Board] | None = None
    # Columns of per-cell counts (games x cells, cell i = board cell i) -> caption of the heatmap.
    heatmaps: dict[str, str] = field(default_factory=dict)
    # (rules, players, seats) -> one line naming an impossible combination, or None.
    check: Callable[[RuleSet, int, list[SeatPolicy]], str | None] | None = None
    # Who succeeds in a cooperative game, singular ("the crew"), for report sentences.
    success_subject: str = "the team"
    # A column that splits success or wins into rows (one value per run, e.g. a mission number)
    # and the word for its values.
    breakdown: tuple[str, str] | None = None
    # "module:function" building extra report sections from a report's runs, or None.
    report_sections: str | None = None
    # The game's own commands, "module:function" each (a Typer command function; its name with
    # dashes is the command's): in ``simulator/cli/commands/<game>.py``, where they may play runs,
    # read analyses and write reports.
    commands: tuple[str, ...] = ()
    # The decisions a designer's own policy makes (--policy-file), or None: the game takes none.
    # Its play_chunk then accepts ``outside=`` (simulator.runs.policy_file.engine_tuples).
    outside: OutsideDecisions | None = None
    # How to replay one game from its seed and show it (``balance replay``), or None.
    replay: ReplayDef | None = None
    # The rules in force -> the length unit when a rule changes what one game is (None: always
    # ``length_unit``).
    length_unit_of: Callable[[RuleSet], str] | None = None
    # The strongest hand-written policy: the yardstick of the search player (``mcts``) and the
    # top hand-written rung of a skill ladder (None: the default policy).
    strongest: str | None = None
    # The search player's evaluation features and self-play hooks (None: no horizon search).
    search_hooks: SearchHooks | None = None
    # (policy, parameter) whose budget a skill ladder's top rungs vary (its default and a
    # quarter of it); None: the search player's ``playouts`` when the game declares ``mcts``.
    search_budget: tuple[str, str] | None = None
    # End reason -> who wins a game that ends that way, for the end reasons where the winner is
    # not simply the highest score (replays and reports say it when a lower score wins).
    end_notes: dict[str, str] = field(default_factory=dict)
    # Why game lengths bunch where they do (a weekly upkeep), for the report's length section.
    length_note: str = ""
    # What the ``scores`` column counts, in a designer's words ("victory points"), so a replay's
    # "scores 3.75, 2.611" says what those numbers are.
    score_note: str = ""
    # How a game ends for each seat (``simulator.contract.outcomes``): do lower scores rank a seat
    # higher (leads, places, comebacks and replays read scores that way), does the game pay a return
    # per seat (a ``returns`` column), what its players maximise ("win": their share of the win, or
    # "return"), and are ``scores`` known during play (lead changes and comebacks are "not measured"
    # when they are only known at the end).
    lowest_score_wins: bool = False
    has_returns: bool = False
    objective: str = "win"
    scores_during_play: bool = True
    # Is the engine compiled (numba)? A game file is played by plain Python: nothing compiles.
    compiled: bool = True
    # Policies compiled into the engine only for a run a seat of which plays them, or plays the
    # search player (which may call any policy): the engine gets a switch that is None otherwise
    # (``simulator.contract.policy.compiled_switch``), so a run without them compiles less.
    compiled_when_played: tuple[str, ...] = ()
    # Policy name -> why the game cannot play it (one line), or None: a declared policy this
    # game refuses (greedy where a game file has no scores). Default ladders leave it out.
    refuses: Callable[[str], str | None] | None = None

    @property
    def best_heuristic(self) -> str:
        return self.strongest or self.default_policy

    @property
    def searches(self) -> bool:
        """Does the game declare the search player (``mcts``)?"""
        return "mcts" in self.policies

    @property
    def budget_rung(self) -> tuple[str, str] | None:
        """(policy, parameter) whose budget the default skill ladder varies, or None."""
        if self.search_budget is not None:
            return self.search_budget
        return ("mcts", "playouts") if self.searches else None

    def fingerprint(self) -> dict[str, Any]:
        """What identifies the game's code beyond the package's own source, for a run's config
        (a game file's SHA-256: an edited file cannot resume an old run)."""
        return {}

    def kept(self) -> dict[str, Any]:
        """What a run's manifest keeps so the run reads back, verifies and replays without
        anything else (a game file's text)."""
        return {}

    def kind_of(self, column: str) -> ColumnKind:
        """What a game column holds (see :class:`ColumnKind`)."""
        if column in self.column_kinds:
            return self.column_kinds[column]
        return CELLS if column in self.heatmaps else MEASURE

    def unit(self, rules: RuleSet) -> str:
        """The unit of ``length`` under these rules."""
        return self.length_unit_of(rules) if self.length_unit_of is not None else self.length_unit

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise BalanceError(
                f"{self.id} is played by {self.min_players} to {self.max_players} players, "
                f"not {n_players}"
            )

    def refusal(self, policy: str) -> str | None:
        """Why this game cannot play ``policy`` (a declared one), or None."""
        return self.refuses(policy) if self.refuses is not None else None

    def check_run(self, rules: RuleSet, n_players: int, seats: list[SeatPolicy]) -> None:
        """Every check a run must pass before anything is written."""
        self.check_players(n_players)
        for seat in seats:
            problem = self.refusal(seat.policy.name)
            if problem:
                raise BalanceError(problem)
        if self.check is not None:
            problem = self.check(rules, n_players, seats)
            if problem:
                raise BalanceError(problem)

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "players": [self.min_players, self.max_players],
            "cooperative": self.cooperative,
            "length_unit": self.length_unit,
            "policies": list(self.policies),
            "default_policy": self.default_policy,
            "end_reasons": list(self.end_reasons),
            "replay": self.replay is not None,
            "strongest": self.best_heuristic,
            "columns": {
                name: {"meaning": meaning, "kind": self.kind_of(name).describe()}
                for name, meaning in self.columns.items()
            },
        }


_EXTRA: dict[str, GameSpec] = {}
# A designer's game in one Python file (docs/own-game.md): the module that reads it into a spec.
OWN_GAME_MODULE = "simulator.games.own_game.spec"
# Packages register games under this entry-point group: name -> a module following the protocol.
ENTRY_POINT_GROUP = "balance.games"


def register(spec: GameSpec) -> None:
    """Add a game that does not ship with the package (tests, a designer's own prototype)."""
    if spec.id in GAME_MODULES:
        raise BalanceError(
            f"a game file cannot be named {spec.id!r}, a shipped game's id; rename it"
        )
    _EXTRA[spec.id] = spec


def available() -> list[str]:
    return (
        [g for g in GAME_MODULES if _importable(g)]
        + list(_EXTRA)
        + [name for name in entry_point_games() if name not in _EXTRA]
    )


def entry_point_games() -> dict[str, str]:
    """Games other packages register (entry-point group ``balance.games``): name -> module."""
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def is_game_file(game: str) -> bool:
    """Does GAME name a designer's game file rather than a registered game?"""
    return game.endswith(".py")


def game_from_file(path: str, source: str | None = None, name: str | None = None) -> GameSpec:
    """The game of a designer's file (``source``: its text as a manifest keeps it; ``name``: the
    game's id when it is not the file's stem, as for a package's entry point)."""
    own = importlib.import_module(OWN_GAME_MODULE)
    if source is not None:
        return own.spec_from_source(path, source, name)
    return own.spec_from_path(path)


def game_of_manifest(manifest: dict[str, Any]) -> None:
    """Register the game a run's manifest holds the file of, so the run reads back without it."""
    kept = manifest.get("game_file")
    if isinstance(kept, dict) and isinstance(kept.get("source"), str):
        game_from_file(str(kept.get("path", "game.py")), kept["source"], kept.get("name"))


def _importable(game_id: str) -> bool:
    # A folder without __init__.py (a namespace package) is a game still being assembled.
    spec = importlib.util.find_spec(GAME_MODULES[game_id])
    return spec is not None and spec.origin is not None


def get_game(game_id: str) -> GameSpec:
    if is_game_file(game_id):
        return game_from_file(game_id)
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    if game_id not in GAME_MODULES and game_id in entry_point_games():
        module = importlib.import_module(entry_point_games()[game_id])
        path = getattr(module, "__file__", None)
        if path is None:
            raise BalanceError(f"game {game_id!r}: its module {module.__name__} has no file")
        with open(path, encoding="utf-8") as f:
            return game_from_file(path, f.read(), name=game_id)
    if game_id not in GAME_MODULES or not _importable(game_id):
        raise BalanceError(f"unknown game '{game_id}'; choose from: {', '.join(available())}")
    return importlib.import_module(GAME_MODULES[game_id]).SPEC


def game_command_summaries() -> dict[str, str]:
    """Each shipped game's own command, by name, with its docstring's first line: read from
    the command's source, so that ``balance --help`` lists them without importing them (they
    import their game's engine)."""
    import ast

    out = {}
    for game, commands in GAME_COMMANDS.items():
        if not _importable(game):
            continue
        for where in commands:
            module, _, name = where.partition(":")
            found = importlib.util.find_spec(module)
            if found is None or found.origin is None:
                continue
            with open(found.origin, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and node.name == name:
                    doc = ast.get_docstring(node) or ""
                    out[name.replace("_", "-")] = doc.strip().split("\n")[0]
    return out


def game_commands() -> list[Callable[..., Any]]:
    """The command functions every shipped game declares (``GameSpec.commands``)."""
    out = []
    for game, commands in GAME_COMMANDS.items():
        if not _importable(game):
            continue
        for where in commands:
            module, _, name = where.partition(":")
            out.append(getattr(importlib.import_module(module), name))
    return out
