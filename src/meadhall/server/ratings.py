"""Elo ratings per game for registered users, updated when a game ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

START = 1500.0
K = 32.0
#: A game is rated when at least this many registered players sat at it.
MIN_RATED_PLAYERS = 2

#: Which games are rated, in words for people: the register card, the lobby's new-table
#: form and the leaderboards show this sentence.
RATED_RULE = (
    "A finished game is rated when two or more registered players sat at it: each gets an Elo rating per game. "
    "Bots and guests are not rated, so a game against bots alone changes no rating."
)


def is_rated(registered_players: int) -> bool:
    """True if a game with this many registered players (not guests, not bots) is rated."""
    return registered_players >= MIN_RATED_PLAYERS


def rating_note(registered_players: int, free_seats: int) -> str:
    """Whether a table will be rated, for people: its registered players and the seats still free."""
    if is_rated(registered_players):
        return "Rated: the registered players' Elo ratings change when the game ends."
    if is_rated(registered_players + free_seats):
        return "Rated only if registered players take the free seats: bots and guests are not rated."
    return "Not rated: a rated game needs two registered players, and bots and guests are not rated."


def places_with_losers(standing: Sequence[int], losers: Sequence[int]) -> list[int]:
    """Each seat's place when ``losers`` lose whatever the standing (a resignation, a timeout).

    The others are placed among themselves by ``standing`` (1 is first; ties share a
    place); the losers come after all of them, placed among themselves by the standing.
    """
    out = set(losers)
    ahead = [s for s in range(len(standing)) if s not in out]
    places = []
    for seat, place in enumerate(standing):
        group = [s for s in (losers if seat in out else ahead) if s != seat]
        offset = len(ahead) if seat in out else 0
        places.append(offset + 1 + sum(1 for other in group if standing[other] < place))
    return places


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
