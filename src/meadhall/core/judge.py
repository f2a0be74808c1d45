"""What moves would do on one position, judged together: the position is set up once.

A :class:`PositionJudge` holds one position and one seat; every move judged on it shares
the position's set-up (parsing, options, states, an engine's tables). A *judgement* has
the shape ``meadhall voluspa explain`` prints::

    {"legal": bool, "error": str | None, "rule": str | None, "points": int,
     "steps": [{"step": str, "points": int, "lines": [...]}, ...]}

``points``: what the move scores for the seat; each step its own points and, when lines
are asked for, what it does in words (``lines``; a game may add more, such as ``cost``).
Without lines a judgement says legality and points only, which is what a judge can
answer fastest. An illegal move has ``"legal": false``, the engine's refusal (``error``)
and its rule (``rule``), ``"points": 0``, and its last step the one refused, with
``error``.

:class:`StateJudge` judges on any game's own state, each move applied to a clone, its
words from the game's :meth:`~meadhall.core.words.GameWords.preview`; games may offer a
faster judge of their own (Völuspá's judges board diagrams with its C engine).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from meadhall.core.errors import IllegalAction

if TYPE_CHECKING:
    from meadhall.core.game import Game, GameState
    from meadhall.core.words import GameWords


def illegal(results: list[dict[str, Any]], message: str, rule: str, step: str) -> dict[str, Any]:
    """The judgement of a move refused at ``step`` (``results``: its steps before, judged)."""
    failed = {"step": step, "points": 0, "lines": [], "error": message}
    return {"legal": False, "error": message, "rule": rule, "points": 0, "steps": [*results, failed]}


def without_lines(result: dict[str, Any]) -> dict[str, Any]:
    """A judgement with its steps' words left out (legality and points only)."""
    result["steps"] = [{key: value for key, value in step.items() if key != "lines"} for step in result["steps"]]
    return result


class PositionJudge(ABC):
    """Moves judged on one position for one seat, sharing the position's set-up (see the module)."""

    @abstractmethod
    def targets(self) -> list[str]:
        """Every legal one-step move of the seat on the position, in notation."""

    @abstractmethod
    def judge(self, move: str, *, lines: bool = True) -> dict[str, Any]:
        """The judgement of ``move`` (its steps in notation); raises MalformedAction if it cannot be read."""

    def judge_many(self, moves: Iterable[str], *, lines: bool = True) -> list[dict[str, Any]]:
        """The judgement of each of ``moves``, in order."""
        return [self.judge(move, lines=lines) for move in moves]

    def judge_all(self, *, lines: bool = False) -> dict[str, dict[str, Any]]:
        """Every legal target's judgement, by its notation (points only unless ``lines``)."""
        targets = self.targets()
        return dict(zip(targets, self.judge_many(targets, lines=lines), strict=True))


class StateJudge(PositionJudge):
    """Any game's judge on its own state: each move applied to a clone, its words the game's preview.

    ``points`` is what the seat's score gains; each step's ``lines`` (and ``cost``, where
    the game words one) are :meth:`GameWords.preview` of the step on the position before it.
    """

    def __init__(self, game: Game, state: GameState[Any], seat: int) -> None:
        self.game = game
        self.state = state
        self.seat = seat
        self.words: GameWords | None = game.words()
        self.legal = game.legal_notations(state, seat) if seat in state.to_move() else []

    def targets(self) -> list[str]:
        """The seat's legal actions now, in notation."""
        return list(self.legal)

    def judge(self, move: str, *, lines: bool = True) -> dict[str, Any]:
        """Apply ``move``'s actions one after another to a clone of the position."""
        actions = self.game.parse_actions(move)
        state = self.state.clone()
        seat = self.seat
        legal = self.legal
        results: list[dict[str, Any]] = []
        total = 0
        for index, action in enumerate(actions):
            text = str(action)
            if index and seat not in state.to_move():
                done = " ".join(str(a) for a in actions[:index])
                refusal = self.words.turn_over(done, text) if self.words else f"the turn is over after {done}"
                return illegal(results, refusal, "turn-over", text)
            if index:
                legal = self.game.legal_notations(state, seat)
            try:
                state.check(seat, action)  # the quiet path may trust its caller: the full check first
            except IllegalAction as error:
                return illegal(results, str(error), error.rule, text)
            before = state.scores()[seat]
            words: dict[str, Any] = {}
            if lines and self.words is not None:
                preview = self.words.preview(state.view(seat), legal, text)
                words = {"lines": preview["lines"]}
                if "cost" in preview:
                    words["cost"] = preview["cost"]
            state.apply_quiet(seat, action)
            points = state.scores()[seat] - before
            results.append({"step": text, "points": points, **({"lines": []} if lines else {}), **words})
            total += points
        return {"legal": True, "error": None, "rule": None, "points": total, "steps": results}
