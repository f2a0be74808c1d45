"""Völuspá in the terminal: the board, hands, events, hints and ranking of ``meadhall play``.

:class:`VoluspaRenderer` is the :class:`~meadhall.cli.play.Renderer` that
:class:`~meadhall.cli.play.TerminalGame` uses for Völuspá; the functions below it render
a *view* (never a state) and can be used on their own.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from meadhall.cli.play import CONTINUE, Command, Renderer, TerminalGame
from meadhall.core.errors import MalformedAction
from meadhall.core.game import Action, Event, Game, GameState
from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.explain import explain_turn, format_explanation, format_line
from meadhall.games.voluspa.notation import Bump, Discard, End, Place
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, KINDS

DEFAULT_SAVE = "meadhall-voluspa-save.json"

NOTATION_HELP = """\
Moves (Völuspá notation; x grows to the east, y to the south, the start tile is 0,0):
  TH@2,-1          place a tile from your hand at 2,-1 (on a tile: cover, Hel, Skadi swap)
  JO@1,0>E         Jotunn bumps the tile at 1,0 towards E (N, E, S, W) and takes its cell
  SS@3,0:row       Sea Serpent / Lightning Bolt with the line it scores (row or col)
  FR+ TH@4,0       discard a Freya to boost the tile (write FR+ once per Freya)
  HM@0,1 OD@0,2    several steps of one turn (Hermod then its follow-up; a Raven twice)
  end              decline an optional follow-up (after a Hermod or a Raven)
  discard:TH       discard a tile when no tile in your hand can be played"""

COMMANDS_HELP = """\
Commands:
  hint [CODE]      list your legal moves (only those of tile CODE)
  explain MOVE     judge MOVE on the current board: legal or not, and every point
  explain          the points of the last turn again
  board            the board (x across the top, y down the side; * = last turn)
  hand             your tiles
  scores           scores, tiles in hand, draw pile, discard pile
  log [N|all]      the last N events you may see (default 20)
  tiles            the tiles of this game: values, counts and powers
  save FILE        save the game (the file holds the seed: it replays every hand)
  load FILE        load a saved game
  help             this text
  quit             leave (you are offered to save)"""


# --- small helpers ------------------------------------------------------------------------


def _points(score: int) -> str:
    """A score in a column: ``  1 point`` or `` 12 points``."""
    return f"{score:>3} {'point' if score == 1 else 'points'}"


def tile_name(code: str) -> str:
    """A tile code for people: ``Thor``."""
    index = CODE_INDEX.get(code)
    return KINDS[index].name if index is not None else code


def tile_label(code: str, boost: int = 0) -> str:
    """A tile with its code and value: ``TH Thor 7``, ``TH Thor 7+1``, ``HE Hel``."""
    index = CODE_INDEX.get(code)
    if index is None:
        return code
    kind = KINDS[index]
    if kind.value is None:
        return f"{code} {kind.name}"
    return f"{code} {kind.name} {kind.value}" + (f"+{boost}" if boost else "")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _step_cell(step: str) -> tuple[int, int] | None:
    """The cell a step in notation names, if it names one."""
    from meadhall.games.voluspa.notation import parse_action

    try:
        action = parse_action(step)
    except MalformedAction:
        return None
    if isinstance(action, Place | Bump):
        return action.x, action.y
    return None


def action_group(action: Action) -> str:
    """The heading an action is listed under by ``hint``: its tile code, ``discard`` or ``end``."""
    if isinstance(action, Place):
        return CODES[action.tile]
    if isinstance(action, Bump):
        return "JO"
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, End):
        return "end"
    return "other"


def preset_of(game: Game, options: Mapping[str, Any]) -> str | None:
    """The name of the preset whose tile kinds are exactly ``options['kinds']``, if any."""
    kinds = list(options.get("kinds") or [])
    for name, preset in game.info.presets.items():
        if list(preset.get("kinds") or []) == kinds:
            return name
    return None


# --- rendering a view (never a state) ----------------------------------------------------


def recent_cells(view: Mapping[str, Any]) -> set[tuple[int, int]]:
    """Cells named by the steps of the turn in progress, or else of the last turn."""
    steps = list(view.get("turn_steps") or [])
    if not steps and view.get("last_turn"):
        steps = list(view["last_turn"]["steps"])
    cells = set()
    for step in steps:
        cell = _step_cell(step)
        if cell is not None:
            cells.add(cell)
    return cells


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


def render_hand(view: Mapping[str, Any], label: str) -> str:
    """The line showing the hand of ``view``'s seat: ``Your hand, Seat 1 (Ann): ...``."""
    hand = list(view.get("hand") or [])
    counts: dict[str, int] = {}
    for code in hand:
        counts[code] = counts.get(code, 0) + 1
    parts = [tile_label(code) + (f" x{n}" if n > 1 else "") for code, n in counts.items()]
    return f"Your hand, {label}: " + (" | ".join(parts) if parts else "empty")


