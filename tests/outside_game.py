"""A known-answer game that takes outside policies (``--policy-file``), for the loader's tests.

One decision, ``weight(prm, seat) -> float``: seat ``s`` wins a game with probability
proportional to its weight (built-in ``random``: 1; ``strong``: 1 + skill).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types

from simulator.contract.policy import OUTSIDE, Decision, OutsideDecisions, PolicyDef, PolicyParam
from simulator.contract.registry import GameSpec
from simulator.contract.rules import RuleSet, option


@dataclass(frozen=True)
class OutsideRules(RuleSet):
    game_id = "outside-fake"
    draw: float = option(0.0, "probability nobody wins", "test", lo=0.0, hi=1.0)


POLICIES = {
    "random": PolicyDef("random", 0, "weight 1"),
    "strong": PolicyDef(
        "strong", 1, "weight 1 + skill", (PolicyParam("skill", 1.0, 0.0, 10.0, "extra weight"),)
    ),
}


def _weight(prm, seat):
    return 1.0


OUTSIDE_DECISIONS = OutsideDecisions(
    (
        Decision(
            "weight",
            ("prm", "seat"),
            types.float64(types.float64[::1], types.int64),
            _weight,
            "the seat's weight",
        ),
    ),
    "tests/outside_game.py",
)


@njit(cache=True)
def _play(draw, n_players, pids, prm, seeds, ext=None):
    n = seeds.shape[0]
    winner = np.full(n, -1, np.int64)
    scores = np.zeros((n, n_players), np.int64)
    weights = np.ones(n_players)
    for g in range(n):
        np.random.seed(seeds[g])
        for s in range(n_players):
            if ext is not None and pids[s] >= OUTSIDE:
                weights[s] = ext[0][pids[s] - OUTSIDE](prm[s], s)
            elif pids[s] == 1:
                weights[s] = 1.0 + prm[s, 0]
            if weights[s] < 0:
                raise ValueError("a seat's weight is negative")
        if np.random.random() < draw:
            continue
        cum = np.cumsum(weights / weights.sum())
        u = np.random.random()
        w = 0
        while w < n_players - 1 and u > cum[w]:
            w += 1
        winner[g] = w
        scores[g, w] = 1
    return winner, scores


def play_chunk(rules, n_players, policy_ids, policy_params, seeds, outside=None):
    winner, scores = _play(rules.draw, n_players, policy_ids, policy_params, seeds, outside)
    n = len(seeds)
    return {
        "winner": winner,
        "length": np.full(n, 10, np.int64),
        "end_reason": (winner < 0).astype(np.int64),
        "scores": scores,
        "lead_changes": np.zeros(n, np.int64),
        "half_leader": winner,
    }


SPEC = GameSpec(
    id="outside-fake",
    title="Known-answer game with outside policies",
    min_players=2,
    max_players=4,
    default_players=2,
    cooperative=False,
    length_unit="rounds",
    end_reasons=("won", "drawn"),
    rules_class=OutsideRules,
    policies=POLICIES,
    default_policy="random",
    play_chunk=play_chunk,
    outside=OUTSIDE_DECISIONS,
)
