"""On a phone (390×844), the words on Blood Rage's map and Valda's world map clear every icon.

The boards draw their text no smaller than 11 CSS pixels (MH.PanZoom makes a label larger
when the whole board is shown on a narrow screen), so a layout that fits on a desktop could
put a region's name on its token or a temple's name on its god. Here each board is opened
at a phone's size, as the game stands after a few moves and again drawn with a crowded view
(Blood Rage: figures of every clan in every region, gods, region tokens closing regions and
a battle's mark; Valda: every construction site built), and the drawn boxes of the texts
(getBoundingClientRect: what the screen shows) are measured against each other and against
the boxes of every icon, token, figure and site: no two may meet.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, api_call, register, shot
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

PHONE = {"width": 390, "height": 844}
# Each game: its board, its bots, and what on it is an icon (a box the words must clear). A
# region token's number is drawn on its stone: it is measured as part of the stone.
GAMES: dict[str, dict[str, Any]] = {
    "bloodrage-valhalla": {
        "board": "svg#br-map",
        "bots": 2,
        "icons": "svg.mh-icon, .reward-token, .figure, .region-stone, .battle-mark",
        "on_icons": ".stone-number",
        "plates": "",  # the regions share their borders
    },
    "valda": {
        "board": "svg#va-map",
        "bots": 1,
        "icons": "svg.mh-icon, .site",
        "on_icons": "",
        "plates": "g.god-area > rect.area",  # the god areas: apart from each other
    },
}

# Every pair of boxes that meet: a text and another text, or a text and an icon (a gap under
# half a CSS pixel counts as meeting). Texts of a motion's +N (gone a moment later) are left out.
CLASHES = """([board, icons, onIcons]) => {
  const svg = document.querySelector(board);
  const what = (n) => (n.textContent || n.getAttribute("data-icon") || "").trim().slice(0, 20);
  const named = (n) => `${n.getAttribute("class") || n.tagName} "${what(n)}"`;
  const shown = (n) => { const r = n.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : null; };
  const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim()
    && !t.classList.contains("mh-delta") && !(onIcons && t.matches(onIcons)));
  const marks = [...svg.querySelectorAll(icons)].filter((n) => !n.closest(".figure-ghost"));
  const meet = (a, b) => a.left < b.right + 0.5 && b.left < a.right + 0.5
    && a.top < b.bottom + 0.5 && b.top < a.bottom + 0.5;
  const found = [];
  texts.forEach((t, i) => {
    const a = shown(t);
    if (!a) return;
    for (const other of [...texts.slice(i + 1), ...marks]) {
      const b = shown(other);
      if (b && meet(a, b)) found.push(`${named(t)} meets ${named(other)}`);
    }
  });
  return { found, texts: texts.length, icons: marks.length };
}"""

# Every pair of a board's areas (its plates) that meet or come closer than 2 CSS px.
PLATES_MEET = """([board, plates]) => {
  const boxes = [...document.querySelector(board).querySelectorAll(plates)].map((n) => n.getBoundingClientRect());
  const found = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, k) => {
    const meet = a.left < b.right + 2 && b.left < a.right + 2 && a.top < b.bottom + 2 && b.top < a.bottom + 2;
    if (meet) found.push([i, i + 1 + k]);
  }));
  return boxes.length > 1 ? found : ["fewer than two areas"];
}"""

# A crowded view of the table as the page drew it, drawn again by the game's plugin.
CROWDED = {
    "bloodrage-valhalla": """(data) => {
  const view = JSON.parse(JSON.stringify(data.view));
  const regions = [...document.querySelectorAll('#br-map g.region')].map((g) => g.dataset.region);
  const kinds = ['warrior', 'elite', 'warrior', 'warrior'];
  view.board = {};
  regions.forEach((id, i) => {
    view.board[id] = Array.from({ length: 3 + (i % 3) }, (_, k) => [k % 3, kinds[k % 4]]);
  });
  const outer = regions.filter((id) => id !== 'valhalla');
  view.region_tokens = outer.filter((_, i) => i % 3 === 1);
  const gods = Object.values(view.gods_at || {});
  view.gods_at = {};
  outer.filter((_, i) => i % 3 === 2).forEach((id, i) => {
    view.gods_at[id] = gods[i % Math.max(1, gods.length)] || 'freya';
  });
  view.battle = { region: outer[0] };
  return view;
}""",
    "valda": """(data) => {
  const view = JSON.parse(JSON.stringify(data.view));
  const gods = [...document.querySelectorAll('#va-map g.god-area')].map((g) => g.dataset.god);
  const seats = (view.seats || []).length || 2;
  view.sites = {};
  gods.forEach((id, i) => { view.sites[id] = Array.from({ length: 2 + (i % 2) }, (_, k) => (i + k) % seats); });
  return view;
}""",
}
DRAW = """([game, view]) => {
  window.MeadhallGames[game].render({ version: window.__mhVersion, view, events: [], actions: [] },
    { seatName: (n) => `Seat ${n + 1}`, send: () => null });
}"""


def _table(page: Any, game: str, bots: int) -> str:
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "beginner"}] * bots
    made = api_call(page, "POST", "/api/tables", {"game": game, "seats": seats})
    api_call(page, "POST", f"/api/tables/{made['id']}/start", {})
    return str(made["id"])


def _clashes(page: Any, game: str) -> dict[str, Any]:
    info = GAMES[game]
    result: dict[str, Any] = page.evaluate(CLASHES, [info["board"], info["icons"], info["on_icons"]])
    return result


@pytest.mark.parametrize("game", list(GAMES))
def test_words_on_the_board_clear_the_icons_on_a_phone(site: RunningServer, browser: WatchedBrowser, game: str) -> None:
    info = GAMES[game]
    page = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    register(page, site.url, "ann")
    table_id = _table(page, game, info["bots"])
    page.goto(f"{site.url}/t/{table_id}")
    page.wait_for_selector(f"{info['board']} text")
    page.wait_for_selector("#game:not([hidden])")
    page.evaluate("() => document.fonts.ready")
    time.sleep(1)  # the bots' first moves (a draft is chosen at once) redraw the board: done by now
    assert page.locator(info["board"]).get_attribute("data-view") == "whole"
    # The words are drawn larger than on a desktop (the whole board at a phone's width).
    least = page.evaluate(
        "(b) => Math.min(...[...document.querySelectorAll(`${b} text`)].map((t) => t.getBoundingClientRect().height))",
        info["board"],
    )
    assert least >= 11, least
    as_dealt = _clashes(page, game)
    shot(page, f"labels-{game}")
    assert as_dealt["texts"] > 10 and as_dealt["icons"] > 10, as_dealt
    assert not as_dealt["found"], f"{game} on a phone: {as_dealt['found']}"
    if info["plates"]:
        touching = page.evaluate(PLATES_MEET, [info["board"], info["plates"]])
        assert touching == [], f"{game} on a phone: these areas meet: {touching}"

    # The same board, crowded.
    state = page.request.get(f"{site.url}/api/tables/{table_id}/state").json()
    view = page.evaluate(CROWDED[game], state)
    for _ in range(10):  # a bot's move arriving just then redraws the board as it stands: draw it crowded again
        page.evaluate(DRAW, [game, view])
        page.wait_for_function(
            "(b) => [...document.querySelectorAll(`${b} text`)].every((t) => t.hasAttribute('data-mh-size'))",
            arg=info["board"],
            timeout=HANG_GUARD_MS,
        )
        crowded = _clashes(page, game)
        if crowded["icons"] > as_dealt["icons"]:
            break
        time.sleep(1)
    shot(page, f"labels-{game}-crowded")
    assert crowded["icons"] > as_dealt["icons"], (as_dealt, crowded)
    assert not crowded["found"], f"{game} on a phone, crowded: {crowded['found']}"
