"""Lightning Bolt: on top of a tile, scores the shortest of its lines of two or more."""

from __future__ import annotations

from meadhall.games.voluspa import parse_action
from tests.voluspa.helpers import (
    assert_illegal,
    counts,
    explain,
    line_cells,
    lines,
    make_state,
    play,
    points,
    rule,
    scored_points,
)

CORNER = """
origin 0,0
SK SK SK SK
SK .  .  .
SK
"""

CROSS = """
origin 0,0
.  SK .
SK SK SK
.  SK .
"""

CROSS_NI = """
origin 0,0
.  NI .
SK SK SK
.  SK .
"""


def test_lightning_bolt_scores_the_shorter_line() -> None:
    # Row of 4, column of 3: the column.
    assert lines(CORNER, "LB@0,0") == [("column", 3)]
    assert line_cells(CORNER, "LB@0,0") == [[[0, 0], [0, 1], [0, 2]]]


def test_naming_a_line_without_a_tie_is_illegal() -> None:
    assert rule(CORNER, "LB@0,0:col") == "line-choice"
    assert rule(CORNER, "LB@0,0:row") == "line-choice"
    state = make_state(CORNER, ("LB", "VA"))
    assert_illegal(state, 0, "LB@0,0:col", "line-choice")


def test_lines_of_one_are_not_candidates() -> None:
    # Column of one: the row of three is the shortest line of two or more.
    assert lines("SK SK SK", "LB@1,0") == [("row", 3)]
    assert rule("SK SK SK", "LB@1,0:row") == "line-choice"


def test_lightning_bolt_scores_whatever_the_values() -> None:
    assert points("OD SK", "LB@1,0") == 2
    assert points("OD TH NI", "LB@0,0") == 5  # the Niohoggr in the line still adds 2


def test_lightning_bolt_ignores_valkyrie_bookends() -> None:
    assert points("VA SK VA", "LB@1,0") == 3


def test_tied_lines_that_score_the_same_need_not_be_named() -> None:
    # Both lines are 3 long and score 3: the choice makes no difference, so the plain form
    # is accepted, and explain says why no line was named.
    assert lines(CROSS, "LB@1,1:row") == [("row", 3)]
    assert lines(CROSS, "LB@1,1:col") == [("column", 3)]
    result = explain(CROSS, "LB@1,1")
    assert result["legal"] and result["points"] == 3
    (step,) = result["steps"]
    assert step["step"] == "LB@1,1"
    assert step["note"].startswith("no line named: the row and the column both score 3 points")
    assert "note" not in explain(CROSS, "LB@1,1:col")["steps"][0]


def test_tie_choice_matters_with_niohoggr() -> None:
    assert points(CROSS_NI, "LB@1,1:col") == 5
    assert points(CROSS_NI, "LB@1,1:row") == 3
    # Where it matters, the plain form is refused with both choices and their points.
    result = explain(CROSS_NI, "LB@1,1")
    assert not result["legal"] and result["rule"] == "line-choice"
    assert "choose LB@1,1:row (3 points) or LB@1,1:col (5 points)" in result["error"]


def test_the_plain_form_in_a_game() -> None:
    state = make_state(CROSS, ("LB VA", "VA"))
    assert {"LB@1,1:row", "LB@1,1:col", "LB@1,1"} <= {str(a) for a in state.legal_actions(0)}
    events = state.apply(0, parse_action("LB@1,1"))
    assert scored_points(events) == [3]
    placed = next(e for e in events if e.kind == "placed")
    assert placed.data["step"] == "LB@1,1" and placed.data["line"] == "row" and placed.data["either_line"]
    assert state.history()[-1] == (0, parse_action("LB@1,1"))
    niohoggr = make_state(CROSS_NI, ("LB VA", "VA"))
    assert_illegal(niohoggr, 0, "LB@1,1", "line-choice")  # and so it is not listed


def test_auto_best_line_picks_the_better_of_tied_lines() -> None:
    assert points(CROSS_NI, "LB@1,1", auto_best_line=True) == 5
    assert rule(CROSS_NI, "LB@1,1:col", auto_best_line=True) == "line-choice"
    # Equal points: the row.
    result = explain(CROSS, "LB@1,1", auto_best_line=True)
    assert result["points"] == 3
    assert result["steps"][0]["lines"][0]["kind"] == "row"


def test_auto_best_line_without_a_tie_scores_the_shortest() -> None:
    assert lines(CORNER, "LB@0,0", auto_best_line=True) == [("column", 3)]
    assert rule(CORNER, "LB@0,0:row", auto_best_line=True) == "line-choice"


def test_lone_lightning_bolt_scores_one() -> None:
    assert lines("TH", "LB@0,0") == [("single", 1)]
    assert lines("HE TH", "LB@1,0") == [("single", 1)]


def test_lightning_bolt_on_a_niohoggr_scores_two_more() -> None:
    assert points("SK NI", "LB@1,0") == 4
    assert points("NI", "LB@0,0") == 3  # lone start tile: 1 + 2
    assert points("NI NI SK", "LB@1,0") == 3 + 2 + 2  # one Niohoggr covered, one in the line


def test_lightning_bolt_only_on_top_of_a_tile() -> None:
    assert rule("SK", "LB@1,0") == "lightning-on-top"


def test_lightning_bolt_not_on_a_lightning_bolt_or_hel() -> None:
    assert rule("LB SK", "LB@0,0") == "cover-target"
    assert rule("HE SK", "LB@0,0") == "hel-target"


def test_lightning_bolt_not_next_to_a_troll_but_on_one() -> None:
    assert rule("SK OD TR", "LB@1,0") == "troll"
    assert points("SK TR", "LB@1,0") == 2


def test_lightning_bolt_may_cover_raven_and_dragon() -> None:
    assert points("RA SK", "LB@0,0") == 2
    assert points("DR SK", "LB@0,0") == 2


def test_covered_tile_is_discarded() -> None:
    state = make_state("OD SK", ("LB", "VA"))
    events = play(state, 0, "LB@0,0")
    assert scored_points(events) == [2]
    assert counts(state.discards) == {"OD": 1}


def test_lightning_bolt_is_worth_zero_on_the_board() -> None:
    assert lines("LB", "VA@1,0") == [("row", 2)]
