"""Valda's facts: the rules' numbers, a seat's board and what a game is played with.

Rules: ../shared/rules/valda-rulebook.txt, settled by ../shared/valda-rulings.md and
docs/rules/valda.md. The C search engine (``_search.c``) writes the same numbers as
``#define``s (``tests/valda/test_search_engine.py`` checks they agree).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meadhall.games.valda.content import RESOURCES, Content

ROUNDS = 6
#: Race to the Gods: rounds go on past the sixth until a player reaches RACE_GOAL followers,
#: and the game ends after this round at the latest (ruling: a cap that guarantees an end).
RACE_ROUNDS = 20
HAND_LIMIT = 10
SITES = 5  # construction sites per god area
TEMPLES_PER_PLAYER = 9
LOCK = 3  # temples of one player that lock a god area
MAX_MINES = 4  # ruling: one yellow die per mine, and there are four yellow dice
MAX_DRILLS = 3  # ruling: one blue die per blood drill, and there are three blue dice
SAFE_ZONES = (5, 12, 20)
RACE_GOAL = 20
ACTIONS = 3
BUILDS = 2
START_HAND = 6
#: Thor's and Odin's conversions: action -> (god, temples needed, resources paid, followers, uses per phase).
CONVERSIONS: dict[str, tuple[str, int, int, int, int]] = {
    "thor": ("thor", 1, 3, 1, 3),
    "thor2": ("thor", 2, 2, 1, 3),
    "odin": ("odin", 1, 2, 1, 3),
    "odin2": ("odin", 2, 3, 2, 2),
}

R = {name: index for index, name in enumerate(RESOURCES)}  # drop, gold, diamond -> 0, 1, 2


@dataclass
class Player:
    """One seat's board: resources, buildings, temples, followers and hand."""

    resources: list[int]
    mines: int = 2
    drills: int = 0
    temples: dict[str, int] = field(default_factory=dict)
    followers: int = 0
    floor: int = 0  # the highest safe zone reached: followers never drop below it
    hand: list[str] = field(default_factory=list)

    def copy(self) -> Player:
        """An independent copy."""
        return Player(self.resources[:], self.mines, self.drills, dict(self.temples), self.followers, self.floor,
                      self.hand[:])  # fmt: skip

    def buildings(self) -> int:
        """Mines, blood drills and temples: the tie-break at the end."""
        return self.mines + self.drills + sum(self.temples.values())

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (tuple(self.resources), self.mines, self.drills, tuple(sorted(self.temples.items())), self.followers,
                self.floor, tuple(self.hand))  # fmt: skip


@dataclass(frozen=True)
class ValdaConfig:
    """What a game is played with."""

    content: Content
    players: int
    turnaround: bool = False
    race: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Each god weapon option's card (from the content).
    weapon_cards: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: Each god weapon card's options, in the order the card prints them.
    weapon_options: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: Each card's kind (yellow, attack, defence, weapon, ...): looked up on every decision.
    kinds: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: Each building's cost as resources in ``RESOURCES`` order: ``mine``, ``drill``, then the gods' temples.
    needs: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    @property
    def last_round(self) -> int:
        """The round after which the game ends at the latest: the sixth, or Race to the Gods' cap."""
        return RACE_ROUNDS if self.race else ROUNDS

    def __post_init__(self) -> None:
        cards = self.content.cards.values()
        object.__setattr__(self, "weapon_cards", {o.id: c.id for c in cards for o in c.options})
        options = {c.id: tuple(o.id for o in c.options) for c in cards if c.kind == "weapon"}
        object.__setattr__(self, "weapon_options", options)
        object.__setattr__(self, "kinds", {c.id: c.kind for c in cards})
        costs = {**self.content.buildings, **{god: g.temple_cost for god, g in self.content.gods.items()}}
        needs = {name: tuple(cost.get(r, 0) for r in RESOURCES) for name, cost in costs.items()}
        object.__setattr__(self, "needs", needs)
