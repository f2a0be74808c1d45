"""A plain ``pip install meadhall`` works: no command imports what only an extra installs.

The whole check on a real plain install is ``make plain-install`` (tests/plain_install.py,
run by ``make test``). This test catches the regression early, inside the suite: it runs
the commands in a process where every package that only an extra (``test``, ``charts``,
``postgres``, ``bench``, ...) brings is made unimportable, as on a plain install.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

# Modules that are the job of an extra and may import its packages at the top; the
# command that uses each imports it only after asking for the extra (meadhall.extras).
EXTRA_MODULES = {
    "meadhall.server.loadtest": "bench",
    # numpy, PettingZoo, Gymnasium; without numpy `import meadhall.rl` says to install the extra.
    "meadhall.rl": "rl",
    "meadhall.rl.spaces": "rl",
    "meadhall.rl.pettingzoo": "rl",
    "meadhall.rl.gymnasium": "rl",
    "meadhall.rl.vector": "rl",
    "meadhall.rl.openspiel": "openspiel",
}
# Run when Alembic loads them, not importable on their own.
NOT_IMPORTABLE = ("meadhall.server.migrations",)


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _runtime_distributions() -> set[str]:
    """Every distribution a plain install brings: the dependencies and theirs, extras followed."""
    seen: set[str] = set()
    todo = [Requirement(text) for text in PROJECT["dependencies"]]
    while todo:
        requirement = todo.pop()
        name = _name(requirement.name)
        key = name + "[" + ",".join(sorted(requirement.extras)) + "]"
        if key in seen:
            continue
        seen.add(key)
        seen.add(name)
        try:
            requires = importlib.metadata.requires(requirement.name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for text in requires:
            child = Requirement(text)
            wanted = child.marker is None or any(
                child.marker.evaluate({"extra": extra}) for extra in ("", *requirement.extras)
            )
            if wanted:
                todo.append(child)
    return {key for key in seen if "[" not in key}


def extra_only_modules() -> set[str]:
    """Top-level import names of the packages that only an extra installs."""
    runtime = _runtime_distributions()
    extra_only = {
        _name(Requirement(text).name)
        for requirements in PROJECT["optional-dependencies"].values()
        for text in requirements
    } - runtime
    modules: set[str] = set()
    for module, distributions in importlib.metadata.packages_distributions().items():
        if any(_name(distribution) in extra_only for distribution in distributions):
            modules.add(module)
    # A package not installed here still gets its likely import name blocked.
    modules |= {name.replace("-", "_") for name in extra_only}
    return modules


PLAIN_PROCESS = r"""
import contextlib, importlib, importlib.abc, io, json, pkgutil, sys

blocked, extra_modules, not_importable = json.loads(sys.argv[1])


