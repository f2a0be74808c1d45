"""The bridge between the Valda engine and its C search engine (``_search.c``).

Bots search Valda positions with the C engine's ``SearchState`` (int action codes, no
events, no record of what players know) when the extension is built and the content
pack fits its tables, and with :class:`ValdaState` itself otherwise. The content is
data: :class:`NativeTables` hands a pack's cards, effects, dice faces, costs and the
evaluation's rates to the C engine at run time, and numbers its cards (in the sorted
order of their ids). Every other numbering (gods, effects, phases, decisions, steps,
action kinds, ...) is written once, in ``_search.c``, and read here from the engine's
``NAMES``; at import, the numberings that follow the rules' own lists and the rules
constants the engine was built with (``RULES``) are checked against ``content.py`` and
``state.py`` (a difference is a :class:`~meadhall.core.native.NativeMismatch`).

A position has one form in C's terms, the dict that the engine's ``build()`` takes and
its ``export()`` gives: :meth:`NativeTables.export` reads a :class:`ValdaState` into it,
and :meth:`NativeTables.template` a view (its hidden cards placeholders), through the
same :meth:`NativeTables.position`. :func:`to_search` copies a position into the search
engine, :func:`encode` and :func:`decode` translate actions and codes;
``tests/valda/test_search_engine.py`` keeps the two engines equal.
"""

from __future__ import annotations

import copyreg
import json
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from meadhall.core.content import pack_derived
from meadhall.core.native import NativeMismatch, check_engine
from meadhall.core.rng import Rng
from meadhall.games.valda import state as rules
from meadhall.games.valda.belief import ValdaBelief
from meadhall.games.valda.content import (
    DIE_COLOURS,
    EFFECTS,
    FACES,
    PARAM_VALUES,
    RESOURCES,
    RULEBOOK_GODS,
    RULEBOOK_WEAPONS,
    Content,
)
from meadhall.games.valda.data import START_HAND
from meadhall.games.valda.decisions import DECISIONS as DECISION_KINDS
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.rates import DIE_INCOME, RESOURCE_VALUE, ability_income, card_values
from meadhall.games.valda.state import GOD_CARD_DECISIONS, ValdaState

_native: ModuleType | None
try:  # the extension is optional: without a compiler, search uses ValdaState
    from meadhall.games.valda import _search as _native
except ImportError:  # pragma: no cover - exercised on machines without a C compiler
    _native = None

#: True when the C search engine is built.
AVAILABLE = _native is not None

#: The numberings of the C engine that follow the rules' own lists, which are their source.
RULES_NUMBERINGS: dict[str, tuple[str, ...]] = {
    "gods": tuple(sorted(RULEBOOK_GODS)),
    "effects": tuple(EFFECTS),
    "kinds": PARAM_VALUES["kind"],
    "resources": PARAM_VALUES["any-resource"],
    "buildings": PARAM_VALUES["building"],
    "who": PARAM_VALUES["who"],
    "sources": PARAM_VALUES["source"],
    "dice": DIE_COLOURS,
}
#: The rules constants the C engine is built with, as the Python engine has them.
RULES_CONSTANTS: dict[str, Any] = {
    "SITES": rules.SITES,
    "ROUNDS": rules.ROUNDS,
    "RACE_ROUNDS": rules.RACE_ROUNDS,
    "HAND_LIMIT": rules.HAND_LIMIT,
    "TEMPLES_PER_PLAYER": rules.TEMPLES_PER_PLAYER,
    "LOCK": rules.LOCK,
    "MAX_MINES": rules.MAX_MINES,
    "MAX_DRILLS": rules.MAX_DRILLS,
    "RACE_GOAL": rules.RACE_GOAL,
    "ACTIONS": rules.ACTIONS,
    "BUILDS": rules.BUILDS,
    "FACES": FACES,
    "SAFE_ZONES": rules.SAFE_ZONES,
    "CONVERSIONS": rules.CONVERSIONS,
}


def check(module: ModuleType) -> None:
    """Raise :class:`~meadhall.core.native.NativeMismatch` unless ``module`` numbers and counts as the rules do.

    The god weapon options are numbered in the engine's own order; they must be the
    rulebook's options, all of them.
    """
    check_engine(module, RULES_NUMBERINGS, RULES_CONSTANTS)
    weapons = {option for pair in RULEBOOK_WEAPONS.values() for option in pair}
    options = set(module.NAMES.get("options", ()))
    if options != weapons:
        raise NativeMismatch(
            f"{module.__name__} numbers other god weapon options than the rulebook's: rebuild it or bring the "
            f"two sides together (only there: {sorted(options - weapons)}; only here: {sorted(weapons - options)})"
        )
    gods = len(RULES_NUMBERINGS["gods"])
    if (module.LAYOUT.get("MINE"), module.LAYOUT.get("DRILL")) != (gods, gods + 1):
        raise NativeMismatch(f"{module.__name__} numbers the mine and the blood drill otherwise than after the gods")


