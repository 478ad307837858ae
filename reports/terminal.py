"""What ``balance simulate`` prints for one run: its headline figures, what the report warns of
alongside them, and each target's verdict."""

from __future__ import annotations

from typing import Any

from .study_sections import targets_headline


def run_lines(s: dict[str, Any]) -> list[str]:
    """The terminal headline of a run (``analyses.overview.headline``, with ``targets`` when
    any were given)."""
    out = [f"{s['game']}: {s['games']:,} games, {s['n_players']} players, seed {s['seed']} -> "
           f"{s['out']}"]  # fmt: skip
    if s["win_rate"] is not None:
        rates = "  ".join(f"seat {i + 1}: {r:.1%}" for i, r in enumerate(s["win_rate"]))
        out.append(f"win rate  {rates}  (no winner: {s['draw_rate']:.1%})")
        if len(set(s["policies"])) > 1:  # as the report says it
            seats = ", ".join(f"seat {i + 1} {p}" for i, p in enumerate(s["policies"]))
            out.append(f"seats play different policies ({seats}): a seat's rate is its policy's")
    else:
        out.append(f"success rate {s['success_rate']:.1%}")
    out.append(f"mean length {s['mean_length']:.1f} {s['length_unit']}")
    if s.get("evaluation_fallback"):  # as the report says it
        out.append(f"{s['evaluation_fallback'][:1].upper()}{s['evaluation_fallback'][1:]}.")
    if s.get("degenerate"):  # as the report says it
        out.append(f"a degenerate run: {'; '.join(s['degenerate'])}")
    return out + targets_headline(s.get("targets", []))
