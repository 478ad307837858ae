"""Rungs of a skill ladder: policies named once each, from ``random`` to the search player.

Shared by ``balance skill`` (:mod:`simulator.studies.skill`) and ``balance compare --ladder``
(:func:`simulator.studies.compare.ladder_plans`).
"""

from __future__ import annotations

from simulator.contract.errors import BalanceError
from simulator.contract.registry import GameSpec
from simulator.contract.rules import RuleSet
from simulator.runs.plan import plan_run
from simulator.runs.requests import PlayRequest

SEARCH_RUNGS = (4, 1)  # the searching policy's budgets: its default divided by these
CHUNKS_PER_RUN = 32


def ladder_chunk_size(games: int) -> int:
    """About 32 chunks per run whatever its size: a rung's games may each cost seconds of
    search, so a run of a few hundred must still spread over every core (or cluster worker).
    One size for every run of a ladder keeps game ``i``'s seed the same in all of them."""
    return max(1, -(-games // CHUNKS_PER_RUN))


def split_rungs(text: str) -> list[str]:
    """``random,lookahead,mcts:playouts=100,explore=0.5`` -> one policy text per rung.

    Commas separate rungs and also a policy's parameters; an item that is ``key=value`` without
    a policy name belongs to the rung before it."""
    rungs: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and rungs:
            rungs[-1] += "," + item
        elif "=" in item and ":" not in item:
            raise BalanceError(f"rung {item!r} is a parameter without a policy before it")
        else:
            rungs.append(item)
    return rungs


def default_rungs(spec: GameSpec) -> list[str]:
    """``random``, every hand-written policy the game plays, then the searching policy (the
    game's ``budget_rung``) at two budgets."""
    budget = spec.budget_rung
    searcher = budget[0] if budget else "mcts"
    rungs = ["random"] + [
        p for p in spec.policies if p not in ("random", searcher) and not spec.refusal(p)
    ]
    if budget and not spec.refusal(budget[0]):
        policy, name = budget
        param = next(p for p in spec.policies[policy].params if p.name == name)
        default = int(param.default)
        rungs += [f"{policy}:{name}={max(1, default // k)}" for k in SEARCH_RUNGS]
    return rungs


def rung_labels(request: PlayRequest, rungs: list[str], rules: RuleSet | None = None) -> list[str]:
    """Each rung's canonical label under the request's game, players and rules (or ``rules``);
    refuses unknown policies, bad parameters and repeats."""
    if len(rungs) < 2:
        raise BalanceError("a ladder needs at least two rungs, e.g. random,lookahead")
    labels = []
    for rung in rungs:
        config = plan_run(request.but(games=1, policies=[rung], seed=0), rules=rules)
        label = config.policy_labels[0]
        if label in labels:
            raise BalanceError(f"rung {rung!r} is the rung {label!r} again; give each rung once")
        labels.append(label)
    return labels