if _native is not None:  # an engine built from other numbers must not load
    check(_native)


def _names(numbering: str) -> tuple[Any, ...]:
    """A numbering of the C engine (empty without the engine: nothing here is used then)."""
    return tuple(_native.NAMES[numbering]) if _native is not None else ()


def _layout(name: str) -> int:
    """A number of the C engine's layout (reasons, redeal targets, limits); 0 without the engine."""
    return int(_native.LAYOUT[name]) if _native is not None else 0


# The C engine's numbering (its NAMES, written once in _search.c).
GODS: tuple[str, ...] = _names("gods")
OPTIONS: tuple[str, ...] = _names("options")
KINDS: tuple[str, ...] = _names("kinds")
EFFECT_NAMES: tuple[str, ...] = _names("effects")
PHASES: tuple[str, ...] = _names("phases")
DECISIONS: tuple[str | None, ...] = _names("decisions")
WINDOW_NAMES: tuple[str, ...] = _names("windows")
STEPS: tuple[str, ...] = _names("steps")
ACTION_KINDS: tuple[str, ...] = _names("actions")
#: An effect's resource ("resource" or "any-resource"), building, who and source parameters.
_EFFECT_RESOURCES: tuple[str, ...] = _names("resources")
_EFFECT_BUILDINGS: tuple[str, ...] = _names("buildings")
_WHO: tuple[str, ...] = _names("who")
_SOURCES: tuple[str, ...] = _names("sources")
_INT_PARAMS = ("amount", "count", "discount", "followers", "times")
_CONVERSIONS = tuple(rules.CONVERSIONS)
# Reasons ("why") as the C engine numbers them.
_WHY_OPTION, _WHY_DICE, _WHY_LOKI, _WHY_FACE = (_layout(n) for n in ("WHY_OPTION", "WHY_DICE", "WHY_LOKI", "WHY_FACE"))
_FACE_OF_CHOICE = ": a face of choice"
# What the C engine's tables hold at most (beyond: the pack stays on the Python engine).
_MAX_EFFECTS = _layout("MAX_EFFECTS")
_MAX_PARAMETER = _layout("MAX_PARAMETER")
_MAX_CARDS = _layout("MAX_CARDS")
# Where the C engine's redeal puts a dealt card, and which cards fit (besides a god's number).
_TO_DECISION, _TO_GOD, _TO_BASE, _TO_OPEN, _TO_HAND = (
    _layout(n) for n in ("TO_DECISION", "TO_GOD", "TO_BASE", "TO_OPEN", "TO_HAND")
)
_FITS_ANY, _FITS_BASE = _layout("FITS_ANY"), _layout("FITS_BASE")

_KIND_INDEX = {name: index for index, name in enumerate(ACTION_KINDS)}
# Action kinds by their arguments.
_RESOURCE_ARGUMENT = frozenset({"choose", "take", "steal", "thor", "thor2"})
_CARD_ARGUMENT = frozenset({"play", "use", "buy", "discard", "keep", "attack", "defend", "card"})
_BUILDING_ARGUMENT = frozenset({"build", "destroy"})
#: The public fields of a position, named as views name them (a state has them as attributes).
_PUBLIC = (
    "discard", "sites", "locks", "round", "start", "order", "turn", "phase", "actions", "free_yellow", "builds",
    "lent", "open_closed", "dice", "attack", "decision", "queue", "backstabbed", "reshuffles", "winner", "finished",
)  # fmt: skip


