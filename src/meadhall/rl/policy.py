"""An example that learns: a policy network in numpy, trained on the vector environment, played as a bot.

Train (a few minutes on one core; ``--short`` for a few seconds)::

    python -m meadhall.rl.policy valda --out docs/rl/valda

writes ``docs/rl/valda-policy.npz`` (the weights, the spaces' version and the learning curve)
and ``docs/rl/valda-learning.png`` (the curve; matplotlib, the ``charts`` extra). Then rank
the policy in the arena (this module registers the bot ``policy``, which reads the weights
named by ``MEADHALL_POLICY``)::

    export MEADHALL_POLICY=docs/rl/valda-policy.npz
    meadhall arena --game valda --bot-module meadhall.rl.policy --bots policy,random --games 400

The policy is a masked softmax: the seat's observation, one hidden layer (``tanh``), one logit
per action index, the illegal ones masked out; a value head on the same hidden layer is the
baseline. It learns against uniform random play, by clipped policy gradient (PPO without its
GAE: each decision's return is the game's final reward, +1 won, -1 lost, its advantage that
return less the value), the gradients written out by hand, with Adam. docs/research.md shows
its curve and its arena result.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meadhall.bots import register_bot
from meadhall.bots.budget import Budget
from meadhall.core.errors import MeadhallError
from meadhall.core.game import Action, Game
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.extras import missing, require
from meadhall.rl.spaces import Spaces

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "rl", "meadhall.rl.policy", {"numpy"}) from None

from meadhall.rl import VectorEnv

Array = npt.NDArray[np.float32]

#: The environment variable naming the weights the ``policy`` bot plays.
WEIGHTS_VARIABLE = "MEADHALL_POLICY"
#: A masked logit: far below any real one, finite so that no arithmetic meets infinities.
_MASKED = np.float32(-1e9)
_WEIGHTS = ("w1", "b1", "w2", "b2", "wv", "bv")


@dataclass(frozen=True)
class Settings:
    """How to train: the table, the network, the optimiser and how long."""

    players: int = 2
    envs: int = 64  #: games stepped at once
    games: int = 4000  #: training games against random play (at least: updates take whole batches)
    hidden: int = 64  #: units of the hidden layer
    batch: int = 4096  #: the learner's decisions per update (whole games: at least this many)
    epochs: int = 3  #: passes over each batch
    minibatch: int = 1024
    learning_rate: float = 3e-3
    clip: float = 0.2  #: PPO's ratio clip
    entropy: float = 0.01  #: weight of the entropy bonus
    value: float = 0.5  #: weight of the value loss
    seed: int = 1

    @classmethod
    def short(cls, seed: int = 1) -> Settings:
        """A run of a few seconds: it checks the plumbing end to end, not the learning."""
        return cls(envs=4, games=8, hidden=8, batch=64, minibatch=32, epochs=1, seed=seed)


class Policy:
    """A masked softmax policy and its value: observation → ``tanh`` layer → a logit per action index, a value."""

    def __init__(self, weights: Mapping[str, npt.ArrayLike], game: str, players: int, version: str) -> None:
        self.weights = {name: np.asarray(weights[name], dtype=np.float32) for name in _WEIGHTS}
        self.game = game
        self.players = players
        self.version = version

    @classmethod
    def new(cls, spaces: Spaces, hidden: int, rng: np.random.Generator) -> Policy:
        """Fresh weights: the hidden layer scaled by its inputs, the logits and value at zero (uniform play)."""
        inputs, actions = spaces.observation_size, spaces.action_size
        weights = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            "w2": np.zeros((hidden, actions)),
            "b2": np.zeros(actions),
            "wv": np.zeros((hidden, 1)),
            "bv": np.zeros(1),
        }
        return cls(weights, spaces.game.info.name, spaces.players, spaces.version)

    def forward(self, observations: Array, masks: npt.NDArray[Any]) -> tuple[Array, Array, Array]:
        """The hidden layer, the log-probabilities (masked ones far below) and the values of a batch."""
        w = self.weights
        hidden = np.tanh(observations @ w["w1"] + w["b1"])
        logits = np.where(masks.astype(bool), hidden @ w["w2"] + w["b2"], _MASKED)
        logits -= logits.max(axis=1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        values = (hidden @ w["wv"] + w["bv"])[:, 0]
        return hidden, log_probs, values

    def save(self, path: Path, curve: Curve) -> None:
        """Write the weights, what they are for and the learning curve to ``path`` (``.npz``)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        about = {"game": self.game, "players": self.players, "version": self.version, "curve": asdict(curve)}
        arrays: dict[str, Any] = {"about": np.array(json.dumps(about)), **self.weights}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path | str) -> tuple[Policy, Curve]:
        """The policy and the curve :meth:`save` wrote."""
        with np.load(path) as data:
            about = json.loads(str(data["about"]))
            weights = {name: data[name] for name in _WEIGHTS}
        return cls(weights, about["game"], about["players"], about["version"]), Curve(**about["curve"])


