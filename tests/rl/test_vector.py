"""meadhall.rl.VectorEnv: many games stepped at once, every array equal to stepping the games one by one.

Each backend is checked against the games' own states replayed from the seeds the env
says it deals (``episode_seed``) and the actions it was given: the seat to move, its mask
and observation, the rewards of a finished game and the done flags, through automatic
resets. A fast backend (Valda's and Völuspá's C engines) is checked against the Python backend: the same
seeds and actions give the same arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meadhall.cli.bench import measure_vector
from meadhall.core.errors import IllegalAction
from meadhall.core.game import GameState
from meadhall.core.registry import get_game
from meadhall.core.spaces import episode_seed, final_rewards
from meadhall.games.valda import native as native_valda
from meadhall.games.valda.state import ValdaState
from meadhall.games.voluspa import search as voluspa_search
from meadhall.games.voluspa.vector import VectorGames as VoluspaVectorGames
from meadhall.rl import Spaces, VectorEnv

GAMES = ("voluspa", "bloodrage-valhalla", "valda")


def _replayed(env: VectorEnv, seed: int, steps: int, rng: np.random.Generator) -> int:
    """Step ``env`` randomly, checking every array against states replayed alongside; returns the games ended."""
    spaces = Spaces(env.spaces.game, env.players, env.spaces.options)
    game = get_game(env.spaces.game.info.name)
    episodes = [1] * env.num_envs
    states: list[GameState[Any]] = [
        game.new_game(players=env.players, seed=episode_seed(seed, slot, 0), options=env.spaces.options)
        for slot in range(env.num_envs)
    ]
    ended = 0

    def check() -> None:
        starts, indices = env.legal_indices()
        assert starts[0] == 0 and starts[-1] == len(indices)
        for slot, state in enumerate(states):
            assert np.array_equal(indices[starts[slot] : starts[slot + 1]], np.flatnonzero(env.masks[slot]))
            seat = state.to_move()[0]
            assert env.to_play[slot] == seat
            assert np.array_equal(env.masks[slot], spaces.legal_mask(state, seat).astype(np.uint8))
            if env.observations is not None:
                assert np.array_equal(env.observations[slot], spaces.observation(state, seat))

    check()
    for _ in range(steps):
        actions = env.random_actions(rng)
        for slot in range(env.num_envs):
            assert env.masks[slot, actions[slot]] == 1
        env.step(actions)
        for slot, state in enumerate(states):
            seat = state.to_move()[0]
            state.apply(seat, spaces.action(int(actions[slot]), state))
            if state.is_terminal():
                ended += 1
                assert env.dones[slot]
                assert np.array_equal(env.rewards[slot], np.asarray(final_rewards(state), dtype=np.float32))
                assert abs(float(env.rewards[slot].sum())) < 1e-5
                states[slot] = game.new_game(
                    players=env.players, seed=episode_seed(seed, slot, episodes[slot]), options=env.spaces.options
                )
                episodes[slot] += 1
            else:
                assert not env.dones[slot]
                assert not env.rewards[slot].any()
        check()
    return ended


@pytest.mark.parametrize("name", GAMES)
def test_python_backend_steps_the_games_as_their_states_do(name: str) -> None:
    players = get_game(name).info.min_players
    env = VectorEnv(name, n=3, seed=5, players=players, backend="python")
    assert env.backend == "python" and env.players == players
    assert env.masks.shape == (3, env.num_actions) and env.masks.dtype == np.uint8
    assert env.observations is not None and env.observations.shape == (3, env.observation_size)
    assert env.observations.dtype == np.float32
    assert env.to_play.dtype == np.int32 and env.rewards.shape == (3, players) and env.dones.dtype == np.bool_
    _replayed(env, 5, 25, np.random.default_rng(1))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_blood_rages_fast_observations_step_the_games_as_their_states_do(players: int) -> None:
    """Blood Rage's observations are written from the state (``ObservationSpace.fast``): equal to the views encoded."""
    for seed in (players, 10 + players):
        env = VectorEnv("bloodrage-valhalla", n=4, seed=seed, players=players, backend="python")
        assert env.spaces.observations.fast is not None
        assert _replayed(env, seed, 300, np.random.default_rng(seed)) >= 1


