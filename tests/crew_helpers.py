"""Hand-made Crew Deep Sea states for the rule tests."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import card, task_table

# The engine's ``searching`` switch, on: the decisions' expert and sampler branches compiled in.
SEARCH = np.ones(1, np.int64)


def make_state(hands: list[list[str]], captain: int | None = None) -> np.ndarray:
    """State with the given hands (card codes such as "P3", "S4"); captain = holder of S4."""
    owner = np.full(40, -1, np.int64)
    for p, hand in enumerate(hands):
        for code in hand:
            owner[card(code)] = p
    if captain is None:
        captain = int(owner[39])
    s = S.new_state(len(hands), owner, captain)
    i = min(max(len(hands), 3), 5) - 3
    s[S.S_SUM_ABOVE] = (23, 28, 31)[i]  # the rules' defaults
    s[S.S_SUM_BELOW] = (8, 12, 16)[i]
    return s


def deal_hands(n_players: int, seed: int) -> list[list[str]]:
    from simulator.games.crew_deep_sea.board import card_name

    order = np.random.default_rng(seed).permutation(40)
    hands: list[list[str]] = [[] for _ in range(n_players)]
    for i, c in enumerate(order):
        hands[i % n_players].append(card_name(int(c)))
    return hands


def add_task(s: np.ndarray, key: str, holder: int, x: int = -1) -> int:
    k = int(s[S.S_NTASKS])
    s[S.O_TASK + k] = task_table().row(key)
    s[S.O_HOLDER + k] = holder
    s[S.O_TSTATE + k] = S.PENDING
    s[S.O_TX + k] = x
    s[S.S_NTASKS] = k + 1
    return k


def play_trick(s: np.ndarray, codes: list[str]) -> int:
    """Play one trick from the current leader; each card must be legal. Returns the winner."""
    legal = np.empty(40, np.int64)
    for code in codes:
        p = S.current_player(s)
        c = card(code)
        n = turn.legal_cards(s, p, legal)
        assert c in legal[:n], f"{code} is not legal for player {p}"
        turn.play_card(s, p, c)
    return int(turn.finish_trick(s))


def task_state(s: np.ndarray, k: int = 0, public: bool = False) -> int:
    t = task_table()
    return int(verdicts.eval_task(s, k, t.ctype, t.params, public))


def dealt_with_tasks(
    seed: int, holders: list[int], x: int = -1
) -> tuple[np.ndarray, np.random.Generator, np.ndarray]:
    """Four hands dealt from ``seed`` and one drawn task a holder (-1: not taken yet), with
    prediction ``x``; returns the state, the generator that drew the tasks (for what the test
    draws next) and the tasks' rows."""
    s = make_state(deal_hands(4, seed))
    rng = np.random.default_rng(seed)
    table = task_table()
    rows = rng.choice(len(table.keys), size=len(holders), replace=False)
    for row, holder in zip(rows, holders, strict=True):
        add_task(s, table.keys[row], holder, x)
    return s, rng, rows


def permute_hidden(s: np.ndarray, viewer: int, rng: np.random.Generator) -> np.ndarray:
    """``s`` with the cards ``viewer`` cannot see dealt again among the same hands: every
    unplayed card of another member whose holder is not public (not shown by sonar)."""
    s2 = s.copy()
    hidden = [
        c
        for c in range(40)
        if s[S.O_OWNER + c] >= 0 and s[S.O_OWNER + c] != viewer and s[S.O_COMMBY + c] < 0
    ]
    owners = [int(s[S.O_OWNER + c]) for c in hidden]
    rng.shuffle(owners)
    for c, o in zip(hidden, owners, strict=True):
        s2[S.O_OWNER + c] = o
    return s2


@njit
def seed_rng(seed: int) -> None:
    """Seed numba's own generator (np.random.seed from Python seeds only NumPy's)."""
    np.random.seed(seed)
