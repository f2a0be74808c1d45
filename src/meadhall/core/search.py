"""What search bots need from a game, with defaults that work for every game.

A bot searches *worlds*: full states sampled from its seat's view (never the true
state). :class:`SearchAdapter` says how: which worlds (``sampler``), how actions of the
search engine map to the game's actions, how to finish a simulation (``rollout``) and
how good a position is for each seat (``returns``). The defaults use the game's own
:class:`~meadhall.core.game.GameState`; a game may subclass the adapter with a faster
engine (a C search engine, say). :class:`GameSearch` is what bots may ask of any
adapter; ``Game.search_adapter()`` returns one.

:mod:`meadhall.core.game` imports this module (for the default adapter); this module
needs the game protocol's types for annotations only, so it imports them for type
checking alone and the two make no import circle.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from meadhall.core.rng import Rng

if TYPE_CHECKING:
    from meadhall.core.game import Action, Belief, Game


class SearchState(Protocol):
    """The part of a game state that search uses (``GameState`` has all of it)."""

    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Legal actions (or action codes) of ``seat``."""
        ...

    def apply_quiet(self, seat: int, action: Any) -> None:
        """Apply a legal action without events."""
        ...

    def clone(self) -> Any:
        """An independent copy."""
        ...

    def is_terminal(self) -> bool:
        """True at the end of the game."""
        ...

    def scores(self) -> list[int]:
        """Scores by seat."""
        ...

    def ranking(self) -> list[int]:
        """Places by seat (1 = first) with the game's tie-breaks."""
        ...


class SearchSampler(Protocol):
    """Worlds consistent with one view, and the mapping of actions to search keys."""

    def sample(self, rng: Rng) -> SearchState:
        """One world, hidden parts dealt at random."""
        ...

    def encode(self, action: Action) -> Hashable:
        """The search engine's key for a game action."""
        ...

    def decode(self, key: Hashable) -> Action:
        """The game action of a search key."""
        ...


class GameSearch(Protocol):
    """How bots search one game: what ``Game.search_adapter()`` returns.

    :class:`SearchAdapter` is the default, and the base games extend.
    """

    def sampler(self, view: Mapping[str, Any]) -> SearchSampler:
        """Worlds consistent with ``view``, and the mapping of actions to search keys."""
        ...

    def rollout(self, state: SearchState, rng: Rng, max_steps: int, epsilon: float) -> None:
        """Play on from ``state`` for at most ``max_steps`` steps."""
        ...

    def best(self, state: SearchState, seat: int, actions: Sequence[Any], rng: Rng) -> Any:
        """The most promising of ``actions`` (search keys) by a cheap heuristic."""
        ...

    def returns(self, state: SearchState) -> list[float]:
        """How good ``state`` is for each seat, in [0, 1]."""
        ...

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The greedy bot's choice among ``legal``."""
        ...


class BeliefSampler:
    """Worlds from the game's own belief; search keys are the game's actions."""

    def __init__(self, belief: Belief) -> None:
        self.belief = belief

    def sample(self, rng: Rng) -> SearchState:
        """One world from the belief."""
        world: SearchState = self.belief.sample(rng)
        return world

    def encode(self, action: Action) -> Hashable:
        """The action itself."""
        return action

    def decode(self, key: Hashable) -> Action:
        """The key itself."""
        return key


def place_values(places: Sequence[int]) -> list[float]:
    """Turn places into values in [0, 1]: first 1, last 0, shared places averaged."""
    n = len(places)
    if n < 2:
        return [1.0] * n
    values = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        # The seats tied at `place` share the positions place .. place + tied - 1.
        mean_position = place + (tied - 1) / 2
        values.append((n - mean_position) / (n - 1))
    return values


