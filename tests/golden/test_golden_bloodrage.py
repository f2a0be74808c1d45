"""Blood Rage: Valhalla golden playthroughs: stored games replay to the same events and Glory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadhall.core.record import GameRecord
from meadhall.games.bloodrage_valhalla import BloodRageState
from tests.golden.make_golden_bloodrage import GAMES, event_entry, golden

FILES = sorted(Path(__file__).parent.glob("bloodrage-*.json"))


def test_golden_files_exist() -> None:
    assert {p.stem for p in FILES} == {spec["name"] for spec in GAMES}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(data["record"])
    state = record.replay(upto=0)
    assert isinstance(state, BloodRageState)
    assert len(data["steps"]) == len(record.actions)
    kinds: set[str] = set()
    for index, step in enumerate(data["steps"]):
        seat, text = record.actions[index]
        assert (seat, text) == (step["seat"], step["action"])
        events = [event_entry(e) for e in state.apply_text(seat, text)]
        assert events == step["events"], f"step {index} ({text})"
        assert state.scores() == step["glory"], f"step {index} ({text})"
        kinds |= {e["kind"] for e in events}
    assert state.is_terminal()
    assert json.loads(json.dumps(state.view(None))) == data["final_view"]
    assert state.scores() == data["scores"] and state.ranking() == data["places"]
    # the games show the whole rulebook at work
    assert {"battle", "quest", "valor", "claimed", "upgraded", "joined", "revealed", "dropped", "kept"} <= kinds, kinds


def test_golden_files_are_current() -> None:
    for spec in GAMES:
        path = Path(__file__).parent / f"{spec['name']}.json"
        assert json.loads(path.read_text(encoding="utf-8")) == golden(spec), f"{path.name} is stale"
