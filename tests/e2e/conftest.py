"""The browser end-to-end harness: a live server, Debian's Chromium under Playwright, and a
watch on every page opened for console errors and uncaught page errors; Debian's Firefox
over Marionette (``firefox``, and ``calm_firefox`` that asks for reduced motion).

Any error a page logs fails the test that opened it (at teardown, with the messages), so
a signed-out page that logs a 401, a plugin that throws while drawing, or a failed
request all show up. A test that provokes errors on purpose (going offline) declares
them with ``browser.allow(pattern)``; only errors matching it are let through.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.marionette import Firefox
from tests.network_lock import root_network
from tests.server.conftest import RunningServer, make_settings

CHROMIUM = os.environ.get("MEADHALL_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
HANG_GUARD_MS = 60_000  # waits on a page: long enough for a busy machine, so only a hang fails
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]  # fmt: skip
CHROMIUM_MISSING = not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None
NEEDS_CHROMIUM = pytest.mark.skipif(
    CHROMIUM_MISSING,
    reason=f"no Chromium at {CHROMIUM} (apt-get install chromium, or set MEADHALL_CHROMIUM); browser tests skipped",
)

FIREFOX = os.environ.get("MEADHALL_FIREFOX", "/usr/bin/firefox-esr")
FIREFOX_MISSING = not Path(FIREFOX).exists() or shutil.which(FIREFOX) is None


class WatchedBrowser:
    """A Playwright browser whose every context and page reports console and page errors."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        """Let console errors matching ``pattern`` (a regular expression) through: expected ones."""
        self.allowed.append(re.compile(pattern))

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        location = message.location or {}
        text = f"console error on {location.get('url', '?')}: {message.text}"
        if not any(pattern.search(text) for pattern in self.allowed):
            self.errors.append(text)

    def _page_error(self, error: Any) -> None:
        self.errors.append(f"page error: {error.error}")

    def check(self) -> None:
        """Fail with every error logged so far (once)."""
        errors, self.errors = self.errors, []
        if errors:
            pytest.fail("the pages logged errors:\n" + "\n".join(errors), pytrace=False)

    def new_context(self, **options: Any) -> Any:
        """A new context (cookies of its own); its pages are watched."""
        context = self.browser.new_context(**options)
        context.set_default_timeout(HANG_GUARD_MS)
        context.on("console", self._console)
        context.on("weberror", self._page_error)
        return context

    def new_page(self, **options: Any) -> Any:
        """A page in a context of its own, watched."""
        return self.new_context(**options).new_page()


@pytest.fixture(autouse=True)
def _steady_network() -> Iterator[None]:
    """No drill changes the machine's network while a browser test runs (see tests/network_lock.py)."""
    with root_network(changes=False):
        yield


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    """A live server on a fresh SQLite database."""
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'e2e.sqlite3'}", login_rate=1000)
    with RunningServer(settings) as running:
        yield running


@pytest.fixture
def browser() -> Iterator[WatchedBrowser]:
    """Headless Chromium; the test fails if any page it opened logged an error."""
    if CHROMIUM_MISSING:
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        watched = WatchedBrowser(launched)
        try:
            yield watched
        finally:
            launched.close()
        watched.check()  # what was logged after the test's body (pages closing)


def _firefox(tmp_path: Path, *, reduced: bool) -> Iterator[Firefox]:
    if FIREFOX_MISSING:
        pytest.skip(f"no Firefox at {FIREFOX} (apt-get install firefox-esr, or set MEADHALL_FIREFOX)")
    prefs = {"ui.prefersReducedMotion": 1} if reduced else {}
    browser = Firefox(FIREFOX, tmp_path / "profile", width=1024, height=768, prefs=prefs)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def firefox(tmp_path: Path) -> Iterator[Firefox]:
    """Firefox over Marionette, 1024 by 768, a profile of its own."""
    yield from _firefox(tmp_path, reduced=False)


