"""Policy declarations: named, parameterised heuristics that make a game's decisions.

Each game's module (``policies/<game>.py``) declares its policies as :class:`PolicyDef` objects
and compiled decision functions that dispatch on the policy's integer id. A seat's policy reaches
the engine as that id plus a row of float parameters (``greedy:reserve=20`` fills the
``reserve`` slot; omitted parameters take their defaults). Compiled code reads a parameter by
name through ``PolicyDef.slots`` (``prm[GREEDY_P.reserve]``), so the declaration is the only
list of positions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import isfinite, nan
from typing import TYPE_CHECKING, Any

from .errors import BalanceError
from .rules import index_slots

if TYPE_CHECKING:
    import numpy as np  # imported where used: the command line's help needs no numpy

MAX_PARAMS = 10
# After the declared parameters, a row carries a search player's fitted evaluation: the intercept
# at EVAL_AT, then up to MAX_FEATURES weights (simulator.search.tree.evaluate reads them).
MAX_FEATURES = 23
EVAL_AT = MAX_PARAMS
ROW = EVAL_AT + 1 + MAX_FEATURES
# Policy ids from OUTSIDE up belong to policies loaded from a designer's file (--policy-file): the
# engine calls slot ``id - OUTSIDE`` of its tuples of compiled decision functions for them.
OUTSIDE = 1000
MAX_OUTSIDE = 8  # distinct outside policies in one run (slots in those tuples)
SEARCH_POLICY = "mcts"  # the search player's name in every game (simulator.search.tree declares it)


@dataclass(frozen=True)
class PolicyParam:
    name: str
    default: float
    lo: float
    hi: float
    doc: str
    integer: bool = False  # a count: only whole numbers are accepted (and tried by `balance tune`)
    log: bool = False  # spans orders of magnitude: `balance tune` searches it on a log scale
    # Named values: value k means choices[k] (written by name, ``rollout=runner``, or by index)
    choices: tuple[str, ...] = ()
    # A measuring switch that lets the policy read what its player cannot see: `balance
    # policies` shows it, `balance tune` never touches it (it would always win)
    instrument: bool = False
    # Whether ``lo..hi`` also bounds what ``-p`` accepts (an engine's array sizes, a probability,
    # a designer's ``policy_ranges``); False: ``lo..hi`` is only where `balance tune` searches by
    # default, and ``-p`` takes any number (a whole one for an integer parameter)
    bounded: bool = True

    def show(self, value: float) -> str:
        """A value as a designer writes it: a choice's name, else the number."""
        if self.choices and value == int(value) and 0 <= int(value) < len(self.choices):
            return self.choices[int(value)]
        return f"{value:g}"

    @property
    def tunable(self) -> bool:
        return self.hi > self.lo and not self.instrument


@dataclass(frozen=True)
class PolicyDef:
    name: str
    id: int
    doc: str
    params: tuple[PolicyParam, ...] = field(default=())
    source: str = ""  # the file an outside policy came from ("" for a built-in one)

    def __post_init__(self) -> None:
        if len(self.params) > MAX_PARAMS:
            raise ValueError(f"policy {self.name!r} declares more than {MAX_PARAMS} parameters")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"policy {self.name!r} declares a parameter twice")

    @property
    def slots(self) -> Any:
        """Column of each parameter in the seat's row, by name (a namedtuple of ints)."""
        return index_slots(
            self.name.title().replace("_", "") + "Params", [p.name for p in self.params]
        )

    def defaults(self) -> np.ndarray:
        import numpy as np

        row = np.zeros(ROW, dtype=np.float64)
        for i, p in enumerate(self.params):
            row[i] = p.default
        return row


@dataclass(frozen=True)
class Decision:
    """One kind of decision a game asks an outside policy (``--policy-file``) to make.

    ``signature`` is the numba signature the designer's function is compiled with (return type
    and argument types, in the order of ``args``); ``fallback`` is a plain Python function with the
    same arguments answering something legal: compiled, it fills the engine's unused slots.
    """

    name: str
    args: tuple[str, ...]
    signature: Any
    fallback: Callable[..., Any]
    doc: str
    optional: bool = False  # a policy may leave it out: the fallback decides for it


@dataclass(frozen=True)
class OutsideDecisions:
    """What a game asks of an outside policy: its decisions, documented in ``docs_section``."""

    decisions: tuple[Decision, ...]
    docs_section: str


