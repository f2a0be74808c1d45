"""Hermod: a follow-up tile in Hermod's row or column line, chains, must-discard, refill."""

from __future__ import annotations

import pytest

from meadhall.games.voluspa import Discard
from meadhall.games.voluspa.tiles import FR, OD, TH
from tests.voluspa.helpers import (
    assert_illegal,
    at,
    board_text,
    counts,
    event_kinds,
    hand,
    make_state,
    normalized,
    play,
    rule,
    scored_points,
    step_points,
)


def test_hermod_then_a_tile_in_its_row() -> None:
    # Hermod (3) over the Valkyrie: 2; Thor then wins the row of three: 3.
    assert step_points("VA", "HM@1,0 TH@2,0") == [2, 3]


def test_follow_up_in_hermod_column() -> None:
    assert step_points("VA", "HM@1,0 TH@1,1") == [2, 2]
    assert step_points("VA", "HM@1,0 TH@1,-1") == [2, 2]


def test_follow_up_outside_hermod_lines_is_illegal() -> None:
    assert rule("VA", "HM@1,0 TH@0,1") == "hermod-line"
    assert rule("VA", "HM@1,0 TH@0,-1") == "hermod-line"


def test_follow_up_must_be_in_the_contiguous_line() -> None:
    board = "SK SK SK SK"
    # Hermod at 0,-1 has a row line of one tile: 2,-1 is in its row but not in its line.
    assert rule(board, "HM@0,-1 TH@2,-1") == "hermod-line"
    # 1,-1 joins the Hermod: row HM TH (2) and column TH SK (2).
    assert step_points(board, "HM@0,-1 TH@1,-1") == [0, 4]


def test_hels_break_hermod_lines() -> None:
    board = "SK HE SK SK"
    assert rule(board, "HM@-1,0 TH@4,0") == "hermod-line"
    assert step_points(board, "HM@-1,0 TH@-2,0") == [0, 3]


def test_follow_up_may_cover_or_swap_the_hermod_itself() -> None:
    assert step_points("VA", "HM@1,0 DR@1,0") == [2, 2]
    assert step_points("VA", "HM@1,0 LB@1,0") == [2, 2]
    assert step_points("VA", "HM@1,0 RA@1,0") == [2, 2]
    assert step_points("VA", "HM@1,0 SK@1,0") == [2, 2]


def test_follow_up_may_cover_a_tile_in_hermod_line() -> None:
    board = "VA SK . TH"
    # Hermod at 2,0 joins the row: VA SK HM TH. A Dragon then covers the Valkyrie.
    assert step_points(board, "HM@2,0 DR@0,0") == [0, 0]
    assert rule("VA SK . TH\nOD", "HM@2,0 DR@0,1") == "hermod-line"


def test_skadi_swapping_the_hermod_takes_it_back_and_does_not_draw() -> None:
    state = make_state("VA", ("HM SK OD OD OD", "LO"), pile="FE FE FE")
    play(state, 0, "HM@1,0")
    assert state.stage == 1
    events = play(state, 0, "SK@1,0")
    assert scored_points(events) == [2]
    assert hand(state, 0) == ["HM", "OD", "OD", "OD"]
    assert "drew" not in event_kinds(events)
    assert len(state.pile) == 3
    assert state.current == 1


def test_skadi_swap_after_hermod_brings_freyas_back_and_discards_down() -> None:
    state = make_state("VA TH+2", ("HM SK OD OD OD", "LO"), pile="FE FE FE")
    state.discards[FR] = 2
    play(state, 0, "HM@1,-1")  # above the boosted Thor
    play(state, 0, "SK@1,0")  # takes the Thor and both Freyas
    assert hand(state, 0) == ["FR", "FR", "OD", "OD", "OD", "TH"]
    assert state.stage == 3 and state.current == 0
    events = play(state, 0, "discard:FR")
    assert "drew" not in event_kinds(events)  # a swap in the chain: no draw
    assert state.current == 1
    assert len(state.pile) == 3
    assert counts(state.discards) == {"FR": 1}


def test_jotunn_follow_up_judges_the_jotunn_cell_after_the_bump() -> None:
    board = """
    origin 0,0
    SK .
    TH .
    """
    # Bumping the Thor east puts the Thor (not the Jotunn) in the Hermod's column.
    assert rule(board, "HM@1,0 JO@0,1>E") == "hermod-line"
    # Bumping the Skadi west leaves the Jotunn in the Hermod's row: SK JO HM (3).
    assert step_points(board, "HM@1,0 JO@0,0>W") == [0, 3]


def test_jotunn_follow_up_counts_the_bumped_tile_as_filling_a_gap() -> None:
    board = """
    origin 0,0
    .  .  TH
    SK SK SK
    """
    # The Thor slides west into 1,0: HM TH JO is one line, so the Jotunn follows the Hermod.
    assert step_points(board, "HM@0,0 JO@2,0>W") == [0, 2]
    assert rule(board, "HM@0,0 JO@2,0>E") == "hermod-line"


def test_jotunn_may_bump_the_hermod_just_played() -> None:
    assert step_points("VA", "HM@1,0 JO@1,0>E") == [2, 3]


