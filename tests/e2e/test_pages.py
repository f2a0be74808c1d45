"""The pages around the games, in Chromium: what a new player sees before and after playing.

Each test opens its pages through the watched browser (conftest.py): a console error or
an uncaught page error on any of them fails the test.
"""

from __future__ import annotations

from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def test_signed_out_pages_log_no_error(site: RunningServer, browser: WatchedBrowser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    for path in ("/", "/lobby", "/signin", "/rules", "/rules/valda", "/leaderboard"):
        page.goto(site.url + path)
        page.wait_for_selector("#signin-link")  # common.js asked who is signed in, and drew the answer
        page.wait_for_load_state("networkidle")
    assert page.locator("#me-link").count() == 0
