"""Pirateer's position features: what the search's fitted evaluation scores a seat by.

A simulation that stops at its horizon (``mcts:horizon``) scores every seat with a logistic model
of "this seat wins" on its features minus the other seats' mean (``simulator.search.tree.evaluate``,
fitted by ``simulator.search.evaluation`` on `lookahead` self-play). The features are what the rules
page says decides a game: ships left (the last fleet standing wins), the treasure and how far its
ship is from its anchor, how close a seat is to taking it or to its carrier, and what the dice
of the next turns threaten (the exact chances over the 36 rolls, as `lookahead` counts them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.pirateer import clear_home_steps, nearest_to, nearest_to_anchorage

from . import state as S
from .odds_memo import memo_capture_odds

FEATURES = (
    "ships",  # own ships on the board
    "carrying",  # 1 while its ship carries the treasure
    "home_steps",  # carrying: spaces to its anchor (own ships in the way counted), else 0
    "home_close",  # carrying and at most 7 spaces from home (one roll's likeliest reach), else 0
    "anchorage_steps",  # treasure on Skull Island: its nearest ship's spaces to an anchorage
    "chase_steps",  # another seat carries it: its nearest ship's spaces to the treasure ship
    "ships_at_risk",  # own ships some opponent can capture before its next turn (expected)
    "treasure_at_risk",  # carrying: the chance the treasure ship is captured before then
    "treasure_threat",  # another seat carries it: its chance to capture that ship next turn
    "seats_before",  # seats that move before it from this position (0: it moves next)
)
CLOSE = 7
FAR = 30  # distances are capped here: a ship further away is simply far


@njit(cache=True)
def features(r, st: S.State, next_seat: int, out, memo=None) -> None:
    """Every seat's features into ``out[seat, :len(FEATURES)]``, seat ``next_seat`` to move
    (``memo``: a search's remembered capture odds, or None)."""
    ships, owner, occ, g = st.ships, st.owner, st.occ, st.g
    n_players = g[S.G_PLAYERS]
    t = g[S.G_TREASURE]
    carrier = owner[t // S.FLEET] if t >= 0 else -1
    odds = np.zeros(S.N_SHIPS, dtype=np.float64)
    risk = np.zeros(S.N_SHIPS, dtype=np.float64)  # the chance each ship is captured, any attacker
    threat = np.zeros(n_players, dtype=np.float64)
    for q in range(n_players):
        if S.count_alive(ships, owner, q) == 0:
            continue
        for p in range(n_players):
            if p == q or S.count_alive(ships, owner, p) == 0:
                continue
            memo_capture_odds(memo, r, ships, owner, occ, g, q, p, odds)
            for s in range(S.N_SHIPS):
                if odds[s] > 0.0:
                    risk[s] = 1.0 - (1.0 - risk[s]) * (1.0 - odds[s])
            if p == carrier:
                threat[q] = odds[t]
    for p in range(n_players):
        for i in range(out.shape[1]):
            out[p, i] = 0.0
        alive = S.count_alive(ships, owner, p)
        out[p, 0] = alive
        at_risk = 0.0
        for s in range(S.N_SHIPS):
            if ships[s] >= 0 and owner[s // S.FLEET] == p:
                at_risk += risk[s]
        out[p, 6] = at_risk
        out[p, 9] = (p - next_seat) % n_players
        if alive == 0:
            continue
        if carrier == p:
            steps = min(clear_home_steps(r, ships, owner, p, t), FAR)
            out[p, 1] = 1.0
            out[p, 2] = steps
            out[p, 3] = 1.0 if steps <= CLOSE else 0.0
            out[p, 7] = risk[t]
        elif t == S.ON_ISLAND:
            out[p, 4] = min(nearest_to_anchorage(ships, owner, p), FAR)
        elif t >= 0:
            out[p, 5] = min(nearest_to(ships, owner, p, ships[t]), FAR)
            out[p, 8] = threat[p]
