from __future__ import annotations

import pytest

from meadhall.core.errors import MalformedAction
from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.games.voluspa import (
    END,
    VOLUSPA,
    Bump,
    Discard,
    Place,
    format_board,
    format_turn,
    parse_action,
    parse_board,
    parse_turn,
)
from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.tiles import FE, LB, OD, SK, SS, TH, VA

EXAMPLE = """origin -1,0
.  TH .
OD FE SK+1
.  VA ."""


def test_example_board_reads_and_writes_back_exactly() -> None:
    board = parse_board(EXAMPLE)
    assert board == {
        cell_of(0, 0): piece_of(TH),
        cell_of(-1, 1): piece_of(OD),
        cell_of(0, 1): piece_of(FE),
        cell_of(1, 1): piece_of(SK, 1),
        cell_of(0, 2): piece_of(VA),
    }
    assert format_board(board) == EXAMPLE
    assert parse_board("origin -1,0/. TH ./OD FE SK+1/. VA .") == board
    assert format_board(board, one_line=True) == "origin -1,0/. TH ./OD FE SK+1/. VA ."


def test_board_comments_commas_and_default_origin() -> None:
    board = parse_board("# a comment\nTH,OD\n\n.,VA\n")
    assert board == {cell_of(0, 0): piece_of(TH), cell_of(1, 0): piece_of(OD), cell_of(1, 1): piece_of(VA)}
    assert parse_board("TH OD") == parse_board("TH OD . .")  # trailing empty cells may be left out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XX", "unknown tile 'XX'"),
        ("TH+x", "cannot read cell"),
        ("HE+1", "Hel cannot carry a booster"),
        ("TH\norigin 1,1", "must come once, before the rows"),
        ("origin a,b", "write 'origin X,Y'"),
    ],
)
def test_unreadable_boards(text: str, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        parse_board(text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("TH@2,-1", Place(TH, 2, -1)),
        ("JO@1,0>E", Bump(1, 0, "E")),
        ("SS@3,0:row", Place(SS, 3, 0, 0, "row")),
        ("LB@1,1:col", Place(LB, 1, 1, 0, "col")),
        ("SS@3,0", Place(SS, 3, 0)),  # the plain form, where both lines score the same
        ("FR+ LB@1,1", Place(LB, 1, 1, 1)),
        ("FR+ FR+ TH@4,0", Place(TH, 4, 0, 2)),
        ("FR+ JO@0,0>N", Bump(0, 0, "N", 1)),
        ("end", END),
        ("discard:TH", Discard(TH)),
    ],
)
def test_actions_round_trip(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(action) == text


def test_lenient_reading_canonical_writing() -> None:
    assert str(parse_action("th@2,-1")) == "TH@2,-1"
    assert str(parse_action("SS@3,0:column")) == "SS@3,0:col"
    assert str(parse_action("jo@+1,0>e")) == "JO@1,0>E"
    assert parse_action("  END ") == END


def test_turns() -> None:
    steps = parse_turn("HM@0,1 OD@0,2")
    assert [str(s) for s in steps] == ["HM@0,1", "OD@0,2"]
    assert parse_turn("RA@2,0 RA@-1,3") == [Place(14, 2, 0), Place(14, -1, 3)]
    boosted = parse_turn("FR+ FR+ TH@4,0")
    assert boosted == [Place(TH, 4, 0, 2)]
    assert format_turn(boosted) == "FR+ FR+ TH@4,0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("TH", "cannot read 'TH'"),
        ("ZZ@1,1", "unknown tile 'ZZ'"),
        ("TH@1,1>E", "only a Jotunn bumps"),
        ("TH@1,1:row", "only a Sea Serpent or a Lightning Bolt"),
        ("FR+", "FR\\+ must be followed"),
        ("FR+ end", "not 'end'"),
        ("TH@1,0 OD@2,0", "more than one step"),
        ("TH@9999,0", "too far"),
        ("discard:QQ", "unknown tile"),
    ],
)
def test_malformed_actions(text: str, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        parse_action(text)


def test_malformed_turn_trailing_boost() -> None:
    with pytest.raises(MalformedAction, match="FR\\+ must be followed"):
        parse_turn("TH@1,0 FR+")


def test_a_game_with_plain_line_forms_replays_from_its_record() -> None:
    # Wherever a listed SS@x,y:row / LB@x,y:row scores what its :col twin scores, this game
    # plays the plain form instead. The record keeps each action as written, round-trips
    # through its notation and JSON, and replays to the same state.
    state = VOLUSPA.new_game(players=2, seed=0, options={"preset": "all+lightning"})
    rng = Rng(0)
    plain: list[str] = []
    while not state.is_terminal():
        seat = state.current
        legal = state.legal_actions(seat)
        chosen = legal[rng.below(len(legal))]
        for action in legal:
            if isinstance(action, Place) and action.line == "row":
                row, col = state.line_choice_points(action.tile, cell_of(action.x, action.y), action.boost)
                if row == col:
                    chosen = action._replace(line=None)
                    plain.append(str(chosen))
                    break
        assert VOLUSPA.parse_action(str(chosen)) == chosen
        state.apply(seat, chosen)
    assert plain
    record = GameRecord.from_state(state, ["A", "B"])
    again = GameRecord.from_json(record.to_json(result=state))
    assert set(plain) <= {text for _, text in again.actions}
    assert again.replay().fingerprint() == state.fingerprint()
