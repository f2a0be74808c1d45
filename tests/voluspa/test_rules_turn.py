"""Turn flow: one play, refill, discards, passes, end of game, ranking, errors."""

from __future__ import annotations

import pytest

from meadhall import IllegalAction, MalformedAction
from meadhall.games.voluspa import END, Bump, Discard, Place, parse_action, parse_board, parse_turn
from meadhall.games.voluspa.explain import explain_turn
from meadhall.games.voluspa.tiles import HM, OD, SS, TH
from tests.voluspa.helpers import (
    assert_illegal,
    counts,
    event_kinds,
    hand,
    make_state,
    play,
    scored_points,
)

# Refill --------------------------------------------------------------------------------


def test_refill_to_five_from_the_pile() -> None:
    state = make_state("VA", ("OD TH SK LO LO", "VA"), pile="FE DR RA")
    events = play(state, 0, "OD@1,0")
    drew = [e for e in events if e.kind == "drew"]
    assert [e.data["tile"] for e in drew] == ["FE"]
    assert all(e.audience == frozenset({0}) for e in drew)  # private to the drawer
    refilled = [e for e in events if e.kind == "refilled"]
    assert len(refilled) == 1 and refilled[0].audience is None
    assert refilled[0].data["count"] == 1 and refilled[0].data["pile"] == 2
    assert hand(state, 0) == ["FE", "LO", "LO", "SK", "TH"]
    assert state.hand_size(0) == 5


def test_refill_takes_what_is_left_of_the_pile() -> None:
    state = make_state("VA", ("OD TH", "VA"), pile="FE")
    play(state, 0, "OD@1,0")
    assert hand(state, 0) == ["FE", "TH"]
    assert state.pile == []


def test_refill_tops_up_a_short_hand() -> None:
    state = make_state("VA", ("OD", "VA"), pile="FE DR RA SK LO LO")
    play(state, 0, "OD@1,0")
    assert hand(state, 0) == ["DR", "FE", "LO", "RA", "SK"]
    assert len(state.pile) == 1


# Discard when nothing can be played ------------------------------------------------------


def test_discard_only_when_no_tile_can_be_played() -> None:
    state = make_state("TR", ("TH OD", "VA"), pile="SK SK SK SK")
    assert sorted(state.legal_actions(0)) == sorted([Discard(TH), Discard(OD)])
    assert_illegal(state, 0, "TH@1,0", "troll")
    events = play(state, 0, "discard:TH")
    assert counts(state.box) == {"TH": 1}  # out of the game
    assert counts(state.discards) == {}
    assert scored_points(events) == []
    assert state.scores() == [0, 0]
    assert hand(state, 0) == ["OD", "SK", "SK", "SK", "SK"]
    assert state.current == 1


def test_no_discard_while_a_play_exists() -> None:
    state = make_state("TR", ("TH DW", "VA"))
    assert_illegal(state, 0, "discard:TH", "must-play")


def test_discard_of_a_tile_not_in_hand() -> None:
    state = make_state("TR", ("TH", "VA"))
    assert_illegal(state, 0, "discard:OD", "not-in-hand")


# Turn order, passes, end ---------------------------------------------------------------


def test_turn_passes_to_the_next_seat() -> None:
    state = make_state("VA", ("OD", "TH", "SK"), pile="LO LO LO")
    events = play(state, 0, "OD@1,0")
    assert state.current == 1
    turn = [e for e in events if e.kind == "turn"]
    assert turn[0].data["seat"] == 1
    assert state.turn_number == 2


def test_players_without_tiles_are_skipped() -> None:
    state = make_state("VA", ("OD", "", "TH"))
    events = play(state, 0, "OD@1,0")
    assert event_kinds(events)[-2:] == ["passed", "turn"]
    passed = [e for e in events if e.kind == "passed"]
    assert [e.data["seat"] for e in passed] == [1]
    assert state.current == 2


def test_a_player_with_tiles_left_plays_on_alone() -> None:
    state = make_state("VA", ("OD SK", ""))
    events = play(state, 0, "OD@1,0")
    assert "passed" in event_kinds(events)
    assert state.current == 0
    play(state, 0, "SK@0,1")
    assert state.is_terminal()


def test_game_ends_when_the_pile_and_every_hand_are_empty() -> None:
    state = make_state("VA", ("OD", "TH"))
    play(state, 0, "OD@1,0")
    assert not state.is_terminal()
    events = play(state, 1, "TH@0,1")
    assert state.is_terminal()
    over = [e for e in events if e.kind == "game-over"]
    assert len(over) == 1
    assert over[0].data["scores"] == [2, 2]
    assert over[0].data["places"] == [1, 2]
    assert state.to_move() == ()
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    with pytest.raises(IllegalAction) as info:
        state.apply(0, parse_action("TH@2,0"))
    assert info.value.rule == "game-over"


def test_game_does_not_end_while_a_hand_holds_a_hel() -> None:
    state = make_state("VA SK", ("OD", "HE"))
    play(state, 0, "OD@2,0")
    assert not state.is_terminal()
    assert state.current == 1
    play(state, 1, "HE@0,0")
    assert state.is_terminal()


# Ranking -------------------------------------------------------------------------------


def test_highest_score_wins() -> None:
    state = make_state("VA", ("SK", "OD"))
    play(state, 0, "SK@1,0")  # 2
    play(state, 1, "OD@2,0")  # 3
    assert state.scores() == [2, 3]
    assert state.ranking() == [2, 1]


