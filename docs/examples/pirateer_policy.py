"""Two Pirateer policies of my own: copy this file, edit it, and play it with

    balance simulate pirateer --policy-file my_policies.py -p safe_runner -p runner \
        --players 2 -n 20000 --out runs/safe-runner

The decision, its arguments and what it returns: docs/policies.md, section Pirateer. The
function is compiled by numba (numbers and the numpy arrays you are given; no lists or dicts).
The position's layout is in simulator/games/pirateer/state.py, the rules that change it in turn.py:
``ships[s]`` is the cell of ship ``s`` (-1 once captured), ship ``s`` flies flag ``s // S.FLEET``,
sailed by seat ``owner[s // S.FLEET]``.
"""

import numpy as np

from policies import pirateer as P  # built-in scores and decisions, usable from yours
from simulator.contract.policy import PolicyParam
from simulator.games.pirateer import state as S
from simulator.games.pirateer import turn
from simulator.runs.policy_file import Policy

FEAR = 0  # parameter rows hold the values in the order declared below


# -- safe_runner: the runner, but it keeps its ships out of reach ----------------------------
def safe_move(prm, r, ships, owner, occ, g, p, moves, n):
    """The runner's score of each move, minus ``fear`` times the chance (exact, over the 36
    rolls) that each of its ships can be captured on an opponent's next turn."""
    undo = np.zeros((2, 3), dtype=np.int64)
    odds = np.zeros(S.N_SHIPS)
    best, best_value = 0, -np.inf
    for i in range(n):
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)  # try the move...
        value = P.runner_score(r, ships, owner, g, p)
        if value < P.WIN:
            for q in range(g[S.G_PLAYERS]):
                if q != p and S.count_alive(ships, owner, q) > 0:
                    turn.capture_odds(r, ships, owner, occ, g, q, p, odds)
                    value -= prm[FEAR] * odds.sum()
        turn.unmake_move(ships, occ, g, moves[i], undo, k)  # ... and take it back
        if value > best_value:
            best, best_value = i, value
    return best


# -- greedy_capture: any capture first, otherwise what the built-in hunter plays -----------------
def capture_move(prm, r, ships, owner, occ, g, p, moves, n):
    undo = np.zeros((2, 3), dtype=np.int64)
    before = P.count_ships(ships, owner, p, False)  # the opponents' ships on the board
    for i in range(n):
        k = turn.make_move(r, ships, owner, occ, g, moves[i], undo)
        captured = P.count_ships(ships, owner, p, False) < before
        turn.unmake_move(ships, occ, g, moves[i], undo, k)
        if captured:
            return i
    return P.decide_move(P.HUNTER, prm, r, ships, owner, occ, g, p, moves, n)


POLICIES = [
    Policy(
        "safe_runner",
        "races for the treasure like runner, keeping its ships out of the opponents' reach",
        params=(PolicyParam("fear", 2.0, 0.0, 20.0, "score points per ship-capture chance"),),
        move=safe_move,
    ),
    Policy(
        "greedy_capture",
        "captures whenever it can, otherwise plays as hunter",
        move=capture_move,
    ),
]