HEL_BOARD = """
origin 0,0
.  SK SK SK .
SK SK .  SK SK
.  SK SK SK .
"""


def test_hel_follow_up_on_or_around_the_hermod() -> None:
    assert step_points(HEL_BOARD, "HM@2,1 HE@2,1") == [0, 8]
    assert step_points(HEL_BOARD, "HM@2,1 HE@1,0") == [0, 4]  # diagonal
    assert step_points(HEL_BOARD, "HM@2,1 HE@3,1") == [0, 6]


def test_hel_follow_up_further_away_is_illegal_even_in_hermod_line() -> None:
    assert rule(HEL_BOARD, "HM@2,1 HE@0,1") == "hermod-line"
    assert rule(HEL_BOARD, "HM@2,1 HE@4,1") == "hermod-line"


def test_hel_follow_up_does_not_stop_the_draw() -> None:
    state = make_state("VA", ("HM HE TH VA LO", "LO"), pile="FE FE FE")
    play(state, 0, "HM@1,0")
    events = play(state, 0, "HE@0,0")
    assert event_kinds(events).count("drew") == 2
    assert hand(state, 0) == ["FE", "FE", "LO", "TH", "VA"]


def test_raven_follow_up_only_its_first_placement_is_constrained() -> None:
    # Raven at 2,0 follows the Hermod (row VA HM RA: 3); its second placement is free.
    assert step_points("VA", "HM@1,0 RA@2,0 RA@0,1") == [2, 3, 2]
    assert rule("VA", "HM@1,0 RA@0,1") == "hermod-line"


def test_hermod_chain() -> None:
    # The second Hermod (below the first) opens its own row: the Thor at 0,1 follows it.
    assert step_points("VA", "HM@1,0 HM@1,1 TH@0,1") == [2, 0, 4]
    assert rule("VA", "HM@1,0 TH@0,1") == "hermod-line"


def test_freya_may_boost_the_follow_up() -> None:
    state = make_state("VA", ("HM FR TH", "LO"), pile="SK SK SK SK")
    play(state, 0, "HM@1,0")
    events = play(state, 0, "FR+ TH@2,0")
    assert scored_points(events) == [3]
    assert board_text(state) == normalized("VA HM TH+1")
    assert counts(state.discards) == {"FR": 1}


def test_end_declines_the_follow_up_and_refills() -> None:
    state = make_state("VA", ("HM TH OD OD OD", "LO"), pile="FE FE FE")
    play(state, 0, "HM@1,0")
    assert state.stage == 1 and state.current == 0
    events = play(state, 0, "end")
    assert "ended" in event_kinds(events)
    assert event_kinds(events).count("drew") == 1
    assert state.current == 1


def test_refill_after_the_whole_chain() -> None:
    state = make_state("VA", ("HM TH OD OD OD", "LO"), pile="FE FE FE")
    play(state, 0, "HM@1,0")
    assert len(state.pile) == 3  # no draw between the steps
    events = play(state, 0, "TH@2,0")
    assert event_kinds(events).count("drew") == 2
    assert hand(state, 0) == ["FE", "FE", "OD", "OD", "OD"]


def test_hermod_with_an_empty_hand_ends_the_turn() -> None:
    state = make_state("VA", ("HM", "LO"), pile="FE")
    play(state, 0, "HM@1,0")
    assert state.current == 1
    assert state.stage == 0
    assert hand(state, 0) == ["FE"]


# Must discard ----------------------------------------------------------------------------

BLOCKED = """
origin -2,-2
.  .  TR .  .
.  .  .  .  .
TR .  .  SK TR
.  .  .  .  .
.  .  TR .  .
"""


def test_must_discard_when_nothing_can_follow_the_hermod() -> None:
    state = make_state(BLOCKED, ("HM TH OD", "LO"), pile="VA VA VA VA")
    play(state, 0, "HM@0,0")
    assert state.stage == 1
    assert_illegal(state, 0, "end", "must-discard")
    assert_illegal(state, 0, "TH@0,1", "troll")
    assert_illegal(state, 0, "TH@3,0", "troll")
    assert sorted(state.legal_actions(0)) == sorted([Discard(TH), Discard(OD)])
    events = play(state, 0, "discard:TH")
    assert counts(state.box) == {"TH": 1}  # out of the game, not the discard pile
    assert counts(state.discards) == {}
    assert scored_points(events) == []
    assert event_kinds(events).count("drew") == 4
    assert state.current == 1


def test_no_discard_while_a_follow_up_exists() -> None:
    state = make_state(BLOCKED, ("HM DW TH", "LO"), pile="VA VA VA")
    play(state, 0, "HM@0,0")
    assert_illegal(state, 0, "discard:TH", "must-play")
    play(state, 0, "DW@0,1")  # a Dwarf may go next to the Troll


@pytest.mark.parametrize("follow", ["LB@0,0", "DR@0,0", "HE@0,0"])
def test_covers_of_the_hermod_are_follow_ups_too(follow: str) -> None:
    code = follow[:2]
    state = make_state(BLOCKED, (f"HM {code}", "LO"), pile="VA")
    play(state, 0, "HM@0,0")
    assert_illegal(state, 0, f"discard:{code}", "must-play")
    play(state, 0, follow)
    assert at(state, 0, 0) is not None
