"""Settings that only make sense together are checked together, when the server starts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from meadhall.server.settings import load_settings


@pytest.fixture(autouse=True)
def _no_settings_from_elsewhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in [k for k in os.environ if k.startswith("MEADHALL_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("MEADHALL_DATA_DIR", str(tmp_path))  # no meadhall.toml there


def test_the_defaults_wait_for_the_bot_pool_longer_than_a_bot_thinks() -> None:
    settings = load_settings(bot_pool=True)
    assert settings.bot_pool_seconds > settings.bot_move_seconds


@pytest.mark.parametrize("pool_seconds", ["10", "4"])
def test_a_bot_pool_given_up_on_before_a_bot_has_thought_is_refused(
    monkeypatch: pytest.MonkeyPatch, pool_seconds: str
) -> None:
    monkeypatch.setenv("MEADHALL_BOT_POOL", "true")
    monkeypatch.setenv("MEADHALL_BOT_MOVE_SECONDS", "10")
    monkeypatch.setenv("MEADHALL_BOT_POOL_SECONDS", pool_seconds)
    with pytest.raises(ValidationError) as refused:
        load_settings()
    said = str(refused.value)
    assert f"bot_pool_seconds ({pool_seconds}) must be longer than bot_move_seconds (10)" in said
    assert "Raise bot_pool_seconds" in said and "lower bot_move_seconds" in said


def test_a_little_longer_is_enough() -> None:
    assert load_settings(bot_pool=True, bot_move_seconds=10, bot_pool_seconds=10.5).bot_pool_seconds == 10.5


def test_without_a_bot_pool_its_wait_is_not_read_so_not_checked() -> None:
    settings = load_settings(bot_pool=False, bot_move_seconds=3600, bot_pool_seconds=15)
    assert settings.bot_move_seconds == 3600
