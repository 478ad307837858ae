import os
from pathlib import Path

import pytest

# A run's first games play interpreted while its engine compiles in a background process
# (simulator/interpreted_start.py); in the suite, which compiles every engine anyway, that
# process would only compile beside the tests. tests/test_interpreted_start.py turns it on.
os.environ.setdefault("BALANCE_PLAY_WHILE_COMPILING", "0")

from simulator.games import get_game, register
from tests.fake_game import SPEC as FAKE

register(FAKE)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The example game files: every registered game's contract runs on them too.
for _example in ("pig", "noughts", "kuhn", "swap"):
    get_game(str(EXAMPLES / f"{_example}.py"))


@pytest.fixture
def fake_game():
    return FAKE
