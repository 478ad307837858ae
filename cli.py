"""The ``balance`` command line: thin, parses options and delegates to the packages.

Bad input ends in one line on stderr naming the problem and exit code 2 (never a traceback).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer

from simulator.cli_types import (
    CompareDataOpt,
    DataOpt,
    JobsOpt,
    SetOpt,
    VariantOpt,
    WaitOpt,
    print_json,
)
from simulator.errors import BalanceError

if TYPE_CHECKING:
    from simulator.games import GameSpec


class _App(typer.Typer):
    """A Typer app whose every usage error is one line and exit code 2."""

    def __call__(self, *args, **kwargs):  # noqa: ANN002, ANN003
        command = typer.main.get_command(self)
        try:
            code = command.main(*args, standalone_mode=False, **kwargs)
        except BalanceError as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted; finished parts are kept: run the same command again to resume", 130)
        except typer.Abort:
            _fail("aborted", code=130)
        except Exception as exc:
            # Click's usage errors (vendored by newer Typer, so matched by shape, not by class).
            if type(exc).__name__.startswith("NoArgsIsHelp"):
                click.echo(exc.ctx.get_help() if getattr(exc, "ctx", None) else "")
                sys.exit(0)
            if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
                _fail(_usage_message(exc, args[0] if args else None))
            raise
        sys.exit(code if isinstance(code, int) else 0)


# Typer checks option types with pydantic, whose words name no option and no value.
_TYPE_WORDS = {
    "Input should be a valid integer": "a whole number",
    "Input should be a valid number": "a number",
    "Input should be a valid boolean": "true or false",
}


def _usage_message(exc: Exception, argv: list[str] | None) -> str:
    """A usage error in one line; a wrong type as '--seed expects a whole number, got 'abc''."""
    message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
    param = getattr(exc, "param", None)
    kind = next((k for words, k in _TYPE_WORDS.items() if words in message), None)
    if kind is None or param is None or not getattr(param, "opts", None):
        return message
    opts = list(param.opts)
    argv = list(sys.argv[1:] if argv is None else argv)
    given = None
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if name in opts:
            given = value if eq else (argv[i + 1] if i + 1 < len(argv) else None)
    name = max(opts, key=len)
    return f"{name} expects {kind}" + (f", got {given!r}" if given is not None else "")


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"balance: error: {message}", err=True)
    sys.exit(code)


app = _App(
    help="Monte Carlo balance analysis for tabletop games.\n\n"
    "Typical session: `balance games` to see what is there, `balance rules GAME` for the options a "
    "variant can change, `balance simulate GAME -n 100000 --out runs/base` to play, then "
    "`balance report runs/base`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# -- games -----------------------------------------------------------------------------------
@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the games: player range, policies and the unit of game length."""
    from simulator.games import available, get_game

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
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    name: Annotated[
        str | None, typer.Argument(help="A data file's name: show it, or --export it.")
    ] = None,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="Write the shipped file here (an existing file is kept)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
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
    from simulator.game_data import declared
    from simulator.games import get_game

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
        if export.exists():
            raise BalanceError(
                f"--export {str(export)!r} already exists; it is kept (give a new file name)"
            )
        if not export.parent.is_dir():
            raise BalanceError(
                f"--export {str(export)!r}: folder {str(export.parent)!r} does not exist"
            )
        try:
            with export.open("x", encoding="utf-8", newline="") as fh:
                fh.write(file.shipped.text)
        except OSError as exc:
            raise BalanceError(
                f"--export {str(export)!r}: cannot write it ({exc.strerror})"
            ) from None
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
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Print every rule option of GAME: default, allowed values, meaning and rulebook quote.

    Change any of them with `--set key=value` or a variant file (TOML):

        name = "cheap level 2"

        [rules]

        level2_cost = 2
    """
    from simulator.games import get_game

    options = get_game(game).rules_class.options()
    if as_json:
        print_json([o.as_dict() for o in options])
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("option", "default", "allowed", "meaning", "rulebook says", show_lines=False)
    for o in options:
        default = ",".join(map(str, o.default)) if isinstance(o.default, tuple) else o.default
        table.add_row(o.name, str(default), o.allowed(), o.doc, o.seed)
    Console(width=200).print(table)
    typer.echo(_measures_text(get_game(game)))


def _measures_text(spec: GameSpec) -> str:
    """What a --target can name for this game beyond the fixed measures."""
    from analyses.targets import measurable_columns

    columns = measurable_columns(spec)
    lines = [
        "Targets (--target) can also name: "
        + ", ".join(f"end:{r}" for r in spec.end_reasons)
        + (", " + ", ".join(f"mean:{c}" for c in columns) if columns else "")
    ]
    if not spec.cooperative:
        lines.append("and policy:NAME for " + ", ".join(spec.policies))
    return "\n".join(lines)


# -- board ---------------------------------------------------------------------------------------
@app.command()
def board(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Picture to write: .png, .svg or .pdf.")
    ] = None,
    ids: Annotated[
        bool, typer.Option("--ids", help="Write each cell's name on the picture.")
    ] = False,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the cells (id, kind, x, y, neighbours) as JSON.")
    ] = False,
) -> None:
    """Draw GAME's board (cells coloured by kind) or print it as JSON.

    The board follows the rules in force, so `--set`/`--variant` show a variant's board.
    Example: balance board GAME --out board.png --ids
    """
    from simulator.boards import save_board_picture
    from simulator.games import get_game
    from simulator.rules import build_rules

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
PolicyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        "-p",
        help="Policy for every seat, or repeat once per seat in seat order. Parameters after a "
        "colon: greedy:risk=0.3. See `balance policies GAME` for names and parameters.",
    ),
]
PolicyFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--policy-file",
        help="Your own policies: a Python file listing them in POLICIES (see docs/policies.md "
        "and docs/examples/). Use them by name with --policy beside the built-in ones; they are "
        "compiled like the built-ins and travel with the work to a --cluster.",
    ),
]


# -- policies --------------------------------------------------------------------------------
@app.command()
def policies(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    policy_file: PolicyFileOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List GAME's policies: what each does and its parameters (default, range, meaning).

    Set a parameter for one seat with a colon after the name: `-p greedy:reserve=10`. With
    --policy-file the file's policies are checked and listed after the built-in ones.
    """
    from simulator.games import get_game
    from simulator.policy_file import describe_policies, read_policy_file

    spec = get_game(game)
    defs = dict(spec.policies)
    if policy_file is not None:
        defs.update(describe_policies(spec, read_policy_file(policy_file)))
    rows = [
        {
            "policy": d.name,
            "default_policy": d.name == spec.default_policy,
            "source": d.source or "built-in",
            "doc": d.doc,
            "params": [
                {"name": p.name, "default": p.default, "lo": p.lo, "hi": p.hi, "doc": p.doc}
                | ({"choices": list(p.choices)} if p.choices else {})
                for p in d.params
            ],
        }
        for d in defs.values()
    ]
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
            table.add_row("", p["name"], default, span, p["doc"], end_section=last)
    Console(width=140).print(table)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Run folder to write (resumed if it exists).")
    ],
    n: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 10_000,
    players: Annotated[
        int | None, typer.Option("--players", help="Players (default: the game's).")
    ] = None,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: same seed, same games.")] = 0,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    jobs: JobsOpt = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size", help="Games per part (default: about 1/32 of the run, 250-10,000)."
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", help="Dask scheduler address (tcp://host:8786) or 'local'."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the headline figures as JSON.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary.")
    ] = False,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            help="Stop once every win-rate (or success-rate) interval is narrower than this "
            "width, e.g. 0.02; -n is then the most games played.",
        ),
    ] = None,
    wait: WaitOpt = False,
    target: TargetOpt = None,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate",
            help="Play every rotation of the lineup (--policy per seat) on the same seeds into "
            "OUT/rot-K/ and pool them, as `design --rotate` judges a setting (a variant file a "
            "design wrote carries its lineup and rotation).",
        ),
    ] = False,
) -> None:
    """Play N games of GAME and write them to a run folder (manifest.json + Parquet parts).

    A killed run keeps its finished parts: the same command finishes only what is missing, and
    replays any part found damaged (`balance verify` checks a folder). One command writes a
    folder at a time: a second one stops at once, or waits with --wait.
    """
    from analyses.overview import headline
    from simulator.plan import plan_run
    from simulator.runner import run

    targets = _report_options("html", target, game)
    from simulator.rotation import as_judged, simulate_rotated

    players, policy, rotate = as_judged(variant, players, policy, rotate)
    if rotate:
        show = "json" if as_json else "nothing" if quiet else "lines"
        simulate_rotated(game, n, out, targets=targets, jobs=jobs, cluster=cluster, wait=wait,
                         show=show, players=players, policies=policy, seed=seed, sets=set_,
                         variant=variant, chunk_size=chunk_size, policy_file=policy_file,
                         data=data)  # fmt: skip
        return
    config = plan_run(
        game,
        n,
        players=players,
        policies=policy,
        seed=seed,
        sets=set_,
        variant=variant,
        chunk_size=chunk_size,
        policy_file=policy_file,
        data=data,
    )
    until = None
    if until_ci is not None:
        from simulator.studies import until_ci_rule

        until = until_ci_rule(until_ci)
    folder = run(
        config,
        out,
        jobs=jobs,
        progress=not quiet and not as_json,
        cluster=cluster,
        until=until,
        wait=wait,
    )
    summary = headline(folder.path)
    if targets:
        summary["targets"] = _run_targets(folder.path, targets)
    if as_json:
        print_json(summary)
    elif not quiet:
        _print_headline(summary)
        if targets:
            from reports.study_sections import targets_headline

            for line in targets_headline(summary["targets"]):
                typer.echo(line)
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