class NativeTables:
    """One content pack as the C engine numbers it, registered with the C engine."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.cards = tuple(sorted(content.cards))
        self.card_index = {card: index for index, card in enumerate(self.cards)}
        self.god_index = {god: index for index, god in enumerate(GODS)}
        self.buildings = (*GODS, "mine", "drill")
        self.building_index = {name: index for index, name in enumerate(self.buildings)}
        # Each card's effects by (do, sorted params): the queue's effect steps name them so.
        self.effect_index: dict[str, dict[tuple[str, tuple[tuple[str, Any], ...]], int]] = {}
        for card in content.cards.values():
            found: dict[tuple[str, tuple[tuple[str, Any], ...]], int] = {}
            for index, effect in enumerate(card.effects):
                found.setdefault((effect.do, tuple(sorted(effect.params.items()))), index)
            self.effect_index[card.id] = found
        self.handle: Any = None  # the C engine's tables of the pack (register_content's), once registered
        self._decoded: dict[int, ValdaAction] = {}

    def expressible(self) -> bool:
        """Whether the C engine's tables can hold this pack (otherwise: the Python engine)."""
        if len(self.cards) > _MAX_CARDS or set(self.cards) & set(OPTIONS):
            return False  # more cards than the tables hold; a card named like an option makes reasons ambiguous
        for card in self.content.cards.values():
            if len(card.effects) > _MAX_EFFECTS:
                return False
            for effect in card.effects:
                if any(int(effect.get(name)) > _MAX_PARAMETER for name in _INT_PARAMS if name in effect.params):
                    return False
        return True

    def register(self) -> Any:
        """Give the pack's tables to the C engine (once); the engine's object for them (for ``build``).

        The C tables live as long as this object or a search state built on them.
        """
        if self.handle is not None:
            return self.handle
        assert _native is not None
        content = self.content
        cards = []
        for card_id in self.cards:
            card = content.cards[card_id]
            effects = [self._effect_row(effect.do, effect.get) for effect in card.effects]
            god = -1 if card.god is None else self.god_index[card.god]
            cards.append((KINDS.index(card.kind), god, card.power, effects))
        weapon_cards = []
        option_cards = {option.id: card.id for card in content.cards.values() for option in card.options}
        for option in OPTIONS:
            weapon_cards.append(self.card_index[option_cards[option]] if option in option_cards else -1)
        dice = [
            face.resources.get(name, 0)
            for colour in ("yellow", "blue")
            for face in content.dice[colour]
            for name in (*RESOURCES, "choice")
        ]
        white = [face.followers for face in content.dice["white"]]
        costs = [
            *(content.gods[god].temple_cost for god in GODS),
            content.buildings["mine"],
            content.buildings["drill"],
        ]
        needs = [cost.get(name, 0) for cost in costs for name in RESOURCES]
        order = [self.god_index[god] for god in content.gods]
        evaluation = [
            *RESOURCE_VALUE,
            DIE_INCOME,
            *(value for god in GODS for value in ability_income(content).get(god, (0.0, 0.1, 0.15))),
            *(card_values(content)[card_id] for card_id in self.cards),
        ]
        # The pack is the tables' owner: a search state built on them pickles by it (see _reduce).
        self.handle = _native.register_content(cards, weapon_cards, dice, white, needs, order, evaluation, content)
        return self.handle

    @staticmethod
    def _effect_row(do: str, get: Any) -> tuple[int, ...]:
        def pick(name: str, values: tuple[str, ...]) -> int:
            value = get(name)
            return values.index(value) if isinstance(value, str) and value in values else 0

        return (
            EFFECT_NAMES.index(do), pick("resource", _EFFECT_RESOURCES), pick("who", _WHO), pick("source", _SOURCES),
            pick("kind", KINDS), pick("die", DIE_COLOURS), pick("building", _EFFECT_BUILDINGS),
            pick("give", _EFFECT_RESOURCES), *(int(get(name)) for name in _INT_PARAMS),
        )  # fmt: skip

    # Actions ----------------------------------------------------------------------------------------

    def encode(self, action: ValdaAction) -> int | None:
        """The code of an action (None if this pack has no such card, god or option)."""
        kind, a, b = action.kind, action.name, action.to
        index = _KIND_INDEX.get(kind)
        if index is None:
            return None
        try:
            first, second = self._arguments(kind, a, b)
        except (KeyError, ValueError):
            return None
        return (index << 16) | (first << 8) | second

    def _arguments(self, kind: str, a: str, b: str) -> tuple[int, int]:
        if kind in ("trade", "swap"):
            return RESOURCES.index(a), RESOURCES.index(b)
        if kind in _RESOURCE_ARGUMENT:
            return RESOURCES.index(a), 0
        if kind in _CARD_ARGUMENT:
            return self.card_index[a], 0
        if kind in _BUILDING_ARGUMENT:
            return self.building_index[a], 0
        if kind == "move":
            return self.god_index[a], self.god_index[b]
        if kind == "god":
            return self.god_index[a], 0
        if kind == "weapon":
            return OPTIONS.index(a), 0
        if kind == "seat":
            return int(a), 0
        if kind == "face":
            return int(a), int(b)
        return 0, 0

    def decode(self, code: int) -> ValdaAction:
        """The action of a code."""
        action = self._decoded.get(code)
        if action is None:
            kind = ACTION_KINDS[code >> 16]
            a, b = (code >> 8) & 255, code & 255
            if kind in ("trade", "swap"):
                action = ValdaAction(kind, RESOURCES[a], RESOURCES[b])
            elif kind in _RESOURCE_ARGUMENT:
                action = ValdaAction(kind, RESOURCES[a])
            elif kind in _CARD_ARGUMENT:
                action = ValdaAction(kind, self.cards[a])
            elif kind in _BUILDING_ARGUMENT:
                action = ValdaAction(kind, self.buildings[a])
            elif kind == "move":
                action = ValdaAction(kind, GODS[a], GODS[b])
            elif kind == "god":
                action = ValdaAction(kind, GODS[a])
            elif kind == "weapon":
                action = ValdaAction(kind, OPTIONS[a])
            elif kind == "seat":
                action = ValdaAction(kind, a)
            elif kind == "face":
                action = ValdaAction(kind, a, b)
            else:
                action = ValdaAction(kind)
            self._decoded[code] = action
        return action

    # Positions --------------------------------------------------------------------------------------

    def why(self, text: str) -> int:
        """A reason's number: a card, a weapon option, the dice, Loki's dice, or a face of choice of one."""
        if text.endswith(_FACE_OF_CHOICE):
            return _WHY_FACE + self.why(text[: -len(_FACE_OF_CHOICE)])
        if text == "dice":
            return _WHY_DICE
        if text == "loki":
            return _WHY_LOKI
        if text in self.card_index:
            return self.card_index[text]
        return _WHY_OPTION + OPTIONS.index(text)

    def _window_argument(self, window: str, args: list[Any]) -> int:
        if not args:
            return -1
        return int(args[0]) if window == "rolled" else self.building_index[str(args[0])]

    def decision(self, decision: Mapping[str, Any]) -> list[Any]:
        """A decision in the C engine's form (see ``decision_to_list`` in _search.c)."""
        kind = decision["kind"]
        fields = dict.fromkeys(
            ("target", "god", "building", "discount", "give", "window", "amount", "followers", "left", "count", "why"),
            0,
        )
        cost, waived, mask, arg = [0, 0, 0], [0, 0, 0], 0, -1
        items: list[int] = []
        extra: list[int] = []
        cards = self.card_index
        if "why" in decision:
            fields["why"] = self.why(decision["why"])
        if kind in ("attack", "steal", "destroy", "move"):
            fields["target"] = decision["target"]
        if kind == "free-build":
            fields["discount"] = decision["discount"]
            fields["building"] = _EFFECT_BUILDINGS.index(decision["building"])
        elif kind == "waive":
            fields["building"] = self.building_index[decision["building"]]
            fields["left"] = decision["left"]
            for index, name in enumerate(RESOURCES):
                if name in decision["cost"]:
                    mask |= 1 << index
                    cost[index] = decision["cost"][name]
                waived[index] = decision["waived"].get(name, 0)
        elif kind in GOD_CARD_DECISIONS:
            fields["god"] = self.god_index[decision["god"]]
            items = self._cards(decision["cards"])
        elif kind == "steal":
            items = [RESOURCES.index(name) for name in decision["options"]]
        elif kind == "destroy":
            items = [self.building_index[name] for name in decision["options"]]
        elif kind == "move":
            items = [self.god_index[a] * 8 + self.god_index[b] for a, b in decision["moves"]]
        elif kind == "convert":
            fields["give"] = RESOURCES.index(decision["give"])
            for name in ("amount", "followers", "left"):
                fields[name] = decision[name]
        elif kind == "look":
            items = list(decision["seats"])
            fields["count"] = decision["count"]
        elif kind in ("peek", "discard-pick", "hammer"):
            items = self._cards(decision["cards"])
        elif kind in ("god-draw", "lend"):
            items = [self.god_index[g] for g in decision["gods"]]
        elif kind == "window":
            fields["window"] = WINDOW_NAMES.index(decision["window"])
            items = [OPTIONS.index(option) for option in decision["options"] or ()]
            arg = self._window_argument(decision["window"], decision["args"])
        elif kind == "thief":
            items = list(decision["seats"])
            extra = [cards[c] for c in decision["open"]]
        elif kind == "face":
            items = list(decision["dice"])
        elif kind == "redirect":
            items = list(decision["seats"])
        return [DECISIONS.index(kind), decision["seat"], *fields.values(), arg, *cost, *waived, mask, items, extra]

    def _cards(self, cards: list[str] | int) -> list[int]:
        """Card numbers; a count of cards a view hides: placeholders, dealt by the sampler."""
        return [0] * cards if isinstance(cards, int) else [self.card_index[c] for c in cards]

    def step(self, step: tuple[Any, ...] | list[Any]) -> list[Any]:
        """A state's or a view's queue step as the C engine has it: [step, seat, a, b, c] or [redecide, decision]."""
        name = step[0]
        index = STEPS.index(name)
        if name == "redecide":
            return [index, self.decision(json.loads(step[1]) if isinstance(step[1], str) else step[1])]
        if name == "dice_outcome":
            return [index, step[1], step[2], self.why(step[3]), 0]
        if name in ("choose", "ask_god_draw"):
            return [index, step[1], self.why(step[2]), 0, 0]
        if name == "window":
            return [index, 0, WINDOW_NAMES.index(step[1]), self._window_argument(step[1], list(step[2:])), 0]
        if name == "offer":
            return [index, step[2], WINDOW_NAMES.index(step[1]), self._window_argument(step[1], list(step[3:])), 0]
        if name == "do_build":
            return [index, step[1], self.building_index[step[2]], 0, 0]
        if name == "temple_rewards":
            return [index, step[1], self.god_index[step[2]], 0, 0]
        if name == "lock_card":
            return [index, 0, self.god_index[step[1]], step[2], 0]
        if name == "open_cards":
            return [index, 0, step[1], 0, 0]
        if name == "attacker":
            return [index, step[1], 0, 0, 0]
        if name == "effect":
            _, seat, do, params, card, target = step
            key = (do, tuple(tuple(pair) for pair in params))
            return [index, seat, self.card_index[card], self.effect_index[card][key], target]
        if name == "ask_discard_pick":
            return [index, step[1], KINDS.index(step[2]), self.why(step[3]), 0]
        if name == "ask_steal":
            return [index, step[1], step[2], _EFFECT_RESOURCES.index(step[3]), self.why(step[4])]
        return [index, 0, 0, 0, 0]

    def attack(self, attack: dict[str, Any]) -> list[Any]:
        """The attack record in the C engine's form (see ``SS_export`` in _search.c)."""
        if not attack:
            return [0] * 16 + [[]]
        if "card" not in attack:  # the followers phase's record: conversions used, Loki rolled
            uses = attack.get("uses", {})
            return [2, *[0] * 10, int(bool(attack.get("loki"))), *(uses.get(k, 0) for k in _CONVERSIONS), []]
        flags = [int(bool(attack.get(k))) for k in ("cancelled", "undefendable", "resolved", "again", "soulspear")]
        return [
            1, attack["attacker"], attack["target"], self.card_index[attack["card"]], attack["power"],
            attack["defence"], *flags, 0, 0, 0, 0, 0, [self.card_index[c] for c in attack["used"]],
        ]  # fmt: skip

    def position(
        self,
        config: Any,
        rng: Iterable[int],
        seats: Sequence[dict[str, Any]],
        base: list[int],
        gods: list[list[int]],
        open_cards: list[int],
        public: Mapping[str, Any],
    ) -> dict[str, Any]:
        """The one form of a position that the C engine's ``build()`` takes and its ``export()`` gives.

        ``seats``: each seat's fields (see :meth:`seat`); ``base``, ``gods`` and
        ``open_cards``: card numbers; ``public``: the public fields named as views name them
        (:data:`_PUBLIC`), from a state's attributes or a view.
        """
        cards = self.card_index
        return {
            "players": config.players,
            "turnaround": int(config.turnaround),
            "race": int(config.race),
            "rng": list(rng),
            "seats": list(seats),
            "base": base,
            "gods": gods,
            "discard": [cards[c] for c in public["discard"]],
            "sites": [list(public["sites"][god]) for god in GODS],
            "locks": [int(public["locks"].get(god, -1)) for god in GODS],
            "open": open_cards,
            "round": public["round"],
            "start": public["start"],
            "order": list(public["order"]),
            "turn": public["turn"],
            "phase": PHASES.index(public["phase"]),
            "actions": public["actions"],
            "free_yellow": public["free_yellow"],
            "builds": public["builds"],
            "lent": [int(god in public["lent"]) for god in GODS],
            "open_closed": int(public["open_closed"]),
            "dice": [[DIE_COLOURS.index(colour), int(face)] for colour, face in public["dice"]],
            "attack": self.attack(public["attack"]),
            "decision": None if public["decision"] is None else self.decision(public["decision"]),
            "queue": [self.step(step) for step in public["queue"]],
            "backstabbed": int(public["backstabbed"]),
            "reshuffles": public["reshuffles"],
            "winner": -1 if public["winner"] is None else public["winner"],
            "finished": int(public["finished"]),
            "error": 0,
        }

    @staticmethod
    def seat(
        resources: Sequence[int],
        mines: int,
        drills: int,
        temples: Mapping[str, int],
        followers: int,
        floor: int,
        hand: list[int],
    ) -> dict[str, Any]:
        """One seat's fields in the form of :meth:`position` (``hand``: card numbers)."""
        return {
            "resources": [int(amount) for amount in resources],
            "mines": int(mines),
            "drills": int(drills),
            "temples": [int(temples.get(god, 0)) for god in GODS],
            "followers": int(followers),
            "floor": int(floor),
            "hand": hand,
        }

    def export(self, state: ValdaState) -> dict[str, Any]:
        """Every field of ``state`` that the rules read, in the one form (:meth:`position`)."""
        cards = self.card_index
        seats = [
            self.seat(p.resources, p.mines, p.drills, p.temples, p.followers, p.floor, [cards[c] for c in p.hand])
            for p in state.players
        ]
        return self.position(
            state.config,
            state.rng.getstate(),
            seats,
            [cards[c] for c in state.base],
            [[cards[c] for c in state.gods[god]] for god in GODS],
            [cards[c] for c in state.open],
            {name: getattr(state, name) for name in _PUBLIC},
        )

    # Worlds ----------------------------------------------------------------------------------------

    def template(self, belief: ValdaBelief) -> dict[str, Any]:
        """A world of ``belief``'s view in the one form, its hidden cards placeholders (see :meth:`plan`)."""
        view = belief.view
        cards = self.card_index

        def deck(name: str, size: int) -> list[int]:
            under = [0 if card is None else cards[card] for card in belief.bottoms.get(name, [])]
            return [*under, *[0] * (size - len(under))]

        seats = []
        for index, raw in enumerate(view["seats"]):
            if index == belief.seat:
                hand = [cards[c] for c in view["hand"]]
            else:
                held = [cards[c] for c in belief.held[index]]
                hand = [*held, *[0] * (int(raw["hand"]) - len(held))]
            resources = [raw["resources"][name] for name in RESOURCES]
            seats.append(
                self.seat(resources, raw["mines"], raw["drills"], raw["temples"], raw["followers"], raw["floor"], hand)
            )
        shown = view["open"]
        return self.position(
            belief.config,
            (1, 0, 0, 0),  # the redeal seeds the world's generator
            seats,
            deck("base", view["base"]),
            [deck(god, view["god_decks"][god]) for god in GODS],
            [cards[c] for c in shown] if shown is not None else [0] * view["open_count"],
            view,
        )

    def plan(self, belief: ValdaBelief) -> bytes:
        """How :meth:`ValdaBelief.sample` deals the hidden cards, for the C engine's ``redeal``.

        The same takes in the same order (a decision's god cards, the god decks, a peek's
        base cards, the base deck, closed open cards, the other hands), each the first
        cards of the shuffled unknown cards that fit it, and where each card goes.
        """
        view = belief.view
        content = belief.config.content
        unknown = list(map(self.card_index.__getitem__, belief.unknown.elements()))
        words = [len(unknown), *unknown, 0]  # the last word: how many takes follow
        takes = 0

        def take(fits: int, to: int, which: int, positions: range | list[int]) -> None:
            nonlocal takes
            if len(positions) > 0:
                words.extend((fits, to, which, len(positions)))
                words.extend(positions)
                takes += 1

        def deck(name: str, size: int, fits: int, to: int, which: int) -> None:
            under = belief.bottoms.get(name, [])
            for position, card in enumerate(under):
                if card is None:
                    take(fits, to, which, [position])
            take(fits, to, which, range(len(under), size))

        decisions = belief.decisions
        for index, decision in enumerate(decisions):
            if decision and decision["kind"] in GOD_CARD_DECISIONS and isinstance(decision["cards"], int):
                take(self.god_index[decision["god"]], _TO_DECISION, index, range(decision["cards"]))
        for god in content.gods:
            deck(god, view["god_decks"][god], self.god_index[god], _TO_GOD, self.god_index[god])
        base_fits = _FITS_BASE if view["reshuffles"] == 0 else _FITS_ANY
        for index, decision in enumerate(decisions):
            if decision and decision["kind"] == "peek" and isinstance(decision["cards"], int):
                take(base_fits, _TO_DECISION, index, range(decision["cards"]))
        deck("base", view["base"], base_fits, _TO_BASE, 0)
        if view["open"] is None:
            take(_FITS_ANY, _TO_OPEN, 0, range(view["open_count"]))
        for index, raw in enumerate(view["seats"]):
            if index != belief.seat:
                take(_FITS_ANY, _TO_HAND, index, range(len(belief.held[index]), int(raw["hand"])))
        words[len(unknown) + 1] = takes
        for decision in decisions:
            if decision and decision["kind"] == "hammer" and isinstance(decision["cards"], int):
                # The belief deals that hand under a constraint the C deal does not follow.
                raise ValueError("the view's hidden cards cannot be dealt here: a hammer's cards are hidden")
        decision = view["decision"]
        words.append(int(bool(decision) and decision["kind"] == "window" and decision["options"] is None))
        return array("h", words).tobytes()


