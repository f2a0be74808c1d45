"""meadhall games as OpenSpiel Python games (``pyspiel.register_game``).

``register("valda", players=2)`` registers ``python_meadhall_valda_2p`` and returns its
name; ``pyspiel.load_game(name)`` then plays it with OpenSpiel's algorithms. Needs
``open_spiel`` (``pip install open_spiel``; not in the ``rl`` extra: it is a large download).

* Sequential dynamics: where the rules let several seats decide at once (Blood Rage's
  draft), they decide one after another, each choice hidden until the last one is in.
* Chance is **explicit** (``EXPLICIT_STOCHASTIC``) where the game offers it
  (:meth:`GameState.explicit_chance`: Valda's dice, one chance node per die): the state
  waits at each such event and the chance outcome chosen is applied with
  :meth:`GameState.apply_chance`. The rest of the randomness (and all of it in a game that
  offers none, ``SAMPLED_STOCHASTIC``) comes from the meadhall state's own seeded
  generator; each new initial state is dealt from the next seed of the game's ``seed``
  parameter.
* Observation tensor: :class:`meadhall.rl.Spaces`' observation; information-state tensor
  and string: the seat's perfect-recall record (:class:`meadhall.rl.InformationState`).
* ``resample_from_infostate`` deals a world consistent with the seat's view
  (``GameState.sample_world``), which OpenSpiel's ISMCTS uses (see :func:`ismcts_bot`).
* Returns: :func:`meadhall.rl.reward_of` (+1 first, -1 last, zero-sum).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from meadhall.core.game import MAX_DECISIONS, Game, GameState
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.extras import missing
from meadhall.rl.spaces import InformationState, Spaces, reward_of

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "openspiel", "meadhall.rl.openspiel", {"numpy", "pyspiel"}) from None

#: Spaces (and options) by registered short name: states keep only the name, so cloning is cheap.
_REGISTERED: dict[str, tuple[Spaces, dict[str, Any]]] = {}


def short_name(game: Game | str, players: int) -> str:
    """The OpenSpiel name a meadhall game registers under for ``players`` seats."""
    name = game if isinstance(game, str) else game.info.name
    return f"python_meadhall_{get_game(name).info.name.replace('-', '_')}_{players}p"


def register(game: Game | str, players: int, options: Mapping[str, Any] | None = None) -> str:
    """Register ``game`` for ``players`` seats (once per name) and return its OpenSpiel name."""
    name = short_name(game, players)
    if name in _REGISTERED:
        return name
    spaces = Spaces(game, players, options)
    _REGISTERED[name] = (spaces, dict(options or {}))
    probe, _ = spaces.game.deal(players, 0, options)
    explicit = probe.explicit_chance()
    chance_mode = pyspiel.GameType.ChanceMode
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"meadhall {spaces.game.info.title} ({players} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode.EXPLICIT_STOCHASTIC if explicit else chance_mode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=spaces.action_size,
        max_chance_outcomes=probe.max_chance_outcomes if explicit else 0,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_DECISIONS,
    )

    class _Game(MeadhallSpielGame):
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(game_type, info, dict(params or {}), name)

    pyspiel.register_game(game_type, _Game)
    return name


class MeadhallSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """An OpenSpiel game backed by a meadhall game (built by :func:`register`)."""

    def __init__(self, game_type: Any, info: Any, params: dict[str, Any], name: str) -> None:
        super().__init__(game_type, info, params)
        self.name = name
        self.spaces, self.options = _REGISTERED[name]
        self._seeds = np.random.default_rng(int(params.get("seed", 0)))
        self.explicit = game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC

    def new_initial_state(self) -> MeadhallSpielState:
        """Deal a new game (from the next seed)."""
        state, events = self.spaces.game.deal(self.spaces.players, int(self._seeds.integers(2**62)), self.options)
        if self.explicit:
            state.explicit_chance()
        recall = [self.spaces.information_state(seat) for seat in range(self.spaces.players)]
        for record in recall:
            record.saw(events)
        return MeadhallSpielState(self, state, recall)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeadhallObserver:
        """Observation (``perfect_recall=False``) or information state (``True``) of a seat."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return MeadhallObserver(self.spaces, perfect_recall)


