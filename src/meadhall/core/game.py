"""The shape every meadhall game has.

A game is a :class:`Game` object (its facts and a factory of states) plus a
:class:`GameState` subclass (one position, mutable, cheap to clone). The protocol is the
same for a turn-based tile game, a card-drafting game where every seat picks at once, and
a dice game with response windows:

* :meth:`GameState.to_move` gives *every* seat that must decide now. Where the rules make
  several seats choose at once (drafting, secret battle cards), each seat's action is
  applied on its own and held hidden until the last one arrives; where the rules open a
  response window, the window is one more decision with ``pass`` among its actions.
* :meth:`GameState.apply` takes the seat and the action, and either raises (changing
  nothing) or returns the :class:`Event` values it caused, each tagged with its audience.
  The base class does the bookkeeping around it (options, seed, players, the history,
  checking before applying, events or none): a game implements its rules as
  :meth:`GameState._step`, and checks with :meth:`GameState.check` (or
  :meth:`GameState._checked`, which may hand the step what checking worked out).
* :meth:`GameState.view` is the only way hidden information leaves a state.
* All chance comes from the state's own :class:`~meadhall.core.rng.Rng`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from meadhall.core.content import (
    PACK_BYTES,
    ContentError,
    is_pack_reference,
    pack_reference,
    remember_pack,
    resolve_pack,
)
from meadhall.core.errors import IllegalAction, InvalidOptions, MalformedAction
from meadhall.core.rng import Rng
from meadhall.core.search import GameSearch, SearchAdapter

if TYPE_CHECKING:
    from meadhall.core.balance import BalanceSpec

if TYPE_CHECKING:
    from meadhall.core.breakdown import ScoreTable
    from meadhall.core.guide import Guide
    from meadhall.core.judge import PositionJudge
    from meadhall.core.spaces import GameSpaces
    from meadhall.core.text import GameText
    from meadhall.core.words import GameWords

#: An action: a small immutable, hashable value; ``str(action)`` is its notation and
#: ``game.parse_action(str(action)) == action`` always holds.
Action = Hashable

#: JSON-compatible data, as views and events carry.
JSON = Any
#: A game not over after this many decisions is broken (an engine that loops): self-play
#: (``meadhall.lab``) stops it with an error instead of running until memory runs out.
#: Real games take a few hundred decisions.
MAX_DECISIONS = 100_000

S = TypeVar("S", bound="GameState[Any]")
A = TypeVar("A", bound=Hashable)

OptionKind = Literal["bool", "int", "choice", "set", "json", "pack"]


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut short (options may be large)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class OptionSpec:
    """One option a game can be set up with.

    ``kind`` is ``bool``, ``int`` (between ``minimum`` and ``maximum``), ``choice`` (one
    of ``choices``), ``set`` (any subset of ``choices``, kept in ``choices`` order),
    ``json`` (any JSON value; the game's ``check_options`` reads and normalizes it) or
    ``pack`` (a content pack: ``"default"``, a whole pack as JSON within the limits of
    :mod:`meadhall.core.content`, or a reference to a pack this process knows; views
    carry the reference, see :meth:`GameInfo.public_options`).

    For people: ``label`` is the option's name in words ("Starting Glory"; the key when
    not given), ``help`` one line on what it does, and ``choice_labels`` the words for
    each of ``choices``, in the same order. Error messages name the option by its label.
    """

    name: str
    kind: OptionKind
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice ({len(self.choices)})")

    @property
    def title(self) -> str:
        """The option's name for people: its label, else its key."""
        return self.label or self.name

    def choice_words(self) -> list[dict[str, str]]:
        """Each choice with its label (the value itself where the game gave none)."""
        labels = self.choice_labels or self.choices
        return [{"value": value, "label": label} for value, label in zip(self.choices, labels, strict=True)]

    def describe(self) -> dict[str, Any]:
        """The option as a form draws it: key, kind, label, help, default, choices with labels, bounds.

        A pack option says its size limit too (``max_bytes``, as compact JSON), so a form can
        refuse a file too large before sending it.
        """
        said: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "label": self.title,
            "help": self.help,
            "default": self.default if self.kind != "pack" or isinstance(self.default, str) else "default",
            "choices": self.choice_words(),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }
        if self.kind == "pack":
            said["max_bytes"] = PACK_BYTES
        return said

    def words_for(self, value: Any) -> str | None:
        """``value`` of this option in words for a table's summary ("Rounds: 8"), or None at its default.

        ``value`` is as stored (normalized; a content pack by its reference).
        """
        if value is None:
            return None
        if self.kind == "pack":
            return None if value == "default" else f"{self.title}: a pack of the table's own"
        try:
            if value == self.normalize(self.default):
                return None
        except InvalidOptions:
            pass  # a default only a game's check_options reads: any value is worth saying
        labels = dict(zip(self.choices, self.choice_labels or self.choices, strict=True))
        if self.kind == "bool":
            return f"{self.title}: {'on' if value else 'off'}"
        if self.kind == "choice":
            return f"{self.title}: {labels.get(str(value), str(value))}"
        if self.kind == "set" and isinstance(value, list):
            if len(value) <= 3:
                return f"{self.title}: {', '.join(labels.get(str(v), str(v)) for v in value) or 'none'}"
            return f"{self.title}: {len(value)} of {len(self.choices)}"
        if self.kind == "int":
            return f"{self.title}: {value}"
        if isinstance(value, str):
            return f"{self.title}: {value}"
        if isinstance(value, list) and len(value) <= 5 and all(isinstance(v, str) for v in value):
            return f"{self.title}: {', '.join(value)}"
        return f"{self.title}: chosen"  # json of the game's own shape, told in full on the table

    def normalize(self, value: Any) -> Any:
        """Return ``value`` in canonical form, or raise :class:`InvalidOptions`."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            raise InvalidOptions(f"{self.title} is on or off (true/false), not {_shown(value)}")
        if self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise InvalidOptions(f"{self.title} needs a whole number, not {_shown(value)}") from None
            if self.minimum is not None and number < self.minimum:
                raise InvalidOptions(f"{self.title} must be at least {self.minimum}")
            if self.maximum is not None and number > self.maximum:
                raise InvalidOptions(f"{self.title} must be at most {self.maximum}")
            return number
        if self.kind == "json":
            return value
        if self.kind == "pack":
            return _pack_option(self.title, value)
        if self.kind == "choice":
            if value not in self.choices:
                known = ", ".join(self.choices)
                raise InvalidOptions(f"{self.title} must be one of {known}; got {_shown(value)}")
            return value
        # set
        items: Iterable[Any]
        if isinstance(value, str):
            items = [part for part in value.replace(",", " ").split() if part]
        elif isinstance(value, Iterable):
            items = value
        else:
            raise InvalidOptions(f"{self.title} needs a list of {', '.join(self.choices)}")
        chosen: set[str] = set()
        for item in items:
            text = str(item)
            if text not in self.choices and text.upper() in self.choices:
                text = text.upper()
            if text not in self.choices:
                known = ", ".join(self.choices)
                raise InvalidOptions(f"{self.title}: unknown value {_shown(item)}; known: {known}")
            chosen.add(text)
        return [c for c in self.choices if c in chosen]


def _pack_option(name: str, value: Any) -> Any:
    """A content pack option's value: ``"default"``, or the whole pack (the one object this process keeps)."""
    if value is None or value == "default":
        return "default"
    if not isinstance(value, dict):
        raise InvalidOptions(
            f"{name}: the default pack, or a content pack (a JSON file holding one object), not {type(value).__name__}"
        )
    try:
        return resolve_pack(value)
    except ContentError as error:
        raise InvalidOptions(f"{name}: {error}") from None


