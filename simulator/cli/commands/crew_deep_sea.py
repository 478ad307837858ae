"""The Crew's own command: `balance crew-audit` (declared by its spec): missions 1-32 played
into one run folder each, then the success and task-difficulty tables of :mod:`analyses.crew`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import polars as pl
import typer

from analyses.crew import (
    campaign,
    ceiling_summary,
    difficulty_audit,
    flagged_under_both,
    load_games,
    success_by_mission,
)
from simulator.cli.options import print_json
from simulator.contract.errors import BalanceError
from simulator.folders.run_folder import RunFolder
from simulator.games.crew_deep_sea.ceiling import DEFAULT_BUDGET, allocation_ceiling, ceiling
from simulator.games.crew_deep_sea.rules import Rules
from simulator.runs.runner import simulate


def crew_audit(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the 32 runs and tables.")],
    players: Annotated[int, typer.Option("--players", help="Crew size, 2 to 5 (2: dummy).")] = 4,
    policy: Annotated[str, typer.Option("--policy", "-p", help="Crew policy.")] = "heuristic",
    n: Annotated[int, typer.Option("-n", "--games", help="Attempts per mission.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes.")] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Dask scheduler address (tcp://host:8786): play the 32 runs' chunks there.",
        ),
    ] = None,
    confirm_with: Annotated[
        Path | None,
        typer.Option(
            "--confirm-with",
            help="Another audit's folder (e.g. under omniscient): also list the cards out "
            "of line in both audits.",
        ),
    ] = None,
    ceiling_deals: Annotated[
        int,
        typer.Option(
            "--ceiling-deals",
            help="Deals per mission (the run's first) the exact solver decides for the "
            "ceiling, the share a crew seeing every hand could win (0, the default, skips it; "
            "100 costs about 1-3 s a deal at 4 players on the harder missions).",
        ),
    ] = 0,
    ceiling_budget: Annotated[
        int,
        typer.Option(
            "--ceiling-budget", help="The solver's budget: cards tried per task allocation."
        ),
    ] = DEFAULT_BUDGET,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The Crew: Mission Deep Sea: success of missions 1-32 and the task-difficulty audit.

    Writes one run folder per mission, the audit tables (CSV) and OUT/report.html.
    Under `expert` (about 1 attempt/s per core) a full audit is a cluster job, e.g.
    `balance crew-audit -p omniscient -n 1000 -o audit-omni` then
    `balance crew-audit -p expert -n 1000 -o audit-expert --cluster tcp://HOST:8786
    --confirm-with audit-omni`.
    """
    from reports.build import write_report

    result = run_audit(
        players,
        policy,
        n,
        out,
        seed=seed,
        jobs=jobs,
        cluster=cluster,
        confirm_with=confirm_with,
        ceiling_deals=ceiling_deals,
        ceiling_budget=ceiling_budget,
    )
    result["report"] = write_report(result["runs"], out / "report.html")["report"]
    if as_json:
        print_json(result)
        return
    typer.echo(
        f"success by mission, {players} players, {policy}, {n:,} attempts each (95% interval):"
    )
    ceilings = {c["crew_mission"]: c for c in result["ceiling"]}
    for row in result["success"]:
        c = ceilings.get(row["crew_mission"])
        typer.echo(
            f"  mission {row['crew_mission']:2d}: {row['success_rate']['value']:6.1%} "
            f"[{row['success_rate']['lo']:.1%}, {row['success_rate']['hi']:.1%}]"
            + (f"  {_ceiling(c)}" if c else "")
        )
    if ceilings:
        typer.echo(
            f"ceiling: share of the first {ceiling_deals} deals a crew seeing every hand can "
            f"win, proven by the exact solver ({ceiling_budget:,} cards per allocation; "
            "'exact' counts the deals it decided), and how often the tasks where this crew "
            "put them could be done (distress passes not replayed)"
        )
    for row in result["campaign"]:
        never = row["missions_never_won"]
        typer.echo(
            f"expected attempts for the logbook: {row['logbook_expected_attempts']:,.0f}"
            + (f" ({never} missions never won, left out)" if never else "")
        )
    flagged = result.get(f"flagged_tasks_{players}p", [])
    if flagged:
        typer.echo("task cards whose printed difficulty is most out of line:")
    for row in flagged:
        typer.echo(
            f"  task {row['task']:2d} {row['key']}: printed {row['printed']}, "
            f"{_simulated(row)} (z {row['z']:+.1f})"
        )
    both = result.get(f"flagged_both_{players}p")
    if both is not None:
        typer.echo(f"out of line under both {policy} and {confirm_with} (|z| >= 3):")
        for row in both or [{"task": None}]:
            if row["task"] is None:
                typer.echo("  none")
                continue
            typer.echo(
                f"  task {row['task']:2d} {row['key']}: printed {row['printed']}, "
                f"{_simulated(row)} (z {row['z']:+.1f}, {row['z_right']:+.1f})"
            )
    typer.echo(f"tables: {out}/success_by_mission.csv, {out}/task_audit_{players}p.csv")
    typer.echo(f"report: {result['report']}")


