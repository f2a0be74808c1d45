"""Game options on the command line: JSON values, @FILE values, and --content packs."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from meadhall.cli.main import build_parser
from meadhall.cli.options import option_value, options_from_args


def _pack(label: str) -> dict[str, Any]:
    text = resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
    pack: dict[str, Any] = json.loads(text)
    pack["id"], pack["label"] = "my-printed-cards", label
    return pack


def test_values_are_text_json_or_a_file(tmp_path: Path) -> None:
    assert option_value("thor,loki,tyr") == "thor,loki,tyr"
    assert option_value('["thor", "loki", "tyr"]') == ["thor", "loki", "tyr"]
    assert option_value('{"a": 1}') == {"a": 1}
    (tmp_path / "gods.json").write_text('["freya", "baldr", "tyr"]', encoding="utf-8")
    (tmp_path / "gods.txt").write_text("freya,baldr,tyr\n", encoding="utf-8")
    assert option_value(f"@{tmp_path / 'gods.json'}") == ["freya", "baldr", "tyr"]
    assert option_value(f"@{tmp_path / 'gods.txt'}") == "freya,baldr,tyr"
    with pytest.raises(ValueError, match="cannot read"):
        option_value(f"@{tmp_path / 'missing.json'}")
    with pytest.raises(ValueError, match="not valid JSON"):
        option_value('{"a": ')


def test_play_and_arena_read_a_content_pack(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(_pack("printed cards")), encoding="utf-8")
    parser = build_parser()
    for argv in (
        ["play", "bloodrage", "--content", str(path), "--option", "gods=thor,loki,tyr"],
        ["arena", "--game", "bloodrage", "--bots", "random,greedy", "--content", str(path)],
    ):
        options = options_from_args(parser.parse_args(argv))
        assert options["content"]["label"] == "printed cards"
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="a content pack is a JSON object"):
        options_from_args(parser.parse_args(["play", "bloodrage", "--content", str(tmp_path / "list.json")]))


def _meadhall(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
    )


def test_an_arena_of_blood_rage_with_a_content_pack(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(_pack("printed cards, typed in")), encoding="utf-8")
    done = _meadhall(
        "arena", "--game", "bloodrage", "--bots", "random,greedy", "--players", "3", "--games", "3",
        "--content", str(path), "--jobs", "1", "--out", str(tmp_path / "run"), "--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["finished_games"] == 3
    assert data["config"]["options"]["content"]["label"] == "printed cards, typed in"
    broken = _pack("broken")
    broken["regions"] = broken["regions"][:1]
    path.write_text(json.dumps(broken), encoding="utf-8")
    refused = _meadhall(
        "arena", "--game", "bloodrage", "--bots", "random,greedy", "--players", "3", "--games", "1",
        "--content", str(path), cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2 and "Content pack: the pack's region" in refused.stderr


def test_the_terminal_names_the_content_pack(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(_pack("printed cards, typed in")), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "play", "bloodrage", "--players", "3", "--bots", "2,3",
         "--bot", "random", "--seed", "3", "--content", str(path)],
        input="quit\nn\n", capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "  options: content=printed cards, typed in" in done.stdout
    assert "Cards and map: printed cards, typed in." in done.stdout
