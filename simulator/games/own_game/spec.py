"""A designer's game file as a :class:`GameSpec`: rules, policies, a chunk function, a board
and a replay, so every command treats it as it treats a shipped game.

The spec, its rules and its rules' class travel to worker processes and Dask nodes as the file's
text (``__reduce__``): the receiving process runs the text again (cached per content), so a
cluster needs no copy of the file and an edited file can never stand in for the one a run used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, make_dataclass
from typing import Any, ClassVar

import numpy as np

from simulator.contract.boards import Board, Cell
from simulator.contract.errors import BalanceError
from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.contract.registry import MEASURE, GameSpec, SeatPolicy, register
from simulator.contract.replay_def import ReplayDef
from simulator.contract.rules import RuleSet, option

from . import watchdog
from .loader import GameFile, from_source, load
from .play import Chooser, DesignerError, columns, play_game, play_games

RANDOM, GREEDY, MCTS, FIRST_FILE_POLICY = 0, 1, 2, 3
PROBE_SEED = 0  # the game played once to learn the names of a file's measures


@dataclass(frozen=True, eq=False)
class FileGameSpec(GameSpec):
    """A game read from a designer's file (``game_file``: its checked text)."""

    game_file: GameFile | None = None

    def __reduce__(self) -> tuple:
        g = self.game_file
        # the watchdog's limit travels with the spec to the worker that plays it
        return (_spec_with_limit, (g.path, g.source, g.name, watchdog.limit()))  # type: ignore[union-attr]

    def fingerprint(self) -> dict[str, Any]:
        return {"game_file": self.game_file.sha256}  # type: ignore[union-attr]

    def kept(self) -> dict[str, Any]:
        g: GameFile = self.game_file  # type: ignore[assignment]
        return {
            "game_file": {"name": g.name, "path": g.path, "sha256": g.sha256, "source": g.source}
        }


# -- rules -------------------------------------------------------------------------------------
class FileRules(RuleSet):
    """Base of the rule sets built from a file's ``options``."""

    game_file: ClassVar[GameFile]

    def __reduce__(self) -> tuple:
        g = type(self).game_file
        return (_rules_of, (g.path, g.source, g.name, self.to_dict()))


def _spec_with_limit(path: str, source: str, name: str, call_limit: float) -> FileGameSpec:
    watchdog.set_limit(call_limit)
    return spec_from_source(path, source, name)


def _rules_of(path: str, source: str, name: str, values: dict[str, Any]) -> RuleSet:
    return spec_from_source(path, source, name).rules_class(**values)


def _rules_class(game: GameFile) -> type[RuleSet]:
    fields = []
    for name, o in game.options.items():
        d = o["default"]
        kind = type(d) if type(d) in (bool, int, float, str) else float
        meta = option(
            d,
            str(o.get("meaning", "")),
            f"{game.name}.py",
            lo=o.get("min"),
            hi=o.get("max"),
            choices=tuple(o["choices"]) if "choices" in o else None,
        )
        fields.append((name, kind, meta))
    words = "".join(w.title() for w in game.name.replace("-", "_").split("_"))
    cls = make_dataclass(
        f"{words}Rules", fields, bases=(FileRules,), frozen=True, namespace={"__module__": __name__}
    )
    cls.game_id = game.name
    cls.game_file = game
    return cls


# -- policies ----------------------------------------------------------------------------------
def _param(p: Any, ranges: dict[str, Any]) -> PolicyParam:
    """A file policy's keyword parameter: ``-p`` takes any number of its type unless the file's
    ``policy_ranges`` bounds it (a true/false one takes 0 or 1); the range `balance tune`
    searches is that one, else 0 to twice the default."""
    if p.name in ranges:
        lo, hi = ranges[p.name]
    elif p.boolean:
        lo, hi = 0.0, 1.0
    elif p.default > 0:
        lo, hi = 0.0, 2 * p.default
    elif p.default < 0:
        lo, hi = 2 * p.default, 0.0
    else:
        lo, hi = 0.0, 10.0 if p.integer else 1.0
    kind = "true (1) or false (0)" if p.boolean else "keyword parameter"
    bounded = p.name in ranges or p.boolean
    return PolicyParam(
        p.name, p.default, float(lo), float(hi), f"{kind} in the file", p.integer, bounded=bounded
    )


