"""``meadhall play``: a game in a plain terminal, hot-seat or against bots.

The subcommand (:mod:`meadhall.cli.command_play`) shows the game full screen on a terminal
(:mod:`meadhall.cli.tui`, Textual, around the same :class:`TerminalGame`); when input or
output is not a terminal (piped), or with ``--line``, it is played line by line as below.

``meadhall play GAME`` with no options asks how many players there are and which seats
are bots (press Enter for the defaults: you against medium bots); ``meadhall play`` alone
first asks which game, unless only one is installed. The options ``--players``,
``--bots``/``--humans``, ``--names``, ``--preset``, ``--option``, ``--seed`` and
``--load`` set the game up without questions.

On your turn you type a move in the game's notation (``notation_help`` of its words, or
the number ``hint`` gives an action) or a command: ``hint``, ``board``, ``hand``,
``scores``, ``log``, ``save FILE``, ``load FILE``, ``help``, ``quit`` and the game's own
(its components command, and any command of its text drawing).

Nothing here is about one game. What the terminal shows of a game comes from the game
itself, found through its :class:`~meadhall.core.game.Game` object: its words
(:meth:`Game.words`: events, prompts, hints, scores, the end) and its text drawing
(:meth:`Game.text`: the board and the hand), laid out by :class:`WordsRenderer`
(:func:`renderer_for`); a game without either has no terminal game.

Hidden information stays hidden: a person is only ever shown their own seat's view and
the events visible to it. With two or more people at one device, a pass-the-device
screen comes between their decisions (and the screen is cleared when the output is a
terminal). Where several seats decide at once (Blood Rage's drafts, battle cards and
discards), bots choose first and then each person in turn, behind the pass screen, so
that nobody sees another's choice before all have chosen. :class:`TerminalGame` takes
its input function and output stream as arguments, so a whole game can be driven by a
script.
"""

from __future__ import annotations

import argparse
import builtins
import functools
import json
import re
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from meadhall.bots import LEVELS, Bot, make_bot
from meadhall.bots.names import bot_seat_name
from meadhall.cli.games import choose_game
from meadhall.cli.options import options_from_args
from meadhall.core.breakdown import ScoreTable
from meadhall.core.errors import IllegalAction, MalformedAction, MeadhallError, RecordError
from meadhall.core.game import Action, Event, Game, GameInfo, GameState, fresh_seed
from meadhall.core.guide import Guide
from meadhall.core.guide import progress as guide_progress
from meadhall.core.guide import refusal as guide_refusal
from meadhall.core.guide import reply as guide_reply
from meadhall.core.guide import start as guide_start
from meadhall.core.record import GameRecord
from meadhall.core.registry import all_games, get_game
from meadhall.core.rng import Rng
from meadhall.core.text import GameText
from meadhall.core.words import GameWords, ResultWords, fill, seat_label

#: Key of the extra object a saved game carries next to the game record.
SAVE_KEY = "meadhall_play"
SAVE_VERSION = 1
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


def bot_label(bot: Bot, seat: int) -> str:
    """The name of the bot in ``seat`` for people: ``Bjorn the hard bot`` (as on the server)."""
    return bot_seat_name(seat, bot_spec(bot))


#: ANSI: clear the screen and the scrollback, cursor to the top left.
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"

# What handling one line of input led to.
CONTINUE = "continue"  # still the same seat's decision
MOVED = "moved"  # a move was applied
LOADED = "loaded"  # another game was loaded
QUIT = "quit"  # leave the program

InputFn = Callable[[str], str]
#: A game's own command: called with the terminal game and the rest of the line.
Command = Callable[["TerminalGame", str], str]


