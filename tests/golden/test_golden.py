"""Golden playthroughs: stored games replay step by step to the same points and reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall.core.record import GameRecord
from meadhall.games.voluspa import VoluspaState, format_board

FILES = sorted(Path(__file__).parent.glob("voluspa-*.json"))


def test_golden_files_exist() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(data["record"])
    state = record.replay(upto=0)
    assert isinstance(state, VoluspaState)
    assert len(data["steps"]) == len(record.actions)
    for index, step in enumerate(data["steps"]):
        seat, text = record.actions[index]
        assert (seat, text) == (step["seat"], step["action"])
        events = state.apply_text(seat, text)
        scored = [e for e in events if e.kind == "scored"]
        if "points" in step:
            assert len(scored) == 1, f"step {index} ({text}) should score"
            assert scored[0].data["points"] == step["points"], f"step {index} ({text})"
            assert scored[0].data["lines"] == step["lines"], f"step {index} ({text})"
        else:
            assert not scored, f"step {index} ({text}) should not score"
        assert state.scores() == step["scores"], f"step {index} ({text})"
    assert state.is_terminal()
    assert format_board(state.board).splitlines() == data["final_board"]
    assert state.scores() == data["scores"]
    assert state.ranking() == data["places"]


def test_golden_files_are_current() -> None:
    from tests.golden.make_golden import GAMES, golden

    for spec in GAMES:
        path = Path(__file__).parent / f"{spec['name']}.json"
        assert json.loads(path.read_text(encoding="utf-8")) == golden(spec), f"{path.name} is stale"