def tables(content: Content) -> NativeTables | None:
    """The C engine's tables of a pack (registered once), or None if the engine cannot hold it.

    Kept with the pack in the one content cache (:func:`meadhall.core.content.pack_derived`):
    a pack dropped from it takes its C tables along once no search state uses them.
    """
    if not AVAILABLE:
        return None
    return pack_derived(content, _registered)


def _registered(content: Content) -> NativeTables | None:
    found = NativeTables(content)
    if not found.expressible():
        return None
    found.register()
    return found


def to_search(state: ValdaState) -> Any | None:
    """A C search copy of ``state``, or ``None`` (no extension, or a pack the C engine cannot hold)."""
    found = tables(state.config.content)
    if found is None:
        return None
    assert _native is not None
    return _native.build(found.handle, found.export(state))


def restore(content: Content, data: bytes) -> Any:
    """The C search state whose ``to_bytes()`` gave ``data``, on ``content``'s tables (unpickling).

    The bytes hold every field of the position, its generator included, and no pointer:
    read back on the tables of the same pack, they are the same state.
    """
    found = tables(content)
    if found is None:
        raise ValueError("the C search engine is not built here, or cannot hold this content pack")
    assert _native is not None
    return _native.from_bytes(found.handle, data)


def _reduce(state: Any) -> tuple[Any, tuple[Content, bytes]]:
    """How pickle and copy take a C search state apart: its pack and its bytes (see :func:`restore`)."""
    owner = state.owner
    if not isinstance(owner, Content):  # tables registered outside NativeTables name no pack
        raise TypeError("this Valda search state's tables name no content pack, so it cannot be pickled")
    return restore, (owner, state.to_bytes())


