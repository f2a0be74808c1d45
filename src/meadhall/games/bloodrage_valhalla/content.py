"""Blood Rage: Valhalla content: map, stat tracks, gods, cards and monsters, as data.

The rulebook prints no component data, so meadhall ships a *default content pack*
(``data/default.json``), labelled "meadhall default content, not the printed cards". A
content pack is JSON in the format that ``data/content.schema.json`` (JSON Schema, draft
2020-12) describes, and :func:`parse_content` checks it: the schema's rules and what a
schema cannot say (unique ids, known references, mutual neighbours, 25 cards per god).
Another pack (for instance the printed cards, typed in by their owner) can replace the
default one without code changes.

Card effects are data in a small typed vocabulary (:data:`EFFECTS`), implemented once by
the engine. Each effect names its ``do`` (what happens) and, on battle cards, its ``when``:

* battle cards: ``reveal`` (as the cards are revealed), ``win``, ``lose`` (after the
  battle, for the card's player);
* upgrades (clan, elite, monster): passive effects that hold while the card lies in a
  slot, named by their ``do`` (``strength``, ``battle_glory``, ...);
* monsters: abilities that work while the figure is on the board (most of them only in
  its region);
* quests: a ``condition`` checked in the Quest phase, and ``reward`` effects beyond the
  stat raise and the Horns Glory every fulfilled quest gives.

An effect is refused where the engine would ignore it (a passive on a battle card, a
``when`` on an upgrade, ``save`` with ``win``, ...), so a pack never holds dead text.
Texts shown to people are generated from the effects (:func:`describe_card`), so a card can
never say one thing and do another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from meadhall.core.content import ContentError as ContentError  # re-exported: the error of a bad pack
from meadhall.core.content import entry_id as _entry_id
from meadhall.core.content import fail as _fail
from meadhall.core.content import json_list as _list
from meadhall.core.content import json_object as _object
from meadhall.core.content import one_of as _one_of
from meadhall.core.content import plural as _plural
from meadhall.core.content import text as _text
from meadhall.core.content import whole as _whole

STATS = ("rage", "axes", "horns")
TRACK_STEPS = 6
FIGURE_KINDS = ("warrior", "elite")  # and the monster ids
PLAYERS_MAX = 5
MONSTERS_PER_PLAYER = 3
MIN_MONSTERS = MONSTERS_PER_PLAYER * PLAYERS_MAX  # the deck takes 3 random monster cards per player
GOD_DECK = 25

#: The effect vocabulary: ``do`` -> {parameter: type}. Types: "int", "stat" (rage, axes,
#: horns or choice), "target" (warrior, elite, monster, any), "where" (battle, any).
EFFECTS: dict[str, dict[str, str]] = {
    # immediate effects (battle cards on reveal/win/lose, god bonuses, quest rewards)
    "glory": {"amount": "int"},  # gain Glory
    "rage": {"amount": "int"},  # gain Rage now; no cap (the rulebook sets none above the Rage stat)
    "lose_rage": {"amount": "int"},  # battle cards' price: lose this much Rage now (never below 0)
    "raise": {"stat": "stat"},  # raise a clan stat one step
    "steal_glory": {"amount": "int"},  # each other player in the battle loses this, you gain it
    "strength": {"amount": "int"},  # +STR in this battle (reveal)
    "strength_per_figure": {"amount": "int"},  # +STR per own figure in the battle (reveal)
    "strength_per_enemy": {"amount": "int"},  # +STR per enemy figure in the battle (reveal)
    "destroy": {"count": "int", "target": "target"},  # destroy enemy figures in the battle
    "glory_per_kill": {"amount": "int"},  # Glory per enemy figure killed in this battle
    "glory_per_loss": {"amount": "int"},  # Glory per own figure killed in this battle
    "save": {"count": "int"},  # lose: this many of your figures go back to your reserve
    "keep_card": {},  # win: the card returns to your hand instead of the discard pile
    "spent": {},  # win: the card is removed from the game, face up, instead of the discard pile
    "draw": {"count": "int"},  # draw cards from the top of the deck
    "reinforce": {"count": "int"},  # summon this many figures from your reserve into the battle
    "kill_anywhere": {"count": "int"},  # choose enemy figures in any regions to destroy (Tyr)
    # passive effects (upgrades; free_march and call_two on monsters too)
    "warrior_strength": {"amount": "int"},  # +STR for each of your warriors
    "elite_strength": {"amount": "int"},  # +STR for each of your elites
    "monster_strength": {"amount": "int"},  # +STR for each of your monsters
    "battle_glory": {"amount": "int"},  # +Glory whenever you win a battle
    "defeat_glory": {"amount": "int"},  # +Glory whenever you lose a battle
    "valor_glory": {"amount": "int"},  # +Glory per figure in Prove Valor
    "quest_glory": {"amount": "int"},  # +Glory per fulfilled quest
    "contest_glory": {"amount": "int"},  # +Glory when you win a contest's reward
    "kill_rage": {"amount": "int"},  # +Rage (this phase) whenever you win a battle with kills
    "free_march": {},  # one march per Action phase costs no Rage (you still need 1 Rage)
    "call_two": {},  # in Call to Battle you may move up to two figures
    # monster abilities (they work while the monster is on the board)
    "summon_rage": {"amount": "int"},  # +Rage when you summon it (a reinforcement too)
    "others_strength": {"amount": "int"},  # other own figures in its region get +STR
    "called_from_anywhere": {},  # may join a Call to Battle from any region
    "returns_when_killed": {},  # when killed, goes straight back to your reserve
    "valor_weight": {"amount": "int"},  # counts as this many figures in Prove Valor
    "immune": {},  # cannot be destroyed by any effect (cards, monster abilities, gods' bonuses)
    "killed_glory": {"amount": "int"},  # +Glory for you when it is killed
    "reveal_destroy": {"count": "int", "target": "target"},  # destroys enemy figures as cards are revealed
    "win_glory": {"amount": "int"},  # +Glory when its battle is won
}

#: Effects that happen once: on battle cards, in god bonuses and in quest rewards.
ONCE_EFFECTS = frozenset(
    {
        "glory", "rage", "lose_rage", "raise", "steal_glory", "strength", "strength_per_figure",
        "strength_per_enemy", "destroy", "glory_per_kill", "glory_per_loss", "save", "keep_card", "spent", "draw",
        "reinforce", "kill_anywhere",
    }
)  # fmt: skip
#: Passive effects of upgrade cards (elite, clan and monster cards), while the card is in a slot.
UPGRADE_EFFECTS = frozenset(
    {
        "warrior_strength", "elite_strength", "monster_strength", "battle_glory", "defeat_glory", "valor_glory",
        "quest_glory", "contest_glory", "kill_rage", "free_march", "call_two",
    }
)  # fmt: skip
#: Monster abilities. ``free_march`` and ``call_two`` work on a monster while it is on the board.
MONSTER_EFFECTS = frozenset(set(EFFECTS) - ONCE_EFFECTS - UPGRADE_EFFECTS) | {"free_march", "call_two"}
#: The only timing at which the engine uses these effects of a battle card.
ONLY_WHEN = {
    "strength": "reveal",
    "strength_per_figure": "reveal",
    "strength_per_enemy": "reveal",
    "save": "lose",
    "keep_card": "win",
    "spent": "win",
}
#: Effects with nothing to act on after the battle is decided (a god's bonus comes then).
NOT_IN_BONUS = frozenset(
    {"strength", "strength_per_figure", "strength_per_enemy", "destroy", "save", "keep_card", "spent", "lose_rage"}
)
#: Effects with nothing to act on outside a battle (quest rewards come in the Quest phase).
NOT_IN_REWARD = NOT_IN_BONUS | {"steal_glory", "glory_per_kill", "glory_per_loss", "reinforce"}

#: Quest conditions: ``type`` -> {parameter: type}. Checked in the Quest phase.
CONDITIONS: dict[str, dict[str, str]] = {
    "control_region": {"region": "region"},  # most STR there (ties fail), a figure of yours there
    "control_regions": {"count": "int"},  # most STR in at least this many regions
    "valhalla_figures": {"count": "int"},  # at least this many of your figures in Valhalla
    "god_regions": {"count": "int"},  # your figures in at least this many regions holding a god
    "battles_won": {"count": "int"},  # won at least this many battles this Age
    "battles_lost": {"count": "int"},  # lost at least this many battles this Age
    "fallen": {"count": "int"},  # at least this many of your figures in kill piles or the Feast Hall
    "upgrades": {"count": "int"},  # at least this many upgrades in your slots
    "most_figures": {},  # more figures on the board than every other player
    "fewest_figures": {},  # fewer figures on the board than every other player, at least one
    "hand": {"count": "int"},  # at least this many cards in your hand
    "rage_left": {"count": "int"},  # at least this much Rage left
    "contests_won": {"count": "int"},  # won at least this many contests' rewards this Age
}

_TIMINGS = ("reveal", "win", "lose")
_TARGETS = ("warrior", "elite", "monster", "any")
_STAT_VALUES = (*STATS, "choice", "all")
_REWARDS = (*STATS, "choice", "all")


@dataclass(frozen=True)
class Effect:
    """One effect: what it does, with its parameters, and (on battle cards) when.

    ``monster`` marks a monster's ability (for its text: it works while the figure is on
    the board); it is not part of the effect's value.
    """

    do: str
    params: dict[str, Any] = field(default_factory=dict)
    when: str | None = None
    monster: bool = field(default=False, compare=False, repr=False)

    def get(self, name: str, default: Any = 0) -> Any:
        """A parameter's value."""
        return self.params.get(name, default)


