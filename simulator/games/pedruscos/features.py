"""Pedruscos del Espacio's position features: what the search's fitted evaluation reads.

A race to the target (docs/rules/pedruscos.md): a seat's chances are its points, the ore it
carries (worth points only once shipped, so how soon it can reach a moon matters), its branches
(harvests to come), a ship held at the planet for repairs, and how soon it moves. The search
scores every seat with a logistic model of these (``simulator.search.tree.evaluate``), fitted by
``simulator.search.evaluation`` on positions recorded at the start of every turn of self-play.
"""

from __future__ import annotations

from numba import njit

from . import state as S
from .board import MOON

FEATURES = (
    "points",  # points scored
    "cargo_value",  # ore aboard at today's values (points once shipped, before the cost)
    "cargo_cards",  # cards aboard (a full hold must swap to take more)
    "cargo_in_reach",  # cargo_value times the share of die faces that reach a moon
    "winning_cargo",  # 1 when shipping the cargo would reach the target
    "branches",  # branches held at open stations (harvests to come)
    "repairs",  # 1 while the ship waits at the planet for repairs (result 8)
    "turns_to_move",  # turns the other seats play before this one's next turn
)
F_POINTS, F_CARGO_VALUE, F_CARGO_CARDS, F_IN_REACH, F_WINNING, F_BRANCHES, F_REPAIRS, F_WAIT = (
    range(len(FEATURES))
)


@njit(cache=True, _nrt=False)
def moon_share(b, cell) -> float:
    """The share of the six die faces from ``cell`` that can end the move on a moon."""
    faces = 0
    for die in range(1, 7):
        for j in range(b.reach_ptr[cell * 7 + die], b.reach_ptr[cell * 7 + die + 1]):
            if b.kind[b.reach[j]] == MOON:
                faces += 1
                break
    return faces / 6.0


@njit(cache=True, _nrt=False)
def features(r, b, st: S.State, mover: int, out) -> None:
    """``out[seat, i]``: feature ``FEATURES[i]`` of every seat, ``mover`` being the seat about to
    play its turn."""
    pl, br, g = st.pl, st.br, st.g
    n = pl.shape[0]
    for s in range(n):
        value = S.cargo_value(pl, g, s)
        repair = pl[s, S.P_REPAIR] == 1
        out[s, F_POINTS] = pl[s, S.P_POINTS]
        out[s, F_CARGO_VALUE] = value
        out[s, F_CARGO_CARDS] = S.cargo(pl, s)
        out[s, F_IN_REACH] = 0.0 if repair else value * moon_share(b, pl[s, S.P_POS])
        winning = S.can_ship(r, pl, g, s, r.shipping_cost) and (
            pl[s, S.P_POINTS] + value - r.shipping_cost >= r.target_points
        )
        out[s, F_WINNING] = 1.0 if winning else 0.0
        held = 0
        for t in range(1, br.shape[1]):
            if br[s, t] > 0 and S.station_open(g, t):
                held += 1
        out[s, F_BRANCHES] = held
        out[s, F_REPAIRS] = 1.0 if repair else 0.0
        out[s, F_WAIT] = (s - mover) % n
