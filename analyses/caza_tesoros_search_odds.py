"""Caza-Tesoros search odds: exact by dynamic programming, simulated through the engine's search.

Exact: ``V(marked, rerolls left)`` is the chance of marking every box from the set ``marked``.
A throw either shows no new value (a failed throw: a reroll is spent, or the search fails) or
moves to a larger set, so the sets are solved from the full one down. Arithmetic is on integers:
a search from ``marked`` with ``r`` rerolls lasts at most ``L = boxes - |marked| + r`` more
throws, so ``V * (6**dice)**L`` is a whole number, and the result is an exact ``Fraction``. A
float64 programme written independently (numpy, a popcount layer at a time) must agree with it.

With marking ``one`` the player may mark the best choice (the new value leaving the highest chance
to finish) or follow the greedy rule (:mod:`simulator.games.caza_tesoros.treasure_search`); both are
solved exactly, ``exact`` is the one the rules in force play (``marking_choice``), and the Monte
Carlo figure, played by the engine's search rules (``search_trials``: the same throws, marking and
choice: the engine's own ``search_kernel``, on an explicit xoshiro256** generator), estimates that
same rule.

Economics: one attempt at a treasure is a level 1 search, then a level 2 search if level 1 fails;
``cost per treasure found`` (expected VP spent / chance of finding) is also the break-even treasure
value above which an attempt pays on average.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.stats import binomtest, chi2

from simulator.contract.errors import BalanceError
from simulator.contract.rng import new_state
from simulator.games.caza_tesoros.treasure_search import (
    GREEDY_ORDER,
    LEVEL_BASE_DICE,
    LEVEL_BOXES,
    MARK_ALL,
    MARK_ONE,
    MARKING_NAMES,
    MAX_DICE,
    PAIRS_NAMES,
    search_trials,
    throw_distribution,
)

MAX_REROLLS = 5
MAX_TRIALS = 100_000_000
DEFAULT_TRIALS = 100_000
DEFAULT_DICE = {1: (1, 2, 3), 2: (2, 3, 4)}
DEFAULT_REROLLS = (0, 1)
JSON_KEYS = (
    "level",
    "dice",
    "rerolls",
    "marking",
    "choice",
    "exact",
    "exact_optimal",
    "exact_greedy",
    "simulated",
    "trials",
)
FLOAT_TOLERANCE = 1e-12
# The joint check runs at every invocation, so it alarms only where a correct engine lands one
# table in a thousand: at 0.05 one table in twenty would call a sound engine wrong.
ALARM_P = 0.001


# -- exact ---------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def _exact_tables(
    level: int, dice: int, rerolls: int, marking: int, pairs: int, choice: str
) -> tuple[list[list[int]], int]:
    """Integer numerators ``N[r][marked] = V * T**L`` (T = 6**dice) for r = 0..rerolls.

    With marking one, throws are grouped with numpy by the value marked (counts stay below 2**53,
    exact in float64 sums); the values themselves are Python integers, so nothing is rounded."""
    boxes = LEVEL_BOXES[level]
    full = (1 << boxes) - 1
    per_throw = 6**dice
    dist = throw_distribution(level, dice, pairs)
    shown = np.fromiter(dist.keys(), dtype=np.int64)
    counts = np.fromiter(dist.values(), dtype=np.float64)
    bits = np.int64(1) << np.arange(boxes, dtype=np.int64)
    shown_bits = (shown[:, None] & bits[None, :]) != 0
    greedy_rank = np.empty(boxes, dtype=np.int64)
    greedy_rank[[int(v) - 1 for v in GREEDY_ORDER[level, dice, pairs] if v > 0]] = np.arange(boxes)
    size = [bin(m).count("1") for m in range(full + 1)]
    power = [per_throw**k for k in range(boxes + rerolls + 1)]
    tables: list[list[int]] = []
    for r in range(rerolls + 1):
        row = [0] * (full + 1)
        row[full] = power[r]
        for marked in range(full - 1, -1, -1):
            throws_left = boxes - size[marked] + r
            failed = 0
            total = 0
            if marking == MARK_ALL:
                for seen, count in dist.items():
                    after = marked | seen
                    if after == marked:
                        failed += count
                    else:
                        gap = throws_left - 1 - (boxes - size[after] + r)
                        total += count * row[after] * power[gap]
            else:
                new = shown & ~marked
                failed = int(counts[new == 0].sum())
                moving = new != 0
                open_bits = [b for b in range(boxes) if not marked >> b & 1]
                if choice == "optimal":
                    rank = np.full(boxes, boxes, dtype=np.int64)
                    best_first = sorted(open_bits, key=lambda b: -row[marked | 1 << b])
                    rank[best_first] = np.arange(len(best_first))
                else:
                    rank = greedy_rank
                is_new = shown_bits[moving] & ((bits & ~marked) != 0)[None, :]
                pick = np.where(is_new, rank[None, :], boxes + 1).argmin(axis=1)
                weight = np.bincount(pick, weights=counts[moving], minlength=boxes)
                # Marking one value always leaves exactly one throw fewer: same power.
                total = sum(int(weight[b]) * row[marked | 1 << b] for b in open_bits)
            if r > 0:
                total += failed * tables[r - 1][marked]
            row[marked] = total
        tables.append(row)
    return tables, per_throw


def exact_probability(
    level: int, dice: int, rerolls: int, marking: int, pairs: int, choice: str = "optimal"
) -> Fraction:
    """Exact chance that one search succeeds. ``choice`` ("optimal" or "greedy") only matters
    with ``MARK_ONE``; the float64 programme is checked against the fraction every time."""
    _check(level, dice, rerolls, marking, pairs)
    if choice not in ("optimal", "greedy"):
        raise BalanceError(f"choice must be optimal or greedy, not {choice!r}")
    if marking == MARK_ALL:
        choice = "optimal"
    # Tables for r rerolls contain those for fewer: solve once for the common 0 and 1.
    tables, per_throw = _exact_tables(level, dice, max(rerolls, 1), marking, pairs, choice)
    exact = Fraction(tables[rerolls][0], per_throw ** (LEVEL_BOXES[level] + rerolls))
    approx = float_probability(level, dice, rerolls, marking, pairs, choice)
    if abs(approx - float(exact)) > FLOAT_TOLERANCE:
        raise RuntimeError(f"float64 search odds {approx!r} disagree with exact {float(exact)!r}")
    return exact


def optimal_marks(
    level: int, dice: int, rerolls: int, pairs: int, marked: set[int], shown: set[int]
) -> list[int]:
    """With marking ``one``: the new values whose marking leaves the highest chance to finish
    (several when they tie), given the values already ``marked`` and those a throw ``shown``."""
    _check(level, dice, rerolls, MARK_ONE, pairs)
    boxes = LEVEL_BOXES[level]
    new = sorted(set(shown) - set(marked))
    if not new or any(not 1 <= v <= boxes for v in set(shown) | set(marked)):
        raise BalanceError(f"shown values must include a new value in 1..{boxes}")
    tables, _ = _exact_tables(level, dice, max(rerolls, 1), MARK_ONE, pairs, "optimal")
    base = sum(1 << (v - 1) for v in marked)
    worth = {v: tables[rerolls][base | 1 << (v - 1)] for v in new}
    best = max(worth.values())
    return [v for v in new if worth[v] == best]


@lru_cache(maxsize=256)
def float_probability(
    level: int, dice: int, rerolls: int, marking: int, pairs: int, choice: str = "optimal"
) -> float:
    """The same programme in float64, vectorised over every set with the same number of marks."""
    boxes = LEVEL_BOXES[level]
    full = (1 << boxes) - 1
    dist = throw_distribution(level, dice, pairs)
    shown = np.fromiter(dist.keys(), dtype=np.int64)
    prob = np.fromiter(dist.values(), dtype=np.float64) / 6.0**dice
    bits = np.int64(1) << np.arange(boxes, dtype=np.int64)
    masks = np.arange(full + 1, dtype=np.int64)
    size = ((masks[:, None] & bits[None, :]) != 0).sum(axis=1)
    rank = np.empty(boxes, dtype=np.int64)  # greedy preference of each bit, 0 = first
    rank[[int(v) - 1 for v in GREEDY_ORDER[level, dice, pairs] if v > 0]] = np.arange(boxes)
    values = np.zeros((rerolls + 1, full + 1))
    values[:, full] = 1.0
    for k in range(boxes - 1, -1, -1):
        layer = masks[size == k]
        for start in range(0, layer.size, 64):
            marked = layer[start : start + 64]
            new = shown[None, :] & ~marked[:, None]
            failed = new == 0
            p_fail = (prob[None, :] * failed).sum(axis=1)
            for r in range(rerolls + 1):
                v = values[r]
                if marking == MARK_ALL:
                    reached = v[marked[:, None] | new]
                else:
                    new_bits = (new[:, :, None] & bits[None, None, :]) != 0
                    if choice == "optimal":
                        worth = v[marked[:, None] | bits[None, :]]  # (sets, boxes)
                        reached = np.where(new_bits, worth[:, None, :], -1.0).max(axis=2)
                    else:
                        pick = np.where(new_bits, rank[None, None, :], boxes).argmin(axis=2)
                        reached = v[marked[:, None] | bits[pick]]
                gained = (prob[None, :] * np.where(failed, 0.0, reached)).sum(axis=1)
                if r > 0:
                    gained += p_fail * values[r - 1][marked]
                v[marked] = gained
    return float(values[rerolls][0])


# -- simulation ----------------------------------------------------------------------------------
def simulate_search(
    level: int,
    dice: int,
    rerolls: int,
    marking: int,
    pairs: int,
    trials: int,
    seed: int = 0,
    choice: str = "optimal",
) -> tuple[int, float, float]:
    """Play ``trials`` searches by the engine's rules (``search_trials``), marking one value by
    ``choice`` as the engine does: (successes, 95% Wilson interval). The xoshiro256** stream
    depends on the seed and the search's parameters only, so a row gets the same figure in any
    table."""
    from simulator.games.caza_tesoros.odds import search_values

    _check(level, dice, rerolls, marking, pairs)
    _check_choice(choice)
    _check_trials(trials)
    worth = np.zeros((rerolls + 1, 0))
    if marking == MARK_ONE and choice == "optimal":
        worth = np.ascontiguousarray(search_values(level, dice, rerolls, marking, pairs, choice))
    key = (level, dice, rerolls, marking, pairs)
    state = new_state(np.random.SeedSequence(seed, spawn_key=key))
    successes = search_trials(state, trials, level, dice, rerolls, marking, pairs, worth)
    ci = binomtest(successes, trials).proportion_ci(method="wilson")
    return successes, float(ci.low), float(ci.high)


# -- the table -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchRow:
    level: int
    dice: int
    rerolls: int
    marking: str
    pairs: str
    choice: str  # the rule in force for marking one value: "optimal" or "greedy"
    exact_optimal: Fraction  # best play with marking "one"
    exact_greedy: Fraction  # the greedy rule (equal to exact_optimal with marking "all")
    successes: int
    trials: int
    ci_low: float
    ci_high: float

    @property
    def monte_carlo(self) -> float:
        return self.successes / self.trials

    @property
    def simulated(self) -> dict[str, float]:
        """The simulated chance as every estimate is written: value and 95% interval."""
        return {"value": self.monte_carlo, "lo": self.ci_low, "hi": self.ci_high}

    @property
    def exact(self) -> Fraction:
        """The exact chance of the rule in force: what the simulation plays."""
        return self.exact_optimal if self.choice == "optimal" else self.exact_greedy

    @property
    def covers(self) -> bool:
        """Whether the simulated 95% interval covers ``exact`` (about 95% of rows should)."""
        return self.ci_low <= float(self.exact) <= self.ci_high

    def as_json(self) -> dict[str, Any]:
        """Exactly the keys of ``balance search-odds --json``."""
        return {
            "level": self.level,
            "dice": self.dice,
            "rerolls": self.rerolls,
            "marking": self.marking,
            "choice": self.choice,
            "exact": float(self.exact),
            "exact_optimal": float(self.exact_optimal),
            "exact_greedy": float(self.exact_greedy),
            "simulated": self.simulated,
            "trials": self.trials,
        }


def search_row(
    level: int,
    dice: int,
    rerolls: int,
    marking: str,
    pairs: str,
    trials: int,
    seed: int = 0,
    choice: str = "optimal",
) -> SearchRow:
    marking_id, pairs_id = _marking_id(marking), _pairs_id(pairs)
    best = exact_probability(level, dice, rerolls, marking_id, pairs_id, "optimal")
    greedy = exact_probability(level, dice, rerolls, marking_id, pairs_id, "greedy")
    successes, low, high = simulate_search(
        level, dice, rerolls, marking_id, pairs_id, trials, seed, choice
    )
    return SearchRow(
        level, dice, rerolls, marking, pairs, choice, best, greedy, successes, trials, low, high
    )


def search_table(
    level: int | None = None,
    dice: int | None = None,
    rerolls: int | None = None,
    marking: str | None = None,
    *,
    pairs: str = "any_pair",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    choice: str = "optimal",
) -> list[SearchRow]:
    """The rows of ``balance search-odds``: every default row matching the given filters (a given
    ``dice`` or ``rerolls`` replaces the default range)."""
    levels = (1, 2) if level is None else (level,)
    if level is not None and level not in (1, 2):
        raise BalanceError(f"--level must be 1 or 2, not {level}")
    if rerolls is not None and not 0 <= rerolls <= MAX_REROLLS:
        raise BalanceError(f"--rerolls must be 0 to {MAX_REROLLS}, not {rerolls}")
    markings = MARKING_NAMES if marking is None else (marking,)
    _marking_id(markings[0])
    _pairs_id(pairs)
    _check_trials(trials)
    cases = []
    for lv in levels:
        if dice is None:
            dice_range = DEFAULT_DICE[lv]
        elif LEVEL_BASE_DICE[lv] <= dice <= MAX_DICE:
            dice_range = (dice,)
        else:
            continue
        for d in dice_range:
            for r in DEFAULT_REROLLS if rerolls is None else (rerolls,):
                cases += [(lv, d, r, m) for m in markings]
    if not cases:
        where = f"level {level}" if level is not None else "level 1 or 2"
        raise BalanceError(
            f"--dice {dice} is not possible at {where}; allowed: 1-{MAX_DICE} at level 1, "
            f"2-{MAX_DICE} at level 2"
        )
    _check_choice(choice)
    return [search_row(lv, d, r, m, pairs, trials, seed, choice) for lv, d, r, m in cases]


def joint_agreement(rows: list[SearchRow]) -> tuple[float, int, float]:
    """One test of every simulated row against its exact chance: (chi-square, rows, p).

    Counting how many 95% intervals cover their exact figure says little (each misses 1 time in
    20 by design, and a near miss and a far one count alike); the sum over rows of
    ``(successes - n p)**2 / (n p (1 - p))`` is chi-square with one degree of freedom per row
    when the simulation plays the odds the exact programme solves. A row whose exact chance is
    0 or 1 admits no other count: any other makes p = 0."""
    statistic, df = 0.0, 0
    for row in rows:
        p, n = float(row.exact), row.trials
        if p in (0.0, 1.0):
            if row.successes != round(p * n):
                return math.inf, len(rows), 0.0
            continue
        statistic += (row.successes - n * p) ** 2 / (n * p * (1 - p))
        df += 1
    return statistic, df, float(chi2.sf(statistic, df)) if df else 1.0


def agreement_verdict(rows: list[SearchRow]) -> str:
    """The joint check in one sentence: an alarm only below ``ALARM_P``, otherwise its p-value
    and what that p means for a check run every time."""
    statistic, df, p = joint_agreement(rows)
    figures = f"chi-square {statistic:.1f} on {df} rows, p = {p:.3g}"
    if p < ALARM_P:
        return (
            f"Taken together the simulated rows disagree with the exact chances ({figures}, "
            f"below {ALARM_P:g}, which a correct engine gives one table in "
            f"{round(1 / ALARM_P):,}): the engine plays other odds than the rules."
        )
    if p < 0.05:  # not an alarm, but not "consistent" beside a guide that calls it significant
        return (
            f"Taken together the simulated rows lie farther from the exact chances than most "
            f"tables do ({figures}), though not as far as this check alarms at (p below "
            f"{ALARM_P:g}): a correct engine lands below 0.05 one table in twenty, and this check "
            "runs every time."
        )
    return (
        f"Taken together the simulated rows are consistent with the exact chances ({figures}; "
        f"this check alarms only below p = {ALARM_P:g}, since a correct engine lands below 0.05 "
        "one table in twenty)."
    )


def misses_sentence(rows: list[SearchRow]) -> str:
    """How many rows' intervals miss their exact chance, beside how many chance alone makes
    miss: each 95% interval misses 1 time in 20, so of n rows about n/20 do, and up to the
    binomial 95th percentile in 95 tables of 100 from a correct engine."""
    from scipy.stats import binom

    n = len(rows)
    missed = sum(not r.covers for r in rows)
    expected = n * (1 - 0.95)
    usual = int(binom.ppf(0.95, n, 0.05))
    rows_word = "row's interval misses its" if missed == 1 else "rows' intervals miss their"
    more = (
        "; more than that, though the joint check above weighs how far each row misses"
        if missed > usual
        else ""
    )
    return (
        f"{missed} of these {n} {rows_word} exact chance; by chance alone about "
        f"{expected:.1f} would (each 95% interval misses 1 time in 20), and up to {usual} in "
        f"95 tables of 100 from a correct engine{more}."
    )


# -- economics -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Equipment:
    name: str
    items: tuple[str, ...]
    price: int  # VP to buy every card of the set
    level1_dice: int
    level2_dice: int
    rerolls: int
    best_item_price: int  # the card a failed level 2 in bad weather takes away (0: none)


def equipment_sets(rules: Any) -> list[Equipment]:
    """Search equipment a ship can hold, each card needing the one before it (robot needs divers,
    scanner needs robot): none, divers, divers+robot, divers+robot+scanner."""
    chain = ("divers", "robot", "scanner")
    out = []
    for k in range(len(chain) + 1):
        items = chain[:k]
        extra = 0
        if "robot" in items:
            extra = rules.robot_dice
        if "scanner" in items:
            add = rules.upgrade_bonus == "add"
            extra = rules.robot_dice + rules.scanner_dice if add else rules.scanner_dice
        prices = [getattr(rules, f"price_{item}") for item in items]
        out.append(
            Equipment(
                name="+".join(items) or "none",
                items=items,
                price=sum(prices),
                level1_dice=LEVEL_BASE_DICE[1] + extra,
                level2_dice=LEVEL_BASE_DICE[2] + extra,
                rerolls=rules.divers_rerolls if items else 0,
                best_item_price=max(prices, default=0),
            )
        )
    return out


@dataclass(frozen=True)
class Economics:
    equipment: Equipment
    weather: str  # "fair" or "bad"
    level1: Fraction  # chance the level 1 search succeeds
    level2: Fraction
    found: Fraction  # chance one attempt (level 1, then level 2) finds the treasure
    expected_cost: Fraction  # VP spent per attempt, counting a card lost in bad weather
    cost_per_treasure: Fraction  # = break-even treasure value
    mean_treasure: Fraction
    expected_gain: Fraction  # mean treasure x found - expected cost, per attempt

    def as_dict(self) -> dict[str, Any]:
        return {
            "equipment": self.equipment.name,
            "equipment_price": self.equipment.price,
            "weather": self.weather,
            "level1_dice": self.equipment.level1_dice,
            "level2_dice": self.equipment.level2_dice,
            "rerolls": self.equipment.rerolls,
            "level1": float(self.level1),
            "level2": float(self.level2),
            "found": float(self.found),
            "expected_cost": float(self.expected_cost),
            "cost_per_treasure": float(self.cost_per_treasure),
            "break_even_value": float(self.cost_per_treasure),
            "expected_gain": float(self.expected_gain),
        }


def search_economics(rules: Any) -> list[Economics]:
    """Expected VP of one attempt at a treasure for every equipment set, fair and bad weather,
    under the rules in force (costs, surcharge, each level's marking, level 2 pairs, items and
    prices)."""
    marking1 = _marking_id(rules.level1_marking)
    marking2 = _marking_id(rules.level2_marking)
    pairs = _pairs_id(rules.level2_combinations)
    choice = getattr(rules, "marking_choice", "optimal")
    values = getattr(rules, "treasure_values", ()) or (0,)
    mean_treasure = Fraction(sum(values), len(values))
    out = []
    for eq in equipment_sets(rules):
        p1 = exact_probability(1, eq.level1_dice, eq.rerolls, marking1, pairs, choice)
        p2 = exact_probability(2, eq.level2_dice, eq.rerolls, marking2, pairs, choice)
        found = p1 + (1 - p1) * p2
        for weather, surcharge in (("fair", 0), ("bad", rules.bad_weather_surcharge)):
            cost = rules.level1_cost + surcharge + (1 - p1) * (rules.level2_cost + surcharge)
            if weather == "bad" and getattr(rules, "bad_weather_item_loss", True):
                cost += (1 - p1) * (1 - p2) * eq.best_item_price
            per_treasure = cost / found if found else Fraction(10**9)
            out.append(
                Economics(
                    eq,
                    weather,
                    p1,
                    p2,
                    found,
                    cost,
                    per_treasure,
                    mean_treasure,
                    mean_treasure * found - cost,
                )
            )
    return out


# -- checks ----------------------------------------------------------------------------------------
def _check(level: int, dice: int, rerolls: int, marking: int, pairs: int) -> None:
    if level not in (1, 2):
        raise BalanceError(f"search level must be 1 or 2, not {level}")
    if not LEVEL_BASE_DICE[level] <= dice <= MAX_DICE:
        raise BalanceError(
            f"a level {level} search throws {LEVEL_BASE_DICE[level]} to {MAX_DICE} dice, not {dice}"
        )
    if not 0 <= rerolls <= MAX_REROLLS:
        raise BalanceError(f"rerolls must be 0 to {MAX_REROLLS}, not {rerolls}")
    if marking not in (MARK_ALL, MARK_ONE) or pairs not in (0, 1):
        raise BalanceError(f"marking must be 0 or 1 and pairs 0 or 1, not {marking}, {pairs}")


def _check_choice(choice: str) -> None:
    if choice not in ("optimal", "greedy"):
        raise BalanceError(f"marking_choice must be optimal or greedy, not {choice!r}")


def _check_trials(trials: int) -> None:
    if not 1 <= trials <= MAX_TRIALS:
        raise BalanceError(f"--trials must be 1 to {MAX_TRIALS:,}, not {trials}")


def _marking_id(marking: str) -> int:
    if marking not in MARKING_NAMES:
        raise BalanceError(f"--marking must be one of {', '.join(MARKING_NAMES)}, not {marking!r}")
    return MARKING_NAMES.index(marking)


def _pairs_id(pairs: str) -> int:
    if pairs not in PAIRS_NAMES:
        raise BalanceError(f"level 2 pairs must be one of {', '.join(PAIRS_NAMES)}, not {pairs!r}")
    return PAIRS_NAMES.index(pairs)


# -- what `balance search-odds` prints -----------------------------------------------------------
@dataclass(frozen=True)
class SearchOdds:
    rules: Any
    variant: str
    rows: list[SearchRow]
    economics: list[Economics]

    def table(self) -> Any:
        """The rows as a rich table (exact, greedy, simulated with its 95% interval)."""
        from rich.table import Table

        pairs = self.rows[0].pairs if self.rows else self.rules.level2_combinations
        table = Table(
            "level",
            "dice",
            "rerolls",
            "marking",
            "exact",
            "best choice",
            "greedy rule",
            "simulated",
            "95% interval",
            "trials",
            title=f"Caza-Tesoros: chance that one treasure search succeeds, i.e. marks every "
            f"box of its level before a throw showing nothing new finds no reroll left "
            f"({self.variant}; level 2 pairs: {pairs})",
            caption=self.agreement_text(),
        )
        for row in self.rows:
            table.add_row(
                str(row.level),
                str(row.dice),
                str(row.rerolls),
                row.marking,
                _pct(row.exact),
                _pct(row.exact_optimal),
                _pct(row.exact_greedy),
                _pct(row.monte_carlo),
                f"{_pct(row.ci_low)} - {_pct(row.ci_high)}",
                f"{row.trials:,}",
            )
        return table

    def agreement_text(self) -> str:
        """What the exact and simulated columns are, and whether they agree, tested jointly."""
        return (
            f"exact: the chance under the rule in force (marking one: "
            f"{self.rules.marking_choice}); simulated: searches played by the engine's own "
            f"rules, with a 95% interval. {agreement_verdict(self.rows)} "
            f"{misses_sentence(self.rows)}"
        )

    def economics_table(self) -> Any:
        from rich.table import Table

        table = Table(
            "equipment",
            "price",
            "dice L1/L2",
            "rerolls",
            "level 1",
            "level 2",
            "found",
            "weather",
            "VP per attempt",
            "VP per treasure = break-even",
            "gain per attempt",
            title=f"One attempt at a treasure (level 1, then level 2), marking: level 1 "
            f"'{self.rules.level1_marking}', level 2 '{self.rules.level2_marking}'",
            caption="gain per attempt: mean treasure value x found - VP spent (card loss "
            "in bad weather included)",
        )
        for e in self.economics:
            eq = e.equipment
            table.add_row(
                eq.name,
                str(eq.price),
                f"{eq.level1_dice}/{eq.level2_dice}",
                str(eq.rerolls),
                _pct(e.level1),
                _pct(e.level2),
                _pct(e.found),
                e.weather,
                f"{float(e.expected_cost):.2f}",
                f"{float(e.cost_per_treasure):.1f}",
                f"{float(e.expected_gain):+.2f}",
            )
        return table


def _pct(x: float | Fraction) -> str:
    return f"{float(x):.2%}"


def load_rules(variant: str | None = None, sets: list[str] | dict | None = None) -> tuple[Any, str]:
    """The Caza-Tesoros rules in force: defaults, then a variant file, then ``--set`` values."""
    from simulator.contract.rules import build_rules
    from simulator.games.caza_tesoros.rules import Rules

    return build_rules(Rules, variant, sets)


def run_search_odds(
    level: int | None = None,
    dice: int | None = None,
    rerolls: int | None = None,
    marking: str | None = None,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    sets: list[str] | dict | None = None,
    variant: str | None = None,
) -> SearchOdds:
    """Everything ``balance search-odds`` shows, for the rules a variant and ``--set`` make."""
    rules, name = load_rules(variant, sets)
    rows = search_table(
        level,
        dice,
        rerolls,
        marking,
        pairs=rules.level2_combinations,
        trials=trials,
        seed=seed,
        choice=rules.marking_choice,
    )
    return SearchOdds(rules, name, rows, search_economics(rules))