def _print_headline(s: dict) -> None:
    where = f"seed {s['seed']} -> {s['out']}"
    typer.echo(f"{s['game']}: {s['games']:,} games, {s['n_players']} players, {where}")
    if s["win_rate"] is not None:
        rates = "  ".join(f"seat {i + 1}: {r:.1%}" for i, r in enumerate(s["win_rate"]))
        typer.echo(f"win rate  {rates}  (no winner: {s['draw_rate']:.1%})")
        if len(set(s["policies"])) > 1:  # as the report says it
            seats = ", ".join(f"seat {i + 1} {p}" for i, p in enumerate(s["policies"]))
            typer.echo(f"seats play different policies ({seats}): a seat's rate is its policy's")
    else:
        typer.echo(f"success rate {s['success_rate']:.1%}")
    typer.echo(f"mean length {s['mean_length']:.1f} {s['length_unit']}")


# -- reports and studies ---------------------------------------------------------------------
REPORT_FORMATS = ("html", "md")
TARGET_HELP = (
    "Design target, repeatable: NAME=VALUE+-TOL, NAME=LOW..HIGH, NAME<=X or NAME>=X (numbers "
    "may end in %). NAME is first-seat, last-seat, seat-N, draw, balance, success, length, "
    "lead-changes, comeback, end:REASON (share of games ended that way), mean:COLUMN (mean per "
    "game of one of the game's own columns) or policy:NAME (share of games won by the seats "
    "playing NAME); `balance rules GAME` lists the names of a game. "
    "The report says whether each run meets it, misses it or cannot tell yet. Example: "
    "--target first-seat=25%+-2% --target length=40..60 --target end:treasures>=30%"
)
TargetOpt = Annotated[list[str] | None, typer.Option("--target", "-t", help=TARGET_HELP)]
FormatOpt = Annotated[
    str, typer.Option("--format", "-f", help="Report format: html (one file) or md.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the report's figures as JSON.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar, no summary.")]
