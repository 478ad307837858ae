"""The ``balance`` command line: thin, parses options and delegates to the packages.

Bad input ends in one line on stderr naming the problem and exit code 2 (never a traceback).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from simulator.cli import options as opt
from simulator.cli.app import App
from simulator.cli.commands.check_game import check_game
from simulator.cli.options import REPORT_FORMATS, print_json
from simulator.contract.errors import BalanceError
from simulator.contract.registry import game_command_summaries, game_commands
from simulator.runs.requests import Execution, PlayRequest

app = App(
    late_commands=game_commands,
    late_summaries=game_command_summaries,
    help="Monte Carlo balance analysis for tabletop games.\n\n"
    "Typical session: `balance games` to see what is there, `balance rules GAME` for the options a "
    "variant can change, `balance simulate GAME -n 100000 --out runs/base` to play, then "
    "`balance report runs/base`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


app.command("check-game")(check_game)


# -- the request, built once from a command's options ------------------------------------------
# Every command names these options alike (the parameter names): option -> PlayRequest field.
_REQUEST_FIELDS = {"game": "game", "n": "games", "players": "players", "policy": "policies",
                   "seed": "seed", "set_": "sets", "variant": "variant",
                   "policy_file": "policy_file", "data": "data"}  # fmt: skip


def _what(ctx: typer.Context, **fixed: Any) -> PlayRequest:
    """What to play, from the command's options (those of ``_REQUEST_FIELDS`` it has) and
    ``fixed`` fields (an option of the same name meaning something else: ``None``)."""
    given = {f: ctx.params[o] for o, f in _REQUEST_FIELDS.items() if o in ctx.params}
    # A repeatable option given no time arrives as (): the command itself sees None.
    given = {f: (list(v) or None) if isinstance(v, tuple | list) else v for f, v in given.items()}
    return PlayRequest(**(given | fixed))


def _how(ctx: typer.Context) -> Execution:
    """How to play it: --jobs, --cluster, --wait, and a progress bar unless --quiet or --json."""
    p = ctx.params
    progress = not p.get("quiet", False) and not p.get("as_json", False)
    return Execution(p.get("jobs"), p.get("cluster"), progress, p.get("wait", False))


# -- games -----------------------------------------------------------------------------------
@app.command()
def games(
    as_json: opt.GamesJsonOpt = False,
) -> None:
    """List the games: player range, policies and the unit of game length."""
    from simulator.contract.registry import available, get_game

    specs = [get_game(g).summary() for g in available()]
    if as_json:
        print_json(specs)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("game", "title", "players", "kind", "length in", "policies")
    for s in specs:
        table.add_row(
            s["id"],
            s["title"],
            "{}-{}".format(*s["players"]),
            "cooperative" if s["cooperative"] else "competitive",
            s["length_unit"],
            ", ".join(s["policies"]),
        )
    Console(width=120).print(table)


# -- data ------------------------------------------------------------------------------------
@app.command()
def data(
    game: opt.GameArg,
    name: opt.DataNameArg = None,
    export: opt.DataExportOpt = None,
    as_json: opt.DataJsonOpt = False,
) -> None:
    """List GAME's data files (boards, decks): what each holds, its format, exact or a
    reconstruction, and where its fields are documented.

    Replace one for a run with `--data NAME=FILE` (simulate, compare, sweep, tournament, tune,
    skill, board, replay) or a variant file's [data] table (paths relative to the TOML file):

        name = "my deck"

        [data]

        cards = "my_cards.csv"

    Start from the shipped file: balance data GAME NAME --export my_file
    """
    from simulator.contract.game_data import declared, export_shipped
    from simulator.contract.registry import get_game

    spec = get_game(game)
    files = spec.rules_class.data_files
    if name is None:
        if export is not None:
            raise BalanceError(
                f"--export needs a data name: balance data {game} NAME --export FILE"
            )
        if as_json:
            print_json({"game": game, "files": [f.summary() for f in files],
                        "note": spec.rules_class.data_note})  # fmt: skip
            return
        if not files:
            typer.echo(spec.rules_class.data_note or f"{spec.title} has no data files.")
            return
        typer.echo(
            f"{spec.title}: {len(files)} data file(s). Replace one for a run with --data "
            f"NAME=FILE; start from the shipped one with `balance data {game} NAME --export "
            "FILE`.\n"
        )
        for f in files:
            status = "exact" if f.exact else "reconstruction"
            typer.echo(f"{f.name} ({f.file}, {status}): {f.holds}")
            typer.echo(f"    format: {f.format}")
            typer.echo(f"    fields: {f.docs}")
        return
    file = declared(files, name, game, f"balance data {game}")
    if export is not None:
        export_shipped(file, export)
        typer.echo(
            f"{export}: the shipped {file.file} of {game}; edit it and play it with "
            f"--data {file.name}={export}"
        )
        return
    if as_json:
        print_json({**file.summary(), "text": file.shipped.text})
        return
    typer.echo(file.shipped.text, nl=False)


# -- rules -----------------------------------------------------------------------------------
@app.command()
def rules(
    game: opt.GameArg,
    as_json: opt.GamesJsonOpt = False,
) -> None:
    """Print every rule option of GAME: default, allowed values, meaning and rulebook quote.

    Change any of them with `--set key=value` or a variant file (TOML):

        name = "cheap level 2"

        [rules]

        level2_cost = 2
    """
    from analyses.targets import measures_text
    from simulator.contract.registry import get_game

    options = get_game(game).rules_class.options()
    if as_json:
        print_json([o.as_dict() for o in options])
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("option", "default", "allowed", "meaning", "rulebook says", show_lines=False)
    for o in options:
        table.add_row(o.name, o.default_text(), o.allowed(), o.doc, o.seed)
    Console(width=200).print(table)
    typer.echo(measures_text(get_game(game)))


# -- board ---------------------------------------------------------------------------------------
@app.command()
def board(
    game: opt.GameArg,
    out: opt.BoardOutOpt = None,
    ids: opt.BoardIdsOpt = False,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    as_json: opt.BoardJsonOpt = False,
) -> None:
    """Draw GAME's board (cells coloured by kind) or print it as JSON.

    The board follows the rules in force, so `--set`/`--variant` show a variant's board.
    Example: balance board GAME --out board.png --ids
    """
    from simulator.contract.boards import save_board_picture
    from simulator.contract.registry import get_game
    from simulator.contract.rules import build_rules

    spec = get_game(game)
    if spec.board is None:
        raise BalanceError(f"{game} has no board to draw")
    if out is None and not as_json:
        raise BalanceError("say where to draw the board (--out board.png) or print it (--json)")
    rules, _ = build_rules(spec.rules_class, variant, set_, data)
    cells = spec.board(rules)
    if as_json:
        print_json(cells.as_json(spec.id))
    if out is not None:
        save_board_picture(cells, out, f"{spec.title}: the board", show_ids=ids)
        if not as_json:
            counts = ", ".join(f"{n} {kind}" for kind, n in cells.counts().items())
            typer.echo(f"{out}: {len(cells.cells)} cells ({counts})")


# -- simulate --------------------------------------------------------------------------------


# -- policies --------------------------------------------------------------------------------
@app.command()
def policies(
    game: opt.GameArg,
    policy_file: opt.PolicyFileOpt = None,
    as_json: opt.GamesJsonOpt = False,
) -> None:
    """List GAME's policies: what each does and its parameters (default, range, meaning).

    Set a parameter for one seat with a colon after the name: `-p greedy:reserve=10`. With
    --policy-file the file's policies are checked and listed after the built-in ones.
    """
    from simulator.contract.registry import get_game
    from simulator.runs.policy_file import policy_rows

    rows = policy_rows(get_game(game), policy_file)
    if as_json:
        print_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("policy", "parameter", "default", "range", "meaning")
    for r in rows:
        name = r["policy"] + (" (default)" if r["default_policy"] else "")
        doc = r["doc"] if r["source"] == "built-in" else f"{r['doc']} (from {r['source']})"
        table.add_row(name, "", "", "", doc, end_section=not r["params"])
        for i, p in enumerate(r["params"]):
            last = i == len(r["params"]) - 1
            if "choices" in p:  # named values: shown and written by name
                span = ", ".join(p["choices"])
                default = p["choices"][int(p["default"])]
            else:
                span, default = f"{p['lo']:g} to {p['hi']:g}", f"{p['default']:g}"
                if not p["bounded"]:  # any value; the range is where tune searches
                    span = f"any (tune: {span})"
            table.add_row("", p["name"], default, span, p["doc"], end_section=last)
    console = Console(width=140)
    console.print(table)
    for r in rows:
        if r.get("evaluation"):
            e = r["evaluation"]
            console.print(
                f"\n{r['policy']} with a horizon scores every seat at the horizon with a "
                f"{e['model']}, fitted on {e['fitted_on']}.\nFeatures: {', '.join(e['features'])}."
            )


@app.command()
def simulate(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.SimulateOutOpt,
    n: opt.SimulateNOpt = 10_000,
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    seed: opt.SimulateSeedOpt = 0,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    jobs: opt.JobsOpt = None,
    chunk_size: opt.SimulateChunkSizeOpt = None,
    cluster: opt.ClusterOpt = None,
    as_json: opt.SimulateJsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
    until_ci: opt.SimulateUntilCiOpt = None,
    wait: opt.WaitOpt = False,
    target: opt.TargetOpt = None,
    rotate: opt.RotateOpt = False,
) -> None:
    """Play N games of GAME and write them to a run folder (manifest.json + Parquet parts).

    A killed run keeps its finished parts: the same command finishes only what is missing, and
    replays any part found damaged (`balance verify` checks a folder). One command writes a
    folder at a time: a second one stops at once, or waits with --wait.
    """
    from analyses.overview import headline
    from simulator.runs.plan import plan_run
    from simulator.runs.runner import run

    targets = _report_options("html", target, game)
    from simulator.studies.rotation import as_judged, rotated_lines, simulate_rotated

    request, rotate = as_judged(_what(ctx), rotate)
    if rotate:
        if until_ci is not None:
            raise BalanceError("--until-ci cannot stop a --rotate run: give -n instead")
        result = simulate_rotated(request, out, _how(ctx), chunk_size=chunk_size, targets=targets)
        if as_json:
            print_json(result)
        elif not quiet:
            typer.echo("\n".join(rotated_lines(result)))
        return
    from simulator.studies.compare import until_ci_chunk_size, until_ci_rule

    until = None if until_ci is None else until_ci_rule(until_ci)
    config = plan_run(request, chunk_size=chunk_size or until_ci_chunk_size(until_ci, n))
    folder = run(config, out, until=until, **_how(ctx).run_options())
    summary = headline(folder.path)
    if targets:
        summary["targets"] = _run_targets(folder.path, targets)
    if as_json:
        print_json(summary)
    elif not quiet:
        from reports.terminal import run_lines

        typer.echo("\n".join(run_lines(summary)))
        if until is not None:
            games_played = f"{summary['games']:,} games"
            typer.echo(
                f"--until-ci {until_ci:g}: every interval that narrow after {games_played}"
                if until(folder)
                else f"--until-ci {until_ci:g}: not reached within the {n:,} games of -n"
            )


def _run_targets(path: Path, targets: list) -> list[dict]:
    """Each target's verdict for one run folder."""
    from analyses.runs import Run
    from analyses.summary import estimates, run_summary
    from analyses.targets import check_targets

    run_ = Run.open(path)
    rows = check_targets(targets, estimates(run_summary(run_)), run_.n_players)
    return [{"run": run_.label, **r} for r in rows]


