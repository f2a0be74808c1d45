"""A live table's connection, in Chromium: what the page says and does when the network fails.

The page shows its connection (``#connection``, a live region: connected, reconnecting or
offline), marks a move as pending until the server answers, reconnects by itself with a
snapshot (a resync), and catches up when an update goes missing. Broken networks are
made with Playwright: ``context.set_offline`` (the browser's own offline mode, which holds
an open socket's messages instead of closing it) and ``page.route_web_socket``, which sits
between the page and the server and drops or cuts what a test says.

Ann plays in the page; Bob's seat is played over the HTTP API, so that nothing happens at
the table unless a test makes it happen (no bot moves to hide a lost update).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser, register, shot
from tests.e2e.test_browser import play_one
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

# What the browser logs when it is offline or a socket is cut: expected in these tests.
NETWORK_ERRORS = r"ERR_INTERNET_DISCONNECTED|ERR_CONNECTION|WebSocket connection to .* failed"
# Records every state #connection shows (tests look at the history, not at timing).
WATCH_CONNECTION = """() => {
  window.__connection = [];
  const box = document.getElementById('connection');
  const note = () => window.__connection.push(box.dataset.state);
  note();
  new MutationObserver(note).observe(box, { attributes: true, attributeFilter: ['data-state'] });
}"""


class Pipe:
    """The page's table socket, through Playwright: messages to the page can be dropped,
    and the connection cut (and kept from coming back) while ``blocked``."""

    def __init__(self) -> None:
        self.drop: dict[str, int] = {}  # message type -> how many of the next ones to drop
        self.dropped: list[str] = []
        self.blocked = False
        self.routes: list[Any] = []

    def __call__(self, route: Any) -> None:
        if self.blocked:
            route.close(code=1011, reason="the test keeps the server away")
            return
        server = route.connect_to_server()
        self.routes.append(route)

        def to_page(message: str | bytes) -> None:
            kind = json.loads(message).get("type")
            if self.drop.get(kind, 0) > 0:
                self.drop[kind] -= 1
                self.dropped.append(str(kind))
                return
            route.send(message)

        server.on_message(to_page)
        route.on_message(server.send)

    def cut(self) -> None:
        """Close the page's socket, and refuse new ones until ``blocked`` is False again."""
        self.blocked = True
        for route in self.routes:
            with contextlib.suppress(Exception):
                route.close(code=1011, reason="cut by the test")
        self.routes.clear()


