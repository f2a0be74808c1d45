"""The worked examples of the rulebook and the Saga of Edda manual.

The rulebooks show these examples in pictures that the text files do not carry; each
position below is built to match the description, as each comment says.
"""

from __future__ import annotations

from tests.voluspa.helpers import (
    board_text,
    explain,
    lines,
    make_state,
    normalized,
    play,
    points,
    scored_points,
    step_points,
)


def test_thor_scores_six_then_troll_ties_and_scores_nothing() -> None:
    # Built from the description: Bart's Thor is the highest in a row of three and a
    # column of three (3 + 3 = 6); Tom's Troll then ties the highest tile (a Troll) of
    # the only line it joins.
    board = """
    origin 0,0
    .  SK .  .
    VA .  DR .
    .  FE VA TR
    """
    assert lines(board, "TH@1,1") == [("row", 3), ("column", 3)]
    state = make_state(board, ("TH", "TR"), pile="LO LO")
    assert scored_points(play(state, 0, "TH@1,1")) == [6]
    after_thor = board_text(state)
    result = explain(after_thor, "TR@3,3")
    assert result["points"] == 0
    (column,) = result["steps"][0]["lines"]
    assert column["kind"] == "column" and column["points"] == 0
    assert "tie" in column["reason"]
    events = play(state, 1, "TR@3,3")
    assert scored_points(events) == [0]
    assert state.scores() == [6, 0]


def test_odin_below_skadi_above_a_lone_fenrir_scores() -> None:
    # Column SK OD FE: the Fenrir is alone in that column, so it is worth 4 there (even
    # though two more Fenrirs in its row make it worth 12 in the row): Odin scores 3.
    board = """
    origin 0,0
    SK .  .
    .  .  .
    FE FE FE
    """
    assert lines(board, "OD@0,1") == [("column", 3)]


def test_odin_does_not_score_when_the_fenrir_column_holds_three_fenrirs() -> None:
    # Column SK OD FE FE FE: the Fenrirs are worth 12 in the column; Odin (8) does not score.
    board = """
    origin 0,0
    SK
    .
    FE
    FE
    FE
    """
    assert lines(board, "OD@0,1") == [("column", 0)]


def test_hel_scores_four_and_divides_the_row() -> None:
    # Built from the description: a Hel on a tile of the top row with four tiles around it.
    board = """
    origin 0,0
    SK TH OD VA
    .  FE DR .
    """
    assert lines(board, "HE@1,0") == [("neighbours", 4)]
    state = make_state(board, ("HE", "OD"), pile="LO")
    play(state, 0, "HE@1,0")
    # The top row is now two lines: SK | HE | OD VA. An Odin left of the Skadi scores
    # the line SK only (2 points); without the Hel it would tie the Odin of the row.
    assert lines(board_text(state), "OD@-1,0") == [("row", 2)]
    assert lines(board, "OD@-1,0") == [("row", 0)]


def test_sea_serpent_scores_four() -> None:
    # Built from the description: the Sea Serpent is the highest in its row across a gap
    # and a Hel, and the span (tiles, Hel and gap) is four cells.
    board = """
    origin 0,0
    SK HE .  .
    .  .  .  VA
    """
    assert lines(board, "SS@3,0:row") == [("span", 4)]


def test_hermod_scores_two_then_troll_scores_three() -> None:
    # Built from the description: Hermod (3) beats a Valkyrie (2); the Troll follows in
    # Hermod's row and beats both (row of three).
    assert step_points("VA", "HM@1,0 TR@2,0") == [2, 3]
    assert points("VA", "HM@1,0 TR@2,0") == 5


def test_jotunn_bumps_thor_and_scores_eight() -> None:
    # Built from the description: the Jotunn bumps the Thor to the end of its row, where
    # the Thor ends next to a Loki (worth 0). The Jotunn wins its column (3) and its
    # row of five (5).
    board = """
    origin 0,0
    .  .  SK VA LO
    VA SK TH FE .
    .  .  VA .  .
    """
    assert lines(board, "JO@2,1>E") == [("row", 5), ("column", 3)]
    state = make_state(board, ("JO", "VA"))
    assert scored_points(play(state, 0, "JO@2,1>E")) == [8]
    assert board_text(state) == normalized(
        """
        origin 0,0
        .  .  SK VA LO
        VA SK JO FE TH
        .  .  VA .  .
        """
    )


def test_dwarf_scores_half_of_four_plus_four_plus_zero() -> None:
    # Built from the description: three Fenrirs around the Dwarf; the south one is next
    # to a Loki (0, adds nothing to its pack); the north one is 4 in its column, the
    # west one 4 in its row: 0.5 x (4 + 4 + 0) = 4.
    board = """
    origin 0,0
    .  FE
    FE .
    .  FE
    .  LO
    """
    assert lines(board, "DW@1,1") == [("neighbours", 4)]
