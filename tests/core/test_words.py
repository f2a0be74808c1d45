"""The words protocol's small parts: seat placeholders, event JSON with texts, the table's words."""

from __future__ import annotations

from meadhall.core.game import Event
from meadhall.core.words import event_json, events_json, fill, literal, name_of
from meadhall.games.voluspa import VOLUSPA


def test_placeholders_take_the_hosts_names_and_braces_stay_braces() -> None:
    names = ["Ann", "Bo {the bold}"]
    assert fill(f"{name_of(1)} scores; {name_of(0)} waits", names) == "Bo {the bold} scores; Ann waits"
    assert fill(literal("a {0} in a card's text") + " " + name_of(0), names) == "a {0} in a card's text Ann"
    assert fill("{7} passes", names) == "Seat 8 passes"  # a seat the host has no name for
    assert fill("{0.__class__} {x} {}", names) == "{0.__class__} {x} {}"  # nothing else is read as a placeholder
    assert fill("no seats", names) == "no seats"


def test_events_carry_their_text_for_the_seat_that_sees_them() -> None:
    words = VOLUSPA.words()
    drew = Event("drew", {"seat": 1, "tile": "TH"}, frozenset({1}))
    placed = Event("placed", {"seat": 1, "tile": "TH", "x": 1, "y": 0, "boost": 0, "step": "TH@1,0"})
    assert event_json(drew, 1, words) == {
        "kind": "drew",
        "seat": 1,
        "tile": "TH",
        "text": "You drew TH Thor 7.",
        "details": [],
    }
    assert events_json([drew, placed], 0, words) == [
        {**placed.to_json(), "text": "{1} places TH Thor 7 at 1,0   [TH@1,0]", "details": []}
    ]
    assert events_json([drew, placed], None, None) == [placed.to_json()]  # a game without words: as before


def test_the_table_words_of_a_view() -> None:
    state = VOLUSPA.new_game(players=2, seed=3)
    seat = state.to_move()[0]
    legal = VOLUSPA.legal_notations(state, seat)
    table = VOLUSPA.words().table(state.view(seat), legal)
    assert table["heading"] == f"Turn 1: {name_of(seat)}"
    assert table["status"][0].startswith(f"Turn 1: {name_of(seat)} to play · draw pile:")
    assert table["seats"] == ["0 points · 5 tiles", "0 points · 5 tiles"]
    assert table["prompt"] == "Your move: place a tile from your hand." and "result" not in table
    assert "prompt" not in VOLUSPA.words().table(state.view(None))
