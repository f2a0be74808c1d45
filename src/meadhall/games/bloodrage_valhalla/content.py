"""Blood Rage: Valhalla content: map, stat tracks, gods, cards and monsters, as data.

The rulebook prints no component data, so meadhall ships a *default content pack*
(``data/default.json``), labelled "meadhall default content, not the printed cards". A
content pack is JSON checked by :func:`parse_content` (schema in ``content.schema.json``);
another pack (for instance the printed cards, typed in by their owner) can replace it
without code changes.

Card effects are data in a small typed vocabulary (:data:`EFFECTS`), implemented once by
the engine. Each effect names its ``do`` (what happens) and, on cards, its ``when``:

* battle cards: ``reveal`` (as the cards are revealed), ``win``, ``lose`` (after the
  battle, for the card's player);
* upgrades (clan, elite, monster): passive effects that hold while the card lies in a
  slot, named by their ``do`` (``strength``, ``battle_glory``, ...);
* quests: a ``condition`` checked in the Quest phase, and ``reward`` effects beyond the
  stat raise and the Horns Glory every fulfilled quest gives.

Texts shown to people are generated from the effects (:func:`describe`), so a card can
never say one thing and do another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

STATS = ("rage", "axes", "horns")
TRACK_STEPS = 6
FIGURE_KINDS = ("warrior", "elite")  # and the monster ids


class ContentError(ValueError):
    """A content pack that does not match the schema or refers to unknown things."""


#: The effect vocabulary: ``do`` -> {parameter: type}. Types: "int", "stat" (rage, axes,
#: horns or choice), "target" (warrior, elite, monster, any), "where" (battle, any).
EFFECTS: dict[str, dict[str, str]] = {
    # immediate effects (battle cards on reveal/win/lose, rewards, quest rewards)
    "glory": {"amount": "int"},  # gain Glory
    "rage": {"amount": "int"},  # gain Rage now (not above the Rage stat value + amount)
    "raise": {"stat": "stat"},  # raise a clan stat one step
    "steal_glory": {"amount": "int"},  # each other player in the battle loses this, you gain it
    "strength": {"amount": "int"},  # +STR in this battle (reveal)
    "strength_per_figure": {"amount": "int"},  # +STR per own figure in the battle (reveal)
    "strength_per_enemy": {"amount": "int"},  # +STR per enemy figure in the battle (reveal)
    "destroy": {"count": "int", "target": "target"},  # destroy enemy figures in the battle (reveal)
    "glory_per_kill": {"amount": "int"},  # win: Glory per enemy figure killed in this battle
    "glory_per_loss": {"amount": "int"},  # lose: Glory per own figure killed in this battle
    "save": {"count": "int"},  # lose: this many of your figures go back to your reserve
    "keep_card": {},  # win: the card returns to your hand instead of the discard pile
    "draw": {"count": "int"},  # draw cards from the top of the deck
    "reinforce": {"count": "int"},  # reveal: summon this many figures from your reserve into the battle
    "kill_anywhere": {"count": "int"},  # choose enemy figures in any regions to destroy (Tyr)
    # passive effects (upgrades, monsters)
    "warrior_strength": {"amount": "int"},  # +STR for each of your warriors
    "elite_strength": {"amount": "int"},  # +STR for each of your elites
    "monster_strength": {"amount": "int"},  # +STR for each of your monsters
    "battle_glory": {"amount": "int"},  # +Glory whenever you win a battle
    "defeat_glory": {"amount": "int"},  # +Glory whenever you lose a battle
    "valor_glory": {"amount": "int"},  # +Glory per figure in Prove Valor
    "quest_glory": {"amount": "int"},  # +Glory per fulfilled quest
    "contest_glory": {"amount": "int"},  # +Glory when you win a contest's reward
    "kill_rage": {"amount": "int"},  # +Rage (this phase) whenever you win a battle with kills
    "free_march": {},  # marching costs no Rage (you still need 1 Rage)
    "call_two": {},  # in Call to Battle you may move up to two figures
    "summon_rage": {"amount": "int"},  # +Rage when you summon a monster (monster ability)
    "others_strength": {"amount": "int"},  # other own figures in the same battle get +STR (monster)
    "called_from_anywhere": {},  # may join a Call to Battle from any region (monster)
    "returns_when_killed": {},  # when killed, goes straight back to your reserve (monster)
    "valor_weight": {"amount": "int"},  # counts as this many figures in Prove Valor (monster)
    "immune": {},  # cannot be destroyed by card effects (monster)
    "killed_glory": {"amount": "int"},  # +Glory for you when it is killed (monster)
    "reveal_destroy": {"count": "int", "target": "target"},  # destroys enemy figures as cards are revealed (monster)
    "win_glory": {"amount": "int"},  # +Glory when its battle is won (monster)
}

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


@dataclass(frozen=True)
class Effect:
    """One effect: what it does, with its parameters, and (on battle cards) when."""

    do: str
    params: dict[str, Any] = field(default_factory=dict)
    when: str | None = None

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
    """A monster figure: its strength, base size and abilities."""

    id: str
    name: str
    strength: int
    base: str  # small or large
    abilities: tuple[Effect, ...]


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


def _fail(where: str, message: str) -> ContentError:
    return ContentError(f"content {where}: {message}")


def _effect(raw: Any, where: str, timed: bool) -> Effect:
    if not isinstance(raw, dict) or "do" not in raw:
        raise _fail(where, 'an effect is an object with "do"')
    do = raw["do"]
    if do not in EFFECTS:
        raise _fail(where, f"unknown effect {do!r}; effects: {', '.join(EFFECTS)}")
    when = raw.get("when")
    if timed and when not in _TIMINGS:
        raise _fail(where, f"a battle card's effect needs when = {', '.join(_TIMINGS)}")
    params = {k: v for k, v in raw.items() if k not in ("do", "when")}
    expected = EFFECTS[do]
    for name, kind in expected.items():
        if name not in params:
            raise _fail(where, f"effect {do!r} needs {name!r}")
        value = params[name]
        if kind == "int" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise _fail(where, f"effect {do!r}: {name} is a whole number >= 0")
        if kind == "stat" and value not in _STAT_VALUES:
            raise _fail(where, f"effect {do!r}: {name} is one of {', '.join(_STAT_VALUES)}")
        if kind == "target" and value not in _TARGETS:
            raise _fail(where, f"effect {do!r}: {name} is one of {', '.join(_TARGETS)}")
    extra = set(params) - set(expected)
    if extra:
        raise _fail(where, f"effect {do!r} has unknown parameters {sorted(extra)}")
    return Effect(do, params, when)


def parse_content(data: Any) -> Content:
    """Check a content pack and return it typed; raises :class:`ContentError`."""
    if not isinstance(data, dict):
        raise _fail("", "a content pack is a JSON object")
    for key in ("id", "label", "regions", "tracks", "gods", "monsters", "cards", "first_game_gods", "valor_glory"):
        if key not in data:
            raise _fail("", f"missing {key!r}")
    regions: dict[str, Region] = {}
    for raw in data["regions"]:
        rid = raw["id"]
        regions[rid] = Region(
            rid,
            raw["name"],
            tuple(raw["neighbours"]),
            raw["reward"],
            raw.get("token"),
            bool(raw.get("valhalla", False)),
        )
    if sum(1 for r in regions.values() if r.valhalla) != 1:
        raise _fail("regions", "exactly one region is Valhalla")
    for region in regions.values():
        if region.reward not in (*STATS, "choice", "all"):
            raise _fail(f"region {region.id}", "reward is rage, axes, horns, choice or all")
        for other in region.neighbours:
            if other not in regions or region.id not in regions[other].neighbours:
                raise _fail(f"region {region.id}", f"neighbour {other!r} is unknown or not mutual")
    tokens = sorted(r.token for r in regions.values() if r.token is not None)
    if len(tokens) < 3 or tokens != list(range(1, len(tokens) + 1)):
        raise _fail("regions", "region tokens are numbered 1..k (k >= 3), one per outer region")
    tracks = {stat: tuple(int(v) for v in data["tracks"][stat]) for stat in STATS}
    for stat, values in tracks.items():
        if len(values) != TRACK_STEPS or list(values) != sorted(values):
            raise _fail(f"track {stat}", f"{TRACK_STEPS} non-decreasing values")
    gods: dict[str, God] = {}
    for raw in data["gods"]:
        gods[raw["id"]] = God(
            raw["id"],
            raw["name"],
            raw.get("theme", ""),
            tuple(_effect(e, f"god {raw['id']}", False) for e in raw["bonus"]),
        )
    if len(gods) < 3:
        raise _fail("gods", "at least three gods")
    monsters: dict[str, Monster] = {}
    for raw in data["monsters"]:
        if raw.get("base") not in ("small", "large"):
            raise _fail(f"monster {raw.get('id')}", "base is small or large")
        monsters[raw["id"]] = Monster(
            raw["id"],
            raw["name"],
            int(raw["strength"]),
            raw["base"],
            tuple(_effect(e, f"monster {raw['id']}", False) for e in raw["abilities"]),
        )
    cards: dict[str, Card] = {}
    for raw in data["cards"]:
        cid = raw["id"]
        where = f"card {cid}"
        if cid in cards:
            raise _fail(where, "appears twice")
        kind = raw.get("kind")
        if kind not in ("battle", "upgrade", "quest"):
            raise _fail(where, "kind is battle, upgrade or quest")
        god = raw.get("god")
        if god is not None and god not in gods:
            raise _fail(where, f"unknown god {god!r}")
        upgrade = raw.get("upgrade")
        monster = raw.get("monster")
        if kind == "upgrade" and upgrade not in ("elite", "clan", "monster"):
            raise _fail(where, "an upgrade is elite, clan or monster")
        if upgrade == "monster" and monster not in monsters:
            raise _fail(where, f"unknown monster {monster!r}")
        condition = raw.get("condition")
        if kind == "quest":
            if not isinstance(condition, dict) or condition.get("type") not in CONDITIONS:
                raise _fail(where, f"a quest needs a condition; types: {', '.join(CONDITIONS)}")
            for name, ptype in CONDITIONS[condition["type"]].items():
                if name not in condition:
                    raise _fail(where, f"condition {condition['type']!r} needs {name!r}")
                if ptype == "region" and condition[name] not in regions:
                    raise _fail(where, f"unknown region {condition[name]!r}")
        strength = int(raw.get("strength", 0))
        if kind == "upgrade" and upgrade == "monster":
            strength = monsters[monster].strength
        cards[cid] = Card(
            id=cid,
            name=raw["name"],
            god=god,
            kind=kind,
            upgrade=upgrade,
            strength=strength,
            effects=tuple(_effect(e, where, kind == "battle") for e in raw.get("effects", [])),
            monster=monster,
            condition=condition,
            reward=tuple(_effect(e, where, False) for e in raw.get("reward", [])),
            rainbow=bool(raw.get("rainbow", False)),
        )
    for god in gods:
        count = sum(1 for c in cards.values() if c.god == god and not c.rainbow)
        if count != 25:
            raise _fail(f"god {god}", f"a god deck has 25 cards, not {count}")
    for monster in monsters:
        if not any(c.monster == monster and c.god is None for c in cards.values()):
            raise _fail(f"monster {monster}", "has no monster card")
    first = tuple(data["first_game_gods"])
    if len(first) != 3 or any(g not in gods for g in first):
        raise _fail("first_game_gods", "three known gods")
    valor = tuple(int(v) for v in data["valor_glory"])
    if len(valor) != 3:
        raise _fail("valor_glory", "Glory per figure for Ages 1, 2, 3")
    legendary = {
        "high": int(data.get("legendary", {}).get("high", 10)),
        "top": int(data.get("legendary", {}).get("top", 20)),
    }
    return Content(
        id=str(data["id"]),
        label=str(data["label"]),
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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def describe_effect(effect: Effect) -> str:
    """One effect in words."""
    p = effect.params
    n = p.get("amount", p.get("count", 0))
    target = _TARGET_WORDS.get(p.get("target", "any"), "enemy figure")
    texts: dict[str, str] = {
        "glory": f"gain {n} Glory",
        "rage": f"gain {n} Rage",
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
        "free_march": "marching costs no Rage",
        "call_two": "in a Call to Battle you may move two figures",
        "summon_rage": f"gain {n} Rage when summoned",
        "others_strength": f"your other figures in its battle have +{n} STR",
        "called_from_anywhere": "may answer a Call to Battle from any region",
        "returns_when_killed": "when killed, returns to your reserve",
        "valor_weight": f"counts as {n} figures in Prove Valor",
        "immune": "cannot be destroyed by card effects",
        "killed_glory": f"you gain {n} Glory when it is killed",
        "reveal_destroy": f"when cards are revealed in its battle, destroys {_plural(n, target)}",
        "win_glory": f"+{n} Glory when its battle is won",
    }
    text = texts.get(effect.do, effect.do)
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
