"""Run folders: ``manifest.json`` plus ``games/part-NNNNN.parquet``, one row per game.

Each part is written whole under a temporary name and renamed; just before, its record
(``checks/part-NNNNN.json``: rows, bytes, SHA-256 and the run's fingerprint) is written the same
way, so a part that is present always has its record, and a part cut short, overwritten or copied
in from another run is recognised without decoding a row. The manifest is written to a temporary
file, flushed to disk and renamed, so a crash never leaves it half written. One process writes a
folder at a time (:meth:`RunFolder.lock`, an OS lock that dies with its process).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.errors import BalanceError
from simulator.contract.outcomes import OUTCOME_COLUMNS, WIN_SHARE, winner_columns
from simulator.contract.registry import game_of_manifest

MANIFEST = "manifest.json"
PARTS_DIR = "games"
CHECKS_DIR = "checks"  # one record per part
DAMAGED_DIR = "damaged"  # bad parts are moved here before they are replayed, never deleted
LOCK_FILE = ".balance.lock"
FORMAT = 2  # 1: no part records (nothing to check parts against)
_OWN = {MANIFEST, PARTS_DIR, CHECKS_DIR, DAMAGED_DIR, LOCK_FILE}


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def fingerprint(config: dict[str, Any]) -> str:
    """A short hash of a run's ``config``: which run a part was written for."""
    text = json.dumps(config, sort_keys=True, default=_json_default)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def part_name(index: int) -> str:
    return f"part-{index:05d}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a run folder. ``part`` is None for the folder as a whole."""

    part: int | None
    what: str
    kind: str  # "damaged", "missing", "unfinished", "manifest", "busy"

    def where(self) -> str:
        return f"{part_name(self.part)}.parquet" if self.part is not None else ""


