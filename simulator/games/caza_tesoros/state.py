"""Caza-Tesoros game state: its layout (named columns of a few integer arrays), :class:`State`
and read-only helpers.

A game in progress is one :class:`State`; the compiled engine and the policies share its arrays:

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

from collections import namedtuple

import numpy as np
from numba import njit

from simulator.contract.rng import STATE_WORDS, below_at, seed_words
from simulator.contract.rules import index_slots

from .rules import (  # noqa: F401 (re-exported: the state layout)
    MAX_CARDS,
    MAX_COLOURS,
    MAX_SHIPS,
    Rules,
)

# -- item kinds (object cards), in deck order -----------------------------------------------------
COMPASS, GPS, SATELLITE, DIVERS, ROBOT, SCANNER = range(6)
N_KINDS = 6
KIND_NAMES = ("compass", "gps", "satellite", "divers", "robot", "scanner")

# -- weather states -------------------------------------------------------------------------------
SUNNY, PARTLY_CLOUDY, CLOUDY, VERY_CLOUDY, RAIN, STORM = range(6)

# -- players: one row per colour (a player may run several, rule colours_per_player) -------------
P_VP = 0  # victory points (the money of the game)
P_ALIVE = 1  # 1 while the player has a ship; 0 once eliminated
P_TREASURES = 2  # treasures rescued
P_CARDS = 3  # Archive cards held (= own crosses on the board)
P_SHIPS = 4  # ships on the board
P_SEARCHES = 5  # searches made
P_RETIRED = 6  # ships retired for maintenance
P_OUT_DAY = 7  # day the player left the game (0 while in it)
P_ITEMS = 8  # object cards acquired (bought at their price or at auction)
N_PLAYER_FIELDS = 9

# -- ships (items are S_ITEMS + kind, 1 when the ship holds that card) ----------------------------
S_CELL = 0
S_ITEMS = 1
S_AIM = S_ITEMS + N_KINDS  # a policy's memory: the hex this ship is sailing to (-1: none)
S_AIM_UNTIL = S_AIM + 1  # ... and the day it picks another
N_SHIP_FIELDS = S_AIM_UNTIL + 1

# -- crosses --------------------------------------------------------------------------------------
FREE = -2
ARCHIVE = -1
C_CELL = 0
C_OWNER = 1
# C_DUTY + colour: day that colour failed level 1 here (its next search here is level 2), 0 for
# none. The duty belongs to the player ("el jugador fallara y deberá realizar una búsqueda de
# segundo nivel"): two players failing on one cross each keep their own.
C_DUTY = 2
N_CROSS_FIELDS = C_DUTY + MAX_COLOURS

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
G_LOG_N = (
    G_SEARCHES + 6
)  # events recorded (counted past a full buffer: simulator.contract.recording)
G_FIRST_SEAT = G_SEARCHES + 7
G_LIVE = G_SEARCHES + 8  # players still in the game (a player with a colour still in)
G_PROBLEMS = G_SEARCHES + 9  # invariants found broken while checking (bits of PROBLEM_*)
# The game's randomness (simulator.contract.rng: xoshiro256** states as int64 words), seeded from
# the game's seed: the dice and draws of the rules, and apart from them the built-in policies' own
# choices, so a random policy's draws do not move the game's dice.
G_RNG = G_SEARCHES + 10  # 4 words
G_POLICY_RNG = G_RNG + STATE_WORDS  # 4 words
N_GAME_FIELDS = G_POLICY_RNG + STATE_WORDS

# -- invariants a checking game verifies after every turn (bits of G_PROBLEMS) -----------------
PROBLEM_NEGATIVE_VP = 1
PROBLEM_TOO_MANY_CARDS = 2
PROBLEM_TOO_MANY_ARCHIVE_CROSSES = 4
PROBLEM_ITEM_COUNT = 8
PROBLEM_SHIP_OFF_BOARD = 16
PROBLEM_SHIP_COUNT = 32
PROBLEM_CARD_COUNT = 64

# -- end reasons (index into SPEC.end_reasons) ----------------------------------------------------
# all_out: the last players all dropped out at the same maintenance, so nobody is left to win.
END_TREASURES, END_ARCHIVE, END_LAST_PLAYER, END_DAY_CAP, END_ALL_OUT = range(5)
END_REASONS = ("treasures", "archive_crosses", "last_player", "day_cap", "all_out")
_MOST_VP_STILL_IN = (
    "the most VP among the players who still have a ship wins; a player who dropped out cannot "
    "win, whatever its VP"
)
END_NOTES = {
    "last_player": "the one player left with a ship wins whatever the scores; the others "
    "dropped out and kept the VP their retired ships paid",
    "treasures": _MOST_VP_STILL_IN,
    "archive_crosses": _MOST_VP_STILL_IN,
    "day_cap": _MOST_VP_STILL_IN,
}

# -- rules: scalar options by index (tuples travel as their own arrays) ---------------------------
# Scalar options in declaration order (`Rules.scalar_names()`, built by `Rules.scalar_array()`);
# compiled code reads them by name: `r[R.level2_cost]`.
RULE_SLOTS = Rules.scalar_names()
R = index_slots("RuleSlot", RULE_SLOTS)
N_RULES = len(RULE_SLOTS)


# A game in progress: players, ships, crosses, game fields, the day's seat order and the cursor
# of ``turn.next_turn`` in it (seat index in ``order``, next ship slot, 1 once the colour's turn
# began; seat -1: a new day begins), and the game's searches (row 0) and finds (row 1) by cell.
State = namedtuple("State", "pl sh cr g order at hits")

# The rules' tables compiled code reads beside ``r``: treasure values, the weather die's faces
# and their movement, the object deck, the exact search odds and the mean treasure (what the
# policies weigh), and the marking values of the optimal one-value marking.
Tables = namedtuple("Tables", "tv wface wmove deck0 odds tmean worth")


@njit(cache=True)
def new_state(n_colours: int, n_crosses: int, n_cells: int) -> State:
    """An empty game (a hand-made position in tests and tools starts here)."""
    pl = np.zeros((n_colours, N_PLAYER_FIELDS), dtype=np.int64)
    sh = np.zeros((n_colours, MAX_SHIPS, N_SHIP_FIELDS), dtype=np.int64)
    sh[:, :, S_CELL] = -1
    sh[:, :, S_AIM] = -1
    cr = np.zeros((n_crosses, N_CROSS_FIELDS), dtype=np.int64)
    cr[:, C_OWNER] = FREE
    g = np.zeros(N_GAME_FIELDS, dtype=np.int64)
    seed_rng(g, 0)
    order = np.arange(n_colours)
    at = np.zeros(3, dtype=np.int64)
    at[0] = -1
    return State(pl, sh, cr, g, order, at, np.zeros((2, n_cells), dtype=np.int64))


@njit(cache=True)
def copy_state(dst: State, src: State) -> None:
    dst.pl[:] = src.pl
    dst.sh[:] = src.sh
    dst.cr[:] = src.cr
    dst.g[:] = src.g
    dst.order[:] = src.order
    dst.at[:] = src.at
    dst.hits[:] = src.hits


# -- randomness (G_RNG, G_POLICY_RNG) --------------------------------------------------------------
@njit(cache=True)
def seed_rng(g, seed):
    """Seed the game's generator and the policies' from one seed (a game: its seed; tests drive
    single rules from a known seed)."""
    seed_words(g, G_RNG, seed, 2 * STATE_WORDS)  # the two streams follow each other in g


@njit(cache=True, _nrt=False)
def rand_int(g, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` from the game's generator (the rules' dice and draws)."""
    return below_at(g, G_RNG, n)


