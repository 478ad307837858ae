"""A setting played as ``balance design`` judged it: its lineup, rotated when it was.

``balance design --rotate`` judges a setting over every rotation of the lineup (each policy in
each seat equally often) on the same game seeds, pooled. ``simulate --rotate`` plays the same:
one run folder per rotation (``OUT/rot-K/``), each on the run's seeds, and the figures pooled
over all of them. The variant file a design writes carries its ``[play]`` table (lineup,
rotation, check seed and games), so ``simulate --variant setting-1.toml`` plays what was judged
unless the command line says otherwise.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError
from simulator.contract.rules import read_play
from simulator.runs.plan import plan_run
from simulator.runs.requests import Execution, PlayRequest
from simulator.runs.runner import run

from .design.knobs import rotations

COMPETITIVE = ("first-seat", "last-seat", "no-winner", "shared", "balance", "length")
COOPERATIVE = ("success", "length")


def as_judged(request: PlayRequest, rotate: bool = False) -> tuple[PlayRequest, bool]:
    """The request and rotation of a run: the command line's, else the variant's ``[play]``
    (what the design that wrote it judged)."""
    if request.variant is None:
        return request, rotate
    play = read_play(request.variant)
    players = request.players if request.players is not None else play.get("players")
    judged = request.but(players=players, policies=request.policies or play.get("policies"))
    return judged, rotate or bool(play.get("rotate", False))


def compared_as_judged(request: PlayRequest, variants: list[str | Path]) -> PlayRequest:
    """A comparison's players and lineup: the command line's, else those its variant files were
    judged with (``[play]``). Compare plays one seating, so a lineup judged over every rotation
    is refused with the command that plays it as judged, unless ``--policy`` names a seating."""
    if request.policies or request.players is not None:
        return request
    judged = [(v, p) for v in variants if (p := read_play(v))]
    if not judged:
        return request
    lineups = {(p.get("players"), tuple(p.get("policies") or ())) for _, p in judged}
    if len(lineups) > 1:
        raise BalanceError(
            "the variant files were judged with different lineups ([play]); give --players and "
            "--policy to compare them under one"
        )
    for v, p in judged:
        if p.get("rotate"):
            raise BalanceError(
                f"variant file {str(v)!r} was judged over every rotation of its lineup, which "
                f"compare does not play: `balance simulate {request.game} --variant {v} -n "
                f"{p.get('games', request.games)} --seed {p.get('seed', request.seed)}` plays it "
                "as judged; give --policy to compare one seating"
            )
    play = judged[0][1]
    return request.but(players=play.get("players"), policies=play.get("policies"))


def rotated_requests(request: PlayRequest) -> list[PlayRequest]:
    """One request per rotation of the request's lineup (each policy in each seat equally
    often), all on the request's seeds; refused when every seat plays the same policy."""
    lineup = [s.label for s in plan_run(request).seats]
    if len(set(lineup)) < 2:
        raise BalanceError(
            "--rotate needs seats playing different policies (repeat --policy, one per seat)"
        )
    return [request.but(policies=t) for t in rotations(lineup)]


def simulate_rotated(
    request: PlayRequest,
    out: str | Path,
    how: Execution = Execution(),
    *,
    chunk_size: int | None = None,
    targets: list[Any] | None = None,
) -> dict[str, Any]:
    """Play every rotation of the lineup on the same seeds into ``OUT/rot-K/`` and pool them:
    the figures a ``--rotate`` design gives this setting, and each target's verdict on them."""
    from analyses.design import pooled_estimates
    from analyses.runs import Run
    from analyses.targets import Target, check_targets

    requests = rotated_requests(request)
    configs = [plan_run(r, chunk_size=chunk_size) for r in requests]
    out = Path(out)
    folders = [run(c, out / f"rot-{k}", **how.run_options()) for k, c in enumerate(configs, 1)]
    runs = [Run.open(f.path) for f in folders]
    first = configs[0]
    names = COOPERATIVE if first.spec.cooperative else COMPETITIVE
    wanted = [Target(name, -math.inf, math.inf, name) for name in names]
    pooled = pooled_estimates(runs, tuple(wanted + list(targets or [])))
    return {
        "game": request.game,
        "games": request.games,
        "rotations": [
            {"policies": r.policies, "out": str(f.path)}
            for r, f in zip(requests, folders, strict=True)
        ],
        "seed": first.seed,
        "n_players": first.n_players,
        "length_unit": runs[0].length_unit,
        "out": str(out),
        "pooled": {k: v.as_dict() for k, v in pooled.items() if k in names},
        "targets": check_targets(list(targets or []), pooled, first.n_players),
    }


def rotated_lines(s: dict[str, Any]) -> list[str]:
    """What ``simulate --rotate`` prints: the rotations played, the pooled figures and each
    target's verdict on them."""
    from reports.study_sections import targets_headline

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
            f"nobody wins {share('no-winner')}"
            + (
                f"; seats share the win {share('shared')}"
                if p.get("shared", {}).get("value")
                else ""
            )
        )
    if "success" in p:
        lines.append(f"  success {share('success')}")
    e = p["length"]
    lines.append(
        f"  mean length {e['value']:.1f} {s['length_unit']} (95% interval {e['lo']:.1f} to "
        f"{e['hi']:.1f})"
    )
    return lines + targets_headline(s["targets"])