# -- reports and studies ---------------------------------------------------------------------


def _report_options(fmt: str, target: list[str] | None, game: str | None = None) -> list:
    """Validate --format and --target (against the game, when known) before any game is
    played."""
    from analyses.targets import check_measurable, parse_targets

    if fmt not in REPORT_FORMATS:
        raise BalanceError(f"--format must be html or md, not {fmt!r}")
    targets = parse_targets(target)
    if game is not None and targets:
        from simulator.contract.registry import get_game

        check_measurable(targets, get_game(game))
    return targets


def _show_report(data: dict, as_json: bool, quiet: bool) -> None:
    if as_json:
        print_json(data)
        return
    if quiet:
        return
    for line in data["headline"]:
        typer.echo(f"- {line}")
    typer.echo(f"report: {data['report']}")


@app.command()
def report(
    runs: opt.ReportRunsArg,
    out: opt.ReportOutOpt = None,
    fmt: opt.FormatOpt = "html",
    target: opt.TargetOpt = None,
    as_json: opt.JsonOpt = False,
    quiet: opt.QuietOpt = False,
) -> None:
    """Write the designer's report: who wins by seat, game length, end conditions, drama.

    Given several runs of one game, the first is the baseline and the others are compared with it
    (runs differing only in seat policies are treated as a tournament). The HTML file is
    self-contained: send it to anyone, no network needed. Written into the folder given
    (RUN/report.html), or report.html here for several, unless --out names the file.
    """
    from reports.build import write_report
    from simulator.folders.study_folders import read_design

    targets = _report_options(fmt, target)
    if out is None:  # beside the run it reports on; several runs belong to no one folder
        alone = len(runs) == 1 and runs[0].is_dir()
        out = runs[0] / f"report.{fmt}" if alone else Path(f"report.{fmt}")
    if len(runs) == 1 and read_design(runs[0]) is not None:  # a design folder
        from reports.build import write_document
        from reports.design_report import design_document

        doc, _ = design_document(runs[0])
        written = write_document(doc, out, fmt)
        _show_report({"headline": doc.headline, "report": str(written)}, as_json, quiet)
        return
    data = write_report(runs, out, fmt=fmt, targets=targets)
    _show_report(data, as_json, quiet)


