"""The full-screen terminal game (``meadhall.cli.tui``), driven by Textual's pilot.

Each game is played by the arrow keys and Enter, by a click and by typed notation; the
explain pane is checked against the game's own preview; the hot seat's hand-off screen is
checked to hide the previous person's hand; ``meadhall play`` keeps to the line mode when
piped or given ``--line``. With ``MEADHALL_SCREENSHOTS=DIR`` the SVG screenshots of each
game are written there (``make screenshots`` writes docs/screenshots/).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, RichLog, Static

import meadhall
from meadhall.bots import make_bot
from meadhall.cli import command_play
from meadhall.cli.main import build_parser
from meadhall.cli.play import TerminalGame
from meadhall.cli.tui import HandOff, PlayApp, preview_lines
from meadhall.core.errors import IllegalAction
from meadhall.core.game import Game
from meadhall.core.preview import preview_target
from meadhall.core.registry import all_games

ROOT = Path(__file__).resolve().parents[1]
GAMES = [game for game in all_games() if game.info.name in ("voluspa", "valda", "bloodrage-valhalla")]
SIZE = (150, 46)


def terminal_for(game: Game, *, humans: int = 1, seed: int = 5) -> TerminalGame:
    """A game whose first ``humans`` seats are people, the rest random bots."""
    players = max(2, game.info.min_players)
    state = game.new_game(players=players, seed=seed)
    bots = {seat: make_bot("random") for seat in range(humans, players)}
    return TerminalGame(game, state, bots=bots)


def drive(app: PlayApp, script: Callable[[Pilot[int], PlayApp], Awaitable[None]]) -> None:
    """Run ``script`` against ``app`` under the pilot."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await script(pilot, app)

    asyncio.run(main())


async def settle(pilot: Pilot[int], app: PlayApp) -> None:
    """Wait until the bots are done and the screen is drawn (a person decides, a hand-off, or the end)."""
    for _ in range(2000):
        await pilot.pause()
        await app.workers.wait_for_complete()
        if not app.busy or isinstance(app.screen, HandOff):
            await pilot.pause()
            return
    raise AssertionError("the bots never finished")


def shown(app: PlayApp, selector: str) -> str:
    """The text a Static pane shows."""
    return str(app.query_one(selector, Static).render())


def moves_of(terminal: TerminalGame, start: int, seat: int) -> list[str]:
    """The notations ``seat`` played since ply ``start``."""
    return [str(action) for who, action in terminal.state.history()[start:] if who == seat]


def screenshot(app: PlayApp, name: str, tmp_path: Path) -> Path:
    """Save the screen as SVG (into MEADHALL_SCREENSHOTS if set) and return the file."""
    folder = Path(os.environ.get("MEADHALL_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = Path(app.save_screenshot(filename=f"terminal-{name}.svg", path=str(folder)))
    return path


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.name)
def test_a_move_by_arrow_keys_and_enter(game: Game) -> None:
    terminal = terminal_for(game)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        assert app.deciding == 0
        assert shown(app, "#board").strip(), "the game's board drawing is on the screen"
        assert shown(app, "#players").strip()
        start = len(terminal.state.history())
        first = app.highlighted()
        assert first is not None and first["notation"] == app.listed[0]["notation"]
        await pilot.press("down")
        wanted = app.highlighted()
        assert wanted is not None
        if len(app.listed) > 1:
            assert wanted["notation"] != first["notation"], "the arrow key moved the highlight"
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves_of(terminal, start, 0)[:1] == [wanted["notation"]]

    drive(PlayApp(terminal), script)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.name)
def test_a_move_by_typed_notation_and_a_click(game: Game) -> None:
    terminal = terminal_for(game, seed=7)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        start = len(terminal.state.history())
        wanted = app.listed[-1]["notation"]
        prompt = app.query_one("#prompt", Input)
        prompt.value = wanted
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves_of(terminal, start, 0)[:1] == [wanted]
        if terminal.state.is_terminal() or app.deciding is None:
            return
        start = len(terminal.state.history())
        moves = app.query_one("#moves", OptionList)
        index = next(i for i in range(moves.option_count) if moves.get_option_at_index(i).id is not None)
        clicked = app.listed[int(moves.get_option_at_index(index).id or 0)]["notation"]
        moves.highlighted = index
        moves.action_select()
        await settle(pilot, app)
        assert moves_of(terminal, start, 0)[:1] == [clicked]

    drive(PlayApp(terminal), script)


def test_typed_keys_reach_the_prompt_and_play() -> None:
    game = meadhall.get_game("voluspa")
    terminal = terminal_for(game)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        start = len(terminal.state.history())
        wanted = app.listed[2]["notation"]
        await pilot.press(*wanted)
        assert app.query_one("#prompt", Input).value == wanted
        await pilot.press("enter")
        await settle(pilot, app)
        assert moves_of(terminal, start, 0)[:1] == [wanted]

    drive(PlayApp(terminal), script)