def plural(count: int, word: str) -> str:
    """``1 tile``, ``3 tiles``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``11th``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


# --- what differs between games -----------------------------------------------------------


class Renderer:
    """Everything game-specific about playing a game in the terminal.

    Renderers only ever read *views* (``state.view(seat)``) and events filtered for the
    person looking; the few methods given a state (:meth:`turn_key`, :meth:`turn_over`,
    :meth:`setup_line`, :meth:`where`) read only public facts from it.
    """

    #: File name offered when saving.
    default_save = "meadhall-save.json"
    #: What a person hides when their turn is over: ``tiles``, ``cards``.
    private_word = "hand"
    #: ``help``: the notation, then the commands.
    notation_help = ""
    commands_help = ""
    #: Said when an empty line is typed.
    empty_input = "Type a move, 'hint' for your legal moves, or 'help'."
    #: Said after a move that cannot be read.
    malformed_help = "Type 'help' for the notation."
    #: Commands still open once the game is over, and the reminder listing them.
    after_game_commands: tuple[str, ...] = ("save", "board", "scores", "score", "status", "log", "help", "?")
    after_game_help = "The game is over. Commands now: save FILE, board, scores, log, quit."
    #: The setup question about presets, with ``{default}`` for the default preset.
    preset_question = "Which preset? ('?' lists them) [{default}] "

    def __init__(self, game: Game) -> None:
        self.game = game
        #: The seats' labels (``Seat 2 (Ann)``), kept current by the terminal game.
        self.labels: Sequence[str] = ()

    def bind(self, state: GameState[Any]) -> None:
        """Called whenever a terminal game starts on ``state`` (new, or loaded)."""
        del state

    # setting up, saving, loading

    def setup_line(self, state: GameState[Any]) -> str:
        """The first line of the introduction: the game, players and its setup."""
        return f"{self.game.info.title}: {plural(state.num_players, 'player')}."

    def option_lines(self, state: GameState[Any]) -> list[str]:
        """Lines after the seat list naming options that are on."""
        del state
        return []

    def where(self, state: GameState[Any]) -> str:
        """Where a loaded game stands, for people: ``turn 5``."""
        return f"move {len(state.history()) + 1}"

    # turns

    def turn_key(self, state: GameState[Any]) -> Hashable:
        """A public value that changes when a new turn starts."""
        del state
        return None

    def turn_over(self, state: GameState[Any], seat: int, key: Hashable, events: Sequence[Event]) -> bool:
        """True if the decisions of ``seat``'s turn (which started at ``key``) are over."""
        del events
        return state.is_terminal() or seat not in state.to_move() or self.turn_key(state) != key

    def too_many_steps(self, done: str, step: str) -> str:
        """Why ``step`` cannot follow the steps ``done`` typed in one line."""
        return f"your turn is over after {done}, so {step} cannot follow"

    def turn_header(self, view: Mapping[str, Any], seat: int, label: str) -> str:
        """The heading of a person's decision."""
        del view, seat
        return f"=== {label} ==="

    def bot_header(self, view: Mapping[str, Any], seat: int, label: str) -> str | None:
        """The heading of a bot's turn (None: no heading, no pause)."""
        del view, seat
        return f"--- {label} ---"

    # what is on the screen

    def board_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board (``board``)."""
        raise NotImplementedError

    def status_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """Scores and the public state of every seat (``scores``)."""
        raise NotImplementedError

    def hand_lines(self, view: Mapping[str, Any], label: str) -> list[str]:
        """The viewer's private cards or tiles (``hand``)."""
        raise NotImplementedError

    def turn_start_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """What a person sees when their decision starts (after the heading)."""
        return [*self.board_lines(view, labels), *self.status_lines(view, labels)]

    def continue_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """What a person sees after a step when the same turn goes on."""
        return self.board_lines(view, labels)

    def prompt_lines(self, view: Mapping[str, Any], legal: Sequence[Action], label: str) -> list[str]:
        """The lines just before the prompt: the hand and what to decide."""
        raise NotImplementedError

    def spectator_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """What is shown after a bot's turn when nobody at the device plays (if anything)."""
        return self.board_lines(view, labels)

    def end_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The end screen below "Game over": final board and ranking."""
        raise NotImplementedError

    # events and actions

    def annotate(self, events: Sequence[Event], seat: int, action: Action) -> list[Event]:
        """The events of ``seat``'s ``action``, with whatever the interface adds.

        A renderer may add context or events that the action itself makes known (with
        an audience: a private choice stays private). The default adds nothing.
        """
        del seat, action
        return list(events)

    def format_event(self, event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
        """Lines for one event, as seen by ``viewer`` (the caller filters by audience)."""
        raise NotImplementedError

    def is_heading(self, event: Event) -> bool:
        """True for an event that starts a part of the game the terminal heads itself (a turn)."""
        del event
        return False

    def position_lines(self, view: Mapping[str, Any]) -> list[str]:
        """The position in the game's own notation, if it has one (replays print it)."""
        del view
        return []

    def hint_lines(
        self, legal: Sequence[Action], only: str | None, view: Mapping[str, Any], labels: Sequence[str]
    ) -> list[str]:
        """``hint``: the legal actions, grouped (``only``: one group)."""
        raise NotImplementedError

    def parse_input(self, text: str, legal: Sequence[Action]) -> Sequence[Action]:
        """The steps a typed line names; raises :class:`MalformedAction`."""
        del legal
        return self.game.parse_actions(text)

    def commands(self) -> dict[str, Command]:
        """The game's own commands (``tiles``, ``cards``, ``explain`` ...)."""
        return {}


def numbered_or_notation(game: Game, text: str, ordered: Sequence[Action], noun: str = "action") -> Sequence[Action]:
    """The action ``hint`` numbered ``text`` (from 1, in ``ordered``), or the steps its notation names."""
    token = text.strip()
    if token.isdigit():
        number = int(token)
        if not 1 <= number <= len(ordered):
            raise MalformedAction(
                f"there is no {noun} {number}: 'hint' numbers your {len(ordered)} legal {noun}s from 1"
            )
        return [ordered[number - 1]]
    return game.parse_actions(text)


def renderer_for(game: Game) -> Renderer:
    """The renderer of ``game``; raises :class:`ValueError` if it has no terminal game.

    A game with words and a text drawing is laid out by :class:`WordsRenderer`; the
    terminal words no game itself, so a game without either has no terminal game.
    """
    words, text = game.words(), game.text()
    if words is None or text is None:
        raise ValueError(f"{game.info.title} has no terminal game: it has no words or no text drawing")
    return WordsRenderer(game, words, text)


def preset_of(game: Game, options: Mapping[str, Any]) -> str | None:
    """The first preset whose every value ``options`` has, if any."""
    for name, preset in game.info.presets.items():
        if all(options.get(key) == value for key, value in preset.items()):
            return name
    return None


#: A word in a group's heading: ``hint TH`` keeps the group ``Thor (TH)``.
_WORD = re.compile(r"[^\W_]+")


def _in_group(group: str, word: str) -> bool:
    return word.casefold() in (found.casefold() for found in _WORD.findall(group))


