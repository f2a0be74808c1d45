"""Sea Serpent: scores one span (row or column) across gaps and Hels, if it is the highest there."""

from __future__ import annotations

from tests.voluspa.helpers import (
    assert_illegal,
    explain,
    line_cells,
    lines,
    make_state,
    play,
    points,
    rule,
    scored_points,
)

GAPS = """
origin 0,0
VA .  .  .  SK
"""


def test_span_reaches_across_gaps() -> None:
    # Row span VA SS . . SK: 5 cells, the Sea Serpent (6) is the highest.
    assert lines(GAPS, "SS@1,0:row") == [("span", 5)]
    assert line_cells(GAPS, "SS@1,0:row") == [[[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]]
    # Its column holds nothing else: 0.
    assert lines(GAPS, "SS@1,0:col") == [("span", 0)]


def test_span_counts_hels_and_gaps_as_cells() -> None:
    board = """
    origin 0,0
    SK HE .  .
    .  .  .  VA
    """
    assert lines(board, "SS@3,0:row") == [("span", 4)]
    assert lines(board, "SS@3,0:col") == [("span", 2)]


def test_span_may_exceed_seven_cells() -> None:
    board = """
    origin 0,0
    VA .  .  .  .  .  .  .  .  SK
    """
    assert points(board, "SS@1,0:row") == 10


def test_sea_serpent_must_be_the_highest_in_the_span() -> None:
    assert points("OD . . . VA", "SS@3,0:row") == 0  # the Odin beyond the gap is higher
    assert points("TR . . . VA", "SS@3,0:row") == 0  # a tie does not dominate
    assert points("TH HE . VA", "SS@2,0:row") == 0  # across a Hel too


def test_sea_serpent_never_scores_in_the_ordinary_way() -> None:
    # The contiguous row SS VA would be won, but the span includes the Odin: nothing.
    assert points("VA . . OD", "SS@-1,0:row") == 0
    # Its column span holds only the Valkyrie above it: 2.
    assert lines("VA . . OD", "SS@0,1:col") == [("span", 2)]


def test_fenrirs_count_their_own_line_values() -> None:
    # Two separate Fenrirs are worth 4 each (not a pack): the Sea Serpent wins.
    assert points("FE . FE . . VA", "SS@4,0:row") == 6
    # A contiguous pair is worth 8: the Sea Serpent loses.
    assert points("FE FE . . VA", "SS@3,0:row") == 0


def test_sea_serpent_next_to_loki_is_worth_zero() -> None:
    assert points("VA . . LO", "SS@2,0:row") == 0


def test_tiles_next_to_loki_in_the_span_are_worth_zero() -> None:
    board = """
    origin 0,0
    OD .  .  VA
    LO .  .  .
    """
    assert points(board, "SS@2,0:row") == 4


def test_lone_sea_serpent_next_to_only_a_hel() -> None:
    # The span holds only the Sea Serpent: no 1-point rule for it.
    assert points("HE", "SS@1,0:row") == 0
    # But it scores a span across the Hel if it is the highest there.
    assert points("SK HE", "SS@2,0:row") == 3


def test_sea_serpent_inside_a_valkyrie_bookend_does_not_score() -> None:
    assert points("VA . VA", "SS@1,0:row") == 0
    assert points("VA . VA . SK", "SS@1,0:row") == 0


def test_bookend_across_a_hel_does_not_stop_the_sea_serpent() -> None:
    assert points("VA SK VA HE", "SS@4,0:row") == 5


def test_niohoggr_in_the_span_adds_two() -> None:
    board = """
    origin 0,0
    LO NI .  VA
    """
    # The Niohoggr next to Loki is worth 0; span LO NI SS VA: 4 cells + 2.
    assert points(board, "SS@2,0:row") == 6


def test_line_must_be_named_without_auto_best_line() -> None:
    assert rule(GAPS, "SS@1,0") == "line-choice"
    state = make_state(GAPS, ("SS", "VA"))
    assert_illegal(state, 0, "SS@1,0", "line-choice")
    events = play(state, 0, "SS@1,0:row")
    assert scored_points(events) == [5]


def test_auto_best_line_picks_the_higher_span() -> None:
    board = """
    origin 0,0
    SK .  .
    .  .  .
    .  .  .
    VA .  .
    """
    # At 1,3 next to the Valkyrie: row span VA SS (2), column span SS alone (0): the row.
    assert points(board, "SS@1,3", auto_best_line=True) == 2
    # At 0,1 under the Skadi: column span SK SS . VA (4), row 0: the column is chosen.
    assert points(board, "SS@0,1", auto_best_line=True) == 4
    assert lines(board, "SS@0,1", auto_best_line=True) == [("span", 4)]
    assert explain(board, "SS@0,1", auto_best_line=True)["steps"][0]["lines"][0]["cells"][0] == [0, 0]


def test_auto_best_line_forbids_naming_a_line() -> None:
    assert rule(GAPS, "SS@1,0:row", auto_best_line=True) == "line-choice"
    state = make_state(GAPS, ("SS", "VA"), auto_best_line=True)
    assert_illegal(state, 0, "SS@1,0:row", "line-choice")
    assert_illegal(state, 0, "SS@1,0:col", "line-choice")
    events = play(state, 0, "SS@1,0")
    assert scored_points(events) == [5]


def test_auto_best_line_tie_takes_the_row() -> None:
    board = """
    origin 0,0
    .  VA
    VA .
    """
    # Sea Serpent at 1,1: row VA SS (2) and column VA SS (2): the row is taken.
    result = explain(board, "SS@1,1", auto_best_line=True)
    assert result["points"] == 2
    assert result["steps"][0]["lines"][0]["cells"] == [[0, 1], [1, 1]]


def test_boosted_sea_serpent() -> None:
    state = make_state("TH . . VA", ("SS FR FR", "VA"))
    events = play(state, 0, "FR+ FR+ SS@2,0:row")
    assert scored_points(events) == [4]  # 8 beats the Thor across the gap


def test_two_niohoggrs_in_the_span() -> None:
    # Both Niohoggrs are next to Lokis (0): span LO NI SS . NI LO... 5 cells + 4.
    assert points("LO NI . NI LO", "SS@2,0:row") == 5 + 4


CROSS = """
origin 0,0
.  SK .
SK .  SK
.  SK .
"""


def test_the_line_need_not_be_named_when_both_score_the_same() -> None:
    # Row SK SS SK and column SK SS SK: 3 points either way.
    assert points(CROSS, "SS@1,1:row") == points(CROSS, "SS@1,1:col") == 3
    result = explain(CROSS, "SS@1,1")
    assert result["legal"] and result["points"] == 3
    assert "both score 3 points" in result["steps"][0]["note"]
    assert lines(CROSS, "SS@1,1") == [("span", 3)]
    # Nothing to dominate on either side: 0 and 0, the same.
    assert points("TH", "SS@1,0") == 0


def test_where_the_line_matters_the_error_gives_both_choices_with_points() -> None:
    result = explain(GAPS, "SS@1,0")
    assert not result["legal"] and result["rule"] == "line-choice"
    assert "choose SS@1,0:row (5 points) or SS@1,0:col (0 points)" in result["error"]
    # A boost changes the Sea Serpent's value, and the error writes the boost too.
    boosted = explain("TH", "FR+ FR+ SS@1,0")
    assert "choose FR+ FR+ SS@1,0:row (2 points) or FR+ FR+ SS@1,0:col (0 points)" in boosted["error"]
    assert points("TH", "SS@1,0") == 0  # unboosted, 6 < 7: 0 either way
    state = make_state(GAPS, ("SS VA", "VA"))
    assert_illegal(state, 0, "SS@1,0", "line-choice")


def test_with_auto_best_line_the_plain_form_is_the_only_one() -> None:
    assert points(GAPS, "SS@1,0", auto_best_line=True) == 5
    assert rule(GAPS, "SS@1,0:row", auto_best_line=True) == "line-choice"
    assert "note" not in explain(GAPS, "SS@1,0", auto_best_line=True)["steps"][0]
