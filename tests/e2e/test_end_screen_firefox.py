"""The end screen in Debian's stock Firefox (``firefox-esr``, over Marionette): a Völuspá game
against a bot played to its end through the page's own API client, then the banner, the
score breakdown and a rematch that opens the new table. Skips without Firefox."""

from __future__ import annotations

from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ARTIFACTS, ERRORS, new_table, pytestmark, site, start
from tests.server.conftest import RunningServer

__all__ = ["pytestmark", "site"]  # the server fixture and the skip of the Firefox tests, shared

# The person's seat played through the API with the page's cookies, as fast as the server
# answers (Marionette's scripts do not see the page's own script globals, so plain fetch).
PLAY_TO_THE_END = """return (async (tableId) => {
  const csrf = decodeURIComponent((document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/) || ["", ""])[1]);
  for (let i = 0; i < 5000; i++) {
    const state = await (await fetch(`/api/tables/${tableId}/state`)).json();
    if (state.view.finished) return state;
    if (state.legal && state.legal.length) {
      await fetch(`/api/tables/${tableId}/actions`, { method: "POST", body: JSON.stringify({
        action: state.legal[0], version: state.version }),
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } });
    } else {
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  throw new Error("the game did not end");
})(arguments[0]);"""


def test_the_end_screen_and_a_rematch_in_firefox(site: RunningServer, firefox: Firefox) -> None:
    ff, base = firefox, site.url
    new_table(ff, base, "Hild", "voluspa")
    ff.click("#create-form button[type=submit]")
    ff.wait_until("return location.pathname.startsWith('/t/');")
    table_id = ff.url().rsplit("/", 1)[-1]
    ff.run(ERRORS)
    ff.wait_for("#start-button")
    start(ff)
    final = ff.run(PLAY_TO_THE_END, table_id)
    scores = [seat["score"] for seat in final["view"]["seats"]]
    ff.wait_for("#end-panel:not([hidden]) table.breakdown")
    ff.screenshot(ARTIFACTS / "firefox-05-end-breakdown.png")
    assert ff.run("return document.querySelector('#end-banner').innerText;").endswith("!")
    titles = ff.run(
        "return [...document.querySelectorAll('#end-screen table.breakdown thead th:first-child')]"
        ".map((th) => th.textContent);"
    )
    assert titles == ["Points by kind of line", "Points by round"]
    totals = ff.run(
        "return [...document.querySelectorAll('#end-screen table.breakdown')]"
        ".map((t) => [...t.querySelectorAll('tfoot td')].map((td) => Number(td.textContent)));"
    )
    assert totals == [scores, scores]
    ff.click("#rematch-button")
    ff.wait_until("return location.pathname.startsWith('/t/') && !location.pathname.endsWith(arguments[0]);", table_id)
    ff.wait_until("const g = document.getElementById('game'); return Boolean(g && !g.hidden);")
    assert ff.run("return window.__errors || [];") == []
