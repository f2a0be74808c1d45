"""The games as OpenSpiel Python games: OpenSpiel's random simulation test and its own ISMCTS."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from meadhall.rl.openspiel import ismcts_bot, register

SETUPS = [("voluspa", 2), ("bloodrage-valhalla", 3), ("valda", 2)]


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_random_simulation_test(name: str, players: int) -> None:
    game = pyspiel.load_game(register(name, players))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_openspiel_ismcts_plays_from_sampled_worlds(name: str, players: int) -> None:
    game = pyspiel.load_game(register(name, players))
    state = game.new_initial_state()
    bot = ismcts_bot(game, max_simulations=3)
    rng = np.random.default_rng(0)
    for _ in range(2):
        player = state.current_player()
        action = bot.step(state)
        assert action in state.legal_actions(player)
        world = state.resample_from_infostate(player, None)
        assert world.inner.view(player) == state.inner.view(player)
        assert world.information_state_string(player) == state.information_state_string(player)
        state.apply_action(action)
        state.apply_action(int(rng.choice(state.legal_actions())))
    for seat in range(players):
        tensor = state.information_state_tensor(seat)
        assert len(tensor) == game.information_state_tensor_size()
        assert len(state.observation_tensor(seat)) == game.observation_tensor_size()


def test_registering_twice_gives_the_same_name() -> None:
    assert register("valda", 3) == register("valda", 3) == "python_meadhall_valda_3p"
