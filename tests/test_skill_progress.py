"""`skill` says how long it should take before it starts and, off a terminal (a log), a line of
progress every PROGRESS_LINE_S seconds (a ladder of a game file: nothing compiles)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import simulator.studies.compare as studies
import simulator.studies.skill as skill_module
from simulator.runs.requests import Execution, PlayRequest

PIG = str(Path(__file__).resolve().parents[1] / "examples" / "pig.py")


def test_the_estimate_comes_first_then_lines_of_progress(tmp_path, capfd, monkeypatch):
    monkeypatch.setattr(skill_module, "PROGRESS_LINE_S", 0.2)
    played = studies.run

    def slowly(*args, **kwargs):  # each run long enough for a line of progress
        time.sleep(0.5)
        return played(*args, **kwargs)

    monkeypatch.setattr(studies, "run", slowly)
    request = PlayRequest(PIG, games=20)
    skill_module.skill(request, tmp_path / "s", Execution(jobs=1, progress=True),
                       rungs=["random", "hold"])  # fmt: skip
    lines = capfd.readouterr().err.splitlines()
    assert re.fullmatch(
        r"balance: skill: 4 runs, 80 games to play; about \d+ s on 1 process \(from a few games "
        r"of each rung timed now\)",
        lines[0],
    )
    progress = [line for line in lines if " games, " in line and "finished" in line]
    assert progress and re.fullmatch(
        r"balance: skill: \d+ of 80 games, \d of 4 runs finished, \d+ s spent.*", progress[0]
    )
    # resumed with everything played: nothing to estimate, nothing to say
    skill_module.skill(request, tmp_path / "s", Execution(jobs=1, progress=True),
                       rungs=["random", "hold"])  # fmt: skip
    assert "games to play" not in capfd.readouterr().err
