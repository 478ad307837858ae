"""The command line's Typer app: every error one line on stderr, exit code 2 (130 when
interrupted), never a traceback; the games' own commands added when needed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click
import typer

from simulator.contract.errors import BalanceError
from simulator.runs import interrupt


class App(typer.Typer):
    """A Typer app whose every usage error is one line and exit code 2.

    ``late_commands()`` gives more command functions (the games' own), added when the app
    first runs a command that is not one of its own: finding them imports every game, which
    the app's own commands do without. The app's own help lists them by name and summary
    (``late_summaries()``), which imports nothing."""

    def __init__(
        self,
        *,
        late_commands: Callable[[], list[Callable[..., Any]]],
        late_summaries: Callable[[], dict[str, str]],
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self._late_commands: Callable[[], list[Callable[..., Any]]] | None = late_commands
        self._late_summaries = late_summaries

    def _add_late_commands(self, argv: list[str] | None) -> None:
        argv = list(sys.argv[1:] if argv is None else argv)
        own = {c.name or c.callback.__name__.replace("_", "-") for c in self.registered_commands}
        if self._late_commands is None or (argv and argv[0] in own):
            return
        if argv in ([], ["--help"]):  # the app's help: it runs no command
            self._late_commands = None
            for name, summary in self._late_summaries().items():
                self.command(name=name, help=summary)(_listed_only)
            return
        late, self._late_commands = self._late_commands(), None
        for function in late:
            self.command()(function)

    def __call__(self, *args, **kwargs):  # noqa: ANN002, ANN003
        argv = list(args[0] if args else kwargs.get("args") or sys.argv[1:])
        self._add_late_commands(argv)
        command = typer.main.get_command(self)
        interrupt.forget()
        try:
            # Any error a Ctrl-C caused (numba's compiler and compiled code turn an interrupt into
            # other errors) is the interrupt.
            with interrupt.noticed():
                code = command.main(*args, standalone_mode=False, **kwargs)
        except BalanceError as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            code = 130
        except typer.Abort:
            _fail("aborted", code=130)
        except Exception as exc:
            if interrupt.is_interrupt(exc):  # Ctrl-C inside compiled code
                _interrupted(argv)
            # Click's usage errors (vendored by newer Typer, so matched by shape, not by class).
            if type(exc).__name__.startswith("NoArgsIsHelp"):
                click.echo(exc.ctx.get_help() if getattr(exc, "ctx", None) else "")
                sys.exit(0)
            if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
                _fail(_usage_message(exc, args[0] if args else None))
            raise
        if code == 130:  # Typer's answer to Ctrl-C
            _interrupted(argv)
        sys.exit(code if isinstance(code, int) else 0)


def _listed_only() -> None:
    """A game's own command as the app's help lists it (never run: the help runs nothing)."""


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


def _interrupted(argv: list[str]) -> None:
    """Ctrl-C: one line with the games kept and the command that resumes them; exit 130."""
    click.echo(f"balance: {interrupt.interrupted_line(argv)}", err=True)
    sys.exit(130)


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"balance: error: {message}", err=True)
    sys.exit(code)
