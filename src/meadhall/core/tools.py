"""A game's own command-line tools: ``meadhall <game> <tool> ...`` with no code of the game in the CLI.

A game may offer tools that work on its positions outside a game in progress (Völuspá's
``explain``: judge a move on a board and explain every point). A tool lives in the
game's package and is reached through :meth:`meadhall.core.text.GameText.tools`; the
command line (``cli/tools.py``) finds every game's tools through the registry and builds
their subcommands from what a :class:`GameTool` declares.

A tool is pure, like the rest of a game: it reads texts and switches and returns JSON
data. The host does the I/O: it reads an input given as a file name (an input with
``file=True``), prints the result as text (:meth:`GameTool.text`) or as JSON
(``--json``), and in ``--batch`` mode reads one JSON object of inputs per line of
standard input and writes one result per line, answering a line it cannot read with
:meth:`GameTool.unreadable`; it hands the tool the lines in runs
(:meth:`GameTool.run_many`), so that a tool can share work between lines, and with
``--jobs N`` spreads the runs over N processes, the output in the input's order.
A tool raises :class:`~meadhall.core.errors.MalformedAction`
for input it cannot read (the command then exits with status 2).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meadhall.core.errors import MalformedAction

if TYPE_CHECKING:
    from meadhall.core.game import GameState

#: One batch line's inputs (by input name) and switches (by switch name).
Request = tuple[Mapping[str, str], Mapping[str, bool]]


@dataclass(frozen=True)
class ToolInput:
    """A text a tool reads: ``--NAME TEXT`` on the command line, key ``NAME`` of a batch line."""

    name: str
    help: str
    #: Whether the text may be given as the name of a file holding it (the host reads it).
    file: bool = False


@dataclass(frozen=True)
class ToolSwitch:
    """A yes-or-no setting of a tool: ``--NAME`` on the command line, key ``NAME`` (``-`` as ``_``) of a batch line."""

    name: str
    help: str


class GameTool(ABC):
    """One command-line tool of a game (``meadhall voluspa explain``)."""

    #: The word that calls it (``explain``).
    name: str
    #: One line for the list of tools.
    summary: str
    #: What it does, in full (the tool's ``--help``).
    description: str
    #: The texts it reads, all required on the command line.
    inputs: tuple[ToolInput, ...] = ()
    #: Its yes-or-no settings, off unless given.
    switches: tuple[ToolSwitch, ...] = ()

    @abstractmethod
    def run(self, inputs: Mapping[str, str], switches: Mapping[str, bool]) -> dict[str, Any]:
        """The result for ``inputs`` (by input name) and ``switches`` (by switch name), as JSON data.

        Raises :class:`~meadhall.core.errors.MalformedAction` if an input cannot be read.
        """

    def run_many(self, requests: Sequence[Request]) -> list[dict[str, Any] | MalformedAction]:
        """The result of each request, in order; a request that cannot be read gives its :class:`MalformedAction`.

        ``--batch`` hands a tool its lines in runs; the default runs each alone. A tool whose
        requests share work (moves on one position, set up once) does it once here.
        """
        results: list[dict[str, Any] | MalformedAction] = []
        for inputs, switches in requests:
            try:
                results.append(self.run(inputs, switches))
            except MalformedAction as error:
                results.append(error)
        return results

    def requests(self, state: GameState[Any], seat: int, moves: Sequence[str], lines: bool) -> list[Request]:
        """Requests that judge ``moves`` of ``seat`` on ``state``, with the moves' words or not (``lines``).

        For a tool that judges moves (``meadhall bench`` measures it with these); the
        default, for other tools, is none.
        """
        del state, seat, moves, lines
        return []

    @abstractmethod
    def text(self, result: Mapping[str, Any]) -> str:
        """A result of :meth:`run` for people."""

    @abstractmethod
    def unreadable(self, reason: str) -> dict[str, Any]:
        """The result a batch line gets when it cannot be read (it keeps the batch's order)."""
