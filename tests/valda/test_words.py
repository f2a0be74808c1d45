"""Valda's words: what the board plugin relies on (targets, components) and how decisions read."""

from __future__ import annotations

from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.core.words import fill
from meadhall.games.valda import GAME
from meadhall.games.valda.content import DIE_COLOURS, FACES, default_content
from meadhall.games.valda.state import SAFE_ZONES, SITES
from meadhall.games.valda.words import PHASES, WORDS

CONTENT = default_content()


def test_the_components_carry_the_board_the_plugin_draws() -> None:
    parts = {part["key"]: part for part in WORDS.components()}
    assert [key for key in parts if key.startswith("phase:")] == [f"phase:{phase}" for phase, _, _ in PHASES]
    assert sorted(int(parts[key]["value"]) for key in parts if key.startswith("safe:")) == sorted(SAFE_ZONES)
    assert int(parts["site"]["value"]) == SITES
    # The headings of the follower track and the dice row (the plugin draws them, the words name them).
    assert parts["track"]["name"] == "Yggdrasil, the follower track" and parts["dice"]["name"] == "Dice"
    assert {key for key in parts if key.startswith("god:")} == {f"god:{god}" for god in CONTENT.gods}
    assert {key for key in parts if key.startswith("card:")} == {f"card:{card}" for card in CONTENT.cards}
    for colour in DIE_COLOURS:
        for face in range(FACES):
            assert parts[f"die:{colour}:{face}"]["value"], (colour, face)
    options = {o.id for card in CONTENT.cards.values() for o in card.options}
    assert {key for key in parts if key.startswith("weapon:")} == {f"weapon:{option}" for option in options}


def test_every_card_action_says_where_its_card_lies() -> None:
    """A card action's target names the card and where the seat sees it: its hand, the open cards, or shown."""
    places: set[str] = set()
    for seed in range(4):
        state = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)]
            for words in WORDS.actions(view, legal):
                target = words["target"] or {}
                if "card" not in target:
                    continue
                place, card = target["place"], target["card"]
                places.add(str(place))
                if place == "hand":
                    assert card in view["hand"], (words, view["hand"])
                elif place == "open":
                    assert card in (view["open"] or []), words
                else:
                    assert card in view["decision"]["cards"], words
            state.apply_text(seat, legal[rng.below(len(legal))])
    assert {"hand", "open", "shown"} <= places, places


def test_a_decision_reads_with_the_names_of_the_table() -> None:
    state = GAME.new_game(players=3, seed=4)
    rng = Rng(2)
    seen: set[str] = set()
    names = ["Ann", "Bo", "Cy"]
    while not state.is_terminal() and len(seen) < 6:
        seat = state.to_move()[0]
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)]
        prompt = fill(WORDS.prompt(view, legal), names)
        assert "{" not in prompt and ":" not in prompt.split(" ")[0], prompt
        seen.add(view["decision"]["kind"])
        for words in WORDS.actions(view, legal):
            assert words["notation"] not in fill(words["label"], names), words  # a label is words, not notation
        state.apply_text(seat, legal[rng.below(len(legal))])
    assert len(seen) >= 3


def test_the_seat_that_saw_the_cards_reads_what_the_others_see() -> None:
    """A draw's public count, for the seat that drew: what the others learn (it read the cards already)."""
    drew = Event("drew-count", {"seat": 1, "count": 2, "why": "two actions"})
    mine = WORDS.event(drew, 1)
    theirs = WORDS.event(drew, 0)
    assert mine is not None and theirs is not None
    assert fill(mine["text"], ["Ann", "Bo"]) == "The others see you draw 2 cards (two actions)."
    assert fill(theirs["text"], ["Ann", "Bo"]) == "Bo draws 2 cards (two actions)."


def test_a_tables_content_pack_names_its_cards_in_the_events() -> None:
    """Events carry card ids: the words bound to a table's options name the cards as its pack does."""
    import json
    from importlib import resources

    pack = json.loads(resources.files("meadhall.games.valda").joinpath("data/default.json").read_text("utf-8"))
    pack["id"] = "renamed"
    next(card for card in pack["cards"] if card["id"] == "raid")["name"] = "Plunder {of} the Coast"
    state = GAME.new_game(players=2, seed=1, options={"content": pack})
    words = GAME.words().for_options(state.options)
    played = Event("played", {"seat": 0, "card": "raid"})
    said = words.event(played, None)
    assert said is not None and fill(said["text"], ["Ann", "Bo"]) == "Ann plays Plunder {of} the Coast."
    default = GAME.words().event(played, None)
    assert default is not None and fill(default["text"], ["Ann", "Bo"]) == "Ann plays Raid."
    assert GAME.words().for_options(GAME.new_game(players=2, seed=1).options) is GAME.words()


def test_the_status_says_your_turn_to_the_seat_whose_turn_it_is() -> None:
    """The status line reads "your turn" for the seat to play, "Ann's turn" for the others; one heading for all."""
    state = GAME.new_game(players=3, seed=4)
    names = ["Ann", "Bo", "Cy"]
    current = int(state.view(None)["current"])
    heading = fill(WORDS.heading(state.view(None)), names)
    assert f"{names[current]}'s turn" in heading
    for seat in range(3):
        line = fill(WORDS.status(state.view(seat))[0], names)
        assert WORDS.heading(state.view(seat)) == WORDS.heading(state.view(None))
        if seat == current:
            assert line.startswith("Round 1 of 6, your turn: "), line
        else:
            assert line.startswith(f"Round 1 of 6, {names[current]}'s turn: "), line
    assert fill(WORDS.status(state.view(None))[0], names).startswith(heading)
    # The log's line for a turn's start, likewise.
    turn = Event("turn", {"seat": current, "round": 1})
    assert [fill(words["text"], names) for seat in (current, None) if (words := WORDS.event(turn, seat))] == [
        "Your turn.",
        f"{names[current]}'s turn.",
    ]


def test_the_board_is_titled_in_the_words() -> None:
    """The plugin's headings: the hand with its count, the open cards (how many, when hidden), a spectator's."""
    state = GAME.new_game(players=3, seed=4)
    view = state.view(0)
    titles = WORDS.table(view)["titles"]
    assert titles["hand"] == f"Your hand ({len(view['hand'])})" and titles["map"] == "The world map: the god areas"
    assert titles["decision"] == "Cards for you to choose from"
    assert titles["open"] == (
        "Open cards" if view["open"] is not None else f"Open cards: {view['open_count']}, hidden from you"
    )
    assert WORDS.titles({**view, "open": None, "open_count": 3})["open"] == "Open cards: 3, hidden from you"
    assert WORDS.titles({**view, "open": []})["open"] == "Open cards"
    assert WORDS.table(state.view(None))["titles"]["hand"] == "You are watching"
