"""What a seat decides, one class per kind of decision: its legal actions, refusals, what it does.

A seat decides either in a phase where it acts (draft a card, choose a battle card, keep
cards at the end of an Age, answer a Call to Battle, move marching figures, take an
action in the Action phase: :data:`PHASES`), or because an effect asks it in the middle
of the queue (raise a stat, destroy a figure, reinforce, kill anywhere: a pending
decision, ``state.decision``: a core flow :class:`~meadhall.core.flow.Decision`, one class
per kind, :data:`PENDING`). Each says:

* ``actions(state, seat)``: the legal actions, in a fixed order;
* ``why_not(state, seat, action)``: why an action that is not among them is refused;
* ``settle(state, seat, action)``: what a legal action does (the queue then runs on).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from meadhall.core.flow import Decision, decision_reader
from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla.contests import reveal, skip_callers, start_contest
from meadhall.games.bloodrage_valhalla.data import KEEP_AT_AGE_END, SLOTS
from meadhall.games.bloodrage_valhalla.effects import candidates, kill, raisable, raise_stat, summon_rage
from meadhall.games.bloodrage_valhalla.notation import DONE, KEEP, NO_RAISE, PASS, SKIP, STAY, BRAction
from meadhall.games.bloodrage_valhalla.phases import end_turn, finish_draft_round

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState

_ACTIONS: dict[tuple[str, str, str], BRAction] = {}

#: Why a region with a region token cannot be contested (the refusal, and the table's preview of the region).
TOKEN_CLOSES = "a region holding a region token cannot be contested"


def _action(kind: str, a: str, b: str = "") -> BRAction:
    """A shared action value: move generation makes the same few hundred over and over."""
    key = (kind, a, b)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = BRAction(kind, a, b)
    return found


_NAMED: dict[str, dict[str, BRAction]] = {}


def _each(kind: str, names: Iterable[str]) -> list[BRAction]:
    """The shared actions ``kind:name`` for each of ``names``, in their order (by name: no key to build)."""
    table = _NAMED.get(kind)
    if table is None:
        table = _NAMED[kind] = {}
    return [table.get(name) or table.setdefault(name, _action(kind, name)) for name in names]


_SUMMONS: dict[tuple[str, ...], list[BRAction]] = {}


def _summons(kind: str, regions: list[str]) -> list[BRAction]:
    """The shared summons of a figure kind into each of ``regions``, in their order (not to be changed)."""
    key = (kind, *regions)
    found = _SUMMONS.get(key)
    if found is None:
        found = _SUMMONS[key] = [_action("summon", kind, region) for region in regions]
    return found


def _not_yours(state: BloodRageState, seat: int, action: BRAction, kinds: tuple[str, ...]) -> str | None:
    """The refusal of a card action naming a card the seat does not hold where it plays from."""
    if action.kind not in kinds or action.a == "none":
        return None
    held = state.packs[seat] if action.kind == "pick" else state.clans[seat].hand
    return None if action.a in held else f"you do not have the card {action.a!r} there"


class PhaseDecision:
    """The decision of a phase where seats act: one class per phase, one shared instance each.

    The same three methods as a pending decision (:class:`~meadhall.core.flow.Decision`),
    with the seats it waits for given by the phase (``BloodRageState.to_move``).
    """

    #: What this decision is about, as a refusal names it: "now is the time to ...".
    wants = ""
    #: The kinds of action that answer it.
    kinds: tuple[str, ...] = ()

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """Every legal action of ``seat`` (one of the seats this decision waits for)."""
        raise NotImplementedError

    def why_not(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Why ``action``, not among :meth:`actions`, is refused: another kind, a card not held, or :meth:`needs`."""
        if action.kind not in self.kinds:
            return f"now is the time to {self.wants}"
        return _not_yours(state, seat, action, ("pick", "play", "drop", "upgrade", "quest")) or self.needs(
            state, seat, action
        )

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Why an action of the right kind, with a card the seat holds, is refused."""
        del state, seat
        return f"{action} is not possible now"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Apply a legal ``action`` of ``seat``."""
        raise NotImplementedError


# Phases ---------------------------------------------------------------------------------


