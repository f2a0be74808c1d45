"""A decision flow: rules that run as a queue of steps until a seat must decide.

Games whose turns are made of many small decisions (effects that ask, attacks answered by
defences, response windows offered around the table) are easiest to write as a queue:

* the **queue** holds steps, each a plain tuple ``(name, *arguments)`` (so a clone copies
  the queue with one slice); running a step calls the state's ``_step_<name>(*arguments)``,
  which may change the position, put more steps in front (:meth:`FlowState._then`) or at
  the end (:meth:`FlowState._later`), or ask a seat (:meth:`FlowState._ask`);
* the **decision** is the one pending question: a typed :class:`Decision` value (who
  decides, what kind of decision, its data) that also handles itself: the legal actions,
  why an action is not one of them, and what choosing one does. So each kind of decision
  is one class in one place, not a branch in each of three long ``if`` chains;
* applying an action settles the decision, and the queue runs on until the next
  decision or the end;
* a **response window** (``("window", name, *arguments)``) is offered to each seat in
  turn (:meth:`FlowState._window_order`): a seat with a part in it
  (:meth:`FlowState._window_decision`) is asked, and its decision offers the game's
  ``pass`` among its actions. Every seat with a part is asked, whatever it holds, so
  that being asked tells the table nothing.

:class:`FlowState` is a :class:`~meadhall.core.game.GameState` that implements
``to_move``, ``legal_actions``, ``check`` and ``_step`` from this; a game gives it the
steps, the decision classes and the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event, GameState

#: A step of the queue: its name, then plain (copyable, comparable) arguments.
Step = tuple[Any, ...]

A = TypeVar("A")
D = TypeVar("D", bound="Decision")


def _frozen(value: Any) -> Any:
    """JSON data as a decision holds it: lists become tuples (dicts stay dicts; nobody changes them)."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: _frozen(item) for key, item in value.items()}
    return value


