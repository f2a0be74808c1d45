"""Völuspá's words: how its actions, decisions, events, tiles and results read for people.

Every interface (the terminal, the browser through the server, replays) shows these and
words nothing of Völuspá itself. Everything here reads a view, the notation of legal
actions or an event, never a state (see :mod:`meadhall.core.words`). The scored lines'
reasons come from the engine (:mod:`meadhall.games.voluspa.board`, through
:func:`~meadhall.games.voluspa.explain.format_line`); refusals are the engine's
:class:`~meadhall.core.errors.IllegalAction` messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from meadhall.core.errors import InvalidOptions, MalformedAction
from meadhall.core.game import Event
from meadhall.core.words import (
    ActionWords,
    ComponentWords,
    EventWords,
    GameWords,
    Preview,
    ResultWords,
    joined,
    literal,
    name_of,
    plural,
    standings,
    ties,
)
from meadhall.games.voluspa.board import Board, cell_of, piece_of
from meadhall.games.voluspa.explain import explain_turn, format_line
from meadhall.games.voluspa.notation import END, Bump, Discard, End, Place, VoluspaAction, parse_action
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, FACE, FR, KINDS, LB, NAMES, SK, SS, TileKind

NOTATION_HELP = """\
Moves (Völuspá notation; x grows to the east, y to the south, the start tile is 0,0):
  TH@2,-1          place a tile from your hand at 2,-1 (on a tile: cover, Hel, Skadi swap)
  JO@1,0>E         Jotunn bumps the tile at 1,0 towards E (N, E, S, W) and takes its cell
  SS@3,0:row       Sea Serpent / Lightning Bolt with the line it scores (row or col)
  FR+ TH@4,0       discard a Freya to boost the tile (write FR+ once per Freya)
  HM@0,1 OD@0,2    several steps of one turn (Hermod then its follow-up; a Raven twice)
  end              decline an optional follow-up (after a Hermod or a Raven)
  discard:TH       discard a tile when no tile in your hand can be played"""

_DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: Tile names as they appear in texts (content data: braces doubled).
_NAMES = tuple(literal(name) for name in NAMES)
_END_GROUP = "End the turn"
_DISCARD_GROUP = "Discard a tile"

#: Actions read from notation, and the words of each (action, what lies under it, auto-best-line,
#: either line): a server lists the same actions again and again.
_PARSED: dict[str, VoluspaAction] = {}
_ACTION_WORDS: dict[tuple[str, str, bool, bool], ActionWords] = {}
_CACHE_LIMIT = 200_000


def tile_name(code: str) -> str:
    """A tile code for people: ``Thor`` (the code itself if unknown)."""
    index = CODE_INDEX.get(code)
    return _NAMES[index] if index is not None else literal(code)


def tile_label(code: str, boost: int = 0) -> str:
    """A tile with its code and value: ``TH Thor 7``, ``TH Thor 7+1``, ``HE Hel``."""
    index = CODE_INDEX.get(code)
    if index is None:
        return literal(code)
    kind = KINDS[index]
    if kind.value is None:
        return f"{code} {_NAMES[index]}"
    return f"{code} {_NAMES[index]} {kind.value}" + (f"+{boost}" if boost else "")


def _action(notation: str) -> VoluspaAction:
    action = _PARSED.get(notation)
    if action is None:
        if len(_PARSED) >= _CACHE_LIMIT:
            _PARSED.clear()
        action = _PARSED[notation] = parse_action(notation)
    return action


def _group(action: VoluspaAction) -> str:
    if isinstance(action, End):
        return _END_GROUP
    if isinstance(action, Discard):
        return _DISCARD_GROUP
    tile = action.tile if isinstance(action, Place) else CODE_INDEX["JO"]
    return f"{_NAMES[tile]} ({CODES[tile]})"


def _label(action: VoluspaAction, under: str, auto: bool, either: bool) -> str:
    if isinstance(action, End):
        return "End the turn (decline the follow-up)"
    if isinstance(action, Discard):
        return f"Discard {_NAMES[action.tile]}"
    at = f"{action.x},{action.y}"
    if isinstance(action, Bump):
        tile = CODE_INDEX["JO"]
        bumped = tile_name(under) if under else "the tile"
        text = f"{_NAMES[tile]} bumps {bumped} at {at} to the {_DIRECTIONS[action.direction]}"
    else:
        tile = action.tile
        if under:
            verb = "swap with" if tile == SK else "cover"
            text = f"{_NAMES[tile]}: {verb} {tile_name(under)} at {at}"
        else:
            text = f"{_NAMES[tile]} at {at}"
    if action.boost:
        times = "once" if action.boost == 1 else f"{action.boost} times"
        text += f", boosted {times} with {_NAMES[FR]} (value {FACE[tile] + action.boost})"
    if isinstance(action, Place):
        if action.line is not None:
            text += ", scoring its row" if action.line == "row" else ", scoring its column"
        elif either:
            text += ", either line (both score the same)"
        elif auto and tile == SS:
            text += ", scoring its better line"
    return text


def _target(action: VoluspaAction) -> dict[str, Any]:
    """Where the board plugin picks it: ``kind``, ``tile``, ``cell``; ``boost``, ``line``, ``direction`` when set."""
    if isinstance(action, End):
        return {"kind": "end"}
    if isinstance(action, Discard):
        return {"kind": "discard", "tile": CODES[action.tile]}
    target: dict[str, Any]
    if isinstance(action, Bump):
        target = {"kind": "bump", "tile": "JO", "cell": [action.x, action.y], "direction": action.direction}
    else:
        target = {"kind": "place", "tile": CODES[action.tile], "cell": [action.x, action.y]}
        if action.line is not None:
            target["line"] = action.line
    if action.boost:
        target["boost"] = action.boost
    return target


def action_words(notation: str, under: str = "", auto: bool = False, either: bool = False) -> ActionWords:
    """The words of one action: ``under`` is the code of the tile on its cell (if any)."""
    key = (notation, under, auto, either)
    found = _ACTION_WORDS.get(key)
    if found is None:
        if len(_ACTION_WORDS) >= _CACHE_LIMIT:
            _ACTION_WORDS.clear()
        action = _action(notation)
        found = _ACTION_WORDS[key] = {
            "notation": notation,
            "label": _label(action, under, auto, either),
            "group": _group(action),
            "target": _target(action),
        }
    return found


class _Entry(NamedTuple):
    """What :meth:`VoluspaWords.actions` keeps of a notation whose words depend on the board."""

    words: ActionWords  # on an empty cell, the line not compared
    cell: tuple[int, int] | None  # where it may lie on a tile (a cover, a swap, a bump)
    line_choice: tuple[int, int, int, int] | None  # (tile, x, y, boost) of a Sea Serpent or Lightning Bolt
    named_line: bool  # it names its line (:row, :col)
    on: dict[str, ActionWords]  # its words on a tile, by the tile's code


#: Tiles that may be played on a tile (cover, swap, Hel, Lightning Bolt); a bump always is.
_ON_TILES = frozenset(CODE_INDEX[code] for code in ("DR", "RA", "LB", "HE", "SK"))
#: By auto-best-line, then notation: the words of an action whose words never depend on
#: the board (most of them), or what is kept of one whose words do.
_KEPT: tuple[dict[str, ActionWords | _Entry], dict[str, ActionWords | _Entry]] = ({}, {})


def _keep(notation: str, auto: bool) -> ActionWords | _Entry:
    """Keep the words of ``notation`` in :data:`_KEPT`: its words, or an entry if they depend on the board."""
    kept = _KEPT[auto]
    if len(kept) >= _CACHE_LIMIT:
        kept.clear()
    action = _action(notation)
    words = action_words(notation, "", auto, False)
    cell = None
    choice = None
    if isinstance(action, Bump) or (isinstance(action, Place) and action.tile in _ON_TILES):
        cell = (action.x, action.y)
    if isinstance(action, Place) and (action.tile == SS or action.tile == LB):
        choice = (action.tile, action.x, action.y, action.boost)
    if cell is None and choice is None:
        kept[notation] = words
        return words
    named = isinstance(action, Place) and action.line is not None
    entry = kept[notation] = _Entry(words, cell, choice, named, {})
    return entry


def _seat_of(view: Mapping[str, Any]) -> int | None:
    movers = view.get("to_move") or []
    return int(movers[0]) if movers else None


def _hermod_at(view: Mapping[str, Any]) -> str:
    x, y = view.get("hermod") or ("?", "?")
    return f"{x},{y}"


class VoluspaWords(GameWords):
    """Völuspá's words (see the module docstring)."""

    hand_word = "tiles"
    component_word = "tiles"
    public_table = True  # scores, piles and tiles in hand are in every view alike
    notation = NOTATION_HELP
    turn_rule = "only a Hermod or a Raven allows another placement"

    # actions and decisions ----------------------------------------------------------

    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        """Label, group and target of each legal action; what a placement covers comes from the view's board.

        A server asks this for every update of the seat to move, over a hundred actions
        at a time: the words of each notation are kept (:data:`_KEPT`), so most actions
        cost one lookup.
        """
        auto = bool((view.get("options") or {}).get("auto-best-line"))
        kept = _KEPT[auto]
        occupied: dict[tuple[int, int], str] | None = None
        result: list[ActionWords] = []
        append = result.append
        lines: list[tuple[int, _Entry, str]] | None = None
        for notation in legal:
            found = kept.get(notation)
            if found is None:
                found = _keep(notation, auto)
            if isinstance(found, dict):
                append(found)
                continue
            words, cell, choice, _, on = found
            under = None
            if cell is not None:
                if occupied is None:
                    occupied = {(tile["x"], tile["y"]): tile["tile"] for tile in view.get("board") or ()}
                under = occupied.get(cell)
            if choice is not None:
                if lines is None:
                    lines = []
                lines.append((len(result), found, under or ""))
            if under is None:
                append(words)
                continue
            covering = on.get(under)
            if covering is None:
                covering = on[under] = action_words(notation, under, auto, False)
            append(covering)
        if lines is not None:
            # A plain SS@x,y (LB@x,y) offered beside its :row and :col forms: both lines score the same.
            named = {entry.line_choice for _, entry, _ in lines if entry.named_line}
            for index, entry, under in lines:
                if not entry.named_line and entry.line_choice in named:
                    result[index] = action_words(entry.words["notation"], under, auto, True)
        return result

    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """What the seat to move decides: a placement, a follow-up, a discard."""
        stage = view.get("stage")
        only_discards = bool(legal) and all(isinstance(_action(n), Discard) for n in legal)
        if stage == "discard-down":
            held = sum(1 for code in view.get("hand") or [] if code != "HE")
            return f"You hold {held} tiles: discard down to five."
        if stage == "hermod":
            if only_discards:
                return f"No tile in your hand can follow the Hermod at {_hermod_at(view)}: discard one."
            return (
                f"Hermod at {_hermod_at(view)}: place one more tile ending in its row or column line "
                "(a Hel on it or around it), or end the turn."
            )
        if stage == "raven":
            x, y = view.get("raven") or ("?", "?")
            return f"Raven at {x},{y}: place it once more on another cell, or end the turn."
        if only_discards:
            return "No tile in your hand can be played: discard one."
        return "Your move: place a tile from your hand."

    # before a move -------------------------------------------------------------------

    def target_notation(self, view: Mapping[str, Any], target: Mapping[str, Any]) -> str | None:
        """The step a target names: a tile (``kind`` place by default) on a ``cell``, a bump, a discard, the end."""
        del view
        kind = target.get("kind", "place")
        if kind == "end":
            return str(END)
        tile = CODE_INDEX.get(str(target.get("tile")))
        if tile is None:
            return None
        if kind == "discard":
            return str(Discard(tile))
        cell = target.get("cell")
        if not (isinstance(cell, list | tuple) and len(cell) == 2 and all(isinstance(c, int) for c in cell)):
            return None
        boost = target.get("boost") or 0
        if not isinstance(boost, int) or not 0 <= boost <= 3:
            return None
        if kind == "bump":
            direction = target.get("direction")
            if direction not in _DIRECTIONS:
                return None
            return str(Bump(cell[0], cell[1], str(direction), boost))
        line = target.get("line")
        return str(Place(tile, cell[0], cell[1], boost, line if line in ("row", "col") else None))

    def preview(self, view: Mapping[str, Any], legal: Sequence[str], notation: str) -> Preview:
        """The points a step would score and each line, as ``meadhall voluspa explain`` judges it on the board."""
        # Labelled among all the legal actions: whether a line needs naming depends on the others.
        listed = [notation, *legal] if notation not in legal else legal
        title = next(item["label"] for item in self.actions(view, listed) if item["notation"] == notation)
        action = _action(notation)
        if isinstance(action, End):
            return {"legal": True, "title": title, "lines": ["The turn ends: no more points this turn."]}
        if isinstance(action, Discard):
            return {"legal": True, "title": title, "lines": ["A discard scores nothing."], "points": "0 points"}
        board: Board = {
            cell_of(int(tile["x"]), int(tile["y"])): piece_of(
                CODE_INDEX[str(tile["tile"])], int(tile.get("boost") or 0)
            )
            for tile in view.get("board") or ()
        }
        raven = view.get("raven")
        if view.get("stage") == "raven" and raven:
            board.pop(cell_of(int(raven[0]), int(raven[1])), None)  # the Raven is lifted for its second placement
        try:
            judged = explain_turn(board, [action], options=view.get("options") or None)
        except (MalformedAction, InvalidOptions):
            judged = None
        if judged is None or not judged["legal"]:
            # A step the board alone cannot judge (a follow-up bound to the turn so far): its label.
            return {"legal": True, "title": title, "lines": []}
        step = judged["steps"][0]
        lines = [literal(format_line(line, "")) for line in step["lines"]]
        if step.get("note"):
            lines.append(literal(step["note"]))
        return {"legal": True, "title": title, "lines": lines, "points": plural(int(step["points"]), "point")}

    # events --------------------------------------------------------------------------

    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        """Every event the engine emits, as ``viewer`` reads it."""
        data = event.data
        seat = data.get("seat")
        who = name_of(seat) if isinstance(seat, int) else "Someone"
        kind = event.kind
        if kind == "placed":
            tile = tile_label(str(data["tile"]), int(data.get("boost") or 0))
            text = f"{who} places {tile} at {data['x']},{data['y']}"
            if "covered" in data:
                text += f", covering {tile_name(str(data['covered']))}"
            if "took" in data:
                text += f", taking {tile_name(str(data['took']))} into the hand"
                if data.get("freyas_back"):
                    text += f" with {plural(int(data['freyas_back']), _NAMES[FR])} from the discard pile"
            if "bumped" in data:
                to = data.get("to") or ["?", "?"]
                text += f", bumping {tile_name(str(data['bumped']))} to {to[0]},{to[1]}"
            if data.get("either_line"):
                text += ", no line named (its row and column score the same)"
            return {"text": f"{text}   [{literal(str(data.get('step')))}]", "details": []}
        if kind == "scored":
            points = int(data["points"])
            return {
                "text": f"{who} scores {plural(points, 'point')} (total {data['total']})",
                "details": [literal(format_line(line, "")) for line in data.get("lines") or []],
            }
        if kind == "drew":
            name = tile_label(str(data["tile"]))
            return {"text": f"You drew {name}." if seat == viewer else f"{who} drew {name}.", "details": []}
        if kind == "refilled":
            text = f"{who} draws {plural(int(data['count']), 'tile')}; {data['pile']} left in the draw pile."
            return {"text": text, "details": []}
        if kind == "discarded":
            why = "down to five tiles" if data.get("down") else "no tile could be played"
            return {"text": f"{who} discards {tile_name(str(data['tile']))} ({why}).", "details": []}
        if kind == "ended":
            return {"text": f"{who} ends the turn.", "details": []}
        if kind == "lifted":
            return {"text": f"{who} lifts the Raven from {data['x']},{data['y']} to place it again.", "details": []}
        if kind == "hels-removed":
            return {
                "text": "The last tile was drawn: every Hel still in a hand leaves the game (no-late-hel).",
                "details": [f"{name_of(int(s))}: {plural(int(n), 'Hel')}" for s, n in data.get("seats") or []],
            }
        if kind == "passed":
            return {"text": f"{who} passes: no tiles left.", "details": []}
        if kind == "turn":
            return {"text": f"Turn {data['turn']}: {who}", "details": [], "heading": True}
        if kind == "game-over":
            return {"text": "The game is over.", "details": [], "heading": True}
        return None

    # beside the board ------------------------------------------------------------------

    def heading(self, view: Mapping[str, Any]) -> str:
        """``Turn 5: {1}``; the end."""
        seat = _seat_of(view)
        if view.get("finished") or seat is None:
            return "The game is over"
        return f"Turn {view['turn']}: {name_of(seat)}"

    def status(self, view: Mapping[str, Any]) -> list[str]:
        """Whose turn, the draw pile; the discard pile; the booster tokens left (with Freyas)."""
        seat = _seat_of(view)
        pile = f"draw pile: {plural(int(view['pile']), 'tile')}"
        if view.get("finished") or seat is None:
            first = f"The game is over · {pile}"
        else:
            first = f"Turn {view['turn']}: {name_of(seat)} to play · {pile}"
        discards = view.get("discard_pile") or {}
        lines = [first, "Discard pile: " + (", ".join(f"{code} {n}" for code, n in discards.items()) or "empty")]
        if CODES[FR] in (view.get("options") or {}).get("kinds", []):
            supply = view.get("booster_supply") or {}
            tokens = [v for v, n in sorted(supply.items(), key=lambda item: int(item[0])) for _ in range(int(n))]
            lines.append("Booster tokens left: " + (" ".join(tokens) if tokens else "none"))
        return lines

    def seat(self, view: Mapping[str, Any], seat: int) -> str:
        """``12 points · 5 tiles + 2 Hel · known in hand: TH, FR ×2``."""
        entry = view["seats"][seat]
        text = f"{plural(int(entry['score']), 'point')} · {plural(int(entry['tiles']), 'tile')}"
        if entry.get("hels"):
            text += f" + {entry['hels']} Hel"
        known = entry.get("known") or {}
        if known:
            text += " · known in hand: " + ", ".join(f"{c} ×{n}" if n > 1 else c for c, n in known.items())
        return text

    def result(self, view: Mapping[str, Any]) -> ResultWords:
        """Places and scores; how each tie was broken (whoever reached the score first)."""
        seats = list(view["seats"])
        places: list[int] = list(view.get("places") or [])
        if not places:
            places = [1 + sum(1 for o in seats if o["score"] > s["score"]) for s in seats]
        placed = standings(places, lambda s: plural(int(seats[s]["score"]), "point"))
        notes: list[str] = []
        for score, tied in ties([entry["seat"] for entry in placed], lambda s: int(seats[s]["score"])):
            names = joined([name_of(s) for s in tied])
            reached = [int(seats[s]["reached_at"]) for s in tied]
            if len(set(reached)) == 1:
                notes.append(
                    f"Tie: {names} have {plural(score, 'point')} each and reached them at the same moment: "
                    "they share the place."
                )
                continue
            steps = ", ".join(f"{name_of(s)} at move {seats[s]['reached_at']}" for s in tied)
            notes.append(
                f"Tie-break: {names} have {plural(score, 'point')} each; the tie goes to whoever reached the score "
                f"first ({steps}), so {name_of(tied[0])} places higher."
            )
        return {"standings": placed, "notes": notes}

    def components(self, options: Mapping[str, Any] | None = None) -> list[ComponentWords]:
        """The tiles in the game (every kind without options): name, value, count and power."""
        codes = set((options or {}).get("kinds") or CODES)

        def facts(kind: TileKind) -> str:
            return ("no value" if kind.value is None else f"value {kind.value}") + f", {plural(kind.count, 'tile')}"

        return [
            {
                "key": kind.code,
                "name": kind.name,
                "value": "" if kind.value is None else str(kind.value),
                "facts": facts(kind),
                "text": kind.power,
            }
            for kind in KINDS
            if kind.code in codes
        ]

    def places(self, view: Mapping[str, Any]) -> dict[str, str]:
        """Each placed tile by ``"x,y"``: its name and what it is worth now, beside what it shows.

        The worth is the view's (the engine's own reckoning); a tile worth less than its face
        is next to a Loki, the one rule that lowers a tile's own value.
        """
        said: dict[str, str] = {}
        for tile in view.get("board") or ():
            name = tile_name(str(tile["tile"])) + (f" +{tile['boost']}" if tile.get("boost") else "")
            key = f"{tile['x']},{tile['y']}"
            if "value" not in tile:
                said[key] = name
            elif tile["value"] < tile["printed"]:
                said[key] = f"{name}, worth {tile['value']} now (printed {tile['printed']}; Loki beside it)"
            else:
                said[key] = f"{name}, worth {tile['value']}"
        return said

    def titles(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The board's name (``board``), as screen readers read it."""
        del view
        return {"board": "The board"}


WORDS = VoluspaWords()
