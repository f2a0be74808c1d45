"""Placement: touching, the 7-tile line limit, the Troll rule, covers of the start tile."""

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
)

# Touching ------------------------------------------------------------------------------


def test_a_tile_must_share_a_side_with_a_tile() -> None:
    assert rule("TH", "OD@1,1") == "touch"  # only a corner
    assert rule("TH", "OD@2,0") == "touch"  # one cell apart
    assert points("TH", "OD@1,0") == 2
    assert points("TH", "OD@0,-1") == 2


def test_touching_only_a_hel_is_enough() -> None:
    # A Hel counts as a tile for touching; the new tile starts a line of one (1 point).
    assert lines("TH HE", "OD@2,0") == [("single", 1)]


def test_illegal_placement_leaves_the_state_unchanged() -> None:
    state = make_state("TH", ("OD SK", "VA"))
    assert_illegal(state, 0, "OD@1,1", "touch")
    assert_illegal(state, 0, "OD@5,5", "touch")


# Line length ---------------------------------------------------------------------------

SEVEN = "SK SK SK SK SK SK SK"


def test_no_line_longer_than_seven() -> None:
    assert rule(SEVEN, "OD@7,0") == "line-length"
    assert rule(SEVEN, "OD@-1,0") == "line-length"
    # the column through a tile of the row is fine
    assert points(SEVEN, "OD@3,1") == 2


def test_the_seventh_tile_is_allowed() -> None:
    assert points("SK SK SK SK SK SK", "OD@6,0") == 7


def test_line_limit_in_a_column() -> None:
    column = "\n".join(["SK"] * 7)
    assert rule(column, "OD@0,7") == "line-length"
    assert rule(column, "OD@0,-1") == "line-length"
    assert points("\n".join(["SK"] * 6), "OD@0,6") == 7


def test_joining_two_lines_counts_both() -> None:
    # 3 + new + 4 = 8 tiles
    assert rule("SK SK SK . SK SK SK SK", "OD@3,0") == "line-length"
    # 3 + new + 3 = 7 tiles: legal, Odin dominates all seven
    assert points("SK SK SK . SK SK SK", "OD@3,0") == 7


def test_a_hel_ends_a_line_so_seven_more_may_follow() -> None:
    board = "SK SK SK SK SK SK SK HE"
    assert lines(board, "OD@8,0") == [("single", 1)]
    state = make_state(board, ("OD", "VA"))
    assert_illegal(state, 0, "OD@-1,0", "line-length")
    play(state, 0, "OD@8,0")


# Troll ---------------------------------------------------------------------------------

TROLL = "OD TR"


@pytest.mark.parametrize("move", ["TH@2,0", "TH@1,1", "TH@1,-1", "HM@2,0", "SS@2,0:row", "NI@1,1", "JO@1,1"])
def test_no_tile_next_to_a_troll(move: str) -> None:
    assert rule(TROLL, move) == "troll"


def test_troll_and_dwarf_may_go_next_to_a_troll() -> None:
    assert lines(TROLL, "TR@2,0") == [("row", 0)]  # 6 is below the Odin: no points
    assert points(TROLL, "DW@2,0") == 3  # Dwarf: 6 / 2
    # diagonal to the Troll is not next to it
    assert points(TROLL, "TH@0,1") == 0  # Thor 7 below Odin 8


def test_troll_rule_holds_for_the_whole_game() -> None:
    state = make_state("OD", ("TR TH", "TH SK"), pile="VA VA VA")
    play(state, 0, "TR@1,0")
    assert_illegal(state, 1, "TH@2,0", "troll")
    assert_illegal(state, 1, "TH@1,1", "troll")
    play(state, 1, "TH@0,1")


def test_troll_rule_for_covers() -> None:
    # Odin at 0,0 is next to the Troll: nothing may cover it or swap it.
    assert rule(TROLL, "DR@0,0") == "troll"
    assert rule(TROLL, "RA@0,0") == "troll"
    assert rule(TROLL, "LB@0,0") == "troll"
    assert rule(TROLL, "SK@0,0") == "troll"


def test_the_troll_itself_may_be_covered_unless_next_to_another_troll() -> None:
    assert points(TROLL, "DR@1,0") == 0  # Dragon 5 below Odin 8, but legal
    assert points(TROLL, "LB@1,0") == 2  # the Lightning Bolt scores its row of 2
    assert rule("OD TR TR", "DR@1,0") == "troll"
    assert rule("OD TR TR", "LB@1,0") == "troll"
    assert rule("OD TR TR", "RA@1,0") == "troll"


def test_covering_a_troll_ends_its_power() -> None:
    state = make_state(TROLL, ("DR", "TH"), pile="VA VA")
    play(state, 0, "DR@1,0")
    assert counts(state.discards) == {"TR": 1}
    play(state, 1, "TH@2,0")  # next to the Dragon now, no Troll any more
    assert board_text(state) == normalized("OD DR TH")


def test_hel_is_exempt_from_the_troll_rule() -> None:
    assert lines(TROLL, "HE@0,0") == [("neighbours", 1)]  # on the Odin next to the Troll
    assert lines(TROLL, "HE@1,0") == [("neighbours", 1)]  # on the Troll itself
    assert lines("OD TR TR", "HE@1,0") == [("neighbours", 2)]


# Covering the start tile ---------------------------------------------------------------


@pytest.mark.parametrize("move", ["DR@0,0", "SK@0,0", "LB@0,0", "RA@0,0"])
def test_cover_of_the_lone_start_tile_scores_one(move: str) -> None:
    assert lines("TH", move) == [("single", 1)]


def test_hel_on_the_lone_start_tile_scores_zero() -> None:
    assert points("TH", "HE@0,0") == 0


def test_only_hel_lightning_bolt_may_not_be_placed_on_an_empty_cell() -> None:
    assert rule("TH", "HE@1,0") == "hel-on-top"
    assert rule("TH", "LB@1,0") == "lightning-on-top"


def test_tiles_without_a_cover_power_cannot_go_on_a_tile() -> None:
    state = make_state("TH VA", ("OD FE VA LO HM", "SK"))
    for code in ("OD", "FE", "VA", "LO", "HM"):
        assert_illegal(state, 0, f"{code}@0,0", "occupied")
