"""The Toy Duel game object: its facts, options and presets, notation, setup and parts.

:data:`GAME` is what the package's entry point offers (``meadhall.games``: ``toy``).
Everything an interface needs is reached from here: the rules (:meth:`ToyGame.new_game`,
:meth:`ToyGame.parse_action`), worlds for bots (:meth:`ToyGame.belief`), the words
(:meth:`ToyGame.words`), the text drawing (:meth:`ToyGame.text`), the components
(:meth:`ToyGame.content`) and the browser plugin (``web/plugin.js``, found by the default
:meth:`~meadhall.core.game.Game.web_plugin`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.core.errors import InvalidOptions
from meadhall.core.game import Event, Game, GameInfo, OptionSpec, fresh_seed
from meadhall.core.text import GameText
from meadhall.core.words import GameWords
from meadhall_toy.actions import ToyAction, parse_action
from meadhall_toy.belief import ToyBelief
from meadhall_toy.state import COPIES, DIE_SIDES, RUNE_VALUES, ToyConfig, ToyState

INFO = GameInfo(
    name="toy",
    title="Toy Duel",
    summary=(
        "A toy game for meadhall's tests: lead a rune from a hidden hand, answer the lead with a "
        "higher rune or pass; the round's die says what the highest rune wins."
    ),
    aliases=("toy-duel",),
    min_players=2,
    max_players=3,
    options=(
        OptionSpec(
            "rounds",
            "int",
            6,
            "rounds in the game (it ends sooner if a leader has no rune)",
            minimum=2,
            maximum=12,
            label="Rounds",
        ),
        OptionSpec("hand", "int", 3, "runes a seat holds after drawing", minimum=1, maximum=5, label="Hand size"),
    ),
    presets={"standard": {"rounds": 6, "hand": 3}, "long": {"rounds": 12, "hand": 2}},
    default_preset="standard",
    preset_titles={
        "standard": "Six rounds, hands of three",
        "long": "Twelve rounds, hands of two: the deck may run out first",
    },
    hidden_information=True,
    simultaneous_decisions=False,
    chance=True,
)


class ToyGame(Game):
    """Toy Duel (see :mod:`meadhall_toy.state` for the rules)."""

    info = INFO

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """The deal must fit in the deck."""
        runes = len(RUNE_VALUES) * COPIES
        if options["hand"] * players > runes:
            raise InvalidOptions(
                f"{players} hands of {options['hand']} runes need more than the {runes} runes there are"
            )

    def new_game(
        self,
        players: int = 2,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> ToyState:
        """Shuffle and deal a new game."""
        return self.deal(players, seed, options)[0]

    def deal(
        self,
        players: int = 2,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[ToyState, list[Event]]:
        """A new game and what the deal showed: each seat its hand, everyone the first round's die."""
        config = ToyConfig(self.validate_options(options, players=players), players)
        return ToyState.setup(config, fresh_seed() if seed is None else seed)

    def parse_action(self, text: str) -> ToyAction:
        """Read ``play:N``, ``answer:N`` or ``pass``."""
        return parse_action(text)

    def belief(self, view: Mapping[str, Any]) -> ToyBelief:
        """Read a seat's view into a sampler of worlds consistent with it."""
        try:
            config = ToyConfig(self.validate_options(view["options"], players=len(view["seats"])), len(view["seats"]))
            return ToyBelief(view, config)
        except (KeyError, TypeError, InvalidOptions):
            raise ValueError("not a Toy Duel view") from None

    def content(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The components for interfaces: the runes (value and count) and the die."""
        del options  # every option plays with the same runes
        return {"runes": [{"value": value, "count": COPIES} for value in RUNE_VALUES], "die": DIE_SIDES}

    def words(self) -> GameWords:
        """How Toy Duel reads for people (:mod:`meadhall_toy.words`)."""
        from meadhall_toy.words import WORDS

        return WORDS

    def text(self) -> GameText:
        """Toy Duel drawn as text (:mod:`meadhall_toy.text`)."""
        from meadhall_toy.text import TEXT

        return TEXT


GAME = ToyGame()

ToyState.game = GAME