class Draft(PhaseDecision):
    """Draft: keep one card of the pack in front of you (all clans at once, hidden)."""

    wants = "pick"
    kinds = ("pick",)

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """One pick per different card in the pack."""
        return _each("pick", sorted(set(state.packs[seat])))

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Hold the pick hidden; when every clan has picked, the round is done."""
        state.picks[seat] = action.a
        events = state.events
        if events is not None:
            events.append(Event("picked", {"seat": seat, "card": action.a}, frozenset({seat})))
            events.append(Event("chose", {"seat": seat, "what": "pick"}))
        if all(p is not None for s, p in enumerate(state.picks) if state.packs[s]):
            finish_draft_round(state)
        else:  # others still pick: the queue waits, and only this seat's pick changed
            state.only_seat = (state.ply, seat)


class BattleCard(PhaseDecision):
    """A battle: every participant puts a card from its hand face down (none with an empty hand)."""

    wants = "play"
    kinds = ("play",)

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """One card of each kind in hand, or ``play:none`` with an empty hand."""
        hand = state.clans[seat].hand
        if not hand:
            return [BRAction("play", "none")]
        return _each("play", sorted(set(hand)))

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Hold the card hidden; when every participant has chosen, the cards are revealed."""
        battle = state.battle
        assert battle is not None
        clan = state.clans[seat]
        card = None if action.a == "none" else action.a
        if card is not None:
            clan.hand.remove(card)
            clan.forget()
        battle.played[seat] = card
        events = state.events
        if events is not None:
            events.append(Event("my-card", {"seat": seat, "card": action.a}, frozenset({seat})))
            events.append(Event("chose", {"seat": seat, "what": "play"}))
        if not state.to_move():
            reveal(state)
        else:  # others still choose: the queue waits, and only this clan's hand changed
            state.only_seat = (state.ply, seat)


class KeepCards(PhaseDecision):
    """End of an Age: remove cards from the game until at most three are left, then keep them."""

    wants = "drop or keep"
    kinds = ("drop", "keep")

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A drop per kind of card in hand; ``keep`` once three or fewer are left."""
        hand = state.clans[seat].hand
        drops = _each("drop", sorted(set(hand)))
        return [*drops, KEEP] if len(hand) <= KEEP_AT_AGE_END else drops

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Keeping too many cards."""
        if action.kind == "keep":
            extra = len(state.clans[seat].hand) - KEEP_AT_AGE_END
            return f"you may keep at most {KEEP_AT_AGE_END} cards: remove {extra} more first (drop:CARD)"
        return super().needs(state, seat, action)

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Remove a card face down, or keep the rest."""
        clan = state.clans[seat]
        events = state.events
        if action.kind == "drop":
            clan.hand.remove(action.a)
            clan.forget()
            state.removed.append(action.a)
            if events is not None:
                events.append(Event("dropped", {"seat": seat, "card": action.a}, frozenset({seat})))
            if not clan.hand:
                state.keeping[seat] = False
        else:
            state.keeping[seat] = False
            if events is not None:
                events.append(Event("kept", {"seat": seat, "count": len(clan.hand)}))
        if state.to_move():  # some still choose: the queue waits, and only this clan and the removed cards changed
            state.only_seat = (state.ply, seat)


class CallToBattle(PhaseDecision):
    """Call to Battle: each clan in turn may move figures in from adjacent regions, or stay."""

    wants = "join or stay"
    kinds = ("join", "stay")

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A join per figure kind and region it may come from, then ``stay``."""
        return [BRAction("join", kind, region) for kind, region in state.callable_figures(seat)] + [STAY]

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Joining with a figure that cannot come."""
        del state, seat, action
        return "join with one of your figures from a region adjacent to the battle"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Move a figure in (the clan is asked again while it may move more), or stay."""
        battle = state.battle
        assert battle is not None
        events = state.events
        if action.kind == "join":
            figure = (seat, action.a)
            state.board[action.b].remove(figure)
            state.board[battle.region].append(figure)
            battle.joined[seat] = battle.joined.get(seat, 0) + 1
            if events is not None:
                events.append(
                    Event("joined", {"seat": seat, "figure": action.a, "from": action.b, "region": battle.region})
                )
            if not state.callable_figures(seat):
                battle.calls.pop(0)
        else:
            battle.calls.pop(0)
            if events is not None:
                events.append(Event("stayed", {"seat": seat, "region": battle.region}))
        skip_callers(state)


