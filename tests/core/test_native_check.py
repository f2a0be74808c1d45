"""A C engine built with other numbers than the Python engine's does not load (meadhall.core.native)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from meadhall.core.native import NativeMismatch, check_engine

NAMES = {"phases": ("setup", "play", "over")}
RULES = {"HAND": 5, "ZONES": (5, 12), "COSTS": {"a": ("x", 1)}}


def engine(names: dict[str, Any], rules: dict[str, Any]) -> ModuleType:
    module = ModuleType("toy._search")
    module.NAMES = names  # type: ignore[attr-defined]
    module.RULES = rules  # type: ignore[attr-defined]
    return module


def test_an_engine_that_numbers_and_counts_the_same_loads() -> None:
    # C exports tuples where Python may hold lists: the same numbers.
    check_engine(
        engine({"phases": ("setup", "play", "over")}, {"HAND": 5, "ZONES": [5, 12], "COSTS": {"a": ["x", 1]}}),
        NAMES,
        RULES,
    )


@pytest.mark.parametrize(
    ("names", "rules", "message"),
    [
        ({"phases": ("setup", "over", "play")}, RULES, r"NAMES\['phases'\] is \('setup', 'over', 'play'\) there"),
        ({}, RULES, r"NAMES\['phases'\] is missing there"),
        (NAMES, {**RULES, "HAND": 6}, r"RULES\['HAND'\] is 6 there, 5 here"),
        (NAMES, {**RULES, "ZONES": (5, 13)}, r"RULES\['ZONES'\] is \(5, 13\) there, \(5, 12\) here"),
        (NAMES, {**RULES, "LIMIT": 3}, r"RULES\['LIMIT'\] is not checked here"),
    ],
)
def test_a_difference_is_an_error_at_import_naming_it(
    names: dict[str, Any], rules: dict[str, Any], message: str
) -> None:
    with pytest.raises(NativeMismatch, match=message) as raised:
        check_engine(engine(names, rules), NAMES, RULES)
    assert "toy._search was built with other numbers than the Python engine's; rebuild it" in str(raised.value)
    assert isinstance(raised.value, ImportError)  # where an optional engine fails to import, it fails loudly


def test_an_engine_older_than_its_bridge_says_so() -> None:
    with pytest.raises(NativeMismatch, match="exports no NAMES and RULES"):
        check_engine(ModuleType("toy._search"), NAMES, RULES)
