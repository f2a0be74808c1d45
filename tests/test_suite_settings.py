"""The suite's own settings keep time out of its verdicts."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_hypothesis_times_nothing_by_default() -> None:
    current = settings()  # the loaded profile's values
    assert current.deadline is None
    assert HealthCheck.too_slow in current.suppress_health_check


@given(st.integers())
def test_a_property_without_its_own_settings_inherits_them(value: int) -> None:
    assert settings().deadline is None and isinstance(value, int)
