"""Targets in Debian's Firefox ESR (over Marionette): on Völuspá's board, the pointer resting
on a target cell shows its points, and the keyboard alone plays a move (Tab to the hand,
Enter chooses a tile, the focus moves to the target cells, Enter plays)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import FIREFOX
from tests.e2e.marionette import ELEMENT, Firefox, MarionetteError
from tests.e2e.test_firefox import ARTIFACTS, ERRORS, new_table, start, state
from tests.server.conftest import RunningServer, make_settings

pytestmark = pytest.mark.skipif(
    not Path(FIREFOX).exists(), reason=f"no Firefox at {FIREFOX} (set MEADHALL_FIREFOX); Firefox test skipped"
)
TAB, ENTER = "\ue004", "\ue007"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'firefox.sqlite3'}", login_rate=1000)
    with RunningServer(settings) as running:
        yield running


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Firefox]:
    ff = Firefox(FIREFOX, tmp_path / "profile", width=1280, height=900)
    try:
        yield ff
    finally:
        ff.close()


def _key(ff: Firefox, key: str) -> None:
    actions = [
        {"type": "key", "id": "keys", "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}
    ]
    ff.command("WebDriver:PerformActions", {"actions": actions})
    ff.command("WebDriver:ReleaseActions")


def _point_at(ff: Firefox, element: str) -> None:
    move = {"type": "pointerMove", "duration": 0, "origin": {ELEMENT: element}, "x": 0, "y": 0}
    actions = [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [move]}]
    ff.command("WebDriver:PerformActions", {"actions": actions})


def _active(ff: Firefox, selector: str) -> bool:
    return bool(
        ff.run("return Boolean(document.activeElement && document.activeElement.matches(arguments[0]));", selector)
    )


def _my_turn(ff: Firefox, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the seat was never asked to move"
        mine = state(ff, table_id)
        if mine.get("legal"):
            ff.wait_until("return window.__mhVersion >= arguments[0];", mine["version"])
            return mine
        time.sleep(0.05)


def test_voluspa_targets_by_pointer_and_keyboard_in_firefox(server: RunningServer, browser: Firefox) -> None:
    ff, base = browser, server.url
    new_table(ff, base, "Fern", "voluspa")
    ff.click("#create-form button[type=submit]")
    ff.wait_until("return location.pathname.startsWith('/t/');")
    table_id = ff.url().rsplit("/", 1)[-1]
    ff.run(ERRORS)
    start(ff)
    mine = _my_turn(ff, table_id)

    ff.click("#hand .hand-tile.playable")
    _point_at(ff, ff.wait_for("svg#board rect.target"))
    ff.wait_until(
        "const p = document.getElementById('mh-preview');"
        "return Boolean(p && !p.hidden && p.textContent.includes('point'));"
    )
    _key(ff, "\ue00c")  # Escape: the tile goes back
    ff.wait_until("return !document.querySelector('svg#board rect.target');")

    ff.run("document.activeElement && document.activeElement.blur();")
    for _ in range(80):
        _key(ff, TAB)
        if _active(ff, "#hand .hand-tile"):
            break
    assert _active(ff, "#hand .hand-tile"), "Tab never reached the hand"
    _key(ff, ENTER)
    ff.wait_until("return Boolean(document.activeElement && document.activeElement.matches('svg#board rect.target'));")
    ff.wait_until("const p = document.getElementById('mh-preview'); return Boolean(p && !p.hidden);")
    ff.screenshot(ARTIFACTS / "firefox-targets-keyboard.png")
    _key(ff, ENTER)
    if ff.run("const c = document.querySelector('#chooser'); return Boolean(c && !c.hidden);"):
        _key(ff, ENTER)
    ff.wait_until("return window.__mhVersion > arguments[0];", mine["version"])
    assert ff.run("return window.__errors;") == []


def test_a_region_with_no_move_says_why_in_firefox(server: RunningServer, browser: Firefox) -> None:
    """Blood Rage's map in Firefox: the pointer resting on a region with no move now (the draft:
    every region) shows what it is and why nothing can be done there, in the game's words."""
    ff, base = browser, server.url
    new_table(ff, base, "Fern", "bloodrage-valhalla")
    ff.select("#players-select", "3")
    ff.select("select[name=seat-2]", "bot")
    ff.select("select[name=bot-2]", "beginner")
    ff.click("#create-form button[type=submit]")
    ff.wait_until("return location.pathname.startsWith('/t/');")
    table_id = ff.url().rsplit("/", 1)[-1]
    ff.run(ERRORS)
    start(ff)
    _my_turn(ff, table_id)
    time.sleep(1)  # the bots have drafted too: the map stays as it is
    _my_turn(ff, table_id)
    ff.wait_for("#br-map g.region[data-place]")
    name = ff.run("return document.querySelector('#br-map g.region[data-place]').getAttribute('data-place');")
    said = ff.run(
        "return fetch(`/api/tables/${arguments[0]}/preview?target=${encodeURIComponent(arguments[1])}`)"
        ".then((r) => r.json()).then((d) => d.preview);",
        table_id,
        f'{{"region": "{name}"}}',
    )
    assert not said["legal"] and said["refusal"]
    shown = "const p = document.getElementById('mh-preview');" + (
        "return Boolean(p && !p.hidden && p.classList.contains('illegal') && p.textContent.includes(arguments[0]));"
    )
    for _ in range(5):  # a bot's move redraws the map under the pointer: point at it anew
        _point_at(ff, ff.wait_for("#br-map g.region[data-place]"))
        try:
            ff.wait_until(shown, said["title"], timeout=10)
            break
        except MarionetteError:
            _point_at(ff, ff.wait_for("#status-line"))  # off the map: the next pointing is a new hover
    else:
        raise AssertionError("the preview of a region with no move never showed")
    ff.screenshot(ARTIFACTS / "firefox-places-bloodrage.png")
    assert not ff.run("return Boolean(document.querySelector('#game.pending'));"), "a place played a move"
    assert ff.run("return window.__errors;") == []
