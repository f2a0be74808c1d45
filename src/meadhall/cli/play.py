"""``meadhall play``: Völuspá in a plain terminal, hot-seat or against bots.

``meadhall play voluspa`` with no options asks how many players there are and which
seats are bots (press Enter for the defaults: you against one medium bot); the options
``--players``, ``--bots``/``--humans``, ``--names``, ``--preset``, ``--option``,
``--seed`` and ``--load`` set the game up without questions.

On your turn you type a move in Völuspá notation (``TH@1,0``, ``HM@0,1 OD@0,2``,
``FR+ TH@4,0``, ``JO@1,0>E``, ``SS@3,0:row``, ``end``, ``discard:TH``) or a command:
``hint``, ``explain MOVE``, ``board``, ``hand``, ``scores``, ``log``, ``tiles``,
``save FILE``, ``load FILE``, ``help``, ``quit``.

Hidden information stays hidden: a person is only ever shown their own seat's view and
the events visible to it. With two or more people at one device, a pass-the-device
screen comes between their turns (and the screen is cleared when the output is a
terminal). :class:`TerminalGame` takes its input function and output stream as
arguments, so a whole game can be driven by a script.
"""

from __future__ import annotations

import argparse
import builtins
import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from meadhall.bots import LEVELS, Bot, make_bot
from meadhall.core.errors import IllegalAction, InvalidOptions, MalformedAction, MeadhallError, RecordError
from meadhall.core.game import Action, Event, Game, GameState, fresh_seed
from meadhall.core.record import GameRecord
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.explain import explain_turn, format_explanation, format_line
from meadhall.games.voluspa.notation import Bump, Discard, End, Place
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, KINDS

#: Key of the extra object a saved game carries next to the game record.
SAVE_KEY = "meadhall_play"
SAVE_VERSION = 1
DEFAULT_SAVE = "meadhall-voluspa-save.json"
HUMAN = "human"
#: The bot that plays bot seats unless told otherwise: a strength level.
DEFAULT_BOT = "medium"


def bot_spec(bot: Bot) -> str:
    """The spec that makes this bot again (``make_bot(spec)``)."""
    spec: str = getattr(bot, "spec", bot.name)
    return spec


def bot_description(bot: Bot) -> str:
    """What plays a bot seat, for the seat list: ``medium bot (ismcts:0.25s)``."""
    spec = bot_spec(bot)
    level = LEVELS.get(spec)
    return f"{spec} bot ({level})" if level else f"{spec} bot"


def bot_label(bot: Bot) -> str:
    """The bot's name for people: its level if it has one (``Hard``), else its kind."""
    return bot_spec(bot).capitalize()


#: ANSI: clear the screen and the scrollback, cursor to the top left.
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"

# What handling one line of input led to.
CONTINUE = "continue"  # still the same seat's decision
MOVED = "moved"  # a move was applied
LOADED = "loaded"  # another game was loaded
QUIT = "quit"  # leave the program

InputFn = Callable[[str], str]

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
            f" {pointer} {labels[seat].ljust(width)}  {str(entry['score']).rjust(3)} points  {held}{known_text}"
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


# --- the game in the terminal --------------------------------------------------------


def bot_rng(seed: int, seat: int, ply: int = 0) -> Rng:
    """The rng of the bot in ``seat``: reproducible from the game seed, its own stream."""
    return Rng((seed * 0x9E3779B1 + 0x5EED_B075 + seat * 1_000_003 + ply * 7919) & ((1 << 64) - 1))


