"""Sealed bids (examples/sealed_bids.py): simultaneous choices written as seats bidding in turn,
each bid kept from the others until the reveal. The fair search as the second bidder chooses
the same whatever the first bid; ``check-game`` tells apart a file whose seat could see a
sealed bid."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.own_game import search
from simulator.games.own_game.loader import from_source
from tests.test_own_game_checks import EXAMPLES, call

SEALED = (EXAMPLES / "sealed_bids.py").read_text()
RULES = {"rounds": 3, "coins": 10, "top": 10}
PRIZE = 7
SEEDS = range(10)
PLAYOUTS = 48


def _game(text: str, name: str):
    return from_source(f"{name}.py", text, name)


def _second_bids(game, first_bid: int) -> list[int]:
    """The search's bid as seat 2 after seat 1 bid ``first_bid`` on a prize of ``PRIZE``, for
    each of ``SEEDS``."""
    bids = []
    for seed in SEEDS:
        state = game.apply(game.start(2, dict(RULES)), PRIZE)
        state = game.apply(state, first_bid)
        actions = game.legal_actions(state)
        rng = np.random.default_rng(seed)
        bids.append(search.choose(game, state, 1, actions, rng, playouts=PLAYOUTS, players=2))
    return bids


def test_the_search_as_second_bidder_never_reads_the_first_bid():
    game = _game(SEALED, "sealed_bids")
    assert _second_bids(game, 0) == _second_bids(game, 10)


def test_a_determinize_that_keeps_the_real_bid_would_let_it_read_it(monkeypatch):
    # the check's power: with the bid left in place (the search refuses such a file; told not
    # to here) it answers the real bid: after 10 nothing beats it, after 0 a bid of 1 wins
    monkeypatch.setattr(search, "refuse_reason", lambda game: None)
    keeps = SEALED.replace(
        'new["bids"][other] = int(rng.integers(state["coins"][other] + 1))', "pass"
    )
    game = _game(keeps, "sealed_bids_kept")
    assert _second_bids(game, 0) != _second_bids(game, 10)


def test_sealed_bids_keeps_every_promise(capsys):
    code, out, err = call(capsys, "check-game", EXAMPLES / "sealed_bids.py", "--games", 30,
                          "--players", 3)  # fmt: skip
    assert code == 0 and "every promise kept" in out, err
    assert "mcts: one checked game" in out


@pytest.mark.parametrize(
    ("case", "old", "new", "words"),
    [
        ("observe shows the sealed bids",
         "        state[\"bids\"][seat],\n", "        tuple(state[\"bids\"]),\n",
         "seat 2 observes another thing"),
        ("determinize deals nothing anew",
         "new[\"bids\"][other] = int(rng.integers(state[\"coins\"][other] + 1))", "pass",
         "determinize() gave back the state unchanged"),
    ],
    ids=["observe leaks", "determinize keeps"],
)  # fmt: skip
def test_check_game_finds_a_seat_that_could_see_a_sealed_bid(capsys, tmp_path, case, old, new,
                                                             words):  # fmt: skip
    assert old in SEALED
    path = tmp_path / f"leaky_{len(case)}.py"
    path.write_text(SEALED.replace(old, new))
    code, _, err = call(capsys, "check-game", path, "--games", 20)
    assert code == 2 and words in err and "\n" not in err.strip(), err
