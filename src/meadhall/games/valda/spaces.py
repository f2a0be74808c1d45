"""Valda's encodings for learning programs (:mod:`meadhall.core.spaces`).

Actions are enumerated from the content pack: every kind of :mod:`meadhall.games.valda.notation`
with every argument the pack allows (cards, gods, weapon options, resources, seats, dice and
faces), about 830 indices with the default pack. Observations are read from a seat's view,
seat-relative (the seat first, then the next seats in seat order), in the blocks listed in
:func:`observation_space` (docs/rl.md shows them with their shapes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadhall.core.spaces import (
    Block,
    EnumeratedActions,
    GameSpaces,
    ObservationSpace,
    VectorBackend,
    VectorBuffers,
    counts,
    one_hot,
    relative,
)
from meadhall.games.valda.content import DICE_COUNTS, DIE_COLOURS, FACES, RESOURCES, Content, content_of
from meadhall.games.valda.decisions import DECISIONS
from meadhall.games.valda.notation import ValdaAction

if TYPE_CHECKING:
    from meadhall.games.valda.state import ValdaConfig

#: Bump when an index may name another action (or a block changes), so stored policies notice.
ACTION_VERSION = "valda-actions/1"
OBSERVATION_VERSION = "valda-observation/1"

#: The most dice one roll shows (every die of every colour).
MAX_DICE = sum(DICE_COUNTS.values())
PHASES = ("setup", "resources", "game", "building", "attack", "followers", "over")
_WORDS = ("done", "draw", "pass", "yield", "convert", "odin", "odin2", "loki")
_CARD_KINDS = ("play", "use", "buy", "discard", "keep", "attack", "defend", "card")
#: Counts are divided by these so that values stay near 0..1.
_SCALE = 10.0


def actions(content: Content, max_players: int) -> list[ValdaAction]:
    """Every action the pack allows, in index order."""
    gods = list(content.gods)
    cards = list(content.cards)
    found = [ValdaAction(word) for word in _WORDS]
    for kind in ("trade", "swap"):
        found += [ValdaAction(kind, give, get) for give in RESOURCES for get in RESOURCES if get != give]
    for kind in ("choose", "take", "steal"):
        found += [ValdaAction(kind, resource) for resource in RESOURCES]
    for kind in ("thor", "thor2"):
        found += [ValdaAction(kind, resource) for resource in ("gold", "diamond")]
    for kind in _CARD_KINDS:
        found += [ValdaAction(kind, card) for card in cards]
    for kind in ("build", "destroy"):
        found += [ValdaAction(kind, site) for site in ("mine", "drill", *gods)]
    found += [ValdaAction("move", a, b) for a in gods for b in gods if a != b]
    found += [ValdaAction("seat", seat) for seat in range(max_players)]
    found += [ValdaAction("god", god) for god in gods]
    found += [ValdaAction("weapon", option.id) for card in content.cards.values() for option in card.options]
    found += [ValdaAction("face", die, face) for die in range(MAX_DICE) for face in range(FACES)]
    return found


def observation_space(content: Content, players: int, max_players: int) -> ObservationSpace:
    """The blocks of a Valda observation (``slots`` is the most seats a table has)."""
    cards = list(content.cards)
    gods = list(content.gods)
    slots = max_players

    def game(view: Mapping[str, Any], seat: int) -> list[float]:
        return [
            view["round"] / max(1, view["last_round"]),
            view["actions"] / 4.0,
            view["builds"] / 4.0,
            view["free_yellow"] / 4.0,
            view["base"] / 100.0,
            view["open_count"] / _SCALE,
            float(view["open_closed"]),
            float(view["backstabbed"]),
            float(view["finished"]),
            view["reshuffles"] / 4.0,
            *one_hot(view["phase"], PHASES),
            *relative(view["current"], seat, players, slots),
            *relative(view["start"], seat, players, slots),
        ]

    def seats(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            if offset >= players:
                rows += [0.0] * (7 + len(gods))
                continue
            other = view["seats"][(seat + offset) % players]
            rows += [other["resources"][name] / _SCALE for name in RESOURCES]
            rows += [other["mines"] / 4.0, other["drills"] / 4.0, other["followers"] / 20.0, other["floor"] / 20.0]
            rows += [other["temples"].get(god, 0) / 2.0 for god in gods]
        return rows

    def hand(view: Mapping[str, Any], seat: int) -> list[float]:
        return counts(view.get("hand") or [], cards)

    def open_cards(view: Mapping[str, Any], seat: int) -> list[float]:
        return counts(view["open"] or [], cards)

    def discard(view: Mapping[str, Any], seat: int) -> list[float]:
        return counts(view["discard"], cards, _SCALE)

    def hand_sizes(view: Mapping[str, Any], seat: int) -> list[float]:
        return [
            view["seats"][(seat + offset) % players]["hand"] / _SCALE if offset < players else 0.0
            for offset in range(slots)
        ]

    def known(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            rows += counts(view["known"][(seat + offset) % players], cards) if offset < players else [0.0] * len(cards)
        return rows

    def sites(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for god in gods:
            owners = view["sites"].get(god, [])
            row = [0.0] * slots
            for owner in owners:
                row[(owner - seat) % players] += 1.0
            rows += row
            rows.append(1.0 if god in view["locks"] else 0.0)
        return rows

    def dice(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        shown = view["dice"]
        for number in range(MAX_DICE):
            if number < len(shown):
                colour, face = shown[number]
                rows += [1.0, *one_hot(colour, DIE_COLOURS), *one_hot(face, range(FACES))]
            else:
                rows += [0.0] * (1 + len(DIE_COLOURS) + FACES)
        return rows

    def decision(view: Mapping[str, Any], seat: int) -> list[float]:
        shown = view["decision"]
        if shown is None:
            return [0.0] * (len(DECISIONS) + 2 * slots)
        return [
            *one_hot(shown["kind"], list(DECISIONS)),
            *relative(shown["seat"], seat, players, slots),
            *relative(shown.get("target"), seat, players, slots),
        ]

    def to_move(view: Mapping[str, Any], seat: int) -> list[float]:
        row = [0.0] * slots
        for other in view["to_move"]:
            row[(other - seat) % players] = 1.0
        return row

    return ObservationSpace(
        (
            Block("game", (10 + len(PHASES) + 2 * slots,), game),
            Block("seats", (slots, 7 + len(gods)), seats),
            Block("hand", (len(cards),), hand),
            Block("hand_sizes", (slots,), hand_sizes),
            Block("known_hands", (slots, len(cards)), known),
            Block("open", (len(cards),), open_cards),
            Block("discard", (len(cards),), discard),
            Block("sites", (len(gods), slots + 1), sites),
            Block("dice", (MAX_DICE, 1 + len(DIE_COLOURS) + FACES), dice),
            Block("decision", (len(DECISIONS) + 2 * slots,), decision),
            Block("to_move", (slots,), to_move),
        ),
        OBSERVATION_VERSION,
    )


def spaces(options: Mapping[str, Any], players: int, max_players: int, config: ValdaConfig | None = None) -> GameSpaces:
    """Valda's spaces for normalized ``options`` and ``players`` seats.

    ``config``: the games' config (:meth:`ValdaGame.config`); given, the spaces offer the C
    engine's vector backend (:class:`meadhall.games.valda.native.VectorGames`), with or
    without observations.
    """
    content = content_of(options)
    listed = actions(content, max_players)

    def vector(buffers: VectorBuffers) -> VectorBackend | None:
        from meadhall.games.valda.native import ObservationShape, VectorGames

        assert config is not None
        return VectorGames.make(config, listed, buffers, ObservationShape(max_players, PHASES, MAX_DICE))

    return GameSpaces(
        EnumeratedActions(listed, f"{ACTION_VERSION}:{content.id}"),
        observation_space(content, players, max_players),
        None if config is None else vector,
    )
