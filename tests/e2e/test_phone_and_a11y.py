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
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, SHOT_TIMEOUT_MS, WatchedBrowser, register, shot
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


def decision_height(page: Any) -> int:
    """How much of the page, from its top, a picture of a table shows to hold the whole
    decision: the screen's height, or more, down to the foot of the board's area (the
    pack to keep a card from, the hand, the buttons) where that reaches lower."""
    bottom = page.evaluate(
        "() => { const a = document.querySelector('#game-area');"
        " return a ? Math.ceil(a.getBoundingClientRect().bottom + scrollY) + 8 : 0; }"
    )
    return int(max(page.viewport_size["height"], bottom))


def keep(page: Any, name: str, docs: bool = True, whole: bool = False) -> int:
    """A screenshot of the whole page in test-artifacts/e2e/ and, with ``docs`` for ``make
    screenshots``, of what the screen shows first in $MEADHALL_SCREENSHOTS; with ``whole``
    (a table on a desktop or a tablet), of the screen's width down to the decision's foot
    (:func:`decision_height`). Returns the picture's height."""
    shot(page, name)
    height = decision_height(page) if whole else page.viewport_size["height"]
    folder = os.environ.get("MEADHALL_SCREENSHOTS")
    if folder and docs:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if height > page.viewport_size["height"]:  # the screen's width, down to the decision's foot
            clip = {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": height}
            page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True, clip=clip, timeout=SHOT_TIMEOUT_MS)
        else:
            page.screenshot(path=str(Path(folder) / f"{name}.png"), timeout=SHOT_TIMEOUT_MS)
    return height


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
            page.wait_for_selector("#me-link", state="attached")  # on a phone: behind the Menu button
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
        keep(
            page,
            f"{size}-{name}",
            docs=name in GAMES or (size == "phone" and name in tables.pages()),
            whole=size == "tablet" and name in GAMES,
        )
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