StudyOutOpt = Annotated[
    Path,
    typer.Option("--out", "-o", help="Folder for the runs and report (resumed if it exists)."),
]
GamesOpt = Annotated[int, typer.Option("-n", "--games", help="Games per run.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Run seed, shared by every run.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Players (default: the game's).")]
ClusterOpt = Annotated[
    str | None,
    typer.Option("--cluster", help="Dask scheduler address (tcp://host:8786) or 'local'."),
]


def _report_options(fmt: str, target: list[str] | None, game: str | None = None) -> list:
    """Validate --format and --target (against the game, when known) before any game is
    played."""
    from analyses.targets import check_measurable, parse_targets

    if fmt not in REPORT_FORMATS:
        raise BalanceError(f"--format must be html or md, not {fmt!r}")
    targets = parse_targets(target)
    if game is not None and targets:
        from simulator.games import get_game

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
    runs: Annotated[
        list[Path],
        typer.Argument(help="Run folders, or the folder of a compare, sweep or tournament."),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Report file (default: report.html or report.md)."),
    ] = None,
    fmt: FormatOpt = "html",
    target: TargetOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Write the designer's report: who wins by seat, game length, end conditions, drama.

    Given several runs of one game, the first is the baseline and the others are compared with it
    (runs differing only in seat policies are treated as a tournament). The HTML file is
    self-contained: send it to anyone, no network needed.
    """
    from reports.build import write_report
    from simulator.design import read_design

    targets = _report_options(fmt, target)
    if len(runs) == 1 and read_design(runs[0]) is not None:  # a design folder
        from reports.build import write_document
        from reports.design_report import design_document

        doc, _ = design_document(runs[0])
        written = write_document(doc, out or Path(f"report.{fmt}"), fmt)
        _show_report({"headline": doc.headline, "report": str(written)}, as_json, quiet)
        return
    data = write_report(runs, out or Path(f"report.{fmt}"), fmt=fmt, targets=targets)
    _show_report(data, as_json, quiet)


def _study_report(path: Path, fmt: str, targets: list, as_json: bool, quiet: bool) -> None:
    from reports.build import write_report

    data = write_report([path], path / f"report.{fmt}", fmt=fmt, targets=targets)
    _show_report(data, as_json, quiet)


@app.command()
def compare(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    variant: Annotated[
        list[Path] | None,
        typer.Option("--variant", help="Variant file (TOML), repeatable; each is one variant."),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            "-s",
            help="Rule change key=value (repeatable); together they form one more variant.",
        ),
    ] = None,
    data: CompareDataOpt = None,
    n: GamesOpt = 10_000,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    wait: WaitOpt = False,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            help="Stop once every win-rate (or success-rate) interval of the default run is "
            "narrower than this width; every variant then plays as many games.",
        ),
    ] = None,
    tune: Annotated[
        str | None,
        typer.Option(
            "--tune",
            help="Adapted play: tune this seated policy under each rule set first (balance tune "
            "against the other seats' policies) and compare with each run's best setting.",
        ),
    ] = None,
    tune_trials: Annotated[
        int, typer.Option("--tune-trials", help="Candidates per tune (with --tune).")
    ] = 20,
    tune_games: Annotated[
        int, typer.Option("--tune-games", help="Games per candidate (with --tune).")
    ] = 2_000,
    ladder: Annotated[
        str | None,
        typer.Option(
            "--ladder",
            help="Rungs of skill, comma-separated (e.g. random,lookahead,mcts:playouts=100): the "
            "whole comparison is played under each rung, every seat playing it, and each effect "
            "is judged 'holds at every rung', 'changes with skill' or 'cannot tell yet'.",
        ),
    ] = None,
    fmt: FormatOpt = "html",
    target: TargetOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play the default rules and each variant on the same games, then report what changed.

    Every run uses the same seed, so game i deals the same cards in every run and each variant's
    change in win rates and length comes with a paired test, corrected for the number of
    comparisons. Writes OUT/<run>/ folders and OUT/report.html. With --tune POLICY the policy is
    first fitted to each rule set (OUT/tunes/<run>/), so variants are compared under adapted play.
    With --ladder R1,R2,... the comparison is played under every rung of skill
    (OUT/rung-NN-<rung>/), so the report says whether each effect holds as play gets stronger.
    """
    from simulator.rungs import split_rungs
    from simulator.studies import compare as run_compare

    targets = _report_options(fmt, target, game)
    if ladder is not None and targets:
        raise BalanceError("--target judges one run; leave it out with --ladder")
    study = run_compare(
        game,
        n,
        out,
        variants=variant,
        sets=set_,
        seed=seed,
        players=players,
        policies=policy,
        jobs=jobs,
        progress=not quiet and not as_json,
        cluster=cluster,
        until_ci=until_ci,
        wait=wait,
        tune=tune,
        tune_trials=tune_trials,
        tune_games=tune_games,
        policy_file=policy_file,
        data=data,
        ladder=None if ladder is None else split_rungs(ladder),
    )
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def sweep(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    param: Annotated[
        list[str],
        typer.Option(
            "--param",
            help="Rule to sweep: key=v1,v2,v3 (repeatable: the grid of all combinations). "
            "Use ; between values that are lists themselves; key 'players' sweeps the player "
            "count.",
        ),
    ],
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    n: GamesOpt = 10_000,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    wait: WaitOpt = False,
    fmt: FormatOpt = "html",
    target: TargetOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play every combination of rule values, then report win rates and length against them.

    --set and --variant apply to every point of the grid. Writes OUT/<point>/ folders and
    OUT/report.html (lines with interval bands; a heatmap for two parameters).
    """
    from simulator.studies import sweep as run_sweep

    targets = _report_options(fmt, target, game)
    study = run_sweep(
        game,
        n,
        out,
        params=param,
        sets=set_,
        variant=variant,
        seed=seed,
        players=players,
        policies=policy,
        jobs=jobs,
        progress=not quiet and not as_json,
        cluster=cluster,
        wait=wait,
        policy_file=policy_file,
        data=data,
    )
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    policy: Annotated[
        list[str],
        typer.Option(
            "--policy", "-p", help="A policy to enter (repeat, at least two); name:key=value."
        ),
    ],
    policy_file: PolicyFileOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    n: GamesOpt = 10_000,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    wait: WaitOpt = False,
    fmt: FormatOpt = "html",
    target: TargetOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Rotate policies through every seat on the same games and report who beats whom.

    Each rotation is one run (same seed, so the same games), and every policy holds every seat
    equally often: seat and policy effects separate. The report gives each policy's win rate,
    a head-to-head matrix and how much the strongest policy beats random play.
    """
    from simulator.studies import tournament as run_tournament

    targets = _report_options(fmt, target, game)
    study = run_tournament(
        game,
        n,
        out,
        policies=policy,
        sets=set_,
        variant=variant,
        seed=seed,
        players=players,
        jobs=jobs,
        progress=not quiet and not as_json,
        cluster=cluster,
        wait=wait,
        policy_file=policy_file,
        data=data,
    )
    _study_report(study.path, fmt, targets, as_json, quiet)


@app.command()
def skill(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    rungs: Annotated[
        str | None,
        typer.Option(
            "--rungs",
            help="The ladder, comma-separated policies (name:key=value allowed), e.g. "
            "random,lookahead,mcts:playouts=100,mcts:playouts=400. Default: random, every "
            "hand-written policy, then the search player (mcts) at a quarter of its default "
            "budget and at its default.",
        ),
    ] = None,
    n: Annotated[
        int,
        typer.Option(
            "-n",
            "--games",
            help="Games per run: every rung against itself, and every seating of every pair.",
        ),
    ] = 200,
    players: PlayersOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="Cooperative games: play the ladder at each value, key=v1,v2,... (repeatable, "
            "e.g. mission=1,10,20).",
        ),
    ] = None,
    policy_file: PolicyFileOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    wait: WaitOpt = False,
    fmt: FormatOpt = "html",
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """How much skill matters: play a ladder of policies against each other and rate them.

    Every rung plays against itself (the game's figures at that skill: first-seat edge, length,
    end reasons) and, in a competitive game, against every other rung with seats rotated on the
    same seeds. The report rates the rungs (Bradley-Terry, with intervals), gives each adjacent
    pair's head to head, how often the weaker rung wins (the upset rate; 50% would be pure
    chance) and how the game's figures move with skill. A cooperative game gives each rung's
    success rate. Writes OUT/<run>/ folders and OUT/report.html; a killed ladder resumes.
    Cost: every game with a search seat runs the search; see docs/performance.md.
    """
    from simulator.rungs import split_rungs
    from simulator.skill import skill as run_skill

    _report_options(fmt, None)
    study = run_skill(
        game,
        n,
        out,
        rungs=None if rungs is None else split_rungs(rungs),
        players=players,
        sets=set_,
        variant=variant,
        params=param,
        seed=seed,
        jobs=jobs,
        progress=not quiet and not as_json,
        cluster=cluster,
        wait=wait,
        policy_file=policy_file,
        data=data,
    )
    _study_report(study.path, fmt, [], as_json, quiet)


