"""A game drawn as text: what the terminal host asks a game for besides its words.

A game's text drawing lives in its package (``games/<game>/text.py``) and is reached
through :meth:`meadhall.core.game.Game.text`. It draws a *view* (never a state) as lines:
the board and the viewer's hand. Everything else the terminal shows (events, prompts,
hints, scores, the end) comes from the game's words (:mod:`meadhall.core.words`), laid
out by the host. Names given are the host's seat names (``Seat 2 (Ann)``); texts from the
words still hold placeholders and are filled by the host.

A game may add commands of its own (Völuspá's ``explain``): a :data:`TextCommand` is
called with the host, which offers what such a command may need (:class:`TextHost`),
and the rest of the typed line. It may also offer tools for the command line, which work
on its positions outside a game (:meth:`GameText.tools`, :mod:`meadhall.core.tools`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from meadhall.core.game import Action
from meadhall.core.tools import GameTool


class TextHost(Protocol):
    """What a game's own terminal command may ask of the terminal it runs in."""

    def say(self, text: str = "") -> None:
        """Write a line."""
        ...

    def public_view(self) -> dict[str, Any]:
        """The spectators' view of the game now."""
        ...

    def seat_to_move(self) -> int | None:
        """The person at the device who decides now, if any."""
        ...

    def check_steps(self, seat: int, steps: Sequence[Action]) -> str | None:
        """Why ``seat`` cannot play ``steps`` now (tried on a copy), or None if it can."""
        ...

    def show_last_turn(self, nothing_yet: str) -> None:
        """Repeat what the viewer saw of the last finished turn (``nothing_yet`` if none)."""
        ...


#: A game's own terminal command: called with the host and the rest of the line.
TextCommand = Callable[[TextHost, str], None]


class GameText(ABC):
    """A game drawn as text for the terminal: pure functions of a view."""

    #: True if the terminal's ``hint`` numbers the legal actions and a typed number plays
    #: one (for a game whose notation is long to type); the numbers follow the order of
    #: the legal actions.
    numbers_actions = False

    @abstractmethod
    def board(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """The board (and whatever everyone sees on the table) as lines."""

    @abstractmethod
    def hand(self, view: Mapping[str, Any], name: str) -> list[str]:
        """The private components of the view's seat, called ``name``."""

    def position(self, view: Mapping[str, Any]) -> str | None:
        """The position in the game's own notation, if it has one (a board diagram), else None."""
        del view
        return None

    def commands(self) -> dict[str, TextCommand]:
        """The game's own commands, by the word that calls them."""
        return {}

    def commands_help(self) -> list[str]:
        """Help lines for :meth:`commands` (``  explain MOVE     judge MOVE ...``)."""
        return []

    def tools(self) -> tuple[GameTool, ...]:
        """The game's command-line tools (``meadhall <game> <tool>``), none by default."""
        return ()
