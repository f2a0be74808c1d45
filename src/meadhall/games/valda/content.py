"""Valda content: dice faces, gods and their temples, the base deck and the god decks, as data.

The rulebook gives the mechanics but prints neither the card lists nor the dice faces, and
no public source gives them. So meadhall ships a *default content pack*
(``data/default.json``), labelled "meadhall default content, not the printed cards",
designed as the project's rulings ask (docs/rules/valda.md, "The default content pack").
A pack is JSON in the format that ``data/content.schema.json`` (JSON Schema, draft
2020-12) describes; :func:`parse_content` checks it, including what a schema cannot
say: unique ids, the seven gods of the rulebook
with their temple costs, 150 cards in all, exactly one god weapon in each god deck with
the two options the rulebook prints for it, and effects that fit the card they are on.

Card effects are data in a typed vocabulary (:data:`EFFECTS`) that follows the
rulebook's icon list; the engine implements each effect once. Kinds of card:

* ``yellow``: played in the game phase for one action; its ``effects`` happen at once;
* ``attack``: played in the attack phase on the player whose turn it is; ``power``
  swords, and an ``impact`` (effects the attacker carries out) if it is not defended;
* ``defence``: ``power`` to set against an attack, any number of them against one attack;
  a defence card may add ``on_success`` effects for its player when the defence holds;
* ``weapon``: a god weapon, at most one per god deck: no action, any time its window
  allows, two ``options`` of which the player chooses one.

Texts shown to people are generated from the effects (:func:`describe_card`), so a card
can never say one thing and do another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from meadhall.core.content import TEXT_LENGTH, entry_id, fail, json_list, json_object, one_of, text, whole
from meadhall.core.content import ContentError as ContentError  # re-exported: the error of a bad pack
from meadhall.core.content import plural as _plural

RESOURCES = ("drop", "gold", "diamond")
#: A die face or an effect may give one resource "of choice".
RESOURCE_CHOICES = (*RESOURCES, "choice")
DIE_COLOURS = ("yellow", "blue", "white")
#: The rulebook's nine dice: three blue, four yellow, two white.
DICE_COUNTS = {"yellow": 4, "blue": 3, "white": 2}
FACES = 6
BUILDINGS = ("mine", "drill", "temple")
CARD_KINDS = ("yellow", "attack", "defence", "weapon")
CARDS_IN_ALL = 150
#: The seven gods of the rulebook, with the temple cost it prints for each.
RULEBOOK_GODS: dict[str, dict[str, int]] = {
    "heimdall": {"diamond": 2, "gold": 2, "drop": 1},
    "freya": {"diamond": 3, "gold": 3},
    "surtur": {"drop": 2, "diamond": 2},
    "tyr": {"drop": 2, "gold": 2},
    "thor": {"diamond": 2, "gold": 2, "drop": 2},
    "odin": {"diamond": 3, "gold": 3, "drop": 2},
    "loki": {"drop": 4, "diamond": 1, "gold": 1},
}
#: Mine and blood drill costs as the rulebook prints them.
RULEBOOK_BUILDINGS: dict[str, dict[str, int]] = {
    "mine": {"drop": 1, "diamond": 1, "gold": 1},
    "drill": {"diamond": 2, "gold": 2},
}
#: The starting resources the rulebook prints, by number of players, from the start player on.
RULEBOOK_STARTING_RESOURCES: dict[int, tuple[dict[str, int], ...]] = {
    2: ({"drop": 2, "diamond": 1, "gold": 1}, {"drop": 2, "diamond": 2, "gold": 2}),
    3: ({"drop": 2, "diamond": 1, "gold": 1}, {"drop": 2, "diamond": 1, "gold": 2},
        {"drop": 2, "diamond": 2, "gold": 2}),
    4: ({"drop": 2, "diamond": 1, "gold": 1}, {"drop": 2, "diamond": 1, "gold": 2},
        {"drop": 2, "diamond": 2, "gold": 2}, {"drop": 2, "diamond": 2, "gold": 3}),
    5: ({"drop": 2, "diamond": 1, "gold": 1}, {"drop": 2, "diamond": 1, "gold": 2},
        {"drop": 2, "diamond": 2, "gold": 2}, {"drop": 2, "diamond": 2, "gold": 2},
        {"drop": 2, "diamond": 2, "gold": 3}),
}  # fmt: skip
#: Each god weapon's two options, as the rulebook names them (the effect is fixed by the rules).
RULEBOOK_WEAPONS: dict[str, tuple[str, str]] = {
    "odin": ("bullseye", "soulspear"),
    "freya": ("vanished", "crown-of-fortune"),
    "tyr": ("thief", "tyrs-revenge"),
    "heimdall": ("war-horn", "sound-of-the-gjallarhorn"),
    "surtur": ("resisted", "surturs-claim"),
    "thor": ("hammertime", "wrath-of-thor"),
    "loki": ("backstab", "deadly-dagger"),
}

#: The effect vocabulary: ``do`` -> {parameter: type}. Types: "int", "resource" (drop,
#: gold, diamond or choice), "any-resource" (those or "any": the target's choice of
#: what they hold), "die" (yellow or blue), "building" (mine, drill, temple, any),
#: "source" (base, god, discard), "kind" (a card kind or any), "who" (me, all, others).
#: Each names the icon of the rulebook it stands for.
EFFECTS: dict[str, dict[str, str]] = {
    # yellow cards and rewards: what the card's player gets
    "gain": {"resource": "resource", "amount": "int", "who": "who"},  # drop, gold, diamond icons
    "followers": {"amount": "int", "who": "who"},  # kneeling figure: gain followers
    "draw": {"count": "int", "source": "source", "kind": "kind"},  # card stack, god-card, discard pile
    "actions": {"count": "int"},  # lightning bolt: more actions this game phase
    "roll": {"die": "die", "count": "int"},  # dice: roll resource dice now and take what they show
    "build": {"building": "building", "discount": "int"},  # hammer and axe: build now, beyond the two
    "convert": {"give": "resource", "amount": "int", "followers": "int", "times": "int"},  # arrow: change into
    "look": {"count": "int"},  # eye: look at a player's hand (player of choice) and take nothing
    "peek_take": {"count": "int"},  # eye + card: look at the base deck's top cards, keep one
    "switch_open": {},  # two arrows switching: swap an open card with the base deck's top card
    "play_yellow": {"count": "int"},  # yellow square: play yellow cards without spending actions
    "lend": {},  # facing parentheses: a god's 1-temple ability, where you have none, this turn
    # impacts of attacks (the attacker carries them out on the attacked player)
    "steal_resource": {"resource": "any-resource", "amount": "int"},  # hand + resource
    "steal_card": {"count": "int"},  # hand + card: cards taken at random from the hand
    "kill": {"amount": "int"},  # skull: the attacked player loses followers (safe zones hold)
    "steal_followers": {"amount": "int"},  # skull + follower: they lose, the attacker gains
    "destroy": {"building": "building"},  # flame hand: one of their buildings
    "move_temple": {},  # curved arrow + temple: to a free site of another god area
    "discard": {"count": "int"},  # card stack: they discard cards at random (their hand is hidden)
}
#: Effects a yellow card, a defence's success or a reward may have (for its own player).
GAIN_EFFECTS = frozenset(
    {"gain", "followers", "draw", "actions", "roll", "build", "convert", "look", "peek_take", "switch_open",
     "play_yellow", "lend"}
)  # fmt: skip
#: Effects an attack's impact may have.
IMPACT_EFFECTS = frozenset(
    {"steal_resource", "steal_card", "kill", "steal_followers", "destroy", "move_temple", "discard", "gain"}
)  # fmt: skip
_PARAM_VALUES: dict[str, tuple[str, ...]] = {
    "resource": RESOURCE_CHOICES,
    "any-resource": (*RESOURCE_CHOICES, "any"),
    "die": ("yellow", "blue"),
    "building": (*BUILDINGS, "any"),
    "source": ("base", "god", "discard"),
    "kind": (*CARD_KINDS, "any"),
    "who": ("me", "all", "others"),
}
_DEFAULTS: dict[str, Any] = {"who": "me", "source": "base", "kind": "any", "discount": 0, "times": 1}
#: Moments at which a god weapon option may be played (the rulings' response windows).
WINDOWS = ("any", "attacked", "attack-announced", "attacking", "defended", "building", "rolled", "yellow")


@dataclass(frozen=True)
class Effect:
    """One effect: what it does, with its parameters."""

    do: str
    params: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        """A parameter's value (or its default)."""
        return self.params.get(name, _DEFAULTS.get(name, 0))


