"""How bots search Blood Rage: Valhalla: an evaluation of Glory, stats, board and cards.

The evaluation counts Glory, plus what a clan's position is likely to bring before the
end: the legendary bonus its stats already earn, the value of its stat steps, its figures
where Prove Valor will pay, its upgrades and monsters, and the cards in hand.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from meadhall.core.rng import Rng
from meadhall.core.search import SearchAdapter, SearchState, place_values
from meadhall.games.bloodrage_valhalla.content import STATS
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.state import BloodRageState


def evaluate(state: BloodRageState, seat: int) -> float:
    """Expected final Glory of a clan, roughly: Glory now plus what its position promises."""
    content = state.config.content
    clan = state.clans[seat]
    value = float(clan.glory)
    ages_left = 3 - state.age + (0 if state.phase in ("quest", "valor", "keep", "over") else 1)
    for stat in STATS:
        step = clan.steps[stat]
        last = len(content.tracks[stat]) - 1
        value += content.legendary["top"] if step == last else content.legendary["high"] if step >= 3 else 0
        value += 1.5 * step * ages_left
    if state.phase in ("action", "march", "call", "battle", "resolving", "quest", "draft"):
        valor = content.valor_glory[state.age - 1]
        regions = [content.valhalla, *state.gods_at]
        for region in regions:
            mine = sum(1 for owner, _ in state.board[region] if owner == seat)
            if mine:
                best_other = max(
                    (
                        sum(1 for o, _ in state.board[region] if o == other)
                        for other in range(state.num_players)
                        if other != seat
                    ),
                    default=0,
                )
                value += valor * mine * (0.8 if mine >= best_other else 0.2)
    value += 2.0 * len(clan.upgrades) * ages_left / 3
    for card_id in clan.hand:
        card = content.cards[card_id]
        value += 0.25 * card.strength + 0.5 if card.kind == "battle" else 0.6
    value += 0.3 * clan.rage
    return value


class BloodRageSearchAdapter(SearchAdapter):
    """Search over Blood Rage states with the evaluation above."""

    score_scale = 12.0

    def returns(self, state: SearchState) -> list[float]:
        """Places at the end; before, each seat's share of wins by evaluation difference."""
        if state.is_terminal() or not isinstance(state, BloodRageState):
            return place_values(state.ranking()) if state.is_terminal() else super().returns(state)
        values = [evaluate(state, seat) for seat in range(state.num_players)]
        n = len(values)
        result = []
        for seat in range(n):
            total = sum(
                1.0 / (1.0 + math.exp(-(values[seat] - values[other]) / self.score_scale))
                for other in range(n)
                if other != seat
            )
            result.append(total / (n - 1))
        return result

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Hashable], rng: Rng) -> Hashable:
        """The action after which the clan's evaluation leads the others' most (ties random)."""
        seat = int(view["seat"])
        world = self.game.belief(view).sample(rng)
        assert isinstance(world, BloodRageState)
        best: list[Hashable] = []
        best_value = -math.inf
        for action in legal:
            assert isinstance(action, BRAction)
            after = world.clone()
            after.apply_quiet(seat, action)
            mine = evaluate(after, seat)
            others = max(evaluate(after, s) for s in range(after.num_players) if s != seat)
            value = mine - 0.5 * others
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.below(len(best))]
