"""The guided first game full screen: ``meadhall play --guide GAME`` played to its end with Textual's pilot.

The guide pane shows each step's words (the game's, as the browser shows them), the
highlighted move is the one the step asks for, a move the step does not ask for is refused
with the step's words, ``guide restart`` starts the guided game again, and Enter on the
highlight plays the script through to the guide's last words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from meadhall.cli.play import start_guide
from meadhall.cli.tui import PlayApp
from meadhall.core.guide import progress
from meadhall.core.registry import get_game
from meadhall.core.words import fill
from tests.test_tui import drive, screenshot, settle, shown

VOLUSPA = get_game("voluspa")


def test_the_guided_game_is_played_to_its_end_full_screen() -> None:
    terminal = start_guide(VOLUSPA)
    guide = terminal.guide
    assert guide is not None

    async def type_line(pilot: Pilot[int], app: PlayApp, text: str) -> None:
        await pilot.press(*text, "enter")
        await settle(pilot, app)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        assert app.deciding == guide.seat
        assert fill(guide.steps[0].say, terminal.labels).split(".")[0] in shown(app, "#guide")
        await type_line(pilot, app, "OD@1,0")  # legal, but not the step's move
        assert "refused" in app.query_one("#message").classes
        assert "The guide asks for another move here." in shown(app, "#message")
        assert not terminal.state.history()
        for index, step in enumerate(guide.steps):
            assert progress(guide, terminal.state)["step"] == index
            assert f"step {index + 1} of {len(guide.steps)}" in shown(app, "#guide")
            chosen = app.highlighted()
            assert chosen is not None
            if step.expect:
                assert chosen["notation"] == step.expect[0], "the highlight points at the step's move"
            if index == 1:  # start again once, then play the script through
                await type_line(pilot, app, "guide restart")
                assert progress(guide, terminal.state)["step"] == 0
                await pilot.press("enter")
                await settle(pilot, app)
                await pilot.press("enter")
                await settle(pilot, app)
                continue
            await pilot.press("enter")
            await settle(pilot, app)
            mine = [str(action) for seat, action in terminal.state.history() if seat == guide.seat]
            assert mine[index] == chosen["notation"]
        assert progress(guide, terminal.state)["done"]
        assert fill(guide.done, terminal.labels).split(":")[0] in shown(app, "#guide")
        others = [str(action) for seat, action in terminal.state.history() if seat != guide.seat]
        assert others[:3] == [answer for step in guide.steps for answer in step.then]

    drive(PlayApp(terminal), script)


#: Once the script is over, the quickest way to the end: end phases, pass, stop defending, keep.
QUICK = ("pass", "done", "yield", "keep")


@pytest.mark.parametrize("name", ["voluspa", "valda", "bloodrage-valhalla"])
def test_each_guided_game_to_the_game_end_full_screen_with_a_screenshot(name: str, tmp_path: Path) -> None:
    """The script by its highlighted moves (Enter), then the quickest moves to the end of the game."""
    game = get_game(name)
    terminal = start_guide(game)
    guide = terminal.guide
    assert guide is not None

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        steps: set[int] = set()
        for _ in range(2000):
            if terminal.state.is_terminal():
                break
            assert app.deciding == guide.seat
            legal = game.legal_notations(terminal.state, guide.seat)
            now = progress(guide, terminal.state)
            if not now["done"]:
                steps.add(now["step"])
                assert f"step {now['step'] + 1} of {len(guide.steps)}" in shown(app, "#guide")
            if now["expect"] and now["expect"][0] in legal:
                chosen = app.highlighted()
                assert chosen is not None and chosen["notation"] == now["expect"][0], "the highlight is the step's move"
                if now["step"] == 1:
                    screenshot(app, f"guide-{name}", tmp_path)  # docs/screenshots with make screenshots
                await pilot.press("enter")
            else:
                quick = next((word for word in QUICK if word in legal), legal[0])
                await pilot.press(*quick, "enter")
            await settle(pilot, app)
        assert terminal.state.is_terminal(), "the game did not end"
        assert steps == set(range(len(guide.steps)))
        assert progress(guide, terminal.state)["done"]
        assert "(done" in shown(app, "#guide")
        assert shown(app, "#guide") and "Game over" in str(app.query_one("#prompt").border_title)

    drive(PlayApp(terminal), script)