@dataclass
class Curve:
    """The learning curve: after each update, the games played, the processor seconds and the recent win rate.

    ``win_rate`` is over the training games of that update (the policy sampling its
    actions against uniform random play; a tie counts half). ``wall`` and ``load`` say how
    busy the machine was: the wall-clock seconds, and the one-minute load average.
    """

    games: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    win_rate: list[float] = field(default_factory=list)
    decisions: int = 0  #: the learner's decisions in all
    steps: int = 0  #: environment steps in all (every seat's)
    wall: list[float] = field(default_factory=list)  #: (files written before 2026-12-04 lack it)
    load: list[float] = field(default_factory=list)  #: (the same)


class _Adam:
    """Adam over a dict of arrays, in place."""

    def __init__(self, weights: Mapping[str, Array], rate: float) -> None:
        self.rate = rate
        self.moments = {name: (np.zeros_like(value), np.zeros_like(value)) for name, value in weights.items()}
        self.steps = 0

    def step(self, weights: dict[str, Array], grads: Mapping[str, Array]) -> None:
        self.steps += 1
        for name, grad in grads.items():
            first, second = self.moments[name]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad * grad
            corrected = first / (1 - 0.9**self.steps), second / (1 - 0.999**self.steps)
            weights[name] -= self.rate * corrected[0] / (np.sqrt(corrected[1]) + 1e-8)


@dataclass
class _Batch:
    """The learner's decisions of finished games, with what the policy thought when it took them."""

    observations: list[Array] = field(default_factory=list)
    masks: list[npt.NDArray[np.uint8]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    log_probs: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)

    def extend(self, other: _Batch, outcome: float) -> None:
        self.observations += other.observations
        self.masks += other.masks
        self.actions += other.actions
        self.log_probs += other.log_probs
        self.returns += [outcome] * len(other.actions)


def _update(policy: Policy, adam: _Adam, batch: _Batch, settings: Settings, rng: np.random.Generator) -> None:
    """PPO's clipped policy gradient and a value regression over ``batch``, ``settings.epochs`` times."""
    observations = np.stack(batch.observations)
    masks = np.stack(batch.masks)
    actions = np.asarray(batch.actions)
    old = np.asarray(batch.log_probs, dtype=np.float32)
    returns = np.asarray(batch.returns, dtype=np.float32)
    size = len(actions)
    for _ in range(settings.epochs):
        order = rng.permutation(size)
        for start in range(0, size, settings.minibatch):
            chosen = order[start : start + settings.minibatch]
            grads = _gradients(policy, observations[chosen], masks[chosen], actions[chosen], old[chosen],
                               returns[chosen], settings)  # fmt: skip
            adam.step(policy.weights, grads)


def _gradients(
    policy: Policy,
    observations: Array,
    masks: npt.NDArray[np.uint8],
    actions: npt.NDArray[np.int64],
    old: Array,
    returns: Array,
    settings: Settings,
) -> dict[str, Array]:
    """The loss's gradient by every weight: clipped surrogate, less the entropy bonus, plus the value loss."""
    w = policy.weights
    count = len(actions)
    rows = np.arange(count)
    hidden, log_probs, values = policy.forward(observations, masks)
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)
    ratio = np.exp(log_probs[rows, actions] - old)
    # The clipped surrogate's gradient flows only where the clip is not the smaller term.
    clipped = ((advantages > 0) & (ratio > 1 + settings.clip)) | ((advantages < 0) & (ratio < 1 - settings.clip))
    by_log_prob = np.where(clipped, 0.0, -ratio * advantages) / count
    probs = np.exp(log_probs) * masks
    d_logits = -probs * by_log_prob[:, None]
    d_logits[rows, actions] += by_log_prob
    # Entropy bonus: d(-H)/d(logit_j) = p_j (log p_j + H).
    plogp = probs * np.where(masks.astype(bool), log_probs, 0.0)
    entropy = -plogp.sum(axis=1, keepdims=True)
    d_logits += settings.entropy * (plogp + probs * entropy) / count
    d_values = settings.value * (values - returns) / count
    d_hidden = d_logits @ w["w2"].T + d_values[:, None] @ w["wv"].T
    d_pre = d_hidden * (1.0 - hidden * hidden)
    return {
        "w1": observations.T @ d_pre,
        "b1": d_pre.sum(axis=0),
        "w2": hidden.T @ d_logits,
        "b2": d_logits.sum(axis=0),
        "wv": hidden.T @ d_values[:, None],
        "bv": np.array([d_values.sum()], dtype=np.float32),
    }


