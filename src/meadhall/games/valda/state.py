"""The Valda rules engine: setup, the five phases, rounds and the end, god weapons, views.

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

The state is a decision flow (:mod:`meadhall.core.flow`): a queue of steps, and a step
may open a decision (``self.decision``: a typed value saying who must choose, and what);
applying an action settles that decision, and the queue runs on. The rules are split by
concern: :mod:`~meadhall.games.valda.data` (the rules' numbers, a seat's board, the
game's config), :mod:`~meadhall.games.valda.board` (the position and what every part of
a turn shares), :mod:`~meadhall.games.valda.effects` (card effects, attacks, god
weapons), :mod:`~meadhall.games.valda.phases` (rounds, turns, the five phases),
:mod:`~meadhall.games.valda.decisions` (one class per decision kind) and
:mod:`~meadhall.games.valda.view` (what a seat sees); this module sets a game up,
applies actions and copies states, and keeps the names other modules import from it.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.flow import Step
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.games.valda.content import FACES, RESOURCES
from meadhall.games.valda.data import (
    ACTIONS,
    BUILDS,
    CONVERSIONS,
    HAND_LIMIT,
    LOCK,
    MAX_DRILLS,
    MAX_MINES,
    RACE_GOAL,
    RACE_ROUNDS,
    ROUNDS,
    SAFE_ZONES,
    SITES,
    START_HAND,
    TEMPLES_PER_PLAYER,
    Player,
    R,
    ValdaConfig,
)
from meadhall.games.valda.decisions import GOD_CARD_DECISIONS, read_decision
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.phases import ValdaPhases
from meadhall.games.valda.view import copy_json, mask_decision, mask_step

__all__ = [
    "ACTIONS",
    "BUILDS",
    "CONVERSIONS",
    "GOD_CARD_DECISIONS",
    "HAND_LIMIT",
    "LOCK",
    "MAX_DRILLS",
    "MAX_MINES",
    "RACE_GOAL",
    "RACE_ROUNDS",
    "ROUNDS",
    "SAFE_ZONES",
    "SITES",
    "START_HAND",
    "TEMPLES_PER_PLAYER",
    "Player",
    "R",
    "Step",
    "ValdaConfig",
    "ValdaState",
    "read_decision",
]


class ValdaState(ValdaPhases):
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
        self.known = [[[] for _ in range(config.players)] for _ in range(config.players + 1)]
        self.bottoms = [{} for _ in range(config.players + 1)]
        self.base = []
        self.gods = {}
        self.discard = []
        self.sites = {god: [] for god in config.content.gods}
        self.locks = {}
        self.round = 1
        self.start = 0
        self.order = []
        self.turn = 0
        self.phase = "setup"
        self.actions = 0
        self.free_yellow = 0
        self.builds = 0
        self.open = []
        self.open_closed = False
        self.lent = set()
        self.dice = []
        self.attack = {}
        self.decision = None
        self.queue = []
        self.backstabbed = False
        self.reshuffles = 0
        self.winner = None
        self.finished = False
        self._events = None

    # Setting up --------------------------------------------------------------------------------

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

    # Deciding and applying ---------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[ValdaAction]:
        """The seat's legal actions now (none when it is not its decision).

        Its decision's actions, and the god weapons it may play at any of its own
        decisions (not at one a weapon started or that offers weapons itself).
        """
        decision = self.decision
        if self.finished or decision is None or decision.seat != seat or self.chance_waiting is not None:
            return []
        found = decision.actions(self, seat)
        if not decision.weapon:
            found += [ValdaAction("weapon", option) for option in self._usable_any(seat)]
        return found

    def _checked_quiet(self, seat: int, action: ValdaAction) -> None:
        """``apply_quiet`` trusts its caller: the action comes from :meth:`legal_actions` (bots).

        Checking means finding the legal actions again, which would cost as much as the
        step itself.
        """
        del seat, action

    def _step(self, seat: int, action: ValdaAction, plan: None, events: list[Event] | None) -> None:
        """Settle the decision with ``action`` (a god weapon played at it, or its own choice), then run the queue.

        The flow's step (``FlowState._step``) written out here, with the events this
        step builds: it runs at every bot step, and a call less counts.
        """
        self._events = events
        try:
            decision = self.decision
            assert decision is not None
            self.decision = None
            if action.kind == "weapon":
                self._play_weapon(seat, action.name, decision)
            else:
                decision.settle(self, seat, action)
            self._run()
        finally:
            self._events = None

    # Explicit chance: the dice ------------------------------------------------------------------

    max_chance_outcomes = FACES

    def explicit_chance(self) -> bool:
        """Stop at each die rolled from now on (its face: :meth:`apply_chance`); Valda offers it, so True.

        Only the dice are explicit. The deal (decks shuffled, the Turnaround's start roll)
        and the cards drawn from a reshuffled deck or taken at random from a hand stay
        sampled from the seeded generator.
        """
        self.explicit = True
        return True

    def chance_outcomes(self) -> list[tuple[int, float]] | None:
        """The next die's faces (from 0), each of probability 1/6, while a roll waits; else ``None``."""
        if self.chance_waiting is None:
            return None
        return [(face, 1.0 / FACES) for face in range(FACES)]

    def apply_chance(self, outcome: int) -> list[Event]:
        """The next die of the waiting roll shows face ``outcome``; after the last one the roll counts."""
        waiting = self.chance_waiting
        if waiting is None:
            return super().apply_chance(outcome)
        if not 0 <= outcome < FACES:
            raise IllegalAction(f"a die has faces 0 to {FACES - 1}, not {outcome}", "chance")
        seat, why, start, colours = waiting
        self.dice.append((colours[0], outcome))
        events: list[Event] = []
        if len(colours) > 1:
            self.chance_waiting = (seat, why, start, colours[1:])
            return events
        self.chance_waiting = None
        self._events = events
        try:
            self._rolled(seat, start, why)
            self._run()
        finally:
            self._events = None
        return events

    def _step_redecide(self, decision: str) -> None:
        """A decision a god weapon interrupted comes back, asked again as the board is now.

        Ruling: what the weapon did meanwhile counts (see :meth:`ValdaDecision.ask_again`:
        each kind says how it is asked again).
        """
        read_decision(json.loads(decision)).ask_again(self)

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
            "attack": copy_json(self.attack),
            "decision": mask_decision(None if self.decision is None else self.decision.to_json(), seat),
            "queue": [mask_step(step, seat) for step in self.queue],
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

    # Copies and fingerprints ----------------------------------------------------------------------

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
        other.explicit, other.chance_waiting = self.explicit, self.chance_waiting
        other.attack = copy_json(self.attack)
        other.decision = self.decision  # a frozen value
        other.queue = self.queue[:]
        other.winner, other.finished, other.backstabbed = self.winner, self.finished, self.backstabbed
        other.reshuffles = self.reshuffles
        other._events = None
        return other

    def fingerprint(self) -> Hashable:
        """The complete state, hidden parts and RNG included."""
        decision = None if self.decision is None else self.decision.to_json()
        return (tuple(p.key() for p in self.players), tuple(self.base), tuple(sorted((g, tuple(d)) for g, d in
                self.gods.items())), tuple(self.discard), tuple(sorted((g, tuple(s)) for g, s in self.sites.items())),
                tuple(sorted(self.locks.items())), self.round, self.start, tuple(self.order), self.turn, self.phase,
                self.actions, self.free_yellow, self.builds, tuple(self.open), self.open_closed,
                tuple(sorted(self.lent)), tuple(self.dice), repr(self.attack), repr(decision),
                tuple(self.queue), self.winner, self.finished, self.backstabbed, self.reshuffles,
                repr(self.known), repr(self.bottoms), self.rng.getstate(), self.chance_waiting)  # fmt: skip
