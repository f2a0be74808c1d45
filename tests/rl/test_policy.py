"""The example that learns (``python -m meadhall.rl.policy``) runs end to end in its short mode, and its bot plays.

The short mode checks the plumbing only (a few games, a tiny network): how well the full
run learns is measured once and written in docs/research.md, from the arena's own files.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from meadhall.bots import make_bot
from meadhall.core.registry import get_game
from meadhall.lab.arena import run
from meadhall.lab.selfplay import Series
from meadhall.rl import Spaces
from meadhall.rl.policy import WEIGHTS_VARIABLE, Policy, PolicyBot, Settings, _gradients, main, train

GAME = "valda"


def test_the_short_run_writes_the_weights_and_the_curve(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([GAME, "--short", "--out", str(tmp_path / GAME)]) == 0
    weights, chart = tmp_path / f"{GAME}-policy.npz", tmp_path / f"{GAME}-learning.png"
    assert f"wrote {weights} and {chart}" in out.getvalue()
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    policy, curve = Policy.load(weights)
    spaces = Spaces(GAME, 2)
    assert (policy.game, policy.players, policy.version) == (GAME, 2, spaces.version)
    assert policy.weights["w1"].shape == (spaces.observation_size, Settings.short().hidden)
    assert policy.weights["w2"].shape == (Settings.short().hidden, spaces.action_size)
    assert curve.games and curve.games[-1] >= Settings.short().games
    assert len(curve.games) == len(curve.seconds) == len(curve.win_rate) == len(curve.wall) == len(curve.load)
    assert curve.wall[-1] >= curve.wall[0] >= 0.0 and min(curve.load) >= 0.0
    assert all(0.0 <= rate <= 1.0 for rate in curve.win_rate)
    assert curve.decisions > 0 and curve.steps > curve.decisions


def test_a_seed_trains_the_same_policy() -> None:
    first, _ = train(GAME, Settings.short(seed=3))
    second, _ = train(GAME, Settings.short(seed=3))
    for name, value in first.weights.items():
        np.testing.assert_array_equal(value, second.weights[name])
    assert first.weights["w2"].any()  # the updates moved the logits (which start at zero: uniform play)


def test_the_trained_policy_plays_in_the_arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy, curve = train(GAME, Settings.short())
    weights = tmp_path / "policy.npz"
    policy.save(weights, curve)
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(weights))
    results, interrupted = run(Series(GAME, ("policy", "random"), games=2, seed=5))
    assert not interrupted and len(results) == 2
    assert [result.error for result in results] == [None, None]  # every choice it made was legal
    assert sorted(result.lineup[0] for result in results) == ["policy", "random"]  # it played both seats


def test_the_policy_bot_needs_its_weights_and_their_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WEIGHTS_VARIABLE, raising=False)
    with pytest.raises(ValueError, match=WEIGHTS_VARIABLE):
        make_bot("policy")
    monkeypatch.setenv(WEIGHTS_VARIABLE, str(tmp_path / "policy.npz"))
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("policy:1s")
    policy = Policy.new(Spaces(GAME, 2), hidden=4, rng=np.random.default_rng(0))
    stale = Policy(policy.weights, GAME, 2, policy.version.replace("/1", "/0"))
    with pytest.raises(ValueError, match="was trained on"):
        PolicyBot(stale).reset(get_game(GAME), 0)


def test_the_gradients_are_the_losses_slopes() -> None:
    """The hand-written backward pass against finite differences of the loss, in float64."""
    rng = np.random.default_rng(0)
    inputs, actions, hidden, count = 7, 5, 4, 6
    shapes = {"w1": (inputs, hidden), "b1": (hidden,), "w2": (hidden, actions), "b2": (actions,), "wv": (hidden, 1)}
    policy = Policy({**{name: rng.normal(size=shape) for name, shape in shapes.items()}, "bv": [0.3]}, GAME, 2, "v")
    policy.weights = {name: value.astype(np.float64) for name, value in policy.weights.items()}
    observations = rng.normal(size=(count, inputs))
    masks = (rng.random((count, actions)) < 0.6).astype(np.uint8)
    masks[:, 0] = 1
    chosen = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
    returns = rng.choice([-1.0, 1.0], size=count)
    settings = Settings(entropy=0.05)
    _, log_probs, values = policy.forward(observations, masks)  # type: ignore[arg-type]
    rows = np.arange(count)
    old = log_probs[rows, chosen] + rng.normal(0.0, 0.15, count)  # ratios near 1, a few of them clipped
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)  # constants of the loss

    def loss() -> float:
        _, log_probs, values = policy.forward(observations, masks)  # type: ignore[arg-type]
        ratio = np.exp(log_probs[rows, chosen] - old)
        clipped = np.clip(ratio, 1 - settings.clip, 1 + settings.clip)
        surrogate = -np.minimum(ratio * advantages, clipped * advantages).mean()
        probs = np.exp(log_probs) * masks
        entropy = -(probs * np.where(masks > 0, log_probs, 0.0)).sum(axis=1).mean()
        return float(surrogate - settings.entropy * entropy + settings.value * 0.5 * ((values - returns) ** 2).mean())

    grads = _gradients(policy, observations, masks, chosen, old, returns, settings)  # type: ignore[arg-type]
    for name, weight in policy.weights.items():
        numeric = np.zeros_like(weight)
        for index in np.ndindex(weight.shape):
            kept = weight[index]
            weight[index] = kept + 1e-6
            up = loss()
            weight[index] = kept - 1e-6
            down = loss()
            weight[index] = kept
            numeric[index] = (up - down) / 2e-6
        np.testing.assert_allclose(grads[name], numeric, atol=1e-6, err_msg=name)


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["no-such-game", "--short"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("python -m meadhall.rl.policy: error: no game called")