def test_games_end_and_reset_by_themselves() -> None:
    env = VectorEnv("valda", n=2, seed=11, players=3, observations=False, backend="python")
    assert _replayed(env, 11, 2500, np.random.default_rng(2)) >= 1


def test_without_observations_and_reset() -> None:
    env = VectorEnv("valda", n=4, seed=3, players=2, observations=False, backend="python")
    assert env.observations is None
    first = env.masks.copy(), env.to_play.copy()
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(env.random_actions(rng))
    env.reset(seed=3)
    assert np.array_equal(env.masks, first[0]) and np.array_equal(env.to_play, first[1])
    env.reset()  # each slot's next game: other deals
    with_observations = VectorEnv("valda", n=4, seed=3, players=2, backend="python")
    with_observations.reset()
    assert np.array_equal(env.masks, with_observations.masks)


def test_an_illegal_index_moves_no_game() -> None:
    env = VectorEnv("valda", n=2, seed=1, players=2, backend="python")
    assert env.observations is not None
    before = env.masks.copy(), env.observations.copy()
    actions = env.random_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(env.masks[1] == 0)[0])
    with pytest.raises(IllegalAction, match="game 1"):
        env.step(actions)
    with pytest.raises(IllegalAction):
        env.step(np.array([-1, 0]))
    with pytest.raises(ValueError, match="2 action indices"):
        env.step(np.zeros(3, dtype=np.int64))
    assert np.array_equal(env.masks, before[0])
    assert np.array_equal(env.observations, before[1])


def test_random_actions_are_legal_and_spread() -> None:
    env = VectorEnv("valda", n=8, seed=4, players=2, observations=False, backend="python")
    rng = np.random.default_rng(3)
    seen: set[int] = set()
    for _ in range(50):
        actions = env.random_actions(rng)
        assert actions.dtype == np.int64 and actions.shape == (8,)
        assert env.masks[np.arange(8), actions].all()
        seen.update(int(action) for action in actions[:1])
        env.step(actions)
    assert len(seen) > 5


def test_a_game_without_a_fast_backend_refuses_fast() -> None:
    with pytest.raises(ValueError, match="no fast vector backend"):
        VectorEnv("bloodrage-valhalla", n=1, seed=0, players=3, backend="fast")


def _fast_and_python(
    name: str, players: int, preset: str, seed: int, steps: int, observations: bool = True, n: int = 6
) -> int:
    """Steps a fast and a Python vector env with the same seeds and actions; every array equal each step.

    Observations are compared bit for bit (as uint32), so that a float computed another way fails.
    """
    options = {"preset": preset}
    fast, python = (
        VectorEnv(name, n=n, seed=seed, players=players, observations=observations, options=options, backend=backend)
        for backend in ("fast", "python")
    )
    rng, twin = np.random.default_rng(seed), np.random.default_rng(seed)
    ended = 0

    def same() -> None:
        for array in ("masks", "to_play", "rewards", "dones"):
            assert np.array_equal(getattr(fast, array), getattr(python, array)), array
        for mine, theirs in zip(fast.legal_indices(), python.legal_indices(), strict=True):  # the sparse form too
            assert mine.dtype == np.int64 and np.array_equal(mine, theirs)
        if observations:
            assert fast.observations is not None and python.observations is not None
            differ = np.argwhere(fast.observations.view(np.uint32) != python.observations.view(np.uint32))
            assert not len(differ), [_block_of(python, int(column)) for column in differ[:, 1][:5]]

    same()
    for _ in range(steps):
        actions = python.random_actions(rng)
        assert np.array_equal(fast.random_actions(twin), actions)
        fast.step(actions)
        python.step(actions)
        same()
        ended += int(python.dones.sum())
    fast.reset(seed=seed + 1)
    python.reset(seed=seed + 1)
    same()
    return ended


def _block_of(env: VectorEnv, column: int) -> tuple[str, int]:
    """The observation block a column lies in, and the column within it (for a failure's message)."""
    start = 0
    for block in env.spaces.encodings.observations.blocks:
        size = int(np.prod(block.shape))
        if column < start + size:
            return block.name, column - start
        start += size
    raise IndexError(column)


