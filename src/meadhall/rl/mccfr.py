"""OpenSpiel's own Monte Carlo CFR (outcome sampling) on a meadhall game: an example to run.

``python -m meadhall.rl.mccfr GAME --iterations 200 --games 20`` registers a two-player game
(any meadhall game with spaces) as an OpenSpiel game (:func:`meadhall.rl.openspiel.register`), runs OpenSpiel's
``OutcomeSamplingSolver`` for that many iterations, then plays its average policy against
uniform random play and prints what it learned and how it did. Needs ``open_spiel``
(``pip install 'meadhall[openspiel]'``).

Why outcome sampling: each iteration walks one sampled game, sampling each chance node
(Valda's dice) at its odds, and needs no chance nodes where chance is sampled (the draws
come from the state's own generator at their true odds, which cancel out of outcome
sampling's weights). External sampling and
full CFR walk every action of one seat at each of its decisions: a whole game of meadhall's
is far too long for that. And tabular: on a game this long almost every perfect-recall information
state is new, so the tables grow with every iteration and the policy moves little beyond
uniform; the example shows the plumbing (and is a baseline for an abstraction of your own).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meadhall.extras import missing
from meadhall.rl.openspiel import register

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import outcome_sampling_mccfr
except ModuleNotFoundError as error:  # without the extra: one line naming it, not a traceback
    raise missing(error, "openspiel", "meadhall.rl.mccfr", {"numpy", "open_spiel", "pyspiel"}) from None


@dataclass
class Outcome:
    """What a run learned (information states in its tables) and how its policy did against random play."""

    iterations: int
    information_states: int
    games: int
    wins: float

    def summary(self) -> str:
        """One line for people."""
        return (
            f"{self.iterations} iterations, {self.information_states} information states; "
            f"against random play: {self.wins:g} of {self.games} games won"
        )


def run(game_name: str, players: int = 2, iterations: int = 100, games: int = 10, seed: int = 0) -> Outcome:
    """Run outcome-sampling MCCFR on ``game_name`` and play its average policy (as seat 0) against random play.

    A tie counts half a win. OpenSpiel's solver samples with numpy's global generator,
    seeded here from ``seed``; the games are dealt from ``seed`` too.
    """
    np.random.seed(seed)
    game = pyspiel.load_game(register(game_name, players), {"seed": seed})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(iterations):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.default_rng(seed)
    wins = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=odds)))
                continue
            player = state.current_player()
            legal = state.legal_actions(player)
            if player == 0:
                chances = policy.action_probabilities(state, player)
                weights = np.array([chances.get(action, 0.0) for action in legal], dtype=float)
                total = weights.sum()
                action = int(rng.choice(legal, p=weights / total)) if total > 0 else int(rng.choice(legal))
            else:
                action = int(rng.choice(legal))
            state.apply_action(action)
        reward = state.returns()[0]
        wins += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return Outcome(iterations, _tables(solver), games, wins)


def _tables(solver: Any) -> int:
    """Information states in the solver's tables (OpenSpiel keeps them in ``_infostates``)."""
    return len(getattr(solver, "_infostates", {}))


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m meadhall.rl.mccfr GAME [--players N] [--iterations N] [--games N] [--seed N]``."""
    parser = argparse.ArgumentParser(prog="python -m meadhall.rl.mccfr", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a meadhall game with spaces, by name")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=100, help="MCCFR iterations (one sampled game each)")
    parser.add_argument("--games", type=int, default=10, help="games of the average policy against random play")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    outcome = run(options.game, options.players, options.iterations, options.games, options.seed)
    print(outcome.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
