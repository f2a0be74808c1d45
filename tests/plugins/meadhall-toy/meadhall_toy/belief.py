"""What one seat's view says about the whole game: worlds consistent with it.

Every rune played is face up (the table and the discard pile), so a seat knows exactly
which runes it has not seen: the full deck less those and its own hand. A world deals
those again at random into the other hands (as many as each holds) and the deck, and
gives the world a generator of its own (future die rolls are unknown too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from meadhall.core.rng import Rng
from meadhall_toy.state import ToyConfig, ToyState, full_deck


class ToyBelief:
    """A sampler of :class:`ToyState` worlds that show one seat exactly its view."""

    def __init__(self, view: Mapping[str, Any], config: ToyConfig) -> None:
        seat = view["seat"]
        self.view = view
        self.config = config
        self.seat: int | None = None if seat is None else int(seat)
        unseen = Counter(full_deck())
        unseen.subtract(int(rune) for rune in view["discard"])
        unseen.subtract(int(entry["rune"]) for entry in view["table"])
        if self.seat is not None:
            unseen.subtract(int(rune) for rune in view["hand"])
        if any(count < 0 for count in unseen.values()):
            raise ValueError("not a Toy Duel view: it shows more runes of a value than the game has")
        self.unseen = sorted(unseen.elements())
        hidden = [int(entry["runes"]) for s, entry in enumerate(view["seats"]) if s != self.seat]
        if sum(hidden) + int(view["deck"]) != len(self.unseen):
            raise ValueError("not a Toy Duel view: its hands and deck do not add up to the runes unseen")

    def sample(self, rng: Rng) -> ToyState:
        """One world: the unseen runes dealt at random; everything the view shows kept as it is."""
        view = self.view
        pool = list(self.unseen)
        rng.shuffle(pool)
        world = ToyState(self.config, 0, Rng(rng.below(1 << 62)))
        for seat, entry in enumerate(view["seats"]):
            if seat == self.seat:
                world.hands[seat] = [int(rune) for rune in view["hand"]]
            else:
                count = int(entry["runes"])
                world.hands[seat] = sorted(pool[:count])
                del pool[:count]
            world.score[seat] = int(entry["score"])
        world.deck = pool
        world.discard = [int(rune) for rune in view["discard"]]
        world.round = int(view["round"])
        world.die = int(view["die"])
        world.stage = view["stage"]
        world.table = [(int(entry["seat"]), int(entry["rune"])) for entry in view["table"]]
        world.passed = [int(seat) for seat in view["passed"]]
        world.waiting = [int(seat) for seat in view["waiting"]]
        return world
