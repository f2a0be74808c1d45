"""Domination and line scoring: ties, both lines, Loki, Fenrir packs, Valkyrie bookends, lone tiles."""

from __future__ import annotations

from tests.voluspa.helpers import line_cells, lines, make_state, play, points, scored_points

# Domination ----------------------------------------------------------------------------


def test_a_strictly_higher_tile_scores_the_line() -> None:
    assert lines("TH", "OD@1,0") == [("row", 2)]


def test_a_lower_tile_or_a_tie_does_not_score() -> None:
    assert lines("OD", "TH@1,0") == [("row", 0)]
    assert lines("TH", "TH@1,0") == [("row", 0)]


def test_points_equal_the_tiles_in_the_line() -> None:
    assert points("VA SK DR FE", "TH@4,0") == 5
    assert points("VA SK DR FE VA SK", "OD@6,0") == 7


def test_row_and_column_are_scored_separately() -> None:
    board = """
    origin 0,0
    .  OD .
    VA .  SK
    .  VA .
    """
    # Thor at 1,1: row VA TH SK (Thor highest, 3), column OD TH VA (Odin higher, 0)
    assert lines(board, "TH@1,1") == [("row", 3), ("column", 0)]
    assert line_cells(board, "TH@1,1") == [[[0, 1], [1, 1], [2, 1]], [[1, 0], [1, 1], [1, 2]]]
    # Odin at 1,1 would tie the Odin in its column, but still win its row
    assert lines(board, "OD@1,1") == [("row", 3), ("column", 0)]
    # A Skadi only ties the row's Skadi
    assert lines(board, "SK@1,1") == [("row", 0), ("column", 0)]


def test_a_line_of_one_never_scores() -> None:
    # The Odin's column holds only the Odin: only the row counts.
    assert lines("VA", "OD@1,0") == [("row", 2)]


# Loki ----------------------------------------------------------------------------------


def test_tiles_next_to_loki_are_worth_zero() -> None:
    # The Odin next to the Loki is worth 0, so the Thor dominates the row.
    assert lines("LO OD", "TH@2,0") == [("row", 3)]
    # An Odin placed next to Loki is worth 0 and is below the Loki (1).
    assert lines("LO", "OD@1,0") == [("row", 0)]


def test_loki_zeroes_only_orthogonal_neighbours() -> None:
    board = """
    origin 0,0
    LO .
    .  OD
    """
    # Odin at 1,1 is diagonal to the Loki: worth 8; Thor below it is lower.
    assert lines(board, "TH@1,2") == [("column", 0)]


def test_loki_next_to_loki_keeps_its_value() -> None:
    board = """
    origin 0,0
    LO LO
    LO .
    """
    # Dwarf at 1,1: north Loki 1 + west Loki 1 = 2, half is 1 (Lokis are not zeroed by Lokis).
    assert points(board, "DW@1,1") == 1


def test_loki_effect_ends_when_loki_is_covered() -> None:
    # With the Loki there the Odin and Skadi are worth 0: the Thor wins the row of four.
    assert lines("OD LO SK", "TH@3,0") == [("row", 4)]
    # A Dragon covers the Loki: the Odin is worth 8 again and beats the Dragon...
    state = make_state("OD LO SK", ("DR", "TH"), pile="VA VA")
    assert scored_points(play(state, 0, "DR@1,0")) == [0]
    # ...and then beats the Thor too.
    assert scored_points(play(state, 1, "TH@3,0")) == [0]


# Fenrir --------------------------------------------------------------------------------


def test_lone_fenrir_is_worth_four() -> None:
    assert lines("SK", "FE@1,0") == [("row", 2)]
    assert lines("FE", "DR@1,0") == [("row", 2)]  # Dragon 5 beats a lone Fenrir


def test_fenrir_pack_value_is_the_sum_of_the_pack() -> None:
    # Two Fenrirs are 8 each: a Dragon (5) no longer wins; an Odin (8) ties.
    assert lines("FE FE", "DR@2,0") == [("row", 0)]
    assert lines("FE FE", "OD@2,0") == [("row", 0)]
    assert lines("FE FE SK", "OD@3,0") == [("row", 0)]
    # Three Fenrirs are 12 each.
    assert lines("FE FE FE", "OD@3,0") == [("row", 0)]


def test_a_line_of_fenrirs_only_is_held_by_the_new_fenrir() -> None:
    assert lines("FE", "FE@1,0") == [("row", 2)]
    assert lines("FE FE", "FE@2,0") == [("row", 3)]


def test_a_new_fenrir_that_raises_the_pack_above_the_rest_scores() -> None:
    assert lines("OD FE", "FE@2,0") == [("row", 0)]  # pack 8 only ties the Odin
    assert lines("OD FE FE", "FE@3,0") == [("row", 4)]  # pack 12 beats the Odin
    assert lines("FE FE SK", "FE@3,0") == [("row", 4)]  # the pack already led: growing it scores


