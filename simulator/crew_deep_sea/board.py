"""Deck, task cards and logbook missions of The Crew: Mission Deep Sea.

The 96 task cards and the 32 missions (+ epilogue) are read from the CSV files shipped in
``data/`` (copied from the reference folder, which installed users do not have). Each task's
``condition_type`` and ``parameters`` become one integer row, so the engine evaluates every card
with a handful of parameterised evaluators instead of 96 hand-written ones.

Cards are integers: colour card ``suit * 9 + rank - 1`` (suits pink 0, yellow 1, green 2, blue 3;
ranks 1-9, ids 0-35) and submarine ``k`` = ``35 + k`` (ids 36-39, suit 4).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"

SUITS = "PYGBS"
SUIT_NAMES = ("pink", "yellow", "green", "blue", "submarine")
N_CARDS = 40
N_TASK_CARDS = 96

# condition types (tasks.csv `condition_type`) -> engine code
CONDITION_TYPES = (
    "win_cards",
    "win_card_in_last_trick",
    "win_card_only_sub",
    "win_card_with_sub",
    "win_rank_at_least",
    "win_rank_exactly",
    "win_suit_at_least",
    "win_suit_exactly",
    "win_none",
    "win_more_suit_than_suit",
    "win_equal_suits",
    "win_each_suit",
    "win_whole_suit",
    "win_trick_equal_suits",
    "win_rank_with_rank",
    "win_trick_using_rank",
    "win_trick_all_ranks",
    "win_trick_sum",
    "win_trick_parity",
    "never_lead_suits",
    "win_tricks_at",
    "win_only_tricks_at",
    "win_none_of_first",
    "win_exact_tricks",
    "win_exact_tricks_predicted",
    "win_streak",
    "win_exact_streak",
    "never_streak",
    "compare_tricks",
)
CT = {name: i for i, name in enumerate(CONDITION_TYPES)}
N_TASK_PARAMS = 8

# mission allocation / communication / objective codes (missions.csv columns)
ALLOCATIONS = (
    "normal",
    "one_player_takes_all",
    "captain_all_or_one",
    "one_volunteer",
    "two_volunteers",
    "hardest_to_captain",
    "captain_takes_none",
    "free",
    "none",
)
COMMUNICATIONS = ("normal", "currents", "rapture", "terrain", "none")
OBJECTIVES = (
    "",
    "balance9",
    "balance1",
    "no_lead_pink_or_sub",
    "first_winner_leads",
    "yellow5_last_card",
)
EPILOGUE = 33  # value of the `mission` rule that plays the epilogue

# Redeal conditions from the tasks.csv notes: the deal is impossible if one hand holds all of
# these cards (submarines are "S1".."S4").
REDEAL_SETS: dict[str, tuple[str, ...]] = {
    "win_exactly_1_sub": ("S1|S2|S3|S4",),
    "win_exactly_2_subs": ("S2|S3|S4",),
    "win_exactly_3_subs": ("S1|S2|S3|S4",),
    "win_sub1_no_other_sub": ("S1|S4", "S1|S2|S3"),
    "win_sub2_no_other_sub": ("S2|S4", "S1|S2|S3"),
    "win_pink7_with_sub": ("S1|S2|S3|S4|P7",),
    "win_green9_with_sub": ("S1|S2|S3|S4|G9",),
}
# Tasks that force one player to win trick 1 (bit 1) or the last trick (bit 2): two of them
# held by different players conflict (notes.md, "Unavoidable impossibilities").
FORCED_TRICKS: dict[str, int] = {
    "win_first_trick": 1,
    "win_first_two_tricks": 1,
    "win_first_three_tricks": 1,
    "win_only_first_trick": 1,
    "win_first_and_last": 3,
    "win_last_trick": 2,
    "win_only_last_trick": 2,
    "win_green2_in_last_trick": 2,
}
CAPTAIN_BARRED = (
    "more_tricks_than_captain",
    "fewer_tricks_than_captain",
    "as_many_tricks_as_captain",
)
UNTIMED_COMMUNICATION = {14: "currents", 15: "rapture", 16: "none"}
MISSION_32_TASKS = (
    "win_0_tricks",
    "win_exactly_3_in_a_row",
    "win_2_in_a_row",
    "win_first_and_last",
)


def card(code: str) -> int:
    """``"P3"`` -> 2, ``"S4"`` -> 39."""
    suit, rank = SUITS.index(code[0]), int(code[1:])
    return 35 + rank if suit == 4 else suit * 9 + rank - 1


def card_name(c: int) -> str:
    return f"S{c - 35}" if c >= 36 else f"{SUITS[c // 9]}{c % 9 + 1}"


def mask(codes: str) -> int:
    m = 0
    for code in codes.split("|"):
        m |= 1 << card(code)
    return m


def _rank_mask(rank: int) -> int:
    return sum(1 << (s * 9 + rank - 1) for s in range(4))


def _suit_mask(suit: int) -> int:
    if suit == 4:
        return sum(1 << c for c in range(36, 40))
    return sum(1 << (suit * 9 + r) for r in range(9))


@dataclass(frozen=True)
class TaskTable:
    """All 96 task cards as engine arrays (row i = task id i + 1)."""

    keys: tuple[str, ...]
    texts: tuple[str, ...]
    ctype: np.ndarray  # int64[96]
    params: np.ndarray  # int64[96, N_TASK_PARAMS]
    difficulty: np.ndarray  # int64[96, 3]: printed value for 3, 4, 5 players
    redeal: np.ndarray  # int64[96, 2]: card masks, "one hand holds all" makes the deal impossible
    forced: np.ndarray  # int64[96]: bit 1 trick 1, bit 2 last trick
    captain_barred: np.ndarray  # int64[96]: 1 for the three "compared with the captain" tasks

    def row(self, key: str) -> int:
        return self.keys.index(key)


def _parse_params(ctype: str, text: str) -> list[int]:
    kv = dict(item.split("=", 1) for item in text.split(";")) if text else {}
    p = [0] * N_TASK_PARAMS
    if ctype == "win_cards":
        p[0] = mask(kv["cards"])
    elif ctype in ("win_card_in_last_trick", "win_card_only_sub"):
        p[0] = card(kv["card"])
    elif ctype == "win_card_with_sub":
        p[0] = card(kv["target"])
    elif ctype in ("win_rank_at_least", "win_rank_exactly"):
        p[0], p[1] = int(kv["rank"]), int(kv["n"])
    elif ctype in ("win_suit_at_least", "win_suit_exactly"):
        p[2] = -1
        if "suits" in kv:
            (a, na), (b, nb) = (x.split(":") for x in kv["suits"].split("|"))
            p[0], p[1], p[2], p[3] = SUITS.index(a), int(na), SUITS.index(b), int(nb)
        else:
            p[0], p[1] = SUITS.index(kv["suit"]), int(kv["n"])
    elif ctype == "win_none":
        m = 0
        for sel in kv["selector"].split("|"):
            m |= (
                _rank_mask(int(sel[4:])) if sel.startswith("rank") else _suit_mask(SUITS.index(sel))
            )
        p[0] = m
    elif ctype in ("win_more_suit_than_suit", "win_equal_suits", "win_trick_equal_suits"):
        p[0], p[1] = SUITS.index(kv["a"]), SUITS.index(kv["b"])
        p[2] = int(kv.get("min", 0))
    elif ctype in ("win_each_suit", "never_lead_suits"):
        p[0] = sum(1 << SUITS.index(s) for s in kv["suits"].split("|"))
    elif ctype == "win_whole_suit":
        p[0] = int(kv["n"])
    elif ctype == "win_rank_with_rank":
        p[0], p[1] = int(kv["with"]), int(kv["target"])
    elif ctype == "win_trick_using_rank":
        p[0] = int(kv["rank"])
    elif ctype == "win_trick_all_ranks":
        p[0], p[1] = (0 if kv["op"] == "<" else 1), int(kv["v"])
    elif ctype == "win_trick_sum":
        if kv["op"] == "in":
            lo, hi = (int(x) for x in kv["v"].split("|"))
            p[0], p[1], p[2], p[3] = 2, lo, hi, 0
        else:
            p[0] = 0 if kv["op"] == "<" else 1
            p[1], p[2], p[3] = int(kv["v3"]), int(kv["v4"]), int(kv["v5"])
    elif ctype == "win_trick_parity":
        p[0] = 0 if kv["parity"] == "even" else 1
    elif ctype in ("win_tricks_at", "win_only_tricks_at"):
        for t in kv["tricks"].split("|"):
            if t == "last":
                p[1] = 1
            else:
                p[0] |= 1 << (int(t) - 1)
    elif ctype in ("win_none_of_first", "win_exact_tricks"):
        p[0] = int(kv["n"])
    elif ctype == "win_exact_tricks_predicted":
        p[0] = int(kv["public"])
    elif ctype in ("win_streak", "win_exact_streak", "never_streak"):
        p[0] = int(kv["k"])
    elif ctype == "compare_tricks":
        p[0] = {">": 0, "<": 1, "=": 2}[kv["op"][0]]
        p[1] = {"each_other_player": 0, "sum_of_others": 1, "captain": 2}[kv["vs"]]
    else:  # pragma: no cover - the CSV is fixed data
        raise ValueError(f"unknown condition type {ctype}")
    return p


@cache
def task_table() -> TaskTable:
    with open(DATA / "tasks.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if len(rows) != N_TASK_CARDS:  # pragma: no cover
        raise ValueError(f"tasks.csv has {len(rows)} cards, expected {N_TASK_CARDS}")
    keys = tuple(r["key"] for r in rows)
    redeal = np.zeros((N_TASK_CARDS, 2), np.int64)
    for key, sets in REDEAL_SETS.items():
        for j, s in enumerate(sets):
            redeal[keys.index(key), j] = mask(s)
    forced = np.zeros(N_TASK_CARDS, np.int64)
    for key, bits in FORCED_TRICKS.items():
        forced[keys.index(key)] = bits
    barred = np.zeros(N_TASK_CARDS, np.int64)
    for key in CAPTAIN_BARRED:
        barred[keys.index(key)] = 1
    return TaskTable(
        keys=keys,
        texts=tuple(r["text_en"] for r in rows),
        ctype=np.array([CT[r["condition_type"]] for r in rows], np.int64),
        params=np.array(
            [_parse_params(r["condition_type"], r["parameters"]) for r in rows], np.int64
        ),
        difficulty=np.array([[int(r[f"diff{n}"]) for n in (3, 4, 5)] for r in rows], np.int64),
        redeal=redeal,
        forced=forced,
        captain_barred=barred,
    )


@dataclass(frozen=True)
class Mission:
    number: int  # 1-32, or EPILOGUE
    target: int  # total task difficulty; 0 for task-less and fixed-task missions
    allocation: str
    communication: str
    objective: str
    fixed_tasks: tuple[str, ...] = ()
    note: str = ""


@cache
def missions() -> dict[int, Mission]:
    """The logbook as printed in missions.csv (targets before any rule option is applied)."""
    with open(DATA / "missions.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out: dict[int, Mission] = {}
    for r in rows:
        number = EPILOGUE if r["mission"] == "epilogue" else int(r["mission"])
        raw = r["target_difficulty"]
        target = int(raw.split("|")[-1].rstrip("+")) if raw and raw[0].isdigit() else 0
        source = r["task_source"]
        allocation = "none" if source == "none" else (r["allocation"] or "normal")
        out[number] = Mission(
            number=number,
            target=target,
            allocation=allocation,
            communication=r["communication"] or "normal",
            objective=r["objective"],
            fixed_tasks=MISSION_32_TASKS if source == "fixed" else (),
            note=r["notes"],
        )
    return out