if _native is not None:
    # The C type knows its tables but not the pack they came from, which lives here: the
    # bridge gives the type its pickling (copyreg), by the pack and the state's bytes.
    copyreg.pickle(_native.SearchState, _reduce)


def export_reference(state: ValdaState) -> dict[str, Any]:
    """``state`` in the form of the search engine's ``export()`` (for tests)."""
    found = tables(state.config.content)
    assert found is not None, "the C search engine cannot hold this pack"
    return found.export(state)


def _default_tables() -> NativeTables:
    from meadhall.games.valda.content import default_content

    found = tables(default_content())
    assert found is not None, "the C search engine is not built"
    return found


def encode(action: ValdaAction, content: Content | None = None) -> int | None:
    """The search code of an action (``content``: the pack, default meadhall's)."""
    found = _default_tables() if content is None else tables(content)
    return None if found is None else found.encode(action)


def decode(code: int, content: Content | None = None) -> ValdaAction:
    """The action of a search code (``content``: the pack, default meadhall's)."""
    found = _default_tables() if content is None else tables(content)
    assert found is not None, "the C search engine cannot hold this pack"
    return found.decode(code)


class NativeSampler:
    """Worlds in the C search engine, dealt as :meth:`ValdaBelief.sample` deals them.

    The view's public part is copied into C once (a template); each sample deals the
    hidden cards again in C, with the same draws of the generator as the belief: the
    world is the one ``belief.sample(rng)`` would give, and ``rng`` ends in the same state.
    """

    def __init__(self, belief: ValdaBelief, found: NativeTables) -> None:
        assert _native is not None
        self.belief = belief
        self.tables = found
        self.template = _native.build(found.handle, found.template(belief))
        self.plan = found.plan(belief)

    def sample(self, rng: Rng) -> Any:
        """One world consistent with the view, as a C search state."""
        world = self.template.clone()
        rng.setstate(world.redeal(self.plan, rng.getstate()))
        return world

    def encode(self, action: Hashable) -> Hashable:
        """The search code of a Valda action."""
        assert isinstance(action, ValdaAction)
        return self.tables.encode(action)

    def decode(self, key: Hashable) -> ValdaAction:
        """The Valda action of a search code."""
        assert isinstance(key, int)
        return self.tables.decode(key)


