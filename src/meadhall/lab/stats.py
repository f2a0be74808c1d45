"""The statistics of the arena and the balance reports: intervals, corrections and Elo.

* :func:`wilson` and :func:`interval`: the 95% Wilson score interval of a proportion
  (for a whole or a fractional number of trials);
* :func:`bonferroni_z`: the z of a one-sided test shared among many, so that among many
  entries a few clearing the plain 95% bar by chance alone are not taken for real;
* :func:`pairwise`, :func:`bradley_terry`, :func:`bootstrap_ratings` and
  :func:`two_player_interval`: Elo ratings fitted to every pair of seats in every game,
  with 95% intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Protocol

from meadhall.core.rng import Rng


def wilson(successes: float, trials: float, z: float = 1.96) -> tuple[float, float]:
    """The 95% (by default) Wilson score interval of a proportion; ``(0, 1)`` without trials.

    The formula holds for a fractional number of trials too: a seat whose favourite is a
    tie between two gods adds half a sample to each.
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def interval(successes: float, trials: float, z: float = 1.96) -> tuple[float, float]:
    """:func:`wilson` of a possibly fractional sample size (a whole one is taken as an int)."""
    whole = round(trials)
    return wilson(successes, whole if whole == trials else trials, z)


def bonferroni_z(tests: int) -> float:
    """The one-sided z of a 2.5% false-alarm chance shared among ``tests`` tests."""
    return NormalDist().inv_cdf(1 - 0.025 / max(1, tests))


class Placed(Protocol):
    """A finished game as Elo reads it: which bot sat in each seat, and each seat's place."""

    @property
    def lineup(self) -> Sequence[str]:
        """The bot of each seat."""
        ...

    @property
    def places(self) -> Sequence[int]:
        """The place of each seat (1 = first)."""
        ...


def pairwise(results: Sequence[Placed], bots: Sequence[str]) -> list[list[float]]:
    """wins[i][j]: how often bot i placed ahead of bot j (ties count a half each)."""
    index = {bot: i for i, bot in enumerate(bots)}
    wins = [[0.0] * len(bots) for _ in bots]
    for result in results:
        for a, bot_a in enumerate(result.lineup):
            for b, bot_b in enumerate(result.lineup):
                if a >= b or bot_a == bot_b:
                    continue
                i, j = index[bot_a], index[bot_b]
                if result.places[a] < result.places[b]:
                    wins[i][j] += 1
                elif result.places[a] > result.places[b]:
                    wins[j][i] += 1
                else:
                    wins[i][j] += 0.5
                    wins[j][i] += 0.5
    return wins


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5, rounds: int = 500) -> list[float]:
    """Elo ratings (mean 1500) fitted to pairwise wins by the MM algorithm.

    ``prior`` adds that many virtual drawn games between every pair, so a bot that never
    lost still gets a finite rating (its interval then says how far it may really be).
    """
    n = len(wins)
    if n == 1:
        return [1500.0]
    w = [[wins[i][j] + (prior / 2 if i != j else 0.0) for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(rounds):
        updated = []
        for i in range(n):
            total_wins = sum(w[i][j] for j in range(n) if j != i)
            denominator = sum((w[i][j] + w[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i)
            updated.append(total_wins / denominator if denominator > 0 else strength[i])
        mean_log = sum(math.log(s) for s in updated) / n
        strength = [s / math.exp(mean_log) for s in updated]
    return [1500.0 + 400.0 * math.log10(s) for s in strength]


def bootstrap_ratings(results: Sequence[Placed], bots: Sequence[str], samples: int, seed: int) -> list[list[float]]:
    """Elo ratings of ``samples`` resamples of the games (with replacement), seeded."""
    rng = Rng(seed)
    ratings: list[list[float]] = []
    if results:
        for _ in range(samples):
            resample = [results[rng.below(len(results))] for _ in results]
            ratings.append(bradley_terry(pairwise(resample, bots), rounds=200))
    return ratings


def elo_of_share(share: float) -> float:
    """Half the Elo difference that gives this expected score (each of two bots moves half)."""
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return 200.0 * math.log10(share / (1.0 - share))


def two_player_interval(wins: Sequence[Sequence[float]], i: int) -> tuple[float, float]:
    """95% Elo interval of bot ``i`` of two, from the Wilson interval of its score share.

    Unlike a bootstrap, this stays honest for a perfect record: the far bound is infinite.
    """
    j = 1 - i
    total = wins[i][j] + wins[j][i]
    low, high = wilson(wins[i][j], round(total)) if total else (0.0, 1.0)
    return 1500.0 + elo_of_share(low), 1500.0 + elo_of_share(high)