@app.command()
def explore(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    options: Annotated[
        str | None,
        typer.Option(
            "--options",
            help="Options to screen, comma-separated (default: every number and yes/no option "
            "except run limits such as a turn cap). A choice option named here is screened as "
            "its choices in the order `balance rules` lists them. List options (card counts) "
            "and text cannot be screened: Morris steps along one ordered scale per option.",
        ),
    ] = None,
    range_: Annotated[
        list[str] | None,
        typer.Option(
            "--range",
            help="NAME=LO:HI, repeatable: the range screened for a number option, inside its "
            "declared bounds. Default: half to double the value in force (0: up to a tenth of "
            "the bounds), integers rounded, shown in the report.",
        ),
    ] = None,
    n: Annotated[
        int,
        typer.Option("-n", "--games", help="Games at each point of the design (same seeds)."),
    ] = 200,
    trajectories: Annotated[
        int | None,
        typer.Option(
            "--trajectories",
            "-r",
            help="Morris: trajectories r, the design has r(k + 1) points for k options "
            "(default 10). Sobol: Saltelli's base sample N, a power of 2, N(k + 2) points "
            "(default 16).",
        ),
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            help="morris (elementary effects: a ranking, cheap) or sobol (variance shares with "
            "interactions; needs many more points).",
        ),
    ] = "morris",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    data: DataOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    wait: WaitOpt = False,
    fmt: FormatOpt = "html",
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
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
    from simulator.explore import explore as run_explore

    _report_options(fmt, None)
    started, refused = time.monotonic(), False
    try:
        study = run_explore(
            game,
            n,
            out,
            options=None
            if options is None
            else [o.strip() for o in options.split(",") if o.strip()],
            ranges=range_,
            sets=set_,
            variant=variant,
            players=players,
            policies=policy,
            method=method,
            trajectories=trajectories,
            seed=seed,
            policy_file=policy_file,
            data=data,
            jobs=jobs,
            progress=not quiet and not as_json,
            cluster=cluster,
            wait=wait,
        )
    except BalanceError:
        refused = True  # bad input is refused before anything is written
        raise
    finally:  # an interrupted explore's seconds count too (its finished points are kept)
        if not refused:
            _add_explore_seconds(out, time.monotonic() - started)
    from reports.build import write_report

    data = write_report([study.path], study.path / f"report.{fmt}", fmt=fmt)
    keys = ("game", "figures", "options", "method", "points", "games", "out", "ranges",
            "skipped", "dropped", "same_as", "noise", "games_per_point", "runs", "trajectories",
            "players", "policies", "wall_seconds", "first_seat_edge", "sobol_budget", "headline",
            "report")  # fmt: skip
    result = {k: data[k] for k in keys}
    (study.path / "explore.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    _show_report(result, as_json, quiet)


def _add_explore_seconds(out: Path, seconds: float) -> None:
    """Add one invocation's wall time to OUT/explore-time.json."""
    from analyses.explore import TIME_FILE

    if not (out / "study.json").is_file():
        return  # interrupted while planning: nothing was written
    f = out / TIME_FILE
    try:
        spent = json.loads(f.read_text())["seconds"] if f.is_file() else []
    except (OSError, ValueError, KeyError, TypeError):
        spent = []
    f.write_text(json.dumps({"seconds": [*spent, round(seconds, 1)]}) + "\n")


# -- verify ----------------------------------------------------------------------------------
@app.command()
def verify(
    runs: Annotated[
        list[Path],
        typer.Argument(help="Run folders, or the folder of a compare, sweep or tournament."),
    ],
    repair: Annotated[
        bool,
        typer.Option(
            "--repair",
            help="Replay every damaged or missing part (and finish an unfinished run) from the "
            "folder's own manifest; bad files are moved to RUN/damaged/, never deleted.",
        ),
    ] = False,
    jobs: JobsOpt = None,
    wait: WaitOpt = False,
) -> int:
    """Check run folders: the manifest, every part against the size, row count and SHA-256
    recorded when it was written, and the number of games.

    Prints one line per problem with the command that repairs it. Exit code 0 when every folder
    is sound, 1 when one is damaged or unfinished, 2 on bad input (a path that is not a run).
    Example: balance verify runs/base runs/cheap-level2
    """
    from simulator.verify import repair as repair_run
    from simulator.verify import run_folders
    from simulator.verify import verify as verify_run

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
TrialsOpt = Annotated[
    int,
    typer.Option("--trials", "-t", help="Candidate settings to try (the first is the defaults)."),
]


@app.command()
def tune(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            "-p",
            help="Policy to tune; name:key=value sets the starting values (and those of "
            "parameters not searched).",
        ),
    ],
    against: Annotated[
        list[str] | None,
        typer.Option(
            "--against",
            "-a",
            help="Opponent policy (repeatable; name:key=value). The tuned policy meets each one "
            "in every seat. Default: every other policy of the game (a cooperative game: "
            "every seat plays the tuned policy).",
        ),
    ] = None,
    policy_file: PolicyFileOpt = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="Parameter to search (repeatable): NAME, or NAME=LO:HI for narrower bounds than "
            "declared. Default: every parameter the policy declares.",
        ),
    ] = None,
    players: PlayersOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    trials: TrialsOpt = 40,
    n: Annotated[
        int,
        typer.Option("-n", "--games", help="Games per candidate, shared among its seatings."),
    ] = 2_000,
    check_games: Annotated[
        int | None,
        typer.Option(
            "--check-games",
            help="Fresh games on which the best setting and the defaults are measured again "
            "(default: twice -n).",
        ),
    ] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: QuietOpt = False,
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
    from simulator.tuning import plan_tune
    from simulator.tuning import tune as run_tune

    plan = plan_tune(
        game,
        policy,
        n,
        against=against,
        params=param,
        players=players,
        sets=set_,
        variant=variant,
        trials=trials,
        check_games=check_games,
        seed=seed,
        policy_file=policy_file,
        data=data,
    )
    data = run_tune(plan, out, jobs=jobs, cluster=cluster, progress=not quiet and not as_json)
    report = write_tune_report(out)
    if as_json:
        print_json(data["summary"])
        return
    if quiet:
        return
    from reports.tune_report import verdict

    typer.echo(f"- {verdict(data)}")
    typer.echo(
        f"- {data['games_total']:,} games ({data['games_played_now']:,} played now) in "
        f"{data['wall_seconds']:,.0f} s"
    )
    typer.echo(f"report: {report}")


