"""End to end in a real headless Chromium: a person sits at a table of the toy game (a game
from another package, tests/plugins/meadhall-toy) with two bots and plays it to its end
through the page: the lobby offers it, the server serves its board plugin from its package,
the plugin draws its runes and picks by each action's target, the shell draws its words.

Nothing of meadhall names the toy game: this is the proof that a game installed beside
meadhall plays in the browser as it is. Screenshots go to test-artifacts/e2e/.
"""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.conftest import (
    NEEDS_CHROMIUM,
    WatchedBrowser,
    decisions,
    end_of_game,
    open_table_with_bots,
    register,
    replay_to_the_end,
    shot,
)
from tests.server.conftest import RunningServer
from tests.toy import TOY

pytestmark = NEEDS_CHROMIUM


def play_toy_one(page: Any, action: str) -> str:
    """One decision through the page: a rune of the hand (a lead or an answer), or a button (pass)."""
    rune = page.locator(f'#hand button[data-action="{action}"]:not([disabled])')
    if rune.count():
        rune.first.click()
        return "rune"
    page.locator(f'#turn-actions button[data-action="{action}"]').click()
    return "button"


def test_a_toy_game_of_three_with_two_bots_through_the_page(site: RunningServer, browser: WatchedBrowser) -> None:
    base = site.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    ann = context.new_page()
    register(ann, base, "ann")
    table_id = open_table_with_bots(
        ann, base, TOY.info.name, ["beginner", "beginner"], preset="standard", screenshot="toy-01-create-table"
    )
    ann.wait_for_selector("#game:not([hidden])")
    ann.wait_for_selector("#toy-round #toy-die")

    choose = random.Random(3)
    used: set[str] = set()
    stages: set[str] = set()
    moves = 0

    def answered(mine: dict[str, Any]) -> None:
        # A response window with nothing but a pass: the server answers it after the common
        # pause, and the page only says so.
        assert mine["legal"] == ["pass"] and mine["view"]["stage"] == "answer", mine

    for mine in decisions(ann, base, table_id, answered=answered):
        legal = mine["legal"]
        stage = mine["view"]["stage"]
        if stage not in stages:
            stages.add(stage)
            shot(ann, f"toy-02-{stage}")
        # The prompt is the game's words for this decision, filled with the seats' names.
        assert ann.locator("#prompt").inner_text().strip()
        answers = [a for a in legal if a != "pass"]
        action = choose.choice(answers if answers and choose.random() < 0.8 else legal)  # answer more often than not
        used.add(play_toy_one(ann, action))
        moves += 1
    ranking, log_text = end_of_game(ann, "toy-03-end-screen")
    assert "1." in ranking and "point" in ranking
    # The toy game has no score breakdown: the end screen shows the banner, places and links alone.
    assert ann.locator("#end-banner").count() == 1 and ann.locator("#end-screen table.breakdown").count() == 0
    assert "The die shows" in log_text and "wins the round with rune" in log_text
    assert "You are dealt" in log_text  # a private event, worded for its one reader
    assert "lead" in stages, stages  # Ann leads round 1
    # Ann is offered the window in every round she does not lead, whatever she holds: she
    # answered or passed there (by the page, or the table for her when she could only pass).
    assert "Ann (you) passes." in log_text or "Ann (you) answers with rune" in log_text
    assert "rune" in used, used
    assert moves >= 2  # her leads of rounds 1 and 4 at least (her windows depend on the deal)
    replay_to_the_end(ann, base, table_id, "#toy-round #toy-die", "toy-04-replay")
    context.close()
