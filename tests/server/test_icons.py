"""Each game's icon sprite (issue 21, item 7): served, valid SVG, a symbol for every component its board draws.

The board plugins draw each component by its key (``MH.icon(game, key)``, common.js); the
symbol's id is the key made safe for a URL (:func:`meadhall.server.plugins.icon_id`). What
each board draws is read from the game's content here, so a tile, god, monster, resource or
die face added to a game without its icon fails this test. The rules page shows the gallery.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meadhall.core.registry import all_games, get_game
from meadhall.games.bloodrage_valhalla.content import load_default as bloodrage_content
from meadhall.games.valda.content import CARD_KINDS, RESOURCES
from meadhall.games.valda.content import default_content as valda_content
from meadhall.games.voluspa.tiles import CODES
from meadhall.server.app import create_app
from meadhall.server.plugins import icon_gallery, icon_id, icon_ids
from tests.server.conftest import make_settings

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(tmp_path, f"sqlite:///{tmp_path / 'icons.sqlite3'}"))
    with TestClient(app) as test_client:
        yield test_client


def drawn(game: str) -> set[str]:
    """The component keys the game's board plugin draws as icons, from the game's content."""
    if game == "voluspa":
        return set(CODES)
    if game == "bloodrage-valhalla":
        content = bloodrage_content()
        words = get_game(game).words()
        assert words is not None
        keys = {component["key"] for component in words.components() if component["key"].startswith("clan:")}
        keys |= set(content.gods) | set(content.monsters) | {"warrior", "elite"}
        keys |= {f"reward:{region.reward}" for region in content.regions.values()}  # each region's reward token
        return keys | {region.id for region in content.regions.values() if region.valhalla}
    assert game == "valda"
    valda = valda_content()
    keys = {f"god:{god}" for god in valda.gods} | {f"building:{b}" for b in valda.buildings} | {"site"}
    keys |= {f"resource:{r}" for r in RESOURCES} | {f"kind:{k}" for k in CARD_KINDS}
    return keys | {f"die:{colour}:{face}" for colour, faces in valda.dice.items() for face in range(len(faces))}


GAMES = ["voluspa", "bloodrage-valhalla", "valda"]


@pytest.mark.parametrize("game", GAMES)
def test_each_sprite_is_served_as_svg_with_a_symbol_for_every_component_drawn(client: TestClient, game: str) -> None:
    response = client.get(f"/games/{game}/icons.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(response.content)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    symbols = {symbol.get("id"): symbol for symbol in root.iter(f"{SVG}symbol")}
    missing = sorted(key for key in drawn(game) if icon_id(key) not in symbols)
    assert not missing, f"{game}'s icons.svg has no symbol for {missing}"
    for name, symbol in symbols.items():
        assert symbol.get("viewBox") == "0 0 64 64", f"{game} {name}: every icon is drawn on the same square"
        assert list(symbol), f"{game} {name} draws nothing"
        # Drawn here, not linked: no image, no reference to another file, no script.
        for node in symbol.iter():
            assert node.tag.removeprefix(SVG) not in {"image", "script", "foreignObject"}, f"{game} {name}"
            assert not any(key.endswith("href") for key in node.attrib), f"{game} {name} links elsewhere"


@pytest.mark.parametrize("game", GAMES)
def test_every_drawn_key_has_a_name_in_the_games_words(game: str) -> None:
    # The gallery and the boards' accessible names say what an icon is in the game's words.
    words = get_game(game).words()
    assert words is not None
    named = {component["key"] for component in words.components()}
    unnamed = sorted(
        drawn(game) - named - {"warrior", "elite"}
    )  # Blood Rage's figures: named by its words of the board
    assert not unnamed, unnamed


def test_the_sprite_is_cached_by_its_etag(client: TestClient) -> None:
    first = client.get("/games/valda/icons.svg")
    etag = first.headers["etag"]
    again = client.get("/games/valda/icons.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["etag"] == etag


def test_a_game_without_a_sprite_has_none_and_no_gallery(client: TestClient) -> None:
    names = {game.info.name for game in all_games()}
    assert "toy" in names, "the toy game (tests/plugins/meadhall-toy) is installed in the test venv"
    assert client.get("/games/toy/icons.svg").status_code == 404
    assert client.get("/games/no-such-game/icons.svg").status_code == 404
    assert icon_ids("toy") == frozenset() and icon_gallery("toy") == []
    page = client.get("/rules/toy")
    assert 'id="icons"' not in page.text


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_shows_each_icon_with_its_name(client: TestClient, game: str) -> None:
    gallery = icon_gallery(game)
    assert {item["id"] for item in gallery} >= {icon_id(key) for key in drawn(game) if key not in {"warrior", "elite"}}
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    for item in gallery:
        assert f'data-icon="{item["id"]}"' in page.text
        assert f'#{item["id"]}"' in page.text
        assert f"<b>{item['name']}</b>" in page.text.replace("&#39;", "'")


def test_icon_ids_are_safe_in_a_url() -> None:
    assert icon_id("god:odin") == "god-odin"
    assert icon_id("die:yellow:0") == "die-yellow-0"
    assert icon_id("clan:0") == "clan-0"
    assert icon_id("OD") == "OD"
