"""The registry finds games through the ``meadhall.games`` entry points, its own and other packages'."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from meadhall.core import registry
from meadhall.core.errors import MeadhallError
from meadhall.core.registry import ENTRY_POINT_GROUP, GamePluginError, all_games, get_game
from meadhall.games.voluspa import VOLUSPA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registry that has loaded nothing yet (restored afterwards)."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_loaded", False)


def _offer(monkeypatch: pytest.MonkeyPatch, *entries: tuple[str, str]) -> None:
    """Make these (name, value) pairs the installed entry points of the group."""
    points = [EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP) for name, value in entries]

    def installed() -> Iterable[EntryPoint]:
        return points

    monkeypatch.setattr(registry, "_entry_points", installed)


def test_meadhalls_games_are_entry_points_of_the_installed_package() -> None:
    offered = {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}
    assert {"voluspa", "valda", "bloodrage-valhalla"} <= set(offered)
    for name, entry in offered.items():
        assert entry.load() is get_game(name)
    assert get_game("voluspa") is VOLUSPA


def test_the_core_imports_no_game_until_one_is_asked_for() -> None:
    script = (
        "import sys\n"
        "import meadhall, meadhall.core.registry, meadhall.games\n"
        "before = sorted(m for m in sys.modules if m.startswith('meadhall.games.'))\n"
        "game = meadhall.get_game('völuspá')\n"
        "print(before, game.info.name, 'meadhall.games.voluspa' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["[]", "voluspa", "True"]


def test_a_game_in_another_installed_package_is_found_by_its_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    # An installed distribution as importlib.metadata sees it: a dist-info folder on the path.
    info = tmp_path / "toy_games-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-games\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[meadhall.games]\nwindow-test = tests.server.window_game:WindowGame\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(ROOT))
    game = get_game("Window-Test")  # a factory (the class) made the game
    assert type(game).__name__ == "WindowGame" and type(game).__module__ == "tests.server.window_game"
    assert {"voluspa", "valda", "bloodrage-valhalla", "window-test"} <= {g.info.name for g in all_games()}
    assert get_game("window-test") is game


def test_games_registered_in_process_sit_beside_the_installed_ones(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from tests.server.window_game import WindowGame
    finally:
        sys.path.remove(str(ROOT))
    toy = registry.register(WindowGame())
    assert get_game("window-test") is toy
    assert get_game("voluspa") is VOLUSPA


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            [("broken", "meadhall_no_such_module:GAME")],
            re.escape(
                "the game 'broken' (meadhall.games entry point 'meadhall_no_such_module:GAME') cannot be loaded: "
                "ModuleNotFoundError: No module named 'meadhall_no_such_module'"
            ),
        ),
        (
            [("decisions", "meadhall.core.game:MAX_DECISIONS")],
            r"the game 'decisions' .* gives int, not a meadhall Game",
        ),
        (
            [("chess", "meadhall.games.voluspa:VOLUSPA")],
            r"the game 'chess' .* is a game called 'voluspa': an entry point is named after its game",
        ),
        (
            [("voluspa", "meadhall.games.voluspa:VOLUSPA"), ("voluspa", "meadhall.games.voluspa.game:VoluspaGame")],
            r"the game 'voluspa' .*'meadhall\.games\.voluspa\.game:VoluspaGame'.* and .* have the same name",
        ),
    ],
)
def test_a_broken_entry_point_is_a_clear_error_on_every_lookup(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None, entries: list[tuple[str, str]], message: str
) -> None:
    _offer(monkeypatch, ("valda", "meadhall.games.valda:GAME"), *entries)
    for _ in range(2):  # nothing half-loaded: it says so again, and finds no game meanwhile
        with pytest.raises(GamePluginError, match=message):
            get_game("valda")
    assert registry._GAMES == {}


def test_no_games_installed_says_where_games_come_from(monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> None:
    _offer(monkeypatch)
    with pytest.raises(MeadhallError, match=r"no games are installed .*'meadhall\.games' entry points"):
        get_game("voluspa")
    assert all_games() == []