# -- design ----------------------------------------------------------------------------------
@app.command()
def design(
    game: Annotated[str, typer.Argument(help="Game id (see `balance games`).")],
    out: StudyOutOpt,
    target: Annotated[
        list[str],
        typer.Option(
            "--target",
            "-t",
            help="What the game should do (repeatable, at least one): "
            + TARGET_HELP.removeprefix("Design target, repeatable: "),
        ),
    ],
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="Rule option to search (repeatable): NAME=LO:HI for a number, NAME=a,b,c for "
            "values to choose from, NAME alone for a yes/no or choice option (every value).",
        ),
    ] = None,
    explore: Annotated[
        Path | None,
        typer.Option(
            "--explore",
            help="Without --param: search the options this `balance explore` folder ranked "
            "highest for the targets' figures, over the ranges it screened.",
        ),
    ] = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    tune_policy: Annotated[
        str | None,
        typer.Option(
            "--tune",
            help="Adapted play: re-tune this seated policy under every candidate before judging "
            "it (costs about --tune-trials times the games).",
        ),
    ] = None,
    tune_trials: Annotated[
        int, typer.Option("--tune-trials", help="Tune candidates per rule setting (with --tune).")
    ] = 8,
    tune_games: Annotated[
        int | None,
        typer.Option("--tune-games", help="Games per tune candidate (with --tune; default -n)."),
    ] = None,
    data: DataOpt = None,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate",
            help="Play every rotation of the --policy lineup (each policy in each seat equally "
            "often), so first-seat targets measure the seat and policy:NAME targets the policy.",
        ),
    ] = False,
    trials: Annotated[
        int,
        typer.Option("--trials", help="Rule settings to try (the first is the starting rules)."),
    ] = 30,
    n: Annotated[int, typer.Option("-n", "--games", help="Games per candidate.")] = 1_000,
    check_games: Annotated[
        int | None,
        typer.Option(
            "--check-games",
            help="Fresh games on which the best settings and the starting rules are played "
            "again to judge the targets (default: twice -n).",
        ),
    ] = None,
    check_settings: Annotated[
        int,
        typer.Option("--check-settings", help="How many of the best settings to check."),
    ] = 3,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpt = None,
    fmt: FormatOpt = "html",
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: QuietOpt = False,
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
    from simulator.design import design as run_design
    from simulator.design import plan_design

    if fmt not in REPORT_FORMATS:
        raise BalanceError(f"--format must be html or md, not {fmt!r}")
    plan = plan_design(
        game,
        target,
        n,
        params=param,
        explore=explore,
        players=players,
        policies=policy,
        sets=set_,
        variant=variant,
        trials=trials,
        check_games=check_games,
        check_settings=check_settings,
        seed=seed,
        tune=tune_policy,
        tune_trials=tune_trials,
        tune_games=tune_games,
        rotate=rotate,
        policy_file=policy_file,
        data=data,
    )
    result = run_design(plan, out, jobs=jobs, cluster=cluster, progress=not quiet and not as_json)
    report = write_design_report(out, fmt)
    if as_json:
        best = result["best"]
        print_json(
            {
                "game": plan.spec.id,
                "targets": [t.text for t in plan.targets],
                "trials": plan.trials,
                "default": result["default"],
                "best": best,
                "settings": result["settings"],
                "met_every_target": result["met_every_target"],
                "held_back_by": result["held_back_by"],
                "variant_file": best.get("variant_file") if best else None,
                "games_total": result["games_total"],
                "wall_seconds": result["wall_seconds"],
                "out": str(out),
                "report": str(report),
            }
        )
        return
    if quiet:
        return
    for line in verdict_sentences(result):
        typer.echo(f"- {line}")
    typer.echo(
        f"- {result['games_total']:,} games ({result['games_played_now']:,} played now) in "
        f"{result['wall_seconds']:,.0f} s"
    )
    typer.echo(f"report: {report}")


