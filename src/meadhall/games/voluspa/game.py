"""The Völuspá game object: facts, options and presets, notation, and setup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core.errors import InvalidOptions
from meadhall.core.game import Game, GameInfo, GameState, OptionSpec, fresh_seed
from meadhall.core.text import GameText
from meadhall.core.words import GameWords
from meadhall.games.voluspa.belief import VoluspaBelief
from meadhall.games.voluspa.notation import VoluspaAction, parse_action, parse_turn
from meadhall.games.voluspa.state import VoluspaConfig, VoluspaState
from meadhall.games.voluspa.tiles import BOOSTER_SUPPLY, CODES, HE, KINDS, NAMES, PRESETS, TR

if TYPE_CHECKING:
    from meadhall.core.breakdown import ScoreTable
    from meadhall.core.guide import Guide
    from meadhall.core.judge import PositionJudge
    from meadhall.core.spaces import GameSpaces
    from meadhall.games.voluspa.search import VoluspaSearchAdapter

_LIGHTNING_SUFFIX = "+lightning"


def _presets() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    presets: dict[str, dict[str, Any]] = {}
    titles: dict[str, str] = {}
    for name, preset in PRESETS.items():
        presets[name] = {"kinds": list(preset.kinds)}
        titles[name] = preset.title
        if "LB" not in preset.kinds:
            presets[name + _LIGHTNING_SUFFIX] = {"kinds": [*preset.kinds, "LB"]}
            titles[name + _LIGHTNING_SUFFIX] = preset.title + " + Lightning Bolt"
    return presets, titles


_PRESETS, _TITLES = _presets()

INFO = GameInfo(
    name="voluspa",
    title="Völuspá",
    summary=(
        "Place Norse gods and creatures on a shared grid; a tile that becomes the strongest "
        "in its row or column scores the line. With Saga of Edda, Order of the Gods and "
        "Lightning Bolt."
    ),
    aliases=("völuspá", "voeluspa", "vol"),
    min_players=2,
    max_players=5,
    options=(
        OptionSpec(
            "kinds",
            "set",
            list(PRESETS["base"].kinds),
            "the tile kinds in the game (each with its full count)",
            choices=CODES,
            label="Tile kinds",
            choice_labels=NAMES,
        ),
        OptionSpec(
            "no-late-hel",
            "bool",
            False,
            "remove every Hel from the hands right after the last tile is drawn",
            label="No late Hel",
        ),
        OptionSpec(
            "auto-best-line",
            "bool",
            False,
            "Sea Serpent and tied Lightning Bolt lines are chosen automatically (the higher)",
            label="Best line chosen for you",
        ),
    ),
    presets=_PRESETS,
    default_preset="base",
    hidden_information=True,
    simultaneous_decisions=False,
    chance=True,
    preset_titles=_TITLES,
)


class VoluspaGame(Game):
    """Völuspá with every expansion: base, Saga of Edda, Order of the Gods, Lightning Bolt."""

    info = INFO

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Refuse tile sets without a possible start tile, and no-late-hel without Hels."""
        kinds = options["kinds"]
        if not any(code not in (CODES[TR], CODES[HE]) for code in kinds):
            raise InvalidOptions("the tile kinds need at least one kind other than Troll and Hel (a start tile)")
        if options["no-late-hel"] and CODES[HE] not in kinds:
            raise InvalidOptions("No late Hel needs Hel tiles in the game")
        del players

    def new_game(
        self,
        players: int = 2,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> VoluspaState:
        """Deal a new game of Völuspá."""
        normalized = self.validate_options(options, players=players)
        config = VoluspaConfig(normalized, players)
        return VoluspaState.setup(config, fresh_seed() if seed is None else seed)

    def parse_action(self, text: str) -> VoluspaAction:
        """Read one step (with its ``FR+`` prefixes)."""
        return parse_action(text)

    def parse_actions(self, text: str) -> list[VoluspaAction]:
        """Read a whole turn or game of steps."""
        return parse_turn(text)

    def belief(self, view: Mapping[str, Any]) -> VoluspaBelief:
        """Read a seat's view into a sampler of full states consistent with it."""
        try:
            players = len(view["seats"])
            options = view["options"]
        except (KeyError, TypeError):
            raise ValueError("not a Völuspá view") from None
        return VoluspaBelief(view, self.config(options, players))

    def legal_notations(self, state: GameState[Any], seat: int) -> list[str]:
        """Legal actions as notation, listed by the C search engine when it is built.

        The search engine is tested equal to this engine (it lists each move once; the
        plain ``SS@x,y`` shorthand is added back, :func:`~meadhall.games.voluspa.search.notations`);
        the server still checks every action it receives with this (the reference) engine.
        """
        from meadhall.games.voluspa.search import AVAILABLE, notations, to_search

        if AVAILABLE and isinstance(state, VoluspaState) and seat in state.to_move():
            fast = to_search(state)
            if fast is not None:
                return notations(fast, seat, state.config.auto_best_line)
        return [str(action) for action in state.legal_actions(seat)]

    def judge(self, state: GameState[Any], seat: int) -> PositionJudge:
        """Moves judged as ``explain`` judges them, on the game's own state (the seat's real hand).

        :class:`~meadhall.games.voluspa.explain.VoluspaStateJudge`: the C engine for
        legality and points, the reference engine's events for the lines.
        """
        from meadhall.games.voluspa.explain import VoluspaStateJudge

        if isinstance(state, VoluspaState):
            return VoluspaStateJudge(state, seat)
        return super().judge(state, seat)

    def content(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The tile table (codes, names, counts, values, powers) and the booster tokens."""
        del options  # every option plays with the same tiles
        return {
            "tiles": [
                {
                    "code": k.code,
                    "name": k.name,
                    "count": k.count,
                    "value": k.value,
                    "module": k.module,
                    "power": k.power,
                }
                for k in KINDS
            ],
            "booster_tokens": {str(value): count for value, count in sorted(BOOSTER_SUPPLY.items())},
        }

    def words(self) -> GameWords:
        """Völuspá's words (:mod:`meadhall.games.voluspa.words`)."""
        from meadhall.games.voluspa.words import WORDS

        return WORDS

    def guide(self) -> Guide:
        """Völuspá's guided first game (:mod:`meadhall.games.voluspa.guide`)."""
        from meadhall.games.voluspa.guide import GUIDE

        return GUIDE

    def breakdown(self, state: GameState[Any]) -> ScoreTable:
        """Points by round and by kind of line (:mod:`meadhall.games.voluspa.breakdown`)."""
        from meadhall.games.voluspa.breakdown import breakdown

        return breakdown(state)

    def text(self) -> GameText:
        """Völuspá drawn as text (:mod:`meadhall.games.voluspa.text`)."""
        from meadhall.games.voluspa.text import TEXT

        return TEXT

    def spaces(self, players: int = 2, options: Mapping[str, Any] | None = None) -> GameSpaces:
        """Völuspá's action indices and observation tensors (:mod:`meadhall.games.voluspa.spaces`).

        The same for every preset (the index covers every tile kind of the box); each
        preset's spaces offer the C engine's vector backend for its games.
        """
        from meadhall.games.voluspa.spaces import spaces

        return spaces(players, VoluspaConfig(self.validate_options(options, players=players), players))

    def search_adapter(self) -> VoluspaSearchAdapter:
        """How bots search Völuspá: the C search engine when it is built."""
        from meadhall.games.voluspa.search import VoluspaSearchAdapter

        return VoluspaSearchAdapter(self)

    def config(self, options: Mapping[str, Any] | None = None, players: int = 2) -> VoluspaConfig:
        """Validated fixed facts for hand-built positions (tests, ``explain``)."""
        return VoluspaConfig(self.validate_options(options, players=players), players)


VOLUSPA = VoluspaGame()

VoluspaState.game = VOLUSPA
