"""meadhall.rl's environments pass their libraries' own checks on every game.

PettingZoo's ``api_test`` and ``seed_test`` (AEC, ``action_mask`` in every observation) and
Gymnasium's ``check_env`` (one seat against meadhall's bots).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from meadhall.core.registry import get_game
from meadhall.rl import InformationState, NoSpaces, Spaces, reward_of
from meadhall.rl.gymnasium import MeadhallEnv
from meadhall.rl.pettingzoo import env, parallel_env

SETUPS = [("voluspa", 2), ("bloodrage-valhalla", 3), ("valda", 2), ("valda", 3)]


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo's advice that a Dict observation (observation + action_mask) "probably
        # should be" a Box: the mask is what its own docs ask for.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, players), num_cycles=60)
        seed_test(lambda: env(name, players), num_cycles=30)


@pytest.mark.parametrize(("name", "players"), SETUPS[:3])
def test_pettingzoo_parallel_api_and_seed_tests(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        parallel_api_test(parallel_env(name, players), num_cycles=60)
        parallel_seed_test(lambda: parallel_env(name, players), num_cycles=30)


def test_parallel_steps_take_blood_rages_draft_at_once() -> None:
    parallel = parallel_env("bloodrage-valhalla", 3)
    observations, _ = parallel.reset(seed=3)
    deciding = [agent for agent, seen in observations.items() if seen["action_mask"].any()]
    assert deciding == parallel.possible_agents  # the draft: every seat picks at once
    picks = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in deciding}
    observations, rewards, terminations, _, _ = parallel.step(picks)
    assert not any(terminations.values()) and set(rewards.values()) == {0.0}
    state = parallel.turns.state_
    assert state is not None and state.view(0)["my_pick"] is None  # all three picks applied, packs passed on
    illegal = {agent: int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0]) for agent in deciding}
    _, rewards, terminations, _, infos = parallel.step(illegal)
    assert all(terminations.values()) and rewards["seat_0"] == -1.0 and sum(rewards.values()) == 0.0
    assert infos["seat_0"] == {"illegal_action": True} and not parallel.agents


@pytest.mark.parametrize(("name", "players"), SETUPS[:3])
def test_gymnasium_check_env(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the infinite upper bound of counts
        check_env(MeadhallEnv(name, players), skip_render_check=True)


@pytest.mark.parametrize(("name", "players"), SETUPS[:3])
def test_a_whole_pettingzoo_game_ends_with_rewards_by_place(name: str, players: int) -> None:
    aec = env(name, players, information_state=True)
    aec.reset(seed=5)
    rng = np.random.default_rng(5)
    final: dict[str, float] = {}
    for agent in aec.agent_iter(max_iter=20_000):
        observation, reward, terminated, truncated, info = aec.last()
        assert info["information_state"].startswith(f"seat {agent.split('_')[1]}")
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
            continue
        assert observation["action_mask"].any()
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not aec.agents
    state = aec.state_
    assert state is not None and state.is_terminal()
    assert final == {f"seat_{seat}": reward_of(state, seat) for seat in range(players)}
    places = state.ranking()
    assert abs(sum(final.values())) < 1e-9
    if places.count(1) == 1:
        assert final[f"seat_{places.index(1)}"] == 1.0


def test_gymnasium_episode_against_greedy_and_an_illegal_index() -> None:
    environment = MeadhallEnv("valda", 2, opponents="greedy")
    observation, _ = environment.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = environment.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


def test_spaces_as_arrays_and_blocks() -> None:
    spaces = Spaces("valda", 2)
    state = get_game("valda").new_game(2, seed=3)
    seat = state.to_move()[0]
    observation = spaces.observation(state, seat)
    assert observation.dtype == np.float32 and observation.shape == (spaces.observation_size,)
    blocks = spaces.blocks(observation)
    assert blocks["hand"].sum() == len(state.view(seat)["hand"])
    mask = spaces.legal_mask(state, seat)
    assert mask.dtype == np.int8 and int(mask.sum()) == len(state.legal_actions(seat))
    recall = spaces.information_state(seat)
    assert isinstance(recall, InformationState)
    assert recall.array(state.view(seat)).shape == (recall.size,)


def test_a_game_without_spaces_raises_no_spaces() -> None:
    with pytest.raises(NoSpaces, match="Toy Duel offers no action index"):
        Spaces("toy", 2)


def test_gymnasium_opponents_get_the_bot_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    import meadhall.bots as bots
    from tests.bots.test_own_bot import Hooked

    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))
    bots.register_bot("hooked", lambda budget: Hooked())
    environment = MeadhallEnv("valda", 2, opponents="hooked")
    observation, _ = environment.reset(seed=4)
    done = False
    while not done:
        observation, _, done, _, _ = environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    (opponent,) = environment.bots.values()
    assert isinstance(opponent, Hooked)
    assert opponent.resets == [("valda", 1)] and opponent.seen
    assert opponent.last is not None and opponent.last["finished"] is True