def _study_report(path: Path, fmt: str, targets: list, as_json: bool, quiet: bool) -> None:
    from reports.build import write_report

    data = write_report([path], path / f"report.{fmt}", fmt=fmt, targets=targets)
    _show_report(data, as_json, quiet)


@app.command()
def compare(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    variant: opt.CompareVariantOpt = None,
    set_: opt.CompareSetOpt = None,
    data: opt.CompareDataOpt = None,
    n: opt.GamesOpt = 10_000,
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    wait: opt.WaitOpt = False,
    until_ci: opt.CompareUntilCiOpt = None,
    tune: opt.CompareTuneOpt = None,
    tune_trials: opt.CompareTuneTrialsOpt = 20,
    tune_games: opt.CompareTuneGamesOpt = 2_000,
    ladder: opt.CompareLadderOpt = None,
    fmt: opt.FormatOpt = "html",
    target: opt.TargetOpt = None,
    as_json: opt.JsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Play the default rules and each variant on the same games, then report what changed.

    Every run uses the same seed, so game i deals the same cards in every run and each variant's
    change in win rates and length comes with a paired test, corrected for the number of
    comparisons. Writes OUT/<run>/ folders and OUT/report.html. With --tune POLICY the policy is
    first fitted to each rule set (OUT/tunes/<run>/), so variants are compared under adapted play.
    With --ladder R1,R2,... the comparison is played under every rung of skill
    (OUT/rung-NN-<rung>/), so the report says whether each effect holds as play gets stronger.
    """
    from simulator.studies.compare import compare as run_compare
    from simulator.studies.rungs import split_rungs

    targets = _report_options(fmt, target, game)
    if ladder is not None and targets:
        raise BalanceError("--target judges one run; leave it out with --ladder")
    study = run_compare(
        _what(ctx, variant=None),
        out,
        _how(ctx),
        variants=variant,
        until_ci=until_ci,
        tune=tune,
        tune_trials=tune_trials,
        tune_games=tune_games,
        ladder=None if ladder is None else split_rungs(ladder),
    )
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def sweep(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    param: opt.SweepParamOpt,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    n: opt.GamesOpt = 10_000,
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    wait: opt.WaitOpt = False,
    fmt: opt.FormatOpt = "html",
    target: opt.TargetOpt = None,
    as_json: opt.JsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Play every combination of rule values, then report win rates and length against them.

    --set and --variant apply to every point of the grid. Writes OUT/<point>/ folders and
    OUT/report.html (lines with interval bands; a heatmap for two parameters).
    """
    from simulator.studies.compare import sweep as run_sweep

    targets = _report_options(fmt, target, game)
    study = run_sweep(_what(ctx), out, _how(ctx), params=param)
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def tournament(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    policy: opt.TournamentPolicyOpt,
    policy_file: opt.PolicyFileOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    n: opt.GamesOpt = 10_000,
    players: opt.PlayersOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    wait: opt.WaitOpt = False,
    fmt: opt.FormatOpt = "html",
    target: opt.TargetOpt = None,
    as_json: opt.JsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Rotate policies through every seat on the same games and report who beats whom.

    Each rotation is one run (same seed, so the same games), and every policy holds every seat
    equally often: seat and policy effects separate. The report gives each policy's win rate,
    a head-to-head matrix and how much the strongest policy beats random play.
    """
    from simulator.studies.compare import tournament as run_tournament

    targets = _report_options(fmt, target, game)
    study = run_tournament(_what(ctx), out, _how(ctx))
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def skill(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    rungs: opt.SkillRungsOpt = None,
    n: opt.SkillNOpt = None,
    players: opt.PlayersOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    param: opt.SkillParamOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    wait: opt.WaitOpt = False,
    fmt: opt.FormatOpt = "html",
    as_json: opt.JsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """How much skill matters: play a ladder of policies against each other and rate them.

    Every rung plays against itself (the game's figures at that skill: first-seat edge, length,
    end reasons) and, in a competitive game, against every other rung with seats rotated on the
    same seeds. The report rates the rungs (Elo scale, with intervals), orders them only where
    head to heads separate them, says how often the top rung loses to the weakest and to the best
    hand-written policy (the luck the game leaves) and how the game's figures move with skill.
    A cooperative game gives each rung's success rate. Writes OUT/<run>/ folders and
    OUT/report.html; a killed ladder resumes.
    Cost: every game with a search seat runs the search; see docs/performance.md.
    """
    from simulator.studies.rungs import split_rungs
    from simulator.studies.skill import default_games
    from simulator.studies.skill import skill as run_skill

    _report_options(fmt, None)
    ladder = None if rungs is None else split_rungs(rungs)
    request = _what(ctx)
    if n is None:
        request = request.but(games=default_games(request))
    study = run_skill(request, out, _how(ctx), rungs=ladder, params=param)
    _study_report(study.path, fmt, [], as_json, quiet)


@app.command()
def explore(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    options: opt.ExploreOptionsOpt = None,
    range_: opt.ExploreRangeOpt = None,
    n: opt.ExploreNOpt = 200,
    trajectories: opt.ExploreTrajectoriesOpt = None,
    method: opt.ExploreMethodOpt = "morris",
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    data: opt.DataOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    wait: opt.WaitOpt = False,
    fmt: opt.FormatOpt = "html",
    as_json: opt.JsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Which rules matter: screen rule options for how much each moves the game's figures.

    Plays a Morris design (or Sobol with --method sobol) over the options' ranges, every point
    an ordinary run of -n games on the same seeds, then ranks the options for each figure:
    first-seat, balance, draw (or success), length, end:<reason> and mean:<column> (the
    --target names). Cost: r(k + 1) points x n games for k options (Morris). An option "moves"
    a figure only where its effects stand above the games' luck; otherwise the report says it
    cannot be told from noise at this budget. Writes OUT/point-NNNN/ run folders,
    OUT/explore.json (what --json prints; `balance design --explore OUT` reads it) and
    OUT/report.html; a killed explore resumes. See docs/explore.md.
    """
    from simulator.studies.explore import explore as run_explore
    from simulator.studies.explore import write_summary

    _report_options(fmt, None)
    screened = None if options is None else [o.strip() for o in options.split(",") if o.strip()]
    study = run_explore(
        _what(ctx),
        out,
        _how(ctx),
        options=screened,
        ranges=range_,
        method=method,
        trajectories=trajectories,
    )
    _show_report(write_summary(study, fmt), as_json, quiet)


# -- verify ----------------------------------------------------------------------------------
@app.command()
def verify(
    runs: opt.ReportRunsArg,
    repair: opt.VerifyRepairOpt = False,
    jobs: opt.JobsOpt = None,
    wait: opt.WaitOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
) -> int:
    """Check run folders: the manifest, every part against the size, row count and SHA-256
    recorded when it was written, and the number of games.

    Prints one line per problem with the command that repairs it. Exit code 0 when every folder
    is sound, 1 when one is damaged or unfinished, 2 on bad input (a path that is not a run).
    Example: balance verify runs/base runs/cheap-level2
    """
    from simulator.runs.verify import repair as repair_run
    from simulator.runs.verify import run_folders
    from simulator.runs.verify import verify as verify_run

    folders = run_folders(runs)
    damaged = False
    for path in folders:
        verdict = verify_run(path)
        if not verdict.sound and repair and verdict.repairable:
            repair_run(path, jobs=jobs, wait=wait)
            verdict = verify_run(path)
            if verdict.sound:
                verdict.summary = verdict.summary.replace(": sound", ": repaired, sound", 1)
        for line in verdict.problems:
            typer.echo(line)
        if verdict.sound:
            typer.echo(verdict.summary)
        damaged = damaged or not verdict.sound
    return 1 if damaged else 0


# -- tune ------------------------------------------------------------------------------------


@app.command()
def tune(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    policy: opt.TunePolicyOpt,
    against: opt.TuneAgainstOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    param: opt.TuneParamOpt = None,
    players: opt.PlayersOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    trials: opt.TrialsOpt = 40,
    n: opt.TuneNOpt = 2_000,
    check_games: opt.TuneCheckGamesOpt = None,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    as_json: opt.ResultJsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Fit a policy's parameters to the rules in force: the setting with the best win rate.

    Optuna's TPE sampler proposes settings within the bounds the policy declares; each candidate
    plays -n games on the same game seeds, the tuned policy sitting in every seat against each
    --against policy (a cooperative game: the success rate); weak candidates stop after a
    quarter of their games. The best setting and the defaults are then measured again on fresh
    seeds (the search flatters its winner), with 95% Wilson intervals and their paired difference.
    Every candidate is an ordinary run folder under OUT, so repeating a killed command resumes it;
    --cluster spreads candidates over Dask workers with the same result. Writes OUT/report.html.

    Example: balance tune GAME --policy NAME --against OTHER --players 2
    --trials 30 -n 2000 --out tunes/NAME
    """
    from reports.tune_report import write_tune_report
    from simulator.studies.tuning import plan_tune
    from simulator.studies.tuning import tune as run_tune

    request = _what(ctx, policies=None)
    plan = plan_tune(request, policy, against=against, params=param, trials=trials,
                     check_games=check_games)  # fmt: skip
    data = run_tune(plan, out, _how(ctx))
    report = write_tune_report(out)
    if as_json:
        print_json(data["summary"])
        return
    if quiet:
        return
    from reports.tune_report import edge_sentences, verdict

    _print_search(data, [verdict(data), *edge_sentences(data)], report)


# -- design ----------------------------------------------------------------------------------
@app.command()
def design(
    ctx: typer.Context,
    game: opt.GameArg,
    out: opt.StudyOutOpt,
    target: opt.DesignTargetOpt,
    param: opt.DesignParamOpt = None,
    explore: opt.DesignExploreOpt = None,
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    tune_policy: opt.DesignTunePolicyOpt = None,
    tune_trials: opt.DesignTuneTrialsOpt = 8,
    tune_games: opt.DesignTuneGamesOpt = None,
    data: opt.DataOpt = None,
    rotate: opt.DesignRotateOpt = False,
    trials: opt.DesignTrialsOpt = 30,
    n: opt.DesignNOpt = 1_000,
    check_games: opt.DesignCheckGamesOpt = None,
    check_settings: opt.DesignCheckSettingsOpt = 3,
    seed: opt.SeedOpt = 0,
    jobs: opt.JobsOpt = None,
    cluster: opt.ClusterOpt = None,
    fmt: opt.FormatOpt = "html",
    as_json: opt.ResultJsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    quiet: opt.QuietOpt = False,
) -> None:
    """Search rule settings for ones that meet your targets, and prove them on fresh games.

    Optuna proposes settings of the options named with --param (or those an explore ranked
    highest); each candidate plays -n games on the same game seeds. Every target is a
    constraint; among settings that meet them all, the search prefers the smallest change from
    the starting rules (defaults, --variant, --set). The best few settings and the starting
    rules are then played again on fresh seeds, and each target's verdict (meets, misses,
    cannot tell yet) comes from those games only. Writes OUT/report.html and one variant file
    per setting checked (OUT/variants/), which --variant accepts. A killed design resumes; the
    same seed finds the same settings with or without --cluster.

    Example: balance design GAME --players 2 --param OPTION=LO:HI --param OTHER=a,b
    --target "draw<=5%" --target "end:REASON>=30%" --out designs/NAME
    (quote targets with < or >: the shell reads them as redirections)
    """
    from reports.design_report import verdict_sentences, write_design_report
    from simulator.studies.design import design as run_design
    from simulator.studies.design import design_summary, plan_design

    if fmt not in REPORT_FORMATS:
        raise BalanceError(f"--format must be html or md, not {fmt!r}")
    plan = plan_design(
        _what(ctx),
        target,
        params=param,
        explore=explore,
        trials=trials,
        check_games=check_games,
        check_settings=check_settings,
        tune=tune_policy,
        tune_trials=tune_trials,
        tune_games=tune_games,
        rotate=rotate,
    )
    result = run_design(plan, out, _how(ctx))
    report = write_design_report(out, fmt)
    if as_json:
        print_json(design_summary(plan, result, out, report))
        return
    if quiet:
        return
    _print_search(result, verdict_sentences(result), report)


def _print_search(result: dict, sentences: list[str], report: Path) -> None:
    """A tune's or a design's verdict, its games and wall time, and its report."""
    for line in sentences:
        typer.echo(f"- {line}")
    played = f"{result['games_total']:,} games ({result['games_played_now']:,} played now)"
    typer.echo(f"- {played} in {result['wall_seconds']:,.0f} s")
    typer.echo(f"report: {report}")


# -- demo ------------------------------------------------------------------------------------
@app.command()
def demo(
    out: opt.DemoOutOpt = Path("out"),
    n: opt.DemoNOpt = 3000,
    seed: opt.DemoSeedOpt = 1,
    jobs: opt.JobsOpt = None,
) -> None:
    """Play every game with its default rules, players and policy, and write a report for each.

    Writes OUT/<game>/ (the run folder) and OUT/<game>.html; run again to reuse finished runs.
    """
    import time

    from reports.build import write_report
    from simulator.compiling.warmup import engines_as_ready
    from simulator.contract.registry import available
    from simulator.runs.plan import plan_run
    from simulator.runs.runner import resolve_jobs, run

    start = time.perf_counter()
    for game in engines_as_ready(available(), resolve_jobs(jobs)):
        config = plan_run(game, n, seed=seed)
        typer.echo(f"{game}: {n:,} games, {config.n_players} players, {config.policy_labels[0]}")
        folder = run(config, out / game, jobs=jobs, progress=True)
        data = write_report([folder.path], out / f"{game}.html")
        for line in data["headline"]:
            typer.echo(f"  - {line}")
        typer.echo(f"  report: {data['report']}")
    typer.echo(f"every game played in {time.perf_counter() - start:.0f} s")


# -- replay ----------------------------------------------------------------------------------
@app.command()
def replay(
    ctx: typer.Context,
    target: opt.ReplayTargetArg,
    game_index: opt.ReplayGameIndexOpt = None,
    seed: opt.ReplaySeedOpt = None,
    players: opt.PlayersOpt = None,
    policy: opt.PolicyOpt = None,
    set_: opt.SetOpt = None,
    variant: opt.VariantOpt = None,
    data: opt.DataOpt = None,
    policy_file: opt.PolicyFileOpt = None,
    as_json: opt.ReplayJsonOpt = False,
    call_limit: opt.CallLimitOpt = opt.CALL_LIMIT,
    out: opt.ReplayOutOpt = None,
) -> None:
    """Watch one game move by move: the engine plays it again from its seed and records it.

    `balance replay RUN --game-index I` replays game I of a run with the run's rules and seats
    (refused if the simulator now plays it differently from its row); `balance replay GAME
    --seed S` plays game seed S with --players/-p/--set/--variant as in `simulate`. Prints the
    game turn by turn; --json prints the events; --out replay.html writes a page with the board,
    a slider over the events and the log.
    Example: balance replay runs/base --game-index 12 --out game12.html
    """
    from reports.replay_page import check_page_path, write_page
    from simulator.runs.replay import FailedReplay, check_replay_options, replay_run, replay_seed

    request = _what(ctx, game=target)
    is_run = check_replay_options(game_index, request)
    if out is not None:
        check_page_path(out)
    try:
        game = replay_run(target, game_index) if is_run else replay_seed(request)  # type: ignore[arg-type]
    except FailedReplay as failed:  # the moves up to the failure, then its line
        if as_json:
            print_json({"events": failed.events, "error": str(failed)})
        else:
            typer.echo("\n".join(failed.lines(lambda e: e["text"])))
        raise
    if out is not None:
        write_page(game, out)
    if as_json:
        print_json(game.as_json())
    elif out is None:
        typer.echo(game.text())
    else:
        typer.echo(game.header())
        typer.echo(game.result_line())
        typer.echo(f"{out}: {len(game.events)} events")


if __name__ == "__main__":
    app()
