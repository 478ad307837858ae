"""Design targets (``--target first-seat=0.25+-0.02``) and whether a run meets them.

Grammar: ``NAME=VALUE+-TOLERANCE`` or ``NAME=LOW..HIGH``. Numbers may end in ``%`` (``25%`` is
0.25); ``±`` may stand for ``+-``. Names: first-seat, last-seat, seat-N (win rate of seat N),
draw (no-winner rate), balance, success (cooperative success rate), length (mean game length),
lead-changes (mean per game), comeback (comeback rate).

A run *meets* a target when the whole 95% interval of its estimate lies inside the target range,
*misses* it when the interval lies wholly outside, and otherwise *cannot tell yet* (more games
would narrow the interval).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simulator.errors import BalanceError

if TYPE_CHECKING:  # kept out of imports so the command line starts without scipy
    from .stats import Estimate

TARGET_HELP = (
    "Design target, repeatable: NAME=VALUE+-TOL or NAME=LOW..HIGH (numbers may end in %). "
    "NAME: first-seat, last-seat, seat-N, draw, balance, success, length, lead-changes, "
    "comeback. Example: --target first-seat=25%+-2% --target length=40..60."
)
FIXED_NAMES = (
    "first-seat",
    "last-seat",
    "draw",
    "balance",
    "success",
    "length",
    "lead-changes",
    "comeback",
)
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)%?"
_TOLERANCE = re.compile(rf"^({_NUMBER})\s*(?:\+-|±)\s*({_NUMBER})$")
_RANGE = re.compile(rf"^({_NUMBER})\s*\.\.\s*({_NUMBER})$")

MEETS, MISSES, UNKNOWN = "meets", "misses", "cannot tell yet"


@dataclass(frozen=True)
class Target:
    name: str
    low: float
    high: float
    text: str

    def verdict(self, estimate: Estimate | None) -> str:
        if estimate is None or not all(map(math.isfinite, (estimate.lo, estimate.hi))):
            return UNKNOWN
        if self.low <= estimate.lo and estimate.hi <= self.high:
            return MEETS
        if estimate.hi < self.low or estimate.lo > self.high:
            return MISSES
        return UNKNOWN


def _number(text: str, target: str) -> float:
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise BalanceError(f"--target {target!r}: {text!r} is not a number") from None


def parse_target(text: str) -> Target:
    """Parse one ``--target`` (raises BalanceError naming the problem and the grammar)."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip().lower(), spec.strip().replace(" ", "")
    grammar = "expected NAME=VALUE+-TOL or NAME=LOW..HIGH, e.g. first-seat=0.25+-0.02"
    if not sep or not name or not spec:
        raise BalanceError(f"--target {text!r}: {grammar}")
    if name not in FIXED_NAMES and not re.fullmatch(r"seat-[1-9]\d*", name):
        raise BalanceError(
            f"--target {text!r}: unknown measure {name!r}; known: {', '.join(FIXED_NAMES)}, seat-N"
        )
    if m := _TOLERANCE.match(spec):
        value, tol = _number(m[1], text), _number(m[2], text)
        if tol < 0:
            raise BalanceError(f"--target {text!r}: the tolerance must not be negative")
        return Target(name, value - tol, value + tol, text.strip())
    if m := _RANGE.match(spec):
        low, high = _number(m[1], text), _number(m[2], text)
        if low > high:
            raise BalanceError(f"--target {text!r}: LOW must not exceed HIGH")
        return Target(name, low, high, text.strip())
    raise BalanceError(f"--target {text!r}: {grammar}")


def parse_targets(texts: list[str] | None) -> list[Target]:
    return [parse_target(t) for t in texts or []]


def check_targets(
    targets: list[Target], estimates: dict[str, Estimate], n_players: int
) -> list[dict[str, Any]]:
    """One row per target: the run's estimate and interval, the target range and the verdict."""
    rows = []
    for target in targets:
        if target.name.startswith("seat-") and int(target.name[5:]) > n_players:
            raise BalanceError(
                f"--target {target.text!r}: the game was played by {n_players} players"
            )
        est = estimates.get(target.name)
        rows.append(
            {
                "target": target.text,
                "measure": target.name,
                "low": target.low,
                "high": target.high,
                "value": est.value if est else None,
                "lo": est.lo if est else None,
                "hi": est.hi if est else None,
                "verdict": target.verdict(est),
            }
        )
    return rows
