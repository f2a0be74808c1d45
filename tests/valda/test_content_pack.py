"""Valda's default content pack: the rulebook's fixed numbers, 150 cards, one weapon per god.

And packs that break a rule are refused with a message that says where.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from meadhall.games.valda.content import (
    CARDS_IN_ALL,
    RULEBOOK_GODS,
    RULEBOOK_STARTING_RESOURCES,
    RULEBOOK_WEAPONS,
    ContentError,
    default_content,
    describe_card,
    parse_content,
)

DATA = resources.files("meadhall.games.valda").joinpath("data")


def raw_pack() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(DATA.joinpath("default.json").read_text("utf-8"))
    return found


def test_the_default_pack_matches_its_schema_and_is_labelled() -> None:
    schema = json.loads(DATA.joinpath("content.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(raw_pack())
    assert "meadhall default content" in default_content().label


def test_150_cards_a_base_deck_and_seven_god_decks_each_with_its_weapon() -> None:
    content = default_content()
    assert sum(card.count for card in content.cards.values()) == CARDS_IN_ALL
    assert len(content.deck(None)) == 80
    for god in RULEBOOK_GODS:
        deck = content.deck(god)
        assert len(deck) == 10, god
        weapon = content.weapon(god)
        assert weapon.id in deck and tuple(o.id for o in weapon.options) == RULEBOOK_WEAPONS[god]
    kinds = {kind: sum(c.count for c in content.cards.values() if c.god is None and c.kind == kind) for kind in
             ("yellow", "attack", "defence", "weapon")}  # fmt: skip
    assert kinds == {"yellow": 40, "attack": 24, "defence": 16, "weapon": 0}


def test_each_god_deck_leans_the_way_the_rulebook_says() -> None:
    content = default_content()

    def share(god: str, kind: str) -> float:
        return sum(content.cards[c].kind == kind for c in content.deck(god)) / len(content.deck(god))

    base = {kind: sum(content.cards[c].kind == kind for c in content.deck(None)) / 80 for kind in ("attack", "defence")}
    assert share("surtur", "attack") > 2 * base["attack"]  # "higher chance on attack cards"
    assert share("tyr", "defence") > 2 * base["defence"]  # "higher chance on defence cards"
    followers = {god: sum(e.do in ("followers", "convert") for c in content.deck(god) for e in content.cards[c].effects)
                 for god in RULEBOOK_GODS}  # fmt: skip
    assert min(followers["thor"], followers["odin"]) > max(followers["heimdall"], followers["freya"])


def test_dice_and_the_income_a_temple_in_about_two_turns() -> None:
    content = default_content()
    yellow = content.dice["yellow"]
    assert all(set(face.resources) <= {"gold", "diamond", "choice"} for face in yellow)
    assert all(set(face.resources) <= {"drop"} for face in content.dice["blue"])
    assert {face.followers for face in content.dice["white"]} == {-1, 1, 2}
    per_die = Fraction(sum(sum(face.resources.values()) for face in yellow), 6)
    assert per_die == Fraction(7, 6)
    # Two mines, two turns, plus the worst seat's starting resources: enough for the
    # dearest temple but one (Odin's 8 costs a little more).
    start = sum(content.starting_resources[5][0].values())
    assert start + 2 * 2 * per_die >= sorted(sum(c.values()) for c in RULEBOOK_GODS.values())[-2]


def test_every_card_has_a_text_made_from_its_data() -> None:
    content = default_content()
    texts = {card.id: describe_card(card) for card in content.cards.values()}
    assert texts["raid"] == "Attack 2: if not defended, take 2 resources from them."
    assert texts["storm-tithe"] == "Yellow (1 action): change 3 gold into 1 follower, up to 2 times."
    assert texts["oath-shield"] == "Defence 3; if the defence holds, gain 1 follower."
    assert texts["gungnir"].startswith("God weapon (no action; choose one): Bullseye:")
    assert all(text.endswith(".") for text in texts.values())


def test_the_rules_page_lists_every_card_with_its_generated_text() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "valda.md").read_text(encoding="utf-8")
    for card in default_content().cards.values():
        assert f"| {card.name} (`{card.id}`) | {card.count} | {describe_card(card)} |" in page, card.id


def _refused(change: Any, message: str) -> None:
    pack = copy.deepcopy(raw_pack())
    change(pack)
    with pytest.raises(ContentError) as refused:
        parse_content(pack)
    assert message in str(refused.value)


def _card(pack: dict[str, Any], card_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in pack["cards"] if c["id"] == card_id)
    return found


def test_a_pack_must_start_the_seats_with_the_rulebooks_resources() -> None:
    # "the starting resources by seat" are the rulebook's table (docs/rules/valda.md says the
    # checker holds packs to it): a pack that changes any seat's is refused, and says which.
    assert default_content().starting_resources == {
        players: tuple(seats) for players, seats in RULEBOOK_STARTING_RESOURCES.items()
    }
    for players in (2, 3, 4, 5):
        for seat in range(players):
            for change in ({"drop": 3}, {"gold": 0}, {"diamond": 4}):
                pack = copy.deepcopy(raw_pack())
                entry = pack["starting_resources"][str(players)][seat]
                entry.update(change)
                if not entry.get("gold", 1):
                    del entry["gold"]
                with pytest.raises(ContentError) as refused:
                    parse_content(pack)
                message = str(refused.value)
                assert f"starting_resources {players}" in message and f"seat {seat + 1}" in message, message
    pack = copy.deepcopy(raw_pack())
    pack["starting_resources"]["2"].reverse()  # the start player's and the second seat's swapped
    with pytest.raises(ContentError, match="the rulebook's starting resources for 2 players"):
        parse_content(pack)


def test_packs_that_break_a_rule_are_refused() -> None:
    _refused(lambda p: _card(p, "raid").update(count=4), "the game has 150 cards, this pack 149")
    _refused(lambda p: p["gods"][0]["temple_cost"].update(gold=1), "the rulebook's temple cost")
    _refused(lambda p: p["gods"].pop(), "every one of the rulebook's seven gods")
    _refused(lambda p: _card(p, "raid").update(impact=[{"do": "summon"}]), "unknown effect 'summon'")
    _refused(lambda p: _card(p, "prayer").update(effects=[{"do": "kill", "amount": 1}]), "'kill' does not belong here")
    spare = {"id": "spare", "name": "Spare", "deck": "odin", "kind": "yellow", "count": 1, "effects": [{"do": "lend"}]}
    _refused(lambda p: p["cards"].__setitem__(p["cards"].index(_card(p, "gungnir")), spare), "god weapon, not 0")
    _refused(lambda p: _card(p, "gungnir").update(deck="thor"), "thor's weapon has the rulebook's two options")
    _refused(lambda p: _card(p, "gungnir")["options"][0].update(window="lunch"), "window is one of")
    _refused(lambda p: p["dice"]["yellow"].__setitem__(0, {"drop": 1}), "yellow dice give gold and diamonds")
    _refused(lambda p: p["dice"]["blue"].pop(), "a die has 6 faces, not 5")
    _refused(lambda p: p["starting_resources"]["3"].pop(), "one entry per seat: 3")
    _refused(
        lambda p: p["starting_resources"]["4"][0].update(gold=2),
        "starting_resources 4: the rulebook's starting resources for 4 players are",
    )
    _refused(lambda p: p["cards"].append(dict(_card(p, "raid"))), "card 'raid': appears twice")
    _refused(lambda p: _card(p, "gungnir")["options"].reverse(), "the rulebook's two options")
    _refused(lambda p: _card(p, "raid").update(power=0), "power must be a whole number >= 1")