@dataclass(frozen=True)
class Region:
    """A region of the map."""

    id: str
    name: str
    neighbours: tuple[str, ...]
    reward: str  # rage, axes, horns, choice, all
    token: int | None  # region-token number (None for Valhalla)
    valhalla: bool = False


@dataclass(frozen=True)
class God:
    """A god: its token's bonus when a contest is won in its region, and its deck's theme."""

    id: str
    name: str
    theme: str
    bonus: tuple[Effect, ...]


@dataclass(frozen=True)
class Monster:
    """A monster figure: its strength, base size, abilities and the Rage its card costs."""

    id: str
    name: str
    strength: int
    base: str  # small or large
    abilities: tuple[Effect, ...]
    cost: int  # Rage to upgrade with its card: its STR unless the content says otherwise


@dataclass(frozen=True)
class Card:
    """A card of a god deck, a monster card, or a Rainbow Bridge reward card."""

    id: str
    name: str
    god: str | None  # None for monster cards
    kind: str  # battle, upgrade, quest
    upgrade: str | None = None  # elite, clan, monster (upgrades)
    strength: int = 0  # battle STR, or an upgrade's cost in Rage (its printed STR)
    effects: tuple[Effect, ...] = ()
    monster: str | None = None
    condition: dict[str, Any] | None = None
    reward: tuple[Effect, ...] = ()
    rainbow: bool = False


