"""Shared helpers for the Völuspá rule tests.

Two ways to judge a rule:

* :func:`explain` / :func:`points` / :func:`lines` judge one turn on a board diagram with
  ``explain_turn`` (the tiles are put in hand for the turn): best for scoring;
* :func:`make_state` builds a position with hands and a pile, and :func:`play` applies one
  action to it: best for turn flow (draws, stages, discards, hands, supply).

Boards are written in Völuspá notation (``voluspa-notation.md``): x grows east, y south.
Piles are written in the order the tiles are drawn (the first code is drawn first).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from meadhall import IllegalAction
from meadhall.core.game import Event
from meadhall.games.voluspa import VOLUSPA, VoluspaState, format_board, parse_action, parse_board, parse_turn
from meadhall.games.voluspa.board import cell_of
from meadhall.games.voluspa.explain import explain_turn
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, FACE

ALL_KINDS = list(CODES)


def kinds(codes: str) -> list[int]:
    """Kind indices of space-separated tile codes: ``kinds("OD TH")``."""
    return [CODE_INDEX[code] for code in codes.split()]


def make_state(
    board: str,
    hands: tuple[str, ...] = ("", ""),
    *,
    current: int = 0,
    pile: str = "",
    scores: list[int] | None = None,
    kinds_in_game: list[str] | None = None,
    no_late_hel: bool = False,
    auto_best_line: bool = False,
) -> VoluspaState:
    """A hand-built position; ``pile`` lists tiles in the order they will be drawn."""
    config = VOLUSPA.config(
        {
            "preset": "all",
            "kinds": kinds_in_game if kinds_in_game is not None else ALL_KINDS,
            "no-late-hel": no_late_hel,
            "auto-best-line": auto_best_line,
        },
        players=len(hands),
    )
    drawn_first = kinds(pile)
    return VoluspaState.from_position(
        config,
        parse_board(board),
        [kinds(hand) for hand in hands],
        current=current,
        pile=list(reversed(drawn_first)),
        scores=scores,
    )


def play(state: VoluspaState, seat: int, text: str) -> list[Event]:
    """Apply one action (one step, with its ``FR+`` prefixes); it must be legal."""
    action = parse_action(text)
    assert action in state.legal_actions(seat), f"{text} is missing from legal_actions"
    return state.apply(seat, action)


def play_turn(state: VoluspaState, seat: int, text: str) -> list[Event]:
    """Apply every step of a turn written in notation."""
    events: list[Event] = []
    for action in parse_turn(text):
        assert action in state.legal_actions(seat), f"{action} is missing from legal_actions"
        events.extend(state.apply(seat, action))
    return events


def assert_illegal(state: VoluspaState, seat: int, text: str, rule: str) -> None:
    """The action raises IllegalAction with ``rule``, changes nothing, and is not listed."""
    action = parse_action(text)
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert info.value.rule == rule, f"{text}: rule {info.value.rule!r} ({info.value})"
    assert state.fingerprint() == before
    assert action not in state.legal_actions(seat)


def hand(state: VoluspaState, seat: int) -> list[str]:
    """The codes in a seat's hand, sorted."""
    return sorted(CODES[kind] for kind in state.hand_tiles(seat))


def counts(values: list[int]) -> dict[str, int]:
    """A per-kind list (discards, box) as ``{code: count}`` without zeros."""
    return {CODES[kind]: n for kind, n in enumerate(values) if n}


def board_text(state: VoluspaState) -> str:
    """The board as a normalized diagram."""
    return format_board(state.board)


def normalized(diagram: str) -> str:
    """A diagram written by hand, normalized for comparison with :func:`board_text`."""
    return format_board(parse_board(diagram))


def at(state: VoluspaState, x: int, y: int) -> int | None:
    """The packed piece at ``x,y`` (``None`` if empty)."""
    return state.board.get(cell_of(x, y))


def event_kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def scored_points(events: list[Event]) -> list[int]:
    return [int(event.data["points"]) for event in events if event.kind == "scored"]


def explain(board: str, move: str, *, auto_best_line: bool = False) -> dict[str, Any]:
    return explain_turn(board, move, auto_best_line=auto_best_line)


def points(board: str, move: str, *, auto_best_line: bool = False) -> int:
    """Total points of a legal turn on ``board`` (fails if the turn is illegal)."""
    result = explain(board, move, auto_best_line=auto_best_line)
    assert result["legal"], f"{move}: {result['error']}"
    return int(result["points"])


def step_points(board: str, move: str, *, auto_best_line: bool = False) -> list[int]:
    """Points of each step of a legal turn."""
    result = explain(board, move, auto_best_line=auto_best_line)
    assert result["legal"], f"{move}: {result['error']}"
    return [int(step["points"]) for step in result["steps"]]


def lines(board: str, move: str, step: int = 0, *, auto_best_line: bool = False) -> list[tuple[str, int]]:
    """``(kind, points)`` of every line judged for one step of a legal turn, in order."""
    result = explain(board, move, auto_best_line=auto_best_line)
    assert result["legal"], f"{move}: {result['error']}"
    return [(line["kind"], int(line["points"])) for line in result["steps"][step]["lines"]]


def line_cells(board: str, move: str, step: int = 0) -> list[list[list[int]]]:
    """The cells of every line judged for one step."""
    result = explain(board, move)
    assert result["legal"], f"{move}: {result['error']}"
    return [line["cells"] for line in result["steps"][step]["lines"]]


def rule(board: str, move: str, *, auto_best_line: bool = False) -> str:
    """The rule key that makes an illegal turn illegal (fails if the turn is legal)."""
    result = explain(board, move, auto_best_line=auto_best_line)
    assert not result["legal"], f"{move} should be illegal"
    assert result["points"] == 0
    return str(result["rule"])


def token(code: str, boost: int) -> int:
    """The value of the booster token on ``code`` boosted ``boost`` times."""
    return FACE[CODE_INDEX[code]] + boost


def multiset(codes: list[str]) -> Counter[str]:
    return Counter(codes)
