"""The built-in runner policy of Pirateer copied into a policy file: plays game for game as the
built-in one (tests/test_policy_file_games.py) and measures the cost of the first-class function
path (benchmarks/policy_file.py)."""

import numpy as np

from policies import pirateer as P
from simulator.games.pirateer import turn
from simulator.runs.policy_file import Policy


def move(prm, r, ships, owner, occ, g, p, moves, n):
    if n == 1:
        return np.random.randint(0, n)  # as the built-in: the draw keeps the games in step
    undo = np.zeros((2, 3), dtype=np.int64)
    best = 0
    best_score = -np.inf
    ties = 0
    for i in range(n):
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
        v = P.runner_score(r, ships, owner, g, p)
        turn.unmake_move(ships, occ, g, moves[i], undo, k)
        if v > best_score + 1e-9:
            best_score = v
            best = i
            ties = 1
        elif v > best_score - 1e-9:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best = i
    return best


POLICIES = [Policy("runner_copy", "the built-in runner, from a file", move=move)]
