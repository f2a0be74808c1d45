"""Blood Rage: Valhalla's encodings for learning programs (:mod:`meadhall.core.spaces`).

Actions are enumerated from the content pack: every kind of
:mod:`meadhall.games.bloodrage_valhalla.notation` with every argument the pack allows
(cards, regions, figure kinds, seats), about 2,080 indices with the default pack.
Observations are read from a seat's view, seat-relative (the seat first, then the next
seats in seat order), in the blocks of :func:`observation_space` (docs/rl.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from meadhall.core.spaces import Block, EnumeratedActions, GameSpaces, ObservationSpace, counts, one_hot, relative
from meadhall.games.bloodrage_valhalla.content import FIGURE_KINDS, PLAYERS_MAX, STATS, Content
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.packs import content_of

#: Bump when an index may name another action (or a block changes), so stored policies notice.
ACTION_VERSION = "bloodrage-valhalla-actions/1"
OBSERVATION_VERSION = "bloodrage-valhalla-observation/1"

PHASES = ("draft", "action", "march", "call", "battle", "resolving", "quest", "keep", "over")
AGES = (1, 2, 3)
_WORDS = ("done", "pass", "stay", "skip", "keep")
_CARD_KINDS = ("pick", "upgrade", "quest", "play", "drop")
_CLAN_NUMBERS = (
    ("glory", 100.0), ("rage", 10.0), ("quests", 3.0), ("hand", 10.0), ("drafted", 10.0), ("saved", 3.0),
    ("passed", 1.0), ("free_march_used", 1.0), ("call_two", 1.0), ("battles_won", 10.0),
    ("battles_lost", 10.0), ("contests_won", 10.0), ("keeping", 1.0), ("drops", 3.0),
)  # fmt: skip
_SCALE = 10.0


def figures(content: Content) -> list[str]:
    """Every figure kind: warriors, elites, then the pack's monsters."""
    return [*FIGURE_KINDS, *content.monsters]


def actions(content: Content) -> list[BRAction]:
    """Every action the pack allows, in index order."""
    cards = list(content.cards)
    regions = list(content.regions)
    kinds = figures(content)
    found = [BRAction(word) for word in _WORDS]
    for kind in _CARD_KINDS:
        found += [BRAction(kind, card) for card in cards]
    found.append(BRAction("play", "none"))
    found += [BRAction("raise", stat) for stat in (*STATS, "none")]
    for kind in ("summon", "join"):
        found += [BRAction(kind, figure, region) for figure in kinds for region in regions]
    for kind in ("march", "contest"):
        found += [BRAction(kind, region) for region in regions]
    found += [BRAction("move", figure, region) for figure in kinds for region in regions]
    found += [BRAction("destroy", figure, owner=seat) for seat in range(PLAYERS_MAX) for figure in kinds]
    found += [
        BRAction("kill", region, figure, owner=seat)
        for region in regions
        for seat in range(PLAYERS_MAX)
        for figure in kinds
    ]
    found += [BRAction("reinforce", figure) for figure in kinds]
    return found


