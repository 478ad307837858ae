"""Deck, task cards and logbook missions of The Crew: Mission Deep Sea.

The 96 task cards and the 32 missions (+ epilogue) are read from the CSV files shipped in
``data/`` (copied from the reference folder, which installed users do not have). Each task's
``condition_type`` and ``parameters`` become one integer row, so the engine evaluates every card
with a handful of parameterised evaluators instead of 96 hand-written ones.

Cards are integers: colour card ``suit * 9 + rank - 1`` (suits pink 0, yellow 1, green 2, blue 3;
ranks 1-9, ids 0-35) and submarine ``k`` = ``35 + k`` (ids 36-39, suit 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from simulator.contract.errors import BalanceError
from simulator.contract.game_data import DataFile, DataSource, csv_rows, integer

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


TASK_COLUMNS = (
    "id", "key", "condition_type", "parameters", "text_en", "diff3", "diff4", "diff5", "...",
)  # fmt: skip
MISSION_COLUMNS = (
    "mission", "target_difficulty", "task_source", "allocation", "communication", "objective",
    "...",
)  # fmt: skip
TASK_SOURCES = ("draw", "fixed", "none")
_DOCS = "docs/rules/crew-deep-sea.md, section 'Data files'"


def parse_tasks(src: DataSource) -> TaskTable:
    """``tasks.csv``: a row per task card (other columns than TASK_COLUMNS are notes)."""
    rows = csv_rows(src, TASK_COLUMNS)
    keys: list[str] = []
    ctype, params, difficulty = [], [], []
    for i, (line, r) in enumerate(rows):
        if r["id"] != str(i + 1):
            raise BalanceError(
                f"{src.where(line)}: id {r['id']!r} where {i + 1} is expected; ids are 1, 2, ... "
                "in file order (the crew_tasks column's numbers)"
            )
        if not r["key"] or r["key"] in keys:
            what = "empty" if not r["key"] else f"{r['key']!r} is used twice"
            raise BalanceError(f"{src.where(line)}: key {what}; each task has its own key")
        keys.append(r["key"])
        if r["condition_type"] not in CT:
            raise BalanceError(
                f"{src.where(line)}: unknown condition_type {r['condition_type']!r}; allowed: "
                f"{', '.join(CONDITION_TYPES)}"
            )
        try:
            params.append(_parse_params(r["condition_type"], r["parameters"]))
        except (KeyError, ValueError, IndexError) as exc:
            raise BalanceError(
                f"{src.where(line)}: parameters {r['parameters']!r} do not fit condition_type "
                f"{r['condition_type']} ({type(exc).__name__}: {exc}); see the shipped rows of "
                "that type for the form"
            ) from None
        ctype.append(CT[r["condition_type"]])
        difficulty.append([integer(src, line, f"diff{n}", r[f"diff{n}"], 0, 20) for n in (3, 4, 5)])
    redeal = np.zeros((len(keys), 2), np.int64)
    for key, sets in REDEAL_SETS.items():
        if key in keys:
            for j, s in enumerate(sets):
                redeal[keys.index(key), j] = mask(s)
    forced = np.zeros(len(keys), np.int64)
    for key, bits in FORCED_TRICKS.items():
        if key in keys:
            forced[keys.index(key)] = bits
    barred = np.zeros(len(keys), np.int64)
    for key in CAPTAIN_BARRED:
        if key in keys:
            barred[keys.index(key)] = 1
    return TaskTable(
        keys=tuple(keys),
        texts=tuple(r["text_en"] for _, r in rows),
        ctype=np.array(ctype, np.int64),
        params=np.array(params, np.int64).reshape(len(keys), N_TASK_PARAMS),
        difficulty=np.array(difficulty, np.int64),
        redeal=redeal,
        forced=forced,
        captain_barred=barred,
    )


def task_table(rules: Any = None) -> TaskTable:
    """The task cards the rules play (a replaced tasks file, else the shipped one)."""
    return _task_table(DATA_FILES[0].shipped if rules is None else rules.source("tasks"))


@cache
def _task_table(src: DataSource) -> TaskTable:
    return parse_tasks(src)


@dataclass(frozen=True)
class Mission:
    number: int  # 1-32, or EPILOGUE
    target: int  # total task difficulty; 0 for task-less and fixed-task missions
    allocation: str
    communication: str
    objective: str
    fixed_tasks: tuple[str, ...] = ()
    note: str = ""


def parse_missions(src: DataSource) -> dict[int, Mission]:
    """``missions.csv``: the logbook, a row per mission 1-32 and one for the epilogue."""
    out: dict[int, Mission] = {}
    for line, r in csv_rows(src, MISSION_COLUMNS):
        number = EPILOGUE if r["mission"] == "epilogue" else None
        if number is None:
            number = integer(src, line, "mission", r["mission"], 1, EPILOGUE - 1)
        if number in out:
            raise BalanceError(f"{src.where(line)}: mission {r['mission']} is listed twice")
        raw = r["target_difficulty"]
        source = r["task_source"]
        if source not in TASK_SOURCES:
            raise BalanceError(
                f"{src.where(line)}: task_source {source!r}; allowed: {', '.join(TASK_SOURCES)}"
            )
        target = 0
        if source == "draw":
            # "10|12": the printed values of two editions, the last one played; "18+": at least
            target = integer(src, line, "target_difficulty", raw.split("|")[-1].rstrip("+"), 1, 60)
        for column, allowed in (
            ("allocation", ALLOCATIONS),
            ("communication", COMMUNICATIONS),
            ("objective", OBJECTIVES),
        ):
            if r[column] not in allowed and r[column] != "":
                raise BalanceError(
                    f"{src.where(line)}: {column} {r[column]!r}; allowed: "
                    f"{', '.join(a for a in allowed if a)} or empty"
                )
        allocation = "none" if source == "none" else (r["allocation"] or "normal")
        out[number] = Mission(
            number=number,
            target=target,
            allocation=allocation,
            communication=r["communication"] or "normal",
            objective=r["objective"],
            fixed_tasks=MISSION_32_TASKS if source == "fixed" else (),
            note=r.get("notes", ""),
        )
    missing = [m for m in range(1, EPILOGUE + 1) if m not in out]
    if missing:
        name = "epilogue" if missing[0] == EPILOGUE else str(missing[0])
        raise BalanceError(
            f"{src.where()}: mission {name} is missing; the logbook lists missions 1-32 and "
            "the epilogue"
        )
    return out


def missions(rules: Any = None) -> dict[int, Mission]:
    """The logbook the rules play (targets before any rule option is applied)."""
    return _missions(DATA_FILES[1].shipped if rules is None else rules.source("missions"))


@cache
def _missions(src: DataSource) -> dict[int, Mission]:
    return parse_missions(src)


def check_data(rules: Any) -> str | None:
    """The tasks and missions files together: fixed tasks exist, drawn targets can be met."""
    table, book = task_table(rules), missions(rules)
    tasks, logbook = rules.source("tasks"), rules.source("missions")
    for m in book.values():
        for key in m.fixed_tasks:
            if key not in table.keys:
                return (
                    f"{logbook.where()}: mission {m.number} plays fixed task {key!r}, which "
                    f"{tasks.where()} does not hold"
                )
    for col, players in enumerate(("2-3", "4", "5")):
        values = [int(v) for v in table.difficulty[:, col] if v > 0]
        reach = 1  # bit t: some cards sum to t exactly
        for v in values:
            reach |= reach << v
        for m in book.values():
            if m.target > 0 and not m.fixed_tasks and not (reach >> m.target) & 1:
                return (
                    f"{tasks.where()}: no set of task cards sums to mission {m.number}'s "
                    f"difficulty {m.target} at {players} players (diff columns); the deck is "
                    "too small to deal that mission"
                )
    return None


DATA_FILES = (
    DataFile(
        "tasks",
        "tasks.csv",
        str(DATA),
        "the 96 task cards: condition, its parameters, printed text and difficulty by players",
        "CSV id,key,condition_type,parameters,text_en,diff3,diff4,diff5 (+ note columns)",
        True,
        _DOCS,
        parse_tasks,
    ),
    DataFile(
        "missions",
        "missions.csv",
        str(DATA),
        "the logbook: each mission's difficulty, task source, allocation, communication, objective",
        "CSV mission,target_difficulty,task_source,allocation,communication,objective (+ notes)",
        True,
        _DOCS,
        parse_missions,
    ),
)