def test_fenrir_is_worth_its_pack_in_each_line_separately() -> None:
    board = """
    origin 0,0
    SK .
    .  .
    FE FE
    """
    # The Fenrir at 0,2 is 8 in its row but 4 in its column: a Dragon above it wins the column.
    assert lines(board, "DR@0,1") == [("column", 3)]
    # In its row the same Fenrir is 8: a Thor at 2,2 (7) loses.
    assert lines(board, "TH@2,2") == [("row", 0)]


def test_fenrir_next_to_loki_adds_nothing_to_the_pack() -> None:
    board = """
    origin 0,0
    LO .  .
    FE FE .
    """
    # FE at 0,1 is next to the Loki: 0, so the pack is 4 and the Thor (7) wins the row.
    assert lines(board, "TH@2,1") == [("row", 3)]
    # Without the Loki the pack is 8 and the Thor loses.
    assert lines("FE FE", "TH@2,0") == [("row", 0)]


def test_fenrir_next_to_loki_does_not_score() -> None:
    board = """
    origin 0,0
    SK FE .
    .  .  LO
    """
    # The new Fenrir at 2,0 is next to the Loki: worth 0, the pack stays 4 (FAQ Q3).
    assert lines(board, "FE@2,0") == [("row", 0), ("column", 0)]
    assert lines("SK FE", "FE@2,0") == [("row", 3)]


def test_fenrirs_pack_only_within_a_contiguous_line() -> None:
    # The two Fenrirs are separated by a gap: each is 4 in its own line, the Dragon wins.
    board = """
    origin 0,0
    FE .  FE
    """
    assert lines(board, "DR@3,0") == [("row", 2)]


# Valkyrie ------------------------------------------------------------------------------


def test_valkyrie_closing_a_bookend_scores_the_line() -> None:
    assert lines("VA OD TH", "VA@3,0") == [("row", 4)]
    assert lines("VA OD TH", "VA@-1,0") == [("row", 0)]  # no Valkyrie at the far end
    assert lines("VA", "VA@1,0") == [("row", 2)]  # two Valkyries bookend a line of two


def test_valkyrie_dominates_by_value_too() -> None:
    # Skadi next to the Loki is 0, Loki 1, Valkyrie 2: the Valkyrie is the highest.
    assert lines("LO SK", "VA@2,0") == [("row", 3)]
    # Valkyrie below a Skadi scores nothing.
    assert lines("SK", "VA@1,0") == [("row", 0)]


def test_higher_tile_inside_a_bookend_does_not_dominate() -> None:
    assert lines("VA SK VA", "DR@1,0") == [("row", 0)]
    assert lines("VA SK VA", "RA@1,0") == [("row", 0)]
    assert lines("VA LO VA", "SK@1,0") == [("row", 0)]  # Skadi swaps the Loki in


def test_extending_a_bookended_line_breaks_the_bookend() -> None:
    # VA TH VA + Odin at the end: the line no longer begins and ends with Valkyries.
    assert lines("VA TH VA", "OD@3,0") == [("row", 4)]


def test_valkyrie_bookend_is_not_broken_by_a_valkyrie_inside() -> None:
    # A third Valkyrie placed inside is not at an end: it does not close anything.
    board = """
    origin 0,0
    VA SK .  VA
    """
    assert lines(board, "VA@2,0") == [("row", 0)]


def test_valkyrie_next_to_loki_still_bookends() -> None:
    board = """
    origin 0,0
    VA OD .
    .  .  LO
    """
    # Valkyrie at 2,0 is next to the Loki (worth 0) but closes the bookend.
    assert lines(board, "VA@2,0") == [("row", 3), ("column", 0)]


# Lone tiles next to Hels ---------------------------------------------------------------


def test_tile_next_to_only_a_hel_scores_one() -> None:
    assert lines("HE", "TH@1,0") == [("single", 1)]
    assert lines("HE", "VA@0,1") == [("single", 1)]


def test_tile_next_to_several_hels_only_scores_one() -> None:
    board = """
    origin 0,0
    HE .  HE
    .  HE .
    """
    assert lines(board, "TH@1,0") == [("single", 1)]


def test_niohoggr_next_to_only_a_hel_scores_three() -> None:
    assert lines("HE", "NI@1,0") == [("single", 3)]


def test_sea_serpent_and_dwarf_do_not_take_the_lone_point() -> None:
    assert points("HE", "SS@1,0:row") == 0
    assert points("HE", "SS@1,0:col") == 0
    assert points("HE", "DW@1,0") == 0


def test_tile_next_to_a_hel_and_a_tile_scores_its_lines_normally() -> None:
    board = """
    origin 0,0
    HE .
    .  OD
    """
    # Thor at 1,0 touches the Hel and the Odin: it scores only its column (Odin higher: 0).
    assert lines(board, "TH@1,0") == [("column", 0)]