@dataclass(frozen=True)
class Face:
    """One die face: resources (yellow, blue dice) or followers (white dice; -1 is the skull)."""

    resources: dict[str, int]
    followers: int = 0


@dataclass(frozen=True)
class God:
    """A god area: its temple cost and what its deck leans to."""

    id: str
    name: str
    temple_cost: dict[str, int]
    characteristics: tuple[str, ...]
    deck_theme: str


@dataclass(frozen=True)
class WeaponOption:
    """One of a god weapon's two options: its rulebook name and when it may be played."""

    id: str
    name: str
    window: str
    text: str


@dataclass(frozen=True)
class Card:
    """A card of the base deck (``god`` is None) or of a god deck."""

    id: str
    name: str
    god: str | None
    kind: str
    count: int
    power: int = 0  # swords of an attack, defence power of a defence card
    effects: tuple[Effect, ...] = ()  # a yellow card's effects, an attack's impact, a defence's success
    options: tuple[WeaponOption, ...] = ()


@dataclass(frozen=True)
class Content:
    """A whole Valda content pack."""

    id: str
    label: str
    dice: dict[str, tuple[Face, ...]]
    gods: dict[str, God]
    buildings: dict[str, dict[str, int]]
    starting_resources: dict[int, tuple[dict[str, int], ...]]
    cards: dict[str, Card]

    def deck(self, god: str | None) -> list[str]:
        """Card ids of the base deck (``None``) or a god's deck, each as many times as printed."""
        return [card.id for card in self.cards.values() if card.god == god for _ in range(card.count)]

    def weapon(self, god: str) -> Card:
        """The god weapon of a god's deck."""
        return next(c for c in self.cards.values() if c.god == god and c.kind == "weapon")


