"""Cape Horn's position features: what the search's evaluation (``simulator.search.evaluation``)
scores a seat by when a simulation stops at its horizon.

A seat's features are what the rules page says decides the race: the king steps its ship still
needs to win through the stations it may still use (``B.rem``), the tokens it holds, the sail
points and cards it can spend, how far the card under its ship carries it next, and how many
turns it waits before it moves. The evaluation is fitted on seat minus the others' mean, so every
feature is on the seat's own scale.
"""

from __future__ import annotations

from numba import njit

from policies.cape_horn import potential

from . import state as S
from .state import State

FEATURES = (
    "steps_left",  # king steps the ship still needs to win (B.rem), capped at STEPS_CAP
    "closeness",  # 1 / (1 + steps_left): a step counts more near the end
    "tokens",  # station tokens held
    "sail_points",
    "cards",  # wind cards in hand
    "next_steps",  # steps the card under the ship promises for the next move
    "waits",  # turns before the seat moves (0: it is its turn)
)
STEPS_CAP = 60.0


@njit(cache=True)
def features(B, st: State, mover: int, out) -> None:
    """Every seat's features (``FEATURES``) into ``out[seat, :]`` at the start of ``mover``'s
    turn."""
    ship, pl = st.ship, st.pl
    card = st.card
    rem, target, n_moves = B.rem, B.target, B.n_moves
    n = ship.shape[0]
    for q in range(n):
        ts = S.token_index(pl, q)
        steps = min(rem[ts, ship[q]], STEPS_CAP)
        out[q, 0] = steps
        out[q, 1] = 1.0 / (1.0 + steps)
        out[q, 2] = S.tokens_held(pl, q)
        out[q, 3] = pl[q, S.P_SP]
        out[q, 4] = pl[q, S.P_HAND]
        out[q, 5] = max(potential(rem, target, n_moves, ts, ship[q], card[ship[q]]), -5.0)
        out[q, 6] = (q - mover) % n
