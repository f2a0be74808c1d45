"""End to end in Debian's stock Firefox (``firefox-esr``), driven over Marionette.

A person registers, sets up a Völuspá table against a bot, and plays the whole game by
clicking tiles and cells; the end screen and the log must come up and the page must
raise no error. Screenshots go to test-artifacts/e2e/firefox-*.png. Without Firefox the
test skips and says why (``make test`` installs it when it can).
"""

from __future__ import annotations

import contextlib
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import FIREFOX
from tests.e2e.marionette import Firefox, MarionetteError
from tests.server.conftest import RunningServer, make_settings

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"

pytestmark = pytest.mark.skipif(
    not Path(FIREFOX).exists() or shutil.which(FIREFOX) is None,
    reason=f"no Firefox at {FIREFOX} (apt-get install firefox-esr, or set MEADHALL_FIREFOX); Firefox test skipped",
)

# Page errors, rejected promises nobody handled, and console errors the page's scripts log.
ERRORS = (
    "window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(String(e.message)));"
    "window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));"
    "const logged = console.error.bind(console);"
    "console.error = (...args) => { window.__errors.push(args.map(String).join(' ')); logged(...args); };"
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'firefox.sqlite3'}", login_rate=1000)
    with RunningServer(settings) as running:
        yield running


def state(ff: Firefox, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = ff.run("return fetch(`/api/tables/${arguments[0]}/state`).then((r) => r.json());", table_id)
    return data


def start(ff: Firefox) -> None:
    """Press Start until the game shows (the waiting room redraws itself as updates arrive,
    and a click can land on a button that is being replaced)."""
    for _ in range(3):
        button = ff.find("#start-button")
        if button is not None:
            with contextlib.suppress(MarionetteError):  # replaced under the click: try again
                ff.command("WebDriver:ElementClick", {"id": button})
        try:
            ff.wait_until("const g = document.getElementById('game'); return Boolean(g && !g.hidden);", timeout=60)
            return
        except MarionetteError:
            continue
    raise AssertionError("the game did not start")


def register(ff: Firefox, base: str, name: str) -> None:
    """Register ``name`` through the sign-in page; ends in the lobby, signed in."""
    ff.goto(f"{base}/signin")
    ff.type("#register-form input[name=name]", name.lower())
    ff.type("#register-form input[name=display_name]", name)
    ff.type("#register-form input[name=password]", "a long enough password")
    ff.click("#register-form button[type=submit]")
    ff.wait_until("return location.pathname === '/lobby' && Boolean(document.querySelector('#me-link'));")


def new_table(ff: Firefox, base: str, name: str, game: str) -> None:
    """Register ``name`` and fill in the lobby's form: ``game``, two seats, a beginner bot in the second."""
    register(ff, base, name)
    ff.select("#game-select", game)
    ff.select("#players-select", "2")
    ff.select("select[name=seat-1]", "bot")
    ff.select("select[name=bot-1]", "beginner")


def open_table(ff: Firefox, base: str, name: str, game: str, screenshot: str = "") -> str:
    """Make a table of ``game`` with a bot through the form (``screenshot``: of the filled form), start it; its id."""
    new_table(ff, base, name, game)
    if screenshot:
        ff.screenshot(ARTIFACTS / screenshot)
    ff.click("#create-form button[type=submit]")
    ff.wait_until("return location.pathname.startsWith('/t/');")
    table_id = ff.url().rsplit("/", 1)[-1]
    ff.run(ERRORS)
    ff.wait_for("#start-button")
    start(ff)
    return table_id


def decisions(ff: Firefox, table_id: str) -> Iterator[dict[str, Any]]:
    """Each state where the user decides, once the page shows it, until the game ends.

    A response window the server answers for the user (it offers nothing but a pass) is
    waited out; after each state the page must move on before the next is read.
    """
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the game took too long"
        mine = state(ff, table_id)
        if mine["view"]["finished"]:
            return
        if not mine.get("legal") or mine.get("answered"):
            time.sleep(0.05)  # another seat's turn, or a window the server passes
            continue
        ff.wait_until("return window.__mhVersion >= arguments[0];", mine["version"])
        yield mine
        ff.wait_until("return window.__mhVersion > arguments[0];", mine["version"])


def play_one(ff: Firefox, action: str) -> None:
    """One Völuspá move through the page's controls: a tile, then a cell (and a choice)."""
    if action == "end":
        ff.click("#end-turn")
        return
    if action.startswith("discard:"):
        ff.click(f'#turn-actions button[data-action="{action}"]')
        return
    step = action.split()[-1]
    code, rest = step.split("@", 1)
    x, y = rest.split(">")[0].split(":")[0].split(",")
    cell = f'svg .targets rect[data-x="{x}"][data-y="{y}"]'
    if ff.find(cell) is None:
        ff.click(f'#hand button[data-tile="{code}"]:not([disabled])')
    ff.click(cell)
    if ff.run("const c = document.querySelector('#chooser'); return Boolean(c && !c.hidden);"):
        ff.click(f'#chooser button.choice[data-action="{action}"]')


def test_a_whole_voluspa_game_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    ff, base = firefox, site.url
    table_id = open_table(ff, base, "Fern", "voluspa", "firefox-01-create-table.png")
    ff.wait_for("svg .targets rect, #hand button[data-tile]")
    ff.screenshot(ARTIFACTS / "firefox-02-table.png")
    choose = random.Random(3)
    moves = 0
    for mine in decisions(ff, table_id):
        play_one(ff, choose.choice(mine["legal"]))
        moves += 1
    ff.wait_for("#end-panel:not([hidden])")
    ff.screenshot(ARTIFACTS / "firefox-03-end-screen.png")
    assert "1." in ff.run("return document.querySelector('#end-screen').innerText;")
    assert "scores" in ff.run("return document.querySelector('#log').innerText;")
    assert moves > 10
    assert ff.run("return window.__errors;") == []


def test_a_valda_game_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    ff, base = firefox, site.url
    table_id = open_table(ff, base, "Gale", "valda")
    ff.wait_for("#va-map g.god-area[data-god=odin]")
    choose = random.Random(4)
    moves = 0
    for mine in decisions(ff, table_id):
        legal = mine["legal"]
        busy = [a for a in legal if a not in ("done", "pass", "yield")]
        action = choose.choice(busy if busy and choose.random() < 0.8 else legal)
        kind, _, god = action.partition(":")
        if kind == "build" and ff.find(f'#va-map g.god-area[data-god="{god}"] .area.target') is not None:
            ff.click(f'#va-map g.god-area[data-god="{god}"] .area')
        else:
            ff.click(f'#game-area button[data-action="{action}"]')
        moves += 1
    ff.wait_for("#end-panel:not([hidden])")
    ff.screenshot(ARTIFACTS / "firefox-04-valda-end-screen.png")
    assert "follower" in ff.run("return document.querySelector('#end-screen').innerText;")
    assert "Round 6 of 6 begins" in ff.run("return document.querySelector('#log').innerText;")
    assert moves > 30
    assert ff.run("return window.__errors;") == []
