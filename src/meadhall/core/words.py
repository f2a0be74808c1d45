"""How a game reads for people: the words every interface asks the game for.

A game's words live in its own package (``games/<game>/words.py``) and are reached
through :meth:`meadhall.core.game.Game.words`. The hosts (the terminal, the server and
the browser pages it feeds, replays) draw and pick; they ask the game's words for every
sentence a player reads about the game, and word none of it themselves.

Words are pure functions of what a seat may know: its view (:meth:`GameState.view`),
the notation of its legal actions, and the events it sees (already filtered for it).
They never see a state, so they cannot tell anyone what is hidden from them; the
conformance suite checks that words computed in a world sampled for the seat are the
same.

**Seat names belong to the host** (the terminal says ``Seat 2 (Ann)``, a web page the
player's display name, ``Ann (you)`` for the reader). Words refer to a seat with a
placeholder, :func:`name_of` (``"{1}"`` is seat 1's name), and double any literal brace
(:func:`literal`); :func:`fill` puts the names in. The browser does the same with
``MH.fill`` (``common.js``): only ``{N}``, ``{{`` and ``}}`` mean anything.

The records below are plain JSON-ready dicts (``TypedDict``): the server sends them as
they are. A game may hand out the same record object again (a cache): hosts never change
them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, NotRequired, Self, TypedDict, TypeVar

from meadhall.core.content import pack_derived
from meadhall.core.game import JSON, Event

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(\d{1,3})\}")


def name_of(seat: int) -> str:
    """The placeholder for ``seat``'s name in a text: ``{2}``."""
    return f"{{{seat}}}"


def seat_label(seat: int) -> str:
    """What people call seat ``seat`` (counted from 0) by its place alone: ``Seat 3`` for seat 2.

    The name of a seat nobody holds (or past the names a host has), and the label of a seat
    in a list of seats: every interface says it with this.
    """
    return f"Seat {seat + 1}"


def literal(text: str) -> str:
    """``text`` (a name from content data, say) as it must appear in a text: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def fill(text: str, names: Sequence[str]) -> str:
    """``text`` with every ``{N}`` replaced by ``names[N]`` (:func:`seat_label` past the end), braces undoubled."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else seat_label(seat)

    return _PLACEHOLDER.sub(replace, text) if "{" in text or "}" in text else text


class ActionWords(TypedDict):
    """One legal action for people and for the board plugin.

    ``notation`` is what is sent back to play it; ``label`` says what it does (for menus,
    hints, choosers); ``group`` is the heading it is listed under (actions of one group
    share it; ``hint WORD`` in the terminal keeps the groups with that word); both are
    texts with seat placeholders. ``target`` is structured data the game's board plugin
    draws and picks from (cells, pieces, ...), so that no interface reads notation; None
    where a game has nothing to add.
    """

    notation: str
    label: str
    group: str
    target: dict[str, JSON] | None


class EventWords(TypedDict):
    """One event in words, as one seat sees it: a line and its details (scored lines, ...).

    ``heading`` marks an event that starts a new part of the game (a turn, the end); a host
    that heads each part itself (the terminal) may leave it out of its running account.
    """

    text: str
    details: list[str]
    heading: NotRequired[bool]


class Standing(TypedDict):
    """One seat's place at the end: ``score`` in words (``12 points``)."""

    seat: int
    place: int
    score: str


class ResultWords(TypedDict):
    """The end of a game: every seat, best place first, and notes (tie-breaks)."""

    standings: list[Standing]
    notes: list[str]


class ComponentWords(TypedDict):
    """One kind of component (a tile, a card) for legends and hover texts.

    ``key`` is how views and actions name it; ``value`` what its face shows (may be
    empty); ``facts`` a short line (value and count); ``text`` its power or rules text.
    Plain text: no seat placeholders (a component belongs to nobody).
    """

    key: str
    name: str
    value: str
    facts: str
    text: str


class TableWords(TypedDict):
    """What a host shows beside the board, from one seat's view.

    ``heading`` names the part of the game now (``Turn 5: {1}``); ``status`` gives the
    public facts of the position, first line first; ``seats`` one line per seat (its
    score and what everyone may know of it); ``prompt`` (only for a seat that decides)
    what it decides now; ``result`` once the game is over; ``places`` (for a game that
    words them) what each piece on the board is now, by the key its view gives it
    (a plugin's accessible names and tooltips); ``titles`` (for a game whose board has
    them) the board's own headings and the names of its parts, by the key its plugin
    asks for (``hand``: ``Your hand (5)``), so that the plugin words nothing itself.
    """

    heading: str
    status: list[str]
    seats: list[str]
    prompt: NotRequired[str]
    result: NotRequired[ResultWords]
    places: NotRequired[dict[str, str]]
    titles: NotRequired[dict[str, str]]


