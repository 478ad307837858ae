"""Named data of a game: the board and card files a designer may replace for one run.

A game declares each file under ``simulator/games/<game>/data/`` as a :class:`DataFile` (its name,
what it holds, its format in one line, whether it is exact or a reconstruction, the rules page
section that documents it field by field, and a ``check`` that parses it). The declarations sit on
the game's rule set (``Rules.data_files``), because the rules object is what every engine, board
drawing, replay, report and worker already receives: a replacement travels inside it as a
:class:`DataSource` (its name, the path it was read from and its whole text), compared and cached by
SHA-256. So a run on a Dask worker holds the very text the designer gave, never a path.

``--data NAME=FILE`` (any command that plays or draws) and a variant file's ``[data]`` table
(``cards = "my_cards.csv"``, relative to the variant file) replace one file for a run. Every file
is read and checked before anything is written: a problem is one line naming the file, the line
or field and what is allowed. The manifest records each replaced file's SHA-256 in the run's
configuration (resuming with another content is refused) and its text beside it (``balance
verify --repair`` and ``balance replay`` need no copy).
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import BalanceError


@dataclass(frozen=True)
class DataSource:
    """One data file's content: the shipped file or a designer's replacement.

    Equal (and hashed) by name and SHA-256 only, so loaders cache what they build from it per
    content, whichever path it came from."""

    name: str
    text: str = field(compare=False, repr=False)
    path: str = field(default="", compare=False)  # the file given; "" for the shipped one
    sha256: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha256", hashlib.sha256(self.text.encode()).hexdigest())

    @property
    def shipped(self) -> bool:
        return not self.path

    @property
    def label(self) -> str:
        """How a variant label names it: the file's name (``cards=my_cards.csv``)."""
        return Path(self.path).name if self.path else "shipped"

    def where(self, line: int | None = None) -> str:
        """The file for a message, with a line number when given (``my_cards.csv:4``)."""
        base = self.path or f"the shipped {self.name} file"
        return f"{base}:{line}" if line is not None else base

    def as_manifest(self) -> dict[str, str]:
        return {"path": self.path, "sha256": self.sha256, "text": self.text}


@dataclass(frozen=True)
class DataFile:
    """One named data file of a game, as ``balance data GAME`` lists it."""

    name: str  # the NAME of --data NAME=FILE
    file: str  # its file name in the game's data folder
    folder: str  # the game's data folder (a path)
    holds: str  # what it holds, one sentence
    format: str  # its format, one line
    exact: bool  # exact (from the published game) or a reconstruction
    docs: str  # where it is documented field by field (rules page and section)
    # (source) -> the parsed content; raises BalanceError, one line naming file and line or field
    check: Callable[[DataSource], Any]

    @property
    def path(self) -> Path:
        return Path(self.folder) / self.file

    @cached_property
    def shipped(self) -> DataSource:
        return DataSource(self.name, self.path.read_text(encoding="utf-8"))

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "file": self.file,
            "holds": self.holds,
            "format": self.format,
            "status": "exact" if self.exact else "reconstruction",
            "docs": self.docs,
            "sha256": self.shipped.sha256,
        }


def declared(files: Iterable[DataFile], name: str, game: str, where: str = "--data") -> DataFile:
    """The data file ``name`` of ``game``; an unknown name is one line listing the known ones."""
    files = list(files)
    for f in files:
        if f.name == name:
            return f
    if not files:
        raise BalanceError(
            f"{where}: {game} has no data files to replace (balance data {game} says why)"
        )
    names = [f.name for f in files]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise BalanceError(
        f"{where}: unknown data name '{name}' for {game}; {hint}known: {', '.join(names)}"
    )


def export_shipped(file: DataFile, path: Path) -> None:
    """Write the shipped ``file`` to ``path`` (``balance data GAME NAME --export``): a new file
    only, never over an existing one."""
    where = f"--export {str(path)!r}"
    if path.exists():
        raise BalanceError(f"{where} already exists; it is kept (give a new file name)")
    if not path.parent.is_dir():
        raise BalanceError(f"{where}: folder {str(path.parent)!r} does not exist")
    try:
        with path.open("x", encoding="utf-8", newline="") as fh:
            fh.write(file.shipped.text)
    except OSError as exc:
        raise BalanceError(f"{where}: cannot write it ({exc.strerror})") from None


