"""The layering rules: the rules layer is pure and never imports the layers above it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "meadhall"
PURE = [SRC / "core", SRC / "games"]
FORBIDDEN_PREFIXES = ("meadhall.cli", "meadhall.server", "meadhall.web", "meadhall.bots", "meadhall.rl")
FORBIDDEN_MODULES = {"socket", "subprocess", "sqlite3", "urllib", "http", "asyncio", "threading", "multiprocessing"}
FORBIDDEN_CALLS = {"open", "print", "input"}


def _python_files() -> list[Path]:
    return [path for folder in PURE for path in folder.rglob("*.py")]


def test_rules_layer_imports_nothing_above_it() -> None:
    problems = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith(FORBIDDEN_PREFIXES) or name.split(".")[0] in FORBIDDEN_MODULES:
                    problems.append(f"{path.relative_to(SRC)} imports {name}")
    assert not problems, problems


def test_rules_layer_does_no_io() -> None:
    problems = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{path.relative_to(SRC)}:{node.lineno} calls {node.func.id}()")
    assert not problems, problems


def test_no_deepcopy_in_the_engines() -> None:
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            used = (isinstance(node, ast.Attribute) and node.attr == "deepcopy") or (
                isinstance(node, ast.Name) and node.id == "deepcopy"
            )
            assert not used, f"{path}:{getattr(node, 'lineno', '?')} uses deepcopy"