# Reading a pack -----------------------------------------------------------------------------


def _resources(raw: Any, where: str, choice: bool = False) -> dict[str, int]:
    names = RESOURCE_CHOICES if choice else RESOURCES
    found = json_object(raw, where, (), names)
    return {name: whole(found[name], where, name, 1) for name in names if name in found}


def _effect(raw: Any, where: str, allowed: frozenset[str]) -> Effect:
    if not isinstance(raw, dict) or "do" not in raw:
        raise fail(where, 'an effect is an object with "do"')
    do = raw["do"]
    if not one_of(do, EFFECTS):
        raise fail(where, f"unknown effect {do!r}; effects: {', '.join(EFFECTS)}")
    if do not in allowed:
        raise fail(where, f"{do!r} does not belong here; here: {', '.join(sorted(allowed))}")
    spec = EFFECTS[do]
    required = [name for name in spec if name not in _DEFAULTS]
    found = json_object(raw, f"{where} ({do})", ["do", *required], [name for name in spec if name in _DEFAULTS])
    params: dict[str, Any] = {}
    for name, kind in spec.items():
        if name not in found:
            continue
        value = found[name]
        if kind == "int":
            params[name] = whole(value, where, name, 0 if name == "discount" else 1)
        elif not one_of(value, _PARAM_VALUES[kind]):
            raise fail(where, f"{name} is one of {', '.join(_PARAM_VALUES[kind])}, not {value!r}")
        else:
            params[name] = value
    return Effect(do, params)


