"""Valda's card effects, attacks and god weapons: what happens between a turn's decisions.

Every card's effects come from one vocabulary (``content.EFFECTS``), each implemented
once in :meth:`ValdaEffects._step_effect`; an attack is announced, answered in a response
window, defended and resolved; god weapons are played at a seat's own decisions or in
the response windows offered to every seat with a part in a moment, weapon or not.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from meadhall.core.flow import Step
from meadhall.games.valda.board import ValdaBoard
from meadhall.games.valda.content import RESOURCES, Effect
from meadhall.games.valda.data import R
from meadhall.games.valda.decisions import (
    Convert,
    Defend,
    Destroy,
    DiscardPick,
    Face,
    FreeBuild,
    GodDraw,
    Hammer,
    Lend,
    Look,
    Move,
    Peek,
    Redirect,
    Steal,
    Switch,
    Thief,
    ValdaDecision,
    Waive,
    Window,
)
from meadhall.games.valda.notation import ValdaAction


class ValdaEffects(ValdaBoard):
    """Card effects, attacks and god weapons."""

    # Card effects -----------------------------------------------------------------------------

    def _step_effect(self, seat: int, do: str, params: tuple[tuple[str, Any], ...], card: str, target: int) -> None:
        effect = Effect(do, dict(params))
        get = effect.get
        player = self.players[seat]
        why = card
        if do == "gain":
            choices: list[Step] = []
            for who in self._who(seat, get("who")):
                if get("resource") == "choice":
                    choices += [("choose", who, why) for _ in range(get("amount"))]
                else:
                    self.players[who].resources[R[get("resource")]] += get("amount")
                    self._event("gained", seat=who, resource=get("resource"), amount=get("amount"), why=why)
            self._then(*choices)
        elif do == "followers":
            for who in self._who(seat, get("who")):
                self._gain_followers(who, get("amount"), why)
        elif do == "draw":
            if get("source") == "god":
                self._then(*[("ask_god_draw", seat, why) for _ in range(get("count"))])
            elif get("source") == "discard":
                self._then(*[("ask_discard_pick", seat, get("kind"), why) for _ in range(get("count"))])
            else:
                drawn = [c for c in (self._draw_base(seat) for _ in range(get("count"))) if c is not None]
                player.hand += drawn
                self._event("drew", frozenset({seat}), seat=seat, cards=drawn, why=why)
                self._event("drew-count", seat=seat, count=len(drawn), why=why)
        elif do == "actions":
            self.actions += get("count")
        elif do == "roll":
            self._roll(seat, [(get("die"), get("count"))], why)
        elif do == "build":
            if self.buildable(seat, get("discount"), get("building")):
                self._ask(FreeBuild(seat, get("discount"), get("building"), why))
        elif do == "convert":
            if player.resources[R[get("give")]] >= get("amount"):
                self._ask(Convert(seat, get("give"), get("amount"), get("followers"), get("times"), why))
        elif do == "look":
            others = [s for s in range(self.num_players) if s != seat]
            self._ask(Look(seat, tuple(others), get("count"), why))
        elif do == "peek_take":
            if self._refill_base():  # with no card left anywhere, there is nothing to look at
                peeked = self.base[-get("count") :][::-1]
                self._from_top("base", len(self.base), len(peeked), None)
                del self.base[-len(peeked) :]
                self._event("peeked", frozenset({seat}), seat=seat, cards=peeked, why=why)
                self._ask(Peek(seat, tuple(peeked), why))
        elif do == "switch_open":
            if self.open and self._refill_base():
                self._ask(Switch(seat, why))
        elif do == "play_yellow":
            self.free_yellow += get("count")
        elif do == "lend":
            gods = [g for g in self.config.content.gods if self.temples(seat, g) == 0 and g not in self.lent]
            if gods:
                self._ask(Lend(seat, tuple(gods), why))
        elif do == "steal_resource":
            self._then(*[("ask_steal", seat, target, get("resource"), why) for _ in range(get("amount"))])
        elif do == "steal_card":
            hand = self.players[target].hand
            taken = [hand.pop(self.rng.below(len(hand))) for _ in range(min(get("count"), len(hand)))]
            player.hand += taken
            self._forget(target, taken, witnesses=(seat,))
            self._event("stole-cards", frozenset({seat, target}), seat=seat, target=target, cards=taken, why=why)
            self._event("stole-count", seat=seat, target=target, count=len(taken), why=why)
        elif do == "kill":
            self._lose_followers(target, get("amount") * (2 if self.attack.get("soulspear") else 1), why)
        elif do == "steal_followers":
            lost = self._lose_followers(target, get("amount") * (2 if self.attack.get("soulspear") else 1), why)
            if lost:
                self._gain_followers(seat, lost, why)
        elif do == "destroy":
            options = self._destroyable(target, get("building"))
            if options:
                self._ask(Destroy(seat, target, tuple(options), why))
        elif do == "move_temple":
            moves = self._moves(target)
            if moves:
                self._ask(Move(seat, target, tuple(moves), why))
        elif do == "discard":
            hand = self.players[target].hand
            gone = [hand.pop(self.rng.below(len(hand))) for _ in range(min(get("count"), len(hand)))]
            self.discard += gone
            self._forget(target, gone)
            self._event("discarded", seat=target, cards=gone, why=why)

    def _who(self, seat: int, who: str) -> list[int]:
        if who == "me":
            return [seat]
        ordered = [(seat + i) % self.num_players for i in range(self.num_players)]
        return ordered if who == "all" else ordered[1:]

    def _step_ask_god_draw(self, seat: int, why: str) -> None:
        gods = [g for g, deck in self.gods.items() if deck]
        if gods:
            self._ask(GodDraw(seat, tuple(gods), why))

    def _step_ask_discard_pick(self, seat: int, kind: str, why: str) -> None:
        # A god weapon goes to the discard pile after it has been played (the rulebook), so
        # the weapon whose option is taking cards cannot take itself back.
        resolving = next((c.id for c in self.config.content.cards.values() for o in c.options if o.id == why), None)
        cards = sorted({c for c in self.discard if (kind == "any" or self.card(c).kind == kind) and c != resolving})
        if cards:
            self._ask(DiscardPick(seat, tuple(cards), why))

    def _step_ask_steal(self, seat: int, target: int, resource: str, why: str) -> None:
        held = self.players[target].resources
        if resource == "any" or resource == "choice":
            options = [name for name in RESOURCES if held[R[name]] > 0]
            if options:
                self._ask(Steal(seat, target, tuple(options), why))
        elif held[R[resource]] > 0:
            self._steal(seat, target, resource, why)

    def _steal(self, seat: int, target: int, resource: str, why: str) -> None:
        self.players[target].resources[R[resource]] -= 1
        self.players[seat].resources[R[resource]] += 1
        self._event("stole", seat=seat, target=target, resource=resource, why=why)

    def _start_free_build(self, seat: int, building: str, discount: int, why: str) -> None:
        self._continue_waive(seat, building, self.cost(building), {}, discount, why)

    def _continue_waive(
        self, seat: int, building: str, cost: dict[str, int], waived: dict[str, int], left: int, why: str
    ) -> None:
        """Waive ``left`` more of a free build's ``cost``: first what the player lacks, then their choice.

        Ruling: while the build waits at its waive decision, a god weapon played there can
        change what it meets (Hammertime's yellow cards convert resources and build): if more
        is lacking than the discount still covers, or the building may no longer go up (its
        area full or locked by another player, no temple figure left, the mine or drill
        limit reached), the free build lapses, and nothing is paid.
        """
        room = self._no_room(seat, building)
        if room is not None:
            self._event("free-build-lapsed", seat=seat, building=building, why=why, reason=room)
            return
        have = self.players[seat].resources
        short = {name: max(0, amount - have[R[name]]) for name, amount in cost.items()}
        lacking = sum(short.values())
        if lacking > left:
            self._event("free-build-lapsed", seat=seat, building=building, why=why, reason="unpaid")
            return
        if lacking:
            waived = dict(waived)
            for name, amount in short.items():
                if amount:
                    waived[name] = waived.get(name, 0) + amount
            cost = {name: amount - short[name] for name, amount in cost.items()}
            left -= lacking
        if left > 0 and any(amount > 0 for amount in cost.values()):
            self._ask(Waive(seat, building, cost, waived, left, why))
            return
        self._build(seat, building, waived, why)

    # Attacks ----------------------------------------------------------------------------------

    def _start_attack(self, seat: int, card_id: str, target: int | None = None) -> None:
        player = self.players[seat]
        player.hand.remove(card_id)
        self._forget(seat, [card_id])
        card = self.card(card_id)
        target = self.current if target is None else target
        power = card.power + self.attack_bonus(seat)
        self.attack = {"attacker": seat, "target": target, "card": card_id, "power": power, "defence": 0, "used": []}
        self._event("attacked", seat=seat, target=target, card=card_id, power=power)
        self._then(("window", "announced"), ("defence",))

    def _step_defence(self) -> None:
        attack = self.attack
        if attack.get("cancelled"):
            attack["resolved"] = True
            return
        target = attack["target"]
        if attack.get("undefendable"):
            self._resolve_attack()
        else:  # asked even without a defence card, for the same reason as the attackers
            self._ask(Defend(target))

    def _defend(self, seat: int, action: ValdaAction) -> None:
        attack = self.attack
        if action.kind == "defend":
            self.players[seat].hand.remove(action.name)
            self._forget(seat, [action.name])
            attack["used"].append(action.name)
            attack["defence"] += self.card(action.name).power + self.defence_bonus(seat)
            self._event("defended", seat=seat, card=action.name, defence=attack["defence"], power=attack["power"])
            if attack["defence"] < attack["power"]:
                self._ask(Defend(seat))
                return
        self._resolve_attack()

    def _resolve_attack(self) -> None:
        attack = self.attack
        target = attack["target"]
        self.discard.append(attack["card"])
        self.discard += attack["used"]
        attack["resolved"] = True
        if attack["defence"] >= attack["power"] and not attack.get("undefendable"):
            self._event("attack-held", attacker=attack["attacker"], target=target, card=attack["card"])
            steps: list[Step] = []
            for used in attack["used"]:
                card = self.card(used)
                steps += [("effect", target, e.do, tuple(sorted(e.params.items())), used, target) for e in card.effects]
            self._then(*steps, ("window", "defended"), ("after_defended",))
        else:
            self._then(("impact",))

    def _step_after_defended(self) -> None:
        attack = self.attack
        if attack.get("again"):  # Surtur's Claim: the same card, on the same player
            card = attack["card"]
            self.discard.remove(card)
            self.players[attack["attacker"]].hand.append(card)
            self._learn(None, attack["attacker"], [card])  # everybody saw it go back, and it is played again
            self._start_attack(attack["attacker"], card, attack["target"])

    def _step_impact(self) -> None:
        attack = self.attack
        card = self.card(attack["card"])
        self._event("attack-through", attacker=attack["attacker"], target=attack["target"], card=card.id)
        steps: list[Step] = [("effect", attack["attacker"], effect.do, tuple(sorted(effect.params.items())), card.id,
                              attack["target"]) for effect in card.effects]  # fmt: skip
        self._then(*steps)

    # God weapons ------------------------------------------------------------------------------

    def weapons_of(self, seat: int) -> dict[str, str]:
        """Option id -> its card id, for every god weapon option ``seat`` holds."""
        found: dict[str, str] = {}
        options = self.config.weapon_options
        for card_id in self.players[seat].hand:
            if card_id in options:
                for option in options[card_id]:
                    found[option] = card_id
        return found

    def _usable_any(self, seat: int) -> list[str]:
        """The weapon options ``seat`` may play at one of its own decisions (window "any", Hammertime)."""
        held = self.weapons_of(seat)
        if not held:  # the common case: no god weapon in hand
            return []
        found: list[str] = []
        for option in ("bullseye", "sound-of-the-gjallarhorn", "deadly-dagger", "thief", "hammertime"):
            if option in held and self._usable_now(option, seat):
                found.append(option)
        return found

    def _usable_now(self, option: str, seat: int) -> bool:
        """Whether an any-time weapon option has something to do now."""
        if option == "bullseye":
            return bool(self.discard)
        if option in ("sound-of-the-gjallarhorn", "deadly-dagger"):
            wanted = "defence" if option == "sound-of-the-gjallarhorn" else "attack"
            return any(self.card(c).kind == wanted for c in self.discard)
        if option == "thief":
            others = (s for s in range(self.num_players) if s != seat)
            return any(self.players[s].hand for s in others) or bool(self._stealable_open(seat))
        return self.phase == "game" and seat == self.current and bool(self._yellow_playable(seat))

    def _stealable_open(self, seat: int) -> list[str]:
        """Open cards Thief may take: another player's, and only while the table can see them."""
        return [] if seat == self.current or self.open_closed else sorted(set(self.open))

    def _yellow_playable(self, seat: int) -> list[str]:
        """Hammertime's choice: the yellow cards of the hand (ruling: not the open cards)."""
        return self._held(seat, "yellow")

    def _window_roles(self, window: str, seat: int) -> list[str]:
        """The weapon options ``seat``'s part in a moment would allow, whatever it holds.

        Every seat with a part is asked (it may pass), not only the holders: asking only
        holders would show the table who holds a god weapon. Options whose card lies in
        the discard pile are out of play for now.
        """
        attack = self.attack
        wanted: list[str] = []
        if window == "rolled":
            wanted = ["crown-of-fortune"]
        elif window == "announced" and attack and not attack.get("cancelled"):
            if seat == attack["attacker"]:
                wanted = ["war-horn", "wrath-of-thor", "soulspear"]
            else:
                redirect = [s for s in range(self.num_players) if s not in (attack["attacker"], attack["target"])]
                wanted = (["vanished"] if redirect else []) + (["tyrs-revenge"] if seat == attack["target"] else [])
        elif window == "defended" and attack:
            if seat == attack["target"]:
                wanted = ["resisted"]
            elif seat == attack["attacker"] and attack["card"] in self.discard:
                # Ruling: Surtur's Claim plays the defended card again from the discard pile;
                # once a weapon took it into a hand or it was shuffled into a new base deck
                # (a defence card's effect, before this moment), there is nothing to claim.
                wanted = ["surturs-claim"]
        elif window == "building" and seat != self.current:
            wanted = ["backstab"]
        discarded = set(self.discard)
        weapon_card = self.config.weapon_cards
        return [option for option in wanted if weapon_card[option] not in discarded]

    def _window_options(self, window: str, seat: int) -> list[str]:
        """What ``seat`` may play in a response window: its part's options that it holds."""
        held = self.weapons_of(seat)
        return [option for option in self._window_roles(window, seat) if option in held]

    def _window_order(self, window: str, arguments: Sequence[Any]) -> Sequence[int]:
        """A window goes round the table from the player whose turn it is."""
        return [(self.current + i) % self.num_players for i in range(self.num_players)]

    def _window_decision(self, window: str, seat: int, arguments: Sequence[Any]) -> Window | None:
        """Every seat with a part in the moment is asked, weapon or not (see :meth:`_window_roles`)."""
        if not self._window_roles(window, seat):
            return None
        return Window(seat, window, tuple(self._window_options(window, seat)), tuple(arguments))

    def _play_weapon(self, seat: int, option: str, decision: ValdaDecision) -> None:
        card_id = self.weapons_of(seat)[option]
        self.players[seat].hand.remove(card_id)
        self._forget(seat, [card_id])
        self.discard.append(card_id)
        self._event("weapon", seat=seat, card=card_id, option=option)
        attack = self.attack
        if not isinstance(decision, Window):  # played at one of its own decisions: that decision comes back
            self._then(("redecide", json.dumps(decision.to_json())))
        if option == "bullseye":
            self._then(("ask_discard_pick", seat, "any", option))
        elif option == "sound-of-the-gjallarhorn":
            self._then(*[("ask_discard_pick", seat, "defence", option)] * 2)
        elif option == "deadly-dagger":
            self._then(*[("ask_discard_pick", seat, "attack", option)] * 2)
        elif option == "thief":
            seats = tuple(s for s in range(self.num_players) if s != seat and self.players[s].hand)
            self._ask(Thief(seat, seats, tuple(self._stealable_open(seat))))
        elif option == "hammertime":
            self._ask(Hammer(seat, tuple(self._yellow_playable(seat))))
        elif option == "crown-of-fortune":
            assert isinstance(decision, Window)
            start = int(decision.args[0])
            self._ask(Face(seat, tuple(range(start, len(self.dice)))))
        elif option == "tyrs-revenge":
            attack["cancelled"] = True
            self.players[seat].hand.append(attack["card"])
            self._learn(None, seat, [attack["card"]])
            self._event("attack-cancelled", seat=seat, card=attack["card"])
        elif option == "vanished":
            seats = tuple(s for s in range(self.num_players) if s not in (attack["attacker"], attack["target"]))
            self._ask(Redirect(seat, seats))
        elif option == "war-horn":
            attack["undefendable"] = True
        elif option == "wrath-of-thor":
            attack["power"] *= 2
            self._event("attack-power", seat=seat, power=attack["power"])
        elif option == "soulspear":
            attack["soulspear"] = True
        elif option == "resisted":
            self._gain_followers(seat, 2, option)
        elif option == "surturs-claim":
            attack["again"] = True
        elif option == "backstab":
            self.backstabbed = True
