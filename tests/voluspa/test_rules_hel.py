"""Hel: on top of a tile, a gap in lines, 1 point per tile around it, dealt outside the hand."""

from __future__ import annotations

import pytest

from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa.tiles import HE
from tests.voluspa.helpers import (
    assert_illegal,
    board_text,
    counts,
    event_kinds,
    hand,
    lines,
    make_state,
    normalized,
    play,
    points,
    rule,
    scored_points,
)

FULL = """
origin 0,0
SK VA SK
VA TH VA
SK VA SK
"""


def test_hel_scores_one_per_tile_in_the_eight_cells_around() -> None:
    assert lines(FULL, "HE@1,1") == [("neighbours", 8)]
    assert points(FULL, "HE@0,0") == 3
    assert points(FULL, "HE@1,0") == 5


def test_hel_counts_diagonals_and_ignores_empty_cells() -> None:
    board = """
    origin 0,0
    SK .  .
    .  TH .
    .  .  VA
    """
    assert points(board, "HE@1,1") == 2


def test_hel_does_not_count_hels_around_it() -> None:
    board = """
    origin 0,0
    HE VA HE
    .  TH .
    """
    assert points(board, "HE@1,1") == 1  # only the Valkyrie


def test_hel_on_a_niohoggr_scores_two_more() -> None:
    assert points("SK NI VA", "HE@1,0") == 4


def test_hel_is_a_gap_in_lines() -> None:
    state = make_state("SK SK TH SK", ("HE", "OD"), pile="VA")
    play(state, 0, "HE@2,0")
    assert board_text(state) == normalized("SK SK HE SK")
    # Odin at 4,0 only scores the line right of the Hel: SK OD (2 points, not 5).
    assert lines(board_text(state), "OD@4,0") == [("row", 2)]
    assert lines(board_text(state), "OD@-1,0") == [("row", 3)]


def test_hel_must_go_on_top_of_a_tile_other_than_hel() -> None:
    assert rule("SK", "HE@1,0") == "hel-on-top"
    assert rule("HE SK", "HE@0,0") == "hel-target"


@pytest.mark.parametrize("move", ["DR@0,0", "RA@0,0", "LB@0,0", "SK@0,0"])
def test_nothing_goes_on_top_of_a_hel(move: str) -> None:
    assert rule("HE SK", move) == "hel-target"


def test_hel_may_go_next_to_or_on_a_troll() -> None:
    assert points("SK TR", "HE@0,0") == 1
    assert points("SK TR", "HE@1,0") == 1


def test_hel_on_the_lone_start_tile_scores_zero() -> None:
    assert lines("OD", "HE@0,0") == [("neighbours", 0)]


def test_hel_cannot_be_boosted() -> None:
    state = make_state("SK VA", ("HE FR", "VA"))
    assert_illegal(state, 0, "FR+ HE@0,0", "boost")


def test_hel_covering_a_tile_discards_it() -> None:
    state = make_state("SK OD VA", ("HE", "VA"))
    play(state, 0, "HE@1,0")
    assert counts(state.discards) == {"OD": 1}


# Dealing and the hand --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "boxed"), [(2, 2, 1), (3, 1, 2), (4, 1, 1), (5, 1, 0)])
def test_hels_dealt_one_each_or_two_in_a_two_player_game(players: int, each: int, boxed: int) -> None:
    state = VOLUSPA.new_game(players=players, seed=11, options={"preset": "saga"})
    for seat in range(players):
        assert state.hands[seat][HE] == each
        assert state.hand_size(seat) == 5
        assert sum(state.hands[seat]) == 5 + each
    assert state.box[HE] == boxed
    assert HE not in state.pile


def test_no_hels_without_the_saga_tiles() -> None:
    state = VOLUSPA.new_game(players=2, seed=3, options={"preset": "base"})
    assert all(seat_hand[HE] == 0 for seat_hand in state.hands)


def test_hel_does_not_count_toward_the_five_tiles() -> None:
    state = make_state("SK", ("OD TH DR VA LO HE HE", "VA"), pile="FE FE")
    events = play(state, 0, "OD@1,0")
    assert event_kinds(events).count("drew") == 1
    assert hand(state, 0) == ["DR", "FE", "HE", "HE", "LO", "TH", "VA"]
    assert state.hand_size(0) == 5


def test_no_draw_after_a_hel() -> None:
    state = make_state("SK OD", ("HE TH VA", "VA"), pile="FE FE FE")
    events = play(state, 0, "HE@1,0")
    assert scored_points(events) == [1]
    assert "drew" not in event_kinds(events)
    assert hand(state, 0) == ["TH", "VA"]
    assert len(state.pile) == 3
    assert state.current == 1


def test_a_player_with_only_hels_plays_them() -> None:
    state = make_state("SK OD", ("HE", ""), pile="")
    assert state.hand_size(0) == 0
    events = play(state, 0, "HE@0,0")
    assert scored_points(events) == [1]
    assert state.is_terminal()


# No late Hel -----------------------------------------------------------------------------


def test_no_late_hel_removes_hels_after_the_last_draw() -> None:
    state = make_state("SK", ("OD TH DR VA LO HE", "VA HE HE"), pile="FE", no_late_hel=True)
    events = play(state, 0, "OD@1,0")
    assert "hels-removed" in event_kinds(events)
    assert state.pile == []
    assert state.hands[0][HE] == 0
    assert state.hands[1][HE] == 0
    assert state.box[HE] == 3
    assert hand(state, 0) == ["DR", "FE", "LO", "TH", "VA"]


def test_no_late_hel_keeps_hels_while_tiles_remain() -> None:
    state = make_state("SK", ("OD TH DR VA LO HE", "VA HE"), pile="FE FE", no_late_hel=True)
    events = play(state, 0, "OD@1,0")
    assert "hels-removed" not in event_kinds(events)
    assert state.hands[0][HE] == 1 and state.hands[1][HE] == 1
    # the Hel may still be played while the pile holds tiles
    play(state, 1, "HE@0,0")


def test_without_the_option_hels_stay_after_the_last_draw() -> None:
    state = make_state("SK", ("OD TH DR VA LO HE", "VA HE"), pile="FE")
    events = play(state, 0, "OD@1,0")
    assert "hels-removed" not in event_kinds(events)
    assert state.hands[0][HE] == 1 and state.hands[1][HE] == 1
    assert state.pile == []
    play(state, 1, "HE@0,0")


def test_no_late_hel_leaves_a_hel_only_hand_empty_and_it_passes() -> None:
    state = make_state("SK", ("OD TH DR VA LO", "HE HE"), pile="FE", no_late_hel=True)
    events = play(state, 0, "OD@1,0")
    kinds_seen = event_kinds(events)
    assert kinds_seen.index("hels-removed") < kinds_seen.index("passed")
    assert state.current == 0
    assert sum(state.hands[1]) == 0
