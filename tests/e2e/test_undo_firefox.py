"""Taking back a move in Debian's stock Firefox (``firefox-esr``), driven over Marionette.

Ann plays a toy game (tests/plugins/meadhall-toy) in Firefox against Bob, who plays over
the API. When Ann leads a round she clicks a rune, then Undo: the rune is back in her hand
and the log says she took a move back. Without Firefox the test skips and says why.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import FIREFOX
from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ERRORS, register
from tests.server.conftest import Player, RunningServer, make_settings

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"

pytestmark = pytest.mark.skipif(
    not Path(FIREFOX).exists() or shutil.which(FIREFOX) is None,
    reason=f"no Firefox at {FIREFOX} (apt-get install firefox-esr, or set MEADHALL_FIREFOX); Firefox test skipped",
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    # Response windows wait a second: the table does not answer for a seat while Ann clicks.
    settings = make_settings(
        tmp_path,
        f"sqlite:///{tmp_path / 'undo-firefox.sqlite3'}",
        login_rate=1000,
        cookie_secure="false",
        response_pause_min=1.0,
        response_pause_max=1.0,
    )
    with RunningServer(settings) as running:
        yield running


def _ann_state(ff: Firefox, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = ff.run("return fetch(`/api/tables/${arguments[0]}/state`).then((r) => r.json());", table_id)
    return data


# A change as the page makes it (Marionette's scripts do not see the page's own MH).
POST = (
    "const m = document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/);"
    "return fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json',"
    " 'X-CSRF-Token': m ? decodeURIComponent(m[1]) : ''}, body: JSON.stringify(arguments[1])}).then((r) => r.json());"
)


def until_ann_leads(ff: Firefox, bob: Player, table_id: str) -> dict[str, Any]:
    """Play on until Ann (seat 0, in Firefox) leads a round with nothing held; her state then.

    Bob plays his part over the API, and so does Ann until then (confirming what she holds
    at a confirm-turn table).
    """
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "Ann never led a round"
        mine = _ann_state(ff, table_id)
        if mine["to_move"] == [0] and mine["view"]["stage"] == "lead" and not mine.get("held"):
            return mine
        if mine.get("held"):
            ff.run(POST, f"/api/tables/{table_id}/confirm", {"version": mine["version"]})
        elif mine["to_move"] == [1]:
            theirs = bob.get(f"/api/tables/{table_id}/state").json()
            bob.post(f"/api/tables/{table_id}/actions", {"action": theirs["legal"][-1], "version": theirs["version"]})
        elif mine.get("legal") and not mine.get("answered"):
            ff.run(POST, f"/api/tables/{table_id}/actions", {"action": mine["legal"][-1], "version": mine["version"]})
        time.sleep(0.2)


def toy_table_where_ann_leads(
    site: RunningServer, ff: Firefox, **settings: Any
) -> tuple[Player, dict[str, Any], dict[str, Any]]:
    """Ann (signed in, in Firefox) at a started toy table with Bob (over the API), once she leads.

    ``settings`` go in the table's request (e.g. its pace). Returns Bob, the table as made,
    and Ann's state, which her page shows when this returns.
    """
    bob = Player(site, "bob")
    bob.register()
    table = ff.run(POST, "/api/tables", {"game": "toy", "seats": [{"kind": "me"}, {"kind": "open"}], **settings})
    table_id = table["id"]
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    ff.run(POST, f"/api/tables/{table_id}/start", {})
    ff.goto(f"{site.url}/t/{table_id}")
    ff.run(ERRORS)  # from here on, a page error or a console error fails the test
    ff.wait_until("const g = document.getElementById('game'); return Boolean(g && !g.hidden);")
    mine = until_ann_leads(ff, bob, table_id)
    ff.wait_until("return window.__mhVersion === arguments[0];", mine["version"])
    return bob, table, mine


def test_undo_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    ff = firefox
    register(ff, site.url, "Ann")
    _, table, mine = toy_table_where_ann_leads(site, ff)
    table_id = table["id"]
    version = mine["version"]
    assert ff.find("#undo-move") is None
    rune = mine["legal"][0]
    ff.click(f'#hand button[data-action="{rune}"]:not([disabled])')
    ff.wait_until("return window.__mhVersion === arguments[0];", version + 1)
    ff.click("#undo-move")
    ff.wait_until("return window.__mhVersion === arguments[0];", version + 2)
    ff.wait_for("#log .event-taken-back")
    ff.wait_for(f'#hand button[data-action="{rune}"]:not([disabled])')
    assert ff.find("#undo-move") is None
    after = _ann_state(ff, table_id)
    assert after["view"] == mine["view"] and after["legal"] == mine["legal"]
    ff.screenshot(ARTIFACTS / "firefox-undo.png")
    assert ff.run("return window.__errors;") == []