def render_status(view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
    """Turn, draw pile, discard pile, each seat's score and tiles, booster tokens."""
    discards = view.get("discard_pile") or {}
    pile_text = ", ".join(f"{code} {n}" for code, n in discards.items()) or "empty"
    lines = [f"Turn {view['turn']} | draw pile: {_plural(int(view['pile']), 'tile')} | discard pile: {pile_text}"]
    to_move = set(view.get("to_move") or [])
    width = max(len(label) for label in labels)
    for entry in view["seats"]:
        seat = int(entry["seat"])
        pointer = ">" if seat in to_move else " "
        held = _plural(int(entry["tiles"]), "tile")
        if entry.get("hels"):
            held += f" + {entry['hels']} Hel"
        known = entry.get("known") or {}
        known_text = (
            ("  known in hand: " + ", ".join(f"{c} x{n}" if n > 1 else c for c, n in known.items())) if known else ""
        )
        lines.append(
            f" {pointer} {labels[seat].ljust(width)}  {_points(int(entry['score'])).ljust(10)}  {held}{known_text}"
        )
    if "FR" in (view.get("options") or {}).get("kinds", []):
        supply = view.get("booster_supply") or {}
        tokens = [value for value, n in sorted(supply.items(), key=lambda item: int(item[0])) for _ in range(int(n))]
        lines.append("Booster tokens left: " + (" ".join(tokens) if tokens else "none"))
    return lines


def format_lines(lines: Iterable[Mapping[str, Any]], indent: str = "    ") -> list[str]:
    """The scored lines of a ``scored`` event (kind, cells, points, reason) as text."""
    return [format_line(line, indent) for line in lines]


def format_event(event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
    """Lines for one event, as seen by ``viewer`` (the caller filters by audience)."""
    data = event.data
    seat = data.get("seat")
    who = labels[seat] if isinstance(seat, int) and 0 <= seat < len(labels) else "Someone"
    kind = event.kind
    if kind == "placed":
        text = f"{who} places {tile_label(str(data['tile']), int(data.get('boost') or 0))} at {data['x']},{data['y']}"
        if "covered" in data:
            text += f", covering {tile_name(str(data['covered']))}"
        if "took" in data:
            text += f", taking {tile_name(str(data['took']))} into the hand"
            if data.get("freyas_back"):
                text += f" with {_plural(int(data['freyas_back']), 'Freya')} from the discard pile"
        if "bumped" in data:
            to = data.get("to") or ["?", "?"]
            text += f", bumping {tile_name(str(data['bumped']))} to {to[0]},{to[1]}"
        if data.get("either_line"):
            text += ", no line named (its row and column score the same)"
        return [f"{text}   [{data.get('step')}]"]
    if kind == "scored":
        points = int(data["points"])
        return [f"  {_plural(points, 'point')} (total {data['total']})", *format_lines(data.get("lines") or [])]
    if kind == "drew":
        name = tile_label(str(data["tile"]))
        return [f"You drew {name}." if seat == viewer else f"{who} drew {name}."]
    if kind == "refilled":
        return [f"{who} draws {_plural(int(data['count']), 'tile')}; {data['pile']} left in the draw pile."]
    if kind == "discarded":
        why = "down to five tiles" if data.get("down") else "no tile could be played"
        return [f"{who} discards {tile_name(str(data['tile']))} ({why})."]
    if kind == "ended":
        return [f"{who} ends the turn."]
    if kind == "lifted":
        return [f"{who} lifts the Raven from {data['x']},{data['y']} to place it again."]
    if kind == "hels-removed":
        return [f"Every Hel leaves the hands: {data.get('reason', 'no-late-hel')}."]
    if kind == "passed":
        return [f"{who} passes: no tiles left."]
    if kind in ("turn", "game-over"):
        return []
    return [f"{kind}: {json.dumps(dict(data), ensure_ascii=False)}"]


def format_hint(legal: Sequence[Action], only: str | None = None, width: int = 100) -> list[str]:
    """``legal`` grouped by tile, two spaces between moves; ``only`` keeps one group."""
    groups: dict[str, list[str]] = {}
    for action in legal:
        group = action_group(action)
        if only is not None and group.upper() != only.upper():
            continue
        groups.setdefault(group, []).append(str(action))
    total = sum(len(items) for items in groups.values())
    lines = [f"Legal moves ({total}):"]
    for group, items in groups.items():
        head = f"  {tile_name(group)} ({group}): " if group in CODE_INDEX else f"  {group}: "
        current = head
        for item in items:
            if current != head and len(current) + len(item) + 2 > width:
                lines.append(current.rstrip())
                current = " " * len(head)
            current += item + "  "
        lines.append(current.rstrip())
    return lines


def instructions(view: Mapping[str, Any], legal: Sequence[Action]) -> str:
    """What the seat to move may do now, in one sentence."""
    stage = view.get("stage")
    only_discards = bool(legal) and all(isinstance(a, Discard) for a in legal)
    if stage == "discard-down":
        held = sum(1 for code in view.get("hand") or [] if code != "HE")
        return f"You hold {held} tiles: discard down to five (discard:CODE)."
    if stage == "hermod":
        x, y = view.get("hermod") or ("?", "?")
        if only_discards:
            return f"No tile in your hand can follow the Hermod at {x},{y}: discard one (discard:CODE)."
        return (
            f"Hermod at {x},{y}: place one more tile ending in its row or column line "
            "(a Hel on it or around it), or type 'end'."
        )
    if stage == "raven":
        x, y = view.get("raven") or ("?", "?")
        return f"Raven at {x},{y}: place it once more on another cell (RA@X,Y), or type 'end'."
    if only_discards:
        return "No tile in your hand can be played: discard one (discard:CODE)."
    return "Your move, e.g. TH@1,0 ('hint' lists your legal moves, 'help' the commands)."


def final_ranking_lines(view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
    """Places, scores, the winner and how any tie was broken (from the public view)."""
    seats = list(view["seats"])
    places: list[int] = list(view.get("places") or [])
    if not places:
        places = [1 + sum(1 for o in seats if o["score"] > s["score"]) for s in seats]
    order = sorted(range(len(seats)), key=lambda s: (places[s], s))
    width = max(len(label) for label in labels)
    lines = ["Final ranking:"]
    for seat in order:
        shown = _points(int(seats[seat]["score"]))
        lines.append(f"  {_ordinal(places[seat]):>4}  {labels[seat].ljust(width)}  {shown}")
    by_score: dict[int, list[int]] = {}
    for seat in order:
        by_score.setdefault(int(seats[seat]["score"]), []).append(seat)
    for score, tied in by_score.items():
        if len(tied) < 2:
            continue
        names = " and ".join(labels[s] for s in tied)
        reached = [int(seats[s]["reached_at"]) for s in tied]
        if len(set(reached)) == 1:
            lines.append(
                f"Tie: {names} have {_plural(score, 'point')} each and reached them at the same moment: "
                "they share the place."
            )
            continue
        steps = ", ".join(f"{labels[s]} at move {seats[s]['reached_at']}" for s in tied)
        first = tied[0]
        lines.append(
            f"Tie-break: {names} have {_plural(score, 'point')} each; the tie goes to whoever reached the score first "
            f"({steps}), so {labels[first]} places higher."
        )
    winners = [labels[s] for s in order if places[s] == 1]
    lines.append(("Winner: " if len(winners) == 1 else "Winners: ") + " and ".join(winners) + ".")
    return lines


# --- commands of their own -----------------------------------------------------------------


def cmd_explain(terminal: TerminalGame, rest: str) -> str:
    """``explain MOVE``: judge a move on this board; ``explain``: the last turn's points."""
    if not rest:
        terminal.show_last_turn("No turn has been played yet. Try 'explain TH@1,0'.")
        return CONTINUE
    state = terminal.state
    view = state.view(None)
    board = {cell_of(t["x"], t["y"]): piece_of(CODE_INDEX[t["tile"]], t["boost"]) for t in view["board"]}
    try:
        result = explain_turn(board, rest, auto_best_line=bool(state.options.get("auto-best-line")))
    except MalformedAction as error:
        terminal.say(f"Cannot read that move: {error}")
        return CONTINUE
    terminal.say(f"On the board as it is, as if the tiles of {rest} were in hand:")
    terminal.say(format_explanation(result))
    seat = terminal.seat_to_move()
    if seat is not None and result["legal"]:
        try:
            steps = terminal.game.parse_actions(rest)
        except MalformedAction:  # pragma: no cover - explain_turn read it already
            return CONTINUE
        problem = terminal.check_steps(seat, steps)
        if problem is None:
            terminal.say("You can play it now.")
        else:
            terminal.say(f"But you cannot play it now: {problem}")
    return CONTINUE


def cmd_tiles(terminal: TerminalGame, rest: str) -> str:
    """``tiles``: the kinds in this game."""
    del rest
    for code in terminal.state.options.get("kinds", []):
        kind = KINDS[CODE_INDEX[code]]
        value = "-" if kind.value is None else str(kind.value)
        terminal.say(f"  {code} {kind.name:<15} value {value:>2}, {_plural(kind.count, 'tile')}: {kind.power}")
    return CONTINUE


# --- the renderer ----------------------------------------------------------------------------


class VoluspaRenderer(Renderer):
    """Völuspá in the terminal: one turn is one placement (with its Hermod or Raven follow-up)."""

    default_save = DEFAULT_SAVE
    private_word = "tiles"
    notation_help = NOTATION_HELP
    commands_help = COMMANDS_HELP
    empty_input = "Type a move such as TH@1,0, 'hint' for your legal moves, or 'help'."
    malformed_help = "Moves look like TH@1,0 or HM@0,1 OD@0,2; type 'help' for the notation."
    after_game_commands = ("save", "board", "scores", "score", "status", "log", "explain", "help", "tiles", "?")
    after_game_help = "The game is over. Commands now: save FILE, board, scores, log, explain MOVE, quit."
    preset_question = "Which tiles? base, saga, order, all, ... ('?' lists them) [{default}] "

    def setup_line(self, state: GameState[Any]) -> str:
        """``Völuspá: 2 players, Saga of Edda (saga).``."""
        info = self.game.info
        preset = preset_of(self.game, state.options)
        tiles = f"{info.preset_titles.get(preset, preset)} ({preset})" if preset else "custom tile set"
        return f"{info.title}: {_plural(state.num_players, 'player')}, {tiles}."

    def option_lines(self, state: GameState[Any]) -> list[str]:
        """The options that are on."""
        extras = [name for name in ("no-late-hel", "auto-best-line") if state.options.get(name)]
        return [f"  options: {', '.join(extras)}"] if extras else []

    def where(self, state: GameState[Any]) -> str:
        """``turn 5``."""
        return f"turn {self.turn_key(state)}"

    def turn_key(self, state: GameState[Any]) -> Hashable:
        """The turn number."""
        return int(state.view(None)["turn"])

    def too_many_steps(self, done: str, step: str) -> str:
        """Only a Hermod or a Raven lets a turn go on."""
        return (
            f"your turn is over after {done}, so {step} cannot follow "
            "(only a Hermod or a Raven allows another placement)"
        )

    def turn_header(self, view: Mapping[str, Any], seat: int, label: str) -> str:
        """``=== Turn 3: Seat 1 (You) ===``."""
        del seat
        return f"=== Turn {view['turn']}: {label} ==="

    def bot_header(self, view: Mapping[str, Any], seat: int, label: str) -> str | None:
        """``--- Turn 3: Seat 2 (Random bot) ---``."""
        del seat
        return f"--- Turn {view['turn']}: {label} ---"

    def board_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board with a legend for the marked cells."""
        lines = render_board(view)
        if view.get("turn_steps"):
            lines.append(f"  * = this turn: {' '.join(view['turn_steps'])}")
        elif view.get("last_turn"):
            last = view["last_turn"]
            lines.append(f"  * = last turn, {labels[int(last['seat'])]}: {' '.join(last['steps'])}")
        return lines

    def status_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """Turn, piles, scores, tiles in hand."""
        return render_status(view, labels)

    def hand_lines(self, view: Mapping[str, Any], label: str) -> list[str]:
        """``Your hand, Seat 1 (You): ...``."""
        return [render_hand(view, label)]

    def turn_start_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board and the scores."""
        return ["", *self.board_lines(view, labels), *self.status_lines(view, labels)]

    def continue_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board again (after a Hermod or a Raven)."""
        return ["", *self.board_lines(view, labels)]

    def prompt_lines(self, view: Mapping[str, Any], legal: Sequence[Action], label: str) -> list[str]:
        """The hand and what to do."""
        return [render_hand(view, label), instructions(view, legal)]

    def end_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The final board and the ranking."""
        return [*render_board(view), "", *final_ranking_lines(view, labels)]

    def format_event(self, event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
        """See :func:`format_event`."""
        return format_event(event, labels, viewer)

    def hint_lines(
        self, legal: Sequence[Action], only: str | None, view: Mapping[str, Any], labels: Sequence[str]
    ) -> list[str]:
        """See :func:`format_hint`."""
        del view, labels
        return format_hint(legal, only)

    def commands(self) -> dict[str, Command]:
        """``explain`` and ``tiles``."""
        return {"explain": cmd_explain, "tiles": cmd_tiles}
