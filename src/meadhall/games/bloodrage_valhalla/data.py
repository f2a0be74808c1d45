"""The pieces of a Blood Rage: Valhalla position: clans, battles, the tasks of the queue.

Plain data with copies and comparable keys; the rules that change them are in
:mod:`~meadhall.games.bloodrage_valhalla.phases`, :mod:`~meadhall.games.bloodrage_valhalla.contests`,
:mod:`~meadhall.games.bloodrage_valhalla.effects` and :mod:`~meadhall.games.bloodrage_valhalla.decisions`
(where the pending decisions are, too).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meadhall.games.bloodrage_valhalla.content import STATS, Content, Effect

Figure = tuple[int, str]  # (owner seat, "warrior" | "elite" | monster id)

WARRIORS = 6
ELITES = 2
SMALL_BASES = 3
LARGE_BASES = 2
SLOTS = 7
DRAFT_HAND = 6
KEEP_AT_AGE_END = 3
START_RAGE_STEP = 0

#: Between equally strong figures, which a "save" effect takes first: monsters (0), Elites, Warriors.
SAVE_RANK = {"elite": 1, "warrior": 2}


@dataclass
class Clan:
    """One player's clan: stats, Rage, Glory, cards and reserve."""

    steps: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATS, 0))
    rage: int = 0
    glory: int = 0
    hand: list[str] = field(default_factory=list)
    drafted: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    quests: list[str] = field(default_factory=list)
    warriors: int = WARRIORS
    elites: int = ELITES
    monsters: list[str] = field(default_factory=list)  # in reserve
    owned_monsters: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # cards everyone saw go into the hand
    passed: bool = False
    battles_won: int = 0
    battles_lost: int = 0
    contests_won: int = 0
    glory_reached: int = 0
    free_march_used: bool = False  # this Action phase

    def copy(self) -> Clan:
        """An independent copy."""
        return Clan(
            dict(self.steps), self.rage, self.glory, self.hand[:], self.drafted[:], self.saved[:],
            self.discards[:], self.upgrades[:], self.quests[:], self.warriors, self.elites, self.monsters[:],
            self.owned_monsters[:], self.known[:], self.passed, self.battles_won, self.battles_lost,
            self.contests_won, self.glory_reached, self.free_march_used,
        )  # fmt: skip

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (
            tuple(sorted(self.steps.items())), self.rage, self.glory, tuple(self.hand), tuple(self.drafted),
            tuple(self.saved), tuple(self.discards), tuple(self.upgrades), tuple(self.quests), self.warriors,
            self.elites, tuple(self.monsters), tuple(self.owned_monsters), tuple(self.known), self.passed,
            self.battles_won, self.battles_lost, self.contests_won, self.glory_reached, self.free_march_used,
        )  # fmt: skip

    def forget(self, card: str | None = None) -> None:
        """A card left the hand: publicly (``card``), or face down (``None``: forget all)."""
        if card is None:
            self.known = []
        elif card in self.known:
            self.known.remove(card)

    def in_reserve(self) -> list[str]:
        """The kinds of figure the clan may take from its reserve: warrior, elite, then its monsters."""
        kinds = (["warrior"] if self.warriors else []) + (["elite"] if self.elites else [])
        return kinds + sorted(set(self.monsters))

    def take(self, kind: str) -> None:
        """Take a figure of this kind from the reserve (to the board)."""
        if kind == "warrior":
            self.warriors -= 1
        elif kind == "elite":
            self.elites -= 1
        else:
            self.monsters.remove(kind)

    def give_back(self, kind: str) -> None:
        """Return a figure of this kind to the reserve."""
        if kind == "warrior":
            self.warriors += 1
        elif kind == "elite":
            self.elites += 1
        else:
            self.monsters.append(kind)


@dataclass
class Battle:
    """A contest in progress: where, who started it, the Call to Battle and the cards."""

    region: str
    attacker: int
    calls: list[int]  # seats still to be called, in order
    joined: dict[int, int] = field(default_factory=dict)  # seat -> figures moved in
    participants: list[int] = field(default_factory=list)
    played: dict[int, str | None] = field(default_factory=dict)  # chosen cards (hidden until all chose)
    revealed: bool = False
    bonus: dict[int, int] = field(default_factory=dict)  # +STR from effects
    kills: dict[int, int] = field(default_factory=dict)  # enemy figures killed, by killer
    losses: dict[int, int] = field(default_factory=dict)  # own figures lost, by seat
    winner: int | None = None
    fought: bool = False

    def copy(self) -> Battle:
        """An independent copy."""
        return Battle(
            self.region, self.attacker, self.calls[:], dict(self.joined), self.participants[:], dict(self.played),
            self.revealed, dict(self.bonus), dict(self.kills), dict(self.losses), self.winner, self.fought,
        )  # fmt: skip

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (
            self.region, self.attacker, tuple(self.calls), tuple(sorted(self.joined.items())),
            tuple(self.participants), tuple(sorted(self.played.items(), key=lambda kv: kv[0])), self.revealed,
            tuple(sorted(self.bonus.items())), tuple(sorted(self.kills.items())), tuple(sorted(self.losses.items())),
            self.winner, self.fought,
        )  # fmt: skip


#: A queued task: its name, then its arguments (``("effect", seat, effect, why)``, ``("resolve",)``, ...).
Task = tuple[Any, ...]


def effect_json(effect: Effect) -> dict[str, Any]:
    """An effect as JSON data."""
    data: dict[str, Any] = {"do": effect.do, **effect.params}
    if effect.when:
        data["when"] = effect.when
    return data


def task_json(task: Task) -> list[Any]:
    """A queued task as JSON data (effects as objects)."""
    return [effect_json(part) if isinstance(part, Effect) else part for part in task]


def task_from_json(data: list[Any]) -> Task:
    """A task read back from :func:`task_json`."""
    parts: list[Any] = []
    for part in data:
        if isinstance(part, dict) and "do" in part:
            params = {k: v for k, v in part.items() if k not in ("do", "when")}
            parts.append(Effect(part["do"], params, part.get("when")))
        else:
            parts.append(part)
    return tuple(parts)


class BloodRageConfig:
    """The fixed facts of one game: content, seats, options."""

    __slots__ = ("content", "gods", "options", "players", "rainbow", "shuffle_gods", "starting_glory")

    def __init__(
        self,
        content: Content,
        options: Mapping[str, Any],
        players: int,
        gods: tuple[str, ...],
        shuffle_gods: bool = False,
    ) -> None:
        self.content = content
        self.options = dict(options)
        self.players = players
        self.gods = gods  # fixed by the options, or () to draw at random
        # the gods are fixed but their Ages are not (first-game: placed on the Age slots at random)
        self.shuffle_gods = shuffle_gods
        self.starting_glory: list[int] = list(options.get("starting-glory") or [])
        self.rainbow: list[list[str]] = [list(g) for g in (options.get("rainbow-rewards") or [])]