def test_malformed_and_illegal_moves_get_different_answers() -> None:
    game = meadhall.get_game("voluspa")
    terminal = terminal_for(game)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        prompt = app.query_one("#prompt", Input)
        before = len(terminal.state.history())
        prompt.value = "%%nonsense"
        await pilot.press("enter")
        assert shown(app, "#message").startswith("Cannot read that move")
        assert app.query_one("#message").has_class("refused")
        prompt.value = "FE@9,9"  # well formed, far from every tile
        await pilot.press("enter")
        assert shown(app, "#message").startswith("Not allowed")
        assert len(terminal.state.history()) == before
        prompt.value = "hint"
        await pilot.press("enter")
        assert not app.query_one("#message").has_class("refused")
        log = "\n".join(str(line.text) for line in app.query_one("#log", RichLog).lines)
        assert "Legal moves" in log
        prompt.value = "explain FE@9,9"  # the game's own command answers in the log
        await pilot.press("enter")
        said = [str(line.text) for line in app.query_one("#log", RichLog).lines]
        assert any(line.startswith("Illegal") for line in said[-4:]), said[-4:]
        assert len(terminal.state.history()) == before

    drive(PlayApp(terminal), script)


def test_leaving_an_unsaved_game_takes_a_second_ctrl_q() -> None:
    terminal = terminal_for(meadhall.get_game("voluspa"))

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        await pilot.press("ctrl+q")  # nothing played yet: leaves at once
        assert app.return_value == 0 and not app.is_running

    drive(PlayApp(terminal), script)
    terminal = terminal_for(meadhall.get_game("voluspa"))

    async def played(pilot: Pilot[int], app: PlayApp) -> None:
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running and app.warned
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running

    drive(PlayApp(terminal), played)


def test_a_typed_move_is_explained_as_it_is_typed_legal_or_not() -> None:
    game = meadhall.get_game("voluspa")
    terminal = terminal_for(game)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        words = app.renderer.words
        view = terminal.state.view(0)
        legal = [item["notation"] for item in app.listed]
        prompt = app.query_one("#prompt", Input)
        prompt.value = legal[-1]
        await pilot.pause()
        wanted = words.preview(view, legal, legal[-1])
        assert shown(app, "#explain") == "\n".join(preview_lines(wanted, terminal.labels))
        prompt.value = "FE@9,9"
        await pilot.pause()
        text = shown(app, "#explain")
        assert text.startswith("Fenrir at 9,9"), text
        refusal = text.splitlines()[1]
        try:
            terminal.state.check(0, game.parse_action("FE@9,9"))
        except IllegalAction as error:
            assert refusal == str(error)
        else:
            raise AssertionError("FE@9,9 is legal")
        prompt.value = "hint"  # a command: the highlighted move is explained
        await pilot.pause()
        first = app.highlighted()
        assert first is not None and shown(app, "#explain").startswith(first["label"].split(" at ")[0])

    drive(PlayApp(terminal), script)


def test_save_and_load_at_the_prompt(tmp_path: Path) -> None:
    game = meadhall.get_game("valda")
    terminal = terminal_for(game, seed=9)
    saved = tmp_path / "saved.json"

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        prompt = app.query_one("#prompt", Input)
        prompt.value = f"save {saved}"
        await pilot.press("enter")
        assert saved.is_file()
        ply = len(terminal.state.history())
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(terminal.state.history()) > ply
        prompt.value = f"load {saved}"
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(terminal.state.history()) == ply
        assert app.deciding == 0 and app.listed

    drive(PlayApp(terminal), script)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.name)
def test_the_explain_pane_shows_the_games_preview_of_the_highlighted_move(game: Game) -> None:
    terminal = terminal_for(game, seed=11)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        seat = app.deciding
        assert seat is not None
        words = app.renderer.words
        legal = [item["notation"] for item in app.listed]
        for _ in range(min(3, len(app.listed))):
            item = app.highlighted()
            assert item is not None
            preview = None
            if item["target"]:
                preview = preview_target(words, terminal.state, seat, item["target"], legal)
            if preview is None:
                preview = words.preview(terminal.state.view(seat), legal, item["notation"])
            text = shown(app, "#explain")
            assert text == "\n".join(preview_lines(preview, terminal.labels))
            assert text.strip()
            await pilot.press("down")

    drive(PlayApp(terminal), script)


