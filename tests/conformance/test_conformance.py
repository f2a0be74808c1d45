"""The conformance suite over every registered game, preset and player count."""

from __future__ import annotations

import pytest

from meadhall.core.game import Game
from meadhall.core.registry import all_games
from meadhall.testing.conformance import Setup, check_explicit_chance, play_and_check, setups

CASES = [(game, setup) for game in all_games() for setup in setups(game)]


@pytest.mark.parametrize(("game", "setup"), CASES, ids=[f"{g.info.name}-{s}" for g, s in CASES])
def test_random_playout_conforms(game: Game, setup: Setup) -> None:
    state = play_and_check(game, setup, seed=11 + setup.players)
    assert state.is_terminal()


@pytest.mark.parametrize(("game", "setup"), CASES, ids=[f"{g.info.name}-{s}" for g, s in CASES])
def test_explicit_chance_conforms(game: Game, setup: Setup) -> None:
    events = check_explicit_chance(game, setup, seed=5 + setup.players)
    # Valda offers its dice as chance events (docs/rl.md, "OpenSpiel"); the others offer none.
    assert (events > 0) == (game.info.name == "valda")


def test_every_game_has_presets_and_seats() -> None:
    for game in all_games():
        info = game.info
        assert info.presets and info.default_preset in info.presets
        assert 1 <= info.min_players <= info.max_players
        assert info.name == info.name.lower()
