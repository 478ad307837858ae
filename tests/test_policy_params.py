"""A policy parameter takes any value of its type unless its range bounds it: a game file's
``policy_ranges`` and a shipped policy's declared bounds do; the range a file's parameter gets
by default (0 to twice its default) is only where `balance tune` searches."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.contract.errors import BalanceError
from simulator.contract.policy import PolicyDef, PolicyParam, parse_policy
from simulator.contract.registry import get_game
from simulator.studies.tuning import parse_knob

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _policies(example: str) -> tuple[dict[str, PolicyDef], str]:
    spec = get_game(str(EXAMPLES / example))
    return dict(spec.policies), spec.id


def test_a_file_parameter_takes_any_whole_number_beyond_its_tuning_range():
    policies, game = _policies("pig.py")
    assert parse_policy("hold:at=800", policies, game).values == (800.0,)
    assert parse_policy("hold:at=-3", policies, game).values == (-3.0,)
    for raw in ("2.5", "abc", "inf", ""):
        with pytest.raises(BalanceError, match=r"allowed: a whole number$"):
            parse_policy(f"hold:at={raw}", policies, game)


def test_policy_ranges_bound_the_parameter_and_a_shipped_bound_stays_a_limit():
    policies, game = _policies("swap.py")
    with pytest.raises(BalanceError, match="allowed: a whole number from 1 to 14"):
        parse_policy("threshold:below=20", policies, game)
    shipped = PolicyDef("greedy", 1, "", (PolicyParam("ships", 1, 1, 6, "", integer=True),))
    with pytest.raises(BalanceError, match="from 1 to 6"):
        parse_policy("greedy:ships=7", {"greedy": shipped}, "a-game")


def test_tune_searches_beyond_the_default_range_only_where_nothing_bounds_it():
    policies, game = _policies("pig.py")
    knob = parse_knob("at=50:100", policies["hold"])
    assert (knob.lo, knob.hi) == (50, 100)
    bounded, _ = _policies("swap.py")
    with pytest.raises(BalanceError, match="within the declared bounds 1:14"):
        parse_knob("below=0:20", bounded["threshold"])
    with pytest.raises(BalanceError, match="give LO < HI"):
        parse_knob("at=9:3", policies["hold"])
