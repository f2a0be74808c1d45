"""Targets on each game's board, in the browser: hovering one shows what it would do (the
game's words from the preview endpoint: Völuspá's points and lines, an illegal cell's rule),
and the keyboard alone plays a move (Tab to the board, arrow keys between targets, Enter
plays, Escape cancels), each target named for screen readers."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, register, shot, state_of
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def _table(page: Any, base: str, game: str, players: int, preset: str | None = None) -> str:
    """A table of ``game`` for the page's user against bots, started; its id."""
    page.select_option("#game-select", game)
    page.select_option("#players-select", str(players))
    if preset:
        page.select_option("#preset-select", preset)
    for seat in range(1, players):
        page.select_option(f"select[name=seat-{seat}]", "bot")
        page.select_option(f"select[name=bot-{seat}]", "beginner")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(f"{base}/t/*")
    table_id: str = page.url.rsplit("/", 1)[-1]
    page.click("#start-button")
    page.wait_for_selector("#game:not([hidden])")
    return table_id


def _my_turn(page: Any, base: str, table_id: str) -> dict[str, Any]:
    """Wait until the page's seat decides and the page shows that version; the state."""
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the seat was never asked to decide"
        mine = state_of(page, base, table_id)
        if mine.get("legal") and not mine.get("answered"):
            page.wait_for_function("v => window.__mhVersion >= v", arg=mine["version"], timeout=HANG_GUARD_MS)
            if page.evaluate("window.__mhVersion") == mine["version"]:
                return mine
        time.sleep(0.05)


