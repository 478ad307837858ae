"""Does the search settle? Two searches from the same position, with different seeds, at the
default budget: how often do they choose the same option?

    .venv/bin/python benchmarks/search.py --agreement                 # every game, 2 and 4 players
    .venv/bin/python benchmarks/search.py --agreement --game pirateer --players 2 --json

The positions are decisions of self-play of the game's strongest hand-written policy (the game's
``SearchHooks.bank``), each with two options or more, spread over the game. At each, ``mcts``
with its default parameters (and the run's fitted evaluation) decides twice, from seeds 1 and 2
(``SearchHooks.decide``): ``agreement`` is the share of positions where both choose the same
option. ``reference_agreement`` is the same figure for the hand-written policy against itself
(below 100% when it breaks ties at random); each is ``{value, lo, hi}``, the share
with its 95% Wilson interval. An answer that changes with the seed at this rate
means the search's choice among its best options is noise: a search that settles agrees with
itself far more often than it did.

``--against-playouts`` asks a second question of the same bank: does the fitted evaluation point
where playing to the end points? Two searches with the same budget (``--scale`` times the
default playouts, for steadier answers), one at the default horizon scored by the evaluation and
one with ``horizon=0`` (every simulation played to the end), each decide from seed 1.
``playout_agreement`` is the share of positions where they choose the same option;
``playout_self_agreement`` is the full-playout search against itself (seeds 1 and 2), the
ceiling that noise alone allows: the evaluation's choice cannot agree with a noisy reference more
often than the reference agrees with itself. A game whose default already plays to the end
(horizon 0) is reported as such, without a measurement.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

BANK_SEED = 20261201


def _search_game(game: str):
    """The game's spec and search hooks (the benchmark needs both)."""
    from simulator.contract.registry import get_game

    spec = get_game(game)
    if spec.search_hooks is None:
        raise SystemExit(f"{game} declares no search hooks")
    return spec, spec.search_hooks


def _bank(spec, hooks, rules, players: int, positions: int):
    """The best hand-written policy and the bank of decisions from its self-play: the same
    positions for every question this module asks."""
    from simulator.contract.policy import parse_policy

    best = parse_policy(spec.best_heuristic, spec.policies, spec.id)
    ids = np.full(players, best.policy.id, dtype=np.int64)
    params = np.stack([best.row()] * players)
    return best, hooks.bank(rules, players, ids, params, positions, BANK_SEED)


def measure(game: str, players: int, positions: int) -> dict[str, Any]:
    """The figures of one game at one player count (see the module docstring)."""
    from analyses.stats import proportion
    from simulator.runs.plan import plan_run

    spec, hooks = _search_game(game)
    start = time.perf_counter()
    config = plan_run(game, 1, players=players, policies=["mcts"])  # fits the evaluation
    fit_seconds = time.perf_counter() - start
    search = config.seats[0]
    best, bank = _bank(spec, hooks, config.rules, players, positions)
    hooks.decide(config.rules, bank[0], search.policy.id, search.row(), 0)  # compile or load
    start = time.perf_counter()
    same = sum(
        hooks.decide(config.rules, d, search.policy.id, search.row(), 1)
        == hooks.decide(config.rules, d, search.policy.id, search.row(), 2)
        for d in bank
    )
    seconds = time.perf_counter() - start
    reference = sum(
        hooks.decide(config.rules, d, best.policy.id, best.row(), 1)
        == hooks.decide(config.rules, d, best.policy.id, best.row(), 2)
        for d in bank
    )
    return {
        "game": game,
        "players": players,
        "positions": len(bank),
        "agreement": proportion(same, len(bank)).as_dict(),
        "reference_agreement": proportion(reference, len(bank)).as_dict(),
        "reference": spec.best_heuristic,
        "search": search.label,
        "seconds_per_decision": seconds / (2 * len(bank)),
        "fit_seconds": fit_seconds,
        "evaluation": None if config.evaluation is None else config.evaluation.describe(),
    }


def against_playouts(game: str, players: int, positions: int, scale: float) -> dict[str, Any]:
    """The evaluation's root choice against full playouts' (see the module docstring)."""
    from analyses.stats import proportion
    from simulator.contract.policy import parse_policy
    from simulator.runs.plan import plan_run

    spec, hooks = _search_game(game)
    default = parse_policy("mcts", spec.policies, spec.id)
    values = {p.name: v for p, v in zip(default.policy.params, default.values, strict=True)}
    row: dict[str, Any] = {"game": game, "players": players, "horizon": values["horizon"]}
    if values["horizon"] == 0:
        return row | {"positions": 0, "note": "the default search plays every simulation out"}
    playouts = max(1, round(values["playouts"] * scale))
    scored = plan_run(game, 1, players=players, policies=[f"mcts:playouts={playouts}"])
    full = plan_run(game, 1, players=players, policies=[f"mcts:playouts={playouts},horizon=0"])
    _, bank = _bank(spec, hooks, scored.rules, players, positions)
    a, b = scored.seats[0], full.seats[0]
    start = time.perf_counter()
    same = ceiling = 0
    for d in bank:
        chosen = hooks.decide(scored.rules, d, a.policy.id, a.row(), 1)
        reference = hooks.decide(full.rules, d, b.policy.id, b.row(), 1)
        same += chosen == reference
        ceiling += reference == hooks.decide(full.rules, d, b.policy.id, b.row(), 2)
    return row | {
        "positions": len(bank),
        "playouts": playouts,
        "playout_agreement": proportion(same, len(bank)).as_dict(),
        "playout_self_agreement": proportion(ceiling, len(bank)).as_dict(),
        "seconds": time.perf_counter() - start,
    }


def playouts_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| game | players | positions | playouts | evaluation = full playouts (95% interval) "
        "| full playouts = themselves |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        if not r["positions"]:
            lines.append(f"| {r['game']} | {r['players']} | - | - | {r['note']} | - |")
            continue
        lines.append(
            f"| {r['game']} | {r['players']} | {r['positions']} | {r['playouts']} | "
            f"{_share(r['playout_agreement'])} | {_share(r['playout_self_agreement'])} |"
        )
    return "\n".join(lines)


def _share(e: dict[str, float]) -> str:
    return f"{e['value']:.0%} [{e['lo']:.0%}, {e['hi']:.0%}]"


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| game | players | positions | agreement (95% interval) | reference agreement "
        "| s/decision |"
    )
    lines = [head, "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['players']} | {r['positions']} | {_share(r['agreement'])} | "
            f"{r['reference_agreement']['value']:.0%} ({r['reference']}) | "
            f"{r['seconds_per_decision']:.2f} |"
        )
    return "\n".join(lines)
