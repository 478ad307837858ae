"""Caza-Tesoros's own command: `balance search-odds` (declared by its spec)."""

from __future__ import annotations

from typing import Annotated

import typer

from simulator.cli.options import SetOpt, VariantOpt, print_json


def search_odds(
    level: Annotated[int | None, typer.Option("--level", help="Search level: 1 or 2.")] = None,
    dice: Annotated[
        int | None, typer.Option("--dice", help="Dice per throw (level 1: 1+, level 2: 2+).")
    ] = None,
    rerolls: Annotated[
        int | None, typer.Option("--rerolls", help="Failed throws that may be thrown again.")
    ] = None,
    marking: Annotated[
        str | None, typer.Option("--marking", help="all (every new value) or one.")
    ] = None,
    trials: Annotated[int, typer.Option("--trials", help="Simulated searches per row.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Simulation seed.")] = 0,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    economics: Annotated[
        bool, typer.Option("--economics", help="Also print VP per treasure by equipment.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """Caza-Tesoros: exact and simulated chance that a treasure search succeeds.

    Default rows: level 1 with 1-3 dice, level 2 with 2-4 dice, rerolls 0 and 1, both markings.
    `exact` is the rule in force, which the simulation plays; with marking one the best choice
    (`exact_optimal`) and the greedy rule (`exact_greedy`) are both shown: pick the one played
    with --set marking_choice=greedy. Level 2 pairs come from the rules (level2_combinations);
    --set and --variant change them.
    """
    from analyses.caza_tesoros_search_odds import run_search_odds

    result = run_search_odds(
        level, dice, rerolls, marking, trials=trials, seed=seed, sets=set_, variant=variant
    )
    if as_json:
        print_json([row.as_json() for row in result.rows])
        return
    from rich.console import Console

    console = Console(width=160)
    console.print(result.table())
    if economics:
        console.print(result.economics_table())
