"""Imports written before ``simulator/`` was grouped into parts still work: a policy file (and the
copy of it a run folder keeps) reaches the same modules by their old names."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from simulator.contract.old_names import new_name
from simulator.contract.registry import get_game
from simulator.runs.policy_file import describe_policies, read_policy_file

ROOT = Path(__file__).resolve().parents[1]
OLD_SPELLINGS = {  # as a policy file wrote them before, and where they are now
    "simulator.policy_file": "simulator.runs.policy_file",
    "simulator.policy": "simulator.contract.policy",
    "simulator.errors": "simulator.contract.errors",
    "simulator.dataset": "simulator.folders.run_folder",
    "simulator.cape_horn": "simulator.games.cape_horn",
    "simulator.cape_horn.state": "simulator.games.cape_horn.state",
    "simulator.design.knobs": "simulator.studies.design.knobs",
}


@pytest.mark.parametrize("old, new", sorted(OLD_SPELLINGS.items()))
def test_an_old_name_is_the_new_module_itself(old, new):
    assert new_name(old) == new
    assert importlib.import_module(old) is importlib.import_module(new)


def test_a_part_of_its_own_keeps_its_new_meaning():
    # simulator.games was the registry; it is now the games' folder (CHANGELOG.md says so)
    for name in ("simulator.games", "simulator.search", "simulator.studies", "simulator.folders"):
        assert new_name(name) is None
        assert hasattr(importlib.import_module(name), "__path__"), name
    assert new_name("simulator.no_such_module") is None
    with pytest.raises(ImportError):
        importlib.import_module("simulator.no_such_module")


def test_a_policy_file_with_the_old_names_reads_as_with_the_new(tmp_path):
    text = (ROOT / "docs" / "examples" / "cape_horn_policy.py").read_text()
    old = (
        text.replace("simulator.games.cape_horn", "simulator.cape_horn")
        .replace("simulator.contract.policy", "simulator.policy")
        .replace("simulator.runs.policy_file", "simulator.policy_file")
    )
    assert old != text and "simulator.games" not in old
    path = tmp_path / "old_policy.py"
    path.write_text(old)
    spec = get_game("cape-horn")
    was = describe_policies(
        spec, read_policy_file(ROOT / "docs" / "examples" / "cape_horn_policy.py")
    )
    now = describe_policies(spec, read_policy_file(path))
    assert list(now) == list(was) and now
    assert "simulator.cape_horn" in sys.modules