class TerminalGame:
    """One game in a terminal: people type moves and commands, bots choose for their seats.

    ``input_fn`` is called like :func:`input` (it shows the prompt and returns a line,
    raising :class:`EOFError` when input ends); ``output`` receives everything else.
    ``bots`` maps seats (0-based) to bots; the other seats are people. ``clear_screen``
    (default: only when ``output`` is a terminal) clears the screen around the
    pass-the-device screen. Drive a game with :meth:`run`, or one line at a time with
    :meth:`handle`.
    """

    def __init__(
        self,
        game: Game,
        state: GameState[Any],
        *,
        names: Sequence[str] | None = None,
        bots: Mapping[int, Bot] | None = None,
        input_fn: InputFn | None = None,
        output: TextIO | None = None,
        bot_delay: float = 0.0,
        clear_screen: bool | None = None,
        sleep_fn: Callable[[float], None] = time.sleep,
    ) -> None:
        self.game = game
        self.output: TextIO = output if output is not None else sys.stdout
        self.input_fn: InputFn = input_fn if input_fn is not None else builtins.input
        self.bot_delay = bot_delay
        self.sleep_fn = sleep_fn
        if clear_screen is None:
            isatty = getattr(self.output, "isatty", None)
            clear_screen = bool(isatty()) if callable(isatty) else False
        self.clear_screen = clear_screen
        self.state = state
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, Rng] = {}
        self.names: list[str] = []
        #: The seat whose private information may be on the screen now (None: nobody's).
        self.viewer: int | None = None
        #: The person who played last (to know when the device must be passed).
        self.last_human: int | None = None
        #: Every event so far, with its audience; shown to whoever may see each one.
        self.log: list[Event] = []
        self.seen: dict[int, int] = {}
        #: Where the last finished turn's entries are in :attr:`log` (start, end).
        self.last_turn_span: tuple[int, int] = (0, 0)
        #: The turn in progress of a person and where its entries start in the log.
        self._turn_start: tuple[int, int] | None = None
        self.unsaved = False
        self._setup_seats(names, bots or {})

    # seats -----------------------------------------------------------------------------

    def _setup_seats(self, names: Sequence[str] | None, bots: Mapping[int, Bot]) -> None:
        players = self.state.num_players
        for seat in bots:
            if not 0 <= seat < players:
                raise ValueError(f"there is no seat {seat + 1} in a {players}-player game")
        self.bots = dict(bots)
        self.bot_rngs = {seat: bot_rng(self.state.seed, seat, self.state_ply()) for seat in self.bots}
        given = list(names or [])
        if len(given) > players:
            raise ValueError(f"{len(given)} names for {players} seats")
        humans = self.humans
        result = []
        for seat in range(players):
            name = given[seat].strip() if seat < len(given) else ""
            if not name:
                if seat in self.bots:
                    name = f"{bot_label(self.bots[seat])} bot"
                else:
                    name = "You" if len(humans) == 1 else f"Player {seat + 1}"
            result.append(name)
        self.names = result

    def state_ply(self) -> int:
        """How many actions have been applied so far."""
        return len(self.state.history())

    @property
    def humans(self) -> list[int]:
        """The seats played by people."""
        return [seat for seat in range(self.state.num_players) if seat not in self.bots]

    @property
    def hotseat(self) -> bool:
        """True if two or more people share the device."""
        return len(self.humans) >= 2

    @property
    def labels(self) -> list[str]:
        """``Seat N (name)`` for every seat."""
        return [self.label(seat) for seat in range(self.state.num_players)]

    def label(self, seat: int) -> str:
        """``Seat 2 (Ann)``."""
        return f"Seat {seat + 1} ({self.names[seat]})"

    # output ------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write a line."""
        self.output.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read a line (raises :class:`EOFError` at the end of input)."""
        self.output.flush()
        return self.input_fn(prompt)

    def clear(self) -> None:
        """Clear the screen (only where clearing is on: a terminal, or asked for)."""
        if self.clear_screen:
            self.output.write(CLEAR_SCREEN)
            self.output.flush()

    def view(self) -> dict[str, Any]:
        """The view of whoever may see the screen now (the public view if nobody)."""
        return self.state.view(self.viewer)

    def _record(self, events: Iterable[Event]) -> None:
        """Log events; print those the viewer may see."""
        labels = self.labels
        for event in events:
            self.log.append(event)
            if event.visible_to(self.viewer):
                for line in format_event(event, labels, self.viewer):
                    self.say(line)

    def _visible_log(self, events: Iterable[Event]) -> list[str]:
        """The lines of ``events`` that the viewer may see, worded for the viewer."""
        labels = self.labels
        return [
            line
            for event in events
            if event.visible_to(self.viewer)
            for line in format_event(event, labels, self.viewer)
        ]

    def show_board(self) -> None:
        """Print the board, with a legend for the marked cells."""
        view = self.view()
        self.say()
        for line in render_board(view):
            self.say(line)
        if view.get("turn_steps"):
            self.say(f"  * = this turn: {' '.join(view['turn_steps'])}")
        elif view.get("last_turn"):
            last = view["last_turn"]
            self.say(f"  * = last turn, {self.label(int(last['seat']))}: {' '.join(last['steps'])}")

    def show_status(self) -> None:
        """Print scores, tiles in hand and piles."""
        for line in render_status(self.view(), self.labels):
            self.say(line)

    def show_hand(self) -> None:
        """Print the viewer's hand (nothing if nobody may see a hand now)."""
        if self.viewer is None:
            self.say("No hand is shown now.")
            return
        self.say(render_hand(self.state.view(self.viewer), self.label(self.viewer)))

    # the main loop ---------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or someone quits; returns the exit status (0)."""
        try:
            self.intro()
            while True:
                if self.state.is_terminal():
                    self.end_screen()
                    self.after_game()
                    return 0
                seat = self.state.to_move()[0]
                if seat in self.bots:
                    self.play_bot_turn(seat)
                    continue
                outcome = self.play_human_turn(seat)
                if outcome == QUIT:
                    return 0
        except EOFError:
            self.say()
            self.say("End of input: leaving the game.")
            return 0

    def intro(self) -> None:
        """Say who plays what."""
        info = self.game.info
        preset = preset_of(self.game, self.state.options)
        tiles = f"{info.preset_titles.get(preset, preset)} ({preset})" if preset else "custom tile set"
        self.say(f"{info.title}: {_plural(self.state.num_players, 'player')}, {tiles}.")
        for seat in range(self.state.num_players):
            kind = bot_description(self.bots[seat]) if seat in self.bots else "person"
            self.say(f"  {self.label(seat)}: {kind}")
        extras = [name for name in ("no-late-hel", "auto-best-line") if self.state.options.get(name)]
        if extras:
            self.say(f"  options: {', '.join(extras)}")
        if self.hotseat:
            self.say("Hands stay hidden: pass the device when the game asks you to.")
        self.say("Type 'help' for the commands and the move notation.")

    def play_bot_turn(self, seat: int) -> None:
        """Let the bot in ``seat`` play its whole turn; show what everyone may see."""
        bot = self.bots[seat]
        rng = self.bot_rngs[seat]
        turn = self._turn_number()
        self.say()
        self.say(f"--- Turn {turn}: {self.label(seat)} ---")
        start = len(self.log)
        while self.state.to_move() == (seat,) and self._turn_number() == turn:
            view = self.state.view(seat)
            legal = self.state.legal_actions(seat)
            action = bot.choose(self.game, view, legal, rng)
            events = self.state.apply(seat, action)
            self.unsaved = True
            self._record(events)
        self.last_turn_span = (start, len(self.log))
        if not self.humans:
            self.show_board()
        self.output.flush()
        if self.bot_delay > 0:
            self.sleep_fn(self.bot_delay)

    def _turn_number(self) -> int:
        return int(self.state.view(None)["turn"])

    def play_human_turn(self, seat: int) -> str:
        """Let the person in ``seat`` play a turn; returns MOVED, LOADED or QUIT."""
        if self.hotseat and self.last_human != seat and not self.pass_device(seat):
            return self.cmd_quit("")
        self.viewer = seat
        self.last_human = seat
        turn = self._turn_number()
        self.say()
        self.say(f"=== Turn {turn}: {self.label(seat)} ===")
        if self.hotseat:
            self._since_last_turn(seat)
        self.show_board()
        self.show_status()
        self._prompt_info(seat)
        while True:
            line = self.ask(f"{self.label(seat)} > ")
            outcome = self.handle(line)
            if outcome in (QUIT, LOADED):
                return outcome
            if outcome != MOVED:
                continue
            if self.state.is_terminal() or self.state.to_move() != (seat,) or self._turn_number() != turn:
                self.finish_human_turn(seat)
                return MOVED
            self.show_board()
            self._prompt_info(seat)

    def _prompt_info(self, seat: int) -> None:
        self.say(render_hand(self.state.view(seat), self.label(seat)))
        self.say(instructions(self.state.view(seat), self.state.legal_actions(seat)))

    def _since_last_turn(self, seat: int) -> None:
        start = self.seen.get(seat)
        if start is None:
            return
        lines = self._visible_log(self.log[start:])
        if not lines:
            return
        self.say("Since your last turn:")
        if len(lines) > 40:
            self.say(f"  ... ({len(lines) - 40} earlier lines: type 'log all')")
            lines = lines[-40:]
        for text in lines:
            self.say("  " + text)

    def pass_device(self, seat: int) -> bool:
        """Show the pass-the-device screen (nothing private is on it); False if asked to quit."""
        self.viewer = None
        self.clear()
        self.say()
        self.say("=" * 64)
        self.say(f"Pass the device to {self.label(seat)}.")
        self.say("(Type quit to leave the game instead.)")
        self.say("=" * 64)
        answer = self.ask(f"Press Enter when only {self.names[seat]} can see the screen. ")
        if answer.strip().lower() in ("quit", "exit"):
            return False
        self.clear()
        return True

    def finish_human_turn(self, seat: int) -> None:
        """After a person's turn in a shared game: hide their tiles before the device moves on."""
        if not self.hotseat or self.state.is_terminal() or self.state.to_move() == (seat,):
            return
        self.ask("Your turn is over. Press Enter to hide your tiles. ")
        self.viewer = None
        self.clear()

    # one line of input -----------------------------------------------------------------

    def handle(self, line: str) -> str:
        """Handle one line typed by the person to move: a move or a command.

        Returns ``CONTINUE`` (same decision still open), ``MOVED``, ``LOADED`` or ``QUIT``.
        """
        text = line.strip()
        if not text:
            self.say("Type a move such as TH@1,0, 'hint' for your legal moves, or 'help'.")
            return CONTINUE
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        handlers: dict[str, Callable[[str], str]] = {
            "help": self.cmd_help,
            "?": self.cmd_help,
            "hint": self.cmd_hint,
            "hints": self.cmd_hint,
            "explain": self.cmd_explain,
            "board": self.cmd_board,
            "hand": self.cmd_hand,
            "scores": self.cmd_scores,
            "score": self.cmd_scores,
            "status": self.cmd_scores,
            "log": self.cmd_log,
            "tiles": self.cmd_tiles,
            "save": self.cmd_save,
            "load": self.cmd_load,
            "quit": self.cmd_quit,
            "exit": self.cmd_quit,
        }
        handler = handlers.get(command)
        if handler is not None:
            return handler(rest)
        return self.play_move(text)

    def _seat_to_move(self) -> int | None:
        if self.state.is_terminal():
            return None
        seat = self.state.to_move()[0]
        return None if seat in self.bots else seat

    def play_move(self, text: str) -> str:
        """Apply the steps of ``text`` for the person to move, all of them or none."""
        seat = self._seat_to_move()
        if seat is None:
            self.say("There is no move to make now.")
            return CONTINUE
        try:
            steps = self.game.parse_actions(text)
        except MalformedAction as error:
            self.say(f"Cannot read that move: {error}")
            self.say("Moves look like TH@1,0 or HM@0,1 OD@0,2; type 'help' for the notation.")
            return CONTINUE
        problem = self._check_steps(seat, steps)
        if problem is not None:
            self.say(f"Not allowed: {problem}")
            self.say("Nothing was played; it is still your move ('hint' lists the legal ones).")
            return CONTINUE
        turn = self._turn_number()
        if self._turn_start is None or self._turn_start[0] != turn:
            self._turn_start = (turn, len(self.log))
        events: list[Event] = []
        for step in steps:
            events.extend(self.state.apply(seat, step))
        self.unsaved = True
        self.say()
        self._record(events)
        if self.state.is_terminal() or self.state.to_move() != (seat,) or self._turn_number() != turn:
            self.last_turn_span = (self._turn_start[1], len(self.log))
            self.seen[seat] = len(self.log)
            self._turn_start = None
        return MOVED

    def _check_steps(self, seat: int, steps: Sequence[Action]) -> str | None:
        """Why ``steps`` cannot all be played now by ``seat`` (tried on a copy), or None."""
        trial = self.state.clone()
        turn = int(trial.view(None)["turn"])
        for index, step in enumerate(steps):
            if index and (trial.is_terminal() or trial.to_move() != (seat,) or int(trial.view(None)["turn"]) != turn):
                done = " ".join(str(s) for s in steps[:index])
                return (
                    f"your turn is over after {done}, so {step} cannot follow "
                    "(only a Hermod or a Raven allows another placement)"
                )
            try:
                trial.apply(seat, step)
            except IllegalAction as error:
                where = f"step {index + 1} ({step}): " if len(steps) > 1 else ""
                return f"{where}{error}"
        return None

    # commands ----------------------------------------------------------------------------

    def cmd_help(self, rest: str) -> str:
        """``help``."""
        del rest
        self.say(NOTATION_HELP)
        self.say(COMMANDS_HELP)
        return CONTINUE

    def cmd_hint(self, rest: str) -> str:
        """``hint [CODE]``: every legal move of the person to move."""
        seat = self._seat_to_move()
        if seat is None:
            self.say("There is no move to make now.")
            return CONTINUE
        legal = self.state.legal_actions(seat)
        only = rest.split()[0] if rest else None
        for line in format_hint(legal, only):
            self.say(line)
        return CONTINUE

    def cmd_explain(self, rest: str) -> str:
        """``explain MOVE``: judge a move on this board; ``explain``: the last turn's points."""
        if not rest:
            start, end = self.last_turn_span
            lines = self._visible_log(self.log[start:end])
            if not lines:
                self.say("No turn has been played yet. Try 'explain TH@1,0'.")
            else:
                self.say("The last turn:")
                for line in lines:
                    self.say("  " + line)
            return CONTINUE
        view = self.state.view(None)
        board = {cell_of(t["x"], t["y"]): piece_of(CODE_INDEX[t["tile"]], t["boost"]) for t in view["board"]}
        try:
            result = explain_turn(board, rest, auto_best_line=bool(self.state.options.get("auto-best-line")))
        except MalformedAction as error:
            self.say(f"Cannot read that move: {error}")
            return CONTINUE
        self.say(f"On the board as it is, as if the tiles of {rest} were in hand:")
        self.say(format_explanation(result))
        seat = self._seat_to_move()
        if seat is not None and result["legal"]:
            try:
                steps = self.game.parse_actions(rest)
            except MalformedAction:  # pragma: no cover - explain_turn read it already
                return CONTINUE
            problem = self._check_steps(seat, steps)
            if problem is None:
                self.say("You can play it now.")
            else:
                self.say(f"But you cannot play it now: {problem}")
        return CONTINUE

    def cmd_board(self, rest: str) -> str:
        """``board``."""
        del rest
        self.show_board()
        return CONTINUE

    def cmd_hand(self, rest: str) -> str:
        """``hand``."""
        del rest
        self.show_hand()
        return CONTINUE

    def cmd_scores(self, rest: str) -> str:
        """``scores``."""
        del rest
        self.show_status()
        return CONTINUE

    def cmd_log(self, rest: str) -> str:
        """``log [N|all]``: recent events the viewer may see."""
        lines = self._visible_log(self.log)
        count = 20
        if rest.lower() == "all":
            count = len(lines)
        elif rest:
            try:
                count = max(1, int(rest))
            except ValueError:
                self.say("Write 'log', 'log 50' or 'log all'.")
                return CONTINUE
        if not lines:
            self.say("Nothing has happened yet.")
        for text in lines[-count:]:
            self.say("  " + text)
        return CONTINUE

    def cmd_tiles(self, rest: str) -> str:
        """``tiles``: the kinds in this game."""
        del rest
        for code in self.state.options.get("kinds", []):
            kind = KINDS[CODE_INDEX[code]]
            value = "-" if kind.value is None else str(kind.value)
            self.say(f"  {code} {kind.name:<15} value {value:>2}, {kind.count} tiles: {kind.power}")
        return CONTINUE

    def cmd_save(self, rest: str) -> str:
        """``save FILE``."""
        self.save(rest or DEFAULT_SAVE)
        return CONTINUE

    def cmd_load(self, rest: str) -> str:
        """``load FILE``."""
        if not rest:
            self.say("Write 'load FILE'.")
            return CONTINUE
        return LOADED if self.load(rest) else CONTINUE

    def cmd_quit(self, rest: str) -> str:
        """``quit``: offer to save an unsaved running game, then leave."""
        del rest
        if self.unsaved and not self.state.is_terminal():
            answer = self.ask("Save the game before quitting? [y/N] ").strip().lower()
            if answer in ("y", "yes"):
                path = self.ask(f"File name [{DEFAULT_SAVE}]: ").strip() or DEFAULT_SAVE
                self.save(path)
        self.say("Farewell.")
        return QUIT

    # saving and loading ------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """The game record as JSON data, with which seats are bots under ``meadhall_play``."""
        record = GameRecord.from_state(self.state, players=self.names)
        data = record.to_dict(self.state)
        data[SAVE_KEY] = {
            "version": SAVE_VERSION,
            "seats": [bot_spec(self.bots[s]) if s in self.bots else HUMAN for s in range(self.state.num_players)],
        }
        return data

    def save(self, path: str) -> bool:
        """Write the game to ``path``; say how it went."""
        target = Path(path).expanduser()
        try:
            target.write_text(json.dumps(self.save_data(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        except (OSError, MeadhallError) as error:
            self.say(f"Cannot save to {path}: {error}")
            return False
        self.unsaved = False
        self.say(f"Saved to {target} ({_plural(self.state_ply(), 'move')}). Load it with 'load {path}'.")
        self.say("The file holds the game's seed: anyone who replays it can see every hand.")
        return True

    def load(self, path: str) -> bool:
        """Replace the game by the one saved in ``path``; say how it went."""
        try:
            state, names, seats = read_save(self.game, Path(path).expanduser().read_text(encoding="utf-8"))
            bots = bots_for(seats)
        except (OSError, RecordError, ValueError) as error:
            self.say(f"Cannot load {path}: {error}")
            return False
        if seats is None:
            bots = {s: b for s, b in self.bots.items() if s < state.num_players}
        self.state = state
        self.log = []
        self.seen = {}
        self.last_turn_span = (0, 0)
        self._turn_start = None
        self.viewer = None
        self.last_human = None
        self.unsaved = False
        self._setup_seats(names, bots)
        self.say(f"Loaded {path}: turn {self._turn_number()}, {_plural(self.state_ply(), 'move')} played.")
        self.intro()
        return True

    # the end -----------------------------------------------------------------------------

    def end_screen(self) -> None:
        """Final board, scores, places and any tie-break."""
        self.viewer = None
        view = self.state.view(None)
        self.say()
        self.say("=" * 24 + " Game over " + "=" * 24)
        for line in render_board(view):
            self.say(line)
        self.say()
        for line in final_ranking_lines(view, self.labels):
            self.say(line)

    def after_game(self) -> None:
        """Let people look around or save before leaving."""
        while True:
            line = self.ask("Game over: 'save FILE' keeps the record; press Enter to leave. > ").strip()
            if not line or line.lower() in ("quit", "exit", "q"):
                return
            word = line.split()[0].lower()
            if word in ("save", "board", "scores", "score", "status", "log", "explain", "help", "tiles", "?"):
                self.handle(line)
            else:
                self.say("The game is over. Commands now: save FILE, board, scores, log, explain MOVE, quit.")


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
        lines.append(f"  {_ordinal(places[seat]):>4}  {labels[seat].ljust(width)}  {seats[seat]['score']:>3} points")
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
                f"Tie: {names} have {score} points each and reached them at the same moment: they share the place."
            )
            continue
        steps = ", ".join(f"{labels[s]} at move {seats[s]['reached_at']}" for s in tied)
        first = tied[0]
        lines.append(
            f"Tie-break: {names} have {score} points each; the tie goes to whoever reached the score first "
            f"({steps}), so {labels[first]} places higher."
        )
    winners = [labels[s] for s in order if places[s] == 1]
    lines.append(("Winner: " if len(winners) == 1 else "Winners: ") + " and ".join(winners) + ".")
    return lines


# --- saved games ------------------------------------------------------------------------


def read_save(game: Game, text: str) -> tuple[GameState[Any], list[str], list[str] | None]:
    """Read a saved game: its state (replayed and checked), player names, and seat kinds.

    Seat kinds (``"human"`` or a bot name per seat) come from the ``meadhall_play``
    object; a plain game record without it gives ``None``. Raises :class:`RecordError`.
    """
    record = GameRecord.from_json(text)
    try:
        recorded = get_game(record.game)
    except MeadhallError as error:
        raise RecordError(str(error)) from None
    if recorded is not game:
        raise RecordError(f"it is a record of {recorded.info.title}, not {game.info.title}")
    state = record.replay()
    seats: list[str] | None = None
    extra = json.loads(text).get(SAVE_KEY)
    if isinstance(extra, Mapping) and isinstance(extra.get("seats"), list):
        seats = [str(kind) for kind in extra["seats"]]
        if len(seats) != state.num_players:
            raise RecordError(f"{SAVE_KEY}: {len(seats)} seat kinds for {state.num_players} players")
    return state, list(record.players), seats


def bots_for(seats: Sequence[str] | None) -> dict[int, Bot]:
    """Bots for the seats whose kind is not ``human``; raises :class:`ValueError`."""
    if seats is None:
        return {}
    return {seat: make_bot(kind) for seat, kind in enumerate(seats) if kind != HUMAN}


# --- setting a game up ------------------------------------------------------------------


@dataclass
class Setup:
    """How to set a new game up: seats, names, options and seed."""

    players: int = 2
    bot_seats: list[int] = field(default_factory=lambda: [1])
    names: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    bot_kind: str = DEFAULT_BOT


def parse_seats(text: str, players: int) -> list[int]:
    """``"2,3"`` (1-based seat numbers), ``"none"`` or ``"all"`` as 0-based seats."""
    value = text.strip().lower()
    if value in ("", "none", "no", "0", "-"):
        return []
    if value == "all":
        return list(range(players))
    seats: list[int] = []
    for part in value.replace(" ", ",").split(","):
        if not part:
            continue
        try:
            number = int(part)
        except ValueError:
            raise ValueError(f"{part!r} is not a seat number") from None
        if not 1 <= number <= players:
            raise ValueError(f"there is no seat {number}: seats are 1 to {players}")
        if number - 1 not in seats:
            seats.append(number - 1)
    return sorted(seats)


def setup_from_args(args: argparse.Namespace, game: Game) -> Setup:
    """The setup the command-line options ask for; raises :class:`ValueError`."""
    info = game.info
    names = [name.strip() for name in args.names.split(",")] if args.names else []
    players = args.players
    if players is None:
        wanted = [2, len(names)]
        if args.humans is not None:
            wanted.append(args.humans)
        if args.bots:
            numbers = [int(p) for p in args.bots.replace(" ", ",").split(",") if p.strip().isdigit()]
            wanted.extend(numbers)
        players = max(wanted)
    if not info.min_players <= players <= info.max_players:
        raise ValueError(f"{info.title} is for {info.min_players} to {info.max_players} players, not {players}")
    if args.bots is not None and args.humans is not None:
        raise ValueError("give --bots or --humans, not both")
    if args.bots is not None:
        bot_seats = parse_seats(args.bots, players)
    elif args.humans is not None:
        if not 0 <= args.humans <= players:
            raise ValueError(f"--humans must be between 0 and {players}")
        bot_seats = list(range(args.humans, players))
    else:
        bot_seats = list(range(1, players))
    if len(names) > players:
        raise ValueError(f"{len(names)} names for {players} players")
    options: dict[str, Any] = {}
    if args.preset:
        options["preset"] = args.preset
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: write KEY=VALUE, e.g. --option no-late-hel=true")
        options[key.strip()] = value.strip()
    return Setup(players, bot_seats, names, options, args.seed, args.bot_kind)


def ask_setup(game: Game, input_fn: InputFn, output: TextIO, seed: int | None = None) -> Setup:
    """Ask how many players, which seats are bots, names and the tile set (Enter: defaults)."""
    info = game.info

    def say(text: str = "") -> None:
        output.write(text + "\n")

    def ask(prompt: str) -> str:
        output.flush()
        return input_fn(prompt).strip()

    say(f"{info.title} in the terminal. Press Enter to take the [default].")
    while True:
        answer = ask(f"How many players ({info.min_players}-{info.max_players})? [2] ")
        if not answer:
            players = 2
            break
        if answer.isdigit() and info.min_players <= int(answer) <= info.max_players:
            players = int(answer)
            break
        say(f"Please give a number from {info.min_players} to {info.max_players}.")
    default = ",".join(str(s) for s in range(2, players + 1))
    while True:
        answer = ask(f"Which seats are bots? Seat numbers, or 'none' for all people [{default}] ")
        try:
            bot_seats = parse_seats(answer or default, players)
            break
        except ValueError as error:
            say(f"{error}. For example: 2,3 or none.")
    bot_kind = DEFAULT_BOT
    while bot_seats:
        levels = ", ".join(LEVELS)
        answer = ask(f"How strong are the bots? {levels} [{DEFAULT_BOT}] ")
        try:
            make_bot(answer or DEFAULT_BOT)
            bot_kind = answer or DEFAULT_BOT
            break
        except ValueError:
            for level, spec in LEVELS.items():
                say(f"  {level}: {spec}")
    humans = [s for s in range(players) if s not in bot_seats]
    names: list[str] = [""] * players
    if len(humans) >= 2:
        for seat in humans:
            names[seat] = ask(f"Name for seat {seat + 1}? [Player {seat + 1}] ")
    choices = list(info.presets)
    while True:
        answer = ask(f"Which tiles? base, saga, order, all, ... ('?' lists them) [{info.default_preset}] ")
        if not answer:
            preset = info.default_preset
            break
        if answer in info.presets:
            preset = answer
            break
        for name in choices:
            say(f"  {name}: {info.preset_titles.get(name, '')}")
    return Setup(players, bot_seats, names, {"preset": preset}, seed, bot_kind)


def start_game(game: Game, setup: Setup, **kwargs: Any) -> TerminalGame:
    """A :class:`TerminalGame` for ``setup``; raises :class:`InvalidOptions` or :class:`ValueError`."""
    seed = setup.seed if setup.seed is not None else fresh_seed()
    state = game.new_game(players=setup.players, seed=seed, options=setup.options)
    bots = {seat: make_bot(setup.bot_kind) for seat in setup.bot_seats}
    return TerminalGame(game, state, names=setup.names, bots=bots, **kwargs)


# --- the subcommand ---------------------------------------------------------------------


def add_parser(commands: Any) -> None:
    """Register the ``play`` subcommand."""
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal (hot-seat or against bots)",
        description=(
            "Play in the terminal. With no options you are asked how many players there are and "
            "which seats are bots (press Enter for: you against one medium bot). Hands stay hidden: "
            "people sharing the device get a pass-the-device screen between turns."
        ),
        epilog="Example: meadhall play voluspa --players 3 --bots 3 --names Ann,Bo --preset saga",
    )
    parser.add_argument("game", nargs="?", default="voluspa", help="the game (voluspa)")
    parser.add_argument("--players", type=int, help="number of seats (2-5; default 2)")
    parser.add_argument("--bots", metavar="SEATS", help="seats played by bots, e.g. 2,3 (1-based), or none")
    parser.add_argument("--humans", type=int, metavar="N", help="seats 1..N are people, the rest bots")
    parser.add_argument("--names", metavar="A,B,...", help="names of the seats, in order")
    parser.add_argument("--preset", help="tile set: base, saga, order, all, ... (see 'meadhall games')")
    parser.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option, e.g. no-late-hel=true (repeatable)"
    )
    parser.add_argument("--seed", type=int, help="seed of the deal (to replay the same game)")
    parser.add_argument("--load", metavar="FILE", help="continue a saved game")
    parser.add_argument(
        "--bot",
        "--bot-kind",
        dest="bot_kind",
        default=DEFAULT_BOT,
        metavar="BOT",
        help=f"who plays the bot seats: a level ({', '.join(LEVELS)}) or a bot spec such as greedy or "
        f"ismcts:2s (default {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--bot-delay", type=float, metavar="SECONDS", help="pause after each bot turn (default 0.4 in a terminal)"
    )
    parser.add_argument(
        "--clear",
        choices=("auto", "always", "never"),
        default="auto",
        help="clear the screen around the pass-the-device screen (auto: when output is a terminal)",
    )
    parser.set_defaults(run=run)