_MCTS_DOC = (
    "searches: simulations from the position through the file's own functions, what it cannot "
    "see dealt anew each time, the root's budget spent to find the action best for the game's "
    "objective"
)


def search_rollout(game: GameFile) -> str:
    """The policy the search's simulations play by default: the one the file names
    (``search_rollout = "hold"``), else random (a policy is never made the rollout unasked)."""
    named = getattr(game.module, "search_rollout", None)
    if named is None:
        return "random"
    if named != "random" and named not in game.policies:
        raise BalanceError(
            f"{game.path}: search_rollout = {named!r} names no policy of the file "
            f"(its policies: {', '.join(game.policies) or 'none'})"
        )
    return str(named)


VALUES = ("playout", "scores")  # how a search's simulation ends: at the game's end, or the turn's


def search_value(game: GameFile) -> str:
    """How the search's simulations end by default: as the file says (``search_value =
    "scores"``: at the turn's end, judged by a value learned from its scores), else played out
    to the game's end."""
    named = getattr(game.module, "search_value", "playout")
    if named not in VALUES:
        raise BalanceError(
            f"{game.path}: search_value = {named!r}: give one of {', '.join(map(repr, VALUES))}"
        )
    return str(named)


def _search_params(game: GameFile, own: list) -> tuple[PolicyParam, ...]:
    from .search import DEFAULT_MOVES, DEFAULT_PLAYOUTS, EXPLORE

    rollout = search_rollout(game)
    why = (
        "named by the file's search_rollout"
        if rollout != "random"
        else "the file names none with search_rollout"
    )
    choices = ("random", *(p.name for p in own))
    value = search_value(game)
    value_why = (
        "named by the file's search_value"
        if value != "playout"
        else "the file names none with search_value"
    )
    return (
        PolicyParam("playouts", DEFAULT_PLAYOUTS, 1, 100_000,
                    "simulations per decision at most", integer=True, log=True),
        PolicyParam("explore", EXPLORE, 0.0, 5.0, "exploration constant below the root"),
        PolicyParam("horizon", 0, 0, 10_000,
                    "decisions a simulation plays before the scores judge it (0: to the end)",
                    integer=True),
        PolicyParam("rollout", choices.index(rollout), 0, len(own),
                    f"the policy simulations play: {rollout} by default ({why})",
                    integer=True, choices=choices),
        PolicyParam("seconds", 0.0, 0.0, 600.0,
                    "seconds per decision instead of playouts (0: off; a timed search does not "
                    "replay the same game from its seed)"),
        PolicyParam("moves", DEFAULT_MOVES, 0, 10_000_000,
                    "simulated moves per decision at most (0: no cap), the skill knob the ladder "
                    "varies: the budget's cost in the game's own moves, so a long game gets "
                    "fewer simulations", integer=True,
                    log=True),
        PolicyParam("exploit", 0, 0, 1,
                    "1: the other seats play the rollout policy in the simulations, so the "
                    "search answers with a best response to it (how exploitable it is); 0: "
                    "every seat searches for itself", integer=True),
        PolicyParam("value", VALUES.index(value), 0, len(VALUES) - 1,
                    "how a simulation ends: playout (at the game's end) or scores (when the "
                    "turn passes, judged by a value learned from the file's scores, used only "
                    f"where it passes its gate); {value} by default ({value_why})",
                    integer=True, choices=VALUES),
    )  # fmt: skip


def _policy_defs(game: GameFile) -> dict[str, PolicyDef]:
    own = list(game.policies.values())
    defs = {
        "random": PolicyDef("random", RANDOM, "a legal action drawn uniformly at random"),
        "greedy": PolicyDef(
            "greedy",
            GREEDY,
            "looks one step ahead: a finished game by how it ended, else the action after which "
            "its score leads the best other seat's by the most (the lowest counts where lowest "
            "scores win; its own score where the objective is the return; chance averaged over "
            "its outcomes)",
        ),
        "mcts": PolicyDef("mcts", MCTS, _MCTS_DOC, _search_params(game, own)),
    }
    ranges = getattr(game.module, "policy_ranges", {})
    for i, p in enumerate(own):
        if len(p.params) > 10:
            raise BalanceError(f"{game.path}: policy {p.name!r} has more than 10 parameters")
        params = tuple(_param(q, dict(ranges.get(p.name, {}))) for q in p.params)
        defs[p.name] = PolicyDef(p.name, FIRST_FILE_POLICY + i, p.doc, params, f"{game.name}.py")
    return defs


