"""Motion for what just happened (issue 21, item 7), end to end in Chromium.

A person plays each game against bots; the moves are made through the page (Völuspá: a
tile, then a cell) or the API, and every update reaches the page live over its socket.
The board must show each kind of motion the events call for, as CSS animations actually
running on the page (``window.__mhMotions``: each motion played, with how many animations
the browser runs on its element): Völuspá's placed tile dropping in, Blood Rage's figures
marching and falling and a battle's flash, Valda's dice rolling, followers moving on the
track and temples rising, and the points or Glory pulsing with +N. A page opened on a game
under way shows none (only live events move). With reduced motion asked for, the same
live moves play no motion at all: nothing recorded, no animation running, and even a
motion forced on an element runs none (the stylesheet's guard).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.e2e.conftest import (
    HANG_GUARD_MS,
    NEEDS_CHROMIUM,
    WatchedBrowser,
    api_call,
    decisions,
    register,
    shot,
)
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

# The motions each game must show, with the bots it plays against.
GAMES = {
    "voluspa": ({"mh-drop", "mh-pulse"}, 1),
    "bloodrage-valhalla": ({"mh-march", "mh-battle", "mh-fall", "mh-pulse"}, 2),
    "valda": ({"mh-roll", "mh-advance", "mh-build", "mh-pulse"}, 1),
}
MOTIONS = "() => (window.__mhMotions || [])"


def _table(page: Any, game: str, bots: int) -> str:
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "beginner"}] * bots
    made = api_call(page, "POST", "/api/tables", {"game": game, "seats": seats})
    api_call(page, "POST", f"/api/tables/{made['id']}/start", {})
    return str(made["id"])


def _play(page: Any, game: str, mine: dict[str, Any], choose: random.Random) -> None:
    """One move: Völuspá's through the page's hand and board, the others' over the API."""
    if game == "voluspa" and page.locator("#hand .hand-tile.playable").count():
        page.locator("#hand .hand-tile.playable").first.click()
        page.locator("svg#board .target").first.click()
        choice = page.locator("#chooser:not([hidden]) button[data-action]")
        if choice.count():
            choice.first.click()
        return
    legal = mine["legal"]
    busy = [a for a in legal if a not in ("done", "pass", "yield", "end")]
    action = choose.choice(busy if busy and choose.random() < 0.85 else legal)
    table_id = page.url.rsplit("/", 1)[-1]
    # A bot may have moved meanwhile (a draft is chosen at once): a stale move is chosen again.
    answer = page.evaluate(
        "([p, b]) => MH.api('POST', p, b).then(() => 'played', (e) => e.code)",
        [f"/api/tables/{table_id}/actions", {"action": action, "version": mine["version"]}],
    )
    assert answer in ("played", "stale"), answer


def _seen(page: Any) -> set[str]:
    """The motions played so far whose element ran a CSS animation."""
    return {m["name"] for m in page.evaluate(MOTIONS) if m["running"] > 0}


@pytest.mark.parametrize("game", list(GAMES))
def test_live_events_move_on_the_board(site: RunningServer, browser: WatchedBrowser, game: str) -> None:
    wanted, bots = GAMES[game]
    # A stale move (a bot chose at the same time) is refused with a 409, and chosen again.
    browser.allow(r"/actions: Failed to load resource: the server responded with a status of 409")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    register(page, site.url, "ann")
    table_id = _table(page, game, bots)
    page.goto(f"{site.url}/t/{table_id}")
    page.wait_for_selector("#game:not([hidden])")
    choose = random.Random(7)
    deadline = time.monotonic() + 600
    shot_taken = False
    for mine in decisions(page, site.url, table_id):
        assert time.monotonic() < deadline, f"no {wanted - _seen(page)} after ten minutes"
        seen = _seen(page)
        if not shot_taken and seen & {"mh-drop", "mh-march", "mh-roll"}:
            shot(page, f"motion-{game}")
            shot_taken = True
        if wanted <= seen:
            break
        _play(page, game, mine, choose)
    assert wanted <= _seen(page), f"{game}: no {wanted - _seen(page)} in a whole game"
    motions = page.evaluate(MOTIONS)
    assert any(m["name"] == "mh-pulse" and m["delta"] > 0 for m in motions), "no +N on a score"
    if game == "bloodrage-valhalla":
        assert {"mh-win", "mh-lose"} & _seen(page), "a battle without its winner's or losers' flash"

    # Opened again on the game under way: the last move is marked, nothing moves.
    version = page.evaluate("window.__mhVersion")
    page.reload()
    page.wait_for_function("v => window.__mhVersion >= v", arg=version, timeout=HANG_GUARD_MS)
    assert page.evaluate(MOTIONS) == []


def test_reduced_motion_plays_none(site: RunningServer, browser: WatchedBrowser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, reduced_motion="reduce")
    page = context.new_page()
    register(page, site.url, "ann")
    table_id = _table(page, "voluspa", 1)
    page.goto(f"{site.url}/t/{table_id}")
    page.wait_for_selector("#game:not([hidden])")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    choose = random.Random(5)
    for moves, mine in enumerate(decisions(page, site.url, table_id), start=1):
        _play(page, "voluspa", mine, choose)
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
        # A move that arrived live: its events are there, drawn at once, and nothing runs.
        assert page.evaluate("document.getAnimations().length") == 0
        if moves == 3:
            break
    assert page.evaluate(MOTIONS) == []
    page.wait_for_selector("svg#board .tile.last-move")  # the static mark of the last move stays
    # A motion forced on a tile runs no animation: the stylesheet's guard for reduced motion.
    running = page.evaluate(
        "() => MH.animate(document.querySelector('svg#board .tile'), 'mh-drop', { delta: 2 }).getAnimations().length"
    )
    assert running == 0
    shot(page, "motion-reduced")


# Völuspá's rarer placements, drawn by its plugin as the server would send them: a tile placed
# over another (``covered``) and one that pushed a tile on to the next cell (``bumped``, ``to``).
RARE_PLACEMENTS = """(version) => {
  MH.liveUpdate(version);
  const view = { board: [{ x: 0, y: 0, tile: "OD" }, { x: 1, y: 0, tile: "TH" }], hand: [] };
  const events = [{ kind: "placed", seat: 0, tile: "OD", x: 0, y: 0, covered: "TR" },
                  { kind: "placed", seat: 0, tile: "OD", x: 0, y: 0, bumped: "TH", to: [1, 0] }];
  window.MeadhallGames.voluspa.render({ version, view, events, actions: [] }, { seatName: (n) => `Seat ${n + 1}` });
  return (window.__mhMotions || []).filter((m) => m.running > 0).map((m) => m.name);
}"""


def test_voluspa_covered_and_bumped_tiles_move(site: RunningServer, browser: WatchedBrowser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    register(page, site.url, "ann")
    table_id = _table(page, "voluspa", 1)
    page.goto(f"{site.url}/t/{table_id}")
    page.wait_for_selector("#hand .hand-tile.playable")  # ann's turn: no update redraws the board meanwhile
    page.evaluate("() => { window.__mhMotions = []; }")
    seen = page.evaluate(RARE_PLACEMENTS, 10_000)
    assert {"mh-drop", "mh-leave", "mh-bump"} <= set(seen), seen
    assert page.locator("svg#board .tile-ghost").count() == 1  # the covered tile, on its way out
    page.wait_for_selector("svg#board .tile-ghost", state="detached")  # gone once its motion ends