class Preview(TypedDict):
    """What a target on the board would do, shown before it is played (hover, focus, long press).

    ``legal``: whether the seat may play it now; ``title`` names the action (a label);
    ``lines`` say what it does, a line each (Völuspá: each scored line; others: the effect);
    ``points`` (what it scores) or ``cost`` (what it costs), in words, where the game has them;
    ``refusal`` and ``rule``: for an illegal target, the engine's words for the rule that
    forbids it. Texts may hold seat placeholders.
    """

    legal: bool
    title: str
    lines: list[str]
    points: NotRequired[str]
    cost: NotRequired[str]
    refusal: NotRequired[str]
    rule: NotRequired[str]


class GameWords(ABC):
    """How one game reads for people; see the module's docstring.

    Every method is pure and reads only its arguments. Texts may hold seat placeholders.
    """

    #: What a player's private components are called (``Press Enter to hide your tiles``).
    hand_word = "hand"
    #: What the game's components are called (the terminal's command listing them).
    component_word = "components"
    #: True if :meth:`table` reads only what every seat's view shows alike (not the seat's
    #: own hand): a server then words the table once per position for every seat.
    public_table = False
    #: How to write actions (:meth:`notation_help`); empty for a game nobody types.
    notation = ""
    #: Why a turn ends where it does, added to :meth:`turn_over`'s refusal (empty: nothing to add).
    turn_rule = ""

    def for_options(self, options: Mapping[str, Any]) -> GameWords:
        """These words for a game played with ``options`` (normalized): hosts word a table's events with them.

        Events name components by key; a game whose names depend on its options (a content
        pack) returns words that know them. The default: the same words for every game.
        """
        del options
        return self

    @abstractmethod
    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        """Words for each of the seat's legal actions (``legal``: their notation, in order)."""

    @abstractmethod
    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """What the seat whose view this is decides now, given its legal actions."""

    @abstractmethod
    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        """``event`` as ``viewer`` (None: a spectator) reads it; None for a kind the game has no words for."""

    @abstractmethod
    def heading(self, view: Mapping[str, Any]) -> str:
        """The part of the game now: ``Turn 5: {1}``."""

    def status(self, view: Mapping[str, Any]) -> list[str]:
        """The public facts of the position, first line first (default: the heading)."""
        return [self.heading(view)]

    def seat_count(self, view: Mapping[str, Any]) -> int:
        """How many seats the view's game has (default: the length of its ``seats`` list)."""
        return len(view.get("seats") or ())

    @abstractmethod
    def seat(self, view: Mapping[str, Any], seat: int) -> str:
        """One seat's public state in a line: ``12 points · 5 tiles``."""

    @abstractmethod
    def result(self, view: Mapping[str, Any]) -> ResultWords:
        """Places, scores and tie-breaks of a finished game's view."""

    @abstractmethod
    def components(self, options: Mapping[str, Any] | None = None) -> list[ComponentWords]:
        """The game's components for legends (``options``: normalized; None for the defaults)."""

    def notation_help(self) -> str:
        """How to write actions, for people who type them (the terminal's ``help``): :attr:`notation`."""
        return self.notation

    def turn_over(self, done: str, step: str) -> str:
        """Why ``step`` cannot follow the steps ``done`` typed in one line: the turn ended (:attr:`turn_rule`)."""
        said = f"your turn is over after {done}, so {step} cannot follow"
        return f"{said} ({self.turn_rule})" if self.turn_rule else said

    def target_notation(self, view: Mapping[str, Any], target: Mapping[str, Any]) -> str | None:
        """The notation of the action a board ``target`` names, legal now or not (None: no action).

        The inverse of the ``target`` of :meth:`actions`, so that a host can ask the engine
        why a target that is no legal action now is refused. The default knows none: a game
        without it previews its legal targets only.
        """
        del view, target
        return None

    def preview(self, view: Mapping[str, Any], legal: Sequence[str], notation: str) -> Preview:
        """What the legal action ``notation`` would do for the view's seat (``legal``: all its actions now).

        Read from the view alone, like every word. The default: the action's label and
        nothing more; games say what it scores or costs and does.
        """
        label = next((item["label"] for item in self.actions(view, [notation])), notation)
        return {"legal": True, "title": label, "lines": []}

    def place(self, view: Mapping[str, Any], target: Mapping[str, Any], legal: Sequence[str]) -> Preview | None:
        """What a board ``target`` naming no action is (a region, a god's area), and why nothing can be done there.

        For a place on the board with no move of the view's seat on it (``legal``: the seat's
        actions now, empty when it is not to move): its name as ``title``, what it is in
        ``lines``, and the reason in ``refusal`` (``legal`` False). Read from the view alone.
        The default knows no place (None).
        """
        del view, target, legal
        return None

    def refused(self, view: Mapping[str, Any], notation: str, refusal: str, rule: str) -> Preview:
        """The preview of an action the rules forbid now: its label, and the engine's ``refusal`` and ``rule``."""
        try:
            title = self.actions(view, [notation])[0]["label"]
        except (ValueError, KeyError, IndexError, TypeError):  # a notation its words cannot label
            title = literal(notation)
        return {"legal": False, "title": title, "lines": [], "refusal": refusal, "rule": rule}

    def table(self, view: Mapping[str, Any], legal: Sequence[str] | None = None) -> TableWords:
        """The words beside the board for ``view``; ``legal``: the seat's actions if it decides now."""
        words: TableWords = {
            "heading": self.heading(view),
            "status": self.status(view),
            "seats": [self.seat(view, seat) for seat in range(self.seat_count(view))],
        }
        if view.get("finished"):
            words["result"] = self.result(view)
        if legal:
            words["prompt"] = self.prompt(view, legal)
        places = self.places(view)
        if places:
            words["places"] = places
        titles = self.titles(view)
        if titles:
            words["titles"] = titles
        return words

    def places(self, view: Mapping[str, Any]) -> dict[str, str]:
        """What each piece on the board is now, by the key the game's view gives it (default: none).

        For what the board alone cannot show: a piece whose worth differs from its face.
        """
        del view
        return {}

    def titles(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The board's own words for ``view``, by the key the game's plugin asks for (default: none).

        Its headings, counts worded in (``hand``: ``Your hand (5)``), and the names its parts
        are read by (``map``: ``The map``): a plugin draws them and words nothing itself. With
        :attr:`public_table`, they too must read only what every seat's view shows alike.
        """
        del view
        return {}


Pack = TypeVar("Pack")


class PackWords(GameWords, Generic[Pack]):
    """Words for a game whose events name components of a content pack by key.

    ``content`` is the pack events are worded with: by default the game's own
    (:meth:`default_pack`); :meth:`for_options` gives the words of a table's pack, made
    once per pack and kept with it (:func:`~meadhall.core.content.pack_derived`). Views
    name their pack in their options, so the other methods read the view's.
    """

    def __init__(self, content: Pack | None = None) -> None:
        #: The content pack events are worded with.
        self.content: Pack = content if content is not None else self.default_pack()

    @abstractmethod
    def default_pack(self) -> Pack:
        """The game's own content pack (for words made without one)."""

    @abstractmethod
    def pack_of(self, options: Mapping[str, Any]) -> Pack:
        """The content pack a table's (normalized) ``options`` name."""

    def for_options(self, options: Mapping[str, Any]) -> Self:
        """These words for a table's options: its events are worded with its content pack."""
        content = self.pack_of(options)
        if content is self.content:
            return self
        return pack_derived(content, type(self))  # the class is the key: one set of words per pack


def event_json(event: Event, viewer: int | None, words: GameWords | None) -> dict[str, JSON]:
    """``event`` as JSON for ``viewer``, with its ``text`` and ``details`` when the game has words."""
    data = event.to_json()
    if words is not None:
        said = words.event(event, viewer)
        if said is not None:
            data["text"] = said["text"]
            data["details"] = said["details"]
            if said.get("heading"):
                data["heading"] = True
    return data


def events_json(events: Sequence[Event], viewer: int | None, words: GameWords | None) -> list[dict[str, JSON]]:
    """The events of ``events`` that ``viewer`` may see, as :func:`event_json` gives them."""
    return [event_json(event, viewer, words) for event in events if event.visible_to(viewer)]


#: Keys the words add to an event's JSON: a game's event data must not use them.
EVENT_WORD_KEYS = frozenset({"text", "details", "heading"})


def standings(places: Sequence[int], score: Callable[[int], str]) -> list[Standing]:
    """Every seat with its place (``places``, by seat) and ``score(seat)``, best place first, then by seat."""
    order = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
    return [{"seat": seat, "place": places[seat], "score": score(seat)} for seat in order]


def ties(seats: Sequence[int], score: Callable[[int], int]) -> list[tuple[int, list[int]]]:
    """The seats of ``seats`` that share a score, as (score, those seats in the order given): a tie-break's notes."""
    by_score: dict[int, list[int]] = {}
    for seat in seats:
        by_score.setdefault(score(seat), []).append(seat)
    return [(shared, tied) for shared, tied in by_score.items() if len(tied) > 1]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``3 tiles`` (``many``: a plural that is not word + s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``11th``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def joined(items: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
