"""The terminal game (``meadhall play``), driven by scripted input."""

from __future__ import annotations

import io
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import meadhall
from meadhall.bots import make_bot
from meadhall.bots.random_bot import RandomBot
from meadhall.cli.main import build_parser
from meadhall.cli.play import (
    CONTINUE,
    MOVED,
    QUIT,
    SAVE_KEY,
    Setup,
    TerminalGame,
    ask_game,
    ask_setup,
    parse_seats,
    result_lines,
    setup_from_args,
)
from meadhall.core.game import GameState
from meadhall.core.registry import all_games
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, VoluspaState, parse_board
from meadhall.games.voluspa.notation import Place
from meadhall.games.voluspa.text import render_board, render_hand
from meadhall.games.voluspa.tiles import LB, VA

GAME = meadhall.get_game("voluspa")
ROOT = Path(__file__).resolve().parents[1]


class Script:
    """An input function: answers each prompt with ``answer(prompt)`` and keeps a transcript.

    ``segments[i]`` is everything printed between prompt ``i - 1`` and prompt ``i``, and
    ``viewers[i]`` the seat that the game said may see the screen when prompt ``i`` came.
    """

    def __init__(self, out: io.StringIO, limit: int = 5000) -> None:
        self.out = out
        self.answer: Callable[[str], str] = lambda prompt: ""
        self.game: TerminalGame | None = None
        self.prompts: list[str] = []
        self.segments: list[str] = []
        self.viewers: list[int | None] = []
        self.mark = 0
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        text = self.out.getvalue()
        self.segments.append(text[self.mark :])
        self.prompts.append(prompt)
        self.viewers.append(self.game.viewer if self.game is not None else None)
        if len(self.prompts) > self.limit:
            raise AssertionError("the game asked for too much input")
        reply = self.answer(prompt)
        self.out.write(prompt + reply + "\n")
        self.mark = len(self.out.getvalue())
        return reply


def make_terminal(
    players: int = 2,
    bots: tuple[int, ...] = (1,),
    seed: int = 3,
    preset: str = "saga",
    names: list[str] | None = None,
) -> tuple[TerminalGame, Script, io.StringIO]:
    out = io.StringIO()
    script = Script(out)
    state = GAME.new_game(players=players, seed=seed, options={"preset": preset})
    terminal = TerminalGame(
        GAME,
        state,
        names=names,
        bots={seat: RandomBot() for seat in bots},
        input_fn=script,
        output=out,
    )
    script.game = terminal
    return terminal, script, out


def human_to_move(terminal: TerminalGame) -> int:
    seat = terminal.state.to_move()[0]
    assert seat not in terminal.bots
    return seat


def handle(terminal: TerminalGame, out: io.StringIO, line: str) -> tuple[str, str]:
    """Run one line through :meth:`TerminalGame.handle`; return its outcome and its output."""
    start = len(out.getvalue())
    outcome = terminal.handle(line)
    return outcome, out.getvalue()[start:]


