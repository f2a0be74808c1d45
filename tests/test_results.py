"""Generated results live in results/, each beside the command that makes it, and the docs link to them.

Every arena and balance run in ``results/`` is named, with the exact command that wrote
it, in its folder's README: the command is rebuilt here from the configuration the run's
JSON records, so a run added without its command, or a command that does not match its
run, fails. Every relative link of the docs and of those READMEs leads to a file.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _bots(bots: list[str]) -> str:
    """The bot list as written on a command line: a run of one spec as ``SPEC*N``."""
    parts: list[str] = []
    for bot in bots:
        if parts and parts[-1].split("*")[0] == bot:
            head, _, times = parts[-1].partition("*")
            parts[-1] = f"{head}*{int(times or 1) + 1}"
        else:
            parts.append(bot)
    return ",".join(parts)


def _options(name: str, options: dict[str, Any]) -> list[str]:
    flags: list[str] = []
    for key, value in options.items():
        if key == "preset":
            flags += ["--preset", value]
        elif key == "content" and isinstance(value, dict):
            flags += ["--content", f"{name}-pack.json"]
        else:
            flags += ["--option", f"{key}={value if isinstance(value, str) else json.dumps(value)}"]
    return flags


def command(kind: str, name: str, config: dict[str, Any]) -> str:
    """The command that plays the run ``results/KIND/NAME.*`` again, from its JSON's configuration."""
    out = f"results/{kind}/{name}"
    words = ["meadhall", kind, "--game", config["game"]]
    for module in config.get("bot_modules", []):
        words += ["--bot-module", module]
    words += ["--bots", _bots(config["bots"])]
    words += ["--games", str(config["games"]), "--players", str(config["players"])]
    words += _options(name, config["options"])
    words += ["--seed", str(config["seed"]), "--jobs", str(config["jobs"]), "--out", out]
    if kind == "arena" and (RESULTS / kind / f"{name}.png").exists():
        words += ["--chart", f"{out}.png"]
    line = " ".join(shlex.quote(word) for word in words)
    return f"{line} --markdown > {out}.md" if kind == "balance" else line


def _runs(kind: str) -> list[tuple[str, dict[str, Any]]]:
    paths = sorted((RESULTS / kind).glob("*.json"))
    return [(path.stem, json.loads(path.read_text(encoding="utf-8"))["config"]) for path in paths]


RUNS = [(kind, name, config) for kind in ("arena", "balance") for name, config in _runs(kind)]


def test_the_results_moved_out_of_the_docs() -> None:
    assert len([run for run in RUNS if run[0] == "arena"]) >= 17
    assert len([run for run in RUNS if run[0] == "balance"]) >= 60
    assert not (ROOT / "docs" / "arena").exists() and not (ROOT / "docs" / "balance").exists()


@pytest.mark.parametrize(("kind", "name", "config"), RUNS, ids=[f"{kind}/{name}" for kind, name, _ in RUNS])
def test_every_run_is_listed_with_the_command_that_makes_it(kind: str, name: str, config: dict[str, Any]) -> None:
    readme = (RESULTS / kind / "README.md").read_text(encoding="utf-8")
    assert f"`{command(kind, name, config)}`" in readme, f"results/{kind}/README.md lacks the command of {name}"


def test_every_file_belongs_to_a_listed_run() -> None:
    for kind in ("arena", "balance"):
        runs = {name for name, _ in _runs(kind)}
        for path in (RESULTS / kind).iterdir():
            stem = path.name.split(".")[0]
            assert path.name == "README.md" or stem in runs, f"{path.relative_to(ROOT)} belongs to no run"


def _documents() -> list[Path]:
    return [*sorted((ROOT / "docs").rglob("*.md")), *sorted(RESULTS.rglob("*.md")), ROOT / "README.md"]


@pytest.mark.parametrize("document", _documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_relative_links_lead_to_files(document: Path) -> None:
    for target in LINK.findall(document.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (document.parent / target).exists(), f"{document.relative_to(ROOT)} links to a missing {target}"


def test_results_are_neither_package_data_nor_linted() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]  # results/ is outside the package
    assert "results" in config["tool"]["ruff"]["extend-exclude"]
    assert all(not path.startswith("results") for path in config["tool"]["mypy"]["files"])
