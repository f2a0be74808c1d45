"""Write the golden playthrough files: ``python -m tests.golden.make_golden``.

Each file holds a seeded random game's record and, for every step, the points, the
lines with their reasons and the scores after it. The test replays the record and
compares every step, so any change in rules or explanations shows up in review as a
diff of these files. Regenerate only on purpose, and read the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, VoluspaState, format_board

HERE = Path(__file__).parent

GAMES: list[dict[str, Any]] = [
    {"name": "voluspa-base-2p", "players": 2, "seed": 2024, "options": {"preset": "base"}},
    {
        "name": "voluspa-saga-3p-no-late-hel",
        "players": 3,
        "seed": 77,
        "options": {"preset": "saga", "no-late-hel": True},
    },
    {
        "name": "voluspa-all-lightning-4p-auto",
        "players": 4,
        "seed": 5150,
        "options": {"preset": "all+lightning", "auto-best-line": True},
    },
    {
        "name": "voluspa-master-of-ravens-5p",
        "players": 5,
        "seed": 31337,
        "options": {"preset": "master-of-ravens+lightning"},
    },
]


def play(spec: dict[str, Any]) -> tuple[VoluspaState, list[dict[str, Any]]]:
    """Play the golden game with a seeded random choice; return the state and step log."""
    state = VOLUSPA.new_game(players=spec["players"], seed=spec["seed"], options=spec["options"])
    rng = Rng(spec["seed"] + 1)
    steps: list[dict[str, Any]] = []
    while not state.is_terminal():
        seat = state.current
        legal = state.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        entry: dict[str, Any] = {"seat": seat, "action": str(action)}
        for event in state.apply(seat, action):
            if event.kind == "scored":
                entry["points"] = event.data["points"]
                entry["lines"] = event.data["lines"]
        entry["scores"] = state.scores()
        steps.append(entry)
    return state, steps


def golden(spec: dict[str, Any]) -> dict[str, Any]:
    """The golden file's content for one game."""
    state, steps = play(spec)
    record = GameRecord.from_state(state, [f"Seat {i + 1}" for i in range(spec["players"])])
    return {
        "record": record.to_dict(result=state),
        "steps": steps,
        "final_board": format_board(state.board).splitlines(),
        "scores": state.scores(),
        "places": state.ranking(),
    }


def main() -> None:
    """Write every golden file."""
    for spec in GAMES:
        path = HERE / f"{spec['name']}.json"
        path.write_text(json.dumps(golden(spec), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
