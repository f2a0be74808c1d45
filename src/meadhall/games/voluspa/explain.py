"""Judge one Völuspá turn on a board and explain every point.

``meadhall voluspa explain`` (:class:`meadhall.games.voluspa.text.ExplainTool`) and the
``explain`` command of ``meadhall play`` use it.

:func:`explain_turn` plays the steps on the position as if their tiles were in the
player's hand, and reports whether the turn is legal (if not, the rule that forbids it)
and the points of each step with each line, its cells and the reason in words.

To judge many moves on one position (:mod:`meadhall.core.judge`): :class:`VoluspaJudge`
on a board diagram, as :func:`explain_turn` judges (``explain --batch`` uses it), and
:class:`VoluspaStateJudge` on a game's state for a seat (``Game.judge``). Both set the
position up once and ask the C search engine for legality, points and each line's facts
(the words are built here, in ``board.py``), and play the reference engine only where the
C engine does not answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.judge import PositionJudge, illegal, without_lines
from meadhall.games.voluspa.board import Board, lines_words
from meadhall.games.voluspa.notation import (
    Bump,
    Discard,
    End,
    Place,
    VoluspaAction,
    parse_board,
    parse_turn,
)
from meadhall.games.voluspa.search import AVAILABLE, decode, encode, notation, notations, to_search
from meadhall.games.voluspa.state import RAVEN, VoluspaConfig, VoluspaState
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


def _config(options: Mapping[str, Any] | None, auto_best_line: bool) -> VoluspaConfig:
    """The two-seat configuration ``explain`` judges with: ``options`` (a table's), else every kind."""
    if options is None:
        options = {"kinds": ALL_KINDS, "auto-best-line": auto_best_line}
    # The game's own option check, reached through the state (the game module imports this one's words).
    return VoluspaConfig(VoluspaState.game.validate_options(options, players=2), 2)


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
    To judge many moves on one position, :class:`VoluspaJudge` sets it up once.
    """
    board = parse_board(position) if isinstance(position, str) else dict(position)
    steps = parse_turn(move) if isinstance(move, str) else list(move)
    config = _config(options, auto_best_line)
    state = VoluspaState.from_position(config, board, [_hand_for(steps), []], current=0)
    if not board:
        return _empty_board(steps[0])
    return _judge_steps(state, steps)


def _empty_board(step: VoluspaAction) -> dict[str, Any]:
    return illegal([], "the board is empty: a turn needs at least the start tile", "touch", str(step))


def _judge_steps(state: VoluspaState, steps: list[VoluspaAction], seat: int = 0) -> dict[str, Any]:
    """Play ``steps`` for ``seat`` on ``state`` (changed), with the events that explain each point."""
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
            return illegal(
                results,
                f"the turn is over after {previous}: only a Hermod or a Raven allows another placement",
                "turn-over",
                str(step),
            )
        try:
            events = state.apply(seat, step)
        except IllegalAction as error:
            return illegal(results, str(error), error.rule, str(step))
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


#: Moves read by the judges: text -> (steps, the hand they need, the one step's search code or None).
_PARSED: dict[str, tuple[list[VoluspaAction], tuple[int, ...], int | None]] = {}


def _parsed(move: str) -> tuple[list[VoluspaAction], tuple[int, ...], int | None]:
    """``move`` read (kept for the next judge: a batch's moves repeat from position to position)."""
    found = _PARSED.get(move)
    if found is None:
        steps = parse_turn(move)
        single = len(steps) == 1 and isinstance(steps[0], Place | Bump) and AVAILABLE
        if len(_PARSED) >= 1 << 16:
            _PARSED.clear()
        found = _PARSED[move] = (steps, tuple(_hand_for(steps)), encode(steps[0]) if single else None)
    return found


def _engine_points(
    engine: tuple[Any, frozenset[int]] | None, steps: list[VoluspaAction], code: int | None = None
) -> dict[str, Any] | None:
    """The judgement, points only, of a one-step placement or bump the C engine lists as legal (else None)."""
    if engine is None or len(steps) != 1 or not isinstance(steps[0], Place | Bump):
        return None
    fast, legal = engine
    if code is None:
        code = encode(steps[0])
    if code not in legal:
        return None
    return _code_points(fast, code, str(steps[0]))


def _code_points(fast: Any, code: int, text: str) -> dict[str, Any]:
    """The judgement, points only, of the legal one-step placement or bump ``code`` (written ``text``)."""
    points = fast.points(code)
    return {"legal": True, "error": None, "rule": None, "points": points, "steps": [{"step": text, "points": points}]}


def _engine_lines(
    state: VoluspaState, engine: tuple[Any, frozenset[int]] | None, steps: list[VoluspaAction], code: int | None = None
) -> dict[str, Any] | None:
    """The judgement, with lines, of a one-step placement or bump the C engine lists as legal (else None).

    Scored on ``state``'s board by :meth:`VoluspaState.score_legal_step` (put back as it
    was), with the words :func:`_judge_steps` takes from the events; ``code``: the step's
    search code, if known.
    """
    if engine is None or len(steps) != 1 or state.stage == RAVEN:
        return None
    step = steps[0]
    if not isinstance(step, Place | Bump):
        return None
    if code is None:
        code = encode(step)
    fast, legal = engine
    if code not in legal:
        return None
    return _code_lines(state, fast, code, step, str(step))


def _code_lines(state: VoluspaState, fast: Any, code: int, step: Place | Bump, text: str) -> dict[str, Any]:
    """The judgement, with lines, of the legal one-step placement or bump ``code`` (``step``, written ``text``).

    Not at the Raven's second placement (:func:`_engine_lines` checks it).
    """
    facts = fast.line_facts(code)
    if facts is not None:  # a tile scoring its row and column: the C engine's facts, the words here
        kind = JO if isinstance(step, Bump) else step.tile
        points, lines = lines_words(kind, step.x, step.y, *facts)
        result: dict[str, Any] = {"step": text, "points": points, "lines": lines}
        return {"legal": True, "error": None, "rule": None, "points": points, "steps": [result]}
    points, lines, line = state.score_legal_step(step)
    result = {"step": text, "points": points, "lines": lines}
    if line is not None and isinstance(step, Place) and step.line is None and not state.config.auto_best_line:
        result["note"] = either_line_note(points)
    return {"legal": True, "error": None, "rule": None, "points": points, "steps": [result]}


class VoluspaJudge(PositionJudge):
    """Every move on one board diagram judged as :func:`explain_turn` judges it, the board set up once.

    The board, the options and a state for each hand a move needs (its tiles) are made
    once; a one-step placement or bump the C search engine lists as legal is answered by
    it (legality, points, and the facts of each line, worded by ``board.py``'s
    ``line_words``; a Hel, Dwarf, Sea Serpent or Lightning Bolt is scored on the board
    in place). Anything else (an illegal move, for the engine's words; a turn of several
    steps; ``SS@x,y`` without its line) is played by the reference engine on a clone.
    The results are :func:`explain_turn`'s, to the letter (``tests/voluspa/test_judge.py``
    checks it).
    """

    def __init__(
        self,
        position: str | Board,
        *,
        auto_best_line: bool = False,
        options: Mapping[str, Any] | None = None,
        kinds: Sequence[int] | None = None,
    ) -> None:
        self.board: Board = parse_board(position) if isinstance(position, str) else dict(position)
        self.config = _config(options, auto_best_line)
        #: The tile kinds :meth:`targets` places (by default every kind of the options).
        self.kinds = list(self.config.kinds if kinds is None else kinds)
        self._states: dict[tuple[int, ...], VoluspaState] = {}
        self._native: dict[tuple[int, ...], tuple[Any, frozenset[int]] | None] = {}

    def _state(self, hand: tuple[int, ...]) -> VoluspaState:
        """The position with ``hand`` in seat 0's hand (kept: clone it before playing)."""
        state = self._states.get(hand)
        if state is None:
            state = self._states[hand] = VoluspaState.from_position(self.config, self.board, [list(hand), []])
        return state

    def _engine(self, hand: tuple[int, ...]) -> tuple[Any, frozenset[int]] | None:
        """The C engine's copy of the position with ``hand`` and its legal codes (None: no engine, or off its grid)."""
        if hand in self._native:
            return self._native[hand]
        fast = to_search(self._state(hand)) if self.board else None
        found = None if fast is None else (fast, frozenset(fast.legal_actions(0)))
        self._native[hand] = found
        return found

    def targets(self) -> list[str]:
        """Every unboosted placement (and Jotunn bump) of each of :attr:`kinds`, legal on the board.

        Each kind as if it were the only tile in hand, kinds in their order, each
        kind's targets in the engine's order; a Sea Serpent or a Lightning Bolt with a
        choice of line is listed with each line named.
        """
        return [text for text, _ in self._targets()]

    def _targets(self) -> list[tuple[str, VoluspaAction]]:
        found: list[tuple[str, VoluspaAction]] = []
        for kind in self.kinds:
            engine = self._engine((kind,))
            if engine is not None:
                for code in engine[0].legal_actions(0):
                    action = decode(code)
                    if isinstance(action, Place | Bump):
                        found.append((notation(code), action))
            elif self.board:
                found.extend((str(a), a) for a in self._state((kind,)).legal_actions(0) if isinstance(a, Place | Bump))
        return found

    def judge_all(self, *, lines: bool = False) -> dict[str, dict[str, Any]]:
        """Every target's judgement, by its notation (points only unless ``lines``); the targets are not read again."""
        return {text: self.judge([action], lines=lines) for text, action in self._targets()}

    def judge(self, move: str | list[VoluspaAction], *, lines: bool = True) -> dict[str, Any]:
        """The judgement of ``move`` on the board: :func:`explain_turn`'s (without ``lines`` unless asked)."""
        if isinstance(move, str):
            steps, hand, code = _parsed(move)
        else:
            steps, hand, code = list(move), tuple(_hand_for(list(move))), None
        if not self.board:
            result = _empty_board(steps[0])
            return result if lines else without_lines(result)
        engine = self._engine(hand)
        found = _engine_lines(self._state(hand), engine, steps, code) if lines else _engine_points(engine, steps, code)
        if found is not None:
            return found
        result = _judge_steps(self._state(hand).clone(), steps)
        return result if lines else without_lines(result)


def either_line_note(points: int) -> str:
    """Why a plain ``SS@x,y`` / ``LB@x,y`` needed no line: both lines score the same."""
    return (
        f"no line named: the row and the column both score {points} point{'' if points == 1 else 's'}, "
        "so the choice makes no difference; the row is shown"
    )


def _offers_end(step: VoluspaAction) -> bool:
    return isinstance(step, Place) and step.tile in (HM, RA)


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
        lines.extend(format_line(line) for line in step.get("lines", ()))
    return "\n".join(lines)


class VoluspaStateJudge(PositionJudge):
    """Moves judged for a seat on a game's own state, in :func:`explain_turn`'s shape (``Game.judge``).

    The seat's real hand and the turn so far hold, as in the game. Points alone come from
    the C engine's copy of the state for a legal one-step move; the rest (lines, illegal
    moves and their refusal, several steps) is played on a clone by the reference engine.
    """

    def __init__(self, state: VoluspaState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._engine: tuple[Any, frozenset[int]] | None = None
        self._codes: list[int] = []
        fast = to_search(state) if seat in state.to_move() else None
        if fast is not None:
            self._codes = fast.legal_actions(seat)
            self._engine = (fast, frozenset(self._codes))

    def targets(self) -> list[str]:
        """The seat's legal steps now, as the game lists them (``Game.legal_notations``)."""
        if self.seat not in self.state.to_move():
            return []
        if self._engine is not None:
            return notations(self._engine[0], self.seat, self.state.config.auto_best_line)
        return [str(action) for action in self.state.legal_actions(self.seat)]

    def judge_all(self, *, lines: bool = False) -> dict[str, dict[str, Any]]:
        """Every target's judgement, by its notation (points only unless ``lines``); the engine's are not read again."""
        known = {notation(code): code for code in self._codes}
        found: dict[str, dict[str, Any]] = {}
        engine = self._engine
        # The engine's own codes are legal: judged by it straight away (its notation is the step's text).
        direct = engine is not None and (not lines or self.state.stage != RAVEN)
        for text in self.targets():
            code = known.get(text)
            if code is None or not direct:
                found[text] = self.judge(text, lines=lines)
                continue
            assert engine is not None
            step = decode(code)
            if not isinstance(step, Place | Bump):
                found[text] = self.judge(text, lines=lines)
            elif lines:
                found[text] = _code_lines(self.state, engine[0], code, step, text)
            else:
                found[text] = _code_points(engine[0], code, text)
        return found

    def judge(self, move: str | list[VoluspaAction], *, lines: bool = True) -> dict[str, Any]:
        """The judgement of ``move`` by the seat on the state (without ``lines`` unless asked)."""
        steps = parse_turn(move) if isinstance(move, str) else list(move)
        found = _engine_lines(self.state, self._engine, steps) if lines else _engine_points(self._engine, steps)
        if found is not None:
            return found
        result = _judge_steps(self.state.clone(), steps, self.seat)
        return result if lines else without_lines(result)