@dataclass(frozen=True)
class Content:
    """A whole content pack."""

    id: str
    label: str
    regions: dict[str, Region]
    tracks: dict[str, tuple[int, ...]]
    gods: dict[str, God]
    monsters: dict[str, Monster]
    cards: dict[str, Card]
    first_game_gods: tuple[str, str, str]
    valor_glory: tuple[int, int, int]
    legendary: dict[str, int]

    def god_cards(self, god: str) -> list[str]:
        """Ids of the 25 cards of a god's deck."""
        return [c.id for c in self.cards.values() if c.god == god and not c.rainbow]

    def monster_card(self, monster: str) -> str:
        """The id of a monster's card."""
        for card in self.cards.values():
            if card.monster == monster and card.god is None:
                return card.id
        raise ContentError(f"no card for monster {monster!r}")

    def rainbow_card(self, god: str) -> str:
        """The id of a god's Rainbow Bridge reward card."""
        for card in self.cards.values():
            if card.rainbow and card.god == god:
                return card.id
        raise ContentError(f"no Rainbow Bridge card for {god!r}")

    @property
    def valhalla(self) -> str:
        """The id of Valhalla."""
        return next(r.id for r in self.regions.values() if r.valhalla)


# Checking a pack ----------------------------------------------------------------------------