def test_hot_seat_hands_off_and_hides_the_previous_hand() -> None:
    game = meadhall.get_game("voluspa")
    terminal = terminal_for(game, humans=2)
    labels = terminal.labels

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        assert isinstance(app.screen, HandOff)
        assert "Pass the device to " + labels[0] in str(app.screen.query_one("#handoff-text", Static).render())
        assert shown(app, "#hand") == ""
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.deciding == 0
        mine = "\n".join(app.renderer.hand_lines(terminal.state.view(0), labels[0]))
        assert mine and shown(app, "#hand") == mine
        await pilot.press("enter")  # the highlighted move
        await settle(pilot, app)
        assert isinstance(app.screen, HandOff)
        assert "Pass the device to " + labels[1] in str(app.screen.query_one("#handoff-text", Static).render())
        assert terminal.viewer is None
        main = app.screen_stack[0]
        assert str(main.query_one("#hand", Static).render()) == "", "seat 1's hand left the screen"
        assert main.query_one("#moves", OptionList).option_count == 0
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.deciding == 1
        theirs = "\n".join(app.renderer.hand_lines(terminal.state.view(1), labels[1]))
        assert shown(app, "#hand") == theirs

    drive(PlayApp(terminal), script)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.name)
def test_screenshot_a_few_turns_in(game: Game, tmp_path: Path) -> None:
    terminal = terminal_for(game, seed=21)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        for _ in range(4):  # a few decisions in, by Enter on the highlighted move
            await pilot.press("enter")
            await settle(pilot, app)
        await pilot.press("down")
        board = shown(app, "#board")
        svg = screenshot(app, game.info.name, tmp_path).read_text(encoding="utf-8")
        first = next(line for line in board.splitlines() if line.strip()).strip()
        assert first.split()[0] in svg, "the board is in the picture"
        assert "Explain" in svg and "Players" in svg

    drive(PlayApp(terminal), script)


def test_screenshot_the_hand_off(tmp_path: Path) -> None:
    terminal = terminal_for(meadhall.get_game("valda"), humans=2)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        assert isinstance(app.screen, HandOff)
        svg = screenshot(app, "hand-off", tmp_path).read_text(encoding="utf-8")
        assert "Pass" in svg and "device" in svg

    drive(PlayApp(terminal), script)


def test_hot_seat_log_holds_only_what_the_next_person_may_see() -> None:
    game = meadhall.get_game("bloodrage")
    terminal = terminal_for(game, humans=2)  # two people and a bot draft at once: each pick is private

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        await pilot.press("enter")  # the hand-off to seat 1
        await settle(pilot, app)
        assert app.deciding == 0
        await pilot.press("enter")  # seat 1 keeps a card
        await settle(pilot, app)
        assert isinstance(app.screen, HandOff)
        terminal.viewer = 0
        mine = set(terminal._visible_log(terminal.log))
        terminal.viewer = 1
        theirs = set(terminal._visible_log(terminal.log))
        terminal.viewer = None
        private = mine - theirs
        assert private, "seat 1's pick is worded for seat 1 alone"
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.deciding == 1
        log = [str(line.text) for line in app.query_one("#log", RichLog).lines]
        assert log and not private & set(log)

    drive(PlayApp(terminal), script)


def test_a_whole_game_to_its_end_by_the_keyboard() -> None:
    game = meadhall.get_game("voluspa")
    terminal = terminal_for(game, seed=3)

    async def script(pilot: Pilot[int], app: PlayApp) -> None:
        for _ in range(200):
            if terminal.state.is_terminal():
                break
            await pilot.press("enter")
            await settle(pilot, app)
        assert terminal.state.is_terminal()
        assert "Final ranking:" in shown(app, "#board")
        assert app.query_one("#moves", OptionList).option_count == 0

    drive(PlayApp(terminal), script)


# --- when the full screen is used -----------------------------------------------------------


def _run_play(monkeypatch: pytest.MonkeyPatch, argv: list[str], tty: bool) -> list[Any]:
    opened: list[Any] = []

    def run_app(terminal: TerminalGame, **kwargs: Any) -> int:
        del kwargs
        opened.append(terminal)
        return 0

    monkeypatch.setattr(sys.stdin, "isatty", lambda: tty, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty, raising=False)
    monkeypatch.setattr("meadhall.cli.tui.run_app", run_app)
    monkeypatch.setattr(TerminalGame, "run", lambda self: 0)
    args = build_parser().parse_args(["play", *argv])
    assert command_play.run(args) == 0
    return opened


def test_a_terminal_gets_the_full_screen_and_line_keeps_the_line_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["voluspa", "--humans", "1", "--bot", "random", "--seed", "1"]
    assert len(_run_play(monkeypatch, argv, tty=True)) == 1
    assert _run_play(monkeypatch, [*argv, "--line"], tty=True) == []
    assert _run_play(monkeypatch, argv, tty=False) == []


def test_piped_input_plays_line_by_line() -> None:
    command = [sys.executable, "-m", "meadhall.cli.main", "play", "voluspa", "--humans", "1", "--bot", "random"]
    done = subprocess.run(
        [*command, "--seed", "2"], input="hint\nquit\n", capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "Legal moves" in done.stdout and "Farewell." in done.stdout
    assert "\x1b[" not in done.stdout, "no terminal codes when piped"