def parse_data_options(pairs: Iterable[str]) -> dict[str, str]:
    """``["cards=my.csv"]`` -> ``{"cards": "my.csv"}``; a pair without ``=`` or a name given
    twice is one line."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        name, path = name.strip(), path.strip()
        if not sep or not name or not path:
            raise BalanceError(f"--data expects NAME=FILE, got {pair!r}")
        if name in out:
            raise BalanceError(f"--data {name} is given twice; give each data name once")
        out[name] = path
    return out


def read_source(file: DataFile, path: str | Path, where: str = "--data") -> DataSource:
    """Read and check a designer's replacement of ``file`` (one line for any problem)."""
    p = Path(path)
    what = f"{where} {file.name}={str(path)!r}"
    if not p.exists():
        raise BalanceError(f"{what}: no such file")
    if p.is_dir():
        raise BalanceError(f"{what} is a folder; give the {file.file} file itself")
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BalanceError(
            f"{what}: not UTF-8 text (byte {exc.start}); save it as UTF-8 ({file.format})"
        ) from None
    except OSError as exc:
        raise BalanceError(f"{what}: cannot read it ({exc.strerror})") from None
    source = DataSource(file.name, text.removeprefix("\ufeff"), str(path))
    file.check(source)
    return source


def read_sources(
    files: Iterable[DataFile],
    game: str,
    given: Mapping[str, tuple[str | Path | DataSource, str]],
) -> dict[str, DataSource]:
    """``given``: data name -> (path, or a source already read and checked; where it was given,
    for messages)."""
    files = list(files)
    out = {}
    for name, (path, where) in given.items():
        file = declared(files, name, game, where)
        out[name] = path if isinstance(path, DataSource) else read_source(file, path, where)
    return out


def read_data(
    rules_cls: type[Any], data: Mapping[str, str | Path] | Iterable[str] | None
) -> dict[str, DataSource]:
    """``--data`` pairs (``["cards=my.csv"]`` or name -> path) read and checked once, for
    commands that plan many runs from them."""
    if not data:
        return {}
    pairs = dict(data) if isinstance(data, Mapping) else parse_data_options(data)
    given = {k: (v, "--data") for k, v in pairs.items()}
    return read_sources(rules_cls.data_files, rules_cls.game_id, given)


def sources_from_manifest(manifest: Mapping[str, Any], source: str) -> dict[str, DataSource]:
    """The replaced data files a run recorded (``manifest["data"]``), checked against their hash."""
    out = {}
    for name, entry in (manifest.get("data") or {}).items():
        try:
            s = DataSource(str(name), str(entry["text"]), str(entry["path"]))
            sha = entry["sha256"]
        except (KeyError, TypeError):
            raise BalanceError(f"{source}: data file '{name}' is recorded incompletely") from None
        if s.sha256 != sha:
            raise BalanceError(f"{source}: data file '{name}' does not match its recorded SHA-256")
        out[s.name] = s
    return out


# -- helpers for the games' checks ------------------------------------------------------------
def csv_rows(source: DataSource, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV file with exactly ``columns`` (in any order; extra columns refused
    unless ``columns`` ends with ``"..."``), each with its line number. Blank lines and lines
    starting with ``#`` are skipped."""
    open_ended = columns[-1:] == ("...",)
    wanted = columns[:-1] if open_ended else columns
    reader = csv.reader(io.StringIO(source.text))
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise BalanceError(f"{source.where(reader.line_num)}: not CSV ({exc})") from None
    if not rows:
        raise BalanceError(f"{source.where()}: empty; the header is {','.join(wanted)}")
    first, header = rows[0][0], [h.strip() for h in rows[0][1]]
    at = source.where(first)
    missing = [c for c in wanted if c not in header]
    if missing:
        raise BalanceError(
            f"{at}: header lacks column '{missing[0]}'; the header is {','.join(wanted)}"
        )
    unknown = [c for c in header if c not in wanted]
    if unknown and not open_ended:
        raise BalanceError(f"{at}: unknown column '{unknown[0]}'; the header is {','.join(wanted)}")
    if len(set(header)) != len(header):
        raise BalanceError(f"{at}: a column is named twice in the header")
    out = []
    for number, row in rows[1:]:
        if len(row) != len(header):
            raise BalanceError(
                f"{source.where(number)}: {len(row)} fields, the header has {len(header)}"
            )
        out.append((number, {h: v.strip() for h, v in zip(header, row, strict=True)}))
    if not out:
        raise BalanceError(f"{source.where()}: no rows after the header")
    return out


def integer(
    source: DataSource, line: int | None, column: str, raw: str, lo: int | None = None,
    hi: int | None = None,
) -> int:  # fmt: skip
    """``raw`` as an integer in ``lo..hi``, or one line naming file, line, column and range."""
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            allowed = f"an integer from {lo} to {hi}"
        elif lo is not None:
            allowed = f"an integer >= {lo}"
        else:
            allowed = "an integer"
        raise BalanceError(f"{source.where(line)}: {column} {raw!r} is not {allowed}")
    return value


def rules_from_manifest(rules_cls: type[Any], manifest: Mapping[str, Any], source: str) -> Any:
    """A run's rule set rebuilt from its manifest: the recorded data files, then the options."""
    rules = rules_cls().with_data(sources_from_manifest(manifest, source))
    return rules.with_values(manifest["config"]["rules"], source=source)
