"""Völuspá notation: boards, steps and turns, read and written (``voluspa-notation.md``).

A step is one action of the engine. ``FR+`` prefixes belong to the step they boost, so
``FR+ FR+ TH@4,0`` is one action: Thor placed at 4,0 with two Freyas discarded.
``str(action)`` writes the notation back exactly (the notation round-trips).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from meadhall.core.errors import MalformedAction
from meadhall.games.voluspa.board import (
    BOOST_SHIFT,
    COORD_LIMIT,
    KIND_MASK,
    Board,
    cell_of,
    piece_of,
    xy,
)
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, HE, JO, LB, SS

#: Notation already written, by action: servers send the same actions again and again.
_WRITTEN: dict[object, str] = {}


class Place(NamedTuple):
    """Play ``tile`` from hand at ``x,y`` (on an occupied cell: cover or Skadi swap).

    ``boost`` Freyas are discarded first; ``line`` is ``"row"`` or ``"col"`` for a Sea
    Serpent or a Lightning Bolt where the player chooses the scored line.
    """

    tile: int
    x: int
    y: int
    boost: int = 0
    line: str | None = None

    def __str__(self) -> str:
        text = _WRITTEN.get(self)
        if text is None:
            text = "FR+ " * self.boost + f"{CODES[self.tile]}@{self.x},{self.y}"
            if self.line is not None:
                text += f":{self.line}"
            if len(_WRITTEN) < 200_000:
                _WRITTEN[self] = text
        return text


class Bump(NamedTuple):
    """Jotunn bumps the tile at ``x,y`` towards ``direction`` (N, E, S, W) and takes its cell."""

    x: int
    y: int
    direction: str
    boost: int = 0

    def __str__(self) -> str:
        text = _WRITTEN.get(self)
        if text is None:
            text = _WRITTEN[self] = "FR+ " * self.boost + f"JO@{self.x},{self.y}>{self.direction}"
        return text


class End(NamedTuple):
    """Decline an optional follow-up (after Hermod, after a Raven's first placement)."""

    def __str__(self) -> str:
        return "end"


class Discard(NamedTuple):
    """Discard ``tile`` from hand: when nothing can be played, or down to five after Skadi."""

    tile: int

    def __str__(self) -> str:
        return f"discard:{CODES[self.tile]}"


END = End()

VoluspaAction = Place | Bump | End | Discard

_STEP = re.compile(
    r"^(?P<code>[A-Za-z]{2})@(?P<x>[+-]?\d+),(?P<y>[+-]?\d+)"
    r"(?:>(?P<dir>[NESWnesw])|:(?P<line>row|col|column))?$"
)


def _code(text: str, where: str) -> int:
    index = CODE_INDEX.get(text.upper())
    if index is None:
        raise MalformedAction(f"{where}: unknown tile {text!r}; tiles are {', '.join(CODES)}")
    return index


def _coordinate(text: str, step: str) -> int:
    value = int(text)
    if abs(value) > COORD_LIMIT:
        raise MalformedAction(f"{step}: coordinate {value} is too far from the start tile")
    return value


def parse_step(text: str, boost: int = 0) -> VoluspaAction:
    """Read one step without ``FR+`` prefixes (``boost`` says how many preceded it)."""
    token = text.strip()
    if not token:
        raise MalformedAction("empty move: write a step such as TH@1,0")
    lowered = token.lower()
    if lowered == "end":
        if boost:
            raise MalformedAction("FR+ must be followed by the tile it boosts, not 'end'")
        return END
    if lowered.startswith("discard:"):
        if boost:
            raise MalformedAction("FR+ must be followed by the tile it boosts, not a discard")
        return Discard(_code(token[8:], token))
    match = _STEP.match(token)
    if match is None:
        raise MalformedAction(
            f"cannot read {token!r}: write CODE@X,Y (e.g. TH@2,-1), JO@X,Y>E, SS@X,Y:row, FR+, end or discard:CODE"
        )
    tile = _code(match["code"], token)
    x, y = _coordinate(match["x"], token), _coordinate(match["y"], token)
    direction = match["dir"]
    line = match["line"]
    if direction is not None:
        if tile != JO:
            raise MalformedAction(f"{token}: only a Jotunn bumps in a direction (JO@X,Y>E)")
        return Bump(x, y, direction.upper(), boost)
    if line is not None:
        if tile not in (SS, LB):
            raise MalformedAction(f"{token}: only a Sea Serpent or a Lightning Bolt chooses its line")
        line = "col" if line in ("col", "column") else "row"
    return Place(tile, x, y, boost, line)


def parse_action(text: str) -> VoluspaAction:
    """Read one action: a step, with any ``FR+`` prefixes that boost it."""
    tokens = text.split()
    if not tokens:
        raise MalformedAction("empty move: write a step such as TH@1,0")
    boost = 0
    for token in tokens[:-1]:
        if token.upper() != "FR+":
            raise MalformedAction(f"{text.strip()!r} holds more than one step; send one step at a time")
        boost += 1
    if tokens[-1].upper() == "FR+":
        raise MalformedAction("FR+ must be followed by the tile it boosts, e.g. FR+ TH@4,0")
    return parse_step(tokens[-1], boost)


def parse_turn(text: str) -> list[VoluspaAction]:
    """Read a whole turn (steps separated by spaces); ``FR+`` joins the next step."""
    actions: list[VoluspaAction] = []
    boost = 0
    for token in text.split():
        if token.upper() == "FR+":
            boost += 1
            continue
        actions.append(parse_step(token, boost))
        boost = 0
    if boost:
        raise MalformedAction("FR+ must be followed by the tile it boosts, e.g. FR+ TH@4,0")
    if not actions:
        raise MalformedAction("empty move: write a step such as TH@1,0")
    return actions


def format_turn(actions: list[VoluspaAction]) -> str:
    """Write a turn: its steps separated by spaces."""
    return " ".join(str(action) for action in actions)


# Boards ---------------------------------------------------------------------------------


_ORIGIN = re.compile(r"origin\s+([+-]?\d+)\s*,\s*([+-]?\d+)", flags=re.IGNORECASE)
_ROW_SPLIT = re.compile(r"[\s,]+")
_CELL = re.compile(r"([A-Za-z]{2})(?:\+(\d+))?")
#: Board cells already read, by their text (``TH+1``): a batch reads the same few again and again.
_CELL_PIECES: dict[str, int] = {}


def _cell_piece(token: str) -> int:
    """The piece a board cell's text (``CODE`` or ``CODE+k``) stands for."""
    piece = _CELL_PIECES.get(token)
    if piece is not None:
        return piece
    match = _CELL.fullmatch(token)
    if match is None:
        raise MalformedAction(f"cannot read cell {token!r}: write '.', CODE or CODE+k")
    kind = _code(match[1], f"board cell {token!r}")
    boost = int(match[2] or 0)
    if boost and kind == HE:
        raise MalformedAction("a Hel cannot carry a booster token")
    if boost > 20:
        raise MalformedAction(f"cell {token!r}: no booster token is that large")
    piece = piece_of(kind, boost)
    if len(_CELL_PIECES) < 4096:
        _CELL_PIECES[token] = piece
    return piece


def parse_board(text: str) -> Board:
    """Read a board diagram (multi-line or one-line with ``/``) into a board dict."""
    lines = text.split("/") if "\n" not in text and "/" in text else text.splitlines()
    origin_x, origin_y = 0, 0
    rows: list[list[str]] = []
    seen_origin = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().startswith("origin"):
            if seen_origin or rows:
                raise MalformedAction("'origin X,Y' must come once, before the rows")
            match = _ORIGIN.fullmatch(line)
            if match is None:
                raise MalformedAction(f"cannot read {line!r}: write 'origin X,Y'")
            origin_x = _coordinate(match[1], line)
            origin_y = _coordinate(match[2], line)
            seen_origin = True
            continue
        rows.append([cell for cell in _ROW_SPLIT.split(line) if cell])
    board: Board = {}
    for dy, row in enumerate(rows):
        y = origin_y + dy
        for dx, token in enumerate(row):
            if token == ".":
                continue
            piece = _cell_piece(token)
            x = origin_x + dx
            if abs(x) > COORD_LIMIT or abs(y) > COORD_LIMIT:
                raise MalformedAction("the board is too large")
            board[cell_of(x, y)] = piece
    return board


def _cell_token(piece: int | None) -> str:
    if piece is None:
        return "."
    boost = piece >> BOOST_SHIFT
    return CODES[piece & KIND_MASK] + (f"+{boost}" if boost else "")


def format_board(board: Board, one_line: bool = False) -> str:
    """Write the smallest diagram holding every tile, with its origin."""
    if not board:
        return "origin 0,0"
    coords = [xy(cell) for cell in board]
    min_x = min(x for x, _ in coords)
    max_x = max(x for x, _ in coords)
    min_y = min(y for _, y in coords)
    max_y = max(y for _, y in coords)
    grid = [[_cell_token(board.get(cell_of(x, y))) for x in range(min_x, max_x + 1)] for y in range(min_y, max_y + 1)]
    header = f"origin {min_x},{min_y}"
    if one_line:
        return "/".join([header] + [" ".join(row) for row in grid])
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]))]
    lines = [header]
    for row in grid:
        lines.append(" ".join(token.ljust(widths[i]) for i, token in enumerate(row)).rstrip())
    return "\n".join(lines)


def describe(action: VoluspaAction) -> str:
    """The action in words, for logs: ``Thor (boosted twice) at 4,0``."""
    if isinstance(action, End):
        return "ends the turn"
    if isinstance(action, Discard):
        return f"discards {CODES[action.tile]}"
    if isinstance(action, Bump):
        return f"Jotunn bumps the tile at {action.x},{action.y} to the {action.direction}"
    return str(action)


__all__ = [
    "END",
    "Bump",
    "Discard",
    "End",
    "Place",
    "VoluspaAction",
    "describe",
    "format_board",
    "format_turn",
    "parse_action",
    "parse_board",
    "parse_step",
    "parse_turn",
]
