"""What a seat decides, one handler per kind of decision: its legal actions, refusals, answers.

A seat decides either in a phase where it acts (draft a card, choose a battle card, keep
cards at the end of an Age, answer a Call to Battle, move marching figures, take an
action in the Action phase: :data:`PHASES`), or because an effect asks it in the middle
of the queue (raise a stat, destroy a figure, reinforce, kill anywhere: a pending
decision, ``state.decision``, handled by :data:`PENDING`). Each handler says:

* ``actions(state, seat)``: the legal actions, in a fixed order;
* ``refusal(state, seat, action)``: why an action that is not among them is refused;
* ``answer(state, seat, action)``: what a legal action does (the queue then runs on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla.contests import reveal, skip_callers, start_contest
from meadhall.games.bloodrage_valhalla.data import (
    KEEP_AT_AGE_END,
    SLOTS,
    DestroyDecision,
    KillDecision,
    RaiseDecision,
    ReinforceDecision,
)
from meadhall.games.bloodrage_valhalla.effects import candidates, kill, raisable, raise_stat, summon_rage
from meadhall.games.bloodrage_valhalla.notation import DONE, KEEP, NO_RAISE, PASS, SKIP, STAY, BRAction
from meadhall.games.bloodrage_valhalla.phases import end_turn, finish_draft_round

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState

_ACTIONS: dict[tuple[str, str, str], BRAction] = {}


def _action(kind: str, a: str, b: str = "") -> BRAction:
    """A shared action value: move generation makes the same few hundred over and over."""
    key = (kind, a, b)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = BRAction(kind, a, b)
    return found


class Handler:
    """One kind of decision (see the module's docstring)."""

    #: What this decision is about, as a refusal names it: "now is the time to ...".
    wants = ""

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """Every legal action of ``seat`` (one of the seats this decision waits for)."""
        raise NotImplementedError

    def refusal(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Why ``action``, not among :meth:`actions`, is refused (words for people)."""
        del state, seat
        return f"{action} is not possible now"

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Apply a legal ``action`` of ``seat``."""
        raise NotImplementedError


def _not_yours(state: BloodRageState, seat: int, action: BRAction, kinds: tuple[str, ...]) -> str | None:
    """The refusal of a card action naming a card the seat does not hold where it plays from."""
    if action.kind not in kinds or action.a == "none":
        return None
    held = state.packs[seat] if action.kind == "pick" else state.clans[seat].hand
    return None if action.a in held else f"you do not have the card {action.a!r} there"


class _PhaseHandler(Handler):
    """A decision of a phase: a refusal first says when an action is of another kind."""

    kinds: tuple[str, ...] = ()

    def refusal(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """The wrong kind of action for now, a card not held, or what this kind needs."""
        if action.kind not in self.kinds:
            return f"now is the time to {self.wants}"
        return _not_yours(state, seat, action, ("pick", "play", "drop", "upgrade", "quest")) or self.needs(
            state, seat, action
        )

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Why an action of the right kind, with a card the seat holds, is refused."""
        return super().refusal(state, seat, action)


# Phases ---------------------------------------------------------------------------------


class Draft(_PhaseHandler):
    """Draft: keep one card of the pack in front of you (all clans at once, hidden)."""

    wants = "pick"
    kinds = ("pick",)

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """One pick per different card in the pack."""
        return [BRAction("pick", c) for c in sorted(set(state.packs[seat]))]

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Hold the pick hidden; when every clan has picked, the round is done."""
        state.picks[seat] = action.a
        events = state.events
        if events is not None:
            events.append(Event("picked", {"seat": seat, "card": action.a}, frozenset({seat})))
            events.append(Event("chose", {"seat": seat, "what": "pick"}))
        if all(p is not None for s, p in enumerate(state.picks) if state.packs[s]):
            finish_draft_round(state)


class BattleCard(_PhaseHandler):
    """A battle: every participant puts a card from its hand face down (none with an empty hand)."""

    wants = "play"
    kinds = ("play",)

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """One card of each kind in hand, or ``play:none`` with an empty hand."""
        hand = state.clans[seat].hand
        if not hand:
            return [BRAction("play", "none")]
        return [BRAction("play", c) for c in sorted(set(hand))]

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
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


class KeepCards(_PhaseHandler):
    """End of an Age: remove cards from the game until at most three are left, then keep them."""

    wants = "drop or keep"
    kinds = ("drop", "keep")

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A drop per kind of card in hand; ``keep`` once three or fewer are left."""
        hand = state.clans[seat].hand
        drops = [BRAction("drop", c) for c in sorted(set(hand))]
        return [*drops, KEEP] if len(hand) <= KEEP_AT_AGE_END else drops

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Keeping too many cards."""
        if action.kind == "keep":
            extra = len(state.clans[seat].hand) - KEEP_AT_AGE_END
            return f"you may keep at most {KEEP_AT_AGE_END} cards: remove {extra} more first (drop:CARD)"
        return super().needs(state, seat, action)

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
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
            return
        state.keeping[seat] = False
        if events is not None:
            events.append(Event("kept", {"seat": seat, "count": len(clan.hand)}))


class CallToBattle(_PhaseHandler):
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

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
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


class March(_PhaseHandler):
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

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
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


class Turn(_PhaseHandler):
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
                actions += [_action("summon", kind, region) for region in regions]
            occupied = {region for region, figures in state.board.items() for owner, _ in figures if owner == seat}
            actions += [_action("march", region) for region in content.regions if region in occupied]
            slots_free = len(clan.upgrades) + len(clan.quests) < SLOTS
            bases = state.free_bases(seat)
            for card_id in sorted(set(clan.hand)):
                card = content.cards[card_id]
                if not slots_free:
                    break
                if card.kind == "upgrade" and clan.rage >= card.strength:
                    if card.upgrade == "monster":
                        assert card.monster is not None
                        if bases[content.monsters[card.monster].base] <= 0 or card.monster in clan.owned_monsters:
                            continue
                    actions.append(BRAction("upgrade", card_id))
                elif card.kind == "quest":
                    actions.append(BRAction("quest", card_id))
            for region in sorted(state.claimable() - state.claimed):
                if region in occupied:
                    actions.append(_action("contest", region))
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
                return "a region holding a region token cannot be contested"
            if action.a in state.claimed:
                return "that region's reward was claimed this Age"
            return "you need a figure in the region to contest it"
        return super().needs(state, seat, action)

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
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

#: The handler of the decision each phase asks for (no pending decision), by phase.
PHASES: dict[str, Handler] = {
    "draft": Draft(),
    "battle": BattleCard(),
    "keep": KeepCards(),
    "call": CallToBattle(),
    "march": March(),
    "action": Turn(),
}


# Pending decisions ------------------------------------------------------------------------


class _PendingHandler(Handler):
    """A decision an effect asks in the middle of the queue (``state.decision``)."""

    def refusal(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Another kind of action: this decision comes first."""
        assert state.decision is not None
        if action.kind != state.decision.kind:
            return f"first decide the {state.decision.kind} in progress"
        return self.needs(state, seat, action)

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Why an answer of the right kind is refused."""
        return super().refusal(state, seat, action)


def _pending(state: BloodRageState) -> object:
    decision = state.decision
    state.decision = None
    return decision


class ChooseRaise(_PendingHandler):
    """Raise a stat of the clan's choice one step (for a fulfilled quest: or none)."""

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A raise per stat not at its last step; ``raise:none`` too if the raise is optional."""
        decision = state.decision
        assert isinstance(decision, RaiseDecision)
        raises = [BRAction("raise", s) for s in raisable(state, seat)]
        return [*raises, NO_RAISE] if decision.optional else raises

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """Declining a raise that is not optional, or a stat already at the top."""
        decision = state.decision
        assert isinstance(decision, RaiseDecision)
        if action == NO_RAISE:
            return f"this raise ({decision.why}) is not optional: choose a stat"
        return f"your {action.a} is at its last step: choose another stat"

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Raise the stat, or none."""
        decision = _pending(state)
        assert isinstance(decision, RaiseDecision)
        if action == NO_RAISE:
            if state.events is not None:
                state.events.append(Event("no-raise", {"seat": seat, "why": decision.why}))
        else:
            raise_stat(state, seat, action.a, decision.why)


class ChooseDestroy(_PendingHandler):
    """Destroy an enemy figure in the battle (a card's or a monster's effect), one at a time."""

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A destroy per enemy figure (seat and kind) the effect may take."""
        decision = state.decision
        assert isinstance(decision, DestroyDecision) and state.battle is not None
        found = candidates(state, seat, state.battle.region, decision.target)
        return [BRAction("destroy", kind, owner=owner) for owner, kind in found]

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure the effect cannot take."""
        del state, seat, action
        return "that is not an enemy figure in the battle this effect may destroy"

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Kill the figure; the effect goes on with one fewer."""
        decision = _pending(state)
        assert isinstance(decision, DestroyDecision) and state.battle is not None and action.owner is not None
        kill(state, (action.owner, action.a), state.battle.region, seat, decision.why)
        state.then(("destroy", seat, decision.left - 1, decision.target, decision.why))


class ChooseReinforcement(_PendingHandler):
    """Summon a figure from the reserve into the battle (an effect), one at a time, or stop."""

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A reinforce per kind of figure in reserve, then ``skip``."""
        return [BRAction("reinforce", k) for k in state.clans[seat].in_reserve()] + [SKIP]

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure not in the reserve."""
        del state, seat
        return f"you have no {action.a} in your reserve"

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Place the figure in the battle's region (the effect goes on with one fewer), or stop."""
        decision = _pending(state)
        assert isinstance(decision, ReinforceDecision)
        if action.kind == "skip":
            return
        state.clans[seat].take(action.a)
        state.board[decision.region].append((seat, action.a))
        if state.events is not None:
            state.events.append(Event("reinforced", {"seat": seat, "figure": action.a, "region": decision.region}))
        summon_rage(state, seat, action.a)
        state.then(("reinforce", seat, decision.region, decision.left - 1))


class ChooseKill(_PendingHandler):
    """Destroy an enemy figure in any region (Tyr's favour), one at a time, or stop."""

    def actions(self, state: BloodRageState, seat: int) -> list[BRAction]:
        """A kill per region and enemy figure (seat and kind) that may be destroyed, then ``skip``."""
        actions = []
        for region in state.config.content.regions:
            actions += [BRAction("kill", region, k, owner=o) for o, k in candidates(state, seat, region, "any")]
        return [*actions, SKIP]

    def needs(self, state: BloodRageState, seat: int, action: BRAction) -> str:
        """A figure that is not there, or cannot be destroyed."""
        del state, seat, action
        return "there is no enemy figure there that may be destroyed"

    def answer(self, state: BloodRageState, seat: int, action: BRAction) -> None:
        """Kill the figure (the effect goes on with one fewer), or stop."""
        decision = _pending(state)
        assert isinstance(decision, KillDecision)
        if action.kind == "skip":
            return
        assert action.owner is not None
        kill(state, (action.owner, action.b), action.a, seat, "killed anywhere")
        state.then(("kill_anywhere", seat, decision.left - 1))


#: The handler of each kind of pending decision.
PENDING: dict[str, Handler] = {
    "raise": ChooseRaise(),
    "destroy": ChooseDestroy(),
    "reinforce": ChooseReinforcement(),
    "kill": ChooseKill(),
}
