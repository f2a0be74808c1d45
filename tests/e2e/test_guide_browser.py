"""Völuspá's guided first game in Chromium: "Learn to play" from the lobby, each step's panel
and highlighted tile and cell, played by clicks to the guide's end, then on the profile."""

from __future__ import annotations

import time
from typing import Any

from meadhall.core.registry import get_game
from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, register, shot, state_of
from tests.e2e.test_phone_and_a11y import NEEDS_AXE, axe_violations
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

VOLUSPA = get_game("voluspa")


def _guide_step(page: Any, base: str, table_id: str) -> dict[str, Any]:
    """Wait until the learner decides and the page shows that version; the state."""
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the learner was never asked to decide"
        mine = state_of(page, base, table_id)
        if mine.get("legal"):
            page.wait_for_function("v => window.__mhVersion >= v", arg=mine["version"], timeout=HANG_GUARD_MS)
            if page.evaluate("window.__mhVersion") == mine["version"]:
                return mine
        time.sleep(0.05)


def test_voluspa_guided_game_to_its_end(site: RunningServer, browser: WatchedBrowser) -> None:
    guide = VOLUSPA.guide()
    assert guide is not None
    page = browser.new_page()
    base = site.url
    register(page, base, "learner")
    page.select_option("#game-select", "voluspa")
    learn = page.locator("#learn-to-play")
    assert learn.inner_text() == guide.title
    learn.click()
    page.wait_for_url(f"{base}/t/*")
    table_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#guide-panel:not([hidden])")
    for index, step in enumerate(guide.steps):
        mine = _guide_step(page, base, table_id)
        assert mine["guide"]["step"] == index
        panel = page.locator("#guide-panel")
        assert f"step {index + 1} of {len(guide.steps)}" in panel.inner_text()
        if step.target is not None:
            tile = page.locator("#hand .hand-tile.guide-target")
            assert tile.get_attribute("data-tile") == step.target["tile"], "the guide points at the tile"
            x, y = step.target["cell"]
            assert page.locator(f'svg#board rect.guide-target[data-x="{x}"][data-y="{y}"]').count() >= 1
            if index == 0:
                shot(page, "guide-voluspa-step-1")
            tile.click()
            page.locator(f'svg#board rect.target.guide-target[data-x="{x}"][data-y="{y}"]').click()
        else:
            page.locator("#hand .hand-tile.playable").first.click()
            page.locator("svg#board rect.target").first.click()
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
    page.wait_for_function("() => document.querySelector('#guide-panel h3').textContent.includes('(done)')")
    assert guide.done.split(":")[0] in page.locator("#guide-panel").inner_text()
    assert page.locator(".guide-target").count() == 0
    shot(page, "guide-voluspa-done")
    page.goto(f"{base}/u/learner")
    page.wait_for_selector('#profile-guides li[data-game="voluspa"]')


@NEEDS_AXE
def test_learn_to_play_from_the_rules_page_reads_well(site: RunningServer, browser: WatchedBrowser) -> None:
    """The rules page's "Learn to play" starts the guide; the guided table passes the accessibility check."""
    guide = VOLUSPA.guide()
    assert guide is not None
    page = browser.new_page(bypass_csp=True)  # axe-core is injected as a script of the test's
    base = site.url
    register(page, base, "reader")
    page.goto(f"{base}/rules/voluspa")
    button = page.locator("button[data-learn=voluspa]")
    assert button.inner_text() == guide.title
    button.click()
    page.wait_for_url(f"{base}/t/*")
    page.wait_for_selector("#guide-panel:not([hidden]) h3")
    page.wait_for_selector("#hand .hand-tile.guide-target")
    assert axe_violations(page) == []
    page.click("#guide-skip")
    page.wait_for_url(f"{base}/lobby")
