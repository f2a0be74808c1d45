"""Confirming a turn on the table page, in Debian's stock Firefox (``firefox-esr``) over Marionette.

Ann plays a toy game (tests/plugins/meadhall-toy) in Firefox against Bob, who plays over
the API, at a table played at one's own pace, where each turn waits for its Confirm. When
Ann leads a round she clicks a rune: only her page shows it, with Confirm and Undo, and Bob
sees nothing; Undo drops it; played again and confirmed, Bob's state shows it and Bob is
to answer. Without Firefox the test skips and says why.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ARTIFACTS, ERRORS, FIREFOX, pytestmark  # noqa: F401
from tests.e2e.test_undo_firefox import POST
from tests.server.conftest import Player, RunningServer, make_settings


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    # Response windows wait a second: the table does not answer for a seat while Ann clicks.
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'confirm-firefox.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        response_pause_min=1.0,
        response_pause_max=1.0,
    )
    with RunningServer(settings) as running:
        yield running


@pytest.fixture
def firefox(tmp_path: Path) -> Iterator[Firefox]:
    browser = Firefox(FIREFOX, tmp_path / "profile", width=1024, height=768)
    try:
        yield browser
    finally:
        browser.close()


def _state(ff: Firefox, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = ff.run("return fetch(`/api/tables/${arguments[0]}/state`).then((r) => r.json());", table_id)
    return data


def test_confirm_a_turn_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    base = site.url
    ff = firefox
    ff.goto(f"{base}/signin")
    ff.type("#register-form input[name=name]", "ann")
    ff.type("#register-form input[name=display_name]", "Ann")
    ff.type("#register-form input[name=password]", "a long enough password")
    ff.click("#register-form button[type=submit]")
    ff.wait_until("return location.pathname === '/lobby' && Boolean(document.querySelector('#me-link'));")
    # The new-table form: at one's own pace, confirming each turn is on unless unticked.
    ff.wait_for("#pace-select")
    ff.select("#pace-select", "async")
    assert ff.run("return document.querySelector('#confirm-turns').checked;")
    ff.select("#pace-select", "live")
    assert not ff.run("return document.querySelector('#confirm-turns').checked;")
    bob = Player(site, "bob")
    bob.register()
    table = ff.run(POST, "/api/tables", {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}], "pace": "async"})
    assert table["confirm_turns"] is True
    table_id = table["id"]
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    ff.run(POST, f"/api/tables/{table_id}/start", {})
    ff.goto(f"{base}/t/{table_id}")
    ff.run(ERRORS)  # from here on, a page error or a console error fails the test
    ff.wait_until("const g = document.getElementById('game'); return Boolean(g && !g.hidden);")
    deadline = time.monotonic() + 300
    while True:  # until Ann leads a round (Bob plays his part over the API; Ann confirms what she holds)
        assert time.monotonic() < deadline, "Ann never led a round"
        mine = _state(ff, table_id)
        if mine["to_move"] == [0] and mine["view"]["stage"] == "lead" and not mine.get("held"):
            break
        if mine.get("held"):
            ff.run(POST, f"/api/tables/{table_id}/confirm", {"version": mine["version"]})
        elif mine["to_move"] == [1]:
            theirs = bob.get(f"/api/tables/{table_id}/state").json()
            bob.post(f"/api/tables/{table_id}/actions", {"action": theirs["legal"][-1], "version": theirs["version"]})
        elif mine.get("legal") and not mine.get("answered"):
            ff.run(POST, f"/api/tables/{table_id}/actions", {"action": mine["legal"][-1], "version": mine["version"]})
        time.sleep(0.2)
    version = mine["version"]
    ff.wait_until("return window.__mhVersion === arguments[0];", version)
    assert ff.find("#confirm-turn") is None  # nothing held yet
    bob_before = bob.get(f"/api/tables/{table_id}/state").json()
    rune = mine["legal"][0]

    ff.click(f'#hand button[data-action="{rune}"]:not([disabled])')
    ff.wait_until("return window.__mhVersion === arguments[0];", version + 1)
    ff.wait_for("#confirm-turn")
    ff.wait_for("#undo-move")
    assert "nobody sees it until you confirm" in ff.run("return document.querySelector('#prompt').innerText;")
    ff.screenshot(ARTIFACTS / "firefox-confirm-held.png")
    # Bob hears nothing: his state is as it was.
    assert bob.get(f"/api/tables/{table_id}/state").json()["version"] == bob_before["version"]

    # Undo drops the held rune: back in the hand, nothing to confirm.
    ff.click("#undo-move")
    ff.wait_until("return window.__mhVersion === arguments[0];", version)
    ff.wait_for(f'#hand button[data-action="{rune}"]:not([disabled])')
    assert ff.find("#confirm-turn") is None
    assert _state(ff, table_id)["view"] == mine["view"]

    # Played again and confirmed: now Bob sees it and answers.
    ff.click(f'#hand button[data-action="{rune}"]:not([disabled])')
    ff.wait_until("return window.__mhVersion === arguments[0];", version + 1)
    ff.click("#confirm-turn")
    ff.wait_until("return !document.querySelector('#confirm-turn');")
    after = bob.get(f"/api/tables/{table_id}/state").json()
    assert after["version"] == bob_before["version"] + 1
    assert after["legal"], "Bob answers the rune now"
    ff.screenshot(ARTIFACTS / "firefox-confirm-confirmed.png")
    assert ff.run("return window.__errors;") == []
