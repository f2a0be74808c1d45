"""Dwarf: half (rounded down) of the values of its orthogonal neighbours; never lines."""

from __future__ import annotations

from tests.voluspa.helpers import lines, points, rule


def test_dwarf_scores_half_its_neighbours() -> None:
    board = """
    origin 0,0
    .  OD .
    VA .  TH
    .  SK .
    """
    assert lines(board, "DW@1,1") == [("neighbours", 10)]  # (8 + 2 + 7 + 3) / 2


def test_dwarf_rounds_down() -> None:
    assert points("OD . TH", "DW@1,0") == 7  # 15 / 2
    assert points("SK", "DW@1,0") == 1  # 3 / 2


def test_dwarf_ignores_diagonals() -> None:
    board = """
    origin 0,0
    OD .
    .  SK
    """
    assert points(board, "DW@1,0") == 5  # Odin west 8 + Skadi south 3 = 11; the diagonal adds nothing


def test_dwarf_uses_column_value_for_north_and_south_fenrirs() -> None:
    board = """
    origin 0,0
    .  FE
    .  FE
    FE .
    """
    # North Fenrir: column pack 8 (its row value would be 4). West Fenrir: row value 4.
    assert points(board, "DW@1,2") == 6


def test_dwarf_uses_row_value_for_east_and_west_fenrirs() -> None:
    board = """
    origin 0,0
    FE FE .
    .  FE .
    .  FE .
    """
    # West Fenrir at 1,0: row pack FE FE = 8 (its column pack would be 12).
    assert points(board, "DW@2,0") == 4


def test_dwarf_counts_a_fenrir_next_to_loki_as_zero() -> None:
    board = """
    origin 0,0
    LO .
    FE .
    """
    assert points(board, "DW@1,1") == 0


def test_dwarf_may_be_placed_next_to_a_troll() -> None:
    assert points("TR", "DW@1,0") == 3
    assert points("TR . TR", "DW@1,0") == 6


def test_dwarf_never_scores_lines() -> None:
    # A Dwarf boosted to 4 would win the row of four; it still scores only Skadi 3 / 2.
    assert lines("VA SK SK", "FR+ FR+ DW@3,0") == [("neighbours", 1)]


def test_dwarf_gets_no_niohoggr_bonus() -> None:
    assert points("NI", "DW@1,0") == 3  # 7 / 2, no +2


def test_loki_does_not_stop_the_dwarf_but_makes_its_neighbours_zero() -> None:
    board = """
    origin 0,0
    .  OD
    LO .
    """
    # Odin (north, not next to the Loki) 8 + Loki 1 = 9: 4 points.
    assert points(board, "DW@1,1") == 4
    assert points("LO TH", "DW@2,0") == 0  # the Thor is next to the Loki: 0


def test_dwarf_next_to_loki_is_worth_zero_to_another_dwarf() -> None:
    assert points("LO DW", "DW@2,0") == 0
    assert points("SK DW", "DW@2,0") == 1


def test_hel_neighbours_add_nothing() -> None:
    assert points("HE . OD", "DW@1,0") == 4
    assert points("HE", "DW@1,0") == 0


def test_boosted_neighbour_counts_its_boosted_value() -> None:
    assert points("TH+2", "DW@1,0") == 4  # 9 / 2


def test_dwarf_on_the_board_is_worth_two() -> None:
    assert lines("DW", "SK@1,0") == [("row", 2)]
    assert lines("DW", "VA@1,0") == [("row", 0)]


def test_dwarf_has_no_cover_power() -> None:
    assert rule("SK VA", "DW@0,0") == "occupied"
