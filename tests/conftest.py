import pytest

from simulator.games import register
from tests.fake_game import SPEC as FAKE

register(FAKE)


@pytest.fixture
def fake_game():
    return FAKE
