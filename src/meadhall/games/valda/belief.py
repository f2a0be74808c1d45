"""Worlds consistent with a Valda view: how honest bots imagine what they cannot see.

Everything public is copied from the view: boards, resources, followers, temples, locks,
the discard pile, dice, the attack in progress, the decision and what comes next. The
cards a seat cannot see are dealt again at random: the other hands, the order and the
rest of the base deck and of the god decks, closed open cards, and cards another seat is
looking at. Cards the seat knows are in another hand stay there, and cards it saw go
under a deck stay at the bottom of that deck, in their order. A god deck holds only its
god's cards; before its first reshuffle the base deck holds only base cards. The dice to
come are rolled by a fresh random generator.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from meadhall.core.rng import Rng
from meadhall.games.valda.content import RESOURCES
from meadhall.games.valda.state import GOD_CARD_DECISIONS, Player, ValdaConfig, ValdaState


def _step(raw: list[Any]) -> tuple[Any, ...]:
    """A queue step from its view (lists back to the engine's tuples)."""
    if raw[0] == "effect":
        name, seat, do, params, card, target = raw
        return (name, seat, do, tuple(tuple(pair) for pair in params), card, target)
    if raw[0] == "redecide":
        return ("redecide", raw[1])  # a decision, filled in by the sampler
    return tuple(raw)


#: Deals tried before a view is given up on (only a Hammertime choice can turn one down).
_DEALS = 1000


class ValdaBelief:
    """A sampler of full states consistent with one view."""

    def __init__(self, view: Mapping[str, Any], config: ValdaConfig) -> None:
        try:
            self._read(view, config)
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"not a Valda view: {error!r}") from None

    def _read(self, view: Mapping[str, Any], config: ValdaConfig) -> None:
        if view.get("game") != "valda":
            raise ValueError("the view is not of a Valda game")
        self.view = view
        self.config = config
        self.seat: int | None = view["seat"]
        content = config.content
        known: Counter[str] = Counter(view.get("hand", []))
        # cards the seat knows are in other hands (it saw them go in, or looked) stay there
        self.held = [list(cards) for cards in view["known"]]
        for cards in self.held:
            known.update(cards)
        # cards the seat saw go under a deck stay there (None: a card it did not see)
        self.bottoms: dict[str, list[str | None]] = {deck: list(cards) for deck, cards in view["bottoms"].items()}
        for cards in self.bottoms.values():
            known.update(card for card in cards if card is not None)
        known.update(view["discard"])
        if view["open"] is not None:
            known.update(view["open"])
        attack = view["attack"]
        if attack.get("card") and not attack.get("resolved"):
            known.update([attack["card"], *attack["used"]])
        self.decisions = [view["decision"], *[step[1] for step in view["queue"] if step[0] == "redecide"]]
        for decision in self.decisions:  # cards lifted from a deck and looked at (a hammer's are in the hand)
            if decision and decision["kind"] in {*GOD_CARD_DECISIONS, "peek"} and isinstance(decision["cards"], list):
                known.update(decision["cards"])
        everything = Counter(card for god in (None, *content.gods) for card in content.deck(god))
        unknown = everything - known
        if sum(known.values()) + sum(unknown.values()) != sum(everything.values()) or known - everything:
            raise ValueError("the view shows cards the game does not have")
        self.unknown = unknown

    def sample(self, rng: Rng) -> ValdaState:
        """A full state that shows the view's seat exactly its view; the hidden cards at random.

        Another seat choosing a yellow card for Hammertime shows how many different ones its
        hand holds (not which): deals whose hand does not hold that many are dealt again.
        """
        for _ in range(_DEALS):
            state = self._deal(rng)
            if self._shows_its_yellow_count(state):
                return state
        raise ValueError("the view's hidden cards cannot be dealt: no deal shows the Hammertime choice")

    def _deal(self, rng: Rng) -> ValdaState:
        view = self.view
        config = self.config
        content = config.content
        pool = list(self.unknown.elements())
        rng.shuffle(pool)

        def take(count: int, fits: Any) -> list[str]:
            chosen: list[str] = []
            rest: list[str] = []
            for card in pool:
                (chosen if len(chosen) < count and fits(card) else rest).append(card)
            if len(chosen) < count:
                raise ValueError("the view's hidden cards cannot be dealt")
            pool[:] = rest
            return chosen

        def of_god(god: str | None) -> Any:
            return lambda card: content.cards[card].god == god

        state = ValdaState.__new__(ValdaState)
        state.config = config
        state._begin(config.players, config.options, 0)
        state.rng = Rng(rng.below(1 << 62))
        # god-specific places first, then the base deck (base cards only until it is reshuffled), then the rest
        decisions = [json.loads(json.dumps(d)) if d else None for d in self.decisions]
        for decision in decisions:
            if decision and decision["kind"] in GOD_CARD_DECISIONS and isinstance(decision["cards"], int):
                decision["cards"] = take(decision["cards"], of_god(decision["god"]))

        def deck(name: str, size: int, fits: Any) -> list[str]:
            # the known bottom first (its unseen cards dealt like the rest), then the rest on top
            under = [card if card is not None else take(1, fits)[0] for card in self.bottoms.get(name, [])]
            return [*under, *take(size - len(under), fits)]

        state.gods = {god: deck(god, view["god_decks"][god], of_god(god)) for god in content.gods}
        base_fits = of_god(None) if view["reshuffles"] == 0 else (lambda card: True)
        for decision in decisions:
            if decision and decision["kind"] == "peek" and isinstance(decision["cards"], int):
                decision["cards"] = take(decision["cards"], base_fits)
        state.base = deck("base", view["base"], base_fits)
        state.open = list(view["open"]) if view["open"] is not None else take(view["open_count"], lambda card: True)
        state.players = []
        for index, raw in enumerate(view["seats"]):
            if index == self.seat:
                hand = list(view["hand"])
            else:
                hand = [*self.held[index], *take(raw["hand"] - len(self.held[index]), lambda card: True)]
            state.players.append(
                Player([int(raw["resources"][name]) for name in RESOURCES], int(raw["mines"]), int(raw["drills"]),
                       {g: int(n) for g, n in raw["temples"].items()}, int(raw["followers"]), int(raw["floor"]), hand)
            )  # fmt: skip
        for decision in decisions:
            if decision and decision["kind"] == "hammer" and isinstance(decision["cards"], int):
                decision["cards"] = state._yellow_playable(int(decision["seat"]))
        if pool:
            raise ValueError("cards left over: the view does not add up")
        state.discard = list(view["discard"])
        state.sites = {god: list(owners) for god, owners in view["sites"].items()}
        state.locks = {god: int(owner) for god, owner in view["locks"].items()}
        state.round, state.start, state.order, state.turn = (
            view["round"],
            view["start"],
            list(view["order"]),
            view["turn"],
        )
        state.phase, state.actions = view["phase"], view["actions"]
        state.free_yellow, state.builds = view["free_yellow"], view["builds"]
        state.open_closed, state.lent = view["open_closed"], set(view["lent"])
        state.dice = [(str(colour), int(face)) for colour, face in view["dice"]]
        state.attack = json.loads(json.dumps(view["attack"]))
        state.decision = decisions[0]
        redecided = iter(decisions[1:])
        state.queue = [
            ("redecide", json.dumps(next(redecided))) if step[0] == "redecide" else _step(step)
            for step in view["queue"]
        ]
        state.backstabbed, state.reshuffles = view["backstabbed"], view["reshuffles"]
        state.winner, state.finished = view["winner"], view["finished"]
        public_bottoms = view["bottoms_by_all"]
        # the seat's knowledge as its view says; every other seat knows what everybody knows
        public = [list(cards) for cards in view["known_by_all"]]
        state.known = [
            [
                [] if target == slot else list(cards)
                for target, cards in enumerate(self.held if slot == self.seat else public)
            ]
            for slot in range(len(view["seats"]))
        ] + [public]
        state.bottoms = [
            {deck: list(cards) for deck, cards in (view["bottoms"] if slot == self.seat else public_bottoms).items()}
            for slot in range(len(view["seats"]) + 1)
        ]
        state._events = None
        if state.decision and state.decision["kind"] == "window" and state.decision["options"] is None:
            state.decision["options"] = state._window_options(state.decision["window"], state.decision["seat"])
        return state

    def _shows_its_yellow_count(self, state: ValdaState) -> bool:
        """Whether a dealt hand choosing for Hammertime holds as many different yellow cards as the view shows."""
        decision = self.view["decision"]
        if not (decision and decision["kind"] == "hammer" and isinstance(decision["cards"], int)):
            return True
        return len(state._yellow_playable(int(decision["seat"]))) == decision["cards"]
