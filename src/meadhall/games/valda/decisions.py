"""Valda's decisions: one typed class per kind, each with its legal actions and what choosing does.

A decision is a frozen value (:class:`meadhall.core.flow.Decision`): the deciding seat,
the kind, and the data the choice needs (cards looked at, options, a target). Views show
it as JSON (``{"seat": 1, "kind": "steal", "target": 0, "options": ["gold"], "why":
"raid"}``) and :func:`read_decision` reads that back. Each class lists its actions,
settles the chosen one (the state's queue then runs on), and says how it is asked
again after a god weapon played at it changed the board (:meth:`ValdaDecision.ask_again`,
a ruling in ``docs/rules/valda.md``). God weapons played at any of a seat's own
decisions are the state's (``ValdaState._settle``), not a decision's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from meadhall.core.flow import Decision, decision_reader
from meadhall.games.valda.content import RESOURCES
from meadhall.games.valda.data import HAND_LIMIT, R
from meadhall.games.valda.notation import CONVERT, DONE, PASS, YIELD, ValdaAction

if TYPE_CHECKING:
    from meadhall.games.valda.state import ValdaState

act = ValdaAction


@dataclass(frozen=True, slots=True)
class ValdaDecision(Decision):
    """A Valda decision: its actions, refusals, settling and asking again."""

    #: A god weapon started this decision, or it offers weapons itself: no other weapon may be played at it.
    weapon: ClassVar[bool] = False
    #: Its ``cards`` only the deciding seat may see (god cards looked at, base cards peeked at, a hand's yellows).
    secret_cards: ClassVar[bool] = False

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """The seat's actions at this decision (god weapons played at any decision aside)."""
        raise NotImplementedError(f"decision {self.kind!r} lists no actions")

    def why_not(self, state: ValdaState, seat: int, action: ValdaAction) -> str:
        """Why ``action`` is not one of the choices now, for people."""
        player = state.players[seat]
        if action.kind == "trade":
            return f"trading takes 4 {action.name}; you have {player.resources[R[action.name]]}"
        if action.kind in ("play", "use"):
            where = player.hand if action.kind == "play" else state.open
            if action.name not in where:
                return f"{action.name} is not {'in your hand' if action.kind == 'play' else 'among the open cards'}"
            kind = state.card(action.name).kind
            if kind != "yellow":
                return f"only yellow cards are played in the game phase; {action.name} is {kind}"
            return "you have no action left"
        if action.kind == "build":
            return f"you cannot build {action.name} now: no build left, no free site, locked, or not enough resources"
        if action.kind == "draw":
            return "drawing two cards takes two actions"
        return f"{action} is not one of the choices now ({self.kind})"

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Apply the chosen action."""
        raise NotImplementedError(f"decision {self.kind!r} does not settle")

    def ask_again(self, state: ValdaState) -> None:
        """Ask this decision again after a god weapon interrupted it; by default as it was.

        Ruling: what the weapon did meanwhile counts. A decision whose choices are worked
        out when it is asked (a phase's, the hand limit, a free building, a conversion, a
        switch) is asked again as its step would ask it, and skipped where that step
        would not ask; one that lists its choices keeps those still possible, and is
        skipped if none is. The cards a decision holds stay as they are.
        """
        state._ask(self)


# The phases' decisions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseDecision(ValdaDecision):
    """A phase's open decision (resources, game, building, followers): asked again as the phase asks it."""

    def ask_again(self, state: ValdaState) -> None:
        """Asked as its phase asks: skipped if everyone could see its only choice is ``done``."""
        state._ask_unless_only_done(self.seat, self.kind)


