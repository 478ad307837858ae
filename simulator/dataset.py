"""Run folders: ``manifest.json`` plus ``games/part-NNNNN.parquet``, one row per game.

Parts are written to a temporary name and renamed when complete, so a killed run leaves only whole
parts; the manifest's ``config`` decides whether an existing folder may be resumed.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from .errors import BalanceError

MANIFEST = "manifest.json"
PARTS_DIR = "games"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class RunFolder:
    """A run folder on disk. Create with :meth:`prepare` (writing) or :meth:`open` (reading)."""

    def __init__(self, path: Path):
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def parts_dir(self) -> Path:
        return self.path / PARTS_DIR

    def part_path(self, index: int) -> Path:
        return self.parts_dir / f"part-{index:05d}.parquet"

    # -- writing -------------------------------------------------------------------------------
    @classmethod
    def prepare(cls, path: str | Path, manifest: dict[str, Any]) -> RunFolder:
        """Create a new run folder, or reopen one with the same ``config`` to resume it.

        Refuses (BalanceError) a path that is a file, a non-empty folder that is not a run, and a
        run of another configuration; nothing on disk is touched in those cases.
        """
        folder = cls(Path(path))
        p = folder.path
        if p.exists() and not p.is_dir():
            raise BalanceError(f"--out {str(p)!r} is a file; give a folder path for the run")
        if p.is_dir() and any(p.iterdir()):
            if not folder.manifest_path.is_file():
                raise BalanceError(
                    f"--out {str(p)!r} is a non-empty folder that is not a balance run; "
                    "choose a new or empty folder"
                )
            old = folder.read_manifest()
            if old.get("config") != manifest["config"]:
                diff = _config_diff(old.get("config", {}), manifest["config"])
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
            return folder
        try:
            folder.parts_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BalanceError(f"cannot create run folder {str(p)!r}: {exc.strerror}") from None
        folder.write_manifest({**manifest, "started": now(), "finished": None})
        return folder

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(manifest, indent=2, default=_json_default) + "\n")
        os.replace(tmp, self.manifest_path)

    def update_manifest(self, **values: Any) -> None:
        self.write_manifest({**self.read_manifest(), **values})

    def done_parts(self) -> set[int]:
        if not self.parts_dir.is_dir():
            return set()
        return {
            int(f.name[5:10])
            for f in self.parts_dir.glob("part-*.parquet")
            if f.name[5:10].isdigit()
        }

    def write_part(self, index: int, table: pl.DataFrame) -> None:
        final = self.part_path(index)
        tmp = final.with_name(final.name + ".tmp")
        table.write_parquet(tmp, compression="zstd", statistics=False)
        os.replace(tmp, final)

    # -- reading -------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> RunFolder:
        folder = cls(Path(path))
        if not folder.manifest_path.is_file():
            raise BalanceError(f"{str(path)!r} is not a balance run folder (no {MANIFEST})")
        return folder

    def read_manifest(self) -> dict[str, Any]:
        try:
            return json.loads(self.manifest_path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise BalanceError(f"cannot read {str(self.manifest_path)!r}: {exc}") from None

    def scan(self) -> pl.LazyFrame:
        if not self.done_parts():
            raise BalanceError(f"run {str(self.path)!r} has no finished games yet")
        return pl.scan_parquet(self.parts_dir / "part-*.parquet")


def load_run(path: str | Path) -> pl.LazyFrame:
    """A run's games as a Polars LazyFrame (never loads the whole run)."""
    return RunFolder.open(path).scan()


def read_manifest(path: str | Path) -> dict[str, Any]:
    return RunFolder.open(path).read_manifest()


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
) -> pl.DataFrame:
    """The common columns of DESIGN.md followed by the engine's game-specific ones."""
    n = len(seeds)
    winner = np.asarray(columns["winner"], dtype=np.int64)
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
