"""A tiny card game whose hidden cards are unique strings, for the server's leak drill.

Each seat holds three cards; on its turn it plays one face up and draws from the deck.
Every card is ``sealed-<seat or deck>-<random hex>``, so a hidden card that reaches the
wrong seat can be found by searching the bytes sent to it.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable, Mapping
from typing import Any, NamedTuple

from meadhall.core.errors import IllegalAction, MalformedAction
from meadhall.core.game import Event, Game, GameInfo, GameState
from meadhall.core.rng import Rng


class Play(NamedTuple):
    card: str

    def __str__(self) -> str:
        return f"play:{self.card}"


class SealedState(GameState[Play]):
    __slots__ = ("_log", "_seed", "current", "deck", "hands", "played", "players", "turns")

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self._seed = seed
        rng = Rng(seed)
        salt = f"{rng.next64():016x}"
        self.deck = [f"sealed-deck-{salt}-{i:02d}" for i in range(3 * players + 6)]
        rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(3)] for _ in range(players)]
        self.played: list[str] = []
        self.current = 0
        self.turns = 0
        self._log: list[tuple[int, Play]] = []

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def options(self) -> Mapping[str, Any]:
        return {}

    @property
    def seed(self) -> int:
        return self._seed

    def to_move(self) -> tuple[int, ...]:
        return () if self.is_terminal() else (self.current,)

    def legal_actions(self, seat: int) -> list[Play]:
        return [Play(card) for card in self.hands[seat]] if seat in self.to_move() else []

    def check(self, seat: int, action: Play) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalAction("not a card you may play now", "illegal")

    def apply(self, seat: int, action: Play) -> list[Event]:
        self.check(seat, action)
        self.hands[seat].remove(action.card)
        self.played.append(action.card)
        events = [Event("played", {"seat": seat, "card": action.card})]
        if self.deck:
            card = self.deck.pop()
            self.hands[seat].append(card)
            events.append(Event("drew", {"seat": seat, "card": card}, frozenset({seat})))
            events.append(Event("refilled", {"seat": seat, "deck": len(self.deck)}))
        self._log.append((seat, action))
        self.turns += 1
        self.current = (self.current + 1) % self.players
        return events

    def is_terminal(self) -> bool:
        return self.turns >= 2 * self.players + 4

    def scores(self) -> list[int]:
        return [sum(1 for s, _ in self._log if s == seat) for seat in range(self.players)]

    def ranking(self) -> list[int]:
        return [1] * self.players

    def clone(self) -> SealedState:
        other = SealedState.__new__(SealedState)
        other.players, other._seed, other.current, other.turns = self.players, self._seed, self.current, self.turns
        other.deck, other.hands, other.played = self.deck[:], [h[:] for h in self.hands], self.played[:]
        other._log = self._log[:]
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": seat,
            "played": list(self.played),
            "hand_sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
            "to_move": list(self.to_move()),
            "finished": self.is_terminal(),
            "seats": [{"seat": s, "score": 0} for s in range(self.players)],
        }
        if seat is not None:
            data["hand"] = list(self.hands[seat])
        return data

    def fingerprint(self) -> Hashable:
        return (tuple(self.deck), tuple(map(tuple, self.hands)), tuple(self.played), self.current, self.turns)

    def history(self) -> list[tuple[int, Play]]:
        return list(self._log)


class SealedGame(Game):
    info = GameInfo(
        name="sealed-test",
        title="Sealed cards (test)",
        summary="a leak drill game",
        aliases=(),
        min_players=2,
        max_players=4,
        options=(),
        presets={"default": {}},
        default_preset="default",
        hidden_information=True,
        simultaneous_decisions=False,
        chance=True,
    )

    def new_game(
        self, players: int = 2, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> SealedState:
        self.validate_options(options, players=players)
        return SealedState(players, secrets.randbits(62) if seed is None else seed)

    def parse_action(self, text: str) -> Play:
        if not text.startswith("play:"):
            raise MalformedAction("write play:CARD")
        return Play(text[5:])

    def belief(self, view: Mapping[str, Any]) -> Any:
        raise NotImplementedError("the leak drill game has no bots")


SealedState.game = SealedGame()