@dataclass(frozen=True, slots=True)
class Resources(PhaseDecision):
    """The resource phase: 4:1 trades and Heimdall's swaps, until ``done``."""

    kind: ClassVar[str] = "resources"

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Trades the seat can pay for, Heimdall's swaps, ``done``."""
        have = state.players[seat].resources
        found = [act("trade", give, get) for give in RESOURCES if have[R[give]] >= 4
                 for get in RESOURCES if get != give]  # fmt: skip
        level = state.ability(seat, "heimdall")
        if level:
            need = 2 if level == 1 else 1
            found += [act("swap", give, get) for give in RESOURCES if have[R[give]] >= need
                      for get in RESOURCES if get != give]  # fmt: skip
        return [*found, DONE]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Trade, or end the phase."""
        resources = state.players[seat].resources
        if action.kind == "trade":
            resources[R[action.name]] -= 4
            resources[R[action.to]] += 1
            state._event("traded", seat=seat, give=action.name, amount=4, get=action.to)
        elif action.kind == "swap":
            give = 2 if state.ability(seat, "heimdall") == 1 else 1
            resources[R[action.name]] -= give
            resources[R[action.to]] += 1
            state._event("traded", seat=seat, give=action.name, amount=give, get=action.to, why="heimdall")
        if action != DONE:
            state._then(("resource_actions",))


@dataclass(frozen=True, slots=True)
class GameActions(PhaseDecision):
    """The game phase: yellow cards, resources, draws and Freya's buys, until ``done``."""

    kind: ClassVar[str] = "game"

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """What the seat's actions (and free yellow plays) allow, then ``done``."""
        found = []
        if state.actions > 0 or state.free_yellow > 0:
            found += [act("play", c) for c in state._held(seat, "yellow")]
            found += [act("use", c) for c in sorted({c for c in state.open if state.card(c).kind == "yellow"})]
        if state.actions > 0:
            found += [act("take", name) for name in RESOURCES]
            if state.ability(seat, "freya") >= 1:
                found += [act("buy", c) for c in sorted(set(state.open))]
        if state.actions >= 2 and (state.base or state.discard):
            found.append(act("draw"))
        return [*found, DONE]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """One game action (see ``ValdaState._game_action``)."""
        state._game_action(seat, action)


