"""The README's printed examples and the commands that print them.

Every ```text block of the README is one or more ``$ balance ...`` lines, each followed by what
the command prints; a ```toml block whose first line is ``# NAME`` is a file they read. A block
shown whole is the command's output exactly; a line ``...`` stands for lines left out, and the
lines shown must then appear in that order. Commands run in order in one folder (a later example
may read an earlier one's run folder).

``python -m tests.readme_examples`` rewrites every block shown whole from its command's output
(``--fast``: only those that play no game); the tests in ``test_readme.py`` fail when a block and
its command drift.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"```text\n(.*?)```", re.S)
# A file an example reads, shown in the README as a block whose first line names it.
FILE = re.compile(r"```toml\n# (\S+)\n(.*?)```", re.S)
SKIP = "..."
# Commands that play no game (no engine compiles): checked in every test run.
FAST = ("games", "rules", "board")


@dataclass(frozen=True)
class Example:
    command: str  # without "$ " and a trailing "# comment"
    shown: tuple[str, ...]  # what the README shows it printing
    line: str = ""  # the README's line, comment included

    @property
    def fast(self) -> bool:
        words = shlex.split(self.command)
        refused = any(line.startswith("balance: error:") for line in self.shown)
        return words[1] in FAST or refused

    @property
    def whole(self) -> bool:
        return SKIP not in self.shown


def examples(text: str) -> list[Example]:
    out = []
    for block in BLOCK.findall(text):
        raw, command, shown = "", None, []
        for line in block.splitlines():
            if line.startswith("$ balance "):
                if command is not None:
                    out.append(Example(command, tuple(shown), raw))
                raw, command, shown = line, line[2:].split("  #")[0].strip(), []
            elif command is not None:
                shown.append(line.rstrip())
        if command is not None:
            out.append(Example(command, tuple(shown), raw))
    return out


def write_files(text: str) -> None:
    """Write here the files the README's examples read (``# cheap-search.toml`` blocks)."""
    for name, body in FILE.findall(text):
        Path(name).write_text(body, encoding="utf-8")


def output(command: str) -> list[str]:
    """What the command prints, line by line, run here in this process: its standard output and
    its error line, without the progress said on stderr (a compile, a reused folder)."""
    import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.app(shlex.split(command)[1:])
        except SystemExit:
            pass
    errors = [x for x in err.getvalue().splitlines() if x.startswith("balance: error:")]
    return [line.rstrip() for line in out.getvalue().splitlines() + errors]


def agrees(shown: tuple[str, ...], printed: list[str]) -> bool:
    """Whether the README's lines are what the command printed (in order, ``...`` skipping)."""
    if not shown:
        return True  # the README shows the command only
    if SKIP not in shown:
        return list(shown) == printed
    at = 0
    for line in shown:
        if line == SKIP:
            continue
        try:
            at = printed.index(line, at) + 1
        except ValueError:
            return False
    return True


def rewrite(text: str, fast_only: bool) -> str:
    """The README with every block shown whole replaced by its command's output."""

    def block(match: re.Match[str]) -> str:
        lines = []
        for example in examples(f"```text\n{match[1]}```"):
            lines.append(example.line)
            if example.whole and example.shown and (example.fast or not fast_only):
                lines += output(example.command)
            else:
                lines += list(example.shown)
        return "```text\n" + "\n".join(lines) + "\n```"

    return BLOCK.sub(block, text)


def main() -> None:
    import tempfile

    fast_only = "--fast" in sys.argv
    text = README.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        write_files(text)
        new = rewrite(text, fast_only)
    README.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