def _effect(raw: Any, where: str, place: str) -> Effect:
    """One effect of a ``place``: battle (card), upgrade, monster, bonus (god) or reward (quest)."""
    if not isinstance(raw, dict) or "do" not in raw:
        raise _fail(where, 'an effect is an object with "do"')
    do = raw["do"]
    if not _one_of(do, EFFECTS):
        raise _fail(where, f"unknown effect {do!r}; effects: {', '.join(EFFECTS)}")
    allowed = {
        "battle": ONCE_EFFECTS,
        "bonus": ONCE_EFFECTS - NOT_IN_BONUS,
        "reward": ONCE_EFFECTS - NOT_IN_REWARD,
        "upgrade": UPGRADE_EFFECTS,
        "monster": MONSTER_EFFECTS,
    }[place]
    words = {
        "battle": "a battle card",
        "bonus": "a god's bonus",
        "reward": "a quest's reward",
        "upgrade": "an upgrade",
        "monster": "a monster",
    }[place]
    if do not in allowed:
        raise _fail(where, f"effect {do!r} does nothing on {words}; there: {', '.join(sorted(allowed))}")
    when = raw.get("when")
    if place == "battle":
        if when not in _TIMINGS:
            raise _fail(where, f"effect {do!r}: a battle card's effect needs when = {', '.join(_TIMINGS)}")
        if do in ONLY_WHEN and when != ONLY_WHEN[do]:
            raise _fail(where, f"effect {do!r} works only with when = {ONLY_WHEN[do]}, not {when!r}")
    elif "when" in raw:
        raise _fail(where, f"effect {do!r}: when is only for battle cards; the engine ignores it on {words}")
    params = {k: v for k, v in raw.items() if k not in ("do", "when")}
    expected = EFFECTS[do]
    for name, kind in expected.items():
        if name not in params:
            raise _fail(where, f"effect {do!r} needs {name!r}")
        value = params[name]
        if kind == "int":
            _whole(value, where, f"effect {do!r}: {name}")
        if kind == "stat" and not _one_of(value, _STAT_VALUES):
            raise _fail(where, f"effect {do!r}: {name} is one of {', '.join(_STAT_VALUES)}")
        if kind == "target" and not _one_of(value, _TARGETS):
            raise _fail(where, f"effect {do!r}: {name} is one of {', '.join(_TARGETS)}")
    extra = set(params) - set(expected)
    if extra:
        raise _fail(where, f"effect {do!r} has unknown parameters {sorted(extra)}")
    return Effect(do, params, when, monster=place == "monster")


def _effects(raw: Any, where: str, place: str) -> tuple[Effect, ...]:
    effects = tuple(_effect(e, f"{where}, effect {i + 1}", place) for i, e in enumerate(_list(raw, where)))
    dos = {e.do for e in effects}
    if {"keep_card", "spent"} <= dos:
        raise _fail(where, "a card that wins goes back to the hand (keep_card) or out of the game (spent), not both")
    return effects