def _ceiling(c: dict) -> str:
    e = c["ceiling"]
    return (
        f"ceiling {e['value']:.1%} [{e['lo']:.1%}, {e['hi']:.1%}] "
        f"(exact {c['exact']}/{c['deals']}; this crew {c['crew_success']:.1%} on them"
        + _own_allocation(c.get("own_allocation"))
        + ")"
    )


def _own_allocation(own: dict | None) -> str:
    """How winnable the tasks the crew took were, and how much of that it won."""
    if not own:
        return ""
    won = own["crew_success_on_winnable"]
    return f"; its own tasks proven winnable {own['ceiling']['value']:.1%}" + (
        f", of which it completes {won:.1%}" if won is not None else ""
    )


def _simulated(row: dict) -> str:
    """A card's simulated difficulty on the printed scale with its 95% interval; a card easier
    than the scale's zero shows as 0, the floor, since a difficulty is not negative."""
    units = row["empirical_in_printed_units"]
    if not isinstance(units, dict):  # a --confirm-with audit from an earlier version
        return f"simulated {max(units, 0.0):.1f}"
    value, high = max(units["value"], 0.0), units["hi"]
    if row["below_scale"]:
        return f"simulated 0, easier than the printed scale goes (95% interval up to {high:.1f})"
    return f"simulated {value:.1f} [{units['lo']:.1f}, {high:.1f}]"


# The tables' estimates as CSV columns (figure, low end, high end of its 95% interval).
ESTIMATE_COLUMNS = [
    ("success_rate", "ci_low", "ci_high"),
    ("empirical_logodds", "ci_low", "ci_high"),
    ("empirical_in_printed_units", "printed_units_low", "printed_units_high"),
]


def json_rows(table: pl.DataFrame) -> list[dict[str, Any]]:
    """A table's rows for JSON: each estimate written {"value", "lo", "hi"} in its figure's
    place, as everywhere else (the CSV keeps a column for each end of the interval)."""
    rows = table.to_dicts()
    for row in rows:
        for suffix in ("", "_right"):  # _right: the other audit's, in `flagged_under_both`
            for columns in ESTIMATE_COLUMNS:
                value, lo, hi = (c + suffix for c in columns)
                if value in row and lo in row and hi in row:
                    row[value] = {"value": row[value], "lo": row.pop(lo), "hi": row.pop(hi)}
    return rows


