"""The rule options a design searches: ranges and value lists, or those an explore ranked
highest; the rotations of a lineup."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError
from simulator.contract.registry import GameSpec
from simulator.contract.rules import OptionInfo, RuleSet, coerce
from simulator.folders.study_folders import EXPLORE_FILE

EXPLORE_OPTIONS = 4  # options taken from an explore when --param is not given


@dataclass(frozen=True)
class RuleKnob:
    """A rule option being searched: a range (``lo``..``hi``) or a list of ``values``."""

    name: str
    type: str  # int | float | bool | str
    lo: float | None = None
    hi: float | None = None
    values: tuple[Any, ...] = ()

    @property
    def categorical(self) -> bool:
        return bool(self.values)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "lo": self.lo,
            "hi": self.hi,
            "values": list(self.values),
        }

    def text(self) -> str:
        if self.categorical:
            return ", ".join(value_text(v) for v in self.values)
        return f"{value_text(self.lo)} to {value_text(self.hi)}"

    def change(self, value: Any, start: Any) -> float:
        """How far ``value`` moved from ``start``: a share of the range, or 1 for another choice."""
        if self.categorical:
            return 0.0 if value == start else 1.0
        return abs(float(value) - float(start)) / (float(self.hi) - float(self.lo))


def policy_name(policy: str) -> str:
    """A policy's name without its parameters (``mcts:playouts=50`` -> ``mcts``)."""
    return policy.partition(":")[0].strip()


def rotations(seats: list[str]) -> list[list[str]]:
    """The lineup rotated one seat at a time (each distinct table once)."""
    out: list[list[str]] = []
    for shift in range(len(seats)):
        table = seats[shift:] + seats[:shift]
        if table not in out:
            out.append(table)
    return out


def value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def parse_rule_knob(text: str, rules_cls: type[RuleSet], fixed: set[str]) -> RuleKnob:
    """``NAME=LO:HI`` (a number's range), ``NAME=a,b,c`` (values to choose from) or ``NAME`` (a
    yes/no or a choice option: every value)."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    info = rules_cls.option_info(name)
    where = f"--param {text!r}"
    if name in fixed:
        raise BalanceError(
            f"{where}: '{name}' is also fixed by --set or the variant; search it or fix it, "
            "not both"
        )
    if info.type.startswith("tuple"):
        raise BalanceError(
            f"{where}: '{name}' is a list ({info.type}); design searches single numbers, yes/no "
            "and choice options (fix a list with --set)"
        )
    if info.type == "str" and not info.choices:
        raise BalanceError(f"{where}: '{name}' is free text, not a setting to search")
    if not sep:
        if info.type == "bool":
            return RuleKnob(name, "bool", values=(False, True))
        if info.choices:
            return RuleKnob(name, "str", values=tuple(info.choices))
        raise BalanceError(
            f"{where}: give the range to search, NAME=LO:HI (allowed: {info.allowed()}), or "
            "values, NAME=a,b,c"
        )
    if ":" in spec and info.type in ("int", "float"):
        return _range_knob(info, spec, where)
    raw = [v.strip() for v in spec.split(",") if v.strip()]
    if len(raw) < 2:
        raise BalanceError(f"{where}: give at least two values (NAME=a,b) or a range NAME=LO:HI")
    values = tuple(dict.fromkeys(coerce(info, v, where) for v in raw))
    if len(values) < 2:
        raise BalanceError(f"{where}: the values name one setting; give at least two")
    return RuleKnob(name, info.type, values=values)


def _range_knob(info: OptionInfo, spec: str, where: str) -> RuleKnob:
    a, _, b = spec.partition(":")
    lo, hi = coerce(info, a.strip(), where), coerce(info, b.strip(), where)
    if not lo < hi:
        raise BalanceError(f"{where}: LO must be below HI")
    if info.type == "int" and hi - lo < 1:
        raise BalanceError(f"{where}: the range holds one whole number")
    return RuleKnob(info.name, info.type, lo=lo, hi=hi)


def knobs_from_explore(
    path: str | Path, spec: GameSpec, figures: list[str], fixed: set[str], top: int
) -> list[RuleKnob]:
    """The options an explore ranked highest for these figures (those it told from luck), with
    the ranges it screened."""
    f = Path(path) / EXPLORE_FILE
    if not f.is_file():
        raise BalanceError(
            f"--explore {str(path)!r}: no {EXPLORE_FILE} there (run balance explore)"
        )
    try:
        data = json.loads(f.read_text())
        rows = list(data["options"])
        game = data["game"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None
    if game != spec.id:
        raise BalanceError(f"--explore {str(path)!r} explored {game}, not {spec.id}")
    told = [
        r
        for r in rows
        if r.get("figure") in figures
        and r.get("option") not in fixed
        and r.get("moves")  # told from luck (mu* alone never falls to zero under noise)
    ]
    # Effects of different figures are in different units (points, days): take each figure's
    # options in its own order, a figure at a time, so every target gets its strongest levers.
    by_figure = [
        sorted((r for r in told if r["figure"] == f), key=lambda r: -_value(r["effect"]))
        for f in figures
    ]
    ranked = [
        col[i]
        for i in range(max(map(len, by_figure), default=0))
        for col in by_figure
        if i < len(col)
    ]
    if not ranked:
        raise BalanceError(
            f"--explore {str(path)!r}: no option moved {', '.join(figures)} beyond noise there; "
            "name the options to search with --param NAME=LO:HI"
        )
    knobs: list[RuleKnob] = []
    for r in ranked:
        if r["option"] in {k.name for k in knobs}:
            continue
        info = spec.rules_class.option_info(r["option"])
        lo, hi = r["range"]
        if info.type == "bool":
            knobs.append(RuleKnob(info.name, "bool", values=(False, True)))
        else:
            knobs.append(_range_knob(info, f"{lo}:{hi}", f"--explore {r['option']}"))
        if len(knobs) == top:
            break
    return knobs


def figure_of_target(name: str) -> str:
    """The explore figure a target measures (seat-N targets are read on the first seat's)."""
    return "first-seat" if name in ("last-seat",) or name.startswith("seat-") else name


def _value(estimate: Any) -> float:
    """An estimate's value: ``{"value", "lo", "hi"}``, or a bare number (explore.json written
    before estimates carried their interval)."""
    return float(estimate["value"] if isinstance(estimate, dict) else estimate)