@dataclass(frozen=True)
class SeatPolicy:
    """A policy as chosen for one seat: its definition and its parameter values."""

    policy: PolicyDef
    values: tuple[float, ...]
    # The fitted evaluation a search player scores positions with (intercept, then weights);
    # filled in by the run's plan (simulator.search.evaluation), empty for every other policy.
    evaluation: tuple[float, ...] = ()
    # The values the engine plays when they differ from those asked (a search whose evaluation
    # did not earn its place plays to the end: simulator.search.evaluation); the label stays the
    # asked.
    played: tuple[float, ...] = ()

    @property
    def label(self) -> str:
        """Canonical text: the name, then every parameter that differs from its default."""
        changed = [
            f"{p.name}={p.show(v)}"
            for p, v in zip(self.policy.params, self.values, strict=True)
            if v != p.default
        ]
        return self.policy.name + (":" + ",".join(changed) if changed else "")

    def row(self) -> np.ndarray:
        import numpy as np

        row = np.zeros(ROW, dtype=np.float64)
        values = self.played or self.values
        row[: len(values)] = values
        row[EVAL_AT : EVAL_AT + len(self.evaluation)] = self.evaluation
        return row


def parse_policy(text: str, registry: dict[str, PolicyDef], game_id: str) -> SeatPolicy:
    """Parse ``name`` or ``name:key=value,key=value`` against a game's registry."""
    name, _, rest = text.strip().partition(":")
    if name not in registry:
        hint = "" if any(p.source for p in registry.values()) else " (or --policy-file FILE)"
        raise BalanceError(
            f"unknown policy '{name}' for {game_id}; choose from: {', '.join(registry)}{hint}"
        )
    pdef = registry[name]
    where = f"{pdef.source}: " if pdef.source else ""
    values = {p.name: p.default for p in pdef.params}
    given: set[str] = set()
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, sep, raw = item.partition("=")
        param = next((p for p in pdef.params if p.name == key.strip()), None)
        if param is None:
            allowed = ", ".join(p.name for p in pdef.params) or "none"
            raise BalanceError(
                f"{where}unknown parameter '{key.strip()}' for policy '{name}'; "
                f"parameters: {allowed}"
            )
        try:
            value = float(raw) if sep else float("nan")
        except ValueError:
            value = float(param.choices.index(raw.strip())) if raw.strip() in param.choices else nan
        of_its_type = isfinite(value) and (not param.integer or value == int(value))
        if not of_its_type or (param.bounded and not param.lo <= value <= param.hi):
            kind = "a whole number" if param.integer else "a number"
            if param.choices:
                raise BalanceError(
                    f"{where}policy '{name}' parameter '{param.name}' got {raw!r}; "
                    f"allowed: {', '.join(param.choices)}"
                )
            span = f" from {param.lo:g} to {param.hi:g}" if param.bounded else ""
            raise BalanceError(
                f"{where}policy '{name}' parameter '{param.name}' got {raw!r}; "
                f"allowed: {kind}{span}"
            )
        if param.name in given and values[param.name] != value:
            raise BalanceError(
                f"{where}policy '{name}' parameter '{param.name}' is given twice with "
                "different values; keep one"
            )
        given.add(param.name)
        values[param.name] = value
    return SeatPolicy(pdef, tuple(values[p.name] for p in pdef.params))


def seat_policies(
    texts: list[str], registry: dict[str, PolicyDef], game_id: str, n_players: int
) -> list[SeatPolicy]:
    """One policy for every seat, or one per seat in seat order."""
    if not texts:
        raise BalanceError("no policy given; use --policy NAME")
    if len(texts) not in (1, n_players):
        raise BalanceError(
            f"{len(texts)} policies for {n_players} players; give one for every seat or one each"
        )
    parsed = [parse_policy(t, registry, game_id) for t in texts]
    return parsed * n_players if len(parsed) == 1 else parsed


def engine_arrays(seats: list[SeatPolicy]) -> tuple[np.ndarray, np.ndarray]:
    """Policy ids (int64, one per seat) and parameters (float64, seats x ROW)."""
    import numpy as np

    ids = np.array([s.policy.id for s in seats], dtype=np.int64)
    params = np.stack([s.row() for s in seats]) if seats else np.zeros((0, ROW))
    return ids, params


def compiled_switch(policy_ids, switched: tuple[int, ...], search_id: int) -> bool | None:
    """An engine's switch for policies compiled only into the runs that play them
    (``GameSpec.compiled_when_played``): True when a seat plays one of ``switched`` or the
    search ``search_id`` (whose simulations may play any policy), else None, so that numba
    prunes those policies out of the engine."""
    import numpy as np

    played = set(np.asarray(policy_ids).tolist())
    return True if played & {*switched, search_id} else None