class RunFolder:
    """A run folder on disk. Create with :meth:`prepare` (writing) or :meth:`open` (reading)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fingerprint: str | None = None
        self._checked = False
        self.rebuilt = False  # set by prepare when it rebuilt an unreadable manifest

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def parts_dir(self) -> Path:
        return self.path / PARTS_DIR

    @property
    def checks_dir(self) -> Path:
        return self.path / CHECKS_DIR

    def part_path(self, index: int) -> Path:
        return self.parts_dir / f"{part_name(index)}.parquet"

    def record_path(self, index: int) -> Path:
        return self.checks_dir / f"{part_name(index)}.json"

    # -- writing -------------------------------------------------------------------------------
    @staticmethod
    def check_out(path: str | Path) -> None:
        """Refuse an ``--out`` that is a file or a non-empty folder that is not a run (before
        anything is written there, not even the lock)."""
        p = Path(path)
        if p.exists() and not p.is_dir():
            raise BalanceError(f"--out {str(p)!r} is a file; give a folder path for the run")
        if p.is_dir() and not (p / MANIFEST).is_file() and _foreign_entries(p):
            raise BalanceError(
                f"--out {str(p)!r} is a non-empty folder that is not a balance run; "
                "choose a new or empty folder"
            )

    @contextmanager
    def lock(self, wait: bool = False) -> Iterator[None]:
        """Hold the folder's writer lock: one writing command per folder. The lock is an OS lock
        (``filelock``), released by the kernel when its process dies, even by ``kill -9``."""
        from filelock import FileLock, Timeout

        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            where = str(self.path)
            raise BalanceError(f"cannot create run folder {where!r}: {exc.strerror}") from None
        # Not 0 without --wait: `balance verify` probes the lock for an instant, and a writer
        # starting in that instant must not be refused.
        lock = FileLock(self.path / LOCK_FILE, timeout=-1 if wait else 0.5)
        try:
            lock.acquire()
        except Timeout:
            raise BalanceError(
                f"{str(self.path)!r} is being written by another balance command; let it finish "
                "(add --wait to start when it has)"
            ) from None
        try:
            yield
        finally:
            lock.release()

    def busy(self) -> bool:
        """Whether another process holds the writer lock right now."""
        from filelock import FileLock, Timeout

        if not (self.path / LOCK_FILE).exists():
            return False
        lock = FileLock(self.path / LOCK_FILE, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            return True
        lock.release()
        return False

    @classmethod
    def prepare(cls, path: str | Path, manifest: dict[str, Any]) -> RunFolder:
        """Create a new run folder, or reopen one with the same ``config`` to resume it.

        Refuses (BalanceError) a path that is a file, a non-empty folder that is not a run, and a
        run of another configuration; nothing on disk is touched in those cases. A torn or
        unreadable manifest is rebuilt when no part record says another configuration wrote it.
        """
        cls.check_out(path)
        folder = cls(Path(path))
        p = folder.path
        fp = fingerprint(manifest["config"])
        if folder.manifest_path.is_file():
            try:
                old = folder.read_manifest()
            except BalanceError:
                old = None
            if old is None:
                others = {r.get("run") for r in folder._records().values()} - {fp}
                if others:
                    raise BalanceError(
                        f"{str(folder.manifest_path)!r} is unreadable and the parts beside it "
                        "were written by another configuration; use a new folder"
                    )
                folder.write_manifest({**manifest, "started": now(), "finished": None})
                folder.rebuilt = True
            elif old.get("config") != manifest["config"]:
                diff = _config_diff(old.get("config", {}), manifest["config"])
                if diff == "differs in policy_file":
                    raise BalanceError(
                        f"--out {str(p)!r} was played with another version of the policy file "
                        "(its content changed since); use a new folder, or restore the file to "
                        "resume"
                    )
                was, now_data = (
                    old.get("config", {}).get("data", {}),
                    manifest["config"].get("data", {}),
                )
                if was != now_data:  # a replaced file's content (its options may follow it)
                    names = sorted(
                        n for n in set(was) | set(now_data) if was.get(n) != now_data.get(n)
                    )
                    raise BalanceError(
                        f"--out {str(p)!r} was played with another content of data file "
                        f"{', '.join(names)} (changed, added or left out since); use a new "
                        "folder, or give the same file to resume"
                    )
                if diff == "differs in engine_source":
                    raise BalanceError(
                        f"--out {str(p)!r} was played by other engine code (the simulator or its "
                        "policies changed since); use a new folder so the two are not mixed"
                    )
                raise BalanceError(
                    f"--out {str(p)!r} holds a run of another configuration ({diff}); "
                    "use a new folder, or repeat the original command to resume it"
                )
            folder.parts_dir.mkdir(exist_ok=True)
            folder.checks_dir.mkdir(exist_ok=True)
            folder._fingerprint = fp
            return folder
        try:
            folder.parts_dir.mkdir(parents=True, exist_ok=True)
            folder.checks_dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise BalanceError(f"cannot create run folder {str(p)!r}: {exc.strerror}") from None
        folder.write_manifest({**manifest, "started": now(), "finished": None})
        folder._fingerprint = fp
        return folder

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        text = json.dumps(manifest, indent=2, default=_json_default)
        atomic_write(self.manifest_path, (text + "\n").encode(), durable=True)

    def update_manifest(self, **values: Any) -> None:
        self.write_manifest({**self.read_manifest(), **values})

    def done_parts(self) -> set[int]:
        """Indices of the part files present (sound or not: see :meth:`check`)."""
        if not self.parts_dir.is_dir():
            return set()
        return {
            int(f.name[5:10])
            for f in self.parts_dir.glob("part-*.parquet")
            if f.name[5:10].isdigit() and len(f.name) == len("part-00000.parquet")
        }

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.read_manifest()["config"])
        return self._fingerprint

    def write_part(self, index: int, table: pl.DataFrame | EncodedPart) -> None:
        """Write a part and its record. The record goes first, so a part on disk always has one;
        a crash between the two leaves a record without its part: a missing part, replayed.
        ``table`` may come already encoded by a worker (:func:`encode_part`, this run's
        fingerprint), so the writing process only hashes and writes bytes."""
        if isinstance(table, pl.DataFrame):
            table = encode_part(table, self.fingerprint, index)
        data = table.data
        record = {
            "part": index,
            "rows": table.rows,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "run": self.fingerprint,
        }
        atomic_write(self.record_path(index), (json.dumps(record) + "\n").encode())
        atomic_write(self.part_path(index), data)

    def remove_temporaries(self) -> None:
        """Delete half-written files left by a killed writer (call only holding the lock)."""
        for folder in (self.path, self.parts_dir, self.checks_dir):
            if folder.is_dir():
                for f in folder.glob("*.tmp"):
                    f.unlink(missing_ok=True)

    def set_aside(self, index: int) -> Path | None:
        """Move a bad part to ``damaged/`` before it is replayed (its record is simply rewritten):
        replaced, never deleted. Returns where it went."""
        src = self.part_path(index)
        if not src.exists():
            return None
        dest_dir = self.path / DAMAGED_DIR
        dest_dir.mkdir(exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        dest = dest_dir / f"{part_name(index)}-{stamp}.parquet"
        os.replace(src, dest)
        return dest

    # -- checking ------------------------------------------------------------------------------
    def check(self, deep: bool = True) -> list[Problem]:
        """Everything wrong with the folder, part by part (the manifest must be readable).

        ``deep`` hashes every part; otherwise only records, sizes and row counts are compared.
        Parts not yet played in an unfinished run are one ``unfinished`` problem, not missing.
        """
        manifest = self.read_manifest()
        if manifest.get("format", 1) < FORMAT:
            return []  # written before parts had records: nothing to check them against
        config = manifest["config"]
        fp = fingerprint(config)
        planned = _planned_rows(config)
        present = self.done_parts()
        records = self._records()
        problems = []
        for i in sorted(present):
            what = (
                f"not a part of this run (it has {len(planned)} parts)"
                if i not in planned
                else self._part_problem(i, planned[i], fp, records.get(i), deep)
            )
            if what:
                problems.append(Problem(i, what, "damaged"))
        # An unfinished run's absent parts are simply not played yet (one `unfinished` line).
        finished = manifest.get("finished") is not None
        expected: set[int] = set()
        if finished and manifest.get("stopped_early"):
            played = int(manifest.get("games_played", 0))
            expected = {i for i, first in _first_games(config).items() if first < played}
        elif finished:
            expected = set(planned)
        for i in sorted(expected - present):
            problems.append(Problem(i, "missing", "missing"))
        if not finished:
            games = sum(planned[i] for i in present if i in planned)
            total = int(config["games"])
            problems.append(
                Problem(None, f"unfinished: {games:,} of {total:,} games played", "unfinished")
            )
        return problems

    def _records(self) -> dict[int, dict[str, Any]]:
        out = {}
        if not self.checks_dir.is_dir():
            return out
        for f in self.checks_dir.glob("part-*.json"):
            if f.stem[5:].isdigit():
                try:
                    rec = json.loads(f.read_text())
                except (OSError, ValueError):
                    rec = {}
                out[int(f.stem[5:])] = rec if isinstance(rec, dict) else {}
        return out

    def _part_problem(
        self, index: int, rows: int, fp: str, record: dict[str, Any] | None, deep: bool
    ) -> str | None:
        path = self.part_path(index)
        if not record:
            return "damaged: it has no record of what was written (copied in, or its record lost)"
        if record.get("run") != fp or record.get("part") != index:
            return "recorded for another run or part (its record was copied in)"
        if record.get("rows") != rows:
            return f"holds {record.get('rows')} games where the run planned {rows}"
        size = path.stat().st_size
        if size != record.get("bytes") or (deep and _sha256(path) != record.get("sha256")):
            origin = _footer_origin(path)
            if origin is not None and origin != (fp, index):
                if origin[0] == fp:
                    return f"holds part {origin[1]} of this run, copied over it"
                return "comes from another run (copied in)"
            if size < record.get("bytes", 0):
                return f"damaged: cut short ({size:,} of {record['bytes']:,} bytes)"
            if size > record.get("bytes", 0):
                return f"damaged: longer than written ({size:,} bytes, {record['bytes']:,} written)"
            return "damaged: its bytes differ from the checksum taken when it was written"
        return None

    def ensure_sound(self, deep: bool = True) -> None:
        """Raise one line naming the first bad part and the repair, for readers (reports and
        analyses). An unfinished run may be read: its finished parts must be sound."""
        if self._checked:
            return
        problems = [p for p in self.check(deep) if p.kind in ("damaged", "missing")]
        if problems:
            first = problems[0]
            more = f" ({len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
            raise BalanceError(
                f"run {str(self.path)!r} is damaged: {first.where()} {first.what}{more}; "
                f"repair it with: balance verify --repair {_quote(self.path)}"
            )
        self._checked = True

    # -- reading -------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> RunFolder:
        folder = cls(Path(path))
        if not folder.manifest_path.is_file():
            raise BalanceError(f"{str(path)!r} is not a balance run folder (no {MANIFEST})")
        return folder

    def read_manifest(self) -> dict[str, Any]:
        where = str(self.manifest_path)
        try:
            data = json.loads(self.manifest_path.read_text())
        except OSError as exc:
            raise BalanceError(f"cannot read {where!r}: {exc.strerror}") from None
        except ValueError as exc:
            why = f"{exc.msg} at line {exc.lineno}" if hasattr(exc, "msg") else "not UTF-8 text"
            raise BalanceError(
                f"{where!r} is torn or damaged ({why}); repeat the command that made the run "
                "to rebuild it (its sound parts are kept)"
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
            raise BalanceError(
                f"{where!r} has no run configuration; repeat the command that made the run "
                "to rebuild it (its sound parts are kept)"
            )
        game_of_manifest(data)  # a designer's game file kept in it: known from here on
        return data

    def scan(self, check: bool = True) -> pl.LazyFrame:
        """The games as a LazyFrame; refuses (one line) a folder with a damaged or missing part."""
        if check:
            self.ensure_sound()
        if not self.done_parts():
            raise BalanceError(f"run {str(self.path)!r} has no finished games yet")
        return pl.scan_parquet(self.parts_dir / "part-*.parquet")


def load_run(path: str | Path) -> pl.LazyFrame:
    """A run's games as a Polars LazyFrame (never loads the whole run)."""
    return RunFolder.open(path).scan()


