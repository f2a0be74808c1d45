"""The Valda rules engine: setup, the five phases, rounds and the end.

Rules: ``docs/rules/valda.md``, the rulebook as meadhall plays it, with the rulings that
settle what it leaves open and those meadhall adds where both are silent (named in the
code where they apply). What is here: setup with the starting resources by seat and
both variants, the resource phase (dice, 4:1 trades, Heimdall's ability), the game phase
(open cards, three actions, every yellow-card effect, Freya's buying and closed cards,
the hand limit), the building phase (mines, blood drills, temples, god cards, territory
lock), the attack phase (order, attacks and defences, Surtur's and Tyr's modifiers,
every impact), the followers phase (Thor, Odin, Loki), safe zones, six rounds, the end
and Race to the Gods, the seven god weapons with their response windows, and each
seat's view.

The state is a queue of steps: a step may open a decision (``self.decision``: who must
choose, and what); applying an action settles that decision, and the queue runs on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event, GameState
from meadhall.core.rng import Rng
from meadhall.games.valda.content import RESOURCES, Card, Content, Effect
from meadhall.games.valda.notation import CONVERT, DONE, DRAW, PASS, YIELD, ValdaAction

ROUNDS = 6
#: Race to the Gods: rounds go on past the sixth until a player reaches RACE_GOAL followers,
#: and the game ends after this round at the latest (ruling: a cap that guarantees an end).
RACE_ROUNDS = 20
HAND_LIMIT = 10
SITES = 5  # construction sites per god area
TEMPLES_PER_PLAYER = 9
LOCK = 3  # temples of one player that lock a god area
MAX_MINES = 4  # ruling: one yellow die per mine, and there are four yellow dice
MAX_DRILLS = 3  # ruling: one blue die per blood drill, and there are three blue dice
SAFE_ZONES = (5, 12, 20)
RACE_GOAL = 20
ACTIONS = 3
BUILDS = 2
START_HAND = 6
#: Thor's and Odin's conversions: action -> (god, temples needed, resources paid, followers, uses per phase).
CONVERSIONS: dict[str, tuple[str, int, int, int, int]] = {
    "thor": ("thor", 1, 3, 1, 3),
    "thor2": ("thor", 2, 2, 1, 3),
    "odin": ("odin", 1, 2, 1, 3),
    "odin2": ("odin", 2, 3, 2, 2),
}

R = {name: index for index, name in enumerate(RESOURCES)}  # drop, gold, diamond -> 0, 1, 2
#: Decisions holding the god cards a seat lifted from a god deck to look at: the kept one goes
#: into the hand (``keep``) or among the open cards (``lock-card``), the other under the deck.
GOD_CARD_DECISIONS = frozenset({"keep", "lock-card"})
#: Decisions a god weapon started, or that offer weapons themselves: no other weapon then.
_WEAPON_DECISIONS = frozenset({"window", "thief", "hammer", "face", "redirect"})
#: Decisions offered whether or not the seat holds a card to answer with (their timing must not tell).
_RESPONSE_DECISIONS = frozenset({"window", "attack", "defend"})


def _illegal(message: str, rule: str = "illegal") -> IllegalAction:
    return IllegalAction(message, rule=rule)


@dataclass
class Player:
    """One seat's board: resources, buildings, temples, followers and hand."""

    resources: list[int]
    mines: int = 2
    drills: int = 0
    temples: dict[str, int] = field(default_factory=dict)
    followers: int = 0
    floor: int = 0  # the highest safe zone reached: followers never drop below it
    hand: list[str] = field(default_factory=list)

    def copy(self) -> Player:
        """An independent copy."""
        return Player(self.resources[:], self.mines, self.drills, dict(self.temples), self.followers, self.floor,
                      self.hand[:])  # fmt: skip

    def buildings(self) -> int:
        """Mines, blood drills and temples: the tie-break at the end."""
        return self.mines + self.drills + sum(self.temples.values())

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (tuple(self.resources), self.mines, self.drills, tuple(sorted(self.temples.items())), self.followers,
                self.floor, tuple(self.hand))  # fmt: skip


@dataclass(frozen=True)
class ValdaConfig:
    """What a game is played with."""

    content: Content
    players: int
    turnaround: bool = False
    race: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Each god weapon option's card (from the content).
    weapon_cards: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: Each god weapon card's options, in the order the card prints them.
    weapon_options: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: Each card's kind (yellow, attack, defence, weapon, ...): looked up on every decision.
    kinds: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: Each building's cost as resources in ``RESOURCES`` order: ``mine``, ``drill``, then the gods' temples.
    needs: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    @property
    def last_round(self) -> int:
        """The round after which the game ends at the latest: the sixth, or Race to the Gods' cap."""
        return RACE_ROUNDS if self.race else ROUNDS

    def __post_init__(self) -> None:
        cards = self.content.cards.values()
        object.__setattr__(self, "weapon_cards", {o.id: c.id for c in cards for o in c.options})
        options = {c.id: tuple(o.id for o in c.options) for c in cards if c.kind == "weapon"}
        object.__setattr__(self, "weapon_options", options)
        object.__setattr__(self, "kinds", {c.id: c.kind for c in cards})
        costs = {**self.content.buildings, **{god: g.temple_cost for god, g in self.content.gods.items()}}
        needs = {name: tuple(cost.get(r, 0) for r in RESOURCES) for name, cost in costs.items()}
        object.__setattr__(self, "needs", needs)


#: A step of the queue: its name and its (plain, copyable) arguments.
Step = tuple[Any, ...]