def _dice(raw: Any) -> dict[str, tuple[Face, ...]]:
    found = json_object(raw, "dice", DIE_COLOURS)
    dice: dict[str, tuple[Face, ...]] = {}
    for colour in DIE_COLOURS:
        faces = json_list(found[colour], f"dice {colour}")
        if len(faces) != FACES:
            raise fail(f"dice {colour}", f"a die has {FACES} faces, not {len(faces)}")
        read = []
        for index, face in enumerate(faces):
            where = f"dice {colour} face {index + 1}"
            if colour == "white":
                entry = json_object(face, where, ["followers"])
                if not isinstance(entry["followers"], int) or isinstance(entry["followers"], bool):
                    raise fail(where, "followers is a whole number (-1: the skull)")
                read.append(Face({}, entry["followers"]))
            else:
                gives = _resources(face, where, choice=True)
                if colour == "blue" and set(gives) - {"drop"}:
                    raise fail(where, "blue dice give divine blood (drops) only")
                if colour == "yellow" and "drop" in gives:
                    raise fail(where, "yellow dice give gold and diamonds, not drops")
                read.append(Face(gives))
        dice[colour] = tuple(read)
    return dice


def _gods(raw: Any) -> dict[str, God]:
    gods: dict[str, God] = {}
    for index, entry in enumerate(json_list(raw, "gods")):
        god_id = entry_id(entry, "god", index)
        where = f"god {god_id!r}"
        found = json_object(entry, where, ["id", "name", "temple_cost", "characteristics", "deck_theme"])
        if god_id in gods:
            raise fail(where, "appears twice")
        if god_id not in RULEBOOK_GODS:
            raise fail(where, f"the gods are the rulebook's seven: {', '.join(RULEBOOK_GODS)}")
        cost = _resources(found["temple_cost"], f"{where} temple_cost")
        if cost != RULEBOOK_GODS[god_id]:
            raise fail(where, f"the rulebook's temple cost is {RULEBOOK_GODS[god_id]}, not {cost}")
        traits = tuple(text(t, where, "a characteristic") for t in json_list(found["characteristics"], where))
        gods[god_id] = God(
            god_id, text(found["name"], where, "name"), cost, traits, text(found["deck_theme"], where, "deck_theme")
        )
    if set(gods) != set(RULEBOOK_GODS):
        raise fail(
            "gods", f"every one of the rulebook's seven gods, once: missing {sorted(set(RULEBOOK_GODS) - set(gods))}"
        )
    return gods


def _starting(raw: Any) -> dict[int, tuple[dict[str, int], ...]]:
    """The starting resources by seat, which must be the rulebook's table."""
    found = json_object(raw, "starting_resources", ["2", "3", "4", "5"])
    table: dict[int, tuple[dict[str, int], ...]] = {}
    for players in (2, 3, 4, 5):
        where = f"starting_resources {players}"
        seats = json_list(found[str(players)], where)
        if len(seats) != players:
            raise fail(where, f"one entry per seat: {players}")
        table[players] = tuple(_resources(s, where) for s in seats)
        printed = RULEBOOK_STARTING_RESOURCES[players]
        for seat, (given, wanted) in enumerate(zip(table[players], printed, strict=True)):
            if given != wanted:
                rulebook = "; ".join(_resources_text(entry) for entry in printed)
                raise fail(
                    where,
                    f"the rulebook's starting resources for {players} players are, from the start player on: "
                    f"{rulebook}; seat {seat + 1} has {_resources_text(given)}, not {_resources_text(wanted)}",
                )
    return table


def _resources_text(resources: dict[str, int]) -> str:
    return ", ".join(amount_text(name, resources[name]) for name in RESOURCES if resources.get(name)) or "nothing"


#: The fields of each kind of card beyond id, name, deck, kind and count: (required, optional).
_CARD_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "yellow": (("effects",), ()),
    "attack": (("power", "impact"), ()),
    "defence": (("power",), ("on_success",)),
    "weapon": (("options",), ()),
}


