"""Judge one Völuspá turn on a board and explain every point.

``meadhall voluspa explain`` (:class:`meadhall.games.voluspa.text.ExplainTool`) and the
``explain`` command of ``meadhall play`` use it.

:func:`explain_turn` plays the steps on the position as if their tiles were in the
player's hand, and reports whether the turn is legal (if not, the rule that forbids it)
and the points of each step with each line, its cells and the reason in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.games.voluspa.board import Board
from meadhall.games.voluspa.notation import (
    Bump,
    Discard,
    End,
    Place,
    VoluspaAction,
    parse_board,
    parse_turn,
)
from meadhall.games.voluspa.state import VoluspaConfig, VoluspaState
from meadhall.games.voluspa.tiles import CODES, FR, HM, JO, RA

ALL_KINDS = [code for code in CODES]


def _hand_for(steps: list[VoluspaAction]) -> list[int]:
    hand: list[int] = []
    for step in steps:
        if isinstance(step, Place):
            hand.append(step.tile)
            hand.extend([FR] * step.boost)
        elif isinstance(step, Bump):
            hand.append(JO)
            hand.extend([FR] * step.boost)
        elif isinstance(step, Discard):
            hand.append(step.tile)
    return hand


def explain_turn(
    position: str | Board,
    move: str | list[VoluspaAction],
    *,
    auto_best_line: bool = False,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Judge ``move`` (steps in notation) on ``position`` (a board diagram).

    Returns ``{"legal", "error", "rule", "points", "steps": [...]}`` as the notation page
    specifies; a step written ``SS@x,y`` or ``LB@x,y`` without its line, accepted because
    both lines score the same, carries a ``note`` saying so. ``options``: a table's
    (normalized) options to judge with (its tile kinds, auto-best-line); by default every
    kind, and ``auto_best_line``. Raises
    :class:`~meadhall.core.errors.MalformedAction` if the position or the move cannot be read.
    """
    board = parse_board(position) if isinstance(position, str) else dict(position)
    steps = parse_turn(move) if isinstance(move, str) else list(move)
    # The game's own option check, reached through the state (the game module imports this one's words).
    if options is None:
        options = {"kinds": ALL_KINDS, "auto-best-line": auto_best_line}
    options = VoluspaState.game.validate_options(options, players=2)
    config = VoluspaConfig(options, 2)
    state = VoluspaState.from_position(config, board, [_hand_for(steps), []], current=0)
    if not board:
        return _illegal_result([], "the board is empty: a turn needs at least the start tile", "touch", steps[0])
    results: list[dict[str, Any]] = []
    total = 0
    turn = state.turn_number
    for index, step in enumerate(steps):
        ended = state.turn_number != turn or state.finished
        if ended and isinstance(step, End) and index and _offers_end(steps[index - 1]):
            # The explained hand held only the move's tiles, so the turn closed by itself
            # after the follow-up tile; declining the follow-up is what the player meant.
            results.append({"step": str(step), "points": 0, "lines": []})
            continue
        if index and ended:
            previous = " ".join(str(s) for s in steps[:index])
            return _illegal_result(
                results,
                f"the turn is over after {previous}: only a Hermod or a Raven allows another placement",
                "turn-over",
                step,
            )
        try:
            events = state.apply(0, step)
        except IllegalAction as error:
            return _illegal_result(results, str(error), error.rule, step)
        points = 0
        lines: list[dict[str, Any]] = []
        either = False
        for event in events:
            if event.kind == "scored":
                points = int(event.data["points"])
                lines = list(event.data["lines"])
            elif event.kind == "placed":
                either = bool(event.data.get("either_line"))
        result: dict[str, Any] = {"step": str(step), "points": points, "lines": lines}
        if either:
            result["note"] = either_line_note(points)
        results.append(result)
        total += points
    return {"legal": True, "error": None, "rule": None, "points": total, "steps": results}


def either_line_note(points: int) -> str:
    """Why a plain ``SS@x,y`` / ``LB@x,y`` needed no line: both lines score the same."""
    return (
        f"no line named: the row and the column both score {points} point{'' if points == 1 else 's'}, "
        "so the choice makes no difference; the row is shown"
    )


def _offers_end(step: VoluspaAction) -> bool:
    return isinstance(step, Place) and step.tile in (HM, RA)


def _illegal_result(results: list[dict[str, Any]], message: str, rule: str, step: VoluspaAction) -> dict[str, Any]:
    failed = {"step": str(step), "points": 0, "lines": [], "error": message}
    return {"legal": False, "error": message, "rule": rule, "points": 0, "steps": [*results, failed]}


def format_line(line: Mapping[str, Any], indent: str = "    ") -> str:
    """One scored line of an explanation (kind, cells, points, reason) as text."""
    cells = line.get("cells") or []
    if line.get("kind") == "neighbours":
        where = "around it"
    elif len(cells) > 1:
        where = f"{cells[0][0]},{cells[0][1]} to {cells[-1][0]},{cells[-1][1]}"
    elif cells:
        where = f"{cells[0][0]},{cells[0][1]}"
    else:
        where = "no tiles"
    return f"{indent}{line.get('kind')} {where}: {line.get('points')} - {line.get('reason')}"


def format_explanation(result: dict[str, Any]) -> str:
    """The result of :func:`explain_turn` as text for people."""
    lines: list[str] = []
    if result["legal"]:
        total = result["points"]
        lines.append(f"Legal: {total} point{'s' if total != 1 else ''}.")
    else:
        lines.append(f"Illegal: {result['error']}")
    for step in result["steps"]:
        if "error" in step:
            lines.append(f"  {step['step']}: not allowed.")
            continue
        points = step["points"]
        lines.append(f"  {step['step']}: {points} point{'s' if points != 1 else ''}")
        if step.get("note"):
            lines.append(f"    {step['note']}")
        lines.extend(format_line(line) for line in step["lines"])
    return "\n".join(lines)
