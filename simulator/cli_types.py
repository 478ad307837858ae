"""Option types and output helpers shared by the command line (``cli.py``) and the games' own
commands (``simulator/<game>/commands.py``), so a game's command reads like the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

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


def print_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=2, default=str))