@pytest.fixture
def calm_firefox(tmp_path: Path) -> Iterator[Firefox]:
    """The same Firefox whose profile asks for reduced motion (``ui.prefersReducedMotion`` 1)."""
    yield from _firefox(tmp_path, reduced=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Fail the test itself (not its teardown) when its pages logged errors."""
    result = yield
    watched = getattr(item, "funcargs", {}).get("browser")
    if isinstance(watched, WatchedBrowser):
        watched.check()
    return result


@pytest.fixture
def paced_site(tmp_path: Path) -> Iterator[RunningServer]:
    """A live server whose response windows wait two seconds before an answer is applied."""
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'paced.sqlite3'}",
        login_rate=1000,
        response_pause_min=2.0,
        response_pause_max=2.0,
    )
    with RunningServer(settings) as running:
        yield running


def api_call(page: Any, method: str, path: str, body: Any = None) -> Any:
    """Call the JSON API from the page, as its signed-in user (``MH.api``)."""
    return page.evaluate("([m, p, b]) => MH.api(m, p, b)", [method, path, body])


def at_version(page: Any, version: int) -> None:
    """Wait until the table page shows ``version``."""
    page.wait_for_function("v => window.__mhVersion === v", arg=version, timeout=HANG_GUARD_MS)


SHOT_HEIGHT = 6000  # CSS px: a rules page is far taller, and a picture of all of it is slow to take and of no use
SHOT_TIMEOUT_MS = 180_000  # a picture waits for the page to settle: slow on a busy machine, never a hang


def shot(page: Any, name: str) -> None:
    """A full-page screenshot in test-artifacts/e2e/ (of the first 6,000 CSS px of a longer page)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    clip = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], SHOT_HEIGHT)}
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, clip=clip, timeout=SHOT_TIMEOUT_MS)


def register(page: Any, base: str, name: str) -> None:
    """Register ``name`` through the sign-in page; ends in the lobby, signed in."""
    page.goto(f"{base}/signin")
    form = page.locator("#register-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=display_name]").fill(name.capitalize())
    form.locator("input[name=password]").fill("a long enough password")
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/lobby")
    page.wait_for_selector("#me-link", state="attached")  # on a phone it is behind the Menu button


def state_of(page: Any, base: str, table_id: str) -> dict[str, Any]:
    """The table as the page's signed-in user sees it (``GET .../state``)."""
    response = page.request.get(f"{base}/api/tables/{table_id}/state")
    assert response.ok, response.text()
    data: dict[str, Any] = response.json()
    return data


def open_table_with_bots(
    page: Any, base: str, game: str, bots: list[str], *, preset: str = "", screenshot: str = ""
) -> str:
    """Create a table of ``game`` through the lobby's form and start it; return its id.

    The page's user takes seat 1, then one bot per level in ``bots``; ``preset`` is chosen
    when given; ``screenshot`` names a shot of the filled form.
    """
    page.select_option("#game-select", game)
    page.select_option("#players-select", str(len(bots) + 1))
    for seat, level in enumerate(bots, start=1):
        page.select_option(f"select[name=seat-{seat}]", "bot")
        page.select_option(f"select[name=bot-{seat}]", level)
    if preset:
        page.select_option("#preset-select", preset)
    if screenshot:
        shot(page, screenshot)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(f"{base}/t/*")
    table_id: str = page.url.rsplit("/", 1)[-1]
    page.click("#start-button")
    return table_id


def end_of_game(page: Any, screenshot: str) -> tuple[str, str]:
    """Wait for the end panel and shoot it; return the ranking's text and the log's."""
    page.wait_for_selector("#end-panel:not([hidden])")
    shot(page, screenshot)
    return page.locator("#end-screen").inner_text(), page.locator("#log").inner_text()


def replay_to_the_end(page: Any, base: str, table_id: str, board: str, screenshot: str) -> None:
    """Open the table's replay, wait for ``board`` (a selector), step to the end and shoot it."""
    page.goto(f"{base}/replay/{table_id}")
    page.wait_for_selector(board)
    page.click("#last")
    page.wait_for_function("() => document.querySelector('#step-label').textContent.includes('of')")
    page.wait_for_selector("#players .ranking li")
    shot(page, screenshot)


def decisions(
    page: Any, base: str, table_id: str, *, answered: Callable[[dict[str, Any]], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Each state of the table where the page's user decides, as the page shows it, until the end.

    Others' turns are waited out. A response window the server answers for the user
    (``answered``: it offers nothing but a pass) is shown to ``answered`` and waited out
    too. A state is yielded only once the page draws that very version; the caller acts
    through the page, and the next state is read after the page has moved on.
    """
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline, "the game took too long"
        mine = state_of(page, base, table_id)
        if mine["view"]["finished"]:
            return
        if not mine.get("legal"):
            time.sleep(0.05)
            continue
        if mine.get("answered"):
            if answered is not None:
                answered(mine)
            page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
            continue
        # Bots may decide at the same time (drafts, battle cards): act only on the version the page shows.
        page.wait_for_function("v => window.__mhVersion >= v", arg=mine["version"], timeout=HANG_GUARD_MS)
        if page.evaluate("window.__mhVersion") != mine["version"]:
            continue
        yield mine
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