def _sample(log_probs: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row, drawn by its probability (the Gumbel-max trick)."""
    noise = rng.gumbel(size=log_probs.shape).astype(np.float32)
    chosen: npt.NDArray[np.int64] = np.argmax(log_probs + noise, axis=1)
    return chosen


def _won(outcomes: Sequence[float]) -> float:
    """The share of games won (a tie counts half) among final rewards."""
    return sum(1.0 if outcome > 0 else 0.5 if outcome == 0 else 0.0 for outcome in outcomes) / len(outcomes)


def train(
    game: str,
    settings: Settings = Settings(),  # frozen: a shared default is safe
    on_update: Callable[[Curve], None] | None = None,
) -> tuple[Policy, Curve]:
    """Train a policy for ``game`` against uniform random play; the learner's seat alternates game by game.

    Stops at the first update after ``settings.games`` games.

    Every decision of the seat to move is taken in one batch over ``settings.envs`` games:
    the learner's by the policy, the others' uniformly at random. When a game ends, the
    learner's decisions in it join the batch with the game's reward as their return; a
    batch of ``settings.batch`` decisions makes one update. ``on_update`` sees the curve
    after each.
    """
    rng = np.random.default_rng(settings.seed)
    environment = VectorEnv(game, n=settings.envs, seed=settings.seed, players=settings.players, observations=True)
    seen = environment.observations
    assert seen is not None  # asked for above
    policy = Policy.new(environment.spaces, settings.hidden, rng)
    adam = _Adam(policy.weights, settings.learning_rate)
    learner = np.arange(settings.envs, dtype=np.int32) % settings.players
    playing = [_Batch() for _ in range(settings.envs)]
    batch, outcomes, curve = _Batch(), [], Curve()
    started, started_wall = time.process_time(), time.monotonic()
    games = 0
    while True:
        actions = environment.random_actions(rng)
        mine = np.flatnonzero(environment.to_play == learner)
        if mine.size:
            observations = seen[mine]
            masks = environment.masks[mine]
            _, log_probs, _ = policy.forward(observations, masks)
            chosen = _sample(log_probs, rng)
            actions[mine] = chosen
            for row, slot in enumerate(mine):
                record = playing[slot]
                record.observations.append(observations[row])
                record.masks.append(masks[row])
                record.actions.append(int(chosen[row]))
                record.log_probs.append(float(log_probs[row, chosen[row]]))
        environment.step(actions)
        curve.steps += settings.envs
        for slot in np.flatnonzero(environment.dones):
            outcome = float(environment.rewards[slot, learner[slot]])
            batch.extend(playing[slot], outcome)
            playing[slot] = _Batch()
            outcomes.append(outcome)
            learner[slot] = (learner[slot] + 1) % settings.players
            games += 1
        if len(batch.actions) >= settings.batch:
            _update(policy, adam, batch, settings, rng)
            curve.decisions += len(batch.actions)
            curve.games.append(games)
            curve.seconds.append(round(time.process_time() - started, 2))
            curve.wall.append(round(time.monotonic() - started_wall, 2))
            curve.load.append(round(os.getloadavg()[0], 2))
            curve.win_rate.append(round(_won(outcomes), 4))
            batch, outcomes = _Batch(), []
            if on_update is not None:
                on_update(curve)
            if games >= settings.games:
                return policy, curve


def draw_curve(path: Path, curve: Curve, title: str) -> None:
    """The learning curve as a PNG: win rate against random play by training games (matplotlib: ``charts``)."""
    require("matplotlib", "charts", "the learning curve")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(curve.games, [100 * rate for rate in curve.win_rate], marker=".", label="training games (sampling)")
    axes.axhline(50, color="grey", linewidth=0.8, linestyle=":", label="even")
    axes.axhline(80, color="grey", linewidth=0.8, linestyle="--", label="target: 80%")
    axes.set_xlabel("training games against random play")
    axes.set_ylabel("games won (%)")
    axes.set_ylim(0, 100)
    axes.set_title(title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)


class PolicyBot:
    """A trained :class:`Policy` as a bot: the most probable legal action for the seat's view.

    It plays at tables of the size it was trained for. Its seat comes from the bot
    protocol's ``reset`` hook (the arena calls it), else from the view's ``seat``; it
    encodes the view as the vector environment does, and ``legal`` becomes the mask. The
    game and the spaces' version must be those the policy was trained on.
    """

    name = "policy"

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.seat: int | None = None
        self._spaces: Spaces | None = None

    def reset(self, game: Game, seat: int) -> None:
        """A new game: remember the seat (and check the game)."""
        self._spaces_for(game)
        self.seat = seat

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The legal action of the highest probability (ties: the first in ``legal``)."""
        seat = self.seat if self.seat is not None else int(view["seat"])
        spaces = self._spaces_for(game)
        observation = spaces.encode(view, seat)[None, :]
        indices = [spaces.index(action) for action in legal]
        mask = np.zeros((1, spaces.action_size), dtype=np.uint8)
        mask[0, indices] = 1
        _, log_probs, _ = self.policy.forward(observation, mask)
        return legal[int(np.argmax(log_probs[0, indices]))]

    def _spaces_for(self, game: Game) -> Spaces:
        if self._spaces is None or self._spaces.game is not game:
            spaces = Spaces(game, self.policy.players)
            if (game.info.name, spaces.version) != (self.policy.game, self.policy.version):
                raise ValueError(
                    f"the policy was trained on {self.policy.game} ({self.policy.version}), "
                    f"not on {game.info.name} ({spaces.version})"
                )
            self._spaces = spaces
        return self._spaces


def policy_bot(budget: Budget | None) -> PolicyBot:
    """The ``policy`` bot: the weights in the file ``MEADHALL_POLICY`` names (it takes no budget)."""
    if budget is not None:
        raise ValueError("the policy bot takes no budget (it does not search)")
    path = os.environ.get(WEIGHTS_VARIABLE)
    if not path:
        raise ValueError(f"the policy bot plays the weights of a file: set {WEIGHTS_VARIABLE}=PATH.npz")
    return PolicyBot(Policy.load(path)[0])


register_bot(PolicyBot.name, policy_bot)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m meadhall.rl.policy GAME [--out PREFIX] [--short] [--games N] [--seed N]``."""
    parser = argparse.ArgumentParser(prog="python -m meadhall.rl.policy", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a meadhall game with spaces and a vector environment, by name")
    parser.add_argument("--out", metavar="PREFIX", help="write PREFIX-policy.npz and PREFIX-learning.png "
                        "(default: the game's name, in the current folder)")  # fmt: skip
    parser.add_argument("--short", action="store_true", help="a run of a few seconds (checks the plumbing)")
    parser.add_argument("--games", type=int, help=f"training games (default {Settings.games})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per update")
    options = parser.parse_args(argv)
    try:
        game = get_game(options.game)
        require("matplotlib", "charts", "the learning curve")  # before the training, not after it
    except MeadhallError as error:  # an unknown game, a missing extra: one line
        parser.error(str(error))
    settings = Settings.short(options.seed) if options.short else Settings(seed=options.seed)
    if options.games is not None:
        settings = Settings(**{**asdict(settings), "games": options.games})
    prefix = Path(options.out or game.info.name)

    def report(curve: Curve) -> None:
        if not options.quiet:
            print(f"{curve.games[-1]:6d} games  {curve.seconds[-1]:7.1f} s  won {100 * curve.win_rate[-1]:5.1f}%")

    policy, curve = train(game.info.name, settings, on_update=report)
    weights = prefix.with_name(prefix.name + "-policy.npz")
    chart = prefix.with_name(prefix.name + "-learning.png")
    policy.save(weights, curve)
    draw_curve(chart, curve, f"{game.info.title}, {settings.players} players: a policy learning against random play")
    print(f"{curve.games[-1]} games, {curve.decisions} decisions, {curve.seconds[-1]:.0f} s of processor time "
          f"({curve.wall[-1]:.0f} s of wall-clock time, load average {max(curve.load):.1f} at most); "
          f"wrote {weights} and {chart}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