def run_audit(
    players: int,
    policy: str,
    games: int,
    out: str | Path,
    seed: int = 0,
    jobs: int | None = None,
    cluster: str | None = None,
    confirm_with: str | Path | None = None,
    ceiling_deals: int = 0,
    ceiling_budget: int = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """Simulate missions 1-32 (``games`` attempts each) into ``out`` and audit them. With
    ``confirm_with`` (another audit's folder, e.g. under `omniscient`), also list the cards out
    of line in both (`flagged_under_both`): those are the cards' own, not one crew's. With
    ``ceiling_deals``, the exact solver decides each mission's first deals (`ceiling_of_run`)."""
    if ceiling_deals < 0 or ceiling_budget < 1:
        raise BalanceError(
            f"--ceiling-deals must be 0 or more and --ceiling-budget 1 or more, not "
            f"{ceiling_deals} and {ceiling_budget}"
        )
    if confirm_with is not None:
        other = Path(confirm_with) / f"task_audit_{players}p.csv"
        if not other.is_file():
            raise BalanceError(
                f"--confirm-with: {str(other)!r} not found (run crew-audit there with "
                f"--players {players} first)"
            )
    out = Path(out)
    paths = [
        simulate(
            "crew-deep-sea",
            games,
            out / f"mission-{m:02d}",
            players=players,
            policies=[policy],
            seed=seed,
            sets={"mission": m},
            jobs=jobs,
            cluster=cluster,
        )
        for m in range(1, 33)
    ]
    data = load_games(paths)
    table = success_by_mission(data)
    audit = difficulty_audit(data)
    table.write_csv(out / "success_by_mission.csv")
    result: dict[str, Any] = {
        "players": players,
        "policy": policy,
        "attempts_per_mission": games,
        "runs": [str(p) for p in paths],
        "success": json_rows(table),
        "campaign": campaign(table).to_dicts(),
        "ceiling": [
            ceiling_of_run(path, m, players, ceiling_deals, ceiling_budget)
            for m, path in enumerate(paths, start=1)
        ]
        if ceiling_deals > 0
        else [],
    }
    if result["ceiling"]:
        (out / "ceiling_by_mission.json").write_text(json.dumps(result["ceiling"], indent=1))
    for n, a in audit.items():
        a["cards"].write_csv(out / f"task_audit_{n}p.csv")
        result[f"flagged_tasks_{n}p"] = json_rows(a["flagged"])
        result[f"mission_targets_{n}p"] = a["missions"].to_dicts()
        result[f"slope_{n}p"] = a["slope_logodds_per_point"]
        if confirm_with is not None:
            other = pl.read_csv(Path(confirm_with) / f"task_audit_{n}p.csv")
            both = flagged_under_both(a["cards"], other)
            both.write_csv(out / f"flagged_both_{n}p.csv")
            result[f"flagged_both_{n}p"] = json_rows(both)
    return result


def ceiling_of_run(path: str | Path, mission: int, players: int, deals: int, budget: int) -> dict:
    """The exact solver's ceiling on the first ``deals`` deals of one mission's run (its own
    per-game seeds), beside the run's crew on those same deals, and the solver's verdict on
    the allocation that crew chose (``own_allocation``; with the crew's success on the deals
    proven winnable with it); also written into the run folder as ceiling.json, where the
    report finds it."""
    columns = ("game_index", "seed", "success", "crew_tasks", "crew_task_holders")
    games = RunFolder.open(path).scan().select(*columns).collect()
    first = games.sort("game_index").head(deals)
    seeds = first["seed"].to_numpy().astype(np.uint32)
    rules = Rules().with_values({"mission": mission})
    out = ceiling(rules, players, seeds, budget)
    row = {"crew_mission": mission, "n_players": players}
    row |= ceiling_summary(out["verdict"], budget, out["seconds"])
    row["crew_success"] = float(first["success"].mean())
    tasks = np.array(first["crew_tasks"].to_list(), np.int64)
    holders = np.array(first["crew_task_holders"].to_list(), np.int64)
    try:
        own = allocation_ceiling(rules, players, seeds, tasks, holders, budget)["verdict"]
    except ValueError as e:
        raise BalanceError(f"{path}: {e}") from None
    row["own_allocation"] = ceiling_summary(own, budget)
    won = first["success"].to_numpy()[own == 1]
    row["own_allocation"]["crew_success_on_winnable"] = float(won.mean()) if len(won) else None
    (Path(path) / "ceiling.json").write_text(json.dumps(row, indent=1))
    return row