class VectorGames:
    """Valda's fast vector backend (:class:`meadhall.core.spaces.VectorBackend`): games dealt and stepped in C.

    ``n`` C search states in a list, stepped by the action index of Valda's action space
    (``listed``: its actions in index order) with ``_search.vector_step``, which writes
    each game's seat to move, mask and done flag into the buffers; each game is dealt by
    ``_search.vector_deal`` with the draws of :meth:`ValdaState.new` (the same game as the
    Python backend's for the same seed). A finished game's rewards are written here: one
    game ends in hundreds of steps. Observations (wanted when ``buffers.observations`` is
    an array) are written by ``_search.vector_observe``, Valda's observation encoder in C:
    the games dealt by ``vector_deal`` keep what each seat knows of the other hands and
    under the decks (``board.py``'s ``known`` and ``bottoms``), so the observation is the
    Python encoder's, float for float (tests/rl/test_vector.py).
    """

    def __init__(
        self,
        config: rules.ValdaConfig,
        found: NativeTables,
        listed: Sequence[ValdaAction],
        buffers: Any,
        shape: ObservationShape,
    ) -> None:
        assert _native is not None
        self.buffers = buffers
        self.observe = buffers.observations is not None
        self.observation_tables = observation_tables(found, shape, buffers)
        codes = [found.encode(action) for action in listed]
        self.index_codes = array("i", [-1 if code is None else code for code in codes])
        pairs = sorted((code, index) for index, code in enumerate(codes) if code is not None)
        self.lookup = array("i", [value for pair in pairs for value in pair])
        self.template = _native.build(found.handle, found.export(_unshuffled(config)))
        starting = config.content.starting_resources[config.players]
        self.resources = [given.get(name, 0) for given in starting for name in RESOURCES]
        self.n = buffers.n
        self.seed = buffers.seed
        self.episodes = [0] * self.n
        self.games: list[Any] = []
        self.rewards = memoryview(buffers.rewards).cast("B").cast("f")
        self.dones = memoryview(buffers.dones).cast("B")
        self.players = config.players
        self.rewarded: list[int] = []

    @classmethod
    def make(
        cls, config: rules.ValdaConfig, listed: Sequence[ValdaAction], buffers: Any, shape: ObservationShape
    ) -> VectorGames | None:
        """The backend, or ``None``: no C engine, or a pack it cannot hold."""
        found = tables(config.content)
        if found is None:
            return None
        return cls(config, found, listed, buffers, shape)

    def deal(self, seed: int) -> Any:
        """The C search state of ``ValdaState.new(config, seed)``."""
        assert _native is not None
        return _native.vector_deal(self.template, seed, START_HAND, self.resources)

    def _new_game(self, slot: int) -> Any:
        from meadhall.core.spaces import episode_seed

        self.episodes[slot] += 1
        return self.deal(episode_seed(self.seed, slot, self.episodes[slot] - 1))

    def reset(self, seed: int | None) -> None:
        """Deal every slot a new game (``seed``: start again from that seed's first games)."""
        assert _native is not None
        if seed is not None:
            self.seed = seed
            self.episodes = [0] * self.n
        self.games = [self._new_game(slot) for slot in range(self.n)]
        for index in range(len(self.rewards)):
            self.rewards[index] = 0.0
        for slot in range(self.n):
            self.dones[slot] = 0
        self.rewarded = []
        _native.vector_show(self.games, range(self.n), self.lookup, self.buffers.masks, self.buffers.to_play)
        if self.observe:
            _native.vector_observe(
                self.games, None, self.buffers.to_play, self.buffers.observations, self.observation_tables
            )

    def step(self, actions: Any) -> None:
        """Apply one action index per game; deal a new game where one ends (its rewards written)."""
        from meadhall.core.spaces import rank_rewards

        assert _native is not None
        players = self.players
        for slot in self.rewarded:
            for seat in range(players):
                self.rewards[slot * players + seat] = 0.0
        buffers = self.buffers
        ended = _native.vector_step(
            self.games, actions, self.index_codes, self.lookup, buffers.masks, buffers.to_play, buffers.dones
        )
        for slot in ended:
            for seat, reward in enumerate(rank_rewards(self.games[slot].ranking())):
                self.rewards[slot * players + seat] = reward
            self.games[slot] = self._new_game(slot)
        self.rewarded = ended
        if ended:
            _native.vector_show(self.games, ended, self.lookup, buffers.masks, buffers.to_play)
        if self.observe:
            _native.vector_observe(self.games, None, buffers.to_play, buffers.observations, self.observation_tables)

    def random_actions(self, uniforms: Any, out: Any) -> None:
        """A legal index per game, the ``floor(uniform * count)``-th of its mask (``search_ext.h``'s pick)."""
        assert _native is not None
        _native.vector_pick(self.buffers.masks, uniforms, out)


