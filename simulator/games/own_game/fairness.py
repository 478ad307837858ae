"""Can a search read what a seat has not seen? Two ways a game file lets it, found here once for
the search (``search.refuse_reason``) and for ``balance check-game``.

- **The future kept in the state.** A file without ``observe`` says every seat sees the whole
  state. A file that also draws with ``sample_chance`` (a shuffle, where listing the outcomes is
  too many) usually keeps the drawn order in the state: the search, copying the state, would know
  every card to come. Cards drawn when they are revealed (``chance_outcomes`` listing the cards
  left, or ``sample_chance`` called at the reveal) are fair, but a file cannot tell us which it
  does, so such a file must say what a seat sees (``observe``) and deal the rest (``determinize``).
- **A determinize that deals nothing anew.** ``determinize`` must deal again what the seat cannot
  see. One that gives the state back unchanged, in a game where one observation stands for
  several states, hands the search the real cards. Found by random play: ``determinize`` never
  changed a state, yet two different states reached in play gave a seat the same observation.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from .loader import GameFile

PROBE_GAMES = 12  # random games played to see whether determinize ever deals anew
PROBE_DEALS = 2  # determinizations tried at each decision
PROBE_SEED = 7_919


def _snapshot(state: Any) -> bytes | str:
    try:
        return pickle.dumps(state)
    except Exception:  # an unpicklable state: its text stands in
        return repr(state)


def future_in_state_reason(game: GameFile) -> str | None:
    """One line when ``game`` may keep in its state what no seat has seen (``sample_chance``
    without ``observe``), saying how to write it; None when it cannot."""
    if game.observe is not None or game.sample_chance is None:
        return None
    return (
        f"{game.name}.py draws with sample_chance() but defines no observe(), so a shuffled deck "
        "kept in the state would show the search every card to come: draw each card when it is "
        "revealed (chance_outcomes over the cards left), or define observe(state, seat) and "
        "determinize(state, seat, rng) (docs/own-game.md, section 5)"
    )


def determinize_deals_nothing(
    game: GameFile,
    rules: dict[str, Any] | None = None,
    players: int | None = None,
    games: int = PROBE_GAMES,
    seed: int = PROBE_SEED,
) -> str | None:
    """One line when ``determinize`` never dealt anything anew in ``games`` random games although
    one observation stood for two different states; None otherwise (or without determinize).

    ``rules`` default to the file's defaults, ``players`` to its fewest seats (two where it
    allows them). Exceptions raised by the file propagate: check-game names them."""
    if game.observe is None or game.determinize is None:
        return None
    if rules is None:
        rules = {k: o["default"] for k, o in game.options.items()}
    if players is None:
        lo, hi = game.players
        players = max(lo, min(2, hi))
    rng = np.random.default_rng(seed)
    seen: dict[Any, Any] = {}  # (seat, observation) -> the first state's snapshot
    shared = False  # one observation stood for two different states
    for _ in range(games):
        state = game.start(players, dict(rules))
        for _ in range(game.max_moves):
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == "chance":
                state = game.apply(state, game.draw_chance(state, rng))
                continue
            snap = _snapshot(state)
            for _ in range(PROBE_DEALS):
                dealt = game.determinize(game.copy(state), mover, rng)
                if _snapshot(dealt) != snap:
                    return None  # it deals anew
            try:
                key = (mover, game.observe(state, mover))
                first = seen.setdefault(key, snap)
            except TypeError:  # an unhashable observation: the search refuses it elsewhere
                first = snap
            shared = shared or first != snap
            actions = game.legal_actions(state)
            state = game.apply(state, actions[int(rng.integers(len(actions)))])
    if not shared:
        return None  # every observation stood for one state: nothing was hidden to deal
    return (
        f"{game.name}.py: determinize() gave back the state unchanged in {games} random games, "
        "though one observation stood for different states: it must deal anew what the seat "
        "cannot see (the other hands, the deck's order), or the search reads the real cards"
    )
