"""End to end in a real headless Chromium: leaving a rated game, and going on vacation.

Two people at a toy game (tests/plugins/meadhall-toy) without a clock: Bob leaves with
the table's Leave game button (the server's words in its question); the game ends, Ann
wins, and the end panel says in the server's words that Bob left and lost. Then Ann, at a
table with days per move, goes on vacation from her profile: her profile says so, and
Bob's table page shows her clock waiting and the log's line.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, api_call, register, shot, state_of
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def _table(pages: dict[str, Any], **settings: Any) -> str:
    body = {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}], **settings}
    table_id = str(api_call(pages["ann"], "POST", "/api/tables", body)["id"])
    api_call(pages["bob"], "POST", f"/api/tables/{table_id}/join", {})
    api_call(pages["ann"], "POST", f"/api/tables/{table_id}/start", {})
    return table_id


def test_leaving_ends_the_game_as_a_loss_and_a_vacation_shows(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    pages = {}
    for name in ("ann", "bob"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        register(page, base, name)
        pages[name] = page
    ann, bob = pages["ann"], pages["bob"]

    table_id = _table(pages)
    for page in (ann, bob):
        page.goto(f"{base}/t/{table_id}")
        page.wait_for_selector("#game:not([hidden])")
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    bob.on("dialog", accept)
    bob.click("#leave-game")
    ann.wait_for_selector("#end-banner", timeout=HANG_GUARD_MS)
    assert asked and asked[0].startswith("Leave this game? It counts as a loss for you")
    ann.wait_for_function(
        "() => document.querySelector('#end-screen').innerText.includes('Bob left the game and loses')",
        timeout=HANG_GUARD_MS,
    )
    assert ann.locator("#end-banner").inner_text().startswith("Ann")  # she wins
    ended = ann.evaluate("(path) => fetch(path).then((r) => r.json())", f"/api/tables/{table_id}")
    assert ended["result"]["places"] == [1, 2] and ended["result"]["left"] == [1]
    shot(ann, "absence-01-left")

    slow = _table(pages, pace="async", clock=True, days_per_move=1)
    bob.goto(f"{base}/t/{slow}")
    bob.wait_for_selector("#game:not([hidden])")
    ann.goto(f"{base}/u/ann")
    ann.wait_for_selector("#vacation-button")
    ann.click("#vacation-button")
    ann.wait_for_function(
        "() => document.querySelector('#vacation-status').innerText.startsWith('On vacation')", timeout=HANG_GUARD_MS
    )
    assert ann.locator("#vacation-button").inner_text() == "End my vacation"
    shot(ann, "absence-02-vacation")
    bob.wait_for_function(
        "() => document.querySelector('#log').innerText.includes('Ann is on vacation')", timeout=HANG_GUARD_MS
    )
    bob.wait_for_function(
        "() => document.querySelector('#clocks li[data-seat=\"0\"]').innerText.includes('on vacation')",
        timeout=HANG_GUARD_MS,
    )
    assert state_of(bob, base, slow)["clock"]["paused"] == [0]
    shot(bob, "absence-03-clock-waits")
    ann.click("#vacation-button")
    bob.wait_for_function(
        "() => document.querySelector('#log').innerText.includes('back from vacation')", timeout=HANG_GUARD_MS
    )
