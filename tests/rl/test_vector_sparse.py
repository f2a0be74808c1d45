"""``VectorEnv(masks=False)``: no dense masks, the legal actions read from ``legal_indices()``.

Every game and backend steps the same games as the dense mode: the legal indices, seats,
observations (bit for bit), rewards and done flags equal the dense env's at every step,
through automatic and explicit resets, with the actions picked from the sparse env's own
legal indices. Reading ``masks`` raises, and an illegal index still moves no game.
"""

from __future__ import annotations

import numpy as np
import pytest

from meadhall.cli.bench import measure_vector
from meadhall.core.errors import IllegalAction
from meadhall.core.registry import get_game
from meadhall.games.valda import native as native_valda
from meadhall.games.voluspa import search as voluspa_search
from meadhall.rl import VectorEnv

_FAST = {"voluspa": voluspa_search.AVAILABLE, "valda": native_valda.AVAILABLE, "bloodrage-valhalla": False}
SETUPS = [
    pytest.param(name, backend, id=f"{name}-{backend}")
    for name in _FAST
    for backend in ("fast", "python")
    if backend == "python" or _FAST[name]
]


def _same(dense: VectorEnv, sparse: VectorEnv) -> None:
    for mine, theirs in zip(sparse.legal_indices(), dense.legal_indices(), strict=True):
        assert mine.dtype == np.int64 and np.array_equal(mine, theirs)
    starts, indices = sparse.legal_indices()
    for slot in range(dense.num_envs):  # and they are the dense mask's set bytes
        assert np.array_equal(indices[starts[slot] : starts[slot + 1]], np.flatnonzero(dense.masks[slot]))
    for array in ("to_play", "rewards", "dones"):
        assert np.array_equal(getattr(sparse, array), getattr(dense, array)), array
    if dense.observations is not None:
        assert sparse.observations is not None
        assert np.array_equal(sparse.observations.view(np.uint32), dense.observations.view(np.uint32))


@pytest.mark.parametrize(("name", "backend"), SETUPS)
def test_without_dense_masks_the_games_step_as_with_them(name: str, backend: str) -> None:
    players = 3 if name == "bloodrage-valhalla" else 2
    steps = 60 if backend == "python" else 300
    ended = 0
    for seed in (1, 2):
        kwargs = {"players": players, "backend": backend, "observations": seed == 1}
        dense = VectorEnv(name, n=4, seed=seed, **kwargs)  # type: ignore[arg-type]
        sparse = VectorEnv(name, n=4, seed=seed, masks=False, **kwargs)  # type: ignore[arg-type]
        rng, twin, picker = np.random.default_rng(seed), np.random.default_rng(seed), np.random.default_rng(seed)
        _same(dense, sparse)
        for step in range(steps):
            if step % 2:  # the backend's own pick, from the indices it keeps
                actions = sparse.random_actions(rng)
                assert np.array_equal(dense.random_actions(twin), actions)
            else:  # a learner's: one of each game's legal indices
                starts, indices = sparse.legal_indices()
                chosen = starts[:-1] + (picker.random(4) * np.diff(starts)).astype(np.int64)
                actions = indices[chosen]
            sparse.step(actions)
            dense.step(actions)
            _same(dense, sparse)
            ended += int(dense.dones.sum())
        sparse.reset(seed=seed + 5)
        dense.reset(seed=seed + 5)
        _same(dense, sparse)
    assert ended >= 1 or backend == "python"


def test_reading_the_masks_of_an_env_without_them_raises() -> None:
    env = VectorEnv("valda", n=3, seed=1, masks=False)
    with pytest.raises(AttributeError, match=r"masks=False.*legal_indices\(\)"):
        _ = env.masks
    starts, indices = env.legal_indices()
    assert len(starts) == 4 and len(indices) == starts[-1] > 0
    assert VectorEnv("valda", n=3, seed=1).masks.shape == (3, env.num_actions)  # the default keeps them


@pytest.mark.parametrize(("name", "backend"), [setup for setup in SETUPS if setup.values[0] != "bloodrage-valhalla"])
def test_without_dense_masks_an_illegal_index_moves_no_game(name: str, backend: str) -> None:
    env = VectorEnv(name, n=3, seed=2, masks=False, backend=backend)  # type: ignore[arg-type]
    assert env.observations is not None
    starts, indices = env.legal_indices()
    before = starts.copy(), indices.copy(), env.observations.copy()
    actions = env.random_actions(np.random.default_rng(0))
    legal = set(indices[starts[1] : starts[2]].tolist())
    actions[1] = next(index for index in range(env.num_actions) if index not in legal)
    with pytest.raises(IllegalAction, match="game 1"):
        env.step(actions)
    with pytest.raises(IllegalAction, match="game 0"):
        env.step(np.array([env.num_actions, 0, 0]))
    after = env.legal_indices()
    assert np.array_equal(after[0], before[0]) and np.array_equal(after[1], before[1])
    assert np.array_equal(env.observations, before[2])
    actions[1] = indices[starts[1]]
    env.step(actions)  # a legal one still steps


@pytest.mark.skipif(not voluspa_search.AVAILABLE, reason="the Völuspá C engine is not built")
def test_voluspas_c_backend_leaves_the_dense_masks_unwritten() -> None:
    env = VectorEnv("voluspa", n=4, seed=3, observations=False, masks=False)
    rng = np.random.default_rng(3)
    for _ in range(100):
        env.step(env.random_actions(rng))
    assert not env._masks.any()  # the buffer it was given: never written while the indices are kept
    assert VectorEnv("voluspa", n=4, seed=3, observations=False).masks.any()


def test_meadhall_bench_vector_sparse_measures_dense_and_sparse_side_by_side() -> None:
    rows = measure_vector(get_game("valda"), 2, envs=4, seconds=0.01, repeat=1, workers=0, sparse=True)
    pairs = [(row["backend"], row["observations"], row["masks"]) for row in rows]
    assert len(pairs) == len(set(pairs))
    assert {masks for _, _, masks in pairs} == {"dense", "sparse"}
    for backend, observations, _ in pairs:
        assert (backend, observations, "dense") in pairs and (backend, observations, "sparse") in pairs
    assert all(row["steps_per_s"] > 0 for row in rows)
    assert {row["masks"] for row in measure_vector(get_game("valda"), 2, envs=2, seconds=0.01, repeat=1)} == {"dense"}
