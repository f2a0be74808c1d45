"""Write the Blood Rage: Valhalla golden playthroughs: ``python -m tests.golden.make_golden_bloodrage``.

Each file holds a seeded game's record and, for every step, every event it caused (with
who may see it) and the Glory after it. The test replays the record and compares each
step, so any change in the rules, the default content or the events shows up in review as
a diff of these files. Regenerate only on purpose, and read the diff.

The moves are a seeded random choice that passes only when nothing else is legal, so the
games are full of contests, battles, quests and Prove Valor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState

HERE = Path(__file__).parent

GAMES: list[dict[str, Any]] = [
    {"name": "bloodrage-first-game-3p", "players": 3, "seed": 1066, "options": {"preset": "first-game"}},
    {
        "name": "bloodrage-random-gods-4p-starting-glory",
        "players": 4,
        "seed": 795,
        "options": {"preset": "random-gods", "starting-glory": [2, 1, 0, 3]},
    },
    {
        "name": "bloodrage-chosen-gods-5p-rainbow",
        "players": 5,
        "seed": 1241,
        "options": {"gods": "freya,baldr,loki", "rainbow-rewards": "thor+loki/freya///loki"},
    },
]


def event_entry(event: Any) -> dict[str, Any]:
    """An event as stored: its JSON, and its audience when it is not public."""
    entry: dict[str, Any] = event.to_json()
    if event.audience is not None:
        entry["to"] = sorted(event.audience)
    return entry


def play(spec: dict[str, Any]) -> tuple[BloodRageState, list[dict[str, Any]]]:
    """Play the golden game; return the state and the step log."""
    state = BLOODRAGE.new_game(players=spec["players"], seed=spec["seed"], options=spec["options"])
    rng = Rng(spec["seed"] + 1)
    steps: list[dict[str, Any]] = []
    while not state.is_terminal():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        choices = [a for a in legal if a.kind != "pass"] or legal
        action = choices[rng.below(len(choices))]
        events = state.apply(seat, action)
        steps.append(
            {"seat": seat, "action": str(action), "events": [event_entry(e) for e in events], "glory": state.scores()}
        )
    return state, steps


def golden(spec: dict[str, Any]) -> dict[str, Any]:
    """The golden file's content for one game."""
    state, steps = play(spec)
    record = GameRecord.from_state(state, [f"Seat {i + 1}" for i in range(spec["players"])])
    return {
        "record": record.to_dict(result=state),
        "steps": steps,
        "final_view": state.view(None),
        "scores": state.scores(),
        "places": state.ranking(),
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one line per step, so a change to the rules reads as a diff of a few steps."""
    parts = []
    for key, value in data.items():
        if key == "steps":
            steps = ",\n".join(json.dumps(step, ensure_ascii=False) for step in value)
            parts.append(f'"steps": [\n{steps}\n]')
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    """Write every golden file."""
    for spec in GAMES:
        path = HERE / f"{spec['name']}.json"
        path.write_text(dumps(golden(spec)), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
