"""A researcher's own bot in the arena: ``--bot-module`` and the ``meadhall.bots`` entry point group."""

from __future__ import annotations

import importlib.metadata
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import meadhall.bots as bots
from meadhall.bots import make_bot
from meadhall.cli.main import main
from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng

MODULE = '''
from meadhall.bots import register_bot


class FirstLegal:
    """Always the first legal action (the engines' order is not neutral: see docs/bots.md)."""

    name = "first-legal"

    def choose(self, game, view, legal, rng):
        return legal[0]


register_bot("first-legal", lambda budget: FirstLegal())
'''


def test_arena_ranks_a_bot_from_a_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "my_arena_bots.py").write_text(MODULE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))
    monkeypatch.delitem(sys.modules, "my_arena_bots", raising=False)
    argv = ["arena", "--game", "valda", "--bot-module", "my_arena_bots", "--bots", "first-legal,random"]
    status = main(
        [*argv, "--games", "2", "--jobs", "1", "--quiet", "--checkpoint", "0", "--out", str(tmp_path / "run")]
    )
    assert status == 0
    assert "first-legal" in capsys.readouterr().out
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert "first-legal" in json.dumps(report)
    assert report["config"]["bot_modules"] == ["my_arena_bots"]  # the run says what to import to play it again


def test_a_broken_bot_module_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken_bots.py").write_text("raise RuntimeError('no bot here')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status = main(
        ["arena", "--game", "valda", "--bot-module", "broken_bots", "--bots", "random,random", "--games", "1"]
    )
    assert status == 2
    error = capsys.readouterr().err
    assert error.strip() == "meadhall arena: --bot-module broken_bots: RuntimeError: no bot here"
    assert (
        main(["arena", "--game", "valda", "--bot-module", "no_such_module_here", "--bots", "random", "--games", "1"])
        == 2
    )


def random_factory(budget: object) -> bots.Bot:
    """What a package's ``meadhall.bots`` entry point names: a factory taking the budget."""
    from meadhall.bots.random_bot import RandomBot

    assert budget is None
    return RandomBot()


def test_bots_from_the_entry_point_group(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = importlib.metadata.EntryPoint("entry-random", f"{__name__}:random_factory", bots.ENTRY_POINT_GROUP)

    def found(group: str) -> list[importlib.metadata.EntryPoint]:
        return [entry] if group == bots.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", found)
    monkeypatch.setattr(bots, "_entry_points_loaded", False)
    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))
    assert "entry-random" in bots.available_bots()
    assert make_bot("entry-random").name == "random"


class Hooked:
    """A random bot that keeps what the optional hooks tell it."""

    name = "hooked"

    def __init__(self) -> None:
        self.resets: list[tuple[str, int]] = []
        self.seen: list[object] = []
        self.last: dict[str, object] | None = None
        self.seat = -1

    def reset(self, game: Game, seat: int) -> None:
        self.resets.append((game.info.name, seat))
        self.seat = seat

    def observe(self, events: list[object]) -> None:
        self.seen.extend(events)

    def game_over(self, view: dict[str, object]) -> None:
        self.last = view

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        return legal[0]


def test_the_lab_calls_a_bots_optional_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    from meadhall.lab.selfplay import Series, play, rotated_match

    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))
    bots.register_bot("hooked", lambda budget: Hooked())
    outcome = play(rotated_match(Series("bloodrage-valhalla", ("hooked", "random"), games=1, players=3), 0))
    assert outcome.error is None
    hooked: list[Hooked] = [bot for bot in outcome.bots if isinstance(bot, Hooked)]
    assert hooked
    for bot in hooked:
        _check_hooked(bot)


def _check_hooked(bot: Hooked) -> None:
    from meadhall.core.game import Event

    assert bot.resets == [("bloodrage-valhalla", bot.seat)]
    assert bot.seen and all(isinstance(event, Event) and event.visible_to(bot.seat) for event in bot.seen)
    assert any(event.audience is not None for event in bot.seen if isinstance(event, Event))  # its own private events
    assert bot.last is not None and bot.last["seat"] == bot.seat and bot.last["finished"] is True


def test_the_bots_page_example_registers_a_bot_that_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    (block,) = [block for block in re.findall(r"```python\n(.*?)```", page, flags=re.S) if "register_bot(" in block]
    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))
    exec(compile(block, "docs/bots.md", "exec"), {"__name__": "my_bots"})
    from meadhall.core.registry import get_game

    state = get_game("valda").new_game(2, seed=1)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    assert make_bot("first-legal").choose(state.game, state.view(seat), legal, Rng(1)) == legal[0]