def _random(state: Any, seat: int, actions: list, rng: np.random.Generator) -> Any:
    return actions[int(rng.integers(len(actions)))]


def _greedy(game: GameFile) -> Chooser:
    value_after = _greedy_value(game)

    def choose(state: Any, seat: int, actions: list, rng: np.random.Generator) -> Any:
        seen = state
        if game.hidden_information:
            seen = game.determinize(game.copy(state), seat, rng)
        best, best_value = actions[0], -np.inf
        for a in actions:
            after = game.apply(game.copy(seen), a)
            if game.to_move(after) == "chance" and game.sample_chance is None:
                value = sum(
                    p * value_after(game.apply(game.copy(after), o), seat)
                    for o, p in game.chance_outcomes(after)
                )
            else:
                value = value_after(after, seat)
            if value > best_value:
                best, best_value = a, value
        return best

    return choose


DECIDED = 1e9  # a finished game's worth to greedy, beyond any lead on the scores


def _greedy_value(game: GameFile) -> Callable[[Any, int], float]:
    """Greedy's worth of a position to ``seat``, by the game's objective: for the win, the lead
    on the scores (counted the game's way: the lowest ahead where ``lowest_score_wins``), a
    finished game won or lost beyond any lead; for the return, the seat's own score, a finished
    game its return."""
    sign = -1.0 if game.lowest_score_wins else 1.0
    by_return = game.objective == "return"

    def value(state: Any, seat: int) -> float:
        if game.to_move(state) is None:
            if by_return:
                return float(list(game.returns(state))[seat])
            won = list(game.winners(state))
            if seat in won:
                return DECIDED / len(won) if not game.cooperative else DECIDED
            if won:
                return -DECIDED
        points = [sign * float(x) for x in game.scores(state)]
        if by_return:
            return points[seat]
        others = [p for s, p in enumerate(points) if s != seat]
        return points[seat] - (max(others) if others else 0.0)

    return value


def _chooser(
    game: GameFile, policy_id: int, row: np.ndarray, n_players: int, rules: dict | None = None
) -> Chooser:
    if policy_id == RANDOM:
        return _random
    if policy_id == GREEDY:
        return _greedy(game)
    own = list(game.policies.values())
    if policy_id == MCTS:
        rollout_index = int(row[3])
        rollout = None
        if rollout_index > 0:
            p = own[rollout_index - 1]
            rollout = functools.partial(p.function, **_kwargs(p, _defaults_row(p)))
        return functools.partial(
            _search, game, playouts=int(row[0]), explore=float(row[1]), horizon=int(row[2]),
            rollout=rollout, players=n_players, seconds=float(row[4]), moves=int(row[5]),
            exploit=bool(row[6]), value=VALUES[int(row[7])], rules=rules,
            rollout_key=own[rollout_index - 1].name if rollout_index > 0 else "random",
        )  # fmt: skip
    p = own[policy_id - FIRST_FILE_POLICY]
    return functools.partial(p.function, **_kwargs(p, row))


def policy_chooser(
    game: GameFile, seat: SeatPolicy, n_players: int, rules: dict | None = None
) -> Chooser:
    """How the loop calls a seat's policy (its parameters bound; ``rules`` in play, else the
    defaults)."""
    return _chooser(game, seat.policy.id, seat.row(), n_players, rules)


def _defaults_row(p: Any) -> np.ndarray:
    """A file policy's default parameter row (a rollout plays it at its defaults)."""
    return np.array([q.default for q in p.params] + [0.0], dtype=np.float64)


def _kwargs(p: Any, row: np.ndarray) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, q in enumerate(p.params):
        v = float(row[i])
        out[q.name] = bool(v) if q.boolean else int(v) if q.integer else v
    return out