def observation_space(content: Content, players: int) -> ObservationSpace:
    """The blocks of a Blood Rage observation (seat slots: the most a table has)."""
    cards = list(content.cards)
    regions = list(content.regions)
    gods = list(content.gods)
    kinds = figures(content)
    slots = PLAYERS_MAX

    def clan(view: Mapping[str, Any], seat: int, offset: int) -> Mapping[str, Any] | None:
        return view["clans"][(seat + offset) % players] if offset < players else None

    def game(view: Mapping[str, Any], seat: int) -> list[float]:
        march = view["march"]
        return [
            *one_hot(view["age"], AGES),
            *one_hot(view["phase"], PHASES),
            *relative(view["first"], seat, players, slots),
            *relative(view["current"], seat, players, slots),
            view["deck"] / 100.0,
            view["removed"] / _SCALE,
            view["draft_keep"] / _SCALE,
            float(view["finished"]),
            float(march is not None),
            *(one_hot(march["from"], regions) if march else [0.0] * len(regions)),
            *(counts(march["left"], kinds) if march else [0.0] * len(kinds)),
        ]

    def gods_block(view: Mapping[str, Any], seat: int) -> list[float]:
        rows = counts(view["gods"], gods)
        for region in regions:
            rows += one_hot(view["gods_at"].get(region), gods)
        return rows

    def region_block(view: Mapping[str, Any], seat: int) -> list[float]:
        return [*counts(view["region_tokens"], regions), *counts(view["claimed"], regions)]

    def board(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for region in regions:
            grid = [[0.0] * len(kinds) for _ in range(slots)]
            for owner, figure in view["board"].get(region, []):
                if figure in kinds:
                    grid[(owner - seat) % players][kinds.index(figure)] += 1.0 / _SCALE
            rows += [value for row in grid for value in row]
        return rows

    def killpiles(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            pile = view["killpiles"][(seat + offset) % players] if offset < players else []
            grid = [0.0] * (slots * len(kinds))
            for owner, figure in pile:
                if figure in kinds:
                    grid[((owner - seat) % players) * len(kinds) + kinds.index(figure)] += 1.0 / _SCALE
            rows += grid
        return rows

    def clans(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            shown = clan(view, seat, offset)
            if shown is None:
                rows += [0.0] * (len(_CLAN_NUMBERS) + 2 * len(STATS) + 2 + len(kinds))
                continue
            rows += [float(shown[name]) / scale for name, scale in _CLAN_NUMBERS]
            rows += [shown["steps"][stat] / 6.0 for stat in STATS]
            rows += [shown["stats"][stat] / _SCALE for stat in STATS]
            reserve = shown["reserve"]
            rows += [reserve["warrior"] / _SCALE, reserve["elite"] / _SCALE]
            rows += counts(shown["monsters"], kinds)
        return rows

    def clan_cards(key: str) -> Callable[[Mapping[str, Any], int], list[float]]:
        """A block of each clan's face-up cards under ``key`` (upgrades, discards), counted per card."""

        def block(view: Mapping[str, Any], seat: int) -> list[float]:
            rows: list[float] = []
            for offset in range(slots):
                shown = clan(view, seat, offset)
                rows += counts(shown[key], cards) if shown is not None else [0.0] * len(cards)
            return rows

        return block

    def own(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for key in ("hand", "pack", "my_quests", "my_drafted", "my_saved"):
            rows += counts(view.get(key) or [], cards)
        rows += counts(view["clans"][seat]["known"], cards)
        rows += one_hot(view.get("my_pick"), cards)
        return rows

    def seats(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            if offset >= players:
                rows += [0.0, 0.0, 0.0]
                continue
            other = (seat + offset) % players
            rows += [float(other in view["to_move"]), float(view["picked"][other]), view["packs"][other] / _SCALE]
        return rows

    return ObservationSpace(
        (
            Block("game", (len(AGES) + len(PHASES) + 2 * slots + 5 + len(regions) + len(kinds),), game),
            Block("gods", (1 + len(regions), len(gods)), gods_block),
            Block("regions", (2, len(regions)), region_block),
            Block("board", (len(regions), slots, len(kinds)), board),
            Block("killpiles", (slots, slots, len(kinds)), killpiles),
            Block("clans", (slots, len(_CLAN_NUMBERS) + 2 * len(STATS) + 2 + len(kinds)), clans),
            Block("upgrades", (slots, len(cards)), clan_cards("upgrades")),
            Block("discards", (slots, len(cards)), clan_cards("discards")),
            Block("own_cards", (7, len(cards)), own),
            Block("seats", (slots, 3), seats),
        ),
        OBSERVATION_VERSION,
    )


def spaces(options: Mapping[str, Any], players: int) -> GameSpaces:
    """Blood Rage's spaces for normalized ``options`` and ``players`` seats."""
    content = content_of(options)
    return GameSpaces(
        EnumeratedActions(actions(content), f"{ACTION_VERSION}:{content.id}"),
        observation_space(content, players),
    )