def parse_hint(text: str) -> list[str]:
    """The moves listed by ``hint``: after each group's heading, two spaces between moves;
    with ``hint WORD``, a heading line per group, then one move a line followed by its label."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Legal moves ("))
    listed = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        listed.append(line)
    one_a_line = any(line.endswith(":") for line in listed)
    moves: list[str] = []
    for line in listed:
        if one_a_line:
            if line.startswith("    "):
                moves.append(re.split(r"\s{2,}", line.strip())[0])
            continue
        body = line.split("): ", 1)[1] if "): " in line else line.split(": ", 1)[1] if ": " in line else line
        moves.extend(part.strip() for part in re.split(r"\s{2,}", body.strip()) if part.strip())
    return moves


def bring_human_to_move(terminal: TerminalGame) -> None:
    """Let the bots play until a person is to move."""
    while terminal.state.to_move()[0] in terminal.bots:
        terminal.play_bot_turn(terminal.state.to_move()[0])
    terminal.viewer = terminal.state.to_move()[0]


# --- a whole game --------------------------------------------------------------------


def test_one_person_plays_a_whole_game_against_a_random_bot_using_hint() -> None:
    terminal, script, out = make_terminal(seed=21, preset="all+lightning")
    pending_hint = {"asked": False}

    def answer(prompt: str) -> str:
        if not prompt.startswith("Seat "):
            return ""  # the end-of-game prompt: leave
        if not pending_hint["asked"]:
            pending_hint["asked"] = True
            return "hint"
        pending_hint["asked"] = False
        moves = parse_hint(script.segments[-1])
        seat = human_to_move(terminal)
        assert set(moves) == {str(a) for a in terminal.state.legal_actions(seat)}
        return moves[0]

    script.answer = answer
    assert terminal.run() == 0
    state = terminal.state
    assert state.is_terminal()
    text = out.getvalue()
    assert "Game over" in text
    assert "Final ranking:" in text
    ranking = state.ranking()
    for seat in range(2):
        place = {1: "1st", 2: "2nd"}[ranking[seat]]
        assert re.search(rf"{place}\s+{re.escape(terminal.label(seat))}\s+{state.scores()[seat]} points", text)
    winner = terminal.label(ranking.index(1))
    assert f"Winner: {winner}" in text or "Winners:" in text
    # the person played their moves; the bot played the others
    seats_played = {seat for seat, _ in state.history()}
    assert seats_played == {0, 1}
    assert "points (total" in text


def test_all_bots_game_runs_to_the_end_without_showing_any_hand() -> None:
    terminal, script, out = make_terminal(players=3, bots=(0, 1, 2), seed=8, preset="order")
    assert terminal.run() == 0
    assert terminal.state.is_terminal()
    text = out.getvalue()
    assert "Final ranking:" in text
    assert "Your hand" not in text
    assert " drew " not in text and "You drew" not in text
    assert script.prompts == ["Game over: 'save FILE' keeps the record; press Enter to leave. > "]


# --- hot-seat: the pass-the-device screen and hidden hands -------------------------------


def _tiles_text(view: dict[str, Any]) -> str:
    return render_hand(view, "X").split(": ", 1)[1]


def test_hot_seat_passes_the_device_and_never_shows_another_hand() -> None:
    names = ["Ann", "Bo", "Cy"]
    terminal, script, out = make_terminal(players=3, bots=(), seed=17, preset="saga", names=names)
    rng = Rng(3)
    turn_prompts: list[tuple[int, int]] = []  # (prompt index, seat)
    checked = {"segments": 0}

    def answer(prompt: str) -> str:
        index = len(script.prompts) - 1
        segment = script.segments[-1]
        viewer = script.viewers[-1]
        state = terminal.state
        # Whatever was printed since the last prompt was printed for `viewer` only.
        for line in segment.splitlines():
            if "Your hand" in line:
                assert viewer is not None
                assert line.startswith(f"Your hand, {terminal.label(viewer)}:"), (viewer, line)
            if " drew " in line:
                assert line.strip().startswith("You drew") and viewer is not None, line
        if not state.is_terminal():
            for other in range(3):
                hand = state.view(other)
                tiles = _tiles_text(hand)
                if other == viewer or len(hand["hand"]) < 3:
                    continue
                if viewer is not None and tiles == _tiles_text(state.view(viewer)):
                    continue
                assert tiles not in segment, f"seat {other + 1}'s hand shown while seat {viewer} may look"
                checked["segments"] += 1
        if prompt.startswith("Seat "):
            seat = human_to_move(terminal)
            assert viewer == seat
            assert f"Your hand, {terminal.label(seat)}: {_tiles_text(state.view(seat))}" in out.getvalue()
            turn_prompts.append((index, seat))
            # now and then look around first: these print history, which must stay private too
            extra = {3: "log all", 4: "explain", 5: "hand", 6: "scores"}.get(len(turn_prompts) % 11)
            if extra is not None and script.prompts[-2:-1] != [prompt]:
                return extra
            legal = state.legal_actions(seat)
            return str(rng.choice(legal))
        return ""

    script.answer = answer
    assert terminal.run() == 0
    assert terminal.state.is_terminal()
    assert checked["segments"] > 50
    # between two different people's turns there is always a pass-the-device screen
    passes = 0
    for (first, seat_a), (second, seat_b) in itertools.pairwise(turn_prompts):
        if seat_a == seat_b:
            continue
        between = script.prompts[first + 1 : second]
        name = names[seat_b]
        assert any(p == f"Press Enter when only {name} can see the screen. " for p in between), between
        assert any(p.startswith("Your turn is over. Press Enter to hide") for p in between), between
        screen = "".join(script.segments[first + 1 : second + 1])
        assert f"Pass the device to Seat {seat_b + 1} ({name})." in screen
        passes += 1
    assert passes > 20
    # the pass screen itself shows no hand
    for prompt, segment in zip(script.prompts, script.segments, strict=True):
        if prompt.startswith("Press Enter when only"):
            assert "Your hand" not in segment


def test_clear_screen_codes_only_when_asked() -> None:
    for clear in (True, False):
        out = io.StringIO()
        script = Script(out)
        state = GAME.new_game(players=2, seed=4)
        terminal = TerminalGame(GAME, state, input_fn=script, output=out, clear_screen=clear)
        script.game = terminal
        script.answer = lambda prompt: "quit" if prompt.startswith("Seat") else ""
        assert terminal.run() == 0
        assert ("\x1b[2J" in out.getvalue()) is clear
        assert "Pass the device to" in out.getvalue()


def test_quit_at_the_pass_screen_shows_no_hand() -> None:
    terminal, script, out = make_terminal(players=2, bots=(), seed=4)
    script.answer = lambda prompt: "quit" if prompt.startswith("Press Enter when only") else "n"
    assert terminal.run() == 0
    assert "Your hand" not in out.getvalue()
    assert "Farewell." in out.getvalue()


# --- one line at a time ----------------------------------------------------------------


def test_hint_lists_exactly_the_legal_actions() -> None:
    terminal, _, out = make_terminal(seed=5, preset="all")
    bring_human_to_move(terminal)
    seat = human_to_move(terminal)
    outcome, text = handle(terminal, out, "hint")
    assert outcome == CONTINUE
    legal = [str(a) for a in terminal.state.legal_actions(seat)]
    listed = parse_hint(text)
    assert sorted(listed) == sorted(legal)
    assert f"Legal moves ({len(legal)}):" in text
    code = legal[0].split()[-1][:2]
    _, only = handle(terminal, out, f"hint {code}")
    assert set(parse_hint(only)) == {m for m in legal if m.split()[-1].startswith(code + "@")}


def test_malformed_and_illegal_moves_get_different_messages_and_change_nothing() -> None:
    terminal, _, out = make_terminal(seed=6)
    bring_human_to_move(terminal)
    seat = human_to_move(terminal)
    before = terminal.state.fingerprint()
    outcome, malformed = handle(terminal, out, "TH@one,two")
    assert outcome == CONTINUE
    assert "Cannot read that move" in malformed and "Not allowed" not in malformed
    assert terminal.state.fingerprint() == before
    hand = terminal.state.view(seat)["hand"]
    missing = next(code for code in ("OD", "TH", "TR", "DR", "FE", "SK", "VA", "LO") if code not in hand)
    outcome, illegal = handle(terminal, out, f"{missing}@1,0")
    assert outcome == CONTINUE
    assert "Not allowed" in illegal and "Cannot read" not in illegal
    assert "Nothing was played" in illegal
    assert terminal.state.fingerprint() == before
    outcome, far = handle(terminal, out, f"{hand[0]}@40,40")
    assert "Not allowed" in far and "does not touch" in far
    assert terminal.state.fingerprint() == before


def test_a_turn_is_applied_whole_or_not_at_all() -> None:
    # Find a deal where the person can open with a Hermod and follow it up.
    for seed in range(200):
        terminal, _, out = make_terminal(seed=seed, preset="saga")
        bring_human_to_move(terminal)
        seat = human_to_move(terminal)
        state = terminal.state
        hermods = [a for a in state.legal_actions(seat) if isinstance(a, Place) and str(a).startswith("HM@")]
        if not hermods:
            continue
        trial = state.clone()
        trial.apply(seat, hermods[0])
        follow = [a for a in trial.legal_actions(seat) if isinstance(a, Place)]
        if follow:
            break
    else:  # pragma: no cover - the seeds above hold such a deal
        pytest.fail("no deal with a Hermod opening found")
    before = state.fingerprint()
    # a bad second step: nothing is applied
    outcome, text = handle(terminal, out, f"{hermods[0]} OD@99,99")
    assert outcome == CONTINUE
    assert "Not allowed: step 2 (OD@99,99)" in text
    assert state.fingerprint() == before
    # too many steps: the turn is over after the follow-up
    outcome, text = handle(terminal, out, f"{hermods[0]} {follow[0]} {follow[0]}")
    assert outcome == CONTINUE and "your turn is over after" in text
    assert state.fingerprint() == before
    # the whole turn at once
    expected = state.clone()
    expected.apply(seat, hermods[0])
    expected.apply(seat, follow[0])
    outcome, text = handle(terminal, out, f"{hermods[0]} {follow[0]}")
    assert outcome == MOVED
    assert state.fingerprint() == expected.fingerprint()
    assert text.count("points (total") == 2


def test_a_move_prints_its_points_and_explain_agrees_with_the_engine() -> None:
    terminal, _, out = make_terminal(seed=9, preset="base")
    bring_human_to_move(terminal)
    seat = human_to_move(terminal)
    state = terminal.state
    # pick the move that scores most, so that the points are not all zero
    best, best_points = None, -1
    for action in state.legal_actions(seat):
        trial = state.clone()
        points = sum(int(e.data["points"]) for e in trial.apply(seat, action) if e.kind == "scored")
        if points > best_points:
            best, best_points = action, points
    assert best is not None and best_points > 0
    before = state.fingerprint()
    outcome, text = handle(terminal, out, f"explain {best}")
    assert outcome == CONTINUE
    assert state.fingerprint() == before
    assert f"Legal: {best_points} point" in text
    assert "You can play it now." in text
    assert "dominates" in text
    outcome, text = handle(terminal, out, "explain OD@50,50")
    assert "Illegal:" in text
    outcome, text = handle(terminal, out, "explain XX@1,0")
    assert "Cannot read that move" in text
    outcome, text = handle(terminal, out, str(best))
    assert outcome == MOVED
    assert f"{best_points} point{'s' if best_points != 1 else ''} (total {best_points}" in text
    assert "dominates" in text
    outcome, text = handle(terminal, out, "explain")
    assert "The last turn:" in text and str(best) in text


def test_save_then_load_gives_the_same_game(tmp_path: Path) -> None:
    terminal, _, out = make_terminal(players=3, bots=(1,), seed=12, preset="all", names=["Ann", "", "Cy"])
    for _ in range(6):
        bring_human_to_move(terminal)
        seat = human_to_move(terminal)
        outcome, _ = handle(terminal, out, str(terminal.state.legal_actions(seat)[-1]))
        assert outcome == MOVED
    path = tmp_path / "game.json"
    outcome, text = handle(terminal, out, f"save {path}")
    assert outcome == CONTINUE and "Saved to" in text
    saved = path.read_text(encoding="utf-8")
    record = meadhall.GameRecord.from_json(saved)
    assert record.replay().fingerprint() == terminal.state.fingerprint()
    assert json.loads(saved)[SAVE_KEY]["seats"] == ["human", "random", "human"]
    assert record.players == ["Ann", "Bjorn the random bot", "Cy"]

    other, _, other_out = make_terminal(players=2, bots=(), seed=99)
    outcome, text = handle(other, other_out, f"load {path}")
    assert outcome == "loaded"
    assert other.state.fingerprint() == terminal.state.fingerprint()
    assert sorted(other.bots) == [1]
    assert other.names == ["Ann", "Bjorn the random bot", "Cy"]
    outcome, text = handle(other, other_out, f"load {tmp_path / 'missing.json'}")
    assert outcome == CONTINUE and "Cannot load" in text
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    outcome, text = handle(other, other_out, f"load {tmp_path / 'bad.json'}")
    assert outcome == CONTINUE and "Cannot load" in text
    assert other.state.fingerprint() == terminal.state.fingerprint()


def test_quit_offers_to_save(tmp_path: Path) -> None:
    terminal, script, out = make_terminal(seed=2)
    bring_human_to_move(terminal)
    seat = human_to_move(terminal)
    handle(terminal, out, str(terminal.state.legal_actions(seat)[0]))
    path = tmp_path / "quit.json"
    answers = iter(["y", str(path)])
    script.answer = lambda prompt: next(answers)
    outcome, _ = handle(terminal, out, "quit")
    assert outcome == QUIT
    assert script.prompts == ["Save the game before quitting? [y/N] ", "File name [meadhall-voluspa-save.json]: "]
    assert meadhall.GameRecord.from_json(path.read_text(encoding="utf-8")).replay().fingerprint() == (
        terminal.state.fingerprint()
    )


def test_end_of_input_leaves_quietly() -> None:
    terminal, script, out = make_terminal(seed=2)

    def answer(prompt: str) -> str:
        raise EOFError

    script.answer = answer
    assert terminal.run() == 0
    assert "End of input" in out.getvalue()


def test_board_shows_coordinates_and_marks_the_last_turn() -> None:
    state = GAME.new_game(players=2, seed=1)
    seat = state.to_move()[0]
    action = state.legal_actions(seat)[0]
    state.apply(seat, action)
    assert isinstance(action, Place)
    lines = render_board(state.view(None))
    header = lines[0].split()
    xs = [int(x) for x in header]
    assert xs == list(range(xs[0], xs[-1] + 1))
    assert action.x in xs and 0 in xs
    row = next(line for line in lines[1:] if line.split()[0] == str(action.y))
    assert "*" in row
    assert render_board({"board": []}) == ["(the board is empty)"]


# --- setup -------------------------------------------------------------------------------


def test_setup_questions_default_to_you_against_one_random_bot() -> None:
    out = io.StringIO()
    setup = ask_setup(GAME, lambda prompt: "", out)
    assert (setup.players, setup.bot_seats, setup.options) == (2, [1], {"preset": "base"})
    answers = iter(["9", "3", "x", "none", "Ann", "", "Cy", "nope", "saga"])
    setup = ask_setup(GAME, lambda prompt: next(answers), out)
    assert setup.players == 3 and setup.bot_seats == [] and setup.names == ["Ann", "", "Cy"]
    assert setup.options == {"preset": "saga"}
    assert "Please give a number" in out.getvalue()


def test_with_no_game_named_you_are_asked_which() -> None:
    games = all_games()
    assert len(games) > 1  # otherwise the only one installed is played without asking
    out = io.StringIO()
    assert ask_game(lambda prompt: "", out) is games[0]
    answers = iter(["0", "chess", str(len(games))])
    assert ask_game(lambda prompt: next(answers), out) is games[-1]
    answers = iter([VOLUSPA.info.aliases[0]])
    assert ask_game(lambda prompt: next(answers), out) is VOLUSPA
    text = out.getvalue()
    assert text.startswith("Which game?\n  1. ") and text.count("Please give a number from 1") == 2
    assert all(f"{game.info.title} ({game.info.name}, " in text for game in games)


def test_configured_play_without_a_game_asks_for_one_by_name() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "play", "--players", "2", "--bots", "2"],
        capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("meadhall play: name the game (meadhall play GAME): ")
    assert all(game.info.name in done.stderr for game in all_games())


def test_flags_set_the_game_up() -> None:
    parser = build_parser()

    def setup_of(*argv: str) -> Setup:
        return setup_from_args(parser.parse_args(["play", "voluspa", *argv]), GAME)

    assert setup_of("--players", "3").bot_seats == [1, 2]
    assert setup_of("--players", "3", "--bots", "none").bot_seats == []
    assert setup_of("--players", "4", "--humans", "2").bot_seats == [2, 3]
    assert setup_of("--bots", "3").players == 3
    setup = setup_of("--names", "Ann,Bo", "--bots", "none", "--preset", "saga", "--option", "no-late-hel=true")
    assert setup.names == ["Ann", "Bo"] and setup.options == {"preset": "saga", "no-late-hel": "true"}
    with pytest.raises(ValueError, match="not both"):
        setup_of("--bots", "2", "--humans", "1")
    with pytest.raises(ValueError, match="no seat 4"):
        setup_of("--players", "3", "--bots", "4")
    with pytest.raises(ValueError, match="2 to 5 players"):
        setup_of("--players", "7")
    assert parse_seats("2, 3", 3) == [1, 2]
    with pytest.raises(ValueError):
        parse_seats("two", 3)


def test_final_ranking_explains_a_tie_break() -> None:
    view = {
        "seats": [
            {"seat": 0, "score": 30, "reached_at": 40},
            {"seat": 1, "score": 30, "reached_at": 35},
            {"seat": 2, "score": 12, "reached_at": 20},
        ],
        "places": [2, 1, 3],
    }
    lines = result_lines(VOLUSPA.words().result(view), ["Seat 1 (A)", "Seat 2 (B)", "Seat 3 (C)"])
    text = "\n".join(lines)
    assert lines[1].split()[:3] == ["1st", "Seat", "2"]
    assert "Tie-break" in text and "Seat 2 (B) places higher" in text
    assert "Winner: Seat 2 (B)." in text


def test_one_point_is_one_point() -> None:
    view = {
        "seats": [{"seat": 0, "score": 1, "reached_at": 3}, {"seat": 1, "score": 1, "reached_at": 3}],
        "places": [1, 1],
    }
    text = "\n".join(result_lines(VOLUSPA.words().result(view), ["Seat 1 (A)", "Seat 2 (B)"]))
    assert "1 points" not in text and "have 1 point each" in text
    assert [line.endswith("  1 point") for line in text.splitlines()[1:3]] == [True, True]


def test_bots_of_a_terminal_game_are_made_by_name() -> None:
    state: GameState[Any] = GAME.new_game(players=2, seed=1)
    terminal = TerminalGame(GAME, state, bots={1: make_bot("random")}, input_fn=lambda p: "", output=io.StringIO())
    assert terminal.names == ["You", "Bjorn the random bot"]
    assert terminal.humans == [0] and not terminal.hotseat


# --- the real command ------------------------------------------------------------------


def test_meadhall_play_runs_as_a_command_with_scripted_input(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "meadhall"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "meadhall.cli.main"]
    script = "help\nhint\nboard\nhand\nscores\nexplain OD@1,0\nXX@1,1\nlog\ntiles\nquit\ny\nsaved.json\n"
    result = subprocess.run(
        [*command, "play", "voluspa", "--players", "2", "--bots", "2", "--seed", "3"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Legal moves (" in result.stdout
    assert "Your hand, Seat 1 (You):" in result.stdout
    assert "Cannot read that move" in result.stdout
    assert "Farewell." in result.stdout
    saved = json.loads((tmp_path / "saved.json").read_text(encoding="utf-8"))
    assert saved["seed"] == 3 and saved[SAVE_KEY]["seats"] == ["human", "medium"]
    loaded = subprocess.run(
        [*command, "play", "--load", "saved.json"],
        input="board\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "Seat 2 (Bjorn the medium bot): medium bot (ismcts:0.25s)" in loaded.stdout
    assert "=== Turn 2: Seat 1 (You) ===" in loaded.stdout
    bad = subprocess.run(
        [*command, "play", "voluspa", "--preset", "nope"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert bad.returncode == 2 and "no preset 'nope'" in bad.stderr


def test_a_line_may_be_left_out_where_both_score_the_same() -> None:
    config = VOLUSPA.config({"kinds": ["LB", "SK", "VA", "NI"]}, players=2)
    cross = ".  SK .\nSK SK SK\n.  SK ."
    for board, accepted in ((cross, True), (cross.replace(".  SK .", ".  NI .", 1), False)):
        state = VoluspaState.from_position(config, parse_board(board), [[LB, VA], [VA]])
        out = io.StringIO()
        terminal = TerminalGame(GAME, state, names=["You", "B"], output=out)
        terminal.viewer = 0
        outcome = terminal.handle("LB@1,1")
        text = out.getvalue()
        if accepted:
            assert outcome == MOVED
            assert "no line named (its row and column score the same)   [LB@1,1]" in text
        else:
            assert outcome == CONTINUE and state.history() == []
            assert "choose LB@1,1:row (3 points) or LB@1,1:col (5 points)" in text


# --- the terminal finds a game's words through the game ---------------------------------


def test_hint_with_a_word_lists_that_group_with_the_games_labels() -> None:
    terminal, _, out = make_terminal(seed=5, preset="all")
    bring_human_to_move(terminal)
    seat = human_to_move(terminal)
    state = terminal.state
    words = VOLUSPA.words().actions(state.view(seat), [str(a) for a in state.legal_actions(seat)])
    code = str((words[0]["target"] or {})["tile"])
    _, text = handle(terminal, out, f"hint {code}")
    lines = text.splitlines()
    group = words[0]["group"]
    assert f"  {group}:" in lines
    for item in words:
        if item["group"] == group:
            assert any(
                line.strip().startswith(item["notation"] + " ") and line.endswith(item["label"]) for line in lines
            )
    _, none = handle(terminal, out, "hint nothing-like-this")
    assert "no group is called 'nothing-like-this'" in none and group in none


def test_the_terminal_finds_each_games_renderer_through_the_game() -> None:
    from meadhall.cli.play import WordsRenderer, renderer_for
    from meadhall.cli.play_valda import ValdaRenderer
    from meadhall.core.registry import get_game

    assert isinstance(renderer_for(VOLUSPA), WordsRenderer)
    assert isinstance(renderer_for(get_game("bloodrage")), WordsRenderer)
    # transitional (phase 2 removes it): a game whose words are still in cli/ names its renderer
    assert isinstance(renderer_for(get_game("valda")), ValdaRenderer)

    class Wordless(type(VOLUSPA)):  # type: ignore[misc]
        def words(self) -> None:
            return None

    with pytest.raises(ValueError, match="has no terminal game"):
        renderer_for(Wordless())


def test_a_game_with_words_plays_in_the_terminal_from_its_words_alone() -> None:
    from meadhall.core.words import fill

    terminal, _, out = make_terminal(players=2, bots=(0, 1), seed=8, preset="saga")
    assert terminal.run() == 0
    text = out.getvalue()
    words = VOLUSPA.words()
    labels = terminal.labels
    result = words.result(terminal.state.view(None))
    for standing in result["standings"]:
        assert labels[standing["seat"]] in text and standing["score"] in text
    for event in terminal.log:
        said = words.event(event, None)
        if event.visible_to(None) and said is not None and not said.get("heading"):
            assert fill(said["text"], labels) in text
