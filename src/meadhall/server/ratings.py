"""Elo ratings per game for registered users, updated when a game ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

START = 1500.0
K = 32.0


def expected(a: float, b: float) -> float:
    """The expected score of a player rated ``a`` against one rated ``b``."""
    return 1.0 / (1.0 + 10 ** ((b - a) / 400.0))


def update(ratings: Mapping[int, float], places: Mapping[int, int]) -> dict[int, float]:
    """New ratings after a game: every pair of players is one result, K shared out.

    ``ratings`` and ``places`` are keyed by user id (only registered players).
    """
    players: Sequence[int] = list(places)
    if len(players) < 2:
        return dict(ratings)
    k = K / (len(players) - 1)
    change = dict.fromkeys(players, 0.0)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            score = 1.0 if places[a] < places[b] else 0.0 if places[a] > places[b] else 0.5
            delta = k * (score - expected(ratings[a], ratings[b]))
            change[a] += delta
            change[b] -= delta
    return {player: ratings[player] + change[player] for player in players}
