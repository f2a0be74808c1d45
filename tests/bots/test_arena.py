"""The arena: rotations, statistics, and the command as a user runs it."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from meadhall.core.registry import all_games
from meadhall.lab.arena import GameResult, play_game, summarize
from meadhall.lab.selfplay import Series, bot_specs, deal_seed, lineup
from meadhall.lab.stats import bradley_terry, pairwise, wilson


def test_lineups_rotate_every_bot_through_every_seat() -> None:
    assert [lineup(i, ["a", "b"], 2) for i in range(3)] == [["a", "b"], ["b", "a"], ["a", "b"]]
    assert [lineup(i, ["a", "b", "c"], 3) for i in range(3)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    config = Series(game="voluspa", bots=("a", "b"), games=4)
    assert deal_seed(config, 0) == deal_seed(config, 1) != deal_seed(config, 2)


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-3) and math.isclose(high, 0.5962, abs_tol=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_bradley_terry_recovers_a_known_gap() -> None:
    # A beats B three times as often: an Elo gap of 400*log10(3) = 191 (prior shrinks it a little).
    elo = bradley_terry([[0.0, 300.0], [100.0, 0.0]])
    assert math.isclose(elo[0] - elo[1], 190.8, abs_tol=2.0)
    assert math.isclose((elo[0] + elo[1]) / 2, 1500.0, abs_tol=1e-6)


def _result(index: int, lineup_: list[str], places: list[int]) -> GameResult:
    return GameResult(index, 1, lineup_, [10 * (3 - p) for p in places], places, 0.1, [5, 5])


def test_summary_counts_shared_wins() -> None:
    results = [
        _result(0, ["a", "b"], [1, 2]),
        _result(1, ["b", "a"], [1, 1]),
        _result(2, ["a", "b"], [2, 1]),
        _result(3, ["b", "a"], [2, 1]),
    ]
    assert pairwise(results, ["a", "b"]) == [[0.0, 2.5], [1.5, 0.0]]
    rows = {row.bot: row for row in summarize(results, ["a", "b"], bootstrap=20)}
    assert rows["a"].games == 4 and rows["a"].wins == 2.5 and rows["b"].wins == 1.5
    assert rows["a"].elo > rows["b"].elo
    assert rows["a"].elo_low < rows["a"].elo < rows["a"].elo_high


def test_a_game_plays_to_the_end_with_rotated_seats() -> None:
    config = Series(game="voluspa", bots=("random", "greedy"), games=2, seed=5)
    first, second = play_game(config, 0), play_game(config, 1)
    assert first.lineup == ["random", "greedy"] and second.lineup == ["greedy", "random"]
    assert first.deal == second.deal and first.error is None
    assert sorted(first.places) in ([1, 2], [1, 1])
    assert sum(first.decisions) > 20


def _meadhall(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", *args], capture_output=True, text=True, timeout=300, check=False
    )


def _arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``meadhall arena --game voluspa ...``: the arena needs its game named when several are installed."""
    return _meadhall("arena", "--game", "voluspa", *args)


