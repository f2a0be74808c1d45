"""A Valda position's board and the rules every part of a turn shares.

:class:`ValdaBoard` holds the position (seats, decks, god areas, the turn's counters,
the queue and the pending decision) and what the phases, effects and decisions all use:
facts (abilities, costs, the attack order), events, what players know of other hands
and under the decks, followers and safe zones, dice, decks and buildings. The turn's
steps build on it: :mod:`meadhall.games.valda.effects` (card effects, attacks, god
weapons), :mod:`meadhall.games.valda.phases` (rounds, turns, the five phases), and
:class:`meadhall.games.valda.state.ValdaState` (setup, actions, views, copies).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.flow import Decision, FlowState, Step
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.games.valda.content import FACES, Card
from meadhall.games.valda.data import (
    LOCK,
    MAX_DRILLS,
    MAX_MINES,
    RACE_GOAL,
    SAFE_ZONES,
    SITES,
    TEMPLES_PER_PLAYER,
    Player,
    R,
    ValdaConfig,
)
from meadhall.games.valda.decisions import PHASE_DECISIONS, Choose, Keep, LockCard, ValdaDecision
from meadhall.games.valda.notation import DONE, ValdaAction


def _illegal(message: str, rule: str = "illegal") -> IllegalAction:
    return IllegalAction(message, rule=rule)


class ValdaBoard(FlowState[ValdaAction]):
    """A Valda position and the rules its phases, effects and decisions share."""

    config: ValdaConfig
    rng: Rng
    players: list[Player]
    #: known[viewer][target]: cards ``viewer`` knows are in ``target``'s hand (a multiset kept
    #: within the hand); the last slot is what everybody knows, the spectators' view.
    known: list[list[list[str]]]
    #: bottoms[viewer][deck]: the cards ``viewer`` knows lie at the bottom of a deck ("base" or
    #: a god), from the very bottom up; None for a card it did not see go under. Same slots as
    #: ``known``. A deck drawn down to them gives them away: the viewer then knows whose hand
    #: each went to.
    bottoms: list[dict[str, list[str | None]]]
    base: list[str]
    gods: dict[str, list[str]]
    discard: list[str]
    sites: dict[str, list[int]]  # owners of built temples
    locks: dict[str, int]  # god area -> the seat that locked it
    round: int
    start: int
    order: list[int]  # this round's turn order
    turn: int  # index in ``order``
    phase: str
    actions: int
    free_yellow: int
    builds: int
    open: list[str]
    open_closed: bool
    lent: set[str]
    dice: list[tuple[str, int]]  # the last roll: (colour, face index), public
    #: Explicit chance (``explicit_chance``): a roll's faces wait for ``apply_chance``.
    explicit: bool = False
    #: The roll waiting for its faces: (seat, why, start in ``dice``, colours of the dice still to show).
    chance_waiting: tuple[int, str, int, tuple[str, ...]] | None = None
    attack: dict[str, Any]
    decision: ValdaDecision | None
    queue: list[Step]
    backstabbed: bool
    reshuffles: int
    winner: int | None
    finished: bool
    _events: list[Event] | None

    # Facts ------------------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The seat whose turn it is (after the last turn: the last one's)."""
        return self.order[min(self.turn, len(self.order) - 1)]

    def card(self, card_id: str) -> Card:
        """A card of the content."""
        return self.config.content.cards[card_id]

    def temples(self, seat: int, god: str) -> int:
        """Temples ``seat`` has in ``god``'s area."""
        return self.players[seat].temples.get(god, 0)

    def ability(self, seat: int, god: str) -> int:
        """The level of ``seat``'s divine ability of ``god``: 0, 1 or 2 (a lent ability is 1)."""
        level = min(2, self.temples(seat, god))
        if level == 0 and seat == self.current and god in self.lent:
            return 1
        return level

    def scores(self) -> list[int]:
        """Followers of each seat."""
        return [player.followers for player in self.players]

    def ranking(self) -> list[int]:
        """Places (1 = best): most followers, then most buildings (Race to the Gods: the racer first)."""

        def strength(seat: int) -> tuple[int, int, int]:
            player = self.players[seat]
            return (1 if seat == self.winner else 0, player.followers, player.buildings())

        return [1 + sum(strength(other) > strength(seat) for other in range(self.num_players))
                for seat in range(self.num_players)]  # fmt: skip

    def attack_order(self) -> list[int]:
        """The other players by followers (most first), resources, then seat order from the active one's left."""
        active = self.current
        others = [(active + i) % self.num_players for i in range(1, self.num_players)]
        return sorted(others, key=lambda s: (-self.players[s].followers, -sum(self.players[s].resources),
                                             others.index(s)))  # fmt: skip

    def attacks_allowed(self, seat: int) -> int:
        """Surtur (one temple, two or three players): two attacks; otherwise one."""
        return 2 if self.num_players <= 3 and self.ability(seat, "surtur") >= 1 else 1

    def attack_bonus(self, seat: int) -> int:
        """Surtur's +power on each attack card of ``seat``."""
        level = self.ability(seat, "surtur")
        if self.num_players <= 3:
            return 1 if level >= 2 else 0
        return level

    def defence_bonus(self, seat: int) -> int:
        """Tyr's +power on each defence card of ``seat``."""
        return self.ability(seat, "tyr")

    def _held(self, seat: int, kind: str) -> list[str]:
        """The different cards of ``kind`` in ``seat``'s hand, sorted."""
        kinds = self.config.kinds
        return sorted({c for c in self.players[seat].hand if kinds[c] == kind})

    # Events -----------------------------------------------------------------------------------

    def _event(self, kind: str, audience: frozenset[int] | None = None, **data: Any) -> None:
        if self._events is not None:
            self._events.append(Event(kind, data, audience))

    # What players know of other hands and under the decks -------------------------------------

    def _learn(self, viewers: Iterable[int] | None, target: int, cards: Iterable[str]) -> None:
        """``viewers`` (None: everybody) now know ``cards`` are in ``target``'s hand."""
        slots = range(len(self.known)) if viewers is None else viewers
        seen = Counter(cards)
        for slot in slots:
            if slot == target:
                continue
            mine = Counter(self.known[slot][target])
            self.known[slot][target] = sorted((mine | seen).elements())

    def _forget(self, target: int, cards: Iterable[str], witnesses: Iterable[int] | None = None) -> None:
        """``cards`` left ``target``'s hand: the ``witnesses`` (None: everybody) strike them out.

        Everybody else loses what they knew of the hand, since they cannot tell which went.
        """
        gone = list(cards)
        slots = set(range(len(self.known)) if witnesses is None else witnesses)
        for slot, about in enumerate(self.known):
            if slot in slots:
                for card in gone:
                    if card in about[target]:
                        about[target].remove(card)
            else:
                about[target] = []

    def _to_bottom(self, deck: str, cards: list[str], knowers: Iterable[int] | None) -> None:
        """``cards`` went under ``deck`` (``cards[0]`` at the very bottom), seen by ``knowers`` (None: all)."""
        seen = None if knowers is None else set(knowers)
        for slot, decks in enumerate(self.bottoms):
            known = decks.setdefault(deck, [])
            known[0:0] = cards if seen is None or slot in seen else [None] * len(cards)

    def _from_top(self, deck: str, size: int, count: int, to_hand: int | None) -> None:
        """``count`` cards leave the top of ``deck`` (``size`` cards before), to ``to_hand``'s hand if any.

        A viewer that knew some of them (they were the bottom cards it saw go under) now
        knows they are in that hand; where they go otherwise (the open cards, a look at a
        deck that may put one back), it stops following them.
        """
        left = size - count
        for slot, decks in enumerate(self.bottoms):
            known = decks.get(deck)
            if not known or len(known) <= left:
                continue
            leaving = [card for card in known[left:] if card is not None]
            del known[left:]
            if not known:
                del decks[deck]
            if to_hand is not None and leaving:
                self._learn((slot,), to_hand, leaving)

    def bottoms_view(self, seat: int | None) -> dict[str, list[str | None]]:
        """What ``seat`` (None: everybody) knows lies at the bottom of each deck, from the bottom up."""
        slot = self.num_players if seat is None else seat
        return {deck: list(cards) for deck, cards in sorted(self.bottoms[slot].items())}

    def known_view(self, seat: int | None) -> list[list[str]]:
        """What ``seat`` (None: everybody) knows is in each other hand."""
        slot = self.num_players if seat is None else seat
        return [[] if target == seat else list(cards) for target, cards in enumerate(self.known[slot])]

    # Followers, safe zones and the end --------------------------------------------------------

    def _gain_followers(self, seat: int, amount: int, why: str, paid: Mapping[str, int] | None = None) -> None:
        """``seat`` gains followers (``paid``: the resources converted into them, for the log).

        Nothing changes once the game is over (a race won by the first of several gains).
        """
        if self.finished:
            return
        player = self.players[seat]
        player.followers += amount
        for zone in SAFE_ZONES:
            if player.followers >= zone:
                player.floor = max(player.floor, zone)
        if paid:
            self._event("followers", seat=seat, change=amount, total=player.followers, why=why, paid=dict(paid))
        else:
            self._event("followers", seat=seat, change=amount, total=player.followers, why=why)
        if self.config.race and player.followers >= RACE_GOAL and self.winner is None:
            self.winner = seat
            self._end("race")

    def _lose_followers(self, seat: int, amount: int, why: str) -> int:
        """Take up to ``amount`` followers, never below the safe zone reached; returns how many went."""
        if self.finished:
            return 0
        player = self.players[seat]
        lost = max(0, min(amount, player.followers - player.floor))
        player.followers -= lost
        self._event("followers", seat=seat, change=-lost, total=player.followers, why=why, shielded=amount - lost)
        return lost

    def _end(self, why: str) -> None:
        self.finished = True
        self.decision = None
        self.queue.clear()
        self.phase = "over"
        self._event("game-over", why=why, followers=self.scores(), places=self.ranking())

    # Asking -----------------------------------------------------------------------------------

    def _ask_unless_only_done(self, seat: int, kind: str) -> None:
        """Open a decision, unless everyone can see that its only choice would be ``done``.

        Only what the table can see decides it (a god weapon in the hand, or yellow cards
        with free plays left, keep the decision open whatever the hand holds), so that a
        skipped decision never tells the others what a hand holds.
        """
        decision: Decision = PHASE_DECISIONS[kind](seat)
        self._ask(decision)
        if self.decision is None:  # the game is over
            return
        # The weapons a hand may play at any time are not public, so they are left out.
        listed: list[ValdaAction] = decision.actions(self, seat)
        public = [a for a in listed if a.kind not in ("play", "use")]
        if public == [DONE] and not (kind == "game" and self.free_yellow > 0):
            self.decision = None
            if kind == "game":
                self._then(("hand_limit",))

    # Dice -------------------------------------------------------------------------------------

    def _roll(self, seat: int, dice: list[tuple[str, int]], why: str) -> None:
        """Roll dice for ``seat``; a window for Crown of Fortune, then what they show counts."""
        start = len(self.dice)
        for colour, count in dice:
            for _ in range(count):
                self.dice.append((colour, self.rng.below(FACES)))
        if len(self.dice) == start:
            return
        self._then(("window", "rolled", start), ("dice_outcome", seat, start, why))
        if self.explicit:
            # The generator was drawn from as in normal play; the faces come from apply_chance, one die at a time.
            self.chance_waiting = (seat, why, start, tuple(colour for colour, _ in self.dice[start:]))
            del self.dice[start:]
            return
        self._rolled(seat, start, why)

    def _rolled(self, seat: int, start: int, why: str) -> None:
        """The table sees the roll's faces."""
        self._event("rolled", seat=seat, dice=[[colour, face] for colour, face in self.dice[start:]], why=why)

    def _step_dice_outcome(self, seat: int, start: int, why: str) -> None:
        player = self.players[seat]
        choices = 0
        for colour, face in self.dice[start:]:
            shown = self.config.content.dice[colour][face]
            if colour == "white":
                if shown.followers > 0:
                    self._gain_followers(seat, shown.followers, why)
                elif shown.followers < 0:
                    self._lose_followers(seat, -shown.followers, why)
                continue
            for name, amount in shown.resources.items():
                if name == "choice":
                    choices += amount
                else:
                    player.resources[R[name]] += amount
                    self._event("gained", seat=seat, resource=name, amount=amount, why=why)
        self._then(*[("choose", seat, f"{why}: a face of choice") for _ in range(choices)])

    def _step_choose(self, seat: int, why: str) -> None:
        self._ask(Choose(seat, why))

    # Decks ------------------------------------------------------------------------------------

    def _refill_base(self) -> bool:
        """Make sure the base deck has a card: the discard pile is shuffled into it (ruling)."""
        if not self.base and self.discard:
            for decks in self.bottoms:  # nothing is left under an empty deck
                decks.pop("base", None)
            self.base = self.discard
            self.discard = []
            self.rng.shuffle(self.base)
            self.reshuffles += 1
            self._event("reshuffled", cards=len(self.base))
        return bool(self.base)

    def _draw_base(self, to_hand: int | None = None) -> str | None:
        """The top card of the base deck (to ``to_hand``'s hand, if a hand), refilled first if empty."""
        if not self._refill_base():
            return None
        self._from_top("base", len(self.base), 1, to_hand)
        return self.base.pop()

    def _look_at_god_cards(self, seat: int, god: str, kind: str, why: str, card: str | None = None) -> None:
        """``seat`` takes a card from ``god``'s deck: it looks at the top two and decides which.

        "When taking a card from the God decks, you look at the top two cards and choose
        one. You put the other card to the bottom of the pile." Ruling: every draw from a
        god deck (a temple's, a locked area's, a card's). The cards are lifted into the
        decision (``kind``: ``keep`` for the hand, ``lock-card`` for the open cards),
        seen by ``seat`` alone; the table learns how many. ``card``: the card that draws, if
        one does (the decision names it). With one card left there is nothing to choose:
        it is taken at once.
        """
        deck = self.gods[god]
        if len(deck) == 1:
            if kind == "keep":
                self._from_top(god, 1, 1, seat)
                taken = deck.pop()
                self.players[seat].hand.append(taken)
                self._event("drew", frozenset({seat}), seat=seat, cards=[taken], why=why)
                self._event("drew-count", seat=seat, count=1, why=why)
            else:  # shown with the other open cards once they are all turned up
                self._from_top(god, 1, 1, None)
                self.open.append(deck.pop())
            return
        looked = deck[-2:][::-1]
        self._from_top(god, len(deck), len(looked), None)
        del deck[-len(looked) :]
        self._event("looked", frozenset({seat}), seat=seat, god=god, cards=looked, why=why)
        self._event("god-cards", seat=seat, god=god, count=len(looked), why=why)
        self._ask((Keep if kind == "keep" else LockCard)(seat, god, tuple(looked), card))

    # Buildings --------------------------------------------------------------------------------

    def can_build_temple(self, seat: int, god: str) -> bool:
        """A free site in ``god``'s area, not locked by another player, and a temple figure left."""
        return self._no_room(seat, god) is None

    def _no_room(self, seat: int, building: str) -> str | None:
        """Why ``building`` cannot go up for ``seat`` whatever it costs, or ``None`` if it can."""
        player = self.players[seat]
        if building == "mine":
            return None if player.mines < MAX_MINES else "limit"
        if building == "drill":
            return None if player.drills < MAX_DRILLS else "limit"
        if len(self.sites[building]) >= SITES:
            return "full"
        if self.locks.get(building, seat) != seat:
            return "locked"
        if sum(player.temples.values()) >= TEMPLES_PER_PLAYER:
            return "no-temples"
        return None

    def cost(self, building: str) -> dict[str, int]:
        """What a building costs: ``mine``, ``drill`` or a god (a temple)."""
        content = self.config.content
        return (
            dict(content.buildings[building])
            if building in content.buildings
            else dict(content.gods[building].temple_cost)
        )

    def buildable(self, seat: int, discount: int = 0, kind: str = "any") -> list[str]:
        """What ``seat`` may build now: ``mine``, ``drill`` and gods."""
        player = self.players[seat]
        have = player.resources
        needs = self.config.needs  # the same costs as cost(), as vectors: this runs at every build decision

        def short(name: str) -> int:
            return sum(need - own for need, own in zip(needs[name], have, strict=True) if need > own)

        found = []
        if kind in ("any", "mine") and player.mines < MAX_MINES and short("mine") <= discount:
            found.append("mine")
        if kind in ("any", "drill") and player.drills < MAX_DRILLS and short("drill") <= discount:
            found.append("drill")
        if kind in ("any", "temple"):
            found += [god for god in self.config.content.gods
                      if self.can_build_temple(seat, god) and short(god) <= discount]  # fmt: skip
        return found

    def _pay(self, seat: int, cost: Mapping[str, int], waived: Mapping[str, int]) -> dict[str, int]:
        """Take ``cost`` less ``waived`` from the seat's resources; what was paid."""
        player = self.players[seat]
        paid: dict[str, int] = {}
        for name, amount in cost.items():
            pay = max(0, amount - waived.get(name, 0))
            if player.resources[R[name]] < pay:
                raise _illegal(f"you cannot pay {amount} {name}", "cost")
            player.resources[R[name]] -= pay
            if pay:
                paid[name] = pay
        return paid

    def _build(self, seat: int, building: str, waived: Mapping[str, int], why: str) -> None:
        paid = self._pay(seat, self.cost(building), waived)
        player = self.players[seat]
        if building == "mine":
            player.mines += 1
        elif building == "drill":
            player.drills += 1
        else:
            god = building
            player.temples[god] = player.temples.get(god, 0) + 1
            self.sites[god].append(seat)
        self._event("built", seat=seat, building=building, paid=paid, why=why)
        if building in self.config.content.gods:
            self._then(("temple_rewards", seat, building))

    def _unlock_if_broken(self, god: str) -> None:
        owner = self.locks.get(god)
        if owner is not None and self.temples(owner, god) < LOCK:
            del self.locks[god]
            self._event("unlocked", god=god)

    def _destroyable(self, target: int, building: str) -> list[str]:
        player = self.players[target]
        found = []
        if building in ("mine", "any") and player.mines > 0:
            found.append("mine")
        if building in ("drill", "any") and player.drills > 0:
            found.append("drill")
        if building in ("temple", "any"):
            found += [god for god, count in sorted(player.temples.items()) if count > 0]
        return found

    def _moves(self, target: int) -> list[tuple[str, str]]:
        sources = [god for god, count in sorted(self.players[target].temples.items()) if count > 0]
        return [
            (source, dest)
            for source in sources
            for dest in self.config.content.gods
            if dest != source and len(self.sites[dest]) < SITES and self.locks.get(dest, target) == target
        ]

    def _destroy(self, target: int, building: str, why: str) -> None:
        player = self.players[target]
        if building == "mine":
            player.mines -= 1
        elif building == "drill":
            player.drills -= 1
        else:
            player.temples[building] -= 1
            self.sites[building].remove(target)
            self._unlock_if_broken(building)
        self._event("destroyed", target=target, building=building, why=why)

    def _move_temple(self, target: int, source: str, dest: str, why: str) -> None:
        player = self.players[target]
        player.temples[source] -= 1
        self.sites[source].remove(target)
        self._unlock_if_broken(source)
        player.temples[dest] = player.temples.get(dest, 0) + 1
        self.sites[dest].append(target)
        self._event("moved-temple", target=target, source=source, dest=dest, why=why)
        if player.temples[dest] >= LOCK and dest not in self.locks:
            # Ruling: a moved temple that makes three locks the area, with its free follower.
            self.locks[dest] = target
            self._event("locked", seat=target, god=dest)
            self._gain_followers(target, 1, f"locking {dest}'s area")
