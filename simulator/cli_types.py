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
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")
]


def print_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=2, default=str))