def _card(raw: Any, index: int, gods: dict[str, God]) -> Card:
    card_id = entry_id(raw, "card", index)
    where = f"card {card_id!r}"
    kind = raw.get("kind") if isinstance(raw, dict) else None
    required, optional = _CARD_FIELDS.get(kind if isinstance(kind, str) else "", ((), ()))
    found = json_object(raw, where, ("id", "name", "deck", "kind", "count", *required), optional)
    if not isinstance(kind, str) or kind not in CARD_KINDS:
        raise fail(where, f"kind is one of {', '.join(CARD_KINDS)}")
    deck = found["deck"]
    if deck != "base" and deck not in gods:
        raise fail(where, f"deck is base or a god: {', '.join(gods)}")
    god = None if deck == "base" else str(deck)
    count = whole(found["count"], where, "count", 1)
    name = text(found["name"], where, "name")
    if kind == "yellow":
        effects = tuple(_effect(e, where, GAIN_EFFECTS) for e in json_list(found["effects"], where))
        if not effects:
            raise fail(where, "a yellow card does something")
        return Card(card_id, name, god, kind, count, effects=effects)
    if kind == "attack":
        impact = tuple(_effect(e, where, IMPACT_EFFECTS) for e in json_list(found["impact"], where))
        if not impact:
            raise fail(where, "an attack has an impact")
        return Card(card_id, name, god, kind, count, whole(found["power"], where, "power", 1), impact)
    if kind == "defence":
        success = tuple(_effect(e, where, GAIN_EFFECTS) for e in json_list(found.get("on_success", []), where))
        return Card(card_id, name, god, kind, count, whole(found["power"], where, "power", 1), success)
    if god is None:
        raise fail(where, "god weapons lie in the god decks")
    if count != 1:
        raise fail(where, "each god weapon exists once")
    options = []
    for number, option in enumerate(json_list(found["options"], where)):
        spot = f"{where} option {number + 1}"
        entry = json_object(option, spot, ["id", "name", "window", "text"])
        if not one_of(entry["window"], WINDOWS):
            raise fail(spot, f"window is one of {', '.join(WINDOWS)}")
        options.append(WeaponOption(str(entry["id"]), text(entry["name"], spot, "name"), entry["window"],
                                    text(entry["text"], spot, "text", TEXT_LENGTH)))  # fmt: skip
    if tuple(o.id for o in options) != RULEBOOK_WEAPONS[god]:
        raise fail(where, f"{god}'s weapon has the rulebook's two options {RULEBOOK_WEAPONS[god]}")
    return Card(card_id, name, god, kind, count, options=tuple(options))


def parse_content(raw: Any) -> Content:
    """Check a content pack (parsed JSON) and return it typed; raises :class:`ContentError`."""
    found = json_object(
        raw, "", ["id", "label", "dice", "gods", "buildings", "starting_resources", "cards"], ["$schema"]
    )
    dice = _dice(found["dice"])
    gods = _gods(found["gods"])
    buildings_raw = json_object(found["buildings"], "buildings", list(RULEBOOK_BUILDINGS))
    buildings = {b: _resources(buildings_raw[b], f"buildings {b}") for b in RULEBOOK_BUILDINGS}
    if buildings != RULEBOOK_BUILDINGS:
        raise fail("buildings", f"the rulebook's costs are {RULEBOOK_BUILDINGS}")
    cards: dict[str, Card] = {}
    for index, entry in enumerate(json_list(found["cards"], "cards")):
        card = _card(entry, index, gods)
        if card.id in cards:
            raise fail(f"card {card.id!r}", "appears twice")
        cards[card.id] = card
    total = sum(card.count for card in cards.values())
    if total != CARDS_IN_ALL:
        raise fail("cards", f"the game has {CARDS_IN_ALL} cards, this pack {total}")
    for god in gods:
        weapons = [c.id for c in cards.values() if c.god == god and c.kind == "weapon"]
        if len(weapons) != 1:
            raise fail(f"god {god!r}", f"its deck holds exactly one god weapon, not {len(weapons)}")
    if any(c.kind == "weapon" for c in cards.values() if c.god is None):
        raise fail("cards", "the base deck holds no god weapons")
    return Content(
        id=text(found["id"], "", "id"),
        label=text(found["label"], "", "label"),
        dice=dice,
        gods=gods,
        buildings=buildings,
        starting_resources=_starting(found["starting_resources"]),
        cards=cards,
    )


