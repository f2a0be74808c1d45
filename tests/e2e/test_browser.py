"""End to end in a real headless Chromium: two people register, meet at a table with a bot,
and play a whole Völuspá game through the page, clicking tiles and cells.

Screenshots go to test-artifacts/e2e/. Needs Debian's chromium (make test installs it
when it can); without it these tests skip and say why. Every page is watched for console
and page errors (conftest.py): any fails the test.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from tests.e2e.conftest import (
    HANG_GUARD_MS,
    NEEDS_CHROMIUM,
    WatchedBrowser,
    decisions,
    end_of_game,
    open_table_with_bots,
    register,
    replay_to_the_end,
    shot,
    state_of,
)
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM


def play_one(page: Any, base: str, table_id: str, action: str, shots: dict[str, int]) -> None:
    """Make one move through the page's controls, as a person would."""
    if action == "end":
        page.click("#end-turn")
        return
    if action.startswith("discard:"):
        page.click(f'#turn-actions button[data-action="{action}"]')
        return
    step = action.split()[-1]
    code, rest = step.split("@", 1)
    coords = rest.split(">")[0].split(":")[0]
    x, y = coords.split(",")
    if not page.locator(f'svg .targets rect[data-x="{x}"][data-y="{y}"]').count():
        page.click(f'#hand button[data-tile="{code}"]:not([disabled])')
    page.locator(f'svg .targets rect[data-x="{x}"][data-y="{y}"]').click()
    chooser = page.locator("#chooser")
    if chooser.is_visible():
        if shots.setdefault("chooser", 0) < 2:
            shots["chooser"] += 1
            shot(page, f"07-chooser-{shots['chooser']}")
        chooser.locator(f'button.choice[data-action="{action}"]').click()