def _thawed(value: Any) -> Any:
    """A decision's value as JSON data: tuples become lists, dicts are copied."""
    if isinstance(value, tuple | list):
        return [_thawed(item) for item in value]
    if isinstance(value, dict):
        return {key: _thawed(item) for key, item in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Decision(Mapping[str, Any]):
    """One pending decision: who decides (``seat``), its ``kind`` (a class constant) and its data.

    Subclasses are frozen dataclasses, one per kind, whose fields are the decision's
    data (sequences as tuples); they implement :meth:`actions` and :meth:`settle`, and
    may word :meth:`why_not`. A field left ``None`` is absent from the decision's JSON
    (:meth:`to_json`: ``seat``, ``kind``, then the fields in order), which is how views
    show it and :meth:`from_json` reads it back. A decision also reads as that JSON
    object (``decision["seat"]``, ``"why" in decision``), for code that handles
    decisions as data.
    """

    seat: int
    #: The decision's kind, as its JSON says (``"keep"``, ``"window"``, ...).
    kind: ClassVar[str] = ""
    #: Whether this is a response window (offered whatever the seat holds: servers pace it).
    response: ClassVar[bool] = False

    # The rules of the decision ----------------------------------------------------------

    def actions(self, state: Any, seat: int) -> list[Any]:
        """Every legal action of ``seat`` (the deciding seat) in ``state``."""
        raise NotImplementedError(f"decision {self.kind!r} lists no actions")

    def why_not(self, state: Any, seat: int, action: Any) -> str:
        """Why ``action`` (not among :meth:`actions`) is not legal: a sentence for people."""
        del state, seat
        return f"{action} is not one of the choices now ({self.kind})"

    def settle(self, state: Any, seat: int, action: Any) -> None:
        """Apply the chosen (legal) ``action``; the state has already cleared its decision."""
        raise NotImplementedError(f"decision {self.kind!r} does not settle")

    # As data ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON data: ``seat``, ``kind``, then every field that is not ``None``."""
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        for item in fields(self)[1:]:
            value = getattr(self, item.name)
            if value is not None:
                data[item.name] = _thawed(value)
        return data

    @classmethod
    def from_json(cls: type[D], data: Mapping[str, Any]) -> D:
        """Read :meth:`to_json`'s data back (lists as tuples); raises ``ValueError`` on another kind."""
        if data.get("kind") != cls.kind:
            raise ValueError(f"not a {cls.kind!r} decision: {data.get('kind')!r}")
        unknown = set(data) - _field_names(cls) - {"kind"}
        if unknown:
            raise ValueError(f"a {cls.kind!r} decision has no {', '.join(sorted(unknown))}")
        return cls(**{key: _frozen(value) for key, value in data.items() if key != "kind"})

    def __getitem__(self, key: str) -> Any:
        if key == "kind":
            return self.kind
        value = getattr(self, key, None) if key in _field_names(type(self)) else None
        if value is None:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        yield "seat"
        yield "kind"
        for item in fields(self)[1:]:
            if getattr(self, item.name) is not None:
                yield item.name

    def __len__(self) -> int:
        return sum(1 for _ in self)


_FIELD_NAMES: dict[type[Decision], frozenset[str]] = {}


def _field_names(cls: type[Decision]) -> frozenset[str]:
    """The names of a decision class's fields (looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(item.name for item in fields(cls))
    return names


def decision_reader(*kinds: type[D]) -> Mapping[str, type[D]]:
    """The decision classes by kind (for reading decisions from JSON); each kind once."""
    found: dict[str, type[D]] = {}
    for cls in kinds:
        if not cls.kind or cls.kind in found:
            raise ValueError(f"decision kind {cls.kind!r} is empty or given twice")
        found[cls.kind] = cls
    return found


class FlowState(GameState[A]):
    """A game state whose rules run as a queue of steps and one pending decision at a time.

    The subclass holds three attributes: ``queue`` (a list of :data:`Step`), ``decision``
    (a :class:`Decision` or ``None``) and ``finished`` (the end: the queue stops and nobody
    decides any more). It writes its steps as methods ``_step_<name>``, starts the game by
    queueing steps and calling :meth:`_run`, and ends it by setting ``finished``. The flow
    gives it ``to_move``, ``legal_actions``, ``check`` and the step of ``apply`` (settle
    the decision, run the queue); ``is_terminal`` is ``finished``.
    """

    queue: list[Step]
    decision: Decision | None
    finished: bool
    #: The chance event the queue waits for (explicit chance, :meth:`GameState.explicit_chance`), or ``None``.
    chance_waiting: Any = None

    #: What :meth:`check` says for an action when the game is over, and its rule key.
    over_refusal: ClassVar[tuple[str, str]] = ("the game is over", "over")
    #: What :meth:`check` says to a seat that is not deciding now, and its rule key.
    turn_refusal: ClassVar[tuple[str, str]] = ("it is not your decision now", "turn")

    # The protocol -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.finished

    def to_move(self) -> tuple[int, ...]:
        """The seat that must decide now (one at a time), or ``()``."""
        decision = self.decision
        if self.finished or decision is None:
            return ()
        return (decision.seat,)

    def response_window(self, seat: int) -> bool:
        """Whether ``seat`` decides now in a response window (its decision's class says so)."""
        decision = self.decision
        return not self.finished and decision is not None and decision.seat == seat and decision.response

    def legal_actions(self, seat: int) -> list[A]:
        """The deciding seat's legal actions (its decision lists them); none for another seat."""
        decision = self.decision
        if self.finished or decision is None or decision.seat != seat:
            return []
        found: list[A] = decision.actions(self, seat)
        return found

    def check(self, seat: int, action: A) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is one of ``seat``'s legal actions now."""
        if self.finished:
            raise IllegalAction(*self.over_refusal)
        decision = self.decision
        if decision is None or decision.seat != seat:
            raise IllegalAction(*self.turn_refusal)
        if action not in self.legal_actions(seat):
            raise IllegalAction(decision.why_not(self, seat, action), decision.kind)

    def _step(self, seat: int, action: A, plan: Any, events: list[Event] | None) -> None:
        """Settle the pending decision with ``action``, then run the queue to the next decision."""
        del plan, events
        decision = self.decision
        assert decision is not None
        self.decision = None
        self._settle(seat, decision, action)
        self._run()

    def _settle(self, seat: int, decision: Decision, action: A) -> None:
        """Apply ``action`` to ``decision`` (by default the decision settles itself)."""
        decision.settle(self, seat, action)

    # The queue ----------------------------------------------------------------------------

    def _then(self, *steps: Step) -> None:
        """Put ``steps`` at the front of the queue, in this order (none once the game is over)."""
        if not self.finished:
            self.queue[0:0] = steps

    def _later(self, *steps: Step) -> None:
        """Put ``steps`` at the end of the queue."""
        self.queue.extend(steps)

    def _ask(self, decision: Decision) -> None:
        """Make ``decision`` the pending one (not once the game is over): the queue waits for it."""
        if not self.finished:
            self.decision = decision

    def _run(self) -> None:
        """Run steps until a seat must decide, a chance event waits, the queue is empty or the game is over."""
        queue = self.queue
        while self.decision is None and queue and not self.finished and self.chance_waiting is None:
            name, *arguments = queue.pop(0)
            getattr(self, "_step_" + name)(*arguments)
            queue = self.queue  # a step may have replaced the list

    # Response windows ---------------------------------------------------------------------

    def _step_window(self, window: str, *arguments: Any) -> None:
        """A response window opens: it is offered to each seat in :meth:`_window_order`."""
        self._then(*[("offer", window, seat, *arguments) for seat in self._window_order(window, arguments)])

    def _step_offer(self, window: str, seat: int, *arguments: Any) -> None:
        """Offer ``window`` to ``seat``: asked if it has a part in it."""
        decision = self._window_decision(window, seat, arguments)
        if decision is not None:
            self._ask(decision)

    def _window_order(self, window: str, arguments: Sequence[Any]) -> Sequence[int]:
        """The seats a window is offered to, in order (by default every seat from seat 0)."""
        del window, arguments
        return range(self.num_players)

    def _window_decision(self, window: str, seat: int, arguments: Sequence[Any]) -> Decision | None:
        """The decision that offers ``window`` to ``seat`` (with a pass), or ``None`` if it has no part."""
        del window, seat, arguments
        return None
