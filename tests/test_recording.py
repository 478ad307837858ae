"""The recording buffer (simulator/contract/recording.py): off writes nothing, a small buffer is
grown."""

from __future__ import annotations

from numba import njit

from simulator.contract.recording import no_recording, play_recorded, record


@njit(cache=True)
def _game(rec, rec_n, n):
    for i in range(n):
        record(rec, rec_n, 1, i, i % 2, 10 * i)
        record(rec, rec_n, 2, i, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    return n


def test_a_zero_row_buffer_records_nothing():
    rec, rec_n = no_recording(5)
    assert _game(rec, rec_n, 7) == 7
    assert rec.shape == (0, 5) and rec_n[0] == 0


def test_rows_hold_kind_step_player_and_the_fields_that_fit():
    calls = []

    def play(rec, rec_n):
        calls.append(rec.shape[0])
        return _game(rec, rec_n, 50)

    rows, out = play_recorded(play, 6, rows=8)
    assert out == 50 and calls == [8, 100]  # too small once, then exactly the events' number
    assert rows.shape == (100, 6)
    assert rows[2].tolist() == [1, 1, 1, 10, 0, 0]
    assert rows[3].tolist() == [2, 1, -1, 1, 2, 3]  # fields past the width are dropped
    full, _ = play_recorded(lambda rec, rec_n: _game(rec, rec_n, 1), 12)
    assert full[1].tolist() == [2, 0, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9]
