"""The Valda game object: facts, options, content, notation, setup.

Offered to meadhall by its entry point (``valda`` in the ``meadhall.games`` group of
``pyproject.toml``); every interface reaches Valda through this object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core.balance import BalanceSpec
from meadhall.core.content import pack_derived
from meadhall.core.errors import InvalidOptions
from meadhall.core.game import CONTENT_PACK_OPTION, Game, GameInfo, GameState, OptionSpec, fresh_seed
from meadhall.core.text import GameText
from meadhall.core.words import GameWords
from meadhall.games.valda.content import Content, ContentError, content_of, default_content, describe_card
from meadhall.games.valda.notation import ValdaAction, parse_action
from meadhall.games.valda.state import ValdaConfig, ValdaState

if TYPE_CHECKING:
    from meadhall.core.breakdown import ScoreTable
    from meadhall.core.guide import Guide
    from meadhall.core.spaces import GameSpaces
    from meadhall.games.valda.belief import ValdaBelief
    from meadhall.games.valda.search import ValdaSearchAdapter

INFO = GameInfo(
    name="valda",
    title="Valda",
    summary=(
        "Vikings build mines, blood drills and temples to the gods over six rounds, play cards, "
        "attack one another and gather followers on Yggdrasil. With meadhall's default content "
        "(not the printed cards)."
    ),
    aliases=(),
    min_players=2,
    max_players=5,
    options=(
        OptionSpec(
            "turnaround",
            "bool",
            False,
            "the highest roll starts; the last round goes back",
            label="The Turnaround",
        ),
        OptionSpec(
            "race-to-the-gods",
            "bool",
            False,
            "the first to 20 followers wins",
            label="Race to the Gods",
        ),
        CONTENT_PACK_OPTION,
    ),
    presets={
        "standard": {},
        "turnaround": {"turnaround": True},
        "race-to-the-gods": {"race-to-the-gods": True},
    },
    default_preset="standard",
    hidden_information=True,
    simultaneous_decisions=False,
    chance=True,
    preset_titles={
        "standard": "Six rounds",
        "turnaround": "The Turnaround",
        "race-to-the-gods": "Race to the Gods",
    },
)


class ValdaGame(Game):
    """Valda for 2 to 5 players, with a content pack."""

    info = INFO

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Refuse a content pack that does not check."""
        try:
            content_of(options)
        except ContentError as error:
            raise InvalidOptions(f"{CONTENT_PACK_OPTION.title}: {error}") from None

    def new_game(
        self, players: int = 3, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> ValdaState:
        """Set up a new game."""
        normalized = self.validate_options(options, players=players)
        return ValdaState.new(self.config(normalized, players), fresh_seed() if seed is None else seed)

    def config(self, options: Mapping[str, Any], players: int) -> ValdaConfig:
        """The fixed facts for normalized options."""
        return ValdaConfig(
            content_of(options), players, bool(options["turnaround"]), bool(options["race-to-the-gods"]), options
        )

    def parse_action(self, text: str) -> ValdaAction:
        """Read one action."""
        return parse_action(text)

    def belief(self, view: Mapping[str, Any]) -> ValdaBelief:
        """Worlds consistent with a seat's view."""
        from meadhall.games.valda.belief import ValdaBelief

        players = len(view["seats"])
        normalized = self.validate_options(view["options"], players=players)
        return ValdaBelief(view, self.config(normalized, players))

    def words(self) -> GameWords:
        """Valda's words (:mod:`meadhall.games.valda.words`)."""
        from meadhall.games.valda.words import WORDS

        return WORDS

    def guide(self) -> Guide:
        """Valda's guided first game (:mod:`meadhall.games.valda.guide`)."""
        from meadhall.games.valda.guide import GUIDE

        return GUIDE

    def breakdown(self, state: GameState[Any]) -> ScoreTable:
        """Followers by source, and buildings for the tie-break (:mod:`meadhall.games.valda.breakdown`)."""
        from meadhall.games.valda.breakdown import breakdown

        return breakdown(state)

    def text(self) -> GameText:
        """Valda drawn as text (:mod:`meadhall.games.valda.text`)."""
        from meadhall.games.valda.text import TEXT

        return TEXT

    def search_adapter(self) -> ValdaSearchAdapter:
        """How bots search Valda: an evaluation of followers, income, temples, resources and cards."""
        from meadhall.games.valda.search import ValdaSearchAdapter

        return ValdaSearchAdapter(self)

    def spaces(self, players: int = 2, options: Mapping[str, Any] | None = None) -> GameSpaces:
        """Valda's action indices and observation tensors (:mod:`meadhall.games.valda.spaces`)."""
        from meadhall.games.valda.spaces import spaces

        normalized = self.validate_options(options, players=players)
        return spaces(normalized, players, self.info.max_players, self.config(normalized, players))

    def balance_spec(self, options: Mapping[str, Any] | None = None) -> BalanceSpec:
        """What Valda's balance report counts (:mod:`meadhall.games.valda.balance`)."""
        from meadhall.games.valda.balance import balance_spec

        return balance_spec(default_content() if options is None else content_of(options))

    def content(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The content pack of these options (default: meadhall's), with every card's text.

        Made once per pack (kept with the pack in :mod:`meadhall.core.content`): callers
        read it and do not change it.
        """
        return pack_derived(default_content() if options is None else content_of(options), content_data)


def content_data(content: Content) -> dict[str, Any]:
    """A content pack as data for interfaces, with every card's text (:meth:`ValdaGame.content`)."""
    return {
        "id": content.id,
        "label": content.label,
        "gods": [
            {"id": g.id, "name": g.name, "temple_cost": g.temple_cost, "deck_theme": g.deck_theme}
            for g in content.gods.values()
        ],
        "cards": [
            {
                "id": c.id,
                "name": c.name,
                "god": c.god,
                "kind": c.kind,
                "count": c.count,
                "power": c.power,
                "text": describe_card(c),
                "options": [{"id": o.id, "name": o.name, "window": o.window, "text": o.text} for o in c.options],
            }
            for c in content.cards.values()
        ],
        "buildings": content.buildings,
        "dice": {
            colour: [{"resources": face.resources, "followers": face.followers} for face in faces]
            for colour, faces in content.dice.items()
        },
    }


GAME = ValdaGame()
ValdaState.game = GAME
