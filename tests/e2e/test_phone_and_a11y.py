"""Phones, tablets and the automated accessibility check (issue 21, items 4 and 5), in Chromium.

Every page a player meets (the lobby, a table of each game with bots, the replay, the
profile; and home, sign-in, the leaderboard and the rules) is opened at a phone's size
(390×844) and a tablet's (820×1180), as touch screens: nothing wider
than the screen, no text drawn under 11 CSS pixels (an SVG board's text counts at the size
it is drawn, its font size times the board's scale), Völuspá's hand in view without
scrolling past the board, and Blood Rage's map inside the screen. The boards pan, pinch
and zoom (MH.PanZoom in common.js); a tap on anything of a board with a tooltip shows
that text in a panel. axe-core (pinned in tests/e2e/axe/package.json, installed by
``make test`` with npm ci) finds no serious or critical violation on those pages.

Screenshots of each page go to test-artifacts/e2e/; with MEADHALL_SCREENSHOTS=DIR (``make
screenshots``: docs/screenshots) the phone and tablet pictures the README shows go there too.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, WatchedBrowser, register, shot
from tests.server.conftest import RunningServer

# The Chromium tests skip through the `browser` fixture when there is no Chromium; the
# Firefox test needs only Firefox.

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
SIZES = {"phone": PHONE, "tablet": TABLET}
AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = {  # each game's table: the player in the first seat, beginner bots in the others
    "voluspa": ["beginner"],
    "bloodrage-valhalla": ["beginner", "beginner"],
    "valda": ["beginner", "beginner"],
}
BOARDS = {"voluspa": "svg#board", "bloodrage-valhalla": "svg#br-map", "valda": "svg#va-map"}
SMALLEST_PX = 11
NEEDS_AXE = pytest.mark.skipif(
    not AXE.exists(), reason=f"no axe-core at {AXE}: npm ci --prefix tests/e2e/axe (make test runs it with npm)"
)
# axe-core's serious and critical violations on the page, a line each (a promise).
AXE_RUN = (
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations"
    ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
    ".map((v) => `${v.impact} ${v.id}: ${v.help} — `"
    " + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')))"
)

# Every text on the page drawn under SMALLEST_PX: HTML text at its computed font size, SVG
# text (and HTML inside an SVG) at its font size times the scale the SVG draws it at (its
# screen matrix).
SMALL_TEXT = """(least) => {
  const small = [];
  const visible = (node) => { const r = node.getBoundingClientRect(); const s = getComputedStyle(node);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  for (const node of document.querySelectorAll("body *")) {
    const inside = node.closest("svg");
    if (inside && !node.closest("foreignObject")) continue;   // SVG text: below
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !visible(node)) continue;
    const m = inside ? node.closest("foreignObject").getScreenCTM() : null;   // HTML drawn in a board: at its scale
    const size = parseFloat(getComputedStyle(node).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    const what = `${node.tagName.toLowerCase()}${node.id ? "#" + node.id : ""}.${node.className}`;
    if (size < least - 0.01) small.push(`${what}: ${size}px "${node.textContent.trim().slice(0, 30)}"`);
  }
  for (const text of document.querySelectorAll("svg text")) {
    if (!text.textContent.trim() || !visible(text)) continue;
    const m = text.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    const size = parseFloat(getComputedStyle(text).fontSize) * scale;
    const what = `svg text.${text.getAttribute("class")}`;
    if (size < least - 0.01) small.push(`${what}: ${size.toFixed(1)}px "${text.textContent.slice(0, 30)}"`);
  }
  return small;
}"""


def api(page: Any, base: str, method: str, path: str, body: Any = None) -> Any:
    """Call the JSON API as the page's signed-in user (with its CSRF token)."""
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "meadhall_csrf"), "")
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return response.json()


def keep(page: Any, name: str, docs: bool = True) -> None:
    """A screenshot of the whole page in test-artifacts/e2e/ and, with ``docs`` for ``make
    screenshots``, of what the screen shows first in $MEADHALL_SCREENSHOTS."""
    shot(page, name)
    folder = os.environ.get("MEADHALL_SCREENSHOTS")
    if folder and docs:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


