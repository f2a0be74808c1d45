"""meadhall.rl's environments, spaces and information states pickle and copy mid-game.

An environment read back (``pickle`` or ``copy.deepcopy``) in the middle of a game goes
on exactly as the original: the same observations, masks, rewards and information-state
strings under the same actions (chance and the bots' choices included), to the end.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from meadhall.core.registry import get_game
from meadhall.rl import Spaces
from meadhall.rl.gymnasium import MeadhallEnv
from meadhall.rl.pettingzoo import env, parallel_env

SETUPS = [("voluspa", 2), ("bloodrage-valhalla", 3), ("valda", 2), ("valda", 4)]
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
    "deepcopy": copy.deepcopy,
}


def _same_observation(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert set(a) == set(b)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_an_aec_environment_goes_on_the_same_after_a_copy(name: str, players: int, how: str) -> None:
    original = env(name, players, information_state=True)
    original.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(15):
        observation, *_ = original.last()
        original.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    restored = COPIES[how](original)
    assert restored.spaces.game is get_game(name)  # the game comes back as the registry's one object
    for _steps in range(100_000):
        assert restored.agent_selection == original.agent_selection
        a, b = original.last(), restored.last()
        _same_observation(a[0], b[0])
        assert a[1:] == b[1:]  # reward, terminated, truncated, info (the information-state string)
        if a[2] or a[3]:
            break
        action = int(rng.choice(np.flatnonzero(a[0]["action_mask"])))
        original.step(action)
        restored.step(action)
    assert _steps > 0
    assert restored.rewards == original.rewards
    assert restored.state_ is not None and original.state_ is not None
    assert restored.state_.fingerprint() == original.state_.fingerprint()


@pytest.mark.parametrize(("name", "players"), SETUPS[:3])
def test_a_parallel_environment_pickles_mid_game(name: str, players: int) -> None:
    original = parallel_env(name, players)
    observations, _ = original.reset(seed=9)
    rng = np.random.default_rng(9)

    def actions(seen: dict[str, Any]) -> dict[str, int]:
        return {
            agent: int(rng.choice(np.flatnonzero(part["action_mask"])))
            for agent, part in seen.items()
            if part["action_mask"].any()
        }

    for _ in range(10):
        observations, *_ = original.step(actions(observations))
    restored = pickle.loads(pickle.dumps(original))
    while original.agents:
        chosen = actions(observations)
        observations, rewards, terminations, _, _ = original.step(chosen)
        again, rewards_again, terminations_again, _, _ = restored.step(chosen)
        for agent in observations:
            _same_observation(observations[agent], again[agent])
        assert (rewards_again, terminations_again) == (rewards, terminations)
    assert restored.agents == []


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("name", "players"), SETUPS[:3])
def test_a_gymnasium_environment_against_bots_goes_on_the_same_after_a_copy(name: str, players: int, how: str) -> None:
    original = MeadhallEnv(name, players, seat=0, opponents="greedy")
    observation, _ = original.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(4):
        observation, *_ = original.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    restored = COPIES[how](original)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = original.step(action)
        again, reward_again, done_again, truncated_again, info_again = restored.step(action)
        _same_observation(observation, again)  # the bots chose the same, from the same generator
        assert (reward_again, done_again, truncated_again, info_again) == (reward, done, truncated, info)
    assert restored.state is not None and original.state is not None
    assert restored.state.fingerprint() == original.state.fingerprint()


def test_spaces_and_information_states_pickle() -> None:
    spaces = Spaces("valda", 3, {"preset": "turnaround"})
    restored = pickle.loads(pickle.dumps(spaces))
    assert (restored.version, restored.players, restored.action_size) == (spaces.version, 3, spaces.action_size)
    state = get_game("valda").new_game(players=3, seed=2, options={"preset": "turnaround"})
    seat = state.to_move()[0]
    np.testing.assert_array_equal(restored.legal_mask(state, seat), spaces.legal_mask(state, seat))
    np.testing.assert_array_equal(restored.observation(state, seat), spaces.observation(state, seat))
    recall = spaces.information_state(seat)
    action = state.legal_actions(seat)[0]
    recall.acted(action, spaces.index(action))
    recall.saw(state.apply(seat, action))
    again = pickle.loads(pickle.dumps(recall))
    assert again.string() == recall.string()
    np.testing.assert_array_equal(again.array(state.view(seat)), recall.array(state.view(seat)))


@pytest.mark.parametrize(("name", "players"), [("voluspa", 2), ("bloodrage-valhalla", 3), ("valda", 2)])
def test_openspiel_serialises_and_deserialises_a_state(name: str, players: int) -> None:
    """OpenSpiel's own ``serialize`` (which pickles a Python state's attributes) and ``deserialize_state``."""
    pyspiel = pytest.importorskip("pyspiel")
    from meadhall.rl.openspiel import register

    game = pyspiel.load_game(register(name, players))
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(8):
        state.apply_action(int(rng.choice(state.legal_actions())))
    restored = game.deserialize_state(state.serialize())
    for _ in range(40):
        assert restored.inner.fingerprint() == state.inner.fingerprint()
        assert restored.legal_actions() == state.legal_actions()
        for seat in range(players):
            assert restored.information_state_string(seat) == state.information_state_string(seat)
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        restored.apply_action(action)
