"""What a new player sees around and at the tables, in Chromium (issue 19, section 3).

Each test opens its pages through the watched browser (conftest.py): a console error or
an uncaught page error on any of them fails the test. Screenshots of what these tests
look at go to test-artifacts/e2e/, at a desktop and a phone-sized window.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy

from meadhall.core.registry import get_game
from meadhall.server.store import Store
from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser, register, shot
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def api(page: Any, base: str, method: str, path: str, body: Any = None) -> Any:
    """Call the JSON API as the page's signed-in user (with its CSRF token)."""
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "meadhall_csrf"), "")
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return response.json()


def bots_only_table(page: Any, base: str, game: str, levels: list[str], **options: Any) -> str:
    """Create and start a table where bots play every seat; returns its id."""
    seats = [{"kind": "bot", "bot": level} for level in levels]
    table = api(page, base, "POST", "/api/tables", {"game": game, "options": options, "seats": seats})
    api(page, base, "POST", f"/api/tables/{table['id']}/start")
    return str(table["id"])


def wait_finished(page: Any, base: str, table_id: str) -> None:
    deadline = time.monotonic() + 300  # a hang guard: random bots finish far sooner
    while api(page, base, "GET", f"/api/tables/{table_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)


def no_null_anywhere(page: Any) -> None:
    """No 'null' or 'undefined' in the page's text or in any tooltip (title)."""
    texts = page.evaluate(
        "() => [document.body.innerText, ...[...document.querySelectorAll('[title], title')]"
        ".map((n) => n.getAttribute('title') || n.textContent)]"
    )
    bad = [t for t in texts if "null" in t.split() or "undefined" in t or "(null" in t or "null," in t]
    assert not bad, bad


def test_signed_out_pages_log_no_error(site: RunningServer, browser: WatchedBrowser) -> None:
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, site.url, "ann")
    finished = bots_only_table(ann, site.url, "voluspa", ["beginner", "beginner"])
    wait_finished(ann, site.url, finished)
    playing = bots_only_table(ann, site.url, "voluspa", ["hard", "hard"])  # slow: still playing when watched
    page = browser.new_page(viewport=DESKTOP)
    paths = ["/", "/lobby", "/signin", "/rules", "/rules/valda", "/leaderboard", "/leaderboard/valda", "/u/ann"]
    for path in [*paths, f"/t/{playing}", f"/t/{finished}", f"/replay/{finished}"]:
        page.goto(site.url + path)
        page.wait_for_selector("#signin-link")  # common.js asked who is signed in, and drew the answer
        page.wait_for_load_state("networkidle")
    assert page.locator("#me-link").count() == 0
    page.goto(f"{site.url}/t/{playing}")  # watching a game being played, signed out
    page.wait_for_selector("#connection[data-state=connected]", state="attached")
    page.wait_for_selector("svg#board .tile")
    me = page.request.get(f"{site.url}/api/auth/me")
    assert me.status == 200 and me.json()["user"] is None


