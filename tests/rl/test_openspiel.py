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


def _settle_chance(state: pyspiel.State, rng: np.random.Generator) -> None:
    """Sample the outcomes of the chance nodes ahead, at their probabilities."""
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))


def test_valdas_dice_are_explicit_chance_nodes_and_the_other_games_sample() -> None:
    modes = {name: pyspiel.load_game(register(name, players)).get_type().chance_mode for name, players in SETUPS}
    explicit, sampled = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert modes == {"voluspa": sampled, "bloodrage-valhalla": sampled, "valda": explicit}
    game = pyspiel.load_game(register("valda", 2))
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            nodes += 1
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.legal_actions() == [outcome for outcome, _ in outcomes]
            assert all(state.inner.legal_actions(seat) == [] for seat in range(2))  # nobody decides now
            before = len(state.inner.dice)
            state.apply_action(outcomes[-1][0])
            assert state.inner.dice[before][1] == outcomes[-1][0]  # the die shows the face chosen
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert nodes > 0


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_openspiel_ismcts_plays_from_sampled_worlds(name: str, players: int) -> None:
    game = pyspiel.load_game(register(name, players))
    state = game.new_initial_state()
    bot = ismcts_bot(game, max_simulations=3)
    rng = np.random.default_rng(0)
    for _ in range(2):
        _settle_chance(state, rng)
        player = state.current_player()
        action = bot.step(state)
        assert action in state.legal_actions(player)
        world = state.resample_from_infostate(player, None)
        assert world.inner.view(player) == state.inner.view(player)
        assert world.information_state_string(player) == state.information_state_string(player)
        state.apply_action(action)
        _settle_chance(state, rng)
        state.apply_action(int(rng.choice(state.legal_actions())))
    for seat in range(players):
        tensor = state.information_state_tensor(seat)
        assert len(tensor) == game.information_state_tensor_size()
        assert len(state.observation_tensor(seat)) == game.observation_tensor_size()


def test_registering_twice_gives_the_same_name() -> None:
    assert register("valda", 3) == register("valda", 3) == "python_meadhall_valda_3p"
