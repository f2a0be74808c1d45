"""The Blood Rage: Valhalla game object: facts, options, content, notation, setup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core.balance import BalanceSpec
from meadhall.core.errors import InvalidOptions
from meadhall.core.game import CONTENT_PACK_OPTION, Event, Game, GameInfo, GameState, OptionSpec, fresh_seed
from meadhall.games.bloodrage_valhalla.content import (
    Content,
    ContentError,
    describe_card,
    describe_effect,
)
from meadhall.games.bloodrage_valhalla.notation import BRAction, parse_action
from meadhall.games.bloodrage_valhalla.packs import content_of as content_of  # the game's packs, as before
from meadhall.games.bloodrage_valhalla.packs import default_content as default_content
from meadhall.games.bloodrage_valhalla.state import BloodRageConfig, BloodRageState

if TYPE_CHECKING:
    from meadhall.core.breakdown import ScoreTable
    from meadhall.core.guide import Guide
    from meadhall.core.spaces import GameSpaces
    from meadhall.games.bloodrage_valhalla.belief import BloodRageBelief
    from meadhall.games.bloodrage_valhalla.search import BloodRageSearchAdapter
    from meadhall.games.bloodrage_valhalla.text import BloodRageText
    from meadhall.games.bloodrage_valhalla.words import BloodRageWords

INFO = GameInfo(
    name="bloodrage-valhalla",
    title="Blood Rage: Valhalla",
    summary=(
        "Viking clans fight for glory over three Ages before Ragnarök: draft the gods' gifts, "
        "summon, march and contest regions, quest and prove your valor. With meadhall's default "
        "content (not the printed cards)."
    ),
    aliases=("bloodrage", "blood-rage", "brv", "valhalla"),
    min_players=3,
    max_players=5,
    options=(
        OptionSpec(
            "gods",
            "json",
            "random",
            "random, first-game (Thor, Loki and Tyr, in random Ages) or three gods in Age order such as thor,loki,tyr",
            label="Gods of the three Ages",
        ),
        OptionSpec(
            "starting-glory",
            "json",
            [],
            "each seat's placing in a preceding Blood Rage game, e.g. 1,3,2 (1 = winner: 12 Glory, 2: 8, 3: 4, "
            "0: none); empty for none",
            label="Starting Glory",
        ),
        OptionSpec(
            "rainbow-rewards",
            "json",
            [],
            "Rainbow Bridge reward cards earned in Blood Rage, by seat: e.g. thor+loki/freya// (seats by /, "
            "gods by +); empty for none",
            label="Rainbow Bridge rewards",
        ),
        CONTENT_PACK_OPTION,
    ),
    presets={"random-gods": {"gods": "random"}, "first-game": {"gods": "first-game"}},
    default_preset="random-gods",
    hidden_information=True,
    simultaneous_decisions=True,
    chance=True,
    preset_titles={"random-gods": "Three random gods", "first-game": "First game: Thor, Loki and Tyr"},
)


#: The Rainbow Bridge module has 3 God Mission tiles: rewards come from at most 3 gods.
RAINBOW_MISSIONS = 3


def _shown(value: Any) -> str:
    """A value in an error message, cut short (options come from anybody)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _text_list(value: Any, separator: str, option: str) -> list[str]:
    """A list of words: text split at ``separator``, or a JSON list of texts (or numbers)."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(separator)]
    if isinstance(value, list):
        parts: list[str] = []
        for part in value:
            if isinstance(part, bool) or not isinstance(part, (str, int)):
                raise InvalidOptions(f"{option}: expected text or numbers in the list, not {_shown(part)}")
            parts.append(str(part).strip())
        return parts
    raise InvalidOptions(f"{option}: expected a list or text, not {_shown(value)}")


def _rainbow_seats(value: Any, players: int) -> list[list[str]]:
    """The ``rainbow-rewards`` option as one list of god ids per seat (lower case, as given).

    Text is ``thor+loki/freya//`` (seats by ``/``, gods by ``+``); a JSON list holds one
    entry per seat, each a text such as ``thor+loki`` or a list of god names.
    """
    shape = "seats separated by / and gods by +, e.g. thor+loki/freya//, or a list with one list of gods per seat"
    if isinstance(value, str):
        entries: list[Any] = value.split("/")
    elif isinstance(value, list):
        entries = value
    else:
        raise InvalidOptions(f"Rainbow Bridge rewards: expected {shape}; not {_shown(value)}")
    if len(entries) != players:
        raise InvalidOptions(f"Rainbow Bridge rewards: one entry per seat ({players}, not {len(entries)}): {shape}")
    seats: list[list[str]] = []
    for entry in entries:
        if isinstance(entry, str):
            names: list[Any] = entry.split("+")
        elif isinstance(entry, list):
            names = entry
        else:
            raise InvalidOptions(
                f"Rainbow Bridge rewards: a seat's entry is text or a list of gods, not {_shown(entry)}"
            )
        gods: list[str] = []
        for name in names:
            if not isinstance(name, str):
                raise InvalidOptions(f"Rainbow Bridge rewards: a god is named by text, not {_shown(name)}")
            if name.strip():
                gods.append(name.strip().lower())
        seats.append(gods)
    return seats


def check_rainbow(value: Any, players: int, content: Content) -> list[list[str]]:
    """Read and check ``rainbow-rewards`` against the module: its canonical form, or InvalidOptions.

    The Rainbow Bridge module has 3 God Mission tiles, and a clan earns each mission's
    reward card once: so at most 3 gods in all, and no god twice for one seat.
    """
    if value in ([], "", None):
        return []
    seats = _rainbow_seats(value, players)
    for seat, gods in enumerate(seats, start=1):
        for god in gods:
            if god not in content.gods:
                known = ", ".join(sorted(content.gods))
                raise InvalidOptions(
                    f"Rainbow Bridge rewards: unknown god {_shown(god)} for seat {seat}; gods: {known}"
                )
            try:
                content.rainbow_card(god)
            except ContentError:
                raise InvalidOptions(
                    f"Rainbow Bridge rewards: the content pack has no Rainbow Bridge card for {god}"
                ) from None
        twice = sorted({god for god in gods if gods.count(god) > 1})
        if twice:
            raise InvalidOptions(
                f"Rainbow Bridge rewards: seat {seat} has {', '.join(twice)} twice; "
                "a clan earns each god's reward card once"
            )
    missions = sorted({god for gods in seats for god in gods})
    if len(missions) > RAINBOW_MISSIONS:
        raise InvalidOptions(
            f"Rainbow Bridge rewards: the module has {RAINBOW_MISSIONS} God Mission tiles, so the reward cards come "
            f"from at most {RAINBOW_MISSIONS} gods, not {len(missions)} ({', '.join(missions)})"
        )
    return seats


class BloodRageGame(Game):
    """Blood Rage: Valhalla for 3 to 5 players, with a content pack."""

    info = INFO

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Normalize gods, starting glory, rainbow rewards and content; refuse what cannot work."""
        content = content_of(options)
        gods = options["gods"]
        if not (isinstance(gods, str) and gods in ("random", "first-game")):
            names = [g.lower() for g in _text_list(gods, ",", "Gods of the three Ages") if g]
            if len(names) != 3 or len(set(names)) != 3 or any(g not in content.gods for g in names):
                raise InvalidOptions(
                    "Gods of the three Ages: random, first-game, or three different gods of "
                    + ", ".join(sorted(content.gods))
                )
            options["gods"] = names
        glory = options["starting-glory"]
        if glory not in ([], "", None):
            try:
                placings = [int(p) for p in _text_list(glory, ",", "Starting Glory")]
            except ValueError:
                raise InvalidOptions("Starting Glory: a placing (1, 2, 3, ... or 0) per seat") from None
            if len(placings) != players or any(p < 0 or p > players for p in placings):
                raise InvalidOptions(f"Starting Glory: one placing from 0 to {players} per seat ({players} seats)")
            options["starting-glory"] = placings
        else:
            options["starting-glory"] = []
        options["rainbow-rewards"] = check_rainbow(options["rainbow-rewards"], players, content)

    def new_game(
        self, players: int = 4, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> BloodRageState:
        """Set up a new game."""
        normalized = self.validate_options(options, players=players)
        return BloodRageState(self.config(normalized, players), fresh_seed() if seed is None else seed)

    def deal(
        self, players: int = 4, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[BloodRageState, list[Event]]:
        """Set up a new game, with what setting up showed: Age 1's god arrives, the packs are dealt."""
        state = self.new_game(players=players, seed=seed, options=options)
        events = state.events if state.events is not None else []
        state.events = None
        return state, events

    def config(self, options: Mapping[str, Any], players: int) -> BloodRageConfig:
        """The fixed facts for normalized options."""
        content = content_of(options)
        gods_option = options["gods"]
        gods: tuple[str, ...] = ()
        if gods_option == "first-game":
            # the rulebook's three gods for a first game, placed on the Age slots at random
            return BloodRageConfig(content, options, players, content.first_game_gods, shuffle_gods=True)
        if isinstance(gods_option, list):
            gods = tuple(gods_option)
        return BloodRageConfig(content, options, players, gods)

    def parse_action(self, text: str) -> BRAction:
        """Read one action."""
        return parse_action(text)

    def words(self) -> BloodRageWords:
        """Blood Rage's words (:mod:`meadhall.games.bloodrage_valhalla.words`)."""
        from meadhall.games.bloodrage_valhalla.words import WORDS

        return WORDS

    def guide(self) -> Guide:
        """Blood Rage: Valhalla's guided first game (:mod:`meadhall.games.bloodrage_valhalla.guide`)."""
        from meadhall.games.bloodrage_valhalla.guide import GUIDE

        return GUIDE

    def breakdown(self, state: GameState[Any]) -> ScoreTable:
        """Glory by source (:mod:`meadhall.games.bloodrage_valhalla.breakdown`)."""
        from meadhall.games.bloodrage_valhalla.breakdown import breakdown

        return breakdown(state)

    def text(self) -> BloodRageText:
        """Blood Rage drawn as text (:mod:`meadhall.games.bloodrage_valhalla.text`)."""
        from meadhall.games.bloodrage_valhalla.text import TEXT

        return TEXT

    def belief(self, view: Mapping[str, Any]) -> BloodRageBelief:
        """Worlds consistent with a seat's view."""
        from meadhall.games.bloodrage_valhalla.belief import BloodRageBelief

        players = len(view["clans"])
        normalized = self.validate_options(view["options"], players=players)
        return BloodRageBelief(view, self.config(normalized, players))

    def search_adapter(self) -> BloodRageSearchAdapter:
        """How bots search Blood Rage: an evaluation of Glory, stats, board and cards."""
        from meadhall.games.bloodrage_valhalla.search import BloodRageSearchAdapter

        return BloodRageSearchAdapter(self)

    def spaces(self, players: int = 3, options: Mapping[str, Any] | None = None) -> GameSpaces:
        """Blood Rage's action indices and observation tensors (:mod:`meadhall.games.bloodrage_valhalla.spaces`)."""
        from meadhall.games.bloodrage_valhalla.spaces import spaces

        return spaces(self.validate_options(options, players=players), players)

    def balance_spec(self, options: Mapping[str, Any] | None = None) -> BalanceSpec:
        """What Blood Rage: Valhalla's balance report counts (:mod:`meadhall.games.bloodrage_valhalla.balance`)."""
        from meadhall.games.bloodrage_valhalla.balance import balance_spec

        return balance_spec(default_content() if options is None else content_of(options))

    def content(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The content pack of these options (default: meadhall's), with every text, for interfaces."""
        from meadhall.games.bloodrage_valhalla.words import CLAN_COLOURS

        content = default_content() if options is None else content_of(options)
        return {
            "id": content.id,
            "label": content.label,
            "regions": [
                {
                    "id": r.id,
                    "name": r.name,
                    "neighbours": list(r.neighbours),
                    "reward": r.reward,
                    "token": r.token,
                    "valhalla": r.valhalla,
                }
                for r in content.regions.values()
            ],
            "tracks": {k: list(v) for k, v in content.tracks.items()},
            "clan_colours": list(CLAN_COLOURS),
            "gods": [
                {"id": g.id, "name": g.name, "theme": g.theme, "bonus": "; ".join(describe_effect(e) for e in g.bonus)}
                for g in content.gods.values()
            ],
            "monsters": [
                {
                    "id": m.id,
                    "name": m.name,
                    "strength": m.strength,
                    "cost": m.cost,
                    "base": m.base,
                    "text": "; ".join(describe_effect(e) for e in m.abilities),
                }
                for m in content.monsters.values()
            ],
            "cards": [
                {
                    "id": c.id,
                    "name": c.name,
                    "god": c.god,
                    "kind": c.kind,
                    "upgrade": c.upgrade,
                    "strength": c.strength,
                    "text": describe_card(c, content),
                }
                for c in content.cards.values()
            ],
        }


BLOODRAGE = BloodRageGame()
BloodRageState.game = BLOODRAGE
