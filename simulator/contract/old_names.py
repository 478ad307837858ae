"""The names ``simulator``'s modules had before it was grouped into parts, still importable.

A policy file written for an earlier version (``from simulator.policy_file import Policy``,
``from simulator.<game> import state as S``), and the copy of it a run folder keeps for
resume and replay, import the old names. Each old name is the new module itself (one module
object under two names), so a class or a constant is the same whichever name reached it.
Four old names are now parts of their own and cannot be kept: ``simulator.games`` (the
registry), ``simulator.search``, ``simulator.studies`` and ``simulator.folders``; CHANGELOG.md
gives their new spellings.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from pathlib import Path
from types import ModuleType

MODULES = {
    "errors": "contract.errors", "rules": "contract.rules", "policy": "contract.policy",
    "boards": "contract.boards", "game_data": "contract.game_data",
    "recording": "contract.recording", "replay_def": "contract.replay_def",
    "outcomes": "contract.outcomes", "rng": "contract.rng", "seed_bank": "contract.seed_bank",
    "dataset": "folders.run_folder", "requests": "runs.requests",
    "run_config": "runs.run_config", "plan": "runs.plan", "policy_file": "runs.policy_file",
    "runner": "runs.runner", "cluster": "runs.cluster", "interrupt": "runs.interrupt",
    "verify": "runs.verify", "replay": "runs.replay", "jit": "compiling.jit",
    "first_compile": "compiling.first_compile", "compile_job": "compiling.compile_job",
    "background_compile": "compiling.background_compile",
    "interpreted_start": "compiling.interpreted_start", "warmup": "compiling.warmup",
    "evaluation": "search.evaluation", "rotation": "studies.rotation",
    "skill": "studies.skill", "rungs": "studies.rungs", "explore": "studies.explore",
    "tuning": "studies.tuning", "cli_app": "cli.app", "cli_types": "cli.options",
}  # fmt: skip
PACKAGES = {"design": "studies.design", "commands": "cli.commands"}
GAMES = Path(__file__).resolve().parents[1] / "games"  # every game's folder was simulator/<game>/


def new_name(old: str) -> str | None:
    """The module an old name now is (``simulator.policy`` -> ``simulator.contract.policy``),
    or None when ``old`` is not an old name."""
    head, _, rest = old.partition(".")
    if head != "simulator" or not rest:
        return None
    first, _, below = rest.partition(".")
    if first in PACKAGES:
        return "simulator." + PACKAGES[first] + ("." + below if below else "")
    if first.isidentifier() and (GAMES / first / "__init__.py").is_file():
        return "simulator.games." + first + ("." + below if below else "")
    if first in MODULES and not below:
        return "simulator." + MODULES[first]
    return None


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name first (no real module has one) and hands back the new module."""

    def find_spec(self, fullname, path, target=None):  # noqa: ANN001, ANN201
        new = new_name(fullname)
        if new is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self)
        spec.loader_state = new
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(spec.loader_state)

    def exec_module(self, module: ModuleType) -> None:
        pass  # the new module has run already


def keep_old_names() -> None:
    """Make the old names importable (once; the finder goes first, since it only ever answers
    names no module has)."""
    if not any(isinstance(f, _OldNames) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldNames())
