"""A researcher's own bot in the arena: ``--bot-module`` and the ``meadhall.bots`` entry point group."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import pytest

import meadhall.bots as bots
from meadhall.bots import make_bot
from meadhall.cli.main import main

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
    argv = ["arena", "--game", "valda", "--bot-module", "my_arena_bots", "--bots", "first-legal,random"]
    status = main(
        [*argv, "--games", "2", "--jobs", "1", "--quiet", "--checkpoint", "0", "--out", str(tmp_path / "run")]
    )
    assert status == 0
    assert "first-legal" in capsys.readouterr().out
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert "first-legal" in json.dumps(report)


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