def _tab_to(page: Any, selector: str, presses: int = 80) -> None:
    """Press Tab until the focused element matches ``selector`` (from the top of the page)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _focused(page: Any, attribute: str) -> str | None:
    value: str | None = page.evaluate(
        "a => document.activeElement && document.activeElement.getAttribute(a)", attribute
    )
    return value


_SHOWN_PREVIEW = """() => {
  const panel = document.getElementById("mh-preview");
  return panel && !panel.hidden && panel.innerText.trim() ? panel.innerText : null;
}"""


def _preview_text(page: Any, hover: Any = None) -> str:
    """The preview panel's text once shown. With ``hover`` (a locator), hover it first, and
    again if a redraw (another seat's move in a simultaneous phase) hid the panel meanwhile."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if hover is None:
        text: str = page.wait_for_function(_SHOWN_PREVIEW, timeout=HANG_GUARD_MS).json_value()
        return text
    for _ in range(10):
        hover.hover()
        try:
            text = page.wait_for_function(_SHOWN_PREVIEW, timeout=5_000).json_value()
            return text
        except PlaywrightTimeout:
            page.mouse.move(0, 0)  # the board was redrawn under the pointer: point at it anew
    raise AssertionError("hovering never showed a preview")


_PANEL_NOW = "() => { const p = document.getElementById('mh-preview'); return p && [p.className, p.innerText]; }"


def _refusal_shown(page: Any, hover: Any) -> None:
    """Hover ``hover`` (a target with no move now) until the preview panel gives the engine's reason,
    again if a redraw (another seat's move, a window answered) replaced it under the pointer meanwhile."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(10):
        hover.hover()
        try:
            page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal", timeout=5_000)
            return
        except PlaywrightTimeout:
            page.mouse.move(0, 0)  # point at it anew
    # What the page shows, what the server says of the same target, and the button: for the failure's message.
    target = hover.get_attribute("data-target")
    panel = page.evaluate(_PANEL_NOW)
    said = page.request.get(
        f"{page.url.replace('/t/', '/api/tables/')}/preview", params={"target": target or ""}
    ).text()
    button = hover.evaluate("n => [n.disabled, n.outerHTML.slice(0, 160)]")
    raise AssertionError(f"hovering {target} never showed a reason: panel {panel}, server {said}, button {button}")


def test_voluspa_targets_preview_and_play_by_keyboard(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    register(page, base, "ann")
    table_id = _table(page, base, "voluspa", 2, "all+lightning")
    mine = _my_turn(page, base, table_id)

    # Hover: a tile chosen, a target cell shows its points and lines; a far cell the rule against it.
    page.locator("#hand .hand-tile.playable").first.click()
    target = page.locator("svg#board rect.target").first
    target.hover()
    text = _preview_text(page)
    assert "point" in text, text
    label = target.get_attribute("aria-label")
    assert label and " at " in label  # the action's label, from the game's words
    free = page.evaluate(
        """() => {
          const taken = new Set([...document.querySelectorAll('svg#board [data-target], svg#board .tile')]
            .map((n) => `${n.getAttribute('data-x')},${n.getAttribute('data-y')}`));
          const cell = [...document.querySelectorAll('svg#board rect.cell')]
            .find((n) => !taken.has(`${n.getAttribute('data-x')},${n.getAttribute('data-y')}`));
          return cell ? [cell.getAttribute('data-x'), cell.getAttribute('data-y')] : null;
        }"""
    )
    assert free, "no free cell off the targets"
    page.locator(f'svg#board rect.cell[data-x="{free[0]}"][data-y="{free[1]}"]').hover(force=True)
    page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal")
    shot(page, "targets-voluspa-illegal")
    # A click there (a tap on a phone, where nothing hovers) says it too, and plays nothing.
    page.mouse.move(0, 0)
    page.wait_for_selector("#mh-preview", state="hidden")
    page.locator(f'svg#board rect.cell[data-x="{free[0]}"][data-y="{free[1]}"]').click(force=True)
    page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal")
    assert not page.locator("#game.pending").count()  # a move sent would show as pending at once
    assert page.evaluate("window.__mhVersion") == mine["version"]
    # A long press (touch) on a target previews it; lifting the finger then plays nothing.
    page.mouse.move(0, 0)
    page.wait_for_selector("#mh-preview", state="hidden")
    touch = {"pointerType": "touch", "bubbles": True, "isPrimary": True, "pointerId": 7}
    target.dispatch_event("pointerdown", touch)
    page.wait_for_selector("#mh-preview:not(.illegal):not([hidden])")
    target.dispatch_event("pointerup", touch)
    target.dispatch_event("click", {"bubbles": True})
    assert not page.locator("#game.pending").count()
    assert page.evaluate("window.__mhVersion") == mine["version"]
    assert page.locator("svg#board rect.target").count()  # the tile is still chosen

    # Keyboard: Escape puts the tile back; Tab reaches the hand, arrows move, Enter chooses,
    # the focus goes to the board's targets, arrows move between cells, Enter plays.
    page.mouse.move(0, 0)
    page.keyboard.press("Escape")
    page.wait_for_selector("svg#board rect.target", state="detached")
    _tab_to(page, "#hand .hand-tile")
    first_tile = _focused(page, "data-index")
    playable = page.locator("#hand .hand-tile:not([disabled])").count()
    if playable > 1:
        page.keyboard.press("ArrowRight")
        assert _focused(page, "data-index") != first_tile
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('svg#board rect.target')")
    assert "point" in _preview_text(page)  # focus shows the preview too
    before = _focused(page, "data-target")
    cells = page.locator("svg#board rect.target").count()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        if cells < 2:
            break
        page.keyboard.press(key)
        if _focused(page, "data-target") != before:
            break
    if cells > 1:
        assert _focused(page, "data-target") != before, "no arrow key moved between the targets"
    shot(page, "targets-voluspa-keyboard")
    page.keyboard.press("Enter")
    if page.locator("#chooser:not([hidden])").count():
        page.keyboard.press("Enter")  # the first of the choices (a line, a boost), focused
    page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
    after = state_of(page, base, table_id)
    assert after["view"]["ply"] > mine["view"]["ply"] or after["view"]["turn"] > mine["view"]["turn"]


def test_bloodrage_targets_preview_and_play_by_keyboard(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    register(page, base, "ann")
    table_id = _table(page, base, "bloodrage-valhalla", 3, "first-game")

    # The draft: a card in the pack previews its effect; the keyboard keeps one.
    mine = _my_turn(page, base, table_id)
    card = page.locator("#hand button[data-target]:not([disabled])").first
    assert "pack passes on" in _preview_text(page, hover=card)
    # Its text is its name, the action's label in it ("Keep ...", its button face).
    assert "Keep" in card.locator(".card-act").inner_text() and "Keep" in card.inner_text()
    page.mouse.move(0, 0)
    _tab_to(page, "#hand button")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)

    # Later: the map's regions are targets too; Enter opens the region's choices, Enter plays the first.
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "no region on the map was ever a target"
        mine = _my_turn(page, base, table_id)
        if page.locator("#br-map g[data-target]").count():
            break
        _tab_to(page, "#hand button:not([disabled]), #br-actions button")
        page.keyboard.press("Enter")
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
    idle = page.locator("#hand button[disabled][data-target]")
    if idle.count():  # a card with no move now (a battle card in the action phase): the engine's reason
        _refusal_shown(page, idle.first)
        page.mouse.move(0, 0)
    region = page.locator("#br-map g[data-target]").first
    assert ":" in (region.get_attribute("aria-label") or "")
    assert _preview_text(page, hover=region).strip()
    page.mouse.move(0, 0)
    _tab_to(page, "#br-map g[data-target]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chooser:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#chooser", state="hidden")
    assert _focused(page, "data-region")  # back on the region
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#chooser button')")
    shot(page, "targets-bloodrage-keyboard")
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)


def test_valda_targets_preview_and_play_by_keyboard(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    register(page, base, "ann")
    table_id = _table(page, base, "valda", 3)

    played = seen_refusal = False
    deadline = time.monotonic() + 300
    while not played:
        assert time.monotonic() < deadline, "no card or god area was ever a target"
        mine = _my_turn(page, base, table_id)
        idle = page.locator("#hand button.va-card[disabled][data-target]")
        if idle.count() and not seen_refusal:
            # A card with no move now: the preview gives the engine's reason.
            _refusal_shown(page, idle.first)
            page.mouse.move(0, 0)
            seen_refusal = True
        boards = "#hand button[data-target]:not([disabled]), #va-map g[data-target]"
        if not page.locator(boards).count():
            page.locator("#game-area button[data-action]").first.click()
            page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
            continue
        target = page.locator(boards).first
        assert target.get_attribute("aria-label") or target.get_attribute("aria-description")
        target.hover()
        assert _preview_text(page).strip()
        page.mouse.move(0, 0)
        _tab_to(page, boards)
        page.keyboard.press("Enter")
        if page.locator("#chooser:not([hidden])").count():
            page.keyboard.press("Enter")
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
        played = True
    shot(page, "targets-valda-keyboard")


_PLACES = {"bloodrage-valhalla": ("#br-map", "g.region", "region"), "valda": ("#va-map", "g.god-area", "god")}


def _place_preview(page: Any, base: str, table_id: str, key: str, place: str) -> dict[str, Any]:
    """The preview the API gives the page's user for the place ``place`` (its target: ``{key: place}``)."""
    target = json.dumps({key: place})
    response = page.request.get(f"{base}/api/tables/{table_id}/preview", params={"target": target})
    assert response.ok, response.text()
    found: dict[str, Any] = response.json()["preview"]
    return found


@pytest.mark.parametrize("game", list(_PLACES))
def test_a_place_with_no_move_says_what_it_is_and_why(site: RunningServer, browser: WatchedBrowser, game: str) -> None:
    """Hovering, focusing or long-pressing a region (a god area) with no move now shows what it is and why
    nothing can be done there: the game's words from the preview endpoint, drawn as they come."""
    base = site.url
    board, places, key = _PLACES[game]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    register(page, base, "ann")
    table_id = _table(page, base, game, 3)
    idle = f"{board} {places}[data-place]"
    _my_turn(page, base, table_id)
    time.sleep(1)  # the bots that decide at the same time (Blood Rage's draft) have decided: the board stays
    version = _my_turn(page, base, table_id)["version"]
    page.wait_for_selector(idle)

    # The pointer resting on it: its name, what it is, and the reason (not a move).
    place = page.locator(idle).first
    name = place.get_attribute("data-place") or ""
    shown = _preview_text(page, hover=place)
    said = _place_preview(page, base, table_id, key, name)
    assert not said["legal"] and said["refusal"] and said["lines"], said
    page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal")
    assert said["title"] in shown and said["lines"][0] in shown, (shown, said)
    assert name and (place.get_attribute("aria-label") or "").strip()
    shot(page, f"places-{game}-hover")

    # The keyboard: Tab reaches the map, the arrow keys move among all its places; a place with no
    # move shows why when focused, and Enter there plays nothing.
    page.mouse.move(0, 0)
    page.wait_for_selector("#mh-preview", state="hidden")
    _tab_to(page, f"{board} {places}")
    for _ in range(12):
        if _focused(page, "data-place"):
            break
        page.keyboard.press("ArrowRight")
    assert _focused(page, "data-place"), "the arrow keys never reached a place with no move"
    page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal")
    page.keyboard.press("Enter")
    assert page.locator("#chooser:not([hidden])").count() == 0
    assert not page.locator("#game.pending").count()

    # A long press (touch) shows it too, and lifting the finger plays nothing.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    page.wait_for_selector("#mh-preview", state="hidden")
    touch = {"pointerType": "touch", "bubbles": True, "isPrimary": True, "pointerId": 9}
    place = page.locator(idle).first
    place.dispatch_event("pointerdown", touch)
    page.wait_for_selector("#mh-preview.illegal:not([hidden]) .preview-refusal")
    place.dispatch_event("pointerup", touch)
    place.dispatch_event("click", {"bubbles": True})
    assert not page.locator("#game.pending").count()
    assert page.evaluate("window.__mhVersion") == version, "a place with no move played something"
