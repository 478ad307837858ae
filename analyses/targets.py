"""Design targets (``--target first-seat=0.25+-0.02``) and whether a run meets them.

Grammar: ``NAME=VALUE+-TOLERANCE``, ``NAME=LOW..HIGH``, or one-sided ``NAME<=X`` / ``NAME>=X``.
Numbers may end in ``%`` (``25%`` is 0.25); ``±`` may stand for ``+-``. Names: first-seat,
last-seat, seat-N (win rate of seat N), no-winner (share of games nobody wins; ``draw``, its old
name, is accepted for one version), balance, success (cooperative
success rate), length (mean game length), lead-changes (mean per game), comeback (comeback
rate), shared (share of games two or more seats share the win), ``return:seat-N`` (seat N's
mean return per game, in a game that pays one), ``place:seat-N`` (seat N's mean place, 1 =
first), ``end:REASON`` (share of games ended by that end condition of the game),
``mean:COLUMN`` (mean per game of one of the game's own numeric columns; a column with a value
per seat counts every seat together) and ``policy:NAME`` (share of games won by the seats playing
that policy, whatever its parameters).

A run *meets* a target when the whole 95% interval of its estimate lies inside the target range,
*misses* it when the interval lies wholly outside, and otherwise *cannot tell yet* (more games
would narrow the interval).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simulator.contract.errors import BalanceError

if TYPE_CHECKING:  # kept out of imports so the command line starts without scipy
    from simulator.contract.registry import GameSpec

    from .stats import Estimate

TARGET_HELP = (
    "Design target, repeatable: NAME=VALUE+-TOL, NAME=LOW..HIGH, NAME<=X or NAME>=X (numbers "
    "may end in %). NAME: first-seat, last-seat, seat-N, no-winner, balance, success, length, "
    "lead-changes, comeback, shared (games whose win is shared), return:seat-N (mean return), "
    "place:seat-N (mean place, 1 = first), end:REASON (share of games ended that way), "
    "mean:COLUMN (mean of one of the game's own columns), policy:NAME (share of games won by the "
    "seats playing NAME). Example: --target first-seat=25%+-2% --target length=40..60 --target "
    "end:treasures>=30% --target return:seat-1>=0."
)
FIXED_NAMES = (
    "first-seat",
    "last-seat",
    "no-winner",
    "balance",
    "success",
    "length",
    "lead-changes",
    "comeback",
    "shared",
)
# measured when someone can win
SEAT_NAMES = ("first-seat", "last-seat", "no-winner", "balance", "shared")
# Old names still accepted, for one version (CHANGELOG.md).
ALIASES = {"draw": "no-winner", "draw-rate": "no-winner", "draw_rate": "no-winner"}
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)%?"
_TOLERANCE = re.compile(rf"^({_NUMBER})\s*(?:\+-|±)\s*({_NUMBER})$")
_RANGE = re.compile(rf"^({_NUMBER})\s*\.\.\s*({_NUMBER})$")
_SPLIT = re.compile(r"^\s*([^<>=\s]+)\s*(<=|>=|=)\s*(.*)$")
_PREFIXED = re.compile(r"^(end|mean|policy):([a-z0-9_-]+)$")
# A seat's figure of the outcome model: its mean return or its mean place.
_SEAT_FIGURE = re.compile(r"^(return|place):seat-([1-9]\d*)$")

MEETS, MISSES, UNKNOWN = "meets", "misses", "cannot tell yet"


@dataclass(frozen=True)
class Target:
    name: str
    low: float
    high: float
    text: str
    given: tuple[float, ...] = ()  # the numbers written (a value or a range's ends)

    def verdict(self, estimate: Estimate | None) -> str:
        if estimate is None or not all(map(math.isfinite, (estimate.lo, estimate.hi))):
            return UNKNOWN
        if self.low <= estimate.lo and estimate.hi <= self.high:
            return MEETS
        if estimate.hi < self.low or estimate.lo > self.high:
            return MISSES
        return UNKNOWN

    def distance(self, value: float) -> float:
        """How far a value lies outside the range (0 inside): what a search minimises."""
        return max(self.low - value, value - self.high, 0.0)

    @property
    def is_share(self) -> bool:
        """Whether the measure is a share of games (printed as a percentage)."""
        return is_share_measure(self.name)


def _number(text: str, target: str) -> float:
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise BalanceError(f"--target {target!r}: {text!r} is not a number") from None


def parse_target(text: str) -> Target:
    """Parse one ``--target`` (raises BalanceError naming the problem and the grammar)."""
    grammar = (
        "expected NAME=VALUE+-TOL, NAME=LOW..HIGH, NAME<=X or NAME>=X, e.g. first-seat=0.25+-0.02"
    )
    m = _SPLIT.match(text)
    if not m or not m[3].strip():
        raise BalanceError(f"--target {text!r}: {grammar}")
    name, op, spec = m[1].strip().lower(), m[2], m[3].strip().replace(" ", "")
    name = ALIASES.get(name, name)
    if name.startswith(("return:", "place:")) and not _SEAT_FIGURE.match(name):
        raise BalanceError(
            f"--target {text!r}: {name.partition(':')[0]}: names a seat, e.g. "
            f"{name.partition(':')[0]}:seat-1"
        )
    if (
        name not in FIXED_NAMES
        and not re.fullmatch(r"seat-[1-9]\d*", name)
        and not _PREFIXED.match(name)
        and not _SEAT_FIGURE.match(name)
    ):
        raise BalanceError(
            f"--target {text!r}: unknown measure {name!r}; known: {', '.join(FIXED_NAMES)}, "
            "seat-N, return:seat-N, place:seat-N, end:REASON, mean:COLUMN, policy:NAME"
        )
    if op != "=":
        if not re.fullmatch(_NUMBER, spec):
            raise BalanceError(f"--target {text!r}: {grammar}")
        value = _number(spec, text)
        _check_reachable(name, (value,), text)
        low, high = (value, math.inf) if op == ">=" else (-math.inf, value)
        return Target(name, low, high, text.strip(), (value,))
    if m := _TOLERANCE.match(spec):
        value, tol = _number(m[1], text), _number(m[2], text)
        _check_reachable(name, (value,), text)
        if tol < 0:
            raise BalanceError(f"--target {text!r}: the tolerance must not be negative")
        return Target(name, value - tol, value + tol, text.strip(), (value,))
    if m := _RANGE.match(spec):
        low, high = _number(m[1], text), _number(m[2], text)
        _check_reachable(name, (low, high), text)
        if low > high:
            raise BalanceError(f"--target {text!r}: LOW must not exceed HIGH")
        return Target(name, low, high, text.strip(), (low, high))
    if re.fullmatch(_NUMBER, spec):  # a bare value: its range first, then the missing tolerance
        _check_reachable(name, (_number(spec, text),), text)
        raise BalanceError(
            f"--target {text!r}: give a tolerance or a range, e.g. {name}={spec}+-2"
            f"{'%' if spec.endswith('%') else ''} or {name}<={spec}"
        )
    raise BalanceError(f"--target {text!r}: {grammar}")


def _reachable(name: str) -> tuple[float, float] | None:
    """The values a measure can take whatever the game (None: any number, e.g. a column's
    mean, whose sign the game's spec knows)."""
    if name in ("length", "lead-changes"):
        return 0.0, math.inf
    if name.startswith("place:"):
        return 1.0, math.inf
    if name.startswith("return:"):
        return None
    if name == "balance" or is_share_measure(name):
        return 0.0, 1.0
    return None


def _check_reachable(name: str, values: tuple[float, ...], text: str) -> None:
    """Refuse a target value no run can produce (a share above 100%, a negative length)."""
    bounds = _reachable(name)
    if bounds is None or all(bounds[0] <= v <= bounds[1] for v in values):
        return
    if bounds[1] == 1.0:
        what = "balance runs from 0 to 1" if name == "balance" else "a share lies in 0%..100%"
    elif bounds[0] == 1.0:
        what = "a place is 1 (first) or more"
    else:
        what = f"{name} is never negative"
    bad = next(v for v in values if not bounds[0] <= v <= bounds[1])
    shown = f"{bad:.4g}" if bounds[1] != 1.0 or name == "balance" else f"{bad * 100:.4g}%"
    raise BalanceError(f"--target {text!r}: {shown} cannot be reached; {what}")


def is_share_measure(name: str) -> bool:
    """Whether a measure is a share of games (printed as a percentage, between 0 and 1)."""
    return name not in ("length", "lead-changes", "balance") and not name.startswith(
        ("mean:", "return:", "place:")
    )


def parse_targets(texts: list[str] | None) -> list[Target]:
    return [parse_target(t) for t in texts or []]


def measurable_columns(spec: GameSpec) -> list[str]:
    """The game's own columns a ``mean:`` target can name: counts and measures (codes, seats
    and cell lists are not amounts)."""
    return [c for c in spec.columns if spec.kind_of(c).averaged]


def check_measurable(targets: list[Target], spec: GameSpec) -> None:
    """Refuse, before any game is played, a target no run of this game can measure."""
    for t in targets:
        kind, _, what = t.name.partition(":")
        if kind == "end" and what not in spec.end_reasons:
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} has no end condition {what!r}; its end "
                f"conditions: {', '.join(spec.end_reasons)}"
            )
        if kind == "mean" and what not in measurable_columns(spec):
            holds = {"category": "codes", "seat": "seat numbers", "cells": "board cells"}
            kind_name = spec.kind_of(what).kind
            held = f" (it holds {holds[kind_name]}, not amounts)" if what in spec.columns else ""
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} has no count or measure {what!r}{held}; its "
                f"columns: {', '.join(measurable_columns(spec)) or 'none'}"
            )
        if kind == "mean" and spec.kind_of(what).never_negative and min(t.given, default=0) < 0:
            raise BalanceError(
                f"--target {t.text!r}: {min(t.given):.4g} cannot be reached; {what} is a count, "
                "never negative"
            )
        if kind == "return" and not spec.has_returns:
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} pays no return (a game file declares "
                "returns(state) for one); measure a seat's win rate (seat-N) or place instead"
            )
        seat_measure = t.name in SEAT_NAMES or t.name.startswith(
            ("seat-", "policy:", "place:", "return:")
        )
        if spec.cooperative and seat_measure:
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} is cooperative (no seat wins); "
                "measure success instead"
            )
        if not spec.cooperative and t.name == "success":
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} is competitive; measure a seat (first-seat, "
                "seat-N), draw or balance instead"
            )
        if kind == "policy" and what not in spec.policies and spec.outside is None:
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} has no policy {what!r}; its policies: "
                f"{', '.join(spec.policies)}"
            )
        if _seat_of(t.name) > spec.max_players:
            raise BalanceError(
                f"--target {t.text!r}: {spec.id} is played by at most {spec.max_players} players"
            )


