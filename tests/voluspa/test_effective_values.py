"""The board shows what a tile is worth now, by the engine's own reckoning (issue 21, item 6).

A Valkyrie next to Loki is worth 0 though it shows 2: the view says so (``value`` beside
``printed``), and the words name it so for tooltips and screen readers.
"""

from __future__ import annotations

from meadhall.games.voluspa.board import own_value, xy
from meadhall.games.voluspa.words import WORDS
from tests.voluspa.helpers import make_state


def test_a_valkyrie_beside_loki_is_worth_zero_in_the_view_and_the_words() -> None:
    state = make_state("VA LO OD\nHE .  TH")
    board = {(tile["x"], tile["y"]): tile for tile in state.view(0)["board"]}
    valkyrie, loki, odin, hel, thor = board[0, 0], board[1, 0], board[2, 0], board[0, 1], board[2, 1]
    assert (valkyrie["printed"], valkyrie["value"]) == (2, 0)
    assert (odin["printed"], odin["value"]) == (8, 0)
    assert (loki["printed"], loki["value"]) == (1, 1)  # a Loki is never lowered by Loki
    assert (thor["printed"], thor["value"]) == (7, 7)  # diagonal to nothing that lowers it
    assert "value" not in hel and "printed" not in hel  # Hel has no value
    # The view's values are the engine's own: the same function that scores lines.
    for cell, piece in state.board.items():
        tile = board[xy(cell)]
        if "value" in tile:
            assert tile["value"] == own_value(state.board, cell, piece)
    places = WORDS.table(state.view(0))["places"]
    assert places["0,0"] == "Valkyrie, worth 0 now (printed 2; Loki beside it)"
    assert places["2,0"] == "Odin, worth 0 now (printed 8; Loki beside it)"
    assert places["2,1"] == "Thor, worth 7"
    assert places["0,1"] == "Hel"


def test_a_boosted_tile_is_worth_its_face_and_boost() -> None:
    state = make_state("TH+1")
    (thor,) = state.view(None)["board"]
    assert (thor["printed"], thor["value"], thor["boost"]) == (8, 8, 1)
    assert WORDS.places(state.view(None)) == {"0,0": "Thor +1, worth 8"}