def result_lines(result: ResultWords, labels: Sequence[str]) -> list[str]:
    """The end of a game as the terminal shows it: places, scores, notes and the winner."""
    standings = result["standings"]
    width = max((len(labels[s["seat"]]) for s in standings), default=0)
    score_width = max((len(s["score"]) for s in standings), default=0) + 1
    lines = ["Final ranking:"]
    for standing in standings:
        label = labels[standing["seat"]].ljust(width)
        lines.append(f"  {ordinal(standing['place']):>4}  {label}  {standing['score']:>{score_width}}")
    lines.extend(fill(note, labels) for note in result["notes"])
    winners = [labels[s["seat"]] for s in standings if s["place"] == 1]
    if winners:
        lines.append(("Winner: " if len(winners) == 1 else "Winners: ") + " and ".join(winners) + ".")
    return lines


def breakdown_lines(table: ScoreTable, labels: Sequence[str]) -> list[str]:
    """A game's score breakdown (:meth:`Game.breakdown`) as text: each section a table, a column per seat.

    A section that adds up ends with the totals; the game's words name every row.
    """
    seats = range(len(table["totals"]))
    names = [labels[seat] if seat < len(labels) else seat_label(seat) for seat in seats]
    lines = [f"{table['title']}:"]
    for part in table["sections"]:
        if not part["rows"]:
            continue
        rows = [(fill(row["label"], labels), row["points"]) for row in part["rows"]]
        if part["adds_up"]:
            rows.append(("Total", table["totals"]))
        width = max(len(part["title"]), *(len(label) for label, _ in rows))
        columns = [
            max(len(name), *(len(str(points[seat])) for _, points in rows))
            for seat, name in zip(seats, names, strict=True)
        ]
        lines.append("")
        lines.append(
            f"  {part['title'].ljust(width)}  " + "  ".join(n.rjust(w) for n, w in zip(names, columns, strict=True))
        )
        for label, points in rows:
            lines.append(
                f"  {label.ljust(width)}  "
                + "  ".join(str(points[s]).rjust(w) for s, w in zip(seats, columns, strict=True))
            )
    return lines


