"""``balance verify``: check run folders against what was recorded as they were written, and
replay what is damaged or missing (``--repair``) from the folder's own manifest."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import rules_from_manifest
from simulator.folders.run_folder import RunFolder, _config_diff, _quote
from simulator.folders.study_folders import read_study
from simulator.search.evaluation import recorded_evaluation

from .plan import RunConfig, plan_run
from .policy_file import PolicyFile


@dataclass
class Verdict:
    """What ``verify`` found in one run folder: one line per problem (empty when sound)."""

    path: Path
    problems: list[str] = field(default_factory=list)
    summary: str = ""
    repairable: bool = True  # False: only the original command can rebuild the folder

    @property
    def sound(self) -> bool:
        return not self.problems


def run_folders(paths: list[Path]) -> list[Path]:
    """The run folders named by ``paths`` (a study folder names each of its runs). Every path is
    checked before any folder is: a path that is no run is bad input (BalanceError)."""
    if not paths:
        raise BalanceError("give at least one run folder (or compare/sweep/tournament folder)")
    out: list[Path] = []
    for path in paths:
        p = Path(path)
        if not p.exists():
            raise BalanceError(f"{str(p)!r} does not exist")
        study = read_study(p) if p.is_dir() else None
        if study is not None:
            out.extend(study.run_paths())
        elif (p / "manifest.json").is_file() or (p / "manifest.json").exists():
            out.append(p)
        else:
            raise BalanceError(f"{str(p)!r} is not a balance run folder (no manifest.json)")
    return out


def verify(path: Path) -> Verdict:
    """Check one run folder: manifest, every part (size, rows, SHA-256, which run wrote it) and
    the game count."""
    folder = RunFolder(path)
    verdict = Verdict(folder.path)
    fix = f"repair: balance verify --repair {_quote(folder.path)}"
    if not folder.manifest_path.exists():
        verdict.problems.append(
            f"{path}: no manifest.json (the run never started, or it was deleted); "
            "repair: repeat the command that made the run"
        )
        verdict.repairable = False
        return verdict
    if folder.busy():
        verdict.problems.append(
            f"{path}: being written by another balance command now; verify it when that finishes"
        )
        verdict.repairable = False
        return verdict
    try:
        problems = folder.check()
    except BalanceError as exc:  # the manifest itself
        verdict.problems.append(f"{exc}")
        verdict.repairable = False
        return verdict
    for p in problems:
        where = f"{folder.parts_dir / p.where()}" if p.part is not None else str(folder.path)
        verdict.problems.append(f"{where}: {p.what}; {fix}")
    if not problems:
        manifest = folder.read_manifest()
        games = int(manifest.get("games_played", manifest["config"]["games"]))
        verdict.summary = f"{path}: sound ({len(folder.done_parts())} parts, {games:,} games)"
    return verdict


def config_from_manifest(folder: RunFolder) -> RunConfig:
    """The run's configuration rebuilt from its manifest, refused unless it would play exactly
    the recorded games (same rules, seats, seed, chunking and engine code)."""
    from simulator.contract.registry import get_game

    manifest = folder.read_manifest()
    recorded = manifest["config"]
    spec = get_game(recorded["game"])
    rules = rules_from_manifest(spec.rules_class, manifest, "manifest.json")
    config = plan_run(
        recorded["game"],
        int(recorded["games"]),
        players=int(recorded["n_players"]),
        policies=list(recorded["policies"]),
        seed=int(recorded["seed"]),
        rules=rules,
        chunk_size=int(recorded["chunk_size"]),
        # the policy file as it was when the run was played, kept in the manifest
        policy_file=PolicyFile(**manifest["policy_file"]) if "policy_file" in manifest else None,
        # the coefficients the run scored positions with, not a fit made again
        evaluation=recorded_evaluation(manifest),
    )
    config = dataclasses.replace(config, variant=recorded["variant"])
    now = config.manifest()["config"]
    if now != recorded:
        diff = _config_diff(recorded, now)
        why = (
            "the simulator or its policies changed since it was played"
            if diff == "differs in engine_source"
            else diff
        )
        raise BalanceError(
            f"{str(folder.path)!r} cannot be replayed identically ({why}); play it again in a "
            "new folder"
        )
    return config


def repair(path: Path, *, jobs: int | None = None, wait: bool = False) -> None:
    """Replay the damaged and missing parts of a run folder (and finish an unfinished one), to the
    point the original command would have reached."""
    from .runner import every_chunk, run

    folder = RunFolder.open(path)
    config = config_from_manifest(folder)
    manifest = folder.read_manifest()
    until = None
    if manifest.get("stopped_early"):
        # Stopped early by --until-ci: play back to the same number of games, batch by batch.
        played = int(manifest["games_played"])

        def until(f: RunFolder) -> bool:
            return sum(c[2] for c in config.chunks() if c[0] in f.done_parts()) >= played

        until.looks = every_chunk  # type: ignore[attr-defined]

    run(config, path, jobs=jobs, until=until, wait=wait)