#: The content pack option, the same for every game that has one: the default pack, or a
#: pack uploaded as a JSON file (within the limits of :mod:`meadhall.core.content`).
CONTENT_PACK_OPTION = OptionSpec(
    "content",
    "pack",
    "default",
    "the game's default cards, or a content pack of your own: a JSON file in the game's content schema",
    label="Content pack",
)


@dataclass(frozen=True)
class GameInfo:
    """The facts a game declares about itself."""

    name: str
    title: str
    summary: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str
    hidden_information: bool
    simultaneous_decisions: bool
    chance: bool
    preset_titles: Mapping[str, str] = field(default_factory=dict)

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with each content pack replaced by its reference (views, lists, stored tables)."""
        public = dict(options)
        for spec in self.options:
            value = public.get(spec.name)
            if spec.kind == "pack" and isinstance(value, dict):
                public[spec.name] = pack_reference(value)
        return public

    def setup_words(self, options: Mapping[str, Any]) -> list[str]:
        """``options`` (as stored) in words, as a table's summary says them.

        The preset they match (not the default one) by its title, then each option not at
        its default that the preset does not set.
        """
        preset, preset_keys = self._matching_preset(options)
        said = [self.preset_titles.get(preset, preset)] if preset else []
        for spec in self.options:
            if spec.name not in preset_keys:
                words = spec.words_for(options.get(spec.name))
                if words:
                    said.append(words)
        return said

    def _matching_preset(self, options: Mapping[str, Any]) -> tuple[str | None, frozenset[str]]:
        """The preset (not the default one) whose every value ``options`` hold, the one setting most; and its keys."""
        best: tuple[str | None, frozenset[str]] = (None, frozenset())
        for name, values in self.presets.items():
            if name == self.default_preset or len(values) <= len(best[1]):
                continue
            try:
                matches = all(options.get(key) == self.option(key).normalize(value) for key, value in values.items())
            except InvalidOptions:
                continue
            if matches:
                best = (name, frozenset(values))
        return best

    def packs(self, options: Mapping[str, Any]) -> dict[str, str]:
        """The whole content packs ``options`` hold: canonical JSON by digest (what a server stores)."""
        found: dict[str, str] = {}
        for spec in self.options:
            value = options.get(spec.name)
            if spec.kind == "pack" and isinstance(value, dict) and not is_pack_reference(value):
                digest, canonical = remember_pack(value)
                found[digest] = canonical
        return found

    def option(self, name: str) -> OptionSpec:
        """Return the option called ``name``."""
        for spec in self.options:
            if spec.name == name:
                return spec
        raise InvalidOptions(f"{self.title} has no option {name!r}; options: {', '.join(o.name for o in self.options)}")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, tagged with who may see it.

    ``audience`` is ``None`` for a public event (every seat and spectators), otherwise
    the seats that may see it. ``data`` is JSON-compatible.
    """

    kind: str
    data: Mapping[str, JSON]
    audience: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """True if ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, JSON]:
        """The event as a JSON object (without its audience, which is for routing)."""
        return {"kind": self.kind, **self.data}


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` (``None``: a spectator) may see."""
    return [event for event in events if event.visible_to(seat)]