def test_arena_command_writes_table_json_csv_and_chart(tmp_path: Path) -> None:
    prefix = tmp_path / "run"
    chart = tmp_path / "elo.png"
    done = _arena("--bots", "random,greedy,ismcts:30", "--games", "6", "--players", "3", "--preset", "saga",
        "--jobs", "2", "--out", str(prefix), "--chart", str(chart),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "games" in done.stdout and "Elo" in done.stdout
    for bot in ("random", "greedy", "ismcts:30"):
        assert bot in done.stdout
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["finished_games"] == 6 and not data["interrupted"]
    assert data["config"]["bots"] == ["random", "greedy", "ismcts:30"]
    with (tmp_path / "run.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 18 and {r["bot"] for r in rows} == {"random", "greedy", "ismcts:30"}
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_refuses_bad_input() -> None:
    bad_bot = _arena("--bots", "random,wizard", "--games", "2")
    assert bad_bot.returncode == 2 and "no bot called 'wizard'" in bad_bot.stderr
    bad_players = _arena("--bots", "random,greedy", "--players", "9")
    assert bad_players.returncode == 2 and "2 to 5 players" in bad_players.stderr
    no_game = _meadhall("arena", "--bots", "random,greedy", "--games", "2")
    assert no_game.returncode == 2 and "name the game (--game GAME): " in no_game.stderr
    assert all(f"{game.info.name} ({game.info.title})" in no_game.stderr for game in all_games())


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT and SIGTERM")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_still_reports_the_finished_games(tmp_path: Path, stop: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "arena", "--game=voluspa", "--bots", "random,greedy",
         "--games", "100000",
         "--jobs", "2", "--checkpoint", "0.2", "--out", str(tmp_path / "stopped")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Stop once games have finished (the first checkpoint says so), however slow the machine.
    deadline = time.monotonic() + 120
    while not (tmp_path / "stopped.json").exists():
        assert time.monotonic() < deadline and process.poll() is None, "no game finished"
        time.sleep(0.05)
    process.send_signal(stop)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted: reporting the" in stderr
    data = json.loads((tmp_path / "stopped.json").read_text(encoding="utf-8"))
    assert data["interrupted"] and 0 < data["finished_games"] < 100000
    assert "greedy" in stdout


def test_one_bot_against_several_copies_of_another(tmp_path: Path) -> None:
    assert bot_specs("ismcts:1s, greedy*3") == ("ismcts:1s", "greedy", "greedy", "greedy")
    with pytest.raises(ValueError, match="BOT\\*N"):
        bot_specs("greedy*x")
    done = _arena("--bots", "random,greedy*2", "--games", "6", "--players", "3", "--jobs", "1", "--quiet",
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert [row["bot"] for row in data["summary"]] == ["random", "greedy"]
    for game in data["games"]:  # random takes every seat in turn, greedy the other two
        assert sorted(game["lineup"]) == ["greedy", "greedy", "random"]
    assert {game["lineup"].index("random") for game in data["games"]} == {0, 1, 2}


def _games_without_times(data: dict[str, object]) -> list[dict[str, object]]:
    games = data["games"]
    assert isinstance(games, list)
    return [{k: v for k, v in game.items() if k != "seconds"} for game in games]


def test_resume_keeps_the_finished_games_and_plays_the_rest(tmp_path: Path) -> None:
    prefix = str(tmp_path / "long")
    first = _arena("--bots", "random,greedy", "--games", "4", "--jobs", "1", "--quiet", "--out", prefix)
    assert first.returncode == 0, first.stderr
    before = json.loads((tmp_path / "long.json").read_text(encoding="utf-8"))
    more = _arena("--bots", "random,greedy", "--games", "7", "--jobs", "2", "--quiet", "--out", prefix, "--resume")
    assert more.returncode == 0, more.stderr
    assert "resuming with 4 finished" in more.stderr
    after = json.loads((tmp_path / "long.json").read_text(encoding="utf-8"))
    assert after["finished_games"] == 7 and [g["index"] for g in after["games"]] == list(range(7))
    assert after["games"][:4] == before["games"], "the finished games are kept as they were, not replayed"
    fresh = _arena(
        "--bots", "random,greedy", "--games", "7", "--jobs", "1", "--quiet", "--out", str(tmp_path / "fresh")
    )
    assert fresh.returncode == 0, fresh.stderr
    fresh_data = json.loads((tmp_path / "fresh.json").read_text(encoding="utf-8"))
    assert _games_without_times(after) == _games_without_times(fresh_data)
    with (tmp_path / "long.csv").open(encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == 14


def test_resume_refuses_a_different_arena(tmp_path: Path) -> None:
    prefix = str(tmp_path / "run")
    assert _arena("--bots", "random,greedy", "--games", "2", "--quiet", "--out", prefix).returncode == 0
    other = _arena("--bots", "random,greedy", "--games", "4", "--seed", "9", "--out", prefix, "--resume")
    assert other.returncode == 2 and "cannot resume" in other.stderr and "seed" in other.stderr
    no_out = _arena("--bots", "random,greedy", "--games", "4", "--resume")
    assert no_out.returncode == 2 and "--resume needs --out" in no_out.stderr


def test_resume_refuses_a_run_whose_content_changed(tmp_path: Path) -> None:
    from meadhall.lab.arena import content_digest

    prefix = str(tmp_path / "run")
    assert _arena("--bots", "random,greedy", "--games", "2", "--quiet", "--out", prefix).returncode == 0
    saved = tmp_path / "run.json"
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["content_digest"] == content_digest(Series("voluspa", ("random", "greedy"), 2))
    data["content_digest"] = "0123456789abcdef"  # as if the default tiles had changed since
    saved.write_text(json.dumps(data), encoding="utf-8")
    again = _arena("--bots", "random,greedy", "--games", "4", "--quiet", "--out", prefix, "--resume")
    assert again.returncode == 2 and "content changed since the earlier run" in again.stderr
    # A content pack is part of the content: another pack, another digest.
    pack = json.loads(
        resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
    )
    default = Series("bloodrage-valhalla", ("greedy",), 1, players=4)
    assert content_digest(default) == content_digest(Series("bloodrage-valhalla", ("greedy",), 1, 4, {}))
    pack["cards"][0]["strength"] = 5
    changed = Series("bloodrage-valhalla", ("greedy",), 1, 4, {"content": pack})
    assert content_digest(changed) != content_digest(default)


@pytest.mark.skipif(os.name != "posix", reason="kills a process group")
def test_a_killed_run_leaves_its_checkpoint_and_resumes(tmp_path: Path) -> None:
    """Crash drill: kill -9 the arena and its workers; the checkpoint is whole and resumable."""
    prefix = str(tmp_path / "crash")
    process = subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "arena", "--game=voluspa", "--bots", "random,greedy",
         "--games", "100000",
         "--jobs", "2", "--quiet", "--checkpoint", "0.2", "--out", prefix],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    checkpoint = tmp_path / "crash.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not checkpoint.exists():
        time.sleep(0.2)
    time.sleep(1.0)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    saved = json.loads(checkpoint.read_text(encoding="utf-8"))
    finished = saved["finished_games"]
    assert saved["interrupted"] and finished > 0
    resumed = _arena("--bots", "random,greedy", "--games", str(finished + 3), "--jobs", "1", "--quiet",
        "--out", prefix, "--resume",
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(checkpoint.read_text(encoding="utf-8"))
    assert not data["interrupted"] and data["finished_games"] == finished + 3
    assert sorted(g["index"] for g in data["games"]) == list(range(finished + 3))


def test_a_game_that_never_ends_is_stopped_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import meadhall.lab.balance
    import meadhall.lab.selfplay

    # an engine loop looks like a game that goes on past the cap: here the cap is tiny
    monkeypatch.setattr(meadhall.lab.selfplay, "MAX_DECISIONS", 5)
    result = play_game(Series(game="valda", bots=("random", "random"), games=1), 0)
    assert result.error is not None and "did not end in 5 decisions" in result.error
    row = meadhall.lab.balance.play_game(Series(game="valda", bots=("random",), games=1, players=2), 0)
    assert row.error is not None and "did not end in 5 decisions" in row.error


def test_a_game_a_bot_broke_counts_as_a_loss_for_every_seat_and_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from meadhall.bots.greedy import GreedyBot

    def broken(*_: object) -> None:
        raise AssertionError

    monkeypatch.setattr(GreedyBot, "choose", broken)
    config = Series(game="voluspa", bots=("random", "greedy"), games=2)
    results = [play_game(config, index) for index in range(2)]
    for result in results:
        assert result.places == [2, 2]
        assert result.error is not None
        assert result.error.startswith("AssertionError (in test_arena.py, line ")
        assert "deciding, after" in result.error
    rows = {row.bot: row for row in summarize(results, ["random", "greedy"])}
    assert rows["random"].wins == rows["greedy"].wins == 0
    assert rows["random"].errors == rows["greedy"].errors == 2