def _fast_setups() -> list[tuple[str, int, str]]:
    info = get_game("valda").info
    presets = list(info.presets)
    counts = range(info.min_players, info.max_players + 1)
    return [("valda", players, preset) for players in counts for preset in presets]


@pytest.mark.skipif(not native_valda.AVAILABLE, reason="the Valda C engine is not built")
@pytest.mark.parametrize(("name", "players", "preset"), _fast_setups())
def test_valdas_c_backend_equals_the_python_backend(name: str, players: int, preset: str) -> None:
    assert _fast_and_python(name, players, preset, seed=players, steps=400 * players) >= 1  # a game ends in each


@pytest.mark.skipif(not native_valda.AVAILABLE, reason="the Valda C engine is not built")
def test_valdas_c_backend_without_observations_equals_the_python_backend() -> None:
    assert _fast_and_python("valda", 3, "standard", seed=7, steps=600, observations=False) >= 1


@pytest.mark.skipif(not native_valda.AVAILABLE, reason="the Valda C engine is not built")
def test_auto_picks_the_c_backend_with_and_without_observations() -> None:
    assert VectorEnv("valda", n=2, observations=False).backend == "fast"
    assert VectorEnv("valda", n=2, observations=True).backend == "fast"


@pytest.mark.skipif(not native_valda.AVAILABLE, reason="the Valda C engine is not built")
def test_valdas_c_deal_is_the_python_deal() -> None:
    game = get_game("valda")
    for players in range(game.info.min_players, game.info.max_players + 1):
        for preset in game.info.presets:
            env = VectorEnv("valda", n=1, players=players, observations=False, options={"preset": preset})
            backend = env._backend
            assert isinstance(backend, native_valda.VectorGames)
            for seed in (0, 1, 2, 3, episode_seed(9, 3, 1)):
                state = game.new_game(players=players, seed=seed, options={"preset": preset})
                assert isinstance(state, ValdaState)
                assert backend.deal(seed).export() == native_valda.export_reference(state), (players, preset, seed)


def test_meadhall_bench_vector_measures_each_backend_with_and_without_observations() -> None:
    rows = measure_vector(get_game("valda"), 2, envs=4, seconds=0.02, repeat=1, workers=2)
    measured = {(row["backend"], row["observations"]) for row in rows}
    expected = {("python", False), ("python", True)}
    if native_valda.AVAILABLE:
        expected |= {("fast", False), ("fast", True)}
    else:
        expected |= {("python, 2 processes", False), ("python, 2 processes", True)}
    assert measured == expected
    assert all(row["steps_per_s"] > 0 and row["envs"] == 4 for row in rows)
    alone = measure_vector(get_game("valda"), 2, envs=2, seconds=0.01, repeat=1, workers=0)
    pairs = [(row["backend"], row["observations"]) for row in alone]
    assert len(pairs) == len(set(pairs))  # without workers, no backend measured twice


def test_worker_processes_step_the_same_games_as_one_process() -> None:
    one = VectorEnv("bloodrage-valhalla", n=5, seed=8, players=3, backend="python")
    with VectorEnv("bloodrage-valhalla", n=5, seed=8, players=3, workers=2) as many:
        assert many.backend == "python, 2 processes"
        rng = np.random.default_rng(8)
        for step in range(60):
            for array in ("masks", "observations", "to_play", "rewards", "dones"):
                assert np.array_equal(getattr(one, array), getattr(many, array)), (step, array)
            actions = one.random_actions(rng)
            one.step(actions)
            many.step(actions)
        many.reset(seed=9)
        one.reset(seed=9)
        assert one.observations is not None and many.observations is not None
        assert np.array_equal(one.observations, many.observations) and np.array_equal(one.masks, many.masks)
        actions[0] = int(np.flatnonzero(many.masks[0] == 0)[0])
        with pytest.raises(IllegalAction):
            many.step(actions)