def _condition(raw: Any, where: str, regions: dict[str, Region]) -> dict[str, Any]:
    if not isinstance(raw, dict) or not _one_of(raw.get("type"), CONDITIONS):
        raise _fail(where, f"a quest needs a condition; types: {', '.join(CONDITIONS)}")
    kind = raw["type"]
    expected = CONDITIONS[kind]
    _object(raw, f"{where}, condition {kind!r}", ("type", *expected))
    for name, ptype in expected.items():
        value = raw[name]
        if ptype == "int":
            _whole(value, where, f"condition {kind!r}: {name}")
        if ptype == "region" and not _one_of(value, regions):
            raise _fail(where, f"condition {kind!r}: unknown region {value!r}")
    return dict(raw)


def _regions(data: Any) -> dict[str, Region]:
    regions: dict[str, Region] = {}
    for index, raw in enumerate(_list(data, "regions")):
        rid = _entry_id(raw, "region", index)
        where = f"region {rid}"
        _object(raw, where, ("id", "name", "neighbours", "reward"), ("token", "valhalla"))
        if rid in regions:
            raise _fail(where, "the id appears twice")
        neighbours = _list(raw["neighbours"], f"{where}: neighbours")
        if any(not isinstance(n, str) for n in neighbours) or len(set(neighbours)) != len(neighbours):
            raise _fail(where, "neighbours are region ids, each once")
        if not _one_of(raw["reward"], _REWARDS):
            raise _fail(where, f"reward is one of {', '.join(_REWARDS)}")
        token = raw.get("token")
        if token is not None:
            _whole(token, where, "token", 1)
        valhalla = raw.get("valhalla", False)
        if not isinstance(valhalla, bool):
            raise _fail(where, "valhalla is true or false")
        regions[rid] = Region(rid, _text(raw["name"], where, "name"), tuple(neighbours), raw["reward"], token, valhalla)
    if sum(1 for r in regions.values() if r.valhalla) != 1:
        raise _fail("regions", "exactly one region is Valhalla")
    holder: dict[int, str] = {}
    for region in regions.values():
        where = f"region {region.id}"
        for other in region.neighbours:
            if other == region.id:
                raise _fail(where, "a region is not its own neighbour")
            if other not in regions:
                raise _fail(where, f"neighbour {other!r} is not a region")
            if region.id not in regions[other].neighbours:
                raise _fail(where, f"neighbour {other!r} does not list {region.id!r} back (neighbours are mutual)")
        if region.valhalla:
            if region.token is not None:
                raise _fail(where, "Valhalla has no region token")
            continue
        if region.token is None:
            raise _fail(where, "an outer region needs its region-token number")
        if region.token in holder:
            raise _fail(where, f"token {region.token} is also on region {holder[region.token]}")
        holder[region.token] = region.id
    if len(holder) < 3 or sorted(holder) != list(range(1, len(holder) + 1)):
        raise _fail("regions", "region tokens are numbered 1..k (k >= 3) without gaps, one per outer region")
    return regions


def _numbers(raw: Any, where: str, length: int) -> tuple[int, ...]:
    values = _list(raw, where)
    if len(values) != length:
        raise _fail(where, f"{length} whole numbers")
    return tuple(_whole(v, where, "every value") for v in values)


