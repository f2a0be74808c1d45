"""How bots search Valda: an evaluation of followers, income, temples, resources and cards.

Valda is scored by followers alone, and most decisions (a resource, a mine, a card kept)
change no follower at once, so the generic evaluation (the score) cannot tell them
apart. :func:`evaluate` estimates a player's followers at the end of the game instead:
the followers now, plus what the position will bring in the turns left — the dice its
mines and blood drills roll, the followers its Loki, Thor and Odin temples convert, the
resources and cards in hand turned into followers at the rates the gods offer — with the
safe zone reached as a small insurance against attacks and buildings as the tie-break.
Its rates (what a resource, a die, a temple's ability and each card are worth) are in
:mod:`meadhall.games.valda.rates`, which the C engine's bridge hands to the C evaluation.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import ModuleType
from typing import Any

from meadhall.core.game import Game
from meadhall.core.rng import Rng
from meadhall.core.search import BeliefSampler, EvaluationAdapter, SearchSampler, SearchState
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.rates import DIE_INCOME, RESOURCE_VALUE, ability_income, card_values
from meadhall.games.valda.state import ValdaState


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
        self.native = native and self._bridge.AVAILABLE

    @property
    def _bridge(self) -> ModuleType:
        """The C engine's bridge, imported when first needed (not kept: an adapter pickles with its bot)."""
        from meadhall.games.valda import native as bridge

        return bridge

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
                    native: SearchSampler = self._bridge.NativeSampler(belief, found)
                    return native
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