def read_manifest(path: str | Path) -> dict[str, Any]:
    return RunFolder.open(path).read_manifest()


def _foreign_entries(p: Path) -> list[str]:
    def own(name: str) -> bool:
        return name in _OWN or name.startswith(".") or name.startswith(f"{MANIFEST}.")

    return [e.name for e in p.iterdir() if not own(e.name)]


def _planned_rows(config: dict[str, Any]) -> dict[int, int]:
    games, size = int(config["games"]), int(config["chunk_size"])
    return {i: min(size, games - first) for i, first in enumerate(range(0, games, size))}


def _first_games(config: dict[str, Any]) -> dict[int, int]:
    games, size = int(config["games"]), int(config["chunk_size"])
    return dict(enumerate(range(0, games, size)))


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _footer_origin(path: Path) -> tuple[str, int] | None:
    """(run fingerprint, part index) from a part's Parquet footer, or None when unreadable."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path).metadata or {}
        return meta[b"balance.run"].decode(), int(meta[b"balance.part"])
    except Exception:  # any damage: the footer is not evidence of anything
        return None


@dataclass(frozen=True)
class EncodedPart:
    """A chunk's table as the Parquet bytes of its part file (encoded where it was played)."""

    rows: int
    data: bytes


def encode_part(table: pl.DataFrame, run: str, index: int) -> EncodedPart:
    """The Parquet bytes of part ``index`` of the run with fingerprint ``run``."""
    buffer = io.BytesIO()
    # The run and index ride in the Parquet footer too: a part copied in from elsewhere is then
    # named for what it is, not just as damaged.
    meta = {"balance.run": run, "balance.part": str(index)}
    table.write_parquet(buffer, compression="zstd", statistics=False, metadata=meta)
    return EncodedPart(table.height, buffer.getvalue())


