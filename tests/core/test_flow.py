"""The decision flow (meadhall.core.flow) and the GameState bookkeeping, on a toy game.

The toy: each seat in turn bids 1 to 3; every other seat, in order from the bidder's
left, is then offered a response window to raise the bid (only while it holds a token)
or pass; a bid and its raises score for the seat that made them. One round.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.core.flow import Decision, FlowState, Step, decision_reader
from meadhall.core.game import Event

PASS = "pass"


@dataclass(frozen=True, slots=True)
class Bid(Decision):
    """A seat bids 1, 2 or 3."""

    kind: ClassVar[str] = "bid"
    most: int = 3
    why: str | None = None

    def actions(self, state: Any, seat: int) -> list[Any]:
        return [f"bid:{n}" for n in range(1, self.most + 1)]

    def why_not(self, state: Any, seat: int, action: Any) -> str:
        return f"bid 1 to {self.most}, not {action}"

    def settle(self, state: Any, seat: int, action: Any) -> None:
        amount = int(action.split(":")[1])
        state.points[seat] += amount
        state.emit("bid", seat=seat, amount=amount)
        state._then(("window", "raise", seat))


@dataclass(frozen=True, slots=True)
class Raise(Decision):
    """A response window: raise the bid of ``bidder`` with a token, or pass."""

    kind: ClassVar[str] = "raise"
    response: ClassVar[bool] = True
    bidder: int = 0
    options: tuple[str, ...] = ()

    def actions(self, state: Any, seat: int) -> list[Any]:
        return [*self.options, PASS]

    def settle(self, state: Any, seat: int, action: Any) -> None:
        if action != PASS:
            state.tokens[seat] -= 1
            state.points[seat] += 1
            state.emit("raised", seat=seat, bidder=self.bidder)


READ = decision_reader(Bid, Raise)


class ToyState(FlowState[str]):
    """The toy game's state (only what the flow needs, plus points and tokens)."""

    def __init__(self, players: int, tokens: int, seed: int = 0) -> None:
        self._begin(players, {"tokens": tokens}, seed)
        self.queue: list[Step] = [("turn", seat) for seat in range(players)]
        self.decision: Decision | None = None
        self.finished = False
        self.points = [0] * players
        self.tokens = [tokens] * players
        self.offered: list[int] = []
        self.events: list[Event] | None = None
        self._later(("end",))
        self._run()

    def emit(self, kind: str, **data: Any) -> None:
        if self.events is not None:
            self.events.append(Event(kind, data))

    def _step(self, seat: int, action: str, plan: Any, events: list[Event] | None) -> None:
        self.events = events
        try:
            super()._step(seat, action, plan, events)
        finally:
            self.events = None

    def _step_turn(self, seat: int) -> None:
        self._ask(Bid(seat))

    def _step_end(self) -> None:
        self.finished = True

    def _window_order(self, window: str, arguments: Sequence[Any]) -> Sequence[int]:
        bidder = int(arguments[0])
        return [(bidder + i) % self.num_players for i in range(1, self.num_players)]

    def _window_decision(self, window: str, seat: int, arguments: Sequence[Any]) -> Decision | None:
        self.offered.append(seat)
        # Every seat with a part is asked, token or not: being asked must not tell.
        return Raise(seat, bidder=int(arguments[0]), options=("raise",) if self.tokens[seat] else ())

    def scores(self) -> list[int]:
        return list(self.points)

    def ranking(self) -> list[int]:
        return [1 + sum(other > mine for other in self.points) for mine in self.points]

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        self._copy_bookkeeping(other)
        other.queue = self.queue[:]
        other.decision = self.decision
        other.finished = self.finished
        other.points = self.points[:]
        other.tokens = self.tokens[:]
        other.offered = self.offered[:]
        other.events = None
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"points": list(self.points), "decision": None if self.decision is None else self.decision.to_json()}

    def fingerprint(self) -> Hashable:
        decision = None if self.decision is None else repr(self.decision.to_json())
        return (tuple(self.queue), decision, self.finished, tuple(self.points), tuple(self.tokens))


