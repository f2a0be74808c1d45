"""Dragon (cover) and Skadi (swap)."""

from __future__ import annotations

from meadhall.games.voluspa.tiles import FR, TH
from tests.voluspa.helpers import (
    assert_illegal,
    at,
    board_text,
    counts,
    event_kinds,
    hand,
    lines,
    make_state,
    normalized,
    play,
    play_turn,
    points,
    rule,
    scored_points,
)

# Dragon --------------------------------------------------------------------------------


def test_dragon_placed_normally() -> None:
    assert lines("SK", "DR@1,0") == [("row", 2)]


def test_dragon_covers_a_tile_and_scores_from_its_cell() -> None:
    # Dragon on the Odin: row DR SK VA, the Dragon (5) is the highest.
    assert lines("OD SK VA", "DR@0,0") == [("row", 3)]
    state = make_state("OD SK VA", ("DR", "VA"), pile="LO")
    events = play(state, 0, "DR@0,0")
    assert scored_points(events) == [3]
    assert board_text(state) == normalized("DR SK VA")
    assert counts(state.discards) == {"OD": 1}  # the covered tile leaves the game
    assert state.box == [0] * len(state.box)


def test_dragon_may_not_cover_a_dragon_or_a_hel() -> None:
    assert rule("DR SK", "DR@0,0") == "cover-target"
    assert rule("HE SK", "DR@0,0") == "hel-target"


def test_dragon_may_cover_raven_lightning_bolt_and_troll() -> None:
    assert lines("RA SK", "DR@0,0") == [("row", 2)]
    assert lines("LB SK", "DR@0,0") == [("row", 2)]
    assert lines("TR SK", "DR@0,0") == [("row", 2)]


def test_dragon_may_not_cover_a_tile_next_to_a_troll() -> None:
    assert rule("SK OD TR", "DR@1,0") == "troll"


def test_covered_tile_power_is_nullified() -> None:
    # The Loki at 1,0 made the Skadi worth 0; under a Dragon it no longer does.
    board = """
    origin 0,0
    SK LO
    """
    assert lines(board, "DR@1,0") == [("row", 2)]
    state = make_state(board, ("DR", "VA"), pile="OD")
    play(state, 0, "DR@1,0")
    # A Valkyrie next to the Skadi (now worth 3 again) does not win the column.
    assert lines(board_text(state), "VA@0,1") == [("column", 0)]


# Skadi ---------------------------------------------------------------------------------


def test_skadi_placed_normally() -> None:
    assert lines("VA", "SK@1,0") == [("row", 2)]


def test_skadi_swap_takes_the_tile_into_the_hand() -> None:
    state = make_state("TH VA", ("SK OD OD OD OD", "VA"), pile="LO LO")
    events = play(state, 0, "SK@0,0")
    assert scored_points(events) == [2]  # Skadi (3) over Valkyrie (2)
    assert board_text(state) == normalized("SK VA")
    assert hand(state, 0) == ["OD", "OD", "OD", "OD", "TH"]
    assert state.known[0][TH] == 1  # the taken tile is public knowledge
    assert counts(state.discards) == {}
    # no draw after a swap
    assert "drew" not in event_kinds(events)
    assert len(state.pile) == 2
    assert state.current == 1


def test_skadi_swap_with_a_short_hand_still_does_not_draw() -> None:
    state = make_state("TH VA", ("SK", "VA"), pile="LO LO LO")
    play(state, 0, "SK@0,0")
    assert hand(state, 0) == ["TH"]
    assert len(state.pile) == 3


def test_skadi_may_not_take_skadi_or_hel() -> None:
    assert rule("SK VA", "SK@0,0") == "skadi-target"
    assert rule("HE VA", "SK@0,0") == "hel-target"


def test_skadi_may_not_take_a_tile_next_to_a_troll() -> None:
    assert rule("VA OD TR", "SK@1,0") == "troll"


def test_skadi_may_take_a_troll() -> None:
    state = make_state("OD TR", ("SK", "VA"), pile="LO")
    events = play(state, 0, "SK@1,0")
    assert scored_points(events) == [0]  # Skadi 3 below Odin 8
    assert hand(state, 0) == ["TR"]
    assert board_text(state) == normalized("OD SK")


def test_skadi_scores_from_its_new_cell() -> None:
    board = """
    origin 0,0
    .  VA .
    VA TH VA
    .  VA .
    """
    # Skadi replaces the Thor: the row is bookended by Valkyries (0), the column too (0).
    assert lines(board, "SK@1,1") == [("row", 0), ("column", 0)]
    assert lines("VA TH LO", "SK@1,0") == [("row", 0)]  # next to Loki: 0
    assert lines("VA TH VA SK", "SK@1,0") == [("row", 0)]  # ties the other Skadi
    assert lines("VA TH VA", "SK@1,0") == [("row", 0)]


