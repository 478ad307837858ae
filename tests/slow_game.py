"""The fake game, made slow: each chunk waits a little before playing, so that a test can act while
a run is in flight (kill a worker mid-run). Same id and same games as ``tests.fake_game``."""

from __future__ import annotations

import dataclasses
import time

from tests.fake_game import SPEC as FAKE
from tests.fake_game import play_chunk as fake_play_chunk

CHUNK_DELAY_S = 0.3


def slow_play_chunk(rules, n_players, policy_ids, policy_params, seeds):
    time.sleep(CHUNK_DELAY_S)
    return fake_play_chunk(rules, n_players, policy_ids, policy_params, seeds)


SPEC = dataclasses.replace(FAKE, play_chunk=slow_play_chunk)
