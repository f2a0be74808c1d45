"""Niohoggr: two bonus points per Niohoggr in a scored line, and for a covered one."""

from __future__ import annotations

from tests.voluspa.helpers import lines, points


def test_bonus_per_niohoggr_in_the_scored_line() -> None:
    assert lines("NI SK", "OD@2,0") == [("row", 3 + 2)]
    assert lines("NI NI", "OD@2,0") == [("row", 3 + 4)]


def test_no_bonus_when_the_line_is_not_scored() -> None:
    assert points("NI SK", "TH@2,0") == 0


def test_placing_a_niohoggr_that_scores() -> None:
    assert lines("SK", "NI@1,0") == [("row", 2 + 2)]
    assert lines("OD", "NI@1,0") == [("row", 0)]


def test_bonus_in_each_scored_line() -> None:
    board = """
    origin 0,0
    NI .
    .  SK
    """
    # Odin at 0,1: column NI OD (2 + 2), row OD SK (2).
    assert lines(board, "OD@0,1") == [("row", 2), ("column", 2 + 2)]


def test_covered_niohoggr_gives_two_only_if_the_line_scores() -> None:
    assert points("SK NI", "DR@1,0") == 2 + 2
    assert points("OD NI", "DR@1,0") == 0
    assert points("SK NI", "RA@1,0") == 2 + 2
    assert points("OD NI", "RA@1,0") == 0


def test_covered_niohoggr_counts_for_each_scored_line() -> None:
    board = """
    origin 0,0
    .  SK .
    SK NI SK
    """
    assert lines(board, "DR@1,1") == [("row", 3 + 2), ("column", 2 + 2)]


def test_covered_niohoggr_with_only_one_line_scored() -> None:
    board = """
    origin 0,0
    .  OD .
    SK NI SK
    """
    assert lines(board, "DR@1,1") == [("row", 3 + 2), ("column", 0)]


def test_hel_killing_a_niohoggr_gets_the_bonus() -> None:
    assert lines("SK NI", "HE@1,0") == [("neighbours", 1 + 2)]


def test_loki_does_not_cancel_the_bonus() -> None:
    # The Niohoggr next to the Loki is worth 0, but still adds 2 to the line.
    assert lines("LO NI", "TH@2,0") == [("row", 3 + 2)]


def test_skadi_swapping_a_niohoggr_gets_no_bonus() -> None:
    assert lines("VA NI", "SK@1,0") == [("row", 2)]


def test_skadi_scores_the_bonus_of_another_niohoggr_in_its_line() -> None:
    assert lines("LO NI TH", "SK@2,0") == [("row", 3 + 2)]


def test_lone_niohoggr_next_to_a_hel() -> None:
    assert lines("HE", "NI@1,0") == [("single", 1 + 2)]


def test_dragon_on_a_lone_niohoggr_start_tile() -> None:
    assert lines("NI", "DR@0,0") == [("single", 1 + 2)]
