"""How bots search Valda: an evaluation of followers, income, temples, resources and cards.

Valda is scored by followers alone, and most decisions (a resource, a mine, a card kept)
change no follower at once, so the generic evaluation (the score) cannot tell them
apart. :func:`evaluate` estimates a player's followers at the end of the game instead:
the followers now, plus what the position will bring in the turns left — the dice its
mines and blood drills roll, the followers its Loki, Thor and Odin temples convert, the
resources and cards in hand turned into followers at the rates the gods offer — with the
safe zone reached as a small insurance against attacks and buildings as the tie-break.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from meadhall.core.game import Game
from meadhall.core.rng import Rng
from meadhall.core.search import BeliefSampler, EvaluationAdapter, SearchSampler, SearchState
from meadhall.games.valda.content import RESOURCES, Content
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.state import ValdaState

#: Followers a resource is worth, roughly: a temple (about 5 resources) brings a follower,
#: a god card and an ability; Thor converts 3 gold or diamonds, Odin 2 divine blood.
RESOURCE_VALUE = (0.3, 0.2, 0.2)  # divine blood, gold, diamond
#: Followers a card in hand is worth, by kind, where :func:`card_values` has no better
#: estimate (a god weapon; any card of a kind it does not know).
CARD_VALUE = {"yellow": 0.3, "attack": 0.35, "defence": 0.25, "weapon": 0.5}
#: A yellow card in hand is worth this share of what playing it brings: less than all of
#: it, so that cards get played, and it still costs an action to play.
YELLOW_SHARE = 0.6
#: Followers one action is worth: it can always take a resource of choice.
ACTION_VALUE = 0.3
#: Resources a mine's or a blood drill's die brings per turn on average (default dice).
DIE_INCOME = 1.15
#: Followers a temple's ability brings per turn still to come, by god and level. Loki's
#: is the white die's mean per temple (+0.5 with the default faces of round 1; a pack's own
#: faces give its own rate: :func:`ability_income`).
ABILITY_INCOME = {
    "loki": (0.0, 0.5, 1.0),
    "thor": (0.0, 0.3, 0.5),
    "odin": (0.0, 0.35, 0.6),
    "heimdall": (0.0, 0.1, 0.15),
    "freya": (0.0, 0.15, 0.25),
    "surtur": (0.0, 0.15, 0.25),
    "tyr": (0.0, 0.12, 0.2),
}


_ABILITY_TABLES: dict[int, tuple[Content, dict[str, tuple[float, float, float]]]] = {}


def ability_income(content: Content) -> dict[str, tuple[float, float, float]]:
    """:data:`ABILITY_INCOME` for a pack: Loki's rate is the mean of its white die, one die per temple."""
    found = _ABILITY_TABLES.get(id(content))
    if found is None or found[0] is not content:
        faces = content.dice["white"]
        mean = sum(face.followers for face in faces) / len(faces)
        found = (content, {**ABILITY_INCOME, "loki": (0.0, mean, 2 * mean)})
        _ABILITY_TABLES[id(content)] = found
    return found[1]


_CARD_TABLES: dict[int, tuple[Content, dict[str, float]]] = {}


def card_values(content: Content) -> dict[str, float]:
    """Followers each card of the pack is worth in hand, by what it does.

    A yellow card is worth :data:`YELLOW_SHARE` of what playing it brings (its
    :func:`yellow_worth`), so a card that brings two followers is kept over a raid and
    played when there is an action for it; an attack or a defence by its power; a god
    weapon by :data:`CARD_VALUE`.
    """
    found = _CARD_TABLES.get(id(content))
    if found is None or found[0] is not content:
        values: dict[str, float] = {}
        for card in content.cards.values():
            if card.kind == "yellow":
                values[card.id] = min(2.0, max(0.1, YELLOW_SHARE * yellow_worth(card.effects)))
            elif card.kind == "attack":
                values[card.id] = 0.2 + 0.05 * card.power
            elif card.kind == "defence":
                values[card.id] = 0.1 + 0.05 * card.power
            else:
                values[card.id] = CARD_VALUE.get(card.kind, 0.3)
        found = (content, values)
        _CARD_TABLES[id(content)] = found
    return found[1]


def yellow_worth(effects: Sequence[Any]) -> float:
    """Followers a yellow card's effects bring to its player, roughly, at the evaluation's rates."""
    worth = 0.0
    for effect in effects:
        get = effect.get
        match effect.do:
            case "gain":
                if get("who") != "others":
                    worth += int(get("amount")) * _resource_value(str(get("resource")))
            case "followers":
                if get("who") != "others":
                    worth += int(get("amount"))
            case "draw":
                worth += int(get("count")) * (0.45 if get("source") == "god" else CARD_VALUE["yellow"])
            case "actions" | "play_yellow":
                worth += int(get("count")) * ACTION_VALUE
            case "roll":
                worth += int(get("count")) * DIE_INCOME * RESOURCE_VALUE[0 if get("die") == "blue" else 1]
            case "build":
                worth += 0.2 + 0.25 * int(get("discount"))
            case "convert":
                # Worth it only with the resources to give, so half the margin it can make.
                margin = int(get("followers")) - int(get("amount")) * _resource_value(str(get("give")))
                worth += 0.5 * max(0, int(get("times"))) * max(0.0, margin)
            case "peek_take" | "lend":
                worth += 0.35
            case _:  # look, switch_open: information or a better open card
                worth += 0.1
    return worth


def _resource_value(name: str) -> float:
    """The evaluation's rate for a resource; a resource of choice is worth the dearest."""
    if name in RESOURCES:
        return RESOURCE_VALUE[RESOURCES.index(name)]
    return max(RESOURCE_VALUE)