@dataclass(frozen=True, slots=True)
class Build(PhaseDecision):
    """The building phase: up to two buildings, until ``done``."""

    kind: ClassVar[str] = "build"

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """What the seat can build and pay for (while it has builds left), then ``done``."""
        found = [act("build", b) for b in state.buildable(seat)] if state.builds > 0 else []
        return [*found, DONE]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Queue the building (after Backstab's window for the second one) and the phase again."""
        if action != DONE:
            state.builds -= 1
            # Ruling: a player's second building of the phase is their last: Backstab's window.
            window = [("window", "building", action.name)] if state.builds == 0 else []
            state._then(*window, ("do_build", seat, action.name), ("build_phase",))


@dataclass(frozen=True, slots=True)
class Followers(PhaseDecision):
    """The followers phase: Thor's and Odin's conversions, Loki's dice, until ``done``."""

    kind: ClassVar[str] = "followers"

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """The conversions the seat's temples and resources allow, Loki, ``done``."""
        return state._follower_actions(seat)

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Convert, roll Loki's dice, or end the phase."""
        state._follower_action(seat, action)


@dataclass(frozen=True, slots=True)
class HandLimit(ValdaDecision):
    """More than ten cards after the game phase: discard one (asked until ten are left)."""

    kind: ClassVar[str] = "hand-limit"

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Discard any card of the hand."""
        return [act("discard", c) for c in sorted(set(state.players[seat].hand))]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Discard the card; asked again while the hand is over the limit."""
        player = state.players[seat]
        player.hand.remove(action.name)
        state._forget(seat, [action.name])
        state.discard.append(action.name)
        state._event("discarded", seat=seat, cards=[action.name], why="hand limit")
        if len(player.hand) > HAND_LIMIT:
            state._ask(HandLimit(seat))

    def ask_again(self, state: ValdaState) -> None:
        """Only while the hand is over the limit ("not allowed to throw cards away unless you have more than 10")."""
        if len(state.players[self.seat].hand) > HAND_LIMIT:
            state._ask(self)


@dataclass(frozen=True, slots=True)
class Choose(ValdaDecision):
    """A resource of the seat's choice (a die face, a card's effect)."""

    kind: ClassVar[str] = "choose"
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Any resource."""
        return [act("choose", name) for name in RESOURCES]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Gain it."""
        state.players[seat].resources[R[action.name]] += 1
        state._event("gained", seat=seat, resource=action.name, amount=1, why=self.why)


# Buildings ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FreeBuild(ValdaDecision):
    """A card's building beyond the phase's two, with a discount: what to build, or ``done``."""

    kind: ClassVar[str] = "free-build"
    discount: int
    building: str
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """What the discount makes affordable, then ``done``."""
        return [*[act("build", b) for b in state.buildable(seat, self.discount, self.building)], DONE]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Start the building: the discount is waived next."""
        if action != DONE:
            state._start_free_build(seat, action.name, self.discount, self.why)

    def ask_again(self, state: ValdaState) -> None:
        """Skipped if nothing is affordable any more."""
        if state.buildable(self.seat, self.discount, self.building):
            state._ask(self)


@dataclass(frozen=True, slots=True)
class Waive(ValdaDecision):
    """A free building's discount: which resource of its cost to waive next."""

    kind: ClassVar[str] = "waive"
    building: str
    cost: Mapping[str, int]
    waived: Mapping[str, int]
    left: int
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Any resource still in the cost."""
        return [act("choose", name) for name, amount in self.cost.items() if amount > 0]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Waive one of it, and go on."""
        waived = dict(self.waived)
        waived[action.name] = waived.get(action.name, 0) + 1
        cost = dict(self.cost)
        cost[action.name] -= 1
        state._continue_waive(seat, self.building, cost, waived, self.left - 1, self.why)

    def ask_again(self, state: ValdaState) -> None:
        """Goes on from what the player holds now (it may lapse)."""
        state._continue_waive(self.seat, self.building, dict(self.cost), dict(self.waived), self.left,
                              self.why)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Keep(ValdaDecision):
    """Of the two god cards the seat looks at, the one it keeps (into its hand); the other goes under."""

    kind: ClassVar[str] = "keep"
    secret_cards: ClassVar[bool] = True
    god: str
    cards: tuple[str, ...]
    why: str | None = None  # the card that draws, if one does

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Keep either card."""
        return [act("keep", c) for c in sorted(set(self.cards))]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """The kept card to its place, the other to the bottom of the god's deck."""
        kept = action.name
        if self.kind == "keep":
            state.players[seat].hand.append(kept)
        else:  # shown with the other open cards once they are all turned up
            state.open.append(kept)
        others = list(self.cards)
        others.remove(kept)
        state.gods[self.god][0:0] = others  # the other card to the bottom
        state._to_bottom(self.god, others, (seat,))
        where = "hand" if self.kind == "keep" else "open"
        state._event("kept", frozenset({seat}), seat=seat, card=kept, god=self.god, to=where)


@dataclass(frozen=True, slots=True)
class LockCard(Keep):
    """Of the two cards of a locked area's god deck, the one that goes among the open cards."""

    kind: ClassVar[str] = "lock-card"


#: Decisions holding the god cards a seat lifted from a god deck to look at: the kept one goes
#: into the hand (``keep``) or among the open cards (``lock-card``), the other under the deck.
GOD_CARD_DECISIONS = frozenset({Keep.kind, LockCard.kind})


# Attacks ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack(ValdaDecision):
    """The attack phase: attack the player whose turn it is, or pass (asked whatever the hand holds)."""

    kind: ClassVar[str] = "attack"
    response: ClassVar[bool] = True
    target: int

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each attack card held, ``pass``."""
        return [*[act("attack", c) for c in state._held(seat, "attack")], PASS]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Attack, or pass."""
        if action == PASS:
            state._event("passed", seat=seat)
        else:
            state._start_attack(seat, action.name)


@dataclass(frozen=True, slots=True)
class Defend(ValdaDecision):
    """An attack on the seat: add a defence card, or yield (asked whatever the hand holds)."""

    kind: ClassVar[str] = "defend"
    response: ClassVar[bool] = True

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each defence card held, ``yield``."""
        return [*[act("defend", c) for c in state._held(seat, "defence")], YIELD]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Defend (asked again while the attack is stronger), or let the attack resolve."""
        state._defend(seat, action)


@dataclass(frozen=True, slots=True)
class Steal(ValdaDecision):
    """An impact: which resource to take from the target."""

    kind: ClassVar[str] = "steal"
    target: int
    options: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each resource the target holds (when asked)."""
        return [act("steal", name) for name in self.options]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Take one."""
        state._steal(seat, self.target, action.name, self.why)

    def ask_again(self, state: ValdaState) -> None:
        """The resources the target still holds."""
        held = state.players[self.target].resources
        _ask_listed(state, self, "options", [name for name in self.options if held[R[name]] > 0])


@dataclass(frozen=True, slots=True)
class Destroy(ValdaDecision):
    """An impact: which of the target's buildings to destroy."""

    kind: ClassVar[str] = "destroy"
    target: int
    options: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each building it may destroy."""
        return [act("destroy", option) for option in self.options]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Destroy it."""
        state._destroy(self.target, action.name, self.why)

    def ask_again(self, state: ValdaState) -> None:
        """The buildings still standing."""
        standing = state._destroyable(self.target, "any")
        _ask_listed(state, self, "options", [name for name in self.options if name in standing])


@dataclass(frozen=True, slots=True)
class Move(ValdaDecision):
    """An impact: which of the target's temples to move, and where."""

    kind: ClassVar[str] = "move"
    target: int
    moves: tuple[tuple[str, str], ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each move from one god area to another."""
        return [act("move", source, dest) for source, dest in self.moves]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Move the temple."""
        state._move_temple(self.target, action.name, action.to, self.why)

    def ask_again(self, state: ValdaState) -> None:
        """The moves still possible."""
        possible = state._moves(self.target)
        _ask_listed(state, self, "moves", [move for move in self.moves if (move[0], move[1]) in possible])


# Card effects ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Convert(ValdaDecision):
    """A card's conversion of resources into followers: once more, or ``done``."""

    kind: ClassVar[str] = "convert"
    give: str
    amount: int
    followers: int
    left: int
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """``convert`` while uses are left and the seat can pay, ``done``."""
        can = self.left > 0 and state.players[seat].resources[R[self.give]] >= self.amount
        return [CONVERT, DONE] if can else [DONE]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Convert once; asked again while uses are left."""
        if action == CONVERT:
            state.players[seat].resources[R[self.give]] -= self.amount
            state._gain_followers(seat, self.followers, self.why, {self.give: self.amount})
            if self.left > 1 and not state.finished:
                state.decision = replace(self, left=self.left - 1)

    def ask_again(self, state: ValdaState) -> None:
        """Skipped if the seat can no longer pay."""
        if state.players[self.seat].resources[R[self.give]] >= self.amount:
            state._ask(self)


@dataclass(frozen=True, slots=True)
class Look(ValdaDecision):
    """A look at another player's hand (part of it, at random): whose."""

    kind: ClassVar[str] = "look"
    seats: tuple[int, ...]
    count: int
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each other seat."""
        return [act("seat", s) for s in self.seats]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Look: the seat learns those cards are in that hand."""
        target = action.seat
        pool = list(state.players[target].hand)
        if self.count < len(pool):  # a look at part of a hand sees cards at random
            state.rng.shuffle(pool)
        seen = sorted(pool[: self.count])
        state._learn((seat,), target, seen)
        state._event("looked-at-hand", frozenset({seat}), seat=seat, target=target, cards=seen)
        state._event("looked-at", seat=seat, target=target)


@dataclass(frozen=True, slots=True)
class Peek(ValdaDecision):
    """The top cards of the base deck, looked at: the one to take (the rest go under)."""

    kind: ClassVar[str] = "peek"
    secret_cards: ClassVar[bool] = True
    cards: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each card looked at."""
        return [act("card", c) for c in sorted(set(self.cards))]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Take it; the rest to the bottom of the base deck."""
        kept = action.name
        state.players[seat].hand.append(kept)
        rest = list(self.cards)
        rest.remove(kept)
        state.base[0:0] = rest  # the rest to the bottom
        state._to_bottom("base", rest, (seat,))
        state._event("took-peeked", frozenset({seat}), seat=seat, card=kept)


@dataclass(frozen=True, slots=True)
class DiscardPick(ValdaDecision):
    """A card to take from the discard pile (of a kind, for some effects)."""

    kind: ClassVar[str] = "discard-pick"
    cards: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each card offered."""
        return [act("card", c) for c in sorted(set(self.cards))]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Take it: everybody sees it go into the hand."""
        state.discard.remove(action.name)
        state.players[seat].hand.append(action.name)
        state._learn(None, seat, [action.name])
        state._event("took-from-discard", seat=seat, card=action.name)

    def ask_again(self, state: ValdaState) -> None:
        """The cards still in the pile (Bullseye or Deadly Dagger may have taken some meanwhile)."""
        _ask_listed(state, self, "cards", [card for card in self.cards if card in state.discard])


@dataclass(frozen=True, slots=True)
class Switch(ValdaDecision):
    """An open card to switch with the top card of the base deck."""

    kind: ClassVar[str] = "switch"
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each open card."""
        return [act("card", c) for c in sorted(set(state.open))]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """The open card under the base deck, its top card among the open cards."""
        state.open.remove(action.name)
        audience = frozenset({state.current}) if state.open_closed else None
        state.base.insert(0, action.name)
        state._to_bottom("base", [action.name], audience)  # the card was open: those who saw it
        state._from_top("base", len(state.base), 1, None)
        new = state.base.pop()
        state.open.append(new)
        state._event("switched", audience, seat=seat, out=action.name, card=new)

    def ask_again(self, state: ValdaState) -> None:
        """Skipped once there is no open card or no card to switch with."""
        if state.open and state._refill_base():
            state._ask(self)


@dataclass(frozen=True, slots=True)
class GodDraw(ValdaDecision):
    """A card drawn from a god deck: which god's (the seat then looks at its top two)."""

    kind: ClassVar[str] = "god-draw"
    gods: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each god whose deck has cards."""
        return [act("god", g) for g in self.gods]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Look at that deck's top two cards."""
        state._look_at_god_cards(seat, action.name, "keep", self.why, card=self.why)

    def ask_again(self, state: ValdaState) -> None:
        """The decks that still have cards."""
        _ask_listed(state, self, "gods", [god for god in self.gods if state.gods[god]])


@dataclass(frozen=True, slots=True)
class Lend(ValdaDecision):
    """A god's one-temple ability lent for this turn: which god's."""

    kind: ClassVar[str] = "lend"
    gods: tuple[str, ...]
    why: str

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each god offered."""
        return [act("god", g) for g in self.gods]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Lend it."""
        state.lent.add(action.name)
        state._event("lent", seat=seat, god=action.name)

    def ask_again(self, state: ValdaState) -> None:
        """The gods the seat still has no temple of and was not lent."""
        seat = self.seat
        _ask_listed(state, self, "gods",
                    [god for god in self.gods if state.temples(seat, god) == 0 and god not in state.lent])  # fmt: skip


# God weapons ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Window(ValdaDecision):
    """A response window (a roll, an attack announced or defended, a last building): a weapon, or pass."""

    kind: ClassVar[str] = "window"
    response: ClassVar[bool] = True
    weapon: ClassVar[bool] = True
    window: str
    options: tuple[str, ...]
    args: tuple[Any, ...]

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each weapon option the seat holds for its part in the moment, ``pass``."""
        return [*[act("weapon", option) for option in self.options], PASS]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Passed: the window goes on to the next seat (a weapon is played by the state)."""


@dataclass(frozen=True, slots=True)
class Thief(ValdaDecision):
    """Thief: a card at random from another player's hand, or an open card."""

    kind: ClassVar[str] = "thief"
    weapon: ClassVar[bool] = True
    seats: tuple[int, ...]
    open: tuple[str, ...]

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each other seat with cards, each open card the table can see."""
        return [*[act("seat", s) for s in self.seats], *[act("card", c) for c in self.open]]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Take the card."""
        if action.kind == "seat":
            target = action.seat
            hand = state.players[target].hand
            card = hand.pop(state.rng.below(len(hand)))
            state._forget(target, [card], witnesses=(seat,))
            state._event("stole-cards", frozenset({seat, target}), seat=seat, target=target, cards=[card], why="thief")
            state._event("stole-count", seat=seat, target=target, count=1, why="thief")
        else:
            card = action.name
            state.open.remove(card)
            state._event("stole-open", seat=seat, card=card)
            state._learn(None, seat, [card])
        state.players[seat].hand.append(card)


@dataclass(frozen=True, slots=True)
class Hammer(ValdaDecision):
    """Hammertime: a yellow card of the hand, played twice."""

    kind: ClassVar[str] = "hammer"
    weapon: ClassVar[bool] = True
    secret_cards: ClassVar[bool] = True
    cards: tuple[str, ...]

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each yellow card of the hand."""
        return [act("card", c) for c in self.cards]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Play it: its effects twice."""
        played = state.card(action.name)
        state.players[seat].hand.remove(action.name)
        state._forget(seat, [action.name])
        state.discard.append(action.name)
        state._event("played", seat=seat, card=action.name, twice=True)
        steps = [("effect", seat, e.do, tuple(sorted(e.params.items())), played.id, seat) for e in played.effects]
        state._then(*steps, *steps)


@dataclass(frozen=True, slots=True)
class Face(ValdaDecision):
    """Crown of Fortune: a die of the roll and the face to turn it to."""

    kind: ClassVar[str] = "face"
    weapon: ClassVar[bool] = True
    dice: tuple[int, ...]

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each die of the roll to each other face."""
        return [act("face", i, f) for i in self.dice for f in range(6) if f != state.dice[i][1]]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Turn the die."""
        index, face = action.die, action.face
        colour = state.dice[index][0]
        state.dice[index] = (colour, face)
        state._event("turned-die", seat=seat, die=index, colour=colour, face=face)


@dataclass(frozen=True, slots=True)
class Redirect(ValdaDecision):
    """Vanished: the player the attack turns to."""

    kind: ClassVar[str] = "redirect"
    weapon: ClassVar[bool] = True
    seats: tuple[int, ...]

    def actions(self, state: ValdaState, seat: int) -> list[ValdaAction]:
        """Each seat neither attacking nor attacked."""
        return [act("seat", s) for s in self.seats]

    def settle(self, state: ValdaState, seat: int, action: ValdaAction) -> None:
        """Turn the attack."""
        state.attack["target"] = action.seat
        state._event("attack-redirected", seat=seat, target=action.seat)


def _ask_listed(state: ValdaState, decision: ValdaDecision, name: str, still: list[Any]) -> None:
    """Ask ``decision`` again with the choices of its field ``name`` still possible; skipped if none is."""
    if still:
        changes: dict[str, Any] = {name: tuple(still)}
        state._ask(replace(decision, **changes))


#: Every decision class by its kind (views and the queue's interrupted decisions hold them as JSON).
DECISIONS = decision_reader(
    Resources, GameActions, Build, Followers, HandLimit, Choose, FreeBuild, Waive, Keep, LockCard, Attack, Defend,
    Steal, Destroy, Move, Convert, Look, Peek, DiscardPick, Switch, GodDraw, Lend, Window, Thief, Hammer, Face,
    Redirect,
)  # fmt: skip
#: The phases' decisions by kind (a phase asks them by name).
PHASE_DECISIONS: Mapping[str, type[PhaseDecision]] = {
    cls.kind: cls for cls in (Resources, GameActions, Build, Followers)
}


def read_decision(data: Mapping[str, Any]) -> ValdaDecision:
    """A decision from its JSON (a view's unmasked decision, an interrupted decision in the queue)."""
    cls = DECISIONS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"no Valda decision {data.get('kind')!r}")
    return cls.from_json(data)
