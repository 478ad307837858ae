"""A setting played as ``balance design`` judged it: its lineup, rotated when it was.

``balance design --rotate`` judges a setting over every rotation of the lineup (each policy in
each seat equally often) on the same game seeds, pooled. ``simulate --rotate`` plays the same:
one run folder per rotation (``OUT/rot-K/``), each on the run's seeds, and the figures pooled
over all of them. The variant file a design writes carries its ``[play]`` table (lineup,
rotation, check seed and games), so ``simulate --variant setting-1.toml`` plays what was judged
unless the command line says otherwise.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .design.knobs import rotations
from .errors import BalanceError
from .plan import plan_run
from .rules import read_play
from .runner import run

COMPETITIVE = ("first-seat", "last-seat", "draw", "balance", "length")
COOPERATIVE = ("success", "length")


def as_judged(
    variant: str | Path | None, players: int | None, policies: list[str] | None, rotate: bool
) -> tuple[int | None, list[str] | None, bool]:
    """Players, lineup and rotation of a run: the command line's, else the variant's ``[play]``
    (what the design that wrote it judged)."""
    if variant is None:
        return players, policies, rotate
    play = read_play(variant)
    return (
        players if players is not None else play.get("players"),
        policies or play.get("policies"),
        rotate or bool(play.get("rotate", False)),
    )


def simulate_rotated(
    game: str,
    games: int,
    out: str | Path,
    *,
    targets: list[Any] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    wait: bool = False,
    show: str = "nothing",
    **request: Any,
) -> dict[str, Any]:
    """Play every rotation of the lineup on the same seeds into ``OUT/rot-K/`` and pool them:
    the figures a ``--rotate`` design gives this setting. ``request``: plan_run's keywords;
    ``show``: print the result as ``lines``, as ``json``, or ``nothing`` (progress follows)."""
    from analyses.design import pooled_estimates
    from analyses.runs import Run
    from analyses.targets import Target, check_targets

    first = plan_run(game, games, **request)
    lineup = [s.label for s in first.seats]
    if len(set(lineup)) < 2:
        raise BalanceError(
            "--rotate needs seats playing different policies (repeat --policy, one per seat)"
        )
    tables = rotations(lineup)
    configs = [plan_run(game, games, **{**request, "policies": t}) for t in tables]
    out = Path(out)
    folders = [
        run(c, out / f"rot-{k}", jobs=jobs, progress=show == "lines", cluster=cluster, wait=wait)
        for k, c in enumerate(configs, 1)
    ]
    runs = [Run.open(f.path) for f in folders]
    names = COOPERATIVE if first.spec.cooperative else COMPETITIVE
    wanted = [Target(name, -math.inf, math.inf, name) for name in names]
    pooled = pooled_estimates(runs, tuple(wanted + list(targets or [])))
    result = {
        "game": game,
        "games": games,
        "rotations": [
            {"policies": t, "out": str(f.path)} for t, f in zip(tables, folders, strict=True)
        ],
        "seed": first.seed,
        "n_players": first.n_players,
        "length_unit": runs[0].length_unit,
        "out": str(out),
        "pooled": {k: v.as_dict() for k, v in pooled.items() if k in names},
        "targets": check_targets(list(targets or []), pooled, first.n_players),
    }
    if show == "json":
        print(json.dumps(result, indent=2, default=str))
    elif show == "lines":
        from reports.study_sections import targets_headline

        print("\n".join(rotated_lines(result) + targets_headline(result["targets"])))
    return result


def rotated_lines(s: dict[str, Any]) -> list[str]:
    """What ``simulate --rotate`` prints: the rotations played and the pooled figures."""
    lineup = ", ".join(s["rotations"][0]["policies"])
    lines = [
        f"{s['game']}: {len(s['rotations'])} rotations of the lineup ({lineup}) x "
        f"{s['games']:,} games on the same seeds (seed {s['seed']}) -> {s['out']}/rot-1.."
        f"rot-{len(s['rotations'])}",
        "pooled over the rotations, so each policy holds each seat equally often:",
    ]
    p = s["pooled"]

    def share(name: str) -> str:
        e = p[name]
        return f"{e['value']:.1%} (95% interval {e['lo']:.1%} to {e['hi']:.1%})"

    if "first-seat" in p:
        lines.append(f"  first seat wins {share('first-seat')}; last seat {share('last-seat')}")
        b = p["balance"]
        lines.append(
            f"  balance {b['value']:.3f} (95% interval {b['lo']:.3f} to {b['hi']:.3f}); "
            f"nobody wins {share('draw')}"
        )
    if "success" in p:
        lines.append(f"  success {share('success')}")
    e = p["length"]
    lines.append(
        f"  mean length {e['value']:.1f} {s['length_unit']} (95% interval {e['lo']:.1f} to "
        f"{e['hi']:.1f})"
    )
    return lines
