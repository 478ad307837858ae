"""The logbook as one game (rule `campaign`): missions in order, each attempted until it succeeds.

What carries over between attempts (reference notes §1):
- *Used task cards* leave the deck ("used tasks go out of the deck until it runs low"): every
  card drawn for an attempt, won or lost, goes to a used pile; the next draws come from the rest,
  and when the rest cannot make a mission's difficulty exactly the used pile is shuffled back in
  (the engine does that inside the draw). Mission 32's printed tasks are not drawn.
  (`campaign_used_tasks=reshuffle`: every attempt draws from all 96.)
- *The distress signal* stays active for the later attempts of the mission where it was called
  and adds one attempt, once, when it is turned over; each later attempt the crew may pass
  again, its policy's call at no further cost (`campaign_distress_again=must`: it always
  passes).

A game's `length` is its attempts; `crew_campaign_attempts` says where they went. A mission not
won within `campaign_attempt_cap` attempts ends the game (end reason `attempt_cap`). Each attempt
is seeded from the game's seed, so a campaign replays alone from its seed.
"""

from __future__ import annotations

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.recording import no_recording

from . import record as R
from .board import task_table
from .engine import (
    M,
    engine_inputs,
    play_attempt_chunk,
    play_attempts,
    searches,
)
from .verdicts import END_ATTEMPT_CAP, END_SUCCESS

LOGBOOK = 32


def _inputs(rules, n_players: int) -> dict[tuple[int, bool], object]:
    """Engine inputs per mission, without and with an active distress signal."""
    out = {}
    for m in range(rules.mission, rules.campaign_last + 1):
        plain = rules.with_values({"mission": m, "campaign": False})
        out[m, False] = engine_inputs(plain, n_players)
        if rules.distress == "never" or rules.campaign_distress_again == "may":
            active = plain  # the crew decides again whether to pass (the policy's call)
        else:
            active = plain.with_values({"distress": "always"})
        out[m, True] = engine_inputs(active, n_players)
    return out


def play_chunk(
    rules, n_players, policy_ids, policy_params, seeds, rec=None, rec_n=None, outside=None
) -> dict[str, np.ndarray]:
    """The engine contract of simulator/contract/registry.py: one attempt per game, or (rule
    `campaign`) the logbook as one game."""
    if not rules.campaign:
        return play_attempt_chunk(
            rules, n_players, policy_ids, policy_params, seeds, rec, rec_n, outside
        )
    if rec is not None and len(rec):
        raise BalanceError(
            "a campaign is not replayed as a whole: replay one of its missions with "
            "--set campaign=false --set mission=N"
        )
    return play_campaign_chunk(rules, n_players, policy_ids, policy_params, seeds, outside)


def play_campaign_chunk(
    rules, n_players, policy_ids, policy_params, seeds, outside=None
) -> dict[str, np.ndarray]:
    ids = np.asarray(policy_ids, np.int64)
    prm = np.asarray(policy_params, np.float64)
    searching = searches(ids)
    table = task_table(rules)
    inputs = _inputs(rules, n_players)
    n = len(seeds)
    success = np.zeros(n, np.bool_)
    length = np.zeros(n, np.int64)
    reason = np.zeros(n, np.int64)
    per_mission = np.full((n, LOGBOOK), -1, np.int64)
    distress = np.zeros(n, np.bool_)
    redraws = np.zeros(n, np.int64)
    nodes = np.zeros(n, np.int64)
    for g, seed in enumerate(np.asarray(seeds, np.uint32)):
        rng = np.random.Generator(np.random.PCG64(int(seed)))
        used = np.zeros(table.ctype.shape[0], np.int64)
        reason[g] = END_SUCCESS
        for m in range(rules.mission, rules.campaign_last + 1):
            active = False
            attempts = 0
            won = False
            while not won and attempts < rules.campaign_attempt_cap:
                inp = inputs[m, active]
                attempt_seed = np.array([rng.integers(2**32)], np.uint32)
                out = play_attempts(
                    n_players, inp, ids, prm, attempt_seed, *no_recording(R.EVENT_WIDTH), used,
                    outside, searching,
                )  # fmt: skip
                attempts += 1
                if out[7][0] and not active:  # the signal is turned over: one more attempt
                    attempts += 1
                    active = True
                    distress[g] = True
                if inp.mcfg[M.n_fixed] == 0 and rules.campaign_used_tasks == "leave_deck":
                    # drawn (not printed) tasks go to the used pile
                    drawn = out[4][0]
                    used[drawn[drawn > 0] - 1] = 1
                redraws[g] += out[8][0]
                nodes[g] += out[11][0]
                won = bool(out[0][0])
            per_mission[g, m - 1] = attempts
            length[g] += attempts
            if not won:
                reason[g] = END_ATTEMPT_CAP
                break
        success[g] = reason[g] == END_SUCCESS
    return {
        "winner": np.full(n, -1, np.int64),
        "success": success,
        "length": length,
        "end_reason": reason,
        "scores": np.zeros((n, n_players), np.int64),
        "crew_mission": np.full(n, rules.mission, np.int64),
        "crew_tasks": np.full((n, 1), -1, np.int64),
        "crew_task_holders": np.full((n, 1), -1, np.int64),
        "crew_task_done": np.full((n, 1), -1, np.int64),
        "crew_distress": distress,
        "crew_redraws": redraws,
        "crew_captain": np.full(n, -1, np.int64),
        "crew_comm_mode": np.full(n, -1, np.int64),
        "crew_search_nodes": nodes,
        "crew_campaign_attempts": per_mission,
    }