def _seat_of(name: str) -> int:
    """The seat a measure names (seat-N, return:seat-N, place:seat-N), 0 for none."""
    seat = name.rpartition(":")[2]
    return int(seat[5:]) if re.fullmatch(r"seat-[1-9]\d*", seat) else 0


def check_targets(
    targets: list[Target], estimates: dict[str, Estimate], n_players: int
) -> list[dict[str, Any]]:
    """One row per target: the run's estimate and interval, the target range and the verdict."""
    rows = []
    for target in targets:
        if _seat_of(target.name) > n_players:
            raise BalanceError(
                f"--target {target.text!r}: the game was played by {n_players} players"
            )
        est = estimates.get(target.name)
        rows.append(
            {
                "target": target.text,
                "measure": target.name,
                "low": target.low if math.isfinite(target.low) else None,  # None: unbounded
                "high": target.high if math.isfinite(target.high) else None,
                "value": est.value if est else None,
                "lo": est.lo if est else None,
                "hi": est.hi if est else None,
                "verdict": target.verdict(est),
            }
        )
    return rows


def measures_text(spec: GameSpec) -> str:
    """What a --target can name for this game beyond the fixed measures (``balance rules``)."""
    columns = measurable_columns(spec)
    lines = [
        "Targets (--target) can also name: "
        + ", ".join(f"end:{r}" for r in spec.end_reasons)
        + (", " + ", ".join(f"mean:{c}" for c in columns) if columns else "")
    ]
    if not spec.cooperative:
        lines.append("and policy:NAME for " + ", ".join(spec.policies))
        lines.append(
            "and place:seat-N (mean place)"
            + (", return:seat-N (mean return)" if spec.has_returns else "")
        )
    return "\n".join(lines)
