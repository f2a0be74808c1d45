"""Toy Duel's rules engine: one position (:class:`ToyState`), its decisions, events and views.

The rules, for people, are ``rules.md`` in this package (the server shows them at
``/rules/toy``). Here: a round starts with a die roll (its points); the leader plays a rune
(``play:N``, stage ``lead``); then the response window (stage ``answer``) is offered to every
other seat in turn from the leader's left, whatever it holds (:meth:`ToyState.response_window`),
each answering with a higher rune (``answer:N``) or passing; the highest rune wins the die's
points, the runes played go face up to the discard pile and the players refill their hands
from the deck; the game ends after its last round or when the next leader has no rune.

Everything random comes from ``self.rng`` (:class:`~meadhall.core.rng.Rng`), seeded by
the game's seed, so options + seed + actions replay a game exactly. :meth:`ToyState.view`
is the only way hidden information (the hands, the deck's order) leaves a state.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from meadhall.core.errors import IllegalAction
from meadhall.core.game import JSON, Event, GameState
from meadhall.core.rng import Rng
from meadhall_toy.actions import Answer, Pass, Play, ToyAction

#: The values of the runes, and how many of each the deck holds.
RUNE_VALUES = range(1, 7)
COPIES = 3
#: The die's faces: 1 to DIE_SIDES.
DIE_SIDES = 6

Stage = Literal["lead", "answer", "over"]


def full_deck() -> list[int]:
    """Every rune of the game, in order of value."""
    return [value for value in RUNE_VALUES for _ in range(COPIES)]


@dataclass(frozen=True)
class ToyConfig:
    """The fixed facts of one game: its normalized options and the number of seats."""

    options: Mapping[str, Any]
    players: int

    @property
    def rounds(self) -> int:
        """How many rounds the game has at most."""
        return int(self.options["rounds"])

    @property
    def hand(self) -> int:
        """How many runes a seat holds after drawing."""
        return int(self.options["hand"])


class ToyState(GameState[ToyAction]):
    """A Toy Duel position. Build one with :meth:`setup` (or ``GAME.new_game``)."""

    __slots__ = (
        "config",
        "deck",
        "die",
        "discard",
        "hands",
        "passed",
        "rng",
        "round",
        "score",
        "stage",
        "table",
        "waiting",
    )

    #: Events that show a seat what nobody knew: the runes it draws (the deck's order is
    #: hidden) and the die (the generator's state is hidden). The conformance suite does not
    #: compare what seats see after an action that causes one.
    revealing_events: ClassVar[frozenset[str]] = frozenset({"drew", "rolled"})

    def __init__(self, config: ToyConfig, seed: int, rng: Rng) -> None:
        self._begin(config.players, config.options, seed)  # the base keeps players, options, seed, history
        self.config = config
        self.rng = rng
        self.hands: list[list[int]] = [[] for _ in range(config.players)]  # each kept sorted
        self.deck: list[int] = []  # drawn from the end
        self.discard: list[int] = []  # kept sorted
        self.score = [0] * config.players
        self.round = 1
        self.die = 0
        self.stage: Stage = "lead"
        self.table: list[tuple[int, int]] = []  # (seat, rune) played this round, in order
        self.passed: list[int] = []  # seats that passed this round
        self.waiting: list[int] = []  # seats still to be offered the response window, in order

    @classmethod
    def setup(cls, config: ToyConfig, seed: int) -> tuple[ToyState, list[Event]]:
        """Shuffle, deal every hand and roll the first round's die; the state and the deal's events."""
        state = cls(config, seed, Rng(seed))
        deck = full_deck()
        state.rng.shuffle(deck)
        state.deck = deck
        events: list[Event] = []
        for seat in range(config.players):
            state._draw(seat, events, dealt=True)
        state._start_round(events)
        return state, events

    # the protocol's facts -------------------------------------------------------------

    @property
    def leader(self) -> int:
        """The seat that leads the current round."""
        return (self.round - 1) % self.config.players

    def best(self) -> tuple[int, int] | None:
        """The highest rune on the table and its seat, as ``(seat, rune)``; None before the lead."""
        return self.table[-1] if self.table else None  # every answer beats the rune before it

    def to_move(self) -> tuple[int, ...]:
        """The leader, or the seat the response window is offered to now; nobody at the end."""
        if self.stage == "lead":
            return (self.leader,)
        if self.stage == "answer":
            return (self.waiting[0],)
        return ()

    def response_window(self, seat: int) -> bool:
        """Every seat but the leader is asked to answer, whatever it holds."""
        return self.stage == "answer" and self.waiting[0] == seat

    def legal_actions(self, seat: int) -> list[ToyAction]:
        """The leader: one play per rune value held. In the window: one answer per higher value held, and pass."""
        if seat not in self.to_move():
            return []
        values = sorted(set(self.hands[seat]))
        if self.stage == "lead":
            return [Play(value) for value in values]
        best = self.best()
        floor = best[1] if best else 0
        return [*(Answer(value) for value in values if value > floor), Pass()]

    def check(self, seat: int, action: ToyAction) -> None:
        """Raise :class:`IllegalAction` (a sentence for the player and a rule key) if ``action`` is not allowed."""
        if self.stage == "over":
            raise IllegalAction("The game is over.", "over")
        if seat not in self.to_move():
            raise IllegalAction("It is not your turn to decide.", "turn")
        if self.stage == "lead":
            if not isinstance(action, Play):
                raise IllegalAction("You lead this round: play a rune from your hand (play:N).", "lead")
            if action.rune not in self.hands[seat]:
                raise IllegalAction(f"You hold no rune {action.rune}.", "hand")
            return
        if isinstance(action, Pass):
            return
        if not isinstance(action, Answer):
            raise IllegalAction(
                "Another seat leads this round: answer with a higher rune (answer:N), or pass.", "window"
            )
        best = self.best()
        if best is not None and action.rune <= best[1]:
            raise IllegalAction(f"An answer must beat the highest rune on the table, {best[1]}.", "higher")
        if action.rune not in self.hands[seat]:
            raise IllegalAction(f"You hold no rune {action.rune}.", "hand")

    # applying -----------------------------------------------------------------------

    # The base's apply and apply_quiet check the action (check, above), record it in the
    # history, then call _step; an illegal action raises before anything changes.

    def _step(self, seat: int, action: ToyAction, plan: Any, events: list[Event] | None) -> None:
        """The rules of one checked action; ``events`` collects what happened (None: nobody asks)."""
        if isinstance(action, Pass):
            self.passed.append(seat)
            self.waiting.pop(0)
            if events is not None:
                events.append(Event("passed", {"seat": seat}))
        else:
            self.hands[seat].remove(action.rune)
            self.table.append((seat, action.rune))
            if isinstance(action, Play):
                self.stage = "answer"
                players = self.config.players
                self.waiting = [(seat + offset) % players for offset in range(1, players)]
                if events is not None:
                    events.append(Event("played", {"seat": seat, "rune": action.rune}))
            else:
                self.waiting.pop(0)
                if events is not None:
                    events.append(Event("answered", {"seat": seat, "rune": action.rune}))
        if self.stage == "answer" and not self.waiting:
            self._close_round(events)

    def _close_round(self, events: list[Event] | None) -> None:
        """The highest rune wins the die's points; the runes go to the discard pile; hands refill; next round."""
        winner, rune = self.table[-1]
        self.score[winner] += self.die
        if events is not None:
            events.append(Event("won", {"seat": winner, "rune": rune, "points": self.die, "total": self.score[winner]}))
        for _, played in self.table:
            insort(self.discard, played)
        for seat in dict.fromkeys(seat for seat, _ in self.table):
            self._draw(seat, events)
        self.table = []
        self.passed = []
        if self.round == self.config.rounds:
            self._finish("rounds", events)
            return
        self.round += 1
        if not self.hands[self.leader]:
            self._finish("empty", events)
            return
        self._start_round(events)

    def _draw(self, seat: int, events: list[Event] | None, *, dealt: bool = False) -> None:
        """``seat`` draws up to its hand size while the deck lasts; only it sees what."""
        count = min(self.config.hand - len(self.hands[seat]), len(self.deck))
        if count <= 0:
            return
        drawn = self.deck[-count:]
        del self.deck[-count:]
        for rune in drawn:
            insort(self.hands[seat], rune)
        if events is not None:
            events.append(Event("drew", {"seat": seat, "runes": sorted(drawn), "dealt": dealt}, frozenset({seat})))
            events.append(Event("refilled", {"seat": seat, "count": count, "deck": len(self.deck), "dealt": dealt}))

    def _start_round(self, events: list[Event] | None) -> None:
        """The leader leads; the die says what the round is worth."""
        self.stage = "lead"
        self.die = 1 + self.rng.below(DIE_SIDES)
        if events is not None:
            events.append(Event("round", {"round": self.round, "rounds": self.config.rounds, "seat": self.leader}))
            events.append(Event("rolled", {"round": self.round, "die": self.die}))

    def _finish(self, reason: Literal["rounds", "empty"], events: list[Event] | None) -> None:
        self.stage = "over"
        self.waiting = []
        if events is not None:
            data: dict[str, JSON] = {"reason": reason, "scores": list(self.score)}
            if reason == "empty":
                data["seat"] = self.leader
            events.append(Event("game-over", data))

    # the end --------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.stage == "over"

    def scores(self) -> list[int]:
        """Points of each seat."""
        return list(self.score)

    def ranking(self) -> list[int]:
        """Places by points; equal scores share the place."""
        return [1 + sum(1 for other in self.score if other > mine) for mine in self.score]

    # copies and views -----------------------------------------------------------------

    def clone(self) -> ToyState:
        """An independent copy: a few short lists."""
        copy = ToyState.__new__(ToyState)
        copy.config = self.config
        self._copy_bookkeeping(copy)
        copy.rng = self.rng.clone()
        copy.hands = [list(hand) for hand in self.hands]
        copy.deck = list(self.deck)
        copy.discard = list(self.discard)
        copy.score = list(self.score)
        copy.round = self.round
        copy.die = self.die
        copy.stage = self.stage
        copy.table = list(self.table)
        copy.passed = list(self.passed)
        copy.waiting = list(self.waiting)
        return copy

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know: everything public, and its own hand; ``None``: the spectators' view.

        It holds everything the seat knows (the belief deals worlds from it alone): the runes
        played are all face up (the table and the discard pile), so the unseen runes are the
        full deck less those and the seat's hand.
        """
        view: dict[str, JSON] = {
            "seat": seat,
            "options": dict(self.config.options),
            "round": self.round,
            "rounds": self.config.rounds,
            "leader": self.leader,
            "die": self.die,
            "stage": self.stage,
            "to_move": list(self.to_move()),
            "table": [{"seat": s, "rune": rune} for s, rune in self.table],
            "passed": list(self.passed),
            "waiting": list(self.waiting),
            "seats": [{"score": self.score[s], "runes": len(self.hands[s])} for s in range(self.config.players)],
            "deck": len(self.deck),
            "discard": list(self.discard),
            "finished": self.stage == "over",
        }
        if seat is not None:
            view["hand"] = list(self.hands[seat])
        if self.stage == "over":
            view["places"] = self.ranking()
        return view

    def fingerprint(self) -> Hashable:
        """The whole state, hidden parts and the generator included."""
        return (
            tuple(tuple(hand) for hand in self.hands),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.score),
            self.round,
            self.die,
            self.stage,
            tuple(self.table),
            tuple(self.passed),
            tuple(self.waiting),
            self.rng.getstate(),
            tuple(self.history()),
        )
