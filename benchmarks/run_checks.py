"""What the run-folder checks cost: writing each part's record, and verifying a whole run.

    .venv/bin/python benchmarks/run_checks.py --games 1000000

Plays the test suite's fake game (the cheapest engine, so the checks' share is the largest it
gets), writes every part twice (as before part records: Parquet to a temporary name and rename;
and as now: the same bytes hashed, the record written, then the part) and times `balance
verify`'s check of the finished folder, cold-ish (right after writing) and warm.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import tests.conftest  # noqa: F401  (registers the fake game)
    from simulator.folders.run_folder import RunFolder, atomic_write
    from simulator.runs.plan import plan_run, play_chunk
    from simulator.runs.runner import run

    config = plan_run("fake", args.games, seed=1)
    tables = [(i, play_chunk(config, i, first, n)) for i, first, n in config.chunks()]
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        start = time.perf_counter()
        folder = run(config, Path(tmp) / "played", jobs=1)
        whole_run = time.perf_counter() - start

        def plain(path: Path) -> None:
            for i, table in tables:
                final = path / f"part-{i:05d}.parquet"
                tmp_name = final.with_name(final.name + ".tmp")
                table.write_parquet(tmp_name, compression="zstd", statistics=False)
                os.replace(tmp_name, final)

        def recorded(path: Path) -> None:
            for i, table in tables:
                f.write_part(i, table)

        before, now = [], []
        for k in range(args.repeat):
            f = RunFolder.prepare(Path(tmp) / f"recorded-{k}", config.manifest())
            for label, func, out in (("plain", plain, before), ("recorded", recorded, now)):
                if label == "plain":
                    (Path(tmp) / f"plain-{k}").mkdir()
                start = time.perf_counter()
                func(Path(tmp) / f"plain-{k}")
                out.append(time.perf_counter() - start)
        # The added work alone (hashing the bytes, writing the records), free of the noise of
        # Parquet encoding: on a shared machine the two write timings above differ by less than
        # their own spread.
        blobs = [f.part_path(i).read_bytes() for i, _ in tables]
        added = []
        for k in range(args.repeat):
            start = time.perf_counter()
            for i, data in enumerate(blobs):
                digest = hashlib.sha256(data).hexdigest()
                record = {"part": i, "rows": 1, "bytes": len(data), "sha256": digest, "run": "x"}
                atomic_write(Path(tmp) / f"rec-{k}-{i}.json", json.dumps(record).encode())
            added.append(time.perf_counter() - start)
        deep, shallow = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            assert not RunFolder(folder.path).check(deep=True)
            deep.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert not RunFolder(folder.path).check(deep=False)
            shallow.append(time.perf_counter() - start)
        size = sum(p.stat().st_size for p in folder.parts_dir.iterdir())

    med = statistics.median
    extra = med(now) - med(before)
    print(f"{args.games:,} games of the fake game, {len(tables)} parts, {size / 1e6:.1f} MB")
    print(f"whole run, one job:                 {whole_run:7.2f} s")
    print(f"writing the parts, plain (min/med): {min(before):7.3f} / {med(before):.3f} s")
    print(f"parts + records (min/med):          {min(now):7.3f} / {med(now):.3f} s")
    print(
        f"overhead of the records (medians):  {extra:+7.3f} s ({extra / whole_run:+.1%} of the run)"
    )
    share = med(added) / whole_run
    print(f"hashing + records alone (med):      {med(added):7.3f} s ({share:.1%} of the run)")
    print(f"verify, SHA-256 of every part:      {med(deep):7.3f} s")
    print(f"check without hashing:              {med(shallow):7.3f} s")


if __name__ == "__main__":
    main()