def _cards(
    data: Any, regions: dict[str, Region], gods: dict[str, God], monsters: dict[str, Monster]
) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    fields = {
        "battle": ("god", "strength", "effects", "rainbow"),
        "upgrade": ("god", "upgrade", "strength", "effects", "monster", "rainbow"),
        "quest": ("god", "condition", "reward", "rainbow"),
    }
    rainbow_of: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "cards")):
        cid = _entry_id(raw, "card", index)
        where = f"card {cid}"
        if cid in cards:
            raise _fail(where, "the id appears twice")
        kind = raw.get("kind")
        if not _one_of(kind, fields):
            raise _fail(where, "kind is battle, upgrade or quest")
        _object(raw, where, ("id", "name", "kind"), fields[kind])
        god = raw.get("god")
        if god is not None and not _one_of(god, gods):
            raise _fail(where, f"unknown god {god!r}")
        upgrade = raw.get("upgrade")
        monster = raw.get("monster")
        if kind == "upgrade" and not _one_of(upgrade, ("elite", "clan", "monster")):
            raise _fail(where, "an upgrade is elite, clan or monster")
        if upgrade == "monster":
            if not _one_of(monster, monsters):
                raise _fail(where, f"unknown monster {monster!r}")
            if "strength" in raw:
                raise _fail(where, "a monster card costs what its monster costs: leave strength out")
        elif monster is not None:
            raise _fail(where, "only a monster card (upgrade: monster) names a monster")
        elif god is None:
            raise _fail(where, "a card without a god must be a monster card (upgrade: monster)")
        rainbow = raw.get("rainbow", False)
        if not isinstance(rainbow, bool):
            raise _fail(where, "rainbow is true or false")
        if rainbow:
            if god is None:
                raise _fail(where, "a Rainbow Bridge card belongs to a god")
            if god in rainbow_of:
                raise _fail(where, f"god {god} already has the Rainbow Bridge card {rainbow_of[god]}")
            rainbow_of[god] = cid
        condition = _condition(raw.get("condition"), where, regions) if kind == "quest" else None
        strength = _whole(raw.get("strength", 0), where, "strength")
        if upgrade == "monster":
            strength = monsters[monster].cost
        cards[cid] = Card(
            id=cid,
            name=_text(raw["name"], where, "name"),
            god=god,
            kind=kind,
            upgrade=upgrade,
            strength=strength,
            effects=_effects(raw.get("effects", []), where, kind),
            monster=monster,
            condition=condition,
            reward=_effects(raw.get("reward", []), f"{where}, reward", "reward"),
            rainbow=rainbow,
        )
    for god in gods:
        count = sum(1 for c in cards.values() if c.god == god and not c.rainbow)
        if count != GOD_DECK:
            raise _fail(f"god {god}", f"a god deck has {GOD_DECK} cards, not {count}")
    for monster in monsters:
        count = sum(1 for c in cards.values() if c.monster == monster and c.god is None)
        if count != 1:
            raise _fail(f"monster {monster}", f"needs exactly one monster card (without a god), not {count}")
    return cards


def parse_content(data: Any) -> Content:
    """Check a content pack and return it typed; raises :class:`ContentError`."""
    top = ("id", "label", "regions", "tracks", "valor_glory", "first_game_gods", "gods", "monsters", "cards")
    _object(data, "", top, ("legendary", "$schema"))
    regions = _regions(data["regions"])
    raw_tracks = _object(data["tracks"], "tracks", STATS)
    tracks = {stat: _numbers(raw_tracks[stat], f"track {stat}", TRACK_STEPS) for stat in STATS}
    for stat, values in tracks.items():
        if list(values) != sorted(values):
            raise _fail(f"track {stat}", f"{TRACK_STEPS} non-decreasing values")
    gods: dict[str, God] = {}
    for index, raw in enumerate(_list(data["gods"], "gods")):
        gid = _entry_id(raw, "god", index)
        where = f"god {gid}"
        _object(raw, where, ("id", "name", "bonus"), ("theme",))
        if gid in gods:
            raise _fail(where, "the id appears twice")
        theme = _text(raw.get("theme", ""), where, "theme", empty=True)
        gods[gid] = God(gid, _text(raw["name"], where, "name"), theme, _effects(raw["bonus"], where, "bonus"))
    if len(gods) < 3:
        raise _fail("gods", "at least three gods")
    monsters: dict[str, Monster] = {}
    for index, raw in enumerate(_list(data["monsters"], "monsters")):
        mid = _entry_id(raw, "monster", index)
        where = f"monster {mid}"
        _object(raw, where, ("id", "name", "strength", "base", "abilities"), ("cost",))
        if mid in monsters:
            raise _fail(where, "the id appears twice")
        if mid in FIGURE_KINDS:
            raise _fail(where, f"{mid!r} is a figure of every clan, not a monster")
        if not _one_of(raw["base"], ("small", "large")):
            raise _fail(where, "base is small or large")
        strength = _whole(raw["strength"], where, "strength")
        monsters[mid] = Monster(
            mid,
            _text(raw["name"], where, "name"),
            strength,
            raw["base"],
            _effects(raw["abilities"], where, "monster"),
            _whole(raw.get("cost", strength), where, "cost"),
        )
    if len(monsters) < MIN_MONSTERS:
        raise _fail(
            "monsters",
            f"at least {MIN_MONSTERS} monsters ({MONSTERS_PER_PLAYER} per player for {PLAYERS_MAX} players), "
            f"not {len(monsters)}",
        )
    cards = _cards(data["cards"], regions, gods, monsters)
    first = tuple(_list(data["first_game_gods"], "first_game_gods"))
    if len(first) != 3 or not all(_one_of(g, gods) for g in first) or len(set(first)) != 3:
        raise _fail("first_game_gods", "three different known gods")
    valor = _numbers(data["valor_glory"], "valor_glory", 3)
    raw_legendary = _object(data.get("legendary", {}), "legendary", (), ("high", "top"))
    legendary = {
        "high": _whole(raw_legendary.get("high", 10), "legendary", "high"),
        "top": _whole(raw_legendary.get("top", 20), "legendary", "top"),
    }
    return Content(
        id=_text(data["id"], "", "id"),
        label=_text(data["label"], "", "label"),
        regions=regions,
        tracks=tracks,
        gods=gods,
        monsters=monsters,
        cards=cards,
        first_game_gods=(first[0], first[1], first[2]),
        valor_glory=(valor[0], valor[1], valor[2]),
        legendary=legendary,
    )