def test_tie_goes_to_who_reached_the_score_first() -> None:
    state = make_state("VA", ("OD", "OD"))
    play(state, 0, "OD@1,0")
    play(state, 1, "OD@0,1")
    assert state.scores() == [2, 2]
    assert state.reached == [1, 2]
    assert state.ranking() == [1, 2]
    state = make_state("VA", ("OD", "OD"), current=1)
    play(state, 1, "OD@1,0")
    play(state, 0, "OD@0,1")
    assert state.ranking() == [2, 1]


def test_reached_is_the_last_scoring_step_not_the_last_step() -> None:
    state = make_state("VA", ("OD TH", "OD"))
    play(state, 0, "OD@1,0")  # ply 1: 2 points
    play(state, 1, "OD@0,1")  # ply 2: 2 points
    play(state, 0, "TH@2,0")  # ply 3: 0 points
    assert state.scores() == [2, 2]
    assert state.reached == [1, 2]
    assert state.ranking() == [1, 2]


def test_reached_counts_each_step_of_a_turn() -> None:
    # Seat 0 scores 2 with a Hermod (ply 1) then 0 (ply 2); seat 1 ties at ply 3.
    state = make_state("VA", ("HM SK", "TH"))
    play(state, 0, "HM@1,0")
    play(state, 0, "SK@1,1")
    play(state, 1, "TH@0,-1")
    assert state.scores() == [2, 2]
    assert state.reached == [1, 3]
    assert state.ranking() == [1, 2]


def test_equal_score_and_time_share_the_place() -> None:
    state = make_state("OD", ("VA", "VA", "VA"))
    for seat, move in enumerate(["VA@1,0", "VA@0,1", "VA@2,0"]):
        play(state, seat, move)
    assert state.scores() == [0, 0, 0]
    assert state.ranking() == [1, 1, 1]


def test_ranking_with_starting_scores() -> None:
    state = make_state("VA", ("SK", "OD"), scores=[10, 5])
    assert state.ranking() == [1, 2]
    play(state, 0, "SK@1,0")
    assert state.scores() == [12, 5]


# Errors ----------------------------------------------------------------------------------


def test_wrong_seat() -> None:
    state = make_state("VA", ("OD", "TH"))
    assert_illegal(state, 1, "TH@1,0", "turn")


def test_tile_not_in_hand() -> None:
    state = make_state("VA", ("OD", "TH"))
    assert_illegal(state, 0, "TH@1,0", "not-in-hand")


def test_end_without_a_follow_up() -> None:
    state = make_state("VA", ("OD", "TH"))
    assert_illegal(state, 0, "end", "stage")


@pytest.mark.parametrize(
    "text",
    [
        "XX@1,0",
        "TH@1",
        "TH@a,b",
        "FR+",
        "FR+ end",
        "FR+ discard:TH",
        "TH@1,0 OD@2,0",
        "",
        "TH@1,0>E",
        "OD@1,0:row",
        "JO@1,0:col",
        "discard:XX",
        "TH@1,0>Q",
        "TH@999,0",
    ],
)
def test_unreadable_actions_raise_malformed(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_action(text)


@pytest.mark.parametrize("text", ["XX", "HE+1", "TH+x", "origin a,b\nTH", "TH\norigin 0,0"])
def test_unreadable_boards_raise_malformed(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_board(text)


def test_explain_raises_malformed_on_unreadable_input() -> None:
    with pytest.raises(MalformedAction):
        explain_turn("TH", "TH@x,0")
    with pytest.raises(MalformedAction):
        explain_turn("QQ", "TH@1,0")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("TH@2,-1", Place(TH, 2, -1)),
        ("JO@1,0>E", Bump(1, 0, "E")),
        ("FR+ JO@1,0>s", Bump(1, 0, "S", 1)),
        ("SS@3,0:row", Place(SS, 3, 0, 0, "row")),
        ("SS@3,0:column", Place(SS, 3, 0, 0, "col")),
        ("FR+ FR+ OD@4,0", Place(OD, 4, 0, 2)),
        ("end", END),
        ("discard:TH", Discard(TH)),
    ],
)
def test_notation_of_a_step(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert parse_action(str(action)) == action


def test_a_turn_is_read_step_by_step() -> None:
    assert parse_turn("HM@0,1 FR+ FR+ JO@0,2>E end") == [
        Place(HM, 0, 1),
        Bump(0, 2, "E", 2),
        END,
    ]


def test_explain_rejects_steps_after_the_turn_is_over() -> None:
    result = explain_turn("VA", "OD@1,0 TH@2,0")
    assert result["legal"] is False
    assert result["rule"] == "turn-over"
    assert result["points"] == 0
    assert [step["step"] for step in result["steps"]] == ["OD@1,0", "TH@2,0"]
    assert result["steps"][0]["points"] == 2
    assert result["steps"][1]["error"]


def test_explain_accepts_end_after_a_hermod_or_raven() -> None:
    result = explain_turn("VA", "HM@1,0 end")
    assert result["legal"] is True
    assert result["points"] == 2
    assert [step["step"] for step in result["steps"]] == ["HM@1,0", "end"]
    assert explain_turn("SK", "RA@1,0 end")["points"] == 2
