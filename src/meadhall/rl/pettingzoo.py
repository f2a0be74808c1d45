"""A meadhall game as a PettingZoo AEC environment: every seat an agent, ``action_mask`` in every observation.

``env(game, players=..., options=...)`` builds it. Agents are ``seat_0``, ``seat_1``, ...;
the agent to act is the first seat that must decide (where the rules let several seats
decide at once, as Blood Rage's draft, they act one after another: each choice stays
hidden until the last arrives, as at the table). An observation is a dict:

* ``observation``: the seat's observation tensor (``float32``, :class:`meadhall.rl.Spaces`);
* ``action_mask``: ``int8``, 1 for each legal action of the seat now (all zeros when it
  need not decide).

``parallel_env(...)`` is the same game for PettingZoo's parallel API: each step takes the
actions of every seat that must decide now (all of them at once where the rules say so,
as in Blood Rage's draft; one seat at a time elsewhere); the other seats' masks are all
zeros and their actions, if given, are ignored. An index a deciding seat's mask does not
allow ends the game as that seat's loss (reward -1, the others share +1,
``infos[agent]["illegal_action"]``), as PettingZoo's parallel seed test steps unmasked
random actions.

Rewards come only at the end (:func:`meadhall.rl.reward_of`: +1 first place, -1 last).
``reset(seed=s)`` deals the same game for the same ``s``; ``infos[agent]`` holds the
seat's perfect-recall information-state string under ``"information_state"`` when the
environment is built with ``information_state=True``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from meadhall.core.game import Event, Game, GameState
from meadhall.extras import missing
from meadhall.rl.spaces import InformationState, Spaces, reward_of

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "rl", "meadhall.rl.pettingzoo", {"gymnasium", "numpy", "pettingzoo"}) from None

Observation = dict[str, npt.NDArray[Any]]


class MeadhallAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type hints
    """A meadhall game for PettingZoo's AEC API (see the module)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012  # PettingZoo's own class attribute

    def __init__(
        self,
        game: Game | str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        information_state: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.spaces = Spaces(game, players, options)
        self.game = self.spaces.game
        self.options = dict(options or {})
        self.metadata = {**self.metadata, "name": f"meadhall_{self.game.info.name.replace('-', '_')}_v1"}
        self.render_mode = render_mode
        self.keep_information_state = information_state
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self.spaces.action_size
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (self.spaces.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state_: GameState[Any] | None = None
        self.recall: dict[int, InformationState] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: one index per action of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (the same one for the same ``seed``)."""
        del options
        if seed is not None:
            self._seeds = random.Random(seed)
        state, events = self.game.deal(self.spaces.players, self._seeds.getrandbits(63), self.options)
        self.state_ = state
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.recall = {seat: self.spaces.information_state(seat) for seat in range(self.spaces.players)}
        self._remember(events)
        self.agent_selection = self._next_agent()

    def _remember(self, events: list[Event]) -> None:
        for recall in self.recall.values():
            recall.saw(events)
        if self.keep_information_state:
            for agent in self.agents:
                self.infos[agent]["information_state"] = self.recall[self._seat[agent]].string()

    def _next_agent(self) -> str:
        assert self.state_ is not None
        deciding = self.state_.to_move()
        return self.possible_agents[deciding[0]] if deciding else self.agents[0]

    def observe(self, agent: str) -> Observation:
        """The observation and action mask of ``agent`` now."""
        if self.state_ is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        deciding = not self.state_.is_terminal() and seat in self.state_.to_move()
        mask = self.spaces.legal_mask(self.state_, seat) if deciding else np.zeros(self.spaces.action_size, np.int8)
        return {"observation": self.spaces.observation(self.state_, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index); ``None`` for an agent whose game is over."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None and action is not None
        seat = self._seat[agent]
        chosen = self.spaces.action(int(action), state)
        self._cumulative_rewards[agent] = 0.0
        self.recall[seat].acted(chosen, int(action))
        events = state.apply(seat, chosen)  # an index the mask did not allow raises IllegalAction here
        self._remember(events)
        if state.is_terminal():
            for other in self.agents:
                self.rewards[other] = reward_of(state, self._seat[other])
                self.terminations[other] = True
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public view of the position as JSON, for ``render_mode="ansi"``."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return json.dumps(self.state_.view(None), sort_keys=True)

    def close(self) -> None:
        """Nothing to release."""


class MeadhallParallel(ParallelEnv):  # type: ignore[misc]  # PettingZoo ships no type hints
    """A meadhall game for PettingZoo's parallel API (see the module)."""

    metadata = {"render_modes": [], "is_parallelizable": True}  # noqa: RUF012  # PettingZoo's own class attribute

    def __init__(self, game: Game | str, players: int = 2, options: Mapping[str, Any] | None = None) -> None:
        self.turns = MeadhallAEC(game, players, options)
        self.metadata = {**self.metadata, "name": self.turns.metadata["name"]}
        self.possible_agents = list(self.turns.possible_agents)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.turns.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.turns.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new game (the same one for the same ``seed``); every seat's observation."""
        self.turns.reset(seed, options)
        self.agents = list(self.possible_agents)
        return {agent: self.turns.observe(agent) for agent in self.agents}, {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Apply the actions of every seat that must decide now, in seat order."""
        state = self.turns.state_
        if state is None or not self.agents:
            raise RuntimeError("the game is over: call reset()")
        illegal: str | None = None
        for seat in state.to_move():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must decide now: give its action")
            if seat not in state.to_move():  # a seat's choice may end another's decision (a response window)
                continue
            if not self.turns.spaces.legal_mask(state, seat)[int(actions[agent])]:
                illegal = agent
                break
            self.turns.agent_selection = agent
            self.turns.step(int(actions[agent]))
        over = illegal is not None or state.is_terminal()
        agents = self.agents
        observations = {agent: self.turns.observe(agent) for agent in agents}
        if illegal is not None:
            # An index the mask does not allow ends the game as that seat's loss (the others share
            # its point, so the rewards still sum to zero): a policy learns the mask, a run goes on.
            share = 1.0 / (len(agents) - 1)
            rewards = {agent: -1.0 if agent == illegal else share for agent in agents}
        else:
            rewards = {agent: self.turns.rewards[agent] if over else 0.0 for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if illegal is not None:
            infos[illegal]["illegal_action"] = True
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def parallel_env(game: Game | str, players: int = 2, options: Mapping[str, Any] | None = None) -> MeadhallParallel:
    """A PettingZoo parallel environment of ``game`` (a :class:`~meadhall.core.game.Game` or its name)."""
    return MeadhallParallel(game, players, options)


def env(game: Game | str, players: int = 2, options: Mapping[str, Any] | None = None, **kwargs: Any) -> MeadhallAEC:
    """A PettingZoo AEC environment of ``game`` (a :class:`~meadhall.core.game.Game` or its name)."""
    return MeadhallAEC(game, players, options, **kwargs)