# -- demo ------------------------------------------------------------------------------------
@app.command()
def demo(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for the runs and reports.")
    ] = Path("out"),
    n: Annotated[int, typer.Option("-n", "--games", help="Games per game.")] = 3000,
    seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 1,
    jobs: JobsOpt = None,
) -> None:
    """Play every game with its default rules, players and policy, and write a report for each.

    Writes OUT/<game>/ (the run folder) and OUT/<game>.html; run again to reuse finished runs.
    """
    import time

    from reports.build import write_report
    from simulator.games import available
    from simulator.plan import plan_run
    from simulator.runner import resolve_jobs, run
    from simulator.warmup import compile_engines

    games = available()
    start = time.perf_counter()
    compile_engines(games, resolve_jobs(jobs))
    typer.echo(f"engines ready in {time.perf_counter() - start:.0f} s (compiled once, then cached)")
    for game in games:
        config = plan_run(game, n, seed=seed)
        typer.echo(f"{game}: {n:,} games, {config.n_players} players, {config.policy_labels[0]}")
        folder = run(config, out / game, jobs=jobs, progress=True)
        data = write_report([folder.path], out / f"{game}.html")
        for line in data["headline"]:
            typer.echo(f"  - {line}")
        typer.echo(f"  report: {data['report']}")


