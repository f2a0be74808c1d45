"""``meadhall play`` full screen: a Textual application around the terminal game.

On a terminal (standard input and output both a terminal, and no ``--line``) ``meadhall
play`` opens :class:`PlayApp`; otherwise it keeps to the line mode of
:mod:`meadhall.cli.play`. The application is a face on the same
:class:`~meadhall.cli.play.TerminalGame`: the same seats, bots, log, commands and checks.
What differs is only how it is shown and picked:

* panes for the board and the hand (the game's text drawing, :meth:`Game.text`), the
  players (the game's status and seat words), the legal moves (the game's action words,
  grouped), what the highlighted move would do, the log, and a prompt;
* a move is chosen with the arrow keys (also while typing) and Enter, or a click, from the
  listed legal moves, or typed in the game's notation; a line that cannot be read and a
  move the rules forbid get the line mode's two different answers (``Cannot read that
  move`` against ``Not allowed``); the other commands (``hint``, ``help``, ``log``,
  ``save``, a game's own such as ``explain``) answer in the log;
* the explain pane shows the game's preview of the highlighted move
  (:func:`meadhall.core.preview.preview_target`, the words the browser shows on hover);
* bots play in a worker thread, so the screen stays live;
* with two or more people at the device (hot seat), the hand is hidden when a person's
  turn ends and a hand-off screen, showing nothing private, comes before the next
  person's decision.

Nothing here names a game.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from meadhall.cli.play import LOADED, MOVED, QUIT, TerminalGame, WordsRenderer
from meadhall.core.guide import progress as guide_progress
from meadhall.core.preview import preview_notation, preview_target
from meadhall.core.words import ActionWords, Preview, fill

#: How many lines the log pane shows when it is written anew for another person (``log all`` shows every line).
LOG_KEPT = 200
#: Said when someone leaves a game with unsaved moves the first time.
LEAVE_UNSAVED = "The game is not saved: 'save FILE' keeps it. Ctrl+Q (or quit) again leaves without saving."


class LineSink(io.StringIO):
    """The terminal game's output stream: complete lines are kept for the log pane (thread-safe)."""

    def __init__(self) -> None:
        super().__init__()
        self._partial = ""
        self._lines: list[str] = []
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        """Keep ``text``; each finished line becomes one entry."""
        with self._lock:
            self._partial += text
            *done, self._partial = self._partial.split("\n")
            self._lines.extend(done)
        return len(text)

    def isatty(self) -> bool:
        """Not a terminal: the game never clears this screen itself."""
        return False

    def take(self) -> list[str]:
        """The lines written since the last call."""
        with self._lock:
            lines, self._lines = self._lines, []
        return lines


def preview_lines(preview: Preview, labels: Sequence[str]) -> list[str]:
    """A preview as lines, in the order the browser's panel shows it: title, points, cost, refusal, lines."""
    parts = (preview["title"], preview.get("points"), preview.get("cost"))
    head = " ".join(fill(part, labels) for part in parts if part)
    lines = [head]
    if preview.get("refusal"):
        lines.append(fill(preview["refusal"], labels))
    lines.extend("  " + fill(line, labels) for line in preview["lines"])
    return lines


class HandOff(Screen[None]):
    """Between two people's decisions at one device: whose turn it is, and nothing private."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "dismiss_screen", "I am the only one looking")]

    def __init__(self, label: str, name: str) -> None:
        super().__init__(id="handoff")
        self.label = label
        self.person = name

    def compose(self) -> ComposeResult:
        """The message, centred."""
        yield Static(
            Text(
                f"Pass the device to {self.label}.\n\n"
                f"Press Enter when only {self.person} can see the screen.\n"
                "(Ctrl+Q leaves the game.)"
            ),
            id="handoff-text",
        )
        yield Footer()

    def action_dismiss_screen(self) -> None:
        """Show the next person's screen."""
        self.dismiss(None)