def value_verdict(game: GameFile, rules: dict, n_players: int) -> str | None:
    """What the search's simulations end on by default, in one sentence, where the file asks
    for a value learned from its scores (None where it does not)."""
    if search_value(game) != "scores":
        return None
    from .value import learned_value

    name = search_rollout(game)
    rollout = None
    if name != "random":
        p = game.policies[name]
        rollout = functools.partial(p.function, **_kwargs(p, _defaults_row(p)))
    learned = learned_value(game, rules, n_players, rollout, name)
    if not learned.usable:
        return f"not used ({learned.why}): simulations play to the end"
    return (
        f"learned from {name} games' scores, held-out Brier {learned.brier:.3f} (a constant "
        f"{learned.brier_constant:.3f}, the difference of points {learned.brier_difference:.3f}): "
        "simulations stop when the turn passes"
    )


def _search(game: GameFile, state: Any, seat: int, actions: list, rng: Any, **kw: Any) -> Any:
    from . import search  # read only where a seat searches

    return search.choose(game, state, seat, actions, rng, **kw)


def _refuses(game: GameFile, policy: str) -> str | None:
    if policy == "greedy" and game.scores is None:
        return (
            f"{game.name}.py has no scores(state): greedy looks one step ahead on scores; "
            "play random, mcts or the file's own policies"
        )
    if policy == "mcts":
        from . import search

        with watchdog.watching(game.path):  # its fairness probe plays the file's games
            return search.refuse_reason(game)
    return None


def _check(game: GameFile, rules: RuleSet, n_players: int, seats: list[SeatPolicy]) -> str | None:
    _first_games_checked(game, rules, n_players, seats)
    return None


FIRST_GAMES = 5  # games every command plays with every check on before it writes anything
FIRST_SECONDS = 2.0  # ... or fewer, when they take longer
_CHECKED: set[tuple[Any, ...]] = set()


def _first_games_checked(
    game: GameFile, rules: RuleSet, n_players: int, seats: list[SeatPolicy]
) -> None:
    """The protocol's checks on the run's first games, with the run's own policies (a search
    seat plays at random here: the search is the toolkit's, the file's functions are what is
    checked). Once per file, rules and seats in a process."""
    from .checks import check_games

    key = (game.sha256, tuple(sorted(rules.to_dict().items())), n_players,
           tuple(s.label for s in seats))  # fmt: skip
    if key in _CHECKED:
        return
    choosers = [
        _random if s.policy.id == MCTS else _chooser(game, s.policy.id, s.row(), n_players)
        for s in seats
    ]
    check_games(game, rules.to_dict(), n_players, FIRST_GAMES, choosers=choosers,
                seconds=FIRST_SECONDS)  # fmt: skip
    _CHECKED.add(key)


# -- the chunk ---------------------------------------------------------------------------------
def _play_chunk(
    game: GameFile,
    end_reasons: tuple[str, ...],
    measure_columns: dict[str, str],
    whole: frozenset[str],
    rules: RuleSet,
    n_players: int,
    policy_ids: np.ndarray,
    policy_params: np.ndarray,
    seeds: np.ndarray,
    **_: Any,
) -> dict[str, np.ndarray]:
    choosers = [
        _chooser(game, int(policy_ids[s]), policy_params[s], n_players, rules.to_dict())
        for s in range(n_players)
    ]
    values = rules.to_dict()
    outcomes = play_games(game, values, choosers, seeds)
    return columns(game, outcomes, n_players, end_reasons, measure_columns, whole)


def _probe(game: GameFile) -> tuple[list[str], frozenset[str]]:
    """The names of the file's measures and which columns hold whole numbers, from one game of
    random play at the fewest seats and the default rules (``measure_notes`` names them
    without it)."""
    rules = {k: o["default"] for k, o in game.options.items()}
    seats = game.players[0]
    try:
        outcome = play_game(game, rules, [_random] * seats, PROBE_SEED)
    except BalanceError:
        from .checks import check_games

        check_games(game, rules, seats, 1, PROBE_SEED)  # names the broken promise, if one is
        raise
    names = list(game.measure_notes) if game.measure_notes else list(outcome.measures)
    whole = {"scores"} if all(_whole(x) for x in outcome.scores) else set()
    prefix = _prefix(game)
    whole |= {prefix + n for n in names if _whole(outcome.measures.get(n, 0.0))}
    return names, frozenset(whole)


def _whole(x: Any) -> bool:
    return isinstance(x, int | np.integer)  # bools too: a switch counts as 0 or 1


