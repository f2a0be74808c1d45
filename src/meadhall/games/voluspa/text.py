"""Völuspá drawn as text for the terminal: the board with coordinates, the hand, ``explain``.

Pure functions of a view (see :mod:`meadhall.core.text`); everything else the terminal
shows of Völuspá is its words (:mod:`meadhall.games.voluspa.words`). ``explain`` is both
a command in a game (on the board as it is) and a command-line tool
(``meadhall voluspa explain --position ... --move ...``, :class:`ExplainTool`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.errors import MalformedAction
from meadhall.core.game import GameState
from meadhall.core.text import GameText, TextCommand, TextHost
from meadhall.core.tools import GameTool, Request, ToolInput, ToolSwitch
from meadhall.core.words import seat_label
from meadhall.games.voluspa.board import Board, cell_of, piece_of
from meadhall.games.voluspa.explain import VoluspaJudge, explain_turn, format_explanation
from meadhall.games.voluspa.notation import format_board, parse_turn
from meadhall.games.voluspa.state import VoluspaState
from meadhall.games.voluspa.tiles import CODE_INDEX
from meadhall.games.voluspa.words import tile_label


def _board_of(view: Mapping[str, Any]) -> Board:
    return {cell_of(t["x"], t["y"]): piece_of(CODE_INDEX[t["tile"]], t["boost"]) for t in view.get("board") or ()}


def recent_cells(view: Mapping[str, Any]) -> set[tuple[int, int]]:
    """Cells of the turn in progress, or else of the last turn."""
    cells = view.get("turn_cells") or []
    if not cells and view.get("last_turn"):
        cells = view["last_turn"].get("cells") or []
    return {(int(x), int(y)) for x, y in cells}


def render_board(view: Mapping[str, Any]) -> list[str]:
    """The board of ``view`` with x coordinates across the top and y down the side.

    One empty ring around the tiles shows where new tiles can go; ``*`` marks the cells
    of the turn in progress (or else of the last turn).
    """
    entries = {(int(e["x"]), int(e["y"])): e for e in view["board"]}
    if not entries:
        return ["(the board is empty)"]
    marked = recent_cells(view)
    tokens: dict[tuple[int, int], str] = {}
    for cell, entry in entries.items():
        boost = int(entry.get("boost") or 0)
        token = str(entry["tile"]) + (f"+{boost}" if boost else "")
        tokens[cell] = token + ("*" if cell in marked else "")
    xs = [x for x, _ in entries]
    ys = [y for _, y in entries]
    x_range = range(min(xs) - 1, max(xs) + 2)
    y_range = range(min(ys) - 1, max(ys) + 2)
    width = max(4, *(len(t) + 1 for t in tokens.values()), *(len(str(x)) + 1 for x in x_range))
    margin = max(len(str(y)) for y in y_range) + 2
    lines = [" " * margin + "".join(str(x).rjust(2).ljust(width) for x in x_range).rstrip()]
    for y in y_range:
        row = "".join(tokens.get((x, y), " .").rjust(2).ljust(width) for x in x_range)
        lines.append(str(y).rjust(margin - 2) + "  " + row.rstrip())
    return lines


def render_hand(view: Mapping[str, Any], name: str) -> str:
    """The line showing the hand of ``view``'s seat: ``Your hand, Seat 1 (Ann): ...``."""
    hand = list(view.get("hand") or [])
    counts: dict[str, int] = {}
    for code in hand:
        counts[code] = counts.get(code, 0) + 1
    parts = [tile_label(code) + (f" x{n}" if n > 1 else "") for code, n in counts.items()]
    return f"Your hand, {name}: " + (" | ".join(parts) if parts else "empty")


def cmd_explain(host: TextHost, rest: str) -> None:
    """``explain MOVE``: judge a move on this board; ``explain``: the last turn's points."""
    if not rest:
        host.show_last_turn("No turn has been played yet. Try 'explain TH@1,0'.")
        return
    view = host.public_view()
    auto = bool((view.get("options") or {}).get("auto-best-line"))
    try:
        result = explain_turn(_board_of(view), rest, auto_best_line=auto)
    except MalformedAction as error:
        host.say(f"Cannot read that move: {error}")
        return
    host.say(f"On the board as it is, as if the tiles of {rest} were in hand:")
    host.say(format_explanation(result))
    seat = host.seat_to_move()
    if seat is not None and result["legal"]:
        problem = host.check_steps(seat, parse_turn(rest))
        if problem is None:
            host.say("You can play it now.")
        else:
            host.say(f"But you cannot play it now: {problem}")