def test_skadi_on_the_lone_start_tile_scores_one() -> None:
    state = make_state("TH", ("SK", "VA"))
    assert scored_points(play(state, 0, "SK@0,0")) == [1]
    assert hand(state, 0) == ["TH"]


def test_skadi_taking_a_dragon_takes_only_the_dragon() -> None:
    state = make_state("TH VA", ("DR", "SK"), pile="LO LO")
    play(state, 0, "DR@0,0")
    assert counts(state.discards) == {"TH": 1}
    play(state, 1, "SK@0,0")
    assert hand(state, 1) == ["DR"]
    assert counts(state.discards) == {"TH": 1}  # the covered Thor stays out of the game
    assert board_text(state) == normalized("SK VA")


def test_skadi_taking_a_raven_takes_only_the_raven() -> None:
    state = make_state("TH VA", ("RA", "SK"), pile="LO LO")
    play(state, 0, "RA@0,0")
    play(state, 0, "end")
    assert counts(state.discards) == {"TH": 1}
    play(state, 1, "SK@0,0")
    assert hand(state, 1) == ["RA"]
    assert counts(state.discards) == {"TH": 1}


def test_skadi_taking_a_boosted_tile_brings_back_freyas_and_discards_down() -> None:
    state = make_state("TH+2 VA", ("SK OD OD OD HE", "VA"), pile="LO LO")
    state.discards[FR] = 2
    supply_9 = state.supply[9]
    events = play(state, 0, "SK@0,0")
    assert scored_points(events) == [2]
    assert hand(state, 0) == ["FR", "FR", "HE", "OD", "OD", "OD", "TH"]
    assert state.supply[9] == supply_9 + 1  # the Thor's token returns to the supply
    assert state.discards[FR] == 0
    assert board_text(state) == normalized("SK VA")
    # six tiles (the Hel does not count): discard down to five, then the turn ends
    assert state.stage == 3
    assert state.current == 0
    assert_illegal(state, 0, "end", "discard-down")
    assert_illegal(state, 0, "OD@2,0", "discard-down")
    assert_illegal(state, 0, "discard:HE", "discard-down")
    events = play(state, 0, "discard:OD")
    assert counts(state.discards) == {"OD": 1}  # to the discard pile, not out of the game
    assert counts(state.box) == {}
    assert hand(state, 0) == ["FR", "FR", "HE", "OD", "OD", "TH"]
    assert state.current == 1
    assert len(state.pile) == 2  # no draw after the swap
    assert "drew" not in event_kinds(events)


def test_skadi_discard_down_may_take_several_discards() -> None:
    state = make_state("TH+2 VA", ("SK OD OD OD OD", "VA"), pile="LO")
    state.discards[FR] = 2
    play(state, 0, "SK@0,0")
    assert state.hand_size(0) == 7
    play(state, 0, "discard:FR")
    assert state.stage == 3 and state.current == 0
    play(state, 0, "discard:TH")
    assert state.current == 1
    assert hand(state, 0) == ["FR", "OD", "OD", "OD", "OD"]
    assert counts(state.discards) == {"FR": 1, "TH": 1}


def test_skadi_takes_back_only_the_freyas_in_the_discard_pile() -> None:
    state = make_state("TH+2 VA", ("SK", "VA"), pile="LO")
    state.discards[FR] = 1
    play(state, 0, "SK@0,0")
    assert hand(state, 0) == ["FR", "TH"]
    assert state.discards[FR] == 0


def test_skadi_boost_flow_through_play() -> None:
    # Seat 0 boosts a Thor twice; seat 1 takes it with Skadi and gets both Freyas back.
    state = make_state("VA", ("FR FR TH OD OD", "SK LO LO LO LO"), pile="VA VA VA VA VA")
    play(state, 0, "FR+ FR+ TH@1,0")
    assert at(state, 1, 0) is not None
    assert counts(state.discards) == {"FR": 2}
    assert state.supply[9] == 1
    play(state, 1, "SK@1,0")
    assert hand(state, 1) == ["FR", "FR", "LO", "LO", "LO", "LO", "TH"]
    assert state.supply[9] == 2
    play_turn(state, 1, "discard:LO discard:LO")
    assert state.current == 0
    assert counts(state.discards) == {"LO": 2}


def test_skadi_taking_an_unboosted_tile_brings_no_freya() -> None:
    state = make_state("TH VA", ("SK", "VA"))
    state.discards[FR] = 3
    play(state, 0, "SK@0,0")
    assert hand(state, 0) == ["TH"]
    assert state.discards[FR] == 3


def test_skadi_swap_points_are_scored() -> None:
    assert points("VA TH OD", "SK@1,0") == 0  # Skadi below the Odin
    assert points("OD VA", "SK@0,0") == 2


def test_skadi_placed_normally_draws() -> None:
    state = make_state("VA", ("SK OD OD OD OD", "LO"), pile="FE FE")
    events = play(state, 0, "SK@1,0")
    assert event_kinds(events).count("drew") == 1
    assert hand(state, 0) == ["FE", "OD", "OD", "OD", "OD"]
