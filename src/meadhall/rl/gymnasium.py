"""A meadhall game as a Gymnasium environment: one seat learns, meadhall's bots play the others.

``MeadhallEnv("valda", players=2, seat=0, opponents="random")``. An observation is a dict:

* ``observation``: the seat's observation tensor (``float32``, :class:`meadhall.rl.Spaces`);
* ``action_mask``: ``int8``, 1 for each legal action of the seat now.

An action is an index of the game's action space. The opponents (any spec
:func:`meadhall.bots.make_bot` reads: ``random``, ``greedy``, ``ismcts:200``, one spec or
one per other seat) move between the learner's decisions, from their own views, with
chance from the episode's seed; bots with the optional hooks of the bot protocol
(``reset``, ``observe``, ``game_over``: docs/bots.md) are called as in the arena. The
reward comes at the end (:func:`meadhall.rl.reward_of`: +1 first place, -1 last). An
index the mask does not allow ends the episode as a loss (reward -1,
``info["illegal_action"]``): a policy learns the mask instead of crashing the run
(Gymnasium's own checker steps random indices).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.bots import Bot, make_bot
from meadhall.core.errors import IllegalAction
from meadhall.core.game import Game, GameState
from meadhall.core.rng import Rng
from meadhall.extras import missing
from meadhall.lab.selfplay import tell
from meadhall.rl.spaces import Spaces, reward_of

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "rl", "meadhall.rl.gymnasium", {"gymnasium", "numpy"}) from None

Observation = dict[str, Any]  # observation and action_mask, both arrays


class MeadhallEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a meadhall game against bots (see the module)."""

    metadata = {"render_modes": []}  # noqa: RUF012  # Gymnasium's own class attribute

    def __init__(
        self,
        game: Game | str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
    ) -> None:
        self.spaces = Spaces(game, players, options)
        self.game = self.spaces.game
        self.options = dict(options or {})
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: a table of {players} has seats 0 to {players - 1}")
        self.seat = seat
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(specs)}")
        others = [other for other in range(players) if other != seat]
        self.bots: dict[int, Bot] = {other: make_bot(spec) for other, spec in zip(others, specs, strict=True)}
        size = self.spaces.action_size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (self.spaces.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self._seeds = random.Random()
        self.state: GameState[Any] | None = None
        self._rng = Rng(0)
        self._ended = True  # by an illegal index, or before the first reset
        self._observers: list[tuple[int, Any]] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game (the same one, bots' choices included, for the same ``seed``)."""
        super().reset(seed=seed)
        del options
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state, dealt = self.game.deal(self.spaces.players, self._seeds.getrandbits(63), self.options)
        self._rng = Rng(self._seeds.getrandbits(63))
        self._ended = False
        # The bot protocol's optional hooks, as the arena calls them (docs/bots.md).
        self._observers = [
            (seat, hook) for seat, bot in self.bots.items() if callable(hook := getattr(bot, "observe", None))
        ]
        for seat, bot in self.bots.items():
            reset = getattr(bot, "reset", None)
            if callable(reset):
                reset(self.game, seat)
        tell(self._observers, dealt)
        self._others_play()
        return self._observe(), {}

    def _others_play(self) -> None:
        """Let the bots decide until the learner must (or the game is over)."""
        state = self.state
        assert state is not None
        while not state.is_terminal():
            deciding = state.to_move()
            others = [other for other in deciding if other != self.seat]
            if not others:
                return
            other = others[0]
            action = self.bots[other].choose(self.game, state.view(other), state.legal_actions(other), self._rng)
            tell(self._observers, state.apply(other, action))
        for seat, bot in self.bots.items():
            game_over = getattr(bot, "game_over", None)
            if callable(game_over):
                game_over(state.view(seat))

    def _observe(self) -> Observation:
        state = self.state
        assert state is not None
        if state.is_terminal():
            mask = np.zeros(self.spaces.action_size, np.int8)
        else:
            mask = self.spaces.legal_mask(state, self.seat)
        return {"observation": self.spaces.observation(state, self.seat), "action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action index, then the bots' moves up to its next decision."""
        state = self.state
        if state is None or self._ended or state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        try:
            chosen = self.spaces.action(int(action), state)
            events = state.apply(self.seat, chosen)
        except (IllegalAction, ValueError):
            self._ended = True
            return self._observe(), -1.0, True, False, {"illegal_action": True}
        tell(self._observers, events)
        self._others_play()
        if state.is_terminal():
            return self._observe(), reward_of(state, self.seat), True, False, {}
        return self._observe(), 0.0, False, False, {}