# -- replay ----------------------------------------------------------------------------------
@app.command()
def replay(
    target: Annotated[
        str, typer.Argument(help="A run folder (with --game-index) or a game id (with --seed).")
    ],
    game_index: Annotated[
        int | None,
        typer.Option("--game-index", "-i", help="Game of the run to replay (its game_index)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Game seed (a run's `seed` column) of the game to play."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Players (default: the game's).")
    ] = None,
    policy: PolicyOpt = None,
    set_: SetOpt = None,
    variant: VariantOpt = None,
    data: DataOpt = None,
    policy_file: PolicyFileOpt = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print {game, seed, rules_changed, players, policies, events, result}."
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Write a replay page (.html): the board at every step, the log."
        ),
    ] = None,
) -> None:
    """Watch one game move by move: the engine plays it again from its seed and records it.

    `balance replay RUN --game-index I` replays game I of a run with the run's rules and seats
    (refused if the simulator now plays it differently from its row); `balance replay GAME
    --seed S` plays game seed S with --players/-p/--set/--variant as in `simulate`. Prints the
    game turn by turn; --json prints the events; --out replay.html writes a page with the board,
    a slider over the events and the log.
    Example: balance replay runs/base --game-index 12 --out game12.html
    """
    from simulator.replay import replay_run, replay_seed

    is_run = Path(target).is_dir()
    if is_run:
        if game_index is None:
            raise BalanceError(f"{target} is a run folder: say which game with --game-index I")
        given = [
            name
            for name, value in (
                ("--seed", seed),
                ("--players", players),
                ("--policy", policy),
                ("--set", set_),
                ("--variant", variant),
                ("--policy-file", policy_file),
                ("--data", data),
            )  # fmt: skip
            if value is not None
        ]
        if given:
            raise BalanceError(
                f"{given[0]} does not apply to a run's game (it is replayed with the run's own "
                "seed, rules and seats); use `balance replay GAME --seed S` to choose them"
            )
    else:
        if game_index is not None:
            raise BalanceError(f"--game-index needs a run folder; {target!r} is not one")
        if seed is None:
            raise BalanceError(
                f"say which game of {target} to play with --seed S (a run's `seed` column), or "
                "give a run folder and --game-index I"
            )
    if out is not None:
        _check_page_path(out)
    if is_run:
        game = replay_run(target, game_index)  # type: ignore[arg-type]
    else:
        game = replay_seed(
            target, seed, players=players, policies=policy, sets=set_, variant=variant,
            policy_file=policy_file, data=data,
        )  # type: ignore[arg-type]  # fmt: skip
    page = None
    if out is not None:
        from reports.replay_page import render

        page = render(game)
    if as_json:
        print_json(game.as_json())
    elif out is None:
        typer.echo(game.text())
    if page is not None and out is not None:
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(page, encoding="utf-8")
        tmp.replace(out)
        if not as_json:
            typer.echo(game.header())
            typer.echo(game.result_line())
            typer.echo(f"{out}: {len(game.events)} events")


def _check_page_path(out: Path) -> None:
    if out.suffix.lower() not in (".html", ".htm"):
        raise BalanceError(f"--out {out}: name an .html file")
    if not out.parent.exists():
        raise BalanceError(f"--out {out}: folder {out.parent} does not exist")
    if out.is_dir():
        raise BalanceError(f"--out {out} is a folder; name an .html file")


# -- the games' own commands (each game's optional `commands` module) ---------------------------
def _add_game_commands() -> None:
    import importlib

    from simulator.games import game_commands_modules

    for module in game_commands_modules():
        importlib.import_module(module).register(app)


_add_game_commands()


if __name__ == "__main__":
    app()