def _voluspa_setups() -> list[tuple[int, str]]:
    """Every preset (expansions included) with two players, and the base game with every other count."""
    info = get_game("voluspa").info
    return [(2, preset) for preset in info.presets] + [
        (players, "base") for players in range(info.min_players, info.max_players + 1) if players != 2
    ]


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
@pytest.mark.parametrize(("players", "preset"), _voluspa_setups())
def test_voluspas_c_backend_equals_the_python_backend(players: int, preset: str) -> None:
    # masks, seats, rewards, dones and observations (bit for bit) equal at every step, through resets
    assert _fast_and_python("voluspa", players, preset, seed=players, steps=130, n=3) >= 1


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
def test_voluspas_c_backend_without_observations_equals_the_python_backend() -> None:
    assert _fast_and_python("voluspa", 3, "base", seed=7, steps=150, observations=False, n=3) >= 1


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
def test_voluspas_c_backend_is_picked_and_replays_its_seed() -> None:
    env = VectorEnv("voluspa", n=4, seed=3, observations=True)
    assert env.backend == "fast" and isinstance(env._backend, VoluspaVectorGames)
    twin = VectorEnv("voluspa", n=4, seed=3, observations=True)
    rng, other = np.random.default_rng(0), np.random.default_rng(0)
    for _ in range(200):
        env.step(env.random_actions(rng))
        twin.step(twin.random_actions(other))
    assert env.observations is not None and twin.observations is not None
    assert np.array_equal(env.masks, twin.masks) and np.array_equal(env.observations, twin.observations)
    env.reset(seed=3)
    fresh = VectorEnv("voluspa", n=4, seed=3, observations=True)
    assert np.array_equal(env.masks, fresh.masks) and np.array_equal(env.to_play, fresh.to_play)
    assert fresh.observations is not None and np.array_equal(env.observations, fresh.observations)
    with pytest.raises(IllegalAction):
        env.step(np.full(4, -1))


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
@pytest.mark.parametrize("preset", ["base", "all+lightning"])
def test_voluspas_kept_frontier_equals_the_one_built_anew(preset: str) -> None:
    # The C backend keeps each game's frontier (the empty cells next to the board and which tiles each may take) move
    # by move rather than rebuilding it each step: after every step of many random games it must equal the rebuilt one.
    native = voluspa_search._native
    assert native is not None
    openings: set[int] = set()
    ended = 0
    for players in (2, 3, 5):
        for seed in (players, 10 + players):
            env = VectorEnv("voluspa", n=12, seed=seed, players=players, observations=False, options={"preset": preset})
            assert isinstance(env._backend, VoluspaVectorGames)
            rng = np.random.default_rng(seed)
            for _ in range(160):
                env.step(env.random_actions(rng))
                ended += int(env.dones.sum())
                for game, (kept, built) in enumerate(native.vector_frontiers(env._backend.handle)):
                    assert kept == built, (preset, players, seed, game)
                    openings |= {opening for _, _, opening in built}
    assert openings == {0, 1, 2} and ended >= 12  # shut cells, cells next to a Troll and open ones; new games dealt


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
@pytest.mark.parametrize(
    ("preset", "auto_best", "masks"),
    [("base", True, False), ("base", True, True), ("all+lightning", False, False), ("all+lightning", True, True)],
)
def test_voluspas_plays_into_the_sink_equal_the_generators_codes(preset: str, auto_best: bool, masks: bool) -> None:
    # The C backend's generator writes most plays straight into a game's list of indices (each frontier cell's plays
    # from its opening's heads; without dense masks, the end and discards without the spare row): after every step of
    # many random games, that list must equal the indices of the codes the same generator gives without the list.
    native = voluspa_search._native
    assert native is not None
    compared = ended = 0
    for players in (2, 3, 5):
        for seed in (players, 20 + players):
            options = {"preset": preset, "auto-best-line": auto_best}
            env = VectorEnv("voluspa", 10, seed=seed, players=players, observations=False, options=options, masks=masks)
            assert isinstance(env._backend, VoluspaVectorGames)
            rng = np.random.default_rng(seed)
            for _ in range(150):
                env.step(env.random_actions(rng))
                ended += int(env.dones.sum())
                for game, pair in enumerate(native.vector_plays(env._backend.handle)):
                    assert pair is not None, (preset, players, seed, game)
                    kept, plain = pair
                    assert kept == plain, (preset, players, seed, game)
                    compared += 1
    assert compared == 6 * 10 * 150 and ended >= 10