class GameState(ABC, Generic[A]):
    """One position of a game. Mutable; :meth:`clone` gives an independent copy.

    ``A`` is the game's action type.

    The base class keeps the bookkeeping every game needs: the number of seats, the
    options, the seed and the history of applied actions (set by :meth:`_begin`, copied
    by :meth:`_copy_bookkeeping`), and :meth:`apply` and :meth:`apply_quiet` around the
    game's own :meth:`_step`: check first (an illegal action raises and changes
    nothing), record the action once, then apply the rules, with or without events. A
    game implements :meth:`check` and :meth:`_step` (its rules) and calls
    :meth:`_begin` when it sets up. (A game that overrides :meth:`apply` and
    :meth:`apply_quiet` and the facts itself still works: the base asks nothing more.)
    """

    # The bookkeeping (see _begin). The history is a linked list, ``(earlier, (seat,
    # action))``, so recording an action is one tuple and a clone shares it.
    __slots__ = ("_applied", "_options", "_players", "_seed")

    _applied: tuple[Any, tuple[int, A]] | None
    _options: Mapping[str, Any]
    _players: int
    _seed: int

    game: ClassVar[Game]
    #: Event kinds that show some seat information that was hidden from it before the
    #: action (a pack passed on, battle cards revealed, a new hand dealt). The leak checks
    #: of the conformance suite do not compare what seats see after such an action.
    revealing_events: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A game written before the base did the bookkeeping overrides apply and not
        # _step: its quiet path is its own apply, events dropped (as the base used to do).
        # Decided once per class, so the quiet path of a game with a _step pays nothing.
        if cls._step is GameState._step and cls.apply is not GameState.apply and "apply_quiet" not in vars(cls):
            cls.apply_quiet = GameState._apply_quiet_through_apply  # type: ignore[method-assign]

    def _apply_quiet_through_apply(self, seat: int, action: A) -> None:
        """``apply_quiet`` of a game that overrides :meth:`apply` and not :meth:`_step`."""
        self.apply(seat, action)

    # Bookkeeping ----------------------------------------------------------------------

    def _begin(self, players: int, options: Mapping[str, Any], seed: int) -> None:
        """Start the bookkeeping of a new game (a game's setup calls this): no action applied yet."""
        self._players = players
        self._options = options
        self._seed = seed
        self._applied = None

    def _copy_bookkeeping(self, other: GameState[A]) -> None:
        """Give ``other`` (a clone being built) this state's bookkeeping; the history is shared, not copied."""
        other._players = self._players
        other._options = self._options
        other._seed = self._seed
        other._applied = self._applied

    def __getstate__(self) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """What pickle and copy keep of a state: its fields, the history as a flat list.

        The history is a linked list of nested tuples (one level per action), which pickle
        would walk one recursion level per action, beyond its limit in a long game; so it is
        written as a list and linked again by :meth:`__setstate__`. The rest (the rules'
        fields, the RNG) is kept as it is, so a state read back is the same state: the same
        fingerprint, views, legal actions and future under the same actions.
        """
        found = super().__getstate__()
        attributes, slots = found if isinstance(found, tuple) else (found, {})
        slots = dict(slots)
        slots["_applied"] = self.history() if hasattr(self, "_applied") else []
        return attributes, slots

    def __setstate__(self, state: tuple[dict[str, Any] | None, dict[str, Any]]) -> None:
        """Read back what :meth:`__getstate__` gave (the history linked again)."""
        attributes, slots = state
        if attributes:
            vars(self).update(attributes)
        for name, value in slots.items():
            if name != "_applied":
                object.__setattr__(self, name, value)
        history: tuple[Any, tuple[int, A]] | None = None
        for step in slots.get("_applied", ()):
            history = (history, step)
        self._applied = history

    @property
    def num_players(self) -> int:
        """Number of seats, numbered ``0 .. num_players - 1``."""
        return self._players

    @property
    def options(self) -> Mapping[str, Any]:
        """The normalized options the game was set up with."""
        return self._options

    @property
    def seed(self) -> int:
        """The seed the game was set up with (server side only; never in a view)."""
        return self._seed

    def history(self) -> list[tuple[int, A]]:
        """Every ``(seat, action)`` applied since setup, in order."""
        items: list[tuple[int, A]] = []
        node = self._applied
        while node is not None:
            node, entry = node
            items.append(entry)
        items.reverse()
        return items

    # Deciding and applying ------------------------------------------------------------

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now (several where the rules say so); empty at the end."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[A]:
        """Every legal action of ``seat`` now (empty if the seat need not decide)."""

    def response_window(self, seat: int) -> bool:
        """Whether ``seat`` decides now in a response window the rules offer it whatever it holds.

        Everyone sees that such a decision is offered; what it must not show is whether
        the seat holds anything to answer with. So how long it takes must not tell: a
        server answers a seat that can only pass after the same pause as a seat that
        chooses (see docs/server.md). ``False`` by default.
        """
        del seat
        return False

    @abstractmethod
    def check(self, seat: int, action: A) -> None:
        """Raise :class:`IllegalAction` explaining why ``action`` is illegal; else return."""

    def apply(self, seat: int, action: A) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the events it caused.

        Raises :class:`IllegalAction` (nothing changes) if the rules forbid it. Checks
        (:meth:`_checked`), records the action in the history, then runs :meth:`_step`.
        """
        plan = self._checked(seat, action)
        self._applied = (self._applied, (seat, action))
        events: list[Event] = []
        self._step(seat, action, plan, events)
        return events

    def apply_quiet(self, seat: int, action: A) -> None:
        """Apply like :meth:`apply` without building events (bots, benchmarks).

        The rules applied are the same; a game may check less here (:meth:`_checked_quiet`).
        """
        plan = self._checked_quiet(seat, action)
        self._applied = (self._applied, (seat, action))
        self._step(seat, action, plan, None)

    def _checked(self, seat: int, action: A) -> Any:
        """Check ``action`` (raise :class:`IllegalAction`, changing nothing) and return what :meth:`_step` needs.

        By default :meth:`check`, and nothing for the step; a game whose checking works
        out how the action applies (where a tile lands) returns that, so it is worked
        out once.
        """
        self.check(seat, action)
        return None

    def _checked_quiet(self, seat: int, action: A) -> Any:
        """:meth:`_checked` for :meth:`apply_quiet`; a game may trust its caller here.

        The default checks as :meth:`apply` does. A game whose check costs as much as
        finding the legal actions may skip it, for callers (bots) that apply only
        actions from :meth:`legal_actions`; it says so in its ``apply_quiet``.
        """
        return self._checked(seat, action)

    def _step(self, seat: int, action: A, plan: Any, events: list[Event] | None) -> None:
        """The game's rules: apply a checked ``action`` of ``seat``.

        ``plan`` is what :meth:`_checked` returned; ``events`` is the list to append the
        events to, or ``None`` when nobody reads them (:meth:`apply_quiet`): build none
        then. The history is already recorded. Every game that does not override
        :meth:`apply` and :meth:`apply_quiet` implements this.
        """
        raise NotImplementedError(f"{type(self).__name__} implements neither _step nor apply")

    # Explicit chance (optional; see docs/rl.md, "OpenSpiel") -----------------------------

    #: The most outcomes one chance event of this game lists (0: the game offers no explicit chance).
    max_chance_outcomes: ClassVar[int] = 0

    def explicit_chance(self) -> bool:
        """Ask this state (and its clones) to stop at each chance event the game can show.

        From then on, where the rules would roll a die (or draw, as the game says), the
        state waits: :meth:`chance_outcomes` lists the outcomes and their probabilities,
        and :meth:`apply_chance` applies the one chosen. The seeded generator is still
        drawn from exactly as in normal play, so the state an outcome deals is the state
        normal play reaches when the generator gives that outcome. Returns whether the
        game offers explicit chance (the default: no, and nothing changes). Normal play,
        records and replays never turn it on.
        """
        return False

    def chance_outcomes(self) -> list[tuple[int, float]] | None:
        """The outcomes of the chance event the state waits for, with their probabilities; else ``None``."""
        return None

    def apply_chance(self, outcome: int) -> list[Event]:
        """Apply ``outcome`` of the pending chance event (one of :meth:`chance_outcomes`); the events it caused."""
        raise IllegalAction("no chance event is pending", "chance")

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Current scores by seat."""

    @abstractmethod
    def ranking(self) -> list[int]:
        """Place of each seat (1 = first) with the game's tie-breaks; equal places tie."""

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy (cheap: no deepcopy)."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, JSON]:
        """Exactly what ``seat`` may know, as JSON data; ``None`` gives the public view."""

    @abstractmethod
    def fingerprint(self) -> Hashable:
        """The complete state, hidden parts and RNG included, as a comparable value.

        For tests and the server; never send it to a player.
        """

    def sample_world(self, seat: int | None, rng: Rng) -> GameState[A]:
        """A full state consistent with ``view(seat)``, hidden parts dealt at random.

        Built from the view alone (:meth:`Game.belief`): what ``seat`` cannot know (other
        hands, deck order, future chance) is redrawn uniformly from what is consistent
        with its view, using ``rng``. The conformance suite checks that the world shows
        the seat exactly the same view.
        """
        world: GameState[A] = self.game.belief(self.view(seat)).sample(rng)
        return world

    # Conveniences shared by every game -------------------------------------------------

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Parse ``text`` as this game's notation and apply it for ``seat``."""
        action: A = self.game.parse_action(text)  # type: ignore[assignment]
        return self.apply(seat, action)

    def is_legal(self, seat: int, action: A) -> bool:
        """True if :meth:`check` accepts the action."""
        try:
            self.check(seat, action)
        except IllegalAction:
            return False
        return True


