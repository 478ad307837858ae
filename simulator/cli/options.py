"""Option types and output helpers shared by the command line (``cli.py``) and the games' own
commands (``simulator/cli/commands/``), so every command declares an option once and a game's
command reads like the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

GameArg = Annotated[
    str,
    typer.Argument(
        help="A game id (`balance games`) or a game file's path, e.g. examples/pig.py "
        "(docs/own-game.md)."
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", "-s", help="Change a rule: key=value (repeatable). See `balance rules GAME`."
    ),
]
VariantOpt = Annotated[
    Path | None,
    typer.Option(
        "--variant", help='TOML file: name = "..." and a [rules] table; applied before --set.'
    ),
]
DATA_HELP = (
    "Replace one of the game's data files for this run: NAME=FILE (repeatable; `balance data "
    "GAME` lists the names and formats). Checked before anything is written; its SHA-256 and "
    "text go into the manifest."
)
DataOpt = Annotated[list[str] | None, typer.Option("--data", help=DATA_HELP)]
# In `compare`, where --set forms one more variant, --data joins it (shipped data against yours).
CompareDataOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--data",
        help="Data file NAME=FILE (repeatable); with any --set values it forms one more "
        "variant, played against the shipped data. A variant file's [data] table makes a "
        "variant of its own files.",
    ),
]
JOBS_HELP = "Worker processes (default: every core); -1 is every core, -2 all but one, and so on."
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help=JOBS_HELP)]
WaitOpt = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="If another balance command is writing the same folder, wait for it to finish "
        "instead of stopping at once.",
    ),
]

# --policy's example: the search player's budget, a real parameter in every game that has the
# search player (a test parses it in each).
POLICY_EXAMPLE = "mcts:playouts=400"
PolicyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        "-p",
        help="Policy for every seat, or repeat once per seat in seat order. Parameters after a "
        f"colon: {POLICY_EXAMPLE}. See `balance policies GAME` for names and parameters.",
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


def _call_limit(seconds: float) -> float:
    """--call-limit set for this process at once (the file loads before the command runs) and
    carried to workers with a game file's spec (``simulator.games.own_game.watchdog``)."""
    from simulator.contract.errors import BalanceError
    from simulator.games.own_game import watchdog

    if seconds < 0:
        raise BalanceError(f"--call-limit must be 0 (no limit) or more seconds, not {seconds:g}")
    watchdog.set_limit(seconds)
    return seconds


CALL_LIMIT = 30.0
CallLimitOpt = Annotated[
    float,
    typer.Option(
        "--call-limit",
        metavar="SECONDS",
        callback=_call_limit,
        help="A game file only: stop with one line naming the function, game and step when one "
        "call into the file (loading it, a game function, a policy) or one game (the search's "
        "thinking apart) runs longer than this. 0: no limit.",
    ),
]


def _checked_cluster(value: str | None) -> str | None:
    """--cluster refused at once (one line) unless a Dask scheduler answers there."""
    from simulator.runs.cluster import check_cluster

    return check_cluster(value)


ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Dask scheduler address (tcp://host:8786) or 'local'.",
        callback=_checked_cluster,
    ),
]
TrialsOpt = Annotated[
    int,
    typer.Option("--trials", "-t", help="Candidate settings to try (the first is the defaults)."),
]


# -- balance games
GamesJsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]

# -- balance data
DataNameArg = Annotated[
    str | None, typer.Argument(help="A data file's name: show it, or --export it.")
]
DataExportOpt = Annotated[
    Path | None,
    typer.Option("--export", help="Write the shipped file here (an existing file is kept)."),
]
DataJsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

# -- balance board
BoardOutOpt = Annotated[
    Path | None, typer.Option("--out", "-o", help="Picture to write: .png, .svg or .pdf.")
]
BoardIdsOpt = Annotated[bool, typer.Option("--ids", help="Write each cell's name on the picture.")]
BoardJsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the cells (id, kind, x, y, neighbours) as JSON.")
]

# -- balance simulate
SimulateOutOpt = Annotated[
    Path, typer.Option("--out", "-o", help="Run folder to write (resumed if it exists).")
]
SimulateNOpt = Annotated[int, typer.Option("-n", "--games", help="Number of games.")]
SimulateSeedOpt = Annotated[int, typer.Option("--seed", help="Run seed: same seed, same games.")]
SimulateChunkSizeOpt = Annotated[
    int | None,
    typer.Option(
        "--chunk-size", help="Games per part (default: about 1/32 of the run, 250-10,000)."
    ),
]
SimulateJsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the headline figures as JSON.")
]
SimulateUntilCiOpt = Annotated[
    float | None,
    typer.Option(
        "--until-ci",
        help="Stop once every win-rate (or success-rate) interval is narrower than this "
        "width, e.g. 0.02; -n is then the most games played.",
    ),
]
RotateOpt = Annotated[
    bool,
    typer.Option(
        "--rotate",
        help="Play every rotation of the lineup (--policy per seat) on the same seeds into "
        "OUT/rot-K/ and pool them, as `design --rotate` judges a setting (a variant file a "
        "design wrote carries its lineup and rotation).",
    ),
]