class PlainInstall(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


already = sorted(name for name in sys.modules if name.partition(".")[0] in blocked)
assert not already, f"imported before the check began: {already}"
sys.meta_path.insert(0, PlainInstall())
try:
    import httpx
except ModuleNotFoundError:
    pass
else:
    raise AssertionError("the blocker lets httpx through")

import meadhall
from meadhall.cli.main import build_parser, main

report = {"help": {}, "imported": [], "extras": {}}
parser = build_parser()
commands = next(action for action in parser._actions if action.dest == "command").choices
for argv in [["--help"]] + [[command, "--help"] for command in sorted(commands)]:
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit as stop:
            report["help"][" ".join(argv)] = stop.code
for module in pkgutil.walk_packages(meadhall.__path__, "meadhall."):
    name = module.name
    if name in extra_modules or name.startswith(tuple(not_importable)) or name.endswith("._search"):
        continue
    importlib.import_module(name)
    report["imported"].append(name)
for label, argv in {
    "bench": ["bench-server", "--tables", "1", "--seconds", "1"],
    "charts": ["arena", "--game", "voluspa", "--bots", "random,greedy", "--games", "1", "--chart", "/none/c.png"],
    "postgres": ["serve", "--database-url", "postgresql+psycopg://nobody@127.0.0.1:9/none"],
}.items():
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    report["extras"][label] = [status, errors.getvalue()]
print(json.dumps(report))
"""


def run_as_plain_install() -> dict[str, object]:
    blocked = sorted(extra_only_modules())
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_PROCESS, json.dumps([blocked, sorted(EXTRA_MODULES), list(NOT_IMPORTABLE)])],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return report


def test_the_extras_packages_are_the_ones_blocked() -> None:
    blocked = extra_only_modules()
    assert {"httpx", "matplotlib", "psycopg", "playwright", "pytest", "hypothesis", "jsonschema"} <= blocked
    # What a plain install does bring is never blocked.
    assert not {"fastapi", "starlette", "uvicorn", "sqlalchemy", "websockets", "orjson"} & blocked


def test_every_command_and_module_works_without_the_extras() -> None:
    report = run_as_plain_install()
    helps = report["help"]
    assert isinstance(helps, dict) and helps and set(helps.values()) == {0}, helps
    assert {"--help", "serve --help", "play --help", "voluspa --help", "bench-server --help"} <= set(helps)
    imported = report["imported"]
    assert isinstance(imported, list)
    assert {"meadhall.cli.bench_server", "meadhall.server.app", "meadhall.cli.serve"} <= set(imported)
    extras = report["extras"]
    assert isinstance(extras, dict)
    for extra, (status, stderr) in extras.items():
        assert status != 0, extra
        assert stderr.count("\n") == 1 and f"pip install 'meadhall[{extra}]'" in stderr, stderr
        assert "Traceback" not in stderr


def _guarded(node: ast.Try) -> bool:
    """A ``try`` whose ``except ModuleNotFoundError`` raises ``missing(...)`` (meadhall.extras)."""
    for handler in node.handlers:
        caught = handler.type
        if isinstance(caught, ast.Name) and caught.id == "ModuleNotFoundError":
            for statement in ast.walk(handler):
                if isinstance(statement, ast.Raise) and isinstance(statement.exc, ast.Call):
                    called = statement.exc.func
                    if isinstance(called, ast.Name) and called.id == "missing":
                        return True
    return False


def unguarded_imports(tree: ast.AST, blocked: set[str]) -> list[int]:
    """Lines that import a package of ``blocked`` when the module loads, outside the extras check.

    Imports inside functions run only when called (after ``require``), those under
    ``if TYPE_CHECKING`` never run, and those in a ``try`` that raises ``missing(...)`` give
    the one-line message naming the extra; any other is a bare ImportError on a plain install.
    """
    lines: list[int] = []
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(child, ast.If) and ast.unparse(child.test).endswith("TYPE_CHECKING"):
            continue
        if isinstance(child, ast.Try) and _guarded(child):
            continue
        if isinstance(child, ast.Import):
            names = [alias.name for alias in child.names]
        elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
            names = [child.module]
        else:
            lines += unguarded_imports(child, blocked)
            continue
        if any(name.partition(".")[0] in blocked for name in names):
            lines.append(child.lineno)
    return lines


def test_the_check_finds_an_unguarded_import() -> None:
    source = (
        "import json\nimport numpy as np\nif TYPE_CHECKING:\n    import httpx\n"
        "def f():\n    import httpx\n"
        "try:\n    import numpy\nexcept ModuleNotFoundError as error:\n    raise missing(error, 'rl', 'x', {'numpy'})\n"
        "try:\n    import numpy\nexcept ModuleNotFoundError:\n    numpy = None\n"
    )
    assert unguarded_imports(ast.parse(source), {"numpy", "httpx"}) == [2, 12]


def test_extras_are_imported_only_behind_the_extras_check() -> None:
    blocked = extra_only_modules()
    found = {
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "src" / "meadhall").rglob("*.py"))
        for line in unguarded_imports(ast.parse(path.read_text(encoding="utf-8")), blocked)
    }
    assert not found, f"import these behind meadhall.extras (missing or require): {sorted(found)}"
