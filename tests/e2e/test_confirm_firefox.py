"""Confirming a turn on the table page, in Debian's stock Firefox (``firefox-esr``) over Marionette.

Ann plays a toy game (tests/plugins/meadhall-toy) in Firefox against Bob, who plays over
the API, at a table played at one's own pace, where each turn waits for its Confirm. When
Ann leads a round she clicks a rune: only her page shows it, with Confirm and Undo, and Bob
sees nothing; Undo drops it; played again and confirmed, Bob's state shows it and Bob is
to answer. Without Firefox the test skips and says why.
"""

from __future__ import annotations

from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ARTIFACTS, ERRORS, pytestmark, register  # noqa: F401
from tests.e2e.test_undo_firefox import POST, site, toy_table_where_ann_leads  # noqa: F401  (the same table and server)
from tests.e2e.test_undo_firefox import _ann_state as _state
from tests.server.conftest import RunningServer


def test_confirm_a_turn_in_firefox(site: RunningServer, firefox: Firefox) -> None:  # noqa: F811
    base = site.url
    ff = firefox
    register(ff, base, "Ann")
    # The new-table form: at one's own pace, confirming each turn is on unless unticked.
    ff.wait_for("#pace-select")
    ff.select("#pace-select", "async")
    assert ff.run("return document.querySelector('#confirm-turns').checked;")
    ff.select("#pace-select", "live")
    assert not ff.run("return document.querySelector('#confirm-turns').checked;")
    bob, table, mine = toy_table_where_ann_leads(site, ff, pace="async")
    assert table["confirm_turns"] is True
    table_id = table["id"]
    version = mine["version"]
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