class WordsRenderer(Renderer):
    """Any game in the terminal, from its words (:meth:`Game.words`) and text drawing (:meth:`Game.text`)."""

    def __init__(self, game: Game, words: GameWords, text: GameText) -> None:
        super().__init__(game)
        self.game_words = words
        self.words = words
        self.text = text
        #: The heading of the last turn or bot header shown.
        self._headed: str | None = None
        info = game.info
        self.default_save = f"meadhall-{info.name}-save.json"
        self.private_word = words.hand_word
        self.notation_help = words.notation_help()
        own = text.commands()
        self.component_command = words.component_word.split()[0].lower()
        self.commands_help = "\n".join(
            [
                "Commands:",
                "  hint [WORD]      list your legal moves (with a word: only the groups it names, each move in words)",
                *text.commands_help(),
                "  board            the board",
                f"  hand             your {words.hand_word}",
                "  scores           scores and what everyone may see of each seat",
                "  log [N|all]      the last N events you may see (default 20)",
                f"  {self.component_command + ' [WORD]':<16} the {words.component_word} of this game: what each "
                "is worth and does (with a word: those it names)",
                "  save FILE        save the game (the file holds the seed: it replays every hand)",
                "  load FILE        load a saved game",
                "  help             this text",
                "  quit             leave (you are offered to save)",
            ]
        )
        self.after_game_commands = (*Renderer.after_game_commands, self.component_command, *own)
        extra = "".join(f"{name}, " for name in own)
        self.after_game_help = f"The game is over. Commands now: save FILE, board, scores, log, {extra}quit."
        examples = ", ".join(list(info.presets)[:4])
        more = ", ..." if len(info.presets) > 4 else ""
        self.preset_question = f"Which preset? {examples}{more} ('?' lists them) [{{default}}] "

    def _fill(self, text: str, labels: Sequence[str] | None = None) -> str:
        return fill(text, self.labels if labels is None else labels)

    def bind(self, state: GameState[Any]) -> None:
        """The game's words for this game's options (a content pack names its cards)."""
        self.words = self.game_words.for_options(state.options)

    # setting up

    def setup_line(self, state: GameState[Any]) -> str:
        """``Völuspá: 2 players, Saga of Edda (saga).``."""
        info = self.game.info
        preset = preset_of(self.game, state.options)
        chosen = f"{info.preset_titles.get(preset, preset)} ({preset})" if preset else "custom options"
        return f"{info.title}: {plural(state.num_players, 'player')}, {chosen}."

    def option_lines(self, state: GameState[Any]) -> list[str]:
        """The options set beside the preset's."""
        preset = preset_of(self.game, state.options)
        fixed = self.game.info.presets.get(preset, {}) if preset else {}
        shown = []
        for spec in self.game.info.options:
            value = state.options.get(spec.name)
            if spec.name in fixed or value == spec.default:
                continue
            if isinstance(value, Mapping):  # a whole content pack: its label, not its text
                value = value.get("label", value.get("id", "a custom pack"))
            shown.append(spec.name if value is True else f"{spec.name}={value}")
        return [f"  options: {', '.join(shown)}"] if shown else []

    def where(self, state: GameState[Any]) -> str:
        """The part of the game now, as its words head it."""
        return self._fill(self.words.heading(state.view(None)))

    # turns

    def turn_key(self, state: GameState[Any]) -> Hashable:
        """The heading of the part of the game now: a new heading is a new turn."""
        return self.words.heading(state.view(None))

    def turn_over(self, state: GameState[Any], seat: int, key: Hashable, events: Sequence[Event]) -> bool:
        """Over as for any game, or when an event heads a new part of the game (a new turn of the same seat)."""
        return super().turn_over(state, seat, key, events) or any(self.is_heading(event) for event in events)

    def too_many_steps(self, done: str, step: str) -> str:
        """The game's words for a line that goes on after the turn ended."""
        return self.words.turn_over(done, step)

    def turn_header(self, view: Mapping[str, Any], seat: int, label: str) -> str:
        """``=== Turn 3: Seat 1 (You) ===``."""
        del seat, label
        self._headed = self.words.heading(view)
        return f"=== {self._fill(self._headed)} ==="

    def bot_header(self, view: Mapping[str, Any], seat: int, label: str) -> str | None:
        """``--- Turn 3: Seat 2 (Bjorn the random bot) ---``; none for a bot's answer in a part already headed.

        A bot that answers in another seat's turn (a response window) plays in the part of
        the game the last header named: it gets no header of its own, and no pause.
        """
        del seat, label
        heading = self.words.heading(view)
        if heading == self._headed:
            return None
        self._headed = heading
        return f"--- {self._fill(heading)} ---"

    # what is on the screen

    def board_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The game's text drawing of the board."""
        return self.text.board(view, labels)

    def status_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The status headline, each seat's line (``>`` before the seats to move), the other facts."""
        status = [self._fill(line, labels) for line in self.words.status(view)]
        movers = set(view.get("to_move") or [])
        count = self.words.seat_count(view)
        width = max((len(labels[seat]) for seat in range(count)), default=0)
        rows = []
        for seat in range(count):
            pointer = ">" if seat in movers else " "
            rows.append(f" {pointer} {labels[seat].ljust(width)}  {self._fill(self.words.seat(view, seat), labels)}")
        return [*status[:1], *rows, *status[1:]]

    def hand_lines(self, view: Mapping[str, Any], label: str) -> list[str]:
        """The game's text drawing of the hand."""
        return self.text.hand(view, label)

    def turn_start_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board and the scores."""
        return ["", *self.board_lines(view, labels), *self.status_lines(view, labels)]

    def continue_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The board again (the same turn goes on)."""
        return ["", *self.board_lines(view, labels)]

    def prompt_lines(self, view: Mapping[str, Any], legal: Sequence[Action], label: str) -> list[str]:
        """The hand and what to decide, in the game's words."""
        prompt = self._fill(self.words.prompt(view, [str(action) for action in legal]))
        example = f", e.g. {legal[0]}" if legal else ""
        typing = f"Type a move{example} ('hint' lists them, 'help' the commands)."
        return [*self.text.hand(view, label), f"{prompt} {typing}"]

    def end_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The final board and the ranking."""
        return [*self.text.board(view, labels), "", *result_lines(self.words.result(view), labels)]

    def position_lines(self, view: Mapping[str, Any]) -> list[str]:
        """The game's own diagram of the position, if it has one."""
        position = self.text.position(view)
        return position.splitlines() if position else []

    # events and actions

    def format_event(self, event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
        """The game's words for the event, its details indented."""
        said = self.words.event(event, viewer)
        if said is None:
            return [f"{event.kind}: {json.dumps(dict(event.data), ensure_ascii=False)}"]
        return [fill(said["text"], labels), *("    " + fill(detail, labels) for detail in said["details"])]

    def is_heading(self, event: Event) -> bool:
        """The game's words mark it as a heading (the terminal prints its own turn headers)."""
        said = self.words.event(event, None if event.audience is None else min(event.audience))
        return bool(said and said.get("heading"))

    def hint_lines(
        self, legal: Sequence[Action], only: str | None, view: Mapping[str, Any], labels: Sequence[str]
    ) -> list[str]:
        """The legal actions by group; ``hint WORD``: the groups it names, one action a line with its label."""
        actions = self.words.actions(view, [str(action) for action in legal])
        numbered = self.text.numbers_actions
        groups: dict[str, list[tuple[str, str]]] = {}
        for number, words in enumerate(actions, start=1):
            group = fill(words["group"], labels)
            if only is None or _in_group(group, only):
                shown = f"{number}) {words['notation']}" if numbered else words["notation"]
                groups.setdefault(group, []).append((shown, fill(words["label"], labels)))
        total = sum(len(items) for items in groups.values())
        lines = [f"Legal moves ({total}; type one, or its number):" if numbered else f"Legal moves ({total}):"]
        if only is not None:
            if not groups:
                every = ", ".join(dict.fromkeys(fill(words["group"], labels) for words in actions))
                lines.append(f"  no group is called {only!r}; the groups: {every}")
            width = max((len(notation) for items in groups.values() for notation, _ in items), default=0)
            for group, items in groups.items():
                lines.append(f"  {group}:")
                lines.extend(f"    {notation.ljust(width)}  {label}" for notation, label in items)
            return lines
        for group, items in groups.items():
            head = f"  {group}: "
            current = head
            for notation, _ in items:
                if current != head and len(current) + len(notation) + 2 > 100:
                    lines.append(current.rstrip())
                    current = " " * len(head)
                current += notation + "  "
            lines.append(current.rstrip())
        return lines

    def parse_input(self, text: str, legal: Sequence[Action]) -> Sequence[Action]:
        """Notation, or (for a game whose ``hint`` numbers the actions) an action's number."""
        if self.text.numbers_actions:
            return numbered_or_notation(self.game, text, legal)
        return self.game.parse_actions(text)

    def commands(self) -> dict[str, Command]:
        """The game's own commands (through :class:`~meadhall.core.text.TextHost`), and its components."""

        def own(command: Callable[[Any, str], None]) -> Command:
            def run(terminal: TerminalGame, rest: str) -> str:
                command(terminal, rest)
                return CONTINUE

            return run

        commands = {name: own(command) for name, command in self.text.commands().items()}
        commands[self.component_command] = self._components
        return commands

    def _components(self, terminal: TerminalGame, rest: str) -> str:
        """Every component; with a word, those whose key, name or facts hold it (``cards thor``)."""
        word = rest.strip().casefold()
        parts = [
            part
            for part in self.words.components(terminal.state.options)
            if not word or any(word in said.casefold() for said in (part["key"], part["name"], part["facts"]))
        ]
        if not parts:
            terminal.say(f"No {self.words.component_word} match {rest.strip()!r}.")
        for part in parts:
            terminal.say(f"  {part['key']} {part['name']:<15} {part['facts']}: {part['text']}")
        return CONTINUE


def default_players(info: GameInfo) -> int:
    """How many seats a game has unless told otherwise: two, or the game's minimum."""
    return max(2, info.min_players)


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
    pass-the-device screen. ``renderer`` defaults to the game's (:func:`renderer_for`).
    Drive a game with :meth:`run`, or one line at a time with :meth:`handle`.
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
        renderer: Renderer | None = None,
        guide: Guide | None = None,
    ) -> None:
        self.game = game
        #: The guided first game being played (:mod:`meadhall.core.guide`), or None.
        self.guide = guide
        self.renderer = renderer if renderer is not None else renderer_for(game)
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
        self._turn_start: tuple[Hashable, int] | None = None
        #: True once the last move played ended the person's turn.
        self.turn_ended = False
        self.unsaved = False
        self.renderer.bind(state)
        self._setup_seats(names, bots or {})
        self.log = self._deal_events()

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
                    name = bot_label(self.bots[seat], seat)
                else:
                    name = "You" if len(humans) == 1 else f"Player {seat + 1}"
            result.append(name)
        self.names = result
        self.renderer.labels = self.labels

    def _deal_events(self) -> list[Event]:
        """What setting the game up showed (Blood Rage: Age 1's god arrives, the packs are dealt)."""
        state = self.state
        return self.game.deal(players=state.num_players, seed=state.seed, options=state.options)[1]

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
        return f"{seat_label(seat)} ({self.names[seat]})"

    # output ------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write a line."""
        self.output.write(text + "\n")

    def say_lines(self, lines: Iterable[str]) -> None:
        """Write several lines."""
        for line in lines:
            self.say(line)

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

    def public_view(self) -> dict[str, Any]:
        """The spectators' view (for a game's own commands, :class:`~meadhall.core.text.TextHost`)."""
        return self.state.view(None)

    def _record(self, events: Iterable[Event]) -> None:
        """Log events; print those the viewer may see (not headings: the turn headers say them)."""
        labels = self.labels
        for event in events:
            self.log.append(event)
            if event.visible_to(self.viewer) and not self.renderer.is_heading(event):
                self.say_lines(self.renderer.format_event(event, labels, self.viewer))

    def _visible_log(self, events: Iterable[Event]) -> list[str]:
        """The lines of ``events`` that the viewer may see, worded for the viewer."""
        labels = self.labels
        return [
            line
            for event in events
            if event.visible_to(self.viewer)
            for line in self.renderer.format_event(event, labels, self.viewer)
        ]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; the events, as the renderer annotates them."""
        events = self.state.apply(seat, action)
        self.unsaved = True
        return self.renderer.annotate(events, seat, action)

    def show_board(self) -> None:
        """Print the board."""
        self.say()
        self.say_lines(self.renderer.board_lines(self.view(), self.labels))

    def show_status(self) -> None:
        """Print scores and the public state of every seat."""
        self.say_lines(self.renderer.status_lines(self.view(), self.labels))

    def show_hand(self) -> None:
        """Print the viewer's hand (nothing if nobody may see a hand now)."""
        if self.viewer is None:
            self.say("No hand is shown now.")
            return
        self.say_lines(self.renderer.hand_lines(self.state.view(self.viewer), self.label(self.viewer)))

    def show_last_turn(self, nothing_yet: str) -> None:
        """Print the entries of the last finished turn that the viewer may see."""
        start, end = self.last_turn_span
        lines = self._visible_log(self.log[start:end])
        if not lines:
            self.say(nothing_yet)
            return
        self.say("The last turn:")
        for line in lines:
            self.say("  " + line)

    # the main loop ---------------------------------------------------------------------

    def next_seat(self) -> int | None:
        """Who decides next: bots first, then the person at the device, then the others."""
        movers = self.state.to_move()
        if not movers:
            return None
        for seat in movers:
            if seat in self.bots:
                return seat
        if self.last_human in movers:
            return self.last_human
        return movers[0]

    def run(self) -> int:
        """Play until the game ends or someone quits; returns the exit status (0)."""
        try:
            self.begin()
            while True:
                if self.state.is_terminal():
                    self.end_screen()
                    self.after_game()
                    return 0
                seat = self.next_seat()
                if seat is None:  # pragma: no cover - engines always name who decides
                    self.say("Nobody can move, yet the game is not over: leaving.")
                    return 1
                if seat in self.bots:
                    self.play_bot_turn(seat)
                    continue
                automatic = self.automatic(seat)
                if automatic is not None:
                    self._record(self._apply(seat, automatic))
                    continue
                outcome = self.play_human_turn(seat)
                if outcome == QUIT:
                    return 0
        except EOFError:
            self.say()
            self.say("End of input: leaving the game.")
            return 0

    def begin(self) -> None:
        """What a game's start shows: who plays what, and the deal when nothing is played yet."""
        self.intro()
        if self.state_ply() == 0:  # the deal, as the log begins
            self.say_lines(self._visible_log(self.log))

    def automatic(self, seat: int) -> Action | None:
        """The action the terminal plays for the person in ``seat`` without asking, if any.

        A response window (:meth:`GameState.response_window`) that offers the seat one
        action, a pass, is answered for them, as the server does: the rules ask every seat
        with a part in the moment, holding anything to answer with or not, and a person with
        nothing to play there has nothing to decide. Not at a shared device (hot seat): there
        the device goes round to the seat as for any decision, since skipping someone would
        show the others at the device that they held nothing.
        """
        if self.hotseat or not self.state.response_window(seat):
            return None
        legal = self.state.legal_actions(seat)
        return legal[0] if len(legal) == 1 else None

    def intro(self) -> None:
        """Say who plays what."""
        self.say(self.renderer.setup_line(self.state))
        for seat in range(self.state.num_players):
            kind = bot_description(self.bots[seat]) if seat in self.bots else "person"
            self.say(f"  {self.label(seat)}: {kind}")
        self.say_lines(self.renderer.option_lines(self.state))
        if self.hotseat:
            self.say("Hands stay hidden: pass the device when the game asks you to.")
        self.say("Type 'help' for the commands and the move notation.")

    def play_bot_turn(self, seat: int) -> None:
        """Let the bot in ``seat`` play its whole turn; show what everyone may see."""
        bot = self.bots[seat]
        rng = self.bot_rngs[seat]
        key = self.renderer.turn_key(self.state)
        header = self.renderer.bot_header(self.state.view(None), seat, self.label(seat))
        if header is not None:
            self.say()
            self.say(header)
        start = len(self.log)
        while True:
            view = self.state.view(seat)
            legal = self.state.legal_actions(seat)
            scripted = guide_reply(self.guide, self.state, seat) if self.guide is not None else None
            action = (
                self.game.parse_action(scripted) if scripted is not None else bot.choose(self.game, view, legal, rng)
            )
            events = self._apply(seat, action)
            self._record(events)
            if self.renderer.turn_over(self.state, seat, key, events):
                break
        self.last_turn_span = (start, len(self.log))
        if not self.humans:
            lines = self.renderer.spectator_lines(self.view(), self.labels)
            if lines:
                self.say()
                self.say_lines(lines)
        self.output.flush()
        if header is not None and self.bot_delay > 0:
            self.sleep_fn(self.bot_delay)

    def play_human_turn(self, seat: int) -> str:
        """Let the person in ``seat`` play a turn; returns MOVED, LOADED or QUIT."""
        hidden = self.viewer is None and self.last_human is not None
        if self.hotseat and (self.last_human != seat or hidden) and not self.pass_device(seat):
            return self.cmd_quit("")
        self.viewer = seat
        self.last_human = seat
        view = self.state.view(seat)
        self.say()
        self.say(self.renderer.turn_header(view, seat, self.label(seat)))
        if self.hotseat:
            self._since_last_turn(seat)
        self.say_lines(self.renderer.turn_start_lines(view, self.labels))
        self._prompt_info(seat)
        while True:
            line = self.ask(f"{self.label(seat)} > ")
            outcome = self.handle(line)
            if outcome in (QUIT, LOADED):
                return outcome
            if outcome != MOVED:
                continue
            if self.turn_ended:
                self.finish_human_turn(seat)
                return MOVED
            self.say_lines(self.renderer.continue_lines(self.state.view(seat), self.labels))
            self._prompt_info(seat)

    def _prompt_info(self, seat: int) -> None:
        view = self.state.view(seat)
        self.say_lines(self.guide_lines())
        self.say_lines(self.renderer.prompt_lines(view, self.state.legal_actions(seat), self.label(seat)))

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
        """After a person's turn in a shared game: hide their cards before the device moves on."""
        if not self.hotseat or self.state.is_terminal() or seat in self.state.to_move():
            return
        self.ask(f"Your turn is over. Press Enter to hide your {self.renderer.private_word}. ")
        self.viewer = None
        self.clear()

    # one line of input -----------------------------------------------------------------

    def handle(self, line: str) -> str:
        """Handle one line typed by the person to move: a move or a command.

        Returns ``CONTINUE`` (same decision still open), ``MOVED``, ``LOADED`` or ``QUIT``.
        """
        text = line.strip()
        if not text:
            self.say(self.renderer.empty_input)
            return CONTINUE
        word, _, rest = text.partition(" ")
        handler = self.commands().get(word.lower())
        if handler is not None:
            return handler(rest.strip())
        return self.play_move(text)

    def commands(self) -> dict[str, Callable[[str], str]]:
        """Every command a line may start with, by its word: the terminal's and the game's own."""
        handlers: dict[str, Callable[[str], str]] = {
            "help": self.cmd_help,
            "?": self.cmd_help,
            "hint": self.cmd_hint,
            "hints": self.cmd_hint,
            "board": self.cmd_board,
            "hand": self.cmd_hand,
            "scores": self.cmd_scores,
            "score": self.cmd_scores,
            "status": self.cmd_scores,
            "log": self.cmd_log,
            "save": self.cmd_save,
            "load": self.cmd_load,
            "quit": self.cmd_quit,
            "exit": self.cmd_quit,
        }
        if self.guide is not None:
            handlers["guide"] = self.cmd_guide
        for name, own in self.renderer.commands().items():
            handlers[name] = functools.partial(own, self)
        return handlers

    def seat_to_move(self) -> int | None:
        """The person who decides now: the one at the device if they must, else the first."""
        if self.state.is_terminal():
            return None
        movers = self.state.to_move()
        if self.viewer is not None and self.viewer in movers and self.viewer not in self.bots:
            return self.viewer
        if not movers:
            return None
        seat = movers[0]
        return None if seat in self.bots else seat

    def play_move(self, text: str) -> str:
        """Apply the steps of ``text`` for the person to move, all of them or none."""
        seat = self.seat_to_move()
        if seat is None:
            self.say("There is no move to make now.")
            return CONTINUE
        try:
            steps = self.renderer.parse_input(text, self.state.legal_actions(seat))
        except MalformedAction as error:
            self.say(f"Cannot read that move: {error}")
            self.say(self.renderer.malformed_help)
            return CONTINUE
        problem = self.check_steps(seat, steps)
        if problem is not None:
            self.say(f"Not allowed: {problem}")
            self.say("Nothing was played; it is still your move ('hint' lists the legal ones).")
            return CONTINUE
        key = self.renderer.turn_key(self.state)
        if self._turn_start is None or self._turn_start[0] != key:
            self._turn_start = (key, len(self.log))
        events: list[Event] = []
        for step in steps:
            events.extend(self._apply(seat, step))
        while not self.state.is_terminal() and seat in self.state.to_move():
            automatic = self.automatic(seat)
            if automatic is None:
                break
            events.extend(self._apply(seat, automatic))
        self.say()
        self._record(events)
        self.turn_ended = self.renderer.turn_over(self.state, seat, key, events)
        if self.turn_ended:
            self.last_turn_span = (self._turn_start[1], len(self.log))
            self.seen[seat] = len(self.log)
            self._turn_start = None
        return MOVED

    def check_steps(self, seat: int, steps: Sequence[Action]) -> str | None:
        """Why ``steps`` cannot all be played now by ``seat`` (tried on a copy), or None."""
        if not steps:
            return "there is nothing to play in that line"
        trial = self.state.clone()
        key = self.renderer.turn_key(trial)
        if self.guide is not None:
            off = guide_refusal(self.guide, trial, seat, str(steps[0]))
            if off is not None:
                return fill(off, self.labels)
        events: list[Event] = []
        for index, step in enumerate(steps):
            if index and self.renderer.turn_over(trial, seat, key, events):
                done = " ".join(str(s) for s in steps[:index])
                return self.renderer.too_many_steps(done, str(step))
            try:
                events = trial.apply(seat, step)
            except IllegalAction as error:
                where = f"step {index + 1} ({step}): " if len(steps) > 1 else ""
                return f"{where}{error}"
        return None

    # commands ----------------------------------------------------------------------------

    def guide_lines(self) -> list[str]:
        """The guide's words now (its title and step, then what the step says), or none without a guide."""
        if self.guide is None:
            return []
        now = guide_progress(self.guide, self.state)
        where = "done" if now["done"] else f"step {now['step'] + 1} of {now['steps']}"
        return [
            f"{now['title']} ({where}; 'guide skip' leaves it, 'guide restart' starts again)",
            *fill(now["say"], self.labels).split("\n"),
        ]

    def cmd_guide(self, rest: str) -> str:
        """``guide``: the step again; ``guide skip``: play on without it; ``guide restart``: the guided game anew."""
        guide = self.guide
        word = rest.strip().lower()
        if guide is None:  # pragma: no cover - the command exists only with a guide
            return CONTINUE
        if word == "skip":
            self.guide = None
            self.say("The guide is off: the game goes on, the bot plays as it likes.")
            return CONTINUE
        if word == "restart":
            self.state = guide_start(self.game, guide)
            self.renderer.bind(self.state)
            self.bot_rngs = {seat: bot_rng(self.state.seed, seat) for seat in self.bots}
            self.log = self._deal_events()
            self.seen = {}
            self.last_turn_span = (0, 0)
            self._turn_start = None
            self.turn_ended = False
            self.say("The guided game starts again.")
            return LOADED
        self.say_lines(self.guide_lines())
        return CONTINUE

    def cmd_help(self, rest: str) -> str:
        """``help``."""
        del rest
        self.say(self.renderer.notation_help)
        self.say(self.renderer.commands_help)
        return CONTINUE

    def cmd_hint(self, rest: str) -> str:
        """``hint [GROUP]``: every legal move of the person to move."""
        seat = self.seat_to_move()
        if seat is None:
            self.say("There is no move to make now.")
            return CONTINUE
        legal = self.state.legal_actions(seat)
        only = rest.split()[0] if rest else None
        self.say_lines(self.renderer.hint_lines(legal, only, self.state.view(seat), self.labels))
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

    def cmd_save(self, rest: str) -> str:
        """``save FILE``."""
        self.save(rest or self.renderer.default_save)
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
                default = self.renderer.default_save
                path = self.ask(f"File name [{default}]: ").strip() or default
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
        self.say(f"Saved to {target} ({plural(self.state_ply(), 'move')}). Load it with 'load {path}'.")
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
        self.renderer.bind(state)
        self.log = self._deal_events()
        self.seen = {}
        self.last_turn_span = (0, 0)
        self._turn_start = None
        self.viewer = None
        self.last_human = None
        self.unsaved = False
        self._setup_seats(names, bots)
        self.say(f"Loaded {path}: {self.renderer.where(self.state)}, {plural(self.state_ply(), 'move')} played.")
        self.intro()
        return True

    # the end -----------------------------------------------------------------------------

    def end_screen(self) -> None:
        """Final board, scores, places and any tie-break."""
        self.viewer = None
        view = self.state.view(None)
        self.say()
        self.say("=" * 24 + " Game over " + "=" * 24)
        self.say_lines(self.renderer.end_lines(view, self.labels))
        table = self.game.breakdown(self.state) if self.state.is_terminal() else None
        if table is not None:
            self.say()
            self.say_lines(breakdown_lines(table, self.labels))

    def after_game(self) -> None:
        """Let people look around or save before leaving."""
        while True:
            line = self.ask("Game over: 'save FILE' keeps the record; press Enter to leave. > ").strip()
            if not line or line.lower() in ("quit", "exit", "q"):
                return
            word = line.split()[0].lower()
            if word in self.renderer.after_game_commands:
                self.handle(line)
            else:
                self.say(self.renderer.after_game_help)


