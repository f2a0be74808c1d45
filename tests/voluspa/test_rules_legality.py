"""legal_actions lists exactly the actions that check() accepts, in every stage of a turn.

Every candidate step around the board (each tile in hand, each cell, boosts, line choices,
bumps in four directions, ``end``, discards) is checked one by one and compared with
``legal_actions``: a rule that one of them forgets shows up here.

A Sea Serpent or a Lightning Bolt that chooses its line is listed with ``:row`` and
``:col``, and also without a line where both lines score the same (the plain form is
accepted there, and so listed); nowhere else.
"""

from __future__ import annotations

from meadhall import IllegalAction
from meadhall.games.voluspa import END, Bump, Discard, Place, VoluspaAction, VoluspaState
from meadhall.games.voluspa.board import cell_of, xy
from meadhall.games.voluspa.tiles import CODES, JO, LB, NUM_KINDS, RA, SS
from tests.voluspa.helpers import make_state, play

MAX_BOOST = 3


def candidates(state: VoluspaState, seat: int) -> list[VoluspaAction]:
    xs = [xy(cell)[0] for cell in state.board]
    ys = [xy(cell)[1] for cell in state.board]
    in_hand = [kind for kind in range(NUM_KINDS) if state.hands[seat][kind]]
    placed = [RA] if state.stage == 2 else in_hand
    actions: list[VoluspaAction] = [END, *(Discard(kind) for kind in range(NUM_KINDS))]
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            for boost in range(MAX_BOOST + 1):
                for kind in placed:
                    lines = (None, "row", "col") if kind in (SS, LB) else (None,)
                    actions.extend(Place(kind, x, y, boost, line) for line in lines)
                actions.extend(Bump(x, y, d, boost) for d in "NESW")
    return actions


def assert_consistent(state: VoluspaState) -> int:
    seat = state.current
    legal = state.legal_actions(seat)
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    accepted = set()
    for action in candidates(state, seat):
        try:
            state.check(seat, action)
        except IllegalAction:
            continue
        accepted.add(action)
    listed = set(legal)
    for action in legal:
        if isinstance(action, Place) and action.line == "row" and not state.config.auto_best_line:
            row, col = state.line_choice_points(action.tile, cell_of(action.x, action.y), action.boost)
            assert (action._replace(line=None) in listed) == (row == col), action
    missing = accepted - listed
    extra = listed - accepted
    assert not missing, f"accepted by check but not listed: {sorted(map(str, missing))[:10]}"
    assert not extra, f"listed but refused by check: {sorted(map(str, extra))[:10]}"
    return len(legal)


BOARD = """
origin -1,-1
.  VA .  .  LO .
SK TH+1 HE FE FE .
.  DR .  TR .  .
.  NI RA .  .  SK
.  .  VA SK SK SK
"""

HAND = "DR SK JO LB HE FR FR FR RA SS DW TR HM OD"


def test_play_stage() -> None:
    state = make_state(BOARD, (HAND, "LO"))
    assert assert_consistent(state) > 100


def test_play_stage_with_auto_best_line() -> None:
    state = make_state(BOARD, (HAND, "LO"), auto_best_line=True)
    assert assert_consistent(state) > 100


def test_hermod_stage() -> None:
    state = make_state(BOARD, (HAND, "LO"))
    play(state, 0, "HM@3,2")
    assert state.stage == 1
    assert assert_consistent(state) > 10


def test_hermod_stage_next_to_hel() -> None:
    state = make_state(BOARD, (HAND, "LO"))
    play(state, 0, "HM@1,-1")
    assert state.stage == 1
    assert assert_consistent(state) > 10


def test_raven_stage() -> None:
    state = make_state(BOARD, (HAND, "LO"))
    play(state, 0, "FR+ RA@0,1")  # on the Dragon, boosted
    assert state.stage == 2
    assert assert_consistent(state) > 10


def test_discard_down_stage() -> None:
    state = make_state("TH+2 VA", ("SK OD OD OD OD HE", "LO"))
    state.discards[CODES.index("FR")] = 2
    play(state, 0, "SK@0,0")
    assert state.stage == 3
    assert assert_consistent(state) == 3  # OD, TH, FR (never the Hel)


def test_no_play_stage() -> None:
    state = make_state("TR", ("TH OD", "LO"))
    assert assert_consistent(state) == 2


def test_jotunn_alone() -> None:
    state = make_state(BOARD, ("JO", "LO"))
    legal = state.legal_actions(0)
    assert any(isinstance(a, Bump) for a in legal)
    assert all(isinstance(a, Bump) or (isinstance(a, Place) and a.tile == JO) for a in legal)
    assert assert_consistent(state) == len(legal)
