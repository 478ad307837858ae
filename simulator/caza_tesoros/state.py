"""Caza-Tesoros game state layout: named columns of a few integer arrays.

The compiled engine and the policies share the state as four int64 arrays:

- ``pl[player, P_*]``: one row per player;
- ``sh[player, ship, S_*]``: one row per ship slot (``S_CELL`` is -1 for an empty slot);
- ``cr[cross, C_*]``: one row per cross slot (``C_OWNER`` is ``FREE`` for an empty slot,
  ``ARCHIVE`` for an Archive of the Indies cross, else the owning player);
- ``g[G_*]``: the game's scalars.

Rules reach compiled code as an int64 array read by name, ``r[R.level2_cost]`` (``R`` is
generated from the option declarations; see ``Rules.engine_arrays``).
Small helpers every decision needs (movement points, dice of a search, costs) live here too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.rules import index_slots

from .rules import MAX_CARDS, MAX_SHIPS, Rules  # noqa: F401 (re-exported: the state layout)

# -- item kinds (object cards), in deck order -----------------------------------------------------
COMPASS, GPS, SATELLITE, DIVERS, ROBOT, SCANNER = range(6)
N_KINDS = 6
KIND_NAMES = ("compass", "gps", "satellite", "divers", "robot", "scanner")

# -- weather states -------------------------------------------------------------------------------
SUNNY, PARTLY_CLOUDY, CLOUDY, VERY_CLOUDY, RAIN, STORM = range(6)

# -- players --------------------------------------------------------------------------------------
P_VP = 0  # victory points (the money of the game)
P_ALIVE = 1  # 1 while the player has a ship; 0 once eliminated
P_TREASURES = 2  # treasures rescued
P_CARDS = 3  # Archive cards held (= own crosses on the board)
P_SHIPS = 4  # ships on the board
P_SEARCHES = 5  # searches made
P_RETIRED = 6  # ships retired for maintenance
P_OUT_DAY = 7  # day the player left the game (0 while in it)
N_PLAYER_FIELDS = 8

# -- ships (items are S_ITEMS + kind, 1 when the ship holds that card) ----------------------------
S_CELL = 0
S_ITEMS = 1
N_SHIP_FIELDS = S_ITEMS + N_KINDS

# -- crosses --------------------------------------------------------------------------------------
FREE = -2
ARCHIVE = -1
C_CELL = 0
C_OWNER = 1
C_L2 = 2  # player who may (must) search this cross at level 2 next, -1 for none
C_L2_DAY = 3  # day that player failed level 1 here
N_CROSS_FIELDS = 4

# -- game scalars ---------------------------------------------------------------------------------
G_DAY = 0
G_WEEKDAY = 1  # 1 = first day of the week
G_WEATHER = 2  # weather state of the day
G_ARCHIVE_CROSSES = 3  # Archive crosses on the board
G_ARCHIVE_DECK = 4  # Archive cards left in the deck
G_DECK = 5  # object deck counts, G_DECK + kind
G_SEARCHES = G_DECK + N_KINDS
G_LEVEL2_SEARCHES = G_SEARCHES + 1
G_AUCTIONS = G_SEARCHES + 2  # auctions held (weekly draws and forced sales)
G_FORCED_SALES = G_SEARCHES + 3  # forced sales that found a buyer
G_ENDED = G_SEARCHES + 4
G_END_REASON = G_SEARCHES + 5
G_LOG_N = G_SEARCHES + 6  # events written to the trace
G_FIRST_SEAT = G_SEARCHES + 7
G_LIVE = G_SEARCHES + 8  # players still in the game
G_PROBLEMS = G_SEARCHES + 9  # invariants found broken while checking (bits of PROBLEM_*)
N_GAME_FIELDS = G_SEARCHES + 10

# -- invariants a checking game verifies after every turn (bits of G_PROBLEMS) -----------------
PROBLEM_NEGATIVE_VP = 1
PROBLEM_TOO_MANY_CARDS = 2
PROBLEM_TOO_MANY_ARCHIVE_CROSSES = 4
PROBLEM_ITEM_COUNT = 8
PROBLEM_SHIP_OFF_BOARD = 16
PROBLEM_SHIP_COUNT = 32
PROBLEM_CARD_COUNT = 64

# -- end reasons (index into SPEC.end_reasons) ----------------------------------------------------
END_TREASURES, END_ARCHIVE, END_LAST_PLAYER, END_DAY_CAP = range(4)
END_REASONS = ("treasures", "archive_crosses", "last_player", "day_cap")

# -- rules: scalar options by index (tuples travel as their own arrays) ---------------------------
# Scalar options in declaration order (`Rules.scalar_names()`, built by `Rules.scalar_array()`);
# compiled code reads them by name: `r[R.level2_cost]`.
RULE_SLOTS = Rules.scalar_names()
R = index_slots("RuleSlot", RULE_SLOTS)
N_RULES = len(RULE_SLOTS)


def new_state(n_players: int, n_crosses: int) -> tuple[np.ndarray, ...]:
    """Empty state arrays (pl, sh, cr, g) for hand-made positions in tests and tools."""
    pl = np.zeros((n_players, N_PLAYER_FIELDS), dtype=np.int64)
    sh = np.zeros((n_players, MAX_SHIPS, N_SHIP_FIELDS), dtype=np.int64)
    sh[:, :, S_CELL] = -1
    cr = np.zeros((n_crosses, N_CROSS_FIELDS), dtype=np.int64)
    cr[:, C_OWNER] = FREE
    cr[:, C_L2] = -1
    g = np.zeros(N_GAME_FIELDS, dtype=np.int64)
    return pl, sh, cr, g


# -- helpers shared by the engine and the policies ------------------------------------------------
@njit(cache=True)
def bad_weather(weather: int) -> bool:
    """Rain and storm ("condiciones de mar adversa ( Lluvia y Tormenta)")."""
    return weather == RAIN or weather == STORM


@njit(cache=True)
def navigation_bonus_of(r: np.ndarray, compass: int, gps: int, satellite: int) -> int:
    """Movement points from a set of navigation cards (1 = held)."""
    if r[R.upgrade_bonus] == 1:
        return (
            compass * r[R.compass_movement]
            + gps * r[R.gps_movement]
            + satellite * r[R.satellite_movement]
        )
    if satellite == 1:
        return r[R.satellite_movement]
    if gps == 1:
        return r[R.gps_movement]
    return compass * r[R.compass_movement]


@njit(cache=True)
def navigation_bonus(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    """Movement points the ship's navigation cards give."""
    return navigation_bonus_of(
        r, sh[p, s, S_ITEMS + COMPASS], sh[p, s, S_ITEMS + GPS], sh[p, s, S_ITEMS + SATELLITE]
    )


