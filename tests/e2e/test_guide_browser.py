"""Each game's guided first game in Chromium: "Learn to play" from the lobby, each step's panel
and highlighted move, played by clicks through the script and on against the bot to the
game's end (the quickest moves once the script is over), then on the profile."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from meadhall.core.guide import Guide
from meadhall.core.registry import get_game
from tests.e2e.conftest import (
    HANG_GUARD_MS,
    NEEDS_CHROMIUM,
    WatchedBrowser,
    decisions,
    end_of_game,
    register,
    shot,
    state_of,
)
from tests.e2e.test_browser import play_bloodrage_one, play_valda_one
from tests.e2e.test_phone_and_a11y import NEEDS_AXE, axe_violations, keep
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

VOLUSPA = get_game("voluspa")


def _keep_guide(page: Any, name: str) -> None:
    """The guide's panel and the board under it, no hover preview (docs/screenshots with make screenshots)."""
    page.mouse.move(1, 1)
    page.evaluate("document.getElementById('guide-panel').scrollIntoView()")
    keep(page, name)


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
            if index == 1:
                _keep_guide(page, "guide-voluspa")
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
    for _ in decisions(page, base, table_id):  # on against the bot, to the game's end
        page.locator("#hand .hand-tile.playable").first.click()
        page.locator("svg#board rect.target").first.click()
    end_of_game(page, "guide-voluspa-end")
    page.goto(f"{base}/u/learner")
    page.wait_for_selector('#profile-guides li[data-game="voluspa"]')


#: Once the script is over, the quickest way to the end: end phases, pass, stop defending, keep.
QUICK = ("pass", "done", "yield", "keep")


def _quickest(legal: list[str]) -> str:
    for word in QUICK:
        if word in legal:
            return word
    return legal[0]


def _guided_game_to_its_end(
    browser: WatchedBrowser, base: str, name: str, play_one: Callable[[Any, str], None], board: str
) -> None:
    """Learn to play ``name`` from the lobby: the script by its highlighted moves, then on to the game's end."""
    guide: Guide | None = get_game(name).guide()
    assert guide is not None
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    register(page, base, "learner")
    page.select_option("#game-select", name)
    learn = page.locator("#learn-to-play")
    assert learn.inner_text() == guide.title
    learn.click()
    page.wait_for_url(f"{base}/t/*")
    table_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector(board)
    page.wait_for_selector("#guide-panel:not([hidden]) h3")
    steps_seen: list[int] = []
    after = 0
    for mine in decisions(page, base, table_id):
        now = mine["guide"]
        legal = mine["legal"]
        if not now["done"] and now["expect"] and now["expect"][0] in legal:
            index = now["step"]
            assert f"step {index + 1} of {len(guide.steps)}" in page.locator("#guide-panel").inner_text()
            wanted = page.locator(f'#game-area [data-action="{now["expect"][0]}"].guide-target')
            assert wanted.count() >= 1, f"step {index + 1}: the board marks {now['expect'][0]}"
            if index == 1:
                _keep_guide(page, f"guide-{name}")
            steps_seen.append(index)
            play_one(page, now["expect"][0])
            continue
        if not now["done"] and not now["expect"]:
            steps_seen.append(now["step"])  # the last step: any move
            shot(page, f"guide-{name}-free")
        after += 1
        play_one(page, _quickest(legal))
    assert sorted(set(steps_seen)) == list(range(len(guide.steps))), steps_seen
    assert after > 5
    ranking, _ = end_of_game(page, f"guide-{name}-end")
    assert "1." in ranking
    assert page.locator("#guide-panel h3").inner_text().endswith("(done)")
    page.goto(f"{base}/u/learner")
    page.wait_for_selector(f'#profile-guides li[data-game="{name}"]')
    context.close()


def test_valda_guided_game_to_its_end(site: RunningServer, browser: WatchedBrowser) -> None:
    used: set[str] = set()
    _guided_game_to_its_end(
        browser, site.url, "valda", lambda page, action: play_valda_one(page, action, used), "#va-map"
    )


def test_bloodrage_guided_game_to_its_end(site: RunningServer, browser: WatchedBrowser) -> None:
    used: set[str] = set()
    choose = random.Random(3)
    _guided_game_to_its_end(
        browser,
        site.url,
        "bloodrage-valhalla",
        lambda page, action: play_bloodrage_one(page, action, choose, used),
        "#br-map",
    )


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
