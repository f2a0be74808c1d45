"""A tiny game with a response window, for the server's pacing tests.

Seat 0 plays ``go``; then seat 1 is offered a window whatever it holds: ``strike`` if it
holds the hidden weapon (dealt by the seed), and ``pass``. Seat 1's view shows whether it
holds the weapon; nobody else's does. Three rounds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

from meadhall.core.errors import IllegalAction, MalformedAction
from meadhall.core.game import Event, Game, GameInfo, GameState
from meadhall.core.rng import Rng


class Step(NamedTuple):
    word: str

    def __str__(self) -> str:
        return self.word


class WindowState(GameState[Step]):
    __slots__ = ("_log", "_seed", "armed", "rounds", "stage")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self.armed = Rng(seed).below(2) == 1
        self.stage = "go"
        self.rounds = 0
        self._log: list[tuple[int, Step]] = []

    @property
    def num_players(self) -> int:
        return 2

    @property
    def options(self) -> Mapping[str, Any]:
        return {}

    @property
    def seed(self) -> int:
        return self._seed

    def to_move(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return (0,) if self.stage == "go" else (1,)

    def legal_actions(self, seat: int) -> list[Step]:
        if seat not in self.to_move():
            return []
        if self.stage == "go":
            return [Step("go")]
        return [Step("strike"), Step("pass")] if self.armed else [Step("pass")]

    def response_window(self, seat: int) -> bool:
        return self.stage == "window" and seat == 1 and not self.is_terminal()

    def check(self, seat: int, action: Step) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalAction("not now", "illegal")

    def apply(self, seat: int, action: Step) -> list[Event]:
        self.check(seat, action)
        self._log.append((seat, action))
        if self.stage == "go":
            self.stage = "window"
        else:
            self.stage = "go"
            self.rounds += 1
        return [Event("stepped", {"seat": seat})]

    def is_terminal(self) -> bool:
        return self.rounds >= 3

    def scores(self) -> list[int]:
        return [0, 0]

    def ranking(self) -> list[int]:
        return [1, 1]

    def clone(self) -> WindowState:
        other = WindowState.__new__(WindowState)
        other._seed, other.armed, other.stage, other.rounds = self._seed, self.armed, self.stage, self.rounds
        other._log = self._log[:]
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": seat,
            "stage": self.stage,
            "rounds": self.rounds,
            "finished": self.is_terminal(),
        }
        if seat == 1:
            data["armed"] = self.armed
        return data

    def fingerprint(self) -> Hashable:
        return (self.armed, self.stage, self.rounds)

    def history(self) -> list[tuple[int, Step]]:
        return list(self._log)


class WindowGame(Game):
    info = GameInfo(
        name="window-test",
        title="A response window (test)",
        summary="pacing tests",
        aliases=(),
        min_players=2,
        max_players=2,
        options=(),
        presets={"default": {}},
        default_preset="default",
        hidden_information=True,
        simultaneous_decisions=False,
        chance=True,
    )

    def new_game(
        self, players: int = 2, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> WindowState:
        self.validate_options(options, players=players)
        return WindowState(0 if seed is None else seed)

    def parse_action(self, text: str) -> Step:
        if text not in ("go", "strike", "pass"):
            raise MalformedAction("go, strike or pass")
        return Step(text)

    def belief(self, view: Mapping[str, Any]) -> Any:
        raise NotImplementedError("the pacing test game has no bots")


WindowState.game = WindowGame()

ARMED_SEED = next(seed for seed in range(100) if Rng(seed).below(2) == 1)
UNARMED_SEED = next(seed for seed in range(100) if Rng(seed).below(2) == 0)
