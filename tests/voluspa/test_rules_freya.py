"""Freya: placed normally, or discarded to boost the next tile placed (finite token supply)."""

from __future__ import annotations

import pytest

from meadhall.games.voluspa import Place, parse_action, parse_turn
from meadhall.games.voluspa.tiles import FR, HM, TH
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


def test_fr_prefixes_belong_to_the_step_they_boost() -> None:
    assert parse_action("FR+ FR+ TH@4,0") == Place(TH, 4, 0, 2)
    assert str(parse_action("FR+ FR+ TH@4,0")) == "FR+ FR+ TH@4,0"
    assert parse_turn("HM@0,1 FR+ TH@0,2") == [Place(HM, 0, 1), Place(TH, 0, 2, 1)]


def test_freya_placed_normally_is_worth_three() -> None:
    assert lines("VA", "FR@1,0") == [("row", 2)]
    assert lines("SK", "FR@1,0") == [("row", 0)]


def test_boost_adds_one_per_freya() -> None:
    assert lines("OD", "FR+ TH@1,0") == [("row", 0)]  # 8 only ties the Odin
    assert lines("OD", "FR+ FR+ TH@1,0") == [("row", 2)]  # 9 wins


def test_boost_puts_a_token_from_the_supply_and_discards_the_freyas() -> None:
    state = make_state("OD", ("FR FR TH VA VA", "LO"), pile="SK SK SK")
    assert state.supply[9] == 2
    events = play(state, 0, "FR+ FR+ TH@1,0")
    assert scored_points(events) == [2]
    assert board_text(state) == normalized("OD TH+2")
    assert state.supply[9] == 1
    assert counts(state.discards) == {"FR": 2}
    # the Freyas count as played: the hand refills to five
    assert event_kinds(events).count("drew") == 3
    assert hand(state, 0) == ["SK", "SK", "SK", "VA", "VA"]


def test_three_freyas() -> None:
    state = make_state("OD", ("FR FR FR TH", "LO"))
    play(state, 0, "FR+ FR+ FR+ TH@1,0")
    assert board_text(state) == normalized("OD TH+3")
    assert state.supply[10] == 0


def test_freya_may_boost_a_freya() -> None:
    state = make_state("SK", ("FR FR", "LO"))
    events = play(state, 0, "FR+ FR@1,0")
    assert scored_points(events) == [2]  # 4 beats the Skadi
    assert board_text(state) == normalized("SK FR+1")
    assert counts(state.discards) == {"FR": 1}


def test_a_boost_needs_as_many_other_freyas() -> None:
    state = make_state("SK", ("FR TH", "LO"))
    assert_illegal(state, 0, "FR+ FR+ TH@1,0", "boost")
    assert_illegal(state, 0, "FR+ FR@1,0", "boost")  # the placed Freya cannot boost itself


def test_token_must_be_in_the_supply() -> None:
    # Both 9 tokens are on the board already.
    state = make_state("TH+2 OD+1", ("FR FR TH DR", "LO"))
    assert state.supply[9] == 0
    assert_illegal(state, 0, "FR+ FR+ TH@2,0", "booster-supply")
    play(state, 0, "FR+ DR@2,0")  # a 6 token is still there


@pytest.mark.parametrize(("code", "freyas", "value"), [("VA", 1, 3), ("SK", 1, 4), ("TH", 3, 10), ("OD", 4, 12)])
def test_single_tokens_run_out_after_one_use(code: str, freyas: int, value: int) -> None:
    tiles = f"{code} " + "FR " * freyas
    state = make_state("VA SK VA", (tiles, tiles), pile="LO LO LO LO LO LO LO LO LO LO")
    boost = "FR+ " * freyas
    assert state.supply[value] == 1
    play(state, 0, f"{boost}{code}@0,1")
    assert state.supply[value] == 0
    assert_illegal(state, 1, f"{boost}{code}@1,1", "booster-supply")


def test_no_token_above_twelve() -> None:
    state = make_state("SK", ("FR FR FR FR FR OD", "LO"))
    assert_illegal(state, 0, "FR+ FR+ FR+ FR+ FR+ OD@1,0", "booster-supply")
    play(state, 0, "FR+ FR+ FR+ FR+ OD@1,0")
    assert board_text(state) == normalized("SK OD+4")


def test_no_token_of_value_one() -> None:
    # A Lightning Bolt (0) boosted once would need a 1 token: there is none.
    assert rule("SK VA", "FR+ LB@0,0") == "booster-supply"
    assert points("SK VA", "FR+ FR+ LB@0,0") == 2


def test_hel_cannot_be_boosted() -> None:
    assert rule("SK VA", "FR+ HE@0,0") == "boost"


def test_boosted_tile_next_to_loki_is_zero() -> None:
    assert lines("LO", "FR+ FR+ TH@1,0") == [("row", 0)]
    assert lines("LO TH+2", "VA@2,0") == [("row", 3)]


def test_boosted_tile_keeps_its_value_for_later_placements() -> None:
    assert lines("TH+1", "OD@1,0") == [("row", 0)]  # 8 ties 8
    assert lines("TH+1 OD", "FR+ OD@2,0") == [("row", 3)]


def test_boosted_fenrir_raises_its_pack() -> None:
    assert points("FE FE", "FR+ OD@2,0") == 3  # 9 beats the pack of 8
    assert points("FE+1 FE", "FR+ OD@2,0") == 0  # 9 ties the pack of 9


@pytest.mark.parametrize("cover", ["DR@0,0", "RA@0,0", "LB@0,0", "HE@0,0"])
def test_covering_a_boosted_tile_returns_its_token(cover: str) -> None:
    state = make_state("TH+2 VA", (cover[:2], "LO"))
    assert state.supply[9] == 1
    play(state, 0, cover)
    assert state.supply[9] == 2
    assert counts(state.discards) == {"TH": 1}


def test_boosted_cover_tile_takes_a_token_and_returns_the_covered_one() -> None:
    state = make_state("TH+2 VA", ("DR FR FR", "LO"))
    play(state, 0, "FR+ FR+ DR@0,0")
    assert board_text(state) == normalized("DR+2 VA")
    assert state.supply[9] == 2  # TH+2 returned its 9
    assert state.supply[7] == 1  # DR+2 took a 7
    assert counts(state.discards) == {"FR": 2, "TH": 1}


def test_freya_boost_of_a_jotunn_bump() -> None:
    state = make_state("OD TH", ("JO FR FR FR FR", "LO"))
    events = play(state, 0, "FR+ FR+ FR+ FR+ JO@1,0>E")
    assert board_text(state) == normalized("OD JO+4 TH")
    assert scored_points(events) == [3]  # 9 beats the Odin
    assert state.hands[0][FR] == 0
