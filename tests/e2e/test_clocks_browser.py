"""End to end in a real headless Chromium: clocks, a timeout, and taking the seat back.

Two people at a toy game (tests/plugins/meadhall-toy) with a six-second live clock. The
new-table form offers the time control; on the table page the leader's clock counts down
on both pages; the leader waits, runs out of time, and both logs say a bot takes the seat;
the leader takes it back with the page's button, and both logs say so.
"""

from __future__ import annotations

from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, api_call, register, shot, state_of
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def test_clocks_tick_time_out_and_the_seat_is_taken_back(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    pages = {}
    for name in ("ann", "bob"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        register(page, base, name)
        pages[name] = page

    # The new-table form: minutes and an increment for a live table, days a move at one's own pace.
    lobby = pages["ann"]
    lobby.goto(f"{base}/lobby")
    lobby.wait_for_selector("#clock-fields")
    assert lobby.locator(".clock-live").first.is_visible() and not lobby.locator(".clock-async").is_visible()
    lobby.select_option("#pace-select", "async")
    assert lobby.locator(".clock-async").is_visible() and not lobby.locator(".clock-live").first.is_visible()
    assert "a bot takes the seat" in lobby.locator("select[name=on_timeout]").inner_text()

    table = api_call(
        lobby,
        "POST",
        "/api/tables",
        {
            "game": "toy",
            "seats": [{"kind": "me"}, {"kind": "open"}],
            "clock": True,
            "base_minutes": 0.1,
            "increment_seconds": 1,
            "timeout_bot": "beginner",
        },
    )
    table_id = table["id"]
    api_call(pages["bob"], "POST", f"/api/tables/{table_id}/join", {})
    api_call(pages["ann"], "POST", f"/api/tables/{table_id}/start", {})
    leader_seat = state_of(pages["ann"], base, table_id)["to_move"][0]
    leader, other = (pages["ann"], pages["bob"]) if leader_seat == 0 else (pages["bob"], pages["ann"])
    for page in (leader, other):
        page.goto(f"{base}/t/{table_id}")
        page.wait_for_selector("#game:not([hidden])")
    clock = f'#clocks li[data-seat="{leader_seat}"]'
    for page in (leader, other):
        page.wait_for_selector(f"{clock}.running")
        # The running clock ticks on the page: its text changes without any message from the server.
        first = page.locator(clock).inner_text()
        page.wait_for_function(
            "([sel, t]) => document.querySelector(sel).innerText !== t", arg=[clock, first], timeout=HANG_GUARD_MS
        )
    shot(leader, "clocks-01-ticking")

    # The leader waits: its time runs out and a bot takes the seat; both logs say so.
    for page in (leader, other):
        page.wait_for_function(
            "() => document.querySelector('#log').innerText.includes('ran out of time')", timeout=HANG_GUARD_MS
        )
    leader.wait_for_selector("#seat-back")
    assert other.locator("#seat-back").count() == 0  # only the timed-out player may take it back
    assert "a bot plays this seat" in other.locator(clock).inner_text()
    shot(leader, "clocks-02-timed-out")

    leader.click("#seat-back")
    for page in (leader, other):
        page.wait_for_function(
            "() => document.querySelector('#log').innerText.includes('takes the seat again')", timeout=HANG_GUARD_MS
        )
    leader.wait_for_selector("#seat-back", state="detached", timeout=HANG_GUARD_MS)
    assert "bot_plays" not in state_of(leader, base, table_id)["clock"]
    shot(leader, "clocks-03-back")
