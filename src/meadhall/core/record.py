"""Game records: options + seed + actions, which replay a game exactly.

A record is what the server stores and what players export. It holds the seed, so it
is for the server, for finished games and for researchers; never for a seat's view of a
running game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import IllegalAction, InvalidOptions, MalformedAction, RecordError
from meadhall.core.game import GameState
from meadhall.core.words import seat_label

FORMAT = "meadhall-record"
FORMAT_VERSION = 1


@dataclass
class GameRecord:
    """A replayable game: which game, set up how, with which seed, and every action."""

    game: str
    options: dict[str, Any]
    seed: int
    players: list[str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    format_version: int = FORMAT_VERSION
    #: How the game ended when not by its rules (the actions then stop short of the end):
    #: ``{"by": "resignation", "seat": s, "places": [...]}`` (``s`` conceded; places as
    #: the server gave them), ``{"by": "leaving", "seat": s, "places": [...]}`` (``s`` left
    #: the game, which ended as too few players were left) or ``{"by": "abandonment"}``.
    #: ``None``: played out, or going on.
    ending: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: GameState[Any], players: Sequence[str] | None = None) -> GameRecord:
        """The record of ``state``'s game so far."""
        names = list(players) if players is not None else [seat_label(i) for i in range(state.num_players)]
        if len(names) != state.num_players:
            raise RecordError(f"{state.num_players} seats but {len(names)} player names")
        return cls(
            game=state.game.info.name,
            options=dict(state.options),
            seed=state.seed,
            players=names,
            actions=[(seat, str(action)) for seat, action in state.history()],
        )

    def replay(self, upto: int | None = None) -> GameState[Any]:
        """Set the game up and apply the first ``upto`` actions (all by default)."""
        from meadhall.core.registry import get_game

        try:
            game = get_game(self.game)
            actions = self.actions if upto is None else self.actions[:upto]
            return game.replay(len(self.players), self.seed, self.options, actions)
        except (IllegalAction, MalformedAction, InvalidOptions) as error:
            raise RecordError(f"the record does not replay: {error}") from error

    def to_dict(self, result: GameState[Any] | None = None) -> dict[str, Any]:
        """The record as JSON data; with ``result``, the final scores are added for people."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": self.format_version,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "actions": [{"seat": seat, "action": action} for seat, action in self.actions],
        }
        if result is not None and result.is_terminal():
            data["result"] = {"scores": result.scores(), "places": result.ranking()}
        if self.ending is not None:
            data["ending"] = self.ending
        return data

    def to_json(self, result: GameState[Any] | None = None, indent: int | None = 1) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(result), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record from JSON data, checking its shape."""
        if not isinstance(data, Mapping):
            raise RecordError("a game record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a meadhall game record (format should be {FORMAT!r})")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise RecordError(f"record format version {version!r} is not supported (expected {FORMAT_VERSION})")
        try:
            game = str(data["game"])
            options = dict(data.get("options") or {})
            seed = data["seed"]
            players = [str(p) for p in data["players"]]
            actions_raw = data.get("actions") or []
        except (KeyError, TypeError) as error:
            raise RecordError(f"the record misses a field: {error}") from None
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("the record's seed must be an integer")
        actions: list[tuple[int, str]] = []
        for index, item in enumerate(actions_raw):
            if not isinstance(item, Mapping) or "seat" not in item or "action" not in item:
                raise RecordError(f"action {index + 1} must be an object with 'seat' and 'action'")
            seat = item["seat"]
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(players):
                raise RecordError(f"action {index + 1} has an invalid seat {seat!r}")
            actions.append((seat, str(item["action"])))
        ending = _ending(data.get("ending"), len(players))
        record = cls(game=game, options=options, seed=seed, players=players, actions=actions, ending=ending)
        expected = data.get("result")
        if expected is not None:
            state = record.replay()
            if not state.is_terminal() or expected.get("scores") != state.scores():
                raise RecordError("the record's stated result does not match its replay")
        return record

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"the record is not valid JSON: {error}") from None
        return cls.from_dict(data)


def _ending(value: Any, players: int) -> dict[str, Any] | None:
    """A record's ``ending``, checked: how a game that stopped short of its end ended."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RecordError("the record's ending must be an object")
    how = value.get("by")
    if how == "abandonment":
        return {"by": "abandonment"}
    if how not in ("resignation", "leaving"):
        raise RecordError("the record's ending is by 'resignation', by 'leaving' or by 'abandonment'")
    seat, places = value.get("seat"), value.get("places")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise RecordError(f"the record's {how} names an invalid seat {seat!r}")
    if (
        not isinstance(places, list)
        or len(places) != players
        or not all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= players for p in places)
    ):
        raise RecordError(f"the record's {how} needs a place from 1 to {players} for each seat")
    return {"by": how, "seat": seat, "places": list(places)}
