"""The Crew's built-in policies as the toolkit lists them: ids, parameters and their positions.

``as_heuristic`` and ``heuristic_params`` give the heuristic's parameter row to the decisions
that another policy leaves to the heuristic (the searching crews' predictions and distress, the
omniscient crew's play).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.contract.policy import PolicyDef, PolicyParam

RANDOM, HEURISTIC, OMNISCIENT, EXPERT, SAMPLER = 0, 1, 2, 3, 4
EXPERT_PLAYOUTS = 192  # the expert's default budget: simulations per card decision


POLICIES = {
    "random": PolicyDef(
        "random",
        RANDOM,
        "random legal card, random task pick, never calls distress",
        (PolicyParam("communicate", 0.0, 0.0, 1.0, "chance to show a random legal card"),),
    ),
    "heuristic": PolicyDef(
        "heuristic",
        HEURISTIC,
        "cooperative card play from its own information: scores each card by who will win "
        "the trick (later players overtake when the crew gains or when forced), wins its task "
        "cards, plays under others', sluffs task cards to their owners, sheds what it must not "
        "win; takes tasks its hand fits, uses the sonar to guide the crew, calls distress",
        (
            PolicyParam("caution", 0.5, 0.0, 1.0, "0.5 weighs a later card winning by its chance"),
            PolicyParam("comm_threshold", 2.5, 0.0, 10.0, "relevance needed to use the sonar"),
            PolicyParam("distress_below", 0.12, 0.0, 1.0, "call distress if a task fits below"),
            PolicyParam("volunteer", 0.4, 0.0, 1.0, "mean task fit needed to volunteer"),
            PolicyParam("pass_below", 0.55, 0.0, 1.0, "pass a task pick (when allowed) below"),
            PolicyParam("done_early", 3.0, 0.0, 20.0, "value of completing a task at trick 1"),
            PolicyParam("done_late", 12.0, 0.0, 40.0, "value of completing it at the last trick"),
        ),
    ),
    "omniscient": PolicyDef(
        "omniscient",
        OMNISCIENT,
        "sees every hand and searches for a line that completes the mission (an upper bound), "
        "heuristic card first; without a line it plays heuristic and searches again every "
        "trick; every seat must use it",
        (
            PolicyParam(
                "nodes",
                20000.0,
                10.0,
                1e8,
                "search budget in cards tried per attempt",
                integer=True,
                log=True,
            ),
            PolicyParam("allocations", 4.0, 1.0, 64.0, "task allocations tried", integer=True),
        ),
    ),
    "expert": PolicyDef(
        "expert",
        EXPERT,
        "a crew whose members search from what each can know: before every simulation the "
        "cards it cannot see are dealt again consistently with the public information (cards "
        "played, shown voids, sonar cards and their claims, the dummy's face-up cards, task "
        "states); each simulation plays its candidate, then the heuristic crew, each member "
        "from its own hand of that deal, to the mission's end; sequential halving spreads the "
        "simulations over its legal cards, sonar choices (a card and claim, or none; a tie "
        "goes to the heuristic's sonar) and task choices; a deal where a partner's card of the "
        "current trick is not the heuristic's choice is mostly dealt again (`doubt`); "
        "predictions, distress and passes as heuristic",
        (
            PolicyParam(
                "playouts",
                EXPERT_PLAYOUTS,
                1.0,
                4096.0,
                "simulations per card decision",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "talk_playouts",
                EXPERT_PLAYOUTS // 2,
                0.0,
                4096.0,
                "simulations per sonar decision (0: use the sonar as the heuristic does)",
                integer=True,
            ),
            PolicyParam(
                "pick_samples",
                16.0,
                1.0,
                1024.0,
                "deals sampled per task choice, bid or volunteering (each candidate simulated "
                "on each)",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "progress",
                0.1,
                0.0,
                1.0,
                "credit of a failed simulation per share of the tasks it completed",
            ),
            PolicyParam(
                "doubt",
                0.25,
                0.0,
                1.0,
                "chance a sampled deal is kept where a partner's card of the current trick is "
                "not the one the heuristic would have played from its hand (1: no inference)",
            ),
            PolicyParam(
                "sees_hands",
                0.0,
                0.0,
                1.0,
                "a measuring instrument, not a fair player: 1 plays every card and sonar "
                "simulation on the true deal (task choice as usual), so the gap between 0 and "
                "1 is what hidden information costs this search",
                integer=True,
                instrument=True,
            ),
        ),
    ),
    "sampler": PolicyDef(
        "sampler",
        SAMPLER,
        "perfect-information Monte Carlo: at each card it samples deals consistent with the "
        "public information (cards played, shown voids, sonar cards, the dummy's face-up cards)"
        " and its own hand, solves each with the omniscient search and plays the card that "
        "completes the mission in most samples (a search out of nodes scores the best trick "
        "end it reached by the chance its pending tasks are kept), plus the heuristic "
        "crew's own playout of the sample; chooses tasks, bids and "
        "volunteers the same way (the others' picks completed as the heuristic's on each "
        "sample); talks and calls distress as heuristic, and reads other players' sonar cards "
        "into its samples",
        (
            PolicyParam(
                "samples",
                12.0,
                1.0,
                512.0,
                "deals sampled per card decision",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "nodes",
                3000.0,
                10.0,
                1e7,
                "search budget per card decision (cards)",
                integer=True,
                log=True,
            ),
            PolicyParam("comm_threshold", 2.5, 0.0, 10.0, "relevance needed to use the sonar"),
            PolicyParam(
                "pick_nodes",
                8000.0,
                10.0,
                1e7,
                "search budget per task choice or volunteering decision (cards)",
                integer=True,
                log=True,
            ),
            PolicyParam(
                "playout",
                1.0,
                0.0,
                4.0,
                "weight of the heuristic crew's own playout of each sample beside the search",
            ),
        ),
    ),
}


# Parameter positions by name, generated from the declarations above.
RANDOM_P = POLICIES["random"].slots


HEURISTIC_P = POLICIES["heuristic"].slots


OMNISCIENT_P = POLICIES["omniscient"].slots


EXPERT_P = POLICIES["expert"].slots


SAMPLER_P = POLICIES["sampler"].slots
HEURISTIC_DEFAULTS = tuple(p.default for p in POLICIES["heuristic"].params)


@njit(cache=True)
def as_heuristic(pid, prm):
    """The heuristic's id and parameters for the decisions the searching crews leave to it
    (defaults; the sampler with its own sonar threshold)."""
    if pid != EXPERT and pid != SAMPLER:
        return pid, prm
    row = np.zeros(prm.shape[0])
    for i in range(len(HEURISTIC_DEFAULTS)):
        row[i] = HEURISTIC_DEFAULTS[i]
    if pid == SAMPLER:
        row[HEURISTIC_P.comm_threshold] = prm[SAMPLER_P.comm_threshold]
    return HEURISTIC, row


@njit(cache=True)
def heuristic_params(width):
    """A parameter row holding the heuristic's defaults (the omniscient crew's own play)."""
    row = np.zeros(width)
    for i in range(len(HEURISTIC_DEFAULTS)):
        row[i] = HEURISTIC_DEFAULTS[i]
    return row
