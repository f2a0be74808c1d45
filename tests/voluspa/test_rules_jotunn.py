"""Jotunn: normal placement, or bump a tile to the far end of its line and take its cell."""

from __future__ import annotations

import pytest

from tests.voluspa.helpers import (
    assert_illegal,
    board_text,
    counts,
    lines,
    make_state,
    normalized,
    play,
    points,
    rule,
    scored_points,
)


def test_jotunn_placed_normally() -> None:
    assert lines("SK", "JO@1,0") == [("row", 2)]
    assert rule("SK . TR", "JO@1,0") == "troll"


@pytest.mark.parametrize(
    ("move", "after"),
    [
        ("JO@1,0>E", "SK JO OD TH"),
        ("JO@1,0>W", "origin -1,0\nTH SK JO OD"),
        ("JO@1,0>N", "origin 0,-1\n. TH .\nSK JO OD"),
        ("JO@1,0>S", "SK JO OD\n. TH ."),
    ],
)
def test_bump_slides_the_tile_past_the_end_of_its_line(move: str, after: str) -> None:
    state = make_state("SK TH OD", ("JO", "VA"))
    play(state, 0, move)
    assert board_text(state) == normalized(after)


def test_bump_along_a_column_goes_past_the_whole_line() -> None:
    board = """
    origin 0,0
    SK
    TH
    OD
    VA
    """
    state = make_state(board, ("JO", "VA"))
    play(state, 0, "JO@0,1>N")
    assert board_text(state) == normalized("origin 0,-1\nTH\nSK\nJO\nOD\nVA")


def test_bump_stops_at_the_first_empty_cell() -> None:
    state = make_state("SK TH . OD", ("JO", "VA"))
    play(state, 0, "JO@1,0>E")
    assert board_text(state) == normalized("SK JO TH OD")


def test_jotunn_scores_its_two_lines_after_the_bump() -> None:
    board = """
    origin 0,0
    .  VA .
    SK TH VA
    .  SK .
    """
    # Thor bumped north past the Valkyrie: column TH VA JO SK (Thor higher), row SK JO VA (3).
    state = make_state(board, ("JO", "VA"))
    events = play(state, 0, "JO@1,1>N")
    assert board_text(state) == normalized("origin 0,-1\n. TH .\n. VA .\nSK JO VA\n. SK .")
    assert scored_points(events) == [3]
    assert lines(board, "JO@1,1>N") == [("row", 3), ("column", 0)]
    # Thor bumped east to 3,1: row SK JO VA TH (Thor higher), column VA JO SK (3).
    assert lines(board, "JO@1,1>E") == [("row", 0), ("column", 3)]


def test_bumped_tile_never_scores() -> None:
    board = """
    origin 0,0
    OD TH .
    .  .  VA
    """
    # The Thor lands on 2,0 above the Valkyrie (it would win that column) but the
    # Jotunn alone is scored: row OD JO TH, Odin higher.
    result = lines(board, "JO@1,0>E")
    assert result == [("row", 0)]
    assert points(board, "JO@1,0>E") == 0


def test_bump_cannot_pass_a_hel() -> None:
    assert rule("HE SK TH", "JO@2,0>W") == "bump-blocked"
    assert rule("HE TH", "JO@1,0>W") == "bump-blocked"  # a Hel right past the end
    assert points("HE SK TH", "JO@2,0>E") == 0
    # Eastwards is free: the Skadi goes to 3,0 and the Jotunn wins JO VA SK.
    assert points("HE SK VA", "JO@1,0>E") == 3


def test_hel_cannot_be_bumped() -> None:
    assert rule("HE SK", "JO@0,0>W") == "bump-target"
    assert rule("SK", "JO@1,0>E") == "bump-target"  # nothing to bump


def test_jotunn_on_an_occupied_cell_needs_a_direction() -> None:
    assert rule("SK VA", "JO@0,0") == "bump-direction"


def test_troll_may_be_bumped() -> None:
    state = make_state("SK TR VA", ("JO", "LO"))
    play(state, 0, "JO@1,0>E")
    assert board_text(state) == normalized("SK JO VA TR")


