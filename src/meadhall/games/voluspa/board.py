"""Board geometry, tile values and scoring for Völuspá.

The board is a dict from a packed cell number to a packed piece. Packing keeps the hot
paths to integer arithmetic and small dict lookups:

* ``cell = (y + OFFSET) * WIDTH + (x + OFFSET)``; neighbours are ``cell ± 1`` (east/west)
  and ``cell ± WIDTH`` (south/north). A game holds at most a few hundred tiles, so
  coordinates stay far inside ``±OFFSET``.
* ``piece = kind | boost << 5``: the tile kind and how many times Freya boosted it.

Scoring follows ``docs/rules/voluspa.md``. Every scoring function can return, besides
its points, the explanation of each line for people (``explain=True``); bots skip that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.games.voluspa.tiles import DW, FACE, FE, HE, LB, LO, NAMES, NI, SS, VA

OFFSET = 512
WIDTH = 1024
#: Largest |x| or |y| the notation accepts.
COORD_LIMIT = 400
KIND_MASK = 31
BOOST_SHIFT = 5
#: Orthogonal neighbour offsets: north, east, south, west.
ORTHO = (-WIDTH, 1, WIDTH, -1)
#: The eight cells around a cell.
AROUND = (-WIDTH - 1, -WIDTH, -WIDTH + 1, -1, 1, WIDTH - 1, WIDTH, WIDTH + 1)
DIRECTIONS = {"N": -WIDTH, "E": 1, "S": WIDTH, "W": -1}
ROW = 1
COL = WIDTH

Board = dict[int, int]


def cell_of(x: int, y: int) -> int:
    """Pack coordinates into a cell number."""
    return (y + OFFSET) * WIDTH + (x + OFFSET)


def xy(cell: int) -> tuple[int, int]:
    """Unpack a cell number into ``(x, y)``."""
    return cell % WIDTH - OFFSET, cell // WIDTH - OFFSET


def piece_of(kind: int, boost: int = 0) -> int:
    """Pack a kind and its boost count."""
    return kind | (boost << BOOST_SHIFT)


def tile_name(kind: int, boost: int = 0) -> str:
    """A tile's name for people, with its boost: ``Thor+1``."""
    return NAMES[kind] + (f"+{boost}" if boost else "")


def loki_adjacent(board: Board, cell: int) -> bool:
    """True if a visible Loki is orthogonally next to ``cell``."""
    get = board.get
    for step in ORTHO:
        piece = get(cell + step)
        if piece is not None and piece & KIND_MASK == LO:
            return True
    return False


def own_value(board: Board, cell: int, piece: int) -> int:
    """A tile's value before the Fenrir pack: 0 next to Loki (Lokis excepted), else face + boost."""
    kind = piece & KIND_MASK
    if kind != LO and loki_adjacent(board, cell):
        return 0
    return FACE[kind] + (piece >> BOOST_SHIFT)


def line_cells(board: Board, cell: int, step: int) -> list[int]:
    """The line through ``cell`` along ``step`` (ROW or COL): contiguous non-Hel tiles, in order."""
    get = board.get
    start = cell
    while True:
        piece = get(start - step)
        if piece is None or piece & KIND_MASK == HE:
            break
        start -= step
    cells = []
    current = start
    while True:
        piece = get(current)
        if piece is None or piece & KIND_MASK == HE:
            break
        cells.append(current)
        current += step
    return cells


def run_length(board: Board, cell: int, step: int) -> int:
    """How many contiguous non-Hel tiles follow ``cell`` (exclusive) in direction ``step``."""
    get = board.get
    count = 0
    current = cell + step
    while True:
        piece = get(current)
        if piece is None or piece & KIND_MASK == HE:
            return count
        count += 1
        current += step


def line_values(board: Board, cells: list[int]) -> list[int]:
    """The value of each tile of a line in that line (Fenrirs worth their pack)."""
    values = []
    pack = 0
    has_fenrir = False
    for cell in cells:
        piece = board[cell]
        value = own_value(board, cell, piece)
        if piece & KIND_MASK == FE:
            has_fenrir = True
            pack += value
        values.append(value)
    if has_fenrir:
        for i, cell in enumerate(cells):
            if board[cell] & KIND_MASK == FE and values[i] > 0:
                values[i] = pack
    return values