def test_bot_seats_have_distinct_names_and_voluspa_seats_colours(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    ann.select_option("#game-select", "voluspa")
    ann.select_option("#players-select", "3")
    for seat in (1, 2):
        ann.select_option(f"select[name=seat-{seat}]", "bot")
        ann.select_option(f"select[name=bot-{seat}]", "beginner")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    ann.locator("#seat-list li", has_text="Seat 3").wait_for()
    waiting = ann.locator("#seat-list").inner_text()
    assert "Seat 2: Bjorn the beginner bot" in waiting and "Seat 3: Sigrid the beginner bot" in waiting, waiting
    ann.click("#start-button")
    ann.wait_for_selector("#scores li[data-seat='2']")
    rows = ann.locator("#scores > li")
    names = [rows.nth(i).locator("b").inner_text() for i in range(3)]
    assert names == ["Ann (you)", "Bjorn the beginner bot", "Sigrid the beginner bot"], names
    colours = ann.evaluate(
        "() => [...document.querySelectorAll('#scores > li')].map((li) => getComputedStyle(li).borderLeftColor)"
    )
    assert len(set(colours)) == 3, colours  # a colour per seat, as in Blood Rage and Valda
    shot(ann, "names-01-voluspa-table")
    ann.goto(f"{base}/lobby")
    ann.locator("#my-games a").first.wait_for()
    mine = ann.locator("#my-games").inner_text()
    assert "Bjorn the beginner bot" in mine and "Sigrid the beginner bot" in mine, mine
    phone = browser.new_page(viewport=PHONE)
    phone.context.add_cookies(ann.context.cookies())
    phone.goto(f"{base}/lobby")
    phone.wait_for_selector("#my-games a")
    phone.click("#my-games a")
    phone.wait_for_selector("#scores li[data-seat='2']")
    shot(phone, "names-02-voluspa-table-phone")


def test_bloodrage_monster_cards_name_no_god(
    site: RunningServer, browser: WatchedBrowser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A deal whose first pack holds a monster's own card (a card of no god) for seat 1.
    game = get_game("bloodrage-valhalla")
    options = {"preset": "first-game"}
    seed = next(
        s for s in range(1, 500) if any(c.startswith("monster-") for c in game.new_game(3, s, options).view(0)["pack"])
    )
    monkeypatch.setattr("meadhall.server.store.fresh_seed", lambda: seed)  # where a new table draws its seed
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "beginner"}]
    table = api(ann, base, "POST", "/api/tables", {"game": game.info.name, "options": options, "seats": seats})
    ann.goto(f"{base}/t/{table['id']}")
    ann.click("#start-button")
    monster = ann.locator("#hand button.br-card[data-card^='monster-']").first
    monster.wait_for()
    meta = monster.locator(".card-meta").inner_text()
    assert "null" not in meta and "Rage" in meta, meta
    assert "null" not in (monster.get_attribute("title") or "")
    no_null_anywhere(ann)
    shot(ann, "br-monster-card")
    phone = browser.new_page(viewport=PHONE)
    phone.context.add_cookies(ann.context.cookies())
    phone.goto(f"{base}/t/{table['id']}")
    phone.locator("#hand button.br-card[data-card^='monster-']").first.wait_for()
    shot(phone, "br-monster-card-phone")


def test_bloodrage_log_starts_with_the_god_and_the_deal_of_age_one(
    site: RunningServer, browser: WatchedBrowser
) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "beginner"}]
    options = {"preset": "first-game"}
    table = api(ann, base, "POST", "/api/tables", {"game": "bloodrage-valhalla", "options": options, "seats": seats})
    ann.goto(f"{base}/t/{table['id']}")
    ann.click("#start-button")
    log = ann.locator("#log")
    log.locator("li", has_text="Age 1: six cards dealt to each clan").wait_for()
    arrival = log.locator("li", has_text="arrives in")
    assert arrival.count() == 1 and arrival.inner_text().startswith("Age 1: ")  # as Ages 2 and 3 have it
    ann.wait_for_selector("#hand button.br-card")
    shot(ann, "br-log-age-1")
    # A spectator sees it too.
    watcher = browser.new_page(viewport=PHONE)
    watcher.goto(f"{base}/t/{table['id']}")
    watcher.locator("#log li", has_text="arrives in").wait_for()


