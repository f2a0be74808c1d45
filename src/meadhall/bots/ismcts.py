"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Every iteration samples a world consistent with the bot's view (the unseen tiles or
cards dealt at random, everything the view reveals kept), then walks one tree shared by
all worlds: at each node only the actions legal in *this* world are available; a child's
"availability" counts how often it could have been chosen, and UCB uses it in place of
the parent's visits. The walk adds one new node, plays on with the game's rollout policy
(Völuspá: epsilon-greedy in the C engine), and backs up each seat's value in [0, 1] to
the nodes where that seat chose. The answer is the root action visited most.

The bot never sees the state: only its seat's view and legal actions. With an iteration
budget its decision depends only on its rng.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from meadhall.bots.budget import Budget
from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng
from meadhall.core.search import GameSearch, SearchSampler, SearchState


class Node:
    """One decision in the shared tree: who chose, and how it went."""

    __slots__ = ("avail", "children", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[Hashable, Node] = {}


class IsmctsBot:
    """ISMCTS with a budget per decision.

    ``exploration`` is the UCB constant; ``rollout_rounds`` how many rounds (each seat's
    turn once) a simulation plays before it is evaluated (``None``: to the end);
    ``epsilon`` the share of random steps in the rollout policy; ``widening`` how fast a
    node considers more actions (about ``1 + widening * sqrt(visits)``, best first).
    """

    name: str = "ismcts"

    def __init__(
        self,
        budget: Budget | None = None,
        exploration: float = 0.7,
        rollout_rounds: int | None = 2,
        epsilon: float = 0.1,
        widening: float = 1.0,
    ) -> None:
        self.budget = budget or Budget(seconds=1.0)
        self.exploration = exploration
        self.widening = widening
        self.rollout_rounds = rollout_rounds
        self.epsilon = epsilon
        self.last: dict[str, Any] = {}
        self._adapters: dict[str, GameSearch] = {}

    def __repr__(self) -> str:
        return f"IsmctsBot(budget={self.budget})"

    def _adapter(self, game: Game) -> GameSearch:
        adapter = self._adapters.get(game.info.name)
        if adapter is None:
            adapter = self._adapters[game.info.name] = game.search_adapter()
        return adapter

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """Search from the view for the budget and return the most visited legal action."""
        if not legal:
            raise ValueError("ISMCTS was asked to choose from no legal actions")
        if len(legal) == 1:
            self.last = {"iterations": 0, "seconds": 0.0, "forced": True}
            return legal[0]
        adapter = self._adapter(game)
        sampler = adapter.sampler(view)
        seat = int(view["seat"])
        by_key = {sampler.encode(action): action for action in legal}
        root = Node(seat)
        clock = self.budget.clock()
        players = len(view.get("seats", ())) or 2
        steps = 10**9 if self.rollout_rounds is None else self.rollout_rounds * players
        while clock.more():
            self._iterate(root, sampler.sample(rng), adapter, rng, steps)
            clock.tick()
        candidates = [(key, child) for key, child in root.children.items() if key in by_key]
        if not candidates:  # no iteration reached a legal action (cannot happen with >= 1 iteration)
            return legal[rng.below(len(legal))]
        key, best = max(candidates, key=lambda kc: (kc[1].visits, kc[1].value / max(kc[1].visits, 1)))
        self.last = {
            "iterations": clock.iterations,
            "seconds": clock.elapsed(),
            "visits": best.visits,
            "value": best.value / max(best.visits, 1),
            "children": len(root.children),
        }
        return by_key[key]

    def _iterate(self, root: Node, world: SearchState, adapter: GameSearch, rng: Rng, steps: int) -> None:
        node = root
        path: list[Node] = []
        log = math.log
        sqrt = math.sqrt
        c = self.exploration
        while not world.is_terminal():
            movers = world.to_move()
            seat = movers[0]
            actions = world.legal_actions(seat)
            children = node.children
            untried: list[Hashable] = []
            available = 0
            for action in actions:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
                    available += 1
            # Progressive widening: a node tries more actions as it is visited more,
            # the most promising first (the game's heuristic, e.g. greedy points).
            if untried and (available == 0 or available < 1 + self.widening * sqrt(node.visits)):
                action = adapter.best(world, seat, untried, rng)
                child = Node(seat)
                child.avail = 1
                children[action] = child
                world.apply_quiet(seat, action)
                path.append(child)
                break
            best_score = -1.0
            chosen: Hashable = None
            for action in actions:
                child = children.get(action)
                if child is None:
                    continue
                score = child.value / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best_score, chosen = score, action
            node = children[chosen]
            world.apply_quiet(seat, chosen)
            path.append(node)
        if not world.is_terminal():
            adapter.rollout(world, rng, steps, self.epsilon)
        values = adapter.returns(world)
        root.visits += 1
        for child in path:
            child.visits += 1
            child.value += values[child.seat]


__all__ = ["IsmctsBot", "Node", "SearchSampler"]
