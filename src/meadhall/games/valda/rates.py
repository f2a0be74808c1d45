"""The rates of Valda's evaluation: what resources, dice, temples' abilities and cards are worth.

In followers, roughly (see :mod:`meadhall.games.valda.search`, whose evaluation uses
them). Both engines' evaluations read them from here: the Python one directly, the C
one through its bridge (:mod:`meadhall.games.valda.native`), which hands them to the
engine with the pack's tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meadhall.core.content import pack_derived
from meadhall.games.valda.content import RESOURCES, Content

#: Followers a resource is worth, roughly: a temple (about 5 resources) brings a follower,
#: a god card and an ability; Thor converts 3 gold or diamonds, Odin 2 divine blood.
RESOURCE_VALUE = (0.3, 0.2, 0.2)  # divine blood, gold, diamond
#: Followers a card in hand is worth, by kind, where :func:`card_values` has no better
#: estimate (a god weapon; any card of a kind it does not know).
CARD_VALUE = {"yellow": 0.3, "attack": 0.35, "defence": 0.25, "weapon": 0.5}
#: A yellow card in hand is worth this share of what playing it brings: less than all of
#: it, so that cards get played, and it still costs an action to play.
YELLOW_SHARE = 0.6
#: Followers one action is worth: it can always take a resource of choice.
ACTION_VALUE = 0.3
#: Resources a mine's or a blood drill's die brings per turn on average (default dice).
DIE_INCOME = 1.15
#: Followers a temple's ability brings per turn still to come, by god and level. Loki's
#: is the white die's mean per temple (+0.5 with the default faces of round 1; a pack's own
#: faces give its own rate: :func:`ability_income`).
ABILITY_INCOME = {
    "loki": (0.0, 0.5, 1.0),
    "thor": (0.0, 0.3, 0.5),
    "odin": (0.0, 0.35, 0.6),
    "heimdall": (0.0, 0.1, 0.15),
    "freya": (0.0, 0.15, 0.25),
    "surtur": (0.0, 0.15, 0.25),
    "tyr": (0.0, 0.12, 0.2),
}


def ability_income(content: Content) -> dict[str, tuple[float, float, float]]:
    """:data:`ABILITY_INCOME` for a pack: Loki's rate is the mean of its white die, one die per temple.

    Worked out once per pack (kept with it: :func:`meadhall.core.content.pack_derived`).
    """
    return pack_derived(content, _ability_income)


def _ability_income(content: Content) -> dict[str, tuple[float, float, float]]:
    faces = content.dice["white"]
    mean = sum(face.followers for face in faces) / len(faces)
    return {**ABILITY_INCOME, "loki": (0.0, mean, 2 * mean)}


def card_values(content: Content) -> dict[str, float]:
    """Followers each card of the pack is worth in hand, by what it does.

    A yellow card is worth :data:`YELLOW_SHARE` of what playing it brings (its
    :func:`yellow_worth`), so a card that brings two followers is kept over a raid and
    played when there is an action for it; an attack or a defence by its power; a god
    weapon by :data:`CARD_VALUE`. Worked out once per pack (kept with it).
    """
    return pack_derived(content, _card_values)


def _card_values(content: Content) -> dict[str, float]:
    values: dict[str, float] = {}
    for card in content.cards.values():
        if card.kind == "yellow":
            values[card.id] = min(2.0, max(0.1, YELLOW_SHARE * yellow_worth(card.effects)))
        elif card.kind == "attack":
            values[card.id] = 0.2 + 0.05 * card.power
        elif card.kind == "defence":
            values[card.id] = 0.1 + 0.05 * card.power
        else:
            values[card.id] = CARD_VALUE.get(card.kind, 0.3)
    return values


def yellow_worth(effects: Sequence[Any]) -> float:
    """Followers a yellow card's effects bring to its player, roughly, at the evaluation's rates."""
    worth = 0.0
    for effect in effects:
        get = effect.get
        match effect.do:
            case "gain":
                if get("who") != "others":
                    worth += int(get("amount")) * _resource_value(str(get("resource")))
            case "followers":
                if get("who") != "others":
                    worth += int(get("amount"))
            case "draw":
                worth += int(get("count")) * (0.45 if get("source") == "god" else CARD_VALUE["yellow"])
            case "actions" | "play_yellow":
                worth += int(get("count")) * ACTION_VALUE
            case "roll":
                worth += int(get("count")) * DIE_INCOME * RESOURCE_VALUE[0 if get("die") == "blue" else 1]
            case "build":
                worth += 0.2 + 0.25 * int(get("discount"))
            case "convert":
                # Worth it only with the resources to give, so half the margin it can make.
                margin = int(get("followers")) - int(get("amount")) * _resource_value(str(get("give")))
                worth += 0.5 * max(0, int(get("times"))) * max(0.0, margin)
            case "peek_take" | "lend":
                worth += 0.35
            case _:  # look, switch_open: information or a better open card
                worth += 0.1
    return worth


def _resource_value(name: str) -> float:
    """The evaluation's rate for a resource; a resource of choice is worth the dearest."""
    if name in RESOURCES:
        return RESOURCE_VALUE[RESOURCES.index(name)]
    return max(RESOURCE_VALUE)
