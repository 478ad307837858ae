"""Numbers as a reader wants them: percentages, points, intervals and p-values in words."""

from __future__ import annotations

import math
from typing import Any


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:.{digits}%}"


def num(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:,.{digits}f}"


def points(x: float | None) -> str:
    """A change of a rate, in percentage points with its sign."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x * 100:+.1f} points"


def signed(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:+,.{digits}f}"


def interval(est: dict[str, Any], fmt=pct) -> str:
    """``[lo, hi]`` of an estimate dict."""
    return f"[{fmt(est['lo'])}, {fmt(est['hi'])}]"


def with_interval(est: dict[str, Any], fmt=pct, unit: str = "") -> str:
    """``38.2% (95% interval 36.1% to 40.4%)``; ``unit`` follows the value."""
    value = f"{fmt(est['value'])} {unit}".rstrip()
    return f"{value} (95% interval {fmt(est['lo'])} to {fmt(est['hi'])})"


def p_value(p: float | None) -> str:
    if p is None or not math.isfinite(p):
        return "n/a"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}"


def rules_text(changed: dict[str, Any]) -> str:
    if not changed:
        return "default rules"
    return ", ".join(
        f"{k} = {','.join(map(str, v)) if isinstance(v, list | tuple) else v}"
        for k, v in changed.items()
    )