@cache
def default_content() -> Content:
    """The default content pack that meadhall ships (read once; treat it as read-only)."""
    return parse_content(json.loads(resources.files(__package__).joinpath("data/default.json").read_text("utf-8")))


# Texts for people -----------------------------------------------------------------------------


_RESOURCE_WORDS = {
    "drop": ("divine blood", "divine blood"),
    "gold": ("gold", "gold"),
    "diamond": ("diamond", "diamonds"),
    "choice": ("resource of your choice", "resources of your choice"),
    "any": ("resource", "resources"),
}
_BUILDING_WORDS = {"mine": "mine", "drill": "blood drill", "temple": "temple", "any": "building"}


def amount_text(resource: str, amount: int) -> str:
    """``2 gold``, ``1 diamond``, ``3 divine blood``: an amount of a resource in words."""
    one, many = _RESOURCE_WORDS[resource]
    return f"{amount} {one if amount == 1 else many}"


def describe_effect(effect: Effect) -> str:
    """One effect in words."""
    get = effect.get
    who = {"me": "", "all": "every player: ", "others": "every other player: "}
    match effect.do:
        case "gain":
            return f"{who[get('who')]}take {amount_text(get('resource'), get('amount'))}"
        case "followers":
            return f"{who[get('who')]}gain {_plural(get('amount'), 'follower')}"
        case "draw":
            source = {"base": "the base deck", "god": "a god deck of your choice", "discard": "the discard pile"}
            noun = "card" if get("kind") == "any" else f"{get('kind')} card"
            return f"take {_plural(get('count'), noun)} from {source[get('source')]}"
        case "actions":
            return f"{_plural(get('count'), 'more action')} this game phase"
        case "roll":
            dice = "die" if get("count") == 1 else "dice"
            return f"roll {get('count')} {get('die')} {dice} and take what they show"
        case "build":
            what = (
                "a building"
                if get("building") == "any"
                else f"a {'blood drill' if get('building') == 'drill' else get('building')}"
            )
            off = f", {_plural(get('discount'), 'resource')} cheaper" if get("discount") else ""
            return f"build {what} now{off} (beyond the two of the building phase)"
        case "convert":
            times = f", up to {_plural(get('times'), 'time')}" if get("times") > 1 else ""
            return (
                f"change {amount_text(get('give'), get('amount'))} into {_plural(get('followers'), 'follower')}{times}"
            )
        case "look":
            return f"look at the hand of a player of your choice ({_plural(get('count'), 'card')} at most)"
        case "peek_take":
            return f"look at the top {_plural(get('count'), 'card')} of the base deck, take one, the rest to the bottom"
        case "switch_open":
            return "swap an open card with the top card of the base deck"
        case "play_yellow":
            return f"play {_plural(get('count'), 'yellow card')} without spending actions"
        case "lend":
            return "use the 1-temple ability of a god where you have no temple, this turn"
        case "steal_resource":
            return f"take {amount_text(get('resource'), get('amount'))} from them"
        case "steal_card":
            return f"take {_plural(get('count'), 'card')} at random from their hand"
        case "kill":
            return f"they lose {_plural(get('amount'), 'follower')}"
        case "steal_followers":
            return f"you take {_plural(get('amount'), 'follower')} from them"
        case "destroy":
            return f"destroy one of their {_BUILDING_WORDS[get('building')]}s"
        case "move_temple":
            return "move one of their temples to a free site in another god area"
        case "discard":
            return f"they discard {_plural(get('count'), 'card')} at random"
    raise ValueError(f"no text for {effect.do!r}")


def describe_card(card: Card) -> str:
    """A card's text, generated from its data."""
    effects = "; ".join(describe_effect(e) for e in card.effects)
    if card.kind == "yellow":
        return f"Yellow (1 action): {effects}."
    if card.kind == "attack":
        return f"Attack {card.power}: if not defended, {effects}."
    if card.kind == "defence":
        return f"Defence {card.power}" + (f"; if the defence holds, {effects}." if effects else ".")
    return "God weapon (no action; choose one): " + " / ".join(f"{o.name}: {o.text}" for o in card.options)
