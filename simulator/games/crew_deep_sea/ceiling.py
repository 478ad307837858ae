"""The crew's ceiling: on each deal, could a crew that sees every hand complete the mission?

Each attempt is set up exactly as the omniscient crew's (same seed, deal, tasks drawn, the
heuristic's allocation by the mission's rule first, then random allocations by the same rule,
predictions left free: the crew names the count its line takes), and
:func:`policies.crew_deep_sea.solve` decides each allocation within its node budget. A deal is
winnable when some allocation tried is, impossible when every allocation tried is proven
impossible, unknown otherwise. Communication is left out: it changes no legal card and no
task or rule verdict, only what members know, and this crew already knows every hand. The
distress pass (an option that changes hands) is left out too, as the omniscient crew leaves it.

:func:`allocation_ceiling` asks the same question of the allocation a crew actually chose (a
run's tasks and holders): could a crew seeing every hand complete the mission with the tasks
where that crew put them? What separates a crew from the ceiling is then split into the
allocation it chose and its play of that allocation.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from policies.crew_deep_sea import (
    HEURISTIC,
    IMPOSSIBLE,
    RANDOM,
    UNKNOWN,
    WINNABLE,
    heuristic_params,
    solve,
)

from .engine import allocate, engine_inputs, free_predictions, setup_attempt
from .state import MAX_TASKS, O_HOLDER, O_TASK, S_NTASKS, State

DEFAULT_BUDGET = 200_000  # cards tried per allocation
DEFAULT_ALLOCATIONS = 4  # as the omniscient crew


@njit(cache=True)
def ceiling_attempts(n_players, m, n_params, seeds, budget, allocations):
    """Per seed: (verdict, cards tried over every allocation, allocation index that won or -1)."""
    ttype, tparams = m.ttype, m.tparams
    n_games = seeds.shape[0]
    verdict = np.full(n_games, UNKNOWN, np.int64)
    nodes = np.zeros(n_games, np.int64)
    winning = np.full(n_games, -1, np.int64)
    rows = np.empty(MAX_TASKS, np.int64)
    seats = 3 if n_players == 2 else n_players  # the 2-player dummy is a third seat
    heuristic_ids = np.full(seats, HEURISTIC, np.int64)
    random_ids = np.full(seats, RANDOM, np.int64)
    params = np.empty((seats, n_params))
    for p in range(seats):
        params[p] = heuristic_params(n_params)
    for g in range(n_games):
        np.random.seed(seeds[g])
        first, _ = setup_attempt(n_players, m, rows)
        proven = 0
        for a in range(allocations):
            trial = first.copy()
            allocate(
                State(trial, ttype, tparams), m, heuristic_ids if a == 0 else random_ids, params
            )
            free_predictions(trial, ttype)
            v, used = solve(trial, ttype, tparams, budget)
            nodes[g] += used
            if v == WINNABLE:
                verdict[g] = WINNABLE
                winning[g] = a
                break
            if v == IMPOSSIBLE:
                proven += 1
        if verdict[g] != WINNABLE and proven == allocations:
            verdict[g] = IMPOSSIBLE
    return verdict, nodes, winning


@njit(cache=True)
def allocation_attempts(n_players, m, seeds, tasks, holders, budget):
    """Per seed: (verdict, cards tried) of the solver on the deal with the tasks held as
    ``holders[g]`` says (``tasks[g]``: task ids, 1-based, in draw order, as a run records
    them). Returns verdict -2 where the seed's draw is not ``tasks[g]``."""
    ttype, tparams = m.ttype, m.tparams
    n_games = seeds.shape[0]
    verdict = np.full(n_games, UNKNOWN, np.int64)
    nodes = np.zeros(n_games, np.int64)
    rows = np.empty(MAX_TASKS, np.int64)
    for g in range(n_games):
        np.random.seed(seeds[g])
        s, _ = setup_attempt(n_players, m, rows)
        same = True
        for k in range(s[S_NTASKS]):
            same = same and k < tasks.shape[1] and tasks[g, k] == s[O_TASK + k] + 1
            if same:
                s[O_HOLDER + k] = holders[g, k]
        if not same:
            verdict[g] = -2
            continue
        free_predictions(s, ttype)
        verdict[g], nodes[g] = solve(s, ttype, tparams, budget)
    return verdict, nodes


def allocation_ceiling(
    rules,
    n_players: int,
    seeds: np.ndarray,
    tasks: np.ndarray,
    holders: np.ndarray,
    budget: int = DEFAULT_BUDGET,
) -> dict[str, np.ndarray]:
    """The solver's verdict on each deal with the allocation a run recorded (its `seed`,
    `crew_tasks` and `crew_task_holders` columns, one row per game): ``verdict`` (1 winnable,
    0 impossible, -1 unknown) and ``nodes``. Hands are as dealt: a distress pass the crew made
    is not replayed. Raises ValueError when a seed's task draw is not the recorded one (another
    mission or rules)."""
    m = engine_inputs(rules, n_players)
    tasks = np.asarray(tasks, np.int64)
    verdict, nodes = allocation_attempts(
        n_players, m, np.asarray(seeds, np.uint32), tasks, np.asarray(holders, np.int64),
        int(budget),
    )  # fmt: skip
    if (verdict == -2).any():
        raise ValueError("a recorded allocation is not the task draw of its seed: other rules?")
    return {"verdict": verdict, "nodes": nodes}


def ceiling(
    rules,
    n_players: int,
    seeds: np.ndarray,
    budget: int = DEFAULT_BUDGET,
    allocations: int = DEFAULT_ALLOCATIONS,
) -> dict[str, np.ndarray]:
    """The solver's verdict on each seed's deal of the mission in ``rules``: ``verdict`` (1
    winnable, 0 impossible, -1 unknown: more than ``budget`` cards tried on some allocation),
    ``nodes`` (cards tried), ``allocation`` (which allocation won, -1 none) and ``seconds``."""
    from simulator.contract.policy import MAX_PARAMS

    m = engine_inputs(rules, n_players)
    seeds = np.asarray(seeds, np.uint32)
    out = {k: np.zeros(len(seeds), np.int64) for k in ("verdict", "nodes", "allocation")}
    out["seconds"] = np.zeros(len(seeds))
    for i in range(len(seeds)):
        start = time.perf_counter()
        v, n, a = ceiling_attempts(
            n_players, m, MAX_PARAMS, seeds[i : i + 1], int(budget), int(allocations)
        )
        out["seconds"][i] = time.perf_counter() - start
        out["verdict"][i], out["nodes"][i], out["allocation"][i] = v[0], n[0], a[0]
    return out


__all__ = [
    "IMPOSSIBLE",
    "UNKNOWN",
    "WINNABLE",
    "allocation_attempts",
    "allocation_ceiling",
    "ceiling",
    "ceiling_attempts",
]
