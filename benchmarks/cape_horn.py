"""Cape Horn throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/cape_horn.py [--scale X]`` (X multiplies every game count).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.policy_tables import main  # noqa: E402

TABLES = {
    "4 planner": (["planner"] * 4, 5_000, 10),
    "mixed": (["planner", "racer", "blocker", "random"], 5_000, 10),
}

if __name__ == "__main__":
    main("cape-horn", TABLES)