def load_default() -> Content:
    """The default content pack shipped with meadhall."""
    text = resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
    return parse_content(json.loads(text))


# Texts ---------------------------------------------------------------------------------

_STAT_WORDS = {"rage": "Rage", "axes": "Axes", "horns": "Horns", "choice": "a stat of your choice", "all": "every stat"}
_TARGET_WORDS = {"warrior": "enemy Warrior", "elite": "enemy Elite", "monster": "enemy Monster", "any": "enemy figure"}
_WHEN_WORDS = {"reveal": "When revealed", "win": "If you win", "lose": "If you lose"}


def describe_effect(effect: Effect) -> str:
    """One effect in words."""
    p = effect.params
    n = p.get("amount", p.get("count", 0))
    target = _TARGET_WORDS.get(p.get("target", "any"), "enemy figure")
    texts: dict[str, str] = {
        "glory": f"gain {n} Glory",
        "rage": f"gain {n} Rage",
        "lose_rage": f"lose {n} Rage",
        "raise": f"raise {_STAT_WORDS.get(p.get('stat', ''), '?')} one step",
        "steal_glory": f"take {n} Glory from each other player in the battle",
        "strength": f"+{n} STR",
        "strength_per_figure": f"+{n} STR per figure of yours in the battle",
        "strength_per_enemy": f"+{n} STR per enemy figure in the battle",
        "destroy": f"destroy {_plural(n, target)} in the battle",
        "glory_per_kill": f"gain {n} Glory per enemy figure killed",
        "glory_per_loss": f"gain {n} Glory per figure of yours killed",
        "save": f"{_plural(n, 'figure')} of yours {'returns' if n == 1 else 'return'} to your reserve instead of dying",
        "keep_card": "this card returns to your hand",
        "spent": "this card is removed from the game",
        "draw": f"draw {_plural(n, 'card')}",
        "reinforce": f"summon {_plural(n, 'figure')} from your reserve into the battle",
        "kill_anywhere": f"destroy {_plural(n, 'enemy figure')} in any regions",
        "warrior_strength": f"your Warriors have +{n} STR",
        "elite_strength": f"your Elites have +{n} STR",
        "monster_strength": f"your Monsters have +{n} STR",
        "battle_glory": f"+{n} Glory whenever you win a battle",
        "defeat_glory": f"+{n} Glory whenever you lose a battle",
        "valor_glory": f"+{n} Glory per figure in Prove Valor",
        "quest_glory": f"+{n} Glory per fulfilled quest",
        "contest_glory": f"+{n} Glory whenever you win a contest's reward",
        "kill_rage": f"+{n} Rage whenever you win a battle that kills",
        "free_march": "your first march in each Action phase costs no Rage",
        "call_two": "in a Call to Battle you may move two figures",
        "summon_rage": f"gain {n} Rage when summoned",
        "others_strength": f"your other figures in its region have +{n} STR",
        "called_from_anywhere": "may answer a Call to Battle from any region",
        "returns_when_killed": "when killed, returns to your reserve",
        "valor_weight": f"counts as {n} figures in Prove Valor",
        "immune": "cannot be destroyed by any effect: cards, monsters' abilities, gods' bonuses",
        "killed_glory": f"you gain {n} Glory when it is killed",
        "reveal_destroy": f"when cards are revealed in its battle, destroys {_plural(n, target)}",
        "win_glory": f"+{n} Glory when its battle is won",
    }
    text = texts.get(effect.do, effect.do)
    if effect.monster and effect.do in UPGRADE_EFFECTS:
        text = "while it is on the board, " + text
    if effect.when:
        return f"{_WHEN_WORDS[effect.when]}: {text}"
    return text[0].upper() + text[1:]