def _configured(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, name) is not None for name in ("players", "bots", "humans", "names", "preset", "option", "load")
    )


def run(args: argparse.Namespace) -> int:
    """Run ``meadhall play``."""
    try:
        game = get_game(args.game)
    except MeadhallError as error:
        print(f"meadhall play: {error}", file=sys.stderr)
        return 2
    if game.info.name != "voluspa":
        print(f"meadhall play: {game.info.title} has no terminal game yet; try voluspa", file=sys.stderr)
        return 2
    output = sys.stdout
    interactive = output.isatty()
    delay = args.bot_delay if args.bot_delay is not None else (0.4 if interactive else 0.0)
    clear = {"auto": None, "always": True, "never": False}[args.clear]
    kwargs: dict[str, Any] = {"output": output, "bot_delay": delay, "clear_screen": clear}
    try:
        if args.load:
            state, names, seats = read_save(game, Path(args.load).expanduser().read_text(encoding="utf-8"))
            if args.bots is not None or args.humans is not None:
                bot_seats = (
                    parse_seats(args.bots, state.num_players)
                    if args.bots is not None
                    else list(range(args.humans, state.num_players))
                )
                bots = {seat: make_bot(args.bot_kind) for seat in bot_seats}
            else:
                bots = bots_for(seats) if seats is not None else {}
            if args.names:
                names = [name.strip() for name in args.names.split(",")]
            terminal = TerminalGame(game, state, names=names, bots=bots, **kwargs)
        else:
            if _configured(args):
                setup = setup_from_args(args, game)
            else:
                try:
                    setup = ask_setup(game, builtins.input, output, args.seed)
                except EOFError:
                    print()
                    return 0
                setup.bot_kind = args.bot_kind
            terminal = start_game(game, setup, **kwargs)
    except (InvalidOptions, RecordError, ValueError, OSError) as error:
        print(f"meadhall play: {error}", file=sys.stderr)
        return 2
    return terminal.run()
