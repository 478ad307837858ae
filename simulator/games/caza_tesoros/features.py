"""Caza-Tesoros's position features: what the search player's evaluation is fitted on.

A simulation that stops at its horizon (``horizon`` days, :mod:`.forward`) scores every player
with :func:`simulator.search.tree.evaluate`, a logistic model of "this player wins" on the features
below (each player's minus the mean of the others'), fitted by :mod:`simulator.search.evaluation` on
positions :func:`record` takes from self-play under the run's own rules. The features are what
the rules page says decides the game: VP (the money and the score), how long the VP pay the
upkeep (players drop out at the weekly upkeep, and the last one in wins), treasures towards
``treasures_to_win``, and what makes the next find likely (a cross to search, search cards,
the level 2 a failed level 1 leaves). A player's features add up its colours.
"""

from __future__ import annotations

from numba import njit

from policies.caza_tesoros import richest_rival, ship_search_value

from . import state as S
from .board import hex_distance
from .state import State, Tables

FEATURES = (
    "vp",  # victory points
    "lead",  # VP over the richest rival still in the game
    "vp_late",  # VP times the share of the day cap gone (a lead counts more near the end)
    "in_game",  # 1 while the player has a ship
    "ships",
    "upkeep_weeks",  # weeks of upkeep its VP pay, at most 10
    "treasures",  # treasures rescued
    "cards",  # Archive cards held (its own crosses)
    "on_cross",  # ships standing on a cross they may search
    "distance",  # hexes from each ship to its nearest searchable cross, at most 10
    "level2_due",  # crosses where its failed level 1 leaves a level 2
    "search_cards",  # divers, robot and scanner cards on its ships
    "navigation_cards",  # compass, GPS and satellite cards on its ships
    "search_worth",  # best expected VP of a fair-weather level 1 search on its own cross
    "searches",  # searches made
)
N_FEATURES = len(FEATURES)
MAX_WEEKS = 10.0
MAX_DISTANCE = 10


@njit(cache=True)
def features(r, t: Tables, st: State, out) -> None:
    """Every player's features (``FEATURES``, in order) into ``out[player, :]``."""
    pl, sh, cr, g = st.pl, st.sh, st.cr, st.g
    m = S.players_of(r, pl)
    out[:m, :] = 0.0
    gone = min(1.0, g[S.G_DAY] / max(r[S.R.max_days], 1))
    for c in range(pl.shape[0]):
        q = S.player_of(r, pl, c)
        f = out[q]
        f[0] += pl[c, S.P_VP]
        f[6] += pl[c, S.P_TREASURES]
        f[7] += pl[c, S.P_CARDS]
        f[14] += pl[c, S.P_SEARCHES]
        if pl[c, S.P_ALIVE] == 0:
            continue
        f[4] += pl[c, S.P_SHIPS]
        for k in range(cr.shape[0]):
            if cr[k, S.C_OWNER] != S.FREE and cr[k, S.C_DUTY + c] > 0:
                f[10] += 1.0
        best = 0.0
        for s in range(sh.shape[1]):
            cell = sh[c, s, S.S_CELL]
            if cell < 0:
                continue
            if S.cross_here(cr, c, cell) >= 0:
                f[8] += 1.0
            near = MAX_DISTANCE
            for k in range(cr.shape[0]):
                owner = cr[k, S.C_OWNER]
                if owner == c or owner == S.ARCHIVE:
                    near = min(near, hex_distance(cell, cr[k, S.C_CELL]))
            f[9] += near
            for kind in (S.DIVERS, S.ROBOT, S.SCANNER):
                f[11] += sh[c, s, S.S_ITEMS + kind]
            for kind in (S.COMPASS, S.GPS, S.SATELLITE):
                f[12] += sh[c, s, S.S_ITEMS + kind]
            worth = ship_search_value(r, t.odds, t.tmean, sh, c, s, 1, S.CLOUDY, True)
            best = max(best, worth)
        f[13] = max(f[13], best)
    for q in range(m):
        f = out[q]
        f[1] = f[0] - richest_rival(r, pl, q)
        f[2] = f[0] * gone
        f[3] = 1.0 if S.player_in(r, pl, q) else 0.0
        upkeep = r[S.R.maintenance_per_ship] * f[4]
        f[5] = min(MAX_WEEKS, f[0] / upkeep) if upkeep > 0 else (MAX_WEEKS if f[3] > 0 else 0.0)
