"""The content pack format: its JSON Schema, and the checks that refuse bad packs.

``data/content.schema.json`` describes the pack format; the default pack must match it,
and :func:`parse_content` must refuse what the schema refuses (and what a schema cannot
say, such as repeated ids), naming the offending entry.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import jsonschema
import pytest

from meadhall.games.bloodrage_valhalla.content import (
    CONDITIONS,
    EFFECTS,
    MONSTER_EFFECTS,
    NOT_IN_BONUS,
    NOT_IN_REWARD,
    ONCE_EFFECTS,
    ONLY_WHEN,
    UPGRADE_EFFECTS,
    ContentError,
    parse_content,
)
from meadhall.games.bloodrage_valhalla.notation import parse_action

DATA = resources.files("meadhall.games.bloodrage_valhalla").joinpath("data")


def _load(name: str) -> Any:
    return json.loads(DATA.joinpath(name).read_text("utf-8"))


DEFAULT = _load("default.json")
SCHEMA = _load("content.schema.json")
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _pack() -> Any:
    return copy.deepcopy(DEFAULT)


def _find(items: list[dict[str, Any]], entry_id: str) -> dict[str, Any]:
    return next(item for item in items if item["id"] == entry_id)


def _card(pack: Any, card_id: str) -> dict[str, Any]:
    return _find(pack["cards"], card_id)


# The schema ---------------------------------------------------------------------------------


def test_the_schema_is_a_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_default_pack_matches_the_schema() -> None:
    jsonschema.validate(DEFAULT, SCHEMA, cls=jsonschema.Draft202012Validator)
    parse_content(DEFAULT)


def test_the_schema_has_the_engines_vocabulary() -> None:
    defs = SCHEMA["$defs"]
    effects = {
        branch["properties"]["do"]["const"]: set(branch["properties"]) - {"do"}
        for branch in defs["effectParameters"]["oneOf"]
    }
    assert effects == {do: set(params) for do, params in EFFECTS.items()}
    conditions = {
        branch["properties"]["type"]["const"]: set(branch["properties"]) - {"type"}
        for branch in defs["condition"]["oneOf"]
    }
    assert conditions == {kind: set(params) for kind, params in CONDITIONS.items()}
    places = {
        "battleEffect": ONCE_EFFECTS,
        "bonusEffect": ONCE_EFFECTS - NOT_IN_BONUS,
        "rewardEffect": ONCE_EFFECTS - NOT_IN_REWARD,
        "upgradeEffect": UPGRADE_EFFECTS,
        "monsterEffect": MONSTER_EFFECTS,
    }
    for name, allowed in places.items():
        assert set(defs[name]["properties"]["do"]["enum"]) == allowed, name
    timing = {
        rule["if"]["properties"]["do"]["const"]: rule["then"]["properties"]["when"]["const"]
        for rule in defs["battleEffect"]["allOf"]
    }
    assert timing == ONLY_WHEN


def test_the_default_battle_cards_are_plus_1_to_plus_6() -> None:
    # The rulings: "battle cards +1 to +6 STR" (loki-10 and tyr-11 were +0 once).
    strengths = {card["id"]: card["strength"] for card in DEFAULT["cards"] if card["kind"] == "battle"}
    assert {card: value for card, value in strengths.items() if not 1 <= value <= 6} == {}
    assert strengths["loki-10"] == strengths["tyr-11"] == 1


def test_every_default_id_is_a_notation_name() -> None:
    pack = DEFAULT
    for entry in [*pack["regions"], *pack["gods"], *pack["monsters"], *pack["cards"]]:
        assert str(parse_action(f"pick:{entry['id']}")) == f"pick:{entry['id']}"


# Refused packs ----------------------------------------------------------------------------------

Change = Callable[[Any], None]


def _set(path: Callable[[Any], dict[str, Any]], key: str, value: Any) -> Change:
    def change(pack: Any) -> None:
        path(pack)[key] = value

    return change


def _region(region_id: str) -> Callable[[Any], dict[str, Any]]:
    return lambda pack: _find(pack["regions"], region_id)


def _a_card(card_id: str) -> Callable[[Any], dict[str, Any]]:
    return lambda pack: _card(pack, card_id)


def _repeat(kind: str, index: int) -> Change:
    return lambda pack: pack[kind].append(copy.deepcopy(pack[kind][index]))


def _drop_monster(pack: Any) -> None:
    gone = pack["monsters"].pop()["id"]
    pack["cards"] = [c for c in pack["cards"] if c.get("monster") != gone]


def _not_mutual(pack: Any) -> None:
    _find(pack["regions"], "gladsheim")["neighbours"].remove("valhalla")


def _monster_ability(effect: dict[str, Any]) -> Change:
    return lambda pack: _find(pack["monsters"], "warmaster")["abilities"].append(effect)


def _bonus(effect: dict[str, Any]) -> Change:
    return lambda pack: _find(pack["gods"], "thor")["bonus"].append(effect)


#: (what is wrong, the change, words the refusal must contain, whether the schema refuses it too)
REFUSALS: list[tuple[str, Change, list[str], bool]] = [
    # ids the notation cannot write
    ("card id in capitals", _set(_a_card("thor-07"), "id", "Thor-07"), ["card 'Thor-07'", "lowercase"], True),
    ("region id with _", lambda p: p["regions"].__setitem__(1, {**p["regions"][1], "id": "glad_sheim"}),
     ["region 'glad_sheim'", "lowercase"], True),
    ("god id with a space", lambda p: p["gods"][0].__setitem__("id", "the thunderer"), ["god 'the thunderer'"], True),
    ("monster id from a hyphen", lambda p: p["monsters"][0].__setitem__("id", "-ogre"), ["monster '-ogre'"], True),
    ("empty card id", _set(_a_card("tyr-01"), "id", ""), ["card ''"], True),
    # repeated ids
    ("region twice", _repeat("regions", 1), ["region gladsheim", "appears twice"], False),
    ("god twice", _repeat("gods", 0), ["god thor", "appears twice"], False),
    ("monster twice", _repeat("monsters", 0), ["monster ogre-chieftain", "appears twice"], False),
    ("card twice", _repeat("cards", 0), ["card thor-01", "appears twice"], False),
    # numbers
    ("negative condition count", lambda p: _card(p, "baldr-19")["condition"].__setitem__("count", -1),
     ["card baldr-19", "count", ">= 0"], True),
    ("fractional condition count", lambda p: _card(p, "baldr-19")["condition"].__setitem__("count", 2.5),
     ["card baldr-19", "count"], True),
    ("text condition count", lambda p: _card(p, "baldr-19")["condition"].__setitem__("count", "3"),
     ["card baldr-19", "count"], True),
    ("boolean condition count", lambda p: _card(p, "baldr-19")["condition"].__setitem__("count", True),
     ["card baldr-19", "count"], True),
    ("unknown condition parameter", lambda p: _card(p, "baldr-19")["condition"].__setitem__("region", "valhalla"),
     ["card baldr-19", "unknown fields 'region'"], True),
    ("negative effect amount", lambda p: _card(p, "thor-07")["effects"][0].__setitem__("amount", -2),
     ["card thor-07", "amount", ">= 0"], True),
    ("fractional effect amount", lambda p: _card(p, "thor-07")["effects"][0].__setitem__("amount", 0.5),
     ["card thor-07", "amount"], True),
    ("negative god bonus count", lambda p: p["gods"][4]["bonus"][1].__setitem__("count", -1),
     ["god tyr", "count"], True),
    # timings the engine ignores
    ("when on an upgrade", lambda p: _card(p, "thor-17")["effects"][0].__setitem__("when", "win"),
     ["card thor-17", "when is only for battle cards"], True),
    ("when on a monster", _monster_ability({"do": "summon_rage", "amount": 1, "when": "reveal"}),
     ["monster warmaster", "when is only for battle cards"], True),
    ("when in a god bonus", _bonus({"do": "glory", "amount": 1, "when": "win"}),
     ["god thor", "when is only for battle cards"], True),
    ("when in a quest reward", lambda p: _card(p, "tyr-22")["reward"][0].__setitem__("when", "win"),
     ["card tyr-22", "when is only for battle cards"], True),
    ("save when winning", lambda p: _card(p, "loki-08")["effects"][0].__setitem__("when", "win"),
     ["card loki-08", "'save' works only with when = lose"], True),
    ("keep_card on reveal", lambda p: _card(p, "thor-05")["effects"][0].__setitem__("when", "reveal"),
     ["card thor-05", "'keep_card' works only with when = win"], True),
    ("spent on reveal", lambda p: _card(p, "thor-01").__setitem__("effects", [{"do": "spent", "when": "reveal"}]),
     ["card thor-01", "'spent' works only with when = win"], True),
    ("spent and kept", lambda p: _card(p, "thor-05")["effects"].append({"do": "spent", "when": "win"}),
     ["card thor-05", "keep_card", "spent", "not both"], False),
    ("strength after the battle", lambda p: _card(p, "thor-07")["effects"][0].__setitem__("when", "win"),
     ["card thor-07", "'strength_per_enemy' works only with when = reveal"], True),
    ("battle card without when", lambda p: _card(p, "thor-07")["effects"][0].pop("when"),
     ["card thor-07", "needs when"], True),
    # effects where the engine never uses them
    ("passive on a battle card", lambda p: _card(p, "thor-01").__setitem__(
        "effects", [{"do": "warrior_strength", "when": "reveal", "amount": 1}]),
     ["card thor-01", "'warrior_strength' does nothing on a battle card"], True),
    ("immediate effect on an upgrade", lambda p: _card(p, "thor-17")["effects"].append({"do": "glory", "amount": 1}),
     ["card thor-17", "'glory' does nothing on an upgrade"], True),
    ("upgrade passive on a monster", _monster_ability({"do": "warrior_strength", "amount": 1}),
     ["monster warmaster", "'warrior_strength' does nothing on a monster"], True),
    ("monster ability on an upgrade", lambda p: _card(p, "thor-17")["effects"].append({"do": "immune"}),
     ["card thor-17", "'immune' does nothing on an upgrade"], True),
    ("battle effect in a quest reward", lambda p: _card(p, "tyr-22")["reward"].append(
        {"do": "destroy", "count": 1, "target": "any"}),
     ["card tyr-22", "'destroy' does nothing on a quest's reward"], True),
    ("save in a god bonus", _bonus({"do": "save", "count": 1}), ["god thor", "'save' does nothing on a god's bonus"],
     True),
    # monsters
    ("14 monsters", _drop_monster, ["monsters", "at least 15 monsters", "not 14"], True),
    # the map
    ("outer region without a token", lambda p: _find(p["regions"], "glitnir").pop("token"),
     ["region glitnir", "needs its region-token number"], True),
    ("outer region with a null token", _set(_region("glitnir"), "token", None),
     ["region glitnir", "needs its region-token number"], True),
    ("two regions with token 1", _set(_region("breidablik"), "token", 1),
     ["region breidablik", "token 1 is also on region gladsheim"], False),
    ("Valhalla with a token", _set(_region("valhalla"), "token", 9), ["region valhalla", "no region token"], True),
    ("unknown neighbour", lambda p: _find(p["regions"], "gladsheim")["neighbours"].append("asgard"),
     ["region gladsheim", "neighbour 'asgard' is not a region"], False),
    ("one-way neighbour", _not_mutual, ["region valhalla", "neighbour 'gladsheim' does not list 'valhalla' back"],
     False),
    ("own neighbour", lambda p: _find(p["regions"], "gladsheim")["neighbours"].append("gladsheim"),
     ["region gladsheim", "not its own neighbour"], False),
    # other fields
    ("unknown card field", _set(_a_card("thor-01"), "text", "Big hit"), ["card thor-01", "unknown fields 'text'"],
     True),
    ("strength on a monster card", _set(_a_card("monster-warmaster"), "strength", 1),
     ["card monster-warmaster", "leave strength out"], True),
    ("a card without a god", lambda p: _card(p, "thor-01").pop("god"), ["card thor-01", "without a god"], True),
    ("two Rainbow Bridge cards for a god", lambda p: p["cards"].append(
        {**_card(p, "rainbow-thor"), "id": "rainbow-thor-2"}),
     ["card rainbow-thor-2", "already has the Rainbow Bridge card rainbow-thor"], False),
    ("track with text", lambda p: p["tracks"]["rage"].__setitem__(0, "6"), ["track rage"], True),
]  # fmt: skip


def test_a_monster_card_costs_its_monsters_cost_which_defaults_to_its_strength() -> None:
    pack = _pack()
    _find(pack["monsters"], "warmaster")["cost"] = 6
    _find(pack["monsters"], "harbinger").pop("cost", None)
    assert not list(VALIDATOR.iter_errors(pack))
    content = parse_content(pack)
    assert content.cards["monster-warmaster"].strength == 6
    assert content.monsters["warmaster"].strength == 3
    harbinger = content.monsters["harbinger"]
    assert content.cards["monster-harbinger"].strength == harbinger.cost == harbinger.strength


def test_a_custom_pack_is_parsed_once_and_a_changed_pack_again() -> None:
    from meadhall.games.bloodrage_valhalla.game import content_of

    pack = _pack()
    pack["label"] = "a custom pack"
    first = content_of({"content": pack})
    assert first.label == "a custom pack"
    assert content_of({"content": pack}) is first  # the same object: found by identity
    assert content_of({"content": copy.deepcopy(pack)}) is first  # an equal pack: by its JSON
    changed = copy.deepcopy(pack)
    _find(changed["monsters"], "warmaster")["cost"] = 7
    other = content_of({"content": changed})
    assert other is not first and other.monsters["warmaster"].cost == 7
    assert first.monsters["warmaster"].cost != 7


@pytest.mark.parametrize(("change", "words", "schema"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_parse_content_refuses_a_bad_pack(change: Change, words: list[str], schema: bool) -> None:
    pack = _pack()
    change(pack)
    with pytest.raises(ContentError) as refused:
        parse_content(pack)
    message = str(refused.value)
    for word in words:
        assert word in message, message
    if schema:
        assert not VALIDATOR.is_valid(pack), "the schema refuses it too"
