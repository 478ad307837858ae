"""Numbers as a reader wants them: percentages, points, intervals and p-values in words."""

from __future__ import annotations

import math
from typing import Any


def unsigned_zero(x: float, digits: int, scale: float = 1.0) -> float:
    """``x``, or 0.0 when it rounds to zero at ``digits`` (so a tiny negative never prints as
    "-0.0")."""
    return 0.0 if round(x * scale, digits) == 0 else x


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{unsigned_zero(x, digits, 100):.{digits}%}"


def num(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{unsigned_zero(x, digits):,.{digits}f}"


def points(x: float | None) -> str:
    """A change of a rate, in percentage points with its sign (0.0 without one)."""
    if x is None or not math.isfinite(x):
        return "n/a"
    x = unsigned_zero(x, 1, 100)
    return f"{x * 100:{'+' if x else ''}.1f} points"


def signed(x: float | None, digits: int = 1) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    x = unsigned_zero(x, digits)
    return f"{x:{'+' if x else ''},.{digits}f}"


def interval(est: dict[str, Any], fmt=pct) -> str:
    """``[lo, hi]`` of an estimate dict."""
    return f"[{fmt(est['lo'])}, {fmt(est['hi'])}]"


def with_interval(est: dict[str, Any], fmt=pct, unit: str = "") -> str:
    """``38.2% (95% interval 36.1% to 40.4%)``; ``unit`` follows the value. With ``pct`` or
    ``num``, digits are added (up to three more) until a figure strictly inside its interval
    is not printed on an end of it: "1.52 times (95% interval 1.50 to 1.54)", never "1.5
    (1.5 to 1.5)"."""
    if fmt in (pct, num):
        digits = separating_digits(est, 1, percent=fmt is pct)
        fmt = (lambda v, f=fmt, d=digits: f(v, d)) if digits != 1 else fmt
    value = f"{fmt(est['value'])} {unit}".rstrip()
    return f"{value} (95% interval {fmt(est['lo'])} to {fmt(est['hi'])})"


def separating_digits(est: dict[str, Any], digits: int, percent: bool = False) -> int:
    """The fewest digits (from ``digits``, at most three more) that print a value lying strictly
    inside its interval apart from both ends."""
    v, lo, hi = (est.get(k) for k in ("value", "lo", "hi"))
    if not all(isinstance(x, int | float) and math.isfinite(x) for x in (v, lo, hi)):
        return digits
    if not lo < v < hi:
        return digits
    scale = 100 if percent else 1
    for d in range(digits, digits + 4):
        if round(lo * scale, d) < round(v * scale, d) < round(hi * scale, d):
            return d
    return digits + 3


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


def lead_text(lead: dict[str, Any], noun: str, fmt=points, per: str = "") -> str:
    """What a lead (:func:`analyses.stats.lead`) supports, as the end of a sentence: separated
    from every other ``noun``, or which ones it cannot be told apart from, the closest
    difference with its interval, and roughly how many games would tell."""
    level = f"{lead['confidence']:.1%}".replace(".0%", "%")
    corrected = (
        f", widened from 95% because {lead['comparisons']} comparisons were made"
        if lead["comparisons"] > 1
        else ""
    )
    c = lead["closest"]
    gap = (
        f"{lead['leader']} minus {c['name']}: {fmt(c['value'])}, {level} interval "
        f"{fmt(c['lo'])} to {fmt(c['hi'])}{corrected}"
    )
    if lead["separated"]:
        return f"ahead of every other {noun} in the same games ({gap})"
    names = ", ".join(t["name"] for t in lead["tied"])
    needed = lead["games_to_tell"]
    if needed is not None:
        tell = f"roughly {rough(needed)} games{per} would tell a difference this large"
    elif c["lo"] == c["hi"] == 0:
        tell = "every game ended the same way under both, so these games cannot tell them apart"
    else:
        tell = "no difference was seen at all, so more games would only bound it"
    return f"cannot be told apart from {names} yet ({gap}); {tell}"


def rough(count: int) -> str:
    """A count to two significant figures (an estimate of games needed is no more precise)."""
    return f"{float(f'{count:.2g}'):,.0f}"


# The Methods note of a search's report (design, tune): the names behind its plain sentences.
SEARCH_METHODS = (
    "The search: Optuna's TPE sampler (Tree-structured Parzen Estimator), seeded; win and "
    "success rates with Wilson score intervals; paired differences on common game seeds with "
    "t intervals."
)
