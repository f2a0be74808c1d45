"""constraints.txt pins what the Makefile installs: every dependency, within pyproject's floors.

A dependency added to pyproject.toml without ``make lock`` fails here, so a fresh machine
never installs an untested release of it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def pins(text: str) -> dict[str, Version]:
    """``name==version`` lines of a constraints file, by normalized name."""
    found: dict[str, Version] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, equals, version = line.partition("==")
        assert equals and version, f"not a pin: {line!r} (constraints.txt holds only name==version lines)"
        found[_name(name)] = Version(version)
    return found


def declared() -> list[tuple[str, Requirement]]:
    """Every requirement in pyproject.toml, with where it is declared."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [("dependencies", Requirement(text)) for text in project["dependencies"]]
    for extra, requirements in project["optional-dependencies"].items():
        found += [(f"the {extra} extra", Requirement(text)) for text in requirements]
    return found


def unpinned(pinned: dict[str, Version]) -> list[str]:
    """What pyproject.toml asks for that ``pinned`` does not pin, or pins outside its range."""
    problems = []
    for where, requirement in declared():
        version = pinned.get(_name(requirement.name))
        if version is None:
            problems.append(f"{requirement.name} ({where}) has no pin")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement.name} ({where}) is pinned to {version}, outside {requirement.specifier}")
    return problems


def test_every_dependency_is_pinned_within_its_floor() -> None:
    problems = unpinned(pins((ROOT / "constraints.txt").read_text(encoding="utf-8")))
    assert not problems, "run `make lock` and commit constraints.txt: " + "; ".join(problems)


def test_a_forgotten_regeneration_is_caught() -> None:
    pinned = pins((ROOT / "constraints.txt").read_text(encoding="utf-8"))
    del pinned["orjson"]
    pinned["jinja2"] = Version("3.1.4")
    assert unpinned(pinned) == [
        "jinja2 (dependencies) is pinned to 3.1.4, outside >=3.1.6",
        "orjson (dependencies) has no pin",
    ]


def test_every_install_in_the_makefile_uses_the_pins() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "PIP_INSTALL = python -m pip install --quiet --constraint $(CONSTRAINTS)" in makefile
    installs = [line.strip() for line in makefile.splitlines() if line.startswith("\t") and "-m pip install" in line]
    # Only pip itself and `make lock` (which makes the pins) install unpinned.
    unpinned_installs = [line for line in installs if "--upgrade pip" not in line and ".venv-lock/" not in line]
    assert unpinned_installs == [], unpinned_installs
    assert makefile.count("$(PIP_INSTALL)") >= 4  # run, test, bench and the plain install
