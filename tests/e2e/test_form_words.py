"""End to end in Chromium: the new-table form in words (issue 21, item 6).

The form is drawn from the games' declared options: labelled controls (check boxes, number
fields within bounds, a file for a content pack), no raw option keys and no JSON field; bot
levels by name with their strength; the rules one click from the form and from the table.
And Völuspá's board draws what each tile is worth now (a Valkyrie beside Loki: 0).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from meadhall.core.content import PACK_BYTES
from tests.e2e.conftest import NEEDS_CHROMIUM, WatchedBrowser, register, shot
from tests.server.conftest import RunningServer

pytestmark = NEEDS_CHROMIUM

DESKTOP = {"width": 1280, "height": 900}


def _pack(label: str) -> dict[str, Any]:
    pack: dict[str, Any] = json.loads(resources.files("meadhall.games.valda").joinpath("data/default.json").read_text())
    pack["id"], pack["label"] = "club-pack", label
    return pack


def _file(name: str, data: Any) -> dict[str, Any]:
    return {"name": name, "mimeType": "application/json", "buffer": json.dumps(data).encode()}


def test_a_valda_table_through_labelled_controls_and_a_pack_file(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    ann.select_option("#game-select", "valda")
    fields = ann.locator("#option-fields")
    text = fields.inner_text()
    labels = fields.locator("label").all_inner_texts()
    assert not {label.strip() for label in labels} & {"race-to-the-gods", "turnaround", "content"}, labels
    assert "race-to-the-gods" not in text, text  # the labels, never the keys
    assert "The Turnaround" in text and "Race to the Gods" in text and "Content pack" in text
    assert fields.locator("textarea").count() == 0
    assert fields.locator("input:not([type])").count() == 0  # no free text (JSON) field for Valda
    # The rules one click away, in a new tab so the form stays filled.
    rules = ann.locator("#rules-link")
    assert rules.get_attribute("href") == "/rules/valda" and "Valda" in rules.inner_text()
    # Bot levels by name, each with its strength.
    level = ann.locator("select[name=bot-1] option[value=easy]")
    assert level.inner_text() == "Greedy — takes the best move now; never plans ahead"
    assert "ismcts" not in ann.locator("select[name=bot-1]").inner_text()
    ann.get_by_role("checkbox", name="The Turnaround").check()
    ann.select_option("select[name=bot-1]", "beginner")
    # A file that is not a pack: the server's error, in words, names the option.
    browser.allow(r"/api/tables: Failed to load resource: the server responded with a status of 422")
    broken = _pack("broken")
    del broken["cards"]
    ann.set_input_files("#option-content", files=[_file("broken.json", broken)])
    ann.click("#create-form button[type=submit]")
    ann.wait_for_function("() => document.getElementById('lobby-error').textContent.length > 0")
    error = ann.locator("#lobby-error").inner_text()
    assert error.startswith("Content pack: ") and "cards" in error, error
    # A file that is not JSON at all: said before anything is sent.
    ann.set_input_files("#option-content", files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{"}])
    ann.click("#create-form button[type=submit]")
    ann.wait_for_function("() => document.getElementById('lobby-error').textContent.includes('not JSON')")
    # A file over the size limit (sent with the option): said before anything is sent.
    huge = _pack("huge")
    huge["$schema"] = "y" * PACK_BYTES
    ann.set_input_files("#option-content", files=[_file("huge.json", huge)])
    ann.click("#create-form button[type=submit]")
    ann.wait_for_function("() => document.getElementById('lobby-error').textContent.includes('at most')")
    error = ann.locator("#lobby-error").inner_text()
    assert error.startswith("Content pack: the pack is ") and f"at most {PACK_BYTES:,}" in error, error
    # A good pack: the table is made with it.
    ann.set_input_files("#option-content", files=[_file("club.json", _pack("our club's cards"))])
    shot(ann, "words-01-valda-form")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    table_id = ann.url.rsplit("/", 1)[-1]
    table = ann.request.get(f"{base}/api/tables/{table_id}").json()
    assert table["options"]["turnaround"] is True
    assert table["options"]["content"]["label"] == "our club's cards"
    link = ann.locator("#table-rules")
    link.wait_for()
    assert link.get_attribute("href") == "/rules/valda" and link.inner_text() == "Rules of Valda"
    shot(ann, "words-02-valda-table")


def test_number_options_have_their_bounds_and_are_sent_as_numbers(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    ann = browser.new_page(viewport=DESKTOP)
    register(ann, base, "ann")
    ann.select_option("#game-select", "toy")
    rounds = ann.get_by_role("spinbutton", name="Rounds")
    assert (rounds.get_attribute("type"), rounds.get_attribute("min"), rounds.get_attribute("max")) == (
        "number",
        "2",
        "12",
    )
    rounds.fill("4")
    ann.select_option("select[name=seat-1]", "bot")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(f"{base}/t/*")
    table = ann.request.get(f"{base}/api/tables/{ann.url.rsplit('/', 1)[-1]}").json()
    assert table["options"]["rounds"] == 4 and table["options"]["hand"] == 3  # the preset's, left alone


def test_voluspa_draws_what_a_tile_is_worth_now(site: RunningServer, browser: WatchedBrowser) -> None:
    # The real plugin draws a real view and its words: a Valkyrie beside Loki shows 0.
    from meadhall.games.voluspa.words import WORDS
    from tests.voluspa.helpers import make_state

    state = make_state("VA LO\nTH .")
    view = state.view(0)
    game = {"version": 1, "view": view, "legal": [], "actions": [], "seat": 0, "words": WORDS.table(view)}
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{site.url}/")
    page.wait_for_function("() => typeof MH === 'object'")
    page.evaluate(
        """async (game) => {
            const ui = await MH.plugin("voluspa", true);
            const area = document.createElement("div");
            area.id = "game-area";
            document.querySelector("main").append(area);
            const ctx = { tableId: "none", seatName: (s) => `Seat ${s + 1}`, send: () => {}, prompt: () => {} };
            ui.mount(area, ctx);
            ui.render(game, ctx);
        }""",
        game,
    )
    valkyrie = page.locator("#board g.tile[data-tile=VA]")
    assert valkyrie.locator("text.value").text_content() == "0"
    assert "lowered" in (valkyrie.locator("text.value").get_attribute("class") or "")
    assert valkyrie.get_attribute("aria-label") == "Valkyrie, worth 0 now (printed 2; Loki beside it)"
    assert valkyrie.locator("title").text_content().startswith("Valkyrie, worth 0 now (printed 2; Loki beside it).")
    # The number the hand shows (printed) is under it, struck through, and the game's words say why under the hand.
    assert valkyrie.locator("text.printed").text_content() == "2"
    assert page.locator("#vo-values").inner_text() == "Valkyrie, worth 0 now (printed 2; Loki beside it)"
    assert not page.locator("#board g.tile[data-tile=TH] text.printed").count()
    thor = page.locator("#board g.tile[data-tile=TH]")
    assert thor.locator("text.value").text_content() == "7"
    assert thor.get_attribute("aria-label") == "Thor, worth 7"
    shot(page, "words-03-voluspa-values")