def test_steps_run_until_a_seat_must_decide() -> None:
    state = ToyState(3, tokens=1)
    assert state.to_move() == (0,)
    assert state.legal_actions(0) == ["bid:1", "bid:2", "bid:3"]
    assert state.legal_actions(1) == []
    assert state.queue == [("turn", 1), ("turn", 2), ("end",)]


def test_a_response_window_is_offered_in_order_to_each_seat_with_a_part_each_with_pass() -> None:
    state = ToyState(3, tokens=1)
    events = state.apply(0, "bid:2")
    assert [event.kind for event in events] == ["bid"]
    assert state.to_move() == (1,) and state.response_window(1) and not state.response_window(2)
    assert state.legal_actions(1) == ["raise", PASS]
    state.apply(1, "raise")
    assert state.to_move() == (2,)
    state.apply(2, PASS)
    assert state.offered == [1, 2]
    state.apply(1, "bid:1")  # the bidder has no part in its own window: only seat 2 is offered it
    assert state.to_move() == (2,) and state.offered == [1, 2, 2]
    state.apply(2, PASS)
    assert state.to_move() == (0,)
    state.apply(0, "raise")
    state.apply(2, "bid:3")
    # seat 0 has no token left: still asked, with pass alone
    assert state.to_move() == (0,) and state.legal_actions(0) == [PASS]
    state.apply_quiet(0, PASS)
    assert state.legal_actions(1) == [PASS]  # seat 1 raised already
    state.apply(1, PASS)
    assert state.is_terminal() and state.to_move() == () and state.scores() == [3, 2, 3]
    assert state.ranking() == [1, 3, 1]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = ToyState(2, tokens=1)
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, "bid:4")
    assert refused.value.rule == "bid" and "bid 1 to 3" in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, "bid:1")
    assert refused.value.rule == "turn"
    with pytest.raises(IllegalAction):
        state.apply_quiet(1, "bid:1")
    assert state.fingerprint() == before and state.history() == []


def test_the_base_keeps_options_seed_and_the_history_once_per_action() -> None:
    state = ToyState(2, tokens=0, seed=42)
    state.apply(0, "bid:1")
    copy = state.clone()
    state.apply_quiet(1, PASS)
    assert state.history() == [(0, "bid:1"), (1, PASS)]
    assert copy.history() == [(0, "bid:1")]
    assert state.seed == copy.seed == 42 and state.options == {"tokens": 0} and state.num_players == 2


def test_the_game_over_refusal() -> None:
    state = ToyState(2, tokens=0)
    for seat, action in [(0, "bid:1"), (1, PASS), (1, "bid:1"), (0, PASS)]:
        state.apply(seat, action)
    assert state.is_terminal()
    with pytest.raises(IllegalAction) as refused:
        state.check(0, PASS)
    assert refused.value.rule == "over"


def test_decisions_are_typed_values_that_read_as_their_json() -> None:
    bid = Bid(1)
    assert bid.to_json() == {"seat": 1, "kind": "bid", "most": 3}  # a None field is absent
    assert "why" not in bid and bid.get("why") is None and bid["kind"] == "bid" and dict(bid)["most"] == 3
    offer = Raise(0, bidder=2, options=("raise",))
    data = offer.to_json()
    assert data == {"seat": 0, "kind": "raise", "bidder": 2, "options": ["raise"]}
    assert list(offer) == ["seat", "kind", "bidder", "options"] and len(offer) == 4
    again = READ[data["kind"]].from_json(data)
    assert again == offer and hash(again) == hash(offer)
    assert Bid.from_json({"seat": 2, "kind": "bid", "most": 2, "why": "a card"}) == Bid(2, 2, "a card")
    with pytest.raises(KeyError):
        offer["actions"]  # methods are not data
    with pytest.raises(ValueError):
        Bid.from_json(data)
    with pytest.raises(ValueError):
        Bid.from_json({"seat": 0, "kind": "bid", "colour": "red"})
    with pytest.raises(ValueError):
        decision_reader(Bid, Bid)
