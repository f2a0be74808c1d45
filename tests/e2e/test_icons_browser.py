"""Each game's icons on its table and the last move marked (issue 21, item 7), in Chromium.

A table of each game is opened with a bot in the first seat, so that something has happened
when the page draws: the board shows the game's pictures (its web/icons.svg, drawn by
MH.icon: each ``<use>`` resolved to a drawn symbol, not an empty box), and the last move's
tiles (Völuspá) or seats (Valda) are marked. Blood Rage's first moves are a draft that
names no region, so its map's mark is checked in the replay of a bots' game, step by step
until a move names a region. Each game's rules page shows the gallery of its icons with
their names. Screenshots go to test-artifacts/e2e/.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.conftest import WatchedBrowser, register, shot
from tests.server.conftest import RunningServer

BOARDS = {"voluspa": "svg#board", "bloodrage-valhalla": "svg#br-map", "valda": "svg#va-map"}
BOTS_BEFORE_ME = {"voluspa": 1, "bloodrage-valhalla": 2, "valda": 2}
# Where each board marks what the last move changed, once a bot has moved (Blood Rage: in its replay).
# Valda marks the seats' stores or the god area the move's events name, whichever it changed.
LAST_MOVE = {
    "voluspa": "svg#board .tile.last-move",
    "valda": "#va-stores .va-seat-stores.last-move, svg#va-map .last-move",
}

# How many of the page's icons are drawn: each <use> whose symbol resolved has a size on screen.
DRAWN_ICONS = """(scope) => [...document.querySelectorAll(`${scope} svg.mh-icon use`)]
  .filter((use) => { const r = use.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length"""


def api(page: Any, base: str, method: str, path: str, body: Any = None) -> Any:
    """Call the JSON API as the page's signed-in user (with its CSRF token)."""
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "meadhall_csrf"), "")
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return response.json()


def table(page: Any, base: str, game: str, seats: list[dict[str, str]]) -> str:
    """A started table of ``game`` with ``seats``; its id."""
    made = api(page, base, "POST", "/api/tables", {"game": game, "options": {}, "seats": seats})
    api(page, base, "POST", f"/api/tables/{made['id']}/start")
    return str(made["id"])


def act(page: Any, game: str) -> None:
    """Make a move through the page: Völuspá places a tile from the hand, Valda takes its first action."""
    if game == "voluspa":
        page.locator("#hand .hand-tile.playable").first.click()
        page.locator("svg#board .target").first.click()
        choice = page.locator("#chooser:not([hidden]) button[data-action]")
        if choice.count():
            choice.first.click()
    else:
        page.locator("#game-area [data-action]").first.click()


@pytest.mark.parametrize("game", list(BOARDS))
def test_each_table_draws_its_icons_and_marks_the_last_move(
    site: RunningServer, browser: WatchedBrowser, game: str
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    register(page, site.url, "ann")
    bots = [{"kind": "bot", "bot": "beginner"}] * BOTS_BEFORE_ME[game]
    table_id = table(page, site.url, game, [*bots, {"kind": "me"}])
    page.goto(f"{site.url}/t/{table_id}")
    page.wait_for_selector(f"{BOARDS[game]} svg.mh-icon")
    # The pictures are drawn (the sprite loaded and each symbol found), on the board itself.
    page.wait_for_function(f"() => ({DRAWN_ICONS})('{BOARDS[game]}') > 0")
    names = page.eval_on_selector_all(f"{BOARDS[game]} svg.mh-icon", "(icons) => icons.map((i) => i.dataset.icon)")
    assert names and all(names), names
    if game in LAST_MOVE:
        if api(page, site.url, "GET", f"/api/tables/{table_id}/state")["version"] == 0:
            act(page, game)  # the seats' order fell to ann first: her own move is the last one
        page.wait_for_selector(LAST_MOVE[game])
    if game == "voluspa":
        # Each hand tile shows its god's picture and keeps its name for screen readers.
        page.wait_for_function(f"() => ({DRAWN_ICONS})('#hand') > 0")
        label = page.locator("#hand .hand-tile").first.inner_text()
        assert label.strip(), "a hand tile without words"
    if game == "bloodrage-valhalla":
        assert page.locator("#br-clans .clan-icon").count() == 3
    if game == "valda":
        stores = page.locator("#va-stores .va-seat-stores").first
        assert stores.locator("svg.mh-icon[role=img]").count() == 3  # each resource, named
        assert stores.locator("svg.mh-icon[role=img]").first.get_attribute("aria-label")
    shot(page, f"icons-{game}")


def test_blood_rage_replay_marks_the_regions_a_move_named(site: RunningServer, browser: WatchedBrowser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    register(page, site.url, "ann")
    table_id = table(page, site.url, "bloodrage-valhalla", [{"kind": "bot", "bot": "beginner"}] * 3)
    deadline = time.monotonic() + 600  # a hang guard: beginner bots finish far sooner
    while api(page, site.url, "GET", f"/api/tables/{table_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.3)
    page.goto(f"{site.url}/replay/{table_id}")
    page.wait_for_selector("svg#br-map svg.mh-icon")
    steps = int(page.locator("#step-label").inner_text().split(" of ")[1].split(":")[0])
    for shown in range(steps):
        page.click("#forward")
        page.wait_for_function(
            "(n) => !document.querySelector('#step-label').textContent.startsWith(`Step ${n} `)", arg=shown
        )
        if page.locator("svg#br-map .area.last-move").count():
            break
    region = page.locator("svg#br-map .region.last-moved").first.get_attribute("data-region")
    log = page.locator("#log").inner_text()
    name = page.locator(f"svg#br-map .region[data-region='{region}'] .region-name").text_content() or ""
    assert name in log, f"{name} is marked, yet the step's words do not name it: {log}"
    page.wait_for_function(f"() => ({DRAWN_ICONS})('svg#br-map') > 0")
    shot(page, "icons-bloodrage-valhalla-replay")


@pytest.mark.parametrize("game", list(BOARDS))
def test_the_rules_page_shows_the_icons_with_their_names(
    site: RunningServer, browser: WatchedBrowser, game: str
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{site.url}/rules/{game}")
    page.wait_for_selector("#icons .icon-list li")
    page.wait_for_function(f"() => ({DRAWN_ICONS})('#icons') > 0")
    items = page.locator("#icons .icon-list li")
    assert items.count() >= 10
    assert items.first.locator("b").inner_text().strip()
    shot(page, f"icons-rules-{game}")