def value_in_line(board: Board, cell: int, step: int) -> int:
    """The value of the tile at ``cell`` in its line along ``step``."""
    piece = board[cell]
    if piece & KIND_MASK != FE:
        return own_value(board, cell, piece)
    value = own_value(board, cell, piece)
    if value == 0:
        return 0
    return sum(own_value(board, c, board[c]) for c in line_cells(board, cell, step) if board[c] & KIND_MASK == FE)


def _label(board: Board, cell: int, value: int, step: int | None = None) -> str:
    piece = board[cell]
    kind = piece & KIND_MASK
    return _label_of(kind, piece >> BOOST_SHIFT, value, loki_adjacent(board, cell), step)


def _label_of(kind: int, boost: int, value: int, loki: bool | int, step: int | None = None) -> str:
    """A tile in a reason: its name and value (``loki``: a Loki is next to it)."""
    name = tile_name(kind, boost)
    if kind != LO and value == 0 and kind != LB and loki:
        return f"{name} (0, next to Loki)"
    if kind == FE and step is not None and value != FACE[FE] + boost:
        return f"{name} (pack {value})"
    return f"{name} ({value})"


def _nio_bonus(board: Board, cells: list[int]) -> int:
    return 2 * sum(1 for c in cells if board[c] & KIND_MASK == NI)


def _points_text(length: int, nio: int, covered_nio: bool, unit: str = "tiles") -> str:
    parts = [f"{length} {unit}"]
    if nio:
        parts.append(f"+{2 * nio} for Niohoggr" + ("" if nio == 1 else f" x{nio}"))
    if covered_nio:
        parts.append("+2 for the covered Niohoggr")
    return ", ".join(parts)


def coords(cells: list[int]) -> list[list[int]]:
    """Cells as ``[x, y]`` pairs (JSON friendly)."""
    return [list(xy(c)) for c in cells]


def judge_line(
    board: Board, cell: int, step: int, covered_nio: bool, explain: bool
) -> tuple[int, dict[str, Any] | None]:
    """Points the tile at ``cell`` scores for its line along ``step``, and the explanation.

    Lines of one tile give ``(0, None)``: they are not lines (see :func:`score_placement`).
    """
    cells = line_cells(board, cell, step)
    length = len(cells)
    if length < 2:
        return 0, None
    if explain:
        return line_words(step, line_facts(board, cell, cells), covered_nio)
    kind = board[cell] & KIND_MASK
    first, last = board[cells[0]] & KIND_MASK, board[cells[-1]] & KIND_MASK
    if first == VA and last == VA:
        dominates = kind == VA and (cell == cells[0] or cell == cells[-1])
    else:
        values = line_values(board, cells)
        index = cells.index(cell)
        mine = values[index]
        if kind == FE:
            others = [v for c, v in zip(cells, values, strict=True) if board[c] & KIND_MASK != FE]
            dominates = own_value(board, cell, board[cell]) > 0 and all(mine > v for v in others)
        else:
            others = [v for i, v in enumerate(values) if i != index]
            dominates = all(mine > v for v in others)
    if not dominates:
        return 0, None
    return length + _nio_bonus(board, cells) + (2 if covered_nio else 0), None


#: A line's facts for its words (:func:`line_facts`): its cells as ``[x, y]``, and the words' facts.
LineFacts = tuple[list[list[int]], tuple[int, ...]]


def line_facts(board: Board, cell: int, cells: list[int]) -> LineFacts:
    """What the words of the line ``cells`` through ``cell`` need (the C engine's ``line_facts`` gives the same).

    The cells as ``[x, y]`` pairs, and apart from them, flat: the index of ``cell`` in the
    line, then for each cell its ``kind, boost``, its value in the line, and 1 if a Loki is
    next to it (else 0).
    """
    words = [cells.index(cell)]
    for other, value in zip(cells, line_values(board, cells), strict=True):
        piece = board[other]
        words += (piece & KIND_MASK, piece >> BOOST_SHIFT, value, int(loki_adjacent(board, other)))
    return coords(cells), tuple(words)


#: Labels of tiles in a line's reason, by ``(kind, boost, value, loki)``: few, and said again and again.
_LABELS: dict[tuple[int, int, int, int], str] = {}
#: The points part of a dominating line's reason, by ``(length, Niohoggrs, covered Niohoggr)``.
_POINTS_TEXTS: dict[tuple[int, int, bool], str] = {}
_BOOKEND_CLOSED = "the Valkyrie closes the bookend: Valkyries at both ends dominate the line"
_BOOKEND_HELD = "Valkyries at both ends hold this line; no value breaks their bookend"