def test_non_troll_cannot_be_bumped_next_to_a_troll() -> None:
    board = """
    origin 0,0
    SK TH .
    .  .  TR
    """
    assert rule(board, "JO@1,0>E") == "troll"


def test_jotunn_may_not_end_next_to_a_troll() -> None:
    assert rule("TR SK TH", "JO@1,0>E") == "troll"  # the Jotunn would sit next to the Troll
    assert rule("TR TH", "JO@0,0>W") == "troll"  # the bumped Troll lands next to the Jotunn
    assert rule("SK . TR", "JO@1,0") == "troll"  # normal placement


def test_jotunn_may_bump_a_troll_away_from_itself() -> None:
    # Troll bumped east past the Odin: the Jotunn takes its cell, next to no Troll.
    state = make_state("TR OD", ("JO", "LO"))
    events = play(state, 0, "JO@0,0>E")
    assert board_text(state) == normalized("JO OD TR")
    assert scored_points(events) == [0]


def test_bump_may_not_make_a_line_longer_than_seven() -> None:
    seven = "SK SK SK SK SK SK SK"
    assert rule(seven, "JO@3,0>E") == "line-length"
    assert rule(seven, "JO@3,0>W") == "line-length"
    # North is free: the Skadi goes to 3,-1; the Jotunn wins the row of 7 and its column of 2.
    assert lines(seven, "JO@3,0>N") == [("row", 7), ("column", 2)]


def test_bump_may_not_extend_the_crossing_line_past_seven() -> None:
    board = """
    origin 0,0
    SK SK SK SK SK SK SK .
    .  .  .  .  .  .  .  VA
    .  .  .  .  .  .  .  TH
    """
    # Thor's column line is 7,1..7,2; bumped north it lands on 7,0, making the row 8 long.
    assert rule(board, "JO@7,2>N") == "line-length"
    assert rule(board, "JO@7,1>N") == "line-length"


def test_bumped_tile_keeps_its_booster() -> None:
    state = make_state("SK TH+1 OD", ("JO", "VA"))
    supply = list(state.supply)
    play(state, 0, "JO@1,0>E")
    assert board_text(state) == normalized("SK JO OD TH+1")
    assert state.supply == supply


def test_bumping_a_dragon_moves_only_the_dragon_the_covered_tile_is_gone() -> None:
    state = make_state("SK TH VA", ("DR", "JO"), pile="LO LO")
    play(state, 0, "DR@1,0")
    assert counts(state.discards) == {"TH": 1}
    play(state, 1, "JO@1,0>S")
    assert board_text(state) == normalized("SK JO VA\n. DR .")
    assert counts(state.discards) == {"TH": 1}


def test_bumping_a_raven() -> None:
    state = make_state("SK TH VA", ("RA", "JO"), pile="LO LO")
    play(state, 0, "RA@1,0")
    play(state, 0, "end")
    play(state, 1, "JO@1,0>N")
    assert board_text(state) == normalized("origin 0,-1\n. RA .\nSK JO VA")


def test_illegal_bump_changes_nothing() -> None:
    state = make_state("HE SK TH", ("JO", "VA"))
    assert_illegal(state, 0, "JO@2,0>W", "bump-blocked")
    assert_illegal(state, 0, "JO@0,0>E", "bump-target")


def test_bumped_tile_joining_the_next_line_counts_it() -> None:
    # The Thor lands in the gap and joins the four Skadis: 2 + 1 + 4 = 7 tiles.
    assert lines("SK TH . SK SK SK SK", "JO@1,0>E") == [("row", 0)]
    # With five Skadis beyond the gap it would be 8.
    assert rule("SK TH . SK SK SK SK SK", "JO@1,0>E") == "line-length"


def test_a_dwarf_cannot_be_bumped_next_to_a_troll() -> None:
    # Dwarfs may be placed next to Trolls, but only a Troll may be bumped next to one.
    board = """
    origin 0,0
    SK DW .
    .  .  TR
    """
    assert rule(board, "JO@1,0>E") == "troll"
