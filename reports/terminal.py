"""What ``balance simulate`` prints for one run: its headline figures, what the report warns of
alongside them, and each target's verdict."""

from __future__ import annotations

from typing import Any

SHARED_NOTE = "a win shared by k seats counts 1/k to each of them"


def run_lines(s: dict[str, Any]) -> list[str]:
    """The terminal headline of a run (``analyses.overview.headline``, with ``targets`` when
    any were given)."""
    out = [f"{s['game']}: {s['games']:,} games, {s['n_players']} players, seed {s['seed']} -> "
           f"{s['out']}"]  # fmt: skip
    est = s["estimates"]
    if s["win_rate"] is not None:
        rates = "  ".join(f"seat {i + 1}: {_ci(e)}" for i, e in enumerate(est["win_rate"]))
        ends = f"no winner: {_ci(est['no_winner_rate'])}"
        shared = est.get("shared_win_rate")
        if shared and shared["value"] > 0:  # only a run with a shared win says so
            ends = f"shared wins: {_ci(shared)}; {ends}"
        out.append(f"win rate [95% interval]  {rates}  ({ends})")
        if shared and shared["value"] > 0:
            out.append(SHARED_NOTE)
        if len(set(s["policies"])) > 1:  # as the report says it
            seats = ", ".join(f"seat {i + 1} {p}" for i, p in enumerate(s["policies"]))
            out.append(f"seats play different policies ({seats}): a seat's rate is its policy's")
    else:
        out.append(f"success rate [95% interval] {_ci(est['success_rate'])}")
    out.append(f"mean length {s['mean_length']:.1f} {s['length_unit']}")
    if s.get("evaluation_fallback"):  # as the report says it
        out.append(f"{s['evaluation_fallback'][:1].upper()}{s['evaluation_fallback'][1:]}.")
    if s.get("degenerate"):  # as the report says it
        out.append(f"a degenerate run: {'; '.join(s['degenerate'])}")
    if not s.get("targets"):
        return out
    from .study_sections import targets_headline  # imports matplotlib: only when asked

    return out + targets_headline(s["targets"])


def _ci(est: dict[str, float]) -> str:
    """``17.0% [16.5%, 17.5%]``: a rate and its 95% interval, as the report prints them."""
    return f"{est['value']:.1%} [{est['lo']:.1%}, {est['hi']:.1%}]"
