"""Pirateer throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/pirateer.py [--scale X]`` (X multiplies every game count).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.policy_tables import main  # noqa: E402

TABLES = {
    "4 runner": (["runner"] * 4, 4000, 8),
    "4 random": (["random"] * 4, 1000, 2),
    "2 lookahead": (["lookahead"] * 2, 400, 2),
    "mixed 4": (["lookahead", "runner", "hunter", "random"], 300, 2),
    "4 lookahead": (["lookahead"] * 4, 100, 1),
}

if __name__ == "__main__":
    main("pirateer", TABLES)