class PlayApp(App[int]):
    """A game of :class:`TerminalGame` full screen; :meth:`App.run` returns the exit status."""

    TITLE = "meadhall"
    CSS = """
    #top { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; min-width: 36; }
    .pane { border: round $primary-darken-2; padding: 0 1; }
    .pane:focus-within { border: round $accent; }
    #board-pane { height: 2fr; }
    #hand-pane { height: auto; max-height: 12; }
    #players { height: auto; max-height: 10; }
    #moves { height: 1fr; }
    #explain { height: auto; max-height: 10; }
    #log { height: 9; }
    #guide { height: auto; max-height: 8; padding: 0 1; border: round $accent; }
    #guide.off { display: none; }
    #ask { height: auto; max-height: 2; padding: 0 1; text-style: bold; }
    #message { height: auto; max-height: 3; padding: 0 1; }
    #message.refused { color: $error; }
    #handoff-text { width: 100%; height: 1fr; content-align: center middle; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_cursor('up')", "Previous move", show=False),
        Binding("down", "move_cursor('down')", "Next move", show=False),
        Binding("pageup", "move_cursor('page_up')", show=False),
        Binding("pagedown", "move_cursor('page_down')", show=False),
        Binding("f1", "type_word('help')", "Help"),
        Binding("f2", "type_word('hint')", "Hint"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, terminal: TerminalGame, *, bot_delay: float = 0.0) -> None:
        super().__init__()
        if not isinstance(terminal.renderer, WordsRenderer):
            raise ValueError("the full-screen game needs a game with words and a text drawing")
        self.terminal = terminal
        self.renderer: WordsRenderer = terminal.renderer
        self.sink = LineSink()
        terminal.output = self.sink
        terminal.input_fn = self._no_question
        terminal.clear_screen = False
        terminal.bot_delay = bot_delay
        #: The seat whose decision the screen shows now (None: nobody's).
        self.deciding: int | None = None
        #: The legal moves listed, in the order shown (their words), for the seat deciding.
        self.listed: list[ActionWords] = []
        #: True while bots play or a hand-off screen is up: no move may be made.
        self.busy = False
        #: True once leaving an unsaved game was asked for (the next request leaves).
        self.warned = False
        #: The first words of the prompt's commands (what is typed then is not previewed as a move).
        self.command_words = frozenset(terminal.commands())
        self.title = f"meadhall: {terminal.game.info.title}"

    @staticmethod
    def _no_question(prompt: str) -> str:
        """The full screen asks the game's questions itself: a question of the line mode gets no answer."""
        del prompt
        return ""

    # layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Board and hand on the left; players, moves and the explain pane on the right; log and prompt below."""
        with Horizontal(id="top"):
            with Vertical(id="left"):
                with VerticalScroll(id="board-pane", classes="pane") as board:
                    board.border_title = "Board"
                    yield Static(id="board")
                with VerticalScroll(id="hand-pane", classes="pane") as hand:
                    hand.border_title = self.renderer.private_word.capitalize()
                    yield Static(id="hand")
            with Vertical(id="right"):
                players = Static(id="players", classes="pane")
                players.border_title = "Players"
                yield players
                moves = OptionList(id="moves", classes="pane")
                moves.border_title = "Moves (arrows and Enter, or a click)"
                yield moves
                explain = Static(id="explain", classes="pane")
                explain.border_title = "Explain"
                yield explain
        log = RichLog(id="log", classes="pane", wrap=True, markup=False, highlight=False)
        log.border_title = "Log"
        yield log
        guide = Static(id="guide", classes="off")
        guide.border_title = "Guide"
        yield guide
        yield Static(id="ask")
        yield Static(id="message")
        prompt = Input(id="prompt", placeholder="Type a move in notation, or a command (help, hint, log, save FILE)")
        prompt.border_title = "Prompt"
        yield prompt
        yield Footer()

    def on_mount(self) -> None:
        """Introduce the game, show the deal, and start play."""
        self.terminal.begin()
        self.query_one("#prompt", Input).focus()
        self.advance()

    # play --------------------------------------------------------------------------------

    def advance(self) -> None:
        """Play on until a person decides (bots in a worker, automatic answers here), or the game ends."""
        terminal = self.terminal
        while not terminal.state.is_terminal():
            seat = terminal.next_seat()
            if seat is None:  # pragma: no cover - engines always name who decides
                break
            if seat in terminal.bots:
                self.busy = True
                self.deciding = None
                self.redraw()
                self.play_bots()
                return
            automatic = terminal.automatic(seat)
            if automatic is not None:
                terminal._record(terminal._apply(seat, automatic))
                continue
            self.start_decision(seat)
            return
        self.end()

    @work(thread=True, exclusive=True, group="bots")
    def play_bots(self) -> None:
        """Let the bots play until a person decides; the screen is redrawn after each bot's turn."""
        terminal = self.terminal
        worker = get_current_worker()
        while not terminal.state.is_terminal():
            seat = terminal.next_seat()
            if seat is None or seat not in terminal.bots:
                break
            terminal.play_bot_turn(seat)
            if worker.is_cancelled:  # the application is closing
                return
            self.call_from_thread(self.redraw)
        if not worker.is_cancelled:
            self.call_from_thread(self._bots_done)

    def _bots_done(self) -> None:
        self.busy = False
        self.advance()

    def start_decision(self, seat: int) -> None:
        """Show ``seat``'s decision; at a shared device, behind the hand-off screen first."""
        terminal = self.terminal
        hidden = terminal.viewer is None and terminal.last_human is not None
        if terminal.hotseat and (terminal.last_human != seat or hidden):
            terminal.viewer = None
            self.deciding = None
            self.busy = True
            self.show_message([], refused=False)
            self.relog()
            self.redraw()
            self.push_screen(HandOff(terminal.label(seat), terminal.names[seat]), lambda _: self._handed(seat))
            return
        self._handed(seat)

    def _handed(self, seat: int) -> None:
        terminal = self.terminal
        terminal.viewer = seat
        terminal.last_human = seat
        self.busy = False
        self.deciding = seat
        if terminal.hotseat:
            self.relog()
        self.redraw()
        self.query_one("#prompt", Input).focus()

    def after_move(self, seat: int) -> None:
        """After a move of ``seat``: the same decision goes on, or the hand is hidden and play goes on."""
        terminal = self.terminal
        if not terminal.turn_ended:
            self.redraw()
            return
        if terminal.hotseat and not terminal.state.is_terminal() and seat not in terminal.state.to_move():
            terminal.viewer = None  # the hand leaves the screen before the device moves on
        self.deciding = None
        self.advance()

    def end(self) -> None:
        """The game is over: the final board, the ranking and the score breakdown."""
        terminal = self.terminal
        terminal.viewer = None
        self.deciding = None
        self.busy = False
        self.flush_log()
        terminal.end_screen()  # the line mode's end: "Game over", the final board, ranking and breakdown
        lines = self.sink.take()
        while lines and not lines[0].strip():
            lines.pop(0)
        terminal.say("'save FILE' keeps the record; Ctrl+Q leaves.")
        self.redraw(board=lines)

    def play(self, text: str) -> None:
        """Handle a typed line (or a chosen move's notation) for the person deciding."""
        terminal = self.terminal
        word = text.strip().split()[0].lower() if text.strip() else ""
        if terminal.commands().get(word) == terminal.cmd_quit:  # the full screen asks its own way
            self.leave()
            return
        self.warned = False
        if self.busy:
            self.show_message(["Wait: it is not your decision yet."], refused=True)
            return
        if terminal.state.is_terminal() and word not in self.renderer.after_game_commands:
            self.show_message([self.renderer.after_game_help], refused=True)
            return
        seat = self.deciding
        self.sink.take()  # what was said before belongs to the log already
        self.flush_log()
        outcome = terminal.handle(text)
        said = self.sink.take()
        self.write_log(said)
        refused = any(line.startswith(("Cannot read that move", "Not allowed")) for line in said)
        if outcome == QUIT:
            self.exit(0)
        elif outcome == MOVED and seat is not None:
            self.show_message([], refused=False)
            self.after_move(seat)
        elif outcome == LOADED:
            terminal.viewer = None
            terminal.last_human = None
            self.deciding = None
            self.show_message(said[:1], refused=False)
            self.advance()
        else:
            shown = [line for line in said if line.strip()]
            self.show_message(shown[:3] if refused else shown[-1:], refused=refused)
            self.redraw()

    # input -------------------------------------------------------------------------------

    @on(Input.Submitted, "#prompt")
    def typed(self, event: Input.Submitted) -> None:
        """Enter at the prompt: the typed line, or the highlighted move if nothing is typed."""
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.play(text)
            return
        chosen = self.highlighted()
        if chosen is not None:
            self.play(chosen["notation"])

    @on(OptionList.OptionSelected, "#moves")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on the moves list, or a click: play that move."""
        if event.option_id is not None:
            self.play(self.listed[int(event.option_id)]["notation"])

    @on(OptionList.OptionHighlighted, "#moves")
    def highlighted_changed(self, event: OptionList.OptionHighlighted) -> None:
        """The highlight moved: explain the move now highlighted."""
        del event
        self.explain()

    def action_move_cursor(self, where: str) -> None:
        """Arrow keys while typing move the highlight in the moves list."""
        moves = self.query_one("#moves", OptionList)
        getattr(moves, f"action_{'cursor_' if where in ('up', 'down') else ''}{where}")()

    def action_type_word(self, word: str) -> None:
        """F1/F2: run ``help`` or ``hint`` as if typed."""
        self.play(word)

    async def action_quit(self) -> None:
        """Leave (Ctrl+Q)."""
        self.leave()

    def leave(self) -> None:
        """Leave; a running game with unsaved moves is only left when asked twice (as the line mode offers to save)."""
        terminal = self.terminal
        if terminal.unsaved and not terminal.state.is_terminal() and not self.warned:
            self.warned = True
            self.notify(LEAVE_UNSAVED, severity="warning", timeout=8)
            return
        self.exit(0)

    def highlighted(self) -> ActionWords | None:
        """The move highlighted in the list, if any."""
        moves = self.query_one("#moves", OptionList)
        option = moves.highlighted_option if moves.highlighted is not None else None
        if option is None or option.id is None:
            return None
        return self.listed[int(option.id)]

    # drawing -----------------------------------------------------------------------------

    def flush_log(self) -> None:
        """Move what the game said into the log pane."""
        self.write_log(self.sink.take())

    def relog(self) -> None:
        """The log pane anew, as the viewer now may see it: at a shared device, nobody reads another's private lines."""
        self.sink.take()
        log = self.query_one("#log", RichLog)
        log.clear()
        self.write_log(self.terminal._visible_log(self.terminal.log)[-LOG_KEPT:])

    def write_log(self, lines: Sequence[str]) -> None:
        """Add lines to the log pane."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(Text(line))

    def show_message(self, lines: Sequence[str], *, refused: bool) -> None:
        """The answer to the last line typed, above the prompt."""
        message = self.query_one("#message", Static)
        message.update(Text("\n".join(lines)))
        message.set_class(refused, "refused")

    def redraw(self, board: Sequence[str] | None = None) -> None:
        """Every pane from the game as the viewer may see it now."""
        terminal = self.terminal
        self.flush_log()
        labels = terminal.labels
        view = terminal.view()
        lines = board if board is not None else self.renderer.board_lines(view, labels)
        self.query_one("#board", Static).update(Text("\n".join(lines)))
        viewer = terminal.viewer
        hand = [] if viewer is None else self.renderer.hand_lines(terminal.state.view(viewer), terminal.label(viewer))
        self.query_one("#hand", Static).update(Text("\n".join(hand)))
        self.query_one("#players", Static).update(Text("\n".join(self.renderer.status_lines(view, labels))))
        self.fill_moves()
        prompt = self.query_one("#prompt", Input)
        if self.deciding is not None:
            prompt.border_title = f"{terminal.label(self.deciding)} >"
        else:
            prompt.border_title = "Game over" if terminal.state.is_terminal() else "Waiting"

    def fill_moves(self) -> None:
        """The deciding seat's legal moves, grouped as the game's words group them."""
        terminal = self.terminal
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        self.listed = []
        seat = self.deciding
        if seat is None or terminal.state.is_terminal():
            self.query_one("#ask", Static).update(Text(""))
            self.explain()
            return
        view = terminal.state.view(seat)
        legal = [str(action) for action in terminal.state.legal_actions(seat)]
        labels = terminal.labels
        self.listed = self.renderer.words.actions(view, legal)
        groups: dict[str, list[int]] = {}
        for index, item in enumerate(self.listed):
            groups.setdefault(fill(item["group"], labels), []).append(index)
        numbered = self.renderer.text.numbers_actions  # as 'hint' numbers them: typing the number plays one
        options: list[Option | None] = []
        for group, indices in groups.items():
            options.append(Option(Text(group, style="bold"), disabled=True))
            for index in indices:
                item = self.listed[index]
                shown = f"{index + 1}) {item['notation']}" if numbered else item["notation"]
                prompt = Text.assemble(("  " + shown, "bold"), "  ", fill(item["label"], labels))
                options.append(Option(prompt, id=str(index)))
        moves.add_options(options)
        expected = self.guided_moves()
        first = next(
            (
                i
                for i, option in enumerate(options)
                if option is not None
                and option.id is not None
                and (not expected or self.listed[int(option.id)]["notation"] in expected)
            ),
            None,
        )
        if first is not None:
            moves.highlighted = first
        self.query_one("#ask", Static).update(Text(fill(self.renderer.words.prompt(view, legal), labels)))
        self.explain()

    def guided_moves(self) -> list[str]:
        """The moves the guide's step asks for (none: any move, or no guide); its words in the guide pane."""
        terminal = self.terminal
        pane = self.query_one("#guide", Static)
        lines = terminal.guide_lines()
        pane.set_class(not lines, "off")
        pane.update(Text("\n".join(lines)))
        if terminal.guide is None:
            return []
        return guide_progress(terminal.guide, terminal.state)["expect"]

    def explain(self) -> None:
        """What the highlighted move would do, in the game's words (the browser's hover preview)."""
        pane = self.query_one("#explain", Static)
        chosen = self.highlighted()
        seat = self.deciding
        if chosen is None or seat is None:
            pane.update(Text(""))
            return
        terminal = self.terminal
        words = self.renderer.words
        legal = [item["notation"] for item in self.listed]
        typed = self.query_one("#prompt", Input).value.strip()
        preview: Preview | None = None
        if typed and typed.split()[0].lower() not in self.command_words:
            preview = preview_notation(words, terminal.state, seat, typed, legal)  # what is typed, legal or not
        elif chosen["target"]:
            preview = preview_target(words, terminal.state, seat, chosen["target"], legal)
        if preview is None:
            preview = preview_notation(words, terminal.state, seat, chosen["notation"], legal)
        pane.border_title = "Explain (typed)" if typed and preview is not None else "Explain"
        pane.update(Text("" if preview is None else "\n".join(preview_lines(preview, terminal.labels))))

    @on(Input.Changed, "#prompt")
    def typing(self, event: Input.Changed) -> None:
        """As a move is typed, the explain pane says what it would do, or why the rules forbid it."""
        del event
        self.explain()


def run_app(terminal: TerminalGame, *, bot_delay: float = 0.4) -> int:
    """Play ``terminal``'s game full screen; returns the exit status."""
    return PlayApp(terminal, bot_delay=bot_delay).run() or 0