def test_one_leaderboard_per_game_and_plurals_on_the_profile(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    me = api(ann, base, "GET", "/api/auth/me")["user"]
    # Ann has one rated Völuspá game: written as the server would after it.
    engine = sqlalchemy.create_engine(str(site.settings.database_url))
    with engine.begin() as connection:
        Store.save_ratings("voluspa", {me["id"]: (1516.0, 1)})(connection)
    engine.dispose()

    ann.goto(f"{base}/leaderboard/voluspa")
    assert ann.locator("h1").inner_text() == "Völuspá leaderboard"
    ann.locator("#board-rows tr", has_text="Ann").wait_for()
    assert ann.locator("#board-rows tr", has_text="Ann").locator("td").nth(3).inner_text() == "1"
    switcher = ann.get_by_role("navigation", name="Leaderboards by game")
    assert switcher.get_by_role("link", name="Völuspá").get_attribute("aria-current") == "page"
    shot(ann, "leaderboard-01-voluspa")
    switcher.get_by_role("link", name="Valda").click()
    ann.wait_for_url(f"{base}/leaderboard/valda")
    assert ann.locator("h1").inner_text() == "Valda leaderboard"
    ann.locator("#board-rows", has_text="No rated Valda games yet").wait_for()
    ann.goto(f"{base}/leaderboard")  # the first game's, and it says which
    assert ann.locator("h1").inner_text().endswith(" leaderboard") and ann.locator("h1").inner_text() != "Leaderboard"
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{base}/leaderboard/bloodrage-valhalla")
    assert phone.locator("h1").inner_text() == "Blood Rage: Valhalla leaderboard"
    shot(phone, "leaderboard-02-phone")
    missing = phone.request.get(f"{base}/leaderboard/chess")
    assert missing.status == 404 and "there is no game called" in missing.text()

    ann.goto(f"{base}/u/ann")
    rating = ann.locator("#profile-ratings li[data-game=voluspa]")
    rating.wait_for()
    assert rating.inner_text() == "Völuspá: 1516 Elo (1 rated game)"
    shot(ann, "profile-01")


def test_replay_buttons_are_drawn_icons_with_names(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    table_id = bots_only_table(ann, base, "voluspa", ["beginner", "beginner"])
    wait_finished(ann, base, table_id)
    for page, size in ((ann, "desktop"), (browser.new_page(viewport=PHONE), "phone")):
        page.goto(f"{base}/replay/{table_id}")
        page.wait_for_selector("svg#board .tile")
        for name in ("The start", "One step back", "One step on", "The end"):
            button = page.get_by_role("button", name=name, exact=True)
            assert button.inner_text().strip() == ""  # no character a font may lack: a drawn icon
            icon = button.locator("svg").bounding_box()
            assert icon is not None and icon["width"] >= 8 and icon["height"] >= 8, (name, icon)
        page.get_by_role("button", name="The end", exact=True).click()
        page.wait_for_function("() => /^Step (\\d+) of \\1/.test(document.querySelector('#step-label').textContent)")
        page.get_by_role("button", name="The start", exact=True).click()
        page.wait_for_function("() => document.querySelector('#step-label').textContent.startsWith('Step 0 of')")
        page.get_by_role("button", name="One step on", exact=True).click()
        page.wait_for_function("() => document.querySelector('#step-label').textContent.startsWith('Step 1 of')")
        shot(page, f"replay-buttons-{size}")


def test_valda_log_says_what_a_loss_of_followers_did(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    # Bots play whole games until one has a player lose followers they do not have
    # (Massacre and the like on an empty track): most games do.
    for _attempt in range(8):
        table_id = bots_only_table(ann, base, "valda", ["beginner", "beginner", "beginner"])
        wait_finished(ann, base, table_id)
        events = [e for step in api(ann, base, "GET", f"/api/tables/{table_id}/log")["steps"] for e in step["events"]]
        losses = [e for e in events if e["kind"] == "followers" and "shielded" in e]
        if any(e["change"] == 0 and e["total"] == 0 for e in losses):
            break
    else:
        pytest.fail("no game had a player lose followers they did not have")
    ann.goto(f"{base}/t/{table_id}")
    lines = ann.locator("#log li.event-followers")
    lines.first.wait_for()
    texts = lines.all_inner_texts()
    assert not [t for t in texts if "gains 0 followers" in t], texts
    nothing = [e for e in losses if e["change"] == 0 and e["total"] == 0]
    worded = [t for t in texts if "has no followers to lose" in t]
    assert len(worded) == len(nothing), (worded, nothing)
    assert not [t for t in texts if "safe zone" in t and t.rstrip().endswith(": 0")], texts
    ann.locator("#log li.event-followers", has_text="has no followers to lose").first.scroll_into_view_if_needed()
    shot(ann, "valda-log-followers")


def test_the_register_card_and_the_lobby_say_which_games_are_rated(
    site: RunningServer, browser: WatchedBrowser
) -> None:
    base = site.url
    bob = browser.new_page(viewport=DESKTOP)
    register(bob, base, "bob")
    ann = browser.new_page(viewport=PHONE)
    ann.goto(f"{base}/signin")
    card = ann.locator("#register-form")
    assert "Bots and guests are not rated" in card.inner_text()
    shot(ann, "rated-01-register-card-phone")
    register(ann, base, "ann")
    form_note = ann.locator("#create-form #rating-rule")
    assert form_note.is_visible() and "a game against bots alone changes no rating" in form_note.inner_text()
    # Against bots: the table says it will not be rated.
    ann.select_option("#game-select", "voluspa")
    ann.select_option("#players-select", "2")
    ann.select_option("select[name=seat-1]", "bot")
    shot(ann, "rated-02-lobby-form-phone")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    note = ann.locator("#rating-note")
    note.filter(has_text="Not rated").wait_for()
    shot(ann, "rated-03-waiting-room-phone")
    # With a registered player invited: rated once he sits down.
    ann.goto(f"{base}/lobby")
    ann.select_option("#game-select", "voluspa")
    ann.select_option("#players-select", "2")
    ann.select_option("select[name=seat-1]", "invite")
    ann.fill("input[name=invite-1]", "bob")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    note.filter(has_text="Rated only if registered players take the free seats").wait_for()
    bob.goto(ann.url)
    bob.click("#join-button")
    bob.locator("#rating-note").filter(has_text="Rated: ").wait_for()
    note.filter(has_text="Rated: ").wait_for()  # the waiting room follows the table