def turns_left(state: ValdaState, seat: int) -> float:
    """The seat's turns still to come, counting the one in progress as half."""
    if state.finished:
        return 0.0
    left = state.config.last_round - state.round
    order = state.order
    if seat == state.current:
        return left + 0.5
    if seat in order and state.current in order and order.index(seat) > order.index(state.current):
        return left + 1.0
    return float(left)


def evaluate(state: ValdaState, seat: int) -> float:
    """The seat's expected followers at the end of the game, roughly (see the module)."""
    player = state.players[seat]
    value = float(player.followers)
    if state.finished:
        return value + 0.01 * player.buildings()
    turns = turns_left(state, seat)
    income = DIE_INCOME * (player.mines * RESOURCE_VALUE[1] + player.drills * RESOURCE_VALUE[0])
    rates = ability_income(state.config.content)
    for god, count in player.temples.items():
        income += rates.get(god, (0.0, 0.1, 0.15))[min(2, count)]
    value += income * turns
    # Resources and cards are worth followers only while there are turns to use them in.
    usable = min(1.0, turns)
    value += usable * sum(amount * worth for amount, worth in zip(player.resources, RESOURCE_VALUE, strict=True))
    worth = card_values(state.config.content)
    value += usable * sum(worth[card] for card in player.hand)
    value += 0.1 * player.floor  # a safe zone keeps followers from attacks
    value += _attack_outlook(state, seat, turns)
    return value + 0.01 * player.buildings()


def _attack_outlook(state: ValdaState, seat: int, turns: float) -> float:
    """An attack announced and not yet resolved, as followers to come for ``seat``.

    It gets through with a chance that depends on how much defence is still missing;
    its impact is valued with the same rates as the evaluation (a follower, a resource,
    a card, a building's income).
    """
    attack = state.attack
    if not attack.get("card") or attack.get("resolved") or attack.get("cancelled"):
        return 0.0
    attacker, target = int(attack["attacker"]), int(attack["target"])
    if seat not in (attacker, target):
        return 0.0
    missing = int(attack["power"]) - int(attack["defence"])
    chance = 1.0 if attack.get("undefendable") else 0.0 if missing <= 0 else min(0.9, 0.45 + 0.15 * missing)
    victim = state.players[target]
    gain = loss = 0.0
    for effect in state.config.content.cards[str(attack["card"])].effects:
        get = effect.get
        match effect.do:
            case "kill":
                loss += min(int(get("amount")), max(0, victim.followers - victim.floor))
            case "steal_followers":
                taken = min(int(get("amount")), max(0, victim.followers - victim.floor))
                gain += taken
                loss += taken
            case "steal_resource":
                worth = min(int(get("amount")), sum(victim.resources)) * 0.25
                gain += worth
                loss += worth
            case "steal_card" | "discard":
                worth = min(int(get("count")), len(victim.hand)) * 0.3
                gain += worth if effect.do == "steal_card" else 0.0
                loss += worth
            case "destroy" | "move_temple":
                loss += 0.25 * turns
    return chance * (gain if seat == attacker else -loss)


class ValdaSearchAdapter(EvaluationAdapter):
    """Search over Valda states with the evaluation above: in the C engine when it is built.

    Worlds are sampled from the belief as :class:`ValdaState` and copied into the C
    search engine (``meadhall.games.valda.native``), which plays the same rules with int
    action codes; without the extension, or with a pack its tables cannot hold, search
    uses :class:`ValdaState` itself.
    """

    score_scale = 4.0

    def __init__(self, game: Game, native: bool = True) -> None:
        super().__init__(game)
        from meadhall.games.valda import native as bridge

        self._bridge = bridge
        self.native = native and bridge.AVAILABLE

    @property
    def engine(self) -> str:
        """Which engine the bots search: ``C`` or ``python``."""
        return "C" if self.native else "python"

    def sampler(self, view: Mapping[str, Any]) -> SearchSampler:
        """Worlds consistent with ``view``, in the C engine when it can hold the pack."""
        belief = self.game.belief(view)
        if self.native:
            from meadhall.games.valda.belief import ValdaBelief

            assert isinstance(belief, ValdaBelief)
            found = self._bridge.tables(belief.config.content)
            if found is not None:
                try:
                    return self._bridge.NativeSampler(belief, found)
                except ValueError:  # a view the C deal cannot follow: the belief's own worlds
                    pass
        return BeliefSampler(belief)

    def evaluate(self, state: Any, seat: int) -> float:
        """See :func:`evaluate` (the C engine computes the same)."""
        if isinstance(state, ValdaState):
            return evaluate(state, seat)
        value: float = state.evaluate(seat)
        return value

    def evaluates(self, state: SearchState) -> bool:
        """ValdaState positions and the C engine's."""
        return isinstance(state, ValdaState) or (self.native and hasattr(state, "evaluate_all"))

    def evaluations(self, state: SearchState) -> list[float]:
        """Every seat's evaluation; the C engine computes them all at once."""
        if isinstance(state, ValdaState):
            return super().evaluations(state)
        native: Any = state
        values: list[float] = native.evaluate_all()
        return values

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Hashable], rng: Rng) -> Hashable:
        """:meth:`EvaluationAdapter.greedy`, each action tried in the C engine when it can."""
        if not self.native:
            return super().greedy(view, legal, rng)
        seat = int(view["seat"])
        world = self.game.belief(view).sample(rng)
        assert isinstance(world, ValdaState)
        found = self._bridge.tables(world.config.content)
        codes = [found.encode(a) if isinstance(a, ValdaAction) else None for a in legal] if found else [None]
        native = self._bridge.to_search(world) if found is not None and None not in codes else None
        if native is None:
            return self.greedy_in(world, seat, legal, legal, rng)
        return self.greedy_in(native, seat, legal, codes, rng)
