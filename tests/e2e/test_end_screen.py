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


def test_a_resigned_game_ends_without_a_breakdown_and_the_other_player_joins_the_rematch(
    site: RunningServer, browser: WatchedBrowser
) -> None:
    base = site.url
    ann = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bob = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    register(ann, base, "ann")
    register(bob, base, "bob")
    made = ann.evaluate(
        """() => MH.api("POST", "/api/tables", {game: "valda",
             seats: [{kind: "me"}, {kind: "invite", name: "bob"}, {kind: "bot", bot: "beginner"}]})"""
    )
    table_id = str(made["id"])
    bob.goto(f"{base}/t/{table_id}")
    bob.click("#join-button")
    ann.goto(f"{base}/t/{table_id}")
    ann.click("#start-button")
    for page in (ann, bob):
        page.wait_for_selector("#game:not([hidden])")
        page.wait_for_function("() => window.__mhVersion !== undefined")

    bob.on("dialog", lambda dialog: dialog.accept())
    bob.click("#resign-game")
    for page in (ann, bob):
        page.wait_for_selector("#end-panel:not([hidden]) #end-banner", timeout=HANG_GUARD_MS)
    assert "Ann (you)" in ann.locator("#end-banner").inner_text()  # first, alone or with the bot: Bob resigned
    assert "Bob (you) resigned." in bob.locator("#end-screen").inner_text()
    # Two registered players: rated; the resigned game has no breakdown (its rules did not end it).
    assert "rating 1500 →" in ann.locator("#end-screen ol.end-ranking").inner_text()
    assert ann.locator("#end-screen table.breakdown").count() == 0
    shot(bob, "end-04-resigned")

    # Ann asks for a rematch and goes to its waiting room; Bob's page hears of it on the socket.
    ann.click("#rematch-button")
    ann.wait_for_url(lambda url: "/t/" in url and not url.endswith(f"/t/{table_id}"))
    new_id = ann.url.rsplit("/", 1)[-1]
    ann.wait_for_selector("#waiting:not([hidden])")
    bob.wait_for_selector("#rematch-button:has-text('Join the rematch')", timeout=HANG_GUARD_MS)
    shot(bob, "end-05-rematch-offered")
    bob.click("#rematch-button")
    bob.wait_for_url(f"{base}/t/{new_id}")
    for page in (ann, bob):
        page.wait_for_selector("#game:not([hidden])", timeout=HANG_GUARD_MS)
    described = bob.request.get(f"{base}/api/tables/{new_id}").json()
    assert described["status"] == "active"
    assert [seat["name"] for seat in described["seats"][:2]] == ["Ann", "Bob"]
    assert described["seats"][2]["bot"] == "beginner"