@dataclass(frozen=True)
class ObservationShape:
    """What :mod:`meadhall.games.valda.spaces` gives the C encoder of its observation (it owns them)."""

    slots: int  #: seats an observation has room for (the game's most players)
    phases: tuple[str, ...]  #: the phases' one-hot order
    dice: int  #: the most dice an observation shows


def observation_tables(found: NativeTables, shape: ObservationShape, buffers: Any) -> array[int]:
    """``_search.vector_observe``'s tables: the observation's sizes, and where each C number goes in it.

    The header (the seats' slots, the pack's cards and gods, the decision kinds, floats per
    observation, dice shown), then the place in the observation's lists of each C card, god
    (-1: not in the pack), decision kind (-1: none) and phase.
    """
    content = found.content
    cards, gods, kinds = list(content.cards), list(content.gods), list(DECISION_KINDS)
    size = 0 if buffers.observations is None else int(buffers.observations.shape[1])
    return array(
        "i",
        [
            shape.slots,
            len(cards),
            len(gods),
            len(kinds),
            size,
            shape.dice,
            *(cards.index(card) for card in found.cards),
            *(gods.index(god) if god in gods else -1 for god in GODS),
            *(-1 if kind is None else kinds.index(kind) for kind in DECISIONS),
            *(shape.phases.index(phase) for phase in PHASES),
        ],
    )


def _unshuffled(config: rules.ValdaConfig) -> ValdaState:
    """A game of ``config`` before the deal, its decks in the pack's order (``vector_deal``'s template)."""
    state = ValdaState(config, 0)
    state.base = config.content.deck(None)
    state.gods = {god: config.content.deck(god) for god in config.content.gods}
    return state
