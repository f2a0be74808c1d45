"""End to end in a real headless Chromium: confirming a turn on the table page.

Two people at a toy game (tests/plugins/meadhall-toy) played at their own pace, so each
turn waits for its Confirm. The leader plays a rune by clicking it: only the leader's page
shows it (with Confirm and Undo), the other page does not change; Undo drops the held
rune; played again and confirmed, the other page shows it. The lobby's form turns the
setting on when the pace is chosen.
"""

from __future__ import annotations

from tests.e2e.conftest import (
    HANG_GUARD_MS,
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


def test_confirm_a_turn_on_the_table_page(paced_site: RunningServer, browser: WatchedBrowser) -> None:
    base = paced_site.url
    pages = {}
    for name in ("ann", "bob"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        register(page, base, name)
        pages[name] = page

    # The new-table form: at one's own pace, confirming each turn is on unless unticked.
    lobby = pages["ann"]
    lobby.goto(f"{base}/lobby")
    lobby.wait_for_selector("#pace-select")
    assert not lobby.locator("#confirm-turns").is_checked()
    lobby.select_option("#pace-select", "async")
    assert lobby.locator("#confirm-turns").is_checked()
    lobby.select_option("#pace-select", "live")
    assert not lobby.locator("#confirm-turns").is_checked()

    table = api_call(
        pages["ann"],
        "POST",
        "/api/tables",
        {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}], "pace": "async"},
    )
    assert table["confirm_turns"] is True
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
    other_log = other.locator("#log").inner_text()
    assert leader.locator("#confirm-turn").count() == 0  # nothing held yet

    rune = before["legal"][0]
    leader.locator(f'#hand button[data-action="{rune}"]:not([disabled])').first.click()
    at_version(leader, 1)
    leader.wait_for_selector("#confirm-turn")
    leader.wait_for_selector("#undo-move")
    assert "nobody sees it until you confirm" in leader.locator("#prompt").inner_text()
    shot(leader, "confirm-01-held")
    # The other page hears nothing: its version, log and buttons are as they were.
    assert other.evaluate("() => window.__mhVersion") == 0
    assert other.locator("#log").inner_text() == other_log
    assert state_of(other, base, table_id)["version"] == 0

    # Undo drops the held rune: back in the hand, nothing to confirm.
    leader.click("#undo-move")
    at_version(leader, 0)
    leader.wait_for_selector(f'#hand button[data-action="{rune}"]:not([disabled])')
    assert leader.locator("#confirm-turn").count() == 0
    assert state_of(leader, base, table_id)["view"] == before["view"]

    # Played again and confirmed: now the other page shows it.
    leader.locator(f'#hand button[data-action="{rune}"]:not([disabled])').first.click()
    at_version(leader, 1)
    leader.click("#confirm-turn")
    at_version(other, 1)
    leader.wait_for_selector("#confirm-turn", state="detached", timeout=HANG_GUARD_MS)
    other.wait_for_function("t => document.querySelector('#log').innerText !== t", arg=other_log, timeout=HANG_GUARD_MS)
    assert state_of(other, base, table_id)["legal"]  # the other seat answers now
    shot(other, "confirm-02-confirmed")