# --- saved games ------------------------------------------------------------------------


def read_save(game: Game | None, text: str) -> tuple[GameState[Any], list[str], list[str] | None]:
    """Read a saved game: its state (replayed and checked), player names, and seat kinds.

    ``game`` is the game the record must be of (None: any game). Seat kinds (``"human"``
    or a bot name per seat) come from the ``meadhall_play`` object; a plain game record
    without it gives ``None``. Raises :class:`RecordError`.
    """
    record = GameRecord.from_json(text)
    try:
        recorded = get_game(record.game)
    except MeadhallError as error:
        raise RecordError(str(error)) from None
    if game is not None and recorded is not game:
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
        wanted = [default_players(info), len(names)]
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
    options = options_from_args(args)
    return Setup(players, bot_seats, names, options, args.seed, args.bot_kind)


def ask_game(input_fn: InputFn, output: TextIO) -> Game:
    """Ask which game to play, by number or name (Enter: the first listed); the only one installed is not asked."""
    games = all_games()
    if len(games) <= 1:
        return choose_game(None)
    output.write("Which game?\n")
    for number, game in enumerate(games, start=1):
        info = game.info
        output.write(f"  {number}. {info.title} ({info.name}, {info.min_players}-{info.max_players} players)\n")
    while True:
        output.flush()
        answer = input_fn(f"Number or name [1: {games[0].info.name}] ").strip()
        if not answer:
            return games[0]
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1]
        try:
            return get_game(answer)
        except MeadhallError:
            output.write(f"Please give a number from 1 to {len(games)}, or a game's name.\n")


