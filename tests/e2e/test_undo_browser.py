"""End to end in a real headless Chromium: taking back a move on the table page.

Two people at a toy game (tests/plugins/meadhall-toy), each in a browser of their own. The
leader plays a rune by clicking it; the Undo button shows on the leader's page only, and
clicking it takes the rune back on both pages (the log says who took a move back); once
the other seat has answered, the leader is offered no Undo. Response windows pause long
here, so the table does not answer for a seat while the test clicks.
"""

from __future__ import annotations

from tests.e2e.conftest import (
    NEEDS_CHROMIUM,
    WatchedBrowser,
    api_call,
    at_version,
    register,
    shot,
    state_of,
)
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def test_undo_on_the_table_page(paced_site: RunningServer, browser: WatchedBrowser) -> None:
    base = paced_site.url
    pages = {}
    for name in ("ann", "bob"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        register(page, base, name)
        pages[name] = page
    table = api_call(pages["ann"], "POST", "/api/tables", {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}]})
    table_id = table["id"]
    api_call(pages["bob"], "POST", f"/api/tables/{table_id}/join", {})
    api_call(pages["ann"], "POST", f"/api/tables/{table_id}/start", {})
    for page in pages.values():
        page.goto(f"{base}/t/{table_id}")
        page.wait_for_selector("#game:not([hidden])")
        at_version(page, 0)
    leader_seat = state_of(pages["ann"], base, table_id)["to_move"][0]
    leader, other = (pages["ann"], pages["bob"]) if leader_seat == 0 else (pages["bob"], pages["ann"])
    before = state_of(leader, base, table_id)
    assert leader.locator("#undo-move").count() == 0  # nothing played yet

    rune = before["legal"][0]
    leader.locator(f'#hand button[data-action="{rune}"]:not([disabled])').first.click()
    at_version(leader, 1)
    leader.wait_for_selector("#undo-move")
    at_version(other, 1)
    assert other.locator("#undo-move").count() == 0  # only the mover is offered it
    shot(leader, "undo-01-offered")

    leader.click("#undo-move")
    for page in (leader, other):
        at_version(page, 2)
        page.wait_for_selector("#log .event-taken-back")
    assert "took back a move" in other.locator("#log").inner_text()
    assert leader.locator("#undo-move").count() == 0
    after = state_of(leader, base, table_id)
    assert after["view"] == before["view"] and after["legal"] == before["legal"]
    # The rune is back in the hand, ready to play again.
    leader.wait_for_selector(f'#hand button[data-action="{rune}"]:not([disabled])')
    shot(leader, "undo-02-taken-back")

    # Played again; the other seat answers; the leader may no longer take it back.
    leader.locator(f'#hand button[data-action="{rune}"]:not([disabled])').first.click()
    at_version(other, 3)
    answer = state_of(other, base, table_id)["legal"][-1]
    found = other.locator(f'#hand button[data-action="{answer}"]:not([disabled])')
    if found.count():
        found.first.click()
    else:
        other.locator(f'#turn-actions button[data-action="{answer}"]').click()
    at_version(leader, 4)
    assert leader.locator("#undo-move").count() == 0
    browser.allow(r"/undo: Failed to load resource: the server responded with a status of 409")  # asked on purpose
    refused = leader.evaluate(
        "v => MH.api('POST', location.pathname.replace('/t/', '/api/tables/') + '/undo', {version: v})"
        ".then(() => 'taken back', e => e.status + ' ' + e.code)",
        4,
    )
    assert refused == "409 not-undoable"
