"""The folders the studies write, read back: ``study.json`` (compare, sweep, tournament, skill,
ladder, explore), an explore's plan, ``design.json``, ``tune.json`` and a tune's seating folders.

This sits at the bottom with the run folder (:mod:`simulator.folders.run_folder`), so every study,
analysis and report reads a folder from here and none of them imports the command that wrote it.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from simulator.contract.errors import BalanceError

STUDY_FILE = "study.json"
EXPLORE_PLAN_FILE = "explore-plan.json"
EXPLORE_FILE = "explore.json"  # the summary `balance design --explore` reads
EXPLORE_TIME_FILE = "explore-time.json"  # the seconds of every invocation of one explore
DESIGN_FILE = "design.json"
TUNE_FILE = "tune.json"


def _read_json(f: Path) -> Any:
    try:
        return json.loads(f.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None


# -- a study: several run folders answering one question -------------------------------------
@dataclass(frozen=True)
class StudyRun:
    folder: str  # relative to the study folder
    label: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Study:
    kind: str
    game: str
    runs: tuple[StudyRun, ...]
    path: Path

    def run_paths(self) -> list[Path]:
        return [self.path / r.folder for r in self.runs]

    def to_json(self) -> dict[str, Any]:
        data = {"kind": self.kind, "game": self.game, "runs": [asdict(r) for r in self.runs]}
        return json.loads(json.dumps(data, default=str))  # as read back from study.json


def read_study(path: str | Path) -> Study | None:
    """The study in folder ``path``, or None when it is not a study folder."""
    p = Path(path)
    f = p / STUDY_FILE
    if not f.is_file():
        return None
    try:
        data = json.loads(f.read_text())
        runs = tuple(StudyRun(r["folder"], r["label"], r.get("params", {})) for r in data["runs"])
        return Study(data["kind"], data["game"], runs, p)
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise BalanceError(f"cannot read {str(f)!r}: {exc}") from None


# -- an explore's plan -----------------------------------------------------------------------
def read_plan(path: str | Path) -> dict[str, Any]:
    """The plan of the explore in folder ``path`` (its factors, design and points)."""
    return _read_json(Path(path) / EXPLORE_PLAN_FILE)


# -- a design --------------------------------------------------------------------------------
def read_design(path: str | Path) -> dict[str, Any] | None:
    """``design.json`` of a design folder (None when there is none; a damaged one is refused)."""
    f = Path(path) / DESIGN_FILE
    if not f.is_file():
        return None
    data = _read_json(f)
    if not isinstance(data, dict) or "plan" not in data:
        raise BalanceError(f"{str(f)!r} is damaged (no plan); start the design in a new folder")
    return data


# -- a tune ----------------------------------------------------------------------------------
def read_tune(path: str | Path) -> dict[str, Any] | None:
    """The finished tune in folder ``path``, or None when it is not a tune folder."""
    f = Path(path) / TUNE_FILE
    if not f.is_file():
        return None
    data = _read_json(f)
    if "summary" not in data:
        raise BalanceError(
            f"the tune in {str(path)!r} has not finished; repeat its command to resume it"
        )
    return data


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=_-]+", "-", text).strip("-")[:60] or "policy"


@dataclass(frozen=True)
class Seating:
    """Where the tuned policy sits and who fills the other seats (one run folder of a tune
    candidate).

    ``seat`` is None when every seat plays the tuned policy (a cooperative game)."""

    seat: int | None
    opponent: str | None

    @property
    def folder(self) -> str:
        if self.seat is None:
            return "all-seats"
        return f"seat{self.seat + 1}-vs-{_slug(self.opponent or '')}"

    @property
    def label(self) -> str:
        if self.seat is None:
            return "every seat"
        return f"seat {self.seat + 1} vs {self.opponent}"

    @classmethod
    def from_label(cls, label: str) -> Seating:
        """The seating a tune's plan names by its label (``"seat 2 vs greedy"``)."""
        if label == "every seat":
            return cls(None, None)
        seat_text, _, opponent = label.partition(" vs ")
        return cls(int(seat_text.split()[1]) - 1, opponent)

    def policies(self, tuned: str, n_players: int) -> list[str]:
        if self.seat is None:
            return [tuned] * n_players
        return [tuned if s == self.seat else str(self.opponent) for s in range(n_players)]
