"""`tune` says when its best setting lies at an end of the range it searched: beyond it a better
setting may lie (and the range to search there), unless the policy allows nothing beyond."""

from __future__ import annotations

from types import SimpleNamespace

from reports.tune_report import edge_sentences
from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.studies.tuning import Knob, at_edge

POLICY = PolicyDef(
    "hold",
    3,
    "",
    (
        PolicyParam("at", 20, 0, 40, "", integer=True, bounded=False),
        PolicyParam("ships", 1, 1, 6, "", integer=True),
        PolicyParam("playouts", 100, 1, 100_000, "", integer=True, log=True, bounded=False),
        PolicyParam("risk", 0.5, 0.0, 1.0, ""),
    ),
)
PLAN = SimpleNamespace(
    policy=POLICY,
    knobs=(
        Knob("at", 0, 40, True, False),
        Knob("ships", 1, 6, True, False),
        Knob("playouts", 10, 1000, True, True),
        Knob("risk", 0.0, 1.0, False, False),
    ),
)


def test_the_ends_of_the_range_searched_are_found_and_a_limit_told_apart():
    edges = at_edge(PLAN, {"at": 40, "ships": 6, "playouts": 11, "risk": 0.5})
    assert edges == [
        {"name": "at", "value": 40, "end": "upper", "lo": 0, "hi": 40, "limit": False,
         "beyond": [40, 80]},
        {"name": "ships", "value": 6, "end": "upper", "lo": 1, "hi": 6, "limit": True},
        {"name": "playouts", "value": 11, "end": "lower", "lo": 10, "hi": 1000, "limit": False,
         "beyond": [1, 11]},
    ]  # fmt: skip
    assert at_edge(PLAN, {"at": 21, "ships": 3, "playouts": 100, "risk": 0.97})[0]["name"] == "risk"


def test_each_end_is_one_sentence_in_the_verdict():
    data = {"summary": {"at_edge": at_edge(PLAN, {"at": 0, "ships": 1, "playouts": 100,
                                                  "risk": 0.5})}}  # fmt: skip
    assert edge_sentences(data) == [
        "at=0 lies at the lower end of the range searched (0 to 40): a better setting may lie "
        "beyond it; search there with --param at=-40:0.",
        "ships=1 lies at the lower end of the range searched (1 to 6), a limit of the policy: "
        "nothing beyond it can be played.",
    ]
    assert edge_sentences({"summary": {}}) == []  # a tune written before
