"""Turn alerts in Chromium: a chime and a browser notification when it becomes your turn in a background tab.

Ann's page sits at a live Völuspá table; Bob plays over the HTTP API. The page's real
Notification API is used (Playwright grants the permission) through a subclass that also
records each notification, and each oscillator the chime starts is counted. Whether the tab
is in the background is ``document.hidden``, which the test sets: headless Chromium keeps
every page visible.
"""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser
from tests.e2e.test_live import Table
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

RECORD_ALERTS = """
window.__alerts = { notes: [], tones: 0 };
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__hidden; } });
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) {
    super(title, options);
    window.__alerts.notes.push({ title, body: options.body, tag: options.tag });
  }
};
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__alerts.tones += 1;
  return createOscillator.call(this);
};
"""


def _alerts(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => window.__alerts")
    return found


def _round(table: Table) -> None:
    """Ann (over the API) plays, then Bob, until it is Ann's turn again; the page has caught up."""
    state = table.ann.get(f"/api/tables/{table.id}/state")
    table.ann.post(f"/api/tables/{table.id}/actions", {"action": state["legal"][0], "version": state["version"]})
    version, _ = table.ann_to_move()
    table.page_at(version)


def test_a_background_tab_chimes_and_notifies_when_it_becomes_your_turn(
    site: RunningServer, browser: WatchedBrowser
) -> None:
    table = Table(site, browser)
    page = table.page
    page.context.grant_permissions(["notifications"], origin=site.url)
    page.add_init_script(RECORD_ALERTS)
    version, _ = table.ann_to_move()
    page.reload()
    page.wait_for_selector("#connection[data-state=connected]")
    table.page_at(version)

    button = page.locator("#turn-alerts")
    assert button.get_attribute("aria-pressed") == "false", "alerts are off until the player turns them on"
    button.click()
    page.wait_for_selector("#turn-alerts[aria-pressed=true]")
    assert page.evaluate("() => localStorage.getItem('mh-turn-alerts')") == "on"
    assert _alerts(page)["tones"] == 2, "turning alerts on plays the chime once (two notes)"

    # In the foreground: the board itself says it is your turn; no chime, no notification.
    _round(table)
    assert _alerts(page) == {"notes": [], "tones": 2}

    # In the background: one notification naming the game and what to do, and the chime.
    page.evaluate("() => { window.__hidden = true; }")
    _round(table)
    page.wait_for_function("() => window.__alerts.notes.length === 1", timeout=30000)
    alerts = _alerts(page)
    note = alerts["notes"][0]
    assert note["title"] == "Your turn: Völuspá"
    assert note["tag"] == f"/t/{table.id}"
    assert note["body"], "the notification says what the turn asks"
    assert alerts["tones"] == 4

    # Turned off: nothing, even in the background.
    button.click()
    page.wait_for_selector("#turn-alerts[aria-pressed=false]")
    _round(table)
    assert _alerts(page) == alerts


def test_the_menu_alerts_for_another_table_that_becomes_your_turn(site: RunningServer, browser: WatchedBrowser) -> None:
    table = Table(site, browser)
    page = table.page
    page.context.grant_permissions(["notifications"], origin=site.url)
    page.add_init_script(RECORD_ALERTS)
    page.evaluate("() => localStorage.setItem('mh-turn-alerts', 'on')")
    # A second table, where Bob is to move; Ann waits on the lobby page in a background tab.
    seats = [{"kind": "me"}, {"kind": "invite", "name": "ann"}]
    other = table.bob.post("/api/tables", {"game": "voluspa", "options": {}, "seats": seats})["id"]
    table.ann.post(f"/api/tables/{other}/join")
    table.bob.post(f"/api/tables/{other}/start")
    first = table.ann.get(f"/api/tables/{other}/state")
    if first["to_move"] == [1]:  # the deal made Ann (seat 2) first: she moves, so that her next turn is new
        table.ann.post(f"/api/tables/{other}/actions", {"action": first["legal"][0], "version": first["version"]})
    page.goto(f"{site.url}/lobby")
    page.wait_for_function("() => typeof MH !== 'undefined' && MH.turnTables !== undefined", timeout=30000)
    page.evaluate("() => { window.__hidden = true; }")
    state = table.bob.get(f"/api/tables/{other}/state")
    assert state["to_move"] == [0], "Bob is to move"
    table.bob.post(f"/api/tables/{other}/actions", {"action": state["legal"][0], "version": state["version"]})
    # The menu polls every 20 seconds; the test asks at once rather than wait.
    deadline = time.monotonic() + 30
    while not _alerts(page)["notes"]:
        assert time.monotonic() < deadline, "no alert for the other table"
        page.evaluate("() => MH.pollTurns()")
        page.wait_for_timeout(200)
    notes = _alerts(page)["notes"]
    assert [n["tag"] for n in notes] == [f"/t/{other}"], "one alert, for the table that became Ann's turn"
    assert notes[0]["title"] == "Your turn: Völuspá"
