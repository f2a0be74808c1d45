"""End to end in Chromium: a short game against a bot played to its end, then the end screen
(winner banner, places, the game's score breakdown, links), the replay's end, and a rematch
that opens the new table."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import HANG_GUARD_MS, NEEDS_CHROMIUM, WatchedBrowser, register, shot
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

# Plays the signed-in person's seat through the page's own API client (MH.api, with its CSRF
# token) as fast as the server answers: the bot moves on the server, the page follows on its socket.
PLAY_TO_THE_END = """async (tableId) => {
  for (let i = 0; i < 5000; i++) {
    const state = await MH.api("GET", `/api/tables/${tableId}/state`);
    if (state.view.finished) return state;
    if (state.legal && state.legal.length) {
      try {
        await MH.api("POST", `/api/tables/${tableId}/actions`, { action: state.legal[0], version: state.version });
      } catch (e) { if (e.status !== 409) throw e; }
    } else {
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  throw new Error("the game did not end");
}"""


def _table(page: Any, base: str) -> str:
    made: dict[str, Any] = page.evaluate(
        """() => MH.api("POST", "/api/tables", {game: "voluspa", options: {preset: "base"},
             seats: [{kind: "me"}, {kind: "bot", bot: "beginner"}]})"""
    )
    return str(made["id"])


def test_a_game_against_a_bot_ends_in_the_end_screen_and_a_rematch(
    site: RunningServer, browser: WatchedBrowser
) -> None:
    base = site.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    register(page, base, "ann")
    table_id = _table(page, base)
    page.goto(f"{base}/t/{table_id}")
    page.click("#start-button")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("svg#board")
    assert page.locator("#end-panel").is_hidden()

    final = page.evaluate(PLAY_TO_THE_END, table_id)
    scores = [seat["score"] for seat in final["view"]["seats"]]
    places = final["view"]["places"]
    page.wait_for_selector("#end-panel:not([hidden]) table.breakdown", timeout=HANG_GUARD_MS)
    shot(page, "end-01-end-screen")

    banner = page.locator("#end-banner").inner_text()
    winners = [seat for seat, place in enumerate(places) if place == 1]
    if len(winners) == 1:
        assert "wins!" in banner and ("Ann" in banner) == (winners == [0])
    else:
        assert "share first place" in banner
    ranking = page.locator("#end-screen ol.end-ranking").inner_text()
    assert "1." in ranking and "points" in ranking and "rating" not in ranking  # against a bot: not rated

    # The breakdown: Völuspá's words for its sections and rows; each section's Total is the final scores.
    titles = page.locator("#end-screen table.breakdown thead th:first-child").all_text_contents()
    assert titles == ["Points by kind of line", "Points by round"]
    # A row per round is long: it folds away under its title and totals, and opens on a click.
    folded = page.locator("#end-screen details.breakdown-wrap summary")
    assert folded.inner_text().startswith("Points by round (")
    assert "Round 1" not in page.locator("#end-screen").inner_text()
    folded.click()
    text = page.locator("#end-screen").inner_text()
    assert "Round 1" in text and ("Rows" in text or "Columns" in text)
    for grid in page.locator("#end-screen table.breakdown").all():
        totals = grid.locator("tfoot td").all_inner_texts()
        assert [int(n) for n in totals] == scores
        headers = grid.locator("thead th").all_inner_texts()[1:]
        assert headers[0] == "Ann (you)" and len(headers) == 2
    assert page.locator("#replay-link").get_attribute("href") == f"/replay/{table_id}"
    assert page.locator("#export-link").get_attribute("href") == f"/api/tables/{table_id}/record"

    # The replay shows the same end at its last step.
    replay = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    replay.goto(f"{base}/replay/{table_id}")
    replay.wait_for_selector("svg#board")
    assert replay.locator("#end-panel").is_hidden()
    replay.click("#last")
    replay.wait_for_selector("#end-panel:not([hidden]) table.breakdown")
    assert replay.locator("#end-screen table.breakdown").count() == 2
    shot(replay, "end-02-replay-end")

    # Rematch: against a bot alone it starts at once, and the page goes to the new table.
    page.click("#rematch-button")
    page.wait_for_url(lambda url: "/t/" in url and not url.endswith(f"/t/{table_id}"))
    page.wait_for_selector("#game:not([hidden]) svg#board")
    new_id = page.url.rsplit("/", 1)[-1]
    described = page.request.get(f"{base}/api/tables/{new_id}").json()
    assert described["status"] == "active" and described["seats"][1]["bot"] == "beginner"
    assert page.locator("#end-panel").is_hidden()
    shot(page, "end-03-rematch")
