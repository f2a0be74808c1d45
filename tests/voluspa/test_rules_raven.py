"""Raven: placed like a Dragon, then optionally lifted and placed once more; both score."""

from __future__ import annotations

from meadhall.games.voluspa import END, Place
from meadhall.games.voluspa.tiles import RA
from tests.voluspa.helpers import (
    assert_illegal,
    board_text,
    counts,
    event_kinds,
    make_state,
    normalized,
    play,
    rule,
    scored_points,
    step_points,
)


def test_raven_scores_both_placements() -> None:
    # First at 1,0: SK RA VA (3). Then lifted to 2,1 under the Valkyrie: VA RA (2).
    assert step_points("SK . VA", "RA@1,0 RA@2,1") == [3, 2]
    state = make_state("SK . VA", ("RA", "LO"), pile="FE")
    play(state, 0, "RA@1,0")
    assert state.stage == 2 and state.current == 0
    events = play(state, 0, "RA@2,1")
    assert "lifted" in event_kinds(events)
    assert board_text(state) == normalized("SK . VA\n. . RA")  # the first cell stays empty
    assert state.current == 1


def test_second_placement_must_be_on_a_different_cell() -> None:
    assert rule("SK", "RA@1,0 RA@1,0") == "raven-cell"
    state = make_state("SK", ("RA", "LO"))
    play(state, 0, "RA@1,0")
    assert_illegal(state, 0, "RA@1,0", "raven-cell")


def test_second_placement_is_judged_without_the_raven() -> None:
    # 2,0 only touches the Raven's first cell, which is empty once the Raven is lifted.
    assert rule("SK", "RA@1,0 RA@2,0") == "touch"
    board = """
    origin 0,0
    SK SK .
    .  .  VA
    """
    # First: row SK SK RA (3) + column RA VA (2). Second at 2,2: column VA RA only (2),
    # the Raven is no longer at 2,0.
    assert step_points(board, "RA@2,0 RA@2,2") == [5, 2]


def test_line_length_is_judged_without_the_raven() -> None:
    six = "SK SK SK SK SK SK"
    # The Raven makes the row seven; lifted, it can go to the other end (seven again).
    assert step_points(six, "RA@6,0 RA@-1,0") == [7, 7]


def test_second_placement_is_optional() -> None:
    state = make_state("SK", ("RA OD", "LO"), pile="FE FE")
    play(state, 0, "RA@1,0")
    assert END in state.legal_actions(0)
    events = play(state, 0, "end")
    assert event_kinds(events).count("drew") == 2
    assert board_text(state) == normalized("SK RA")
    assert state.current == 1


def test_only_the_raven_moves_in_the_raven_stage() -> None:
    state = make_state("SK", ("RA OD", "LO"))
    play(state, 0, "RA@1,0")
    assert_illegal(state, 0, "OD@2,0", "stage")
    assert_illegal(state, 0, "discard:OD", "stage")
    assert all((isinstance(a, Place) and a.tile == RA) or a == END for a in state.legal_actions(0))


def test_raven_covers_like_a_dragon() -> None:
    assert step_points("DR SK", "RA@0,0") == [2]  # on a Dragon: RA (4) over SK (3)
    assert rule("RA SK", "RA@0,0") == "cover-target"
    assert rule("HE SK", "RA@0,0") == "hel-target"
    assert rule("SK OD TR", "RA@1,0") == "troll"


def test_raven_first_cover_discards_the_tile_and_it_does_not_come_back() -> None:
    state = make_state("SK OD VA", ("RA", "LO"))
    events = play(state, 0, "RA@1,0")
    assert scored_points(events) == [3]  # SK RA VA
    assert counts(state.discards) == {"OD": 1}
    events = play(state, 0, "RA@0,1")
    assert scored_points(events) == [2]  # SK over RA
    assert board_text(state) == normalized("SK . VA\nRA . .")
    assert counts(state.discards) == {"OD": 1}


def test_second_placement_may_cover_a_tile() -> None:
    # First at 4,0 (VA RA: 2), then on the Skadi at 1,0: VA RA (2), the Skadi is discarded.
    assert step_points("VA SK . VA", "RA@4,0 RA@1,0") == [2, 2]
    state = make_state("VA SK . VA", ("RA", "LO"))
    play(state, 0, "RA@4,0")
    play(state, 0, "RA@1,0")
    assert board_text(state) == normalized("VA RA . VA")
    assert counts(state.discards) == {"SK": 1}


def test_boost_holds_for_both_placements() -> None:
    board = "DR . . DR"
    # Raven boosted to 6 beats each Dragon (5); unboosted it would lose.
    assert step_points(board, "FR+ FR+ RA@1,0 RA@2,0") == [2, 2]
    assert step_points(board, "RA@1,0 RA@2,0") == [0, 0]
    state = make_state(board, ("RA FR FR", "LO"))
    play(state, 0, "FR+ FR+ RA@1,0")
    assert state.supply[6] == 1
    assert_illegal(state, 0, "FR+ RA@2,0", "boost")
    play(state, 0, "RA@2,0")
    assert board_text(state) == normalized("DR . RA+2 DR")
    assert state.supply[6] == 1  # the token stays with the Raven


def test_raven_second_placement_scores_a_covered_niohoggr() -> None:
    # Second placement on the Niohoggr under the Valkyrie: VA RA (2) + 2.
    assert step_points("SK . VA\n. . NI", "RA@1,0 RA@2,1") == [3, 2 + 2]


def test_raven_on_the_lone_start_tile_has_nowhere_to_go_next() -> None:
    state = make_state("TH", ("RA", "LO"))
    assert scored_points(play(state, 0, "RA@0,0")) == [1]
    assert state.legal_actions(0) == [END]
    assert_illegal(state, 0, "RA@1,0", "touch")