@njit(cache=True)
def movement_points(r: np.ndarray, wmove: np.ndarray, weather: int, sh, p: int, s: int) -> int:
    """A ship's movement points today: base + weather + navigation cards, never below zero."""
    mp = r[R.base_movement] + wmove[weather] + navigation_bonus(r, sh, p, s)
    return mp if mp > 0 else 0


@njit(cache=True)
def extra_dice(r: np.ndarray, robot: int, scanner: int) -> int:
    """Search dice a ship's robot and scanner add."""
    if r[R.upgrade_bonus] == 1:
        return robot * r[R.robot_dice] + scanner * r[R.scanner_dice]
    if scanner == 1:
        return r[R.scanner_dice]
    return robot * r[R.robot_dice]


@njit(cache=True)
def search_dice(r: np.ndarray, sh: np.ndarray, p: int, s: int, level: int) -> int:
    """Dice a ship throws at ``level``: 1D6 (level 1) or 2D6 (level 2), plus its equipment."""
    return level + extra_dice(r, sh[p, s, S_ITEMS + ROBOT], sh[p, s, S_ITEMS + SCANNER])


@njit(cache=True)
def search_rerolls(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    return sh[p, s, S_ITEMS + DIVERS] * r[R.divers_rerolls]


@njit(cache=True)
def search_cost(r: np.ndarray, level: int, weather: int) -> int:
    cost = r[R.level1_cost] if level == 1 else r[R.level2_cost]
    if bad_weather(weather):
        cost += r[R.bad_weather_surcharge]
    return cost


@njit(cache=True)
def item_price(r: np.ndarray, kind: int) -> int:
    return r[R.price_compass + kind]


@njit(cache=True)
def can_hold(sh: np.ndarray, p: int, s: int, kind: int) -> bool:
    """A ship may take a card it lacks whose prerequisite it holds (compass before GPS ...)."""
    if sh[p, s, S_CELL] < 0 or sh[p, s, S_ITEMS + kind] == 1:
        return False
    if kind == COMPASS or kind == DIVERS:
        return True
    return sh[p, s, S_ITEMS + kind - 1] == 1


@njit(cache=True)
def ship_for_item(sh: np.ndarray, p: int, kind: int) -> int:
    """The player's first ship (by number) that may take ``kind``, or -1."""
    for s in range(sh.shape[1]):
        if can_hold(sh, p, s, kind):
            return s
    return -1


@njit(cache=True)
def cross_here(cr: np.ndarray, p: int, cell: int) -> int:
    """The cross player ``p`` may search on ``cell``: its own first, then an Archive cross; -1."""
    archive = -1
    for c in range(cr.shape[0]):
        if cr[c, C_CELL] != cell:
            continue
        if cr[c, C_OWNER] == p:
            return c
        if cr[c, C_OWNER] == ARCHIVE and archive < 0:
            archive = c
    return archive


@njit(cache=True)
def search_level(r: np.ndarray, cr: np.ndarray, g: np.ndarray, p: int, c: int) -> int:
    """Level of the next search of player ``p`` at cross ``c``: 2 after its failed level 1."""
    if cr[c, C_L2] != p:
        return 1
    if r[R.level2_window] == 1 and g[G_DAY] != cr[c, C_L2_DAY] + 1:
        return 1
    return 2


@njit(cache=True)
def equipment_value(r: np.ndarray, sh: np.ndarray, p: int, by_count: bool) -> int:
    total = 0
    for s in range(sh.shape[1]):
        if sh[p, s, S_CELL] < 0:
            continue
        for k in range(N_KINDS):
            if sh[p, s, S_ITEMS + k] == 1:
                total += 1 if by_count else r[R.price_compass + k]
    return total
