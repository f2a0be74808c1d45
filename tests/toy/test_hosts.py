"""The toy game, a game from another package, in meadhall's generic hosts: the terminal
(``meadhall play toy``), the lab (``meadhall.lab`` and ``meadhall arena --game toy``), the
server's pages and payloads. None of them names it; each finds it through the registry.
(The browser plays it to its end in tests/e2e/test_toy_browser.py; the conformance suite,
tests/conformance, plays every preset and player count.)
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from meadhall.cli.bench import measure
from meadhall.cli.play import Setup, WordsRenderer, renderer_for, start_game
from meadhall.core.record import GameRecord
from meadhall.lab.arena import play_game, summarize
from meadhall.lab.selfplay import Series
from meadhall.testing.conformance import check_game
from tests.test_architecture import NUMBER_CONSTANT, games_named_in, generic_files, parses_notation
from tests.toy import TOY


def _meadhall(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
    )


def test_the_conformance_suite_runs_over_it() -> None:
    check_game(TOY, seeds=(1, 2, 3))


def test_the_terminal_lays_it_out_from_its_words_and_text() -> None:
    assert isinstance(renderer_for(TOY), WordsRenderer)


def test_a_person_plays_a_whole_game_in_the_terminal_against_a_bot() -> None:
    """Scripted input: commands first, a malformed and an illegal move, then the first legal move each time."""
    commands = iter(["help", "hint", "runes", "board", "hand", "scores", "play:x", "play:99"])
    out = io.StringIO()
    prompts: list[str] = []

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        command = next(commands, None)
        if command is not None:
            return command
        seat = terminal.seat_to_move()
        if seat is None:
            raise EOFError  # the game is over: leave at its last question
        return str(terminal.state.legal_actions(seat)[-1])  # the highest rune, or pass

    terminal = start_game(TOY, Setup(players=2, bot_seats=[1], seed=7, bot_kind="random"), input_fn=typed, output=out)
    assert terminal.run() == 0
    text = out.getvalue()
    assert terminal.state.is_terminal()
    assert "Toy Duel: 2 players, Six rounds, hands of three (standard)." in text
    assert "play:4           lead the round with the rune 4 from your hand" in text  # its notation help
    assert "Lead a rune: play:" in text  # hint, grouped by its words
    assert "Rune 6" in text and "Die" in text  # its components (the 'runes' command)
    assert "Your runes, Seat 1 (You): [" in text  # its text drawing of the hand
    assert "Cannot read that move" in text  # malformed
    assert "Not allowed: You hold no rune 99." in text  # illegal, in the engine's words
    assert "=== Round 1 of 6: Seat 1 (You) leads ===" in text  # its heading as the turn header
    assert "The die shows" in text and "wins the round with rune" in text
    assert "Seat 2 (Bjorn the random bot) is dealt 3 runes" in text  # the deal, as everyone sees it
    assert "You draw rune" in text  # a private event, worded for its one reader
    assert "Final ranking:" in text and "Winner" in text


def test_meadhall_play_toy_runs_as_a_command_with_scripted_input(tmp_path: Path) -> None:
    # The deal of seed 3 gives seat 1 the runes 3, 5 and 6: it leads a 5, and quits when next asked.
    script = "help\nhint\nboard\nrunes\nanswer:1\nplay:x\nlog\nplay:5\nquit\ny\nsaved.json\n"
    args = ["play", "toy", "--players", "3", "--bots", "2,3", "--bot", "random", "--seed", "3"]
    done = _meadhall(*args, stdin=script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Toy Duel: 3 players" in done.stdout
    assert "Legal moves (" in done.stdout and "Not allowed:" in done.stdout and "Cannot read that move" in done.stdout
    assert "You are dealt runes 3, 5 and 6." in done.stdout  # the log: the deal, as its one reader sees it
    assert "Seat 1 (You) leads rune 5." in done.stdout
    saved = json.loads((tmp_path / "saved.json").read_text(encoding="utf-8"))
    assert saved["game"] == "toy" and saved["seed"] == 3
    loaded = _meadhall("play", "--load", "saved.json", stdin="board\nquit\nn\n", cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    assert "Round 2 of 6" in loaded.stdout and "Seat 1 (You) leads [5]" not in loaded.stdout


def test_meadhall_replay_steps_through_a_record_of_it(tmp_path: Path) -> None:
    state = TOY.new_game(players=2, seed=5, options={"preset": "standard"})
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    (tmp_path / "toy.json").write_text(GameRecord.from_state(state, ["Ann", "Bo"]).to_json(result=state), "utf-8")
    done = _meadhall("replay", "toy.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1. Ann: play:" in done.stdout and "Ann leads rune" in done.stdout
    assert "The game is over: the last round is played." in done.stdout and "Final ranking: 1." in done.stdout


def test_the_lab_plays_it_and_rates_the_bots() -> None:
    series = Series(TOY.info.name, ("random", "greedy"), games=4, players=2, options={"preset": "long"}, seed=3)
    results = [play_game(series, index) for index in range(series.games)]
    assert all(result.error is None for result in results), [result.error for result in results]
    assert {bot for result in results for bot in result.lineup} == {"random", "greedy"}
    table = summarize(results, series.bots, bootstrap=20)
    assert sum(row.games for row in table) == 8  # each game counts for both of its seats


def test_meadhall_arena_game_toy(tmp_path: Path) -> None:
    prefix = tmp_path / "toy"
    done = _meadhall(
        "arena", "--game", "toy", "--bots", "random,greedy,ismcts:20", "--games", "6", "--players", "3",
        "--preset", "long", "--jobs", "2", "--quiet", "--out", str(prefix),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Toy Duel: 6 games, 3 players" in done.stderr and "Elo" in done.stdout
    data = json.loads((tmp_path / "toy.json").read_text(encoding="utf-8"))
    assert data["finished_games"] == 6 and data["config"]["game"] == "toy"


def test_meadhall_bench_measures_a_game_shorter_than_its_mid_game_walk() -> None:
    """Its random games last 12 decisions or so: the benchmark's mid-game position is half of one."""
    rows = measure(TOY, "standard", 2, seconds=0.02, repeat=1)
    assert [row["engine"] for row in rows] == ["reference", "search (python)"]
    assert all(row["transitions_per_s"] > 0 and row["world_samples_per_s"] > 0 for row in rows)


def test_its_plugin_only_draws_and_picks() -> None:
    """The architecture test's rules for plugins, over a plugin outside meadhall's source."""
    plugin = TOY.web_plugin().read_text(encoding="utf-8")
    assert not parses_notation(plugin)
    assert not NUMBER_CONSTANT.findall(plugin)
    assert "target" in plugin and "ctx.send(action.notation)" in plugin


def test_generic_code_does_not_name_it() -> None:
    """Its name, title, alias and package are game words to the architecture test, and generic code holds none."""
    assert games_named_in("get_game('toy'); Toy Duel; toy-duel; meadhall_toy") == {"toy"}
    named = {path: games_named_in(text) for path, text in generic_files().items()}
    assert not [path for path, games in named.items() if "toy" in games]
