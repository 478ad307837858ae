"""Caza-Tesoros throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/caza_tesoros.py [--scale X]`` (X multiplies every game count).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.policy_tables import main  # noqa: E402

TABLES = {
    "4 greedy": (["greedy"] * 4, 20_000, 60),
    "mixed": (["greedy", "planner", "random", "cautious"], 20_000, 60),
}

if __name__ == "__main__":
    main("caza-tesoros", TABLES)