class _Position:
    """A meadhall state and each seat's recall; OpenSpiel deep-copies a state's attributes, this clones."""

    def __init__(self, state: GameState[Any], recall: list[InformationState]) -> None:
        self.state = state
        self.recall = recall

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.clone(), [record.copy() for record in self.recall])


class MeadhallSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a meadhall state and each seat's recall."""

    def __init__(self, game: MeadhallSpielGame, inner: GameState[Any], recall: list[InformationState]) -> None:
        super().__init__(game)
        self.name = game.name
        self.position = _Position(inner, recall)

    @property
    def inner(self) -> GameState[Any]:
        """The meadhall state."""
        return self.position.state

    @property
    def recall(self) -> list[InformationState]:
        """Each seat's perfect-recall record."""
        return self.position.recall

    @property
    def spaces(self) -> Spaces:
        """The game's spaces."""
        return _REGISTERED[self.name][0]

    def current_player(self) -> int:
        """The first seat that must decide, ``CHANCE`` while a chance event waits, or ``TERMINAL``."""
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.inner.chance_outcomes() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.inner.to_move()[0]

    def is_chance_node(self) -> bool:
        """Whether a chance event (explicit chance) waits for its outcome."""
        return not self.inner.is_terminal() and self.inner.chance_outcomes() is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The waiting chance event's outcomes and their probabilities (none at a seat's decision)."""
        return self.inner.chance_outcomes() or []

    def _legal_actions(self, player: int) -> list[int]:
        if player == pyspiel.PlayerId.CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return [int(index) for index in np.flatnonzero(self.spaces.legal_mask(self.inner, player))]

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        if seat == pyspiel.PlayerId.CHANCE:
            events = self.inner.apply_chance(action)
            for record in self.recall:
                record.saw(events)
            return
        chosen = self.spaces.action(action, self.inner)
        self.recall[seat].acted(chosen, action)
        events = self.inner.apply(seat, chosen)
        for record in self.recall:
            record.saw(events)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return str(self.spaces.action(action, self.inner))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        """+1 first place to -1 last at the end; zeros before."""
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players
        return [reward_of(self.inner, seat) for seat in range(self.inner.num_players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> MeadhallSpielState:
        """A world consistent with ``player_id``'s view (hidden parts dealt at random).

        The seat keeps its recall; the other seats' records start from their views of the world.
        """
        del probability_sampler
        seed = int(np.random.default_rng().integers(2**62))
        world = self.inner.sample_world(player_id, Rng(seed))
        if self.get_game().explicit:
            world.explicit_chance()
        recall = []
        for seat, record in enumerate(self.recall):
            if seat == player_id:
                recall.append(record.copy())
                continue
            # Another seat's record of the real game would not match the hands dealt in this world:
            # in the world, it starts from what that seat sees there.
            restart = self.spaces.information_state(seat)
            restart.record.append("world " + json.dumps(world.view(seat), sort_keys=True))
            recall.append(restart)
        return MeadhallSpielState(self.get_game(), world, recall)

    def __str__(self) -> str:
        return json.dumps(self.inner.view(None), sort_keys=True)


class MeadhallObserver:
    """OpenSpiel's PyObserver: a seat's observation, or its information state."""

    def __init__(self, spaces: Spaces, perfect_recall: bool) -> None:
        self.spaces = spaces
        self.perfect_recall = perfect_recall
        size = spaces.observation_size
        if perfect_recall:
            size += spaces.information_state(0).size - spaces.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeadhallSpielState, player: int) -> None:
        """Fill ``tensor`` for ``player`` in ``state``."""
        view = state.inner.view(player)
        if self.perfect_recall:
            self.tensor[:] = state.recall[player].array(view)
        else:
            self.tensor[:] = self.spaces.encode(view, player)

    def string_from(self, state: MeadhallSpielState, player: int) -> str:
        """The seat's record (information state) or its view (observation), as text."""
        if self.perfect_recall:
            return state.recall[player].string()
        return json.dumps(state.inner.view(player), sort_keys=True)


def ismcts_bot(game: Any, max_simulations: int = 50, seed: int = 0) -> Any:
    """OpenSpiel's own ISMCTS bot for a registered meadhall game, sampling worlds with ``sample_world``."""
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=max_simulations,
        random_state=np.random.RandomState(seed),
        # Draws are sampled (and dice too where chance is not explicit): the same information state
        # may meet other draws in another world.
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player))
    return bot