def test_two_people_and_a_bot_play_a_whole_game(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann_context = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_context = browser.new_context(viewport={"width": 1024, "height": 768})  # a tablet-sized window
    ann, bob = ann_context.new_page(), bob_context.new_page()
    posted_moves: list[str] = []
    for page in (ann, bob):
        page.on("request", lambda r: posted_moves.append(r.url) if r.url.endswith("/actions") else None)
    register(ann, base, "ann")
    register(bob, base, "bob")

    ann.select_option("#game-select", "voluspa")
    ann.select_option("#players-select", "3")
    ann.select_option("select[name=seat-1]", "invite")
    ann.fill("input[name=invite-1]", "bob")
    ann.select_option("select[name=seat-2]", "bot")
    ann.select_option("select[name=bot-2]", "beginner")
    ann.select_option("#preset-select", "all+lightning")
    shot(ann, "01-create-table")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    table_id = ann.url.rsplit("/", 1)[-1]

    bob.goto(f"{base}/lobby")
    bob.wait_for_selector(f'#my-games a[href="/t/{table_id}"]')
    bob.click(f'#my-games a[href="/t/{table_id}"]')
    bob.click("#join-button")
    bob.wait_for_selector("#leave-button")
    ann.wait_for_selector("#start-button")
    shot(ann, "02-waiting-room")
    ann.click("#start-button")
    for page in (ann, bob):
        page.wait_for_selector("#game:not([hidden])")
        page.wait_for_selector("svg#board .tile")
    shot(ann, "03-game-start")
    bob.fill("#chat-form input[name=text]", "good luck, Ann")
    bob.click("#chat-form button")
    ann.wait_for_selector("#chat li:has-text('good luck, Ann')")
    ann.click("#chat li:has-text('good luck, Ann') button.mute")
    ann.wait_for_selector("#chat li:has-text('good luck, Ann')", state="detached")

    pages = {0: ann, 1: bob}
    moves = 0
    choose = random.Random(7)
    shots: dict[str, int] = {}
    kinds: set[str] = set()
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline, "the game took too long"
        state = state_of(ann, base, table_id)
        if state["view"]["finished"]:
            break
        seat = state["to_move"][0]
        if seat not in pages:  # the bot's turn
            time.sleep(0.1)
            continue
        page = pages[seat]
        mine = state_of(page, base, table_id)
        if not mine.get("legal"):
            time.sleep(0.05)
            continue
        # The page must have caught up with this version before we click.
        page.wait_for_function(
            "v => document.querySelector('#status-line') && window.__mhVersion === v",
            arg=mine["version"],
            timeout=HANG_GUARD_MS,
        )
        # A guided step not yet used through the page is taken when it is offered: the deal
        # is the server's (fresh each run), so a plain random choice could miss one.
        unseen = [a for a in mine["legal"] if any(k in a and k not in kinds for k in ("FR+", ">", "HM@"))]
        action = choose.choice(unseen or mine["legal"])
        kinds.update(k for k in ("FR+", ":row", ":col", ">", "end", "HM@", "RA@") if k in action)
        play_one(page, base, table_id, action, shots)
        page.wait_for_function("v => window.__mhVersion > v", arg=mine["version"], timeout=HANG_GUARD_MS)
        moves += 1
        if moves == 6:
            shot(page, "04-mid-game")
    for page in (ann, bob):
        page.wait_for_selector("#end-panel:not([hidden])")
    shot(ann, "05-end-screen")
    ranking = ann.locator("#end-screen").inner_text()
    assert "1." in ranking and "points" in ranking
    log_text = bob.locator("#log").inner_text()
    assert "scores" in log_text
    assert moves > 10
    assert posted_moves == []  # with the live socket open, the page sends its moves over it
    # the guided steps were used through the page: boosts, line choices, bumps, follow-ups
    assert {"FR+", ">", "HM@"} <= kinds, kinds
    ann.goto(f"{base}/replay/{table_id}")
    ann.wait_for_selector("svg#board .tile")
    ann.click("#last")
    ann.wait_for_function("() => document.querySelector('#step-label').textContent.includes('of')")
    shot(ann, "06-replay")
    ann_context.close()
    bob_context.close()


def play_bloodrage_one(page: Any, action: str, choose: random.Random, used: set[str]) -> None:
    """One Blood Rage decision through the page: a card, a region on the map, or a button."""
    kind = action.split(":", 1)[0]
    if kind in ("pick", "upgrade", "quest", "drop") or (kind == "play" and action != "play:none"):
        page.click(f'#hand button[data-action="{action}"]')
        used.add("card")
        return
    region = None
    if kind in ("summon", "join"):
        region = action.split("@", 1)[1]
    elif kind == "move":
        region = action.split(">", 1)[1]
    elif kind in ("march", "contest"):
        region = action.split(":", 1)[1]
    if region is not None and choose.random() < 0.5:
        page.locator(f'#br-map g.region[data-region="{region}"] .area').click()
        page.locator(f'#chooser button.choice[data-action="{action}"]').click()
        used.add("map")
        return
    page.click(f'#br-actions button[data-action="{action}"]')
    used.add("button")


def test_a_bloodrage_game_with_two_bots_through_the_page(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    ann = context.new_page()
    register(ann, base, "ann")
    ann.select_option("#game-select", "bloodrage-valhalla")
    assert ann.locator("#players-select option[value='2']").is_disabled()  # 3 to 5 players
    table_id = open_table_with_bots(
        ann, base, "bloodrage-valhalla", ["beginner", "beginner"], preset="first-game", screenshot="br-01-create-table"
    )
    ann.wait_for_selector("#br-map g.region[data-region=valhalla]")
    shot(ann, "br-02-draft")
    # The clan sheets: one per clan, named and coloured from the game's data, a step marked on each of its three tracks.
    from meadhall.games.bloodrage_valhalla.words import CLAN_COLOURS

    assert ann.locator("#br-clans .br-clan").count() == 3
    assert ann.locator("#br-clans .br-clan[data-seat='0'] h4").inner_text().startswith("Bear")
    assert ann.locator("#br-clans .br-step.now").count() == 9
    assert ann.locator("#br-clans .br-clan[data-seat='1'] .br-track[data-stat=axes] .br-step").count() == 6
    sheet_colour = ann.locator("#br-clans .br-clan[data-seat='1']").evaluate("e => e.style.getPropertyValue('--clan')")
    assert sheet_colour.strip() == CLAN_COLOURS[1]
    # The Players panel in words, not shorthand (issue 21): "6 warriors and 2 elites", "step 1 of 6".
    players = ann.locator("#scores li[data-seat='0']").inner_text()
    assert "reserve 6 warriors" in players and "(step 1 of 6)" in players, players
    assert not re.search(r"\b\d+[WE]\b|\(\d+/\d+", players), players

    choose = random.Random(11)
    used: set[str] = set()
    phases: set[str] = set()
    seen_last_battle = False
    # The last battle's panel may be drawn and gone between two of Ann's decisions (a bot's
    # battle, then the Age's end): the page notes every time it is drawn.
    ann.evaluate(
        """() => {
          const panel = document.getElementById("battle-panel");
          const note = () => {
            const heading = panel.querySelector("h4");
            if (!panel.hidden && heading?.textContent === "Last battle") window.__mhSawLastBattle = true;
          };
          new MutationObserver(note).observe(panel, { attributes: true, childList: true, subtree: true });
        }"""
    )
    moves = 0
    for mine in decisions(ann, base, table_id):
        phase = mine["view"]["phase"]
        if moves == 0:
            # The board's headings and the map's name are the game's words, the count worded in.
            assert ann.locator("#hand-title").inner_text() == f"Your pack ({len(mine['view']['pack'])})"
            assert ann.locator("#br-map").get_attribute("aria-label") == "The map"
        if not seen_last_battle and ann.locator("#battle-panel:not([hidden]) h4:has-text('Last battle')").count():
            seen_last_battle = True
            shot(ann, "br-03-last-battle")
        if phase not in phases:
            phases.add(phase)
            shot(ann, f"br-03-{phase}")
        legal = mine["legal"]
        # Pass less often than a uniform pick would, so the game shows battles and marches.
        options = [a for a in legal if a != "pass"] or legal
        action = choose.choice(options)
        play_bloodrage_one(ann, action, choose, used)
        moves += 1
    ranking, log_text = end_of_game(ann, "br-04-end-screen")
    assert "1." in ranking and "Glory" in ranking
    assert "Glory" in log_text and "arrives in" in log_text
    assert {"draft", "action", "keep"} <= phases, phases
    assert {"card", "map", "button"} <= used, used
    seen_last_battle = seen_last_battle or ann.evaluate("() => window.__mhSawLastBattle === true")
    assert seen_last_battle  # the reveal and result stay on the table after a battle
    assert moves > 20
    replay_to_the_end(ann, base, table_id, "#br-map g.region", "br-05-replay")
    context.close()


def play_valda_one(page: Any, action: str, used: set[str]) -> None:
    """One Valda decision through the page: a card, a god area on the map, or a button."""
    kind, _, arg = action.partition(":")
    card = page.locator(f'#game-area button.va-card[data-action="{action}"]')
    if card.count():
        card.first.click()
        used.add("card")
        return
    if kind == "build" and page.locator(f'#va-map g.god-area[data-god="{arg}"] .area.target').count():
        page.locator(f'#va-map g.god-area[data-god="{arg}"] .area').click()
        used.add("map")
        return
    page.locator(f'#game-area button[data-action="{action}"]').first.click()
    used.add("button")


def test_a_valda_game_of_three_with_two_bots_through_the_page(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    ann = context.new_page()
    register(ann, base, "ann")
    table_id = open_table_with_bots(ann, base, "valda", ["beginner", "easy"], screenshot="va-01-create-table")
    ann.wait_for_selector("#va-map g.god-area[data-god=odin]")

    choose = random.Random(5)
    used: set[str] = set()
    kinds: set[str] = set()
    moves = 0

    def answered(mine: dict[str, Any]) -> None:
        # a response window that offers nothing but a pass: the server answers it after the
        # common pause (the page does not; it only says so). Whether the page's poll sees
        # one before the server answers depends on the machine's speed, so none is required
        # here; tests/server/test_confirm.py checks the server's answer.
        decision = mine["view"]["decision"]
        assert len(mine["legal"]) == 1 and decision["kind"] in ("window", "attack", "defend"), decision

    seen_dice = False
    for mine in decisions(ann, base, table_id, answered=answered):
        legal = mine["legal"]
        decision = mine["view"]["decision"]
        if moves == 0:
            # Valda's words for issue 21: "your turn" to the seat to play, a heading over the track.
            status = ann.locator("#status-line").inner_text()
            mine_now = mine["view"]["current"] == mine["view"]["seat"]
            assert (", your turn: " in status) == mine_now and "(you)" not in status, status
            assert ann.locator("#va-track-title").inner_text() == "Yggdrasil, the follower track"
            assert ann.locator(".va-track-scroll").get_attribute("aria-labelledby") == "va-track-title"
            # The board's headings and the map's name are the game's words, the count worded in.
            assert ann.locator("#hand-title").inner_text() == f"Your hand ({len(mine['view']['hand'])})"
            assert ann.locator("#va-map").get_attribute("aria-label") == "The world map: the god areas"
        if not seen_dice and mine["view"].get("dice"):
            # The dice row says it holds dice: a caption, and each die's picture named for screen readers.
            seen_dice = True
            assert ann.locator("#va-dice .va-dice-title").inner_text() == "Dice"
            labels = ann.locator("#va-dice span.die svg.mh-icon").evaluate_all(
                "(icons) => icons.map((icon) => icon.getAttribute('aria-label'))"
            )
            assert labels and all(label and label.endswith(" die") for label in labels), labels
        if decision["kind"] not in kinds:
            kinds.add(decision["kind"])
            shot(ann, f"va-02-{decision['kind']}")
        # end phases and skip attacks less often than a uniform pick, so the game shows more
        busy = [a for a in legal if a not in ("done", "pass", "yield")]
        action = choose.choice(busy if busy and choose.random() < 0.8 else legal)
        play_valda_one(ann, action, used)
        moves += 1
    ann.wait_for_selector("#end-panel:not([hidden])")
    # the "your turn" badge follows the table at once (no 20-second poll to wait for)
    ann.wait_for_function("() => document.getElementById('turn-badge').hidden", timeout=HANG_GUARD_MS)
    ranking, log_text = end_of_game(ann, "va-03-end-screen")
    assert "1." in ranking and "follower" in ranking
    assert "Round 6 of 6 begins" in log_text and "builds a" in log_text and "rolls" in log_text
    assert {"game", "build"} <= kinds, kinds
    assert {"card", "button"} <= used, used
    assert moves > 30 and seen_dice
    replay_to_the_end(ann, base, table_id, "#va-map g.god-area", "va-04-replay")
    context.close()