@njit(cache=True, _nrt=False)
def d6(g) -> int:
    """One die of the game (1-6)."""
    return below_at(g, G_RNG, 6) + 1


@njit(cache=True, _nrt=False)
def policy_int(g, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` from the policies' generator."""
    return below_at(g, G_POLICY_RNG, n)


# -- helpers shared by the engine and the policies ------------------------------------------------
# Helpers compiled with ``_nrt=False`` (here, in the board, the engine and the policies) allocate
# nothing: without the runtime a call does not count (atomically) every array it is passed, which
# was 43% of a game's time (docs/performance.md). Their callees must allocate nothing either.
@njit(cache=True, _nrt=False)
def players_of(r: np.ndarray, pl: np.ndarray) -> int:
    """Players at the table: the state has one row per colour, ``colours_per_player`` each."""
    return pl.shape[0] // r[R.colours_per_player]


@njit(cache=True, _nrt=False)
def player_of(r: np.ndarray, pl: np.ndarray, colour: int) -> int:
    """The player running ``colour``: colours are dealt round the table (A1 B1 A2 B2 ...), so
    turns alternate between players."""
    return colour % players_of(r, pl)


@njit(cache=True, _nrt=False)
def player_sum(r: np.ndarray, pl: np.ndarray, player: int, field: int) -> int:
    """A player's total of ``pl[:, field]`` over its colours (VP, treasures, ships)."""
    total = 0
    for c in range(player, pl.shape[0], players_of(r, pl)):
        total += pl[c, field]
    return total


@njit(cache=True, _nrt=False)
def player_in(r: np.ndarray, pl: np.ndarray, player: int) -> bool:
    """A player is in the game while one of its colours still has a ship."""
    for c in range(player, pl.shape[0], players_of(r, pl)):
        if pl[c, P_ALIVE] == 1:
            return True
    return False


@njit(cache=True, _nrt=False)
def live_players(r: np.ndarray, pl: np.ndarray) -> int:
    n = 0
    for q in range(players_of(r, pl)):
        if player_in(r, pl, q):
            n += 1
    return n


@njit(cache=True, _nrt=False)
def bad_weather(weather: int) -> bool:
    """Rain and storm ("condiciones de mar adversa ( Lluvia y Tormenta)")."""
    return weather == RAIN or weather == STORM


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def navigation_bonus(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    """Movement points the ship's navigation cards give."""
    return navigation_bonus_of(
        r, sh[p, s, S_ITEMS + COMPASS], sh[p, s, S_ITEMS + GPS], sh[p, s, S_ITEMS + SATELLITE]
    )


@njit(cache=True, _nrt=False)
def movement_points(r: np.ndarray, wmove: np.ndarray, weather: int, sh, p: int, s: int) -> int:
    """A ship's movement points today: base + weather + navigation cards, never below zero."""
    mp = r[R.base_movement] + wmove[weather] + navigation_bonus(r, sh, p, s)
    return mp if mp > 0 else 0


@njit(cache=True, _nrt=False)
def extra_dice(r: np.ndarray, robot: int, scanner: int) -> int:
    """Search dice a ship's robot and scanner add."""
    if r[R.upgrade_bonus] == 1:
        return robot * r[R.robot_dice] + scanner * r[R.scanner_dice]
    if scanner == 1:
        return r[R.scanner_dice]
    return robot * r[R.robot_dice]


@njit(cache=True, _nrt=False)
def search_dice(r: np.ndarray, sh: np.ndarray, p: int, s: int, level: int) -> int:
    """Dice a ship throws at ``level``: 1D6 (level 1) or 2D6 (level 2), plus its equipment."""
    return level + extra_dice(r, sh[p, s, S_ITEMS + ROBOT], sh[p, s, S_ITEMS + SCANNER])


@njit(cache=True, _nrt=False)
def search_rerolls(r: np.ndarray, sh: np.ndarray, p: int, s: int) -> int:
    return sh[p, s, S_ITEMS + DIVERS] * r[R.divers_rerolls]


@njit(cache=True, _nrt=False)
def search_cost(r: np.ndarray, level: int, weather: int) -> int:
    cost = r[R.level1_cost] if level == 1 else r[R.level2_cost]
    if bad_weather(weather):
        cost += r[R.bad_weather_surcharge]
    return cost


@njit(cache=True, _nrt=False)
def item_price(r: np.ndarray, kind: int) -> int:
    return r[R.price_compass + kind]


@njit(cache=True, _nrt=False)
def can_hold(sh: np.ndarray, p: int, s: int, kind: int) -> bool:
    """A ship may take a card it lacks whose prerequisite it holds (compass before GPS ...)."""
    if sh[p, s, S_CELL] < 0 or sh[p, s, S_ITEMS + kind] == 1:
        return False
    first = COMPASS if kind <= SATELLITE else DIVERS
    for k in range(kind + 1, first + 3):
        if sh[p, s, S_ITEMS + k] == 1:
            return False  # never a step back down the chain
    if kind == first:
        return True
    return sh[p, s, S_ITEMS + kind - 1] == 1


@njit(cache=True, _nrt=False)
def ship_for_item(sh: np.ndarray, p: int, kind: int) -> int:
    """The player's first ship (by number) that may take ``kind``, or -1."""
    for s in range(sh.shape[1]):
        if can_hold(sh, p, s, kind):
            return s
    return -1


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def clear_duties(cr: np.ndarray, c: int) -> None:
    """No colour owes a level 2 at cross ``c`` any more (it was rescued, freed or changed hands)."""
    for q in range(MAX_COLOURS):
        cr[c, C_DUTY + q] = 0


@njit(cache=True, _nrt=False)
def search_level(r: np.ndarray, cr: np.ndarray, g: np.ndarray, p: int, c: int) -> int:
    """Level of the next search of colour ``p`` at cross ``c``: 2 after its own failed level 1
    there (``next_turn_only``: only on the day after, else it starts again at level 1)."""
    failed = cr[c, C_DUTY + p]
    if failed == 0:
        return 1
    if r[R.level2_window] == 1 and g[G_DAY] != failed + 1:
        return 1
    return 2


@njit(cache=True, _nrt=False)
def bound_to_search(r: np.ndarray, cr: np.ndarray, g: np.ndarray, p: int, c: int) -> bool:
    """``level2_window = must_next_turn``: colour ``p`` failed level 1 at ``c`` yesterday, so
    it must search there at level 2 today ("deberá realizar una búsqueda de segundo nivel")."""
    return r[R.level2_window] == 2 and cr[c, C_DUTY + p] == g[G_DAY] - 1 and g[G_DAY] > 1


@njit(cache=True, _nrt=False)
def equipment_value(r: np.ndarray, sh: np.ndarray, p: int, by_count: bool) -> int:
    """Price (or number) of the cards on colour ``p``'s ships."""
    total = 0
    for s in range(sh.shape[1]):
        if sh[p, s, S_CELL] < 0:
            continue
        for k in range(N_KINDS):
            if sh[p, s, S_ITEMS + k] == 1:
                total += 1 if by_count else r[R.price_compass + k]
    return total