def _line_label(kind: int, boost: int, value: int, loki: int) -> str:
    """:func:`_label_of` a tile of a line (kept: the same few labels come back in every position)."""
    key = (kind, boost, value, loki)
    label = _LABELS.get(key)
    if label is None:
        if len(_LABELS) >= 1 << 14:  # values are small, so this is a guard, not a policy
            _LABELS.clear()
        label = _LABELS[key] = _label_of(kind, boost, value, loki, ROW)
    return label


def line_words(step: int, facts: LineFacts, covered_nio: bool) -> tuple[int, dict[str, Any]]:
    """Points of the placed tile's line along ``step`` (ROW or COL) and its explanation, from :func:`line_facts`."""
    cells, words = facts
    index = words[0]
    kinds = words[1::4]
    length = len(kinds)
    at = 4 * index
    kind = words[at + 1]
    if kinds[0] == VA and kinds[-1] == VA:
        dominates = kind == VA and (index == 0 or index == length - 1)
        reason = _BOOKEND_CLOSED if dominates else _BOOKEND_HELD
    else:
        boost, mine, loki = words[at + 2], words[at + 3], words[at + 4]
        own = 0 if kind != LO and loki else FACE[kind] + boost
        fenrir = kind == FE
        # The rival: the first of the highest values among the others (a Fenrir's pack aside).
        best, best_value = -1, -1
        for i, value in enumerate(words[3::4]):
            if value > best_value and i != index and not (fenrir and kinds[i] == FE):
                best, best_value = i, value
        dominates = (own > 0 or not fenrir) and (best < 0 or mine > best_value)
        me = _line_label(kind, boost, mine, loki)
        if fenrir and own == 0:
            reason = f"{me}: a Fenrir next to Loki is worth 0 and only ties its pack"
        elif best < 0:
            reason = f"{me}: the Fenrir pack holds the whole line" if dominates else me
        else:
            rival = _line_label(kinds[best], words[4 * best + 2], best_value, words[4 * best + 4])
            if dominates:
                reason = f"{me} dominates; the next highest is {rival}"
            elif mine == best_value:
                reason = f"{me} only ties {rival}: a tie does not dominate"
            else:
                reason = f"{me} is below {rival}"
    name = "row" if step == ROW else "column"
    if not dominates:
        return 0, {"kind": name, "cells": cells, "points": 0, "reason": reason}
    nio = kinds.count(NI)
    points = length + 2 * nio + (2 if covered_nio else 0)
    key = (length, nio, covered_nio)
    text = _POINTS_TEXTS.get(key)
    if text is None:
        text = _POINTS_TEXTS[key] = _points_text(length, nio, covered_nio)
    return points, {"kind": name, "cells": cells, "points": points, "reason": f"{reason} ({text})"}


def _has_line_neighbour(board: Board, cell: int) -> bool:
    get = board.get
    for step in ORTHO:
        piece = get(cell + step)
        if piece is not None and piece & KIND_MASK != HE:
            return True
    return False


def score_hel(board: Board, cell: int, covered_nio: bool, explain: bool) -> tuple[int, list[dict[str, Any]]]:
    """Hel: 1 point per non-Hel tile among the 8 cells around it (+2 for a covered Niohoggr)."""
    get = board.get
    around = [cell + d for d in AROUND if (p := get(cell + d)) is not None and p & KIND_MASK != HE]
    points = len(around) + (2 if covered_nio else 0)
    if not explain:
        return points, []
    reason = f"Hel scores 1 for each tile around it ({_points_text(len(around), 0, covered_nio)})"
    return points, [{"kind": "neighbours", "cells": coords(around), "points": points, "reason": reason}]


def score_dwarf(board: Board, cell: int, explain: bool) -> tuple[int, list[dict[str, Any]]]:
    """Dwarf: half (rounded down) of the values of its orthogonal neighbours."""
    get = board.get
    parts: list[tuple[int, int]] = []
    for step in ORTHO:
        neighbour = cell + step
        piece = get(neighbour)
        if piece is None or piece & KIND_MASK == HE:
            continue
        axis = COL if step in (WIDTH, -WIDTH) else ROW
        parts.append((neighbour, value_in_line(board, neighbour, axis)))
    total = sum(v for _, v in parts)
    points = total // 2
    if not explain:
        return points, []
    if parts:
        terms = " + ".join(_label(board, c, v, COL if abs(c - cell) == WIDTH else ROW) for c, v in parts)
        reason = f"Dwarf scores half of its neighbours' values: ({terms}) / 2 = {total} / 2"
    else:
        reason = "Dwarf has no neighbours to draw value from"
    return points, [{"kind": "neighbours", "cells": coords([c for c, _ in parts]), "points": points, "reason": reason}]


