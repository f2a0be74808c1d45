"""Blood Rage's words (``games/bloodrage_valhalla/words.py``): a table's pack names its cards,
every action has a target the board plugin can pick by, and the end reads as the engine ranks."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Hashable
from importlib import resources
from typing import Any

from meadhall.bots import make_bot
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.core.words import fill
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.words import WORDS

DEFAULT = json.loads(
    resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
)


def _renamed_pack() -> dict[str, Any]:
    pack: dict[str, Any] = copy.deepcopy(DEFAULT)
    pack["id"] = "renamed"
    pack["label"] = "A pack with {braces} in a name"
    card = next(c for c in pack["cards"] if c["id"] == "thor-07")
    card["name"] = "Hammer {of} Thunder"
    region = next(r for r in pack["regions"] if r["id"] == "gladsheim")
    region["name"] = "Gladhome"
    return pack


def _play(state: BloodRageState, seat: int, action: Hashable) -> None:
    assert isinstance(action, BRAction)
    state.apply(seat, action)


def test_a_tables_words_name_its_packs_cards_and_regions() -> None:
    options = BLOODRAGE.validate_options({"content": _renamed_pack()}, players=3)
    words = BLOODRAGE.words().for_options(options)
    picked = Event("picked", {"seat": 0, "card": "thor-07"}, frozenset({0}))
    said = words.event(picked, 0)
    assert said is not None and fill(said["text"], ["A", "B", "C"]) == "You keep Hammer {of} Thunder."
    default = WORDS.event(picked, 0)
    assert default is not None and default["text"] == "You keep Giant-Slayer."
    arrived = words.event(Event("god-arrives", {"god": "thor", "region": "gladsheim", "age": 1}), None)
    assert arrived is not None and arrived["text"] == "Age 1: Thor arrives in Gladhome."
    assert words.for_options(options) is words  # kept per pack
    keys = {part["key"]: part for part in words.components(options)}
    assert keys["thor-07"]["name"] == "Hammer {of} Thunder" and keys["gladsheim"]["name"] == "Gladhome"
    assert {"thor", "ogre-chieftain", "valhalla"} <= set(keys)


def test_every_action_has_a_target_naming_what_the_board_picks() -> None:
    kinds: dict[str, set[str]] = {}
    for seed in range(4):
        state = BLOODRAGE.new_game(players=4, seed=seed, options={"preset": "random-gods"})
        bot, rng = make_bot("random"), Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            for said in WORDS.actions(state.view(seat), [str(a) for a in legal]):
                target = said["target"]
                assert target is not None
                kinds.setdefault(str(target["kind"]), set()).update(k for k in target if k != "kind")
                assert "{" not in fill(said["label"], ["A", "B", "C", "D"]), said
            _play(state, seat, bot.choose(BLOODRAGE, state.view(seat), legal, rng))
    assert {"summon", "march", "move", "contest", "join"} <= set(kinds)
    for kind in ("summon", "march", "move", "contest", "join", "kill"):
        assert "region" in kinds.get(kind, {"region"}), kind
    for kind in ("pick", "upgrade", "quest", "drop"):
        assert kinds.get(kind, {"card"}) == {"card"}, kind
    assert kinds["pass"] == set()


def test_the_result_places_the_seats_as_the_engine_does() -> None:
    state = BLOODRAGE.new_game(players=3, seed=2, options={"preset": "first-game"})
    bot, rng = make_bot("random"), Rng(2)
    while not state.is_terminal():
        seat = state.to_move()[0]
        _play(state, seat, bot.choose(BLOODRAGE, state.view(seat), state.legal_actions(seat), rng))
    result = WORDS.result(state.view(None))
    assert {s["seat"]: s["place"] for s in result["standings"]} == dict(enumerate(state.ranking()))
    assert all(s["score"].endswith("Rage left)") for s in result["standings"])
    table = WORDS.table(state.view(None))
    assert table["heading"] == "Ragnarök: the game is over" and len(table["seats"]) == 3


def test_the_players_panel_says_it_in_words_not_shorthand() -> None:
    """A clan's line says ``6 warriors and 2 elites`` and ``step 1 of 6``, never ``6W 2E`` or ``(1/6)``."""
    shorthand = re.compile(r"\b\d+[WE]\b|\(\d+/\d+|\d+/\d+ slots")
    state = BLOODRAGE.new_game(players=3, seed=7)
    rng = Rng(3)
    names = ["Ann", "Bo", "Cy"]
    seen_steps = seen_figures = False
    for _ in range(120):
        if state.is_terminal():
            break
        view = state.view(0)
        for seat in range(3):
            line = fill(WORDS.seat(view, seat), names)
            assert not shorthand.search(line), line
            seen_steps |= " (step 1 of 6" in line
            seen_figures |= " warriors" in line
        for line in WORDS.status(view):
            assert not shorthand.search(line), line
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        _play(state, seat, legal[rng.below(len(legal))])
    assert seen_steps and seen_figures


def test_the_board_is_titled_and_its_regions_strength_said_in_the_words() -> None:
    """The plugin's headings (the pack while drafting, else the hand, with their count) and each region's STR."""
    state = BLOODRAGE.new_game(players=3, seed=5)
    bot, rng = make_bot("random"), Rng(5)
    names = ["Ann", "Bo", "Cy"]
    view = state.view(0)
    assert view["phase"] == "draft" and view["pack"]
    titles = WORDS.table(view)["titles"]
    assert titles["cards"] == f"Your pack ({len(view['pack'])})" and titles["slots"] == "Your upgrades and quests"
    assert titles["map"] == "The map" and titles["battle"] == "Last battle"
    watching = WORDS.table(state.view(None))["titles"]
    assert "cards" not in watching and "slots" not in watching and watching["map"] == "The map"
    while state.view(0)["phase"] == "draft":
        seat = state.to_move()[0]
        _play(state, seat, bot.choose(BLOODRAGE, state.view(seat), state.legal_actions(seat), rng))
    view = state.view(0)
    assert WORDS.table(view)["titles"]["cards"] == f"Your hand ({len(view['hand'])})"
    while not view["strength"] and not state.is_terminal():
        seat = state.to_move()[0]
        _play(state, seat, bot.choose(BLOODRAGE, state.view(seat), state.legal_actions(seat), rng))
        view = state.view(0)
    places = WORDS.table(view)["places"]
    assert set(places) == set(view["strength"])
    for region, by_seat in view["strength"].items():
        assert fill(places[region], names).split("\n") == [f"{names[int(s)]}: STR {n}" for s, n in by_seat.items()]