class ValdaState(GameState[ValdaAction]):
    """A Valda position. Build one with :meth:`new` (or ``ValdaGame.new_game``)."""

    #: Events that show what nobody (or not this seat) knew: cards drawn, opened or looked at,
    #: cards taken or discarded at random, and dice (chance: the generator's state is hidden).
    revealing_events = frozenset(
        {
            "opened", "looked", "peeked", "looked-at-hand", "stole-cards", "drew", "rolled", "discarded",
            "reshuffled", "switched",  # a switch turns the top card of the base deck face up
        }
    )  # fmt: skip

    def __init__(self, config: ValdaConfig, seed: int) -> None:
        self.config = config
        self._begin(config.players, config.options, seed)
        self.rng = Rng(seed)
        self.players = [Player([0, 0, 0]) for _ in range(config.players)]
        # known[viewer][target]: cards ``viewer`` knows are in ``target``'s hand (a multiset
        # kept within the hand); the last slot is what everybody knows, the spectators' view.
        self.known: list[list[list[str]]] = [[[] for _ in range(config.players)] for _ in range(config.players + 1)]
        # bottoms[viewer][deck]: the cards ``viewer`` knows lie at the bottom of a deck
        # ("base" or a god), from the very bottom up; None for a card it did not see go
        # under. Same slots as ``known``. A deck drawn down to them gives them away: the
        # viewer then knows whose hand each went to.
        self.bottoms: list[dict[str, list[str | None]]] = [{} for _ in range(config.players + 1)]
        self.base: list[str] = []
        self.gods: dict[str, list[str]] = {}
        self.discard: list[str] = []
        self.sites: dict[str, list[int]] = {god: [] for god in config.content.gods}  # owners of built temples
        self.locks: dict[str, int] = {}  # god area -> the seat that locked it
        self.round = 1
        self.start = 0
        self.order: list[int] = []  # this round's turn order
        self.turn = 0  # index in ``order``
        self.phase = "setup"
        self.actions = 0
        self.free_yellow = 0
        self.builds = 0
        self.open: list[str] = []
        self.open_closed = False
        self.lent: set[str] = set()
        self.dice: list[tuple[str, int]] = []  # the last roll: (colour, face index), public
        self.attack: dict[str, Any] = {}
        self.decision: dict[str, Any] | None = None
        self.queue: list[Step] = []
        self.backstabbed = False
        self.reshuffles = 0
        self.winner: int | None = None
        self.finished = False
        self._events: list[Event] | None = None

    # Setting up ---------------------------------------------------------------------------------

    @classmethod
    def new(cls, config: ValdaConfig, seed: int) -> ValdaState:
        """Deal a new game: decks, hands, starting resources, the start player."""
        state = cls(config, seed)
        content = config.content
        state.base = content.deck(None)
        state.rng.shuffle(state.base)
        for god in content.gods:
            deck = content.deck(god)
            state.rng.shuffle(deck)
            state.gods[god] = deck
        for player in state.players:
            player.hand = [state.base.pop() for _ in range(START_HAND)]
        if config.turnaround:  # the player with the highest roll begins (ties roll again)
            rolling = list(range(config.players))
            while len(rolling) > 1:
                rolls = {seat: state.rng.below(6) + 1 for seat in rolling}
                best = max(rolls.values())
                rolling = [seat for seat in rolling if rolls[seat] == best]
            state.start = rolling[0]
        for place in range(config.players):
            seat = (state.start + place) % config.players
            given = content.starting_resources[config.players][place]
            state.players[seat].resources = [given.get(name, 0) for name in RESOURCES]
        state._begin_round()
        state._run()
        return state

    # Facts --------------------------------------------------------------------------------------

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

    def to_move(self) -> tuple[int, ...]:
        """The seat that must decide now (one at a time in Valda)."""
        if self.finished or self.decision is None:
            return ()
        return (int(self.decision["seat"]),)

    def response_window(self, seat: int) -> bool:
        """Attacks, defences and god-weapon windows are offered to a seat whether or not it holds one."""
        decision = self.decision
        return (
            not self.finished
            and decision is not None
            and decision["seat"] == seat
            and decision["kind"] in _RESPONSE_DECISIONS
        )

    def is_terminal(self) -> bool:
        """The game is over."""
        return self.finished

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

    # Events --------------------------------------------------------------------------------------

    def _event(self, kind: str, audience: frozenset[int] | None = None, **data: Any) -> None:
        if self._events is not None:
            self._events.append(Event(kind, data, audience))

    # What players know of other hands ---------------------------------------------------------

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

    # Followers and safe zones ------------------------------------------------------------------

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

    # The queue -----------------------------------------------------------------------------------

    def _then(self, *steps: Step) -> None:
        """Put steps at the front of the queue, in this order (none once the game is over)."""
        if not self.finished:
            self.queue[0:0] = list(steps)

    def _ask(self, seat: int, kind: str, **data: Any) -> None:
        if not self.finished:
            self.decision = {"seat": seat, "kind": kind, **data}

    def _run(self) -> None:
        while self.decision is None and self.queue and not self.finished:
            name, *args = self.queue.pop(0)
            getattr(self, f"_step_{name}")(*args)

    def _end(self, why: str) -> None:
        self.finished = True
        self.decision = None
        self.queue.clear()
        self.phase = "over"
        self._event("game-over", why=why, followers=self.scores(), places=self.ranking())

    # Rounds and turns ----------------------------------------------------------------------------

    def _begin_round(self) -> None:
        n = self.num_players
        if self.config.turnaround and self.round == self.config.last_round:
            # The last round begins with the player on the start player's right and goes
            # counter-clockwise, ending with the start player (with Race to the Gods, the
            # last round there can be).
            self.order = [(self.start - 1 - i) % n for i in range(n)]
        else:
            self.order = [(self.start + i) % n for i in range(n)]
        self.turn = 0
        self._event("round", round=self.round, order=list(self.order), last_round=self.config.last_round,
                    race=self.config.race)  # fmt: skip
        self.queue.append(("turn",))

    def _step_turn(self) -> None:
        self.actions = ACTIONS
        self.free_yellow = 0
        self.builds = BUILDS
        self.lent = set()
        self.attack = {}
        self._event("turn", seat=self.current, round=self.round)
        self._then(("resource_phase",), ("game_phase",), ("build_phase",), ("attack_phase",), ("followers_phase",),
                   ("end_turn",))  # fmt: skip

    def _step_end_turn(self) -> None:
        self.turn += 1
        if self.turn < len(self.order):
            self.queue.append(("turn",))
            return
        if self.round == self.config.last_round:
            self._end("round limit" if self.config.race else "six rounds")
            return
        self.round += 1
        self._begin_round()

    # 1. Resource phase ---------------------------------------------------------------------------

    def _step_resource_phase(self) -> None:
        self.phase = "resources"
        seat = self.current
        player = self.players[seat]
        self.dice = []
        self._then(("resource_actions",))
        self._roll(seat, [("yellow", min(player.mines, MAX_MINES)), ("blue", min(player.drills, MAX_DRILLS))], "dice")

    def _roll(self, seat: int, dice: list[tuple[str, int]], why: str) -> None:
        """Roll dice for ``seat``; a window for Crown of Fortune, then what they show counts."""
        start = len(self.dice)
        for colour, count in dice:
            for _ in range(count):
                self.dice.append((colour, self.rng.below(6)))
        if len(self.dice) == start:
            return
        self._event("rolled", seat=seat, dice=[[colour, face] for colour, face in self.dice[start:]], why=why)
        self._then(("window", "rolled", start), ("dice_outcome", seat, start, why))

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
        self._ask(seat, "choose", why=why)

    def _step_resource_actions(self) -> None:
        self._ask_unless_only_done(self.current, "resources")

    def _ask_unless_only_done(self, seat: int, kind: str) -> None:
        """Open a decision, unless everyone can see that its only choice would be ``done``.

        Only what the table can see decides it (a god weapon in the hand, or yellow cards
        with free plays left, keep the decision open whatever the hand holds), so that a
        skipped decision never tells the others what a hand holds.
        """
        self._ask(seat, kind)
        if self.decision is None:  # the game is over
            return
        # The weapons a hand may play at any time are not public, so they are left out.
        public = [a for a in self._decision_actions(seat, self.decision) if a.kind not in ("play", "use")]
        if public == [DONE] and not (kind == "game" and self.free_yellow > 0):
            self.decision = None
            if kind == "game":
                self._then(("hand_limit",))

    # 2. Game phase -------------------------------------------------------------------------------

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

    def _step_game_phase(self) -> None:
        self.phase = "game"
        seat = self.current
        count = 3 if self.ability(seat, "freya") >= 2 else 2
        self.open = []
        self.open_closed = self.ability(seat, "freya") >= 1
        # Ruling: each god area this player has locked puts one card of its god deck among
        # the open cards, in place of a base card: the player looks at the top two cards
        # of that deck and chooses it (as for every draw from a god deck).
        locked = sorted(g for g, owner in self.locks.items() if owner == seat)
        self._then(*[("lock_card", god, count) for god in locked], ("open_cards", count), ("game_actions",))

    def _step_lock_card(self, god: str, count: int) -> None:
        if len(self.open) < count and self.gods[god]:
            self._look_at_god_cards(self.current, god, "lock-card", f"{god}'s locked area")

    def _step_open_cards(self, count: int) -> None:
        """The base cards that complete the open cards; then everyone who may sees them."""
        seat = self.current
        while len(self.open) < count:
            card = self._draw_base()
            if card is None:
                break
            self.open.append(card)
        audience = frozenset({seat}) if self.open_closed else None
        self._event("opened", audience, seat=seat, cards=list(self.open))
        if self.open_closed:
            self._event("opened-closed", seat=seat, count=len(self.open))

    def _step_game_actions(self) -> None:
        self._ask_unless_only_done(self.current, "game")

    def _step_hand_limit(self) -> None:
        seat = self.current
        if self.open:
            self.discard += self.open
            self._event("discarded", seat=seat, cards=list(self.open), why="open cards left")
        self.open = []
        if len(self.players[seat].hand) > HAND_LIMIT:
            self._ask(seat, "hand-limit")

    # 3. Building phase ---------------------------------------------------------------------------

    def _step_build_phase(self) -> None:
        self.phase = "building"
        self._ask_unless_only_done(self.current, "build")

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

    def _step_do_build(self, seat: int, building: str) -> None:
        if self.backstabbed:
            self.backstabbed = False
            self._event("build-negated", seat=seat, building=building)
            return
        self._build(seat, building, {}, "building phase")

    def _step_temple_rewards(self, seat: int, god: str) -> None:
        self._gain_followers(seat, 1, f"a temple of {god}")
        if self.finished:
            return
        if self.temples(seat, god) >= LOCK and god not in self.locks:
            self.locks[god] = seat
            self._event("locked", seat=seat, god=god)
            self._gain_followers(seat, 1, f"locking {god}'s area")
            if self.finished:
                return
        if self.gods[god]:
            self._look_at_god_cards(seat, god, "keep", f"a temple of {god}")

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
        if card is None:
            self._ask(seat, kind, god=god, cards=looked)
        else:
            self._ask(seat, kind, god=god, cards=looked, why=card)

    def _unlock_if_broken(self, god: str) -> None:
        owner = self.locks.get(god)
        if owner is not None and self.temples(owner, god) < LOCK:
            del self.locks[god]
            self._event("unlocked", god=god)

    # 4. Attack phase -----------------------------------------------------------------------------

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

    def _step_attack_phase(self) -> None:
        self.phase = "attack"
        steps: list[Step] = [("attacker", a) for a in self.attack_order() for _ in range(self.attacks_allowed(a))]
        self._then(*steps, ("attack_done",))

    def _step_attacker(self, seat: int) -> None:
        # Asked even without an attack card (it passes): skipping would show its hand holds none.
        self._ask(seat, "attack", target=self.current)

    def _step_attack_done(self) -> None:
        self.attack = {}

    def _step_impact(self) -> None:
        attack = self.attack
        card = self.card(attack["card"])
        self._event("attack-through", attacker=attack["attacker"], target=attack["target"], card=card.id)
        steps: list[Step] = [("effect", attack["attacker"], effect.do, tuple(sorted(effect.params.items())), card.id,
                              attack["target"]) for effect in card.effects]  # fmt: skip
        self._then(*steps)

    # 5. Followers phase --------------------------------------------------------------------------

    def _step_followers_phase(self) -> None:
        self.phase = "followers"
        self.attack = {"uses": {}, "loki": False}
        self._ask_unless_only_done(self.current, "followers")

    # Effects --------------------------------------------------------------------------------------

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
                self._ask(seat, "free-build", discount=get("discount"), building=get("building"), why=why)
        elif do == "convert":
            if player.resources[R[get("give")]] >= get("amount"):
                self._ask(seat, "convert", give=get("give"), amount=get("amount"), followers=get("followers"),
                          left=get("times"), why=why)  # fmt: skip
        elif do == "look":
            others = [s for s in range(self.num_players) if s != seat]
            self._ask(seat, "look", seats=others, count=get("count"), why=why)
        elif do == "peek_take":
            if self._refill_base():  # with no card left anywhere, there is nothing to look at
                peeked = self.base[-get("count") :][::-1]
                self._from_top("base", len(self.base), len(peeked), None)
                del self.base[-len(peeked) :]
                self._event("peeked", frozenset({seat}), seat=seat, cards=peeked, why=why)
                self._ask(seat, "peek", cards=peeked, why=why)
        elif do == "switch_open":
            if self.open and self._refill_base():
                self._ask(seat, "switch", why=why)
        elif do == "play_yellow":
            self.free_yellow += get("count")
        elif do == "lend":
            gods = [g for g in self.config.content.gods if self.temples(seat, g) == 0 and g not in self.lent]
            if gods:
                self._ask(seat, "lend", gods=gods, why=why)
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
                self._ask(seat, "destroy", target=target, options=options, why=why)
        elif do == "move_temple":
            moves = self._moves(target)
            if moves:
                self._ask(seat, "move", target=target, moves=[[a, b] for a, b in moves], why=why)
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
            self._ask(seat, "god-draw", gods=gods, why=why)

    def _step_ask_discard_pick(self, seat: int, kind: str, why: str) -> None:
        # A god weapon goes to the discard pile after it has been played (the rulebook), so
        # the weapon whose option is taking cards cannot take itself back.
        resolving = next((c.id for c in self.config.content.cards.values() for o in c.options if o.id == why), None)
        cards = sorted({c for c in self.discard if (kind == "any" or self.card(c).kind == kind) and c != resolving})
        if cards:
            self._ask(seat, "discard-pick", cards=cards, why=why)

    def _step_ask_steal(self, seat: int, target: int, resource: str, why: str) -> None:
        held = self.players[target].resources
        if resource == "any" or resource == "choice":
            options = [name for name in RESOURCES if held[R[name]] > 0]
            if options:
                self._ask(seat, "steal", target=target, options=options, why=why)
        elif held[R[resource]] > 0:
            self._steal(seat, target, resource, why)

    def _steal(self, seat: int, target: int, resource: str, why: str) -> None:
        self.players[target].resources[R[resource]] -= 1
        self.players[seat].resources[R[resource]] += 1
        self._event("stole", seat=seat, target=target, resource=resource, why=why)

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

    # God weapons ----------------------------------------------------------------------------------

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

    def _step_window(self, window: str, *args: Any) -> None:
        order = [(self.current + i) % self.num_players for i in range(self.num_players)]
        self._then(*[("offer", window, seat, *args) for seat in order])

    def _step_offer(self, window: str, seat: int, *args: Any) -> None:
        if self._window_roles(window, seat):
            self._ask(seat, "window", window=window, options=self._window_options(window, seat), args=list(args))

    def _play_weapon(self, seat: int, option: str, decision: dict[str, Any]) -> None:
        card_id = self.weapons_of(seat)[option]
        self.players[seat].hand.remove(card_id)
        self._forget(seat, [card_id])
        self.discard.append(card_id)
        self._event("weapon", seat=seat, card=card_id, option=option)
        attack = self.attack
        if decision["kind"] != "window":  # played at one of its own decisions: that decision comes back
            self._then(("redecide", json.dumps(decision)))
        if option == "bullseye":
            self._then(("ask_discard_pick", seat, "any", option))
        elif option == "sound-of-the-gjallarhorn":
            self._then(*[("ask_discard_pick", seat, "defence", option)] * 2)
        elif option == "deadly-dagger":
            self._then(*[("ask_discard_pick", seat, "attack", option)] * 2)
        elif option == "thief":
            self._ask(seat, "thief", seats=[s for s in range(self.num_players) if s != seat and self.players[s].hand],
                      open=self._stealable_open(seat))  # fmt: skip
        elif option == "hammertime":
            self._ask(seat, "hammer", cards=self._yellow_playable(seat))
        elif option == "crown-of-fortune":
            start = int(decision["args"][0])
            self._ask(seat, "face", dice=list(range(start, len(self.dice))))
        elif option == "tyrs-revenge":
            attack["cancelled"] = True
            self.players[seat].hand.append(attack["card"])
            self._learn(None, seat, [attack["card"]])
            self._event("attack-cancelled", seat=seat, card=attack["card"])
        elif option == "vanished":
            seats = [s for s in range(self.num_players) if s not in (attack["attacker"], attack["target"])]
            self._ask(seat, "redirect", seats=seats)
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

    def _settle_weapon(self, seat: int, decision: dict[str, Any], action: ValdaAction) -> None:
        kind = decision["kind"]
        player = self.players[seat]
        if kind == "window":
            return  # passed: the window goes on to the next holder
        if kind == "thief":
            if action.kind == "seat":
                target = int(action.a)
                hand = self.players[target].hand
                card = hand.pop(self.rng.below(len(hand)))
                self._forget(target, [card], witnesses=(seat,))
                self._event(
                    "stole-cards", frozenset({seat, target}), seat=seat, target=target, cards=[card], why="thief"
                )
                self._event("stole-count", seat=seat, target=target, count=1, why="thief")
            else:
                card = action.a
                self.open.remove(card)
                self._event("stole-open", seat=seat, card=card)
                self._learn(None, seat, [card])
            player.hand.append(card)
        elif kind == "hammer":
            played = self.card(action.a)
            player.hand.remove(action.a)
            self._forget(seat, [action.a])
            self.discard.append(action.a)
            self._event("played", seat=seat, card=action.a, twice=True)
            steps = [("effect", seat, e.do, tuple(sorted(e.params.items())), played.id, seat) for e in played.effects]
            self._then(*steps, *steps)
        elif kind == "face":
            index, face = int(action.a), int(action.b)
            colour = self.dice[index][0]
            self.dice[index] = (colour, face)
            self._event("turned-die", seat=seat, die=index, colour=colour, face=face)
        elif kind == "redirect":
            self.attack["target"] = int(action.a)
            self._event("attack-redirected", seat=seat, target=int(action.a))

    def _step_redecide(self, decision: str) -> None:
        """A decision a god weapon interrupted comes back, asked again as the board is now.

        Ruling: what the weapon did meanwhile counts. A decision whose choices are worked
        out when it is asked (a phase's, the hand limit, a free building, a conversion, a
        switch) is asked again as its step would ask it, and skipped where that step
        would not ask; one that lists its choices (god decks, gods to lend, cards in the
        discard pile, resources to steal, buildings to destroy, temples to move) keeps
        those still possible, and is skipped if none is. A free building waiting for its
        discount goes on from what the player holds now (it may lapse). The cards a
        decision holds (god cards or base cards looked at) stay as they are.
        """
        again = json.loads(decision)
        kind, seat = str(again["kind"]), int(again["seat"])
        if kind in ("resources", "game", "build", "followers"):
            self._ask_unless_only_done(seat, kind)
            return
        if kind == "hand-limit":  # "not allowed to throw cards away unless you have more than 10"
            if len(self.players[seat].hand) > HAND_LIMIT:
                self._ask(seat, kind)
            return
        if kind == "waive":
            building, why = str(again["building"]), str(again["why"])
            self._continue_waive(seat, building, dict(again["cost"]), dict(again["waived"]), int(again["left"]), why)
            return
        held = self.players[seat].resources
        if kind == "free-build" and not self.buildable(seat, again["discount"], again["building"]):
            return
        if kind == "convert" and held[R[again["give"]]] < again["amount"]:
            return
        if kind == "switch" and not (self.open and self._refill_base()):
            return
        listed = {"discard-pick": "cards", "god-draw": "gods", "lend": "gods", "steal": "options", "destroy": "options",
                  "move": "moves"}  # fmt: skip
        if kind in listed:
            choices = again[listed[kind]]
            if kind == "discard-pick":  # Bullseye or Deadly Dagger may have taken some meanwhile
                choices = [card for card in choices if card in self.discard]
            elif kind == "god-draw":
                choices = [god for god in choices if self.gods[god]]
            elif kind == "lend":
                choices = [god for god in choices if self.temples(seat, god) == 0 and god not in self.lent]
            elif kind == "steal":
                choices = [name for name in choices if self.players[again["target"]].resources[R[name]] > 0]
            elif kind == "destroy":
                choices = [name for name in choices if name in self._destroyable(again["target"], "any")]
            else:
                possible = self._moves(again["target"])
                choices = [move for move in choices if (move[0], move[1]) in possible]
            if not choices:
                return
            again[listed[kind]] = choices
        self.decision = again

    # Legal actions --------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[ValdaAction]:
        """The seat's legal actions now (none when it is not its decision)."""
        if seat not in self.to_move():
            return []
        decision = self.decision
        assert decision is not None
        found = self._decision_actions(seat, decision)
        if decision["kind"] not in _WEAPON_DECISIONS:  # a god weapon may be played at any of your decisions
            found += [ValdaAction("weapon", option) for option in self._usable_any(seat)]
        return found

    def _decision_actions(self, seat: int, decision: dict[str, Any]) -> list[ValdaAction]:
        kind = decision["kind"]
        player = self.players[seat]
        act = ValdaAction
        if kind == "choose":
            return [act("choose", name) for name in RESOURCES]
        if kind == "resources":
            found = [act("trade", give, get) for give in RESOURCES if player.resources[R[give]] >= 4
                     for get in RESOURCES if get != give]  # fmt: skip
            level = self.ability(seat, "heimdall")
            if level:
                need = 2 if level == 1 else 1
                found += [act("swap", give, get) for give in RESOURCES if player.resources[R[give]] >= need
                          for get in RESOURCES if get != give]  # fmt: skip
            return [*found, DONE]
        if kind == "game":
            found = []
            if self.actions > 0 or self.free_yellow > 0:
                found += [act("play", c) for c in self._held(seat, "yellow")]
                found += [act("use", c) for c in sorted({c for c in self.open if self.card(c).kind == "yellow"})]
            if self.actions > 0:
                found += [act("take", name) for name in RESOURCES]
                if self.ability(seat, "freya") >= 1:
                    found += [act("buy", c) for c in sorted(set(self.open))]
            if self.actions >= 2 and (self.base or self.discard):
                found.append(DRAW)
            return [*found, DONE]
        if kind == "hand-limit":
            return [act("discard", c) for c in sorted(set(player.hand))]
        if kind == "build":
            found = [act("build", b) for b in self.buildable(seat)] if self.builds > 0 else []
            return [*found, DONE]
        if kind == "free-build":
            return [*[act("build", b) for b in self.buildable(seat, decision["discount"], decision["building"])], DONE]
        if kind == "waive":
            return [act("choose", name) for name, amount in decision["cost"].items() if amount > 0]
        if kind in GOD_CARD_DECISIONS:
            return [act("keep", c) for c in sorted(set(decision["cards"]))]
        if kind == "attack":
            return [*[act("attack", c) for c in self._held(seat, "attack")], PASS]
        if kind == "defend":
            return [*[act("defend", c) for c in self._held(seat, "defence")], YIELD]
        if kind == "steal":
            return [act("steal", name) for name in decision["options"]]
        if kind == "destroy":
            return [act("destroy", option) for option in decision["options"]]
        if kind == "move":
            return [act("move", source, dest) for source, dest in decision["moves"]]
        if kind == "convert":
            found = (
                [CONVERT]
                if decision["left"] > 0 and player.resources[R[decision["give"]]] >= decision["amount"]
                else []
            )
            return [*found, DONE]
        if kind == "look":
            return [act("seat", str(s)) for s in decision["seats"]]
        if kind in ("peek", "discard-pick"):
            return [act("card", c) for c in sorted(set(decision["cards"]))]
        if kind == "switch":
            return [act("card", c) for c in sorted(set(self.open))]
        if kind in ("god-draw", "lend"):
            return [act("god", g) for g in decision["gods"]]
        if kind == "followers":
            return self._follower_actions(seat)
        if kind == "window":
            return [*[act("weapon", option) for option in decision["options"]], PASS]
        if kind == "thief":
            return [*[act("seat", str(s)) for s in decision["seats"]], *[act("card", c) for c in decision["open"]]]
        if kind == "hammer":
            return [act("card", c) for c in decision["cards"]]
        if kind == "face":
            return [act("face", str(i), str(f)) for i in decision["dice"] for f in range(6) if f != self.dice[i][1]]
        if kind == "redirect":
            return [act("seat", str(s)) for s in decision["seats"]]
        raise AssertionError(f"unknown decision {kind}")

    def _held(self, seat: int, kind: str) -> list[str]:
        """The different cards of ``kind`` in ``seat``'s hand, sorted."""
        kinds = self.config.kinds
        return sorted({c for c in self.players[seat].hand if kinds[c] == kind})

    def _follower_actions(self, seat: int) -> list[ValdaAction]:
        player = self.players[seat]
        uses = self.attack.get("uses", {})
        found = []
        for name, (god, need, pay, _, limit) in CONVERSIONS.items():
            if self.ability(seat, god) < need or uses.get(name, 0) >= limit:
                continue
            if god == "thor":
                found += [ValdaAction(name, r) for r in ("gold", "diamond") if player.resources[R[r]] >= pay]
            elif player.resources[R["drop"]] >= pay:
                found.append(ValdaAction(name))
        if self.ability(seat, "loki") and not self.attack.get("loki"):
            found.append(ValdaAction("loki"))
        return [*found, DONE]

    def check(self, seat: int, action: ValdaAction) -> None:
        """Raise :class:`IllegalAction` saying why ``action`` is not legal for ``seat`` now."""
        if self.finished:
            raise _illegal("the game is over", "over")
        if seat not in self.to_move():
            raise _illegal("it is not your decision now", "turn")
        if action not in self.legal_actions(seat):
            decision = self.decision or {}
            raise _illegal(self._why_not(seat, action, str(decision.get("kind"))), str(decision.get("kind")))

    def _why_not(self, seat: int, action: ValdaAction, kind: str) -> str:
        player = self.players[seat]
        if action.kind == "trade":
            return f"trading takes 4 {action.a}; you have {player.resources[R[action.a]]}"
        if action.kind in ("play", "use"):
            where = player.hand if action.kind == "play" else self.open
            if action.a not in where:
                return f"{action.a} is not {'in your hand' if action.kind == 'play' else 'among the open cards'}"
            if self.card(action.a).kind != "yellow":
                return f"only yellow cards are played in the game phase; {action.a} is {self.card(action.a).kind}"
            return "you have no action left"
        if action.kind == "build":
            return f"you cannot build {action.a} now: no build left, no free site, locked, or not enough resources"
        if action.kind == "draw":
            return "drawing two cards takes two actions"
        return f"{action} is not one of the choices now ({kind})"

    # Applying -------------------------------------------------------------------------------------

    def _checked_quiet(self, seat: int, action: ValdaAction) -> None:
        """``apply_quiet`` trusts its caller: the action comes from :meth:`legal_actions` (bots).

        Checking means finding the legal actions again, which would cost as much as the
        step itself.
        """
        del seat, action

    def _step(self, seat: int, action: ValdaAction, plan: None, events: list[Event] | None) -> None:
        """Settle the decision with ``action``, then run the queue until a seat must decide again."""
        del plan
        self._events = events
        try:
            decision = self.decision
            assert decision is not None
            self.decision = None
            self._settle(seat, decision, action)
            self._run()
        finally:
            self._events = None

    def _settle(self, seat: int, decision: dict[str, Any], action: ValdaAction) -> None:
        kind = decision["kind"]
        if action.kind == "weapon":
            self._play_weapon(seat, action.a, decision)
            return
        if kind in _WEAPON_DECISIONS:
            self._settle_weapon(seat, decision, action)
            return
        player = self.players[seat]
        resources = player.resources
        if kind == "choose":
            resources[R[action.a]] += 1
            self._event("gained", seat=seat, resource=action.a, amount=1, why=decision["why"])
        elif kind == "resources":
            if action.kind == "trade":
                resources[R[action.a]] -= 4
                resources[R[action.b]] += 1
                self._event("traded", seat=seat, give=action.a, amount=4, get=action.b)
            elif action.kind == "swap":
                give = 2 if self.ability(seat, "heimdall") == 1 else 1
                resources[R[action.a]] -= give
                resources[R[action.b]] += 1
                self._event("traded", seat=seat, give=action.a, amount=give, get=action.b, why="heimdall")
            if action != DONE:
                self._then(("resource_actions",))
        elif kind == "game":
            self._game_action(seat, action)
        elif kind == "hand-limit":
            player.hand.remove(action.a)
            self._forget(seat, [action.a])
            self.discard.append(action.a)
            self._event("discarded", seat=seat, cards=[action.a], why="hand limit")
            if len(player.hand) > HAND_LIMIT:
                self._ask(seat, "hand-limit")
        elif kind == "build":
            if action != DONE:
                self.builds -= 1
                # Ruling: a player's second building of the phase is their last: Backstab's window.
                window: list[Step] = [("window", "building", action.a)] if self.builds == 0 else []
                self._then(*window, ("do_build", seat, action.a), ("build_phase",))
        elif kind == "free-build":
            if action != DONE:
                self._start_free_build(seat, action.a, decision["discount"], decision["why"])
        elif kind == "waive":
            waived = dict(decision["waived"])
            waived[action.a] = waived.get(action.a, 0) + 1
            cost = dict(decision["cost"])
            cost[action.a] -= 1
            self._continue_waive(seat, decision["building"], cost, waived, decision["left"] - 1, decision["why"])
        elif kind in GOD_CARD_DECISIONS:
            kept = action.a
            if kind == "keep":
                player.hand.append(kept)
            else:  # shown with the other open cards once they are all turned up
                self.open.append(kept)
            others = list(decision["cards"])
            others.remove(kept)
            self.gods[decision["god"]][0:0] = others  # the other card to the bottom
            self._to_bottom(decision["god"], others, (seat,))
            where = "hand" if kind == "keep" else "open"
            self._event("kept", frozenset({seat}), seat=seat, card=kept, god=decision["god"], to=where)
        elif kind == "attack":
            if action == PASS:
                self._event("passed", seat=seat)
            else:
                self._start_attack(seat, action.a)
        elif kind == "defend":
            self._defend(seat, action)
        elif kind == "steal":
            self._steal(seat, decision["target"], action.a, decision["why"])
        elif kind == "destroy":
            self._destroy(decision["target"], action.a, decision["why"])
        elif kind == "move":
            self._move_temple(decision["target"], action.a, action.b, decision["why"])
        elif kind == "convert":
            if action == CONVERT:
                resources[R[decision["give"]]] -= decision["amount"]
                paid = {decision["give"]: decision["amount"]}
                self._gain_followers(seat, decision["followers"], decision["why"], paid)
                again = dict(decision)
                again["left"] -= 1
                if again["left"] > 0 and not self.finished:
                    self.decision = again
        elif kind == "look":
            target = int(action.a)
            hand = self.players[target].hand
            count = int(decision.get("count", len(hand)))
            pool = list(hand)
            if count < len(pool):  # a look at part of a hand sees cards at random
                self.rng.shuffle(pool)
            seen = sorted(pool[:count])
            self._learn((seat,), target, seen)
            self._event("looked-at-hand", frozenset({seat}), seat=seat, target=target, cards=seen)
            self._event("looked-at", seat=seat, target=target)
        elif kind == "peek":
            kept = action.a
            player.hand.append(kept)
            rest = list(decision["cards"])
            rest.remove(kept)
            self.base[0:0] = rest  # the rest to the bottom
            self._to_bottom("base", rest, (seat,))
            self._event("took-peeked", frozenset({seat}), seat=seat, card=kept)
        elif kind == "switch":
            self.open.remove(action.a)
            audience = frozenset({self.current}) if self.open_closed else None
            self.base.insert(0, action.a)
            self._to_bottom("base", [action.a], audience)  # the card was open: those who saw it
            self._from_top("base", len(self.base), 1, None)
            new = self.base.pop()
            self.open.append(new)
            self._event("switched", audience, seat=seat, out=action.a, card=new)
        elif kind == "discard-pick":
            self.discard.remove(action.a)
            player.hand.append(action.a)
            self._learn(None, seat, [action.a])
            self._event("took-from-discard", seat=seat, card=action.a)
        elif kind == "god-draw":
            self._look_at_god_cards(seat, action.a, "keep", decision["why"], card=decision["why"])
        elif kind == "lend":
            self.lent.add(action.a)
            self._event("lent", seat=seat, god=action.a)
        elif kind == "followers":
            self._follower_action(seat, action)

    def _game_action(self, seat: int, action: ValdaAction) -> None:
        player = self.players[seat]
        if action == DONE:
            self._then(("hand_limit",))
            return
        self._then(("game_actions",))
        if action.kind in ("play", "use"):
            card = self.card(action.a)
            if self.free_yellow > 0:
                self.free_yellow -= 1
            else:
                self.actions -= 1
            if action.kind == "use":
                self.open.remove(action.a)
            else:
                player.hand.remove(action.a)
                self._forget(seat, [action.a])
            self.discard.append(action.a)
            self._event("played", seat=seat, card=action.a)
            self._then(*[("effect", seat, e.do, tuple(sorted(e.params.items())), card.id, seat) for e in card.effects])
        elif action.kind == "take":
            self.actions -= 1
            player.resources[R[action.a]] += 1
            self._event("gained", seat=seat, resource=action.a, amount=1, why="an action")
        elif action == DRAW:
            self.actions -= 2
            drawn = [c for c in (self._draw_base(seat) for _ in range(2)) if c is not None]
            player.hand += drawn
            self._event("drew", frozenset({seat}), seat=seat, cards=drawn, why="two actions")
            self._event("drew-count", seat=seat, count=len(drawn), why="two actions")
        elif action.kind == "buy":
            self.actions -= 1
            self.open.remove(action.a)
            player.hand.append(action.a)
            if not self.open_closed:  # everybody saw the open card go into the hand
                self._learn(None, seat, [action.a])
            self._event("bought", frozenset({seat}) if self.open_closed else None, seat=seat, card=action.a)

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
            self._ask(seat, "waive", building=building, cost=cost, waived=waived, left=left, why=why)
            return
        self._build(seat, building, waived, why)

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
            self._ask(target, "defend")

    def _defend(self, seat: int, action: ValdaAction) -> None:
        attack = self.attack
        if action.kind == "defend":
            self.players[seat].hand.remove(action.a)
            self._forget(seat, [action.a])
            attack["used"].append(action.a)
            attack["defence"] += self.card(action.a).power + self.defence_bonus(seat)
            self._event("defended", seat=seat, card=action.a, defence=attack["defence"], power=attack["power"])
            if attack["defence"] < attack["power"]:
                self._ask(seat, "defend")
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

    def _follower_action(self, seat: int, action: ValdaAction) -> None:
        if action == DONE:
            self.attack = {}
            return
        player = self.players[seat]
        if action.kind == "loki":
            self.attack["loki"] = True
            self._then(("ask_followers",))
            self._roll(seat, [("white", self.ability(seat, "loki"))], "loki")
            return
        else:
            god, _, pay, followers, _ = CONVERSIONS[action.kind]
            resource = action.a if god == "thor" else "drop"
            player.resources[R[resource]] -= pay
            uses = self.attack.setdefault("uses", {})
            uses[action.kind] = uses.get(action.kind, 0) + 1
            self._gain_followers(seat, followers, god, {resource: pay})
        if not self.finished:
            self._ask_unless_only_done(seat, "followers")

    def _step_ask_followers(self) -> None:
        self._ask_unless_only_done(self.current, "followers")

    # What a seat sees ------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know (``None``: a spectator), as JSON data."""
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"there is no seat {seat}")
        sees_open = not self.open_closed or seat == self.current
        data: dict[str, Any] = {
            "game": "valda",
            "seat": seat,
            "options": self.game.info.public_options(self.config.options),  # a pack by reference
            "round": self.round,
            "last_round": self.config.last_round,
            "start": self.start,
            "order": list(self.order),
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "actions": self.actions,
            "free_yellow": self.free_yellow,
            "builds": self.builds,
            "open": list(self.open) if sees_open else None,
            "open_count": len(self.open),
            "open_closed": self.open_closed,
            "lent": sorted(self.lent),
            "dice": [[colour, face] for colour, face in self.dice],
            "attack": _copy_json(self.attack),
            "decision": _mask(self.decision, seat),
            "queue": [_mask_step(step, seat) for step in self.queue],
            "to_move": list(self.to_move()),
            "backstabbed": self.backstabbed,
            "reshuffles": self.reshuffles,
            "winner": self.winner,
            "finished": self.finished,
            "base": len(self.base),
            "god_decks": {god: len(deck) for god, deck in self.gods.items()},
            "discard": list(self.discard),
            "sites": {god: list(owners) for god, owners in self.sites.items()},
            "locks": dict(self.locks),
            "seats": [
                {
                    "seat": index,
                    "resources": dict(zip(RESOURCES, p.resources, strict=True)),
                    "mines": p.mines,
                    "drills": p.drills,
                    "temples": dict(p.temples),
                    "followers": p.followers,
                    "floor": p.floor,
                    "hand": len(p.hand),
                }
                for index, p in enumerate(self.players)
            ],
        }
        if self.finished:
            data["places"] = self.ranking()
        data["known"] = self.known_view(seat)
        data["known_by_all"] = self.known_view(None)
        data["bottoms"] = self.bottoms_view(seat)
        data["bottoms_by_all"] = self.bottoms_view(None)
        if seat is not None:
            data["hand"] = sorted(self.players[seat].hand)
        return data

    # Copies and fingerprints -------------------------------------------------------------------------

    def clone(self) -> ValdaState:
        """An independent copy (no deepcopy)."""
        other = ValdaState.__new__(ValdaState)
        other.config = self.config
        self._copy_bookkeeping(other)
        other.rng = self.rng.clone()
        other.players = [p.copy() for p in self.players]
        other.known = [[cards[:] for cards in slot] for slot in self.known]
        other.bottoms = [{deck: cards[:] for deck, cards in slot.items()} for slot in self.bottoms]
        other.base = self.base[:]
        other.gods = {g: d[:] for g, d in self.gods.items()}
        other.discard = self.discard[:]
        other.sites = {g: s[:] for g, s in self.sites.items()}
        other.locks = dict(self.locks)
        other.round, other.start, other.order, other.turn = self.round, self.start, self.order[:], self.turn
        other.phase, other.actions, other.free_yellow, other.builds = (
            self.phase,
            self.actions,
            self.free_yellow,
            self.builds,
        )
        other.open, other.open_closed, other.lent = self.open[:], self.open_closed, set(self.lent)
        other.dice = self.dice[:]
        other.attack = _copy_json(self.attack)
        other.decision = _copy_json(self.decision)
        other.queue = self.queue[:]
        other.winner, other.finished, other.backstabbed = self.winner, self.finished, self.backstabbed
        other.reshuffles = self.reshuffles
        other._events = None
        return other

    def fingerprint(self) -> Hashable:
        """The complete state, hidden parts and RNG included."""
        return (tuple(p.key() for p in self.players), tuple(self.base), tuple(sorted((g, tuple(d)) for g, d in
                self.gods.items())), tuple(self.discard), tuple(sorted((g, tuple(s)) for g, s in self.sites.items())),
                tuple(sorted(self.locks.items())), self.round, self.start, tuple(self.order), self.turn, self.phase,
                self.actions, self.free_yellow, self.builds, tuple(self.open), self.open_closed,
                tuple(sorted(self.lent)), tuple(self.dice), repr(self.attack), repr(self.decision),
                tuple(self.queue), self.winner, self.finished, self.backstabbed, self.reshuffles,
                repr(self.known), repr(self.bottoms), self.rng.getstate())  # fmt: skip


#: Decisions whose ``cards`` only the deciding seat may see (god cards looked at, base cards
#: peeked at, a hand's yellow cards).
_SECRET_CARDS = GOD_CARD_DECISIONS | {"peek", "hammer"}


def _mask(decision: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """A decision as ``seat`` may see it: another seat's secret cards become a count; its weapons, hidden."""
    if decision is None:
        return None
    shown: dict[str, Any] = _copy_json(decision)
    if decision["seat"] != seat:
        if decision["kind"] in _SECRET_CARDS:
            shown["cards"] = len(decision["cards"])
        if decision["kind"] == "window":
            shown["options"] = None
    return shown


def _mask_step(step: Step, seat: int | None) -> list[Any]:
    if step[0] == "redecide":
        return ["redecide", _mask(json.loads(step[1]), seat)]
    return [list(part) if isinstance(part, tuple) else part for part in step]


def _copy_json(value: Any) -> Any:
    """A copy of plain nested dicts and lists (decisions and attacks are small)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
