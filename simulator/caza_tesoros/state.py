"""Caza-Tesoros game state layout: named columns of a few integer arrays.

The compiled engine and the policies share the state as four int64 arrays:

- ``pl[player, P_*]``: one row per player;
- ``sh[player, ship, S_*]``: one row per ship slot (``S_CELL`` is -1 for an empty slot);
- ``cr[cross, C_*]``: one row per cross slot (``C_OWNER`` is ``FREE`` for an empty slot,
  ``ARCHIVE`` for an Archive of the Indies cross, else the owning player);
- ``g[G_*]``: the game's scalars.

Rules reach compiled code as an int64 array indexed by ``R_*`` (see ``Rules.engine_arrays``).
Small helpers every decision needs (movement points, dice of a search, costs) live here too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SHIPS = 6  # ship slots per player (upper bound of the max_ships option)
MAX_CARDS = 6  # Archive cards per player (upper bound of max_archive_cards)

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
RULE_SLOTS = (
    "starting_vp",
    "starting_ships",
    "starting_archive_cards",
    "archive_deck_size",
    "days_per_week",
    "max_days",
    "base_movement",
    "max_straight",
    "deviation_edge",
    "deviation_timing",
    "turn_order",
    "level1_cost",
    "level2_cost",
    "bad_weather_surcharge",
    "level1_marking",
    "level2_marking",
    "level2_combinations",
    "level2_window",
    "bad_weather_item_loss",
    "archive_loot",
    "archive_fail_relocates",
    "upgrade_bonus",
    "compass_movement",
    "gps_movement",
    "satellite_movement",
    "divers_rerolls",
    "robot_dice",
    "scanner_dice",
    "price_compass",
    "price_gps",
    "price_satellite",
    "price_divers",
    "price_robot",
    "price_scanner",
    "price_ship",
    "price_archive_card",
    "object_draw",
    "maintenance_per_ship",
    "maintenance_order",
    "maintenance_first_week",
    "auction_commission",
    "forced_sale_divisor",
    "retire_ship_payout",
    "purchase_days",
    "max_ships",
    "max_archive_cards",
    "treasures_to_win",
    "archive_crosses_to_end",
    "tie_equipment",
)
(
    R_STARTING_VP,
    R_STARTING_SHIPS,
    R_STARTING_CARDS,
    R_ARCHIVE_DECK_SIZE,
    R_DAYS_PER_WEEK,
    R_MAX_DAYS,
    R_BASE_MOVEMENT,
    R_MAX_STRAIGHT,
    R_DEVIATION_EDGE,  # 0 stop, 1 stay
    R_DEVIATION_TIMING,  # 0 before the action, 1 after
    R_TURN_ORDER,  # 0 fixed, 1 rotate weekly
    R_LEVEL1_COST,
    R_LEVEL2_COST,
    R_BAD_WEATHER_SURCHARGE,
    R_LEVEL1_MARKING,  # search.MARK_ALL / MARK_ONE
    R_LEVEL2_MARKING,
    R_LEVEL2_COMBINATIONS,  # search.PAIRS_ANY / PAIRS_BASE
    R_LEVEL2_WINDOW,  # 0 any later turn, 1 next turn only
    R_BAD_WEATHER_ITEM_LOSS,
    R_ARCHIVE_LOOT,  # 0 treasure, 1 card
    R_ARCHIVE_FAIL_RELOCATES,
    R_UPGRADE_BONUS,  # 0 replace, 1 add
    R_COMPASS_MOVEMENT,
    R_GPS_MOVEMENT,
    R_SATELLITE_MOVEMENT,
    R_DIVERS_REROLLS,
    R_ROBOT_DICE,
    R_SCANNER_DICE,
    R_PRICE_COMPASS,  # R_PRICE_COMPASS + kind is the price of that kind
    R_PRICE_GPS,
    R_PRICE_SATELLITE,
    R_PRICE_DIVERS,
    R_PRICE_ROBOT,
    R_PRICE_SCANNER,
    R_PRICE_SHIP,
    R_PRICE_ARCHIVE_CARD,
    R_OBJECT_DRAW,  # 0 deck, 1 die
    R_MAINTENANCE,
    R_MAINTENANCE_ORDER,  # 0 simultaneous, 1 seat
    R_MAINTENANCE_FIRST_WEEK,
    R_COMMISSION,
    R_FORCED_SALE_DIVISOR,
    R_RETIRE_PAYOUT,
    R_PURCHASE_DAYS,  # 0 week start, 1 any day
    R_MAX_SHIPS,
    R_MAX_CARDS,
    R_TREASURES_TO_WIN,
    R_ARCHIVE_CROSSES_TO_END,
    R_TIE_EQUIPMENT,  # 0 value, 1 count
) = range(len(RULE_SLOTS))
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
    if r[R_UPGRADE_BONUS] == 1:
        return (
            compass * r[R_COMPASS_MOVEMENT]
            + gps * r[R_GPS_MOVEMENT]
            + satellite * r[R_SATELLITE_MOVEMENT]
        )
    if satellite == 1:
        return r[R_SATELLITE_MOVEMENT]
    if gps == 1:
        return r[R_GPS_MOVEMENT]
    return compass * r[R_COMPASS_MOVEMENT]


@njit(cache=True)
def navigation_bonus(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    """Movement points the ship's navigation cards give."""
    return navigation_bonus_of(
        r, sh[p, s, S_ITEMS + COMPASS], sh[p, s, S_ITEMS + GPS], sh[p, s, S_ITEMS + SATELLITE]
    )


@njit(cache=True)
def movement_points(r: np.ndarray, wmove: np.ndarray, weather: int, sh, p: int, s: int) -> int:
    """A ship's movement points today: base + weather + navigation cards, never below zero."""
    mp = r[R_BASE_MOVEMENT] + wmove[weather] + navigation_bonus(r, sh, p, s)
    return mp if mp > 0 else 0


@njit(cache=True)
def extra_dice(r: np.ndarray, robot: int, scanner: int) -> int:
    """Search dice a ship's robot and scanner add."""
    if r[R_UPGRADE_BONUS] == 1:
        return robot * r[R_ROBOT_DICE] + scanner * r[R_SCANNER_DICE]
    if scanner == 1:
        return r[R_SCANNER_DICE]
    return robot * r[R_ROBOT_DICE]


@njit(cache=True)
def search_dice(r: np.ndarray, sh: np.ndarray, p: int, s: int, level: int) -> int:
    """Dice a ship throws at ``level``: 1D6 (level 1) or 2D6 (level 2), plus its equipment."""
    return level + extra_dice(r, sh[p, s, S_ITEMS + ROBOT], sh[p, s, S_ITEMS + SCANNER])


@njit(cache=True)
def search_rerolls(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    return sh[p, s, S_ITEMS + DIVERS] * r[R_DIVERS_REROLLS]


@njit(cache=True)
def search_cost(r: np.ndarray, level: int, weather: int) -> int:
    cost = r[R_LEVEL1_COST] if level == 1 else r[R_LEVEL2_COST]
    if bad_weather(weather):
        cost += r[R_BAD_WEATHER_SURCHARGE]
    return cost


@njit(cache=True)
def item_price(r: np.ndarray, kind: int) -> int:
    return r[R_PRICE_COMPASS + kind]


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
    if r[R_LEVEL2_WINDOW] == 1 and g[G_DAY] != cr[c, C_L2_DAY] + 1:
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
                total += 1 if by_count else r[R_PRICE_COMPASS + k]
    return total