class Api:
    """The JSON API as the user signed in on ``page`` (its cookies and CSRF token)."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base

    def get(self, path: str) -> Any:
        response = self.page.request.get(self.base + path)
        assert response.ok, response.text()
        return response.json()

    def post(self, path: str, body: Any = None) -> Any:
        csrf = next(c["value"] for c in self.page.context.cookies() if c["name"] == "meadhall_csrf")
        response = self.page.request.post(self.base + path, data=body or {}, headers={"X-CSRF-Token": csrf})
        assert response.ok, response.text()
        return response.json()


class Table:
    """Ann (in the page) and Bob (over the API) at a two-player Völuspá table."""

    def __init__(self, site: RunningServer, browser: WatchedBrowser, pipe: Pipe | None = None) -> None:
        self.base = site.url
        bob_page = browser.new_page()
        register(bob_page, self.base, "bob")
        self.bob = Api(bob_page, self.base)
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        if pipe is not None:
            self.page.route_web_socket(re.compile(r"/ws/tables/"), pipe)
        register(self.page, self.base, "ann")
        self.ann = Api(self.page, self.base)
        seats = [{"kind": "me"}, {"kind": "invite", "name": "bob"}]
        self.id = self.ann.post("/api/tables", {"game": "voluspa", "options": {}, "seats": seats})["id"]
        self.bob.post(f"/api/tables/{self.id}/join")
        self.page.goto(f"{self.base}/t/{self.id}")
        self.page.click("#start-button")
        self.page.wait_for_selector("#connection[data-state=connected]")
        self.page.evaluate(WATCH_CONNECTION)

    def server(self) -> dict[str, Any]:
        """The table as a spectator sees it, straight from the server (whatever the page's network)."""
        data: dict[str, Any] = httpx.get(f"{self.base}/api/tables/{self.id}/state", timeout=30).json()
        return data

    def ann_to_move(self) -> tuple[int, str]:
        """Let Bob play until it is Ann's turn; the version and the action Ann will play."""
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "Ann's turn never came"
            state: dict[str, Any] = self.bob.get(f"/api/tables/{self.id}/state")
            if 0 in state["to_move"]:
                ann = self.ann.get(f"/api/tables/{self.id}/state")
                return int(ann["version"]), str(ann["legal"][0])
            if state.get("legal"):
                move = {"action": state["legal"][0], "version": state["version"]}
                self.bob.post(f"/api/tables/{self.id}/actions", move)

    def page_at(self, version: int) -> None:
        self.page.wait_for_function("v => window.__mhVersion === v", arg=version, timeout=30000)

    def states(self) -> list[str]:
        found: list[str] = self.page.evaluate("() => window.__connection")
        return found


@pytest.fixture
def pipe() -> Iterator[Pipe]:
    yield Pipe()


def test_offline_the_page_says_so_sends_nothing_and_comes_back(site: RunningServer, browser: WatchedBrowser) -> None:
    browser.allow(NETWORK_ERRORS)
    table = Table(site, browser)
    page = table.page
    version, action = table.ann_to_move()
    table.page_at(version)
    page.context.set_offline(True)
    connection = page.locator("#connection")
    page.locator("#connection[data-state=offline]").wait_for()
    assert connection.get_attribute("role") == "status" and connection.get_attribute("aria-live") == "polite"
    assert connection.inner_text().startswith("Offline")
    shot(page, "live-01-offline")
    play_one(page, table.base, table.id, action, {})
    page.locator("#prompt", has_text="You are offline: the move was not sent").wait_for()
    assert table.server()["version"] == version  # nothing left the page
    page.context.set_offline(False)
    page.locator("#connection[data-state=connected]").wait_for()
    assert "reconnecting" in table.states() or "offline" in table.states()
    play_one(page, table.base, table.id, action, {})
    table.page_at(version + 1)
    assert table.server()["version"] == version + 1


def test_a_lost_update_is_caught_up_from_the_answer_to_the_move(
    site: RunningServer, browser: WatchedBrowser, pipe: Pipe
) -> None:
    table = Table(site, browser, pipe)
    version, action = table.ann_to_move()
    table.page_at(version)
    pipe.drop = {"update": 1}  # the server accepts Ann's move; its update never reaches the page
    play_one(table.page, table.base, table.id, action, {})
    table.page_at(version + 1)  # the answer ('acted', version + 1) tells the page it is behind
    assert pipe.dropped == ["update"] and table.server()["version"] == version + 1
    assert table.page.locator("#log li.event-placed", has_text="Ann").count() >= 1


def test_a_move_without_an_answer_is_pending_then_the_page_reconnects_and_shows_it(
    site: RunningServer, browser: WatchedBrowser, pipe: Pipe
) -> None:
    table = Table(site, browser, pipe)
    page = table.page
    version, action = table.ann_to_move()
    table.page_at(version)
    pipe.drop = {"update": 1, "acted": 1}  # a half-dead socket: the move goes out, nothing comes back
    play_one(page, table.base, table.id, action, {})
    page.locator("#game.pending").wait_for()
    assert page.locator("#game-area").get_attribute("aria-busy") == "true"
    page.locator("#prompt", has_text="Sending your move").wait_for()
    shot(page, "live-02-pending")
    table.page_at(version + 1)  # the socket is given up and replaced: its snapshot has the move
    assert sorted(pipe.dropped) == ["acted", "update"]
    page.locator("#connection[data-state=connected]").wait_for()
    assert "reconnecting" in table.states()
    assert page.locator("#game.pending").count() == 0
    assert page.locator("#log li.event-placed", has_text="Ann").count() >= 1  # the log caught up too


def test_a_dropped_connection_reconnects_by_itself_and_resyncs(
    site: RunningServer, browser: WatchedBrowser, pipe: Pipe
) -> None:
    browser.allow(NETWORK_ERRORS)
    table = Table(site, browser, pipe)
    page = table.page
    version, action = table.ann_to_move()
    table.page_at(version)
    play_one(page, table.base, table.id, action, {})
    table.page_at(version + 1)
    pipe.cut()  # the server goes away
    page.locator("#connection[data-state=reconnecting]").wait_for()
    assert "Connection lost" in page.locator("#connection").inner_text()
    shot(page, "live-03-reconnecting")
    # Bob moves while the page cannot hear it.
    bob = table.bob.get(f"/api/tables/{table.id}/state")
    table.bob.post(f"/api/tables/{table.id}/actions", {"action": bob["legal"][0], "version": bob["version"]})
    pipe.blocked = False  # the server is back: the page's next attempt gets through
    table.page_at(bob["version"] + 1)
    page.locator("#connection[data-state=connected]").wait_for()
    page.locator("#log li.event-placed", has_text="Bob").first.wait_for()  # the log has the move it missed
