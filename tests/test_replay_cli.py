"""``meadhall replay FILE`` on an exported record, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA


def _export(path: Path) -> GameRecord:
    state = VOLUSPA.new_game(players=2, seed=77, options={"preset": "saga"})
    rng = Rng(3)
    while not state.is_terminal():
        legal = state.legal_actions(state.current)
        state.apply(state.current, legal[rng.below(len(legal))])
    record = GameRecord.from_state(state, ["Ann", "Bob"])
    path.write_text(record.to_json(result=state), encoding="utf-8")
    return record


def test_replay_prints_every_step_and_the_ranking(tmp_path: Path) -> None:
    record = _export(tmp_path / "game.json")
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "replay", str(tmp_path / "game.json")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Völuspá: Ann, Bob")
    assert f"   1. {record.players[record.actions[0][0]]}: {record.actions[0][1]}" in lines
    assert "Final ranking: " in done.stdout and "scores" in done.stdout


def test_replay_one_position_and_bad_files(tmp_path: Path) -> None:
    _export(tmp_path / "game.json")
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "replay", str(tmp_path / "game.json"), "--step", "5"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "After 5 of" in done.stdout and "origin" in done.stdout
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "replay", str(tmp_path / "bad.json")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "not a meadhall game record" in bad.stderr


def test_replay_words_blood_rage_and_valda_events_and_shows_their_boards(tmp_path: Path) -> None:
    from meadhall.core.registry import get_game

    for name, players, words, board in (
        ("valda", 2, "builds a", "God areas (sites"),
        ("bloodrage-valhalla", 3, "Glory", "Map, Age"),
    ):
        game = get_game(name)
        state = game.new_game(players=players, seed=5)
        rng = Rng(4)
        while not state.is_terminal():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
        path = tmp_path / f"{name}.json"
        path.write_text(GameRecord.from_state(state, [f"P{i}" for i in range(players)]).to_json(result=state))
        done = subprocess.run(
            [sys.executable, "-m", "meadhall.cli.main", "replay", str(path)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert words in done.stdout and "Final ranking: " in done.stdout
        assert ": {" not in done.stdout  # every event in words, no raw data
        step = subprocess.run(
            [sys.executable, "-m", "meadhall.cli.main", "replay", str(path), "--step", "30"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert step.returncode == 0 and board in step.stdout, step.stdout[-500:]
