"""Clocks and a timeout takeover in Debian's stock Firefox (``firefox-esr``), over Marionette.

The Firefox twin of test_clocks_browser.py. Ann (in Firefox) and Bob (over the API) play a
toy game (tests/plugins/meadhall-toy) with a six-second live clock and a beginner bot for a
timed-out seat. Nobody moves: the leader's clock counts down on Ann's page and runs out, the
log says a bot takes the seat, the bot leads, and the other seat's clock ticks and runs out
in turn: every seat's clock ticks on the page and every timeout shows. Without Firefox the
test skips and says why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import FIREFOX
from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ERRORS, register
from tests.e2e.test_undo_firefox import ARTIFACTS, POST, _ann_state
from tests.server.conftest import Player, RunningServer, make_settings

pytestmark = pytest.mark.skipif(
    not Path(FIREFOX).exists(),
    reason=f"no Firefox at {FIREFOX} (apt-get install firefox-esr, or set MEADHALL_FIREFOX); Firefox test skipped",
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    settings = make_settings(
        tmp_path, f"sqlite:///{tmp_path / 'clocks-firefox.sqlite3'}", login_rate=1000, cookie_secure="false"
    )
    with RunningServer(settings) as running:
        yield running


# The text of a seat's clock on the page, and whether it runs.
CLOCK = "const li = document.querySelector(`#clocks li[data-seat='${arguments[0]}']`); return li ? li.innerText : null;"
RUNNING = "return Boolean(document.querySelector(`#clocks li[data-seat='${arguments[0]}'].running`));"
TICKED = (
    "const li = document.querySelector(`#clocks li[data-seat='${arguments[0]}']`);"
    "return Boolean(li) && li.innerText !== arguments[1];"
)
LOGGED = "return document.querySelector('#log').innerText.split(arguments[0]).length - 1 >= arguments[1];"


def test_every_seats_clock_ticks_and_a_timeout_takeover_shows_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    base = site.url
    bob = Player(site, "bob")
    bob.register()
    register(firefox, base, "Ann")
    body = {
        "game": "toy",
        "seats": [{"kind": "me"}, {"kind": "open"}],
        "clock": True,
        "base_minutes": 0.1,
        "increment_seconds": 1,
        "timeout_bot": "beginner",
    }
    table = firefox.run(POST, "/api/tables", body)
    table_id = str(table["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    firefox.run(POST, f"/api/tables/{table_id}/start", {})
    firefox.goto(f"{base}/t/{table_id}")
    firefox.run(ERRORS)  # from here on, a page error or a console error fails the test
    firefox.wait_for("#game:not([hidden])")
    leader = _ann_state(firefox, table_id)["to_move"][0]
    other = 1 - leader

    # The leader's clock ticks on the page (no message from the server needed), then runs out.
    firefox.wait_until(RUNNING, leader)
    firefox.wait_until(TICKED, leader, firefox.run(CLOCK, leader))
    firefox.screenshot(ARTIFACTS / "firefox-clocks-01-ticking.png")
    firefox.wait_until(LOGGED, "ran out of time", 1)
    firefox.wait_until(
        "return document.querySelector(`#clocks li[data-seat='${arguments[0]}']`).innerText"
        ".includes('a bot plays this seat');",
        leader,
    )
    if leader == 0:
        firefox.wait_for("#seat-back")  # Ann's own seat: she may take it back
    # The bot leads for the seat; the other seat's clock ticks in turn, and runs out too.
    firefox.wait_until(RUNNING, other)
    firefox.wait_until(TICKED, other, firefox.run(CLOCK, other))
    firefox.wait_until(LOGGED, "ran out of time", 2)
    firefox.screenshot(ARTIFACTS / "firefox-clocks-02-timed-out.png")
    state = _ann_state(firefox, table_id)
    assert sorted(state["clock"]["timed_out"]) == [0, 1]
    assert firefox.run("return window.__errors;") == []