def serpent_span(board: Board, cell: int, step: int) -> list[int]:
    """Every cell from the farthest non-Hel tile on one side to the farthest on the other."""
    x, y = xy(cell)
    lo = hi = cell
    for other, piece in board.items():
        if piece & KIND_MASK == HE:
            continue
        ox, oy = xy(other)
        if (step == ROW and oy == y) or (step == COL and ox == x):
            if other < lo:
                lo = other
            elif other > hi:
                hi = other
    return list(range(lo, hi + step, step))


def judge_serpent(board: Board, cell: int, step: int, explain: bool) -> tuple[int, dict[str, Any] | None]:
    """Points the Sea Serpent at ``cell`` scores for its span along ``step``."""
    span = serpent_span(board, cell, step)
    tiles = [c for c in span if c in board and board[c] & KIND_MASK != HE]
    mine = own_value(board, cell, board[cell])
    others = [(value_in_line(board, c, step), c) for c in tiles if c != cell]
    line = line_cells(board, cell, step)
    bookended = len(line) >= 2 and board[line[0]] & KIND_MASK == VA and board[line[-1]] & KIND_MASK == VA
    kind_name = "row" if step == ROW else "column"
    if not others:
        points, reason = 0, "the Sea Serpent has no other tile in this span to dominate"
    elif bookended:
        points, reason = 0, "the Sea Serpent stands between two Valkyries that hold its line"
    else:
        best_value, best_cell = max(others, key=lambda vc: vc[0])
        me = _label(board, cell, mine)
        rival = _label(board, best_cell, best_value, step)
        if mine > best_value:
            nio = sum(1 for c in tiles if board[c] & KIND_MASK == NI)
            points = len(span) + 2 * nio
            reason = (
                f"{me} is the highest in its {kind_name} across gaps; the next highest is {rival} "
                f"({_points_text(len(span), nio, False, 'cells in the span')})"
            )
        elif mine == best_value:
            points, reason = 0, f"{me} only ties {rival}: a tie does not dominate"
        else:
            points, reason = 0, f"{me} is below {rival}"
    if not explain:
        return points, None
    return points, {"kind": "span", "cells": coords(span), "points": points, "reason": reason}


def lightning_lines(board: Board, cell: int) -> list[tuple[int, list[int]]]:
    """The Lightning Bolt's candidate lines: the shortest of its lines of 2 or more tiles."""
    lines = [(step, line_cells(board, cell, step)) for step in (ROW, COL)]
    lines = [(step, cells) for step, cells in lines if len(cells) >= 2]
    if not lines:
        return []
    shortest = min(len(cells) for _, cells in lines)
    return [(step, cells) for step, cells in lines if len(cells) == shortest]


def judge_lightning(
    board: Board, cell: int, step: int | None, covered_nio: bool, explain: bool
) -> tuple[int, dict[str, Any]]:
    """Points of a Lightning Bolt scoring its line along ``step`` (``None``: no line of 2)."""
    if step is None:
        points = 1 + (2 if covered_nio else 0)
        reason = "no line of two or more tiles: the Lightning Bolt scores 1"
        if covered_nio:
            reason += ", +2 for the covered Niohoggr"
        return points, {"kind": "single", "cells": coords([cell]), "points": points, "reason": reason}
    cells = line_cells(board, cell, step)
    nio = _nio_bonus(board, cells) // 2
    points = len(cells) + 2 * nio + (2 if covered_nio else 0)
    reason = ""
    if explain:
        reason = (
            "the Lightning Bolt scores the shortest of its lines, whatever the values "
            f"({_points_text(len(cells), nio, covered_nio)})"
        )
    return points, {
        "kind": "row" if step == ROW else "column",
        "cells": coords(cells),
        "points": points,
        "reason": reason,
    }


