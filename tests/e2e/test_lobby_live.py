"""The live lobby in Chromium: another player's new table appears at once, from the lobby socket.

While the socket is up, the page's poll is answered here with the lobby as it was (no
table), so the new table can only have come through the socket. Without WebSocket, the
page falls back to its poll and the table appears all the same.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser, register
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def _create_open_table(page: Any, base: str) -> str:
    """Bob makes a two-seat table with an open seat through the lobby's form; its id."""
    page.select_option("#game-select", "voluspa")
    page.select_option("#players-select", "2")
    page.select_option("select[name=seat-1]", "open")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(f"{base}/t/*")
    table_id: str = page.url.rsplit("/", 1)[-1]
    return table_id


def _frozen_poll(page: Any) -> list[str]:
    """Answer the page's polls with the lobby as it was before (nothing open, none of mine); the paths polled."""
    polled: list[str] = []

    def answer(route: Any) -> None:
        polled.append(route.request.url)
        route.fulfill(json={"tables": [], "my_turn": 0})

    page.route("**/api/tables", answer)
    page.route("**/api/me/games", answer)
    return polled


def test_a_new_table_appears_on_the_lobby_at_once(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann, bob = browser.new_page(), browser.new_page()
    register(ann, base, "ann")
    ann.wait_for_selector('#open-tables[data-live="1"]')  # the lobby socket is up
    ann.wait_for_selector("#open-tables li.muted")
    _frozen_poll(ann)
    register(bob, base, "bob")
    table_id = _create_open_table(bob, base)
    # Ann's page draws it from the socket: its poll answers "no table".
    ann.wait_for_selector(f'#open-tables a[href="/t/{table_id}"]')
    assert ann.locator(f'#open-tables li:has(a[href="/t/{table_id}"]) button').inner_text() == "Join"
    # Bob's own lobby lists it among his games, with no Join button in the open list.
    bob.goto(f"{base}/lobby")
    bob.wait_for_selector(f'#my-games a[href="/t/{table_id}"]')
    bob.wait_for_selector(f'#open-tables a[href="/t/{table_id}"]')
    assert bob.locator(f'#open-tables li:has(a[href="/t/{table_id}"]) button').count() == 0
    # Ann joins from her lobby; Bob's lobby shows the seat taken, also through the socket.
    _frozen_poll(bob)
    ann.click(f'#open-tables li:has(a[href="/t/{table_id}"]) button')
    ann.wait_for_url(f"{base}/t/{table_id}")
    bob.wait_for_selector(f'#my-games a[href="/t/{table_id}"]:has-text("Ann")')


def test_without_websocket_the_lobby_polls(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann, bob = browser.new_page(), browser.new_page()
    ann.add_init_script("delete window.WebSocket")
    register(ann, base, "ann")
    ann.wait_for_selector("#open-tables li.muted")
    register(bob, base, "bob")
    table_id = _create_open_table(bob, base)
    ann.wait_for_selector(f'#open-tables a[href="/t/{table_id}"]')  # from the poll, within 5 seconds
    assert ann.locator("#open-tables").get_attribute("data-live") != "1"