class Belief(Protocol):
    """What one seat's view says about the full state: a sampler of consistent worlds."""

    def sample(self, rng: Rng) -> GameState[Any]:
        """A full state that shows the view's seat exactly its view; the rest at random."""
        ...


class Game(ABC):
    """A game: its facts, option handling, notation and a factory of states."""

    info: GameInfo

    @abstractmethod
    def belief(self, view: Mapping[str, Any]) -> Belief:
        """Read a seat's view (``GameState.view``) into a sampler of consistent worlds.

        This is how honest bots see a game: from the view alone, never the state. Raises
        ``ValueError`` if the view is not one this game produced.
        """

    def validate_options(self, options: Mapping[str, Any] | None = None, *, players: int) -> dict[str, Any]:
        """Return complete, canonical options or raise :class:`InvalidOptions`.

        ``options`` may name a ``preset``; explicit keys override the preset's values.
        """
        info = self.info
        if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
            raise InvalidOptions(f"{info.title} is for {info.min_players} to {info.max_players} players, not {players}")
        raw = dict(options or {})
        preset_name = raw.pop("preset", None)
        if preset_name is None:
            preset_name = info.default_preset
        if not isinstance(preset_name, str):
            raise InvalidOptions(f"preset: the name of a preset ({', '.join(info.presets)}), not {_shown(preset_name)}")
        if preset_name not in info.presets:
            presets = ", ".join(info.presets)
            raise InvalidOptions(f"{info.title} has no preset {_shown(preset_name)}; presets: {presets}")
        merged: dict[str, Any] = {spec.name: spec.default for spec in info.options}
        merged.update(info.presets[preset_name])
        for key, value in raw.items():
            merged[key] = value
        result: dict[str, Any] = {}
        for spec in info.options:
            result[spec.name] = spec.normalize(merged.pop(spec.name))
        if merged:
            unknown = ", ".join(sorted(merged))
            raise InvalidOptions(
                f"{info.title} has no option {unknown}; options: {', '.join(o.name for o in info.options)}"
            )
        try:
            self.check_options(result, players)
        except InvalidOptions:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
            # A value of a type the game's checks did not expect (a list nested where text
            # belongs, ...): still malformed options, said as such.
            raise InvalidOptions(f"{info.title}: options not understood ({type(error).__name__}: {error})") from None
        return result

    def legal_notations(self, state: GameState[Any], seat: int) -> list[str]:
        """The notation of every legal action of ``seat`` (servers send these to players).

        Games may compute this faster than ``state.legal_actions``; the result is the same.
        """
        return [str(action) for action in state.legal_actions(seat)]

    def content(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The game's component data for interfaces (tiles, cards, ...), JSON-compatible.

        ``options`` are a game's normalized options, for games whose components depend on
        them (a content pack); without them, the default components.
        """
        del options
        return {}

    def words(self) -> GameWords | None:
        """How this game reads for people (:mod:`meadhall.core.words`): every interface asks these.

        No interface words a game itself (docs/architecture.md, "Words and hosts"). ``None``
        for a game with no words (an engine for programs only): the terminal does not play
        it, the server sends its payloads without words, and the browser pages show its
        notation as the labels of its actions and its seats by name, with no log texts.
        """
        return None

    def breakdown(self, state: GameState[Any]) -> ScoreTable | None:
        """Where each seat's score came from, once ``state`` is over (:mod:`meadhall.core.breakdown`).

        ``None`` (the default) for a game that does not say: hosts then show the places
        and scores alone. A game's table adds up to :meth:`GameState.scores`.
        """
        del state
        return None

    def text(self) -> GameText | None:
        """The game drawn as text for the terminal (:mod:`meadhall.core.text`), or None."""
        return None

    def rules_page(self) -> Traversable:
        """The game's rules for people, as Markdown: ``rules.md`` in the game's package.

        The server renders it at ``/rules/<name>``. A game without one there has its page in
        meadhall's own rules folder (``docs/rules/<name>.md``, meadhall's games), or none.
        """
        package = type(self).__module__.rpartition(".")[0]
        return resources.files(package) / "rules.md"

    def web_plugin(self) -> Traversable:
        """The browser plugin that draws this game: ``web/plugin.js`` in the game's package.

        The server serves it at ``/games/<name>/plugin.js``; the table and replay pages load
        the plugin of their table's game from there. A game without one has no browser board.
        """
        package = type(self).__module__.rpartition(".")[0]
        return resources.files(package) / "web" / "plugin.js"

    def web_style(self) -> Traversable:
        """The board plugin's stylesheet: ``web/plugin.css`` beside :meth:`web_plugin`, if the game has one.

        The server serves it at ``/games/<name>/plugin.css`` and the pages link it with the
        plugin; the shell's ``style.css`` holds only what every game shares.
        """
        package = type(self).__module__.rpartition(".")[0]
        return resources.files(package) / "web" / "plugin.css"

    def web_icons(self) -> Traversable:
        """The game's icon sprite: ``web/icons.svg`` beside :meth:`web_plugin`, if the game has one.

        One ``<symbol>`` per component the board draws, its ``id`` the component's key with
        every character other than a letter, digit, ``_`` or ``-`` made ``-`` (``god:odin`` is
        ``god-odin``). The server serves it at ``/games/<name>/icons.svg``; plugins draw a
        symbol with ``MH.icon`` and the rules page shows each symbol with its component's name.
        A game without one draws without icons.
        """
        package = type(self).__module__.rpartition(".")[0]
        return resources.files(package) / "web" / "icons.svg"

    def guide(self) -> Guide | None:
        """The game's guided first game (:mod:`meadhall.core.guide`): a script of prompts in its words.

        ``None`` (the default) for a game without one; hosts then offer no "Learn to play".
        """
        return None

    def take_back_refusal(self, state: GameState[Any], seat: int, action: Action) -> str | None:
        """Why ``seat`` could not take back ``action`` once applied to ``state`` (words for the mover), or ``None``.

        ``state`` is the position before the action. The generic rules of
        :mod:`meadhall.core.undo` (no chance drawn, nothing hidden shown, the game not over)
        apply to every game; a game whose rules forbid more (a move after which the turn's
        draws follow) says so here, in its own words. ``None`` by default.
        """
        del state, seat, action
        return None

    def judge(self, state: GameState[Any], seat: int) -> PositionJudge:
        """Moves judged on ``state`` for ``seat``, the position set up once (:mod:`meadhall.core.judge`).

        What every legal target would do (points, and in words what it does), for hosts
        and tools that ask about many moves. The default plays each move on a clone
        (:class:`~meadhall.core.judge.StateJudge`); a game may answer faster.
        """
        from meadhall.core.judge import StateJudge

        return StateJudge(self, state, seat)

    def search_adapter(self) -> GameSearch:
        """How bots search this game (:class:`meadhall.core.search.GameSearch`).

        The default (:class:`meadhall.core.search.SearchAdapter`) searches the game's own
        states; games may return a faster adapter.
        """
        return SearchAdapter(self)

    def balance_spec(self, options: Mapping[str, Any] | None = None) -> BalanceSpec | None:
        """What this game's balance report counts (:mod:`meadhall.core.balance`), or ``None`` for no report.

        ``options`` are normalized options (their content pack names the components); without
        them, the default content.
        """
        del options
        return None

    def spaces(self, players: int = 2, options: Mapping[str, Any] | None = None) -> GameSpaces | None:
        """Fixed action indices and observation tensors for learning programs (:mod:`meadhall.core.spaces`).

        For ``players`` seats and ``options`` (a preset's name or options, as
        :meth:`validate_options` reads them). ``None`` (the default) for a game without
        them: it plays everywhere else, and ``meadhall.rl`` says it has none.
        """
        del players, options
        return None

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Hook for checks across several options; raise :class:`InvalidOptions`."""
        del options, players

    @abstractmethod
    def new_game(
        self,
        players: int = 2,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> GameState[Any]:
        """Set up a new game. ``seed`` defaults to a fresh random one."""

    def deal(
        self,
        players: int = 2,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[GameState[Any], list[Event]]:
        """Set up a new game, with the events of the deal.

        Setting up may show things as an action does (Blood Rage: the first god arrives,
        the first packs are dealt). Interfaces show these events before the first action,
        to each seat what :meth:`Event.visible_to` lets it see, like any other events.
        The state is the one :meth:`new_game` gives; a game whose setup says nothing
        keeps this default, which has no events.
        """
        return self.new_game(players=players, seed=seed, options=options), []

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read one action in this game's notation, or raise :class:`MalformedAction`."""

    def parse_actions(self, text: str) -> Sequence[Action]:
        """Read a sequence of actions (a turn or a game) written one after another."""
        return [self.parse_action(part) for part in text.split()]

    def replay(
        self,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None,
        actions: Sequence[tuple[int, Action | str]],
    ) -> GameState[Any]:
        """Set up a game and apply ``actions`` in order, checking each one."""
        state = self.new_game(players=players, seed=seed, options=options)
        for index, (seat, action) in enumerate(actions):
            try:
                value = self.parse_action(action) if isinstance(action, str) else action
                state.apply(seat, value)
            except (IllegalAction, MalformedAction) as error:
                raise IllegalAction(
                    f"action {index + 1} ({action}) by seat {seat} does not replay: {error}",
                    getattr(error, "rule", "replay"),
                ) from error
        return state


def fresh_seed() -> int:
    """A new random seed for a game (from the OS; only the server should call this)."""
    import secrets

    return secrets.randbits(63)
