"""Write the Valda golden playthroughs: ``python -m tests.golden.make_golden_valda``.

Each file holds a seeded game's record and, for every step, every event it caused (with
who may see it) and the followers after it. The test replays the record and compares
each step, so any change in the rules, the default content or the events shows up in
review as a diff of these files. Regenerate only on purpose, and read the diff.

The moves are a seeded random choice that passes, yields or ends a phase only when
nothing else is legal (and plays a god weapon whenever it may), so the games are full of
buildings, attacks, defences and weapons. Heimdall's exchanges are the exception: at one
for one they could go round for ever, so they are one choice among ending the phase.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.games.valda import GAME, ValdaState
from tests.golden.make_golden_bloodrage import dumps, event_entry

HERE = Path(__file__).parent

GAMES: list[dict[str, Any]] = [
    {"name": "valda-standard-2p", "players": 2, "seed": 881, "options": {"preset": "standard"}},
    {"name": "valda-turnaround-3p", "players": 3, "seed": 1014, "options": {"preset": "turnaround"}},
    {"name": "valda-race-5p", "players": 5, "seed": 1262, "options": {"preset": "race-to-the-gods"}},
]


def play(spec: dict[str, Any]) -> tuple[ValdaState, list[dict[str, Any]]]:
    """Play the golden game; return the state and the step log."""
    state = GAME.new_game(players=spec["players"], seed=spec["seed"], options=spec["options"])
    rng = Rng(spec["seed"] + 1)
    steps: list[dict[str, Any]] = []
    while not state.is_terminal():
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        weapons = [a for a in legal if a.kind == "weapon"]
        choices = weapons or [a for a in legal if a.kind not in ("pass", "yield", "done", "swap")] or legal
        action = choices[rng.below(len(choices))]
        events = state.apply(seat, action)
        steps.append(
            {
                "seat": seat,
                "action": str(action),
                "events": [event_entry(e) for e in events],
                "followers": state.scores(),
            }
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


def main() -> None:
    """Write every golden file."""
    for spec in GAMES:
        path = HERE / f"{spec['name']}.json"
        path.write_text(dumps(golden(spec)), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
