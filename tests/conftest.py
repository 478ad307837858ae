from pathlib import Path

import pytest

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