# A hand tile's words against its colour (WCAG contrast), the opacity it is drawn with (its own
# and its ancestors'), and its frame's style.
TILE_LOOK = """(node) => {
  const channels = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = channels(c).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let opacity = 1;
  for (let n = node; n; n = n.parentElement) opacity *= parseFloat(getComputedStyle(n).opacity);
  const words = getComputedStyle(node.querySelector("small")).color;
  const [a, b] = [lum(words), lum(getComputedStyle(node).backgroundColor)].sort((x, y) => y - x);
  return { ratio: (a + 0.05) / (b + 0.05), opacity, frame: getComputedStyle(node).borderTopStyle };
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_a_tap_shows_a_power(tables: Tables, browser: WatchedBrowser, game: str) -> None:
    page = tables.open(browser, game, PHONE, has_touch=True, is_mobile=True)
    panel = page.locator("#power-panel")
    if game == "voluspa":
        # A tile of the deal with a power (the picture shows one): not of the kinds that share
        # one power text, the absence of a power.
        from meadhall.games.voluspa.tiles import KINDS

        plain = Counter(kind.power for kind in KINDS).most_common(1)[0][0]
        powers = {kind.code: kind.power for kind in KINDS}
        codes = page.locator("#hand .hand-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)")
        powered = [index for index, code in enumerate(codes) if powers[code] != plain]
        assert powered, f"the deal {codes} has no tile with a power"
        shown = powered[0]
        # A tile a player cannot place now is a disabled button: it still shows its power; its
        # words stay legible (WCAG AA: 4.5:1, not faded) and a dashed frame marks it.
        idle = next(index for index in range(len(codes)) if index != shown)
        page.evaluate(f"() => document.querySelectorAll('#hand .hand-tile')[{idle}].setAttribute('disabled', '')")
        tile = page.locator("#hand .hand-tile").nth(idle)
        look = tile.evaluate(TILE_LOOK)
        assert look["ratio"] >= 4.5 and look["opacity"] == 1, f"a disabled hand tile is hard to read: {look}"
        assert look["frame"] == "dashed", look
        said = tile.get_attribute("title")
        tile.tap(force=True)  # a disabled button: tapped all the same
        panel.wait_for()
        assert panel.locator("#power-text").inner_text().strip() == said.strip()
        assert page.locator(".mh-tapped").count() == 1 and "mh-tapped" in tile.get_attribute("class")
        panel.get_by_role("button", name="Close").tap()
        assert panel.is_hidden() and page.locator(".mh-tapped").count() == 0, "a closed panel leaves no mark"
        target = page.locator("#hand .hand-tile").nth(shown)
        said = target.get_attribute("title")
        marked = f"#hand .hand-tile.mh-tapped[data-index='{shown}']"
    else:
        # Something of the board with a power: a region of the map, a god area.
        thing = {
            "bloodrage-valhalla": "svg#br-map g.region:has(circle.valhalla)",  # the middle: in the first view
            "valda": "svg#va-map g.god-area",
        }[game]
        shape = page.locator(thing).first
        said = shape.evaluate("(node) => [...node.children].find((c) => c.tagName === 'title').textContent")
        target = shape.locator(".area")  # its shape on the map
        marked = f"{thing}.mh-tapped"
    assert said.strip()
    target.scroll_into_view_if_needed()
    target.tap(force=game == "voluspa")  # a hand tile: disabled while it is not one's turn
    panel.wait_for()
    assert panel.locator("#power-text").inner_text().strip() == said.strip().replace("\r", "")
    # What was tapped is marked on the board (a ring, or a halo round a shape), and only that.
    page.wait_for_selector(marked)
    assert page.locator(".mh-tapped").count() == 1
    style = page.locator(marked).evaluate("(n) => [getComputedStyle(n).outlineStyle, getComputedStyle(n).filter]")
    assert style[0] == "solid" if game == "voluspa" else "drop-shadow" in style[1], style
    keep(page, f"phone-{game}-power")
    panel.get_by_role("button", name="Close").tap()
    assert panel.is_hidden()
    assert page.locator(".mh-tapped").count() == 0


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
            keep(page, f"desktop-{name}", docs=name in GAMES, whole=True)
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


# What a newcomer judging the screenshots found (issue 21, docs/screenshots, round 2) ------------------


@NEEDS_AXE
def test_the_phone_header_is_one_row_with_a_menu_for_the_keyboard(tables: Tables, browser: WatchedBrowser) -> None:
    page = tables.open(browser, "lobby", PHONE, bypass_csp=True)
    header = page.locator("header.top")
    menu = header.get_by_role("button", name="Menu")
    assert header.bounding_box()["height"] <= 60, f"the phone's header wraps: {header.bounding_box()}"
    assert header.get_by_role("link", name="Lobby").is_visible() and menu.is_visible()
    assert not header.get_by_role("link", name="Rules").is_visible(), "the rest is folded behind Menu"
    # By keyboard: Tab to the button, Enter opens it, Tab goes into it, Escape closes it and comes back.
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "menu-button":
            break
    assert page.evaluate("() => document.activeElement.id") == "menu-button"
    assert menu.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true"
    for name in ("Leaderboard", "Rules"):
        assert header.get_by_role("link", name=name).is_visible()
    assert page.locator("#me-link").is_visible() and page.locator("#logout").is_visible()
    assert not page.evaluate(SMALL_TEXT, SMALLEST_PX)
    assert not axe_violations(page), "the open menu"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#top-menu') !== null"), "Tab goes into the menu"
    page.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.id") == "menu-button"
    assert not header.get_by_role("link", name="Rules").is_visible()
    page.context.close()
    # A wide screen shows it all in one row, and no Menu button.
    desktop = tables.open(browser, "lobby", {"width": 1280, "height": 900})
    assert not desktop.locator("header.top").get_by_role("button", name="Menu").is_visible()
    assert (
        desktop.locator("header.top").get_by_role("link", name="Rules").is_visible()
        and desktop.locator("#me-link").is_visible()
    )
    assert desktop.locator("header.top").bounding_box()["height"] <= 60


def test_the_replay_counter_sits_with_its_step_buttons(tables: Tables, browser: WatchedBrowser) -> None:
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        page = tables.open(browser, "replay", viewport)
        group = page.get_by_role("group", name="Steps of the game").bounding_box()
        label = page.locator("#step-label").bounding_box()
        back = page.get_by_role("button", name="One step back").bounding_box()
        zoom = page.get_by_role("button", name="Zoom in").bounding_box()
        assert page.locator("#step-label").inner_text().startswith("Step 0 of ")
        inside = group["y"] <= label["y"] and label["y"] + label["height"] <= group["y"] + group["height"]
        assert inside, ("the counter is in the steps' group", group, label)
        middle = label["y"] + label["height"] / 2
        assert middle <= back["y"] + back["height"], ("the counter heads its buttons or sits in their row", label, back)
        assert zoom["y"] >= group["y"] + group["height"], ("the zoom buttons are below the steps' group", group, zoom)
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_voluspa_hand_tiles_alike_and_the_values_under_the_board(
    tables: Tables, browser: WatchedBrowser, size: str
) -> None:
    page = tables.open(browser, "voluspa", PHONE if size == "phone" else {"width": 1280, "height": 900})
    tiles = page.locator("#hand .hand-tile")
    heights = set()
    for index in range(tiles.count()):
        tile = tiles.nth(index)
        name = tile.locator(".tile-name").bounding_box()
        value = tile.locator(".tile-value").bounding_box()
        assert value["y"] >= name["y"] + name["height"] - 0.5, (
            f"{tile.inner_text()!r}: its value is on a line of its own"
        )
        box = tile.bounding_box()
        assert value["y"] + value["height"] <= box["y"] + box["height"], f"{tile.inner_text()!r}: its value inside it"
        heights.add(round(box["height"]))
    assert len(heights) == 1, f"the hand's tiles differ in height: {heights}"
    # The lowered values (the game's words: "Fenrir, worth 0 now ...") are the board's caption:
    # joined to its foot, in its colour, above the hand. Shown here whatever the deal.
    page.evaluate("() => { const v = document.querySelector('#vo-values'); v.hidden = false; v.textContent ||= '·'; }")
    board = page.locator("svg#board").bounding_box()
    values = page.locator("#vo-values").bounding_box()
    hand = page.locator("#hand").bounding_box()
    assert abs(values["y"] - (board["y"] + board["height"])) <= 1, (board, values)
    assert values["y"] + values["height"] <= hand["y"], (values, hand)
    colours = page.evaluate(
        "() => ['svg#board', '#vo-values'].map((s) => getComputedStyle(document.querySelector(s)).backgroundColor)"
    )
    assert colours[0] == colours[1], colours


def test_the_last_move_has_a_key(tables: Tables, browser: WatchedBrowser) -> None:
    for name in [*GAMES, "replay"]:
        page = tables.open(browser, name, {"width": 1280, "height": 900})
        if name == "replay":  # the last step: its move marked
            page.get_by_role("button", name="The end").click()
            page.wait_for_selector("#game-area .last-move")
        said = page.evaluate("() => document.querySelector('#board-key-words').content.textContent.trim()")
        key = page.locator("#game-area .board-tools .board-key")
        marked = page.locator("#game-area .last-move").count() > 0
        assert key.count() == 1 and key.is_visible() == marked, (name, marked)
        if marked:
            assert key.inner_text().strip() == said, "the key's words are the page's, from the server"
        page.context.close()


def test_a_profile_without_mail_offers_nothing_to_set(tables: Tables, browser: WatchedBrowser) -> None:
    page = tables.open(browser, "profile", PHONE)
    page.wait_for_selector("#notifications:not([hidden]) h2")
    assert page.locator("#no-mail").is_visible(), "this test server sends no e-mail: the page says so"
    assert page.locator("#notifications input").count() == 0, "no address field or boxes that would do nothing"


@pytest.mark.parametrize("size", ["desktop", "tablet"])
def test_a_draft_card_is_kept_by_a_button_in_the_picture(tables: Tables, browser: WatchedBrowser, size: str) -> None:
    viewport = {"width": 1280, "height": 900} if size == "desktop" else TABLET
    page = tables.open(browser, "bloodrage-valhalla", viewport)
    page.wait_for_selector("#hand button.br-card[data-action]")
    cards = page.locator("#hand button.br-card[data-action]")
    height = decision_height(page)
    for index in range(cards.count()):
        card = cards.nth(index)
        face = card.locator(".card-act")
        label = face.inner_text().strip()
        assert label and page.get_by_role("button", name=label).count() >= 1, "its move is in its accessible name"
        look = face.evaluate("(n) => [getComputedStyle(n).fontStyle, getComputedStyle(n).backgroundColor]")
        assert look[0] == "normal" and look[1] not in ("rgba(0, 0, 0, 0)", "transparent"), look
        card.focus()
        assert page.evaluate("(n) => document.activeElement === n", card.element_handle()), "focusable"
        box = card.bounding_box()
        bottom = box["y"] + box["height"] + page.evaluate("() => scrollY")
        assert bottom <= height, f"{label} is below the picture ({bottom} > {height})"
