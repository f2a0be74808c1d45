"""E-mail notices from the browser, in Chromium, through a real SMTP server (aiosmtpd).

A player gives an address on their own profile, follows the confirmation link that
arrived, and sees it confirmed; another's profile shows no such form.
"""

from __future__ import annotations

import re
from pathlib import Path

from meadhall.server.api import notifications
from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser, register, shot
from tests.server.conftest import RunningServer, make_settings, smtp_inbox

pytestmark = NEEDS_CHROMIUM


def test_an_address_given_on_the_profile_is_confirmed_by_the_link_that_arrives(
    tmp_path: Path, browser: WatchedBrowser
) -> None:
    with smtp_inbox() as (inbox, port):
        settings = make_settings(
            tmp_path,
            f"sqlite:///{tmp_path / 'mail.sqlite3'}",
            login_rate=1000,
            smtp_host="127.0.0.1",
            smtp_port=port,
            smtp_security="none",
        )
        with RunningServer(settings) as site:
            other = browser.new_page()
            register(other, site.url, "bob")
            page = browser.new_page(viewport={"width": 390, "height": 844})
            register(page, site.url, "ann")
            page.goto(f"{site.url}/u/ann#notifications")
            page.wait_for_selector("#notify-form")
            assert page.locator("#no-mail").count() == 0, "this server sends e-mail"
            for key, words in notifications.LABELS.items():  # each choice in the server's words
                assert page.locator(f"label:has(#notify-{key})").inner_text().strip() == words
            assert page.locator("#notify-turns").is_checked()
            assert not page.locator("#notify-digest").is_checked()
            page.fill("#notify-email", "ann@example.org")
            page.check("#notify-digest")
            page.click("#notify-save")
            page.wait_for_selector("#notify-status:has-text('Saved.')")
            assert "Waiting for you" in page.inner_text("#notify-confirmed")
            shot(page, "email-01-profile-phone")

            (confirmation,) = inbox.wait("ann@example.org")
            payload = confirmation.get_payload(decode=True)
            assert isinstance(payload, bytes)
            # The link carries public_url (unset here: the configured port, not the test's free one).
            link = re.search(r"http://\S+?(/email/confirm/\S+)", payload.decode())
            assert link
            page.goto(site.url + link.group(1))
            assert "confirmed" in page.inner_text("#email-message")
            page.goto(f"{site.url}/u/ann")
            page.wait_for_selector("#notify-form")
            assert page.inner_text("#notify-confirmed") == "Confirmed."
            assert page.locator("#notify-digest").is_checked()

            other.goto(f"{site.url}/u/ann")
            other.wait_for_selector("#profile-ratings li")
            assert other.locator("#notify-form").count() == 0, "only one's own profile shows the form"