# -- balance report
ReportRunsArg = Annotated[
    list[Path],
    typer.Argument(help="Run folders, or the folder of a compare, sweep or tournament."),
]
ReportOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="Report file (default: report.html, or report.md, in the folder given; here for "
        "several runs).",
    ),
]

# -- balance compare
CompareVariantOpt = Annotated[
    list[Path] | None,
    typer.Option("--variant", help="Variant file (TOML), repeatable; each is one variant."),
]
CompareSetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        help="Rule change key=value (repeatable); together they form one more variant.",
    ),
]
CompareUntilCiOpt = Annotated[
    float | None,
    typer.Option(
        "--until-ci",
        help="Stop once every win-rate (or success-rate) interval of the default run is "
        "narrower than this width; every variant then plays as many games.",
    ),
]
CompareTuneOpt = Annotated[
    str | None,
    typer.Option(
        "--tune",
        help="Adapted play: tune this seated policy under each rule set first (balance tune "
        "against the other seats' policies) and compare with each run's best setting.",
    ),
]
CompareTuneTrialsOpt = Annotated[
    int, typer.Option("--tune-trials", help="Candidates per tune (with --tune).")
]
CompareTuneGamesOpt = Annotated[
    int, typer.Option("--tune-games", help="Games per candidate (with --tune).")
]
CompareLadderOpt = Annotated[
    str | None,
    typer.Option(
        "--ladder",
        help="Rungs of skill, comma-separated (e.g. random,lookahead,mcts:playouts=100): the "
        "whole comparison is played under each rung, every seat playing it, and each effect "
        "is judged 'holds at every rung', 'changes with skill' or 'cannot tell yet'.",
    ),
]

# -- balance sweep
SweepParamOpt = Annotated[
    list[str],
    typer.Option(
        "--param",
        help="Rule to sweep: key=v1,v2,v3 (repeatable: the grid of all combinations). "
        "Use ; between values that are lists themselves; key 'players' sweeps the player "
        "count.",
    ),
]

# -- balance tournament
TournamentPolicyOpt = Annotated[
    list[str],
    typer.Option(
        "--policy", "-p", help="A policy to enter (repeat, at least two); name:key=value."
    ),
]

# -- balance skill
SkillRungsOpt = Annotated[
    str | None,
    typer.Option(
        "--rungs",
        help="The ladder, comma-separated policies (name:key=value allowed), e.g. "
        "random,lookahead,mcts:playouts=100,mcts:playouts=400. Default: random, every "
        "hand-written policy, then the searching policy (mcts, or the one the game names) at a "
        "quarter of its default budget and at its default.",
    ),
]
SkillNOpt = Annotated[
    int | None,
    typer.Option(
        "-n",
        "--games",
        help="Games per run: every rung against itself, and every seating of every pair. "
        "Default: 400 games for each pair of rungs, shared by its seatings (200 a run at two "
        "or four seats, 67 at three, where a pair has six seatings, 40 at five); 200 in a "
        "cooperative game.",
        show_default=False,
    ),
]
SkillParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        help="Cooperative games: play the ladder at each value, key=v1,v2,... (repeatable, "
        "e.g. mission=1,10,20).",
    ),
]

# -- balance explore
ExploreOptionsOpt = Annotated[
    str | None,
    typer.Option(
        "--options",
        help="Options to screen, comma-separated (default: every number and yes/no option "
        "except run limits such as a turn cap). A choice option named here is screened as "
        "its choices in the order `balance rules` lists them. List options (card counts) "
        "and text cannot be screened: Morris steps along one ordered scale per option.",
    ),
]
ExploreRangeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--range",
        help="NAME=LO:HI, repeatable: the range screened for a number option, inside its "
        "declared bounds. Default: half to double the value in force (0: up to a tenth of "
        "the bounds), integers rounded, shown in the report.",
    ),
]
ExploreNOpt = Annotated[
    int,
    typer.Option("-n", "--games", help="Games at each point of the design (same seeds)."),
]
ExploreTrajectoriesOpt = Annotated[
    int | None,
    typer.Option(
        "--trajectories",
        "-r",
        help="Morris: trajectories r, the design has r(k + 1) points for k options "
        "(default 10). Sobol: Saltelli's base sample N, a power of 2, N(k + 2) points "
        "(default 16).",
    ),
]
ExploreMethodOpt = Annotated[
    str,
    typer.Option(
        "--method",
        help="morris (elementary effects: a ranking, cheap) or sobol (variance shares with "
        "interactions; needs many more points).",
    ),
]