class SearchAdapter:
    """How bots search ``game``; the defaults go through the game's own states."""

    #: Score difference that counts as a clear lead in heuristic evaluations.
    score_scale: float = 10.0

    def __init__(self, game: Game) -> None:
        self.game = game

    def sampler(self, view: Mapping[str, Any]) -> SearchSampler:
        """Worlds consistent with ``view`` (by default from the game's belief)."""
        return BeliefSampler(self.game.belief(view))

    def rollout(self, state: SearchState, rng: Rng, max_steps: int, epsilon: float) -> None:
        """Play on from ``state`` for at most ``max_steps`` steps (random by default)."""
        del epsilon
        steps = 0
        while steps < max_steps and not state.is_terminal():
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply_quiet(seat, legal[rng.below(len(legal))])
            steps += 1

    def best(self, state: SearchState, seat: int, actions: Sequence[Any], rng: Rng) -> Any:
        """The most promising of ``actions`` by a cheap heuristic (default: a random one).

        Search expands promising actions first; games with an immediate evaluation
        override this (Völuspá: the greedy choice).
        """
        del state, seat
        return actions[rng.below(len(actions))]

    def returns(self, state: SearchState) -> list[float]:
        """How good ``state`` is for each seat, in [0, 1].

        At the end: from the places. Before: each seat's expected share of wins against
        each other seat, from the score difference (a logistic curve of ``score_scale``).
        """
        if state.is_terminal():
            return place_values(state.ranking())
        scores = state.scores()
        n = len(scores)
        if n < 2:
            return [1.0] * n
        values = []
        for seat in range(n):
            total = 0.0
            for other in range(n):
                if other != seat:
                    total += 1.0 / (1.0 + math.exp(-(scores[seat] - scores[other]) / self.score_scale))
            values.append(total / (n - 1))
        return values

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The action with the best immediate result, by one step of lookahead.

        Games override this with their own evaluation (Völuspá: the turn's points).
        """
        seat = view["seat"]
        sampler = self.sampler(view)
        world = sampler.sample(rng)
        best: list[Action] = []
        best_value = -math.inf
        for action in legal:
            after = world.clone()
            after.apply_quiet(seat, sampler.encode(action))
            value = self.returns(after)[seat]
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[rng.below(len(best))]


class EvaluationAdapter(SearchAdapter):
    """Search with a game's own evaluation: an estimate of each seat's final score.

    Subclasses give :meth:`evaluate` (and :meth:`evaluates`, which states it reads).
    Before the end, each seat's value is its expected share of wins against each other
    seat from the evaluation differences (a logistic curve of ``score_scale``); greedy
    keeps the action after which the seat's evaluation leads the best rival's most.
    """

    def evaluate(self, state: Any, seat: int) -> float:
        """The seat's expected final score in ``state``."""
        raise NotImplementedError

    def evaluates(self, state: SearchState) -> bool:
        """Whether :meth:`evaluate` can read ``state`` (else the score-based default is used)."""
        del state
        return True

    def evaluations(self, state: SearchState) -> list[float]:
        """:meth:`evaluate` for every seat (an engine may compute them all at once)."""
        return [self.evaluate(state, seat) for seat in range(len(state.scores()))]

    def returns(self, state: SearchState) -> list[float]:
        """Places at the end; before, each seat's share of wins by evaluation difference."""
        if state.is_terminal():
            return place_values(state.ranking())
        if not self.evaluates(state):
            return super().returns(state)
        values = self.evaluations(state)
        n = len(values)
        if n < 2:
            return [1.0] * n
        result = []
        for seat in range(n):
            total = sum(
                1.0 / (1.0 + math.exp(-(values[seat] - values[other]) / self.score_scale))
                for other in range(n)
                if other != seat
            )
            result.append(total / (n - 1))
        return result

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The action after which the seat's evaluation leads the best rival's most (ties random).

        It imagines one world consistent with the view and tries every legal action there.
        """
        seat = int(view["seat"])
        world = self.game.belief(view).sample(rng)
        return self.greedy_in(world, seat, legal, legal, rng)

    def greedy_in(
        self, world: SearchState, seat: int, legal: Sequence[Action], keys: Sequence[Any], rng: Rng
    ) -> Action:
        """The best of ``legal`` by the seat's lead over its best rival, each tried in ``world`` as its key.

        The keys are what ``world`` applies (the actions themselves, or a search engine's codes).
        """
        best: list[Action] = []
        best_value = -math.inf
        for action, key in zip(legal, keys, strict=True):
            after = world.clone()
            after.apply_quiet(seat, key)
            mine = self.evaluate(after, seat)
            others = max(self.evaluate(after, s) for s in range(len(after.scores())) if s != seat)
            value = mine - 0.5 * others
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[rng.below(len(best))]