class Tables:
    """A signed-in player with a table of each game (against bots, started) and a finished
    bots-only Völuspá game for the replay."""

    def __init__(self, browser: WatchedBrowser, base: str) -> None:
        self.base = base
        page = browser.new_page(viewport=PHONE)
        register(page, base, "ann")
        self.cookies = page.context.cookies()
        self.ids: dict[str, str] = {}
        for game, bots in GAMES.items():
            seats = [{"kind": "me"}] + [{"kind": "bot", "bot": level} for level in bots]
            table = api(page, base, "POST", "/api/tables", {"game": game, "options": {}, "seats": seats})
            api(page, base, "POST", f"/api/tables/{table['id']}/start")
            self.ids[game] = str(table["id"])
        seats = [{"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "beginner"}]
        table = api(page, base, "POST", "/api/tables", {"game": "voluspa", "options": {}, "seats": seats})
        api(page, base, "POST", f"/api/tables/{table['id']}/start")
        deadline = time.monotonic() + 300  # a hang guard: beginner bots finish far sooner
        while api(page, base, "GET", f"/api/tables/{table['id']}")["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)
        self.replay = str(table["id"])
        page.context.close()

    def pages(self) -> dict[str, str]:
        """Name -> address of every page the checks open."""
        pages = {"lobby": "/lobby", "profile": "/u/ann", "replay": f"/replay/{self.replay}"}
        pages.update({game: f"/t/{table_id}" for game, table_id in self.ids.items()})
        return {name: f"{self.base}{path}" for name, path in pages.items()}

    def more_pages(self) -> dict[str, str]:
        """The other pages a player may open: home, sign-in, leaderboard, the rules."""
        pages = {"home": "/", "signin": "/signin", "leaderboard": "/leaderboard", "rules": "/rules"}
        pages.update({f"rules-{game}": f"/rules/{game}" for game in GAMES})
        return {name: f"{self.base}{path}" for name, path in pages.items()}

    def open(self, browser: WatchedBrowser, name: str, viewport: dict[str, int], **options: Any) -> Any:
        """The page ``name``, signed in, drawn and settled."""
        page = browser.new_page(viewport=viewport, **options)
        page.context.add_cookies(self.cookies)
        page.goto({**self.pages(), **self.more_pages()}[name])
        if name in GAMES:
            page.wait_for_selector(f"{BOARDS[name]} text")
            page.wait_for_selector("#game:not([hidden])")
            page.wait_for_function("() => document.querySelector('#connection').dataset.state === 'connected'")
        elif name == "replay":
            page.wait_for_selector("#game-area svg text")
        elif name == "lobby":
            page.wait_for_selector("#me-link")
        else:
            page.wait_for_load_state("networkidle")
        page.evaluate("() => document.fonts.ready")
        return page


@pytest.fixture
def tables(site: RunningServer, browser: WatchedBrowser) -> Iterator[Tables]:
    yield Tables(browser, site.url)


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_every_page_fits_a_phone_and_a_tablet(tables: Tables, browser: WatchedBrowser, size: str) -> None:
    viewport = SIZES[size]
    for name in [*tables.pages(), *tables.more_pages()]:
        page = tables.open(browser, name, viewport, has_touch=True, is_mobile=size == "phone")
        keep(page, f"{size}-{name}", docs=name in GAMES or (size == "phone" and name in tables.pages()))
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{name} at {size} size is {wide}px wide: the screen is {viewport['width']}px"
        small = page.evaluate(SMALL_TEXT, SMALLEST_PX)
        assert not small, f"{name} at {size} size draws text under {SMALLEST_PX}px: {small[:8]}"
        if name in GAMES:
            board = page.locator(BOARDS[name]).bounding_box()
            assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"], (name, board)
        if name == "voluspa":
            top = page.locator("#hand .hand-tile").first.bounding_box()
            assert top["y"] + top["height"] <= viewport["height"], f"Völuspá's hand starts below the fold: {top}"
        page.context.close()


def test_the_board_pans_pinches_and_zooms_on_a_phone(tables: Tables, browser: WatchedBrowser) -> None:
    page = tables.open(browser, "bloodrage-valhalla", PHONE, has_touch=True, is_mobile=True)
    board = page.locator("svg#br-map")
    # The first view is the whole map, at a phone's width too (its text drawn no smaller than
    # 11px: the size test above); closer is a button or a pinch away, and a closer view pans.
    whole = [float(n) for n in board.get_attribute("viewBox").split()]
    assert whole == [-345, -300, 690, 600]
    assert board.get_attribute("data-view") == "whole"
    for _ in range(3):
        page.get_by_role("button", name="Zoom in").click()
    assert board.get_attribute("data-view") == "part"
    before = [float(n) for n in board.get_attribute("viewBox").split()]
    assert before[2] < whole[2] * 0.6, (whole, before)
    box = board.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 80, y + 40, steps=5)
    page.mouse.up()
    dragged = [float(n) for n in board.get_attribute("viewBox").split()]
    assert dragged[0] < before[0] and dragged[1] < before[1], (before, dragged)
    assert dragged[2:] == before[2:], "a drag pans: it does not zoom"
    # Two fingers apart: closer (a smaller view box). Real touches, through Chromium's input
    # (the DevTools protocol), so the browser turns them into pointer events as a phone does.
    touch = page.context.new_cdp_session(page)

    def fingers(kind: str, apart: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x - apart, "y": y, "id": 1}, {"x": x + apart, "y": y, "id": 2}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def finger(kind: str, dx: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x + dx, "y": y, "id": 1}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    # One finger to the left: the map moves with it (the view goes right).
    finger("touchStart", 0)
    for step in range(1, 6):
        finger("touchMove", -step * 12)
    finger("touchEnd", -60)
    swiped = [float(n) for n in board.get_attribute("viewBox").split()]
    assert swiped[0] > dragged[0] and swiped[2:] == dragged[2:], (dragged, swiped)
    fingers("touchStart", 20)
    for step in range(1, 6):
        fingers("touchMove", 20 + step * 12)
    fingers("touchEnd", 80)
    pinched = [float(n) for n in board.get_attribute("viewBox").split()]
    assert pinched[2] < swiped[2] * 0.8, (swiped, pinched)
    # The whole board on a button, then closer again on another.
    page.get_by_role("button", name="Fit the whole board").click()
    assert [float(n) for n in board.get_attribute("viewBox").split()] == [-345, -300, 690, 600]
    assert board.get_attribute("data-view") == "whole"
    page.get_by_role("button", name="Zoom in").click()
    assert float(board.get_attribute("viewBox").split()[2]) < 690
    # Völuspá's board pans the same way: a drag that starts on a cell to play places nothing;
    # a click there does.
    voluspa = tables.open(browser, "voluspa", PHONE)
    before_state = api(voluspa, tables.base, "GET", f"/api/tables/{tables.ids['voluspa']}/state")
    voluspa.locator("#hand .hand-tile:not([disabled])").first.click()
    cell = voluspa.locator("svg#board .targets rect").first
    spot = cell.bounding_box()
    x, y = spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2
    voluspa.mouse.move(x, y)
    voluspa.mouse.down()
    voluspa.mouse.move(x + 50, y + 30, steps=5)
    voluspa.mouse.up()
    after_drag = api(voluspa, tables.base, "GET", f"/api/tables/{tables.ids['voluspa']}/state")
    assert after_drag["view"]["board"] == before_state["view"]["board"], "a drag placed a tile"
    voluspa.get_by_role("button", name="Fit the whole board").click()
    assert voluspa.locator("svg#board").get_attribute("data-view") == "whole"
    voluspa.locator("svg#board .targets rect").first.click()
    if voluspa.locator("#chooser").is_visible():  # a tile with a choice: the first
        voluspa.locator("#chooser button.choice").first.click()
    voluspa.wait_for_function(
        "(n) => document.querySelectorAll('svg#board g.tile').length > n", arg=len(before_state["view"]["board"])
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_a_tap_shows_a_power(tables: Tables, browser: WatchedBrowser, game: str) -> None:
    page = tables.open(browser, game, PHONE, has_touch=True, is_mobile=True)
    # Something of the board with a power: a tile in the hand, a region of the map, a god area.
    thing = {
        "voluspa": "#hand .hand-tile",
        "bloodrage-valhalla": "svg#br-map g.region:has(circle.valhalla)",  # the middle: in the first view
        "valda": "svg#va-map g.god-area",
    }[game]
    target = page.locator(thing).first
    said = target.evaluate(
        "(node) => node.getAttribute('title') || [...node.children].find((c) => c.tagName === 'title').textContent"
    )
    assert said.strip()
    if game != "voluspa":  # its shape on the map
        target = target.locator(".area")
    else:  # a tile a player cannot place now is a disabled button, and still shows its power
        page.evaluate("() => document.querySelector('#hand .hand-tile').setAttribute('disabled', '')")
    target.scroll_into_view_if_needed()
    target.tap(force=game == "voluspa")  # a disabled button: tapped all the same
    panel = page.locator("#power-panel")
    panel.wait_for()
    assert panel.locator("#power-text").inner_text().strip() == said.strip().replace("\r", "")
    keep(page, f"phone-{game}-power")
    panel.get_by_role("button", name="Close").tap()
    assert panel.is_hidden()


def axe_violations(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(f"() => {AXE_RUN}")
    return list(found)


@NEEDS_AXE
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation(tables: Tables, browser: WatchedBrowser, size: str) -> None:
    viewport = {"width": 1280, "height": 900} if size == "desktop" else PHONE
    found = {}
    for name in tables.pages():
        page = tables.open(browser, name, viewport, bypass_csp=True)  # axe-core is injected as a script of the test's
        if size == "desktop":
            keep(page, f"desktop-{name}", docs=name in GAMES)
        violations = axe_violations(page)
        if violations:
            found[name] = violations
        page.context.close()
    assert not found, "\n".join(f"{name}: {v}" for name, violations in found.items() for v in violations)


FIREFOX = os.environ.get("MEADHALL_FIREFOX", "/usr/bin/firefox-esr")


@NEEDS_AXE
@pytest.mark.skipif(
    not Path(FIREFOX).exists() or shutil.which(FIREFOX) is None,
    reason=f"no Firefox at {FIREFOX} (apt-get install firefox-esr, or set MEADHALL_FIREFOX); its axe check skipped",
)
def test_no_serious_accessibility_violation_in_firefox(site: RunningServer, tmp_path: Path) -> None:
    """The lobby and a Völuspá table against a bot, in Debian's Firefox (driven over
    Marionette: tests/e2e/marionette.py) with a window as narrow as it goes (Firefox keeps
    it near 490px, under the 600px where the pages take their phone layout): axe-core
    finds nothing serious there either, and no text is drawn under 11px."""
    from tests.e2e.marionette import Firefox

    ff = Firefox(FIREFOX, tmp_path / "profile", width=PHONE["width"], height=PHONE["height"])
    try:
        base = site.url
        ff.goto(f"{base}/signin")
        ff.type("#register-form input[name=name]", "fern")
        ff.type("#register-form input[name=display_name]", "Fern")
        ff.type("#register-form input[name=password]", "a long enough password")
        ff.click("#register-form button[type=submit]")
        ff.wait_until("return location.pathname === '/lobby' && Boolean(document.querySelector('#me-link'));")
        table_id = ff.run(
            """const csrf = decodeURIComponent((document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/) || [])[1] || "");
            const headers = { "Content-Type": "application/json", "X-CSRF-Token": csrf };
            const post = (path, body) => fetch(path, { method: "POST", credentials: "same-origin", headers,
              body: JSON.stringify(body) }).then((r) => r.json());
            const seats = [{ kind: "me" }, { kind: "bot", bot: "beginner" }];
            return post("/api/tables", { game: "voluspa", options: {}, seats })
              .then((table) => post(`/api/tables/${table.id}/start`, {}).then(() => table.id));"""
        )
        assert ff.run("return innerWidth;") <= 600, "Firefox's window is wider than a phone layout"
        axe = AXE.read_text(encoding="utf-8")
        found = {}
        for name, path, ready in [("lobby", "/lobby", "#me-link"), ("voluspa", f"/t/{table_id}", "svg#board text")]:
            ff.goto(f"{base}{path}")
            ff.wait_for(ready)
            ff.wait_for("#hand .hand-tile" if name == "voluspa" else "#game-select option")
            ff.run(axe)
            violations = ff.run(f"return {AXE_RUN};")
            if violations:
                found[name] = violations
            small = ff.run(f"return ({SMALL_TEXT})(arguments[0]);", SMALLEST_PX)
            assert not small, f"{name} in Firefox draws text under {SMALLEST_PX}px: {small[:8]}"
            ff.screenshot(ARTIFACTS / f"firefox-phone-{name}.png")
        assert not found, "\n".join(f"{name}: {v}" for name, violations in found.items() for v in violations)
    finally:
        ff.close()