# -- balance verify
VerifyRepairOpt = Annotated[
    bool,
    typer.Option(
        "--repair",
        help="Replay every damaged or missing part (and finish an unfinished run) from the "
        "folder's own manifest; bad files are moved to RUN/damaged/, never deleted.",
    ),
]

# -- balance tune
TunePolicyOpt = Annotated[
    str,
    typer.Option(
        "--policy",
        "-p",
        help="Policy to tune; name:key=value sets the starting values (and those of "
        "parameters not searched).",
    ),
]
TuneAgainstOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--against",
        "-a",
        help="Opponent policy (repeatable; name:key=value). The tuned policy meets each one "
        "in every seat. Default: every other policy of the game (a cooperative game: "
        "every seat plays the tuned policy).",
    ),
]
TuneParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        help="Parameter to search (repeatable): NAME, or NAME=LO:HI for narrower bounds than "
        "declared. Default: every parameter the policy declares.",
    ),
]
TuneNOpt = Annotated[
    int,
    typer.Option("-n", "--games", help="Games per candidate, shared among its seatings."),
]
TuneCheckGamesOpt = Annotated[
    int | None,
    typer.Option(
        "--check-games",
        help="Fresh games on which the best setting and the defaults are measured again "
        "(default: twice -n).",
    ),
]
ResultJsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]

# -- balance design
DesignTargetOpt = Annotated[
    list[str],
    typer.Option(
        "--target",
        "-t",
        help="What the game should do (repeatable, at least one): "
        + TARGET_HELP.removeprefix("Design target, repeatable: "),
    ),
]
DesignParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        help="Rule option to search (repeatable): NAME=LO:HI for a number, NAME=a,b,c for "
        "values to choose from, NAME alone for a yes/no or choice option (every value).",
    ),
]
DesignExploreOpt = Annotated[
    Path | None,
    typer.Option(
        "--explore",
        help="Without --param: search the options this `balance explore` folder ranked "
        "highest for the targets' figures, over the ranges it screened.",
    ),
]
DesignTunePolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--tune",
        help="Adapted play: re-tune this seated policy under every candidate before judging "
        "it (costs about --tune-trials times the games).",
    ),
]
DesignTuneTrialsOpt = Annotated[
    int, typer.Option("--tune-trials", help="Tune candidates per rule setting (with --tune).")
]
DesignTuneGamesOpt = Annotated[
    int | None,
    typer.Option("--tune-games", help="Games per tune candidate (with --tune; default -n)."),
]
DesignRotateOpt = Annotated[
    bool,
    typer.Option(
        "--rotate",
        help="Play every rotation of the --policy lineup (each policy in each seat equally "
        "often), so first-seat targets measure the seat and policy:NAME targets the policy.",
    ),
]
DesignTrialsOpt = Annotated[
    int,
    typer.Option("--trials", help="Rule settings to try (the first is the starting rules)."),
]
DesignNOpt = Annotated[int, typer.Option("-n", "--games", help="Games per candidate.")]
DesignCheckGamesOpt = Annotated[
    int | None,
    typer.Option(
        "--check-games",
        help="Fresh games on which the best settings and the starting rules are played "
        "again to judge the targets (default: twice -n).",
    ),
]
DesignCheckSettingsOpt = Annotated[
    int,
    typer.Option("--check-settings", help="How many of the best settings to check."),
]

# -- balance demo
DemoOutOpt = Annotated[Path, typer.Option("--out", "-o", help="Folder for the runs and reports.")]
DemoNOpt = Annotated[int, typer.Option("-n", "--games", help="Games per game.")]
DemoSeedOpt = Annotated[int, typer.Option("--seed", help="Run seed.")]

# -- balance replay
ReplayTargetArg = Annotated[
    str,
    typer.Argument(
        help="A run folder (with --game-index), or a game id or game file (with --seed)."
    ),
]
ReplayGameIndexOpt = Annotated[
    int | None,
    typer.Option("--game-index", "-i", help="Game of the run to replay (its game_index)."),
]
ReplaySeedOpt = Annotated[
    int | None,
    typer.Option("--seed", help="Game seed (a run's `seed` column) of the game to play."),
]
ReplayJsonOpt = Annotated[
    bool,
    typer.Option(
        "--json", help="Print {game, seed, rules_changed, players, policies, events, result}."
    ),
]
ReplayOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Write a replay page (.html): the board at every step, the log."
    ),
]


def print_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=2, default=str))
