"""In Debian's Chromium: the API reference renders offline under the site's
Content-Security-Policy, pages raise no CSP violation, and signing in never leaves the site.

Needs Debian's chromium (``/usr/bin/chromium``, or ``MEADHALL_CHROMIUM``); without it these
tests skip and say why.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import RunningServer, make_settings

CHROMIUM = os.environ.get("MEADHALL_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None,
    reason=f"no Chromium at {CHROMIUM} (apt-get install chromium, or set MEADHALL_CHROMIUM); browser tests skipped",
)

#: Collects Content-Security-Policy violations (Playwright's init scripts are not subject to the page's CSP).
_WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'csp.sqlite3'}", login_rate=1000)
    with RunningServer(settings) as running:
        yield running


@pytest.fixture
def page(site: RunningServer) -> Iterator[tuple[Any, list[str], list[str]]]:
    """A page that may load only this site, with its console errors and the other addresses it tried."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        context = browser.new_context()
        errors: list[str] = []
        elsewhere: list[str] = []

        def only_here(route: Any) -> None:
            if route.request.url.startswith(site.url + "/"):
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        context.route("**/*", only_here)
        context.add_init_script(_WATCH_CSP)
        tab = context.new_page()
        tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab, errors, elsewhere
        browser.close()


def test_api_docs_render_offline_without_csp_violations(site: RunningServer, page: Any) -> None:
    tab, errors, elsewhere = page
    tab.goto(f"{site.url}/api/docs")
    tab.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    operations = tab.locator(".swagger-ui .opblock").count()
    assert operations >= 25
    assert tab.evaluate("window.__csp") == []
    assert errors == [] and elsewhere == []


def test_pages_raise_no_csp_violation(site: RunningServer, page: Any) -> None:
    tab, errors, elsewhere = page
    for path in ("/", "/signin", "/lobby", "/leaderboard", "/rules"):
        tab.goto(f"{site.url}{path}")
        tab.wait_for_load_state("networkidle")
        assert tab.evaluate("window.__csp") == [], path
    assert not [e for e in errors if "Content Security Policy" in e], errors
    assert elsewhere == []


def test_game_pages_raise_no_csp_violation(site: RunningServer, page: Any) -> None:
    """The boards draw with inline style attributes and play over the WebSocket: both allowed."""
    tab, errors, elsewhere = page
    tab.goto(f"{site.url}/signin")
    csrf = tab.request.post(f"{site.url}/api/auth/guest", data={"display_name": "Watcher"}).json()["csrf"]
    for game, bots in (("voluspa", 1), ("bloodrage", 2), ("valda", 1)):
        seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "beginner"}] * bots
        made = tab.request.post(
            f"{site.url}/api/tables", data={"game": game, "seats": seats}, headers={"X-CSRF-Token": csrf}
        )
        assert made.ok, made.text()
        table_id = made.json()["id"]
        assert tab.request.post(f"{site.url}/api/tables/{table_id}/start", headers={"X-CSRF-Token": csrf}).ok
        tab.goto(f"{site.url}/t/{table_id}")
        tab.wait_for_selector("#game-area *", timeout=30_000)
        tab.wait_for_load_state("networkidle")
        assert tab.evaluate("window.__csp") == [], game
        tab.goto(f"{site.url}/replay/{table_id}")
        tab.wait_for_load_state("networkidle")
        assert tab.evaluate("window.__csp") == [], game
    assert not [e for e in errors if "Content Security Policy" in e], errors
    assert elsewhere == []


@pytest.mark.parametrize("target", ["/%5Cexample.invalid/x", "/%5C/example.invalid", "//example.invalid/x"])
def test_signing_in_never_leaves_the_site(site: RunningServer, page: Any, target: str) -> None:
    tab, _errors, elsewhere = page
    tab.goto(f"{site.url}/signin?next={target}")
    tab.locator("#guest-form input[name=display_name]").fill("Guest")
    tab.locator("#guest-form button[type=submit]").click()
    tab.wait_for_url(f"{site.url}/lobby", timeout=20_000)
    assert elsewhere == []


def test_signing_in_follows_a_page_of_the_site(site: RunningServer, page: Any) -> None:
    tab, _errors, _elsewhere = page
    tab.goto(f"{site.url}/signin?next=/rules")
    tab.locator("#guest-form input[name=display_name]").fill("Guest")
    tab.locator("#guest-form button[type=submit]").click()
    tab.wait_for_url(f"{site.url}/rules", timeout=20_000)
