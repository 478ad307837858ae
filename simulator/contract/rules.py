"""Rule sets: every option of a game with its default, bounds, doc and seed passage.

A game's ``Rules`` is a frozen dataclass derived from :class:`RuleSet` whose fields are declared
with :func:`option`. Designers change them with ``--set key=value`` (typed coercion, bounds
checked) and with TOML variant files (``name = "..."`` plus a ``[rules]`` table and a ``[data]``
table of replaced data files, :mod:`simulator.contract.game_data`).

A rule set also carries the game's data files replaced for the run (``data``: not an option, not
listed by ``balance rules``, not settable by ``--set``), so every engine, board drawing and worker
that receives the rules receives the data too.
"""

from __future__ import annotations

import dataclasses
import difflib
import sys
import tomllib
import typing
from collections import namedtuple
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from .errors import BalanceError
from .game_data import DataFile, DataSource

CLOSEST_RULES = 3  # names offered for an unknown rule with no near match...
LIST_ALL_UP_TO = 8  # ...unless the game has this few: then all of them
DATA_FIELD = "data"  # the rule set's field holding replaced data files (not an option)


def option(
    default: Any,
    doc: str,
    seed: str,
    *,
    lo: float | None = None,
    hi: float | None = None,
    choices: tuple[str, ...] | None = None,
    screen: bool = True,
) -> Any:
    """Declare one rule option.

    ``seed`` names the rulebook passage (or reference note) the option comes from; ``lo``/``hi``
    bound numbers (and every element of a tuple); ``choices`` lists the allowed strings.
    ``screen=False`` marks a run limit rather than a design choice (a safety cap on turns, a
    mission number): ``balance explore`` leaves it out unless it is named.
    """
    if choices is not None and default not in choices:
        raise ValueError(f"default {default!r} not among choices {choices}")
    meta = {"doc": doc, "seed": seed, "lo": lo, "hi": hi, "choices": choices, "screen": screen}
    if isinstance(default, list | tuple):
        return field(default=tuple(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    """Everything a designer needs to know about one option (``balance rules GAME``)."""

    name: str
    type: str
    default: Any
    doc: str
    seed: str
    lo: float | None
    hi: float | None
    choices: tuple[str, ...] | None
    screen: bool = True  # a design choice `balance explore` screens by default (not a run limit)

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.type == "bool":
            return "true or false"
        bounds = []
        if self.lo is not None:
            bounds.append(f">= {_fmt(self.lo)}")
        if self.hi is not None:
            bounds.append(f"<= {_fmt(self.hi)}")
        kind = {"int": "an integer", "float": "a number", "str": "text"}.get(
            self.type, f"a comma-separated list of {self.type.removeprefix('tuple[')[:-1]}s"
        )
        return kind + (" " + " and ".join(bounds) if bounds else "")

    def default_text(self) -> str:
        """The default as ``--set`` takes it and ``allowed()`` names it: ``true``/``false``,
        a list comma-separated."""
        return value_text(self.default)

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["default"] = list(self.default) if isinstance(self.default, tuple) else self.default
        d["choices"] = list(self.choices) if self.choices else None
        return d


def value_text(value: Any) -> str:
    """A rule value as written on the command line: ``true``, ``3``, ``0.5``, ``a,b``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(value_text(v) for v in value)
    return str(value)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


_OPTIONS: dict[type, tuple[OptionInfo, ...]] = {}


@dataclass(frozen=True)
class RuleSet:
    """Base class of every game's rules. Subclasses are ``@dataclass(frozen=True)``."""

    game_id: ClassVar[str] = ""
    # The game's named data files (simulator.contract.game_data), and a sentence for a game whose
    # board or cards are not data files (where they are instead).
    data_files: ClassVar[tuple[DataFile, ...]] = ()
    data_note: ClassVar[str] = ""

    # Data files replaced for this run, by name order (empty: every file as shipped).
    data: tuple[DataSource, ...] = field(default=(), kw_only=True)

    # -- introspection -------------------------------------------------------------------------
    @classmethod
    def options(cls) -> list[OptionInfo]:
        if cls not in _OPTIONS:  # type hints are evaluated once per class, not per lookup
            _OPTIONS[cls] = cls._read_options()
        return list(_OPTIONS[cls])

    @classmethod
    def _read_options(cls) -> tuple[OptionInfo, ...]:
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            if f.name == DATA_FIELD:
                continue
            out.append(
                OptionInfo(
                    name=f.name,
                    type=_type_name(hints[f.name]),
                    default=f.default,
                    doc=f.metadata.get("doc", ""),
                    seed=f.metadata.get("seed", ""),
                    lo=f.metadata.get("lo"),
                    hi=f.metadata.get("hi"),
                    choices=f.metadata.get("choices"),
                    screen=f.metadata.get("screen", True),
                )
            )
        return tuple(out)

    @classmethod
    def option_info(cls, key: str, source: str = "") -> OptionInfo:
        """The option named ``key``; an unknown name is refused with the closest known one
        (``source``, e.g. the variant file, says where the name was written)."""
        names = [i.name for i in cls.options()]
        for info in cls.options():
            if info.name == key:
                return info
        where = f"{source}: " if source else ""
        unknown = f"{where}unknown rule '{key}' for {cls.game_id}"
        close = difflib.get_close_matches(key, names, n=1)
        if close:
            raise BalanceError(
                f"{unknown}; did you mean '{close[0]}'? "
                f"(balance rules {cls.game_id} lists every rule)"
            )
        if len(names) <= LIST_ALL_UP_TO:
            raise BalanceError(f"{unknown}; known rules: {', '.join(names)}")
        raise BalanceError(
            f"{unknown}; the closest names are {', '.join(closest_names(key, names))} "
            f"(balance rules {cls.game_id} lists all {len(names)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Every option's value (the data files are not options: see ``data``)."""
        out = {}
        for info in self.options():
            v = getattr(self, info.name)
            out[info.name] = list(v) if isinstance(v, tuple) else v
        return out

    def changed(self) -> dict[str, Any]:
        """What makes this rule set a variant: each replaced data file (name -> its file name)
        and the options whose value differs from the default under the same data."""
        default = type(self)().with_data({s.name: s for s in self.data}).to_dict()
        out: dict[str, Any] = {s.name: s.label for s in self.data}
        out.update({k: v for k, v in self.to_dict().items() if default[k] != v})
        return out

    # -- data files ----------------------------------------------------------------------------
    def source(self, name: str) -> DataSource:
        """Data file ``name`` as this run plays it: the replacement, or the shipped file."""
        for s in self.data:
            if s.name == name:
                return s
        for f in self.data_files:
            if f.name == name:
                return f.shipped
        raise KeyError(f"{self.game_id} has no data file {name!r}")

    def data_defaults(self) -> dict[str, Any]:
        """Options whose default follows the data in force (a deck's card counts); override."""
        return {}

    def with_data(self, sources: dict[str, DataSource]) -> Self:
        """A copy playing these data files (each already checked alone); options whose default
        follows the data take the new default, and the files are checked together."""
        if not sources and not self.data:
            return self
        merged = {s.name: s for s in self.data}
        merged.update(sources)
        # A file equal to the shipped one is no replacement (same games, same label).
        kept = tuple(merged[n] for n in sorted(merged) if merged[n] != self._shipped_source(n))
        new = dataclasses.replace(self, data=kept)
        new = dataclasses.replace(new, **new.data_defaults())
        problem = new.check()
        if problem:
            if any(s.where() in problem for s in kept):  # it names the file already
                raise BalanceError(problem)
            where = ", ".join(s.where() for s in kept) or "data"
            raise BalanceError(f"{where}: {problem}")
        return new

    def _shipped_source(self, name: str) -> DataSource | None:
        for f in self.data_files:
            if f.name == name:
                return f.shipped
        return None

    # -- building ------------------------------------------------------------------------------
    def with_values(self, values: dict[str, Any], source: str = "--set") -> Self:
        """A copy with ``values`` applied; strings are coerced, everything is validated."""
        updates = {}
        for key, raw in values.items():
            info = type(self).option_info(key, "" if source == "--set" else source)
            updates[key] = coerce(info, raw, source)
        new = dataclasses.replace(self, **updates)
        problem = new.check()
        if problem:
            raise BalanceError(f"{source}: {problem}")
        return new

    @classmethod
    def choice_index(cls, key: str, value: str) -> int:
        """The engine value of one choice of option ``key`` (its index), for module constants."""
        choices = cls.option_info(key).choices
        if not choices or value not in choices:
            raise ValueError(f"{value!r} is not a choice of {cls.__name__}.{key}")
        return choices.index(value)

    @classmethod
    def scalar_names(cls) -> tuple[str, ...]:
        """Options that are one number or choice (not tuples), in declaration order."""
        return tuple(o.name for o in cls.options() if not o.type.startswith("tuple"))

    def scalar_array(self) -> Any:
        """The scalar options as int64, in ``scalar_names()`` order (choices as their index,
        booleans as 0/1), for engines whose rules travel as one integer array."""
        import numpy as np

        row = []
        for info in self.options():
            if info.type.startswith("tuple"):
                continue
            v = getattr(self, info.name)
            row.append(info.choices.index(v) if info.choices else v)
        return np.array(row, dtype=np.int64)

    def check(self) -> str | None:
        """Cross-option validation; return a one-line problem or None. Override per game."""
        return None

    def to_engine(self) -> tuple:
        """The rules as a numba-friendly namedtuple: choices become their index, tuples arrays."""
        import numpy as np

        values = {}
        for info in self.options():
            v = getattr(self, info.name)
            if info.choices:
                v = info.choices.index(v)
            elif isinstance(v, tuple):
                v = np.asarray(v, dtype=np.float64 if info.type == "tuple[float]" else np.int64)
            values[info.name] = v
        cls = _engine_tuple_class(type(self))
        return cls(**values)


_ENGINE_TUPLES: dict[type, type] = {}


def _engine_tuple_class(rules_cls: type) -> type:
    # One namedtuple class per rule set, reused so numba compiles once. numba's cache keys the
    # compiled engine on this type and finds it again in a new process by module and name, so the
    # class is published as an attribute of the rules' own module.
    if rules_cls not in _ENGINE_TUPLES:
        names = [o.name for o in rules_cls.options()]
        name = rules_cls.__name__ + "Engine"
        cls = namedtuple(name, names, module=rules_cls.__module__)
        setattr(sys.modules[rules_cls.__module__], name, cls)
        _ENGINE_TUPLES[rules_cls] = cls
    return _ENGINE_TUPLES[rules_cls]


def slot_array(slots: Any, **values: int) -> Any:
    """An int64 vector laid out by ``slots`` (from :func:`index_slots`), filled by name; a
    missing or unknown name fails at once instead of shifting every value after it."""
    import numpy as np

    if set(values) != set(slots._fields):
        missing = set(slots._fields) - set(values)
        extra = set(values) - set(slots._fields)
        name = type(slots).__name__
        raise ValueError(f"{name}: missing {sorted(missing)}, unknown {sorted(extra)}")
    return np.array([values[name] for name in slots._fields], dtype=np.int64)


def index_slots(typename: str, names: typing.Sequence[str]) -> Any:
    """A namedtuple of the positions of ``names``: compiled code indexes an array by name
    (``r[R.max_ships]``) and numba folds the module-level tuple into constants."""
    return namedtuple(typename, names)(*range(len(names)))


def _type_name(tp: Any) -> str:
    if tp in (int, float, bool, str):
        return tp.__name__
    origin = typing.get_origin(tp)
    if origin is tuple:
        (inner, *_) = typing.get_args(tp)
        return f"tuple[{inner.__name__}]"
    raise TypeError(f"unsupported rule option type {tp!r}")


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def coerce(info: OptionInfo, raw: Any, source: str = "--set") -> Any:
    """Turn ``raw`` (a string from the command line or a TOML value) into the option's type."""

    def bad(why: str = "") -> BalanceError:
        return BalanceError(
            f"{source}: rule '{info.name}' got {raw!r}{why}; allowed: {info.allowed()}"
        )

    kind = info.type
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise bad()
    if kind == "str":
        value = str(raw).strip() if isinstance(raw, str) else None
        if value is None or (info.choices and value not in info.choices):
            raise bad()
        return value
    if kind.startswith("tuple["):
        inner = kind[6:-1]
        items = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(items, list | tuple) or not items:
            raise bad()
        return tuple(_number(info, inner, x, bad) for x in items)
    return _number(info, kind, raw, bad)


def _number(info: OptionInfo, kind: str, raw: Any, bad) -> int | float:
    try:
        if isinstance(raw, bool):
            raise ValueError
        if kind == "int":
            if isinstance(raw, float) and not raw.is_integer():
                raise ValueError
            value = int(raw) if not isinstance(raw, str) else int(raw.strip())
        else:
            value = float(raw)
    except (TypeError, ValueError):
        raise bad() from None
    if (info.lo is not None and value < info.lo) or (info.hi is not None and value > info.hi):
        raise bad(" (out of bounds)")
    return value


def parse_sets(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` -> ``{"a": "1", "b": "x"}``; a pair without ``=``, or a key given twice
    with different values (only one could be played), is an error."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BalanceError(f"--set expects key=value, got {pair!r}")
        key = key.strip()
        if key in out and out[key].strip() != value.strip():
            raise BalanceError(
                f"--set {key} is given twice ({key}={out[key]} and {key}={value}); keep one"
            )
        out[key] = value
    return out


def load_variant(path: str | Path) -> tuple[str, dict[str, Any]]:
    """Read a variant file: ``name = "..."`` and a ``[rules]`` table. Returns (name, values)."""
    name, rules, _ = read_variant(path)
    return name, rules


def read_variant(path: str | Path) -> tuple[str, dict[str, Any], dict[str, Path]]:
    """Read a variant file: ``name = "..."``, a ``[rules]`` table and a ``[data]`` table (data
    name -> file, relative to the variant file). Returns (name, rule values, data files)."""
    p = Path(path)
    if not p.is_file():
        raise BalanceError(f"variant file {str(p)!r} does not exist or is not a file")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BalanceError(f"variant file {str(p)!r} is not valid TOML: {exc}") from None
    unknown = set(data) - {"name", "description", "rules", "data", "play"}
    if unknown:
        raise BalanceError(
            f"variant file {str(p)!r} has unknown key(s) {', '.join(sorted(unknown))}; "
            "allowed: name, description, [rules], [data], [play]"
        )
    name = data.get("name", p.stem)
    if not isinstance(name, str) or not name.strip():
        raise BalanceError(f"variant file {str(p)!r}: name must be non-empty text")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise BalanceError(f"variant file {str(p)!r}: [rules] must be a table of key = value")
    files = data.get("data", {})
    if not isinstance(files, dict) or not all(
        isinstance(v, str) and v.strip() for v in files.values()
    ):
        raise BalanceError(
            f'variant file {str(p)!r}: [data] must be a table of name = "file" (paths relative '
            "to the variant file)"
        )
    return name.strip(), rules, {k: p.parent / v.strip() for k, v in files.items()}


PLAY_KEYS = {"players": int, "policies": list, "rotate": bool, "seed": int, "games": int}


def read_play(path: str | Path) -> dict[str, Any]:
    """A variant file's ``[play]`` table: how the setting was judged (``balance design`` writes
    it): ``players``, ``policies`` (the lineup, seat by seat), ``rotate`` (every rotation of the
    lineup on the same seeds, pooled), and the ``seed`` and ``games`` of that check. Empty when
    the file has none."""
    p = Path(path)
    read_variant(p)  # the file's own checks first
    play = tomllib.loads(p.read_text(encoding="utf-8")).get("play", {})
    if not isinstance(play, dict):
        raise BalanceError(f"variant file {str(p)!r}: [play] must be a table of key = value")
    for key, value in play.items():
        kind = PLAY_KEYS.get(key)
        if kind is None:
            raise BalanceError(
                f"variant file {str(p)!r}: [play] has unknown key {key!r}; allowed: "
                f"{', '.join(PLAY_KEYS)}"
            )
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BalanceError(
                f"variant file {str(p)!r}: [play] {key} must be {kind.__name__}, not {value!r}"
            )
        if kind is list and not all(isinstance(x, str) and x.strip() for x in value):
            raise BalanceError(f"variant file {str(p)!r}: [play] policies must be policy names")
    return play


def build_rules(
    rules_cls: type[RuleSet],
    variant: str | Path | None = None,
    sets: dict[str, Any] | list[str] | None = None,
    data: dict[str, str | Path | DataSource] | list[str] | None = None,
) -> tuple[RuleSet, str]:
    """Default rules, then the data files (the variant file's ``[data]``, then ``--data``), then
    the variant file's rules, then ``--set`` values; returns (rules, name).

    Data files come first because an option's default may follow them (a deck's card counts),
    and a variant or ``--set`` then changes it like any other option."""
    from .game_data import parse_data_options, read_sources

    rules = rules_cls()
    name = "default"
    values: dict[str, Any] = {}
    given: dict[str, tuple[str | Path | DataSource, str]] = {}
    if variant is not None:
        name, values, files = read_variant(variant)
        given.update({k: (v, f"variant {str(variant)!r} [data]") for k, v in files.items()})
    extra = parse_data_options(data) if isinstance(data, list) else dict(data or {})
    given.update({k: (v, "--data") for k, v in extra.items()})
    if given:
        rules = rules.with_data(read_sources(rules_cls.data_files, rules_cls.game_id, given))
    if variant is not None:
        rules = rules.with_values(values, source=f"variant {str(variant)!r}")
    if sets:
        values = parse_sets(sets) if isinstance(sets, list) else sets
        rules = rules.with_values(values)
    if name == "default":
        named = [
            f"{k}={v.label if isinstance(v, DataSource) else Path(v).name}"
            for k, v in extra.items()
        ]
        named += [f"{k}={v}" for k, v in (values if sets else {}).items()]
        name = ",".join(named) or "default"
    return rules, name


def closest_names(key: str, names: list[str], n: int = CLOSEST_RULES) -> list[str]:
    """The ``n`` names most like ``key``: a name sharing a word of it first (``cost`` finds
    ``level2_cost``), then by likeness of spelling."""
    words = {w for w in key.lower().replace("-", "_").split("_") if len(w) > 2}

    def likeness(name: str) -> tuple[int, float]:
        shared = sum(w in name.lower() for w in words)
        return shared, difflib.SequenceMatcher(None, key.lower(), name.lower()).ratio()

    return sorted(names, key=likeness, reverse=True)[:n]