def ask_setup(game: Game, input_fn: InputFn, output: TextIO, seed: int | None = None) -> Setup:
    """Ask how many players, which seats are bots, names and the preset (Enter: defaults)."""
    info = game.info
    renderer = renderer_for(game)

    def say(text: str = "") -> None:
        output.write(text + "\n")

    def ask(prompt: str) -> str:
        output.flush()
        return input_fn(prompt).strip()

    say(f"{info.title} in the terminal. Press Enter to take the [default].")
    fallback = default_players(info)
    while True:
        answer = ask(f"How many players ({info.min_players}-{info.max_players})? [{fallback}] ")
        if not answer:
            players = fallback
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
        answer = ask(renderer.preset_question.format(default=info.default_preset))
        if not answer:
            preset = info.default_preset
            break
        if answer in info.presets:
            preset = answer
            break
        for name in choices:
            say(f"  {name}: {info.preset_titles.get(name, '')}")
    return Setup(players, bot_seats, names, {"preset": preset}, seed, bot_kind)


def start_guide(game: Game, **kwargs: Any) -> TerminalGame:
    """The guided first game of ``game`` (:meth:`Game.guide`): its deal, its learner, its bot.

    Raises :class:`ValueError` for a game without one.
    """
    guide = game.guide()
    if guide is None:
        raise ValueError(f"{game.info.title} has no guided game yet")
    state = guide_start(game, guide)
    bots = {seat: make_bot(guide.bot) for seat in range(guide.players) if seat != guide.seat}
    return TerminalGame(game, state, bots=bots, guide=guide, **kwargs)


def start_game(game: Game, setup: Setup, **kwargs: Any) -> TerminalGame:
    """A :class:`TerminalGame` for ``setup``; raises :class:`InvalidOptions` or :class:`ValueError`."""
    seed = setup.seed if setup.seed is not None else fresh_seed()
    state = game.new_game(players=setup.players, seed=seed, options=setup.options)
    bots = {seat: make_bot(setup.bot_kind) for seat in setup.bot_seats}
    return TerminalGame(game, state, names=setup.names, bots=bots, **kwargs)