def describe_condition(condition: dict[str, Any], content: Content | None = None) -> str:
    """A quest's condition in words."""
    kind = condition.get("type")
    n = condition.get("count", 0)
    region = condition.get("region", "")
    if content is not None and region in content.regions:
        region = content.regions[region].name
    texts = {
        "control_region": f"control {region} (most STR there)",
        "control_regions": f"control at least {_plural(n, 'region')} (most STR)",
        "valhalla_figures": f"have at least {_plural(n, 'figure')} in Valhalla",
        "god_regions": f"have figures in at least {_plural(n, 'region')} holding a god",
        "battles_won": f"win at least {_plural(n, 'battle')} this Age",
        "battles_lost": f"lose at least {_plural(n, 'battle')} this Age",
        "fallen": f"have at least {_plural(n, 'figure')} killed (in kill piles or the Feast Hall)",
        "upgrades": f"have at least {_plural(n, 'upgrade')} in your slots",
        "most_figures": "have more figures on the board than every other clan",
        "fewest_figures": "have fewer figures on the board than every other clan (at least one)",
        "hand": f"hold at least {_plural(n, 'card')} in your hand",
        "rage_left": f"have at least {n} Rage left",
        "contests_won": f"win at least {_plural(n, 'contest')} this Age",
    }
    return texts.get(str(kind), str(kind))


def describe_card(card: Card, content: Content | None = None) -> str:
    """A card's full text for people."""
    parts: list[str] = []
    if card.kind == "battle":
        parts.append(f"Battle, STR +{card.strength}.")
    elif card.kind == "upgrade":
        label = {"elite": "Elite upgrade", "clan": "Clan upgrade", "monster": "Monster"}[card.upgrade or "clan"]
        parts.append(f"{label}, costs {card.strength} Rage.")
        if card.monster and content is not None:
            monster = content.monsters[card.monster]
            parts.append(f"{monster.name}: STR {monster.strength}, {monster.base} base.")
            parts.extend(describe_effect(e) + "." for e in monster.abilities)
    else:
        parts.append("Quest: " + describe_condition(card.condition or {}, content) + ".")
        if card.reward:
            parts.append("Reward: " + "; ".join(describe_effect(e) for e in card.reward) + ".")
    parts.extend(describe_effect(e) + "." for e in card.effects)
    if card.rainbow:
        parts.append("Rainbow Bridge reward.")
    return " ".join(parts)
