"""Pedruscos del Espacio throughput: games per second compiled and interpreted, and their ratio.

Run: ``.venv/bin/python benchmarks/pedruscos.py [--scale X]`` (X multiplies every game count).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.policy_tables import main  # noqa: E402

TABLES = {
    "4 hauler": (["hauler"] * 4, 5_000, 20),
    "4 lookahead": (["lookahead"] * 4, 5_000, 20),
    "mixed": (["random", "hauler", "builder", "lookahead"], 5_000, 20),
}

if __name__ == "__main__":
    main("pedruscos", TABLES)
