"""``meadhall GAME TOOL``: the command line builds every game's tools from what they declare."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from meadhall.cli import main as cli_main
from meadhall.cli import tools
from meadhall.core.errors import MalformedAction
from meadhall.core.tools import GameTool, ToolInput, ToolSwitch


class Count(GameTool):
    """Counts the words of a text (a file name is read); ``--shout`` says it loud."""

    name = "count"
    summary = "count the words of a text"
    description = "Count the words of a text."
    inputs = (ToolInput("text", "the text, or a file holding it", file=True), ToolInput("word", "a word to find"))
    switches = (ToolSwitch("shout", "in capitals"),)

    def run(self, inputs: Mapping[str, str], switches: Mapping[str, bool]) -> dict[str, Any]:
        if not inputs["text"].strip():
            raise MalformedAction("cannot read an empty text")
        words = inputs["text"].split()
        return {"words": len(words), "found": words.count(inputs["word"]), "shout": switches["shout"]}

    def text(self, result: Mapping[str, Any]) -> str:
        line = f"{result['words']} words, {result['found']} found"
        return line.upper() if result["shout"] else line

    def unreadable(self, reason: str) -> dict[str, Any]:
        return {"error": reason}


def _game(name: str, aliases: tuple[str, ...] = ()) -> Any:
    text = SimpleNamespace(tools=lambda: (Count(),))
    return SimpleNamespace(info=SimpleNamespace(name=name, title=name.title(), aliases=aliases), text=lambda: text)


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    # "play" is a command already: a game of that name gets no tools command; "ct" is the first game's alias.
    listed = [_game("counter", ("ct", "play")), _game("play"), SimpleNamespace(text=lambda: None)]
    monkeypatch.setattr(tools, "all_games", lambda: listed)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli_main.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.usefixtures("games")
def test_a_game_tool_reads_its_inputs_files_and_switches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["counter", "count", "--text", "a b a", "--word", "a"], capsys) == (0, "3 words, 2 found\n", "")
    text = tmp_path / "text.txt"
    text.write_text("x y\nz x\n", encoding="utf-8")
    status, out, _ = _run(["ct", "count", "--text", str(text), "--word", "x", "--shout", "--json"], capsys)
    assert status == 0 and json.loads(out) == {"words": 4, "found": 2, "shout": True}
    assert _run(["counter", "count", "--text", "a"], capsys) == (
        2,
        "",
        "meadhall counter count: give --word (or --batch)\n",
    )
    status, out, err = _run(["counter", "count", "--text", " ", "--word", "a"], capsys)
    assert (status, out) == (2, "") and "cannot read an empty text" in err
    with pytest.raises(SystemExit):
        cli_main.main(["play", "count", "--text", "a", "--word", "a"])  # 'play' is the play command
    capsys.readouterr()


@pytest.mark.usefixtures("games")
def test_a_batch_answers_every_line_in_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"text": "a b", "word": "b", "shout": True},
        [1],
        {"text": "a"},
        {"text": 3, "word": "a"},
        {"text": "a a", "word": "a"},
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(json.dumps(line) for line in lines) + "\n\n"))
    status, out, err = _run(["counter", "count", "--batch"], capsys)
    assert status == 2
    assert [json.loads(line) for line in out.splitlines()] == [
        {"words": 2, "found": 1, "shout": True},
        {"error": "each line must be a JSON object"},
        {"error": "missing field 'word'"},
        {"error": "'text' must be a string"},
        {"words": 2, "found": 2, "shout": False},
    ]
    assert err.splitlines()[0] == "meadhall counter count: line 2: each line must be a JSON object"