def atomic_write(path: Path, data: bytes, durable: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``.
    ``durable`` flushes the file and the folder to disk first, so even a power cut leaves the old
    or the new file, never a torn one (parts need not pay for it: their records catch tearing)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        if durable:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if durable:
        try:  # the rename itself, on file systems that can flush a folder (not Windows)
            fd = os.open(path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _quote(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


def chunk_table(
    columns: dict[str, np.ndarray],
    *,
    game: str,
    variant: str,
    seeds: np.ndarray,
    first_index: int,
    policies: list[str],
    cooperative: bool,
    end_reasons: tuple[str, ...],
    lowest_wins: bool = False,
) -> pl.DataFrame:
    """The common columns of DESIGN.md, the outcome model's (``simulator.contract.outcomes``: the
    engine's own ``win_share``, ``place`` and ``returns`` where it gives them, else derived from
    its one winner and the scores), then the engine's game-specific ones."""
    n = len(seeds)
    winner = np.asarray(columns["winner"], dtype=np.int64)
    outcome = {k: columns[k] for k in OUTCOME_COLUMNS if k in columns}
    if WIN_SHARE not in outcome:
        success = np.asarray(columns["success"], dtype=bool) if cooperative else None
        outcome = winner_columns(winner, np.asarray(columns["scores"]), lowest_wins, success)
    data: dict[str, Any] = {
        "game": _repeat(game, pl.String, n),
        "variant": _repeat(variant, pl.String, n),
        "seed": pl.Series(seeds.astype(np.int64)),
        "game_index": pl.Series(np.arange(first_index, first_index + n, dtype=np.int64)),
        "n_players": pl.Series(np.full(n, len(policies), dtype=np.int8)),
        "policies": _repeat(policies, pl.List(pl.String), n),
        "winner": pl.Series(winner, dtype=pl.Int8).set(pl.Series(winner < 0), None),
        "success": pl.Series(
            np.asarray(columns["success"], dtype=bool) if cooperative else [None] * n,
            dtype=pl.Boolean,
        ),
        "length": pl.Series(np.asarray(columns["length"], dtype=np.int64)),
        "end_reason": pl.Series(list(end_reasons), dtype=pl.String).gather(
            np.asarray(columns["end_reason"])
        ),
        "scores": _list_column(np.asarray(columns["scores"])),
        **{k: _list_column(np.asarray(v)) for k, v in outcome.items()},
    }
    for name, values in columns.items():
        if name in data:
            continue
        if isinstance(values, pl.Series):  # already a column (see events_column)
            data[name] = values.alias(name)
            continue
        arr = np.asarray(values)
        data[name] = _list_column(arr) if arr.ndim == 2 else pl.Series(arr)
    return pl.DataFrame(data)


def events_column(cells: np.ndarray, counts: np.ndarray) -> pl.Series:
    """A list column from a flat array of events and the number of events of each game (engines
    return ragged data this way: numba has no list of arrays worth returning)."""
    import pyarrow as pa  # a tenth of a second: only the games with events need it

    counts = np.asarray(counts, dtype=np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    values = pa.array(np.asarray(cells, dtype=np.int64)[: offsets[-1]])
    return pl.Series(pa.ListArray.from_arrays(pa.array(offsets), values))


def _repeat(value: Any, dtype: pl.DataType, n: int) -> pl.Series:
    # Repeating inside Polars: a Python list of n lists cost 8 ms per 1,000 games, more than most
    # engines take to play them.
    return pl.Series([value], dtype=dtype).new_from_index(0, n)


def _list_column(arr: np.ndarray) -> pl.Series:
    return pl.Series(arr).cast(pl.List(pl.Int64 if arr.dtype.kind in "iub" else pl.Float64))


def _config_diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    if "rules" in keys:
        rk = sorted(
            k
            for k in set(old.get("rules", {})) | set(new.get("rules", {}))
            if old.get("rules", {}).get(k) != new.get("rules", {}).get(k)
        )
        keys[keys.index("rules")] = "rules: " + ", ".join(rk)
    return "differs in " + "; ".join(keys)


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray | tuple):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")