class March(PhaseDecision):
    """A march: move the marching region's figures one by one to adjacent regions, then done."""

    wants = "move or done"
    kinds = ("move", "done")

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A move per figure kind left and adjacent region; ``done`` once one has moved."""
        del seat
        assert state.march_from is not None
        neighbours = state.config.content.regions[state.march_from].neighbours
        actions = [BRAction("move", kind, to) for kind in sorted(set(state.march_left)) for to in neighbours]
        if state.march_moved:
            actions.append(DONE)
        return actions

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A move that is not one, or done before any move."""
        del state, seat
        if action.kind == "move":
            return "move one of the marching region's figures to an adjacent region"
        return "move at least one figure before ending the march"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Move one figure (the march ends when none is left), or end the march."""
        if action.kind == "done":
            end_turn(state)
            return
        assert state.march_from is not None
        figure = (seat, action.a)
        state.board[state.march_from].remove(figure)
        state.board[action.b].append(figure)
        state.march_left.remove(action.a)
        state.march_moved += 1
        if state.events is not None:
            state.events.append(
                Event("moved", {"seat": seat, "figure": action.a, "from": state.march_from, "to": action.b})
            )
        if not state.march_left:
            end_turn(state)


class Turn(PhaseDecision):
    """The Action phase: summon, march, upgrade, quest, contest (each for Rage), or pass."""

    wants = "take an action: summon, march, upgrade, quest, contest or pass"
    kinds = ("summon", "march", "upgrade", "quest", "contest", "pass")

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """Every action the clan's Rage, reserve, hand, slots and figures allow; ``pass`` last."""
        clan = state.clans[seat]
        content = state.config.content
        actions: list[BRAction] = []
        if clan.rage >= 1:
            regions = state.summon_regions()
            for kind in clan.in_reserve():
                actions += _summons(kind, regions)
            occupied = {region for region, figures in state.board.items() for owner, _ in figures if owner == seat}
            actions += _each("march", [region for region in content.regions if region in occupied])
            bases: dict[str, int] | None = None  # counted when a monster's upgrade asks
            for card_id in sorted(set(clan.hand)) if len(clan.upgrades) + len(clan.quests) < SLOTS else ():
                card = content.cards[card_id]
                if card.kind == "upgrade" and clan.rage >= card.strength:
                    if card.upgrade == "monster":
                        assert card.monster is not None
                        if bases is None:
                            bases = state.free_bases(seat)
                        if bases[content.monsters[card.monster].base] <= 0 or card.monster in clan.owned_monsters:
                            continue
                    actions.append(_action("upgrade", card_id))
                elif card.kind == "quest":
                    actions.append(_action("quest", card_id))
            actions += _each("contest", sorted(occupied & (state.claimable() - state.claimed)))
        actions.append(PASS)
        return actions

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """No Rage, a region or figure that does not fit, a card that cannot be played."""
        clan = state.clans[seat]
        kind = action.kind
        if clan.rage < 1:
            return "with 0 Rage you cannot take actions (only pass)"
        if kind == "summon":
            if action.b not in state.summon_regions():
                return "figures are summoned only into common regions (no god, no region token, not Valhalla)"
            return f"you have no {action.a} in your reserve"
        if kind == "upgrade":
            card = state.config.content.cards.get(action.a)
            if card is None or card.kind != "upgrade":
                return "that card is not an upgrade"
            if len(clan.upgrades) + len(clan.quests) >= SLOTS:
                return "all seven slots are full"
            if clan.rage < card.strength:
                return f"that upgrade costs {card.strength} Rage; you have {clan.rage}"
            return "no free base for that monster (3 small, 2 large)"
        if kind == "quest":
            return "that card is not a quest, or your seven slots are full"
        if kind == "contest":
            if action.a in state.region_tokens:
                return TOKEN_CLOSES
            if action.a in state.claimed:
                return "that region's reward was claimed this Age"
            return "you need a figure in the region to contest it"
        return super().needs(state, seat, action)

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Take the action."""
        _TURN_ACTIONS[action.kind](state, seat, action)


def _summon(state: BloodRageState, seat: int, action: BRAction) -> None:
    clan = state.clans[seat]
    clan.rage -= 0 if action.a in state.config.content.monsters else 1
    clan.take(action.a)
    state.board[action.b].append((seat, action.a))
    if state.events is not None:
        state.events.append(Event("summoned", {"seat": seat, "figure": action.a, "region": action.b}))
    summon_rage(state, seat, action.a)
    end_turn(state)


def _march(state: BloodRageState, seat: int, action: BRAction) -> None:
    clan = state.clans[seat]
    # A free march is one per Action phase: free actions without end would let a
    # clan march forever once everybody else is out of Rage.
    if state.has(seat, "free_march") and not clan.free_march_used:
        clan.free_march_used = True
    else:
        clan.rage -= 1
    state.march_from = action.a
    state.march_left = sorted(k for o, k in state.board[action.a] if o == seat)
    state.march_moved = 0
    state.phase = "march"
    if state.events is not None:
        state.events.append(Event("march", {"seat": seat, "region": action.a}))


def _upgrade(state: BloodRageState, seat: int, action: BRAction) -> None:
    clan = state.clans[seat]
    upgrade = state.config.content.cards[action.a]
    clan.rage -= upgrade.strength
    clan.hand.remove(action.a)
    clan.forget(action.a)
    clan.upgrades.append(action.a)
    if upgrade.monster is not None:
        clan.owned_monsters.append(upgrade.monster)
        clan.monsters.append(upgrade.monster)
    if state.events is not None:
        state.events.append(Event("upgraded", {"seat": seat, "card": action.a}))
    end_turn(state)


def _quest(state: BloodRageState, seat: int, action: BRAction) -> None:
    clan = state.clans[seat]
    clan.hand.remove(action.a)
    clan.forget()
    clan.quests.append(action.a)
    events = state.events
    if events is not None:
        events.append(Event("committed", {"seat": seat}))
        events.append(Event("committed-card", {"seat": seat, "card": action.a}, frozenset({seat})))
    end_turn(state)


def _contest(state: BloodRageState, seat: int, action: BRAction) -> None:
    start_contest(state, seat, action.a)


def _pass(state: BloodRageState, seat: int, action: BRAction) -> None:
    del action
    clan = state.clans[seat]
    clan.rage = 0
    clan.passed = True
    if state.events is not None:
        state.events.append(Event("passed", {"seat": seat}))
    end_turn(state)


_TURN_ACTIONS = {
    "summon": _summon,
    "march": _march,
    "upgrade": _upgrade,
    "quest": _quest,
    "contest": _contest,
    "pass": _pass,
}

#: The decision of each phase where seats act (when no decision is pending), by phase.
PHASES: dict[str, PhaseDecision] = {
    "draft": Draft(),
    "battle": BattleCard(),
    "keep": KeepCards(),
    "call": CallToBattle(),
    "march": March(),
    "action": Turn(),
}


# Pending decisions ------------------------------------------------------------------------
#
# A decision an effect asks of one seat in the middle of the queue: a core flow
# :class:`~meadhall.core.flow.Decision` that handles itself (its actions, why an action is
# refused, what choosing does), asked by a step of the queue (:data:`TASKS`). Views show it
# as ``{"seat", "type", "data": [seat, kind, *fields]}`` (:func:`decision_data`).


def _other_kind(decision: Decision, action: BRAction) -> str | None:
    """The refusal of an action of another kind while this decision is pending."""
    return None if action.kind == decision.kind else f"first decide the {decision.kind} in progress"


@dataclass(frozen=True, slots=True)
class RaiseDecision(Decision):
    """Raise a stat of the clan's choice one step (``optional``: or none, for a fulfilled quest)."""

    why: str
    optional: bool
    kind: ClassVar[str] = "raise"

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A raise per stat not at its last step; ``raise:none`` too if the raise is optional."""
        raises = [BRAction("raise", s) for s in raisable(state, seat)]
        return [*raises, NO_RAISE] if self.optional else raises

    def why_not(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Declining a raise that is not optional, or a stat already at the top."""
        del state, seat
        if action == NO_RAISE:
            return _other_kind(self, action) or f"this raise ({self.why}) is not optional: choose a stat"
        return _other_kind(self, action) or f"your {action.a} is at its last step: choose another stat"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Raise the stat, or none."""
        if action != NO_RAISE:
            raise_stat(state, seat, action.a, self.why)
        elif state.events is not None:
            state.events.append(Event("no-raise", {"seat": seat, "why": self.why}))


@dataclass(frozen=True, slots=True)
class DestroyDecision(Decision):
    """Destroy ``left`` more enemy figures of the ``target`` kind in the battle (a card's or monster's effect)."""

    left: int
    target: str
    why: str
    kind: ClassVar[str] = "destroy"

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A destroy per enemy figure (seat and kind) the effect may take."""
        assert state.battle is not None
        found = candidates(state, seat, state.battle.region, self.target)
        return [BRAction("destroy", kind, owner=owner) for owner, kind in found]

    def why_not(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure the effect cannot take."""
        del state, seat
        return _other_kind(self, action) or "that is not an enemy figure in the battle this effect may destroy"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Kill the figure; the effect goes on with one fewer."""
        assert state.battle is not None and action.owner is not None
        kill(state, (action.owner, action.a), state.battle.region, seat, self.why)
        state._then(("destroy", seat, self.left - 1, self.target, self.why))


@dataclass(frozen=True, slots=True)
class ReinforceDecision(Decision):
    """Summon up to ``left`` more figures from the reserve into the battle's ``region``, or stop."""

    region: str
    left: int
    kind: ClassVar[str] = "reinforce"

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A reinforce per kind of figure in reserve, then ``skip``."""
        return [BRAction("reinforce", k) for k in state.clans[seat].in_reserve()] + [SKIP]

    def why_not(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure not in the reserve."""
        del state, seat
        return _other_kind(self, action) or f"you have no {action.a} in your reserve"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Place the figure in the battle's region (the effect goes on with one fewer), or stop."""
        if action.kind == "skip":
            return
        state.clans[seat].take(action.a)
        state.board[self.region].append((seat, action.a))
        if state.events is not None:
            state.events.append(Event("reinforced", {"seat": seat, "figure": action.a, "region": self.region}))
        summon_rage(state, seat, action.a)
        state._then(("reinforce", seat, self.region, self.left - 1))


@dataclass(frozen=True, slots=True)
class KillDecision(Decision):
    """Destroy up to ``left`` more enemy figures in any regions (Tyr's favour), or stop."""

    left: int
    kind: ClassVar[str] = "kill"

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A kill per region and enemy figure (seat and kind) that may be destroyed, then ``skip``."""
        actions = []
        for region in state.config.content.regions:
            actions += [BRAction("kill", region, k, owner=o) for o, k in candidates(state, seat, region, "any")]
        return [*actions, SKIP]

    def why_not(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure that is not there, or cannot be destroyed."""
        del state, seat
        return _other_kind(self, action) or "there is no enemy figure there that may be destroyed"

    def settle(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Kill the figure (the effect goes on with one fewer), or stop."""
        if action.kind == "skip":
            return
        assert action.owner is not None
        kill(state, (action.owner, action.b), action.a, seat, "killed anywhere")
        state._then(("kill_anywhere", seat, self.left - 1))


#: The pending decisions by kind.
PENDING: Mapping[str, type[Decision]] = decision_reader(RaiseDecision, DestroyDecision, ReinforceDecision, KillDecision)


def decision_data(decision: Decision) -> list[Any]:
    """A pending decision as views show it: ``[seat, kind, *fields]``."""
    return [decision.seat, decision.kind, *(getattr(decision, f.name) for f in fields(decision)[1:])]


def decision_from_data(data: list[Any]) -> Decision:
    """A pending decision read back from :func:`decision_data`."""
    return PENDING[str(data[1])](int(data[0]), *data[2:])


# The steps that ask them -----------------------------------------------------------------


def ask_raise(state: BloodRageState, seat: int, why: str, optional: bool = False) -> None:
    """A stat of the clan's choice goes up a step (asked unless only one can); ``optional``: or none."""
    options = raisable(state, seat)
    if len(options) == 1 and not optional:
        raise_stat(state, seat, options[0], why)
    elif options:
        state._ask(RaiseDecision(seat, why, optional))


def ask_destroy(state: BloodRageState, seat: int, left: int, target: str, why: str) -> None:
    """Destroy ``left`` enemy figures of a kind in the battle: asks which, unless only one can go."""
    battle = state.battle
    if battle is None or left <= 0:
        return
    options = candidates(state, seat, battle.region, target)
    if not options:
        return
    if len(options) == 1:
        kill(state, options[0], battle.region, seat, why)
        state._then(("destroy", seat, left - 1, target, why))
        return
    state._ask(DestroyDecision(seat, left, target, why))


def ask_reinforce(state: BloodRageState, seat: int, region: str, left: int) -> None:
    """Summon up to ``left`` figures from the reserve into the battle: asks which (or none)."""
    clan = state.clans[seat]
    if left <= 0 or not (clan.warriors or clan.elites or clan.monsters):
        return
    state._ask(ReinforceDecision(seat, region, left))


def ask_kill(state: BloodRageState, seat: int, left: int) -> None:
    """Destroy up to ``left`` enemy figures in any regions: asks which (or none)."""
    if left <= 0:
        return
    if not any(candidates(state, seat, r, "any") for r in state.board):
        return
    state._ask(KillDecision(seat, left))


#: The steps of this module, by name.
TASKS: dict[str, Callable[..., Any]] = {
    "choose_raise": ask_raise,
    "destroy": ask_destroy,
    "reinforce": ask_reinforce,
    "kill_anywhere": ask_kill,
}