class ExplainTool(GameTool):
    """``meadhall voluspa explain``: judge a turn on a board and explain every point."""

    name = "explain"
    summary = "judge one turn on a board: legal or not (and why), and the points of each step"
    description = (
        "Judge one turn on a board, as if the move's tiles were in hand. The position is a "
        "board diagram (text, one-line with '/', or a file name); the move is its steps, "
        "e.g. 'HM@0,1 OD@0,2'. Exit status: 0 for a judged move (legal or not), 2 for "
        "unreadable input. With --batch, lines on one position share its set-up (keep a "
        "position's moves together) and --points-only answers from the C engine, without "
        "the lines' words: tens of thousands of moves a second on one core; --jobs N uses N."
    )
    inputs = (
        ToolInput("position", "board diagram text, or a file holding one", file=True),
        ToolInput("move", "the turn's steps in notation"),
    )
    switches = (
        ToolSwitch("auto-best-line", "Sea Serpent and tied Lightning Bolt lines are picked automatically (the higher)"),
        ToolSwitch("points-only", "legality and points only: each step without its scored lines (faster)"),
    )

    def run(self, inputs: Mapping[str, str], switches: Mapping[str, bool]) -> dict[str, Any]:
        """The judgement of :func:`explain_turn`, as the notation page specifies it."""
        result = self.run_many([(inputs, switches)])[0]
        if isinstance(result, MalformedAction):
            raise result
        return result

    def requests(self, state: GameState[Any], seat: int, moves: Sequence[str], lines: bool) -> list[Request]:
        """Each move on the state's board, with its lines or ``points-only``."""
        assert isinstance(state, VoluspaState)
        del seat
        position = format_board(state.board, one_line=True)
        switches = {"auto-best-line": state.config.auto_best_line, "points-only": not lines}
        return [({"position": position, "move": move}, switches) for move in moves]

    def run_many(self, requests: Sequence[Request]) -> list[dict[str, Any] | MalformedAction]:
        """Each request judged by a :class:`VoluspaJudge` of its position, one per position and switches."""
        judges: dict[tuple[str, bool], VoluspaJudge | MalformedAction] = {}
        results: list[dict[str, Any] | MalformedAction] = []
        for inputs, switches in requests:
            key = (inputs["position"], bool(switches.get("auto-best-line")))
            judge = judges.get(key)
            if judge is None:
                try:
                    judge = VoluspaJudge(key[0], auto_best_line=key[1])
                except MalformedAction as error:
                    judge = error
                judges[key] = judge
            if isinstance(judge, MalformedAction):
                results.append(judge)
                continue
            try:
                results.append(judge.judge(inputs["move"], lines=not switches.get("points-only")))
            except MalformedAction as error:
                results.append(error)
        return results

    def text(self, result: Mapping[str, Any]) -> str:
        """``Legal: 4 points.`` and every step's lines."""
        return format_explanation(dict(result))

    def unreadable(self, reason: str) -> dict[str, Any]:
        """An illegal result whose rule is ``unreadable``."""
        return {"legal": False, "error": f"unreadable input: {reason}", "rule": "unreadable", "points": 0, "steps": []}


class VoluspaText(GameText):
    """Völuspá in the terminal: the board with coordinates and the last turn marked."""

    def board(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """The board with a legend for the marked cells."""
        lines = render_board(view)
        if view.get("turn_steps"):
            lines.append(f"  * = this turn: {' '.join(view['turn_steps'])}")
        elif view.get("last_turn"):
            last = view["last_turn"]
            seat = int(last["seat"])
            who = names[seat] if seat < len(names) else seat_label(seat)
            lines.append(f"  * = last turn, {who}: {' '.join(last['steps'])}")
        return lines

    def hand(self, view: Mapping[str, Any], name: str) -> list[str]:
        """``Your hand, Seat 1 (You): TH Thor 7 | ...``."""
        return [render_hand(view, name)]

    def position(self, view: Mapping[str, Any]) -> str | None:
        """The board as a diagram in the notation (``meadhall voluspa explain --position`` reads it)."""
        return format_board(_board_of(view))

    def commands(self) -> dict[str, TextCommand]:
        """``explain``."""
        return {"explain": cmd_explain}

    def commands_help(self) -> list[str]:
        """The two forms of ``explain``."""
        return [
            "  explain MOVE     judge MOVE on the current board: legal or not, and every point",
            "  explain          the points of the last turn again",
        ]

    def tools(self) -> tuple[GameTool, ...]:
        """``explain`` on a board given as a diagram."""
        return (ExplainTool(),)


TEXT = VoluspaText()
