import os
from pathlib import Path

import pytest

# A background compile (simulator/compiling/background_compile.py: a run's first games interpreted
# beside it, a search's fit beside it) would only compile beside the suite's own compiles here;
# tests/test_background_compile.py turns it on.
os.environ.setdefault("BALANCE_BACKGROUND_COMPILE", "0")

from simulator.contract.registry import get_game, register
from tests.fake_game import SPEC as FAKE

register(FAKE)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The example game files: every registered game's contract runs on them too.
for _example in ("pig", "noughts", "kuhn", "swap"):
    get_game(str(EXAMPLES / f"{_example}.py"))


@pytest.fixture
def fake_game():
    return FAKE