def score_lines(board: Board, cell: int, covered_nio: bool, explain: bool) -> tuple[int, list[dict[str, Any]]]:
    """Ordinary scoring of the tile at ``cell``: its row and column lines, or a line of one."""
    if not _has_line_neighbour(board, cell):
        kind = board[cell] & KIND_MASK
        if not explain:
            return 1 + (2 if kind == NI else 0) + (2 if covered_nio else 0), []
        return single_words(kind, [list(xy(cell))], covered_nio)
    total = 0
    details: list[dict[str, Any]] = []
    for step in (ROW, COL):
        points, detail = judge_line(board, cell, step, covered_nio, explain)
        total += points
        if detail is not None:
            details.append(detail)
    return total, details


def single_words(kind: int, cells: list[list[int]], covered_nio: bool) -> tuple[int, list[dict[str, Any]]]:
    """Points and explanation of a ``kind`` tile with no tile beside it, at ``cells`` (its one cell)."""
    points = 1 + (2 if kind == NI else 0) + (2 if covered_nio else 0)
    reason = "no tile beside it (Hels are gaps): it starts a line of one and scores 1"
    if kind == NI:
        reason += ", +2 for Niohoggr"
    if covered_nio:
        reason += ", +2 for the covered Niohoggr"
    return points, [{"kind": "single", "cells": cells, "points": points, "reason": reason}]


def lines_words(
    kind: int, x: int, y: int, covered_nio: bool, row: LineFacts | None, column: LineFacts | None
) -> tuple[int, list[dict[str, Any]]]:
    """:func:`score_lines` with its explanation, from the facts of the row and the column (:func:`line_facts`).

    ``kind`` at ``x, y`` is the tile scored; a line of one tile has no facts (``None``).
    """
    if row is None and column is None:
        return single_words(kind, [[x, y]], covered_nio)
    total = 0
    details: list[dict[str, Any]] = []
    for step, facts in ((ROW, row), (COL, column)):
        if facts is not None:
            points, detail = line_words(step, facts, covered_nio)
            total += points
            details.append(detail)
    return total, details


def score_placement(
    board: Board,
    cell: int,
    covered_nio: bool,
    line: str | None,
    explain: bool,
) -> tuple[int, list[dict[str, Any]]]:
    """Score the tile now at ``cell`` (placed, covering, swapped in or bumped in).

    ``line`` is the chosen line (``"row"``/``"col"``) for a Sea Serpent or a Lightning
    Bolt; the caller has resolved it already.
    """
    kind = board[cell] & KIND_MASK
    if kind == HE:
        return score_hel(board, cell, covered_nio, explain)
    if kind == DW:
        return score_dwarf(board, cell, explain)
    if kind == SS:
        step = COL if line == "col" else ROW
        points, detail = judge_serpent(board, cell, step, explain)
        return points, [detail] if detail is not None else []
    if kind == LB:
        options = lightning_lines(board, cell)
        if not options:
            points, detail = judge_lightning(board, cell, None, covered_nio, explain)
        else:
            step = COL if line == "col" else ROW
            if all(s != step for s, _ in options):
                step = options[0][0]
            points, detail = judge_lightning(board, cell, step, covered_nio, explain)
        return points, [detail] if explain else []
    return score_lines(board, cell, covered_nio, explain)


def line_choice_points(board: Board, kind: int, cell: int, boost: int = 0) -> tuple[int, int]:
    """Points of the row and of the column for a Sea Serpent or a Lightning Bolt played at ``cell``.

    ``boost`` Freyas boost it (a Sea Serpent's value counts; a Lightning Bolt's does not).
    The tile is put on ``board`` while the lines are judged, then the board is restored.
    """
    old = board.get(cell)
    covered_nio = old is not None and old & KIND_MASK == NI
    board[cell] = piece_of(kind, boost)
    try:
        if kind == SS:
            return judge_serpent(board, cell, ROW, False)[0], judge_serpent(board, cell, COL, False)[0]
        return (
            judge_lightning(board, cell, ROW, covered_nio, False)[0],
            judge_lightning(board, cell, COL, covered_nio, False)[0],
        )
    finally:
        if old is None:
            del board[cell]
        else:
            board[cell] = old


def board_items(board: Mapping[int, int]) -> list[tuple[int, int, int, int]]:
    """``(x, y, kind, boost)`` for every visible tile, sorted by row then column."""
    items = []
    for cell, piece in board.items():
        x, y = xy(cell)
        items.append((x, y, piece & KIND_MASK, piece >> BOOST_SHIFT))
    items.sort(key=lambda item: (item[1], item[0]))
    return items