def _prefix(game: GameFile) -> str:
    return game.name.replace("-", "_") + "_"


# -- board and replay --------------------------------------------------------------------------
def _board(game: GameFile, rules: RuleSet) -> Board:
    drawn = game.board(rules.to_dict())
    shape, cells = "square", drawn
    if isinstance(drawn, dict):
        shape, cells = drawn.get("shape", "square"), drawn.get("cells", [])
    try:
        return Board(
            tuple(
                Cell(
                    int(c["id"]),
                    str(c.get("kind", "cell")),
                    float(c["x"]),
                    float(c["y"]),
                    tuple(int(n) for n in c.get("neighbours", ())),
                    str(c.get("label", "")),
                )  # fmt: skip
                for c in cells
            ),
            shape,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BalanceError(
            f"{game.path}: board() must give cells with id, kind, x, y and neighbours ({exc})"
        ) from None


def _replay(game: GameFile, spec_columns: Any) -> ReplayDef:
    def play(rules, n_players, policy_ids, policy_params, seed, **_):  # noqa: ANN001, ANN202
        choosers = [
            _chooser(game, int(policy_ids[s]), policy_params[s], n_players, rules.to_dict())
            for s in range(n_players)
        ]
        moves: list[tuple[int, Any, Any, Any]] = []
        try:
            outcome = play_game(game, rules.to_dict(), choosers, int(seed), record=moves)
        except DesignerError as exc:
            exc.events = _events_before(game, moves)  # a replay shows the moves up to it
            raise
        numbers = _numbers(moves[:-1])  # the last: the end
        rows = [
            _event(game, number, mover, action, before, moves[i + 1][3])
            for i, ((_, mover, action, before), number) in enumerate(
                zip(moves, numbers, strict=False)  # numbers stop before the end
            )
        ]
        return rows, spec_columns([outcome])

    def decode(rules, n_players, rows):  # noqa: ANN001, ANN202
        return [{k: v for k, v in r.items() if k != "pieces"} for r in rows]

    def frames(rules, n_players, rows, events):  # noqa: ANN001, ANN202
        return [{"pieces": r["pieces"], "marks": r.get("marks", [])} for r in rows[:1]] + [
            {"pieces": r["after"], "marks": []} for r in rows
        ]

    def table(rules, n_players, rows, events):  # noqa: ANN001, ANN202
        who = [("chance" if e["player"] < 0 else f"seat {e['player'] + 1}") for e in events]
        return {
            "title": "moves",
            "columns": [game.length_unit if game.turn is not None else "move", "who", "what"],
            "rows": [[_place(e), w, e["text"]] for e, w in zip(events, who, strict=True)],
            "event_of_row": list(range(len(events))),
        }

    drawn = game.board is not None and game.pieces is not None
    return ReplayDef(play, decode, lambda e: e["text"], frames if drawn else None, table)


def _place(event: dict[str, Any]) -> Any:
    """The replay table's first column: the step, or "chance 2" for a chance event."""
    number = event.get("chance_number")
    return event["step"] if number is None else f"chance {number}"


def _events_before(game: GameFile, moves: list[tuple[int, Any, Any, Any]]) -> list[dict]:
    """The events of a game that failed: every move up to the failure (plain words where
    ``describe`` or ``pieces`` fail too)."""
    events = []
    numbers = _numbers(moves)
    for i, ((_, mover, action, before), number) in enumerate(zip(moves, numbers, strict=True)):
        if mover is None:  # the game's end, reached before the failure: no move
            continue
        after = moves[i + 1][3] if i + 1 < len(moves) else before
        try:
            events.append(_event(game, number, mover, action, before, after))
        except Exception:  # the file's describe() or pieces() failing as well
            chance = mover == "chance"
            events.append({
                "step": number[0], "player": -1 if chance else int(mover),
                "kind": "chance" if chance else "move", "action": repr(action),
                "text": f"chance: {action!r}" if chance else f"seat {mover + 1} plays {action!r}",
                **({"chance_number": number[1]} if chance else {}),
            })  # fmt: skip
    return events


def _numbers(moves: list[tuple[int, Any, Any, Any]]) -> list[tuple[int, int]]:
    """Each move's numbers: the decisions made up to it (its own included: decision 1 is the
    first, as a game's length in decisions counts them), and the chance events up to it."""
    decisions, chances, out = 0, 0, []
    for _, mover, _, _ in moves:
        if mover == "chance":
            chances += 1
        elif mover is not None:
            decisions += 1
        out.append((decisions, chances))
    return out


def _event(game, number, mover, action, before, after) -> dict[str, Any]:  # noqa: ANN001
    """One move as the replay shows it. ``step`` is the game's ``turn`` before it, else the
    decision's number (a chance event: the decisions made before it); a chance event is
    numbered apart (``chance_number``: the replay prints "chance 2" instead of its step)."""
    chance = mover == "chance"
    text = game.describe(before, action) if game.describe is not None else None
    if text is None:
        text = f"chance: {action!r}" if chance else f"seat {mover + 1} plays {action!r}"
    decisions, chances = number
    event: dict[str, Any] = {
        "step": int(game.turn(before)) if game.turn is not None else decisions,
        "player": -1 if chance else int(mover),
        "kind": "chance" if chance else "move",
        "action": repr(action),
        "text": str(text),
    }
    if chance:
        event["chance_number"] = chances
    if game.board is not None and game.pieces is not None:
        event["pieces"] = _pieces(game, before)
        event["after"] = _pieces(game, after)
    return event


def _pieces(game: GameFile, state: Any) -> list[dict[str, Any]]:
    return [
        {"cell": int(p["cell"]), "seat": int(p.get("seat", -1)), "label": str(p.get("label", ""))}
        for p in game.pieces(state)
    ]


# -- the spec ----------------------------------------------------------------------------------
_SPECS: dict[tuple[str, str], FileGameSpec] = {}


def spec_from_path(path: str) -> FileGameSpec:
    """The game of a file on disk (read, checked, registered under its stem)."""
    game = load(path)
    return _spec(game)


def spec_from_source(path: str, source: str, name: str | None = None) -> FileGameSpec:
    """The game of a file's text (a manifest's, a worker's); ``name``: its id, if not the
    file's stem."""
    return _spec(from_source(path, source, name))


def _spec(game: GameFile) -> FileGameSpec:
    key = (game.name, game.sha256)
    if key not in _SPECS:
        _SPECS[key] = _build(game)
    spec = _SPECS[key]
    register(spec)
    return spec


def _build(game: GameFile) -> FileGameSpec:
    prefix = _prefix(game)
    names, whole = _probe(game)
    notes = game.measure_notes
    measure_columns = {prefix + n: n for n in names}
    end_reasons = game.end_reasons
    lo, hi = game.players
    policies = _policy_defs(game)
    own = [p for p in policies if p not in ("random", "greedy", "mcts")]
    play_chunk = functools.partial(_play_chunk, game, end_reasons, measure_columns, whole)

    def spec_columns(outcomes: list) -> dict[str, np.ndarray]:
        n = len(outcomes[0].scores)
        return columns(game, outcomes, n, end_reasons, measure_columns, whole)

    return FileGameSpec(
        id=game.name,
        title=game.title,
        min_players=lo,
        max_players=hi,
        default_players=lo,
        cooperative=game.cooperative,
        length_unit=game.length_unit,
        end_reasons=end_reasons,
        rules_class=_rules_class(game),
        policies=policies,
        default_policy=own[0] if own else "random",
        play_chunk=play_chunk,
        columns={prefix + n: notes.get(n, f"{n} (the file's measures)") for n in names},
        column_kinds={prefix + n: MEASURE for n in names},
        board=(lambda rules: _board(game, rules)) if game.board is not None else None,
        check=functools.partial(_check, game),
        refuses=functools.partial(_refuses, game),
        replay=_replay(game, spec_columns),
        strongest=own[0] if own else None,
        search_budget=("mcts", "moves"),  # the ladder's search rungs differ in simulated moves
        score_note=str(getattr(game.module, "score_note", "")),
        compiled=False,
        lowest_score_wins=game.lowest_score_wins,
        has_returns=game.returns is not None,
        objective=game.objective,
        scores_during_play=game.scores is not None and game.scores_during_play,
        game_file=game,
    )


def is_game_file(name: str) -> bool:
    return name.endswith(".py")
